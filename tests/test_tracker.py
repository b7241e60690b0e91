"""The tracker: frames in, accepted events, questions and warnings out."""

from __future__ import annotations

import copy
import random

import pytest

from companion.rules.azul import BLUE, CENTER, COLORS, FLOOR, RED, YELLOW, Game, Place, Refill, Take
from companion.rules.azul_record import Record, apply_event, replay
from companion.sim.noise import LEVELS, game_stream
from companion.sim.table import random_layout, still_states, table_observation
from companion.tracker import ACTIONS, Accepted, Prompt, Tracker, Warning
from companion.tracking.consensus import Consensus
from companion.tracking.frame import EMPTY, BoardReading


class Sink:
    def __init__(self) -> None:
        self.events: list[dict] = []

    def append(self, event_json: dict) -> None:
        self.events.append(event_json)

    def undo(self) -> None:
        self.events.pop()


def show(tracker: Tracker, obs: dict, frames: int = 3) -> list:
    out = []
    for _i in range(frames):
        out += tracker.observe(copy.deepcopy(obs))
    return out


def started(players: int = 2, seed: int = 1, variant: str = "colored"):
    """A tracker that has accepted the first refill, the game and the layout it sees."""
    layout = random_layout(players, random.Random(seed))
    game = Game(players, variant)
    sink = Sink()
    tracker = Tracker(Record(["Ann", "Bo", "Cy", "Di"][:players], variant), sink)
    show(tracker, table_observation(game, layout=layout))
    refill = game.draw_refill(random.Random(seed))
    game.push(refill)
    results = show(tracker, table_observation(game, layout=layout))
    assert [r for r in results if isinstance(r, Accepted)] == [Accepted(
        Refill(tuple(tuple(sorted(f)) for f in refill.factories)), None, True)]
    return tracker, game, layout, sink


def test_a_clear_take_is_accepted_at_once_and_stored() -> None:
    tracker, game, layout, sink = started()
    move = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
    game.push(move)
    results = show(tracker, table_observation(game, layout=layout))
    assert results == [Accepted(move, 0, True)]
    assert tracker.last == Accepted(move, 0, True)
    assert tracker.game == game
    assert sink.events[-1] == {"take": {"player": 0, "from": move.source, "color": tracker.record.to_json()[
        "events"][-1]["take"]["color"], "to": move.line}}
    assert tracker.auto == 2 and tracker.asked == 0


def test_perfect_frames_follow_whole_games_without_asking() -> None:
    for players, variant in ((2, "colored"), (3, "grey"), (4, "colored")):
        played = game_stream(players, variant, 11)
        tracker = Tracker(Record(list(played.record.players), variant))
        for line in played.lines[1:]:
            if "observation" in line:
                tracker.observe(line["observation"])
        assert [b.score for b in tracker.game.boards] == [b.score for b in played.game.boards]
        assert tracker.game.is_over()
        assert tracker.asked == 0
        if variant == "grey":
            # The grey wall's columns were read off the wall, not guessed.
            truth = [e for e in played.record.events if not isinstance(e, Refill | Take)]
            mine = [e for e in tracker.record.events if not isinstance(e, Refill | Take)]
            assert mine == truth


def unreadable_line(obs: dict, seat: int) -> dict:
    obs = copy.deepcopy(obs)
    for line in obs["boards"][seat]["lines"]:
        line["color"] = "unknown"
        line["count"] = None
    obs["boards"][seat]["floor"] = ["unknown"] * 7
    return obs


def test_a_take_seen_exactly_is_accepted_despite_misreads_elsewhere() -> None:
    tracker, game, layout, _sink = started()
    move = next(m for m in game.generate_legal_moves() if m.source != CENTER and m.line != FLOOR)
    game.push(move)
    seen = table_observation(game, layout=layout)
    # Four places the take did not touch read wrong through the whole still state (glare on
    # the other board): more than a clear view leaves unexplained, but the take's own places
    # match exactly and nothing else comes close.
    seen["boards"][1]["floor"][:4] = ["red", "red", "blue", "white"]
    assert show(tracker, seen) == [Accepted(move, 0, True)]
    # A fifth and sixth misread place: that is a question again.
    tracker, game, layout, _sink = started()
    game.push(move)
    seen = table_observation(game, layout=layout)
    seen["boards"][1]["floor"][:6] = ["red", "red", "blue", "white", "yellow", "black"]
    assert [type(r) for r in show(tracker, seen)] == [Prompt]


def test_moves_that_look_alike_are_asked_and_next_confirm_pick_one() -> None:
    tracker, game, layout, _sink = started()
    # The camera cannot read the mover's board: every line for that colour fits.
    move = next(m for m in game.generate_legal_moves() if m.source != CENTER and m.line == 2)
    game.push(move)
    results = show(tracker, unreadable_line(table_observation(game, layout=layout), 0))
    prompts = [r for r in results if isinstance(r, Prompt)]
    assert prompts and not any(isinstance(r, Accepted) for r in results)
    prompt = prompts[-1]
    assert move in prompt.candidates and prompt.player == 0
    assert all(c.source == move.source and c.color == move.color for c in prompt.candidates)
    for _step in range(prompt.candidates.index(move)):
        tracker.act("next")
    assert tracker.act("previous")[0].selected == (prompt.candidates.index(move) - 1) % len(prompt.candidates)
    tracker.act("next")
    results = tracker.act("confirm")
    assert results[0] == Accepted(move, 0, False)
    assert tracker.asked == 1 and tracker.prompt is None
    assert tracker.act("menu") == []


