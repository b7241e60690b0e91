"""The recogniser's fast statistics give the general tools' values exactly."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stats import components, counted_percentile, median, percentile


def test_fast_percentile_and_median_give_numpys_values_exactly():
    # The shortcuts must not move a threshold by even one rounding: what the recogniser
    # judges by is meant to be what numpy's own functions give.
    rng = np.random.default_rng(3)
    for _ in range(300):
        values = rng.integers(0, 256, int(rng.integers(1, 4000))).astype(np.uint8)
        q = float(rng.choice([90.0, 95.0, 50.0, 1.0, rng.uniform(0, 100)]))
        assert percentile(values, q) == np.percentile(values, q)
        assert percentile(values.astype(np.int64), q) == np.percentile(values, q)  # by a partition
        # 8-bit values of a view, some left out, counted by their histogram
        view = rng.integers(0, int(rng.integers(1, 256)), (int(rng.integers(1, 60)), 40)).astype(np.uint8)
        where = rng.random(view.shape) < 0.7
        where[0, 0] = True
        assert percentile(view, q, where) == np.percentile(view[where], q)
        resid = rng.random(int(rng.integers(1, 80)))
        assert median(resid) == np.median(resid)
    assert np.isnan(median(np.array([0.5, np.nan, 0.1])))


def test_a_percentile_of_counted_values_is_numpys():
    # Sums of three 8-bit channels, counted: values with gaps, a single value, and ranks
    # that fall between two values at every interpolation weight.
    rng = np.random.default_rng(5)
    for _ in range(200):
        values = rng.choice(rng.integers(0, 766, int(rng.integers(1, 12))), int(rng.integers(1, 500)))
        counts = np.bincount(values, minlength=766)
        for q in (40.0, 50.0, 0.0, 100.0, float(rng.uniform(0, 100))):
            assert counted_percentile(counts, q) == np.percentile(values, q)


def test_components_are_opencvs_default_ones():
    # The parts of a mask, their stats and centres, as cv2.connectedComponentsWithStats
    # gives them: speckle, blobs touching at a corner only, a mask all set and none.
    rng = np.random.default_rng(4)
    masks = [(rng.random((90, 140)) < p).astype(np.uint8) * 255 for p in (0.05, 0.3, 0.6)]
    masks += [np.full((20, 30), 255, np.uint8), np.zeros((20, 30), np.uint8)]
    for mask in masks:
        for connectivity in (4, 8):
            want = cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
            got = components(mask, connectivity)
            assert got[0] == want[0]
            for a, b in zip(got[1:], want[1:], strict=True):
                assert np.array_equal(a, b, equal_nan=True)  # no background: its centre is NaN
