"""`azul-companion replay FILE... [--json]`: replay game records, print what they come to."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.explain import breakdown, explain
from companion.i18n import _, ngettext
from companion.rules import azul_record, kids_record
from companion.rules.azul import BonusScore, Game
from companion.rules.errors import RecordError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help=_("replay game records and print the scores"),
        description=_("Replay game records (azul-record/1) and print the scores."))
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.add_argument("--json", action="store_true", help=_("print one summary object per file"))
    parser.set_defaults(func=run)


def load(path: Path) -> tuple[dict, str]:
    """Read and replay one record file: its summary and the report for people, or RecordError."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as error:
        raise RecordError(_("cannot read: {reason}").format(reason=error.strerror or error)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordError(_("not valid JSON: {reason}").format(reason=error)) from None
    if isinstance(data, dict) and data.get("game") == "azul-kids":
        state = kids_record.replay(data)
        summary = kids_record.summary(state)
        return summary, kids_report(path, summary, data["players"])
    record = azul_record.read_record(data)
    game = azul_record.replay(record)
    return azul_record.summary(game), report(path, game, record.players)


def run(args: argparse.Namespace) -> int:
    results = []
    failed = False
    for path in args.files:
        try:
            results.append((path, *load(path)))
        except RecordError as error:
            print(f"{path}: {error}", file=sys.stderr)
            failed = True
    if failed:
        # A broken record prints nothing on stdout, so no caller mistakes half an answer for one.
        return 2
    for _path, summary, text in results:
        print(json.dumps(summary) if args.json else text)
    return 0


def report(path: Path, game: Game, names: list[str]) -> str:
    """The per-round score table and the final breakdown, for people."""
    width = max(8, *(len(n) + 2 for n in names))
    lines = [f"{path}: " + _("Azul, {variant} wall, {n} players").format(
        variant=_(game.variant), n=game.players)]
    lines.append(_("Round").ljust(7) + "".join(n.rjust(width) for n in names))
    for number, scores in enumerate(game.round_scores, 1):
        lines.append(str(number).ljust(7) + "".join(str(s).rjust(width) for s in scores))
    outcome = game.outcome()
    if outcome is None:
        lines.append(_("Not finished: round {n}, {phase}.").format(n=game.round, phase=_(game.phase)))
        return "\n".join(lines)
    lines.append("")
    for seat, name in enumerate(names):
        b = breakdown(game, seat)
        lines.append(_("{name}: wall {wall}, floor -{floor}, rows +{rows}, columns +{columns},"
                       " colours +{colors} = {total}").format(
            name=name, wall=b.wall, floor=b.floor, rows=b.rows, columns=b.columns,
            colors=b.colors, total=b.total))
        lines.extend("    " + explain(item) for item in game.scoring
                     if item.player == seat and isinstance(item, BonusScore))
    winners = " & ".join(names[s] for s in outcome.winners)
    if outcome.shared:
        lines.append(_("Shared victory: {winners} (same score and complete rows).").format(winners=winners))
    elif outcome.tie_broken_by_rows:
        lines.append(_("Winner: {winner}, on complete rows after a tie on points.").format(winner=winners))
    else:
        lines.append(_("Winner: {winner}.").format(winner=winners))
    return "\n".join(lines)


def kids_report(path: Path, summary: dict, names: list[str]) -> str:
    """Stars and empty fields per player, and who won, for people."""
    lines = [f"{path}: " + _("Azul Kids, {n} players, bowls filled {fills} times").format(
        n=len(names), fills=summary["fills"])]
    for seat, name in enumerate(names):
        stars = ngettext("{n} star", "{n} stars", summary["stars"][seat]).format(n=summary["stars"][seat])
        empty = ngettext("{n} empty field", "{n} empty fields", summary["empty_fields"][seat]).format(
            n=summary["empty_fields"][seat])
        lines.append(f"{name}: {stars}, {empty}")
    if summary["stalled"]:
        lines.append(_("Stalled: the tiles ran out before a board was full."))
    elif summary["over"]:
        lines.append(_("Winner: {winner}.").format(winner=" & ".join(names[s] for s in summary["winners"])))
    else:
        lines.append(_("Not finished."))
    return "\n".join(lines)
