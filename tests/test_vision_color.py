"""Colour words, classification and white balance on constructed pixels."""

from __future__ import annotations

import numpy as np

from vision import color
from vision.color import COLORS, MARKER, UNKNOWN, WhiteBalance


def _hist(bgr_pixels: np.ndarray) -> tuple[np.ndarray, float]:
    words = color.word_indices(bgr_pixels)
    counts, glare = color.histograms(words, np.zeros(len(words), int), 1)
    return counts[0], float(glare[0])


def _patch(rgb: tuple[int, int, int], n: int = 400, noise: float = 4.0, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    px = np.tile(np.array(rgb[::-1], np.float32), (n, 1)) + rng.normal(0, noise, (n, 3))
    return np.clip(px, 0, 255)


CANDIDATES = {None: color.EMPTY_MIXES, **{c: color.TILE_MIXES[c] for c in COLORS}}


def test_plain_tiles_read_by_their_measured_colour():
    for name, rgb in (("blue", (29, 134, 171)), ("red", (239, 60, 69))):
        hist, glare = _hist(_patch(rgb))
        reading = color.classify(hist, glare, CANDIDATES)
        assert reading.value == name
        assert reading.confidence > 0.8


def test_patterned_tiles_need_their_pattern():
    # A white tile is mostly its teal star on a white ground; its mean colour alone is teal-grey.
    star, ground = _patch((101, 199, 200), 240), _patch((240, 242, 238), 160, seed=1)
    hist, glare = _hist(np.concatenate([star, ground]))
    assert color.classify(hist, glare, CANDIDATES).value == "white"
    # Black: near-black with a teal rosette.
    body, rosette = _patch((26, 27, 31), 320), _patch((40, 130, 128), 80, seed=2)
    hist, glare = _hist(np.concatenate([body, rosette]))
    assert color.classify(hist, glare, CANDIDATES).value == "black"


def test_empty_cream_cell_is_empty():
    hist, glare = _hist(_patch(color.CREAM_RGB))
    assert color.classify(hist, glare, CANDIDATES).value is None


def test_marker_is_told_from_an_empty_place():
    ground, ink = _patch((236, 232, 230), 330), _patch((30, 50, 120), 70, seed=3)
    hist, glare = _hist(np.concatenate([ground, ink]))
    cands = {**CANDIDATES, MARKER: color.TILE_MIXES[MARKER]}
    assert color.classify(hist, glare, cands).value == MARKER


def test_each_pixel_gets_its_quantised_colours_nearest_word():
    # The lookup answers what the nearest-word rule answers for the middle of each
    # pixel's quantum, for 8-bit and float pixels (floats clipped, then cut to 8 bits).
    rng = np.random.default_rng(7)
    px = rng.integers(0, 256, (5000, 3)).astype(np.uint8)
    step = 256 >> color._Q
    middle = (px // step).astype(np.float32) * step + step / 2
    want = color._nearest_words(middle)
    want[px.min(axis=1) >= 248] = -1
    assert np.array_equal(color.word_indices(px), want)
    floats = px.astype(np.float32) + rng.uniform(0, 0.99, px.shape).astype(np.float32)
    assert np.array_equal(color.word_indices(floats), want)
    assert np.array_equal(color.word_indices(np.array([[-40.0, 300.0, 0.0]])),
                          color.word_indices(np.array([[0, 255, 0]], np.uint8)))
    assert color.word_indices(np.zeros((0, 3), np.uint8)).shape == (0,)


def test_only_a_pixel_bright_in_every_channel_is_glare():
    near = np.array([[248, 248, 248], [255, 255, 255], [247, 255, 255], [255, 247, 255], [255, 255, 247]],
                    np.uint8)
    assert list(color.word_indices(near) == -1) == [True, True, False, False, False]


def test_glare_makes_a_place_unknown():
    hist, glare = _hist(np.full((400, 3), 255.0))
    assert color.classify(hist, glare, CANDIDATES).value == UNKNOWN


def test_something_unlike_any_tile_is_unknown():
    hist, glare = _hist(_patch((40, 200, 40)))  # bright green: no Azul tile
    assert color.classify(hist, glare, CANDIDATES).value == UNKNOWN


def test_white_balance_brings_the_cream_back():
    measured = np.array([150.0, 200.0, 250.0])  # a cool cast on the cream (BGR)
    wb = WhiteBalance.from_reference(measured)
    out = wb.apply(measured.reshape(1, 1, 3))
    assert np.allclose(out.ravel(), color.CREAM_RGB[::-1], atol=1)


def test_printed_wall_cell_is_not_a_tile():
    printed_blue = _patch((142, 183, 187))
    hist, glare = _hist(printed_blue)
    cands = {None: color.PRINTED_MIXES["blue"], **{c: color.TILE_MIXES[c] for c in COLORS}}
    assert color.classify(hist, glare, cands).value is None
    hist, glare = _hist(_patch((29, 134, 171)))
    assert color.classify(hist, glare, cands).value == "blue"
