"""Azul Kids boards as data: the `azul-kids-board/1` format, its checks, and the examples.

The real boards' pictures are not in our sources (RULES.md section 3), so a board is a
JSON file a person can write for their own board. Every problem raises
:class:`BoardError` naming the file, the picture and the field at fault.

Positions are board-relative: ``[x, y]`` with x the fraction of the board's width from
its left edge and y the fraction of its height from its top edge, both 0..1.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.i18n import _
from companion.rules.errors import RulesError

BOARD_FORMAT = "azul-kids-board/1"
SHAPES = ("square", "hexagon", "diamond", "circle")
APPRENTICE, MASTER = "apprentice", "master"
SIDES = (APPRENTICE, MASTER)
TILES_PER_SHAPE = 30
MASTER_PICTURE_FIELDS = (1, 6)  # a master picture has 1 to 6 fields (seed 003)
EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "boards"

_BOARD_KEYS = {"format", "name", "side", "pictures", "note"}
_PICTURE_KEYS = {"id", "stars", "fields", "outline"}
_FIELD_POSITION_KEYS = ("at", "outline")

Point = tuple[float, float]


class BoardError(RulesError):
    """A board definition that is not valid `azul-kids-board/1`; ``source`` names where it came from."""

    def __init__(self, message: str, source: str) -> None:
        super().__init__(f"{source}: {message}")
        self.message = message
        self.source = source


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a picture. The rules read only ``shape``; ``at`` (centre) and
    ``outline`` (polygon) place it on the board for vision; ``extra`` keeps any other
    keys a field carries, so a board written back is the board read."""

    shape: str
    at: Point | None = None
    outline: tuple[Point, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"shape": self.shape}
        if self.at is not None:
            data["at"] = list(self.at)
        if self.outline is not None:
            data["outline"] = [list(point) for point in self.outline]
        data.update(self.extra)
        return data


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture of fields worth ``stars`` once every field holds a tile."""

    id: str
    stars: int
    fields: tuple[Field, ...]
    outline: tuple[Point, ...] | None = None

    def count(self, shape: str) -> int:
        """How many fields of ``shape`` the picture has."""
        return sum(1 for f in self.fields if f.shape == shape)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"id": self.id, "stars": self.stars,
                                "fields": [f.to_json() for f in self.fields]}
        if self.outline is not None:
            data["outline"] = [list(point) for point in self.outline]
        return data


@dataclass(frozen=True, slots=True)
class KidsBoard:
    """One side of a player's board: ``side`` is "apprentice" (one picture, 0 stars) or "master"."""

    name: str
    side: str
    pictures: tuple[Picture, ...]
    note: str | None = None

    def count(self, shape: str) -> int:
        """How many fields of ``shape`` the whole board has."""
        return sum(p.count(shape) for p in self.pictures)

    def picture(self, picture_id: str) -> Picture:
        for picture in self.pictures:
            if picture.id == picture_id:
                return picture
        raise KeyError(picture_id)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"format": BOARD_FORMAT, "name": self.name, "side": self.side}
        if self.note is not None:
            data["note"] = self.note
        data["pictures"] = [p.to_json() for p in self.pictures]
        return data

    @classmethod
    def from_json(cls, data: object, source: str = "board") -> KidsBoard:
        """Check a parsed JSON value is an `azul-kids-board/1` board and build it.

        ``source`` (a file name, or "board 2" inside a record) starts every error message.
        """
        return _Reader(source).board(data)


