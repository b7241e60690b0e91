"""Explanations of a table that no single legal move explains.

When the view fits no legal move, the tracker asks these in turn: did two turns pass
unseen (a :func:`sequences` hypothesis), or did a player make a physical mistake (tiles
on a line that may not take them, a move out of turn, tiles of the chosen colour left
behind)? Each hypothesis is a table to score like any other; the best one, if it is
clearly better than every legal move, names the problem to report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.azul import CENTER, FLOOR, Game, Take
from companion.tracking.tables import Table, after_take, board_of, put_tiles

SEQUENCE = "sequence"
OUT_OF_TURN = "out-of-turn"
WRONG_LINE_COLOR = "wrong-line-color"
ROW_HAS_COLOR = "row-has-color"
LINE_FULL = "line-full"
LEFT_BEHIND = "tiles-left-behind"


@dataclass(frozen=True)
class Hypothesis:
    kind: str
    table: Table
    moves: tuple[Take, ...]  # the legal move(s) closest to it: what a person may confirm instead
    where: dict = field(default_factory=dict)
    seat: int = 0
    color: int = 0


def sequences(game: Game, first: Take) -> list[Hypothesis]:
    """``first`` by the player to move, then every legal answer of the next player."""
    after = game.copy()
    after.push_unchecked(first)
    if after.phase != "drafting":
        return []
    return [Hypothesis(SEQUENCE, after_take(after, second), (first, second), seat=game.turn)
            for second in after.generate_legal_moves() if isinstance(second, Take)]


def out_of_turn(game: Game) -> list[Hypothesis]:
    """Legal takes by each player whose turn it is not."""
    found = []
    for seat in range(game.players):
        if seat == game.turn:
            continue
        other = game.copy()
        other.turn = seat
        for move in other.generate_legal_moves():
            if isinstance(move, Take):
                found.append(Hypothesis(OUT_OF_TURN, after_take(other, move), (), {"board": seat}, seat,
                                        move.color))
    return found


def _legal_floor_take(game: Game, source: int, color: int) -> Table:
    return after_take(game, Take(source, color, FLOOR))


def illegal_lines(game: Game) -> list[Hypothesis]:
    """The player to move put the tiles on a pattern line the rules close to that colour."""
    seat = game.turn
    board = game.boards[seat]
    mine = board_of(board)
    found = []
    sources = [(CENTER, game.center), *list(enumerate(game.factories, 1))]
    for source, pile in sources:
        for color, count in pile.items():
            marker = source == CENTER and game.center_marker
            base = _legal_floor_take(game, source, color)
            for line in range(1, 6):
                if board.line_refusal(line - 1, color) is None:
                    continue
                held = board.line_counts[line - 1]
                if held > line - 1:
                    kind = LINE_FULL
                elif held and board.line_colors[line - 1] != color:
                    kind = WRONG_LINE_COLOR
                else:
                    kind = ROW_HAS_COLOR
                # On a line of another colour the reading may show either colour.
                options = [put_tiles(mine, color, count, line, marker)]
                if kind == WRONG_LINE_COLOR:
                    shown = put_tiles(mine, color, count, line, marker)
                    lines = list(shown[0])
                    lines[line - 1] = (board.line_colors[line - 1], lines[line - 1][1])
                    options.append((tuple(lines), shown[1], shown[2]))
                boards = list(base.boards)
                boards[seat] = tuple(options)
                found.append(Hypothesis(kind, base._replace(boards=tuple(boards)),
                                        (Take(source, color, FLOOR),), {"board": seat, "line": line},
                                        seat, color))
    return found


def left_behind(game: Game) -> list[Hypothesis]:
    """The player took a colour but left some of its tiles on the factory or in the centre."""
    seat = game.turn
    mine = board_of(game.boards[seat])
    found = []
    for move in game.generate_legal_moves():
        if not isinstance(move, Take):
            continue
        pile = game.center if move.source == CENTER else game.factories[move.source - 1]
        count = pile[move.color]
        table = after_take(game, move)
        marker = move.source == CENTER and game.center_marker
        for left in range(1, count):
            boards = list(table.boards)
            boards[seat] = (put_tiles(mine, move.color, count - left, move.line, marker),)
            where = {"center": True} if move.source == CENTER else {"factory": move.source}
            center_counts = list(table.center[0])
            if move.source == CENTER:
                center_counts[move.color] += left
                found.append(Hypothesis(LEFT_BEHIND, table._replace(
                    boards=tuple(boards), center=(tuple(center_counts), table.center[1])),
                    (move,), where, seat, move.color))
                continue
            factories = list(table.factories)
            stayed = [0] * 5
            stayed[move.color] = left
            factories[move.source - 1] = tuple(stayed)
            found.append(Hypothesis(LEFT_BEHIND, table._replace(
                boards=tuple(boards), factories=tuple(factories)), (move,), where, seat, move.color))
            # ... or pushed into the centre with the rest.
            center_counts[move.color] += left
            found.append(Hypothesis(LEFT_BEHIND, table._replace(
                boards=tuple(boards), center=(tuple(center_counts), table.center[1])),
                (move,), where, seat, move.color))
    return found
