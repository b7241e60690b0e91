"""Which board is which seat and which disc is which factory (observation.md's rules).

Seat 0 is the board nearest the bottom edge of the image; the others follow clockwise
as seen from above. Factory 1 is the disc nearest the bottom edge; the others follow
clockwise round the middle of the factory circle. The numbers are fixed the first time
every board (every disc) is in view, then each reading goes to the nearest known place,
so a number stays with its disc while the disc stays put.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from companion.tracking.frame import BoardReading, FactoryReading, Frame

T = TypeVar("T", BoardReading, FactoryReading)


def clockwise_order(points: Sequence[tuple[float, float]], middle: tuple[float, float]) -> list[int]:
    """Indices of ``points``: first the one nearest the bottom edge, then clockwise round ``middle``.

    Image y grows downwards, so clockwise on the picture is a growing atan2 angle.
    """
    if not points:
        return []
    first = max(range(len(points)), key=lambda i: (points[i][1], -points[i][0]))
    cx, cy = middle

    def angle(i: int) -> float:
        x, y = points[i]
        return math.atan2(y - cy, x - cx)

    start = angle(first)
    return sorted(range(len(points)),
                  key=lambda i: (0.0 if i == first else (angle(i) - start) % (2 * math.pi) or 2 * math.pi))


def _mean(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _match(known: list[tuple[float, float]], readings: Sequence[T]) -> list[T | None]:
    """Give each known place the nearest reading (closest pairs first, each used once)."""
    pairs = sorted(
        (math.dist(place, reading.center), k, r)
        for k, place in enumerate(known) for r, reading in enumerate(readings))
    out: list[T | None] = [None] * len(known)
    used: set[int] = set()
    for _distance, k, r in pairs:
        if out[k] is None and r not in used:
            out[k] = readings[r]
            used.add(r)
    return out


class TableLayout:
    """Seat and factory numbering for one table, learnt from the frames."""

    def __init__(self, players: int, factories: int) -> None:
        self.players = players
        self.factories = factories
        self.seat_places: list[tuple[float, float]] | None = None
        self.factory_places: list[tuple[float, float]] | None = None

    def assign(self, frame: Frame) -> tuple[list[BoardReading | None], list[FactoryReading | None]]:
        """The frame's boards in seat order and its discs in factory order (None: not seen)."""
        factories = self._assign_factories(frame.factories)
        boards = self._assign_boards(frame)
        return boards, factories

    def _middle(self, frame: Frame) -> tuple[float, float]:
        if self.factory_places:
            return _mean(self.factory_places)
        if len(frame.factories) >= 3:
            return _mean([f.center for f in frame.factories])
        if frame.size is not None:
            return frame.size[0] / 2, frame.size[1] / 2
        return _mean([b.center for b in frame.boards])

    def _assign_boards(self, frame: Frame) -> list[BoardReading | None]:
        boards = frame.boards
        if self.seat_places is None:
            if len(boards) != self.players:
                return [None] * self.players
            order = clockwise_order([b.center for b in boards], self._middle(frame))
            self.seat_places = [boards[i].center for i in order]
            return [boards[i] for i in order]
        return _match(self.seat_places, boards)

    def _assign_factories(self, discs: Sequence[FactoryReading]) -> list[FactoryReading | None]:
        if self.factory_places is None:
            if len(discs) != self.factories:
                return [None] * self.factories
            points = [d.center for d in discs]
            order = clockwise_order(points, _mean(points))
            self.factory_places = [points[i] for i in order]
            return [discs[i] for i in order]
        return _match(self.factory_places, discs)
