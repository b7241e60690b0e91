"""A tracked game kept safe on disk: start one, resume the unfinished one, let a finished one go.

The game in progress lives in a :class:`~companion.store.GameStore`: every accepted event is
appended and fsynced before the tracker moves on, so a power cut or a crash loses nothing
that was accepted. At start the unfinished game is resumed exactly; a record that no longer
replays is kept aside (never deleted) and reported, and a new game starts.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from companion.i18n import _
from companion.rules import azul_record
from companion.rules.azul_record import Record
from companion.rules.errors import RecordError
from companion.store import GameStore, StoreError

log = logging.getLogger(__name__)


@dataclass
class Resumption:
    """What was found at start: the record to go on with (None: start anew) and what to tell."""

    record: Record | None
    messages: list[str] = field(default_factory=list)


def start_game(store: GameStore, players: list[str], variant: str) -> Record:
    """Open a new game in the store and return its (empty) record."""
    record = Record(list(players), variant)
    header = {key: value for key, value in record.to_json().items() if key != "events"}
    store.start(header)
    return record


def resume_game(store: GameStore) -> Resumption:
    """The unfinished game, if there is one that replays; anything else is put aside."""
    if not store.has_current():
        return Resumption(None)
    try:
        resumed = store.resume()
    except StoreError as error:
        where = store.quarantine(str(error))
        return Resumption(None, [_("The saved game could not be read and was put aside: {path}").format(
            path=where)])
    data = {**resumed.header, "events": resumed.events}
    try:
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


class EchoSink:
    """A sink that stores each event durably, then says so on ``out`` as one JSON line.

    The line is written only after the store has fsynced the event, so whoever reads the
    lines knows that every event printed is safe.
    """

    def __init__(self, store: GameStore, out: TextIO = sys.stdout) -> None:
        self.store = store
        self.out = out

    def append(self, event: dict[str, Any]) -> None:
        self.store.append(event)
        self.out.write(json.dumps(event) + "\n")
        self.out.flush()

    def undo(self) -> dict[str, Any]:
        removed = self.store.undo()
        self.out.write(json.dumps({"undo": removed}) + "\n")
        self.out.flush()
        return removed
