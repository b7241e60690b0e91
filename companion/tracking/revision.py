"""Correcting a round's refill from what the takes showed.

When a take empties factory f, the tiles that reached the taker's pattern line and
floor, plus the tiles that went to the centre, ARE f's contents. :func:`implied_contents`
reads them off a view for a take of a given colour to a given line; when they differ
from the accepted refill by a tile or two and still make a possible draw, the take
"with factory f corrected" is ranked beside the plain takes, at a cost
(:func:`correction_cost`) that grows with the still states that showed f as accepted.

Later, the centre has moved on, but a take's pattern line still shows how many tiles of
its colour the factory held (:func:`line_recolourings`), and a take from the centre that
moved a tile more or fewer shows that a factory emptied before it sent the centre another
colour (:func:`leftover_recolourings`).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from companion.rules.azul import FLOOR, FLOOR_PLACES, Game, Refill, Take
from companion.rules.azul_record import Record, apply_event, replay
from companion.rules.errors import RulesError
from companion.tracking.consensus import View
from companion.tracking.evidence import Counts
from companion.tracking.refills import is_possible, with_factories

Changes = tuple[tuple[int, Counts], ...]  # (0-based factory, what it really held)

CORRECTION = 0.5  # what correcting a factory costs when the refill view was all that showed it
PER_VOTE = 0.75  # ... and for each still state more that showed it as accepted


def compensations(accepted: Counts, corrected: Counts, other: Counts) -> Counts | None:
    """``other`` with the opposite recolouring of ``accepted`` -> ``corrected`` (one tile), if it can.

    When the bag ran out exactly, a draw's colour totals are fixed: a factory misread one
    way goes with another misread the other way.
    """
    plus = [c for c in range(5) if corrected[c] > accepted[c]]
    minus = [c for c in range(5) if corrected[c] < accepted[c]]
    if recolourings(accepted, corrected) != 1 or not other[plus[0]]:
        return None
    return tuple(n - (c == plus[0]) + (c == minus[0]) for c, n in enumerate(other))


def counts_of(pile: dict[int, int]) -> Counts:
    return tuple(pile.get(c, 0) for c in range(5))


def recolourings(a: Counts, b: Counts) -> int:
    """How many tiles of ``a`` must change colour to give ``b`` (same number of tiles)."""
    return sum(max(0, x - y) for x, y in zip(a, b, strict=True))


def center_gain(view: View, game: Game) -> Counts | None:
    """Tiles the view shows in the centre beyond what the engine has there (None: not read)."""
    seen = view.center
    if seen is None or seen.counts is None or seen.unknown:
        return None
    return tuple(max(0, seen.counts[c] - game.center.get(c, 0)) for c in range(5))


def taken_count(view: View, game: Game, color: int, line: int) -> int | None:
    """Tiles of ``color`` the view shows newly on the mover's ``line`` and floor (None: not read)."""
    seen = view.boards[game.turn]
    if seen is None:
        return None
    board = game.boards[game.turn]
    count = 0
    if line != FLOOR:
        seen_color, seen_count = seen.lines[line - 1]
        if seen_count is None or seen_color not in (color, None):
            return None
        count += seen_count - board.line_counts[line - 1]
        if count < 0:
            return None
    for place in range(len(board.floor), FLOOR_PLACES):
        cell = seen.floor[place]
        if cell is None:
            return None
        if cell == color:
            count += 1
    return count


def implied_contents(view: View, game: Game, gain: Counts | None, color: int, line: int, *,
                     accepted: Counts) -> Counts | None:
    """What a factory held, if the mover took ``color`` from it to ``line`` and the view is right.

    ``accepted`` is what the refill says it held: when the mover's board is not read, the
    centre alone still tells the other colours.
    """
    if gain is None or gain[color]:
        return None
    taken = taken_count(view, game, color, line)
    if taken is None:
        # A line seen to hold the colour, its count unread: the tiles the centre does not
        # show went there.
        taken = sum(accepted) - sum(gain) if only_count_unread(view, game, color, line) else accepted[color]
    if taken <= 0:
        return None
    return tuple(taken if c == color else gain[c] for c in range(5))


