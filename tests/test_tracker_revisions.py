"""The tracker on views that are not yet stable, refills read in part, and revisions stored at once."""

from __future__ import annotations

import random

from companion.rules.azul import CENTER, FLOOR, Game, Refill, Take
from companion.rules.azul_record import Record, replay
from companion.sim.table import random_layout, table_observation
from companion.tracker import Accepted, Tracker
from companion.tracking.evidence import FactoryEvidence
from companion.tracking.frame import FactoryReading
from tests.test_tracker import Sink, misread_refill_start, show, started


class RewritingSink:
    """A sink that rewrites the events from an index in one go, as companion.store does."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.calls: list[str] = []

    def append(self, event_json: dict) -> None:
        self.calls.append("append")
        self.events.append(event_json)

    def undo(self) -> None:
        self.calls.append("undo")
        self.events.pop()

    def replace_from(self, index: int, events: list[dict]) -> None:
        self.calls.append(f"replace_from {index} {len(events)}")
        self.events[index:] = events


def test_a_move_is_taken_once_a_second_view_shows_it() -> None:
    tracker, game, layout, _sink = started()
    move = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
    game.push(move)
    obs = table_observation(game, layout=layout)
    # Two of three frames show the move: the first view of it may still mix two still states.
    assert show(tracker, obs, 2) == []
    assert show(tracker, obs, 1) == [Accepted(move, 0, True)]


def test_a_factory_taken_from_before_it_was_read_in_full_starts_the_round_and_is_corrected() -> None:
    layout = random_layout(2, random.Random(5))
    game = Game(2)
    sink = RewritingSink()
    tracker = Tracker(Record(["Ann", "Bo"]), sink)
    show(tracker, table_observation(game, layout=layout))
    game.push(game.draw_refill(random.Random(5)))
    obs = table_observation(game, layout=layout)
    # Factory 2: one tile unread in every frame of the refill, then the factory is taken.
    obs["factories"][1]["tiles"].pop()
    obs["factories"][1]["unknown"] = 1
    assert not [r for r in show(tracker, obs, 4) if isinstance(r, Accepted)]
    color = max(game.factories[1], key=lambda c: game.factories[1][c])
    game.push(Take(2, color, FLOOR))
    show(tracker, table_observation(game, layout=layout), 4)
    assert tracker.game == game  # the round began with this take, and the refill fits it
    assert sink.events == tracker.record.to_json()["events"]


def test_a_revised_refill_is_stored_in_one_rewrite_when_the_sink_can() -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start()
    sink = tracker.sink = RewritingSink()
    sink.events = tracker.record.to_json()["events"]
    game.push(Take(number + 1, color, game.factories[number][color]))
    show(tracker, table_observation(game, layout=layout))
    assert tracker.revised == 1 and tracker.game == game
    assert sink.calls == ["replace_from 0 1", "append"]
    assert sink.events == tracker.record.to_json()["events"]


def test_readings_with_unread_tiles_still_say_which_tiles_are_there() -> None:
    evidence = FactoryEvidence(2)
    seen = FactoryReading((0.0, 0.0), (2, 0, 1, 0, 0), 1, 1.0)  # blue, blue, red and one unread
    for _frame in range(3):
        evidence.add([seen, None], [4, 4])
    evidence.close()
    assert evidence.tally(0) == {}  # never read in full
    assert evidence.surely(0) == (2, 0, 1, 0, 0)
    assert evidence.guessed(0, 4) == 1 and evidence.guessed(1, 4) == 4
    assert evidence.completions(0, 4) == {(3, 0, 1, 0, 0), (2, 1, 1, 0, 0), (2, 0, 2, 0, 0),
                                          (2, 0, 1, 1, 0), (2, 0, 1, 0, 1)}
    evidence.add([FactoryReading((0.0, 0.0), (2, 0, 2, 0, 0), 0, 1.0), None], [4, 4])
    assert evidence.guessed(0, 4) == 0  # read in full once


def test_two_turns_seen_at_once_are_asked_about_when_the_first_came_from_the_centre() -> None:
    blue, yellow, red, black, white = range(5)
    refill = Refill(((yellow, yellow, yellow, blue), (blue, yellow, red, white), (black, black, black, blue),
                     (white,) * 4, (red,) * 4))
    record = Record(["Ann", "Bo"])
    record.append(refill)
    for seat, move in ((0, Take(1, yellow, 3)), (1, Take(CENTER, blue, 1)), (0, Take(3, black, 4)),
                       (1, Take(4, white, 4))):
        record.append(move, seat)
    game = replay(record)
    assert dict(game.center) == {blue: 1}
    tracker = Tracker(record, Sink())
    layout = random_layout(2, random.Random(3))
    show(tracker, table_observation(game, layout=layout))
    # Ann takes the centre's one blue tile, Bo the yellow of factory 2 (its blue goes to the
    # centre): the table looks almost as if Ann had taken factory 2's blue.
    first, second = Take(CENTER, blue, 2), Take(2, yellow, 2)
    game.push(first)
    game.push(second)
    results = show(tracker, table_observation(game, layout=layout), 4)
    assert not [r for r in results if isinstance(r, Accepted)]
    assert tracker.prompt is not None and first in tracker.prompt.candidates
    tracker.answer(first)
    assert tracker.game == game  # Bo's move then follows from the view
