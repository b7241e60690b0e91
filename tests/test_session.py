"""Starting, resuming and putting aside the game in progress."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.results import FileResults
from companion.rules import azul_record
from companion.session import AZUL, KIDS, EchoSink, resume_game, start_game, start_kids_game
from companion.store import GameStore, StoreError

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


def test_a_resumed_game_that_had_ended_is_filed_when_the_tracker_takes_it_up(tmp_path):
    from companion.ui.demo import make_reader
    from companion.ui.screens.base import Settings

    store = game_in_progress(tmp_path, EXAMPLE["events"])
    resumption = resume_game(store)
    reader = make_reader(Settings(tuple(resumption.record.players)), record=resumption.record,
                         sink=store, results=FileResults(store))
    assert reader.published is not None and Path(reader.published).parent.name == "games"
    assert not store.has_current()


# --- Azul Kids --------------------------------------------------------------------


def kids_game(side: str = "master", players: int = 2, seed: int = 7):
    """A whole Kids game played by greedy bots: (its record, the final state)."""
    import random

    from companion.rules.kids import KidsState
    from companion.rules.kids_record import record_of
    from companion.ui.kids.demo import GreedyKidsBot, kids_boards

    rng = random.Random(seed)
    state = KidsState(side, kids_boards(side, players))
    bot = GreedyKidsBot(rng)
    while not state.is_over():
        state.push(state.draw_fill(rng) if state.needs_fill else bot.choose(state))
    return record_of(state, [f"P{i}" for i in range(players)]), state


def kids_in_progress(state: Path, events: list[dict], side: str = "master") -> GameStore:
    record, _final = kids_game(side)
    store = GameStore(state)
    start_kids_game(store, record.players, record.variant, record.boards)
    for event in events:
        store.append(event)
    store.close()
    return GameStore(state)


def kids_events(side: str = "master") -> list[dict]:
    from companion.rules import kids_record

    record, _final = kids_game(side)
    return kids_record.to_json(record)["events"]


def test_a_kids_game_resumes_exactly_and_goes_on(tmp_path):
    from companion.rules import kids_record

    events = kids_events()
    store = kids_in_progress(tmp_path, events[:9])
    resumption = resume_game(store, KIDS)
    record, final = kids_game()
    assert kids_record.to_json(resumption.record) == {**kids_record.to_json(record), "events": events[:9]}
    assert "9 events" in resumption.messages[-1]
    for event in events[9:]:
        store.append(event)
    assert kids_record.replay(store.record()) == final


def test_a_kids_record_that_breaks_a_rule_is_put_aside_with_its_reason(tmp_path):
    events = kids_events()
    broken = [*events[:3], events[1]]  # the same take twice
    kids_in_progress(tmp_path, broken)
    store = GameStore(tmp_path)
    resumption = resume_game(store, KIDS)
    assert resumption.record is None and "event 3" in resumption.messages[0]
    assert not store.has_current()
    (kept,) = (tmp_path / "quarantine").glob("*.json")
    assert json.loads(kept.read_text())["events"] == broken
    assert "event 3" in kept.with_suffix(".reason.txt").read_text()


def test_a_torn_kids_event_is_dropped_and_the_rest_kept(tmp_path):
    events = kids_events()
    kids_in_progress(tmp_path, events[:4])
    path = tmp_path / "current.json"
    data = path.read_bytes()
    path.write_bytes(data[:data.rindex(b"\n]}")] + b",\n{\"take\": {\"player\": 1, \"fr")
    resumption = resume_game(GameStore(tmp_path), KIDS)
    assert len(resumption.record.events) == 4 and len(resumption.messages) == 2


def test_each_game_resumes_only_its_own_kind_and_leaves_the_other_alone(tmp_path):
    kids_in_progress(tmp_path / "kids", kids_events()[:3])
    game_in_progress(tmp_path / "azul", EXAMPLE["events"][:3])
    for folder, other in (("kids", AZUL), ("azul", KIDS)):
        before = (tmp_path / folder / "current.json").read_bytes()
        store = GameStore(tmp_path / folder)
        with pytest.raises(StoreError, match="unfinished game of"):
            resume_game(store, other)
        assert (tmp_path / folder / "current.json").read_bytes() == before
        assert not (tmp_path / folder / "quarantine").exists()
        assert resume_game(GameStore(tmp_path / folder), KIDS if other == AZUL else AZUL).record is not None


def test_a_finished_kids_game_is_published_among_the_finished_games(tmp_path):
    from companion.rules import kids_record

    events = kids_events()
    store = kids_in_progress(tmp_path, events)
    resumption = resume_game(store, KIDS)
    summary = kids_record.summary(kids_record.replay(resumption.record))
    where = Path(FileResults(store).publish(kids_record.to_json(resumption.record), summary))
    assert where.parent.name == "games" and where.name.endswith("_azul-kids.json")
    assert not store.has_current()
    assert json.loads(where.read_text())["events"] == events


class Gone(io.StringIO):
    """The reader of the event lines went away."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_echo_sink_keeps_storing_when_no_one_reads_the_lines(tmp_path):
    store = GameStore(tmp_path)
    start_game(store, ["A", "B"], "colored")
    sink = EchoSink(store, Gone())
    sink.append(EXAMPLE["events"][0])  # stored, though the line could not be written
    sink.append(EXAMPLE["events"][1])
    assert store.record()["events"] == EXAMPLE["events"][:2]
    assert sink.undo() == EXAMPLE["events"][1]