def load_board(path: Path | str) -> KidsBoard:
    """Read one board file; BoardError (naming the file) if it cannot be read or is not valid."""
    path = Path(path)
    try:
        data = json.loads(path.read_bytes())
    except OSError as error:
        raise BoardError(_("cannot read: {reason}").format(reason=error.strerror or error),
                         str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BoardError(_("not valid JSON: {reason}").format(reason=error), str(path)) from None
    return KidsBoard.from_json(data, str(path))


def example_boards() -> tuple[KidsBoard, ...]:
    """The example boards shipped in ``companion/boards``, sorted by name."""
    boards = [load_board(path) for path in sorted(EXAMPLES_DIR.glob("*.json"))]
    return tuple(sorted(boards, key=lambda b: (b.name, b.side)))


def example_board(name: str, side: str | None = None) -> KidsBoard:
    """The shipped example board called ``name`` (e.g. "Sea (example)"), on ``side`` if given."""
    boards = [b for b in example_boards() if b.name == name and side in (None, b.side)]
    if len(boards) == 1:
        return boards[0]
    known = ", ".join(f"{b.name!r} ({b.side})" for b in example_boards())
    if boards:
        raise BoardError(_("{name!r} has two sides; say which (apprentice or master)").format(
            name=name), _("example boards"))
    raise BoardError(_("no example board {name!r}; there are {known}").format(name=name, known=known),
                     _("example boards"))


@dataclass(frozen=True, slots=True)
class _Reader:
    """The checks, with the source name every message starts with."""

    source: str

    def fail(self, where: str, message: str) -> BoardError:
        return BoardError(f"{where}: {message}" if where else message, self.source)

    def board(self, data: object) -> KidsBoard:
        if not isinstance(data, dict):
            raise self.fail("", _("a board is a JSON object, not {kind}").format(kind=_json_kind(data)))
        unknown = sorted(set(data) - _BOARD_KEYS)
        if unknown:
            raise self.fail("", _("unknown key {key!r} (a board has {keys})").format(
                key=unknown[0], keys=", ".join(sorted(_BOARD_KEYS))))
        if data.get("format") != BOARD_FORMAT:
            raise self.fail("", _("format must be {expected!r}, not {found!r}").format(
                expected=BOARD_FORMAT, found=data.get("format")))
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise self.fail("", _("name must be a non-empty text, not {found!r}").format(found=name))
        side = data.get("side")
        if side not in SIDES:
            raise self.fail("", _("side must be 'apprentice' or 'master', not {found!r}").format(
                found=side))
        note = data.get("note")
        if note is not None and not isinstance(note, str):
            raise self.fail("", _("note must be a text, not {found!r}").format(found=note))
        pictures = data.get("pictures")
        if not isinstance(pictures, list) or not pictures:
            raise self.fail("", _("pictures must be a non-empty list of pictures"))
        seen: set[str] = set()
        built = []
        for number, item in enumerate(pictures, 1):
            picture = self.picture(item, number, side)
            if picture.id in seen:
                raise self.fail(_("picture {number}").format(number=number),
                                _("the id {id!r} is used twice; each picture needs its own").format(
                                    id=picture.id))
            seen.add(picture.id)
            built.append(picture)
        if side == APPRENTICE and len(built) != 1:
            raise self.fail("", _("an apprentice board is one picture, not {n}").format(n=len(built)))
        board = KidsBoard(name, side, tuple(built), note)
        for shape in SHAPES:
            if board.count(shape) > TILES_PER_SHAPE:
                raise self.fail("", _("{n} {shape} fields, but the game has only {most} {shape} tiles")
                                .format(n=board.count(shape), shape=shape, most=TILES_PER_SHAPE))
        return board

    def picture(self, data: object, number: int, side: str) -> Picture:
        where = _("picture {number}").format(number=number)
        if not isinstance(data, dict):
            raise self.fail(where, _("a picture is a JSON object, not {kind}").format(
                kind=_json_kind(data)))
        picture_id = data.get("id")
        if not isinstance(picture_id, str) or not picture_id.strip():
            raise self.fail(where, _("id must be a non-empty text, not {found!r}").format(
                found=picture_id))
        where = _("picture {id!r}").format(id=picture_id)
        unknown = sorted(set(data) - _PICTURE_KEYS)
        if unknown:
            raise self.fail(where, _("unknown key {key!r} (a picture has {keys})").format(
                key=unknown[0], keys=", ".join(sorted(_PICTURE_KEYS))))
        stars = data.get("stars")
        if not _is_int(stars) or stars < 0:
            raise self.fail(where, _("stars must be a whole number 0 or more, not {found!r}").format(
                found=stars))
        if side == APPRENTICE and stars != 0:
            raise self.fail(where, _("an apprentice picture has stars 0, not {found}").format(
                found=stars))
        fields = data.get("fields")
        if not isinstance(fields, list) or not fields:
            raise self.fail(where, _("fields must be a non-empty list of fields"))
        low, high = MASTER_PICTURE_FIELDS
        if side == MASTER and not low <= len(fields) <= high:
            raise self.fail(where, _("a master picture has {low} to {high} fields, not {n}").format(
                low=low, high=high, n=len(fields)))
        outline = self.outline(data["outline"], where) if "outline" in data else None
        built = tuple(self.field(item, f"{where}: " + _("field {number}").format(number=k))
                      for k, item in enumerate(fields, 1))
        return Picture(picture_id, stars, built, outline)

    def field(self, data: object, where: str) -> Field:
        if not isinstance(data, dict):
            raise self.fail(where, _("a field is a JSON object, not {kind}").format(
                kind=_json_kind(data)))
        shape = data.get("shape")
        if shape not in SHAPES:
            raise self.fail(where, _("unknown shape {found!r} (shapes: {shapes})").format(
                found=shape, shapes=", ".join(SHAPES)))
        at = self.point(data["at"], f"{where}: at") if "at" in data else None
        outline = self.outline(data["outline"], where) if "outline" in data else None
        extra = {k: v for k, v in data.items() if k != "shape" and k not in _FIELD_POSITION_KEYS}
        return Field(shape, at, outline, extra)

    def outline(self, data: object, where: str) -> tuple[Point, ...]:
        where = f"{where}: outline"
        if not isinstance(data, list) or len(data) < 3:
            raise self.fail(where, _("an outline is a list of at least 3 points [x, y]"))
        return tuple(self.point(p, f"{where} " + _("point {k}").format(k=k))
                     for k, p in enumerate(data, 1))

    def point(self, data: object, where: str) -> Point:
        if (not isinstance(data, list) or len(data) != 2
                or not all(_is_number(v) and 0 <= v <= 1 for v in data)):
            raise self.fail(where, _("a point is [x, y] with both between 0 and 1, not {found}").format(
                found=json.dumps(data)))
        return (data[0], data[1])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, str):
        return _("a text")
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _("true/false")
    return _("a number")
