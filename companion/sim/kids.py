"""Simulated Azul Kids tables: what a perfect recogniser reports, and a noisy camera.

- :func:`table_of` is what lies on the table in a :class:`KidsState` (a :class:`KidsTable`):
  the tile on each field (the engine fills the first empty fields of a shape first) and
  the bowls' tiles.
- :func:`still_tables` lists the tables a real table rests in after an event: a take whose
  tiles are passed on is first seen with the taker's tiles placed and the rest still in
  hand; a fill is first seen half laid out.
- :func:`kids_observation` is the true ``azul-kids-observation/1`` of a table
  (docs/kids-observation.md): boards in seat order (seat 0 nearest the bottom edge, then
  clockwise), each upright for its owner; bowls 1-5 clockwise from the bottom, then "big".
- :class:`KidsNoise` and :func:`noisy_frames` turn one true observation into the frames a
  real recogniser would give of that still table: fields read "unknown" or as another
  tile, bowls with unread tiles, and a hand passing between still tables.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass

from companion.rules.kids import BIG, BOWLS, COLORS, Fill, KidsState, KidsTake
from companion.rules.kids_board import SHAPES, KidsBoard

FORMAT = "azul-kids-observation/1"
IMAGE = (1920, 1080)
Counts = tuple[int, int, int, int]


@dataclass(frozen=True)
class KidsTable:
    """What lies on a Kids table: ``boards[seat][picture][field]`` is the colour on that
    field (None: empty); ``bowls`` the 5 small bowls' tiles per colour (in COLORS order),
    bowl 1 first; ``big`` the large bowl's."""

    boards: tuple[tuple[tuple[str | None, ...], ...], ...]
    bowls: tuple[Counts, ...]
    big: Counts


def color_of(shape: str) -> str:
    """The colour of the tiles that fit a field of ``shape``."""
    return COLORS[SHAPES.index(shape)]


def board_fields(state: KidsState, seat: int) -> tuple[tuple[str | None, ...], ...]:
    return tuple(
        tuple(color_of(shape) if full else None for shape, full in zip(p.shapes, p.filled, strict=True))
        for p in state.pictures(seat)
    )


def table_of(state: KidsState) -> KidsTable:
    return KidsTable(
        tuple(board_fields(state, seat) for seat in range(state.players)),
        tuple(tuple(bowl) for bowl in state.bowls),
        tuple(state.big),
    )  # type: ignore[arg-type]


def still_tables(before: KidsState, event: KidsTake | Fill) -> list[KidsTable]:
    """The tables seen after ``event`` is played on ``before`` (not changed), in order; the
    last is the engine's state after the event."""
    after = before.copy()
    result = after.push(event)
    final = table_of(after)
    if isinstance(event, Fill):
        if sum(1 for bowl in event.bowls if bowl) <= 2:
            return [final]
        half = tuple(bowl if number < 2 else (0, 0, 0, 0) for number, bowl in enumerate(final.bowls))
        return [KidsTable(final.boards, half, final.big), final]  # type: ignore[arg-type]
    assert result is not None
    tables = []
    boards = list(table_of(before).boards)
    placements = [p for p in result.placements if p.tiles]
    # The taker's hand holds the tiles until they are on the boards; each seat that gets
    # some places them in turn.
    for done in range(len(placements)):
        seat = placements[done].seat
        boards[seat] = final.boards[seat]
        if done + 1 < len(placements):
            tables.append(KidsTable(tuple(boards), final.bowls, final.big))
    return [*tables, final]


# --- observations ------------------------------------------------------------------


@dataclass(frozen=True)
class KidsSeatLayout:
    """Image positions: boards in seat order (x, y, rotation), bowls 1-5 then big (x, y)."""

    width: int
    height: int
    boards: tuple[tuple[float, float, int], ...]
    bowls: tuple[tuple[float, float], ...]


def seat_layout(players: int, rng: random.Random | None = None) -> KidsSeatLayout:
    """Boards round the tray as observation.md numbers them: seat 0 at the bottom, clockwise."""
    rng = rng or random.Random(0)
    width, height = IMAGE
    middle = (width / 2, height / 2)
    sides = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players]
    boards = []
    for side in sides:  # bottom, left, top, right: clockwise as seen from above
        a = math.pi / 2 + side * math.pi / 2
        r = 0.38 * height * (width / height if side % 2 else 1)
        boards.append(
            (
                middle[0] + r * math.cos(a) + rng.uniform(-8, 8),
                middle[1] + r * math.sin(a) + rng.uniform(-8, 8),
                side * 90,
            )
        )
    bowls = []
    for number in range(BOWLS):
        a = math.pi / 2 + number * 2 * math.pi / BOWLS
        bowls.append((middle[0] + 0.16 * height * math.cos(a), middle[1] + 0.16 * height * math.sin(a)))
    return KidsSeatLayout(width, height, tuple(boards), (*bowls, middle))


