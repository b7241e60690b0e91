"""The Azul Kids display: every screen drawn at 800x480 and checked, the Kids demo end to end."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json
import random

import pygame
import pytest

from companion.cli import main
from companion.rules import kids_record
from companion.rules.kids import BIG, COLORS, SHAPE_OF, KidsState
from companion.sim.kids import table_of
from companion.ui.kids import draw, samples
from companion.ui.kids.demo import (
    GreedyKidsBot,
    KidsCameraTable,
    KidsDemoPipeline,
    KidsTrueTable,
    kids_demo_app,
)
from companion.ui.kids.screens import CelebrationScreen, KidsEndScreen, KidsPromptScreen, KidsTableScreen
from companion.ui.kids.settings import kids_boards, kids_settings
from companion.ui.kids.view import build_kids_view
from companion.ui.layout import SIZES, Metrics
from companion.ui.screens.base import Action
from companion.ui.widgets import Canvas


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


def check_layout(canvas: Canvas, size: tuple[int, int]) -> None:
    screen = pygame.Rect(0, 0, *size)
    metrics = Metrics(*size)
    for drawn in canvas.log:
        assert screen.contains(drawn.rect), f"{drawn.kind} {drawn.text!r} at {drawn.rect} is off-screen"
        if drawn.kind == "text":
            assert not drawn.clipped, f"text {drawn.text!r} does not fit"
    for target in canvas.targets:
        assert screen.contains(target.rect), f"target {target.action} at {target.rect} is off-screen"
        assert min(target.rect.size) >= metrics.touch, f"target {target.action} {target.rect} is too small"


def kinds(canvas: Canvas, kind: str) -> list[str]:
    return [d.text for d in canvas.log if d.kind == kind]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize(
    ("players", "side"), [(2, "apprentice"), (3, "master"), (4, "master"), (4, "apprentice")]
)
@pytest.mark.parametrize("name", samples.SCREENS)
def test_every_kids_screen_fits(name, players, side, size):
    _surface, canvas, app = samples.render(name, size, players, side)
    assert isinstance(app.top, samples.SCREEN_TYPES[name])
    check_layout(canvas, size)
    # Almost no words: any text is a number (stars) or the tracker's own message.
    for text in kinds(canvas, "text"):
        assert text.isdigit() or name == "warning", text


@pytest.mark.parametrize(("players", "side"), [(2, "apprentice"), (4, "master")])
def test_table_shows_whose_turn_and_the_bowls_that_fit_their_board(players, side):
    view = samples.sample_view("table", players, side)
    _surface, canvas, _app = samples.render("table", (800, 480), players, side)
    animals = kinds(canvas, "animal")
    # Every seat's animal once on its board, the player to move's again over the tray.
    assert sorted(set(animals)) == sorted(draw.ANIMALS[:players])
    assert animals.count(draw.ANIMALS[view.turn]) == 2
    game = samples.sample_game(players, side, 4 * players + 1)
    empty = game.empty_fields(game.turn)
    fitting = {c for c in COLORS if empty[SHAPE_OF[c]]}
    bowls = (*game.bowls, game.big)
    expected = {
        number if number <= 5 else "big"
        for number, counts in enumerate(bowls, 1)
        if any(n and COLORS[c] in fitting for c, n in enumerate(counts))
    }
    glowing = {d.text for d in canvas.log if d.kind == "bowl" and d.action == "glow"}
    assert glowing == {str(s) for s in expected} and glowing
    # Every tile is drawn in its own shape: bowls' tiles (faded when they do not fit) and boards'.
    shapes = [d for d in canvas.log if d.kind == "shape"]
    in_bowls = sum(map(sum, bowls))
    on_boards = sum(n for seat in game.placed for p in seat for n in p)
    assert len(shapes) == in_bowls + on_boards
    assert {d.text for d in shapes if d.clipped} <= set(COLORS) - fitting
    assert sorted(kinds(canvas, "dots")) == ["1", "2", "3", "4", "5"]


def test_tiles_have_one_shape_per_colour_and_seats_one_animal_each():
    outlines = {c: len(draw.shape_points(SHAPE_OF[c], (0, 0), 10)) for c in COLORS}
    assert outlines == {"red": 4, "yellow": 6, "green": 4, "blue": 32}
    square, diamond = draw.shape_points("square", (0, 0), 10), draw.shape_points("diamond", (0, 0), 10)
    assert square[0][0] != 0 and diamond[0][0] == 0  # corners vs tips: a diamond stands on its point
    assert len(set(draw.ANIMALS)) == 4 and len(set(draw.SEAT_RGB)) == 4


def test_prompt_shows_candidates_as_pictures_and_taps_walk_to_the_one_picked():
    _surface, canvas, app = samples.render("prompt", (800, 480), 4, "master")
    view = app.view
    assert len(view.prompt.candidates) >= 2
    picks = [t for t in canvas.targets if t.action.startswith("pick:")]
    assert len(picks) == min(len(view.prompt.candidates), 2)
    assert {t.action for t in canvas.targets} >= {"previous", "next", "confirm"}
    trays = kinds(canvas, "tray")
    assert trays[: len(picks)] == [str(c.source) for c in view.prompt.candidates[: len(picks)]]
    assert view.prompt.candidates[0].color in kinds(canvas, "shape")
    sent = []
    app.send = sent.append
    screen = app.top
    assert isinstance(screen, KidsPromptScreen)
    screen.handle(Action("pick:1", "touch"))
    assert sent == ["next"]
    app.action(Action(app.canvas.hit(picks[0].rect.center), "touch"))
    assert sent == ["next"]  # the first card is the one highlighted already
    app.action(Action("confirm", "button:confirm"))
    assert sent[-1] == "confirm"


def test_warning_circles_the_wrong_field_and_shows_the_right_shape():
    _surface, canvas, app = samples.render("warning", (800, 480), 4, "master")
    warning = app.view.warnings[0]
    assert warning.code == "wrong-shape"
    fields = kinds(canvas, "field")
    assert fields[-1] == "square"  # the field the red tile belongs on, drawn beside it
    assert "red" in kinds(canvas, "shape")
    assert any(warning.message == t for t in kinds(canvas, "text"))


def test_celebration_bursts_the_pictures_stars_and_goes_away_by_itself():
    view = samples.sample_view("celebration", 4, "master")
    c = view.celebration
    assert c.stars >= 1
    _surface, canvas, app = samples.render("celebration", (800, 480), 4, "master", elapsed=0.5)
    screen = app.top
    assert isinstance(screen, CelebrationScreen)
    assert len(kinds(canvas, "star")) >= c.stars + 10
    assert draw.ANIMALS[c.seat] in kinds(canvas, "animal")
    app.advance(4.0)
    assert isinstance(app.top, KidsTableScreen)


def test_end_shows_the_winner_with_confetti_and_plays_again():
    _surface, canvas, app = samples.render("end", (800, 480), 4, "master")
    outcome = app.view.outcome
    assert outcome is not None and outcome.winners
    animals = kinds(canvas, "animal")
    for seat in outcome.winners:
        assert animals.count(draw.ANIMALS[seat]) == 2  # big in the middle, and in the row of stars
    assert kinds(canvas, "confetti")
    assert [t for t in canvas.targets if t.action == "again"]
    stars = [int(t) for t in kinds(canvas, "text")]
    assert all(s > 8 for s in stars)  # only large totals are written as numbers
    started = []
    app.start = started.append
    app.action(Action("again", "touch"))
    assert started == [app.settings]


def test_view_fits_and_glowing_bowls_follow_the_rules():
    rng = random.Random(2)
    game = KidsState("apprentice", kids_boards("apprentice", 2))
    view = build_kids_view(game, ("1", "2"))
    assert view.turn is None and view.glowing == ()  # a fill is due
    game.push(game.draw_fill(rng))
    view = build_kids_view(game, ("1", "2"))
    assert view.turn == 0 and set(view.glowing) == {n for n in range(1, 6) if any(game.bowls[n - 1])}
    assert BIG not in view.glowing


# --- the demo ---------------------------------------------------------------------


def test_kids_pipeline_plays_a_whole_game_and_the_app_reaches_the_celebration():
    settings = kids_settings("master", 3)
    app, made = kids_demo_app(
        settings, (800, 480), seed=4, threaded=False, pace=1.0, table="true", end_seconds=None
    )
    app.start(settings)
    celebrated = 0
    for _step in range(600):
        if isinstance(app.top, KidsEndScreen):
            break
        app.advance(1.0)
        celebrated += isinstance(app.top, CelebrationScreen)
    pipeline = made[-1]
    assert isinstance(app.top, KidsEndScreen)
    assert pipeline.game.is_over() and pipeline.reader.game == pipeline.game
    assert pipeline.reader.tracker.asked == 0
    assert app.view.outcome == pipeline.game.outcome()
    assert celebrated  # pictures completed on the way were celebrated
    canvas = app.draw(pygame.Surface((800, 480)))
    check_layout(canvas, (800, 480))


def test_demo_players_answer_the_trackers_question():
    pipeline = KidsDemoPipeline(
        kids_settings("apprentice", 2), seed=3, stage=KidsTrueTable(kids_boards("apprentice", 2))
    )
    pipeline.step()  # the fill
    assert pipeline.reader.game == pipeline.game
    pipeline.reader.tracker.act("undo")  # now the tracker asks about the fill it sees
    pipeline.reader.read(pipeline.stage.look([table_of(pipeline.game)]))
    assert pipeline.reader.prompt is not None
    pipeline.step()
    assert pipeline.reader.prompt is None and pipeline.reader.game == pipeline.game
    assert pipeline.reader.tracker.asked == 1


def test_the_demo_goes_on_while_the_tracker_asks():
    settings = kids_settings("apprentice", 2)
    app, made = kids_demo_app(settings, (800, 480), seed=3, threaded=False, pace=1.0, table="true",
                              end_seconds=None)
    app.start(settings)
    app.advance(1.5)  # the fill
    pipeline = made[-1]
    assert len(pipeline.reader.tracker.record.events) == 1 and pipeline.reader.game == pipeline.game
    pipeline.reader.tracker.act("undo")  # now the tracker asks about the fill it sees
    pipeline.reader.read(pipeline.stage.look([table_of(pipeline.game)]))
    app.worker._call(pipeline.first)
    app.poll()
    assert isinstance(app.top, KidsPromptScreen)
    app.advance(3.0)
    assert pipeline.reader.tracker.asked == 1, "the simulated players answered"
    assert not isinstance(app.top, KidsPromptScreen)


def test_greedy_bot_places_as_many_of_its_own_tiles_as_it_can():
    rng = random.Random(1)
    game = KidsState("apprentice", kids_boards("apprentice", 2))
    game.push(game.draw_fill(rng))
    move = GreedyKidsBot(rng).choose(game)
    own = max(sum(p.tiles for p in game.result(m).placements if p.seat == 0) for m in game.legal_moves)
    assert sum(p.tiles for p in game.result(move).placements if p.seat == 0) == own


def test_camera_stage_numbers_the_bowls_as_the_engine_does():
    boards = kids_boards("apprentice", 2)
    stage = KidsCameraTable(boards, seed=1, frames=1, size=(960, 540))
    game = KidsState("apprentice", boards)
    game.push(game.draw_fill(random.Random(6)))
    (sight,) = stage.look([table_of(game)])
    read = {b["bowl"]: b for b in sight.observation["bowls"]}
    for number in range(1, 6):
        bowl = read[number]
        if not bowl["unknown"] and not bowl["occluded"]:
            assert bowl["tiles"] == {c: n for c, n in zip(COLORS, game.bowls[number - 1], strict=True) if n}
    assert sight.frame is not None


def test_demo_command_plays_kids_headless(tmp_path, capsys):
    folder = tmp_path / "frames"
    code = main(
        [
            "demo",
            "--game",
            "kids",
            "--headless",
            "--frames",
            str(folder),
            "--turns",
            "10",
            "--table",
            "true",
            "--seed",
            "2",
        ]
    )
    assert code == 0
    shots = sorted(folder.glob("*.png"))
    assert len(shots) >= 10
    assert pygame.image.load(str(shots[-1])).get_size() == (800, 480)
    assert f"{len(shots)} screenshots" in capsys.readouterr().out


def test_demo_command_plays_a_whole_master_game_to_the_end(tmp_path):
    folder = tmp_path / "frames"
    code = main(
        [
            "demo",
            "--game",
            "kids",
            "--side",
            "master",
            "--players",
            "4",
            "--headless",
            "--frames",
            str(folder),
            "--table",
            "true",
            "--seed",
            "5",
        ]
    )
    assert code == 0
    last = pygame.image.load(str(sorted(folder.glob("*.png"))[-1]))
    # The end: confetti in tile and seat colours over the background.
    colours = {last.get_at((x, y))[:3] for x in range(0, 800, 4) for y in range(0, 360, 4)}
    assert len(colours & set(draw.TILE_RGB.values())) >= 2


def kids_truth(side: str, players: int, seed: int) -> KidsState:
    """The game the Kids demo's bots play from ``seed`` (what the pipeline's own rng draws)."""
    rng = random.Random(seed)
    game = KidsState(side, kids_boards(side, players))
    bot = GreedyKidsBot(rng)
    while not game.is_over():
        game.push(game.draw_fill(rng) if game.needs_fill else bot.choose(game))
    return game


def demo_kids(state, frames, *more: str) -> int:
    return main(["demo", "--game", "kids", "--headless", "--frames", str(frames), "--table", "true",
                 "--state-dir", str(state), *more])


def test_kids_demo_keeps_the_game_event_by_event_and_files_it_when_over(tmp_path, capsys):
    state = tmp_path / "state"
    assert demo_kids(state, tmp_path / "f", "--seed", "6", "--side", "master", "--events") == 0
    out, err = capsys.readouterr()
    printed = [json.loads(line) for line in out.splitlines()]
    assert "screenshots" in err, "with --events stdout holds only events"
    assert not (state / "current.json").exists()
    (finished,) = (state / "games").glob("*_azul-kids.json")
    record = json.loads(finished.read_text())
    assert record["events"] == printed
    truth = kids_truth("master", 2, 6)
    assert kids_record.replay(record) == truth
    assert main(["history", "--state-dir", str(state), "--json"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["game"] == "azul-kids" and row["summary"] == kids_record.summary(truth)


def test_kids_demo_resumes_the_unfinished_game(tmp_path, capsys, caplog):
    state = tmp_path / "state"
    assert demo_kids(state, tmp_path / "a", "--seed", "4", "--turns", "5") == 0
    kept = json.loads((state / "current.json").read_text())
    assert len(kept["events"]) >= 6 and kept["game"] == "azul-kids"
    # --players and --side are the new game's: the resumed one keeps its own.
    assert demo_kids(state, tmp_path / "b", "--seed", "4", "--players", "4", "--side", "master") == 0
    assert "Resumed the unfinished game" in caplog.text
    (finished,) = (state / "games").glob("*.json")
    record = json.loads(finished.read_text())
    assert record["events"][:len(kept["events"])] == kept["events"]
    assert kids_record.replay(record) == kids_truth("apprentice", 2, 4)


def test_kids_demo_puts_a_broken_game_aside_and_starts_anew(tmp_path, capsys):
    state = tmp_path / "state"
    assert demo_kids(state, tmp_path / "a", "--seed", "4", "--turns", "3") == 0
    path = state / "current.json"
    path.write_text(path.read_text().replace('"player": 1', '"player": 0', 1))  # out of turn
    assert demo_kids(state, tmp_path / "b", "--seed", "4") == 0
    (aside,) = (state / "quarantine").glob("*.json")
    assert "out of turn" in aside.with_suffix(".reason.txt").read_text()
    assert len(list((state / "games").glob("*.json"))) == 1


def test_kids_demo_leaves_an_unfinished_azul_game_alone(tmp_path, capsys):
    state = tmp_path / "state"
    assert main(["demo", "--headless", "--frames", str(tmp_path / "a"), "--table", "true", "--turns", "2",
                 "--seed", "1", "--state-dir", str(state)]) == 0
    before = (state / "current.json").read_bytes()
    capsys.readouterr()
    assert demo_kids(state, tmp_path / "b") == 2
    assert "unfinished game of Azul" in capsys.readouterr().err
    assert (state / "current.json").read_bytes() == before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_offers_another_game_and_the_setup_at_every_size(size):
    from companion.ui.screens.setup import SetupScreen

    _surface, canvas, app = samples.render("end", size, 3, "master")
    check_layout(canvas, size)
    assert [t.action for t in canvas.targets] == ["again", "setup"]
    assert kinds(canvas, "icon") == ["again", "setup"]
    started = []
    app.start = started.append
    app.action(Action("confirm", "button:confirm"))  # "again" is highlighted first
    assert started == [app.settings]
    app.action(Action("next", "button:next"))
    app.action(Action("confirm", "button:confirm"))
    assert isinstance(app.top, SetupScreen) and not app.top.back
    assert app.top.game == "azul-kids" and app.top.side == "master" and app.top.count == 3


def test_menu_on_the_kids_table_opens_the_setup_and_back_returns():
    from companion.ui.screens.setup import SetupScreen

    _surface, _canvas, app = samples.render("table", (800, 480), 2, "apprentice")
    app.action(Action("menu", "button:confirm"))
    assert isinstance(app.top, SetupScreen) and app.top.back and app.top.game == "azul-kids"
    app.draw(pygame.Surface((800, 480)))
    app.action(Action("back", "touch"))
    assert isinstance(app.top, KidsTableScreen)
