"""The ArUco aid on synthetic kiosk frames: markers drawn on a table, photographed by a
pinhole camera at 0-45 degrees, blurred, noisy and JPEG-compressed."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import boards
from vision.aruco import (
    BOARD_MM,
    MarkerLayout,
    MarkerPlace,
    aided_regions,
    apply_h,
    aruco_dictionary,
    board_regions,
    detect_markers,
    table_homography,
)
from vision.synth.camera import Camera, fit_camera

TEXTURE_PX_PER_MM = 2.0
MARGIN_MM = 150.0
BOARD_CORNERS = [[0, 0], [BOARD_MM[0], 0], [BOARD_MM[0], BOARD_MM[1]], [0, BOARD_MM[1]]]


def turn(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1.0]])


def shift(dx: float, dy: float) -> np.ndarray:
    return np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]])


def board_pose(layout: MarkerLayout, seat: int, moved: np.ndarray | None = None) -> np.ndarray:
    """Board mm -> table mm for a seat's board, `moved` (board mm -> board mm) from its place."""
    return layout.seat_pose(layout.seats[seat]) @ (np.eye(3) if moved is None else moved)


def render(layout: MarkerLayout, *, tilt: float, azimuth: float = 20.0, roll: float = 4.0, players: int = 4,
           tagged: tuple[int, ...] = (), moved: dict[int, np.ndarray] | None = None,
           misplaced: dict[int, tuple[float, float]] | None = None, hidden: tuple[int, ...] = (),
           half_hidden: tuple[int, ...] = (), seed: int = 0, size: tuple[int, int] = (1600, 1200),
           jpeg: int = 75) -> tuple[np.ndarray, Camera]:
    """A photo of the table and the camera that took it (camera.homography(): table mm -> px)."""
    rng = np.random.default_rng(seed)
    moved = moved or {}
    misplaced = misplaced or {}
    k = TEXTURE_PX_PER_MM
    w, h = layout.width + 2 * MARGIN_MM, layout.height + 2 * MARGIN_MM
    # Table mm -> texture px (pixel centres at integers).
    to_tex = np.array([[k, 0, k * MARGIN_MM - 0.5], [0, k, k * MARGIN_MM - 0.5], [0, 0, 1.0]])
    grain = cv2.resize(rng.normal(0, 1, (40, 40)), (round(w * k), round(h * k)))
    wood = np.stack([185 + 12 * grain, 205 + 10 * grain, 222 + 8 * grain], axis=-1)
    tex = np.clip(wood, 0, 255).astype(np.uint8)

    def put_marker(place: MarkerPlace, frame_to_table: np.ndarray) -> None:
        side = 200
        img = cv2.aruco.generateImageMarker(aruco_dictionary(layout.dictionary), place.id, side)
        img = cv2.copyMakeBorder(img, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)  # the white paper
        pad = place.size * 40 / side
        src = np.float32([[0, 0], [side + 80, 0], [side + 80, side + 80], [0, side + 80]]) - 0.5
        c = place.corners()
        out = (c - c.mean(axis=0)) * (place.size + 2 * pad) / place.size + c.mean(axis=0)
        dst = apply_h(to_tex @ frame_to_table, out)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        m = cv2.getPerspectiveTransform(src, (dst - (x0, y0)).astype(np.float32))
        roi = tex[y0:y1, x0:x1]
        warped = cv2.warpPerspective(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), m, roi.shape[1::-1],
                                     flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full(img.shape, 255, np.uint8), m, roi.shape[1::-1])
        a = (mask.astype(np.float32) / 255)[..., None]
        roi[:] = (roi * (1 - a) + warped * a).astype(np.uint8)

    for seat in range(players):
        pose = board_pose(layout, seat, moved.get(seat))
        quad = apply_h(to_tex @ pose, BOARD_CORNERS)
        cv2.fillPoly(tex, [np.round(quad).astype(np.int32)], (170, 110, 30), cv2.LINE_AA)
        inner = apply_h(to_tex @ pose, [[10, 80], [250, 80], [250, 240], [10, 240]])
        cv2.fillPoly(tex, [np.round(inner).astype(np.int32)], (200, 225, 235), cv2.LINE_AA)
        if seat in tagged:
            for s, place in layout.tags:
                if s == seat and place.id not in hidden:
                    put_marker(place, pose)
    for place in layout.table:
        if place.id in misplaced:
            place = MarkerPlace(place.id, misplaced[place.id], place.size)
        put_marker(place, np.eye(3))
    # A hand over a marker: a skin-coloured blob covering it whole, or its left half.
    for ids, frac in ((hidden, 1.0), (half_hidden, 0.5)):
        for place in list(layout.table) + [p for _s, p in layout.tags]:
            if place.id not in ids:
                continue
            owner = [s for s, p in layout.tags if p is place]
            to_table = board_pose(layout, owner[0], moved.get(owner[0])) if owner else np.eye(3)
            c = place.corners()
            if frac < 1:
                c = np.array([c[0], c[0] + (c[1] - c[0]) * 0.55, c[3] + (c[2] - c[3]) * 0.55, c[3]])
            grown = (c - c.mean(axis=0)) * 1.3 + c.mean(axis=0)
            poly = apply_h(to_tex @ to_table, grown)
            cv2.fillPoly(tex, [np.round(poly).astype(np.int32)], (120, 150, 205), cv2.LINE_AA)

    corners = np.array([[x, y, 0.0] for x in (-MARGIN_MM / 2, layout.width + MARGIN_MM / 2)
                        for y in (-MARGIN_MM / 2, layout.height + MARGIN_MM / 2)])
    cam = fit_camera(corners, tilt_deg=tilt, azimuth_deg=azimuth, roll_deg=roll, hfov_deg=62.0,
                     width=size[0], height=size[1], framing=1.0)
    h_tex = cam.homography() @ np.linalg.inv(to_tex)
    frame = cv2.warpPerspective(tex, h_tex, size, flags=cv2.INTER_AREA, borderValue=(60, 60, 60))
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    frame = np.clip(frame + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), cam


