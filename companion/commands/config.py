"""`azul-companion config`: check the configuration files and show what they add up to."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.config import SYSTEM_PATH, Config, ConfigError, load_config
from companion.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config",
        help=_("check the configuration and print it"),
        description=_(
            "Reads {system}, then ~/.config/azul-companion/config.toml, then --config FILE; "
            "prints the merged settings, or names the file, key and problem (exit status 2)."
        ).format(system=SYSTEM_PATH),
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument(
        "--check", action="store_true",
        help=_("check the configuration and print the merged settings (the default)"),
    )
    action.add_argument(
        "--defaults", action="store_true",
        help=_("print the built-in settings, a starting point for a config.toml"),
    )
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help=_("read FILE last, over the other files"),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.defaults:
        sys.stdout.write(Config().to_toml())
        return 0
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(_("azul-companion: configuration error: {error}").format(error=error),
              file=sys.stderr)
        return 2
    if config.sources:
        for source in config.sources:
            print("# " + _("read {file}").format(file=source))
    else:
        print("# " + _("no configuration file found: built-in settings"))
    sys.stdout.write(config.to_toml())
    return 0
