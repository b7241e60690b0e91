"""The Kids demo: bots play a simulated Azul Kids table and the companion reads it back.

The same three swappable stages as the base demo (companion/ui/demo.py)::

    bots play the true KidsState  ->  table stage: sights of each still table  ->  the Kids tracker

- :class:`KidsTrueTable`: the perfect recogniser of companion.sim.kids (no frame).
- :class:`KidsCameraTable`: each frame drawn by vision/synth/kids.py and read back by
  vision/kids (recognise_kids), as at a real table.
- :class:`KidsTrackerReader`: companion.kids_tracker, fed every sight in turn; with
  ``results``, a game it sees end is handed over once.

With a :class:`~companion.ui.demo.Keeping` (``--state-dir``) the game is kept as the base
demo keeps its games: every accepted event is appended to the store (fsynced) before the
tracker moves on, an unfinished Kids game is resumed from it (the bots replay, unseen, what
the record holds), and a finished one leaves through :class:`~companion.results.Results`.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.kids_tracker import KidsTracker, canonical
from companion.results import FileResults, Results
from companion.rules import kids_record
from companion.rules.kids import BOWLS, COLORS, Fill, KidsState, KidsTake
from companion.rules.kids_board import KidsBoard
from companion.rules.kids_record import KidsRecord, PlayerTake
from companion.session import KIDS, EchoSink, resume_game, start_kids_game
from companion.sim.kids import KidsTable, kids_observation, still_tables, table_of
from companion.store import GameStore
from companion.ui.demo import Keeping, Sight, SimulatedPlayers, record_screens
from companion.ui.kids.settings import (
    KidsSettings,
    kids_boards,  # noqa: F401  (the tests import it from here)
    kids_settings,
    seat_boards,
    settings_of,
)
from companion.ui.kids.view import KidsTableView, KidsViews, enter_command, entered

log = logging.getLogger(__name__)

STAGES = ("camera", "true")


def open_kids_keeping(folder: Path, echo: bool = False) -> Keeping:
    """The store in ``folder`` and the unfinished Kids game found there, if any.

    StoreError (from :func:`~companion.session.resume_game`) when an unfinished game of
    Azul is there: it is left alone.
    """
    store = GameStore(folder)
    resumption = resume_game(store, KIDS)
    for message in resumption.messages:
        log.warning("%s", message)
    return Keeping(store, resumption, echo)


def kept_settings(keeping: Keeping | None, side: str, players: int) -> KidsSettings:
    """The resumed game's players, side and boards, else a new game's."""
    record = keeping.resumption.record if keeping is not None else None
    if isinstance(record, KidsRecord):
        return settings_of(record)
    return kids_settings(side, players)


# --- bots --------------------------------------------------------------------------


class RandomKidsBot:
    """Any legal take, uniformly."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: KidsState) -> KidsTake:
        return self.rng.choice(game.generate_legal_moves())


class GreedyKidsBot(RandomKidsBot):
    """The take that puts the most tiles on its own board; on the master side, then the one
    that completes the most stars. Ties are broken at random."""

    def choose(self, game: KidsState) -> KidsTake:
        seat = game.turn
        best: list[KidsTake] = []
        top: tuple[int, int] | None = None
        for move in game.generate_legal_moves():
            result = game.result(move)
            own = sum(p.tiles for p in result.placements if p.seat == seat)
            stars = 0
            if game.variant == "master" and move.picture is not None:
                picture = game.boards[seat].picture(move.picture)
                view = next(p for p in game.pictures(seat) if p.id == move.picture)
                if sum(not f for f in view.filled) == own and own:
                    stars = picture.stars
            score = (own, stars)
            if top is None or score > top:
                top, best = score, [move]
            elif score == top:
                best.append(move)
        return self.rng.choice(best)


# --- table stages ------------------------------------------------------------------


class KidsStage(Protocol):
    def look(self, tables: list[KidsTable]) -> list[Sight]:
        """The frames a camera sees of each still table, in order."""
        ...


class KidsTrueTable:
    """A perfect camera and recogniser: each still table's true observation, ``frames`` times."""

    def __init__(self, boards: tuple[KidsBoard, ...], frames: int = 3) -> None:
        self.boards = boards
        self.frames = frames

    def look(self, tables: list[KidsTable]) -> list[Sight]:
        return [
            Sight(kids_observation(table, self.boards)) for table in tables for _frame in range(self.frames)
        ]


