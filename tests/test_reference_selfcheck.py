"""Checks of the reference Azul implementation itself, on small records built by hand.

Every expected number below is worked out from the rules in the comments beside it,
not taken from running the code. Factories made of one colour ("four(c)") keep the
centre empty, so a round's takes are easy to follow.
"""

from __future__ import annotations

import pytest

from tests.reference.azul_reference import Rejected, random_record, replay, tile_points

B, Y, R, K, W = "blue", "yellow", "red", "black", "white"


def four(colour: str) -> list[str]:
    return [colour] * 4


def refill(*factories: list[str]) -> dict:
    return {"refill": [list(factory) for factory in factories]}


def take(player: int, source: int | str, colour: str, to: int | str = "floor") -> dict:
    return {"take": {"player": player, "from": source, "color": colour, "to": to}}


def place(player: int, line: int, column: int) -> dict:
    return {"place": {"player": player, "line": line, "column": column}}


def record(events: list[dict], variant: str = "colored", players: int = 2) -> dict:
    return {
        "format": "azul-record/1",
        "game": "azul",
        "variant": variant,
        "players": [f"Seat{n}" for n in range(players)],
        "events": events,
    }


def rejected_at(events: list[dict], variant: str = "colored", players: int = 2) -> int | None:
    with pytest.raises(Rejected) as caught:
        replay(record(events, variant, players))
    return caught.value.index


# Coloured wall, player 0 builds rows 1, 2 and 4 from the left; player 1 only dumps
# tiles on the floor and stays at 0. The bag is never empty in these four rounds
# (80 of 100 tiles drawn). Printed columns used: row 1 red 3, black 4; row 2 white 1,
# blue 2, yellow 3, red 4; row 4 red 1, black 2, white 3, blue 4.
SCORING_ROUNDS = [
    # Round 1, seat 0 starts. Player 1 takes from the centre first, so starts round 2.
    [
        refill([R, K, K, K], [W, W, K, K], four(R), four(Y), four(B)),
        take(0, 1, R, 1),  # centre: 3 black
        take(1, 4, Y),
        take(0, 2, W, 2),  # centre: 5 black
        take(1, "center", K),
        take(0, 3, R, 4),
        take(1, 5, B),
    ],  # tiling: (1,3) 1, (2,1) 1, (4,1) 1 -> 3
    # Round 2, player 1 starts.
    [
        refill([B, B, Y, Y], [K, Y, Y, Y], four(K), four(W), four(R)),
        take(1, 4, W),
        take(0, 1, B, 2),
        take(1, "center", Y),
        take(0, 2, K, 5),  # line 5: one black, stays incomplete
        take(1, 5, R),
        take(0, 3, K, 4),
        take(1, "center", Y),
    ],  # (2,2) beside (2,1): 2; (4,2) beside (4,1): 2 -> 7
    # Round 3, player 1 starts.
    [
        refill([Y, Y, R, R], [K, R, R, R], four(W), four(B), four(Y)),
        take(1, 4, B),
        take(0, 1, Y, 2),
        take(1, "center", R),
        take(0, 2, K, 5),  # line 5: two black
        take(1, 5, Y),
        take(0, 3, W, 4),
        take(1, "center", R),
    ],  # (2,3): two to the left, one above = 3 + 2 = 5; (4,3): 3 -> 15
    # Round 4, player 1 starts.
    [
        refill([K, W, W, W], [R, R, W, W], four(B), four(Y), four(K)),
        take(1, 4, Y),
        take(0, 1, K, 1),
        take(1, "center", W),
        take(0, 2, R, 2),
        take(1, 5, K),
        take(0, 3, B, 4),
        take(1, "center", W),
    ],  # (1,4) beside (1,3): 2; (2,4): three beside, one above = 4 + 2 = 6; (4,4): 4 -> 27
]
SCORING_EVENTS = [event for round_events in SCORING_ROUNDS for event in round_events]

