"""What lies on the table: the scene description the renderer draws.

Plain data, independent of the rules engine: a scene may show any arrangement a
camera could see, legal or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLORS = ("blue", "yellow", "red", "black", "white")
MARKER = "marker"
SIDES = ("colored", "grey")
FLOOR_PLACES = 7
FACTORY_COUNTS = (5, 7, 9)


def printed_color(row: int, column: int) -> str:
    """Colour printed on the coloured wall at 0-based (row, column)."""
    return COLORS[(column - row) % 5]


def _check_color(value: object, where: str, allow_marker: bool = False) -> None:
    allowed = (*COLORS, MARKER) if allow_marker else COLORS
    if value is not None and value not in allowed:
        raise ValueError(f"{where}: unknown tile {value!r} (expected one of {', '.join(allowed)})")


@dataclass(frozen=True)
class BoardContent:
    """One player board as its owner sees it.

    lines: 5 (colour, count) pairs, line 1 first; floor: 7 places from the -1 place;
    wall: 5 rows of 5, column 1 on the owner's left.
    """

    side: str = "colored"
    lines: tuple[tuple[str | None, int], ...] = ((None, 0),) * 5
    floor: tuple[str | None, ...] = (None,) * FLOOR_PLACES
    wall: tuple[tuple[str | None, ...], ...] = ((None,) * 5,) * 5
    score: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple((c, int(n)) for c, n in self.lines))
        object.__setattr__(self, "floor", tuple(self.floor))
        object.__setattr__(self, "wall", tuple(tuple(row) for row in self.wall))
        if self.side not in SIDES:
            raise ValueError(f"board side {self.side!r} is not 'colored' or 'grey'")
        if len(self.lines) != 5:
            raise ValueError(f"a board has 5 pattern lines, got {len(self.lines)}")
        for k, (color, count) in enumerate(self.lines, start=1):
            _check_color(color, f"pattern line {k}")
            if not 0 <= count <= k:
                raise ValueError(f"pattern line {k} holds {count} tiles (it has {k} spaces)")
            if (color is None) != (count == 0):
                raise ValueError(f"pattern line {k}: colour {color!r} with count {count}")
        if len(self.floor) != FLOOR_PLACES:
            raise ValueError(f"the floor line has {FLOOR_PLACES} places, got {len(self.floor)}")
        for i, tile in enumerate(self.floor):
            _check_color(tile, f"floor place {i + 1}", allow_marker=True)
        if len(self.wall) != 5 or any(len(row) != 5 for row in self.wall):
            raise ValueError("the wall must be 5 rows of 5")
        for r, row in enumerate(self.wall):
            for c, tile in enumerate(row):
                _check_color(tile, f"wall row {r + 1} column {c + 1}")
        if not 0 <= self.score <= 999:
            raise ValueError(f"score {self.score} is outside 0..999")


@dataclass(frozen=True)
class TableContent:
    """Everything the game puts on the table: boards in seat order, factories, centre."""

    boards: tuple[BoardContent, ...]
    factories: tuple[tuple[str, ...], ...]
    center_tiles: dict[str, int] = field(default_factory=dict)
    center_marker: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "boards", tuple(self.boards))
        object.__setattr__(self, "factories", tuple(tuple(f) for f in self.factories))
        object.__setattr__(self, "center_tiles", dict(self.center_tiles))
        if not 2 <= len(self.boards) <= 4:
            raise ValueError(f"Azul has 2 to 4 boards, got {len(self.boards)}")
        if len(self.factories) not in FACTORY_COUNTS:
            raise ValueError(f"Azul has 5, 7 or 9 factories, got {len(self.factories)}")
        for i, tiles in enumerate(self.factories, start=1):
            if len(tiles) > 4:
                raise ValueError(f"factory {i} holds {len(tiles)} tiles (at most 4)")
            for tile in tiles:
                if tile is None:
                    raise ValueError(f"factory {i}: list only the tiles present, not None")
                _check_color(tile, f"factory {i}")
        for color, count in self.center_tiles.items():
            _check_color(color, "centre")
            if color is None or count < 0:
                raise ValueError(f"centre: {count} tiles of {color!r}")
