"""Records: azul-record/1 in and out, replay, the summary, and `azul-companion replay`."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import azul_record
from companion.rules.errors import RecordError

EXAMPLES = Path(__file__).parent.parent / "companion" / "examples"

# A tiny 2-player game, written by hand: the rules, not the engine, give its numbers.
REFILL_1 = [["red", "red", "red", "blue"], ["yellow", "yellow", "black", "black"],
            ["white", "white", "white", "white"], ["blue", "blue", "blue", "blue"],
            ["black", "black", "black", "black"]]
HAND_GAME = {
    "format": "azul-record/1", "game": "azul", "variant": "colored", "players": ["Ann", "Bo"],
    "events": [
        {"refill": REFILL_1},
        {"take": {"player": 0, "from": 1, "color": "red", "to": 3}},  # 3 red: line 3 complete
        {"take": {"player": 1, "from": "center", "color": "blue", "to": 1}},  # marker to Bo's floor
        {"take": {"player": 0, "from": 2, "color": "yellow", "to": 2}},  # line 2 complete
        {"take": {"player": 1, "from": 3, "color": "white", "to": "floor"}},  # 4 more on Bo's floor
        {"take": {"player": 0, "from": 4, "color": "blue", "to": 4}},  # line 4 complete
        {"take": {"player": 1, "from": "center", "color": "black", "to": 5}},  # 2 black on line 5
        {"take": {"player": 0, "from": 5, "color": "black", "to": "floor"}},  # 4 on Ann's floor
    ],
}


def write(tmp_path: Path, data: object, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_hand_game_scores_as_the_rules_say():
    game = azul_record.replay(azul_record.read_record(HAND_GAME))
    # Ann: red row 3 col 5 (1), yellow row 2 col 3 (1), blue row 4 col 4 (1, below nothing):
    # red (2,4) and blue (3,3) are diagonal, yellow (1,2) alone. Floor 4 places: -6 -> 0.
    # Bo: floor marker + 4 white = 5 places: -8 -> 0; his line 1 blue complete: 1 point first.
    summary = azul_record.summary(game)
    assert summary == {"format": "azul-summary/1", "scores": [0, 0], "winners": [], "rounds": 1,
                       "round_scores": [[0, 0]], "over": False}
    assert game.turn == 1, "Bo took the marker and starts round 2"


def test_summary_of_a_shipped_example_is_complete(capsys):
    assert main(["replay", "--json", str(EXAMPLES / "azul-2p-colored.json")]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    summary = json.loads(line)
    assert summary["format"] == "azul-summary/1" and summary["over"] is True
    assert len(summary["round_scores"]) == summary["rounds"]
    assert summary["winners"]


def test_replay_json_prints_one_line_per_file_in_order(tmp_path, capsys):
    first = write(tmp_path, HAND_GAME, "a.json")
    second = EXAMPLES / "azul-3p-grey.json"
    assert main(["replay", "--json", str(second), str(first), str(second)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and lines[0] == lines[2] and lines[1]["rounds"] == 1


def test_replay_without_json_prints_the_round_table_and_breakdown(capsys):
    assert main(["replay", str(EXAMPLES / "azul-2p-colored.json")]) == 0
    out = capsys.readouterr().out
    assert "Round" in out and "Ann" in out and "Bo" in out
    assert "Winner" in out or "Shared victory" in out
    assert " = " in out  # the breakdown adds up


def broken(index: int, replacement: object) -> dict:
    data = copy.deepcopy(HAND_GAME)
    data["events"][index] = replacement
    return data


@pytest.mark.parametrize(
    ("data", "index", "words"),
    [
        (broken(1, {"take": {"player": 1, "from": 1, "color": "red", "to": 3}}), 1, "out of turn"),
        (broken(1, {"take": {"player": 0, "from": 1, "color": "pink", "to": 3}}), 1, "unknown colour"),
        (broken(1, {"take": {"player": 0, "from": 1, "color": "white", "to": 3}}), 1, "no white"),
        (broken(1, {"take": {"player": 0, "from": 1, "color": "red", "to": 6}}), 1, "pattern line 1-5"),
        (broken(1, {"take": {"player": 0, "from": 0, "color": "red", "to": 1}}), 1, "factory number"),
        (broken(1, {"take": {"player": 0, "from": 1, "color": "red"}}), 1, "exactly the keys"),
        (broken(1, {"take": {"player": 0, "from": 1, "color": "red", "to": 3}, "x": 1}), 1, "one key"),
        (broken(1, {"refill": REFILL_1}), 1, "only opens a round"),
        (broken(1, {"place": {"player": 0, "line": 3, "column": 5}}), 1, "grey wall"),
        (broken(0, {"refill": [["red"] * 5, *REFILL_1[1:]]}), 0, "at most 4"),
        (broken(0, {"refill": REFILL_1[:4]}), 0, "2 players use 5"),
        (broken(0, {"shuffle": []}), 0, "unknown event"),
        (broken(2, {"take": {"player": 1, "from": "center", "color": "red", "to": 1}}), 2, "no red"),
        (broken(3, {"take": {"player": 0, "from": 2, "color": "yellow", "to": 3}}), 3, "line 3 is full"),
    ],
)
def test_broken_records_name_the_event_and_the_rule(tmp_path, capsys, data, index, words):
    path = write(tmp_path, data)
    assert main(["replay", "--json", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"{path}: event {index}: ")
    assert words in line


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        ("[]", "a JSON object"),
        (json.dumps({**HAND_GAME, "format": "azul-record/2"}), "format must be"),
        (json.dumps({**HAND_GAME, "game": "chess"}), "game must be"),
        (json.dumps({**HAND_GAME, "variant": "gold"}), "variant must be"),
        (json.dumps({**HAND_GAME, "players": ["Ann"]}), "2 to 4 names"),
        (json.dumps({**HAND_GAME, "players": ["A", "B", "C", "D", "E"]}), "2 to 4 names"),
        (json.dumps({**HAND_GAME, "events": {}}), "events must be a list"),
    ],
)
def test_records_that_are_not_azul_record_1_are_refused(tmp_path, capsys, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"{path}: ") and words in line


def test_a_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_one_broken_file_among_good_ones_prints_nothing_on_stdout(tmp_path, capsys):
    good = EXAMPLES / "azul-2p-colored.json"
    bad = write(tmp_path, broken(1, {"take": {"player": 1, "from": 1, "color": "red", "to": 3}}))
    assert main(["replay", "--json", str(good), str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1


def test_events_after_the_end_are_refused():
    data = json.loads((EXAMPLES / "azul-2p-colored.json").read_text())
    data["events"].append({"refill": REFILL_1})
    with pytest.raises(RecordError, match="the game is over") as info:
        azul_record.replay(azul_record.read_record(data))
    assert info.value.index == len(data["events"]) - 1


def test_grey_take_before_placements_are_done_is_refused():
    data = json.loads((EXAMPLES / "azul-3p-grey.json").read_text())
    first_place = next(i for i, e in enumerate(data["events"]) if "place" in e)
    data["events"].insert(first_place, {"take": {"player": 0, "from": 1, "color": "red", "to": 1}})
    with pytest.raises(RecordError, match="wall-tiling is not finished") as info:
        azul_record.replay(azul_record.read_record(data))
    assert info.value.index == first_place


def test_dumps_writes_one_event_per_line_and_reads_back():
    text = azul_record.dumps(HAND_GAME)
    assert json.loads(text) == HAND_GAME
    assert len(text.splitlines()) == len(HAND_GAME["events"]) + 2


def test_replay_dispatches_kids_records(capsys):
    files = sorted(EXAMPLES.glob("kids-*.json"))
    assert files
    assert main(["replay", "--json", *map(str, files)]) == 0
    summaries = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [s["format"] for s in summaries] == ["azul-kids-summary/1"] * len(files)
    assert all(s["over"] and s["winners"] for s in summaries)
    assert main(["replay", str(files[0])]) == 0
    assert "Winner" in capsys.readouterr().out


def test_a_broken_kids_record_names_the_event(tmp_path, capsys):
    data = json.loads((EXAMPLES / "kids-2p-master.json").read_text())
    take = next(i for i, e in enumerate(data["events"]) if "take" in e)
    data["events"][take]["take"]["player"] = 1 - data["events"][take]["take"]["player"]
    path = write(tmp_path, data)
    assert main(["replay", "--json", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{path}: event {take}: ")