# Round 5 of the same game: the bag holds exactly the 20 tiles left (red 4, black 4,
# white 5, yellow 1, blue 6), so the refill must be all of them. Player 1 starts.
ROUND_5 = [
    refill(four(R), four(K), four(W), [W, Y, B, B], four(B)),
    take(1, 1, R),
    take(0, 2, K),  # player 0's floor: 4
    take(1, 3, W),
    take(0, 5, B),  # floor full (7), one blue to the lid
    take(1, 4, W),  # centre: yellow, blue, blue
    take(0, "center", Y),  # marker on a full floor: costs nothing; yellow to the lid
    take(1, "center", B),
]  # player 0: no complete line, floor -14: 27 - 14 = 13


def test_seed_scoring_examples() -> None:
    summary = replay(record(SCORING_EVENTS))
    assert summary == {
        "format": "azul-summary/1",
        "scores": [27, 0],
        "winners": [],
        "rounds": 4,
        "round_scores": [[3, 0], [7, 0], [15, 0], [27, 0]],
        "over": False,
    }


@pytest.mark.parametrize(
    ("filled", "points"),
    [
        ([], 1),  # no neighbour
        ([(1, 0), (1, 1), (0, 2)], 5),  # two to the left, one above: 3 + 2
        ([(1, 3), (1, 4), (1, 1), (0, 2)], 6),  # run of four across, one above: 4 + 2
        ([(0, 1), (0, 2)], 2),  # the diagonal tile does not count; vertical run of 2
    ],
)
def test_tile_points_on_a_bare_wall(filled: list[tuple[int, int]], points: int) -> None:
    wall: list[list[str | None]] = [[None] * 5 for _ in range(5)]
    for row, col in filled:
        wall[row][col] = B
    wall[1][2] = Y  # the tile just placed, 0-based row 1 column 2
    assert tile_points(wall, 1, 2) == points


def test_record_may_end_mid_round() -> None:
    events = SCORING_EVENTS[:9]  # round 2 opened, two takes made
    summary = replay(record(events))
    assert summary["rounds"] == 2
    assert summary["round_scores"] == [[3, 0]]
    assert summary["scores"] == [3, 0]
    assert summary["over"] is False


def test_floor_overflow_costs_at_most_14_and_marker_on_full_floor_still_starts() -> None:
    summary = replay(record(SCORING_EVENTS + ROUND_5))
    assert summary["round_scores"][-1] == [13, 0]
    # Round 6: the bag is empty, so every tile comes from the lid. The lid holds all
    # 100 tiles except the 10 on player 0's wall and the 2 black in line 5.
    round_6 = refill(four(B), four(Y), four(R), four(K), four(W))
    events = SCORING_EVENTS + ROUND_5 + [round_6]
    assert replay(record(events))["rounds"] == 6
    # Player 0 took the marker onto a full floor, so player 0 starts round 6.
    assert rejected_at([*events, take(1, 1, B)]) == len(events)
    assert replay(record([*events, take(0, 1, B, 1)]))["scores"] == [13, 0]


def test_refill_from_the_lid_must_draw_everything_it_can() -> None:
    events = SCORING_EVENTS + ROUND_5
    short = refill(four(B), four(Y), four(R), four(K), [])  # 16 drawn, 88 available
    assert rejected_at([*events, short]) == len(events)


# Three players, every take goes to the floor; factories are taken in order by seats
# 0, 1, 2, 0, 1, 2, 0, so seat 0 takes 12 tiles a round: 7 on its floor, 5 overflow to
# the lid. Seat 0's last take of each round is blue, so most blue reach the lid by
# overflow.
DUMP_ROUNDS = [
    [four(R), four(Y), four(K), four(W), four(R), four(Y), four(B)],
    [four(R), four(Y), four(K), four(B), four(R), four(Y), four(B)],
    [four(R), four(Y), four(K), four(K), four(W), four(B), four(B)],
]


