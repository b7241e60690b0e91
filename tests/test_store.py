import json
import math
import os
from datetime import datetime

import pytest

from companion import store as store_module
from companion.store import CURRENT, GameStore, StoreError

HEADER = {"format": "azul-record/1", "game": "azul", "variant": "colored",
          "players": ["Zoë", "Bo"]}
EVENTS = [
    {"refill": [["blue", "blue", "red", "yellow"], ["black", "white", "white", "red"]]},
    {"take": {"player": 0, "from": 1, "color": "blue", "to": 2}},
    # Text that looks like the record's own punctuation must not confuse recovery.
    {"note": "ends like a record ]}\n, and goes on"},
    {"take": {"player": 1, "from": "center", "color": "red", "to": "floor"}},
]


class Clock:
    def __init__(self):
        self.now = datetime(2025, 3, 14, 20, 15, 3)

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


def new_store(tmp_path, clock, events=()):
    store = GameStore(tmp_path / "state", now=clock)
    store.start(HEADER)
    for event in events:
        store.append(event)
    return store


def on_disk(store):
    return json.loads(store.current_path.read_bytes())


def test_the_file_is_a_valid_record_after_every_append(tmp_path, clock):
    store = new_store(tmp_path, clock)
    assert on_disk(store) == {**HEADER, "events": []}
    for count, event in enumerate(EVENTS, 1):
        store.append(event)
        assert on_disk(store) == {**HEADER, "events": EVENTS[:count]}
        assert store.record() == on_disk(store)
    lines = store.current_path.read_text(encoding="utf-8").splitlines()
    assert lines[:6] == ["{", '"format": "azul-record/1",', '"game": "azul",',
                         '"variant": "colored",', '"players": ["Zoë", "Bo"],', '"events": [']
    assert [json.loads(line.rstrip(",")) for line in lines[6:-1]] == EVENTS
    assert lines[-1] == "]}"


def test_resume_continues_where_the_game_stopped(tmp_path, clock):
    store = new_store(tmp_path, clock, EVENTS[:2])
    before = store.current_path.read_bytes()
    store.close()
    again = GameStore(tmp_path / "state", now=clock)
    resumed = again.resume()
    assert (resumed.header, resumed.events, resumed.warnings) == (HEADER, EVENTS[:2], [])
    assert again.current_path.read_bytes() == before
    again.append(EVENTS[2])
    assert on_disk(again)["events"] == EVENTS[:3]


def test_resume_takes_a_pretty_printed_record_and_lays_it_out_for_appending(tmp_path, clock):
    directory = tmp_path / "state"
    directory.mkdir()
    (directory / CURRENT).write_text(json.dumps({**HEADER, "events": EVENTS[:2]}, indent=2))
    store = GameStore(directory, now=clock)
    assert store.resume().events == EVENTS[:2]
    store.append(EVENTS[2])
    assert on_disk(store) == {**HEADER, "events": EVENTS[:3]}


def build(tmp_path, clock, count):
    """The bytes of a record with the first ``count`` events."""
    store = new_store(tmp_path, clock, EVENTS[:count])
    store.close()
    return store.current_path.read_bytes()


def full_and_offsets(tmp_path, clock, count):
    """The file after ``count`` events, and where the last event's bytes begin and end."""
    data = build(tmp_path, clock, count)
    last = json.dumps(EVENTS[count - 1], ensure_ascii=False).encode()
    start = data.rindex(last)
    return data, start, start + len(last)


@pytest.mark.parametrize("count", [1, 4])
def test_a_torn_last_event_is_dropped_at_every_byte(tmp_path, clock, count):
    data, start, end = full_and_offsets(tmp_path, clock, count)
    # From the end of the previous event (or of "events": [) to the complete file.
    first_cut = data.rindex(b"\n", 0, start)
    for cut in range(first_cut, len(data) + 1):
        directory = tmp_path / f"cut{cut}"
        directory.mkdir()
        (directory / CURRENT).write_bytes(data[:cut])
        store = GameStore(directory, now=clock)
        resumed = store.resume()
        complete = cut >= end
        assert resumed.events == EVENTS[: count if complete else count - 1], cut
        assert len(resumed.warnings) == (1 if start < cut < end else 0), cut
        if resumed.warnings:
            assert "dropped an unfinished last event" in resumed.warnings[0]
        assert on_disk(store) == {**HEADER, "events": resumed.events}
        store.append({"refill": []})
        assert on_disk(store)["events"] == [*resumed.events, {"refill": []}]


