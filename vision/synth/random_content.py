"""Plausible table contents for tests, benchmarks and the demo (no rules engine:
just shapes a game could show)."""

from __future__ import annotations

import numpy as np

from .conditions import Conditions
from .scene import COLORS, FLOOR_PLACES, MARKER, BoardContent, TableContent, printed_color

_FACTORIES = {2: 5, 3: 7, 4: 9}


def random_board(rng: np.random.Generator, side: str = "colored", fill: float = 0.5) -> BoardContent:
    """A mid-game board: some pattern lines started, a few wall tiles, a few floor tiles."""
    wall = [[None] * 5 for _ in range(5)]
    for r in range(5):
        for c in range(5):
            if rng.uniform() < 0.4 * fill:
                wall[r][c] = printed_color(r, c) if side == "colored" else str(rng.choice(COLORS))
    lines = []
    for k in range(1, 6):
        if rng.uniform() < fill:
            lines.append((str(rng.choice(COLORS)), int(rng.integers(1, k + 1))))
        else:
            lines.append((None, 0))
    floor_count = int(rng.integers(0, FLOOR_PLACES + 1)) if rng.uniform() < fill else 0
    floor: list[str | None] = [str(rng.choice(COLORS)) for _ in range(floor_count)]
    if floor and rng.uniform() < 0.3:
        floor[0] = MARKER
    floor += [None] * (FLOOR_PLACES - floor_count)
    return BoardContent(side=side, lines=lines, floor=floor, wall=wall, score=int(rng.integers(0, 100)))


def random_content(
    rng: np.random.Generator, players: int = 4, side: str = "colored", fill: float = 0.5
) -> TableContent:
    """Boards for `players`, their factories (mostly full, some emptied) and a centre pile."""
    if players not in _FACTORIES:
        raise ValueError(f"Azul is for 2 to 4 players, got {players}")
    boards = [random_board(rng, side, fill) for _ in range(players)]
    factories = []
    for _ in range(_FACTORIES[players]):
        n = 4 if rng.uniform() < 0.6 else int(rng.choice([0, 0, 1, 2, 3]))
        factories.append([str(c) for c in rng.choice(COLORS, n)])
    center = {c: int(rng.integers(0, 4)) for c in COLORS if rng.uniform() < 0.6}
    marker = MARKER not in [t for b in boards for t in b.floor]
    return TableContent(boards=boards, factories=factories, center_tiles=center, center_marker=marker)


def frame_name(seed: int, i: int, looks: bool = False) -> str:
    """The name a cache keeps mixed_table's frame (seed, i) under, with `looks` or without."""
    return f"{seed}_{i:04d}" + ("_look" if looks else "")


def mixed_table(seed: int, i: int,
                looks: bool = False) -> tuple[TableContent, Conditions, np.random.Generator]:
    """Frame ``i`` of the vision benchmark's mix for ``seed``: its contents, its conditions and
    the generator to render it with (so a benchmark and a calibration draw the same frames).
    With `looks`, the same frame seen through another camera's processing
    (Conditions.with_camera_look, drawn apart so that nothing else changes)."""
    rng = np.random.default_rng([seed, i])
    players = int(rng.integers(2, 5))
    side = "grey" if rng.uniform() < 0.25 else "colored"
    fill = float(rng.uniform(0.1, 1.0))
    content = random_content(rng, players=players, side=side, fill=fill)
    # Every fourth frame is the latency case: a 4-player table at 1920x1080.
    if i % 4 == 0:
        content = random_content(rng, players=4, side=side, fill=fill)
        cond = Conditions.random(rng, 1920, 1080)
    else:
        cond = Conditions.random(rng)
    if looks:
        cond = cond.with_camera_look(np.random.default_rng([seed, i, 1]))
    return content, cond, rng