def check_points(layout: MarkerLayout) -> np.ndarray:
    """Table points the recogniser cares about: every seat's board corners, the middle,
    and the play area's corners."""
    pts = [[layout.width / 2, layout.height / 2]] + [list(p.center) for p in layout.table]
    for seat in layout.seats:
        pose = layout.seat_pose(seat)
        pts += apply_h(pose, BOARD_CORNERS).tolist()
    return np.array(pts)


def table_error_mm(h: np.ndarray, cam: Camera, layout: MarkerLayout) -> float:
    """Largest distance, table mm, between known table points and where H puts their images."""
    truth = check_points(layout)
    seen = apply_h(h, apply_h(cam.homography(), truth))
    return float(np.linalg.norm(seen - truth, axis=1).max())


def test_the_layout_board_is_the_recognisers_board():
    assert BOARD_MM == (boards.BOARD_W_MM, boards.BOARD_H_MM)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_layout_uses_distinct_ids_of_its_dictionary(players):
    layout = MarkerLayout.for_players(players)
    ids = [p.id for p in layout.table] + [p.id for _s, p in layout.tags]
    assert len(ids) == len(set(ids))
    assert max(ids) < aruco_dictionary(layout.dictionary).bytesList.shape[0]
    assert [s.seat for s in layout.seats] == list(range(players))
    assert {s for s, _p in layout.tags} == set(range(players))


def test_a_layout_for_five_players_is_refused():
    with pytest.raises(ValueError, match="5"):
        MarkerLayout.for_players(5)


@pytest.mark.parametrize(("tilt", "limit_mm"), [(0, 1.5), (30, 1.5), (45, 2.0)])
def test_the_table_plane_is_recovered_to_a_few_mm(tilt, limit_mm):
    layout = MarkerLayout.for_players(4)
    frame, cam = render(layout, tilt=tilt)
    markers = detect_markers(frame)
    assert [m.id for m in markers if m.id < 4] == [0, 1, 2, 3]
    h, quality = table_homography(markers, layout)
    assert h is not None, quality.problem
    error = table_error_mm(h, cam, layout)
    print(f"tilt {tilt}: largest error {error:.2f} mm, rms {quality.rms_mm:.2f} mm")
    assert error < limit_mm
    assert quality.used == 4 and quality.problem is None and quality.confidence > 0.8


def test_px_per_mm_is_the_cameras_scale_at_the_middle():
    layout = MarkerLayout.for_players(2)
    frame, cam = render(layout, tilt=30, players=2, seed=3)
    aid = aided_regions(frame, layout, 2)
    assert aid is not None and aid.px_per_mm is not None
    middle = (layout.width / 2, layout.height / 2)
    truth = apply_h(cam.homography(), [middle, (middle[0] + 1, middle[1]), (middle[0], middle[1] + 1)])
    jac = np.stack([truth[1] - truth[0], truth[2] - truth[0]], axis=1)
    assert aid.px_per_mm == pytest.approx(math.sqrt(abs(np.linalg.det(jac))), rel=0.01)


