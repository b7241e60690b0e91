"""Starting, resuming and putting aside the game in progress."""

from __future__ import annotations

import io
import json
from pathlib import Path

from companion.results import FileResults
from companion.rules import azul_record
from companion.session import EchoSink, resume_game, start_game
from companion.store import GameStore

EXAMPLE = json.loads((Path(__file__).parent.parent / "companion" / "examples" / "azul-2p-colored.json")
                     .read_text())


def game_in_progress(state: Path, events: list[dict]) -> GameStore:
    store = GameStore(state)
    start_game(store, EXAMPLE["players"], EXAMPLE["variant"])
    for event in events:
        store.append(event)
    store.close()
    return GameStore(state)


def test_nothing_to_resume(tmp_path):
    resumption = resume_game(GameStore(tmp_path))
    assert resumption.record is None and resumption.messages == []


def test_the_unfinished_game_resumes_exactly(tmp_path):
    store = game_in_progress(tmp_path, EXAMPLE["events"][:17])
    resumption = resume_game(store)
    assert resumption.record.to_json() == {**EXAMPLE, "events": EXAMPLE["events"][:17]}
    assert "17 events" in resumption.messages[-1]
    store.append(EXAMPLE["events"][17])
    assert store.record()["events"] == EXAMPLE["events"][:18]


def test_a_torn_last_line_is_dropped_with_a_warning(tmp_path):
    game_in_progress(tmp_path, EXAMPLE["events"][:5])
    path = tmp_path / "current.json"
    data = path.read_bytes()
    path.write_bytes(data[:data.rindex(b"\n]}")] + b",\n{\"take\": {\"pla")  # a power cut mid-append
    resumption = resume_game(GameStore(tmp_path))
    assert resumption.record.to_json()["events"] == EXAMPLE["events"][:5]
    assert len(resumption.messages) == 2


def test_a_record_that_breaks_a_rule_is_put_aside_not_deleted(tmp_path):
    broken = [*EXAMPLE["events"][:4], EXAMPLE["events"][2]]  # a take out of turn
    game_in_progress(tmp_path, broken)
    store = GameStore(tmp_path)
    resumption = resume_game(store)
    assert resumption.record is None
    assert "event 4" in resumption.messages[0] and "put aside" in resumption.messages[0]
    assert not store.has_current()
    (kept,) = (tmp_path / "quarantine").glob("*.json")
    assert json.loads(kept.read_text())["events"] == broken


def test_echo_sink_prints_only_what_is_stored(tmp_path):
    store = GameStore(tmp_path)
    start_game(store, ["A", "B"], "colored")
    out = io.StringIO()
    sink = EchoSink(store, out)
    sink.append(EXAMPLE["events"][0])
    sink.undo()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == [EXAMPLE["events"][0], {"undo": EXAMPLE["events"][0]}]
    assert store.record()["events"] == []


def test_file_results_files_the_finished_game(tmp_path):
    store = game_in_progress(tmp_path, EXAMPLE["events"])
    resumption = resume_game(store)
    summary = azul_record.summary(azul_record.replay(resumption.record))
    where = FileResults(store).publish(resumption.record.to_json(), summary)
    assert Path(where).parent.name == "games" and not store.has_current()
    assert json.loads(Path(where).read_text()) == EXAMPLE
