"""`azul-companion demo`: bots play a simulated table; the companion reads it back and shows it.

In a window by default; ``--headless --frames DIR`` writes PNG screenshots instead (no display
needed: SDL's dummy driver does).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help=_("watch bots play a simulated table"),
                                   description=_("Bots play a game of Azul on a simulated table; "
                                                 "the companion reads it back and shows it."))
    parser.add_argument("--game", default="azul", choices=("azul", "kids"),
                        help=_("azul (default) or kids: Azul Kids with the example boards"))
    parser.add_argument("--side", default="apprentice", choices=("apprentice", "master"),
                        help=_("with --game kids: the boards' side (default apprentice)"))
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--variant", default="colored", choices=("colored", "grey"))
    parser.add_argument("--seed", type=int, default=None, help=_("seed of the bag draws and the bots"))
    parser.add_argument("--size", type=size, default=(800, 480), metavar="WxH",
                        help=_("window or screenshot size (default 800x480)"))
    parser.add_argument("--fullscreen", action="store_true", help=_("fill the screen"))
    parser.add_argument("--pace", type=float, default=1.2, metavar="SECONDS",
                        help=_("seconds between moves (default 1.2)"))
    parser.add_argument("--table", default="camera", choices=("camera", "true"),
                        help=_("camera: render each frame and recognise it (default); "
                               "true: a perfect recogniser, faster"))
    parser.add_argument("--headless", action="store_true", help=_("no window: write PNG screenshots"))
    parser.add_argument("--frames", type=Path, metavar="DIR", help=_("folder for the screenshots"))
    parser.add_argument("--turns", type=int, default=None, metavar="N",
                        help=_("stop after N moves (default: the end of the game)"))
    parser.add_argument("--state-dir", type=Path, metavar="DIR",
                        help=_("keep the game here event by event and resume it after a crash"))
    parser.add_argument("--events", action="store_true",
                        help=_("with --state-dir: print each accepted event as a JSON line once it is safe"))
    parser.set_defaults(func=run)


def size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a size like 800x480: {text!r}").format(text=text)) from None
    if not (200 <= width <= 8000 and 200 <= height <= 8000):
        raise argparse.ArgumentTypeError(_("size {text} is out of range").format(text=text))
    return width, height


def run(args: argparse.Namespace) -> int:
    if args.headless and args.frames is None:
        print(_("demo: --headless needs --frames DIR"), file=sys.stderr)
        return 2
    if args.turns is not None and args.turns < 0:
        print(_("demo: --turns must be 0 or more"), file=sys.stderr)
        return 2
    if args.headless:
        try:
            args.frames.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(_("demo: cannot make {path}: {reason}").format(path=args.frames, reason=error.strerror),
                  file=sys.stderr)
            return 2
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if args.events and args.state_dir is None:
        print(_("demo: --events needs --state-dir DIR"), file=sys.stderr)
        return 2
    # pygame loads only now, after the driver is chosen.
    from companion.store import StoreError

    if args.game == "kids":
        from companion.ui.kids.demo import kids_headless_demo as headless_demo
        from companion.ui.kids.demo import kids_window_demo as window_demo
        from companion.ui.kids.demo import open_kids_keeping as open_keeping

        game: dict = {"side": args.side}
    else:
        from companion.ui.demo import Keeping, headless_demo, window_demo

        open_keeping = Keeping.open
        game = {"variant": args.variant}
    try:
        keeping = open_keeping(args.state_dir, echo=args.events) if args.state_dir else None
    except (StoreError, OSError) as error:
        print(_("demo: {path}: {error}").format(path=args.state_dir, error=error), file=sys.stderr)
        return 2

    if not args.headless and not has_screen():
        args.headless = True
        args.frames = args.frames or Path("demo-frames")
        args.frames.mkdir(parents=True, exist_ok=True)
        print(_("No screen here: the demo writes what it would show as PNG screenshots to {path}/").format(
            path=args.frames), file=sys.stderr)
    if args.headless:
        frames = headless_demo(args.frames, players=args.players, seed=args.seed, size=args.size,
                               turns=args.turns, table=args.table, keeping=keeping, **game)
        print(_("{n} screenshots in {path}").format(n=len(frames), path=args.frames),
              file=sys.stderr if args.events else sys.stdout)
        return 0
    return window_demo(players=args.players, seed=args.seed, size=args.size, pace=args.pace,
                       fullscreen=args.fullscreen, table=args.table, keeping=keeping, **game)


def has_screen() -> bool:
    """Whether SDL finds a real display; without one it falls back to an invisible one.

    A driver the user chose (SDL_VIDEODRIVER) is taken at its word.
    """
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    import pygame

    # SDL says on stderr why each driver it tries is not there ("XDG_RUNTIME_DIR is invalid"):
    # alarming noise on a server, and the answer is given in words below anyway.
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as quiet:
            os.dup2(quiet.fileno(), 2)
            try:
                pygame.display.init()
                return pygame.display.get_driver() not in ("offscreen", "dummy")
            except pygame.error:
                return False
            finally:
                pygame.display.quit()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
