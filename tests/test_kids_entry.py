"""Kids "none of these": the prompt's last card, the list of every legal event (three buttons
alone or touch, no words), the tracker's entries, and the demo's players who use them."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import dataclasses
import random
from dataclasses import dataclass

import pygame
import pytest

from companion.kids_tracker import KidsTracker, canonical
from companion.rules.kids import BIG, COLORS, Fill, KidsState, KidsTake
from companion.rules.kids_record import KidsRecord, PlayerTake
from companion.sim.kids import table_of
from companion.ui.kids import samples
from companion.ui.kids.demo import (
    KidsDemoPipeline,
    KidsTrackerReader,
    KidsTrueTable,
    kids_boards,
    kids_demo_app,
    kids_settings,
)
from companion.ui.kids.entry import KidsEntryScreen
from companion.ui.kids.screens import KidsPromptScreen, KidsWarningScreen
from companion.ui.kids.view import enter_command, entered
from companion.ui.layout import Metrics
from companion.ui.screens.base import Action
from companion.ui.screens.confirm import OTHER


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


def button(name: str) -> Action:
    return Action(name, f"button:{name}")


def opened(name: str, players: int, side: str, size=(800, 480)):
    """A sample screen with what the screens send kept in a list instead."""
    _surface, _canvas, app = samples.render(name, size, players, side)
    sent: list[str] = []
    app.send = sent.append
    return app, sent


def redraw(app, size=(800, 480)):
    return app.draw(pygame.Surface(size))


def check_layout(canvas, size) -> None:
    screen = pygame.Rect(0, 0, *size)
    touch = Metrics(*size).touch
    for drawn in canvas.log:
        assert screen.contains(drawn.rect), f"{drawn.kind} {drawn.text!r} at {drawn.rect} is off-screen"
    for target in canvas.targets:
        assert screen.contains(target.rect), f"target {target.action} at {target.rect} is off-screen"
        assert min(target.rect.size) >= touch, f"target {target.action} {target.rect} is too small"


# --- the command ------------------------------------------------------------------


@pytest.mark.parametrize("event", [
    KidsTake(3, "red"),
    KidsTake(BIG, "blue", "whale", ("fish", None)),
    KidsTake(BIG, "blue", None, ()),
    Fill((("red", "blue"), ("green",), (), (), ())),
])
def test_an_entry_command_carries_the_event_exactly(event):
    assert entered(enter_command(event)) == event
    assert entered("next") is None


@pytest.mark.parametrize("command", ['enter:{"take": {"from": 1}}', 'enter:{"fill": [1, 2]}', "enter:[]",
                                     'enter:{"take": {"from": 1, "color": "red", "passed": 3}}'])
def test_a_malformed_entry_is_refused_by_name(command):
    with pytest.raises(ValueError, match="not an entered Kids event"):
        entered(command)


# --- the prompt's last card -------------------------------------------------------


def test_next_from_the_last_candidate_highlights_none_of_these_and_confirm_opens_the_list():
    app, sent = opened("prompt", 4, "master")
    prompt = app.view.prompt
    last = len(prompt.candidates) - 1
    app.view = app.view.but(prompt=dataclasses.replace(prompt, selected=last))
    screen = app.top
    assert isinstance(screen, KidsPromptScreen)
    app.action(button("next"))
    assert screen.other and sent == [], "the tracker is not told: the card is the screen's own"
    canvas = redraw(app)
    assert "none" in [d.text for d in canvas.log if d.kind == "icon"]
    app.action(button("next"))
    assert not screen.other and sent == ["next"], "Next again wraps to the first candidate"
    app.view = app.view.but(prompt=dataclasses.replace(prompt, selected=0))
    app.action(button("previous"))
    assert screen.other and sent == ["next", "previous"], "Previous from the first: the tracker wraps too"
    app.action(button("confirm"))
    assert isinstance(app.top, KidsEntryScreen) and sent == ["next", "previous"]


def test_a_tap_on_none_of_these_opens_the_list():
    app, _sent = opened("prompt", 2, "apprentice")
    canvas = redraw(app)
    (card,) = [t for t in canvas.targets if t.action == OTHER]
    app.tap(card.rect.center)
    assert isinstance(app.top, KidsEntryScreen)


def test_the_warning_offers_none_of_these_too():
    app, _sent = opened("warning", 4, "master")
    canvas = redraw(app)
    (card,) = [t for t in canvas.targets if t.action == OTHER]
    app.tap(card.rect.center)
    assert isinstance(app.top, KidsEntryScreen) and app.find(KidsWarningScreen) is None


# --- the list ---------------------------------------------------------------------


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (720, 1280)])
@pytest.mark.parametrize("name", ["entry", "entry-options", "entry-fill"])
def test_every_page_of_the_list_fits_and_has_no_words(name, size):
    app, _sent = opened(name, 4, "master", size)
    entry = app.top
    # The first pages card by card, then the last card and the way out (Previous wraps there).
    for action in ["next"] * min(len(entry.items()), 12) + ["previous"] * 14:
        canvas = redraw(app, size)
        check_layout(canvas, size)
        assert not [d for d in canvas.log if d.kind == "text"]
        app.action(button(action))


def test_every_legal_take_is_offered_once_and_buttons_alone_reach_each_of_them():
    app, sent = opened("entry", 2, "apprentice")
    entry = app.top
    moves = [c.event for c in app.view.moves]
    offered = [c.event for group in entry.groups for c in group]
    assert sorted(map(str, offered)) == sorted(map(str, moves)) and len(set(map(str, offered))) == len(moves)
    assert all(len(group) == 1 for group in entry.groups), "apprentice: a take leaves no choice"
    pages = set()
    for _step in range(len(moves)):
        canvas = redraw(app)
        pages.update(d.text for d in canvas.log if d.kind == "pages")
        app.action(button("next"))
    assert len(pages) == -(-len(moves) // 6), "the highlight walks over every page"
    assert entry.items()[entry.focus] == "back"
    app.action(button("next"))  # wraps to the first take
    app.action(button("next"))
    app.action(button("confirm"))
    assert sent == [enter_command(entry.groups[1][0].event)]
    assert app.top is not entry


def test_a_take_with_choices_opens_its_placings_and_undo_goes_back_then_out():
    app, sent = opened("entry", 4, "master")
    entry = app.top
    wide = next(i for i, g in enumerate(entry.groups) if len(g) > 1)
    for _step in range(wide):
        app.action(button("next"))
    app.action(button("confirm"))
    assert entry.group == wide and entry.items()[-1] == "back" and sent == []
    assert len(entry.items()) == len(entry.groups[wide]) + 1
    app.action(button("undo"))
    assert entry.group is None and entry.focus == wide
    app.action(button("confirm"))
    app.action(button("previous"))  # from the first placing round to "back"
    app.action(button("previous"))  # ... and to the last placing
    app.action(button("confirm"))
    assert sent == [enter_command(entry.groups[wide][-1].event)]
    assert app.top is not entry


def test_a_tap_highlights_a_card_that_records_an_event_and_a_second_tap_enters_it():
    app, sent = opened("entry-options", 4, "master")
    entry = app.top
    canvas = redraw(app)
    option = next(t for t in canvas.targets if t.action == "option:2")
    app.tap(option.rect.center)
    assert sent == [] and entry.items()[entry.focus] == "option:2"
    app.tap(option.rect.center)
    assert sent == [enter_command(entry.groups[entry.group][2].event)]


def test_a_fill_is_entered_tile_by_tile_from_the_fill_the_tracker_asked_about():
    app, sent = opened("entry-fill", 3, "master")
    entry = app.top
    asked = app.view.prompt.candidates[0].bowls
    assert [tuple(b) for b in entry.fill] == list(asked)
    assert [len(b) for b in entry.fill] == list(app.view.fill_sizes)
    app.action(button("previous"))
    assert entry.items()[entry.focus] == "back", "from the first tile back to the way out"
    app.action(button("previous"))
    assert entry.items()[entry.focus] == "save"
    canvas = redraw(app)
    tile = next(t for t in canvas.targets if t.action == "tile:1:0")
    app.tap(tile.rect.center)
    assert sent == [] and entry.items()[entry.focus] == "tile:1:0"
    app.action(button("confirm"))  # the tapped tile is highlighted: Confirm changes it again
    changed = COLORS[(COLORS.index(asked[1][0]) + 2) % len(COLORS)]
    while entry.items()[entry.focus] != "save":
        app.action(button("next"))
    app.action(button("confirm"))
    (command,) = sent
    expected = [list(b) for b in asked]
    expected[1][0] = changed
    assert entered(command) == Fill(tuple(tuple(b) for b in expected))
    assert app.top is not entry


def test_the_list_goes_away_when_the_tracker_moves_on():
    app, _sent = opened("entry", 2, "apprentice")
    entry = app.top
    app.receive(app.view.but(events=app.view.events + 1, prompt=None))
    assert app.find(KidsEntryScreen) is None and entry.host is not None


# --- the tracker through the screens ----------------------------------------------


def test_three_buttons_alone_tell_the_real_tracker_a_fill_it_did_not_offer():
    settings = kids_settings("apprentice", 2)
    app, made = kids_demo_app(settings, (800, 480), seed=3, threaded=False, pace=1.0, table="true",
                              end_seconds=None)
    app.start(settings)
    app.advance(1.5)  # the fill, read by the tracker
    pipeline = made[-1]
    truth = pipeline.game.copy()
    tracker = pipeline.reader.tracker
    tracker.act("undo")
    pipeline.reader.read(pipeline.stage.look([table_of(truth)]))
    app.worker._call(pipeline.first)
    app.poll()
    assert isinstance(app.top, KidsPromptScreen)
    app.action(button("next"))  # past the one candidate: "none of these"
    app.action(button("confirm"))
    entry = app.top
    assert isinstance(entry, KidsEntryScreen) and entry.fill
    app.action(button("previous"))
    app.action(button("previous"))
    app.action(button("confirm"))  # save the fill as the tracker read it
    assert tracker.game == truth and tracker.asked == 1
    assert not isinstance(app.top, KidsEntryScreen | KidsPromptScreen)


# --- the demo's players -----------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    candidates: tuple
    selected: int
    player: int | None


class FakeTracker:
    """The contract's fields; it sees nothing by itself and does what it is told."""

    def __init__(self, state: KidsState, names=("1", "2")) -> None:
        self.game = state.copy()
        events = tuple(e if isinstance(e, Fill) else PlayerTake(0, e) for e in state.move_stack)
        self.record = KidsRecord(state.variant, names, state.boards, events)
        self.prompt = None
        self.warnings = ()
        self.last = None
        self.acted: list[str] = []
        self.entered: list = []

    def observe(self, observation):
        return []

    def _push(self, event):
        player = self.game.turn
        self.game.push(event)
        entry = event if isinstance(event, Fill) else PlayerTake(player, event)
        self.record = dataclasses.replace(self.record, events=(*self.record.events, entry))

    def enter(self, event):
        self.entered.append(event)
        self._push(event)
        return []

    def act(self, action):
        self.acted.append(action)
        if action == "next":
            prompt = self.prompt
            selected = (prompt.selected + 1) % len(prompt.candidates)
            self.prompt = Prompt(prompt.candidates, selected, prompt.player)
        elif action == "confirm":
            self._push(self.prompt.candidates[self.prompt.selected])
            self.prompt = None
        elif action == "undo":
            self.record = dataclasses.replace(self.record, events=self.record.events[:-1])
            self.game.pop()
        return []


