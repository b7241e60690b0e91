"""Games on disk that survive a pulled plug.

The game being played is one azul-record/1 file, ``current.json``, laid out so
that events can be appended without rewriting it::

    {
    "format": "azul-record/1",
    "game": "azul",
    "players": ["Ann", "Bo"],
    "events": [
    {"refill": [...]},
    {"take": {...}}
    ]}

``append()`` overwrites the closing ``]}`` with the new event line and a new
closing, then flushes and fsyncs: after every completed append the file is a
valid record. A crash during an append can leave a torn last line; ``resume()``
keeps every complete event line, drops the torn one (returning a warning, not
printing it) and rewrites the file atomically (temporary file, fsync, rename,
fsync of the directory), so a crash during the repair loses nothing either.

The store does not know the rules: the caller replays what ``resume()`` returns
and calls ``quarantine()`` when that fails. Nothing is ever deleted: finished
games move to ``games/``, records that do not replay to ``quarantine/``.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from companion.i18n import _

log = logging.getLogger(__name__)

FORMAT = "azul-record/1"
CURRENT = "current.json"
GAMES = "games"
QUARANTINE = "quarantine"
_EVENTS_OPEN = b'"events": [\n'
_CLOSE = b"]}\n"
_STAMP = "%Y-%m-%dT%H-%M-%S"
# What may follow an event on its line: its comma, or the record's closing (maybe torn).
_LINE_END = re.compile(r"\s*,?\s*(\]\s*\}?)?\s*")


class StoreError(Exception):
    """The store cannot do what was asked; the message says why."""


@dataclass(frozen=True)
class Resumed:
    """The game in progress as found on disk, and what had to be repaired."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    warnings: list[str]


@dataclass(frozen=True)
class FinishedGame:
    path: Path
    finished: datetime | None
    record: dict[str, Any] | None  # None when the file cannot be read (see problem)
    problem: str | None = None


