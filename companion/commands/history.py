"""`azul-companion history [--state-dir DIR] [--json]`: the finished games kept on this machine."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("history", help=_("list the finished games"),
                                   description=_("List the finished games kept on this machine."))
    parser.add_argument("--state-dir", type=Path, metavar="DIR",
                        help=_("where games are kept (default: from the configuration)"))
    parser.add_argument("--config", type=Path, metavar="FILE", help=_("configuration file"))
    parser.add_argument("--json", action="store_true",
                        help=_("one JSON object per game: file, finished, players, summary"))
    parser.set_defaults(func=run)


def state_dir(args: argparse.Namespace) -> Path:
    """--state-dir, else the configured one; ConfigError if the configuration is broken."""
    if args.state_dir is not None:
        return args.state_dir
    from companion.config import load_config

    return load_config(args.config).state_dir


def run(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.rules import azul_record
    from companion.rules.errors import RecordError
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
        summary, problem = None, game.problem
        if game.record is not None:
            try:
                summary = azul_record.summary(azul_record.replay(azul_record.read_record(game.record)))
            except RecordError as error:
                problem = str(error)
        players = list(game.record.get("players", [])) if isinstance(game.record, dict) else []
        if args.json:
            print(json.dumps({"file": str(game.path), "finished": finished, "players": players,
                              "summary": summary, "error": problem}))
        elif summary is None:
            print(_("{when}  {file}: cannot be replayed: {problem}").format(
                when=finished, file=game.path.name, problem=problem))
        else:
            scores = ", ".join(f"{name} {score}"
                               for name, score in zip(players, summary["scores"], strict=False))
            winners = " & ".join(players[w] for w in summary["winners"] if w < len(players))
            print(_("{when}  {scores}  winner: {winners}").format(
                when=finished, scores=scores, winners=winners))
    return 0
