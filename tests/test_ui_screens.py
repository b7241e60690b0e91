"""Every screen at every supported size: what it shows, and that it is laid out well."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import dataclasses
import itertools

import pygame
import pytest

from companion.explain import breakdown
from companion.ui import samples
from companion.ui.layout import PX_PER_MM_7INCH, SIZES, TOUCH_MM, Metrics
from companion.ui.screens.base import Action, Settings
from companion.ui.view import build_view
from companion.ui.widgets import Canvas


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


def check_layout(canvas: Canvas, size: tuple[int, int]) -> None:
    screen = pygame.Rect((0, 0), size)
    metrics = Metrics(*size)
    texts = [d for d in canvas.log if d.kind == "text"]
    for drawn in canvas.log:
        assert screen.contains(drawn.rect), f"{drawn.kind} {drawn.text!r} at {drawn.rect} is off-screen"
    for drawn in texts:
        assert not drawn.clipped, f"{drawn.text!r} does not fit its place"
        assert drawn.px >= metrics.min_text, f"{drawn.text!r} at {drawn.px} px is too small to read"
    for a, b in itertools.combinations(texts, 2):
        assert not a.rect.colliderect(b.rect), f"{a.text!r} {a.rect} overlaps {b.text!r} {b.rect}"
    buttons = [d for d in canvas.log if d.kind == "button"]
    for drawn in buttons:
        assert min(drawn.rect.size) >= metrics.touch, f"button {drawn.text!r} {drawn.rect} is too small"
    for a, b in itertools.combinations(buttons, 2):
        assert not a.rect.colliderect(b.rect), f"button {a.text!r} overlaps {b.text!r}"


def shown(canvas: Canvas) -> str:
    return " | ".join(canvas.texts())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", samples.SCREENS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_screen_fits_every_size(name, size, players):
    _surface, canvas, _app = samples.render(name, size, players)
    assert canvas.log, "nothing drawn"
    check_layout(canvas, size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_grey_wall_table_fits(size):
    _surface, canvas, _app = samples.render("table", size, 3, "grey")
    check_layout(canvas, size)


def test_touch_targets_are_9_mm_on_the_7_inch_screen():
    metrics = Metrics(800, 480)
    assert pytest.approx(5.16, abs=0.01) == PX_PER_MM_7INCH
    assert metrics.touch / PX_PER_MM_7INCH >= TOUCH_MM


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["7inch", "portrait"])
def test_table_shows_scores_round_points_turn_and_moves(players, size):
    _surface, canvas, app = samples.render("table", size, players)
    view = app.view
    text = shown(canvas)
    for seat in view.seats:
        assert seat.name in text
        assert str(seat.score) in canvas.texts()
        assert f"this round {seat.round_points:+d}" in text
    assert f"Round {view.round}" in text
    assert f"{view.names[view.turn]}'s turn" in text
    assert view.last in " ".join(canvas.texts())
    best = view.moves[0]
    assert f"{best.best:+d}" in canvas.texts()
    # The rows shown are the best moves first.
    assert best.best == max(g.best for g in view.moves)


def test_table_move_points_are_what_the_round_would_bring():
    view = samples.table(2)
    seat = view.seats[view.turn]
    for group in view.moves:
        for option in group.options:
            from companion.ui.samples import play  # the same game, replayed
            game, _last = play(2, rounds=2, turns=4)
            tiles, floor = game.tiling_preview(view.turn)
            before = sum(t.points for t in tiles) - floor
            game.push(option.move)
            tiles, floor = game.tiling_preview(view.turn)
            assert option.points == sum(t.points for t in tiles) - floor - before
    assert seat.round_points == sum(t.points for t in seat.tiles_now) - seat.floor_now


def test_confirm_lists_candidates_with_the_selected_one_marked():
    _surface, canvas, app = samples.render("confirm", (800, 480), 3)
    prompt = app.view.prompt
    for candidate in prompt.candidates:
        assert candidate in canvas.texts()
    picks = [d.action for d in canvas.log if d.kind == "button" and d.action.startswith("pick:")]
    assert picks == [f"pick:{i}" for i in range(len(prompt.candidates))]
    assert {"previous", "next", "confirm"} <= {t.action for t in canvas.targets}


def test_warning_shows_the_message_and_points_at_the_board():
    _surface, canvas, app = samples.render("warning", (800, 480), 2)
    warning = app.view.warnings[0]
    assert " ".join(canvas.texts()).find(warning.message) >= 0
    assert app.view.names[warning.where["board"]] in canvas.texts()
    # The highlighted pattern line is outlined in the warning colour.
    surface = canvas.surface
    red = sum(1 for x in range(0, 800, 2) for y in range(0, 480, 2)
              if surface.get_at((x, y))[:3] == (255, 112, 104))
    assert red > 20


def test_round_summary_explains_each_point():
    _surface, canvas, app = samples.render("round", (1920, 1080), 4)
    report = app.view.report
    texts = canvas.texts()
    for seat in report.seats:
        for line, _points in seat.lines:
            assert line in texts
        assert f"{seat.gained:+d} = {seat.score}" in texts
    assert any(" across" in t or "alone = 1" in t for t in texts)


def test_round_summary_pages_when_the_screen_is_small():
    _surface, canvas, app = samples.render("round", (720, 1280), 4)
    screen = app.top
    names_shown = [n for n in app.view.names if n in canvas.texts()]
    assert 0 < len(names_shown) <= 4
    if len(names_shown) < 4:
        assert any(t.action == "more" for t in canvas.targets)
        screen.handle(Action("more", "touch"))
        canvas = app.draw(pygame.Surface((720, 1280)))
        assert set(names_shown).isdisjoint(n for n in app.view.names if n in canvas.texts())


def test_end_screen_shows_breakdown_and_winner():
    _surface, canvas, app = samples.render("end", (1024, 600), 4)
    view = app.view
    texts = canvas.texts()
    outcome = view.ending.outcome
    assert view.ending.verdict in texts
    assert any(view.names[w] in view.ending.verdict for w in outcome.winners)
    for seat in range(4):
        assert str(outcome.scores[seat]) in texts
        assert view.ending.breakdowns[seat].total == outcome.scores[seat]


def test_tie_break_is_explained():
    from companion.ui.view import ending
    game, _last = samples.play(2)
    rows = [b.complete_rows() for b in game.boards]
    game.boards[1].score = game.boards[0].score  # force a tie on points
    result = ending(game, ("Åse", "Łukasz"))
    assert str(game.boards[0].score) in result.reason
    if rows[0] != rows[1]:
        winner = "Åse" if rows[0] > rows[1] else "Łukasz"
        assert result.verdict == f"{winner} wins!"
        assert "most complete rows" in result.reason
    else:
        assert "shared" in result.reason
    assert breakdown(game, 0).total == game.boards[0].score


def test_setup_and_keyboard_show_their_choices():
    _surface, canvas, _app = samples.render("setup", (800, 480), 3)
    texts = canvas.texts()
    for name in samples.NAMES[:3]:
        assert name in texts
    assert {"Start", "2", "3", "4", "coloured wall", "grey wall"} <= set(texts)
    _surface, canvas, _app = samples.render("keyboard", (800, 480), 3)
    from companion.ui.screens.keyboard import LETTERS
    assert set(LETTERS) <= set(canvas.texts())


# --- setting up a game of Azul Kids ---------------------------------------------------


def kids_setup(size, settings=None, own=(), back=False):
    """An app showing the setup screen; ``own``: the family's own Kids boards it knows."""
    from companion.ui.app import App
    from companion.ui.screens.setup import SetupScreen

    started = []
    app = App(size, started.append, settings or Settings(samples.NAMES[:2]), own_boards=own)
    app.reset(SetupScreen(app.settings, back=back))
    app.start = started.append  # the session is not what is tested here
    return app, started


