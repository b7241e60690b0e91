"""`azul-companion run`: the companion at a real table (camera -> vision -> tracker -> display).

Starts on the setup screen. Under systemd it reports READY once the first frame is shown and
feeds the watchdog from the render loop, so a frozen screen gets the service restarted.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import sys
from pathlib import Path
from typing import Any

from companion.commands.demo import size
from companion.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help=_("watch a real table with the camera"),
                                   description=_("Watch a real game through the camera and keep the score."))
    parser.add_argument("--camera", metavar="NAME",
                        help=_("auto, picamera2, opencv[:DEVICE], replay:PATH or synthetic "
                               "(default: from the configuration, else auto)"))
    parser.add_argument("--size", type=size, metavar="WxH",
                        help=_("screen size (default: from the configuration, else 800x480)"))
    parser.add_argument("--window", action="store_true", help=_("a window instead of the full screen"))
    parser.add_argument("--idle", type=float, default=300.0, metavar="SECONDS",
                        help=_("show the idle screen after so long without a touch (default 300)"))
    parser.add_argument("--no-buttons", action="store_true", help=_("do not use GPIO buttons"))
    parser.add_argument("--state-dir", type=Path, metavar="DIR",
                        help=_("where the game in progress and finished games are kept "
                               "(default: from the configuration)"))
    parser.add_argument("--config", type=Path, metavar="FILE", help=_("configuration file"))
    parser.set_defaults(func=run)


def find_recogniser() -> Any:
    """vision's recogniser (frame -> azul-observation/1), or None until it is written."""
    if importlib.util.find_spec("vision.recognize") is None:
        return None
    return importlib.import_module("vision.recognize").recognize


def camera_options(config: Any, name: str) -> dict[str, Any]:
    """The configured camera settings that the chosen backend takes."""
    kind = name.partition(":")[0]
    options: dict[str, Any] = {"size": (config.camera.width, config.camera.height)}
    if kind == "picamera2":
        options["lock"] = config.camera.lock
    if kind == "replay":
        options = {"fps": config.camera.replay_fps}
    return options


def run(args: argparse.Namespace) -> int:
    from companion.config import ConfigError, load_config
    from companion.i18n import set_language
    from hardware.camera import CameraError, ReconnectingCamera, make_camera
    from hardware.notify import Notifier

    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(_("run: {error}").format(error=error), file=sys.stderr)
        return 2
    if args.lang is None:
        set_language(config.display.language)
    # Under systemd, stderr is the journal: what the kiosk did and why can be read there.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    name = args.camera or config.camera.backend
    options = camera_options(config, name)
    if name == "auto":
        options["report"] = lambda message: print(message, file=sys.stderr, flush=True)
    try:
        camera = ReconnectingCamera(make_camera(name, **options))
    except (CameraError, TypeError) as error:
        print(_("run: {error}").format(error=error), file=sys.stderr)
        return 2
    if args.idle <= 0:
        print(_("run: --idle must be more than 0 seconds"), file=sys.stderr)
        return 2
    screen = args.size or (config.display.width, config.display.height)
    fullscreen = config.display.fullscreen and not args.window
    from companion.results import FileResults
    from companion.session import resume_game, start_game
    from companion.store import GameStore, StoreError
    from companion.ui.app import App, run_window
    from companion.ui.demo import make_reader
    from companion.ui.live import LivePipeline
    from companion.ui.screens.base import Settings
    from companion.ui.screens.setup import SetupScreen

    try:
        store = GameStore(args.state_dir or config.state_dir)
        resumption = resume_game(store)
    except (StoreError, OSError) as error:
        print(_("run: {error}").format(error=error), file=sys.stderr)
        return 2
    for message in resumption.messages:
        print(message, file=sys.stderr)

    buttons = None
    if config.buttons.enabled and not args.no_buttons:
        from hardware.buttons import default_buttons, open_buttons

        pins = {"confirm": config.buttons.confirm, "next": config.buttons.next, "undo": config.buttons.undo}
        buttons, problem = open_buttons(default_buttons(pins), debounce=config.buttons.debounce,
                                        long_press=config.buttons.long_press)
        if buttons is not None:
            buttons.start()
        elif problem:
            print(problem, file=sys.stderr)
    recognise = find_recogniser()

    def session(settings: Settings) -> LivePipeline:
        # The unfinished game goes on first; every later one is new. Each event is on disk
        # before the tracker moves on, and a finished game leaves through the results.
        record, resumption.record = resumption.record, None
        if record is None:
            record = start_game(store, list(settings.names), settings.variant)
        players = len(settings.names)
        read = None if recognise is None else (lambda frame: recognise(frame, players))
        reader = make_reader(settings, record=record, sink=store, results=FileResults(store))
        return LivePipeline(settings, camera, read, reader)

    if resumption.record is not None:
        resumed = Settings(tuple(resumption.record.players), resumption.record.variant)
        app = App(screen, session, resumed, period=0.03, idle_after=args.idle, buttons=buttons)
        first = lambda: app.start(resumed)  # noqa: E731
    else:
        chosen = Settings(tuple(config.game.players), config.game.variant)
        app = App(screen, session, chosen, period=0.03, idle_after=args.idle, buttons=buttons)
        first = lambda: app.push(SetupScreen(app.settings))  # noqa: E731
    try:
        return run_window(app, fullscreen=fullscreen, notifier=Notifier(), first=first)
    finally:
        if buttons is not None:
            buttons.close()