def test_two_factories_with_the_same_tiles_are_told_apart_by_which_is_empty() -> None:
    tracker, game, layout, _sink = started(seed=3)
    # Make two factories identical in the engine and on the table.
    game.factories[1] = dict(game.factories[0])
    tracker.game.factories[1] = dict(tracker.game.factories[0])
    tracker._cache.clear()
    color = next(iter(game.factories[1]))
    move = Take(2, color, FLOOR)
    game.push(move)
    assert show(tracker, table_observation(game, layout=layout)) == [Accepted(move, 0, True)]


def test_undo_takes_back_the_last_event_and_then_asks() -> None:
    tracker, game, layout, sink = started()
    move = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
    game.push(move)
    show(tracker, table_observation(game, layout=layout))
    assert len(tracker.record.events) == 2
    results = tracker.act("undo")
    assert len(tracker.record.events) == 1 and len(sink.events) == 1
    # The table still shows the move: now it is a question, not an automatic accept.
    results += show(tracker, table_observation(game, layout=layout))
    assert not any(isinstance(r, Accepted) for r in results)
    assert tracker.prompt is not None and move in tracker.prompt.candidates
    with pytest.raises(ValueError):
        tracker.act("jump")
    assert set(ACTIONS) == {"confirm", "next", "previous", "undo", "menu"}


def test_resume_from_a_record_mid_round() -> None:
    played = game_stream(2, "colored", 5)
    events, movers = played.record.events, played.record.movers
    cut = 7
    record = Record(list(played.record.players), "colored", events[:cut], movers[:cut])
    tracker = Tracker(record)
    assert tracker.game == replay(Record(list(played.record.players), "colored", events[:cut], movers[:cut]))
    layout = played.layout
    game = replay(record)
    for event, player in zip(events[cut:], movers[cut:], strict=True):
        for state in still_states(game, event):
            show(tracker, table_observation(state, layout=layout))
        apply_event(game, event, player)
    assert tracker.game == played.game


def test_flicker_and_occluded_frames_are_ignored() -> None:
    tracker, game, layout, _sink = started()
    before = table_observation(game, layout=layout)
    move = next(m for m in game.generate_legal_moves() if m.source != CENTER)
    after_game = game.copy()
    after_game.push(move)
    after = table_observation(after_game, layout=layout)
    # One frame of the move among still frames: not a stable view.
    for obs in (after, before, before, after, before):
        assert tracker.observe(copy.deepcopy(obs)) == []
    hand = dict(copy.deepcopy(after), occluded=True)
    for _i in range(5):
        assert tracker.observe(copy.deepcopy(hand)) == []
    assert len(tracker.record.events) == 1


def test_a_tile_the_frames_give_different_colours_is_not_counted() -> None:
    def board(line_4: tuple) -> BoardReading:
        lines = [(EMPTY, 0)] * 5
        lines[3] = line_4
        return BoardReading((0.0, 0.0), tuple(lines), (EMPTY,) * 7, (EMPTY,) * 25, 0.9)

    def line_4(*readings: tuple) -> tuple:
        consensus = Consensus(3)
        for reading in readings:
            consensus.add(([board(reading)], [], None))
        return consensus.view().boards[0].lines[3]

    # An empty line misread blue in one frame and red in the next: no tile at all, not a
    # tile of unknown colour that a take of either colour would fit.
    assert line_4((EMPTY, 0), (BLUE, 1), (RED, 1)) == (None, None)
    # A line whose colour most frames agree on keeps its count through a flicker.
    assert line_4((RED, 2), (YELLOW, 2), (RED, 2)) == (RED, 2)
    assert line_4((RED, 2), (RED, 1), (None, None)) == (RED, None)


def test_one_tile_moved_while_the_centre_is_not_read_is_asked_about() -> None:
    tracker, game, layout, _sink = started(seed=4)
    for _turn in range(2):
        move = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
        game.push(move)
        show(tracker, table_observation(game, layout=layout))
    assert tracker.game == game
    # The last tile of a colour goes from the centre to the floor. The centre is not
    # read and the boards are read with a confidence of 0.8: the one floor place that
    # changed is all the view shows, and that is worth a question.
    move = next(m for m in game.generate_legal_moves()
                if m.source == CENTER and m.line == FLOOR and game.center[m.color] == 1)
    game.push(move)
    seen = table_observation(game, layout=layout)
    del seen["center"]
    for board in seen["boards"]:
        board["confidence"] = 0.8
    prompts = [r for r in show(tracker, seen) if isinstance(r, Prompt)]
    assert prompts and prompts[-1].candidates[0] == move


def test_a_move_out_of_turn_is_reported_and_the_state_kept() -> None:
    tracker, game, layout, _sink = started()
    other = game.copy()
    other.turn = 1
    move = next(m for m in other.generate_legal_moves() if m.line != FLOOR and m.source != CENTER)
    other.push(move)
    results = show(tracker, table_observation(other, layout=layout), 4)
    warnings = [r for r in results if isinstance(r, Warning)]
    assert [w.code for w in warnings] == ["out-of-turn"] and warnings[0].where == {"board": 1}
    assert "Bo" in warnings[0].message
    assert len(tracker.record.events) == 1
    # Put back: the warning goes, nothing was recorded.
    show(tracker, table_observation(game, layout=layout), 4)
    assert tracker.warnings == () and len(tracker.record.events) == 1


