"""The held-out observation model (benchmarks/heldout): its streams follow observation.md,
its truth replays, its rates mean what they say, and a clean stream is tracked exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.heldout.judge import compare_events, normal_events
from benchmarks.heldout.model import Noise, make_game, make_stream, table_of
from companion.cli import main
from companion.rules import azul_record
from companion.rules.azul import COLORS, DRAFTING, FACTORIES, Game, Take

TILE = {*COLORS, None, "unknown"}
FLOOR_OR_CENTER = {*TILE, "marker"}


def _check_observation(obs: dict, players: int, variant: str) -> None:
    assert obs["format"] == "azul-observation/1"
    assert obs["image"] == {"width": 1920, "height": 1080}
    assert isinstance(obs["occluded"], bool)
    assert len(obs["boards"]) <= players
    for board in obs["boards"]:
        x, y = board["center"]
        assert 0 <= x < 1920 and 0 <= y < 1080
        assert board["rotation"] in (0, 90, 180, 270)
        assert board["side"] == ("colored" if variant == "colored" else "grey")
        assert len(board["lines"]) == 5
        for size, line in enumerate(board["lines"], 1):
            assert line["color"] in TILE
            assert line["count"] is None or 0 <= line["count"] <= size
            assert (line["color"] is None) == (line["count"] == 0)
        assert len(board["floor"]) == 7 and set(board["floor"]) <= FLOOR_OR_CENTER
        assert len(board["wall"]) == 5 and all(len(row) == 5 and set(row) <= TILE for row in board["wall"])
        assert 0 <= board["confidence"] <= 1
    assert len(obs["factories"]) <= FACTORIES[players]
    for factory in obs["factories"]:
        assert set(factory["tiles"]) <= set(COLORS)
        assert len(factory["tiles"]) + factory["unknown"] <= 4
        assert 0 <= factory["confidence"] <= 1
    center = obs["center"]
    assert set(center) == {"tiles", "marker", "unknown"}
    assert set(center["tiles"]) <= set(COLORS) and all(n > 0 for n in center["tiles"].values())
    assert isinstance(center["marker"], bool) and center["unknown"] >= 0


@pytest.mark.parametrize("index", [0, 1, 5])  # 2p coloured, 3p grey, 4p grey
def test_noisy_streams_follow_the_spec_and_answers_are_the_true_moves(index: int) -> None:
    played = make_game(index, seed=3)
    lines, _tally = make_stream(played, Noise.at(0.05), index, seed=3)
    text = [json.dumps(line) for line in lines]
    parsed = [json.loads(line) for line in text]
    assert parsed[0] == {"setup": {"game": "azul", "variant": played.variant,
                                   "players": played.record.players}}
    answers = []
    for line in parsed[1:]:
        assert len(line) == 1
        if "observation" in line:
            _check_observation(line["observation"], played.players, played.variant)
        else:
            answers.append(line["answer"])
    truth = played.record.to_json()
    assert answers == [e for e in truth["events"] if "refill" not in e]
    # The truth record replays with the engine, and ends as the game it came from.
    game = azul_record.replay(azul_record.read_record(json.loads(azul_record.dumps(truth))))
    assert game == played.game and game.is_over()


def _content(obs: dict) -> object:
    boards = [(b["lines"], b["floor"], b["wall"]) for b in obs["boards"]]
    factories = [sorted(f["tiles"]) for f in obs["factories"]]
    return boards, factories, obs["center"]


def test_every_still_state_is_seen_three_times_unoccluded_and_shows_the_truth() -> None:
    played = make_game(4, seed=5)  # 3 players, coloured wall
    lines, _tally = make_stream(played, Noise.at(0.0), 4, seed=5)
    game = Game(played.players, played.variant)
    expected = []
    for event, _player in played.events:
        before = game.copy()
        game.push(event)
        if isinstance(event, Take):
            # The take that ends drafting is seen before the walls are tiled.
            expected.append(table_of(before.preview(event) if game.phase != DRAFTING else game))
    seen = 0
    for i, line in enumerate(lines):
        if "answer" not in line:
            continue
        last = [lines[i - k]["observation"] for k in (1, 2, 3)]
        assert not any(o["occluded"] for o in last)
        assert _content(last[0]) == _content(last[1]) == _content(last[2])
        table = expected[seen]
        boards, factories, center = _content(last[0])
        assert [b[0] for b in boards] == [[{"color": c, "count": n} for c, n in t["lines"]]
                                          for t in table.boards]
        assert factories == [sorted(f) for f in table.factories]
        assert center == {"tiles": table.center, "marker": table.marker, "unknown": 0}
        seen += 1
    assert seen == len(expected) > 0


def test_the_misread_rate_means_what_it_says() -> None:
    played = make_game(2, seed=1)
    for rate in (0.005, 0.05):
        _lines, tally = make_stream(played, Noise.at(rate), 2, seed=1)
        assert tally.places > 100_000
        assert 0.85 * rate < tally.misread_rate < 1.15 * rate


def test_streams_are_deterministic_by_seed_and_games_shared_across_rates() -> None:
    a, b = make_game(3, seed=9), make_game(3, seed=9)
    assert a.record.to_json() == b.record.to_json()
    assert make_stream(a, Noise.at(0.02), 3, 9)[0] == make_stream(b, Noise.at(0.02), 3, 9)[0]
    assert make_stream(a, Noise.at(0.02), 3, 9)[0] != make_stream(a, Noise.at(0.02), 3, 10)[0]
    assert make_game(3, seed=10).record.to_json() != a.record.to_json()


def test_the_judge_counts_inferred_moves_missing_from_the_truth() -> None:
    truth = [{"refill": [["red"]]}, {"take": {"player": 0, "from": 1, "color": "red", "to": 1}},
             {"take": {"player": 1, "from": "center", "color": "blue", "to": 2}}]
    wrong = [truth[0], {"take": {"player": 0, "from": 1, "color": "red", "to": 2}}, truth[2]]
    assert compare_events(truth, truth)["wrong_moves"] == 0
    result = compare_events(truth, wrong)
    assert (result["wrong_moves"], result["missed"], result["first_difference"]) == (1, 0, 1)
    assert result["first_wrong"] == "move"
    stopped = compare_events(truth, truth[:2])
    assert (stopped["wrong_moves"], stopped["missed"], stopped["first_wrong"]) == (0, 1, "stopped")


@pytest.mark.parametrize("index", [0, 1])  # 2p coloured, 3p grey
def test_a_clean_stream_is_tracked_to_the_truth_without_asking(index: int, tmp_path: Path, capsys) -> None:
    played = make_game(index, seed=2)
    lines, _tally = make_stream(played, Noise.at(0.0), index, seed=2)
    stream = tmp_path / "stream.jsonl"
    stream.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "out.json"
    assert main(["track", str(stream), "--record", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["asked"] == 0
    # Compared as the camera sees them: refill tiles as sets, no column for a line sent to the floor.
    truth = played.record.to_json()
    assert normal_events(json.loads(out.read_text())) == normal_events(truth)
    assert summary["scores"] == azul_record.summary(played.game)["scores"]


def test_the_judge_compares_what_a_camera_can_see() -> None:
    record = make_game(1, seed=2).record.to_json()  # 3p grey; event 98 sends line 3 to the floor
    events = record["events"]
    assert events[98] == {"place": {"player": 2, "line": 3, "column": 3}}
    base = normal_events(record)
    other_broken_column = [*events[:98], {"place": {"player": 2, "line": 3, "column": 2}}, *events[99:]]
    assert normal_events({**record, "events": other_broken_column}) == base
    first_legal = next(i for i, e in enumerate(events) if "place" in e)
    moved = dict(events[first_legal]["place"], column=events[first_legal]["place"]["column"] % 5 + 1)
    changed = [*events[:first_legal], {"place": moved}, *events[first_legal + 1:]]
    assert normal_events({**record, "events": changed}) != base
    # Placements of two players in one wall-tiling, in the other order, are the same.
    i = next(i for i in range(len(events) - 1) if "place" in events[i] and "place" in events[i + 1]
             and events[i]["place"]["player"] != events[i + 1]["place"]["player"])
    swapped = [*events[:i], events[i + 1], events[i], *events[i + 2:]]
    assert normal_events({**record, "events": swapped}) == base
    shuffled = [dict(e) for e in events]
    shuffled[0] = {"refill": [list(reversed(tiles)) for tiles in events[0]["refill"]]}
    assert normal_events({**record, "events": shuffled}) == base
