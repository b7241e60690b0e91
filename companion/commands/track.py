"""`azul-companion track STREAM.jsonl --record OUT.json [--json]`: the tracker, offline.

Reads an offline tracking stream (observation.md): a ``setup`` line, then
``observation`` frames and ``answer`` lines (used only when the tracker asks). Writes
the record it inferred, durably after every event, and prints the summary with
``asked``, ``auto`` and ``warnings``. A bad stream line stops it with exit status 2
and one line on stderr naming the line; the record holds what was accepted before.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from companion.i18n import _
from companion.rules import azul_record
from companion.rules.errors import RecordError
from companion.tracker import Tracker
from companion.tracking.frame import ObservationError, read_frame

_KINDS = ("setup", "observation", "answer")


class StreamError(ValueError):
    """A line of the tracking stream that cannot be used; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(_("line {line}: {message}").format(line=line, message=message))


class RecordFile:
    """A record sink that rewrites the whole file after every change (temporary file, fsync,
    rename), so the file is always a complete record. Stands in until companion.store is wired."""

    def __init__(self, path: Path, header: dict) -> None:
        self.path = path
        self.header = header
        self.events: list[dict] = []
        self._write()

    def append(self, event_json: dict) -> None:
        self.events.append(event_json)
        self._write()

    def undo(self) -> None:
        self.events.pop()
        self._write()

    def _write(self) -> None:
        text = azul_record.dumps({**self.header, "events": self.events})
        temporary = self.path.with_name(self.path.name + ".tmp")
        with temporary.open("w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)
        directory = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "track", help=_("follow a game from a stream of observations"),
        description=_("Follow a game from an offline stream of observations (JSON lines) and "
                      "write the game record it comes to."))
    parser.add_argument("stream", metavar="STREAM.jsonl", type=Path)
    parser.add_argument("--record", required=True, metavar="OUT.json", type=Path,
                        help=_("where to write the inferred game record"))
    parser.add_argument("--json", action="store_true", help=_("print the summary as JSON"))
    parser.set_defaults(func=run)


def _parse(number: int, text: str) -> tuple[str, object]:
    try:
        item = json.loads(text)
    except json.JSONDecodeError as error:
        raise StreamError(number, _("not JSON: {reason}").format(reason=error)) from None
    if not isinstance(item, dict) or len(item) != 1:
        raise StreamError(number, _("a stream line is an object with exactly one key ({keys})").format(
            keys=", ".join(_KINDS)))
    ((kind, body),) = item.items()
    if kind not in _KINDS:
        raise StreamError(number, _("unknown key {key!r} (expected {keys})").format(
            key=kind, keys=", ".join(_KINDS)))
    return kind, body


def _setup(number: int, body: object) -> azul_record.Record:
    if not isinstance(body, dict) or body.get("game") != "azul":
        raise StreamError(number, _("setup must say \"game\": \"azul\""))
    try:
        return azul_record.read_record({"format": azul_record.FORMAT, "game": "azul",
                                        "variant": body.get("variant", "colored"),
                                        "players": body.get("players"), "events": []})
    except RecordError as error:
        raise StreamError(number, _("bad setup: {reason}").format(reason=error)) from None


def track(lines: list[str], out: Path) -> tuple[Tracker, dict]:
    """Run the tracker over the stream's lines; the tracker and the summary."""
    tracker: Tracker | None = None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        kind, body = _parse(number, text)
        if tracker is None:
            if kind != "setup":
                raise StreamError(number, _("the stream must start with a setup line"))
            record = _setup(number, body)
            header = {key: value for key, value in record.to_json().items() if key != "events"}
            # Nobody can answer a question about a refill in a stream: the round's evidence must.
            tracker = Tracker(record, RecordFile(out, header), ask_refills=False)
            continue
        if kind == "setup":
            raise StreamError(number, _("a second setup line"))
        if kind == "observation":
            try:
                read_frame(body)
            except ObservationError as error:
                raise StreamError(number, str(error)) from None
            tracker.observe(body)  # type: ignore[arg-type]
        else:
            try:
                parsed = azul_record.read_record({
                    "format": azul_record.FORMAT, "game": "azul", "variant": tracker.record.variant,
                    "players": tracker.record.players, "events": [body]})
            except RecordError as error:
                raise StreamError(number, _("bad answer: {reason}").format(reason=error.message)) from None
            tracker.answer(parsed.events[0], parsed.movers[0])
    if tracker is None:
        raise StreamError(1, _("the stream is empty: it must start with a setup line"))
    summary = azul_record.summary(tracker.game)
    summary.update(asked=tracker.asked, auto=tracker.auto, warnings=tracker.warned)
    return tracker, summary


def run(args: argparse.Namespace) -> int:
    try:
        lines = args.stream.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        print(_("{path}: cannot read: {reason}").format(path=args.stream, reason=error), file=sys.stderr)
        return 2
    try:
        _tracker, summary = track(lines, args.record)
    except StreamError as error:
        print(f"{args.stream}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(_("{path}: cannot write: {reason}").format(path=args.record, reason=error), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        print(_("scores {scores}, rounds {rounds}, over: {over}; asked {asked}, auto {auto}, "
                "warnings {warnings}").format(**summary))
    return 0