def kids_observation(
    table: KidsTable | KidsState,
    boards: tuple[KidsBoard, ...] | None = None,
    layout: KidsSeatLayout | None = None,
) -> dict:
    """The ``azul-kids-observation/1`` a perfect recogniser reports for ``table``.

    A state brings its own boards; a :class:`KidsTable` needs the board definitions.
    """
    if isinstance(table, KidsState):
        boards = table.boards
        table = table_of(table)
    if boards is None or len(boards) != len(table.boards):
        raise ValueError("one board definition per seat is needed")
    layout = layout or seat_layout(len(boards))
    observed = []
    for board, fields, (x, y, rotation) in zip(boards, table.boards, layout.boards, strict=True):
        observed.append(
            {
                "center": [round(x), round(y)],
                "rotation": rotation,
                "side": board.side,
                "board": board.name,
                "pictures": [
                    {"id": picture.id, "fields": list(row), "confidence": [1.0] * len(row)}
                    for picture, row in zip(board.pictures, fields, strict=True)
                ],
                "confidence": 1.0,
            }
        )
    bowls = []
    for number, (counts, (x, y)) in enumerate(zip((*table.bowls, table.big), layout.bowls, strict=True), 1):
        bowls.append(
            {
                "bowl": number if number <= BOWLS else BIG,
                "center": [round(x), round(y)],
                "tiles": {c: n for c, n in zip(COLORS, counts, strict=True) if n},
                "unknown": 0,
                "occluded": False,
                "confidence": 1.0,
            }
        )
    return {
        "format": FORMAT,
        "image": {"width": layout.width, "height": layout.height},
        "occluded": False,
        "boards": observed,
        "bowls": bowls,
    }


# --- a noisy camera ----------------------------------------------------------------


@dataclass(frozen=True)
class KidsNoise:
    """How a recogniser errs, per frame: a field read "unknown" (``unknown``) or as something
    else (``misread``: another tile, or empty for a tile and a tile for empty); a bowl with
    a tile not read (``bowl_unknown``); a hand over the table between still tables
    (``hand``: one or two occluded frames); ``sticky``: the share of unknown fields that
    stay unknown while the table is still (glare)."""

    unknown: float = 0.03
    misread: float = 0.01
    bowl_unknown: float = 0.05
    hand: float = 0.5
    sticky: float = 0.3
    frames: int = 3


def noisy_frames(true: dict, model: KidsNoise, rng: random.Random) -> list[dict]:
    """The frames of one still table: maybe a hand first, then ``model.frames`` readings."""
    out = []
    if rng.random() < model.hand:
        for _frame in range(rng.choice((1, 2))):
            hand = copy.deepcopy(true)
            hand["occluded"] = True
            out.append(hand)
    glare = {
        (b, p, f)
        for b, board in enumerate(true["boards"])
        for p, picture in enumerate(board["pictures"])
        for f in range(len(picture["fields"]))
        if rng.random() < model.unknown * model.sticky
    }
    for _frame in range(model.frames):
        frame = copy.deepcopy(true)
        for b, board in enumerate(frame["boards"]):
            for p, picture in enumerate(board["pictures"]):
                for f, value in enumerate(picture["fields"]):
                    roll = rng.random()
                    if (b, p, f) in glare or roll < model.unknown:
                        picture["fields"][f], picture["confidence"][f] = "unknown", 0.0
                    elif roll < model.unknown + model.misread:
                        others = [c for c in (*COLORS, None) if c != value]
                        picture["fields"][f], picture["confidence"][f] = rng.choice(others), 0.6
        for bowl in frame["bowls"]:
            tiles = bowl["tiles"]
            if tiles and rng.random() < model.bowl_unknown:
                color = rng.choice(sorted(tiles))
                tiles[color] -= 1
                if not tiles[color]:
                    del tiles[color]
                bowl["unknown"] += 1
                bowl["confidence"] = 0.6
        out.append(frame)
    return out
