"""Where finished games go: one interface, whatever the destination.

Today a finished game is kept as a file among the store's finished games; exports and a
multi-table event feed will be further implementations of :class:`Results`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from companion.store import GameStore

log = logging.getLogger(__name__)


class Results(Protocol):
    def publish(self, record: dict, summary: dict) -> str:
        """Take a finished game (its azul-record/1 and summary); returns where it went.

        The summary is the game's own: azul-summary/1 (scores) for Azul, azul-kids-summary/1
        (winners, stars, empty fields) for Azul Kids; ``record["game"]`` tells which.
        """
        ...


class FileResults:
    """Finished games stay on disk: the store moves the record among its finished games."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def publish(self, record: dict, summary: dict) -> str:
        path: Path = self.store.finish()
        log.info("game of %s over, winners %s; record kept as %s", record.get("game"),
                 summary.get("winners"), path)
        return str(path)
