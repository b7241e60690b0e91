"""What the table should look like, and how far a view is from it.

A :class:`Table` is the part of an engine state a camera can check: each seat's pattern
lines, floor and wall, each factory's tiles, the centre pile and its marker. Each seat
holds one or more *alternatives*: at the end of a round the players tile their walls
and clear their floors one after the other, so both the board before and after that
are right for a while.

The distance of a view to a table counts the places that disagree, weighted by the
recogniser's confidence; unknown places count nothing. Tables that share parts share
the work: a :class:`Scorer` remembers each part's distance for the view it scores.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.azul import (
    FLOOR,
    FLOOR_PLACES,
    MARKER,
    Game,
    Place,
    PlayerBoard,
    Take,
)
from companion.tracking.consensus import BoardView, CenterView, FactoryView, View
from companion.tracking.frame import EMPTY

Board = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]  # lines, floor, wall
Counts = tuple[int, ...]


class Table(NamedTuple):
    boards: tuple[tuple[Board, ...], ...]  # per seat, the boards that are right now
    factories: tuple[Counts, ...]
    center: tuple[Counts, bool]


def board_of(board: PlayerBoard) -> Board:
    lines = tuple((color if count else EMPTY, count)
                  for color, count in zip(board.line_colors, board.line_counts, strict=True))
    return lines, tuple(board.floor), tuple(board.wall)


def counts_of(pile: dict[int, int]) -> Counts:
    return tuple(pile.get(c, 0) for c in range(5))


def table_of(game: Game) -> Table:
    return Table(
        tuple((board_of(b),) for b in game.boards),
        tuple(counts_of(f) for f in game.factories),
        (counts_of(game.center), game.center_marker),
    )


def with_floor_cleared(board: Board) -> Board:
    return board[0], (), board[2]


def after_take(game: Game, move: Take) -> Table:
    """The table once ``move`` is made: before and after the wall-tiling it may end the round."""
    before = game.preview(move)
    if before.on_table:
        return table_of(before)
    # The engine tiles the walls the moment drafting ends; the table shows the boards
    # before that for a while, then after.
    after = game.copy()
    after.push_unchecked(move)
    boards = tuple((board_of(b), board_of(a)) if board_of(b) != board_of(a) else (board_of(b),)
                   for b, a in zip(before.boards, after.boards, strict=True))
    return Table(boards, tuple(counts_of(f) for f in before.factories),
                 (counts_of(before.center), before.center_marker))


def tiling_table(game: Game) -> Table:
    """A grey-wall table during wall-tiling: a floor may already be cleared."""
    table = table_of(game)
    boards = tuple((b[0], with_floor_cleared(b[0])) if b[0][1] else b for b in table.boards)
    return table._replace(boards=boards)


def placed_boards(game: Game, place: Place) -> tuple[Board, ...]:
    """Grey wall: the board of ``place.player`` once the line is placed (floor kept or cleared).

    A column that already holds the colour sends the line to the floor; a tile put there
    on the wall by mistake is also listed, so the column it went to can still be read.
    """
    board = game.boards[place.player]
    row, column = place.line - 1, place.column - 1
    color = board.line_colors[row]
    lines = list(board_of(board)[0])
    lines[row] = (EMPTY, 0)
    wall = list(board.wall)
    floor = list(board.floor)
    options = []
    if board.col_colors[column] >> color & 1:
        floor += [color] * min(row + 1, FLOOR_PLACES - len(floor))
        mistaken = wall[:]
        mistaken[row * 5 + column] = color
        options.append((tuple(lines), tuple(board.floor), tuple(mistaken)))
    else:
        wall[row * 5 + column] = color
    placed = (tuple(lines), tuple(floor), tuple(wall))
    return (placed, with_floor_cleared(placed), *options)


def put_tiles(board: Board, color: int, count: int, line: int, marker: bool) -> Board:
    """``count`` tiles of ``color`` put on ``line`` (or the floor) whatever the rules say:
    what the table shows after a move a player should not have made."""
    lines = list(board[0])
    floor = list(board[1])
    if marker and len(floor) < FLOOR_PLACES:
        floor.append(MARKER)
    if line != FLOOR:
        held = lines[line - 1][1]
        put = max(0, min(count, line - held))
        lines[line - 1] = (color, held + put)
        count -= put
    floor += [color] * max(0, min(count, FLOOR_PLACES - len(floor)))
    return tuple(lines), tuple(floor), board[2]


# --- distances -----------------------------------------------------------------------


def in_places(cost: float, weight: float) -> float:
    """A board's ``cost`` counted in places, whatever its confidence ``weight``: a whole
    number of places stays whole (dividing by 0.83 must not leave one place at 0.9999)."""
    return round(cost / weight, 9)


def board_distance(view: BoardView, board: Board) -> float:
    lines, floor, wall = board
    cost = 0
    for (seen_color, seen_count), (color, count) in zip(view.lines, lines, strict=True):
        if seen_color is not None and seen_color != color:
            cost += 1
        if seen_count is not None and seen_count != count:
            cost += 1
    for k, seen in enumerate(view.floor):
        if seen is not None and seen != (floor[k] if k < len(floor) else EMPTY):
            cost += 1
    if view.wall is not None:
        for seen, cell in zip(view.wall, wall, strict=True):
            if seen is not None and seen != cell:
                cost += 1
    return cost * view.weight


def pile_distance(counts: Counts, unknown: int, expected: Counts) -> int:
    """Tiles seen that should not be there, plus tiles expected but missing (unknown ones may be them)."""
    extra = missing = 0
    for seen, want in zip(counts, expected, strict=True):
        if seen > want:
            extra += seen - want
        else:
            missing += want - seen
    return extra + max(0, missing - unknown)


def factory_distance(view: FactoryView, expected: Counts) -> float:
    return pile_distance(view.counts, view.unknown, expected) * view.weight


def center_distance(view: CenterView, expected: tuple[Counts, bool]) -> float:
    cost = 0.0
    if view.counts is not None:
        cost += pile_distance(view.counts, view.unknown, expected[0])
    if view.marker is not None and view.marker != expected[1]:
        cost += 1
    return cost


class Scorer:
    """Distances of one view to many tables, each part worked out once."""

    def __init__(self, view: View) -> None:
        self.view = view
        self._boards: dict[tuple[int, tuple[Board, ...]], float] = {}
        self._factories: dict[tuple[int, Counts], float] = {}
        self._centers: dict[tuple[Counts, bool], float] = {}

    def board(self, seat: int, options: tuple[Board, ...]) -> float:
        key = (seat, options)
        cost = self._boards.get(key)
        if cost is None:
            seen = self.view.boards[seat]
            cost = 0.0 if seen is None else min(board_distance(seen, b) for b in options)
            self._boards[key] = cost
        return cost

    def factory(self, number: int, expected: Counts) -> float:
        key = (number, expected)
        cost = self._factories.get(key)
        if cost is None:
            seen = self.view.factories[number]
            cost = 0.0 if seen is None else factory_distance(seen, expected)
            self._factories[key] = cost
        return cost

    def center(self, expected: tuple[Counts, bool]) -> float:
        cost = self._centers.get(expected)
        if cost is None:
            seen = self.view.center
            cost = 0.0 if seen is None else center_distance(seen, expected)
            self._centers[expected] = cost
        return cost

    def cost(self, table: Table, boards: bool = True) -> float:
        total = self.center(table.center)
        for number, expected in enumerate(table.factories):
            total += self.factory(number, expected)
        if boards:
            for seat, options in enumerate(table.boards):
                total += self.board(seat, options)
        return total

    def local(self, table: Table, base: Table) -> float:
        """The distance over the parts where ``table`` differs from ``base`` (what a move touched)."""
        total = 0.0
        if table.center != base.center:
            total += self.center(table.center)
        for number, (expected, old) in enumerate(zip(table.factories, base.factories, strict=True)):
            if expected != old:
                total += self.factory(number, expected)
        for seat, (options, old) in enumerate(zip(table.boards, base.boards, strict=True)):
            if options != old:
                total += self.board(seat, options)
        return total