def our_board(side):
    import dataclasses

    from companion.ui.kids.settings import kids_boards
    return dataclasses.replace(kids_boards(side, 1)[0], name=f"Ours ({side})")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("players", "own", "back"), [(2, False, False), (4, True, True)])
def test_kids_setup_fits_every_size(size, players, own, back):
    from companion.ui.kids.settings import KidsSettings
    settings = KidsSettings(samples.NAMES[:players], "master")
    app, _started = kids_setup(size, settings, (our_board("master"),) if own else (), back)
    canvas = app.draw(pygame.Surface(size))
    check_layout(canvas, size)
    texts = set(canvas.texts())
    assert {"Azul", "Azul Kids", "apprentice", "master", "example boards", "our boards", "Start"} <= texts
    assert "coloured wall" not in texts
    assert set(samples.NAMES[:players]) <= texts
    actions = {t.action for t in canvas.targets}
    assert ("boards:own" in actions) == own  # greyed, not pressable, without boards of this side
    assert ("back" in actions) == back


def test_kids_setup_in_every_language_fits_the_7_inch_screen():
    from companion.i18n import set_language
    try:
        for language in ("da", "de", "es", "nl", "pl"):
            set_language(language)
            app, _started = kids_setup((800, 480), own=(our_board("apprentice"),))
            app.action(Action("game:azul-kids", "touch"))
            canvas = app.draw(pygame.Surface((800, 480)))
            check_layout(canvas, (800, 480))
            assert "example boards" not in canvas.texts(), f"{language}: not translated"
    finally:
        set_language("en")


