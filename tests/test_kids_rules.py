"""Azul Kids rules (RULES.md section 3): every rule and ruling from explicit fills, then
random legal games checking the engine's promises."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import kids
from companion.rules.errors import IllegalMoveError, InvalidRefillError, RulesError
from companion.rules.kids import BIG, Fill, KidsState, KidsTake
from companion.rules.kids_board import KidsBoard, example_board

LETTERS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
LETTER_OF = {v: k for k, v in LETTERS.items()}


def make_board(side: str, pictures: dict[str, tuple[int, str]]) -> KidsBoard:
    """A board from {id: (stars, shapes as letters)}: s square, h hexagon, d diamond, c circle."""
    shapes = {"s": "square", "h": "hexagon", "d": "diamond", "c": "circle"}
    return KidsBoard.from_json({
        "format": "azul-kids-board/1", "name": "test", "side": side,
        "pictures": [{"id": pid, "stars": stars, "fields": [{"shape": shapes[k]} for k in letters]}
                     for pid, (stars, letters) in pictures.items()]})


def apprentice(letters: str) -> KidsBoard:
    return make_board("apprentice", {"picture": (0, letters)})


def F(*bowls: str) -> Fill:
    """A fill from bowls written as letters: F("rrgby", "yyyyy", ...)."""
    return Fill(tuple(tuple(LETTERS[k] for k in bowl) for bowl in bowls))


STANDARD_FILL = F("rrgby", "yyyyy", "ggggg", "bbbbb", "rrrrr")
ONE_COLOUR_FILL = F("rrrrr", "yyyyy", "ggggg", "bbbbb", "rrrrr")
MIXED_FILL = F("rrrrr", "yyyyy", "ggggg", "bbbbb", "rrygb")  # 7 red, 6 of the others


def counts(tiles: list[str]) -> str:
    """Tiles as sorted letters, for comparing bowls."""
    return "".join(sorted(LETTER_OF[t] for t in tiles))


def bowls(state: KidsState) -> list[str]:
    data = state.to_dict()
    return [counts(b) for b in data["bowls"]]


def big(state: KidsState) -> str:
    return counts(state.to_dict()["big"])


def empty_all_bowls(state: KidsState) -> None:
    """Take the first legal move until every bowl is empty (what is taken does not matter)."""
    while not state.bowls_empty():
        state.push(state.generate_legal_moves()[0])


def state_with(state: KidsState, **changes: object) -> KidsState:
    """``state`` with some of its ``to_dict`` entries replaced."""
    data = state.to_dict()
    data.update(changes)
    return KidsState.from_dict(data)


# --- setting up -------------------------------------------------------------------


def test_a_new_game_starts_with_a_fill_due_and_120_tiles_in_the_bag():
    state = KidsState("apprentice", [apprentice("shdc")] * 2)
    assert state.needs_fill
    assert state.fill_sizes() == (5, 5, 5, 5, 5)
    assert state.tiles_in_play() == [30, 30, 30, 30]
    assert state.to_dict()["bag"] == {"red": 30, "yellow": 30, "green": 30, "blue": 30}
    assert state.generate_legal_moves() == []
    assert state.turn == 0


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(RulesError, match=f"2 to 4 players, not {players}"):
        KidsState("apprentice", [apprentice("s")] * players)


def test_all_players_use_the_same_side():
    master = make_board("master", {"a": (1, "s")})
    with pytest.raises(RulesError, match="seat 1's board 'test' is for the master side"):
        KidsState("apprentice", [apprentice("s"), master])
    with pytest.raises(RulesError, match="unknown variant 'expert'"):
        KidsState("expert", [master, master])


def test_colours_go_with_shapes():
    assert kids.SHAPE_OF == {"red": "square", "yellow": "hexagon", "green": "diamond",
                             "blue": "circle"}


# --- taking -------------------------------------------------------------------------


def test_taking_from_a_small_bowl_sends_the_rest_to_the_large_bowl():
    state = KidsState("apprentice", [apprentice("ssssshhhhh"), apprentice("ssssshhhhh")])
    state.push(STANDARD_FILL)
    result = state.push(KidsTake(1, "red"))
    assert result.tiles == 2
    assert bowls(state) == ["", "yyyyy", "ggggg", "bbbbb", "rrrrr"]
    assert big(state) == "bgy"
    assert state.empty_fields(0)["square"] == 3
    assert state.turn == 1


def test_taking_from_the_large_bowl_takes_only_that_colour_and_costs_nothing():
    state = KidsState("apprentice", [apprentice("ssssshhhhh"), apprentice("ssssshhhhh")])
    state.push(STANDARD_FILL)
    state.push(KidsTake(1, "red"))
    state.push(KidsTake(BIG, "yellow"))
    assert big(state) == "bg"
    assert bowls(state) == ["", "yyyyy", "ggggg", "bbbbb", "rrrrr"]
    assert state.empty_fields(1) == {"square": 5, "hexagon": 4, "diamond": 0, "circle": 0}
    assert state.turn == 0


def test_taking_is_possible_even_when_nothing_fits_and_then_everything_is_discarded():
    state = KidsState("apprentice", [apprentice("h"), apprentice("h")])
    state.push(STANDARD_FILL)
    assert KidsTake(5, "red") in state.legal_moves
    result = state.push(KidsTake(5, "red"))
    assert result.discarded == 5
    assert state.to_dict()["discarded"]["red"] == 5


def test_apprentice_legal_moves_are_every_colour_of_every_bowl():
    state = KidsState("apprentice", [apprentice("s"), apprentice("s")])
    state.push(STANDARD_FILL)
    assert set(state.legal_moves) == {
        KidsTake(1, "red"), KidsTake(1, "green"), KidsTake(1, "blue"), KidsTake(1, "yellow"),
        KidsTake(2, "yellow"), KidsTake(3, "green"), KidsTake(4, "blue"), KidsTake(5, "red")}
    assert len(state.legal_moves) == 8
    state.push(KidsTake(1, "green"))
    assert set(state.legal_moves) == {
        KidsTake(2, "yellow"), KidsTake(3, "green"), KidsTake(4, "blue"), KidsTake(5, "red"),
        KidsTake(BIG, "red"), KidsTake(BIG, "blue"), KidsTake(BIG, "yellow")}


@pytest.mark.parametrize(("move", "reason"), [
    (KidsTake(2, "red"), "bowl 2 holds no red tile"),
    (KidsTake(BIG, "red"), "the large bowl holds no red tile"),
    (KidsTake(0, "red"), "small bowl 1-5 or \"big\", not 0"),
    (KidsTake(6, "red"), "small bowl 1-5 or \"big\", not 6"),
    (KidsTake(True, "red"), "small bowl 1-5 or \"big\", not True"),
    (KidsTake("center", "red"), "not 'center'"),
    (KidsTake(1, "purple"), "unknown colour 'purple'"),
    (KidsTake(1, "red", "picture"), "a take names no picture"),
    (KidsTake(1, "red", None, (None,)), "a take names no picture"),
])
def test_illegal_takes_are_refused_quoting_the_move_and_the_reason(move, reason):
    state = KidsState("apprentice", [apprentice("s"), apprentice("s")])
    state.push(STANDARD_FILL)
    before = state.to_dict()
    with pytest.raises(IllegalMoveError) as error:
        state.push(move)
    assert str(move) in str(error.value)
    assert reason in str(error.value)
    assert move not in state.legal_moves
    assert state.to_dict() == before  # a refused move changes nothing


def test_a_move_quotes_itself_as_record_json():
    assert str(KidsTake(3, "red")) == '{"from": 3, "color": "red"}'
    assert str(KidsTake(BIG, "blue", "whale", ["fish", None])) == (
        '{"from": "big", "color": "blue", "picture": "whale", "passed": ["fish", null]}')
    assert KidsTake(1, "red", "a", ["b"]) == KidsTake(1, "red", "a", ("b",))


# --- placing and passing round the table ------------------------------------------


def test_tiles_go_only_on_fields_of_their_shape():
    state = KidsState("apprentice", [apprentice("shhdc"), apprentice("ssssss")])
    state.push(ONE_COLOUR_FILL)
    state.push(KidsTake(2, "yellow"))  # 5 hexagons: seat 0 has 2 hexagon fields
    assert state.empty_fields(0) == {"square": 1, "hexagon": 0, "diamond": 1, "circle": 1}
    assert state.empty_fields(1) == {"square": 6, "hexagon": 0, "diamond": 0, "circle": 0}
    assert state.to_dict()["discarded"]["yellow"] == 3


def test_leftovers_go_round_the_table_and_what_comes_back_is_discarded():
    # Seat 0 has room for 1 square, seat 1 for none, seat 2 for 1: of 5 reds, 2 are placed
    # (seat 1 passes everything on) and 3 come back to seat 0 and leave the game.
    boards = [apprentice("sc"), apprentice("hc"), apprentice("sc")]
    state = KidsState("apprentice", boards)
    state.push(ONE_COLOUR_FILL)
    result = state.push(KidsTake(1, "red"))
    assert [(p.seat, p.tiles) for p in result.placements] == [(0, 1), (1, 0), (2, 1)]
    assert result.discarded == 3
    assert state.to_dict()["discarded"] == {"red": 3, "yellow": 0, "green": 0, "blue": 0}
    assert state.empty_fields(2)["square"] == 0
    assert state.tiles_in_play() == [30, 30, 30, 30]


def test_passing_starts_at_the_seat_after_the_taker_and_wraps_round():
    boards = [apprentice("ssc"), apprentice("ssc"), apprentice("sc")]
    state = KidsState("apprentice", boards)
    state.push(ONE_COLOUR_FILL)
    state.push(KidsTake(2, "yellow"))  # nobody has hexagons: 5 discarded
    state.push(KidsTake(3, "green"))
    result = state.push(KidsTake(1, "red"))  # seat 2 takes 5 reds: 1 for it, 2 for seat 0, 2 for 1
    assert [(p.seat, p.tiles) for p in result.placements] == [(2, 1), (0, 2), (1, 2)]
    assert result.discarded == 0
    assert state.turn == 0


def test_leftovers_passed_on_stop_when_all_are_placed():
    state = KidsState("apprentice", [apprentice("sssssc"), apprentice("sc"), apprentice("sc")])
    state.push(ONE_COLOUR_FILL)
    result = state.push(KidsTake(1, "red"))
    assert [(p.seat, p.tiles) for p in result.placements] == [(0, 5)]
    assert state.empty_fields(1)["square"] == 1


def test_discarded_tiles_never_return_to_the_bag():
    state = KidsState("apprentice", [apprentice("c"), apprentice("c")])
    state.push(ONE_COLOUR_FILL)
    state.push(KidsTake(1, "red"))
    assert state.to_dict()["bag"]["red"] == 20
    assert state.to_dict()["discarded"]["red"] == 5


# --- fills ------------------------------------------------------------------------


def test_no_fill_while_any_bowl_holds_tiles_even_only_the_large_one():
    board = apprentice("s" * 20 + "h" * 7)
    state = KidsState("apprentice", [board, board])
    state.push(F("rrrrr", "rrrrr", "rrrrr", "rrrry", "yyyyy"))
    for source in (1, 2, 3, 4, 5):
        state.push(KidsTake(source, "red" if source < 5 else "yellow"))
    assert bowls(state) == ["", "", "", "", ""]
    assert big(state) == "y"
    assert not state.needs_fill
    with pytest.raises(InvalidRefillError, match="filled only when all six are empty"):
        state.push(ONE_COLOUR_FILL)
    state.push(KidsTake(BIG, "yellow"))
    assert state.needs_fill
    assert state.generate_legal_moves() == []
    with pytest.raises(IllegalMoveError, match="a fill comes first"):
        state.push(KidsTake(1, "red"))
    state.push(ONE_COLOUR_FILL)
    assert state.fills == 2


def test_a_fill_does_not_change_whose_turn_it_is():
    state = KidsState("apprentice", [apprentice("s" * 30), apprentice("s" * 30)])
    state.push(F("rrrrr", "rrrrr", "rrrrr", "rrrrr", "rrrrr"))
    for source in (1, 2, 3, 4, 5):
        state.push(KidsTake(source, "red"))
    assert state.turn == 1  # seat 0 took last
    state.push(F("yyyyy", "ggggg", "bbbbb", "yyyyy", "ggggg"))
    assert state.turn == 1


@pytest.mark.parametrize(("fill", "reason"), [
    (F("rrrr", "yyyyy", "ggggg", "bbbbb", "rrrrr"), "bowl 1 gets 5 tiles, not 4"),
    (F("rrrrrr", "yyyy", "ggggg", "bbbbb", "rrrrr"), "bowl 1 gets 5 tiles, not 6"),
    (F("rrrrr", "yyyyy", "ggggg", "bbbbb"), "lists 5 small bowls, not 4"),
    (F("rrrrr", "rrrrr", "rrrrr", "rrrrr", "rrrrr", "rrrrr"), "lists 5 small bowls, not 6"),
    (Fill((("red",) * 5, ("pink",) * 5, ("red",) * 5, ("red",) * 5, ("red",) * 5)),
     "unknown colour 'pink' in bowl 2"),
    (F("rrrrr", "rrrrr", "rrrrr", "rrrrr", "rrrrr"), None),
])
def test_a_fill_puts_exactly_five_tiles_in_each_bowl(fill, reason):
    state = KidsState("apprentice", [apprentice("s"), apprentice("s")])
    if reason is None:
        state.push(fill)
        assert bowls(state) == ["rrrrr"] * 5
        assert state.to_dict()["bag"]["red"] == 5
        return
    with pytest.raises(InvalidRefillError) as error:
        state.push(fill)
    assert reason in str(error.value)
    assert str(fill) in str(error.value)
    assert state.needs_fill


def test_a_fill_cannot_take_more_of_a_colour_than_the_bag_holds():
    start = KidsState("apprentice", [apprentice("s"), apprentice("s")])
    # 28 reds elsewhere (discarded): the bag holds 2 reds and 90 others.
    state = state_with(start, bag={"red": 2, "yellow": 30, "green": 30, "blue": 30},
                       discarded={"red": 28, "yellow": 0, "green": 0, "blue": 0})
    with pytest.raises(InvalidRefillError, match="3 red tiles, but the bag holds only 2"):
        state.push(F("rryyy", "ryyyy", "ggggg", "bbbbb", "bbbbb"))
    state.push(F("rryyy", "gyyyy", "ggggg", "bbbbb", "bbbbb"))


@pytest.mark.parametrize(("in_bag", "sizes"), [
    (25, (5, 5, 5, 5, 5)),
    (24, (5, 5, 5, 5, 4)),
    (20, (5, 5, 5, 5, 0)),
    (12, (5, 5, 2, 0, 0)),
    (3, (3, 0, 0, 0, 0)),
])
def test_a_short_bag_fills_the_bowls_in_order_five_each_and_the_last_gets_the_rest(in_bag, sizes):
    start = KidsState("apprentice", [apprentice("h"), apprentice("h")])
    reds = min(in_bag, 30)
    state = state_with(start, bag={"red": reds, "yellow": 0, "green": 0, "blue": 0},
                       discarded={"red": 30 - reds, "yellow": 30, "green": 30, "blue": 30})
    assert state.needs_fill
    assert state.fill_sizes() == sizes
    wrong = tuple(("red",) * n for n in sorted(sizes))  # the same tiles, smallest bowl first
    if wrong != tuple(("red",) * n for n in sizes):
        with pytest.raises(InvalidRefillError, match="5 each in order and the last the rest"):
            state.push(Fill(wrong))
    state.push(Fill(tuple(("red",) * n for n in sizes)))
    assert state.to_dict()["bag"]["red"] == 0


def test_the_bag_is_never_refilled_an_apprentice_game_runs_dry_after_five_fills():
    # Each board has all 120 fields. Seat 1 takes every other turn and keeps what it takes,
    # so seat 0 can never fill its board: whatever is taken, the tiles run out first.
    huge = apprentice("s" * 30 + "h" * 30 + "d" * 30 + "c" * 30)
    state = KidsState("apprentice", [huge, huge])
    sizes = []

    class First:  # always the first tile of the bag: red first, then yellow, ...
        def randrange(self, stop: int) -> int:
            return 0

    for _turn in range(1000):
        if state.is_over():
            break
        if state.needs_fill:
            sizes.append(state.fill_sizes())
            state.push(state.draw_fill(First()))
        else:
            state.push(state.generate_legal_moves()[0])
    assert sizes == [(5, 5, 5, 5, 5)] * 4 + [(5, 5, 5, 5, 0)]
    assert state.is_over() and state.stalled
    assert state.fills == 5
    assert not state.needs_fill
    assert state.generate_legal_moves() == []
    assert state.outcome() == kids.KidsOutcome((), (0, 0), True)
    assert sum(state.to_dict()["bag"].values()) == 0


def test_draw_fill_uses_only_the_callers_randrange():
    calls = []

    class Last:
        def randrange(self, stop: int) -> int:
            calls.append(stop)
            return stop - 1  # always the last tile: blue while there is blue

    state = KidsState("master", [example_board("Sea (example)")] * 2)
    fill = state.draw_fill(Last())
    assert fill == F("bbbbb", "bbbbb", "bbbbb", "bbbbb", "bbbbb")
    assert calls == list(range(120, 95, -1))
    state.push(fill)
    with pytest.raises(IllegalMoveError, match="no fill is due"):
        state.draw_fill(Last())


# --- apprentice end -----------------------------------------------------------------


def test_apprentice_first_full_board_wins_at_once():
    state = KidsState("apprentice", [apprentice("ssh"), apprentice("ssh")])
    state.push(STANDARD_FILL)
    state.push(KidsTake(2, "yellow"))  # seat 0: hexagon, 4 yellows to seat 1: 1 fits, 3 discarded
    state.push(KidsTake(3, "green"))  # seat 1: no diamonds anywhere, all discarded
    assert not state.is_over()
    result = state.push(KidsTake(5, "red"))  # seat 0: 2 squares, board full
    assert result.winner == 0
    assert state.is_over()
    assert state.outcome() == kids.KidsOutcome((0,), (0, 0), False)
    # The game ends at once: the 3 reds still in hand are not passed to seat 1.
    assert result.placements == (kids.Placement(0, 0, 2),)
    assert result.discarded == 3
    assert state.empty_fields(1)["square"] == 2
    assert state.generate_legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.push(KidsTake(1, "red"))
    assert state.tiles_in_play() == [30, 30, 30, 30]


def test_apprentice_board_filled_by_passed_tiles_wins_for_its_owner():
    state = KidsState("apprentice", [apprentice("hc"), apprentice("ss"), apprentice("ss")])
    state.push(ONE_COLOUR_FILL)
    result = state.push(KidsTake(1, "red"))  # seat 0 has no squares: seat 1 fills its board
    assert result.winner == 1
    assert result.placements == (kids.Placement(0, None, 0), kids.Placement(1, 0, 2))
    assert result.discarded == 3  # seat 2 gets nothing: the game ended
    assert state.outcome().winners == (1,)


def test_apprentice_stall_when_bag_and_bowls_are_empty_and_nobody_is_full():
    start = KidsState("apprentice", [apprentice("sss"), apprentice("hhh")])
    state = state_with(start, bowls=[["red", "red"], [], [], [], []],
                       bag={"red": 0, "yellow": 0, "green": 0, "blue": 0},
                       discarded={"red": 28, "yellow": 30, "green": 30, "blue": 30})
    assert not state.is_over()
    state.push(KidsTake(1, "red"))
    assert state.is_over()
    assert state.stalled
    assert not state.needs_fill
    assert state.outcome() == kids.KidsOutcome((), (0, 0), True)
    assert state.empty_fields(0) == {"square": 1, "hexagon": 0, "diamond": 0, "circle": 0}
    assert state.empty_fields(1) == {"square": 0, "hexagon": 3, "diamond": 0, "circle": 0}


# --- master -------------------------------------------------------------------------

SEA = {"whale": (4, "ccsd"), "fish": (2, "cs"), "starfish": (1, "h")}


def test_master_places_on_one_picture_and_passes_the_rest_not_onto_another_picture():
    state = KidsState("master", [make_board("master", SEA)] * 2)
    state.push(ONE_COLOUR_FILL)
    result = state.push(KidsTake(4, "blue", "fish", ("whale",)))
    # Seat 0 puts 1 circle on the fish; the whale's 2 circles stay empty, the other 4 go to
    # seat 1, whose whale takes 2; 2 come back to seat 0 and are discarded.
    assert result.placements == (kids.Placement(0, 1, 1), kids.Placement(1, 0, 2))
    assert result.discarded == 2
    assert [p.empty["circle"] for p in state.pictures(0)] == [2, 0, 0]
    assert [p.empty["circle"] for p in state.pictures(1)] == [0, 1, 0]


def test_master_legal_moves_list_every_choice_of_every_receiver():
    duo = make_board("master", {"a": (1, "c"), "b": (2, "cc")})
    state = KidsState("master", [duo, duo])
    state.push(F("bbrrr", "yyyyy", "yyyyy", "yyyyy", "yyyyy"))
    blue = {m for m in state.legal_moves if m.color == "blue"}
    # 2 blues: picture b holds both (nothing passed); picture a holds 1 and seat 1 chooses.
    assert blue == {KidsTake(1, "blue", "b"), KidsTake(1, "blue", "a", ("a",)),
                    KidsTake(1, "blue", "a", ("b",))}
    assert {m for m in state.legal_moves if m.source == 1 and m.color == "red"} == {
        KidsTake(1, "red", None, (None,))}
    assert {m for m in state.legal_moves if m.source == 2} == {KidsTake(2, "yellow", None, (None,))}
    assert len(state.legal_moves) == 3 + 1 + 4


def test_master_five_tiles_round_two_players():
    duo = make_board("master", {"a": (1, "c"), "b": (2, "cc")})
    state = KidsState("master", [duo, duo])
    state.push(F("bbbbb", "yyyyy", "yyyyy", "yyyyy", "yyyyy"))
    assert {m for m in state.legal_moves if m.color == "blue"} == {
        KidsTake(1, "blue", p, (q,)) for p in "ab" for q in "ab"}
    result = state.push(KidsTake(1, "blue", "b", ("a",)))
    assert result.placements == (kids.Placement(0, 1, 2), kids.Placement(1, 0, 1))
    assert result.discarded == 2


@pytest.mark.parametrize(("move", "reason"), [
    (KidsTake(4, "blue", "starfish", ("whale",)),
     "seat 0's picture 'starfish' has no empty circle field, but 'whale', 'fish' have"),
    (KidsTake(4, "blue", None, ("whale",)),
     "seat 0 must choose a picture: 'whale', 'fish' have an empty circle field"),
    (KidsTake(4, "blue", "shark", ("whale",)), "seat 0's board has no picture 'shark'"),
    (KidsTake(4, "blue", "fish"), "seat 1 received 4 tiles but passed names no picture"),
    (KidsTake(4, "blue", "fish", ("whale", "whale")),
     "2 players received tiles, but picture and passed name 3 choices"),
    (KidsTake(4, "blue", "fish", (3,)), "named by its id (a text) or null, not 3"),
    (KidsTake(2, "yellow", "starfish", ("starfish",)),
     "seat 0's board has no empty hexagon field, so its choice is null, not 'starfish'"),
])
def test_master_picture_choices_follow_the_rules(move, reason):
    no_hexagon = make_board("master", {"whale": (4, "ccsd"), "fish": (2, "cs"), "starfish": (1, "s")})
    state = KidsState("master", [no_hexagon, make_board("master", SEA)])
    state.push(ONE_COLOUR_FILL)
    with pytest.raises(IllegalMoveError) as error:
        state.push(move)
    assert reason in str(error.value)
    assert str(move) in str(error.value)
    assert not state.is_legal(move)


def test_master_null_when_a_board_has_no_empty_field_of_that_shape_and_tiles_go_on():
    three = [make_board("master", SEA), make_board("master", {"tree": (3, "sdd")}),
             make_board("master", SEA)]
    state = KidsState("master", three)
    state.push(ONE_COLOUR_FILL)
    result = state.push(KidsTake(4, "blue", "fish", (None, "whale")))
    assert result.placements == (kids.Placement(0, 1, 1), kids.Placement(1, None, 0),
                                 kids.Placement(2, 0, 2))
    assert result.discarded == 2


def test_master_tiles_that_come_back_are_discarded_even_with_room_elsewhere():
    state = KidsState("master", [make_board("master", SEA), make_board("master", {"tree": (3, "s")})])
    state.push(ONE_COLOUR_FILL)
    result = state.push(KidsTake(4, "blue", "fish", (None,)))
    assert result.discarded == 4
    assert state.pictures(0)[0].empty["circle"] == 2  # the whale got none of them


def _master_until_over(players: int) -> tuple[KidsState, list[int]]:
    state = KidsState("master", [make_board("master", SEA)] * players)
    fills_seen = []
    while not state.is_over():
        assert state.needs_fill
        state.push(MIXED_FILL)
        fills_seen.append(state.fills)
        empty_all_bowls(state)
    return state, fills_seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_master_bowls_are_filled_as_many_times_as_there_are_players(players):
    state, fills_seen = _master_until_over(players)
    assert fills_seen == list(range(1, players + 1))  # the first filling counts
    assert state.fills == players
    assert not state.needs_fill
    assert state.to_dict()["bag"]["red"] == 30 - 7 * players
    with pytest.raises(InvalidRefillError, match="the game is over"):
        state.push(F("yyyyy", "yyyyy", "", "", ""))


def test_master_scores_complete_pictures_only_and_most_stars_wins():
    state = KidsState("master", [make_board("master", SEA)] * 2)
    state.push(F("rrrrr", "yyyyy", "gyyyy", "bbbbb", "rrrrr"))
    state.push(KidsTake(2, "yellow", "starfish", ("starfish",)))  # both starfish, 3 discarded
    state.push(KidsTake(4, "blue", "whale", ("whale",)))  # seat 1 whale cc, seat 0 whale cc
    state.push(KidsTake(1, "red", "whale", ("whale",)))  # whale squares for both
    state.push(KidsTake(3, "green", "whale"))  # the one green: seat 1's whale is complete
    assert state.complete_pictures(0) == ("starfish",)
    assert state.complete_pictures(1) == ("whale", "starfish")
    assert (state.stars(0), state.stars(1)) == (1, 5)
    state.push(KidsTake(5, "red", "fish", ("fish",)))  # fish squares for both
    state.push(KidsTake(BIG, "yellow", None, (None,)))  # no hexagon field left anywhere
    assert state.outcome() is None  # one filling of two so far
    assert state.needs_fill
    state.push(F("bbbbb", "yyyyy", "yyyyy", "yyyyy", "yyyyy"))
    state.push(KidsTake(1, "blue", "fish", ("fish",)))  # both fish complete
    empty_all_bowls(state)
    assert state.is_over()
    views = state.pictures(0)
    assert [v.complete for v in views] == [False, True, True]
    assert views[0].filled == (True, True, True, False)  # whale: circle, circle, square, diamond
    assert state.outcome() == kids.KidsOutcome((1,), (2 + 1, 4 + 2 + 1), False)
    assert not state.outcome().shared


def test_master_tie_shares_the_victory():
    board = make_board("master", {"sun": (2, "s"), "moon": (2, "c")})
    state = KidsState("master", [board, board])
    state.push(F("rrrrr", "bbbbb", "yyyyy", "yyyyy", "yyyyy"))
    state.push(KidsTake(1, "red", "sun", ("sun",)))
    state.push(KidsTake(2, "blue", "moon", ("moon",)))
    empty_all_bowls(state)
    state.push(F("ggggg", "ggggg", "ggggg", "ggggg", "ggggg"))
    empty_all_bowls(state)
    assert state.outcome() == kids.KidsOutcome((0, 1), (4, 4), False)
    assert state.outcome().shared


def test_master_game_over_with_nobody_complete_is_a_tie_at_zero():
    board = make_board("master", {"sun": (2, "ss")})
    state = KidsState("master", [board, board])
    for letter in "yg":
        state.push(F(*[letter * 5] * 5))
        empty_all_bowls(state)
    assert state.outcome() == kids.KidsOutcome((0, 1), (0, 0), False)


# --- what the display reads -------------------------------------------------------


def test_picture_views_empty_fields_and_stars_for_the_display():
    state = KidsState("master", [make_board("master", SEA)] * 2)
    state.push(ONE_COLOUR_FILL)
    state.push(KidsTake(1, "red", "whale", ("fish",)))
    whale, fish, starfish = state.pictures(0)
    assert (whale.id, whale.stars, whale.shapes) == ("whale", 4, ("circle", "circle", "square",
                                                                   "diamond"))
    assert whale.filled == (False, False, True, False)
    assert whale.empty == {"square": 0, "hexagon": 0, "diamond": 1, "circle": 2}
    assert not whale.complete and not fish.complete and not starfish.complete
    assert state.empty_fields(0) == {"square": 1, "hexagon": 1, "diamond": 1, "circle": 3}
    assert state.empty_fields(1) == {"square": 1, "hexagon": 1, "diamond": 1, "circle": 3}
    assert state.pictures(1)[1].filled == (False, True)


# --- undo, copy, JSON -------------------------------------------------------------


def test_pop_undoes_takes_and_fills():
    state = KidsState("master", [make_board("master", SEA)] * 2)
    fresh = state.to_dict()
    state.push(ONE_COLOUR_FILL)
    filled = state.to_dict()
    state.push(KidsTake(4, "blue", "fish", ("whale",)))
    assert state.pop() == KidsTake(4, "blue", "fish", ("whale",))
    assert state.to_dict() == filled
    assert state.pop() == ONE_COLOUR_FILL
    assert state.to_dict() == fresh
    with pytest.raises(IndexError):
        state.pop()


def test_copy_is_independent():
    state = KidsState("apprentice", [apprentice("ss"), apprentice("ss")])
    state.push(ONE_COLOUR_FILL)
    copy = state.copy()
    copy.push(KidsTake(1, "red"))
    assert copy != state
    assert bowls(state)[0] == "rrrrr"
    assert state.empty_fields(0)["square"] == 2
    assert copy.move_stack == [ONE_COLOUR_FILL, KidsTake(1, "red")]
    assert state.move_stack == [ONE_COLOUR_FILL]


def test_state_json_round_trip():
    state = KidsState("master", [make_board("master", SEA), example_board("Garden (example)")])
    state.push(ONE_COLOUR_FILL)
    state.push(KidsTake(4, "blue", "fish", ("flower",)))
    data = state.to_dict()
    assert data["placed"][0] == {"fish": {"circle": 1}}
    assert data["placed"][1] == {"flower": {"circle": 2}}
    again = KidsState.from_dict(data)
    assert again == state
    assert again.to_dict() == data
    assert again.generate_legal_moves() == state.generate_legal_moves()


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "azul-state/1"}, "not an azul-kids-state/1 object"),
    ({"turn": 2}, "turn must be a seat 0-1, not 2"),
    ({"fills": -1}, "fills must be a whole number 0 or more"),
    ({"bag": {"red": 30, "yellow": 30, "green": 30, "blue": 29}}, "29 blue tiles in the state"),
    ({"bag": {"red": 30, "yellow": 30, "green": 30}}, "bag must give a count"),
    ({"bowls": [[], [], [], []]}, "bowls must be a list of 5 bowls"),
    ({"bowls": [["red"] * 6, [], [], [], []]}, "a small bowl holds at most 5 tiles"),
    ({"big": ["purple"]}, "a bowl is a list of colours"),
    ({"placed": [{"shark": {"circle": 1}}, {}]}, "seat 0 has no picture 'shark'"),
    ({"placed": [{"fish": {"circle": 2}}, {}]}, "picture 'fish' cannot hold 2 circle tiles"),
    ({"placed": [{}]}, "one entry per seat"),
    ({"variant": "apprentice"}, "is for the master side"),
])
def test_state_from_dict_names_the_problem(change, message):
    data = KidsState("master", [make_board("master", SEA)] * 2).to_dict()
    data.update(change)
    with pytest.raises(RulesError) as error:
        KidsState.from_dict(data)
    assert message in str(error.value)


def test_state_from_dict_lacking_a_key():
    data = KidsState("master", [make_board("master", SEA)] * 2).to_dict()
    del data["discarded"]
    with pytest.raises(RulesError, match="lacks 'discarded'"):
        KidsState.from_dict(data)


# --- random legal games ----------------------------------------------------------

BOARDS = {"apprentice": ["Chameleon (example)", "Turtle (example)"],
          "master": ["Sea (example)", "Garden (example)"]}


def candidate_moves(state: KidsState, rng) -> list[KidsTake]:
    """Legal and illegal takes alike: every source and colour with a sample of choices."""
    pictures: list[str | None] = [None, "nonsense"]
    for board in state.boards:
        pictures.extend(p.id for p in board.pictures)
    moves = []
    for source, color in itertools.product([0, 1, 2, 3, 4, 5, 6, BIG], kids.COLORS):
        moves.append(KidsTake(source, color))
        for _k in range(3):
            passed = tuple(rng.choice(pictures) for _i in range(rng.randrange(4)))
            moves.append(KidsTake(source, color, rng.choice(pictures), passed))
    return moves


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["apprentice", "master"]), players=st.integers(2, 4),
       seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_keep_the_engines_promises(variant, players, seed):
    rng = random.Random(seed)
    names = [rng.choice(BOARDS[variant]) for _seat in range(players)]
    state = KidsState(variant, [example_board(name) for name in names])
    for _event in range(500):  # a game is far shorter: each take empties some of a bowl
        assert state.tiles_in_play() == [30, 30, 30, 30]
        legal = state.generate_legal_moves()
        assert bool(legal) == (not state.is_over() and not state.needs_fill)
        if state.is_over():
            break
        if state.needs_fill:
            state.push(state.draw_fill(rng))
            continue
        assert len(set(legal)) == len(legal)
        for move in rng.sample(legal, min(len(legal), 20)):
            trial = state.copy()
            trial.push(move)
            assert trial.tiles_in_play() == [30, 30, 30, 30]
        listed = set(legal)
        for move in candidate_moves(state, rng):
            if move in listed:
                continue
            with pytest.raises(IllegalMoveError):
                state.copy().push(move)
        before = state.to_dict()
        state.push(rng.choice(legal))
        undone = state.copy()
        undone.pop()
        assert undone.to_dict() == before
    assert state.is_over()
    assert KidsState.from_dict(state.to_dict()) == state
    outcome = state.outcome()
    if variant == "master":
        assert state.fills == players
        assert outcome.winners and not outcome.stalled
        assert all(outcome.stars[w] == max(outcome.stars) for w in outcome.winners)
    else:
        full = [seat for seat in range(players) if state.is_full(seat)]
        assert list(outcome.winners) == full
        assert outcome.stalled == (not full)
