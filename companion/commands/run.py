"""`azul-companion run`: the companion at a real table (camera -> vision -> tracker -> display).

Plays Azul or Azul Kids, as chosen on the setup screen (first offered: the configuration's
``[game]``). An unfinished game kept in the state directory, of either game, goes on at
once; starting a new game while one is unfinished puts that one aside (never deletes it).
Under systemd it reports READY once the first frame is shown and feeds the watchdog from
the render loop, so a frozen screen gets the service restarted.
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


def find_recogniser(game: str = "azul") -> Any:
    """vision's recogniser for ``game`` ("azul": frame, players -> azul-observation/1;
    "azul-kids": frame, boards -> azul-kids-observation/1), or None until it is written."""
    from companion.session import KIDS

    kids = game == KIDS
    module, function = ("vision.kids", "recognise_kids") if kids else ("vision.recognize", "recognize")
    if importlib.util.find_spec(module) is None:
        return None
    return getattr(importlib.import_module(module), function)


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
    from companion.rules.kids_board import BoardError, load_board
    from companion.rules.kids_record import KidsRecord
    from companion.session import AZUL, KIDS
    from companion.store import GameStore, StoreError
    from companion.ui.app import App, run_window
    from companion.ui.kids.settings import settings_of
    from companion.ui.screens.base import Settings
    from companion.ui.screens.setup import SetupScreen

    if config.game.game not in (AZUL, KIDS):
        print(_("run: {game} cannot be followed at a real table yet; set [game] game to azul or "
                "azul-kids").format(game=config.game.game), file=sys.stderr)
        return 2
    try:
        own_boards = tuple(load_board(path) for path in config.game.kids_boards)
    except BoardError as error:
        print(_("run: {error}").format(error=error), file=sys.stderr)
        return 2
    try:
        store = GameStore(args.state_dir or config.state_dir)
        resumption = resume_kept(store)
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

    def session(settings: Settings) -> Any:
        # The unfinished game goes on first; every later one is new. Each event is on disk
        # before the tracker moves on, and a finished game leaves through the results.
        record, resumption.record = resumption.record, None
        if record is None:
            record = new_game(store, settings)
        return live_pipeline(settings, record, store, camera, markers=config.vision.markers)

    record = resumption.record
    if record is not None:
        kept = isinstance(record, KidsRecord)
        resumed = settings_of(record) if kept else Settings(tuple(record.players), record.variant)
        app = App(screen, session, resumed, period=0.03, idle_after=args.idle, buttons=buttons,
                  own_boards=own_boards)
        first = lambda: app.start(resumed)  # noqa: E731
    else:
        chosen = configured(config, own_boards)
        app = App(screen, session, chosen, period=0.03, idle_after=args.idle, buttons=buttons,
                  own_boards=own_boards)
        first = lambda: app.push(SetupScreen(app.settings))  # noqa: E731
    try:
        return run_window(app, fullscreen=fullscreen, notifier=Notifier(), first=first)
    finally:
        if buttons is not None:
            buttons.close()


def configured(config: Any, own_boards: tuple) -> Any:
    """The game the configuration offers first: its ``[game]``, with our boards of the side if any."""
    from companion.session import KIDS
    from companion.ui.kids.settings import KidsSettings, of_side
    from companion.ui.screens.base import Settings

    game = config.game
    if game.game == KIDS:
        return KidsSettings(tuple(game.players), game.variant, boards=of_side(own_boards, game.variant))
    return Settings(tuple(game.players), game.variant)


def resume_kept(store: Any) -> Any:
    """The unfinished game in ``store``, of Azul or of Azul Kids (session.resume_game)."""
    from companion.session import AZUL, KIDS, resume_game
    from companion.store import StoreError

    try:
        return resume_game(store, AZUL)
    except StoreError as error:
        # Only a valid game of the other kind is refused, and the store is left as it was.
        try:
            return resume_game(store, KIDS)
        except StoreError:
            raise error from None


def new_game(store: Any, settings: Any) -> Any:
    """Open a new game of ``settings`` in ``store``; an unfinished one there is put aside first."""
    from companion.session import KIDS, start_game, start_kids_game
    from companion.ui.kids.settings import seat_boards

    if store.has_current():
        where = store.quarantine(_("left unfinished: a new game was started"))
        logging.getLogger(__name__).warning("the unfinished game was put aside: %s", where)
    if settings.game == KIDS:
        return start_kids_game(store, settings.names, settings.variant, seat_boards(settings))
    return start_game(store, list(settings.names), settings.variant)


def live_pipeline(settings: Any, record: Any, store: Any, camera: Any, *, markers: bool = False) -> Any:
    """camera -> the game's recogniser -> its tracker (on ``record``, kept in ``store``) -> views.
    ``markers``: the table carries the kit's ArUco markers, which Azul's recogniser is aided by."""
    from companion.results import FileResults
    from companion.session import KIDS
    from companion.ui.live import LivePipeline

    recognise = find_recogniser(settings.game)
    if settings.game == KIDS:
        from companion.kids_tracker import KidsTracker
        from companion.ui.kids.demo import KidsTrackerReader
        from companion.ui.kids.view import KidsViews

        boards = record.boards
        kids = KidsTrackerReader(KidsTracker(record, store), FileResults(store))
        kids.publish_if_over()  # a kept game that ended before it could be handed over
        read = None if recognise is None else (lambda frame: recognise(frame, boards))
        return LivePipeline(settings, camera, read, kids, show=KidsViews(tuple(settings.names), kids.game))
    from companion.ui.demo import make_reader

    players = len(settings.names)
    reader = make_reader(settings, record=record, sink=store, results=FileResults(store))
    return LivePipeline(settings, camera, azul_reader(recognise, players, markers), reader)


def azul_reader(recognise: Any, players: int, markers: bool) -> Any:
    """frame -> azul-observation/1 for ``players`` players (None without a recogniser); on a
    table with the kit's markers, aided by them, frame after frame (vision.recognize.MarkedTable)."""
    if recognise is None:
        return None
    if markers:
        from vision.recognize import MarkedTable

        return MarkedTable(players)
    return lambda frame: recognise(frame, players)