@pytest.mark.parametrize("count", [1, 4])
def test_a_torn_overwrite_of_the_closing_is_repaired_at_every_byte(tmp_path, clock, count):
    # A crash part-way through an append leaves new bytes over part of the old closing.
    before = build(tmp_path / "a", clock, count - 1)
    after, _start, end = full_and_offsets(tmp_path / "b", clock, count)
    at = len(before) - (3 if count == 1 else 4)  # where the append began to write
    for written in range(len(after) - at + 1):
        torn = after[: at + written] + before[at + written :]
        directory = tmp_path / f"torn{written}"
        directory.mkdir()
        (directory / CURRENT).write_bytes(torn)
        resumed = GameStore(directory, now=clock).resume()
        assert resumed.events == EVENTS[: count if at + written >= end else count - 1], written


def test_a_crash_between_write_and_rename_loses_nothing(tmp_path, clock, monkeypatch):
    data, start, _end = full_and_offsets(tmp_path / "build", clock, 3)
    directory = tmp_path / "state"
    directory.mkdir()
    torn = data[: start + 5]
    (directory / CURRENT).write_bytes(torn)

    def crash(source, target):
        raise OSError("power cut")

    monkeypatch.setattr(store_module.os, "replace", crash)
    with pytest.raises(OSError, match="power cut"):
        GameStore(directory, now=clock).resume()
    assert (directory / CURRENT).read_bytes() == torn  # the original is untouched
    assert (directory / (CURRENT + ".tmp")).exists()
    monkeypatch.undo()
    resumed = GameStore(directory, now=clock).resume()
    assert resumed.events == EVENTS[:2]
    assert len(resumed.warnings) == 1
    assert sorted(p.name for p in directory.iterdir()) == [CURRENT]


def test_a_failed_append_is_an_error_and_resume_repairs(tmp_path, clock, monkeypatch):
    store = new_store(tmp_path, clock, EVENTS[:2])

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.os, "fsync", full_disk)
    with pytest.raises(StoreError, match=r"cannot save the event: .*No space left"):
        store.append(EVENTS[2])
    with pytest.raises(StoreError, match="no game is open"):
        store.append(EVENTS[3])
    monkeypatch.undo()
    resumed = store.resume()
    assert resumed.events == EVENTS[:3]  # the bytes did reach the file
    store.append(EVENTS[3])
    assert on_disk(store)["events"] == EVENTS


def test_events_that_are_not_json_are_refused_before_the_file_is_touched(tmp_path, clock):
    store = new_store(tmp_path, clock, EVENTS[:1])
    before = store.current_path.read_bytes()
    for bad in ({"take": {1, 2}}, {"score": math.nan}):
        with pytest.raises(ValueError, match="event is not JSON"):
            store.append(bad)
    assert store.current_path.read_bytes() == before
    store.append(EVENTS[1])
    assert on_disk(store)["events"] == EVENTS[:2]


@pytest.mark.parametrize(("header", "message"), [
    ({"game": "azul"}, 'needs "format": "azul-record/1"'),
    ({**HEADER, "events": []}, 'has no "events"'),
    ({**HEADER, "when": datetime(2025, 1, 1)}, "when is not JSON"),
])
def test_bad_headers_are_refused(tmp_path, clock, header, message):
    store = GameStore(tmp_path, now=clock)
    with pytest.raises(ValueError, match=message):
        store.start(header)
    assert not store.has_current()


def test_one_game_at_a_time(tmp_path, clock):
    new_store(tmp_path, clock).close()
    with pytest.raises(StoreError, match="a game is already in progress"):
        GameStore(tmp_path / "state", now=clock).start(HEADER)


def test_resume_without_a_game(tmp_path, clock):
    with pytest.raises(StoreError, match="there is no game in progress"):
        GameStore(tmp_path, now=clock).resume()


@pytest.mark.parametrize("content", [
    b"garbage",
    b'{\n"format": "azul-rec',
    b'{\n"format": "other/1",\n"events": [\n]}\n',
])
def test_an_unreadable_header_asks_for_quarantine(tmp_path, clock, content):
    (tmp_path / CURRENT).write_bytes(content)
    with pytest.raises(StoreError, match="damaged beyond a torn last line; quarantine it"):
        GameStore(tmp_path, now=clock).resume()
    assert (tmp_path / CURRENT).read_bytes() == content


