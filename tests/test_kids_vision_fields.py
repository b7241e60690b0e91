"""Kids recogniser, reading board fields in hard light: a white balance that holds under
incandescent light and in shadow."""

from __future__ import annotations

import numpy as np
from test_kids_vision import BOARDS, _compare, _master_content

from vision.kids import recognise_kids
from vision.kids.boards import CREAM_RGB
from vision.kids.colors import balance_gains
from vision.synth import Conditions
from vision.synth.kids import render_kids_table

CREAM_BGR = np.float32(CREAM_RGB[::-1])


def _balanced(pixels: np.ndarray, gains: np.ndarray) -> np.ndarray:
    return pixels.astype(np.float32) * gains


def test_the_print_is_balanced_under_incandescent_light() -> None:
    # a 2700 K lamp leaves the cream print with 60% of its blue
    lamp = np.float32([0.6, 0.85, 1.0])
    rng = np.random.default_rng(1)
    print_px = np.clip(CREAM_BGR * lamp * 0.8 + rng.normal(0, 3, (2000, 3)), 0, 255).astype(np.uint8)
    gains = balance_gains(print_px, CREAM_RGB)
    assert np.allclose(np.median(_balanced(print_px, gains), axis=0), CREAM_BGR, rtol=0.03)


def test_a_shadow_or_a_grey_sleeve_is_not_taken_for_the_print() -> None:
    rng = np.random.default_rng(2)
    print_px = np.clip(CREAM_BGR * 0.85 + rng.normal(0, 3, (800, 3)), 0, 255)
    grey = np.clip(np.float32([92, 90, 88]) + rng.normal(0, 3, (1200, 3)), 0, 255)
    gains = balance_gains(np.concatenate([print_px, grey]).astype(np.uint8), CREAM_RGB)
    assert np.allclose(np.median(_balanced(print_px, gains), axis=0), CREAM_BGR, rtol=0.03)


def test_fields_under_incandescent_light_are_read() -> None:
    # a warm lamp (2600 K) and a dim photo: the print needs more blue gain than daylight
    cond = Conditions(
        kelvin=2600,
        exposure=0.7,
        tilt_deg=33,
        azimuth_deg=355,
        glare=0.3,
        table="wood",
        noise=4,
        jpeg_quality=50,
        width=4000,
        height=3000,
    )
    frame, truth = render_kids_table(_master_content(), cond, 0)
    right, wrong, total = _compare(recognise_kids(frame, BOARDS), truth)
    assert (right, wrong) == (total, 0)