def dump_events() -> list[dict]:
    events: list[dict] = []
    for factories in DUMP_ROUNDS:
        events.append(refill(*factories))
        for number, factory in enumerate(factories, start=1):
            events.append(take((number - 1) % 3, number, factory[0]))
    return events


def test_refill_takes_the_rest_of_the_bag_then_the_lid() -> None:
    # After three rounds the bag holds black 4 and white 12; the lid holds the other 84
    # tiles (blue 20: 6 from floors, 14 by overflow). Round 4 needs 28: all 16 from
    # the bag and 12 more from the lid (blue), which only overflow can supply.
    events = dump_events()
    good = refill(four(K), four(W), four(W), four(W), four(B), four(B), four(B))
    summary = replay(record([*events, good], players=3))
    assert summary["rounds"] == 4
    assert summary["round_scores"] == [[0, 0, 0]] * 3
    # Leaving 4 white in the bag while drawing red from the lid is not a possible draw.
    leaves_bag = refill(four(K), four(W), four(W), four(R), four(B), four(B), four(B))
    assert rejected_at([*events, leaves_bag], players=3) == len(events)
    short = refill(four(K), four(W), four(W), four(W), four(B), four(B), [])
    assert rejected_at([*events, short], players=3) == len(events)


def mono_round() -> dict:
    return refill(four(B), four(Y), four(R), four(K), four(W))


def test_tie_broken_by_complete_rows() -> None:
    # Every round: factories blue, yellow, red, black, white; nobody takes from the
    # centre, so seat 0 starts every round. Seat 0 fills wall row 1 left to right
    # (1+2+3+4+5 points) but always has a full floor (-14), so stays at 0, then +2 for
    # the row. Seat 1 dumps (full floor) until round 4: red to line 4 (1 point, 4 on
    # the floor -6 -> 0); round 5: black to line 4 beside it (2 points), yellow to
    # line 5 (4 of 5), empty floor -> 2. Both end with 2; seat 0 has the complete row.
    events = [
        mono_round(), take(0, 1, B, 1), take(1, 2, Y), take(0, 3, R), take(1, 4, K), take(0, 5, W),
        mono_round(), take(0, 2, Y, 1), take(1, 1, B), take(0, 3, R), take(1, 4, K), take(0, 5, W),
        mono_round(), take(0, 3, R, 1), take(1, 1, B), take(0, 2, Y), take(1, 4, K), take(0, 5, W),
        mono_round(), take(0, 4, K, 1), take(1, 3, R, 4), take(0, 1, B), take(1, 2, Y),
        take(0, 5, W),
        mono_round(), take(0, 5, W, 1), take(1, 4, K, 4), take(0, 1, B), take(1, 2, Y, 5),
        take(0, 3, R),
    ]  # fmt: skip
    summary = replay(record(events))
    assert summary == {
        "format": "azul-summary/1",
        "scores": [2, 2],
        "winners": [0],
        "rounds": 5,
        "round_scores": [[0, 0], [0, 0], [0, 0], [0, 0], [0, 2]],
        "over": True,
    }
    # Nothing may follow the end of the game.
    assert rejected_at([*events, mono_round()]) == len(events)


def test_shared_victory() -> None:
    # Both seats fill wall row 1 one tile a round with a full floor every round
    # (seat 1: 3 overflow + 4 = 7 places), so both stay at 0 and end with +2.
    events = [
        mono_round(), take(0, 1, B, 1), take(1, 2, Y, 1), take(0, 3, R), take(1, 4, K), take(0, 5, W),
        mono_round(), take(0, 2, Y, 1), take(1, 3, R, 1), take(0, 1, B), take(1, 4, K), take(0, 5, W),
        mono_round(), take(0, 3, R, 1), take(1, 4, K, 1), take(0, 1, B), take(1, 2, Y), take(0, 5, W),
        mono_round(), take(0, 4, K, 1), take(1, 5, W, 1), take(0, 1, B), take(1, 2, Y), take(0, 3, R),
        mono_round(), take(0, 5, W, 1), take(1, 1, B, 1), take(0, 2, Y), take(1, 3, R), take(0, 4, K),
    ]  # fmt: skip
    summary = replay(record(events))
    assert summary["over"] is True
    assert summary["round_scores"] == [[0, 0]] * 5
    assert summary["scores"] == [2, 2]
    assert summary["winners"] == [0, 1]


