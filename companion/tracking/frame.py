"""One ``azul-observation/1`` frame, checked and read into the tracker's numbers.

Colours become the engine's ints (``COLORS`` order); ``MARKER`` is the first-player marker;
``EMPTY`` an empty place; ``None`` a place or count the recogniser could not read (it
carries no evidence). Keys the spec lets the recogniser leave out read as unknown, and
keys this version does not know are ignored (a newer recogniser may add some); wrong
types or values raise :class:`ObservationError` naming the problem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.i18n import _
from companion.rules.azul import COLORS, FLOOR_PLACES, MARKER

FORMAT = "azul-observation/1"
EMPTY = -1
UNKNOWN_NAME = "unknown"
_COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}

Cell = int | None  # a colour, MARKER, EMPTY, or None for unknown


class ObservationError(ValueError):
    """An observation that is not a well-formed ``azul-observation/1``."""


@dataclass(frozen=True, slots=True)
class BoardReading:
    center: tuple[float, float]
    lines: tuple[tuple[Cell, int | None], ...]  # (colour or EMPTY or None, count or None), line 1 first
    floor: tuple[Cell, ...]  # 7 places
    wall: tuple[Cell, ...]  # 25 cells, row-major
    weight: float


@dataclass(frozen=True, slots=True)
class FactoryReading:
    center: tuple[float, float]
    counts: tuple[int, ...]  # tiles read, per colour
    unknown: int  # tiles seen but not read
    weight: float


@dataclass(frozen=True, slots=True)
class CenterReading:
    counts: tuple[int, ...] | None  # None: the centre pile was not read at all
    unknown: int
    marker: bool | None


@dataclass(frozen=True, slots=True)
class Frame:
    occluded: bool
    size: tuple[float, float] | None
    boards: tuple[BoardReading, ...]
    factories: tuple[FactoryReading, ...]
    center: CenterReading | None


def _fail(message: str) -> ObservationError:
    return ObservationError(message)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _point(value: object, where: str) -> tuple[float, float]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(_is_number(v) for v in value)):
        raise _fail(_("{where}: \"center\" must be [x, y] in pixels").format(where=where))
    return float(value[0]), float(value[1])


def _confidence(data: dict, where: str) -> float:
    value = data.get("confidence", 1.0)
    if value is None:
        return 1.0
    if not _is_number(value) or not 0 <= value <= 1:
        raise _fail(_("{where}: confidence must be a number from 0 to 1").format(where=where))
    # A reading with almost no confidence still counts a little, so a view is never empty.
    return max(0.05, float(value))


def _cell(value: object, where: str, marker: bool = False) -> Cell:
    if value is None:
        return EMPTY
    if value == UNKNOWN_NAME:
        return None
    if marker and value == "marker":
        return MARKER
    if isinstance(value, str) and value in _COLOR_INDEX:
        return _COLOR_INDEX[value]
    raise _fail(_("{where}: unknown tile {value!r}").format(where=where, value=value))


def _count(value: object, where: str, most: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise _fail(_("{where}: a count must be 0 to {most} or null").format(where=where, most=most))
    return value


def _board(data: object, number: int) -> BoardReading:
    where = _("board {n}").format(n=number)
    if not isinstance(data, dict):
        raise _fail(_("{where} is not an object").format(where=where))
    lines_data = data.get("lines")
    lines: list[tuple[Cell, int | None]] = []
    if lines_data is None:
        lines = [(None, None)] * 5
    elif not isinstance(lines_data, list) or len(lines_data) != 5:
        raise _fail(_("{where}: \"lines\" must list 5 pattern lines").format(where=where))
    else:
        for k, line in enumerate(lines_data, 1):
            at = _("{where} line {k}").format(where=where, k=k)
            if not isinstance(line, dict):
                raise _fail(_("{where} is not an object").format(where=at))
            color = _cell(line.get("color", UNKNOWN_NAME), at)
            count = _count(line.get("count"), at, 5)
            if color == EMPTY and count is None:
                count = 0  # an empty line holds nothing, whatever the count said
            lines.append((color, count))
    floor_data = data.get("floor")
    if floor_data is None:
        floor: tuple[Cell, ...] = (None,) * FLOOR_PLACES
    elif not isinstance(floor_data, list) or len(floor_data) > FLOOR_PLACES:
        raise _fail(_("{where}: \"floor\" must list at most 7 places").format(where=where))
    else:
        floor = tuple(_cell(v, _("{where} floor").format(where=where), marker=True) for v in floor_data)
        floor += (None,) * (FLOOR_PLACES - len(floor))
    wall_data = data.get("wall")
    if wall_data is None:
        wall: tuple[Cell, ...] = (None,) * 25
    elif (not isinstance(wall_data, list) or len(wall_data) != 5
          or not all(isinstance(row, list) and len(row) == 5 for row in wall_data)):
        raise _fail(_("{where}: \"wall\" must be 5 rows of 5").format(where=where))
    else:
        wall = tuple(_cell(v, _("{where} wall").format(where=where)) for row in wall_data for v in row)
    return BoardReading(_point(data.get("center"), where), tuple(lines), floor, wall,
                        _confidence(data, where))


def _factory(data: object, number: int) -> FactoryReading:
    where = _("factory {n}").format(n=number)
    if not isinstance(data, dict):
        raise _fail(_("{where} is not an object").format(where=where))
    tiles = data.get("tiles", [])
    if not isinstance(tiles, list) or len(tiles) > 8:
        raise _fail(_("{where}: \"tiles\" must be a list of colours").format(where=where))
    counts = [0] * 5
    unknown = _count(data.get("unknown", 0), where, 8) or 0
    for name in tiles:
        cell = _cell(name, where)
        if cell is None:
            unknown += 1
        elif cell != EMPTY:
            counts[cell] += 1
    return FactoryReading(_point(data.get("center"), where), tuple(counts), unknown,
                          _confidence(data, where))


def _center(data: object) -> CenterReading:
    where = _("centre")
    if not isinstance(data, dict):
        raise _fail(_("{where} is not an object").format(where=where))
    unknown = _count(data.get("unknown", 0), where, 100) or 0
    tiles = data.get("tiles")
    counts: tuple[int, ...] | None
    if tiles is None:
        counts = None
    elif isinstance(tiles, dict):
        found = [0] * 5
        for name, n in tiles.items():
            number = _count(n, where, 100)
            if name == UNKNOWN_NAME:
                unknown += number or 0
                continue
            if name not in _COLOR_INDEX:
                raise _fail(_("{where}: unknown tile {value!r}").format(where=where, value=name))
            if number is None:
                unknown += 1
            else:
                found[_COLOR_INDEX[name]] += number
        counts = tuple(found)
    elif isinstance(tiles, list):
        found = [0] * 5
        for name in tiles:
            cell = _cell(name, where)
            if cell is None:
                unknown += 1
            elif cell != EMPTY:
                found[cell] += 1
        counts = tuple(found)
    else:
        raise _fail(_("{where}: \"tiles\" must map colours to counts").format(where=where))
    marker = data.get("marker")
    if marker is not None and not isinstance(marker, bool):
        raise _fail(_("{where}: \"marker\" must be true, false or null").format(where=where))
    return CenterReading(counts, unknown, marker)


def read_frame(data: object) -> Frame:
    """Check one observation and read it; raise :class:`ObservationError` saying what is wrong."""
    if not isinstance(data, dict):
        raise _fail(_("an observation is a JSON object"))
    if data.get("format", FORMAT) != FORMAT:
        raise _fail(_("format must be {expected!r}, not {found!r}").format(
            expected=FORMAT, found=data.get("format")))
    occluded = data.get("occluded", False)
    if not isinstance(occluded, bool):
        raise _fail(_("\"occluded\" must be true or false"))
    size = None
    image = data.get("image")
    if isinstance(image, dict) and _is_number(image.get("width")) and _is_number(image.get("height")):
        size = (float(image["width"]), float(image["height"]))
    boards = data.get("boards", [])
    factories = data.get("factories", [])
    if not isinstance(boards, list):
        raise _fail(_("\"boards\" must be a list"))
    if not isinstance(factories, list):
        raise _fail(_("\"factories\" must be a list"))
    center = data.get("center")
    return Frame(
        occluded,
        size,
        tuple(_board(b, i) for i, b in enumerate(boards, 1)),
        tuple(_factory(f, i) for i, f in enumerate(factories, 1)),
        None if center is None else _center(center),
    )