def pipeline_with_fake(seed: int, patience: int = 4):
    boards = kids_boards("apprentice", 2)
    pipeline = KidsDemoPipeline(kids_settings("apprentice", 2), seed=seed, stage=KidsTrueTable(boards),
                                patience=patience)
    pipeline.step()  # the fill, read by the real tracker
    fake = FakeTracker(pipeline.game)
    pipeline.reader = KidsTrackerReader(fake)
    return pipeline, fake


def test_demo_players_enter_the_true_take_when_the_question_does_not_offer_it():
    pipeline, fake = pipeline_with_fake(2)
    pipeline.step()  # a take the fake does not see
    truth = pipeline.truth
    others = [m for m in fake.game.generate_legal_moves() if m != truth][:2]
    fake.prompt = Prompt(tuple(others), 0, 0)
    pipeline.step()
    assert fake.acted == [] and fake.entered == [truth]
    assert fake.game == pipeline.game


def test_demo_players_wait_patience_steps_then_tell_the_tracker_what_it_missed():
    pipeline, fake = pipeline_with_fake(5, patience=2)
    pipeline.step()  # a take the fake does not see
    pipeline.step()
    pipeline.step()
    assert fake.entered == [] and pipeline.turns == 1, "two steps of looking again"
    pipeline.step()
    assert fake.entered == [pipeline.history[1]] and pipeline.told == 1
    pipeline.step()
    assert pipeline.turns == 2, "in step again: play goes on"