# Grey wall, two players. Player 1 dumps and takes the marker each round.
GREY_ROUND_1 = [
    refill([B, K, K, K], [Y, Y, K, K], [W, W, W, K], four(Y), four(R)),
    take(0, 1, B, 1),
    take(1, 4, Y),
    take(0, 2, Y, 2),
    take(1, 5, R),
    take(0, 3, W, 3),
    take(1, "center", K),
]
GREY_PLACES_1 = [place(0, 1, 1), place(0, 2, 2), place(0, 3, 2)]  # 1 + 1 + 2 = 4
GREY_ROUND_2 = [
    refill([B, B, K, K], [R, K, K, K], four(K), four(W), four(Y)),
    take(1, 4, W),
    take(0, 1, B, 2),
    take(1, 5, Y),
    take(0, 2, R, 1),
    take(1, "center", K),
    take(0, 3, K, 4),
]


def test_grey_wall_line_to_floor_when_the_column_has_the_colour() -> None:
    # (1,2) red: left (1,1), below (2,2) and (3,2): 2 + 3 = 5.
    # Line 2 blue at column 1: column 1 already has blue in row 1, so both blue go to
    # the floor (-2) and score nothing. (4,2) black: column run of 4 -> 4.
    # Round 2: 4 + 5 + 4 - 2 = 11.
    places_2 = [place(0, 1, 2), place(0, 2, 1), place(0, 4, 2)]
    events = GREY_ROUND_1 + GREY_PLACES_1 + GREY_ROUND_2 + places_2
    summary = replay(record(events, "grey"))
    assert summary["round_scores"] == [[4, 0], [11, 0]]
    # Row 2 never got its blue: blue may go to line 2 again, but not to line 1.
    round_3 = [mono_round(), take(1, 2, Y)]
    assert replay(record(events + round_3 + [take(0, 1, B, 2)], "grey"))["rounds"] == 3
    assert rejected_at(events + round_3 + [take(0, 1, B, 1)], "grey") == len(events) + 2


def test_grey_wall_placements_are_checked() -> None:
    at = len(GREY_ROUND_1)
    assert rejected_at([*GREY_ROUND_1, place(0, 2, 2)], "grey") == at  # line 1 first
    assert rejected_at([*GREY_ROUND_1, place(0, 4, 1)], "grey") == at  # incomplete line
    assert rejected_at([*GREY_ROUND_1, place(1, 1, 1)], "grey") == at  # seat 1 has none
    assert rejected_at([*GREY_ROUND_1, take(0, 1, B, 1)], "grey") == at  # placing pending
    assert rejected_at([*GREY_ROUND_1, mono_round()], "grey") == at
    before_2 = GREY_ROUND_1 + GREY_PLACES_1 + GREY_ROUND_2
    assert rejected_at([*before_2, place(0, 1, 1)], "grey") == len(before_2)  # cell taken


