"""vision.calibrate's command line: bad input is named and leaves the shipped models as they are."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision import calibrate
from vision.cells import HIDDEN
from vision.factories import CenterReading, FactoryReading


@pytest.mark.parametrize("argv, named", [
    (["--jobs", "0"], "--jobs 0"),
    (["--set", "1000:0"], "'1000:0' is not SEED:FIRST:COUNT"),
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
    monkeypatch.setattr(calibrate, "collect", lambda frames, seed, cache=None: ({}, rows))
    assert calibrate.main(["--set", "1000:0:1", "--kinds", "center"]) == 0
    places = json.loads(out.read_text())["places"]
    assert places["open"] == {"kept": True}
    assert places["center"]["classes"] == [None, "red"]
