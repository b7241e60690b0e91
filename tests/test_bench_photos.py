"""Judging the recogniser on labelled photos: the scoring, drafts, and bad photo sets."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import Conditions, random_content, render_table

_HERE = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, _HERE / f"{name}.py")
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = sys.modules.get("bench_vision") or _module("bench_vision")
photos = _module("bench_photos")

_EMPTY_WALL = [[None] * 5 for _ in range(5)]
_NO_CENTER = {"tiles": {}, "marker": False, "unknown": 0}


def _board(center: list[float], **over) -> dict:
    board = {"center": center, "rotation": 0, "side": "colored",
             "lines": [{"color": None, "count": 0}, {"color": "red", "count": 2}, {"color": None, "count": 0},
                       {"color": None, "count": 0}, {"color": None, "count": 0}],
             "floor": ["black", None, None, None, None, None, None], "wall": copy.deepcopy(_EMPTY_WALL)}
    return {**board, **over}


def _observation(boards: list[dict], factories: list[dict] | None = None, center: dict | None = None,
                 occluded: bool = False) -> dict:
    return {"format": "azul-observation/1", "image": {"width": 1920, "height": 1080}, "occluded": occluded,
            "boards": boards, "factories": factories or [], "center": center or _NO_CENTER}


def _scored(obs: dict, truth: dict) -> tuple[Counter, list[dict]]:
    tally, failures = Counter(), []
    photos.score_photo(obs, truth, tally, failures)
    return tally, failures


@pytest.fixture(scope="module")
def rendered() -> tuple[np.ndarray, dict, object]:
    """A 2-player table in plain view: its frame, its truth (observation and geometry) and content."""
    rng = np.random.default_rng(11)
    content = random_content(rng, players=2)
    frame, truth = render_table(content, Conditions.neutral(1280, 720), rng)
    return frame, truth, content


def _photo_set(folder: Path, frame: np.ndarray, truth: dict, name: str = "table") -> Path:
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / f"{name}.png"), frame)
    plain = {k: v for k, v in truth.items() if k != "geometry"}
    (folder / f"{name}.truth.json").write_text(json.dumps(plain))
    return folder


def test_a_rendered_frame_is_judged_as_the_synthetic_benchmark_judges_it(rendered, tmp_path, capsys):
    frame, truth, content = rendered
    folder = _photo_set(tmp_path / "set", frame, truth)
    assert photos.main([str(folder), "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)["counts"]
    expected = Counter()
    bench.score_frame(photos.recognize(frame), truth, expected, content)
    for key in ("boards", "boards_exact", "cells", "cells_right", "cells_confidently_wrong",
                "factories", "centres", "centres_exact"):
        assert counts.get(key, 0) == expected[key], key
    assert counts["cells"] > 50 and counts["boards"] == 2


def test_each_photo_has_its_own_counts(rendered, tmp_path, capsys):
    frame, truth, _ = rendered
    folder = _photo_set(tmp_path / "set", frame, truth, name="a")
    wrong = copy.deepcopy(truth)
    wrong["boards"][1]["floor"][6] = "red" if truth["boards"][1]["floor"][6] is None else None
    _photo_set(folder, frame, wrong, name="b")
    assert photos.main([str(folder), "--json"]) == 0
    a, b = json.loads(capsys.readouterr().out)["by_photo"]
    assert (a["photo"], b["photo"]) == ("a.png", "b.png")
    assert b["cells"] == a["cells"] and b["cells_right"] == a["cells_right"] - 1
    assert b["boards_exact"] == a["boards_exact"] - 1 and a["size"] == "1280x720"
    assert photos.main([str(folder), "--verbose"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"a.png: 1280x720 boards {a['boards_exact']}/2 places {a['cells_right']}/")
    assert lines[1].startswith(f"b.png: 1280x720 boards {b['boards_exact']}/2 places {b['cells_right']}/")


def test_a_wrong_truth_costs_its_board_and_its_place(rendered, tmp_path, capsys):
    frame, truth, _ = rendered
    assert photos.main([str(_photo_set(tmp_path / "a", frame, truth)), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)["counts"]
    wrong = copy.deepcopy(truth)
    cell = wrong["boards"][0]["wall"][2][2]
    wrong["boards"][0]["wall"][2][2] = "red" if cell is None else None
    failures = tmp_path / "failures.jsonl"
    folder = _photo_set(tmp_path / "b", frame, wrong)
    assert photos.main([str(folder), "--json", "--failures", str(failures)]) == 0
    after = json.loads(capsys.readouterr().out)["counts"]
    assert after["cells"] == before["cells"]
    assert after["cells_right"] == before["cells_right"] - 1
    assert after["boards_exact"] == before["boards_exact"] - 1
    logged = [json.loads(line) for line in failures.read_text().splitlines()]
    place = 15 + 7 + 2 * 5 + 2  # after the lines' and the floor's places, row by row
    assert any(f.get("board") == 0 and [place, wrong["boards"][0]["wall"][2][2], cell] in f["wrong_places"]
               for f in logged)


def test_places_the_truth_cannot_see_are_not_scored_and_a_board_not_found_loses_the_rest():
    truth = _board([500.0, 500.0])
    truth["wall"][0][0] = "unknown"
    truth["lines"][3] = {"color": "blue", "count": None}
    tally, _ = _scored(_observation([]), _observation([truth]))
    shown = 47 - 1 - 4
    assert tally["cells"] == shown and tally["cells_right"] == 0
    assert tally["cells_confidently_wrong"] == 0 and tally["boards_exact"] == 0


def test_a_board_is_exact_only_turned_and_sided_as_the_truth_says():
    truth = _observation([_board([500.0, 500.0])])
    assert _scored(truth, truth)[0]["boards_exact"] == 1
    for key, value in (("rotation", 90), ("side", "grey")):
        tally, failures = _scored(_observation([_board([510.0, 490.0], **{key: value})]), truth)
        assert tally["boards_exact"] == 0 and tally["cells_right"] == tally["cells"] == 47
        assert failures[0][key] == [truth["boards"][0][key], value]


def test_boards_are_counted_by_the_turn_and_side_the_truth_gives(rendered, tmp_path, capsys):
    frame, truth, _ = rendered
    assert photos.main([str(_photo_set(tmp_path / "set", frame, truth)), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    counts = result["counts"]
    turns = Counter(b["rotation"] for b in truth["boards"])
    for rotation in (0, 90, 180, 270):
        assert counts.get(f"boards rotation {rotation}", 0) == turns[rotation]
        assert (result["boards_exact_by"][f"rotation {rotation}"] is None) == (turns[rotation] == 0)
    assert counts["boards side colored"] + counts.get("boards side grey", 0) == 2
    exact = sum(counts.get(f"boards rotation {r} exact", 0) for r in (0, 90, 180, 270))
    assert exact == counts["boards_exact"]


def test_a_place_read_wrong_is_confidently_wrong_and_one_left_unknown_is_not():
    truth = _observation([_board([500.0, 500.0])])
    wrong, unsure = _board([500.0, 500.0]), _board([500.0, 500.0])
    wrong["floor"][0], unsure["floor"][0] = "red", "unknown"
    assert _scored(_observation([wrong]), truth)[0]["cells_confidently_wrong"] == 1
    assert _scored(_observation([unsure]), truth)[0]["cells_confidently_wrong"] == 0


@pytest.mark.parametrize(("second", "within"), [
    (1000.0, 270.0),  # half the 600 px gap is more than a quarter of the photo's 1080 px
    (800.0, 200.0),  # half the 400 px gap is less
])
def test_boards_are_matched_within_half_the_gap_between_the_truths_and_a_quarter_of_the_photo(second, within):
    truth = _observation([_board([400.0, 500.0]), _board([second, 500.0])])
    assert _scored(_observation([_board([400.0 + within - 5, 500.0])]), truth)[0]["boards_exact"] == 1
    tally, _ = _scored(_observation([_board([400.0 - within - 5, 500.0])]), truth)
    assert tally["boards_exact"] == 0 and tally["boards_extra"] == 1


def _disc(tiles: list[str], unknown: int = 0, center: tuple[float, float] = (900.0, 300.0)) -> dict:
    return {"center": list(center), "tiles": tiles, "unknown": unknown, "confidence": 1.0}


@pytest.mark.parametrize(("truth", "read", "right"), [
    (_disc(["red", "red", "blue", "black"]), _disc(["red", "blue", "black", "red"]), True),
    # one left unread in view:
    (_disc(["red", "red", "blue", "black"]), _disc(["red", "blue", "black"], 1), False),
    (_disc(["red", "blue"], 2), _disc(["red", "blue"], 2), True),  # what the hand hides left unknown
    (_disc(["red", "blue"], 2), _disc(["red", "blue", "white"], 1), True),  # a tile read under it
    (_disc(["red", "blue"], 2), _disc(["red"], 3), False),  # a tile in view not read
    (_disc(["red", "blue"], 1), _disc(["red", "blue", "white", "white"]), False),  # more than it hides
    (_disc(["red"], 2), _disc(["red", "blue"], 3), False),  # five places
])
def test_a_disc_is_exact_when_it_reads_what_the_photo_shows(truth, read, right):
    tally, failures = _scored(_observation([], [read]), _observation([], [truth]))
    assert tally["factories_exact"] == right and len(failures) == (not right)
    assert tally["factories_confidently_wrong"] == (not right and read["unknown"] == 0)


def test_the_pile_is_exact_with_its_counts_marker_and_unknown():
    truth = _observation([], center={"tiles": {"red": 2, "blue": 0}, "marker": True, "unknown": 0})
    same = _observation([], center={"tiles": {"red": 2}, "marker": True, "unknown": 0})
    no_marker = _observation([], center={"tiles": {"red": 2}, "marker": False, "unknown": 0})
    assert _scored(same, truth)[0]["centres_exact"] == 1
    tally, _ = _scored(no_marker, truth)
    assert tally["centres_exact"] == 0 and tally["centres_confidently_wrong"] == 1


def test_occluded_photos_are_counted_apart(tmp_path):
    tally, _ = _scored(_observation([], occluded=True), _observation([], occluded=True))
    tally2, _ = _scored(_observation([], occluded=True), _observation([]))
    assert (tally["photos_occluded"], tally["flagged_occluded"]) == (1, 1)
    assert (tally2["photos_clear"], tally2["flagged_clear"]) == (1, 1)


def _blank(folder: Path, name: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.jpg"
    cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))
    return path


def test_drafts_are_written_for_photos_without_a_truth_and_refused_until_checked(tmp_path, capsys):
    folder = tmp_path / "set"
    _blank(folder, "a")
    _blank(folder, "b")
    kept = json.dumps({**_observation([]), "image": {"width": 160, "height": 120}})
    (folder / "a.truth.json").write_text(kept)
    assert photos.main([str(folder), "--draft"]) == 0
    assert "b.truth.json" in capsys.readouterr().out
    assert (folder / "a.truth.json").read_text() == kept
    drafted = json.loads((folder / "b.truth.json").read_text())
    assert drafted["draft"] is True and drafted["format"] == "azul-observation/1"
    assert not list(folder.glob("*.part"))
    assert photos.main([str(folder)]) == 2
    assert "b.truth.json: still a draft" in capsys.readouterr().err
    # A person who has checked it deletes the draft's line, as the docs say.
    text = (folder / "b.truth.json").read_text()
    (folder / "b.truth.json").write_text("".join(line for line in text.splitlines(keepends=True)
                                                 if '"draft"' not in line))
    assert photos.main([str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["photos"] == 2


def test_a_draft_reads_as_the_observation_with_a_line_a_wall_row(rendered):
    obs = {k: v for k, v in rendered[1].items() if k != "geometry"}
    text = photos.editable(obs)
    assert json.loads(text) == obs
    lines = [line.strip().rstrip(",") for line in text.splitlines()]
    rows = [json.loads(line) for line in lines if line.startswith("[")]
    assert all(row in rows for row in obs["boards"][0]["wall"])


def test_a_draft_is_written_for_no_photo_when_one_cannot_be_read(tmp_path, capsys):
    folder = tmp_path / "set"
    _blank(folder, "a")
    (folder / "b.jpg").write_bytes(b"not a jpeg")
    assert photos.main([str(folder), "--draft"]) == 2
    assert "b.jpg" in capsys.readouterr().err
    assert not list(folder.glob("*.json*"))


def _truth_file(folder: Path, name: str, truth: object) -> None:
    _blank(folder, name)
    if isinstance(truth, dict) and "image" in truth:
        truth = {**truth, "image": {"width": 160, "height": 120}}  # as _blank draws it
    text = truth if isinstance(truth, str) else json.dumps(truth)
    (folder / f"{name}.truth.json").write_text(text)


def _without(key: str) -> dict:
    board = _board([50.0, 50.0])
    del board[key]
    return _observation([board])


@pytest.mark.parametrize(("truth", "says"), [
    ("{not json", "not JSON"),
    ({"format": "azul-observation/2", "boards": []}, "format"),
    (_observation([_board([50.0, 50.0], rotation=45)]), "board 1: rotation"),
    (_without("side"), "board 1 has no 'side'"),
    (_observation([_board([50.0, 50.0], floor=None)]), "board 1 has no 'floor'"),
    (_observation([], [_disc(["red"], None)]), "factory 1: \"unknown\" counts"),
    (_observation([_board([50.0, 50.0], floor=[None] * 6)]), "the floor has 7 places"),
    (_observation([], [_disc(["red", "unknown"])]), "factory 1"),
    (_observation([], [_disc(["red", "red", "red"], 2)]), "more than 4"),
    ({k: v for k, v in _observation([]).items() if k != "center"}, "no 'center'"),
    (_observation([], center={"tiles": {"red": 1}}), "the centre needs"),
])
def test_a_truth_that_is_not_a_whole_observation_is_named(tmp_path, capsys, truth, says):
    folder = tmp_path / "set"
    _truth_file(folder, "photo", truth)
    failures = tmp_path / "failures.jsonl"
    assert photos.main([str(folder), "--failures", str(failures)]) == 2
    err = capsys.readouterr().err
    assert "photo.truth.json" in err and says in err
    assert not failures.exists()


def test_a_truth_labelled_on_an_image_of_another_size_is_named(tmp_path, capsys):
    folder = tmp_path / "set"
    _truth_file(folder, "photo", _observation([]))
    assert photos.main([str(folder)]) == 0
    truth = folder / "photo.truth.json"
    truth.write_text(json.dumps(_observation([])))  # labelled on a 1920x1080 copy
    assert photos.main([str(folder)]) == 2
    assert "labelled on a 1920x1080 image, the photo is 160x120" in capsys.readouterr().err


def test_a_failures_file_that_cannot_be_written_is_named_before_the_run(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "set"
    _truth_file(folder, "photo", _observation([]))
    judged = []
    monkeypatch.setattr(photos, "judge", lambda *a: judged.append(a))
    assert photos.main([str(folder), "--failures", str(tmp_path / "nowhere" / "f.jsonl")]) == 2
    assert "no directory" in capsys.readouterr().err and not judged


def test_a_draft_that_cannot_be_written_is_named_and_leaves_nothing_half_written(tmp_path, capsys):
    folder = tmp_path / "set"
    _blank(folder, "a")
    (folder / "a.truth.json.part").mkdir()  # where the draft is written first: not a file
    assert photos.main([str(folder), "--draft"]) == 2
    assert "a.truth.json: cannot write" in capsys.readouterr().err
    assert not (folder / "a.truth.json").exists()


def test_bad_photo_sets_are_named(tmp_path, capsys):
    assert photos.main([str(tmp_path / "none")]) == 2
    assert "not a directory" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert photos.main([str(tmp_path / "empty")]) == 2
    assert "no photos" in capsys.readouterr().err
    _blank(tmp_path / "bare", "lonely")
    assert photos.main([str(tmp_path / "bare")]) == 2
    assert "no truth for lonely.jpg" in capsys.readouterr().err
    folder = tmp_path / "cut"
    _truth_file(folder, "a", _observation([]))  # read first, and scored
    _truth_file(folder, "cut", _observation([]))
    whole = (folder / "cut.jpg").read_bytes()
    (folder / "cut.jpg").write_bytes(whole[: len(whole) // 2])
    failures = tmp_path / "failures.jsonl"
    assert photos.main([str(folder), "--json", "--failures", str(failures)]) == 2
    out, err = capsys.readouterr()
    assert "cut.jpg" in err and "truncated" in err
    assert out == "" and not failures.exists()
