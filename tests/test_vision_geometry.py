"""Quadrilaterals, seat order and the camera recovered from a plane's homography."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.geometry import (
    apply_h,
    camera_in_plane,
    clockwise_from_bottom,
    in_frame,
    in_frame_points,
    order_clockwise,
    parallax,
    plane_aspect,
    rect_homography,
    rolled,
    stretches,
)
from vision.synth.camera import look_at


def test_order_clockwise_starts_top_left():
    quad = np.array([[100, 100], [10, 100], [10, 10], [100, 10]], float)
    assert order_clockwise(quad).tolist() == [[10, 10], [100, 10], [100, 100], [10, 100]]


@pytest.mark.parametrize("n", [1, 2, 4, 36])
def test_rolled_turns_an_array_round_as_np_roll_does(n):
    rng = np.random.default_rng(n)
    for a in (rng.normal(size=n), rng.normal(size=(n, 2)), rng.random(n) > 0.5):
        for shift in range(-n - 2, n + 3):
            turned = rolled(a, shift)
            np.testing.assert_array_equal(turned, np.roll(a, shift, axis=0))
            assert turned.dtype == a.dtype


def test_seats_go_bottom_left_top_right():
    middle = np.array([500.0, 500.0])
    centers = [np.array(p, float) for p in ([900, 500], [500, 100], [100, 500], [500, 900])]
    order = clockwise_from_bottom(centers, middle)
    assert order == [3, 2, 1, 0]  # bottom, left, top, right


def test_camera_position_from_homography():
    cam = look_at((0.0, 0.0), 1500.0, tilt_deg=35.0, azimuth_deg=20.0, roll_deg=3.0, hfov_deg=62.0,
                  width=1920, height=1080)
    h = cam.homography(0.0)
    found = camera_in_plane(h, 1920, 1080)
    assert np.allclose(found, cam.position, rtol=0.05, atol=40)


@pytest.mark.parametrize(("tilt", "azimuth", "hfov", "at"), [
    (0.0, 0.0, 64.0, (0.0, 0.0)), (30.0, 40.0, 55.0, (300.0, -150.0)), (45.0, 200.0, 72.0, (-400.0, 200.0)),
    (40.0, 110.0, 60.0, (0.0, 350.0)),
])
def test_plane_aspect_tells_a_board_from_one_cut_short(tilt, azimuth, hfov, at):
    # A 260 x 250 mm board anywhere in the frame, at any tilt up to 45 degrees and any lens
    # of 55-72 degrees, measures near its true 1.04 with the typical lens assumed; the same
    # board with its right 40% under an arm measures near 0.62.
    cam = look_at((0.0, 0.0), 1400.0, tilt_deg=tilt, azimuth_deg=azimuth, roll_deg=4.0, hfov_deg=hfov,
                  width=1920, height=1080)
    x, y = at
    whole = apply_h(cam.homography(0.0), [[x - 130, y - 125], [x + 130, y - 125], [x + 130, y + 125],
                                          [x - 130, y + 125]])
    short = apply_h(cam.homography(0.0), [[x - 130, y - 125], [x + 26, y - 125], [x + 26, y + 125],
                                          [x - 130, y + 125]])
    assert plane_aspect(whole, 1920, 1080) == pytest.approx(260 / 250, rel=0.08)
    assert plane_aspect(short, 1920, 1080) == pytest.approx(156 / 250, rel=0.08)
    assert plane_aspect(np.roll(whole, -1, axis=0), 1920, 1080) == pytest.approx(250 / 260, rel=0.08)


def test_parallax_points_away_from_the_camera_foot():
    camera = np.array([0.0, 0.0, 1000.0])
    shift = parallax(camera, np.array([[100.0, 0.0], [0.0, -200.0]]), 7.0)
    assert shift[0, 0] > 0 and abs(shift[0, 1]) < 1e-9
    assert shift[1, 1] < 0 and abs(shift[1, 1]) > abs(shift[0, 0])


def test_apply_h_identity():
    pts = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert np.allclose(apply_h(np.eye(3), pts), pts)


def test_apply_h_maps_points_as_the_homography_does():
    h = np.array([[1.1, 0.2, 30.0], [-0.1, 0.9, 20.0], [2e-4, -1e-4, 1.0]])
    pts = np.array([[0.0, 0.0], [100.0, 50.0], [-40.0, 300.0]])
    q = np.column_stack([pts, np.ones(3)]) @ h.T
    assert np.allclose(apply_h(h, pts), q[:, :2] / q[:, 2:], rtol=1e-12)
    assert np.allclose(apply_h(h, [100.0, 50.0]), q[1, :2] / q[1, 2])  # one point
    assert apply_h(h, np.empty((0, 2))).shape == (0, 2)


def test_stretches_are_the_singular_values():
    rng = np.random.default_rng(5)
    for m in [*rng.normal(size=(200, 2, 3)), np.zeros((2, 2)), np.array([[2.0, 0], [0, 2.0]]),
              np.array([[1.0, 2.0], [2.0, 4.0]])]:  # a map onto a line stretches one way only
        assert stretches(m) == pytest.approx(tuple(np.linalg.svd(m[:, :2], compute_uv=False)), abs=1e-9)


def test_in_frame_is_the_part_of_a_picture_that_lands_in_the_image():
    # A 260 x 250 picture mapped partly out of a 200 x 200 image, under perspective.
    h = rect_homography(np.array([[-50, -20], [300, 10], [320, 260], [-40, 240.0]]), 260, 250)
    fast = in_frame(h, 260, 250, 200, 200)
    yy, xx = np.mgrid[0:250, 0:260].astype(np.float64)
    q = np.stack([xx + 0.5, yy + 0.5, np.ones_like(xx)], axis=-1) @ h.T
    x, y = q[..., 0] / q[..., 2], q[..., 1] / q[..., 2]
    exact = (x >= 0) & (y >= 0) & (x <= 199) & (y <= 199)
    assert 0.3 < exact.mean() < 0.7
    # Only pixels on the image's outline may differ (a filled polygon's edge pixels).
    ring = cv2.dilate(exact.astype(np.uint8), np.ones((3, 3), np.uint8)) > cv2.erode(
        exact.astype(np.uint8), np.ones((3, 3), np.uint8))
    assert not ((fast != exact) & ~ring).any()
    # The same judged of single points (pixel centres), exactly.
    pts = np.column_stack([xx.ravel() + 0.5, yy.ravel() + 0.5])
    assert np.array_equal(in_frame_points(h, pts, 200, 200), exact.ravel())


def test_points_behind_the_camera_are_not_in_frame():
    # Under this map the line x = 100 of the picture is the horizon: beyond it the sign of
    # w turns, and x/w, y/w land in the image though nothing there is seen.
    h = np.array([[-1.0, 0, 0], [0, -1.0, 0], [-0.01, 0, 1.0]])
    pts = np.array([[-10.0, -10.0], [150.0, 10.0], [50.0, -10.0]])
    assert in_frame_points(h, pts, 2000, 2000).tolist() == [True, False, False]
    assert np.allclose(apply_h(h, pts[1:2]), [[300.0, 20.0]])  # in the image, but behind
    # A picture with its pixel (100, 20) at that origin: the image's corners lie behind
    # the camera, so in_frame judges pixel by pixel. Only the 100 x 20 pixels up and left
    # of the origin are in frame; none of those past the horizon (x 200 on).
    mask = in_frame(h @ np.array([[1.0, 0, -100], [0, 1.0, -20], [0, 0, 1]]), 300, 40, 2000, 2000)
    assert mask[:20, :100].all() and mask.sum() == 2000
