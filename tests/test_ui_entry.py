"""Telling the tracker what happened by hand: "none of these", the move list, the refill editor."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random

import pygame
import pytest

from companion.rules.azul import FACTORIES, REFILL, Game, Refill, Take
from companion.ui import samples
from companion.ui.screens.base import Action
from companion.ui.screens.confirm import ConfirmScreen
from companion.ui.screens.entry import EntryScreen
from companion.ui.screens.warning import WarningScreen
from companion.ui.view import build_view, entered

SIZE = (800, 480)


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


def staged(name: str, players: int = 2):
    """A sample screen whose app records what it would send to the pipeline."""
    app = samples.stage(name, SIZE, players)
    sent: list[str] = []
    app.send = sent.append
    return app, sent


def draw(app) -> None:
    app.draw(pygame.Surface(SIZE))


def press(app, name: str) -> None:
    app.action(Action(name, "button:" + name))
    draw(app)


def test_next_past_the_last_candidate_highlights_none_of_these_and_confirm_opens_the_list():
    app, sent = staged("confirm")
    draw(app)
    confirm = app.top
    assert isinstance(confirm, ConfirmScreen)
    prompt = app.view.prompt
    assert prompt.selected == 1 and len(prompt.candidates) == 3
    # The fake prompt does not move with the sends; put it on the last candidate as the tracker would.
    app.receive(app.view.but(prompt=prompt.__class__(
        prompt.candidates, prompt.colors, 2, prompt.player, prompt.events)))
    press(app, "next")
    assert confirm.other and sent == [], "the row below the candidates is the screen's own"
    press(app, "next")
    assert not confirm.other and sent == ["next"], "the tracker wraps to the first candidate"
    press(app, "previous")  # the fake still shows the last candidate: an ordinary step back
    assert sent == ["next", "previous"] and not confirm.other
    press(app, "confirm")
    assert sent[-1] == "confirm" and isinstance(app.top, ConfirmScreen)


def test_previous_from_the_first_candidate_goes_to_none_of_these():
    app, sent = staged("confirm")
    prompt = app.view.prompt
    app.receive(app.view.but(prompt=prompt.__class__(
        prompt.candidates, prompt.colors, 0, prompt.player, prompt.events)))
    draw(app)
    press(app, "previous")
    assert app.top.other and sent == ["previous"]
    press(app, "confirm")
    assert isinstance(app.top, EntryScreen) and sent == ["previous"], "opens the list, confirms nothing"


def test_a_take_is_entered_in_two_steps_with_the_seat_that_made_it():
    app, sent = staged("entry")
    draw(app)
    entry = app.top
    assert isinstance(entry, EntryScreen)
    view = app.view
    group = next(i for i, g in enumerate(view.moves) if g.source != 0)
    app.action(Action(f"group:{group}", "touch"))
    draw(app)
    assert entry.group == view.moves[group]
    option = len(view.moves[group].options) - 1
    app.action(Action(f"option:{option}", "touch"))
    event, player = entered(sent[-1])
    assert event == view.moves[group].options[option].move
    assert isinstance(event, Take) and player == view.turn
    assert not isinstance(app.top, EntryScreen), "the list closes once the move is sent"


def test_the_list_is_driven_by_three_buttons_alone():
    app, sent = staged("entry")
    draw(app)
    press(app, "confirm")  # the first source, as listed (factories in order)
    entry = app.top
    first = entry.group
    assert first is not None
    assert first.source == min(g.source for g in app.view.moves if g.source), "factories come in order"
    press(app, "next")
    press(app, "confirm")  # the second destination
    event, _player = entered(sent[-1])
    assert event == first.options[1].move


def test_back_steps_out_of_the_destinations_then_closes():
    app, sent = staged("entry-lines")
    draw(app)
    entry = app.top
    assert entry.group is not None
    press(app, "undo")  # Undo is "back" here: nothing is taken back in the tracker
    assert entry.group is None and app.top is entry and sent == []
    app.action(Action("back", "touch"))
    assert app.top is not entry


def test_many_sources_are_paged_with_more():
    app, _sent = staged("entry", players=4)
    canvas = app.draw(pygame.Surface(SIZE))
    listed = {t.action for t in canvas.targets if t.action.startswith("group:")}
    assert "more" in {t.action for t in canvas.targets}
    app.action(Action("more", "touch"))
    canvas = app.draw(pygame.Surface(SIZE))
    following = {t.action for t in canvas.targets if t.action.startswith("group:")}
    assert following and not following & listed


def test_the_list_closes_when_the_tracker_moves_on():
    app, _sent = staged("entry")
    draw(app)
    game, _last = samples.play(2, rounds=2, turns=4)
    app.receive(build_view(game, samples.NAMES[:2]))
    assert not isinstance(app.top, EntryScreen)


def test_a_refill_is_edited_factory_by_factory_starting_from_the_trackers_best_guess():
    app, sent = staged("entry-refill")
    draw(app)
    entry = app.top
    assert app.view.phase == REFILL and entry.factory == 0
    guess = app.view.prompt.events[0]
    assert [tuple(f) for f in entry.refill] == [tuple(f) for f in guess.factories]
    before = entry.refill[0][2]
    app.action(Action("tile:2", "touch"))
    assert entry.refill[0][2] == (before + 1) % 5
    for _press in range(4):
        app.action(Action("tile:2", "touch"))
    assert entry.refill[0][2] == before, "five presses go round the five colours"
    app.action(Action("tile:0", "touch"))
    draw(app)
    app.action(Action("back", "touch"))
    draw(app)
    assert entry.factory is None
    app.action(Action("save", "touch"))
    event, player = entered(sent[-1])
    assert isinstance(event, Refill) and player is None
    assert len(event.factories) == FACTORIES[2]
    assert sorted(event.factories[0]) == sorted(entry.refill[0])
    assert event.factories[1:] == tuple(tuple(sorted(f)) for f in guess.factories[1:])


def test_a_warning_offers_the_list():
    app, _sent = staged("warning")
    draw(app)
    assert isinstance(app.top, WarningScreen)
    app.action(Action("enter", "touch"))
    assert isinstance(app.top, EntryScreen)


def test_an_entered_refill_that_the_bag_cannot_hold_is_refused_by_the_tracker():
    from companion.rules.azul_record import Record
    from companion.tracker import Tracker
    from companion.ui.demo import TrackerReader
    from companion.ui.view import enter_command

    tracker = Tracker(Record(["A", "B"]))
    reader = TrackerReader(tracker)
    results = reader.act(enter_command(Refill(((1, 1, 1, 1),) * 5 + ((1,),))))
    assert [w.code for w in results] == ["refused"] and not tracker.record.events
    good = Game(2).draw_refill(random.Random(3))
    reader.act(enter_command(good))
    assert tracker.record.events == [good] and tracker.warnings == ()
