"""The app: a stack of screens, one input path, and the loop that draws them.

- Every input (key, touch, GPIO button) becomes an :class:`Action` before any screen sees it.
- Updates run in fixed steps of 1/30 s; drawing happens once per frame, and only when
  something changed.
- The slow work (camera, vision, tracker, or the demo's simulated table) is a
  :class:`Pipeline` run by a :class:`Worker` thread; views come back over a queue, so the
  screen never waits for a frame. :class:`InlineWorker` runs the same pipeline in the
  caller's thread, for headless screenshots and tests.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import pygame

from companion.i18n import _
from companion.rules.kids_board import KidsBoard
from companion.session import AZUL, KIDS
from companion.ui.layout import Metrics
from companion.ui.screens.base import Action, Screen, Settings
from companion.ui.screens.confirm import ConfirmScreen
from companion.ui.screens.end import EndScreen
from companion.ui.screens.idle import IdleScreen
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.summary import RoundScreen
from companion.ui.screens.table import TableScreen
from companion.ui.screens.warning import WarningScreen
from companion.ui.theme import Fonts
from companion.ui.view import TableView
from companion.ui.widgets import Canvas
from hardware.buttons import input_for_key

log = logging.getLogger(__name__)

STEP = 1 / 30


class Pipeline(Protocol):
    """The slow side: turns the table (real or simulated) into views. Runs off the render loop."""

    def first(self) -> TableView: ...

    def step(self) -> TableView | None: ...

    def act(self, action: str) -> TableView | None: ...

    def close(self) -> None: ...


class Notifier(Protocol):
    watchdog_interval: float | None

    def ready(self, status: str | None = None) -> bool: ...

    def watchdog(self) -> bool: ...


class Worker:
    """Runs a pipeline in its own thread.

    ``period`` None: the pipeline steps only when asked (``submit("step")``, the demo's pace);
    otherwise it steps by itself whenever ``period`` seconds pass without a command (a camera).
    Commands are the input actions, answered by ``pipeline.act``.
    """

    def __init__(self, pipeline: Pipeline, period: float | None = None) -> None:
        self.pipeline = pipeline
        self.period = period
        self.inbox: queue.Queue[str | None] = queue.Queue()
        self.outbox: queue.Queue[TableView] = queue.Queue()
        self._last: TableView | None = None
        self._thread = threading.Thread(target=self._run, name="pipeline", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def submit(self, command: str) -> None:
        self.inbox.put(command)

    def results(self) -> list[TableView]:
        views = []
        while True:
            try:
                views.append(self.outbox.get_nowait())
            except queue.Empty:
                return views

    def close(self) -> None:
        self.inbox.put(None)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.pipeline.close()

    def _run(self) -> None:
        self._call(self.pipeline.first)
        while True:
            try:
                command = self.inbox.get(timeout=self.period)
            except queue.Empty:
                command = "step"
            if command is None:
                return
            self.handle(command)

    def handle(self, command: str) -> None:
        if command == "step":
            self._call(self.pipeline.step)
        else:
            self._call(lambda: self.pipeline.act(command))

    def _call(self, work: Callable[[], TableView | None]) -> None:
        try:
            view = work()
        except Exception as error:  # a kiosk keeps running: the problem is logged and shown
            log.exception("the pipeline failed")
            if self._last is None:
                return
            view = self._last.but(status=_("Internal error: {error}").format(error=error))
        if view is not None:
            self._last = view
            self.outbox.put(view)


class InlineWorker(Worker):
    """The same pipeline, run in the caller's thread at once (headless runs, tests)."""

    def start(self) -> None:
        self._call(self.pipeline.first)

    def submit(self, command: str) -> None:
        self.handle(command)

    def close(self) -> None:
        self.pipeline.close()


class GameScreens(Protocol):
    """One game's screens, and when a view calls for them; a fresh one for every game."""

    # The demo's players go on while these are on top (they answer questions and warnings
    # themselves), not while a summary is read or a person is choosing.
    playing: tuple[type[Screen], ...]
    # Screens a game rests on between games: the idle screen may cover them.
    resting: tuple[type[Screen], ...]

    def table(self) -> Screen: ...

    def follow(self, app: App, view: Any) -> None:
        """Bring up (or take down) the screens ``view`` calls for."""
        ...


class AzulScreens:
    """Azul's screens: the live table, its questions and warnings, the round summaries, the end."""

    playing = (TableScreen, ConfirmScreen, WarningScreen)
    resting = (EndScreen,)

    def __init__(self) -> None:
        self._reported = 0
        self._warned: tuple[str, ...] = ()

    def table(self) -> Screen:
        return TableScreen()

    def follow(self, app: App, view: TableView) -> None:
        if view.ending is not None and app.find(EndScreen) is None:
            app.reset(EndScreen(view.ending, view.names, app.end_seconds))
        if view.report is not None and view.report.number > self._reported:
            self._reported = view.report.number
            app.push(RoundScreen(view.report, app.round_seconds))
        codes = tuple(w.code for w in view.warnings)
        warning = app.find(WarningScreen)
        if not codes:
            if warning is not None:
                app.pop(warning)
        elif codes != self._warned and warning is None:
            app.push(WarningScreen())
        self._warned = codes
        confirm = app.find(ConfirmScreen)
        if view.prompt is not None and confirm is None:
            app.push(ConfirmScreen())
        elif view.prompt is None and confirm is not None:
            app.pop(confirm)


def screens_for(game: str) -> GameScreens:
    """A fresh set of ``game``'s screens (Settings.game: "azul" or "azul-kids")."""
    if game == KIDS:
        from companion.ui.kids.app import KidsScreens  # noqa: PLC0415  (the Kids screens import this module)

        return KidsScreens()
    if game == AZUL:
        return AzulScreens()
    raise ValueError(f"no screens for the game {game!r}")


class App:
    """The screen stack and what the screens may ask for.

    ``session`` makes the pipeline for a game; the game's screens (:func:`screens_for`) come
    and go with it, so one app plays Azul and Azul Kids in turn. ``pace`` (seconds) asks the
    pipeline for one step that often while the live table is on top (the demo); ``idle_after``
    seconds without input on the setup or end screen bring up the idle screen (a kiosk).
    ``own_boards``: Azul Kids boards a family described, offered on the setup screen.
    """

    def __init__(self, size: tuple[int, int], session: Callable[[Settings], Pipeline], settings: Settings,
                 *, threaded: bool = True, period: float | None = None, pace: float | None = None,
                 idle_after: float | None = None, round_seconds: float | None = 12.0,
                 end_seconds: float | None = None, buttons: Any = None,
                 own_boards: tuple[KidsBoard, ...] = ()) -> None:
        self.metrics = Metrics(*size)
        self.fonts = Fonts()
        self.session = session
        self.settings = settings
        self.screens = screens_for(settings.game)
        self.threaded = threaded
        self.period = period
        self.pace = pace
        self.idle_after = idle_after
        self.round_seconds = round_seconds
        self.end_seconds = end_seconds
        self.buttons = buttons
        self.own_boards = own_boards
        self.stack: list[Screen] = []
        self.view: Any = None  # the game's view: a TableView, or a KidsTableView
        self.worker: Worker | None = None
        self.canvas: Canvas | None = None
        self.running = True
        self.dirty = True
        self._since_step = 0.0
        self._quiet = 0.0

    # -- the stack --

    @property
    def top(self) -> Screen | None:
        return self.stack[-1] if self.stack else None

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)
        screen.enter(self)
        self.dirty = True

    def pop(self, screen: Screen) -> None:
        if screen in self.stack:
            self.stack.remove(screen)
            screen.exit()
            self.dirty = True

    def reset(self, screen: Screen) -> None:
        for old in reversed(self.stack):
            old.exit()
        self.stack = []
        self.push(screen)

    def find(self, kind: type[Screen]) -> Screen | None:
        return next((s for s in self.stack if isinstance(s, kind)), None)

    # -- the game --

    def start(self, settings: Settings) -> None:
        """Begin a game: a fresh pipeline in its worker, the game's live table on screen."""
        self.settings = settings
        if self.worker is not None:
            self.worker.close()
            self.worker = None
        self.view = None
        self.screens = screens_for(settings.game)
        self.reset(self.screens.table())
        pipeline = self.session(settings)
        self.worker = (Worker if self.threaded else InlineWorker)(pipeline, self.period)
        self.worker.start()
        self.poll()

    def send(self, action: str) -> None:
        if self.worker is not None:
            self.worker.submit(action)
            if not self.threaded:
                self.poll()

    def poll(self) -> None:
        """Take what arrived from the worker and the GPIO buttons."""
        if self.worker is not None:
            views = self.worker.results()
            if views:
                self.receive(views[-1])
        if self.buttons is not None:
            for event in self.buttons.drain():
                self.action(Action(str(event.input), event.source))

    def receive(self, view: Any) -> None:
        self.view = view
        self.dirty = True
        self.screens.follow(self, view)
        for screen in self.stack:
            screen.on_view(view)

    # -- input --

    def action(self, action: Action) -> None:
        self._quiet = 0.0
        self.dirty = True
        if self.top is not None:
            self.top.handle(action)

    def on_event(self, event: pygame.event.Event) -> None:
        """One pygame event, turned into an action (touch arrives as mouse events too)."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            action = key_action(pygame.key.name(event.key))
            if action is not None:
                self.action(action)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.tap(event.pos)
        elif event.type in (pygame.WINDOWSIZECHANGED, pygame.VIDEORESIZE):
            self.dirty = True

    def tap(self, pos: tuple[int, int]) -> None:
        target = self.canvas.hit(pos) if self.canvas is not None else None
        self.action(Action(target or "tap", "touch", pos))

    # -- time and drawing --

    def update(self, dt: float) -> None:
        top = self.top
        if top is not None and top.update(dt):
            self.dirty = True
        self._quiet += dt
        if (self.idle_after is not None and self._quiet >= self.idle_after
                and isinstance(self.top, (SetupScreen, *self.screens.resting))):
            self.push(IdleScreen())
        if self.pace is not None and isinstance(self.top, self.screens.playing) and self.worker is not None:
            self._since_step += dt
            if self._since_step >= self.pace and not (self.view and self.view.over):
                self._since_step = 0.0
                self.send("step")

    def advance(self, seconds: float) -> None:
        """Fixed-step updates covering ``seconds`` (headless runs and tests)."""
        for _i in range(max(1, round(seconds / STEP))):
            self.update(STEP)
            self.poll()

    def draw(self, surface: pygame.Surface) -> Canvas:
        size = surface.get_size()
        if size != (self.metrics.width, self.metrics.height):
            self.metrics = Metrics(*size)
        canvas = Canvas(surface, self.metrics, self.fonts)
        first = len(self.stack) - 1
        while first > 0 and self.stack[first].overlay:
            first -= 1
        for screen in self.stack[max(first, 0):]:
            # Only the top screen's targets answer taps.
            canvas.targets.clear()
            screen.draw(canvas)
        self.canvas = canvas
        self.dirty = False
        return canvas

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def key_action(name: str) -> Action | None:
    """A key by its pygame name, as the buttons' vocabulary (Enter confirms, arrows move...)."""
    meaning = input_for_key(name)
    return None if meaning is None else Action(str(meaning), f"key:{name}")