def test_tiles_on_a_line_of_another_colour_are_reported() -> None:
    tracker, game, layout, _sink = started(seed=4)
    first = next(m for m in game.generate_legal_moves() if m.line == 3 and m.source != CENTER)
    game.push(first)
    show(tracker, table_observation(game, layout=layout))
    second = next(m for m in game.generate_legal_moves() if m.source != CENTER)
    game.push(second)
    show(tracker, table_observation(game, layout=layout))
    assert len(tracker.record.events) == 3
    # Player 0 puts another colour on line 3, which holds first.color.
    color = next(c for f in game.factories for c in f if c != first.color)
    source = next(n for n, f in enumerate(game.factories, 1) if color in f)
    wrong = game.copy()
    board = wrong.boards[0]
    count = wrong.factories[source - 1][color]
    wrong.push(Take(source, color, FLOOR))
    board.floor = board.floor[:-count] if count else board.floor
    board.line_colors[2] = color
    board.line_counts[2] = min(3, game.boards[0].line_counts[2] + count)
    results = show(tracker, table_observation(wrong, layout=layout), 4)
    assert [r.code for r in results if isinstance(r, Warning)] == ["wrong-line-color"]
    assert tracker.warnings[0].where == {"board": 0, "line": 3}
    assert len(tracker.record.events) == 3
    # A person may override by confirming a legal move instead.
    assert tracker.prompt is not None
    assert isinstance(tracker.act("confirm")[0], Accepted)


def test_tiles_left_behind_are_reported() -> None:
    tracker, game, layout, _sink = started(seed=2)
    move = next(m for m in game.generate_legal_moves()
                if m.source != CENTER and game.factories[m.source - 1][m.color] >= 2 and m.line == FLOOR)
    game.push(move)
    obs = table_observation(game, layout=layout)
    # One tile of the colour stays on the factory and is missing from the floor.
    obs["factories"][move.source - 1]["tiles"] = [COLORS[move.color]]
    floor = obs["boards"][0]["floor"]
    last = max(i for i, v in enumerate(floor) if v is not None)
    floor[last] = None
    results = show(tracker, obs, 4)
    assert [r.code for r in results if isinstance(r, Warning)] == ["tiles-left-behind"]
    assert results[0].where == {"factory": move.source}
    assert len(tracker.record.events) == 1


def test_an_impossible_refill_is_answered_with_the_nearest_draws() -> None:
    layout = random_layout(2, random.Random(1))
    game = Game(2)
    # Late in a game the bag is short of a colour: take out most of the blue.
    game.bag = [2, 20, 20, 20, 20]
    game.lid = [0, 0, 0, 0, 0]
    tracker = Tracker(Record(["Ann", "Bo"]))
    tracker.game = game.copy()
    show(tracker, table_observation(game, layout=layout))
    refill = Refill(((0, 0, 1, 1), (2, 2, 3, 3), (4, 4, 1, 2), (3, 3, 4, 4), (1, 2, 3, 4)))
    shown = game.copy()
    shown.push(refill)
    obs = table_observation(shown, layout=layout)
    obs["factories"][4]["tiles"][0] = "blue"  # a yellow read as blue: 3 blue, the bag has 2
    results = show(tracker, obs, 4)
    prompt = next(r for r in results if isinstance(r, Prompt))
    truth = Refill(tuple(tuple(sorted(f)) for f in refill.factories))
    assert truth in prompt.candidates and prompt.player is None
    assert not any(isinstance(r, Accepted) for r in results)

    hopeless = copy.deepcopy(obs)
    for factory in hopeless["factories"]:
        factory["tiles"] = ["blue"] * 4
    other = Tracker(Record(["Ann", "Bo"]))
    other.game = game.copy()
    show(other, table_observation(game, layout=layout))
    results = show(other, hopeless, 4)
    assert [r.code for r in results if isinstance(r, Warning)] == ["impossible-refill"]


def test_a_bad_frame_is_a_warning_not_a_crash() -> None:
    tracker, _game, _layout, _sink = started()
    results = tracker.observe({"format": "azul-observation/1", "boards": "nope"})
    assert [r.code for r in results] == ["unreadable"]
    assert len(tracker.record.events) == 1


@pytest.mark.parametrize("seed", [1, 2])
def test_noisy_games_end_with_the_true_scores(seed: int) -> None:
    played = game_stream(2, "colored", seed, LEVELS["0.5%"])
    truth = [Refill(tuple(tuple(sorted(f)) for f in e.factories)) if isinstance(e, Refill) else e
             for e in played.record.events]
    tracker = Tracker(Record(list(played.record.players)), Sink())

    def answer(results: list) -> None:
        for r in results:
            if isinstance(r, Prompt):
                want = truth[len(tracker.record.events)]
                if want in r.candidates:
                    while tracker.prompt.candidates[tracker.prompt.selected] != want:
                        tracker.act("next")
                    answer(tracker.act("confirm"))
                    return

    for line in played.lines[1:]:
        if "observation" in line:
            answer(tracker.observe(line["observation"]))
    assert [b.score for b in tracker.game.boards] == [b.score for b in played.game.boards]


def misread_refill_start(seed: int = 1, ask_refills: bool = True):
    """A tracker that accepted a misread (but possible) refill: one tile of the factory with
    most of one colour read as another colour while the refill was on view."""
    layout = random_layout(2, random.Random(seed))
    game = Game(2)
    sink = Sink()
    tracker = Tracker(Record(["Ann", "Bo"]), sink, ask_refills=ask_refills)
    show(tracker, table_observation(game, layout=layout))
    game.push(game.draw_refill(random.Random(seed)))
    number, color = max(((n, c) for n, f in enumerate(game.factories) for c in f),
                        key=lambda nc: game.factories[nc[0]][nc[1]])
    other = next(c for c in range(5) if c not in game.factories[number])
    obs = table_observation(game, layout=layout)
    tiles = obs["factories"][number]["tiles"]
    tiles[tiles.index(COLORS[color])] = COLORS[other]
    results = show(tracker, obs)
    accepted = [r for r in results if isinstance(r, Accepted)]
    assert len(accepted) == 1 and accepted[0].event.factories[number].count(color) == \
        game.factories[number][color] - 1
    return tracker, game, layout, sink, number, color