class KidsCameraTable:
    """Frames drawn by the Kids renderer and read back by the Kids recogniser.

    The renderer lays at most ``MAX_BIG_TILES`` tiles in the big bowl; when the game has
    more there, the big bowl's reading is marked occluded (its count is not known).
    """

    def __init__(
        self,
        boards: tuple[KidsBoard, ...],
        seed: int | None,
        frames: int = 3,
        size: tuple[int, int] = (1280, 720),
    ) -> None:
        from vision.synth import Conditions  # noqa: PLC0415  (the renderer loads only when used)
        from vision.synth.kids import KidsLayout  # noqa: PLC0415

        self.boards = boards
        self.frames = frames
        self.rng = np.random.default_rng(seed)
        self.conditions = Conditions(
            width=size[0], height=size[1], board_jitter_mm=10.0, board_jitter_deg=3.0
        )
        self.layout = KidsLayout.around_tray(len(boards), self.rng, jitter_mm=10.0, jitter_deg=3.0)
        self.order = self._bowl_order()

    def _bowl_order(self) -> list[int]:
        """For each bowl number the camera gives (1-5), the renderer's bowl index holding it."""
        from vision.synth.kids import KidsBoardContent, KidsTableContent, render_kids_table  # noqa: PLC0415

        # Bowl i holds i + 1 tiles: the truth's counts tell which bowl the camera numbers how.
        content = KidsTableContent(
            tuple(KidsBoardContent(b) for b in self.boards), tuple(("red",) * (i + 1) for i in range(BOWLS))
        )
        _frame, truth = render_kids_table(content, self.conditions, self.rng, self.layout)
        numbered = {b["bowl"]: sum(b["tiles"].values()) + b["unknown"] for b in truth["bowls"]}
        return [numbered[number] - 1 for number in range(1, BOWLS + 1)]

    def look(self, tables: list[KidsTable]) -> list[Sight]:
        from vision.kids import recognise_kids  # noqa: PLC0415
        from vision.synth.kids import MAX_BIG_TILES, render_kids_table  # noqa: PLC0415

        sights = []
        for table in tables:
            content = self.content(table)
            crowded = sum(table.big) > MAX_BIG_TILES
            for _frame in range(self.frames):
                frame, _truth = render_kids_table(content, self.conditions, self.rng, self.layout)
                observation = recognise_kids(frame, self.boards)
                if crowded:
                    for bowl in observation["bowls"]:
                        if bowl["bowl"] == "big":
                            bowl["occluded"] = True
                sights.append(Sight(observation, frame))
        return sights

    def content(self, table: KidsTable) -> Any:
        from vision.synth.kids import MAX_BIG_TILES, KidsBoardContent, KidsTableContent  # noqa: PLC0415

        def tiles(counts: tuple[int, ...]) -> tuple[str, ...]:
            return tuple(c for c, n in zip(COLORS, counts, strict=True) for _n in range(n))

        bowls: list[tuple[str, ...]] = [()] * BOWLS
        for number, index in enumerate(self.order):
            bowls[index] = tiles(table.bowls[number])
        return KidsTableContent(
            tuple(KidsBoardContent(b, f) for b, f in zip(self.boards, table.boards, strict=True)),
            tuple(bowls),
            tiles(table.big)[:MAX_BIG_TILES],
        )


def kids_table_stage(name: str, boards: tuple[KidsBoard, ...], seed: int | None) -> KidsStage:
    if name == "camera":
        return KidsCameraTable(boards, seed)
    if name == "true":
        return KidsTrueTable(boards)
    raise ValueError(f"unknown table stage {name!r}; one of {', '.join(STAGES)}")


# --- reader and pipeline -----------------------------------------------------------


class KidsReader(Protocol):
    game: KidsState
    prompt: Any
    warnings: tuple
    last: Any

    def read(self, sights: list[Sight]) -> list: ...

    def act(self, action: str) -> list: ...