@pytest.mark.parametrize(
    ("events", "index"),
    [
        ([take(0, 1, R, 1)], 0),  # no refill opens the round
        ([refill(four(B), four(Y), four(R), four(K))], 0),  # 4 factories for 2 players
        ([refill(four(B), four(Y), four(R), four(K), [W, W, W])], 0),  # 19 drawn
        ([refill(four(B), four(Y), four(R), four(K), [W] * 5)], 0),  # 5 on a factory
        ([refill(four(B), four(Y), four(R), four(K), ["green"] * 4)], 0),
        ([*SCORING_ROUNDS[0][:2], mono_round()], 2),  # refill mid-round
        ([SCORING_ROUNDS[0][0], take(1, 1, R, 1)], 1),  # seat 1 out of turn
        ([*SCORING_ROUNDS[0][:2], take(1, 1, K)], 2),  # factory 1 is empty
        ([SCORING_ROUNDS[0][0], take(0, 1, Y)], 1),  # no yellow on factory 1
        ([SCORING_ROUNDS[0][0], take(0, "center", K)], 1),  # centre empty
        ([SCORING_ROUNDS[0][0], take(0, "centre", K)], 1),  # the key is spelled center
        ([SCORING_ROUNDS[0][0], take(0, 6, K)], 1),
        ([SCORING_ROUNDS[0][0], take(0, 1, R, 6)], 1),
        ([SCORING_ROUNDS[0][0], take(2, 1, R, 1)], 1),
        ([SCORING_ROUNDS[0][0], take(0, 1, R, True)], 1),
        ([SCORING_ROUNDS[0][0], place(0, 1, 3)], 1),  # no place events on the printed wall
        ([SCORING_ROUNDS[0][0], {"take": {"player": 0, "from": 1, "color": R}}], 1),
        ([SCORING_ROUNDS[0][0], {"pass": {}}], 1),
        ([SCORING_ROUNDS[0][0], {**take(0, 1, R, 1), **refill()}], 1),
        ([SCORING_ROUNDS[0][0], "take"], 1),
        # seat 0's line 1 is full (one red)
        ([*SCORING_ROUNDS[0][:4], take(1, "center", K, 1), take(0, 3, R, 1)], 5),
        # seat 0's wall row 1 has red since round 1
        ([*SCORING_EVENTS, ROUND_5[0], take(1, 2, K), take(0, 1, R, 1)], len(SCORING_EVENTS) + 2),
        # seat 0's line 5 holds black
        ([*SCORING_EVENTS, ROUND_5[0], take(1, 1, R), take(0, 5, B, 5)], len(SCORING_EVENTS) + 2),
    ],
)
def test_broken_rules_name_the_event(events: list[dict], index: int) -> None:
    assert rejected_at(events) == index


@pytest.mark.parametrize(
    "change",
    [
        {"format": "azul-record/2"},
        {"game": "azul-kids"},
        {"variant": "gray"},
        {"players": ["Solo"]},
        {"players": ["A", "B", "C", "D", "E"]},
        {"players": ["A", 7]},
        {"events": {}},
    ],
)
def test_bad_header_is_rejected_without_index(change: dict) -> None:
    with pytest.raises(Rejected) as caught:
        replay({**record(SCORING_EVENTS), **change})
    assert caught.value.index is None


def test_random_games_replay_and_mostly_end() -> None:
    games = [
        (seed, players, variant)
        for seed in range(8)
        for players in (2, 3, 4)
        for variant in ("colored", "grey")
    ]
    ended = 0
    for seed, players, variant in games:
        game = random_record(seed, players, variant)
        summary = replay(game)
        refills = sum(1 for event in game["events"] if "refill" in event)
        assert summary["rounds"] == refills
        assert len(summary["round_scores"]) == refills
        if variant == "colored":
            assert not any("place" in event for event in game["events"])
        else:
            assert any("place" in event for event in game["events"])
        ended += summary["over"]
        if summary["over"]:
            assert summary["winners"]
    assert ended >= 0.9 * len(games)


def test_random_record_is_repeatable_and_capped() -> None:
    assert random_record(5, 3, "grey") == random_record(5, 3, "grey")
    assert random_record(5, 3, "grey") != random_record(6, 3, "grey")
    capped = random_record(5, 4, "colored", max_rounds=2)
    summary = replay(capped)
    assert summary["rounds"] == 2
    assert summary["over"] is False
    assert summary["winners"] == []
