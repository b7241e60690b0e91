"""Where things lie on the table (mm, x east, y south, origin at the centre pile).

Players sit round the table: each board lies in front of its owner, upright for
them, so seen from the south side boards appear at 0, 90, 180 and 270 degrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .board import BOARD_H_MM, BOARD_W_MM
from .factory import DISC_RADIUS_MM
from .tiles import TILE_MM

# Seat sides round the table, clockwise seen from above: (direction, board rotation).
_SIDES = {
    "south": ((0.0, 1.0), 0.0),
    "west": ((-1.0, 0.0), 90.0),
    "north": ((0.0, -1.0), 180.0),
    "east": ((1.0, 0.0), 270.0),
}
_SEATING = {
    2: (("south", "north"),),
    3: (("south", "west", "north"), ("south", "west", "east")),
    4: (("south", "west", "north", "east"),),
}


@dataclass(frozen=True)
class BoardPlacement:
    x: float
    y: float
    rotation_deg: float  # clockwise from upright, seen from above with north up


@dataclass(frozen=True)
class Layout:
    boards: tuple[BoardPlacement, ...]
    factories: tuple[tuple[float, float], ...]
    center: tuple[float, float] = (0.0, 0.0)
    center_radius: float = 90.0  # the free table inside the factory circle

    @staticmethod
    def around_table(
        n_boards: int,
        n_factories: int,
        rng: np.random.Generator,
        *,
        board_jitter_mm: float = 25.0,
        board_jitter_deg: float = 5.0,
        factory_jitter_mm: float = 10.0,
    ) -> Layout:
        ring = max(140.0, n_factories * (2 * DISC_RADIUS_MM + 28) / (2 * math.pi))
        ring *= rng.uniform(1.0, 1.12)
        start = rng.uniform(0, 2 * math.pi)
        factories = []
        for k in range(n_factories):
            a = start + 2 * math.pi * k / n_factories + rng.uniform(-0.06, 0.06)
            r = ring + rng.uniform(-factory_jitter_mm, factory_jitter_mm)
            factories.append((r * math.cos(a), r * math.sin(a)))
        seating = _SEATING[n_boards][int(rng.integers(len(_SEATING[n_boards])))]
        boards = []
        for side in seating:
            (dx, dy), rotation = _SIDES[side]
            dist = ring + DISC_RADIUS_MM + rng.uniform(25, 70) + BOARD_H_MM / 2
            along = rng.uniform(-board_jitter_mm, board_jitter_mm) * 1.5
            radial = rng.uniform(-board_jitter_mm, board_jitter_mm) * 0.5
            boards.append(
                BoardPlacement(
                    dx * (dist + radial) - dy * along,
                    dy * (dist + radial) + dx * along,
                    (rotation + rng.uniform(-board_jitter_deg, board_jitter_deg)) % 360,
                )
            )
        return Layout(tuple(boards), tuple(factories), (0.0, 0.0), ring - DISC_RADIUS_MM - 8)

    def extent_points(self) -> np.ndarray:
        """Table points (x, y, height) that must be in view to see everything in play."""
        pts = []
        for b in self.boards:
            a = math.radians(b.rotation_deg)
            c, s = math.cos(a), math.sin(a)
            for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                x, y = u * BOARD_W_MM / 2, v * BOARD_H_MM / 2
                pts.append((b.x + c * x - s * y, b.y + s * x + c * y, 0.0))
        for fx, fy in self.factories:
            for a in np.linspace(0, 2 * math.pi, 8, endpoint=False):
                pts.append((fx + DISC_RADIUS_MM * math.cos(a), fy + DISC_RADIUS_MM * math.sin(a), 0.0))
        return np.array(pts)


def pile_positions(
    count: int, center: tuple[float, float], radius: float, rng: np.random.Generator
) -> list[tuple[float, float, float]]:
    """Loose centre-pile tiles: (x, y, angle) scattered without much overlap."""
    placed: list[tuple[float, float, float]] = []
    spread = min(radius, 25 + 9 * math.sqrt(count))
    for _ in range(count):
        best = None
        for attempt in range(60):
            r = spread * math.sqrt(rng.uniform()) * (1 + attempt / 60)
            a = rng.uniform(0, 2 * math.pi)
            x, y = center[0] + r * math.cos(a), center[1] + r * math.sin(a)
            gap = min((math.hypot(x - px, y - py) for px, py, _ in placed), default=1e9)
            if best is None or gap > best[0]:
                best = (gap, x, y)
            if gap > TILE_MM * 1.2:
                break
        assert best is not None
        placed.append((best[1], best[2], rng.uniform(0, 90)))
    return placed


def factory_positions(count: int, rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Up to 4 tiles on a disc in a rough 2x2 block, touching or slightly turned:
    (x, y, angle) relative to the disc centre."""
    block = rng.uniform(0, 90)
    a = math.radians(block)
    c, s = math.cos(a), math.sin(a)
    pitch = TILE_MM + rng.uniform(0.0, 1.5)
    slots = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    order = rng.permutation(4)
    out = []
    for k in order[:count]:
        u, v = slots[k]
        x = u * pitch + rng.normal(0, 0.8)
        y = v * pitch + rng.normal(0, 0.8)
        out.append((c * x - s * y, s * x + c * y, block + rng.normal(0, 3.0)))
    return out
