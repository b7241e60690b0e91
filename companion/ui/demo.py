"""The demo: bots play a simulated table and the companion reads it back.

Three stages, each swappable::

    bots play the true Game  ->  table stage: frames and observations  ->  reader: the tracker

- The table stage (:class:`TableStage`) turns each still table after an event into
  :class:`Sight` objects (an observation, and the camera frame it came from, if any), as many
  as the tracker needs to see a still table. :class:`CameraTable` renders each frame with
  vision/synth and reads it with the real recogniser (vision/recognize.py);
  :class:`TrueTable` is the perfect recogniser of companion.sim (no frame: the display then
  draws a top view in the camera's corner). :func:`table_stage` picks one by name.
- The reader is the tracker of tracker-contract.md (:class:`TrackerReader`); tests pass a
  fake with the same fields.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.bots import GreedyBot
from companion.results import FileResults, Results
from companion.rules.azul import COLORS, FACTORIES, MARKER, OVER, REFILL, Event, Game, Refill, Take
from companion.rules.azul_record import Record
from companion.session import EchoSink, Resumption, resume_game, start_game
from companion.sim.table import still_states, table_observation
from companion.store import GameStore
from companion.ui.screens.base import Settings
from companion.ui.screens.setup import default_names
from companion.ui.view import TableView, build_view, enter_command, entered

log = logging.getLogger(__name__)

THUMBNAIL_WIDTH = 320
STAGES = ("camera", "true")


@dataclass(frozen=True)
class Sight:
    """One frame as the tracker gets it: an azul-observation/1, and the picture if there is one."""

    observation: dict
    frame: np.ndarray | None = None  # BGR, as cameras deliver


class TableStage(Protocol):
    def look(self, states: list[Game]) -> list[Sight]:
        """The frames a camera sees of each still table in ``states``, in order."""
        ...


class TrueTable:
    """A perfect camera and recogniser: each still table's true observation, ``frames`` times."""

    def __init__(self, frames: int = 3) -> None:
        self.frames = frames

    def look(self, states: list[Game]) -> list[Sight]:
        return [Sight(table_observation(state)) for state in states for _frame in range(self.frames)]


class CameraTable:
    """Frames drawn by the synthetic renderer and read back by the recogniser, as at a real table."""

    def __init__(self, players: int, seed: int | None, frames: int = 3,
                 size: tuple[int, int] = (1280, 720)) -> None:
        from vision.synth import Conditions, Layout  # noqa: PLC0415  (the renderer loads only when used)

        self.players = players
        self.frames = frames
        self.rng = np.random.default_rng(seed)
        layout = Layout.around_table(players, FACTORIES[players], self.rng)
        self.conditions = Conditions(width=size[0], height=size[1], layout=layout)

    def look(self, states: list[Game]) -> list[Sight]:
        from vision.recognize import recognize  # noqa: PLC0415
        from vision.synth import render_table  # noqa: PLC0415

        sights = []
        for state in states:
            content = table_content(state)
            for _frame in range(self.frames):
                frame, _truth = render_table(content, self.conditions, self.rng)
                sights.append(Sight(recognize(frame, self.players), frame))
        return sights


def table_content(game: Game) -> Any:
    """What lies on the table in ``game``, as the renderer's scene."""
    from vision.synth import BoardContent, TableContent  # noqa: PLC0415

    def name(color: int) -> str:
        return "marker" if color == MARKER else COLORS[color]

    boards = tuple(BoardContent(
        side=game.variant,
        lines=tuple((COLORS[c] if n else None, n) for c, n in zip(b.line_colors, b.line_counts, strict=True)),
        floor=tuple(name(c) for c in b.floor) + (None,) * (7 - len(b.floor)),
        wall=tuple(tuple(COLORS[c] if c >= 0 else None for c in b.wall[r * 5:r * 5 + 5]) for r in range(5)),
        score=min(b.score, 999)) for b in game.boards)
    factories = tuple(tuple(COLORS[c] for c in sorted(f) for _n in range(f[c])) for f in game.factories)
    return TableContent(boards, factories, {COLORS[c]: n for c, n in game.center.items() if n},
                        game.center_marker)


def table_stage(name: str, players: int, seed: int | None) -> TableStage:
    """The demo's table stage: "camera" (render -> recognise) or "true" (a perfect recogniser)."""
    if name == "camera":
        return CameraTable(players, seed)
    if name == "true":
        return TrueTable()
    raise ValueError(f"unknown table stage {name!r}; one of {', '.join(STAGES)}")