def only_count_unread(view: View, game: Game, color: int, line: int) -> bool:
    """The view shows ``color`` on the mover's ``line`` and reads its floor, but not the line's count."""
    seen = view.boards[game.turn]
    return (seen is not None and line != FLOOR and seen.lines[line - 1] == (color, None)
            and None not in seen.floor)


def line_recolourings(view: View, game: Game, take: Take, mover: int, accepted: Counts) -> list[Counts]:
    """What the factory of ``take`` may have held instead of ``accepted``, when the view shows
    the take's pattern line with a tile or two more or fewer of its colour than ``game`` has.

    The centre moves on with every turn, but a pattern line keeps what a take put there
    until the round ends: the line alone says how many tiles of the colour the factory held,
    and the table as a whole which other colour a misread tile really had.
    """
    off = line_offset(view, game, take, mover)
    color = take.color
    if off == 0 or abs(off) > 2 or accepted[color] + off < 1:
        return []
    sign = 1 if off > 0 else -1
    out = []
    for others in combinations_with_replacement([c for c in range(5) if c != color], abs(off)):
        counts = list(accepted)
        counts[color] += off
        for c in others:
            counts[c] -= sign
        if min(counts) >= 0:
            out.append(tuple(counts))
    return out


def line_offset(view: View, game: Game, take: Take, mover: int) -> int:
    """Tiles of the take's colour the view shows on its pattern line beyond what ``game`` has
    there (0: the same, or not read)."""
    seen = view.boards[mover]
    if seen is None or take.line == FLOOR:
        return 0
    seen_color, seen_count = seen.lines[take.line - 1]
    board = game.boards[mover]
    if seen_count is None or seen_color != take.color or board.line_colors[take.line - 1] != take.color \
            or seen_count > take.line:
        return 0
    return seen_count - board.line_counts[take.line - 1]


def leftover_recolourings(accepted: Counts, taken: int, color: int, off: int) -> list[Counts]:
    """What a factory emptied into the centre (its ``taken`` colour went to a player) may have
    held instead of ``accepted``, when a later take of ``color`` from the centre moved ``off``
    (1 or -1) tiles more than the engine says: one of its leftovers had another colour."""
    if color == taken:
        return []
    out = []
    for other in range(5):
        source, target = (other, color) if off > 0 else (color, other)
        if other not in (color, taken) and accepted[source]:
            counts = list(accepted)
            counts[source] -= 1
            counts[target] += 1
            out.append(tuple(counts))
    return out


def correction_cost(tally: dict[Counts, float], accepted: Counts, corrected: Counts) -> float:
    """The cost of believing ``corrected`` over ``accepted``, given the votes of the still states."""
    shown = tally.get(accepted, 0.0) - tally.get(corrected, 0.0)
    return max(0.25, CORRECTION + PER_VOTE * (shown - 1.0)) * recolourings(accepted, corrected)


def corrected_game(before: Game, record: Record, index: int,
                   changes: Changes) -> tuple[Game, Refill] | None:
    """The game with refill event ``index`` corrected by ``changes`` ((factory, counts) pairs), played on.

    ``before`` is the state the refill was drawn from. None when that is no possible draw
    or an event after it no longer fits.
    """
    refill = record.events[index]
    assert isinstance(refill, Refill)
    revised = with_factories(refill, changes)
    if not is_possible(before, revised):
        return None
    game = before.copy()
    try:
        apply_event(game, revised)
        for event, player in zip(record.events[index + 1:], record.movers[index + 1:], strict=True):
            apply_event(game, event, player)
    except RulesError:
        return None
    return game, revised


def state_before(record: Record, index: int) -> Game:
    return replay(Record(list(record.players), record.variant, record.events[:index], record.movers[:index]))