class KidsTrackerReader:
    """The Kids tracker, fed every sight in turn; entries (:func:`enter_command`) go to its
    ``enter``, other commands to ``act``.

    With ``results``, a game the tracker sees end is handed over once (kept as a file today).
    """

    def __init__(self, tracker: Any, results: Results | None = None) -> None:
        self.tracker = tracker
        self.results = results
        self.published: str | None = None

    game = property(lambda self: self.tracker.game)
    record = property(lambda self: self.tracker.record)
    prompt = property(lambda self: self.tracker.prompt)
    warnings = property(lambda self: self.tracker.warnings)
    last = property(lambda self: self.tracker.last)

    def read(self, sights: list[Sight]) -> list:
        outcomes = []
        for sight in sights:
            outcomes.extend(self.tracker.observe(sight.observation))
        self.publish_if_over()
        return outcomes

    def act(self, action: str) -> list:
        entry = entered(action)
        outcomes = self.tracker.act(action) if entry is None else self.tracker.enter(entry)
        self.publish_if_over()
        return outcomes

    def publish_if_over(self) -> None:
        """Hand the game to the results once it is over (a resumed game may be over already)."""
        if self.results is None or self.published is not None or not self.tracker.game.is_over():
            return
        self.published = self.results.publish(
            kids_record.to_json(self.tracker.record), kids_record.summary(self.tracker.game))


class KidsDemoPipeline(SimulatedPlayers):
    """Bots play ``settings`` (variant = the side) on a true KidsState; the stage and the
    reader show what the companion sees.

    The simulated players behave as in the base demo (companion/ui/demo.py DemoPipeline):
    while the tracker asks, each step answers (Next until the true event is highlighted, then
    Confirm, or "none of these" and the true event entered from the list); while it has not
    caught up with the table, they wait and the camera keeps looking (up to ``patience``
    steps), then they tell it what it missed. An event on screen that did not happen they
    take back with Undo and, if the tracker takes it again, put right by hand.

    ``boards``: one per seat (default: the example boards of the side); ``resume_after``: a
    resumed game, whose first events the bots replay unseen.
    """

    def __init__(
        self,
        settings: KidsSettings,
        seed: int | None = None,
        stage: KidsStage | None = None,
        reader: KidsReader | None = None,
        *,
        patience: int = 4,
        bot: str = "greedy",
        boards: tuple[KidsBoard, ...] | None = None,
        resume_after: int = 0,
    ) -> None:
        self.settings = settings
        self.rng = random.Random(seed)
        self.boards = boards if boards is not None else seat_boards(settings)
        self.game = KidsState(settings.variant, self.boards)
        self.bot = (GreedyKidsBot if bot == "greedy" else RandomKidsBot)(self.rng)
        self.stage = stage if stage is not None else kids_table_stage("camera", self.boards, seed)
        self.reader = (
            reader
            if reader is not None
            else KidsTrackerReader(
                KidsTracker(KidsRecord(settings.variant, tuple(settings.names), self.boards))
            )
        )
        self.patience = patience
        self.truth: KidsTake | Fill | None = None
        self.turns = 0
        self.waited = 0
        self.told = 0  # events the players entered by hand
        self.history: list[KidsTake | Fill] = []  # the true events so far
        self.undone: set[int] = set()  # record lengths at which the players pressed Undo
        self.frame: np.ndarray | None = None
        for _event in range(resume_after):
            self._play()
        self.views = KidsViews(tuple(settings.names), self.reader.game)
        self._last_table = table_of(self.game)

    def first(self) -> KidsTableView:
        publish = getattr(self.reader, "publish_if_over", None)
        if publish is not None:
            publish()  # a resumed game that ended before it could be handed over
        return self._view()

    def step(self) -> KidsTableView | None:
        if self.reader.prompt is not None and self._answer():
            return self._view()
        wrong = self._misled()
        if wrong is not None:
            self._put_right(wrong)
            return self._view()
        behind = self.reader.game != self.game
        if behind and self.waited < self.patience:
            self.waited += 1
            self._show([self._last_table])
            return self._view()
        self.waited = 0
        if behind and self._tell():
            return self._view()
        if self.game.is_over():
            return None
        before = self.game.copy()
        event = self._play()
        tables = still_tables(before, event)
        self._last_table = tables[-1]
        self._show(tables)
        return self._view()

    def _play(self) -> KidsTake | Fill:
        if self.game.needs_fill:
            event: KidsTake | Fill = self.game.draw_fill(self.rng)
        else:
            event = self.bot.choose(self.game)
            self.turns += 1
        self.game.push(event)
        self.truth = event
        self.history.append(event)
        return event

    def _accepted(self) -> list[KidsTake | Fill] | None:
        """The events the tracker's record holds, as the rules see them (None: no record)."""
        record = getattr(self.reader, "record", None)
        if record is None:
            return None
        return [canonical(e.move if isinstance(e, PlayerTake) else e) for e in record.events]

    def _missing(self) -> int | None:
        """The index of the first true event the tracker has not accepted, if all it accepted is true."""
        accepted = self._accepted()
        if accepted is None or len(accepted) >= len(self.history):
            return None
        if any(a != canonical(t) for a, t in zip(accepted, self.history, strict=False)):
            return None
        return len(accepted)

    def _misled(self) -> int | None:
        """The length of the record when the tracker holds an event that did not happen."""
        accepted = self._accepted()
        if accepted is None:
            return None
        if any(a != canonical(t) for a, t in zip(accepted, self.history, strict=False)):
            return len(accepted)
        return None

    def _entry(self, index: int) -> str:
        return enter_command(self.history[index])

    def _same(self, event: KidsTake | Fill) -> KidsTake | Fill:
        return canonical(event)

    def _view(self) -> KidsTableView:
        return self.views(self.reader, self.frame)