def run_window(app: App, *, fullscreen: bool = False, fps: int = 30, notifier: Notifier | None = None,
               first: Callable[[], None] | None = None) -> int:
    """The interactive loop: events, fixed-step updates, one draw per frame when needed."""
    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if fullscreen else 0
    size = (0, 0) if fullscreen else (app.metrics.width, app.metrics.height)
    surface = pygame.display.set_mode(size, flags)
    pygame.display.set_caption(_("Azul Table Companion"))
    app.metrics = Metrics(*surface.get_size())
    if first is not None:
        first()
    clock = pygame.time.Clock()
    behind = 0.0
    ready = False
    pinged = time.monotonic()
    try:
        while app.running:
            behind += min(clock.tick(fps) / 1000, 0.25)
            for event in pygame.event.get():
                app.on_event(event)
            app.poll()
            while behind >= STEP:
                app.update(STEP)
                behind -= STEP
            if app.dirty:
                app.draw(surface)
                pygame.display.flip()
            if notifier is not None:
                if not ready:
                    notifier.ready(_("showing the table"))
                    ready = True
                interval = notifier.watchdog_interval
                if interval is not None and time.monotonic() - pinged >= interval:
                    notifier.watchdog()
                    pinged = time.monotonic()
    finally:
        app.close()
        pygame.display.quit()
    return 0


def save_frame(surface: pygame.Surface, folder: Path, number: int) -> Path:
    path = folder / f"frame-{number:04d}.png"
    pygame.image.save(surface, str(path))
    return path
