"""Which board is which seat and which disc is which factory (observation.md's rules).

Seat 0 is the board nearest the bottom edge of the image; the others follow clockwise
as seen from above. Factory 1 is the disc nearest the bottom edge; the others follow
clockwise round the middle of the factory circle. The numbers are set the first time
every board (every disc) is in view and settle over the next few such frames (their
median places); each reading goes to the nearest known place, so a number stays with its
disc while the disc stays put.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from companion.tracking.frame import BoardReading, FactoryReading, Frame

T = TypeVar("T", BoardReading, FactoryReading)
SETTLE = 9  # full frames the places are settled over before the numbering is fixed


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


class _Places:
    """Where the objects of one kind lie, numbered; settled over the first full frames.

    A single frame's centres jitter: two discs almost level with the bottom edge could
    swap the numbering. The places are the median of the first ``SETTLE`` frames that
    show every object (a far-off detection does not move a median), and the numbering
    follows them.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.places: list[tuple[float, float]] | None = None
        self._samples: list[list[tuple[float, float]]] = []

    def assign(self, readings: Sequence[T], middle: tuple[float, float] | None) -> list[T | None]:
        if self.places is None:
            if len(readings) != self.count:
                return [None] * self.count
            points = [r.center for r in readings]
            order = clockwise_order(points, middle or _mean(points))
            self.places = [points[i] for i in order]
            self._samples = [[p] for p in self.places]
            return [readings[i] for i in order]
        matched = _match(self.places, readings)
        if len(self._samples[0]) < SETTLE and len(readings) == self.count:
            for samples, reading in zip(self._samples, matched, strict=True):
                samples.append(reading.center)  # type: ignore[union-attr]
            medians = [(_median([x for x, _y in samples]), _median([y for _x, y in samples]))
                       for samples in self._samples]
            order = clockwise_order(medians, middle or _mean(medians))
            self.places = [medians[i] for i in order]
            self._samples = [self._samples[i] for i in order]
            matched = [matched[i] for i in order]
        return matched


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


class TableLayout:
    """Seat and factory numbering for one table, learnt from the frames."""

    def __init__(self, players: int, factories: int) -> None:
        self.players = players
        self.factories = factories
        self._seats = _Places(players)
        self._discs = _Places(factories)

    @property
    def seat_places(self) -> list[tuple[float, float]] | None:
        return self._seats.places

    @property
    def factory_places(self) -> list[tuple[float, float]] | None:
        return self._discs.places

    def assign(self, frame: Frame) -> tuple[list[BoardReading | None], list[FactoryReading | None]]:
        """The frame's boards in seat order and its discs in factory order (None: not seen)."""
        factories = self._discs.assign(frame.factories, None)
        boards = self._seats.assign(frame.boards, self._middle(frame))
        return boards, factories

    def _middle(self, frame: Frame) -> tuple[float, float]:
        if self.factory_places:
            return _mean(self.factory_places)
        if len(frame.factories) >= 3:
            return _mean([f.center for f in frame.factories])
        if frame.size is not None:
            return frame.size[0] / 2, frame.size[1] / 2
        return _mean([b.center for b in frame.boards])
