"""The view of the table that several frames agree on, cell by cell.

Readings of a still table flicker; a hand hides part of it. The tracker keeps the last
``frames`` readings that nothing occluded and takes, for every place, the value a
majority of them show (a count of tiles: their median). A place without a majority is
unknown in the view, and unknown places carry no evidence either way.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

from companion.tracking.frame import BoardReading, Cell, CenterReading, FactoryReading


@dataclass(frozen=True, slots=True)
class BoardView:
    lines: tuple[tuple[Cell, int | None], ...]
    floor: tuple[Cell, ...]
    wall: tuple[Cell, ...] | None  # None when the wall is not read (coloured side)
    weight: float


@dataclass(frozen=True, slots=True)
class FactoryView:
    counts: tuple[int, ...]
    unknown: int
    weight: float


@dataclass(frozen=True, slots=True)
class CenterView:
    counts: tuple[int, ...] | None
    unknown: int
    marker: bool | None


@dataclass(frozen=True, slots=True)
class View:
    boards: tuple[BoardView | None, ...]
    factories: tuple[FactoryView | None, ...]
    center: CenterView | None


Assigned = tuple[list[BoardReading | None], list[FactoryReading | None], CenterReading | None]


def _majority(values: list, need: int):
    """The value at least ``need`` of the known ``values`` agree on, else None (unknown)."""
    known = [v for v in values if v is not None]
    if len(known) < need:
        return None
    value, votes = Counter(known).most_common(1)[0]
    return value if votes >= need else None


def _line(readings: list[tuple[Cell, int | None]], need: int) -> tuple[Cell, int | None]:
    """A pattern line's colour and count; tiles whose colour the frames do not agree on
    count as unknown: two different flickering misreads must not add up to a tile."""
    color = _majority([r[0] for r in readings], need)
    count = _majority([r[1] for r in readings], need)
    if color is None and count:
        count = None
    return color, count


def _median(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


class Consensus:
    """The last ``frames`` non-occluded readings, and the view they agree on."""

    def __init__(self, frames: int = 3, read_wall: bool = False) -> None:
        if frames < 1:
            raise ValueError("frames must be at least 1")
        self.frames = frames
        self.need = frames // 2 + 1
        self.read_wall = read_wall
        self._window: deque[Assigned] = deque(maxlen=frames)

    def add(self, assigned: Assigned) -> None:
        self._window.append(assigned)

    def clear(self) -> None:
        self._window.clear()

    @property
    def full(self) -> bool:
        return len(self._window) == self.frames

    def view(self) -> View:
        window = list(self._window)
        seats = len(window[0][0])
        numbers = len(window[0][1])
        boards = tuple(self._board([w[0][s] for w in window]) for s in range(seats))
        factories = tuple(self._factory([w[1][n] for w in window]) for n in range(numbers))
        return View(boards, factories, self._center([w[2] for w in window]))

    def _board(self, readings: list[BoardReading | None]) -> BoardView | None:
        seen = [r for r in readings if r is not None]
        need = self.need
        if len(seen) < need:
            return None
        lines = tuple(_line([r.lines[k] for r in seen], need) for k in range(5))
        floor = tuple(_majority([r.floor[k] for r in seen], need) for k in range(len(seen[0].floor)))
        wall = (tuple(_majority([r.wall[k] for r in seen], need) for k in range(25))
                if self.read_wall else None)
        return BoardView(lines, floor, wall, _median_float([r.weight for r in seen]))

    def _factory(self, readings: list[FactoryReading | None]) -> FactoryView | None:
        seen = [r for r in readings if r is not None]
        if len(seen) < self.need:
            return None
        counts = tuple(_median([r.counts[c] for r in seen]) for c in range(5))
        total = _median([sum(r.counts) + r.unknown for r in seen])
        return FactoryView(counts, max(0, total - sum(counts)), _median_float([r.weight for r in seen]))

    def _center(self, readings: list[CenterReading | None]) -> CenterView | None:
        seen = [r for r in readings if r is not None]
        if len(seen) < self.need:
            return None
        counted = [r for r in seen if r.counts is not None]
        counts = None
        unknown = 0
        if len(counted) >= self.need:
            counts = tuple(_median([r.counts[c] for r in counted]) for c in range(5))  # type: ignore[index]
            total = _median([sum(r.counts) + r.unknown for r in counted])  # type: ignore[arg-type]
            unknown = max(0, total - sum(counts))
        return CenterView(counts, unknown, _majority([r.marker for r in seen], self.need))


def _median_float(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]
