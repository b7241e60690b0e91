"""vision.calibrate's command line: bad input is named and leaves the shipped models as they are."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision import calibrate
from vision.cells import COLOUR_COLUMNS, FEATURE_COLUMNS, HIDDEN
from vision.factories import CenterReading, FactoryReading


@pytest.mark.parametrize("argv, named", [
    (["--jobs", "0"], "--jobs 0"),
    (["--set", "1000:0"], "'1000:0' is not SEED:FIRST:COUNT"),
    (["--set", "1000:0:10", "--set", "8:0:10"], "--set 8:0:10: seed 8 is one the benchmark judges"),
    (["--kinds", "center", "centre"], "--kinds centre: no such model"),
])
def test_bad_arguments_are_named_and_write_nothing(argv, named, capsys):
    before = calibrate.OUT.read_bytes()
    with pytest.raises(SystemExit) as exit_:
        calibrate.main(argv)
    assert exit_.value.code == 2
    assert named in capsys.readouterr().err
    assert calibrate.OUT.read_bytes() == before
    assert not calibrate.OUT.with_suffix(".json.part").exists()


def test_frames_through_other_cameras_looks_are_measured_when_asked(monkeypatch, tmp_path):
    monkeypatch.setattr(calibrate, "OUT", tmp_path / "prototypes.json")
    asked = []

    def collect(frames, seed, cache=None, looks=False):
        asked.append((seed, list(frames), looks))
        return {}, {"center": ([np.zeros(FEATURE_COLUMNS)] * 4, [None, "red", None, "red"])}

    monkeypatch.setattr(calibrate, "collect", collect)
    assert calibrate.main(["--set", "1000:0:2", "--looks", "--kinds", "center"]) == 0
    assert asked == [(1000, [0, 1], True)]
    frame, truth = calibrate._frame(3, 1000, tmp_path, looks=True)
    assert sorted(p.name for p in tmp_path.glob("1000_*")) == ["1000_0003_look.json", "1000_0003_look.png"]
    plain, plain_truth = calibrate._frame(3, 1000, None)
    assert plain_truth == truth and np.abs(plain.astype(int) - frame).mean() > 2


def test_hidden_tiles_are_told_from_the_colours_seen_where_the_truth_allows():
    # Of red, red, blue, white with red, blue, white seen, one red is hidden: which one
    # the truth cannot say. With black hidden among four colours, only black is.
    assert calibrate._hidden_tiles(["red", "red", "blue", "white"], ["red", "blue", "white"]) == [
        None, None, False, False]
    assert calibrate._hidden_tiles(["red", "black", "blue", "white"], ["red", "blue", "white"]) == [
        False, True, False, False]
    assert calibrate._hidden_tiles(["red", "black"], []) == [True, True]
    assert calibrate._hidden_tiles(["red", "black"], ["red", "black"]) == [False, False]


def test_each_factory_place_is_labelled_by_the_tile_nearest_it():
    # Three places of a disc (radius 45 px: 1 px a mm) lie on tiles, one on the sunburst.
    # The red tile is hidden; the fourth place is out of the frame and left out.
    def square(x: float, y: float) -> list[list[float]]:
        return [[x - 9, y - 9], [x + 9, y - 9], [x + 9, y + 9], [x - 9, y + 9]]

    geo = {"tiles": [{"color": "blue", "top": square(10, 10)}, {"color": "red", "top": square(-10, 10)},
                     {"color": "white", "top": square(10, -10)}]}
    truth = {"tiles": ["blue", "white"], "unknown": 1}
    feats = [np.full(3, float(k)) for k in range(3)] + [None]
    places = [(12, 9), (-11, 8), (-10, -10), (9, -9)]
    reading = FactoryReading(np.zeros(2), 45.0, [], 0, 1.0, tile_points=places, features=feats)
    labelled = calibrate._factory_places(reading, truth, geo)
    assert [(f[0], label) for f, label in labelled] == [(0.0, "blue"), (1.0, HIDDEN), (2.0, None)]


def test_each_point_of_the_centre_pile_is_labelled_by_the_tile_nearest_it():
    # Tiles 20 px across (1 px a mm). A point on the marker, one near a yellow tile, a
    # second point on that tile (counted, it would count the tile twice) and one on a
    # hand far from every tile: neither of the last two is a tile to count.
    def square(x: float, y: float) -> list[list[float]]:
        return [[x - 10, y - 10], [x + 10, y - 10], [x + 10, y + 10], [x - 10, y + 10]]

    tiles = [{"color": "marker", "top": square(0, 0)}, {"color": "yellow", "top": square(40, 0)}]
    points = [(1, 2), (37, 1), (45, 4), (120, 80)]
    feats = np.arange(4.0)[:, None] * np.ones(3)
    reading = CenterReading({}, False, 0, tile_points=points, values=[None] * 4, features=feats)
    labelled = calibrate._center_places(reading, tiles, 1.0)
    assert [(f[0], label) for f, label in labelled] == [
        (0.0, "marker"), (1.0, "yellow"), (2.0, None), (3.0, None)]


def test_only_the_kinds_asked_for_are_fitted_again(monkeypatch, tmp_path):
    # The centre's model made again leaves the boards' models as they were.
    out = tmp_path / "prototypes.json"
    out.write_text(json.dumps({"words": [], "mixes": {}, "places": {"open": {"kept": True}}}))
    monkeypatch.setattr(calibrate, "OUT", out)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3))
    labels = ["red" if v > 0 else None for v in x[:, 0]]
    rows = {"center": ([*x], labels), "open": ([*x], labels)}
    monkeypatch.setattr(calibrate, "collect", lambda frames, seed, cache=None, looks=False: ({}, rows))
    assert calibrate.main(["--set", "1000:0:1", "--kinds", "center"]) == 0
    places = json.loads(out.read_text())["places"]
    assert places["open"] == {"kept": True}
    assert places["center"]["classes"] == [None, "red"]


def _board_rows_measured(monkeypatch, tmp_path, kind: str, seed: int) -> tuple[Path, np.ndarray]:
    """calibrate made to write to a file in tmp_path, its frames measuring 60 random rows
    of a board's place of `kind` (the features, returned with the file's path)."""
    out = tmp_path / "prototypes.json"
    monkeypatch.setattr(calibrate, "OUT", out)
    x = np.random.default_rng(seed).normal(size=(60, FEATURE_COLUMNS))
    labels = [HIDDEN if v > 1 else "red" if v > 0 else None for v in x[:, -1]]
    monkeypatch.setattr(calibrate, "collect",
                        lambda frames, seed, cache=None, looks=False: ({}, {kind: ([*x], labels)}))
    return out, x


def test_a_board_places_model_is_fitted_with_its_second_over_the_colour_looks(monkeypatch, tmp_path):
    # Rows of a board's places hold the colour looks, then the relief look: the second
    # model of each kind is fitted on the colour looks alone, on the same places.
    out, x = _board_rows_measured(monkeypatch, tmp_path, "wall:red", 2)
    assert calibrate.main(["--set", "1000:0:1"]) == 0
    places = json.loads(out.read_text())["places"]
    assert set(places) == {"wall:red", "colour:wall:red"}
    assert len(places["wall:red"]["mean"]) == FEATURE_COLUMNS
    assert places["colour:wall:red"]["mean"] == pytest.approx(x[:, :COLOUR_COLUMNS].mean(axis=0), abs=1e-6)
    assert places["colour:wall:red"]["classes"] == places["wall:red"]["classes"]
    # asked for alone, the second is fitted again alone
    out.write_text(json.dumps({"words": [], "mixes": {}, "places": {"wall:red": {"kept": True}}}))
    assert calibrate.main(["--set", "1000:0:1", "--kinds", "colour:wall:red"]) == 0
    places = json.loads(out.read_text())["places"]
    assert places["wall:red"] == {"kept": True} and "colour:wall:red" in places


def test_a_settled_model_is_its_kind_fitted_on_the_rows_given_and_kept_apart(monkeypatch, tmp_path):
    # Asked for, a board place's settled model is fitted on the rows measured, from the
    # start its kind's fit would take: the model its kind would be, the kind left as it
    # was. Unasked, a fit of everything makes none (it would be its kind's twin).
    out, _ = _board_rows_measured(monkeypatch, tmp_path, "open", 3)
    assert calibrate.main(["--set", "1000:0:1"]) == 0
    fitted = json.loads(out.read_text())["places"]
    assert set(fitted) == {"open", "colour:open"}
    out.write_text(json.dumps({"words": [], "mixes": {}, "places": {"open": {"kept": True}}}))
    assert calibrate.main(["--set", "1000:0:1", "--kinds", "settled:open"]) == 0
    places = json.loads(out.read_text())["places"]
    assert set(places) == {"open", "settled:open"}
    assert places["open"] == {"kept": True} and places["settled:open"] == fitted["open"]


def test_a_final_pair_is_its_kinds_pair_fitted_on_the_rows_given_and_kept_apart(monkeypatch, tmp_path):
    # Asked for, a board place's final models (cells.FINAL: the first, and its second over
    # the colour looks) are fitted on the rows measured from the starts its kind's pair
    # would take: the pair its kind would be, the kind's left as they were. Unasked, a fit
    # of everything makes none.
    out, _ = _board_rows_measured(monkeypatch, tmp_path, "wall:red", 4)
    assert calibrate.main(["--set", "1000:0:1"]) == 0
    fitted = json.loads(out.read_text())["places"]
    assert set(fitted) == {"wall:red", "colour:wall:red"}
    kept = {"wall:red": {"kept": True}, "colour:wall:red": {"kept": True}}
    out.write_text(json.dumps({"words": [], "mixes": {}, "places": kept}))
    assert calibrate.main(["--set", "1000:0:1", "--kinds", "final:wall:red", "final:colour:wall:red"]) == 0
    places = json.loads(out.read_text())["places"]
    assert places == {**kept, "final:wall:red": fitted["wall:red"],
                      "final:colour:wall:red": fitted["colour:wall:red"]}


def test_the_discs_final_model_is_theirs_fitted_on_the_rows_given_and_kept_apart(monkeypatch, tmp_path):
    # The factory's final model (read out, see vision.factories._read_out) likewise: its
    # kind's fitted on the rows given, from its kind's start, the kind's left as it was.
    out = tmp_path / "prototypes.json"
    monkeypatch.setattr(calibrate, "OUT", out)
    x = np.random.default_rng(5).normal(size=(60, 40))
    labels = [HIDDEN if v > 1 else "red" if v > 0 else None for v in x[:, -1]]
    monkeypatch.setattr(calibrate, "collect",
                        lambda frames, seed, cache=None, looks=False: ({}, {"factory": ([*x], labels)}))
    assert calibrate.main(["--set", "1000:0:1"]) == 0
    fitted = json.loads(out.read_text())["places"]
    assert set(fitted) == {"factory"}
    out.write_text(json.dumps({"words": [], "mixes": {}, "places": {"factory": {"kept": True}}}))
    assert calibrate.main(["--set", "1000:0:1", "--kinds", "final:factory"]) == 0
    places = json.loads(out.read_text())["places"]
    assert places == {"factory": {"kept": True}, "final:factory": fitted["factory"]}


def _no_frames(*_args, **_kwargs):
    raise AssertionError("no frame is read")


def _measured(rng: np.random.Generator) -> tuple[dict, dict]:
    x = rng.normal(size=(60, 3))
    labels = [HIDDEN if v > 1 else "red" if v > 0 else None for v in x[:, 0]]
    hists = {"tile:red": [*rng.random((20, 4))], "empty": [*rng.random((20, 4))]}
    return hists, {"wall:grey": ([*x], labels), "center": ([*x[:30]], labels[:30])}


def test_rows_saved_give_the_same_models_as_the_frames_they_were_measured_on(monkeypatch, tmp_path):
    out = tmp_path / "prototypes.json"
    monkeypatch.setattr(calibrate, "OUT", out)
    hists, rows = _measured(np.random.default_rng(1))
    monkeypatch.setattr(calibrate, "collect", lambda frames, seed, cache=None, looks=False: (hists, rows))
    saved = tmp_path / "rows.npz"
    assert calibrate.main(["--set", "1000:0:1", "--mixes", "--save-rows", str(saved)]) == 0
    from_frames = out.read_text()
    assert not saved.with_name("rows.npz.part").exists()

    monkeypatch.setattr(calibrate, "collect", _no_frames)
    out.unlink()
    assert calibrate.main(["--rows", str(saved), "--mixes"]) == 0
    assert out.read_text() == from_frames
    again_hists, again_rows = calibrate.load_rows(saved)
    assert again_rows["wall:grey"][1] == rows["wall:grey"][1]  # None, HIDDEN and colours as they were
    assert np.array_equal(np.array(again_rows["wall:grey"][0]), np.array(rows["wall:grey"][0]))
    assert np.array_equal(np.array(again_hists["empty"]), np.array(hists["empty"]))


def test_rows_kept_from_measurements_apart_fit_as_one_measurement_of_them_all(monkeypatch, tmp_path):
    out = tmp_path / "prototypes.json"
    monkeypatch.setattr(calibrate, "OUT", out)
    first, second = _measured(np.random.default_rng(1)), _measured(np.random.default_rng(2))
    measured = iter([first, second])
    monkeypatch.setattr(calibrate, "collect", lambda frames, seed, cache=None, looks=False: next(measured))
    assert calibrate.main(["--set", "1000:0:1", "--set", "1000:1:1", "--mixes"]) == 0
    from_frames = out.read_text()

    monkeypatch.setattr(calibrate, "collect", _no_frames)
    for name, (hists, rows) in (("first.npz", first), ("second.npz", second)):
        calibrate.save_rows(tmp_path / name, hists, rows)
    out.unlink()
    assert calibrate.main(["--rows", str(tmp_path / "first.npz"), "--rows", str(tmp_path / "second.npz"),
                           "--mixes"]) == 0
    assert out.read_text() == from_frames
    out.unlink()  # the order given is the order joined, and the fit sees it
    assert calibrate.main(["--rows", str(tmp_path / "second.npz"), "--rows", str(tmp_path / "first.npz"),
                           "--mixes"]) == 0
    assert out.read_text() != from_frames


def test_rows_measured_with_other_numbers_a_place_are_named_for_the_kinds_to_fit(monkeypatch, tmp_path,
                                                                                 capsys):
    out = tmp_path / "prototypes.json"
    monkeypatch.setattr(calibrate, "OUT", out)
    hists, rows = _measured(np.random.default_rng(1))
    calibrate.save_rows(tmp_path / "old.npz", hists, rows)
    feats, labels = rows["wall:grey"]
    calibrate.save_rows(tmp_path / "new.npz", hists, {**rows, "wall:grey": ([f[:2] for f in feats], labels)})
    both = ["--rows", str(tmp_path / "old.npz"), "--rows", str(tmp_path / "new.npz")]
    for kinds in ([], ["--kinds", "wall:grey"], ["--kinds", "colour:wall:grey"]):
        with pytest.raises(SystemExit) as exit_:
            calibrate.main([*both, *kinds])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        told = f"({tmp_path / 'old.npz'} 3, {tmp_path / 'new.npz'} 2 numbers a place)"
        assert f"--rows: the wall:grey rows are not measured alike {told}" in err
        assert not out.exists()
    assert calibrate.main([*both, "--kinds", "center"]) == 0  # the other kind's rows are only carried
    assert set(json.loads(out.read_text())["places"]) == {"center"}


@pytest.mark.parametrize("bad, named", [
    (b"", "not rows saved by --save-rows"),
    (b"PK\x03\x04 cut short", "not rows saved by --save-rows"),
    (None, "not rows saved by --save-rows"),  # no such file
    ({"x": np.zeros(3)}, "it holds 'x'"),  # an .npz of something else
    ({"mix/empty": np.zeros((2, 4))}, "no place measured in it"),
])
def test_rows_that_are_not_saved_rows_are_named_and_write_nothing(bad, named, monkeypatch, tmp_path, capsys):
    out = tmp_path / "prototypes.json"
    out.write_bytes(calibrate.OUT.read_bytes())
    monkeypatch.setattr(calibrate, "OUT", out)  # a fit that went ahead would not touch the shipped models
    rows = tmp_path / "rows.npz"
    if isinstance(bad, dict):
        with rows.open("wb") as f:
            np.savez(f, **bad)
    elif bad is not None:
        rows.write_bytes(bad)
    before = calibrate.OUT.read_bytes()
    with pytest.raises(SystemExit) as exit_:
        calibrate.main(["--rows", str(rows)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"--rows {rows}" in err and named in err
    assert calibrate.OUT.read_bytes() == before


@pytest.mark.parametrize("argv, named", [
    (["--rows", "r.npz", "--set", "1:0:1"], "--rows with --set"),
    (["--rows", "r.npz", "--save-rows", "s.npz"], "not allowed with argument"),
    (["--save-rows", "/no/such/folder/rows.npz"], "no such folder /no/such/folder"),
    (["--save-rows", "."], "--save-rows .: is a folder"),
])
def test_rows_asked_for_wrongly_are_named_before_any_frame_is_read(argv, named, monkeypatch, capsys):
    monkeypatch.setattr(calibrate, "collect", _no_frames)
    with pytest.raises(SystemExit) as exit_:
        calibrate.main(argv)
    assert exit_.value.code == 2
    assert named in capsys.readouterr().err


def test_rows_that_cannot_be_written_are_named_and_the_models_kept(monkeypatch, tmp_path, capsys):
    out = tmp_path / "prototypes.json"
    monkeypatch.setattr(calibrate, "OUT", out)
    hists, rows = _measured(np.random.default_rng(2))
    monkeypatch.setattr(calibrate, "collect", lambda frames, seed, cache=None, looks=False: (hists, rows))

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", disk_full)
    saved = tmp_path / "rows.npz"
    with pytest.raises(SystemExit) as exit_:
        calibrate.main(["--set", "1000:0:1", "--save-rows", str(saved)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"--save-rows {saved}: not written" in err and "No space left" in err
    assert set(json.loads(out.read_text())["places"]) == {"wall:grey", "colour:wall:grey", "center"}
    assert not saved.exists() and not saved.with_name("rows.npz.part").exists()
