"""A tracked game kept safe on disk: start one, resume the unfinished one, let a finished one go.

The game in progress lives in a :class:`~companion.store.GameStore`: every accepted event is
appended and fsynced before the tracker moves on, so a power cut or a crash loses nothing
that was accepted. At start the unfinished game is resumed exactly; a record that no longer
replays is kept aside (never deleted) and reported, and a new game starts.

Azul and Azul Kids games are kept the same way (both are azul-record/1 files; the header's
``"game"`` tells them apart, and each is replayed by its own rules). A caller resumes only
the game it plays: an unfinished game of the other kind is left where it is, and said so.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from companion.i18n import _
from companion.rules import azul_record, kids_record
from companion.rules.azul_record import Record
from companion.rules.errors import RecordError
from companion.rules.kids_board import KidsBoard
from companion.rules.kids_record import KidsRecord
from companion.store import GameStore, StoreError

log = logging.getLogger(__name__)

AZUL = "azul"
KIDS = kids_record.GAME  # "azul-kids"
GAMES = (AZUL, KIDS)


@dataclass
class Resumption:
    """What was found at start: the record to go on with (None: start anew) and what to tell."""

    record: Record | KidsRecord | None
    messages: list[str] = field(default_factory=list)


def start_game(store: GameStore, players: list[str], variant: str) -> Record:
    """Open a new game in the store and return its (empty) record."""
    record = Record(list(players), variant)
    header = {key: value for key, value in record.to_json().items() if key != "events"}
    store.start(header)
    return record


def start_kids_game(store: GameStore, players: list[str] | tuple[str, ...], variant: str,
                    boards: tuple[KidsBoard, ...]) -> KidsRecord:
    """Open a new game of Azul Kids (``variant``: the boards' side) and return its empty record."""
    record = KidsRecord(variant, tuple(players), tuple(boards))
    header = {key: value for key, value in kids_record.to_json(record).items() if key != "events"}
    store.start(header)
    return record


def game_of(header: dict[str, Any]) -> str:
    """Which game a record header is of: KIDS for ``"azul-kids"``, AZUL for anything else
    (the Azul reader judges that)."""
    return KIDS if header.get("game") == KIDS else AZUL


def resume_game(store: GameStore, game: str = AZUL) -> Resumption:
    """The unfinished ``game`` (AZUL or KIDS), if there is one that replays; a record that
    cannot be read or breaks a rule is put aside.

    StoreError when the unfinished game is of the other kind: it is valid, so it is neither
    resumed nor put aside, and the store is left closed as it was.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(GAMES)}")
    if not store.has_current():
        return Resumption(None)
    try:
        resumed = store.resume()
    except StoreError as error:
        where = store.quarantine(str(error))
        return Resumption(None, [_("The saved game could not be read and was put aside: {path}").format(
            path=where)])
    found = game_of(resumed.header)
    if found != game:
        store.close()
        raise StoreError(_("{path} holds an unfinished game of {found}, not of {game}: play it "
                           "to its end first, or use another state directory").format(
            path=store.current_path, found=_game_name(found), game=_game_name(game)))
    data = {**resumed.header, "events": resumed.events}
    try:
        record: Record | KidsRecord
        if found == KIDS:
            record = kids_record.read(data)
            kids_record.replay(record)
        else:
            record = azul_record.read_record(data)
            azul_record.replay(record)
    except RecordError as error:
        store.close()
        where = store.quarantine(str(error))
        return Resumption(None, [_("The saved game breaks a rule ({error}) and was put aside: {path}").format(
            error=error, path=where)])
    messages = list(resumed.warnings)
    messages.append(_("Resumed the unfinished game: {n} events.").format(n=len(record.events)))
    return Resumption(record, messages)


def _game_name(game: str) -> str:
    return _("Azul Kids") if game == KIDS else _("Azul")


class EchoSink:
    """A sink that stores each event durably, then says so on ``out`` as one JSON line.

    The line is written only after the store has fsynced the event, so whoever reads the
    lines knows that every event printed is safe. Once stored, an event is accepted even if
    the line cannot be written (a reader that went away): the echo stops, the game goes on.
    """

    def __init__(self, store: GameStore, out: TextIO | None = None) -> None:
        self.store = store
        self.out: TextIO | None = out if out is not None else sys.stdout  # stdout as it is now

    def append(self, event: dict[str, Any]) -> None:
        self.store.append(event)
        self._say(event)

    def undo(self) -> dict[str, Any]:
        removed = self.store.undo()
        self._say({"undo": removed})
        return removed

    def _say(self, line: dict[str, Any]) -> None:
        if self.out is None:
            return
        try:
            self.out.write(json.dumps(line) + "\n")
            self.out.flush()
        except (OSError, ValueError) as error:  # a closed pipe or stream
            log.warning("stopped printing the accepted events: %s", error)
            self.out = None