def test_rectified_table_puts_markers_where_the_layout_says():
    layout = MarkerLayout.for_players(4)
    frame, _cam = render(layout, tilt=40, seed=5)
    aid = aided_regions(frame, layout, 4)
    assert aid is not None
    top_down = aid.rectify(frame, px_per_mm=1.5, margin_mm=60)
    assert top_down.shape[:2] == (round(1120 * 1.5), round(1120 * 1.5))
    found = {m.id: m.center for m in detect_markers(top_down)}
    for place in layout.table:
        expected = (np.array(place.center) + 60) * 1.5 - 0.5
        assert np.linalg.norm(found[place.id] - expected) < 1.5 * 2  # 2 mm


def test_a_hidden_table_marker_lowers_the_quality_but_keeps_the_plane():
    layout = MarkerLayout.for_players(4)
    frame, cam = render(layout, tilt=30, hidden=(2,), seed=1)
    full_frame, _ = render(layout, tilt=30, seed=1)
    h, quality = table_homography(detect_markers(frame), layout)
    _h, full = table_homography(detect_markers(full_frame), layout)
    assert h is not None
    assert (quality.seen, quality.used, quality.expected) == (3, 3, 4)
    assert quality.confidence < full.confidence
    assert table_error_mm(h, cam, layout) < 5.0


def test_a_half_covered_marker_is_not_misread():
    layout = MarkerLayout.for_players(4)
    frame, cam = render(layout, tilt=30, half_hidden=(1,), seed=2)
    markers = detect_markers(frame)
    h, quality = table_homography(markers, layout)
    assert h is not None and quality.used >= 3
    assert table_error_mm(h, cam, layout) < 5.0


def test_two_hidden_table_markers_give_no_plane_and_say_why():
    layout = MarkerLayout.for_players(4)
    frame, _cam = render(layout, tilt=30, hidden=(0, 3), seed=4)
    h, quality = table_homography(detect_markers(frame), layout)
    assert h is None
    assert quality.seen == 2 and quality.confidence == 0.0
    assert "2 of 4" in quality.problem
    assert aided_regions(frame, layout, 4) is None  # no board tags either


def test_a_misplaced_table_marker_is_left_out():
    layout = MarkerLayout.for_players(4)
    frame, cam = render(layout, tilt=20, misplaced={3: (60.0, 960.0)}, seed=6)
    h, quality = table_homography(detect_markers(frame), layout)
    assert h is not None
    assert quality.outliers == (3,) and quality.used == 3
    assert table_error_mm(h, cam, layout) < 5.0


def test_markers_bunched_in_one_place_are_refused():
    # Three markers a few cm apart: they agree on a plane, but say little about the far side.
    layout = MarkerLayout.for_players(4)
    table = (*(MarkerPlace(i, (100.0 * i, 0.0), 60.0) for i in range(3)), MarkerPlace(3, (1000, 1000), 60))
    bunched = MarkerLayout(layout.width, layout.height, table, layout.seats, layout.tags)
    frame, _cam = render(bunched, tilt=10, hidden=(3,), seed=7)
    h, quality = table_homography(detect_markers(frame), bunched)
    assert h is None and quality.used == 3 and quality.spread < 0.2
    assert "too close" in quality.problem


def test_board_tags_follow_a_board_pushed_out_of_its_place():
    layout = MarkerLayout.for_players(4)
    moved = shift(130, 125) @ turn(-8) @ shift(-130 + 35, -125 - 20)  # turned 8 degrees, pushed 35 mm
    frame, cam = render(layout, tilt=30, tagged=(0,), moved={0: moved}, seed=8)
    aid = aided_regions(frame, layout, 4)
    assert aid is not None and aid.table_h is not None
    by_seat = {r.seat: r for r in aid.boards}
    assert [r.seat for r in aid.boards] == [0, 1, 2, 3]
    assert by_seat[0].source == "tags" and by_seat[1].source == "seat"
    corners = BOARD_CORNERS
    truth = apply_h(cam.homography() @ board_pose(layout, 0, moved), corners)
    assert np.linalg.norm(by_seat[0].quad - truth, axis=1).max() < 4 * aid.px_per_mm
    unmoved = apply_h(cam.homography() @ board_pose(layout, 2), corners)
    assert np.linalg.norm(by_seat[2].quad - unmoved, axis=1).max() < 4 * aid.px_per_mm
    assert by_seat[0].confidence > by_seat[2].confidence