def test_a_bad_line_before_the_last_is_not_taken_for_a_torn_append(tmp_path, clock):
    data, start, _end = full_and_offsets(tmp_path, clock, 3)
    damaged = data[:start] + b"#" + data[start + 1 :]
    middle = data.index(b'{"take"')
    damaged = damaged[:middle] + b"\0\0\0" + damaged[middle + 3 :]
    (tmp_path / CURRENT).write_bytes(damaged)
    with pytest.raises(StoreError, match="quarantine it"):
        GameStore(tmp_path, now=clock).resume()


def test_finish_moves_the_game_into_history(tmp_path, clock):
    store = new_store(tmp_path, clock, EVENTS[:2])
    path = store.finish()
    assert path == tmp_path / "state" / "games" / "2025-03-14T20-15-03_azul.json"
    assert not store.has_current()
    assert json.loads(path.read_bytes()) == {**HEADER, "events": EVENTS[:2]}
    with pytest.raises(StoreError, match="no game is open"):
        store.append(EVENTS[2])
    store.start({**HEADER, "game": "azul-kids", "variant": "master"})
    second = store.finish()  # the same second: a second name, not an overwrite
    assert second.name == "2025-03-14T20-15-03-2_azul-kids.json"
    store.start(HEADER)
    third = store.finish()
    assert third.name == "2025-03-14T20-15-03-3_azul.json"
    (tmp_path / "state" / "games" / "2025-03-15T10-00-00_azul.json").write_text("{broken")
    history = store.history()
    later = tmp_path / "state" / "games" / "2025-03-15T10-00-00_azul.json"
    assert [game.path for game in history] == [path, second, third, later]
    assert history[0].finished == clock.now
    assert history[0].record["events"] == EVENTS[:2]
    assert history[3].record is None and "Expecting" in history[3].problem


def test_a_crash_while_finishing_keeps_the_game_in_progress(tmp_path, clock, monkeypatch):
    store = new_store(tmp_path, clock, EVENTS[:2])

    def crash(source, target):
        raise OSError("power cut")

    monkeypatch.setattr(store_module.os, "rename", crash)
    with pytest.raises(OSError):
        store.finish()
    monkeypatch.undo()
    assert store.has_current() and store.history() == []
    again = GameStore(tmp_path / "state", now=clock)
    assert again.resume().events == EVENTS[:2]
    assert again.finish().exists()


def test_quarantine_moves_a_record_aside_with_its_reason(tmp_path, clock):
    (tmp_path / CURRENT).write_bytes(b"garbage that does not replay")
    store = GameStore(tmp_path, now=clock)
    path = store.quarantine("event 3: line 2 already holds red")
    assert path == tmp_path / "quarantine" / "2025-03-14T20-15-03_current.json"
    assert path.read_bytes() == b"garbage that does not replay"
    assert path.with_suffix(".reason.txt").read_text() == "event 3: line 2 already holds red\n"
    assert not store.has_current()
    assert store.history() == []
    store.start(HEADER)
    store.append(EVENTS[0])
    second = store.quarantine("again")
    assert second.name == "2025-03-14T20-15-03-2_current.json"
    assert json.loads(second.read_bytes())["events"] == EVENTS[:1]
    with pytest.raises(StoreError, match="there is no game in progress"):
        store.quarantine("nothing left")


def test_directory_fsync_is_used_on_every_rename(tmp_path, clock, monkeypatch):
    synced = []
    real = store_module._fsync_directory
    monkeypatch.setattr(store_module, "_fsync_directory",
                        lambda path: synced.append(path) or real(path))
    store = new_store(tmp_path, clock)
    assert synced == [tmp_path / "state"]
    store.finish()
    assert tmp_path / "state" / "games" in synced
    assert os.listdir(tmp_path / "state") == ["games"]


def test_undo_takes_the_last_event_back_durably_and_appends_go_on(tmp_path, clock):
    store = new_store(tmp_path, clock, EVENTS[:3])
    assert store.undo() == EVENTS[2]
    assert on_disk(store) == {**HEADER, "events": EVENTS[:2]}
    store.append(EVENTS[3])
    assert on_disk(store) == {**HEADER, "events": [*EVENTS[:2], EVENTS[3]]}
    again = GameStore(tmp_path / "state", now=clock)
    assert again.resume().events == [*EVENTS[:2], EVENTS[3]]


def test_undo_with_no_event_is_refused(tmp_path, clock):
    store = new_store(tmp_path, clock)
    with pytest.raises(StoreError, match="no event to take back"):
        store.undo()
    assert on_disk(store) == {**HEADER, "events": []}
