"""The Kids tray on a rendered table: found from the table's plane when a hand leaves too
few whole bowls, a hand lying across a bowl's edge reported as covering it, and tiles of
one colour lying close together in a coarse photo each counted."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.rules.kids_board import example_boards
from tests.test_kids_vision_bowls import _draw_tray, _fill, _tray_to_image
from tests.test_kids_vision_frames import _bowl_patch, _read
from vision.kids import recognise_kids
from vision.kids.bowls import bowl_centres_mm, read_bowls
from vision.kids.geometry import Plane
from vision.synth import Conditions
from vision.synth.hand import SKIN_RGB, SLEEVE_RGB
from vision.synth.kids import KidsBoardContent, KidsTableContent, render_kids_table

BOARDS = example_boards()


def _empty(board) -> KidsBoardContent:
    return KidsBoardContent(board, tuple(tuple([None] * len(p.fields)) for p in board.pictures))


def _bowls_right(obs: dict, truth: dict) -> list[str]:
    """What is wrong with the bowls read: a bowl read exactly is right, and so is one a
    hand covers when it is reported covered and no tile is counted that is not there."""
    wrong = []
    for t in truth["bowls"]:
        f = min(obs["bowls"], key=lambda b: math.dist(b["center"], t["center"]), default=None)
        if f is None or math.dist(f["center"], t["center"]) > 40:
            wrong.append(f"bowl {t['bowl']} not found")
        elif (f["tiles"], f["unknown"]) == (t["tiles"], t["unknown"]):
            continue
        elif not (
            t["occluded"] and f["occluded"] and all(n <= t["tiles"].get(c, 0) for c, n in f["tiles"].items())
        ):
            wrong.append(f"bowl {t['bowl']}: {f['tiles']} {f['unknown']} {f['occluded']}, truth {t}")
    return wrong


@pytest.mark.parametrize("seed", [2, 5, 8])
def test_the_tray_is_found_on_the_table_when_a_hand_hides_most_of_its_bowls(seed: int) -> None:
    content = KidsTableContent(
        tuple(_empty(BOARDS[k % len(BOARDS)]) for k in range(4)),
        bowls=(
            ("red", "blue", "green"),
            ("green", "yellow"),
            ("red", "red"),
            ("blue", "yellow"),
            ("yellow", "green", "blue"),
        ),
        big=("red", "blue", "yellow", "yellow"),
    )
    cond = Conditions(width=1920, height=1080, tilt_deg=29, azimuth_deg=274, noise=2, hand=True)
    frame, truth = render_kids_table(content, cond, seed)
    assert sum(b["occluded"] for b in truth["bowls"]) >= 3  # the hand lies over the tray
    obs = recognise_kids(frame, BOARDS)
    assert len(obs["bowls"]) == 6
    assert _bowls_right(obs, truth) == []


@pytest.mark.parametrize("sleeve", [SLEEVE_RGB[1], SLEEVE_RGB[4], SKIN_RGB[1]])
def test_an_arm_of_a_tiles_colour_across_a_bowls_edge_covers_it(sleeve: tuple[int, int, int]) -> None:
    h = _tray_to_image()
    img = _draw_tray(h)
    x, y, r = bowl_centres_mm()[3]
    # a red or yellow sleeve (or skin as saturated as a tile) from outside the tray,
    # reaching a third of the way over the bowl's floor; a blue circle lies beyond it
    u = np.array([x, y]) / math.hypot(x, y)
    v = np.array([-u[1], u[0]])
    tip, base = np.array([x, y]) + 0.35 * r * u, np.array([x, y]) + 3.0 * r * u
    _fill(img, h, np.array([tip + 12 * v, base + 12 * v, base - 12 * v, tip - 12 * v]), sleeve[::-1])
    disc = np.array([[11 * math.cos(t), 11 * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 40)])
    _fill(img, h, disc + np.array([x, y]) - 0.5 * r * u, (204, 122, 38))
    readings = read_bowls(img, Plane(h, (img.shape[1], img.shape[0])))
    centre = cv2.perspectiveTransform(np.float64([[[x, y]]]), h)[0, 0]
    under = min(readings, key=lambda b: math.dist(b.center, centre))
    assert under.occluded
    assert all(n <= {"blue": 1}.get(c, 0) for c, n in under.tiles.items())
    assert not any(b.occluded for b in readings if b is not under)


def test_tiles_of_one_colour_lying_close_in_a_coarse_photo_are_each_counted() -> None:
    # a 4-player table seen from far and at a slant: about 1 px per mm, so the 1.5 mm
    # between tiles is a pixel or two, which blur, JPEG and the tiles' side faces bridge
    content = KidsTableContent(
        tuple(_empty(BOARDS[k % len(BOARDS)]) for k in range(4)),
        bowls=(
            ("green", "yellow", "yellow", "green", "blue"),
            ("yellow", "yellow", "blue", "blue"),
            ("green", "green", "red", "green", "green"),
            ("red", "red", "blue", "blue", "red"),
            ("green", "yellow", "blue", "blue", "blue"),
        ),
        big=("yellow", "blue", "blue", "red", "red"),
    )
    cond = Conditions(
        width=1920,
        height=1080,
        tilt_deg=39,
        azimuth_deg=304,
        hfov_deg=65,
        framing=0.87,
        noise=2,
        jpeg_quality=55,
        table="white",
        shadow=0.4,
    )
    frame, truth = render_kids_table(content, cond, 3)
    assert truth["geometry"]["camera"]["px_per_mm"] < 1.3
    obs = recognise_kids(frame, BOARDS)
    assert _bowls_right(obs, truth) == []


def test_two_blurred_circles_run_together_are_split_into_two_tiles() -> None:
    # two blue circles a fifth of a millimetre apart, blurred into one blob: each part
    # the split cuts off has a straight side where they met, and still counts as a circle
    s = 2.5
    step = np.array([math.cos(math.radians(30)), math.sin(math.radians(30))]) * 22.2
    tiles = [
        ("circle", *(np.array([45.0, 45.0]) - step / 2), 10),
        ("circle", *(np.array([45.0, 45.0]) + step / 2), 10),
    ]
    faces = _read(_bowl_patch(tiles, s, 0.8), s)
    assert [(f.value, f.count) for f in faces] == [("blue", 1), ("blue", 1)]