def test_one_board_tag_is_enough_with_the_table_plane():
    layout = MarkerLayout.for_players(2)
    moved = shift(-20, 10) @ turn(5)
    frame, cam = render(layout, tilt=25, players=2, tagged=(0, 1), moved={1: moved}, hidden=(12,), seed=9)
    aid = aided_regions(frame, layout, 2)
    region = {r.seat: r for r in aid.boards}[1]
    assert region.source == "tags"
    truth = apply_h(cam.homography() @ board_pose(layout, 1, moved), BOARD_CORNERS)
    assert np.linalg.norm(region.quad - truth, axis=1).max() < 8 * aid.px_per_mm


def test_both_board_tags_place_a_board_without_the_table_markers():
    layout = MarkerLayout.for_players(2)
    frame, cam = render(layout, tilt=20, players=2, tagged=(0,), hidden=(0, 1, 2, 3), seed=10)
    aid = aided_regions(frame, layout, 2)
    assert aid is not None and aid.table_h is None and aid.px_per_mm is None
    assert aid.quality.problem is not None
    assert [(r.seat, r.source) for r in aid.boards] == [(0, "tags")]
    truth = apply_h(cam.homography() @ board_pose(layout, 0), BOARD_CORNERS)
    scale = cam.px_per_mm(np.array([[450.0, 655.0, 0.0]]))
    # Two tags along one edge pin the far edge loosely: a search window, and said so.
    assert np.linalg.norm(aid.boards[0].quad - truth, axis=1).max() < 30 * scale
    assert aid.boards[0].confidence < 0.5


def test_a_fixed_camera_keeps_the_table_plane_while_arms_hide_the_markers():
    layout = MarkerLayout.for_players(4)
    clear, _cam = render(layout, tilt=30, seed=13)
    covered, _cam = render(layout, tilt=30, tagged=(1,), hidden=(0, 1, 2), seed=14)
    before = aided_regions(clear, layout, 4)
    assert aided_regions(covered, layout, 4).table_h is None
    after = aided_regions(covered, layout, 4, previous=before)
    assert after.table_h is before.table_h and after.quality.carried
    assert {r.seat: r.source for r in after.boards} == {0: "seat", 1: "tags", 2: "seat", 3: "seat"}
    # The camera was knocked: marker 3, still in view, is far from where the old plane puts it.
    knocked, _cam = render(layout, tilt=36, azimuth=40, hidden=(0, 1, 2), seed=15)
    assert aided_regions(knocked, layout, 4, previous=before) is None


def test_seats_are_turned_as_players_sit_round_the_table():
    layout = MarkerLayout.for_players(4)
    frame, cam = render(layout, tilt=0, azimuth=0, roll=0, seed=11)
    markers = detect_markers(frame)
    h, _q = table_homography(markers, layout)
    regions = board_regions(h, layout, 4, markers)
    assert [r.rotation for r in regions] == [0, 90, 180, 270]
    for r in regions:
        centre = apply_h(r.board_h, [[130, 125]])[0]
        assert np.linalg.norm(centre - apply_h(cam.homography(), [layout.seats[r.seat].center])[0]) < 3
    assert len(board_regions(h, layout, 3, markers)) == 3
    assert board_regions(None, layout, 4, markers) == []


@pytest.mark.parametrize("frame", [
    None, [], "a photo", np.zeros((0, 0, 3), np.uint8), np.zeros((4, 4, 3), np.uint8),
    np.full((120, 160), np.nan), np.zeros((120, 160, 7), np.uint8), np.zeros((2, 3, 4, 5), np.uint8),
    np.full((480, 640, 3), 255, np.uint8), np.random.default_rng(0).integers(0, 256, (480, 640, 4), np.uint8),
])
def test_a_bad_frame_gives_nothing_and_never_raises(frame):
    layout = MarkerLayout.for_players(4)
    assert detect_markers(frame) == []
    assert aided_regions(frame, layout, 4) is None


def test_grey_and_float_frames_are_read():
    layout = MarkerLayout.for_players(2)
    frame, _cam = render(layout, tilt=10, players=2, seed=12)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert [m.id for m in detect_markers(grey)] == [0, 1, 2, 3]
    assert [m.id for m in detect_markers(grey[..., None])] == [0, 1, 2, 3]
    assert [m.id for m in detect_markers(grey.astype(np.float32))] == [0, 1, 2, 3]
