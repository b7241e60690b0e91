"""vision.calibrate's command line: bad input is named and leaves the shipped models as they are."""

from __future__ import annotations

import numpy as np
import pytest

from vision import calibrate
from vision.cells import HIDDEN
from vision.factories import FactoryReading


@pytest.mark.parametrize("argv, named", [
    (["--jobs", "0"], "--jobs 0"),
    (["--set", "1000:0"], "'1000:0' is not SEED:FIRST:COUNT"),
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