def test_three_buttons_alone_set_up_a_kids_game_on_our_boards():
    from companion.ui.kids.settings import KidsSettings, seat_boards
    ours = (our_board("master"), our_board("apprentice"))
    app, started = kids_setup((800, 480), own=ours)
    surface = pygame.Surface((800, 480))

    def press(action):
        app.draw(surface)
        order = app.top._actions
        for _step in range((order.index(action) - app.top.focus) % len(order)):
            app.action(Action("next", "button:next"))
        app.action(Action("confirm", "button:confirm"))

    press("game:azul-kids")
    press("side:master")
    press("players:3")
    press("start")
    (settings,) = started
    assert isinstance(settings, KidsSettings)
    assert settings.game == "azul-kids" and settings.variant == "master"
    assert settings.names == ("Åse", "Łukasz", "Player 3")
    assert [b.name for b in seat_boards(settings)] == ["Ours (master)"] * 3


def test_kids_setup_chooses_between_the_examples_and_our_boards():
    from companion.rules.kids_board import example_boards
    from companion.ui.kids.settings import KidsSettings, seat_boards

    def touch(app, *actions):
        for action in actions:
            app.draw(pygame.Surface((800, 480)))  # a tap finds what the last frame drew
            app.action(Action(action, "touch"))

    app, started = kids_setup((800, 480), KidsSettings(samples.NAMES[:2], "apprentice"),
                              own=(our_board("apprentice"),))
    assert not app.top.own, "the game it came from was on the examples"
    touch(app, "boards:own", "side:master", "start")  # we have no master board: the examples
    assert set(seat_boards(started[-1])) <= set(example_boards())
    app, started = kids_setup((800, 480), own=(our_board("apprentice"),))
    touch(app, "game:azul-kids", "start")
    assert [b.name for b in seat_boards(started[-1])] == ["Ours (apprentice)"] * 2
    app, started = kids_setup((800, 480), KidsSettings(samples.NAMES[:2], "apprentice"))
    touch(app, "game:azul", "variant:grey", "start")
    assert started[-1] == Settings(samples.NAMES[:2], "grey")



def test_the_last_move_says_whether_a_person_confirmed_it_or_the_companion_corrected_it():
    game, last = samples.play(2, rounds=1, turns=3)

    def said(**kind) -> str:
        return build_view(game, samples.NAMES[:2], last=samples.Seen(last.event, last.player, **kind)).last

    seen = said(auto=True)
    assert said(auto=False) == seen + " (confirmed)"
    assert said(auto=True, revised=True) == seen + " (corrected)"


def test_a_player_card_gives_the_floor_penalty_due_now_and_no_minus_zero():
    app = samples.stage("table", (800, 480), 2)
    first, second = app.view.seats
    assert first.floor_now == second.floor_now == 0
    app.receive(dataclasses.replace(app.view, seats=(dataclasses.replace(first, floor_now=3), second)))
    texts = app.draw(pygame.Surface((800, 480))).texts()
    tiles = [sum(t.points for t in seat.tiles_now) for seat in (first, second)]
    assert f"tiles +{tiles[0]}, floor -3" in texts
    assert f"tiles +{tiles[1]}, floor 0" in texts
    assert not any(text.endswith("floor -0") for text in texts)
