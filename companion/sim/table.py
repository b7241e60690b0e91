"""The true observation of an engine state: what a perfect recogniser would report.

Boards and factories get image positions laid out as at a real table: the factory
circle near the middle of the picture, each board beyond it in front of its owner and
turned to face them, the whole table turned any way in the picture. Seats and factory
numbers follow observation.md: seat 0 is the board nearest the bottom edge, the others
clockwise; factory 1 is the disc nearest the bottom edge, the others clockwise.

:func:`still_states` lists the states a real table passes through after an event and
stays in long enough to be seen: after the last take of a round, the boards before the
wall-tiling and after it; after the last grey-wall placement, the floors before and
after they are cleared.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from companion.rules.azul import (
    CENTER,
    COLORS,
    FACTORIES,
    FLOOR_PLACES,
    MARKER,
    Event,
    Game,
    Place,
    PlayerBoard,
    Refill,
    Take,
)
from companion.tracking.layout import clockwise_order

IMAGE_SIZES = ((1920, 1080), (1280, 960), (1600, 1200), (2592, 1944), (1080, 1080))


@dataclass(frozen=True)
class SeatLayout:
    """Image positions: boards in seat order (x, y, rotation), factories in number order."""

    width: int
    height: int
    boards: tuple[tuple[float, float, int], ...]
    factories: tuple[tuple[float, float], ...]


LEVEL = 12.0  # pixels: a disc or board this close to level with the lowest is redrawn


def random_layout(players: int, rng: random.Random) -> SeatLayout:
    """A table as a camera may see it, numbered by observation.md's rules.

    Tables where the lowest two discs (or boards) lie almost level are not drawn: there
    observation.md's numbering depends on a pixel, and no tracker can be judged by it.
    """
    while True:
        layout = _draw_layout(players, rng)
        if _clear_lowest([y for _x, y in layout.factories]) and \
                _clear_lowest([y for _x, y, _r in layout.boards]):
            return layout


def _clear_lowest(ys: list[float]) -> bool:
    lowest, second = sorted(ys, reverse=True)[:2]
    return lowest - second >= LEVEL


def _draw_layout(players: int, rng: random.Random) -> SeatLayout:
    width, height = rng.choice(IMAGE_SIZES)
    scale = min(width, height)
    middle = (width / 2 + rng.uniform(-0.05, 0.05) * width, height / 2 + rng.uniform(-0.05, 0.05) * height)
    count = FACTORIES[players]
    ring = scale * rng.uniform(0.14, 0.2)
    start = rng.uniform(0, 2 * math.pi)
    discs = []
    for k in range(count):
        a = start + 2 * math.pi * k / count + rng.uniform(-0.08, 0.08)
        r = ring * rng.uniform(0.93, 1.07)
        discs.append((middle[0] + r * math.cos(a), middle[1] + r * math.sin(a)))
    factories = tuple(discs[i] for i in clockwise_order(discs, _mean(discs)))
    # The players sit on sides of the table; the camera may see the table turned a little.
    turn = rng.uniform(-0.35, 0.35)
    sides = {2: [(0, 2)], 3: [(0, 1, 2), (0, 1, 3), (0, 2, 3)], 4: [(0, 1, 2, 3)]}[players]
    chosen = rng.choice(sides)
    spots = []
    for side in chosen:
        a = math.pi / 2 + side * math.pi / 2 + turn + rng.uniform(-0.1, 0.1)
        r = scale * rng.uniform(0.36, 0.42)
        x = middle[0] + r * math.cos(a) * (width / scale) ** 0.5
        y = middle[1] + r * math.sin(a)
        rotation = round(math.degrees(a - math.pi / 2) / 90) % 4 * 90
        spots.append((x, y, rotation))
    order = clockwise_order([(x, y) for x, y, _r in spots], middle)
    return SeatLayout(width, height, tuple(spots[i] for i in order), factories)


def _mean(points: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def board_observation(board: PlayerBoard, spot: tuple[float, float, int], side: str) -> dict:
    return {
        "center": [round(spot[0], 1), round(spot[1], 1)],
        "rotation": spot[2],
        "side": side,
        "lines": [{"color": COLORS[c] if n else None, "count": n}
                  for c, n in zip(board.line_colors, board.line_counts, strict=True)],
        "floor": ["marker" if c == MARKER else COLORS[c] for c in board.floor]
        + [None] * (FLOOR_PLACES - len(board.floor)),
        "wall": [[COLORS[c] if c >= 0 else None for c in board.wall[r * 5: r * 5 + 5]] for r in range(5)],
        "confidence": 1.0,
    }


def table_observation(game: Game, seed_layout: int = 0, layout: SeatLayout | None = None) -> dict:
    """The ``azul-observation/1`` a perfect recogniser reports for ``game``'s table."""
    if layout is None:
        layout = random_layout(game.players, random.Random(seed_layout))
    return {
        "format": "azul-observation/1",
        "image": {"width": layout.width, "height": layout.height},
        "occluded": False,
        "boards": [board_observation(board, spot, game.variant)
                   for board, spot in zip(game.boards, layout.boards, strict=True)],
        "factories": [
            {"center": [round(x, 1), round(y, 1)],
             "tiles": [COLORS[c] for c in sorted(f) for _n in range(f[c])],
             "unknown": 0, "confidence": 1.0}
            for f, (x, y) in zip(game.factories, layout.factories, strict=True)],
        "center": {"tiles": {COLORS[c]: n for c, n in sorted(game.center.items()) if n},
                   "marker": game.center_marker, "unknown": 0},
    }


def still_states(game: Game, event: Event) -> list[Game]:
    """The tables seen after ``event`` is played on ``game`` (not changed), in order.

    The last is the engine's state after the event; earlier ones are the table before
    the players finished tiling their walls or clearing their floors.
    """
    after = game.copy()
    after.push(event)
    if isinstance(event, Take):
        source = game.center if event.source == CENTER else game.factories[event.source - 1]
        if game.on_table == source[event.color] and after.phase != "tiling":
            return [game.preview(event), after]
        return [after]
    if isinstance(event, Place) and after.round_scores != game.round_scores:
        # The last placement of the round: floors are cleared only afterwards.
        before = after.copy()
        for seat, (old, new) in enumerate(zip(game.boards, before.boards, strict=True)):
            floor = list(old.floor)
            if seat == event.player and len(new.floor) == 0:
                row = event.line - 1
                color = old.line_colors[row]
                if old.col_colors[event.column - 1] >> color & 1:
                    floor += [color] * min(row + 1, FLOOR_PLACES - len(floor))
            new.floor = floor
        return [before, after]
    if isinstance(event, Refill):
        return [after]
    return [after]


def partly_filled(game: Game, refill: Refill, factories: int) -> Game:
    """The table while the refill is being laid out: only the first ``factories`` discs filled."""
    partial = game.copy()
    for number, tiles in enumerate(refill.factories[:factories]):
        for color in tiles:
            partial.factories[number][color] = partial.factories[number].get(color, 0) + 1
    return partial