# --- the app -----------------------------------------------------------------------


def kids_demo_app(
    settings: KidsSettings,
    size: tuple[int, int],
    *,
    seed: int | None,
    threaded: bool,
    pace: float,
    table: str = "camera",
    end_seconds: float | None = 15.0,
    keeping: Keeping | None = None,
) -> tuple[Any, list[KidsDemoPipeline]]:
    """A Kids app whose games bots play; also returns the pipelines it made (newest last).

    With ``keeping`` the first game goes on with the unfinished one found there, if any.
    """
    from companion.ui.app import App  # noqa: PLC0415  (the app imports the screens, which import this)

    made: list[KidsDemoPipeline] = []

    def session(chosen: KidsSettings) -> KidsDemoPipeline:
        game_seed = None if seed is None else seed + len(made)
        boards = seat_boards(chosen)
        reader, resume_after = None, 0
        if keeping is not None:
            record = keeping.resumption.record if not made else None
            if not isinstance(record, KidsRecord):
                record = start_kids_game(keeping.store, chosen.names, chosen.variant, boards)
            boards, resume_after = record.boards, len(record.events)
            sink = EchoSink(keeping.store) if keeping.echo else keeping.store
            reader = KidsTrackerReader(KidsTracker(record, sink), FileResults(keeping.store))
        pipeline = KidsDemoPipeline(
            chosen,
            game_seed,
            kids_table_stage(table, boards, game_seed),
            reader=reader,
            boards=boards,
            resume_after=resume_after,
        )
        made.append(pipeline)
        return pipeline

    app = App(
        size, session, settings, threaded=threaded, pace=pace, round_seconds=None, end_seconds=end_seconds
    )
    return app, made


def kids_headless_demo(
    folder: Path,
    *,
    players: int = 2,
    side: str = "apprentice",
    seed: int | None = None,
    size: tuple[int, int] = (800, 480),
    turns: int | None = None,
    pace: float = 1.0,
    table: str = "camera",
    keeping: Keeping | None = None,
) -> list[Path]:
    """Play and write a screenshot whenever the screen changes, until ``turns`` takes or the end."""
    from companion.ui.kids.screens import KidsEndScreen  # noqa: PLC0415

    settings = kept_settings(keeping, side, players)
    app, made = kids_demo_app(
        settings, size, seed=seed, threaded=False, pace=pace, table=table, keeping=keeping
    )
    return record_screens(app, made, settings, folder, size=size, turns=turns, pace=pace, end=KidsEndScreen)


def kids_window_demo(
    *,
    players: int = 2,
    side: str = "apprentice",
    seed: int | None = None,
    size: tuple[int, int] = (800, 480),
    pace: float = 1.2,
    fullscreen: bool = False,
    table: str = "camera",
    keeping: Keeping | None = None,
) -> int:
    from companion.ui.app import run_window  # noqa: PLC0415

    settings = kept_settings(keeping, side, players)
    app, _made = kids_demo_app(
        settings, size, seed=seed, threaded=True, pace=pace, table=table, keeping=keeping
    )
    return run_window(app, fullscreen=fullscreen, first=lambda: app.start(settings))