def true_events(tracker: Tracker, game: Game) -> None:
    """The tracker's record replays to ``game`` and its sink holds the same events."""
    assert tracker.game == game
    assert tracker.sink.events == tracker.record.to_json()["events"]


def test_a_misread_refill_is_corrected_by_the_take_that_empties_the_factory() -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start()
    count = game.factories[number][color]
    move = Take(number + 1, color, count)  # exactly fills the line: the count shows on the board
    game.push(move)
    results = show(tracker, table_observation(game, layout=layout))
    accepted = [r for r in results if isinstance(r, Accepted)]
    assert [a.revised for a in accepted] == [True, False]
    assert accepted[1] == Accepted(move, 0, True)
    assert tracker.revised == 1
    true_events(tracker, game)


def test_a_take_whose_line_count_is_not_read_still_corrects_the_refill() -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start()
    move = Take(number + 1, color, 5)
    game.push(move)
    seen = table_observation(game, layout=layout)
    # The line's colour is read, its count is not: the centre tells which tiles stayed
    # behind, so the rest of the factory went to the line.
    seen["boards"][0]["lines"][4]["count"] = None
    accepted = [r for r in show(tracker, seen) if isinstance(r, Accepted)]
    assert [a.revised for a in accepted] == [True, False]
    assert accepted[1] == Accepted(move, 0, True)
    true_events(tracker, game)


def test_an_untouched_factory_seen_otherwise_in_later_states_corrects_the_refill() -> None:
    tracker, game, layout, _sink, number, _color = misread_refill_start(seed=2)
    for _turn in range(3):
        move = next(m for m in game.generate_legal_moves()
                    if m.source not in (CENTER, number + 1) and m.line == FLOOR)
        game.push(move)
        show(tracker, table_observation(game, layout=layout))
    assert tracker.revised == 1
    assert len(tracker.record.events) == 4
    true_events(tracker, game)


def test_a_take_confirmed_unseen_corrects_the_refill_once_the_table_shows_it() -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start(seed=3)
    count = game.factories[number][color]
    move = Take(number + 1, color, count)
    game.push(move)
    # A person confirms the take while the mover's board and the centre are not read: nothing
    # yet says what the factory held. The table seen afterwards does.
    hidden = unreadable_line(table_observation(game, layout=layout), 0)
    del hidden["center"]
    show(tracker, hidden)
    assert Accepted(move, 0, False) in tracker.enter(move)
    assert tracker.revised == 0
    seen = table_observation(game, layout=layout)
    for state in range(2):
        frame = copy.deepcopy(seen)
        frame["boards"][1]["floor"][6] = "unknown" if state else None
        show(tracker, frame)
        tracker.observe(dict(frame, occluded=True))
    assert tracker.revised == 1
    true_events(tracker, game)


def play(tracker: Tracker, game: Game, layout, move: Take, *, centre_read: bool) -> None:
    """``move`` made and seen (the centre read or not); a question about it is answered."""
    mover = game.turn
    game.push(move)
    seen = table_observation(game, layout=layout)
    if not centre_read:
        del seen["center"]
    show(tracker, seen)
    if tracker.prompt is not None:
        tracker.answer(move, mover)


def glare_states(tracker: Tracker, game: Game, layout, seat: int, count: int) -> list[int]:
    """``count`` still states of the table as it is, each with a new misread on ``seat``'s
    floor; the refill revisions after each."""
    revised = []
    for glare in range(count):
        seen = table_observation(game, layout=layout)
        seen["boards"][seat]["floor"][6] = COLORS[glare]
        show(tracker, seen)
        tracker.observe(dict(seen, occluded=True))
        revised.append(tracker.revised)
    return revised


def test_a_refill_the_table_contradicts_by_a_little_turn_after_turn_is_corrected() -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start(seed=3)
    move = Take(number + 1, color, game.factories[number][color])
    play(tracker, game, layout, move, centre_read=False)
    assert tracker.last == Accepted(move, 0, False)  # asked: the centre was not read
    # From now on the table is read in full but not surely: in each still state the corrected
    # refill fits better, by less than a single state would need. The third state settles it.
    revised = []
    for turn in range(4):
        if turn:
            game.push(next(m for m in game.generate_legal_moves()
                           if m.source not in (CENTER, number + 1) and m.line == FLOOR))
        seen = table_observation(game, layout=layout)
        for board in seen["boards"]:
            board["confidence"] = 0.7
        show(tracker, seen)
        revised.append(tracker.revised)
    assert revised == [0, 0, 1, 1]
    true_events(tracker, game)


