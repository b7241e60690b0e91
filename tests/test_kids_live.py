"""Azul Kids at a real table: `azul-companion run` with a camera that replays rendered Kids frames.

The camera is the replay backend over PNG frames drawn by vision/synth/kids.py (each still
table of a game the Kids bots play, three frames each); the Kids recogniser and tracker read
them back. The window loop is replaced by a driver that taps the screen as a person would,
so everything else is `run` as it is: configuration, state directory, setup screen, app.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import pygame
import pytest

import companion.ui.app
import hardware.camera
from companion.cli import main
from companion.kids_tracker import canonical
from companion.rules import kids_record
from companion.rules.kids import Fill, KidsState, KidsTake
from companion.rules.kids_board import KidsBoard
from companion.rules.kids_record import KidsRecord, PlayerTake
from companion.session import start_kids_game
from companion.sim.kids import still_tables, table_of
from companion.store import GameStore
from companion.ui.app import STEP, App
from companion.ui.kids.demo import GreedyKidsBot, KidsCameraTable
from companion.ui.kids.screens import KidsEndScreen, KidsTableScreen
from companion.ui.kids.settings import kids_boards
from companion.ui.kids.view import KidsTableView, enter_command
from companion.ui.screens.base import Settings
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.table import TableScreen
from hardware.camera_replay import ReplayCamera
from hardware.camera_synthetic import SyntheticCamera

SHOTS = Path("/tmp/kids-live")  # screenshots to look at


@dataclass(frozen=True)
class Table:
    """A Kids game the bots played, and the folder of frames a camera saw of it."""

    boards: tuple[KidsBoard, ...]
    events: tuple[KidsTake | Fill, ...]
    frames: Path  # every still table of every event, three frames each, in order
    later: Path  # ... of the events after the first one only


def bot_game(side: str, players: int, events: int | None, seed: int,
             ) -> tuple[KidsState, list[KidsTake | Fill]]:
    rng = random.Random(seed)
    game = KidsState(side, kids_boards(side, players))
    bot = GreedyKidsBot(rng)
    played = []
    while (events is None or len(played) < events) and not game.is_over():
        event = game.draw_fill(rng) if game.needs_fill else bot.choose(game)
        game.push(event)
        played.append(event)
    return game, played


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Table:
    from vision.synth.kids import render_kids_table

    boards = kids_boards("apprentice", 2)
    _game, events = bot_game("apprentice", 2, 2, seed=1)  # the fill, then player 1's take
    stage = KidsCameraTable(boards, seed=1, frames=1, size=(960, 540))
    folder = tmp_path_factory.mktemp("kids-frames")
    frames, later = folder / "all", folder / "later"
    frames.mkdir()
    later.mkdir()
    game = KidsState("apprentice", boards)
    number = 0
    for index, event in enumerate(events):
        before = game.copy()
        game.push(event)
        for still in ([table_of(before)] if index == 0 else []) + still_tables(before, event):
            for _frame in range(3):
                content = stage.content(still)
                frame, _truth = render_kids_table(content, stage.conditions, stage.rng, stage.layout)
                name = f"{number:03d}.png"
                cv2.imwrite(str(frames / name), frame)
                if index > 0:
                    cv2.imwrite(str(later / name), frame)
                number += 1
    return Table(boards, tuple(events), frames, later)


# --- a person at the screen -----------------------------------------------------------


class Person:
    """Looks at the screen and taps it; the app's worker runs in its own thread as in `run`."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.surface = pygame.Surface((app.metrics.width, app.metrics.height))

    def look(self) -> None:
        self.app.poll()
        self.app.update(STEP)
        self.app.draw(self.surface)

    def tap(self, action: str) -> None:
        self.look()
        target = next(t for t in self.app.canvas.targets if t.action == action)
        self.app.tap(target.rect.center)
        self.look()

    def wait(self, until: Callable[[App], bool], seconds: float = 60.0) -> None:
        deadline = time.monotonic() + seconds
        while not until(self.app):
            assert time.monotonic() < deadline, f"waited {seconds} s; the screen is {self.app.top}"
            time.sleep(0.05)
            self.look()

    def save(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.look()
        path = SHOTS / f"{name}.png"
        pygame.image.save(self.surface, str(path))
        return path


def drive(monkeypatch, script: Callable[[Person], None]) -> list[App]:
    """`run`'s window loop replaced by ``script``; the apps it drove, for a look afterwards."""
    apps: list[App] = []

    def window(app, *, fullscreen=False, fps=30, notifier=None, first=None):
        pygame.font.init()
        apps.append(app)
        if first is not None:
            first()
        try:
            script(Person(app))
        finally:
            app.close()
        return 0

    monkeypatch.setattr(companion.ui.app, "run_window", window)
    return apps


def replay_once(monkeypatch) -> None:
    """The replay backend, playing its frames once (a real table does not jump back)."""
    monkeypatch.setattr(hardware.camera, "make_camera",
                        lambda name, **options: ReplayCamera(name.partition(":")[2], loop=False))


def run(tmp_path: Path, frames: Path, config: str = "", *more: str) -> int:
    path = tmp_path / "config.toml"
    path.write_text(config)
    return main(["run", "--config", str(path), "--camera", f"replay:{frames}", "--no-buttons",
                 "--state-dir", str(tmp_path / "state"), *more])


def keep(store: GameStore, game: KidsState, event: KidsTake | Fill) -> None:
    """Append ``event`` to the kept game and play it on ``game``, as the tracker would."""
    held = event if isinstance(event, Fill) else PlayerTake(game.turn, event)
    store.append(kids_record.event_to_json(held, game.variant))
    game.push(event)


def events_seen(app: App) -> int:
    return app.view.events if isinstance(app.view, KidsTableView) else -1


def kept(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "state" / "current.json").read_text())


