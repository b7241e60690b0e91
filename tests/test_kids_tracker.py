"""The Azul Kids tracker: whole games followed from the table, questions when two takes look
alike, warnings for a tile on the wrong shape, undo, and the simulated Kids table."""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.kids_tracker import ACTIONS, Accepted, KidsTracker, Prompt, Warning, canonical
from companion.rules.kids import BIG, COLORS, Fill, KidsState, KidsTake
from companion.rules.kids_board import example_boards
from companion.rules.kids_record import KidsRecord, read, replay, to_json
from companion.sim.kids import KidsNoise, kids_observation, noisy_frames, still_tables, table_of


def boards(side: str, players: int):
    found = [b for b in example_boards() if b.side == side]
    return tuple(found[seat % len(found)] for seat in range(players))


class Sink:
    """A record sink that keeps the events as JSON, as a store would."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.undone = 0

    def append(self, event_json: dict) -> None:
        self.events.append(json.loads(json.dumps(event_json)))

    def undo(self) -> None:
        self.events.pop()
        self.undone += 1


def new_tracker(side: str, players: int, sink=None) -> KidsTracker:
    b = boards(side, players)
    return KidsTracker(KidsRecord(side, tuple(f"P{i}" for i in range(players)), b), sink)


def show(tracker: KidsTracker, observation: dict, frames: int = 3) -> list:
    out = []
    for _frame in range(frames):
        out += tracker.observe(observation)
    return out


def play_whole_game(side: str, players: int, seed: int, noise: KidsNoise | None = None):
    """Bots play a random game; the tracker sees each still table. Returns (tracker, truth)."""
    rng = random.Random(seed)
    sink = Sink()
    tracker = new_tracker(side, players, sink)
    truth = KidsState(side, tracker.game.boards)
    while not truth.is_over():
        event = truth.draw_fill(rng) if truth.needs_fill else rng.choice(truth.generate_legal_moves())
        tables = still_tables(truth, event)
        truth.push(event)
        for table in tables:
            observation = kids_observation(table, truth.boards)
            for frame in [observation] * 3 if noise is None else noisy_frames(observation, noise, rng):
                tracker.observe(frame)
        for _again in range(4 if noise else 0):
            if tracker.game == truth:
                break
            for frame in noisy_frames(kids_observation(tables[-1], truth.boards), noise, rng):
                tracker.observe(frame)
        assert tracker.prompt is None, (event, tracker.prompt)
        assert tracker.game == truth, (event, tracker.warnings)
    return tracker, truth, sink


@pytest.mark.parametrize(
    ("side", "players", "seed"),
    [
        ("apprentice", 2, 1),
        ("apprentice", 3, 2),
        ("apprentice", 4, 3),
        ("master", 2, 4),
        ("master", 3, 5),
        ("master", 4, 6),
    ],
)
def test_follows_whole_games_exactly_from_perfect_observations_without_asking(side, players, seed):
    tracker, truth, sink = play_whole_game(side, players, seed)
    assert tracker.asked == 0
    assert tracker.auto == len(truth.move_stack)
    assert tracker.game.is_over()
    # A bowl's tiles have no order: fills are the same multisets, takes the same takes.
    assert [canonical(e) for e in tracker.game.move_stack] == [canonical(e) for e in truth.move_stack]
    # The sink holds the same game: it reads and replays to the true end.
    stored = to_json(tracker.record)
    stored["events"] = sink.events
    assert replay(read(stored)) == truth
    if side == "master":
        passed = [e for e in truth.move_stack if isinstance(e, KidsTake) and e.passed]
        assert passed, "the game should have had takes whose tiles were passed on"


@pytest.mark.parametrize(("side", "seed"), [("apprentice", 11), ("master", 12)])
def test_follows_a_noisy_camera(side, seed):
    tracker, truth, _sink = play_whole_game(side, 3, seed, KidsNoise())
    assert tracker.game == truth
    assert tracker.asked == 0


def _started(side: str = "apprentice", players: int = 2, seed: int = 1):
    rng = random.Random(seed)
    sink = Sink()
    tracker = new_tracker(side, players, sink)
    truth = KidsState(side, tracker.game.boards)
    fill = truth.draw_fill(rng)
    truth.push(fill)
    show(tracker, kids_observation(truth))
    assert tracker.last == Accepted(canonical(fill), None, True)
    return tracker, truth, sink


def test_fills_are_read_from_the_bowls_and_a_half_filled_tray_is_waited_for():
    rng = random.Random(4)
    tracker = new_tracker("master", 2)
    truth = KidsState("master", tracker.game.boards)
    fill = truth.draw_fill(rng)
    half, full = still_tables(truth, fill)
    assert show(tracker, kids_observation(half, truth.boards)) == []
    assert tracker.record.events == ()
    show(tracker, kids_observation(full, truth.boards))
    assert tracker.record.events == (canonical(fill),)


def test_a_fill_the_bag_cannot_give_is_warned_not_accepted():
    tracker = new_tracker("apprentice", 2)
    state = KidsState("apprentice", tracker.game.boards)
    state.bag = [2, 30, 30, 30]  # a hand-made bag: only 2 red tiles left in it
    tracker.game = state
    seen = copy.deepcopy(kids_observation(state))
    for bowl in seen["bowls"][:5]:
        bowl["tiles"] = {"red": 1, "blue": 4}
    results = show(tracker, seen, 4)
    codes = [r.code for r in results if isinstance(r, Warning)]
    assert codes == ["impossible-fill"]
    assert tracker.record.events == ()


def test_a_take_with_tiles_still_in_hand_is_waited_for_then_accepted():
    # Find a take whose tiles are passed on, and show the table half-way through it.
    for seed in range(40):
        tracker, truth, _sink = _started("apprentice", 2, seed)
        rng = random.Random(seed)
        for _turn in range(30):
            moves = truth.generate_legal_moves()
            passing = [m for m in moves if len([p for p in truth.result(m).placements if p.tiles]) > 1]
            if passing:
                break
            if truth.needs_fill or truth.is_over():
                break
            move = rng.choice(moves)
            tables = still_tables(truth, move)
            truth.push(move)
            show(tracker, kids_observation(tables[-1], truth.boards))
        if passing and tracker.game == truth:
            break
    else:
        pytest.fail("no take with passed tiles found")
    move = passing[0]
    partway, final = still_tables(truth, move)[-2:]
    truth.push(move)
    show(tracker, kids_observation(partway, truth.boards), 6)
    assert tracker.prompt is None and not tracker.warnings
    assert tracker.game != truth  # not yet: the next seat has still to place
    show(tracker, kids_observation(final, truth.boards))
    assert tracker.game == truth
    assert tracker.last.auto


def test_asks_when_two_takes_explain_the_view_equally_and_confirm_picks_one():
    tracker, truth, _sink = _started("apprentice", 2, 5)
    # Two bowls holding the same colour: a hand over the tray hides which one was taken.
    moves = [m for m in truth.generate_legal_moves() if m.source != BIG]
    first, second = next(
        (a, b)
        for a in moves
        for b in moves
        if a.color == b.color and a.source < b.source and truth.result(a).tiles == truth.result(b).tiles
    )
    tables = still_tables(truth, first)
    truth.push(first)
    seen = kids_observation(tables[-1], truth.boards)
    for bowl in seen["bowls"]:
        bowl["occluded"] = True  # the boards show the tiles; the bowls cannot be read
    results = show(tracker, seen, 4)
    prompts = [r for r in results if isinstance(r, Prompt)]
    assert prompts and set(prompts[0].candidates) >= {first, second}
    assert prompts[0].player == 0
    assert tracker.record.events[-1] == tracker.record.events[0]  # nothing accepted, only the fill
    # Next until the true take is highlighted, then Confirm.
    while tracker.prompt.candidates[tracker.prompt.selected] != first:
        tracker.act("next")
    results = tracker.act("confirm")
    assert Accepted(first, 0, False) in results
    assert tracker.asked == 1 and tracker.prompt is None
    assert tracker.game == truth


def test_a_tile_on_the_wrong_shape_is_warned_and_the_take_waits_until_it_is_moved():
    tracker, truth, _sink = _started("apprentice", 2, 7)
    move = next(m for m in truth.generate_legal_moves() if truth.result(m).placements[0].tiles)
    tables = still_tables(truth, move)
    truth.push(move)
    right = kids_observation(tables[-1], truth.boards)
    wrong = copy.deepcopy(right)
    fields = wrong["boards"][0]["pictures"][0]["fields"]
    shapes = [f.shape for f in truth.boards[0].pictures[0].fields]
    # Move one of the taken tiles from its field onto an empty field of another shape.
    taken = next(
        i
        for i, v in enumerate(fields)
        if v == move.color and tables[-1].boards[0][0][i] and not table_of_before(tracker)[0][0][i]
    )
    target = next(i for i, v in enumerate(fields) if v is None and shapes[i] != shapes[taken])
    fields[taken], fields[target] = None, move.color
    results = show(tracker, wrong, 4)
    warnings = [r for r in results if isinstance(r, Warning)]
    assert [w.code for w in warnings] == ["wrong-shape"]
    assert warnings[0].where == {
        "board": 0,
        "picture": truth.boards[0].pictures[0].id,
        "field": target,
        "color": move.color,
    }
    assert len(tracker.record.events) == 1  # the take waits
    show(tracker, right, 3)
    assert tracker.game == truth
    assert tracker.warnings == ()


def table_of_before(tracker: KidsTracker):
    return table_of(tracker.game).boards


def test_undo_takes_the_event_back_through_the_sink_and_then_asks():
    tracker, truth, sink = _started("master", 2, 8)
    move = truth.generate_legal_moves()[0]
    tables = still_tables(truth, move)
    truth.push(move)
    show(tracker, kids_observation(tables[-1], truth.boards))
    assert tracker.game == truth and len(sink.events) == 2
    results = tracker.act("undo")
    assert sink.undone == 1 and len(sink.events) == 1
    assert len(tracker.record.events) == 1
    assert tracker.last is None
    # The table still shows the take: the tracker asks instead of taking it again by itself.
    results += show(tracker, kids_observation(tables[-1], truth.boards))
    assert any(isinstance(r, Prompt) for r in results)
    assert move in tracker.prompt.candidates
    while tracker.prompt.candidates[tracker.prompt.selected] != move:
        tracker.act("next")
    tracker.act("confirm")
    assert tracker.game == truth and len(sink.events) == 2


def test_unreadable_frames_are_warned_and_unknown_actions_refused():
    tracker = new_tracker("apprentice", 3)
    seen = kids_observation(KidsState("apprentice", tracker.game.boards))
    seen["boards"] = seen["boards"][:2]
    results = show(tracker, seen, 2)
    assert [r.code for r in results] == ["unreadable"]
    assert "2" in results[0].message and "3" in results[0].message
    tracker.observe({"format": "nonsense"})
    assert [w.code for w in tracker.warnings] == ["unreadable"]
    with pytest.raises(ValueError, match="unknown action"):
        tracker.act("jump")
    assert set(ACTIONS) == {"confirm", "next", "previous", "undo", "menu"}


def test_occluded_frames_are_ignored():
    tracker = new_tracker("apprentice", 2)
    truth = KidsState("apprentice", tracker.game.boards)
    truth.push(truth.draw_fill(random.Random(1)))
    hand = kids_observation(truth)
    hand["occluded"] = True
    show(tracker, hand, 5)
    assert tracker.record.events == ()


# --- the simulated table ---------------------------------------------------------


def test_true_observation_follows_the_spec():
    state = KidsState("master", boards("master", 3))
    state.push(state.draw_fill(random.Random(2)))
    move = state.generate_legal_moves()[0]
    state.push(move)
    seen = kids_observation(state)
    assert seen["format"] == "azul-kids-observation/1"
    assert [b["board"] for b in seen["boards"]] == [b.name for b in state.boards]
    assert [b["bowl"] for b in seen["bowls"]] == [1, 2, 3, 4, 5, BIG]
    # Seat 0 nearest the bottom edge; bowl 1 too.
    assert max(seen["boards"], key=lambda b: b["center"][1]) is seen["boards"][0]
    assert max(seen["bowls"][:5], key=lambda b: b["center"][1]) is seen["bowls"][0]
    on_boards = sum(1 for b in seen["boards"] for p in b["pictures"] for v in p["fields"] if v)
    assert on_boards == sum(n for seat in state.placed for p in seat for n in p)
    assert table_of(state).big == tuple(state.big)


def test_still_tables_end_with_the_engine_state_and_a_fill_is_laid_out_in_two_steps():
    state = KidsState("apprentice", boards("apprentice", 2))
    fill = state.draw_fill(random.Random(3))
    tables = still_tables(state, fill)
    after = state.copy()
    after.push(fill)
    assert len(tables) == 2 and tables[-1] == table_of(after)
    assert sum(map(sum, tables[0].bowls)) == 10
    assert state.move_stack == []  # the state it was given is unchanged


def test_noisy_frames_keep_a_majority_of_true_readings():
    state = KidsState("master", boards("master", 2))
    state.push(state.draw_fill(random.Random(3)))
    true = kids_observation(state)
    frames = noisy_frames(true, KidsNoise(unknown=0.2, misread=0.1, hand=1.0), random.Random(5))
    assert frames[0]["occluded"]
    readable = [f for f in frames if not f["occluded"]]
    assert len(readable) == 3
    values = [v for f in readable for b in f["boards"] for p in b["pictures"] for v in p["fields"]]
    assert "unknown" in values


def test_a_fill_event_in_a_prompt_is_confirmed_like_a_take():
    tracker = new_tracker("apprentice", 2)
    truth = KidsState("apprentice", tracker.game.boards)
    fill = canonical(truth.draw_fill(random.Random(9)))
    truth.push(fill)
    show(tracker, kids_observation(truth))
    tracker.act("undo")
    results = show(tracker, kids_observation(truth))
    assert tracker.prompt is not None and tracker.prompt.candidates == (fill,)
    assert tracker.prompt.player is None
    assert any(isinstance(r, Prompt) for r in results)
    assert Accepted(fill, None, False) in tracker.act("confirm")
    assert isinstance(tracker.record.events[0], Fill)


# --- entered by hand ("none of these") ------------------------------------------------


def test_enter_records_what_a_person_says_happened_asked_or_not():
    tracker, truth, sink = _started("master", 3, 21)
    move = truth.generate_legal_moves()[-1]
    truth.push(move)
    results = tracker.enter(move)  # the camera saw nothing of it
    assert results[0] == Accepted(move, 0, False)
    assert tracker.game == truth and tracker.asked == 1 and tracker.auto == 1
    assert sink.events[-1]["take"]["player"] == 0 and sink.events[-1]["take"]["picture"] == move.picture


def test_enter_refuses_what_cannot_have_happened_and_changes_nothing():
    tracker, truth, sink = _started("apprentice", 2, 22)
    bowl, color = next((n, c) for n in range(1, 6) for i, c in enumerate(COLORS) if not truth.bowls[n - 1][i])
    refused = [
        KidsTake(bowl, color),  # a colour that bowl does not hold
        KidsTake("big", "red"),  # the big bowl is still empty
        Fill((("red",) * 5,) * 5),  # a fill while the bowls hold tiles
        KidsTake(1, "purple"),  # no such colour
    ]
    for event in refused:
        results = tracker.enter(event)
        assert [w.code for w in results] == ["refused"], event
        assert "cannot have happened" in results[0].message
        assert tracker.game == truth and len(sink.events) == 1 and tracker.asked == 0


def test_an_entered_fill_is_checked_against_the_bag_and_written_in_colour_order():
    tracker = new_tracker("apprentice", 2)
    fill = Fill((("blue", "red", "red", "green", "yellow"),) * 5)
    assert tracker.enter(fill)[0] == Accepted(canonical(fill), None, False)
    assert tracker.record.events == (canonical(fill),)
    reds = new_tracker("apprentice", 2)
    assert isinstance(reds.enter(Fill((("red",) * 5,) * 5))[0], Accepted)  # 25 reds: the bag has 30
    again = new_tracker("apprentice", 2)
    too_many = Fill((("red",) * 5,) * 4 + ((),))
    assert [w.code for w in again.enter(too_many)] == ["refused"]  # bowl 5 gets 5 tiles, not 0


def test_nothing_may_be_entered_after_the_end():
    tracker, truth, _sink = play_whole_game("apprentice", 2, 1)
    moves = [KidsTake(n, c) for n in range(1, 6) for c in ("red", "blue")]
    assert all([w.code for w in tracker.enter(m)] == ["refused"] for m in moves)
    assert tracker.game == truth


class FailingSink(Sink):
    """A sink on a full disk: nothing can be stored or taken back."""

    def append(self, event_json: dict) -> None:
        raise OSError("No space left on device")

    def undo(self) -> None:
        raise OSError("No space left on device")


def test_the_record_never_holds_an_event_the_sink_did_not_take():
    tracker, truth, sink = _started("apprentice", 2, 23)
    move = truth.generate_legal_moves()[0]
    tracker.sink = FailingSink()
    with pytest.raises(OSError):
        tracker.enter(move)
    assert len(tracker.record.events) == 1 and tracker.game.move_stack == tracker.game.move_stack[:1]
    with pytest.raises(OSError):
        tracker.act("undo")
    assert len(tracker.record.events) == 1, "an undo the sink refused leaves the record as it was"
    tracker.sink = sink
    tracker.enter(move)
    assert len(sink.events) == 2 and len(tracker.record.events) == 2


def test_a_game_kept_in_a_store_survives_the_tracker_and_resumes_from_current_json(tmp_path):
    from companion.session import KIDS, resume_game, start_kids_game
    from companion.store import GameStore

    rng = random.Random(31)
    b = boards("master", 3)
    store = GameStore(tmp_path)
    record = start_kids_game(store, ("A", "B", "C"), "master", b)
    tracker = KidsTracker(record, store)
    truth = KidsState("master", b)
    for half in (0, 1):
        while not truth.is_over() and (half or len(truth.move_stack) < 12):
            event = truth.draw_fill(rng) if truth.needs_fill else rng.choice(truth.generate_legal_moves())
            tables = still_tables(truth, event)
            truth.push(event)
            for table in tables:
                show(tracker, kids_observation(table, truth.boards))
            assert tracker.game == truth
        if not half:
            tracker.act("undo")  # through the store: current.json loses the last event at once
            assert len(GameStore(tmp_path).resume().events) == 11
            tracker.enter(truth.move_stack[-1])
            # The companion stops here (no close): a new one resumes from current.json.
            resumption = resume_game(GameStore(tmp_path), KIDS)
            assert resumption.record == tracker.record
            store = GameStore(tmp_path)
            store.resume()
            tracker = KidsTracker(resumption.record, store)
            assert tracker.game == truth
    assert tracker.game.is_over()
    assert read(store.record()) == tracker.record
