"""An Azul Kids game as chosen on the setup screen: the side, the players, and whose boards.

The boards are either the shipped examples (companion/boards/) or boards a family described
in their own files (docs/kids-boards.md, the configuration's ``[game] kids_boards``); either
way they are handed out in turn round the table, one to each seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.kids_board import APPRENTICE, KidsBoard, example_boards
from companion.rules.kids_record import KidsRecord
from companion.session import KIDS
from companion.ui.screens.base import Settings

KIDS_NAMES = ("1", "2", "3", "4")  # the demo's seats: told apart by animal and colour, not by name


@dataclass(frozen=True)
class KidsSettings(Settings):
    """``variant`` is the boards' side; ``boards``: a family's own boards of that side, handed
    out in turn (empty: the example boards)."""

    variant: str = APPRENTICE
    game: str = KIDS
    boards: tuple[KidsBoard, ...] = ()


def of_side(boards: tuple[KidsBoard, ...], side: str) -> tuple[KidsBoard, ...]:
    return tuple(b for b in boards if b.side == side)


def kids_boards(side: str, players: int, own: tuple[KidsBoard, ...] = ()) -> tuple[KidsBoard, ...]:
    """One board per seat: ``own`` boards of ``side`` if there are any, else the examples, in turn."""
    boards = of_side(own, side) or of_side(example_boards(), side)
    return tuple(boards[seat % len(boards)] for seat in range(players))


def seat_boards(settings: KidsSettings) -> tuple[KidsBoard, ...]:
    """The board each seat plays on in the game ``settings`` describe."""
    return kids_boards(settings.variant, len(settings.names), settings.boards)


def settings_of(record: KidsRecord) -> KidsSettings:
    """The settings of a kept game: its players and side, and its boards if any is not an example."""
    examples = example_boards()
    own = any(board not in examples for board in record.boards)
    return KidsSettings(tuple(record.players), record.variant, boards=record.boards if own else ())


def kids_settings(side: str, players: int) -> KidsSettings:
    """The demo's game: numbered seats on the example boards."""
    return KidsSettings(KIDS_NAMES[:players], side)