class Reader(Protocol):
    """The tracker's side of the contract that the display reads."""

    game: Game
    prompt: Any
    warnings: tuple
    last: Any

    def read(self, sights: list[Sight]) -> list: ...

    def act(self, action: str) -> list: ...


class TrackerReader:
    """The tracker of tracker-contract.md, fed every sight in turn.

    With ``results``, a game the tracker sees end is handed over once (kept as a file today).
    """

    def __init__(self, tracker: Any, results: Results | None = None) -> None:
        self.tracker = tracker
        self.results = results
        self.published: str | None = None
        self._publish_if_over()  # a resumed game that had already ended is filed at once

    game = property(lambda self: self.tracker.game)
    record = property(lambda self: self.tracker.record)
    prompt = property(lambda self: self.tracker.prompt)
    warnings = property(lambda self: self.tracker.warnings)
    last = property(lambda self: self.tracker.last)

    def read(self, sights: list[Sight]) -> list:
        outcomes = []
        for sight in sights:
            outcomes.extend(self.tracker.observe(sight.observation))
        self._publish_if_over()
        return outcomes

    def act(self, action: str) -> list:
        entry = entered(action)
        outcomes = self.tracker.act(action) if entry is None else self.tracker.enter(entry[0])
        self._publish_if_over()
        return outcomes

    def _publish_if_over(self) -> None:
        if self.results is None or self.published is not None or self.tracker.game.phase != OVER:
            return
        from companion.rules.azul_record import summary  # noqa: PLC0415

        self.published = self.results.publish(self.tracker.record.to_json(), summary(self.tracker.game))


def _canonical(event: Event) -> Event:
    """An event as the rules see it: the order of tiles within a factory does not matter."""
    if isinstance(event, Refill):
        return Refill(tuple(tuple(sorted(tiles)) for tiles in event.factories))
    return event


def make_reader(settings: Settings, *, record: Record | None = None, sink: Any = None,
                results: Results | None = None) -> Reader:
    """The real tracker, on a new game or going on with ``record``; events go to ``sink``."""
    from companion.tracker import Tracker  # noqa: PLC0415

    if record is None:
        record = Record(list(settings.names), settings.variant)
    return TrackerReader(Tracker(record, sink), results)


