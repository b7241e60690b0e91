"""`azul-companion`: one command, one subcommand module per job.

Each module in ``COMMANDS`` exposes ``register(subparsers)``, which adds its parser
and sets ``func``, a callable taking the parsed arguments and returning the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from companion.i18n import _, set_language

COMMANDS = (
    "companion.commands.replay",
    "companion.commands.demo",
    "companion.commands.track",
    "companion.commands.config",
    "companion.commands.recognize",
    "companion.commands.run",
    "companion.commands.history",
    "companion.commands.kit",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azul-companion",
        description=_("Watches a real game of Azul and keeps the score."),
    )
    parser.add_argument("--lang", help=_("language of messages (en, da, de, es, nl, pl)"))
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # pygame greets on stdout when imported; commands import it lazily, and quietly.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    args = list(sys.argv[1:] if argv is None else argv)
    # The language must be set before the parser's help texts are built.
    lang = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    set_language(lang)
    parsed = build_parser().parse_args(args)
    try:
        return int(parsed.func(parsed) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: not an error of ours.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
