"""Second thoughts: another take or placement where an accepted one keeps disagreeing.

A take accepted on a misread that later fades (a phantom tile on the wrong pattern line,
a factory mistaken for the centre) leaves the engine one event off the table, and every
later view shows the difference. :func:`alternatives` lists, for one accepted event, each
other event its mover could have made there, with the game once the events since are
played on it; the tracker replaces the event when one of them fits the table clearly
better in more than one still state.
"""

from __future__ import annotations

from companion.rules.azul import TILING, Game, Place, Take
from companion.rules.azul_record import Record, apply_event
from companion.rules.errors import RulesError
from companion.tracking.revision import state_before
from companion.tracking.tables import Table, table_of, tiling_table


def present_table(game: Game) -> Table:
    """The table ``game`` leaves in view, as the tracker compares it with a still state."""
    return tiling_table(game) if game.phase == TILING else table_of(game)


def others(before: Game, event: Take | Place) -> list[Take | Place]:
    """The events that could have been made instead of ``event`` (legal in ``before``).

    A placement's alternatives keep its player and line: only the column is in doubt.
    """
    if isinstance(event, Take):
        return [m for m in before.generate_legal_moves() if isinstance(m, Take) and m != event]
    return [m for m in before.generate_legal_moves()
            if isinstance(m, Place) and m.player == event.player and m.line == event.line and m != event]


def alternatives(record: Record, index: int) -> list[tuple[Take | Place, Game]]:
    """Each other event for ``record.events[index]``, with the game once the later events follow it.

    An alternative after which a later event is no longer legal is left out.
    """
    event = record.events[index]
    assert isinstance(event, Take | Place)
    before = state_before(record, index)
    later = list(zip(record.events[index + 1:], record.movers[index + 1:], strict=True))
    out = []
    for other in others(before, event):
        game = before.copy()
        try:
            apply_event(game, other, record.movers[index])
            for then, player in later:
                apply_event(game, then, player)
        except RulesError:
            continue
        out.append((other, game))
    return out
