"""The synthetic table renderer: deterministic, realistic colours, truthful ground truth."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.synth import (
    COLORS,
    BoardContent,
    BoardPlacement,
    Conditions,
    Layout,
    TableContent,
    mixed_table,
    printed_color,
    random_content,
    render_table,
)
from vision.synth.designs import TILE_MEDIAN_RGB
from vision.synth.factory import DISC_RADIUS_MM
from vision.synth.photo import camera_look
from vision.synth.truth import MIDDLE_RADIUS_MM, quarter_turns

EMPTY = BoardContent()


def _leaves(obj: object) -> list:
    """Every leaf value of a JSON-like object."""
    if isinstance(obj, dict):
        return [v for x in obj.values() for v in _leaves(x)]
    if isinstance(obj, list):
        return [v for x in obj for v in _leaves(x)]
    return [obj]


def _region(frame: np.ndarray, quad: list, shrink: float = 0.5) -> np.ndarray:
    """Pixels of the middle part of an image quad (shrunk about its centre)."""
    q = np.float32(quad)
    c = q.mean(axis=0)
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(c + (q - c) * shrink)), 1)
    return frame[mask.astype(bool)]


def _cross_layout(n_factories: int = 5) -> Layout:
    """Boards S, W, N, E (content order 0..3); factories clockwise from due east."""
    boards = (
        BoardPlacement(0, 380, 0),
        BoardPlacement(-380, 0, 90),
        BoardPlacement(0, -380, 180),
        BoardPlacement(380, 0, 270),
    )
    angles = np.linspace(0, 2 * np.pi, n_factories, endpoint=False) + 0.2
    factories = tuple((150 * np.cos(a), 150 * np.sin(a)) for a in angles)
    return Layout(boards, factories, (0.0, 0.0), 90.0)


def _distinct_boards() -> list[BoardContent]:
    """Four boards told apart by their first pattern line and score."""
    return [
        BoardContent(lines=[(c, 1), (None, 0), ("red", 2), (None, 0), (None, 0)], score=10 * i)
        for i, c in enumerate(["blue", "yellow", "black", "white"])
    ]


def test_same_seed_same_frame_and_other_seed_another() -> None:
    content = random_content(np.random.default_rng(5), 3)
    cond = Conditions.random(np.random.default_rng(6), 1920, 1080)
    a, ta = render_table(content, cond, 42)
    b, tb = render_table(content, cond, 42)
    c, _ = render_table(content, cond, 43)
    assert np.array_equal(a, b)
    assert ta == tb
    assert not np.array_equal(a, c)


def test_truth_reads_back_the_content_in_seat_order() -> None:
    boards = _distinct_boards()
    boards[1] = replace(
        boards[1],
        floor=["marker", "red", None, None, None, None, None],
        wall=[[printed_color(r, c) if r == c else None for c in range(5)] for r in range(5)],
    )
    content = TableContent(
        boards=boards,
        factories=[["red"] * k for k in (1, 2, 3, 4, 0)],
        center_tiles={"blue": 2, "white": 1},
        center_marker=True,
    )
    _, truth = render_table(content, replace(Conditions.neutral(), layout=_cross_layout()), 1)
    json.dumps(truth)
    assert truth["format"] == "azul-observation/1"
    assert truth["image"] == {"width": 1920, "height": 1080}
    # seat 0 is nearest the bottom edge (the south board), then bottom, left, top, right
    assert [g["content_index"] for g in truth["geometry"]["boards"]] == [0, 1, 2, 3]
    assert [b["rotation"] for b in truth["boards"]] == [0, 90, 180, 270]
    assert [quarter_turns(g["outline"]) for g in truth["geometry"]["boards"]] == [{0}, {90}, {180}, {270}]
    for seen, board in zip(truth["boards"], boards, strict=True):
        assert [(x["color"], x["count"]) for x in seen["lines"]] == list(board.lines)
        assert seen["floor"] == list(board.floor)
        assert seen["wall"] == [list(row) for row in board.wall]
        assert seen["side"] == "colored" and seen["confidence"] == 1.0
    assert truth["center"] == {"tiles": {"blue": 2, "white": 1}, "marker": True, "unknown": 0}
    assert truth["occluded"] is False


def test_seats_follow_the_image_when_the_camera_stands_elsewhere() -> None:
    content = TableContent(boards=_distinct_boards(), factories=[[]] * 5)
    # camera on the north side, leaning: the north board is now nearest the bottom edge
    cond = replace(Conditions.neutral(), layout=_cross_layout(), azimuth_deg=180, tilt_deg=30)
    _, truth = render_table(content, cond, 2)
    assert [g["content_index"] for g in truth["geometry"]["boards"]] == [2, 3, 0, 1]
    assert [b["rotation"] for b in truth["boards"]] == [0, 90, 180, 270]
    assert [quarter_turns(g["outline"]) for g in truth["geometry"]["boards"]] == [{0}, {90}, {180}, {270}]
    assert [b["lines"][0]["color"] for b in truth["boards"]] == ["black", "white", "blue", "yellow"]
    ys = [b["center"][1] for b in truth["boards"]]
    assert ys[0] == max(ys)


@pytest.mark.parametrize(
    ("angle", "turns"),
    [(30, {0}), (43.5, {0, 90}), (46.5, {0, 90}), (48, {90}), (-135.5, {180, 270}), (181, {180})],
)
def test_a_board_near_half_way_between_quarter_turns_may_be_read_at_either(angle: float, turns: set) -> None:
    # a board turned clockwise by `angle` in the image (y down): its top edge's corners first
    a = math.radians(angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    outline = np.array([[-150, -100], [150, -100], [150, 100], [-150, 100]]) @ turn.T + (900, 500)
    assert quarter_turns(outline) == turns


@pytest.mark.parametrize("azimuth", [0, 90, 225])
def test_factories_are_numbered_clockwise_from_the_bottom(azimuth: float) -> None:
    n = 7
    factories = [["blue"] * (k % 4 + 1) if k < 4 else ["red"] * (k - 3) for k in range(n)]
    content = TableContent(boards=_distinct_boards(), factories=factories)
    cond = replace(Conditions.neutral(), layout=_cross_layout(n), azimuth_deg=azimuth, tilt_deg=20)
    _, truth = render_table(content, cond, 3)
    geo = truth["geometry"]["factories"]
    centers = np.array([f["center"] for f in truth["factories"]])
    middle = np.array(truth["geometry"]["middle"])
    assert centers[0][1] == centers[:, 1].max()
    angles = np.unwrap(np.arctan2(*(centers - middle).T[::-1]))
    assert (np.diff(angles) > 0).all()  # increasing image angle with y down = clockwise on screen
    for seen, g in zip(truth["factories"], geo, strict=True):
        assert sorted(seen["tiles"]) == sorted(factories[g["content_index"]])
    # the layout's factories go round clockwise (seen from above) too, so content order is a rotation
    order = [g["content_index"] for g in geo]
    start = order.index(0)
    assert order[start:] + order[:start] == list(range(n))


def test_tile_centres_match_the_measured_colours_in_neutral_light() -> None:
    content = TableContent(
        boards=[EMPTY, EMPTY], factories=[[]] * 5, center_tiles={c: 1 for c in COLORS}, center_marker=True
    )
    frame, truth = render_table(content, replace(Conditions.neutral(), framing=2.5), 4)
    tiles = truth["geometry"]["center_tiles"]
    assert sorted(t["color"] for t in tiles) == sorted([*COLORS, "marker"])
    for tile in tiles:
        rgb = np.median(_region(frame, tile["top"])[:, ::-1], axis=0)
        assert np.abs(rgb - TILE_MEDIAN_RGB[tile["color"]]).max() <= 12, (tile["color"], rgb)


def test_printed_wall_cells_are_paler_than_tiles() -> None:
    # one tile of each colour on a board's pattern lines; the printed wall beside them
    lines = [(c, 1) for c in COLORS]
    content = TableContent(boards=[BoardContent(lines=lines), EMPTY], factories=[[]] * 5)
    frame, truth = render_table(content, Conditions.neutral(), 5)
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    geo = next(g for g in truth["geometry"]["boards"] if g["content_index"] == 0)
    for k, color in enumerate(COLORS):
        tile = np.median(_region(hsv, geo["lines"][k][0]), axis=0)
        column = next(c for c in range(5) if printed_color(k, c) == color)
        printed = np.median(_region(hsv, geo["wall"][k][column]), axis=0)
        paler = printed[2] > tile[2] + 15 or printed[1] < tile[1] - 25
        assert paler, (color, "tile HSV", tile, "printed HSV", printed)


def test_a_hand_over_a_board_hides_its_cells() -> None:
    content = random_content(np.random.default_rng(9), 4, fill=0.8)
    base = replace(Conditions.neutral(), tilt_deg=25, azimuth_deg=40)
    for seed in range(40):
        with_hand, truth = render_table(content, replace(base, hand=True), seed)
        unknown = [
            (b, g)
            for b, g in zip(truth["boards"], truth["geometry"]["boards"], strict=True)
            if "unknown" in _leaves(b)
        ]
        if unknown:
            break
    else:
        pytest.fail("no seed put the hand over a board")
    without, clear = render_table(content, base, seed)
    assert truth["occluded"] is True
    assert clear["occluded"] is False
    assert "unknown" not in _leaves([clear["boards"], clear["factories"], clear["center"]])
    hidden_cells = 0
    for board, geo in unknown:
        for r in range(5):
            for c in range(5):
                if board["wall"][r][c] == "unknown":
                    hidden_cells += 1
                    diff = np.abs(
                        _region(with_hand, geo["wall"][r][c]).astype(int)
                        - _region(without, geo["wall"][r][c]).astype(int)
                    )
                    assert diff.mean() > 20  # the cell really is covered in the frame
        for i, place in enumerate(board["floor"]):
            hidden_cells += place == "unknown"
            if place != "unknown":
                assert place == content.boards[geo["content_index"]].floor[i]
    assert hidden_cells > 0


def test_a_hand_over_an_empty_disc_hides_its_middle() -> None:
    content = TableContent(boards=(EMPTY, EMPTY), factories=((),) * 5)
    base = replace(Conditions.neutral(), tilt_deg=25, azimuth_deg=40)
    for seed in range(40):
        with_hand, truth = render_table(content, replace(base, hand=True), seed)
        shares = [g["middle_hidden"] for g in truth["geometry"]["factories"]]
        if max(shares) > 0.5:
            break
    else:
        pytest.fail("no seed put the hand over a disc")
    without, clear = render_table(content, base, seed)
    assert [g["middle_hidden"] for g in clear["geometry"]["factories"]] == [0.0] * 5
    assert all(f["tiles"] == [] and f["unknown"] == 0 for f in truth["factories"])  # no tile hidden
    disc = shares.index(max(shares))
    centre = np.float32(truth["geometry"]["factories"][disc]["center"])
    outline = np.float32(truth["geometry"]["factories"][disc]["outline"])
    middle = centre + (outline - centre) * (MIDDLE_RADIUS_MM / DISC_RADIUS_MM)
    covered = np.abs(_region(with_hand, middle, 1.0).astype(int) - _region(without, middle, 1.0).astype(int))
    assert (covered.max(axis=1) > 40).mean() > 0.4  # the middle really is covered in the frame


EXTREMES = [
    Conditions(),
    Conditions(
        tilt_deg=45,
        azimuth_deg=300,
        roll_deg=180,
        hfov_deg=75,
        framing=0.6,
        kelvin=2700,
        exposure=1.4,
        gradient=1.0,
        vignette=1.0,
        light_elevation_deg=10,
        shadow=0.9,
        glare=1.0,
        motion_blur_px=20,
        motion_angle_deg=170,
        defocus_px=8,
        noise=25,
        jpeg_quality=5,
        table="wood",
        cups=4,
        bottles=3,
        mats=4,
        bags=2,
        hand=True,
    ),
    Conditions(
        tilt_deg=45,
        roll_deg=-90,
        hfov_deg=30,
        framing=4.0,
        kelvin=6500,
        exposure=0.4,
        light_elevation_deg=90,
        glare=1.0,
        jpeg_quality=100,
        table="white",
        hand=True,
    ),
    Conditions(
        tilt_deg=0,
        kelvin=10000,
        noise=0,
        glare=0,
        board_jitter_mm=80,
        board_jitter_deg=20,
        factory_jitter_mm=40,
        table="wood",
        mats=6,
    ),
]


@pytest.mark.parametrize("size", [(1920, 1080), (4000, 3000)])
@pytest.mark.parametrize("index", range(len(EXTREMES)))
def test_every_extreme_condition_renders(size: tuple[int, int], index: int) -> None:
    players = 2 + index % 3
    content = random_content(np.random.default_rng(index), players)
    cond = replace(EXTREMES[index], width=size[0], height=size[1])
    frame, truth = render_table(content, cond, index)
    assert frame.shape == (size[1], size[0], 3) and frame.dtype == np.uint8
    assert 10 < frame.mean() < 245
    json.dumps(truth)


@pytest.mark.parametrize("seed", range(4))
def test_geometry_lies_inside_the_image_when_everything_is_framed(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cond = replace(Conditions.random(rng, 1920, 1080), framing=float(rng.uniform(0.7, 1.0)), hand=False)
    content = random_content(rng, 2 + seed % 3)
    _, truth = render_table(content, cond, seed)
    geo = truth["geometry"]
    assert len(geo["boards"]) == len(content.boards)
    assert len(geo["factories"]) == len(content.factories)
    polys = [b["outline"] for b in geo["boards"]] + [f["outline"] for f in geo["factories"]]
    polys += [q for b in geo["boards"] for q in b["floor"] + [c for row in b["wall"] for c in row]]
    polys += [q for b in geo["boards"] for line in b["lines"] for q in line]
    pts = np.concatenate([np.float32(p) for p in polys])
    assert (pts >= 0).all() and (pts[:, 0] < 1920).all() and (pts[:, 1] < 1080).all()


def test_zooming_in_leaves_out_of_frame_places_unknown() -> None:
    content = TableContent(boards=_distinct_boards(), factories=[[]] * 5)
    cond = replace(Conditions.neutral(), layout=_cross_layout(), framing=1.3)
    _, truth = render_table(content, cond, 6)
    assert truth["occluded"] is False  # nothing covers the game; it is just out of frame
    assert any("unknown" in _leaves(b) for b in truth["boards"])
    assert 0 < len(truth["boards"]) <= 4


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: BoardContent(lines=[("red", 2)] + [(None, 0)] * 4), "pattern line 1 holds 2"),
        (lambda: BoardContent(floor=["green"] + [None] * 6), "unknown tile 'green'"),
        (lambda: TableContent(boards=[EMPTY, EMPTY], factories=[[]] * 6), "5, 7 or 9 factories"),
        (lambda: Conditions(tilt_deg=60), "tilt 60"),
        (lambda: Conditions(table="glass"), "table 'glass'"),
        (lambda: Conditions(saturation=0.3), "saturation 0.3"),
        (lambda: Conditions(tone=2.5), "tone 2.5"),
    ],
)
def test_bad_scene_descriptions_are_refused_with_a_clear_message(make, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def _chroma(bgr: np.ndarray) -> float:
    lab = cv2.cvtColor(np.float32(bgr).reshape(-1, 1, 3) / 255, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return float(np.hypot(lab[:, 1], lab[:, 2]).mean())


def test_a_camera_look_does_what_each_of_its_settings_names() -> None:
    patches = np.zeros((40, 120, 3), np.uint8)
    patches[:, :40] = (171, 134, 29)  # a blue tile, BGR
    patches[:, 40:80] = (128, 128, 128)
    patches[:, 80:] = (255, 255, 255)
    vivid = camera_look(patches, 1.25, 1.0, 0.0)
    assert _chroma(vivid[:, :40]) > 1.1 * _chroma(patches[:, :40])
    assert np.array_equal(vivid[:, 40:], patches[:, 40:])  # no colour, nothing to scale
    dark = camera_look(patches, 1.0, 1.25, 0.0)
    assert dark[0, 60, 0] == round(255 * (128 / 255) ** 1.25)
    assert dark[0, 100, 0] == 255
    step = np.zeros((40, 40, 3), np.uint8)
    step[:, 20:] = 200
    sharp = camera_look(step, 1.0, 1.0, 1.0)
    assert sharp[20, 21, 0] > 200 and sharp[20, 18, 0] == 0  # an overshoot past the edge, clipped at black
    assert sharp[20, 35, 0] == 200  # flat away from it
    assert np.array_equal(camera_look(patches, 1.0, 1.0, 0.0), patches)


def test_a_frame_seen_through_another_cameras_look_is_the_same_scene() -> None:
    content, cond, rng = mixed_table(7, 5)
    content_look, cond_look, rng_look = mixed_table(7, 5, looks=True)
    assert content_look == content
    assert replace(cond_look, saturation=1.0, tone=1.0, sharpen=0.0) == cond
    assert (cond_look.saturation, cond_look.tone, cond_look.sharpen) != (1.0, 1.0, 0.0)
    assert mixed_table(7, 5, looks=True)[1] == cond_look
    looks = [mixed_table(7, i, looks=True)[1] for i in range(60)]
    assert all(0.8 <= c.saturation <= 1.25 and 0.8 <= c.tone <= 1.25 for c in looks)
    assert 10 <= sum(c.sharpen == 0 for c in looks) <= 30
    frame, truth = render_table(content, replace(cond, width=480, height=270, jpeg_quality=None), rng)
    frame_look, truth_look = render_table(content_look, replace(cond_look, width=480, height=270,
                                                                jpeg_quality=None), rng_look)
    assert truth_look == truth
    assert np.abs(frame_look.astype(int) - frame).mean() > 2


def test_layout_and_content_must_agree() -> None:
    content = TableContent(boards=[EMPTY, EMPTY], factories=[[]] * 5)
    with pytest.raises(ValueError, match="layout has 4 boards"):
        render_table(content, replace(Conditions.neutral(), layout=_cross_layout()), 0)


def test_a_boards_labels_are_the_stored_ones_not_what_the_opencv_installed_draws(monkeypatch):
    # OpenCV 5.1 draws text differently from 5.0. The labels a board prints are stored as
    # 5.0 drew them, so the boards every benchmark frame, test and place model was made
    # from stay the same whichever OpenCV is installed.
    from vision.synth import board

    assert {board._label_key(text, style) for text, style in board._labels()} <= set(board._stored_labels())

    def draw_text(*args, **kwargs):
        pytest.fail("a label was drawn by OpenCV, not taken from the store")

    monkeypatch.setattr(board.cv2, "putText", draw_text)
    artwork, _ = board._draw_board("colored")
    assert artwork.shape[:2] == (round(board.BOARD_H_MM * 6), round(board.BOARD_W_MM * 6))