def thumbnail(frame: np.ndarray | None, width: int = THUMBNAIL_WIDTH) -> np.ndarray | None:
    """A small RGB copy of a BGR frame for the display's corner."""
    if frame is None:
        return None
    step = max(1, frame.shape[1] // width)
    return np.ascontiguousarray(frame[::step, ::step, ::-1])


class SimulatedPlayers:
    """What the demo's simulated players do at any companion's table, whatever the game.

    A subclass keeps ``reader``, ``stage``, ``history``, ``truth``, ``undone``, ``told`` and
    ``frame``, and says how an event is compared (:meth:`_same`), which true event the
    tracker lacks (:meth:`_missing`) and how that event is entered by hand (:meth:`_entry`).
    """

    reader: Any
    stage: Any
    history: list
    truth: Any
    undone: set[int]
    told: int
    frame: np.ndarray | None

    def act(self, action: str) -> Any:
        self.reader.act(action)
        return self._view()

    def close(self) -> None:
        """Nothing to let go of: the simulated table holds no device."""

    def _show(self, tables: list) -> None:
        sights = self.stage.look(tables)
        if sights and sights[-1].frame is not None:
            self.frame = thumbnail(sights[-1].frame)
        self.reader.read(sights)

    def _put_right(self, length: int) -> None:
        """Undo the wrong event; if the tracker took it again, undo and say what really happened."""
        again = length in self.undone
        self.undone.add(length)
        self.reader.act("undo")
        if again:
            self._tell()

    def _tell(self) -> bool:
        """Enter the first true event the tracker missed, as people do from the "none of these" list."""
        index = self._missing()
        if index is None:
            return False
        self.told += 1
        self.reader.act(self._entry(index))
        return True

    def _answer(self) -> bool:
        """Answer the tracker's question as the players would; False if they cannot tell yet."""
        prompt = self.reader.prompt
        index = self._missing()
        target = self.truth if index is None else self.history[index]
        candidates = [self._same(c) for c in prompt.candidates]
        if target is not None and self._same(target) in candidates:
            self.reader.act("next" if candidates.index(self._same(target)) != prompt.selected else "confirm")
            return True
        log.info("the tracker asks without the true event %s among %s", target, candidates)
        return self._tell()

    def _same(self, event: Any) -> Any:
        raise NotImplementedError

    def _missing(self) -> int | None:
        raise NotImplementedError

    def _entry(self, index: int) -> str:
        raise NotImplementedError

    def _view(self) -> Any:
        raise NotImplementedError


class DemoPipeline(SimulatedPlayers):
    """Bots play ``settings`` on a true Game; the stage and the reader show what the companion sees.

    The simulated players behave as people at a companion's table do: while it asks, each
    step answers (Next until the true move is highlighted, then Confirm, or "none of these"
    and the true move picked from the list); while it has not caught up with the table, they
    wait and the camera keeps looking (up to ``patience`` steps), then they tell it what it
    missed. A move on screen that did not happen they take back with Undo and, if the
    tracker takes it again, put right by hand. A misread refill they leave to the tracker,
    which revises a refill itself when the takes that follow contradict it; only if it
    gets stuck on one (a warning while behind) do they undo back to it and enter it.
    """

    def __init__(self, settings: Settings, seed: int | None = None, stage: TableStage | None = None,
                 reader: Reader | None = None, *, patience: int = 4, resume_after: int = 0) -> None:
        self.settings = settings
        self.rng = random.Random(seed)
        self.game = Game(len(settings.names), settings.variant)
        self.bot = GreedyBot(self.rng)
        self.stage = stage if stage is not None else table_stage("camera", len(settings.names), seed)
        self.reader = reader if reader is not None else make_reader(settings)
        self.patience = patience
        self.truth: Event | None = None
        self.turns = 0
        self.waited = 0
        self.told = 0  # events the players entered by hand
        self.fixing = False  # taking events back to a misread refill
        self.frame: np.ndarray | None = None
        self.history: list[Event] = []  # the true events so far
        self.movers: list[int | None] = []  # ... and who made each (a take's seat)
        self.undone: set[int] = set()  # record lengths at which the players pressed Undo
        # A resumed game: the bots replay, unseen, what the record already holds.
        for _event in range(resume_after):
            self._play()

    def first(self) -> TableView:
        return self._view()

    def step(self) -> TableView | None:
        if self.reader.prompt is not None and self._answer():
            return self._view()
        wrong = self._misled()
        if wrong is not None:
            self._put_right(wrong)
            return self._view()
        behind = self.reader.game != self.game
        if behind and self.fixing:
            # Taking events back to a refill it misread, one a step, then saying what it was.
            if not self._tell():
                self.reader.act("undo")
            return self._view()
        if behind and self.waited < self.patience:
            self.waited += 1
            self._show([self.game])
            return self._view()
        self.waited = 0
        if behind and self._tell():
            return self._view()
        if behind and self.reader.warnings:
            self.fixing = True  # stuck on a refill it misread
            self.reader.act("undo")
            return self._view()
        if self.game.phase == OVER:
            return None
        before = self.game.copy()
        event = self._play()
        self._show(still_states(before, event))
        return self._view()

    def _missing(self) -> int | None:
        """The index of the first true event the tracker has not accepted, if all it accepted is true."""
        record = getattr(self.reader, "record", None)
        if record is None:
            return None
        for accepted, true in zip(record.events, self.history, strict=False):
            if _canonical(accepted) != _canonical(true):
                return None
        return len(record.events) if len(record.events) < len(self.history) else None

    def _misled(self) -> int | None:
        """The length of the record at which the tracker shows a move (not a refill) that did not happen."""
        record = getattr(self.reader, "record", None)
        if record is None:
            return None
        for accepted, true in zip(record.events, self.history, strict=False):
            if _canonical(accepted) != _canonical(true):
                if isinstance(accepted, Refill) or isinstance(true, Refill):
                    return None
                return len(record.events)
        return None

    def _tell(self) -> bool:
        told = super()._tell()
        if told:
            self.fixing = False
        return told

    def _entry(self, index: int) -> str:
        return enter_command(self.history[index], self.movers[index])

    def _same(self, event: Event) -> Event:
        return _canonical(event)

    def _play(self) -> Event:
        """The next true event: a refill drawn from the bag, or the bot's move."""
        mover = None
        if self.game.phase == REFILL:
            event: Event = self.game.draw_refill(self.rng)
        else:
            event = self.bot.choose(self.game)
            mover = self.game.turn if isinstance(event, Take) else None
            self.turns += 1
        self.game.push(event)
        self.truth = event
        self.history.append(event)
        self.movers.append(mover)
        return event

    def _view(self) -> TableView:
        reader = self.reader
        return build_view(reader.game, self.settings.names, prompt=reader.prompt,
                          warnings=reader.warnings, last=reader.last, frame=self.frame)



@dataclass
class Keeping:
    """Where the demo keeps its games: a store, what was found in it at start, and whether
    each accepted event is also printed as a JSON line once it is safe on disk."""

    store: GameStore
    resumption: Resumption
    echo: bool = False

    @classmethod
    def open(cls, folder: Path, echo: bool = False) -> Keeping:
        store = GameStore(folder)
        resumption = resume_game(store)
        for message in resumption.messages:
            log.warning("%s", message)
        return cls(store, resumption, echo)

    def settings(self, players: int, variant: str) -> Settings:
        record = self.resumption.record
        if record is None:
            return Settings(default_names(players), variant)
        return Settings(tuple(record.players), record.variant)


def demo_app(settings: Settings, size: tuple[int, int], *, seed: int | None, threaded: bool,
             pace: float, table: str = "camera",
             keeping: Keeping | None = None) -> tuple[Any, list[DemoPipeline]]:
    """An app whose games are played by bots; also returns the pipelines it made (newest last)."""
    from companion.ui.app import App  # noqa: PLC0415  (the app imports this module's siblings)

    made: list[DemoPipeline] = []

    def session(chosen: Settings) -> DemoPipeline:
        # Each new game draws differently, but the whole run stays reproducible from --seed.
        game_seed = None if seed is None else seed + len(made)
        reader, resume_after = None, 0
        if keeping is not None:
            record = keeping.resumption.record if not made else None
            if record is None:
                record = start_game(keeping.store, list(chosen.names), chosen.variant)
            resume_after = len(record.events)
            sink = EchoSink(keeping.store) if keeping.echo else keeping.store
            reader = make_reader(chosen, record=record, sink=sink, results=FileResults(keeping.store))
        pipeline = DemoPipeline(chosen, game_seed, table_stage(table, len(chosen.names), game_seed),
                                reader=reader, resume_after=resume_after)
        made.append(pipeline)
        return pipeline

    app = App(size, session, settings, threaded=threaded, pace=pace, round_seconds=6.0, end_seconds=15.0)
    return app, made


def record_screens(app: Any, made: list, settings: Settings, folder: Path, *, size: tuple[int, int],
                   turns: int | None, pace: float, end: type) -> list[Path]:
    """Run ``app`` without a window, writing a screenshot whenever the screen changes, until
    ``turns`` moves of the newest pipeline in ``made`` or the ``end`` screen."""
    import pygame  # noqa: PLC0415

    from companion.ui.app import save_frame  # noqa: PLC0415

    pygame.font.init()
    surface = pygame.Surface(size)
    frames: list[Path] = []
    app.start(settings)
    limit = turns if turns is not None else 10_000
    steps = 0
    while len(frames) < 5_000:
        if app.dirty:
            app.draw(surface)
            frames.append(save_frame(surface, folder, len(frames)))
        pipeline = made[-1]
        done = pipeline.turns >= limit and pipeline.reader.prompt is None
        if done or isinstance(app.top, end) or steps > 20_000:
            break
        app.advance(pace)
        steps += 1
    return frames


def headless_demo(folder: Path, *, players: int = 2, variant: str = "colored", seed: int | None = None,
                  size: tuple[int, int] = (800, 480), turns: int | None = None,
                  pace: float = 1.0, table: str = "camera", keeping: Keeping | None = None) -> list[Path]:
    """Play and write a screenshot whenever the screen changes, until ``turns`` moves or the end."""
    from companion.ui.screens.end import EndScreen  # noqa: PLC0415

    settings = keeping.settings(players, variant) if keeping else Settings(default_names(players), variant)
    app, made = demo_app(settings, size, seed=seed, threaded=False, pace=pace, table=table, keeping=keeping)
    return record_screens(app, made, settings, folder, size=size, turns=turns, pace=pace, end=EndScreen)


def window_demo(*, players: int = 2, variant: str = "colored", seed: int | None = None,
                size: tuple[int, int] = (800, 480), pace: float = 1.2, fullscreen: bool = False,
                table: str = "camera", keeping: Keeping | None = None) -> int:
    from companion.ui.app import run_window  # noqa: PLC0415

    settings = keeping.settings(players, variant) if keeping else Settings(default_names(players), variant)
    app, _made = demo_app(settings, size, seed=seed, threaded=True, pace=pace, table=table, keeping=keeping)
    return run_window(app, fullscreen=fullscreen, first=lambda: app.start(settings))
