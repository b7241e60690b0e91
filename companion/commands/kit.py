"""`azul-companion kit --out DIR`: the printable ArUco kit for a fixed kiosk table.

Only an aid: the companion recognises a table without markers. See docs/aruco-kit.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "kit", help=_("write a printable ArUco marker kit for a fixed kiosk table"),
        description=_("Write printable ArUco marker sheets (PNG at 300 dpi and PDF, A4) and a placement "
                      "guide. Markers are only an aid for fixed kiosks; the companion needs none."))
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help=_("directory to write the kit into (made if missing)"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.kit import write_kit

    if args.out.exists() and not args.out.is_dir():
        print(_("{path}: not a directory; give a directory for the kit").format(path=args.out),
              file=sys.stderr)
        return 2
    try:
        written = write_kit(args.out)
    except OSError as error:
        print(_("{path}: cannot write the kit: {reason}").format(
            path=error.filename or args.out, reason=error.strerror or error), file=sys.stderr)
        return 2
    for path in written:
        print(path)
    print(_("Print markers.pdf at 100 % on A4, check the ruler, then follow placement.md."))
    return 0