# --- the tests --------------------------------------------------------------------------


def test_setup_starts_a_kids_game_that_the_camera_and_tracker_follow(tmp_path, monkeypatch, table):
    replay_once(monkeypatch)

    def person(p: Person) -> None:
        assert isinstance(p.app.top, SetupScreen)
        p.tap("game:azul-kids")
        p.save("setup-kids")
        p.tap("players:2")
        p.tap("start")
        assert isinstance(p.app.stack[0], KidsTableScreen)
        p.wait(lambda app: events_seen(app) == 2)
        p.save("table-after-take")

    apps = drive(monkeypatch, person)
    assert run(tmp_path, table.frames) == 0
    (app,) = apps
    record = kids_record.read(kept(tmp_path))
    assert record.variant == "apprentice" and record.boards == table.boards
    seen = [canonical(e.move if isinstance(e, PlayerTake) else e) for e in record.events]
    assert seen == [canonical(e) for e in table.events]
    view = app.view
    assert view.turn == 1, "player 2 is to move after player 1's take"
    assert sum(map(sum, view.bowls)) == 25 - sum(n for seat in view.seats for p in seat.filled for n in p)


def test_a_kept_kids_game_resumes_in_run_and_goes_on(tmp_path, monkeypatch, table, capsys):
    store = GameStore(tmp_path / "state")
    record = start_kids_game(store, ("Ada", "Bo"), "apprentice", table.boards)
    keep(store, KidsState("apprentice", table.boards), table.events[0])
    store.close()
    replay_once(monkeypatch)

    def person(p: Person) -> None:
        assert isinstance(p.app.top, KidsTableScreen), "no setup screen: the kept game goes on"
        p.wait(lambda app: events_seen(app) == 1)
        p.wait(lambda app: events_seen(app) == 2)
        p.save("resumed")

    apps = drive(monkeypatch, person)
    assert run(tmp_path, table.later) == 0
    (app,) = apps
    assert "Resumed the unfinished game: 1 events." in capsys.readouterr().err
    assert app.settings.names == ("Ada", "Bo") and app.settings.game == "azul-kids"
    assert len(kept(tmp_path)["events"]) == 2
    assert isinstance(record, KidsRecord)


def test_a_kids_game_by_configuration_and_then_azul_from_the_menu(tmp_path, monkeypatch, table):
    replay_once(monkeypatch)

    def person(p: Person) -> None:
        assert isinstance(p.app.top, SetupScreen)
        assert p.app.top.game == "azul-kids" and p.app.top.side == "master"
        p.tap("start")
        p.wait(lambda app: app.view is not None and app.view.variant == "master")
        p.app.action(companion.ui.app.Action("menu", "button:confirm"))
        assert isinstance(p.app.top, SetupScreen) and p.app.top.back
        p.tap("game:azul")
        p.save("setup-azul")
        p.tap("start")
        assert isinstance(p.app.stack[0], TableScreen)
        p.wait(lambda app: app.view is not None and hasattr(app.view, "round"))

    drive(monkeypatch, person)
    config = '[game]\ngame = "azul-kids"\nvariant = "master"\nplayers = ["Ada", "Bo", "Cy"]\n'
    assert run(tmp_path, table.frames, config) == 0
    assert kept(tmp_path)["game"] == "azul"
    (aside,) = (tmp_path / "state" / "quarantine").glob("*.json")
    assert json.loads(aside.read_text())["game"] == "azul-kids"
    assert "a new game was started" in aside.with_suffix(".reason.txt").read_text()