def test_demo_players_undo_an_event_that_did_not_happen_and_put_it_right_if_it_comes_back():
    pipeline, fake = pipeline_with_fake(7)
    pipeline.step()  # a take the fake does not see ...
    truth = pipeline.truth
    wrong = next(m for m in fake.game.generate_legal_moves() if m != truth)
    fake.enter(wrong)  # ... and one nobody made, which it takes instead
    fake.entered.clear()
    pipeline.step()
    assert fake.acted == ["undo"] and fake.entered == []
    fake.enter(wrong)  # the table still misleads it
    fake.entered.clear()
    pipeline.step()
    assert fake.acted == ["undo", "undo"]
    assert fake.entered == [truth], "the second time the players say what really happened"
    assert fake.game == pipeline.game


def test_a_fake_free_demo_with_a_blind_camera_is_told_every_event_and_ends_in_step():
    class Blind(KidsTrueTable):
        def look(self, tables):
            return []

    boards = kids_boards("master", 2)
    pipeline = KidsDemoPipeline(kids_settings("master", 2), seed=9, stage=Blind(boards), patience=1)
    for _step in range(2000):
        if pipeline.step() is None:
            break
    assert pipeline.game.is_over() and pipeline.reader.game == pipeline.game
    assert pipeline.told == len(pipeline.history) and pipeline.reader.tracker.asked == pipeline.told
    assert [canonical(e) for e in pipeline.reader.game.move_stack] == [canonical(e) for e in pipeline.history]


def test_a_kids_game_resumed_already_over_is_published_at_once(tmp_path):
    from companion.results import FileResults
    from companion.session import start_kids_game
    from companion.store import GameStore

    boards = kids_boards("apprentice", 2)
    rng = random.Random(1)
    state = KidsState("apprentice", boards)
    store = GameStore(tmp_path)
    record = start_kids_game(store, ("1", "2"), "apprentice", boards)
    tracker = KidsTracker(record, store)
    while not state.is_over():
        event = state.draw_fill(rng) if state.needs_fill else rng.choice(state.generate_legal_moves())
        state.push(event)
        tracker.enter(event)
    reader = KidsTrackerReader(tracker, FileResults(store))  # the companion stopped before filing it
    pipeline = KidsDemoPipeline(kids_settings("apprentice", 2), stage=KidsTrueTable(boards), reader=reader)
    assert reader.published is None
    assert pipeline.first().over
    assert reader.published is not None and not store.has_current()