def test_states_with_a_move_under_way_do_not_count_towards_a_refill_correction() -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start(seed=3)
    play(tracker, game, layout, Take(number + 1, color, game.factories[number][color]), centre_read=False)

    def still_state(seen: dict, glare: int) -> None:
        seen["boards"][0]["floor"][6] = COLORS[glare]  # a new misread: a new view
        show(tracker, seen)
        tracker.observe(dict(seen, occluded=True))

    still_state(table_observation(game, layout=layout), 0)
    # The next take is on the table but its line is not read: a question stands. Half a move
    # explains the view in many ways, so these states do not speak for the corrected refill,
    # however clearly it leads.
    following = next(m for m in game.generate_legal_moves()
                     if m.source not in (CENTER, number + 1) and m.line == FLOOR)
    game.push(following)
    for glare in range(1, 4):
        still_state(unreadable_line(table_observation(game, layout=layout), 1), glare)
        assert tracker.prompt is not None and tracker.revised == 0
    assert Accepted(following, 1, False) in tracker.answer(following, 1)
    for glare in range(2):
        still_state(table_observation(game, layout=layout), glare)
    assert tracker.revised == 1
    true_events(tracker, game)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_pattern_line_tells_what_its_factory_held_turns_later(seed: int) -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start(seed=seed)
    # The take from the misread factory and the next one are seen with the centre unread:
    # only the first take's pattern line, still on view afterwards, shows the tile more.
    play(tracker, game, layout, Take(number + 1, color, game.factories[number][color]), centre_read=False)
    elsewhere = next(m for m in game.generate_legal_moves()
                     if m.source not in (CENTER, number + 1) and m.line == FLOOR)
    play(tracker, game, layout, elsewhere, centre_read=False)
    assert tracker.revised == 0
    assert glare_states(tracker, game, layout, 1, 3)[-1] == 1
    true_events(tracker, game)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_take_from_the_centre_tells_what_a_factory_sent_there(seed: int) -> None:
    tracker, game, layout, _sink, number, color = misread_refill_start(seed=seed)
    # The misread tile goes to the centre with the factory's leftovers, unseen; the next
    # player takes its colour from the centre and one tile more reaches the line.
    other = next(c for c in game.factories[number] if c != color)
    play(tracker, game, layout, Take(number + 1, other, FLOOR), centre_read=False)
    play(tracker, game, layout, Take(CENTER, color, 5), centre_read=True)
    assert tracker.revised == 0
    assert glare_states(tracker, game, layout, 0, 3)[-1] == 1
    true_events(tracker, game)


def test_offline_a_refill_is_never_asked_about() -> None:
    layout = random_layout(2, random.Random(1))
    game = Game(2)
    game.bag = [2, 20, 20, 20, 20]
    refill = Refill(((0, 0, 1, 1), (2, 2, 3, 3), (4, 4, 1, 2), (3, 3, 4, 4), (1, 2, 3, 4)))
    shown = game.copy()
    shown.push(refill)
    obs = table_observation(shown, layout=layout)
    obs["factories"][4]["tiles"][0] = "blue"  # impossible: 3 blue, the bag has 2
    for ask, asked in ((True, True), (False, False)):
        tracker = Tracker(Record(["Ann", "Bo"]), ask_refills=ask)
        tracker.game = game.copy()
        show(tracker, table_observation(game, layout=layout))
        results = show(tracker, obs, 4)
        assert any(isinstance(r, Prompt) for r in results) is asked
        if not ask:
            # The nearest possible draw is taken, to be corrected by the round's evidence.
            (accepted,) = [r for r in results if isinstance(r, Accepted)]
            assert accepted.auto and tracker.game.phase == "drafting" and tracker.prompt is None


def refilled_unseen(seed: int):
    """A tracker that saw the empty table, and the game once the factories are filled."""
    layout = random_layout(2, random.Random(seed))
    game = Game(2)
    tracker = Tracker(Record(["Ann", "Bo"]), Sink())
    show(tracker, table_observation(game, layout=layout))
    game.push(game.draw_refill(random.Random(seed)))
    return tracker, game, layout


def test_a_factory_never_read_in_full_does_not_stall_the_round() -> None:
    tracker, game, layout = refilled_unseen(5)
    obs = table_observation(game, layout=layout)
    obs["factories"][1]["tiles"].pop()  # one tile missed in every frame of the refill
    results = show(tracker, obs, 12)
    assert not any(isinstance(r, Accepted) for r in results)  # waiting for a full reading...
    results = show(tracker, obs, 20)
    assert any(isinstance(r, Accepted) for r in results)  # ... but not for ever
    assert tracker.game.phase == "drafting"
    # The first take from that factory shows what it held: the refill is corrected.
    color = max(game.factories[1], key=lambda c: game.factories[1][c])
    move = Take(2, color, FLOOR)
    game.push(move)
    show(tracker, table_observation(game, layout=layout), 4)
    assert tracker.game == game


def test_a_take_from_a_factory_read_in_full_only_once_starts_the_round_at_once() -> None:
    tracker, game, layout = refilled_unseen(5)
    full = table_observation(game, layout=layout)
    glare = copy.deepcopy(full)
    glare["factories"][1]["tiles"].pop()  # one tile missed for the rest of the still state
    tracker.observe(copy.deepcopy(full))
    assert not any(isinstance(r, Accepted) for r in show(tracker, glare, 6))
    color = max(game.factories[1], key=lambda c: game.factories[1][c])
    move = Take(2, color, FLOOR)
    game.push(move)
    # The emptied factory says play has begun: the refill is taken at once, and the take
    # while its own still state lasts (a question must come while the turn is on view).
    results = show(tracker, table_observation(game, layout=layout), 4)
    assert [type(r.event) for r in results if isinstance(r, Accepted)][-1] is Take
    assert tracker.game == game


def test_a_turn_whose_still_state_was_missed_is_taken_from_the_next_one() -> None:
    tracker, game, layout, _sink = started(seed=1)
    first = next(m for m in game.generate_legal_moves() if m.source != CENTER and m.line == 2)
    game.push(first)
    second = next(m for m in game.generate_legal_moves()
                  if m.source != CENTER and m.line == 4 and m.color != first.color)
    game.push(second)
    # Only the table after both turns is seen still: the first turn is clear from it (with
    # these factories no other pair of turns leaves a table within three places of it), the
    # second is then judged as any turn.
    results = show(tracker, table_observation(game, layout=layout), 4)
    accepted = [r for r in results if isinstance(r, Accepted)]
    assert accepted == [Accepted(first, 0, True), Accepted(second, 1, True)]
    assert tracker.asked == 0


