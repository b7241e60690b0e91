"""`azul-companion history [--state-dir DIR] [--json]`: the finished games kept on this machine.

Azul and Azul Kids games alike, each replayed by its own rules and summed up by its own
summary (azul-summary/1: scores; azul-kids-summary/1: winners, stars, empty fields).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.i18n import _

KIDS_SUMMARY = "azul-kids-summary/1"  # kids_record.SUMMARY_FORMAT (the rules load only when run)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("history", help=_("list the finished games"),
                                   description=_("List the finished games kept on this machine."))
    parser.add_argument("--state-dir", type=Path, metavar="DIR",
                        help=_("where games are kept (default: from the configuration)"))
    parser.add_argument("--config", type=Path, metavar="FILE", help=_("configuration file"))
    parser.add_argument("--json", action="store_true",
                        help=_("one JSON object per game: file, finished, game, players, summary"))
    parser.set_defaults(func=run)


def state_dir(args: argparse.Namespace) -> Path:
    """--state-dir, else the configured one; ConfigError if the configuration is broken."""
    if args.state_dir is not None:
        return args.state_dir
    from companion.config import load_config

    return load_config(args.config).state_dir


def run(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.store import GameStore

    try:
        folder = state_dir(args)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    games = GameStore(folder).history()
    if not games and not args.json:
        print(_("No finished games in {path}.").format(path=folder))
    for game in games:
        finished = game.finished.isoformat(sep=" ") if game.finished else "?"
        record = game.record if isinstance(game.record, dict) else None
        kind = record.get("game") if record is not None else None
        summary, problem = None, game.problem
        if record is not None:
            summary, problem = summed_up(record)
        players = [str(p) for p in record.get("players", [])] if record is not None else []
        if args.json:
            print(json.dumps({"file": str(game.path), "finished": finished, "game": kind,
                              "players": players, "summary": summary, "error": problem}))
        elif summary is None:
            print(_("{when}  {file}: cannot be replayed: {problem}").format(
                when=finished, file=game.path.name, problem=problem))
        elif summary["format"] == KIDS_SUMMARY:
            print(kids_line(finished, record, players, summary))  # type: ignore[arg-type]
        else:
            scores = ", ".join(f"{name} {score}"
                               for name, score in zip(players, summary["scores"], strict=False))
            winners = " & ".join(players[w] for w in summary["winners"] if w < len(players))
            print(_("{when}  {scores}  winner: {winners}").format(
                when=finished, scores=scores, winners=winners))
    return 0


def summed_up(record: dict) -> tuple[dict | None, str | None]:
    """(summary, None) of a finished game's record, or (None, why it does not replay)."""
    from companion.rules import azul_record, kids_record
    from companion.rules.errors import RecordError

    try:
        if record.get("game") == kids_record.GAME:
            return kids_record.summary(kids_record.replay(record)), None
        return azul_record.summary(azul_record.replay(azul_record.read_record(record))), None
    except RecordError as error:
        return None, str(error)


def kids_line(finished: str, record: dict, players: list[str], summary: dict) -> str:
    """One Azul Kids game: the side, each player's stars (master) and the winners."""
    side = _("Azul Kids, master side") if record.get("variant") == "master" else _(
        "Azul Kids, apprentice side")
    winners = " & ".join(players[w] for w in summary["winners"] if w < len(players))
    if record.get("variant") == "master":
        stars = ", ".join(_("{name} {n} stars").format(name=name, n=n)
                          for name, n in zip(players, summary["stars"], strict=False))
        return _("{when}  {game}: {stars}  winner: {winners}").format(
            when=finished, game=side, stars=stars, winners=winners)
    if summary["stalled"]:
        return _("{when}  {game}: the tiles ran out, no winner").format(when=finished, game=side)
    return _("{when}  {game}: {names}  winner: {winners}").format(
        when=finished, game=side, names=", ".join(players), winners=winners)
