"""`azul-companion track`: the offline tracker, its summary, its record and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import azul_record
from companion.sim.noise import game_stream


def write_stream(tmp_path: Path, lines: list) -> Path:
    path = tmp_path / "stream.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def test_track_writes_the_true_record_and_prints_the_summary(tmp_path: Path, capsys) -> None:
    played = game_stream(2, "colored", 3)
    stream = write_stream(tmp_path, played.lines)
    out = tmp_path / "out.json"
    assert main(["track", str(stream), "--record", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    truth = azul_record.summary(played.game)
    assert {k: summary[k] for k in truth} == truth
    assert summary["asked"] == 0 and summary["auto"] == len(played.record.events)
    assert summary["warnings"] == 0
    written = azul_record.read_record(json.loads(out.read_text()))
    assert azul_record.replay(written) == played.game
    # The same events, refills listed factory by factory (tile order aside).
    for mine, true in zip(written.events, played.record.events, strict=True):
        if hasattr(true, "factories"):
            assert [sorted(f) for f in mine.factories] == [sorted(f) for f in true.factories]
        else:
            assert mine == true


def test_answers_are_used_only_when_the_tracker_asks(tmp_path: Path, capsys) -> None:
    played = game_stream(2, "colored", 4)
    lines = list(played.lines)
    # Hide the first move's pattern lines: the tracker must ask, and the answer settles it.
    first_answer = next(i for i, line in enumerate(lines) if "answer" in line)
    for i in range(first_answer - 1, 0, -1):
        obs = lines[i]["observation"]
        if sum(len(f["tiles"]) for f in obs["factories"]) == 20:
            break
        for board in obs["boards"]:
            for line in board["lines"]:
                line["color"], line["count"] = "unknown", None
            board["floor"] = ["unknown"] * 7
    stream = write_stream(tmp_path, lines)
    out = tmp_path / "out.json"
    assert main(["track", str(stream), "--record", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["asked"] == 1
    assert summary["scores"] == [b.score for b in played.game.boards]


@pytest.mark.parametrize(("lines", "words"), [
    (["not json"], "line 1: not JSON"),
    ([{"observation": {}}], "line 1: the stream must start with a setup line"),
    ([{"setup": {"game": "azul", "variant": "colored", "players": ["A", "B"]}}, {"frame": {}}],
     "line 2: unknown key 'frame'"),
    ([{"setup": {"game": "azul", "variant": "colored", "players": ["A"]}}], "line 1: bad setup"),
    ([{"setup": {"game": "azul", "players": ["A", "B"]}}, {"observation": {"boards": 3}}],
     "line 2: \"boards\" must be a list"),
    ([{"setup": {"game": "azul", "players": ["A", "B"]}}, {"answer": {"take": {"player": 0}}}],
     "line 2: bad answer"),
])
def test_bad_stream_lines_exit_2_naming_the_line(tmp_path: Path, capsys, lines: list, words: str) -> None:
    stream = write_stream(tmp_path, lines)
    assert main(["track", str(stream), "--record", str(tmp_path / "out.json")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err


def test_a_refill_never_read_in_full_does_not_stall_the_stream(tmp_path: Path, capsys) -> None:
    # The cause of the stall first seen on the seed-3 2% stream: one factory showed a tile
    # too few in every frame of a round's refill, so the tracker waited for it for ever.
    played = game_stream(2, "colored", 3)
    second = [i for i, e in enumerate(played.record.events) if hasattr(e, "factories")][1]
    lines = [dict(line) for line in played.lines]
    hidden = 0
    for line, shown in zip(lines, played.shown, strict=True):
        if "observation" in line and shown == second + 1:
            line["observation"] = json.loads(json.dumps(line["observation"]))
            line["observation"]["factories"][1]["tiles"].pop()
            hidden += 1
    assert hidden >= 3
    stream = write_stream(tmp_path, lines)
    out = tmp_path / "out.json"
    assert main(["track", str(stream), "--record", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scores"] == [b.score for b in played.game.boards] and summary["over"]
    assert summary["asked"] == 0  # nothing to answer: the refill is never asked about offline
    written = azul_record.read_record(json.loads(out.read_text()))
    assert azul_record.replay(written) == played.game