def test_an_answer_about_the_next_turn_settles_the_turn_asked_about() -> None:
    tracker, game, _layout, _sink = started(seed=7)
    # Two takes the question offers; only one leaves a colour in the centre that the next
    # player then takes: the answer (which names that next turn) tells them apart.
    takes = [m for m in game.generate_legal_moves() if m.source != CENTER and m.line == FLOOR]
    first, other, color = next(
        (a, b, c) for a in takes for b in takes
        for c in set(game.factories[a.source - 1]) - {a.color}
        if b.source != a.source and c not in set(game.factories[b.source - 1]) - {b.color})
    game.push(first)
    later = Take(CENTER, color, FLOOR)
    game.push(later)
    tracker.prompt = Prompt((other, first), 0, 0)
    accepted = [r for r in tracker.answer(later, 1) if isinstance(r, Accepted)]
    assert accepted == [Accepted(first, 0, True), Accepted(later, 1, False)]
    assert tracker.game == game
    # When both turns asked about allow the answer and the table cannot tell them apart
    # (one tile on line 1 or on line 2, neither seen yet), nothing is taken.
    tracker, game, _layout, _sink = started(seed=7)
    source, single = next((n, c) for n, f in enumerate(game.factories, 1) for c, k in f.items() if k == 1)
    tracker.prompt = Prompt((Take(source, single, 1), Take(source, single, 2)), 0, 0)
    third = next(m for m in takes if m.source != source)
    assert tracker.answer(third, 1) == []
    assert len(tracker.record.events) == 1


def test_a_take_whose_close_rivals_differ_only_in_the_line_is_taken_with_a_smaller_lead() -> None:
    tracker, game, layout, _sink = started(seed=7)
    # The mover's single tile is seen on line 5, but the floor is not read and the boards'
    # reading is not sure: line 5 leads the floor by less than MARGIN. Both take the same
    # tile from the same factory, and a later view would put the line right: no question.
    first = next(m for m in game.generate_legal_moves()
                 if m.source != CENTER and m.line == 5 and game.factories[m.source - 1][m.color] == 1)
    game.push(first)
    seen = table_observation(game, layout=layout)
    seen["boards"][1]["floor"][:4] = ["red", "red", "blue", "white"]
    seen["boards"][0]["floor"] = ["unknown"] * 7
    for board in seen["boards"]:
        board["confidence"] = 0.7
    assert [r for r in show(tracker, seen) if isinstance(r, Accepted | Prompt)] == [Accepted(first, 0, True)]


def test_an_answer_about_the_next_placement_settles_one_the_wall_shows() -> None:
    played = game_stream(2, "grey", 3)
    events, movers = played.record.events, played.record.movers
    # A player placing two lines in a row: the question is about the first, the answer
    # names the second.
    cut = next(i for i in range(len(events) - 1) if isinstance(events[i], Place)
               and isinstance(events[i + 1], Place) and events[i + 1].player == events[i].player)
    first, second = events[cut], events[cut + 1]
    table = replay(Record(list(played.record.players), "grey", events[:cut + 2], movers[:cut + 2]))
    free = replay(Record(list(played.record.players), "grey", events[:cut], movers[:cut])).boards[
        first.player].wall[(first.line - 1) * 5:first.line * 5]
    wrong = Place(first.player, first.line, next(c + 1 for c, cell in enumerate(free)
                                                  if cell < 0 and c + 1 != first.column))
    seen = table_observation(table, layout=played.layout)
    # The first line's place is not read: the tracker cannot see that line emptied.
    seen["boards"][first.player]["lines"][first.line - 1] = {"color": "unknown", "count": None}
    for offered, taken in ((wrong, []), (first, [first, second])):
        tracker = Tracker(Record(list(played.record.players), "grey", events[:cut], movers[:cut]), Sink())
        show(tracker, seen)
        tracker.prompt = Prompt((offered,), 0, first.player)
        accepted = [r.event for r in tracker.answer(second, second.player) if isinstance(r, Accepted)]
        # The wall shows the first tile in its true column: a question that offered only
        # another column is not settled by the answer.
        assert accepted[:2] == taken


def test_a_placement_seen_exactly_is_accepted_despite_misreads_elsewhere_on_its_board() -> None:
    played = game_stream(2, "grey", 3)
    events, movers, names = played.record.events, played.record.movers, list(played.record.players)
    cut = next(i for i, e in enumerate(events) if isinstance(e, Place))
    place = events[cut]
    before = replay(Record(names, "grey", events[:cut], movers[:cut]))
    after = replay(Record(names, "grey", events[:cut + 1], movers[:cut + 1]))
    board = before.boards[place.player]
    # Three empty wall cells, in rows with no line waiting to be placed, read as tiles
    # through the whole still state: more than the two places a placement may leave
    # unexplained, but the placed tile and its emptied line are seen exactly.
    quiet = [(r, c) for r in range(5) for c in range(5) if board.line_counts[r] <= r
             and board.wall[r * 5 + c] < 0]
    seen = table_observation(after, layout=played.layout)
    for row, column in quiet[:3]:
        seen["boards"][place.player]["wall"][row][column] = "red"
    tracker = Tracker(Record(names, "grey", events[:cut], movers[:cut]), Sink())
    accepted = [r for r in show(tracker, seen) if isinstance(r, Accepted)]
    assert accepted[:1] == [Accepted(place, place.player, True)]


