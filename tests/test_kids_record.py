"""Azul Kids records (`azul-record/1`, game "azul-kids"): reading, writing, replaying and
the `azul-kids-summary/1`, with hand-played games whose results come from the rules."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import kids_record
from companion.rules.errors import RecordError, RulesError
from companion.rules.kids import Fill, KidsState, KidsTake
from companion.rules.kids_board import example_board
from companion.rules.kids_record import KidsRecord, PlayerTake, read, replay, summary, to_json


def board(name: str, side: str, pictures: list[tuple[str, int, list[str]]]) -> dict:
    return {"format": "azul-kids-board/1", "name": name, "side": side,
            "pictures": [{"id": pid, "stars": stars, "fields": [{"shape": s} for s in shapes]}
                         for pid, stars, shapes in pictures]}


TINY = board("Tiny", "master", [("sun", 2, ["square", "square"]), ("moon", 1, ["circle"]),
                                ("star", 3, ["hexagon", "diamond"])])
# Like TINY, but its star also needs a circle, which this game never gives it.
TINY_PLUS = board("Tiny plus", "master", [("sun", 2, ["square", "square"]),
                                          ("moon", 1, ["circle"]),
                                          ("star", 3, ["hexagon", "diamond", "circle"])])
MINI = board("Mini", "apprentice", [("cat", 0, ["square", "square", "hexagon", "circle"])])


def take(player, source, color, picture="-", passed=None):
    body = {"player": player, "from": source, "color": color}
    if picture != "-":
        body["picture"] = picture
        body["passed"] = passed or []
    return {"take": body}


def master_record(seat1_board: dict = TINY_PLUS) -> dict:
    """A whole 2-player master game, played by hand (see the comments for what happens)."""
    return {
        "format": "azul-record/1", "game": "azul-kids", "variant": "master",
        "players": ["Mia", "Leo"],
        "boards": [copy.deepcopy(TINY), copy.deepcopy(seat1_board)],
        "events": [
            {"fill": [["red"] * 5, ["yellow"] * 5, ["green"] * 5, ["blue"] * 5, ["red"] * 5]},
            # 5 reds: Mia's sun takes 2, Leo's sun 2, 1 comes back to Mia and is discarded.
            take(0, 1, "red", "sun", ["sun"]),
            # 5 yellows: Leo's star 1, Mia's star 1, 3 discarded.
            take(1, 2, "yellow", "star", ["star"]),
            # 5 greens: Mia's star completes (3 stars), Leo's star 1 diamond, 3 discarded.
            take(0, 3, "green", "star", ["star"]),
            # 5 blues: Leo's moon, Mia's moon, 3 discarded.
            take(1, 4, "blue", "moon", ["moon"]),
            # 5 reds: no square left anywhere: null, null, all discarded. Bowls empty.
            take(0, 5, "red", None, [None]),
            # The second filling of two: no blue, so Leo's star stays without its circle.
            {"fill": [["red"] * 5, ["yellow"] * 5, ["red"] * 5, ["yellow"] * 5, ["red"] * 5]},
            take(1, 1, "red", None, [None]),
            take(0, 2, "yellow", None, [None]),
            take(1, 3, "red", None, [None]),
            take(0, 4, "yellow", None, [None]),
            take(1, 5, "red", None, [None]),
        ],
    }


def apprentice_record() -> dict:
    return {
        "format": "azul-record/1", "game": "azul-kids", "variant": "apprentice",
        "players": ["Ann", "Bo"],
        "boards": [copy.deepcopy(MINI), copy.deepcopy(MINI)],
        "events": [
            {"fill": [["red", "red", "green", "blue", "yellow"], ["yellow"] * 5, ["green"] * 5,
                      ["blue"] * 5, ["red"] * 5]},
            take(0, 1, "red"),  # Ann: 2 squares; green, blue, yellow to the large bowl
            take(1, "big", "yellow"),  # Bo: hexagon
            take(0, 4, "blue"),  # Ann: circle, Bo: circle, 3 discarded
            take(1, 5, "red"),  # Bo: 2 squares, board full: Bo wins at once
        ],
    }


# --- whole games ----------------------------------------------------------------------


def test_a_hand_played_master_game_gives_the_summary_the_rules_give():
    state = replay(master_record())
    assert summary(state) == {
        "format": "azul-kids-summary/1", "over": True, "winners": [0], "stars": [6, 3],
        "empty_fields": [0, 1], "fills": 2, "stalled": False}
    assert list(summary(state)) == ["format", "over", "winners", "stars", "empty_fields", "fills",
                                    "stalled"]
    data = state.to_dict()
    # red: 25 drawn, 4 on the suns, 21 discarded; yellow 15 drawn, 2 placed; green and blue 5, 2.
    assert data["bag"] == {"red": 5, "yellow": 15, "green": 25, "blue": 25}
    assert data["discarded"] == {"red": 21, "yellow": 13, "green": 3, "blue": 3}
    assert state.complete_pictures(1) == ("sun", "moon")


def test_equal_stars_share_the_victory():
    state = replay(master_record(seat1_board=TINY))
    assert summary(state)["winners"] == [0, 1]
    assert summary(state)["stars"] == [6, 6]


def test_a_hand_played_apprentice_game_ends_when_the_first_board_is_full():
    state = replay(apprentice_record())
    assert summary(state) == {
        "format": "azul-kids-summary/1", "over": True, "winners": [1], "stars": [0, 0],
        "empty_fields": [1, 0], "fills": 1, "stalled": False}
    assert state.to_dict()["discarded"] == {"red": 3, "yellow": 0, "green": 0, "blue": 3}


def test_a_game_in_progress_has_no_winners_yet():
    data = master_record()
    data["events"] = data["events"][:4]
    assert summary(replay(data)) == {
        "format": "azul-kids-summary/1", "over": False, "winners": [], "stars": [5, 2],
        "empty_fields": [1, 2], "fills": 1, "stalled": False}


def test_the_spec_example_header_reads():
    sea = example_board("Sea (example)").to_json()
    data = {"format": "azul-record/1", "game": "azul-kids", "variant": "master",
            "players": ["Mia", "Leo"], "boards": [sea, sea], "events": []}
    record = read(data)
    assert record.players == ("Mia", "Leo")
    assert summary(replay(data)) == {
        "format": "azul-kids-summary/1", "over": False, "winners": [], "stars": [0, 0],
        "empty_fields": [21, 21], "fills": 0, "stalled": False}


# --- reading and writing --------------------------------------------------------------


@pytest.mark.parametrize("make", [master_record, apprentice_record])
def test_a_written_record_reads_back_identical(make):
    data = make()
    record = read(data)
    assert to_json(record) == data
    assert read(json.loads(json.dumps(to_json(record)))) == record


def test_a_master_take_may_leave_out_an_empty_passed():
    data = master_record()
    del data["events"][1]["take"]["passed"]
    data["events"][1]["take"]["picture"] = "moon"
    data["events"][1]["take"]["color"] = "blue"
    data["events"][1]["take"]["from"] = 4
    data["events"] = data["events"][:2]
    data["events"][0]["fill"][3] = ["blue"] + ["red"] * 4
    record = read(data)
    assert record.events[1] == PlayerTake(0, KidsTake(4, "blue", "moon", ()))
    assert to_json(record)["events"][1]["take"]["passed"] == []
    assert replay(data).to_dict()["placed"][0] == {"moon": {"circle": 1}}


def test_record_of_a_played_state():
    state = KidsState("apprentice", read(apprentice_record()).boards)
    for event in read(apprentice_record()).events:
        state.push(event if isinstance(event, Fill) else event.move)
    record = kids_record.record_of(state, ["Ann", "Bo"])
    assert to_json(record) == apprentice_record()
    with pytest.raises(RulesError, match="3 names for 2 seats"):
        kids_record.record_of(state, ["Ann", "Bo", "Cy"])
    with pytest.raises(RulesError, match="did not start at the beginning"):
        kids_record.record_of(KidsState.from_dict(state.to_dict()), ["Ann", "Bo"])


# --- broken headers: index None ---------------------------------------------------------


def header(change):
    data = master_record()
    change(data)
    return data


HEADER_CASES = [
    (lambda d: d.update(format="azul-record/2"), "format must be 'azul-record/1', not 'azul-record/2'"),
    (lambda d: d.update(game="azul"), "game must be 'azul-kids', not 'azul'"),
    (lambda d: d.update(variant="colored"), "variant must be 'apprentice' or 'master', not 'colored'"),
    (lambda d: d.update(players=["Mia"]), "players must be a list of 2 to 4 names"),
    (lambda d: d.update(players=["Mia", "Leo", "A", "B", "C"]), "players must be a list of 2 to 4"),
    (lambda d: d.update(players=["Mia", 3]), "players must be a list of 2 to 4 names"),
    (lambda d: d.update(players="Mia, Leo"), "players must be a list of 2 to 4 names"),
    (lambda d: d.update(boards=[TINY]), "boards must be a list with one board per player (2)"),
    (lambda d: d.pop("boards"), "boards must be a list with one board per player"),
    (lambda d: d["boards"][1]["pictures"][0].update(stars="two"),
     "board 1: picture 'sun': stars must be a whole number 0 or more, not 'two'"),
    (lambda d: d["boards"][0].update(side="apprentice"),
     "board 0: picture 'sun': an apprentice picture has stars 0, not 2"),
    (lambda d: d.update(boards=[MINI, MINI]),
     "board 0 ('Mini') is for the apprentice side, but the record plays the master side"),
    (lambda d: d.update(events={}), "events must be a list"),
    (lambda d: d.update(date="today"), "unknown key 'date'"),
]


@pytest.mark.parametrize(("change", "message"), HEADER_CASES)
def test_a_broken_header_is_rejected_with_no_event_index(change, message):
    with pytest.raises(RecordError) as error:
        replay(header(change))
    assert error.value.index is None
    assert message in str(error.value)


@pytest.mark.parametrize("data", [[], "record", None])
def test_a_record_is_an_object(data):
    with pytest.raises(RecordError, match="a record is a JSON object"):
        read(data)


# --- broken events: the index of the event --------------------------------------------


def event(index, value):
    def change(data):
        data["events"][index] = value
    return change


EVENT_CASES = [
    # form
    (event(3, {"take": {}, "fill": []}), 3, "an event is an object with exactly one key"),
    (event(3, ["take"]), 3, "an event is an object with exactly one key"),
    (event(3, {"refill": []}), 3, "unknown event 'refill' (fill or take)"),
    (event(0, {"fill": "rrrrr"}), 0, "a fill is a list of small bowls"),
    (event(0, {"fill": [["red"] * 5, ["pink"] * 5, [], [], []]}), 0, "unknown colour 'pink'"),
    (event(1, take(0, 1, "red")), 1, "master takes have the keys color, from, picture, player"),
    (event(1, {"take": {"player": 0, "from": 1, "color": "red", "picture": "sun", "to": 2}}), 1,
     "master takes have the keys"),
    (event(1, take(0, 1, "rose", "sun", ["sun"])), 1, "unknown colour 'rose'"),
    (event(1, take("Mia", 1, "red", "sun", ["sun"])), 1, "a take's player is a seat number"),
    (event(1, take(0, "center", "red", "sun", ["sun"])), 1,
     "a take comes from small bowl 1-5 or \"big\", not 'center'"),
    (event(1, take(0, 1, "red", 7, ["sun"])), 1, "picture is a picture id or null, not 7"),
    (event(1, {"take": {"player": 0, "from": 1, "color": "red", "picture": "sun",
                        "passed": "sun"}}), 1, "passed is a list of picture ids or nulls"),
    # rules
    (event(1, take(1, 1, "red", "sun", ["sun"])), 1,
     "player 1 took out of turn; it is player 0's turn"),
    (event(1, take(0, 6, "red", "sun", ["sun"])), 1, "small bowl 1-5 or \"big\", not 6"),
    (event(1, take(0, 2, "red", "sun", ["sun"])), 1, "bowl 2 holds no red tile"),
    (event(2, take(1, 2, "yellow", "star", ["sun"])), 2,
     "seat 0's picture 'sun' has no empty hexagon field, but 'star' has"),
    (event(2, take(1, 2, "yellow", "star", [])), 2, "seat 0 received 4 tiles but passed names"),
    (event(5, take(0, 5, "red", "sun", [None])), 5,
     "seat 0's board has no empty square field, so its choice is null, not 'sun'"),
    (event(2, {"fill": [["red"] * 5] * 5}), 2, "the bowls are filled only when all six are empty"),
    (event(0, {"fill": [["red"] * 5] * 4 + [["red"] * 4]}), 0, "bowl 5 gets 5 tiles, not 4"),
    (event(0, {"fill": [["red"] * 5] * 6}), 0, "lists 5 small bowls, not 6"),
    (event(6, take(1, 1, "red", None, [None])), 6, "the bowls are empty; a fill comes first"),
    (lambda d: d["events"].append({"fill": [["green"] * 5] * 5}), 12, "the game is over"),
    (lambda d: d["events"].append(take(0, 1, "red", None, [None])), 12, "the game is over"),
    (lambda d: d["events"].insert(0, take(0, 1, "red", None, [None])), 0, "a fill comes first"),
]


@pytest.mark.parametrize(("change", "index", "message"), EVENT_CASES)
def test_a_broken_event_is_rejected_naming_its_index_and_the_rule(change, index, message):
    data = master_record()
    change(data)
    with pytest.raises(RecordError) as error:
        replay(data)
    assert error.value.index == index
    assert message in str(error.value)
    assert str(error.value).startswith(f"event {index}: ")


def test_an_apprentice_take_names_no_picture():
    data = apprentice_record()
    data["events"][1] = take(0, 1, "red", None, [])
    with pytest.raises(RecordError) as error:
        replay(data)
    assert error.value.index == 1
    assert "apprentice takes have the keys color, from, player" in str(error.value)


def test_a_stalled_apprentice_game_in_a_record():
    # 120 fields each: neither seat can ever hold all 120 tiles, so the bag runs dry.
    huge = board("Huge", "apprentice", [("all", 0, [s for s in ("square", "hexagon", "diamond",
                                                                  "circle") for _k in range(30)])])
    state = KidsState("apprentice", read({**apprentice_record(), "boards": [huge, huge],
                                          "events": []}).boards)
    rng = random.Random(7)
    while not state.is_over():
        state.push(state.draw_fill(rng) if state.needs_fill else state.generate_legal_moves()[-1])
    data = to_json(kids_record.record_of(state, ["Ann", "Bo"]))
    assert summary(replay(data)) == {
        "format": "azul-kids-summary/1", "over": True, "winners": [], "stars": [0, 0],
        "empty_fields": summary(state)["empty_fields"], "fills": 5, "stalled": True}
    assert sum(summary(state)["empty_fields"]) == 240 - 120 + sum(
        state.to_dict()["discarded"].values())


# --- random legal games ---------------------------------------------------------------

BOARDS = {"apprentice": ["Chameleon (example)", "Turtle (example)"],
          "master": ["Sea (example)", "Garden (example)"]}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["apprentice", "master"]), players=st.integers(2, 4),
       seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 200))
def test_random_games_write_read_back_identical_and_replay_to_the_same_state(
        variant, players, seed, stop):
    rng = random.Random(seed)
    state = KidsState(variant, [example_board(rng.choice(BOARDS[variant])) for _p in range(players)])
    while not state.is_over() and len(state.move_stack) < stop:
        state.push(state.draw_fill(rng) if state.needs_fill else rng.choice(state.generate_legal_moves()))
    names = [f"P{seat}" for seat in range(players)]
    record = kids_record.record_of(state, names)
    text = json.dumps(to_json(record))
    again = read(json.loads(text))
    assert again == record
    assert to_json(again) == to_json(record)
    replayed = replay(json.loads(text))
    assert replayed == state
    assert summary(replayed) == summary(state)
    assert replayed.generate_legal_moves() == state.generate_legal_moves()
    assert isinstance(record, KidsRecord) and len(record.events) == len(state.move_stack)
