"""The demo's stages, the live pipeline's failures, and the commands that run them."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dataclasses import dataclass

import numpy as np
import pygame
import pytest

from companion.cli import main
from companion.rules.azul import OVER, Game, Take
from companion.ui.demo import DemoPipeline, Sight, TrackerReader, TrueTable, table_content, thumbnail
from companion.ui.live import LivePipeline
from companion.ui.screens.base import Settings

SETTINGS = Settings(("Ada", "Bo"))


@dataclass(frozen=True)
class Prompt:
    candidates: tuple
    selected: int
    player: int | None


class FakeTracker:
    """The contract's fields. It applies each new state's event only once told (ask=True: it asks)."""

    def __init__(self, truth: Game, ask: bool = False) -> None:
        self.truth = truth
        self.game = Game(truth.players, truth.variant)
        self.prompt = None
        self.warnings = ()
        self.last = None
        self.ask = ask
        self.seen: list[dict] = []
        self.acted: list[str] = []
        self.entered: list = []
        self.pending = None

    def observe(self, observation):
        self.seen.append(observation)
        return []

    def enter(self, event):
        self.entered.append(event)
        self.game.push(event)
        return []

    def act(self, action):
        self.acted.append(action)
        if action == "next":
            self.prompt = Prompt(self.prompt.candidates, (self.prompt.selected + 1) % 2, self.prompt.player)
        elif action == "confirm":
            self.game.push(self.prompt.candidates[self.prompt.selected])
            self.prompt = None
        return []


def test_true_table_feeds_the_tracker_three_frames_of_each_still_table():
    pipeline = DemoPipeline(SETTINGS, seed=1, stage=TrueTable(), reader=None)
    pipeline.step()  # the refill
    fake = FakeTracker(pipeline.game)
    pipeline.reader = TrackerReader(fake)
    fake.game = pipeline.game.copy()
    pipeline.step()
    assert len(fake.seen) == 3
    assert fake.seen[0]["format"] == "azul-observation/1"
    assert fake.seen[0] == fake.seen[2]


def test_demo_players_answer_the_trackers_question_with_the_true_move():
    pipeline = DemoPipeline(SETTINGS, seed=2, stage=TrueTable())
    pipeline.step()  # refill, read by the real tracker
    fake = FakeTracker(pipeline.game)
    fake.game = pipeline.game.copy()
    pipeline.reader = TrackerReader(fake)
    pipeline.step()  # a take
    truth = pipeline.truth
    other = next(m for m in fake.game.generate_legal_moves() if m != truth)
    fake.prompt = Prompt((truth, other), 1, 0)
    pipeline.step()
    pipeline.step()
    assert fake.acted == ["next", "confirm"]
    assert fake.game == pipeline.game


def test_demo_waits_for_a_tracker_behind_the_table_then_tells_it_what_it_missed():
    from companion.rules.azul_record import Record

    pipeline = DemoPipeline(SETTINGS, seed=3, stage=TrueTable(), patience=2)
    fake = FakeTracker(pipeline.game)  # never catches up by itself
    fake.record = Record(["Ada", "Bo"])
    pipeline.reader = TrackerReader(fake)
    pipeline.step()  # the refill: not seen by the fake
    pipeline.step()
    pipeline.step()
    assert pipeline.turns == 0 and fake.entered == []  # two steps of looking again
    pipeline.step()
    assert fake.entered == [pipeline.history[0]], "then the players enter the refill by hand"
    fake.record.append(fake.entered[0])
    pipeline.step()
    assert pipeline.turns == 1, "the tracker is in step: play goes on"


def test_demo_players_enter_the_true_move_when_the_question_does_not_offer_it():
    from companion.rules.azul_record import Record

    pipeline = DemoPipeline(SETTINGS, seed=2, stage=TrueTable())
    pipeline.step()  # the refill, read by the real tracker
    fake = FakeTracker(pipeline.game)
    fake.game = pipeline.game.copy()
    fake.record = Record(["Ada", "Bo"])
    fake.record.append(pipeline.history[0])
    pipeline.reader = TrackerReader(fake)
    pipeline.step()  # a take
    truth = pipeline.truth
    others = [m for m in fake.game.generate_legal_moves() if m != truth][:2]
    fake.prompt = Prompt(tuple(others), 0, 0)
    pipeline.step()
    assert fake.acted == [] and fake.entered == [truth]
    assert fake.game == pipeline.game


def test_the_real_tracker_follows_a_move_entered_by_hand_and_its_record_keeps_the_mover():
    from companion.rules.azul_record import Record
    from companion.tracker import Tracker
    from companion.ui.view import enter_command

    truth = Game(2)
    refill = truth.draw_refill(__import__("random").Random(4))
    truth.push(refill)
    tracker = Tracker(Record(["Ada", "Bo"]))
    reader = TrackerReader(tracker)
    reader.act(enter_command(refill))
    move = next(iter(truth.generate_legal_moves()))
    mover = truth.turn
    truth.push(move)
    reader.act(enter_command(move, mover))
    assert tracker.game == truth
    assert tracker.record.movers == [None, mover]
    assert tracker.asked == 2 and tracker.auto == 0
    illegal = Take(move.source, move.color, move.line)  # that factory is empty now
    results = reader.act(enter_command(illegal, truth.turn))
    assert tracker.game == truth, "a refused entry changes nothing"
    assert [w.code for w in results] == ["refused"]


def test_demo_players_undo_a_move_that_did_not_happen_but_leave_refills_to_the_tracker():
    from companion.rules.azul import Refill
    from companion.rules.azul_record import Record

    tracker = FakeTracker(Game(2))
    tracker.record = Record(["Ada", "Bo"])
    pipeline = DemoPipeline(SETTINGS, seed=8, stage=TrueTable(), reader=TrackerReader(tracker))
    refill = Refill(((0, 0, 1, 1),) * 5)
    pipeline.history = [refill, Take(1, 0, 1)]
    tracker.record.append(Refill(((1, 1, 0, 0),) * 5))  # the same tiles in another order: right
    assert not pipeline._misled()
    tracker.record.events[0] = Refill(((2, 2, 2, 2),) * 5)  # misread: the tracker revises refills itself
    assert not pipeline._misled()
    tracker.record.events[0] = refill
    pipeline.movers = [None, 0]
    tracker.record.append(Take(1, 1, 1), 0)  # a move that did not happen
    pipeline.step()
    assert tracker.acted == ["undo"] and tracker.entered == []
    pipeline.step()  # the fake took nothing back: the tracker reads it wrong again
    assert tracker.acted == ["undo", "undo"]
    assert tracker.entered == [], "the record still holds the wrong move: nothing to enter after it"


def test_true_table_and_real_tracker_play_a_whole_game():
    pipeline = DemoPipeline(Settings(("A", "B", "C")), seed=5, stage=TrueTable())
    view = pipeline.first()
    for _step in range(400):
        if pipeline.game.phase == OVER and pipeline.reader.game == pipeline.game:
            break
        view = pipeline.step() or view
    assert pipeline.reader.game == pipeline.game
    assert view.ending is not None
    assert view.ending.outcome.scores == tuple(b.score for b in pipeline.game.boards)


def test_table_content_is_what_the_renderer_draws():
    game = Game(2)
    pipeline = DemoPipeline(SETTINGS, seed=4, stage=TrueTable())
    pipeline.step()
    pipeline.step()
    game = pipeline.game
    content = table_content(game)
    assert len(content.boards) == 2
    assert sum(len(f) for f in content.factories) + sum(content.center_tiles.values()) == game.on_table
    assert content.center_marker == game.center_marker


def test_thumbnail_is_small_rgb():
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[..., 0] = 200  # blue in BGR
    small = thumbnail(frame)
    assert small.shape[1] <= 320 and small.flags["C_CONTIGUOUS"]
    assert tuple(small[0, 0]) == (0, 0, 200)


class Camera:
    def __init__(self, frames):
        self.frames = list(frames)
        self.status = None
        self.opened = self.closed = False
        self.description = "fake"

    def open(self):
        self.opened = True

    def read(self):
        frame = self.frames.pop(0) if self.frames else None
        if frame is None:
            self.status = "Camera not available: no camera found. Trying again in 1 s."
        return frame

    def close(self):
        self.closed = True


class Reader:
    def __init__(self):
        self.game = Game(2)
        self.prompt = None
        self.warnings = ()
        self.last = None
        self.read_sights: list[Sight] = []

    def read(self, sights):
        self.read_sights += sights
        return []

    def act(self, action):
        return []


def test_live_pipeline_shows_a_missing_camera_and_goes_on():
    camera = Camera([None, None])
    pipeline = LivePipeline(SETTINGS, camera, None, Reader())
    pipeline.first()
    view = pipeline.step()
    assert "Camera not available" in view.status
    assert pipeline.step() is None  # nothing new to show
    pipeline.close()
    assert camera.opened and camera.closed


def test_live_pipeline_skips_a_bad_frame():
    frame = np.zeros((480, 640, 3), np.uint8)

    def recognise(image):
        if image.sum() == 0:
            raise ValueError("the frame is black")
        return {"format": "azul-observation/1"}

    reader = Reader()
    pipeline = LivePipeline(SETTINGS, Camera([frame, frame + 1]), recognise, reader)
    pipeline.first()
    view = pipeline.step()
    assert view.status == "Could not read this frame: the frame is black"
    assert view.frame is not None
    view = pipeline.step()
    assert view.status is None
    assert len(reader.read_sights) == 1


def test_demo_command_writes_screenshots(tmp_path):
    folder = tmp_path / "frames"
    status = main(["demo", "--headless", "--frames", str(folder), "--turns", "3", "--table", "true",
                   "--seed", "1", "--size", "1024x600"])
    assert status == 0
    frames = sorted(folder.glob("frame-*.png"))
    assert len(frames) >= 4  # the empty table, the refill, three moves
    image = pygame.image.load(str(frames[-1]))
    assert image.get_size() == (1024, 600)


def test_demo_without_a_screen_writes_screenshots_and_says_where(tmp_path, monkeypatch, capsys):
    from companion.commands import demo as demo_command

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(demo_command, "has_screen", lambda: False)
    assert main(["demo", "--turns", "2", "--table", "true", "--seed", "2"]) == 0
    assert "demo-frames" in capsys.readouterr().err
    assert len(list((tmp_path / "demo-frames").glob("frame-*.png"))) >= 3


@pytest.mark.parametrize(("driver", "screen"), [("offscreen", False), ("dummy", False), ("x11", True),
                                                ("kmsdrm", True), (None, False)])
def test_a_screen_is_a_display_driver_sdl_found_itself(monkeypatch, driver, screen):
    from companion.commands.demo import has_screen

    def init():
        if driver is None:
            raise pygame.error("no available video device")

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(pygame.display, "init", init)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: driver)
    monkeypatch.setattr(pygame.display, "quit", lambda: None)
    assert has_screen() is screen
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert has_screen() is True, "a driver the user chose is taken at its word"


def test_sdls_probe_is_kept_off_stderr_and_stderr_comes_back(monkeypatch, capfd):
    import sys

    from companion.commands.demo import has_screen

    def init():
        os.write(2, b"error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n")
        raise pygame.error("no available video device")

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(pygame.display, "init", init)
    monkeypatch.setattr(pygame.display, "quit", lambda: None)
    assert has_screen() is False
    print("after", file=sys.stderr, flush=True)
    err = capfd.readouterr().err
    assert "XDG_RUNTIME_DIR" not in err and "after" in err


@pytest.mark.parametrize("argv", [["demo", "--headless"],
                                  ["demo", "--headless", "--frames", "x", "--turns", "-1"]])
def test_demo_command_refuses_bad_arguments(argv, capsys):
    assert main(argv) == 2
    assert "demo:" in capsys.readouterr().err


def test_run_command_refuses_an_unknown_camera(capsys):
    assert main(["run", "--camera", "telescope"]) == 2
    assert "telescope" in capsys.readouterr().err


def test_moves_of_the_sample_are_takes():
    pipeline = DemoPipeline(SETTINGS, seed=6, stage=TrueTable())
    pipeline.step()
    view = pipeline.step()
    assert all(isinstance(o.move, Take) for g in view.moves for o in g.options)


def test_demo_players_put_right_a_refill_the_tracker_is_stuck_on():
    import random as _random

    from companion.ui.demo import _canonical
    from companion.ui.view import enter_command

    pipeline = DemoPipeline(SETTINGS, seed=11, stage=TrueTable(), patience=1)
    true_refill = pipeline._play()  # laid out, but the tracker is told another one
    wrong = Game(2).draw_refill(_random.Random(99))
    assert _canonical(wrong) != _canonical(true_refill)
    pipeline.reader.act(enter_command(wrong))
    for _step in range(60):
        pipeline.step()
        if pipeline.turns >= 3 and pipeline.reader.game == pipeline.game:
            break
    assert _canonical(pipeline.reader.record.events[0]) == _canonical(true_refill)
    assert pipeline.turns >= 3 and pipeline.reader.game == pipeline.game