def test_an_answer_naming_a_placement_settles_the_last_take_the_table_shows() -> None:
    played = game_stream(2, "grey", 1)
    events, movers = played.record.events, played.record.movers
    players = list(played.record.players)
    # The round's last take was asked about only once the wall-tiling had begun: the answer
    # names a placement, which both takes offered allow; the table shows which take it was.
    cut = next(i for i in range(len(events) - 1)
               if isinstance(events[i], Take) and isinstance(events[i + 1], Place))
    last, place = events[cut], events[cut + 1]
    tracker = Tracker(Record(players, "grey", events[:cut], movers[:cut]), Sink())
    other = next(m for m in tracker.game.generate_legal_moves() if isinstance(m, Take)
                 and (m.source, m.color) == (last.source, last.color) and m != last)
    show(tracker, table_observation(replay(Record(players, "grey", events[:cut + 2], movers[:cut + 2])),
                                    layout=played.layout))
    for candidates in ((last, other), (other, last)):
        tracker.prompt = Prompt(candidates, 0, tracker.game.turn)
        accepted = [r.event for r in tracker.answer(place, None) if isinstance(r, Accepted)]
        assert accepted[:2] == [last, place]
        tracker.act("undo")
        tracker.act("undo")


def test_a_table_nothing_fits_is_reported_as_stalled_and_then_followed_again() -> None:
    tracker, game, layout, _sink = started()
    other = game.copy()
    other.turn = 1
    other.push(next(m for m in other.generate_legal_moves() if m.line != FLOOR and m.source != CENTER))
    results = show(tracker, table_observation(other, layout=layout), 50)
    assert "stalled" in [r.code for r in results if isinstance(r, Warning)]
    move = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
    game.push(move)
    results = show(tracker, table_observation(game, layout=layout))
    assert Accepted(move, 0, True) in results and tracker.warnings == ()


def phantom_take(seed: int = 1):
    """A take accepted on a still state that showed its tile on the wrong pattern line."""
    tracker, game, layout, _sink = started(seed=seed)
    move = next(m for m in game.generate_legal_moves()
                if m.source != CENTER and m.line == 1 and game.factories[m.source - 1][m.color] == 1)
    phantom = Take(move.source, move.color, 5)
    seen = game.copy()
    seen.push(phantom)
    game.push(move)
    assert Accepted(phantom, 0, True) in show(tracker, table_observation(seen, layout=layout))
    return tracker, game, layout, move


def test_a_take_the_table_keeps_contradicting_is_replaced_by_the_one_it_shows() -> None:
    tracker, game, layout, move = phantom_take()
    shown = table_observation(game, layout=layout)
    results = []
    for state in range(3):
        # One still state showed the phantom: it takes three that do not to outvote it.
        assert tracker.replaced == 0
        frame = copy.deepcopy(shown)
        frame["boards"][1]["floor"][6] = "unknown" if state % 2 else None  # each reads a little differently
        results += show(tracker, frame)
        tracker.observe(dict(frame, occluded=True))
    assert [r for r in results if isinstance(r, Accepted)] == [Accepted(move, 0, True, revised=True)]
    assert tracker.replaced == 1
    assert tracker.last == Accepted(move, 0, True, revised=True)  # the screen's "last move" is corrected too
    true_events(tracker, game)
    # The game goes on from the corrected state.
    after = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
    game.push(after)
    assert Accepted(after, 1, True) in show(tracker, table_observation(game, layout=layout))
    true_events(tracker, game)


def test_a_take_a_person_confirmed_is_never_replaced() -> None:
    tracker, game, layout, _sink = started()
    move = next(m for m in game.generate_legal_moves()
                if m.source != CENTER and m.line == 1 and game.factories[m.source - 1][m.color] == 1)
    phantom = Take(move.source, move.color, 5)
    assert Accepted(phantom, 0, False) in tracker.enter(phantom)
    game.push(move)
    shown = table_observation(game, layout=layout)
    for state in range(3):
        frame = copy.deepcopy(shown)
        frame["boards"][1]["floor"][6] = "unknown" if state % 2 else None
        show(tracker, frame)
        tracker.observe(dict(frame, occluded=True))
    assert tracker.replaced == 0
    assert tracker.record.events[-1] == phantom


def test_a_move_a_person_enters_that_fits_only_another_earlier_take_replaces_it() -> None:
    tracker, game, layout, _sink = started(seed=4)
    first, second = next((a, b) for a in game.generate_legal_moves() for b in game.generate_legal_moves()
                         if a.source != CENTER and b.source not in (CENTER, a.source) and a.color == b.color
                         and a.line == b.line != FLOOR
                         and game.factories[a.source - 1][a.color] == game.factories[b.source - 1][b.color]
                         and set(game.factories[b.source - 1]) - set(game.factories[a.source - 1]))
    seen = game.copy()
    seen.push(second)  # the still state made the first factory look full and the second empty
    assert Accepted(second, 0, True) in show(tracker, table_observation(seen, layout=layout))
    held = set(game.factories[first.source - 1])
    game.push(first)
    follow = next(m for m in game.generate_legal_moves() if m.source == second.source
                  and m.color not in held and m.line != FLOOR)
    game.push(follow)
    show(tracker, table_observation(game, layout=layout))
    assert tracker.record.events[-1] == second
    results = tracker.enter(follow)  # the second factory is empty as the game stands
    assert [r for r in results if isinstance(r, Accepted)] == [
        Accepted(first, 0, True, revised=True), Accepted(follow, 1, False)]
    assert tracker.replaced == 1
    true_events(tracker, game)