def test_our_own_boards_from_the_configuration_are_offered_and_played(tmp_path, monkeypatch, table):
    board = kids_boards("apprentice", 1)[0].to_json()
    board["name"] = "Chameleon (ours)"
    (tmp_path / "ours.json").write_text(json.dumps(board))
    replay_once(monkeypatch)

    def person(p: Person) -> None:
        p.tap("game:azul-kids")
        assert p.app.top.own, "our boards come first when there are some"
        p.tap("start")
        p.wait(lambda app: app.view is not None)

    drive(monkeypatch, person)
    assert run(tmp_path, table.frames, '[game]\nkids_boards = ["ours.json"]\n') == 0
    boards = kids_record.read(kept(tmp_path)).boards
    assert [b.name for b in boards] == ["Chameleon (ours)"] * 2


def test_a_bad_board_file_in_the_configuration_stops_run(tmp_path, capsys, table):
    (tmp_path / "ours.json").write_text('{"format": "azul-kids-board/1"}')
    assert run(tmp_path, table.frames, '[game]\nkids_boards = ["ours.json"]\n') == 2
    err = capsys.readouterr().err
    assert "kids_boards" in err and "ours.json" in err


def test_a_kids_game_that_ended_leaves_for_the_setup_and_idle_screens(tmp_path, monkeypatch, table):
    game, events = bot_game("apprentice", 2, None, seed=2)
    assert game.is_over()
    store = GameStore(tmp_path / "state")
    start_kids_game(store, ("Ada", "Bo"), "apprentice", game.boards)
    replay = KidsState("apprentice", game.boards)
    for event in events[:-1]:
        keep(store, replay, event)
    store.close()
    replay_once(monkeypatch)

    def person(p: Person) -> None:
        p.app.send(enter_command(events[-1]))  # the last take, told by hand
        p.wait(lambda app: isinstance(app.top, KidsEndScreen))
        p.save("end")
        p.app.advance(6.0)
        assert not isinstance(p.app.top, KidsEndScreen), "the idle screen came"
        p.app.tap((5, 5))
        assert isinstance(p.app.top, KidsEndScreen)
        p.tap("setup")
        assert isinstance(p.app.top, SetupScreen) and p.app.top.game == "azul-kids"

    drive(monkeypatch, person)
    assert run(tmp_path, table.later, "", "--idle", "5") == 0
    assert not (tmp_path / "state" / "current.json").exists()
    (finished,) = (tmp_path / "state" / "games").glob("*_azul-kids.json")
    assert kids_record.replay(json.loads(finished.read_text())) == game


def test_a_kept_azul_game_still_resumes_with_the_azul_screens(tmp_path, monkeypatch, table):
    from companion.session import start_game

    store = GameStore(tmp_path / "state")
    start_game(store, ["Ada", "Bo"], "grey")
    store.close()
    monkeypatch.setattr(hardware.camera, "make_camera", lambda name, **options: SyntheticCamera())

    def person(p: Person) -> None:
        assert isinstance(p.app.stack[0], TableScreen)
        p.wait(lambda app: app.view is not None and app.view.frame is not None)  # the camera's frame, read
        p.save("azul-resumed")

    apps = drive(monkeypatch, person)
    assert run(tmp_path, table.frames, "", "--camera", "synthetic") == 0
    (app,) = apps
    assert app.settings == Settings(("Ada", "Bo"), "grey")
    assert kept(tmp_path)["game"] == "azul" and kept(tmp_path)["variant"] == "grey"


def test_a_kept_kids_game_that_had_ended_is_filed_at_once(tmp_path, monkeypatch, table):
    game, events = bot_game("master", 2, None, seed=3)
    store = GameStore(tmp_path / "state")
    start_kids_game(store, ("Ada", "Bo"), "master", game.boards)
    replay = KidsState("master", game.boards)
    for event in events:
        keep(store, replay, event)
    store.close()
    replay_once(monkeypatch)

    def person(p: Person) -> None:
        p.wait(lambda app: isinstance(app.top, KidsEndScreen))

    drive(monkeypatch, person)
    assert run(tmp_path, table.later) == 0
    assert not (tmp_path / "state" / "current.json").exists()
    (finished,) = (tmp_path / "state" / "games").glob("*_azul-kids.json")
    assert kids_record.replay(json.loads(finished.read_text())) == game