class GameStore:
    """The games kept in ``directory`` (the state directory)."""

    def __init__(self, directory: Path, *, now: Callable[[], datetime] = datetime.now) -> None:
        self.directory = Path(directory)
        self.current_path = self.directory / CURRENT
        self._now = now
        self._file: IO[bytes] | None = None
        self._header: dict[str, Any] = {}
        self._events: list[dict[str, Any]] = []
        self._tail = 0  # where the closing "]}" starts

    def has_current(self) -> bool:
        return self.current_path.exists()

    def start(self, header: Mapping[str, Any]) -> None:
        """Begin a new game with this record header (everything but "events")."""
        if self.has_current():
            raise StoreError(
                _("{path}: a game is already in progress; finish or quarantine it first")
                .format(path=self.current_path))
        header = _checked_header(header)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._write_atomically(_render(header, []))
        self._open(header, [])

    def resume(self) -> Resumed:
        """Load the game in progress, repairing a torn last line; then appends go on."""
        self.close()
        try:
            data = self.current_path.read_bytes()
        except FileNotFoundError:
            raise StoreError(_("{path}: there is no game in progress").format(
                path=self.current_path)) from None
        warnings: list[str] = []
        parsed = _parse_whole(data)
        if parsed is None:
            header, events, warnings = self._recover(data)
        else:
            header, events = parsed
        canonical = _render(header, events)
        if canonical != data:
            self._write_atomically(canonical)
        self._open(header, events)
        for warning in warnings:
            log.warning("%s", warning)
        return Resumed(dict(header), [dict(e) for e in events], warnings)

    def append(self, event: Mapping[str, Any]) -> None:
        """Add one event; it is on disk (fsynced) when this returns."""
        if self._file is None:
            raise StoreError(_("no game is open: start() or resume() one first"))
        line = _dumps(event, _("event")).encode()
        if self._events:
            at, data = self._tail - 1, b",\n" + line + b"\n" + _CLOSE
        else:
            at, data = self._tail, line + b"\n" + _CLOSE
        try:
            self._file.seek(at)
            self._file.write(data)
            self._file.truncate()
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as error:
            # The file may now hold a torn line: only resume() may touch it again.
            self.close()
            raise StoreError(_("{path}: cannot save the event: {error}").format(
                path=self.current_path, error=error)) from error
        self._tail = at + len(data) - len(_CLOSE)
        self._events.append(dict(event))

    def undo(self) -> dict[str, Any]:
        """Take the last event back (a person undid it); returns it. Durable when this returns."""
        if self._file is None:
            raise StoreError(_("no game is open: start() or resume() one first"))
        if not self._events:
            raise StoreError(_("{path}: there is no event to take back").format(path=self.current_path))
        events = self._events[:-1]
        self.close()
        # A whole new file, renamed over the old one: a crash leaves either the old or the new.
        self._write_atomically(_render(self._header, events))
        removed = self._events[-1]
        self._open(self._header, events)
        return dict(removed)

    def record(self) -> dict[str, Any]:
        """The open game as an azul-record/1 object."""
        if self._file is None:
            raise StoreError(_("no game is open: start() or resume() one first"))
        return {**self._header, "events": [dict(e) for e in self._events]}

    def finish(self) -> Path:
        """Move the game in progress into games/ under a timestamped name; returns it."""
        game = re.sub(r"[^a-z0-9-]+", "-", str(self._header.get("game", "game")).lower())
        target = self._move_current(GAMES, game)
        log.info("finished game saved as %s", target)
        return target

    def quarantine(self, reason: str) -> Path:
        """Move the game in progress aside (never delete it), with ``reason`` beside it."""
        target = self._move_current(QUARANTINE, "current", reason=reason)
        log.warning("game record quarantined as %s: %s", target, reason)
        return target

    def history(self) -> list[FinishedGame]:
        """Finished games, oldest first."""
        games = []
        for path in sorted((self.directory / GAMES).glob("*.json"), key=_name_order):
            try:
                finished: datetime | None = datetime.strptime(path.name[:19], _STAMP)
            except ValueError:
                finished = None
            try:
                record = json.loads(path.read_bytes())
            except (OSError, ValueError) as error:
                games.append(FinishedGame(path, finished, None, str(error)))
                continue
            games.append(FinishedGame(path, finished, record))
        return games

    def close(self) -> None:
        if self._file is not None:
            file, self._file = self._file, None
            file.close()

    # --- on disk ---------------------------------------------------------------------

    def _open(self, header: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self._file = self.current_path.open("r+b")
        self._header = header
        self._events = list(events)
        self._tail = len(_render(header, events)) - len(_CLOSE)

    def _write_atomically(self, data: bytes) -> None:
        temporary = self.current_path.with_name(CURRENT + ".tmp")
        with temporary.open("wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.current_path)
        _fsync_directory(self.directory)

    def _move_current(self, folder: str, what: str, reason: str | None = None) -> Path:
        if not self.has_current():
            raise StoreError(_("{path}: there is no game in progress").format(
                path=self.current_path))
        self.close()
        target_dir = self.directory / folder
        if not target_dir.is_dir():
            target_dir.mkdir(parents=True)
            _fsync_directory(self.directory)
        # "<time>_<what>.json"; a second one within the same second is "<time>-2_<what>.json".
        stamp = self._now().strftime(_STAMP)
        taken = {path.name.partition("_")[0] for path in target_dir.iterdir()}
        number = 1
        while (stamp if number == 1 else f"{stamp}-{number}") in taken:
            number += 1
        target = target_dir / f"{stamp if number == 1 else f'{stamp}-{number}'}_{what}.json"
        if reason is not None:
            note = target.with_suffix(".reason.txt")
            with note.open("w", encoding="utf-8") as file:
                file.write(reason.rstrip("\n") + "\n")
                file.flush()
                os.fsync(file.fileno())
        os.rename(self.current_path, target)
        _fsync_directory(target_dir)
        _fsync_directory(self.directory)
        self._header, self._events = {}, []
        return target

    def _recover(self, data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
        damaged = StoreError(_("{path} is damaged beyond a torn last line; quarantine it")
                             .format(path=self.current_path))
        opening = _EVENTS_OPEN.rstrip(b"\n")
        start = data.find(b"\n" + opening)
        if start < 0:
            raise damaged
        body = start + 1 + len(opening)
        try:
            header = json.loads(data[:body] + b"\n" + _CLOSE)
        except ValueError:
            raise damaged from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise damaged
        del header["events"]
        lines = [line.strip(b" \t\r\0") for line in data[body:].split(b"\n")]
        lines = [line for line in lines if line]
        events: list[dict[str, Any]] = []
        warnings: list[str] = []
        decoder = json.JSONDecoder()
        for number, raw in enumerate(lines):
            text = raw.decode("utf-8", errors="replace")
            if _LINE_END.fullmatch(text):
                break  # the closing, on its own line
            try:
                event, end = decoder.raw_decode(text)
            except ValueError:
                event, end = None, 0
            # A torn write over the old closing can leave "{}": an event has a key.
            if isinstance(event, dict) and event and _LINE_END.fullmatch(text, end):
                events.append(event)
                continue
            if number != len(lines) - 1:
                raise damaged  # a bad line with more after it: not a torn append
            warnings.append(
                _("{path}: dropped an unfinished last event (the companion stopped while "
                  "saving it): {text}").format(path=self.current_path, text=_clip(text)))
        return header, events, warnings


def _name_order(path: Path) -> tuple[str, int, str]:
    prefix = path.name.partition("_")[0]
    number = prefix[20:]  # "<time>-<n>" for the n-th game of one second
    return prefix[:19], int(number) if number.isdigit() else 1, path.name


def _parse_whole(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    try:
        record = json.loads(data)
    except ValueError:
        return None
    if (not isinstance(record, dict) or record.get("format") != FORMAT
            or not isinstance(record.get("events"), list)
            or not all(isinstance(event, dict) for event in record["events"])):
        return None
    events = record.pop("events")
    return record, events


def _render(header: Mapping[str, Any], events: list[dict[str, Any]]) -> bytes:
    lines = ["{\n"]
    lines += [f"{json.dumps(key)}: {_dumps(value, key)},\n" for key, value in header.items()]
    text = "".join(lines).encode() + _EVENTS_OPEN
    if events:
        text += ",\n".join(_dumps(event, _("event")) for event in events).encode() + b"\n"
    return text + _CLOSE


def _dumps(value: Any, what: str) -> str:
    """One line of JSON; a ValueError naming ``what`` if it is not JSON."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(_("{what} is not JSON: {error}").format(what=what, error=error)) \
            from None


def _checked_header(header: Mapping[str, Any]) -> dict[str, Any]:
    if header.get("format") != FORMAT:
        raise ValueError(_("a record header needs \"format\": \"{format}\"").format(format=FORMAT))
    if "events" in header:
        raise ValueError(_("a record header has no \"events\"; append them one by one"))
    if not all(isinstance(key, str) for key in header):
        raise ValueError(_("record header keys must be strings"))
    header = dict(header)
    for key, value in header.items():
        _dumps(value, key)
    return header


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _fsync_directory(path: Path) -> None:
    # A rename is durable only once the directory holding it is synced.
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