def test_an_answer_to_a_question_the_view_took_back_still_settles_the_turn() -> None:
    tracker, game, layout, _sink = started()
    before = table_observation(game, layout=layout)
    move = next(m for m in game.generate_legal_moves() if m.source != CENTER and m.line == 2)
    game.push(move)
    hidden = unreadable_line(table_observation(game, layout=layout), 0)
    assert any(isinstance(r, Prompt) for r in show(tracker, hidden))
    # The next still state reads as the table before the move (the tiles hidden by a
    # reflection): the question lapses, but the person's answer to it still counts.
    tracker.observe(dict(before, occluded=True))
    show(tracker, before)
    assert tracker.prompt is None
    assert tracker.answer(move, 0)[0] == Accepted(move, 0, False)
    # Once an event is accepted, a lapsed question is forgotten: a stray answer is ignored.
    follow = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
    assert tracker.answer(follow, 1) == []


def test_a_take_under_way_does_not_replace_the_last_one() -> None:
    # Ann's take leaves n tiles of a colour in the centre; Bo takes them. Ann then takes n of
    # that colour from a factory while her board cannot be read: "Bo took them from that
    # factory" explains the emptied factory too, but Ann's take under way explains more.
    for seed in range(1, 40):
        tracker, game, layout, _sink = started(seed=seed)
        found = next(((a, b, c) for a in game.generate_legal_moves() if a.source != CENTER and a.line == FLOOR
                      for c, n in game.factories[a.source - 1].items() if c != a.color
                      for b in range(1, len(game.factories) + 1)
                      if b != a.source and game.factories[b - 1].get(c) == n), None)
        if found is not None:
            break
    first, source, color = found
    game.push(first)
    show(tracker, table_observation(game, layout=layout))
    taken = next(m for m in game.generate_legal_moves() if m.source == CENTER and m.color == color)
    game.push(taken)
    assert Accepted(taken, 1, True) in show(tracker, table_observation(game, layout=layout))
    game.push(next(m for m in game.generate_legal_moves() if m.source == source and m.color == color))
    frame = unreadable_line(table_observation(game, layout=layout), 0)
    for state in range(4):
        frame["boards"][1]["floor"][6] = "unknown" if state % 2 else None
        show(tracker, frame)
        tracker.observe(dict(frame, occluded=True))
    assert tracker.replaced == 0 and tracker.record.events[-1] == taken


def first_placement(shortest: int = 1) -> tuple[Place, Game, dict, Tracker]:
    """A grey-wall game's first placement of a line of ``shortest`` tiles or more: the
    placement, the game and the table after it, and a tracker that followed until then."""
    played = game_stream(2, "grey", 3)
    events, movers, names = played.record.events, played.record.movers, list(played.record.players)
    cut = next(i for i, e in enumerate(events) if isinstance(e, Place) and e.line >= shortest)
    after = replay(Record(names, "grey", events[:cut + 1], movers[:cut + 1]))
    tracker = Tracker(Record(names, "grey", events[:cut], movers[:cut]), Sink())
    return events[cut], after, table_observation(after, layout=played.layout), tracker


def test_a_placement_whose_line_is_not_read_is_taken_from_the_wall_tile_alone() -> None:
    place, _after, seen, tracker = first_placement()
    # Only the tile on the wall shows the placement: every line must be placed before the
    # round ends, so the column is all there is to tell.
    seen["boards"][place.player]["lines"][place.line - 1] = {"color": "unknown", "count": None}
    accepted = [r for r in show(tracker, seen) if isinstance(r, Accepted | Prompt)]
    assert accepted[:1] == [Accepted(place, place.player, True)]


def test_one_place_of_evidence_counts_whatever_the_boards_confidence() -> None:
    place, after, seen, tracker = first_placement(shortest=2)
    # The emptied line is misread as one tile of another colour, as wrong for the full line
    # as for the empty one: only the tile on the wall shows the placement. One place, at a
    # confidence that no float divides exactly.
    placed = after.boards[place.player].wall[(place.line - 1) * 5 + place.column - 1]
    wrong = next(c for c in COLORS if c != COLORS[placed])
    seen["boards"][place.player]["lines"][place.line - 1] = {"color": wrong, "count": 1}
    for board in seen["boards"]:
        board["confidence"] = 0.83
    results = [r for r in show(tracker, seen) if isinstance(r, Accepted | Prompt)]
    assert results[:1] == [Accepted(place, place.player, True)]


def test_one_tile_seen_moved_exactly_is_worth_a_question_despite_misreads_elsewhere() -> None:
    played = game_stream(2, "colored", 1)
    events, movers, names = played.record.events, played.record.movers, list(played.record.players)
    # A single tile from the centre to a line that holds its colour already: the line's count
    # is the one place that shows the take.

    def single(i: int) -> bool:
        take = events[i]
        if not isinstance(take, Take) or take.source != CENTER or take.line == FLOOR:
            return False
        before = replay(Record(names, "colored", events[:i], movers[:i]))
        return (before.center.get(take.color) == 1
                and before.boards[movers[i]].line_colors[take.line - 1] == take.color)

    cut = next(i for i in range(len(events)) if single(i))
    move, mover = events[cut], movers[cut]
    after = replay(Record(names, "colored", events[:cut + 1], movers[:cut + 1]))
    seen = table_observation(after, layout=played.layout)
    del seen["center"]  # not read
    seen["boards"][1 - mover]["floor"][6] = "red"  # glare on the other board
    for board in seen["boards"]:
        board["confidence"] = 0.7
    tracker = Tracker(Record(names, "colored", events[:cut], movers[:cut]), Sink())
    results = [r for r in show(tracker, seen, frames=5) if isinstance(r, Accepted | Prompt)]
    assert results and move in results[0].candidates
