"""Finding boards that are not all in view: cut by the frame's edges, or with an arm
over them; on deterministic synthetic frames and exact camera geometry."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision import boards, cells
from vision.boards import (
    BOARD_H_MM,
    BOARD_W_MM,
    PANEL_BOX_MM,
    BoardFind,
    _cut_side,
    _diagonal_at,
    _intersect,
    _looks_like_board,
    _plane_from_sides,
    _refined,
    _unspeckled,
    _visible_sides,
    bonus_turn,
    frame_covered,
    grown,
    table_plane,
)
from vision.cells import wall_center
from vision.color import WhiteBalance
from vision.geometry import apply_h, rect_homography
from vision.recognize import analyse, recognize
from vision.synth import Conditions, mixed_table, random_content, render_table
from vision.synth.board import PANEL_MM_PER_PX, PANEL_X0_MM, PANEL_Y0_MM
from vision.synth.camera import look_at
from vision.synth.truth import quarter_turns


def _places(board: dict) -> list:
    values = []
    for k, line in enumerate(board["lines"], start=1):
        values += ["unknown" if line["count"] is None else line["color"] if p < line["count"] else None
                   for p in range(k)]
    return values + list(board["floor"]) + [v for row in board["wall"] for v in row]


@pytest.mark.parametrize(("tilt", "azimuth"), [(0.0, 0.0), (30.0, 40.0), (44.0, 200.0)])
def test_three_sides_of_a_board_measure_the_table_plane(tilt, azimuth):
    # A typical lens (about 64 degrees across at 1920 px) sees a board; its left, top and
    # right sides alone must give back the plane well enough to place the hidden bottom side.
    cam = look_at((0.0, 0.0), 1400.0, tilt_deg=tilt, azimuth_deg=azimuth, roll_deg=5.0, hfov_deg=64.0,
                  width=1920, height=1080)
    h = cam.homography(0.0)
    corners = apply_h(h, [[-130, -125], [130, -125], [130, 125], [-130, 125]])  # TL, TR, BR, BL

    def side(a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        d = corners[b] - corners[a]
        return corners[a] + 0.3 * d, d / np.linalg.norm(d)

    sides = [side(3, 0), side(0, 1), side(1, 2)]  # up the left side, along the top, down the right
    to_plane = _plane_from_sides(sides, 1920, 1080)
    assert to_plane is not None
    p = apply_h(to_plane, corners)
    top = np.linalg.norm(p[1] - p[0])
    assert top == pytest.approx(1.0, abs=1e-6)  # the middle side is the unit
    # The hidden corners lie where a 260 x 250 board puts them, square to the top.
    assert np.linalg.norm(p[3] - p[0]) / top == pytest.approx(BOARD_H_MM / BOARD_W_MM, rel=0.04)
    assert np.linalg.norm(p[2] - p[1]) / top == pytest.approx(BOARD_H_MM / BOARD_W_MM, rel=0.04)
    assert abs(np.dot(p[1] - p[0], p[3] - p[0])) / top**2 < 0.03


def test_the_table_plane_gives_the_size_a_board_shows_where_it_lies():
    # Seen steeply, a board far off shows far smaller than one near: the pieces of a board
    # an arm parts are judged by the size a board shows there, not by the boards found.
    cam = look_at((0.0, 0.0), 1400.0, tilt_deg=40.0, azimuth_deg=20.0, roll_deg=0.0, hfov_deg=64.0,
                  width=1920, height=1080)
    h = cam.homography(0.0)
    shown = {}
    for y in (-450.0, 0.0, 450.0):
        corners = apply_h(h, [[-130, y - 125], [130, y - 125], [130, y + 125], [-130, y + 125]])
        true = (np.linalg.norm(corners[2] - corners[0]) + np.linalg.norm(corners[3] - corners[1])) / 2
        shown[y] = _diagonal_at(np.linalg.inv(h), corners.mean(axis=0))
        assert shown[y] == pytest.approx(true, rel=0.03)
    assert shown[-450.0] < 0.8 * shown[450.0] or shown[450.0] < 0.8 * shown[-450.0]


def test_boards_cut_by_the_frame_with_no_whole_board_in_view():
    # Two players framed close: both boards run out of the frame, so no whole board
    # measures the table plane for them; each must be rebuilt from its own sides.
    rng = np.random.default_rng(2)
    frame, truth = render_table(random_content(rng, players=2), Conditions(framing=1.3, shadow=0.35), rng)
    h, w = frame.shape[:2]
    assert all(any(x < 2 or y < 2 or x > w - 3 or y > h - 3 for x, y in b["outline"])
               for b in truth["geometry"]["boards"])
    obs = recognize(frame)
    assert len(obs["boards"]) == 2
    for found, expected in zip(obs["boards"], truth["boards"], strict=True):
        assert np.hypot(*np.subtract(found["center"], expected["center"])) < 15
        assert found["rotation"] == expected["rotation"]
        read, true = _places(found), _places(expected)
        assert all(r == t for r, t in zip(read, true, strict=True) if r != "unknown")
        assert sum(r == t for r, t in zip(read, true, strict=True)) >= 30


def test_an_arm_over_a_boards_edge_does_not_hide_the_board():
    # The arm reaches over the top board's right side and its wall: the board is still
    # found from its other sides, and what the arm covers is not read as anything.
    rng = np.random.default_rng(5)
    frame, truth = render_table(random_content(rng, players=4), Conditions(hand=True, shadow=0.35), rng)
    covered = [i for i, b in enumerate(truth["boards"]) if "unknown" in _places(b)]
    assert len(covered) == 1  # the frame is what this test is about
    obs = recognize(frame)
    assert len(obs["boards"]) == 4
    assert obs["occluded"]
    _assert_found_and_read(obs, truth["boards"][covered[0]], least_right=15)


def _nearest(obs: dict, expected: dict) -> dict:
    """The board found nearest a board of the truth."""
    return min(obs["boards"], key=lambda b: np.hypot(*np.subtract(b["center"], expected["center"])))


def _assert_found_and_read(obs: dict, expected: dict, *, least_right: int, misreads: bool = False,
                           turns: set[int] | None = None, near: float = 15.0) -> None:
    """The board found nearest `expected` lies where it does (its centre within `near`
    px), turned as it is (or at one of `turns`), with at least `least_right` places read
    right and (unless `misreads`) none read wrong. A place the truth hides counts as right
    however it is read: part of it may show past what stands over it (the benchmark
    checks those against what was drawn)."""
    found = _nearest(obs, expected)
    assert np.hypot(*np.subtract(found["center"], expected["center"])) < near
    assert found["rotation"] in (turns or {expected["rotation"]})
    read, true = _places(found), _places(expected)
    if not misreads:
        assert all(r == t for r, t in zip(read, true, strict=True) if r != "unknown" and t != "unknown")
    assert sum(t in (r, "unknown") for r, t in zip(read, true, strict=True)) >= least_right


def _assert_read_exactly(obs: dict, expected: dict) -> None:
    """The board found nearest `expected` is turned as it is, every place read as it is."""
    found = _nearest(obs, expected)
    assert found["rotation"] == expected["rotation"]
    assert _places(found) == _places(expected)


def _assert_every_place_in_view_read(obs: dict, expected: dict, *, least: int = 1,
                                     outline_as_found: bool = False, near: float = 15.0) -> None:
    """The board found nearest `expected` lies where it does, its centre within `near` px
    (unless `outline_as_found`: a grid moved onto the print leaves the outline, and the
    centre given, as found), turned as it is, with every place the truth shows (at least
    `least` of them) read right."""
    found = _nearest(obs, expected)
    assert outline_as_found or np.hypot(*np.subtract(found["center"], expected["center"])) < near
    assert found["rotation"] == expected["rotation"]
    in_view = [(r, t) for r, t in zip(_places(found), _places(expected), strict=True) if t != "unknown"]
    assert len(in_view) >= least and all(r == t for r, t in in_view)


def _assert_nothing_read_wrong(obs: dict, truth: dict) -> None:
    """No place of any board found is read other than the truth of the board nearest it."""
    for found in obs["boards"]:
        expected = min(truth["boards"], key=lambda b: np.hypot(*np.subtract(b["center"], found["center"])))
        assert all(r == t for r, t in zip(_places(found), _places(expected), strict=True)
                   if r != "unknown" and t != "unknown")


def _recognized(seed: int, frame: int) -> tuple[dict, dict, Conditions]:
    """What is recognised in a frame of a seed's mixed run, its truth and conditions."""
    content, cond, rng = mixed_table(seed, frame)
    image, truth = render_table(content, cond, rng)
    return recognize(image), truth, cond


def _sleeve(frame: np.ndarray, outline: list, px_per_mm: float, angle_deg: float, bgr: tuple) -> np.ndarray:
    """The frame with a sleeve 90 mm wide laid across a board's middle."""
    d = np.array([np.cos(np.radians(angle_deg)), np.sin(np.radians(angle_deg))])
    return _sleeve_along(frame, np.mean(outline, axis=0), d, px_per_mm, bgr)


def _sleeve_along(frame: np.ndarray, c: np.ndarray, d: np.ndarray, px_per_mm: float,
                  bgr: tuple) -> np.ndarray:
    """The frame with a sleeve 90 mm wide laid through image point `c` along direction `d`."""
    d = d / np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    half, reach = 45 * px_per_mm, 400 * px_per_mm
    poly = np.array([c - d * reach - n * half, c + d * reach - n * half,
                     c + d * reach + n * half, c - d * reach + n * half])
    mask = np.zeros(frame.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)[..., None]
    # rounded: lit 0.85 along its middle, 0.7 at its edges
    across = np.abs((np.indices(frame.shape[:2]).transpose(1, 2, 0) - c) @ n) / half
    shade = (0.85 - 0.15 * np.clip(across, 0, 1))[..., None]
    return (frame * (1 - mask) + np.float32(bgr) * shade * mask).astype(np.uint8)


@pytest.mark.parametrize(("seed", "players", "board", "angle", "sleeve"), [
    (5, 4, 2, 100.0, (60, 44, 40)),  # navy: as blue as the boards' print, it joined the board and itself
    (7, 3, 0, 60.0, (60, 44, 40)),
    (5, 4, 0, 80.0, (70, 100, 60)),  # green: it parts the board's frame in two
    (5, 4, 1, 10.0, (70, 100, 60)),
    (7, 3, 0, 60.0, (70, 100, 60)),
])
def test_a_sleeve_across_a_board_leaves_it_found_and_turned_right(seed, players, board, angle, sleeve):
    rng = np.random.default_rng(seed)
    frame, truth = render_table(random_content(rng, players=players), Conditions(shadow=0.35), rng)
    geo = truth["geometry"]
    frame = _sleeve(frame, geo["boards"][board]["outline"], geo["camera"]["px_per_mm"], angle, sleeve)
    obs = recognize(frame)
    assert len(obs["boards"]) == players
    assert obs["occluded"]
    # A plain dark band over places looks like black tiles: what lies under it is not judged.
    _assert_found_and_read(obs, truth["boards"][board], least_right=15, misreads=True)


@pytest.mark.parametrize(("seed", "board", "sleeve"), [
    (3, 1, (70, 100, 60)), (5, 0, (150, 150, 150)), (7, 1, (70, 100, 60)), (11, 1, (150, 150, 150)),
])
def test_a_sleeve_over_a_boards_strip_leaves_its_turn_to_the_print(seed, board, sleeve):
    # A sleeve along the owner's top hides the score track and the strip under it, which
    # tell the owner's top: the turn at which the coloured wall's print shows is the board's.
    rng = np.random.default_rng(seed)
    frame, truth = render_table(random_content(rng, players=4), Conditions(shadow=0.35), rng)
    geo = truth["geometry"]
    outline = np.array(geo["boards"][board]["outline"])  # from the owner's top left, clockwise
    top, middle = (outline[0] + outline[1]) / 2, outline.mean(axis=0)
    frame = _sleeve_along(frame, top + (middle - top) * 45 / 125, outline[1] - outline[0],
                          geo["camera"]["px_per_mm"], sleeve)
    obs = recognize(frame)
    assert obs["occluded"]
    _assert_found_and_read(obs, truth["boards"][board], least_right=46)


@pytest.mark.parametrize(("seed", "board"), [(3, 1), (5, 1), (5, 2), (7, 1)])
def test_a_board_turned_to_its_print_need_not_look_like_a_board_again(seed, board):
    # The sleeve over the strip leaves the turn to the print, and a fist over the cream
    # left of the pattern lines hides, with the sleeve, both what the look for a board
    # judges by. The board was found so already: turned, only the print judges the turn.
    rng = np.random.default_rng(seed)
    frame, truth = render_table(random_content(rng, players=4), Conditions(shadow=0.35), rng)
    geo = truth["geometry"]
    px = geo["camera"]["px_per_mm"]
    outline = np.array(geo["boards"][board]["outline"])
    top, middle = (outline[0] + outline[1]) / 2, outline.mean(axis=0)
    frame = _sleeve_along(frame, top + (middle - top) * 45 / 125, outline[1] - outline[0], px, (70, 100, 60))
    to_image = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [BOARD_W_MM, 0], [BOARD_W_MM, BOARD_H_MM], [0, BOARD_H_MM]]), np.float32(outline))
    fist = apply_h(to_image, [[33.0, 131.0]])[0]
    cv2.circle(frame, (round(fist[0]), round(fist[1])), round(32 * px), (90, 120, 170), -1)
    _assert_found_and_read(recognize(frame), truth["boards"][board], least_right=46)


@pytest.mark.parametrize(("frame", "board"), [(29, 1), (74, 0), (95, 1), (131, 3)])
def test_boards_under_arms_of_a_mixed_run_are_found_and_read(frame, board):
    # Frames of seed 21 (no benchmark's) where an arm lies over a board: its frame in two
    # outlines, or a navy sleeve, or the strip half hidden. Each was lost before.
    obs, truth, _ = _recognized(21, frame)
    assert len(obs["boards"]) == len(truth["boards"])
    _assert_found_and_read(obs, truth["boards"][board], least_right=35)


@pytest.mark.parametrize(("frame", "board"), [(32, 0), (187, 1)])
def test_a_board_near_45_degrees_turned_wrong_by_its_strip_is_read_turned_right(frame, board):
    # Seen near 45 degrees, the strip put these boards' owner's top a quarter turn off, so
    # their grids missed the print and nothing was read (the frame taken as occluded).
    obs, truth, cond = _recognized(21, frame)
    assert not cond.hand and not obs["occluded"]
    _assert_found_and_read(obs, truth["boards"][board], least_right=47)


@pytest.mark.parametrize(("frame", "board"), [(28, 2), (33, 1), (77, 2), (186, 0)])
def test_a_board_whose_frame_is_cut_short_along_a_side_is_rebuilt_to_its_size(frame, board):
    # Seed-21 frames where an arm or a sleeve lies along one side of a board (or, steeply
    # seen, its frame's far side thins out): the outline's quad ended there, short of the
    # board, so its grid missed the print and nothing was read.
    obs, truth, _ = _recognized(21, frame)
    _assert_found_and_read(obs, truth["boards"][board], least_right=40)


def test_a_board_whose_corner_only_just_leaves_the_frame_keeps_its_sides():
    # Its outline runs along the frame's top for a few px only, too few for the simplified
    # outline to keep: no stretch of it was taken as the frame's, so the board's sides in
    # view were not looked for, and a quad fitted to the outline cut the corner off.
    corners = np.array([[521.0, 51.0], [613.0, -3.0], [748.0, 55.0], [664.0, 138.0]])
    sides = _visible_sides(_framed_outline(corners), 960, 540)
    assert sides is not None and len(sides) == 4
    rebuilt = [_intersect(sides[i - 1], sides[i]) for i in range(4)]
    for corner in corners:
        assert min(np.linalg.norm(r - corner) for r in rebuilt) < 2


def test_a_board_over_a_corner_of_the_frame_keeps_its_sides_in_view():
    # Its frame's blue leaves the frame by two of its edges; the hull bridges the corner
    # across the board's print, and that chord was taken for a side of it, so the board
    # seemed cut in two places and its sides were not looked for.
    corners = np.array([[660.0, 492.0], [761.0, 208.0], [1051.0, 304.0], [946.0, 597.0]])
    sides = _visible_sides(_framed_outline(corners), 960, 540)
    assert sides is not None and len(sides) == 3
    _assert_along_the_board(sides, corners)


def _framed_outline(corners: np.ndarray, hidden: list[np.ndarray] | None = None) -> np.ndarray:
    """The outline a board's blue frame (these corners, in a 960 x 540 mask) leaves in
    view, its blue hidden along the segment `hidden` if given."""
    mask = np.zeros((540, 960), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    cv2.fillConvexPoly(mask, np.round(corners + (corners.mean(axis=0) - corners) * 0.08).astype(np.int32), 0)
    if hidden is not None:
        cv2.line(mask, *(tuple(int(v) for v in np.round(p)) for p in hidden), 0, 14)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _assert_along_the_board(sides: list[tuple[np.ndarray, np.ndarray]], corners: np.ndarray) -> None:
    """Each side (point, direction) lies along one of the board's sides."""
    def cross(u: np.ndarray, v: np.ndarray) -> float:
        return float(u[0] * v[1] - u[1] * v[0])

    for point, direction in sides:
        assert any(abs(cross((b - a) / np.linalg.norm(b - a), point - a)) < 2
                   and abs(cross((b - a) / np.linalg.norm(b - a), direction)) < 0.02
                   for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True))


def test_a_hull_chord_from_the_frames_edge_is_no_side_of_the_board():
    # A board whose corner leaves the frame, the blue along one of its sides hidden from
    # the frame's edge on (tiles lean over it): the hull runs from where the outline
    # meets the frame's edge straight across to the next corner, and that chord was
    # taken for a side (seed 7's frame 250: the board's corner rebuilt 28 px off, and the
    # board not found).
    corners = np.array([[521.0, 51.0], [613.0, -19.0], [748.0, 55.0], [664.0, 138.0]])
    hidden = [corners[1] + (corners[2] - corners[1]) * t for t in (0.15, 0.7)]
    sides = _visible_sides(_framed_outline(corners, hidden), 960, 540)
    assert sides is not None
    _assert_along_the_board(sides, corners)


@pytest.mark.parametrize(("seed", "frame", "board"), [(2, 47, 1), (1000, 237, 0)])
def test_a_board_over_a_corner_of_the_frame_is_found_and_read(seed, frame, board):
    # Frames of seeds the benchmark leaves out, each board lost or left unread before.
    obs, truth, _ = _recognized(seed, frame)
    _assert_found_and_read(obs, truth["boards"][board], least_right=45)


@pytest.mark.parametrize(("seed", "frame", "board"), [(4, 165, 1), (1000, 174, 1)])
def test_a_board_whose_corner_only_just_leaves_the_frame_is_found_and_read(seed, frame, board):
    # Frames of seeds the benchmark leaves out, each board lost before (see above).
    obs, truth, _ = _recognized(seed, frame)
    _assert_found_and_read(obs, truth["boards"][board], least_right=40)


@pytest.mark.parametrize(("seed", "frame", "board"), [(1, 131, 2), (2, 97, 2)])
def test_a_board_an_arm_parts_seen_smaller_than_the_others_is_found(seed, frame, board):
    # Frames of seeds the benchmark leaves out: a board far off in a steep view, its
    # frame in two pieces either side of an arm. Judged by the boards found nearer, the
    # pieces' hull was too small for a board and they were never joined.
    obs, truth, _ = _recognized(seed, frame)
    _assert_found_and_read(obs, truth["boards"][board], least_right=40)


def test_a_board_a_wide_arm_parts_is_joined_from_what_it_leaves():
    # Seed 1000 (no benchmark's), frame 24: a board near the camera, a wide arm across
    # it. Its two pieces' hull is 0.25 of the diagonal squared a board shows there, under
    # the 0.3 asked before; judged by the smaller boards found further off, it was joined
    # only by chance.
    obs, truth, _ = _recognized(1000, 24)
    _assert_found_and_read(obs, truth["boards"][0], least_right=40)


def test_a_board_an_arm_hides_most_of_is_rebuilt_from_the_piece_it_leaves(monkeypatch):
    # Seed 9, frame 301 (the benchmark's): a board far off, a hand over most of it, and
    # one piece of its frame left in view, too small an outline for a whole board and
    # with no other piece to be joined with.
    obs, truth, _ = _recognized(9, 301)
    expected = truth["boards"][2]
    _assert_found_and_read(obs, expected, least_right=28)
    monkeypatch.setattr(boards, "_ALONE_AREA", 1.0)  # no piece alone makes a board
    obs, _, _ = _recognized(9, 301)
    assert np.hypot(*np.subtract(_nearest(obs, expected)["center"], expected["center"])) > 100


def test_a_piece_the_frames_edge_cuts_makes_no_board_alone(monkeypatch):
    # Seed 2, frame 21 (no benchmark's): a bottle's blue rim at the frame's top edge, a
    # piece of 0.10 of the diagonal squared a board shows there. Rebuilt alone (the least
    # hull asked lowered past it), it made a board over the discs, read as a grey wall on
    # the wood. The frame's edge cuts it: its outline there is the frame's, and it is left.
    monkeypatch.setattr(boards, "_ALONE_AREA", 0.05)
    obs, truth, _ = _recognized(2, 21)
    assert len(obs["boards"]) == len(truth["boards"])


def test_outlines_overlap_by_a_share_of_the_smaller():
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    assert boards._overlap(square, square + np.array([5, 0])) == pytest.approx(0.5)
    assert boards._overlap(square, square + np.array([20, 0])) == 0.0
    assert boards._overlap(square * 3, square + 5) == pytest.approx(1.0)  # one inside the other


@pytest.mark.parametrize("frame", [109, 284])
def test_a_board_rebuilt_at_the_frames_edge_gives_way_to_the_one_over_it_in_the_frame(frame):
    # Seed 1 (no benchmark's): an arm parts a board the frame's edge cuts. The part at the
    # edge was rebuilt from its outline well off the board, and the part the hand stands
    # over from its whole outline, in the frame: two boards, one over the other.
    obs, truth, _ = _recognized(1, frame)
    assert len(obs["boards"]) == len(truth["boards"])
    for want in truth["boards"]:
        nearest = min(np.hypot(*np.subtract(b["center"], want["center"])) for b in obs["boards"])
        assert nearest < 30


def test_pieces_that_fit_far_smaller_than_a_board_there_make_no_board():
    # Seed 9, frame 78 (the benchmark's): the edge of a slate-blue mat in two pieces. Let
    # in as pieces of a board an arm parts, they were fitted as a board under half the size a
    # board shows there, and the frame had three boards for two.
    obs, truth, _ = _recognized(9, 78)
    assert len(obs["boards"]) == len(truth["boards"])


def test_a_score_track_an_arm_leaves_is_not_rebuilt_as_a_board():
    # Seed 7, frame 24 (the benchmark's): an arm across a board the frame's edge cuts
    # leaves its score track in view; rebuilt from that outline, a board 0.62 of the
    # size a board shows there was kept, all its places unknown, well off the board.
    obs, truth, _ = _recognized(7, 24)
    px = truth["geometry"]["camera"]["px_per_mm"]
    for found in obs["boards"]:
        assert min(np.hypot(*np.subtract(found["center"], t["center"])) for t in truth["boards"]) < 20 * px


def test_sizes_are_judged_only_by_a_board_found_surely():
    # Seed 9, frame 179 (the benchmark's): the only board found whole is a factory's
    # sunburst taken for one, unsurely; judged by the plane it gives, the board the
    # frame's edge cuts was too large and lost.
    obs, truth, _ = _recognized(9, 179)
    _assert_found_and_read(obs, truth["boards"][1], least_right=45)


def test_a_board_the_frames_edge_cuts_is_rebuilt_by_the_plane_a_board_rebuilt_surely_measures():
    # Seed 9, frame 179 (the benchmark's, 4000 x 3000): the plane of the factory's sunburst
    # found whole, unsurely, rebuilt a grey board the frame's edge cuts to two sides at a
    # fifth of its size, and it was lost. The other board the edge cuts, rebuilt surely,
    # measures the plane it is rebuilt by.
    obs, truth, _ = _recognized(9, 179)
    expected = truth["boards"][0]
    assert _nearest(obs, expected)["side"] == "grey"
    px_per_mm = truth["geometry"]["camera"]["px_per_mm"]
    _assert_every_place_in_view_read(obs, expected, least=30, near=10 * px_per_mm)


def test_a_board_rebuilt_wholly_out_of_the_frame_is_no_board():
    # Seed 2, frame 21 (no benchmark's): sides in view rebuilt a quad lying wholly out
    # of the frame, and judging whether it looked like a board raised IndexError.
    obs, truth, _ = _recognized(2, 21)
    assert 0 < len(obs["boards"]) <= len(truth["boards"])
    assert not _looks_like_board(np.full((100, 100, 3), 200, np.uint8), 0.4, np.zeros((100, 100), bool))


def test_a_panel_edge_measured_off_at_one_end_is_not_taken():
    # Seed 21, frame 44: a board seen small and steep, whose panel's left edge was
    # measured on the tiles by it at one of its two bands; the edge, tilted 25 mm off at a
    # corner, put part of the grid a cell off and three places were misread.
    obs, truth, _ = _recognized(21, 44)
    _assert_found_and_read(obs, truth["boards"][2], least_right=47)


def test_a_board_whose_strip_told_its_turn_faintly_is_turned_to_its_print():
    # Seed 11, frame 389 (never tuned on, 4000 x 3000): a hand over a board's strip; what
    # the strip showed turned the board a quarter off, 0.17 sure, and its grid failed
    # there: its 26 places in view were left unread. At the turn whose grid shows the
    # coloured print clearly, it reads them.
    obs, truth, cond = _recognized(11, 389)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][0], least=20)


@pytest.mark.parametrize(("seed", "frame", "board"), [(11, 206, 0), (10, 429, 1)])
def test_a_sleeve_over_most_of_a_grey_wall_leaves_the_rest_of_the_board_read(seed, frame, board):
    # Seeds 11 and 10 (never tuned on): a sleeve across a grey board's wall, its pattern
    # lines and floor in view. The few wall cells left in view followed the coloured
    # wall's diagonals a step on, as tiles on a grey wall may by chance: the grid was taken
    # for a coloured wall's a cell off, and nothing was read (26 and 22 places in view).
    # So few cells tell nothing; the grey wall's own check judges the grid.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand and truth["boards"][board]["side"] == "grey"
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=20)


@pytest.mark.parametrize(("seed", "board"), [(12, 0), (3, 1)])
def test_an_arm_over_a_grey_walls_cream_leaves_the_board_read(seed, board):
    # An arm down the gap between a grey board's pattern lines and its wall hides the
    # cream its grid is checked by: the windows round places the place model sees the arm
    # over are not judged, and the board is read from what shows. (It was left unread.)
    rng = np.random.default_rng(seed)
    content = random_content(rng, players=2, side="grey", fill=0.7)
    frame, truth = render_table(content, Conditions(shadow=0.35), rng)
    geo = truth["geometry"]
    outline = np.array(geo["boards"][board]["outline"])
    top, bottom = (outline[0] + outline[1]) / 2, (outline[3] + outline[2]) / 2
    frame = _sleeve_along(frame, (top + bottom) / 2, bottom - top, geo["camera"]["px_per_mm"], (90, 120, 170))
    obs = recognize(frame)
    assert obs["occluded"]
    _assert_found_and_read(obs, truth["boards"][board], least_right=18)


def test_an_arm_over_a_boards_wall_leaves_the_rest_to_check_its_grid():
    # Seed 21, frame 98: an arm lies over most of a board's wall and the cream beside it.
    # What it hides is not judged, and the grid, right where it is, is checked by what
    # shows: the places in view are read right. The board was left unread (the 24 places
    # under the arm alone "right"). (37 of the 47 places are read right or, under the arm,
    # unknown; of the others, four lie partly under the arm, which the truth calls hidden,
    # and three are floor places past its end, read empty, as they are.)
    obs, truth, cond = _recognized(21, 98)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][3], least_right=37)


@pytest.mark.parametrize(("seed", "frame", "board", "right"),
                         # (1, 101, 1): a floor place under the arm is read empty, as its
                         # first place is; the truth leaves it unknown. (1, 240, 0): a grey
                         # board, pattern lines under the arm read as far as they show: 2 and
                         # 5 are read (rightly) too, past a place surely empty, as are line 2
                         # and the floor's places past its end of (2, 100, 0). The truth
                         # leaves those unknown.
                         [(1, 101, 1, 46), (1, 223, 0, 40), (2, 100, 0, 39), (1, 240, 0, 40)])
def test_a_board_whose_cream_an_arm_hides_is_balanced_by_the_other_boards(seed, frame, board, right):
    # Mixed-run frames (of seeds no benchmark uses) where an arm lies over most of a
    # board's cream: balanced by what the arm showed, the panel's print (or a grey wall's
    # block) washed out and nothing was read (only the places under the arm "right"). Its
    # cream measured far darker than the other boards': it is read under their balance.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][board], least_right=right)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 152, 0), (9, 465, 2)])
def test_a_board_whose_cream_a_sleeve_lies_over_in_part_is_balanced_by_the_other_boards(seed, frame, board):
    # The benchmark's frames: a sleeve over part of a board's cream, which measured 1.48
    # and 1.49 times darker than the other boards' (under one light they measure up to
    # 1.41): balanced by it, places by the sleeve were unread, or read wrong (seed 7: two
    # white tiles as their print). Read under the other boards' balance, every place in
    # view is read right.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=20)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 441, 1), (2, 189, 2), (1, 184, 3)])
def test_the_marker_on_a_floor_is_read(seed, frame, board):
    # Frames of the benchmark's seeds: the first-player marker on a floor was left
    # unknown, the model seeing something over it as well (its "1"); nothing is.
    obs, truth, _ = _recognized(seed, frame)
    expected = truth["boards"][board]
    assert "marker" in expected["floor"]
    _assert_every_place_in_view_read(obs, expected, least=20)


def test_a_grey_board_whose_strip_a_hand_hides_is_grown_back_where_it_fits_the_grey_wall_clear():
    # Seed 9, frame 476 (the benchmark's): a hand over a grey board hides its strip; read
    # at the turn facing the table's middle, its grid fitted no grey wall, and grown back
    # it was given up as a grey board. Grown clear of the hand, it fits the grey wall at
    # its own turn with nothing over it: it is found, and nothing is read wrong.
    obs, truth, cond = _recognized(9, 476)
    assert cond.hand
    expected = truth["boards"][2]
    assert expected["side"] == "grey"
    _assert_found_and_read(obs, expected, least_right=35)


def test_a_board_grown_back_whose_wall_a_sleeve_lies_over_takes_the_side_the_others_show():
    # Seed 9, frame 1 (the benchmark's): a sleeve over a board's wall leaves its own side
    # unsure (0.95); the board, found grown back round the sleeve, was read after the side
    # was told, and its wall was left unread: 12 of its 15 places in view, each read sure.
    obs, truth, cond = _recognized(9, 1)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][1], least=15, outline_as_found=True)


@pytest.mark.parametrize(("seed", "frame", "board"), [(9, 368, 2), (9, 382, 1)])
def test_a_grey_board_whose_cream_an_arm_lies_over_is_read_under_the_others_balance(seed, frame, board):
    # Seed 9 (the benchmark's): an arm (a sleeve) over the cream beside a grey board's
    # pattern lines, its skin the lightest thing there, was taken for the cream. Balanced
    # by it, the grey cells showed as light as cream, the grid failed its check and every
    # place was left unknown; the board's gains were 1.2-1.3 times the other boards',
    # short of the 1.55 a board is read again from. Every place in view is read right.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    expected = truth["boards"][board]
    assert expected["side"] == "grey"
    _assert_every_place_in_view_read(obs, expected, least=25)


def test_a_grey_board_an_arm_cuts_short_is_not_read_again_under_the_others_balance():
    # Seed 2, frame 181: a blurred grey board whose outline a sleeve cut short (0.86 of a
    # board's proportions) and whose cream measured 1.27 times darker than the others'.
    # Under their balance its squeezed grid fitted the grey block and read 8 places wrong.
    obs, truth, cond = _recognized(2, 181)
    assert cond.hand
    _assert_nothing_read_wrong(obs, truth)


@pytest.mark.parametrize(("frame", "board", "right"), [(56, 1, 42), (377, 1, 42)])
def test_a_board_an_arm_cuts_short_is_rebuilt_whole_and_turned_as_its_strip_tells(frame, board, right):
    # Seed 7 (the benchmark's): an arm across a board hides its strip from the board
    # rebuilt whole from the sides in view, and the outline cut short along the arm, out
    # of a board's proportions, shows it. That short quad put the grid off the print
    # (by up to the part cut off) and nothing was read; rebuilt whole and turned as the
    # strip tells, the board is read.
    obs, truth, cond = _recognized(7, frame)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][board], least_right=right)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 295, 0), (9, 239, 1)])
def test_a_board_rebuilt_with_a_side_along_a_hand_is_rebuilt_from_its_other_three(seed, frame, board):
    # Benchmark frames where a hand over a board cuts its frame's outline short: the sides
    # in view met the hand's edge as a fourth, and the quad they made, out of a board's
    # proportions, put the grid off the print (18-19 places right of 47). That side shows
    # none of the frame's blue; the other three rebuild the board whole.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][board], least_right=45)


def test_places_in_an_arms_shadow_are_read():
    # Seed 9 (the benchmark's), frame 66: an arm's shadow falls over the bottom of a
    # board's wall. The place model gave its red tile 0.69 to something over it and its
    # white cell 0.14 (0.65 empty), and both were left unread; with the shade round them
    # lifted, they are read.
    obs, truth, cond = _recognized(9, 66)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][0], least_right=47)


def test_black_prints_in_a_sleeves_shadow_are_not_read_as_black_tiles():
    # Seed 9, frame 107: a navy sleeve's shadow over a coloured wall darkens two of its
    # grey black prints; read black 0.74 and 0.88 sure, they are empty once lightened.
    obs, truth, cond = _recognized(9, 107)
    assert cond.hand
    expected = truth["boards"][1]
    found = _nearest(obs, expected)
    assert [expected["wall"][2][0], expected["wall"][3][1]] == [None, None]
    assert [found["wall"][2][0], found["wall"][3][1]] == [None, None]


def test_a_sleeves_edge_over_a_grey_wall_is_not_lifted_into_tiles():
    # Seed 9, frame 59: a red sleeve lies across a grey board; its shaded edge, lightened
    # by the grey print in view on its other side, read as three red tiles.
    obs, truth, cond = _recognized(9, 59)
    assert cond.hand
    expected = truth["boards"][0]
    found = _nearest(obs, expected)
    assert found["side"] == "grey"
    middle = [(expected["wall"][row][2], found["wall"][row][2]) for row in (1, 2, 3)]
    assert all(true is None and read in (None, "unknown") for true, read in middle)


def test_the_side_along_what_stands_over_a_board_is_told_by_its_missing_blue():
    # A board's frame drawn as a blue ring, its right side under a skin-coloured hand.
    small = np.full((300, 300, 3), (60, 110, 150), np.uint8)
    quad = np.array([[50.0, 50.0], [250.0, 50.0], [250.0, 250.0], [50.0, 250.0]])
    cv2.polylines(small, [quad.astype(np.int32)], True, (200, 90, 20), 12)
    assert _cut_side(small, quad) is None
    small[:, 230:] = (120, 160, 210)
    assert _cut_side(small, quad) == 1
    assert _cut_side(small, np.roll(quad, 1, axis=0)) == 2


def _framed(at: tuple[int, int] = (830, 415), width: int = 1920) -> tuple[np.ndarray, BoardFind]:
    """A 1920 x 1080 blue mask (1 px a mm, seen from straight above its middle, about
    1.6 m up) with an upright board's blue frame, 8 mm wide, its top-left corner `at`;
    cut to `width`."""
    blue = np.zeros((1080, 1920), np.uint8)
    x, y = at
    cv2.rectangle(blue, (x, y), (x + round(BOARD_W_MM), y + round(BOARD_H_MM)), 255, -1)
    cv2.rectangle(blue, (x + 8, y + 8), (x + round(BOARD_W_MM) - 8, y + round(BOARD_H_MM) - 8), 0, -1)
    board_h = np.array([[1.0, 0, x], [0, 1.0, y], [0, 0, 1]])
    corners = apply_h(board_h, [[0, 0], [BOARD_W_MM, 0], [BOARD_W_MM, BOARD_H_MM], [0, BOARD_H_MM]])
    return blue[:, :width].copy(), BoardFind(corners, board_h, board_h, 0, 1.0)


def test_an_arm_over_a_boards_frame_is_told_by_the_blue_it_hides():
    # Seeds 7 / 9 (the benchmark's): frames with a hand over a board that no place model
    # saw (the places under it read empty) were not flagged occluded, and a tracker acts
    # on frames that are not: places under an arm read surely wrong went through.
    blue, board = _framed()
    assert not frame_covered(board, blue, 1.0)
    arm = blue.copy()
    arm[500:560, :900] = 0  # an arm 60 mm wide across the owner's left side
    assert frame_covered(board, arm, 1.0)
    finger = blue.copy()
    finger[500:520, :900] = 0  # 20 mm: less than an arm, and than glare or a tile's shadow
    assert not frame_covered(board, finger, 1.0)
    own = blue.copy()
    own[600:, 900:960] = 0  # the owner's arm over the bottom edge, seen from above it
    assert frame_covered(board, own, 1.0)
    # Seen from far above the board's top, the floor's tiles lean out over its bottom
    # edge: the frame there is not judged (seed 7, frame 78).
    floor, low = _framed(at=(830, 800))
    floor[1040:, 870:1010] = 0
    assert not frame_covered(low, floor, 1.0)
    # What is out of the frame hides nothing in it.
    cut, board = _framed(width=950)
    assert not frame_covered(board, cut, 1.0)

    # The mask may be the frame reduced: the board's mm are then fewer px.
    def halved(mask: np.ndarray) -> np.ndarray:
        return cv2.resize(mask, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_NEAREST)

    assert frame_covered(board, halved(arm), 0.5) and not frame_covered(board, halved(blue), 0.5)


@pytest.mark.parametrize(("seed", "frame"), [(7, 169), (9, 140)])
def test_a_frame_with_an_arm_over_a_board_no_place_model_saw_is_flagged_occluded(seed, frame):
    # Benchmark frames: an arm over a board hides places the truth counts hidden, and no
    # place model saw it; the frame was not flagged occluded.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand and truth["occluded"]
    assert obs["occluded"]


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 291, 2), (9, 132, 1)])
def test_a_board_turned_wrong_whose_grid_shows_faint_print_takes_the_turn_showing_more(seed, frame, board):
    # Benchmark frames of boards seen steeply whose strip put the owner's top a quarter
    # turn off. The grid there passed its check showing hardly any print (0.08 and 0.12
    # of the wall's windows), and no other turn showed it clearly (0.46 and 0.23), so
    # the board was read at the wrong turn: 3 places surely wrong, 19 and 26 unknown.
    # A turn showing far more print than the others is the board's.
    obs, truth, _ = _recognized(seed, frame)
    _assert_read_exactly(obs, truth["boards"][board])


def test_white_tiles_on_a_grey_wall_do_not_take_its_grid_off():
    # Seed 9, frame 405 (the benchmark's): a grey board in plain view, its grid where
    # the print is, with four white tiles on the wall. Seen steeply under glare, each
    # shows as light as the cream, and a grid allows at most three wall windows that
    # light: the grid was taken off and nothing read. A tile read surely shows itself,
    # not the cell.
    obs, truth, cond = _recognized(9, 405)
    assert not cond.hand and truth["boards"][1]["side"] == "grey"
    assert sum(row.count("white") for row in truth["boards"][1]["wall"]) >= 4
    _assert_found_and_read(obs, truth["boards"][1], least_right=47)


def test_a_grey_wall_the_light_falls_off_across_is_checked_in_its_own_light():
    # Seed 11, frame 85 (the benchmark's, never tuned on): a grey board in plain view, lit
    # from its top right. Its wall's left and lower cells show 0.58-0.66 of the cream,
    # the rest 0.74, and the cream beside them 0.78-0.88: judged against the wall's
    # lighter cells, that cream was too dark, the grid was taken off and none of the 47
    # places read.
    obs, truth, cond = _recognized(11, 85)
    assert not cond.hand and truth["boards"][0]["side"] == "grey"
    _assert_read_exactly(obs, truth["boards"][0])


def test_a_hand_over_a_grey_wall_is_not_taken_for_a_shade_its_grid_is_checked_in():
    # Seed 2, frame 181 (the benchmark's): a hand over a grey board's wall. Its lightest
    # cell by a gap shows 0.47 of the cream; judged in so dim a light, the gaps let a
    # grid off the wall pass, and 12 places were read surely wrong.
    obs, truth, cond = _recognized(2, 181)
    assert cond.hand and truth["boards"][1]["side"] == "grey"
    _assert_nothing_read_wrong(obs, truth)


def test_a_grey_board_a_sleeve_lies_across_is_not_turned_to_where_its_tiles_fit_a_grey_wall():
    # Seed 11, frame 428 (the benchmark's, never tuned on): a sleeve across a grey board
    # seen near 45 degrees, turned as its strip tells. Its grid failed its check under the
    # sleeve, and a quarter turn off, where the sleeve lies off the grid, the pattern
    # lines' tiles fitted a grey wall: 16 places were read surely wrong. The sleeve
    # crosses the board's frame, whatever the turn.
    obs, truth, cond = _recognized(11, 428)
    assert cond.hand and truth["boards"][0]["side"] == "grey"
    assert _nearest(obs, truth["boards"][0])["rotation"] == truth["boards"][0]["rotation"]
    _assert_nothing_read_wrong(obs, truth)


def test_a_grey_board_found_a_quarter_turn_off_is_turned_to_where_its_grid_fits_a_grey_wall():
    # Seed 1, frame 69 (the benchmark's): a blurred grey board under glare, found a
    # quarter turn off, the print faint where its grid lies there. At its own turn its
    # grid fits a grey wall with nothing over it: that turn is the board's. (Its frame,
    # blurred, does not show blue all round: judged by that too, as though something lay
    # over the board, it was left turned wrong, 10 places surely wrong.)
    obs, truth, cond = _recognized(1, 69)
    assert not cond.hand and truth["boards"][0]["side"] == "grey"
    _assert_read_exactly(obs, truth["boards"][0])


def test_a_board_the_frames_edge_cuts_is_rebuilt_at_its_size_when_no_board_is_whole():
    # Seed 11, frame 113 (never tuned on): three boards, each cut by the frame's edge.
    # One shows three of its sides; with no board found whole to measure the table, its
    # outline was taken whole, the frame's edge for its fourth side, 26-35 px short at
    # the detection width: its floor, out of the frame, was read in view and its pattern
    # lines a line off (11 places surely wrong). A board its four sides rebuilt surely
    # measures the table instead.
    obs, truth, cond = _recognized(11, 113)
    assert not cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][1], least=40)
    _assert_nothing_read_wrong(obs, truth)


def test_a_far_board_whose_score_track_blurs_into_solid_blue_is_found():
    # Seed 11, frame 403 (never tuned on): a board across the table, 150 px wide at the
    # detection width and blurred, in plain view. Its score track's squares blurred into
    # the blue round them, as wide there as a sleeve: taken out as one, it left a rim of
    # frame that made no board, and the board was not found.
    obs, truth, cond = _recognized(11, 403)
    assert not cond.hand
    _assert_read_exactly(obs, truth["boards"][1])


def test_a_board_beside_a_mat_of_the_boards_blue_is_found():
    # Seed 11, frame 451 (never tuned on): a board in plain view with a blue-grey mat along
    # one side. The mat is as wide as a sleeve and was taken out as one; the board's side
    # along it was then taken for a sleeve's edge, and the board was not found.
    obs, truth, cond = _recognized(11, 451)
    assert cond.mats
    _assert_read_exactly(obs, truth["boards"][0])


def test_a_board_a_sleeve_parts_is_rebuilt_whole_at_the_turn_its_cut_outline_tells():
    # Seed 11, frame 99 (never tuned on): a navy sleeve across a grey board's middle. The
    # outline on one side of it, cut short, shows the strip that tells the board's turn;
    # the other, rebuilt whole, hid it. The cut one was grown back the wrong way and
    # turned a quarter off, 150 px from the board; the whole one is taken at its turn.
    obs, truth, cond = _recognized(11, 99)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][1], least_right=25, near=40)  # 25 places under the sleeve
    _assert_nothing_read_wrong(obs, truth)


def test_a_board_found_again_with_a_sleeve_taken_out_replaces_one_rebuilt_round_it():
    # Seed 8 frame 370 (held out): a navy sleeve over a board's side. The first look
    # rebuilt the board round the sleeve, 160 mm too long, its strip hidden, and it was
    # left unread; the second, the sleeve's dark blue taken out, found it whole with its
    # strip in view, but it lay where a board was found already and was dropped.
    obs, truth, cond = _recognized(8, 370)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][0], least=20)
    _assert_nothing_read_wrong(obs, truth)


def test_pieces_of_a_board_are_judged_by_a_board_rebuilt_surely_where_none_is_whole():
    # Seed 11, frame 326 (never tuned on, 4000 x 3000): a board near the camera, the
    # frame's edge cutting its frame's blue into two outlines; the only other board is cut
    # too, far off. No board found whole, the pair was judged by the size of the boards
    # found, 0.4 of its own, and left too far apart to be one board's; the plane of the
    # board rebuilt surely judges it.
    obs, truth, cond = _recognized(11, 326)
    assert not cond.hand
    px_per_mm = truth["geometry"]["camera"]["px_per_mm"]  # (its outline runs on past the frame's edge)
    _assert_every_place_in_view_read(obs, truth["boards"][0], least=20, near=15 * px_per_mm)


def test_a_board_rebuilt_round_a_sleeve_is_judged_by_every_board_found_surely():
    # Seed 11, frame 141 (never tuned on): a board rebuilt round a sleeve, its four sides
    # right, was judged by the plane of the surest board found whole alone, whose corner
    # lay 36 px off: extrapolated 400 px, it gave 0.63 of the board's size, and the board
    # was lost. The other board found surely gave 0.97.
    obs, truth, cond = _recognized(11, 141)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][0], least_right=44, near=25)
    _assert_nothing_read_wrong(obs, truth)


def test_a_board_found_again_with_a_sleeve_taken_out_is_kept_where_most_of_it_was_missed():
    # Seed 11, frame 74 (never tuned on): a navy sleeve joined to the frame of the board
    # it lies over. Found again with the sleeve taken out, whole and with its strip in view,
    # the board was dropped: the hull of the outline that made no board ended 2 px short of
    # its middle, though 0.81 of the board lay in it.
    obs, truth, cond = _recognized(11, 74)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][3], least=20)


def test_a_board_found_unsurely_has_no_say_in_the_side_the_game_is_played_on():
    # Seed 10, frame 305 (never tuned on): a grey board cut by the frame's edge and an arm,
    # its outline rebuilt round them at 0.00, its grid on its pattern lines, where the
    # coloured print's check passed on the tiles; its "wall" read coloured surely, the
    # other board's grey, and neither side was told: 7 of its wall cells were read surely
    # wrong. The board found surely tells the side; the other's wall is then left unread.
    obs, truth, _ = _recognized(10, 305)
    assert [b["side"] for b in truth["boards"]] == ["grey", "grey"]
    assert [b["side"] for b in obs["boards"]] == ["grey", "grey"]
    found, expected = _nearest(obs, truth["boards"][1]), truth["boards"][1]
    assert all(r in (t, "unknown") for read, true in zip(found["wall"], expected["wall"], strict=True)
               for r, t in zip(read, true, strict=True))


def test_a_cups_shadow_over_the_pattern_lines_leaves_them_read():
    # Seed 9, frame 42 (the benchmark's): a cup's shadow lies over a board's lines 4 and
    # 5, in plain view. The place model gave something over those places a share of
    # 0.12-0.35, and both lines were left unread: 9 places unknown.
    obs, truth, cond = _recognized(9, 42)
    assert not cond.hand
    _assert_found_and_read(obs, truth["boards"][1], least_right=47)


@pytest.mark.parametrize(("frame", "board"), [(183, 1), (388, 3)])
def test_places_a_hand_lies_partly_over_are_read_from_what_it_leaves_in_view(frame, board):
    # Seed 7 (the benchmark's): a hand lies over part of three places of a board, which
    # the truth counts in view. Their centred windows showed the hand, and they were
    # left unread; windows moved within each cell, clear of the hand, read them.
    obs, truth, cond = _recognized(7, frame)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][board])


def test_a_place_the_first_look_leans_on_a_fifth_more_than_on_anything_else_is_looked_at_again():
    # Seed 9, frame 267 (the benchmark's): a black tile by a hand, its first look 0.51
    # black and 0.42 empty, 1.21 times: short of the 1.5 times it had to lean to be
    # looked at again, it was left unread. Windows moved within the cell read it black.
    obs, truth, cond = _recognized(9, 267)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][1], least=25)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 127, 1), (7, 112, 2), (9, 28, 3), (9, 227, 3)])
def test_places_the_model_is_unsure_of_are_read_from_windows_moved_within_them(seed, frame, board):
    # The benchmark's frames, no hand: a glint (7/112, 9/227), blur (the first-player
    # marker, 7/127) or a view 41 degrees off vertical (two empty lines, 9/28) left a
    # place or a line unread. Looked at again, once the grid was checked, in windows
    # moved within each cell, every place in view is read.
    obs, truth, cond = _recognized(seed, frame)
    assert not cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][board])


@pytest.mark.parametrize(("seed", "frame", "board"), [(9, 19, 2), (9, 121, 1), (7, 406, 1)])
def test_a_floor_place_the_frames_edge_cuts_by_half_is_read(seed, frame, board):
    # The benchmark's frames, no hand: a floor place 0.52-0.71 in the frame, its window
    # lifted towards a tile's top to where 0.39-0.42 of it is, was left unread.
    obs, truth, cond = _recognized(seed, frame)
    assert not cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][board])


def test_places_read_by_a_second_look_do_not_sway_the_grid_check():
    # Seed 7, frame 189: a grey board whose floor the frame's edge cuts. Looked at again
    # before the grid was checked, the places read so let a grid a cell off pass: the
    # wall's black tiles came out a cell along.
    obs, truth, _ = _recognized(7, 189)
    _assert_found_and_read(obs, truth["boards"][2], least_right=47)


def test_a_board_with_many_places_unsure_is_not_looked_at_again():
    # Seed 9, frame 299: a board seen at 42 degrees, its floor's tiles standing tall;
    # 8 places were unsure, the floor's first read empty. Looked at again, windows moved
    # in the floor's other places found its arches and read them empty too.
    obs, truth, _ = _recognized(9, 299)
    expected = truth["boards"][2]
    found = _nearest(obs, expected)
    assert np.hypot(*np.subtract(found["center"], expected["center"])) < 30  # (at 42 degrees, 16 px off)
    pairs = zip(found["floor"][1:6], expected["floor"][1:6], strict=True)
    assert all(t is None or r is not None for r, t in pairs)


def test_a_floor_read_empty_is_kept_by_a_grid_fitted_round_a_hand():
    # Seed 9, frame 301: a hand hides a board's strip and half its wall; its grid, moved
    # onto the print found round it, read the floor empty at all seven places, as it is,
    # and left it unknown (a grid so fitted once read a floor of tiles a place along).
    obs, truth, _ = _recognized(9, 301)
    expected = truth["boards"][2]
    assert expected["floor"] == [None] * 7
    found = _nearest(obs, expected)
    assert found["rotation"] == expected["rotation"]
    assert found["floor"] == [None] * 7
    _assert_nothing_read_wrong(obs, truth)


@pytest.mark.parametrize(("seed", "frame", "board"), [(2, 134, 0), (9, 59, 0)])
def test_a_board_an_arm_parts_is_turned_by_the_part_that_shows_its_strip(seed, frame, board):
    # The benchmark's frames: a sleeve across a board leaves its frame in two outlines,
    # each rebuilt whole. The first was rebuilt with its strip hidden and kept, so the
    # second, whose strip tells the board's turn, was dropped as a board over it: the
    # board was left unread (seed 2) or read with 11 places unread or wrong (seed 9).
    # (The outline rebuilt lies up to 20 px off in the frame; its grid, moved onto the
    # print, reads every place in view: 22 of 47 on each.)
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=22, near=25.0)
    assert len(obs["boards"]) == len(truth["boards"])


def test_a_board_whose_print_tells_no_turn_is_read_as_the_part_whose_strip_does():
    # The benchmark's frame: one sleeve lies across two boards. Each was rebuilt with its
    # strip hidden and its print told no turn, so both were left unread; their parts
    # either side of the sleeve, joined, make each board again with a strip that tells it.
    obs, truth, cond = _recognized(1, 205)
    assert cond.hand and len(obs["boards"]) == len(truth["boards"]) == 2
    for expected in truth["boards"]:
        _assert_every_place_in_view_read(obs, expected, least=13)


@pytest.mark.parametrize(("seed", "frame"), [(7, 496), (9, 107)])
def test_a_navy_sleeve_over_a_boards_places_is_seen_over_them_not_read_as_black_tiles(seed, frame):
    # The benchmark's frames: an arm in a navy sleeve lies over a board's pattern lines
    # and floor. Its plain dark read as 9 black tiles on each board (5 in the pattern
    # lines), and neither frame was seen occluded, so a tracker would have taken them.
    content, cond, rng = mixed_table(seed, frame)
    image, truth = render_table(content, cond, rng)
    obs = recognize(image)
    assert obs["occluded"]
    for tb, geo in zip(truth["boards"], truth["geometry"]["boards"], strict=True):
        found = _nearest(obs, tb)
        lies = content.boards[geo["content_index"]]
        lying = _places({"lines": [{"color": c, "count": n} for c, n in lies.lines],
                         "floor": list(lies.floor), "wall": lies.wall})
        lines = slice(0, 15)
        assert not [k for k, (r, v) in enumerate(zip(_places(found)[lines], lying[lines], strict=True))
                    if r == "black" and v != "black"]


@pytest.mark.parametrize(("seed", "frame", "board", "right"), [(7, 454, 0, 44), (9, 402, 2, 15)])
def test_a_grey_board_whose_strip_is_hidden_is_read_at_the_turn_facing_the_table(seed, frame, board, right):
    # The benchmark's frames: a hand over a grey board's score track left its turn
    # untold, and a grey wall has no print to tell it; the board was not found. Players
    # set their boards before them, the score track toward the table's middle: at the turn
    # that faces it, the grid fits the grey block.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand and truth["boards"][board]["side"] == "grey"
    _assert_found_and_read(obs, truth["boards"][board], least_right=right)
    assert obs["occluded"]  # what hid the strip stands over the board


@pytest.mark.parametrize(("seed", "frame", "board", "right"), [(9, 50, 0, 40), (7, 380, 2, 44)])
def test_a_board_whose_wall_is_under_an_arm_takes_its_side_from_the_others(seed, frame, board, right):
    # The benchmark's frames: an arm over most of a board's wall left too few cells to
    # tell its side (a coloured board took for grey, 0.97; a grey one, 0.77), so its wall
    # went unread, and the coloured one's grid, checked against a grey wall, was taken for
    # one off: 18 / 36 places right. The other boards are sure of theirs, and a game is
    # played on one side.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    expected = truth["boards"][board]
    found = _nearest(obs, expected)
    assert found["side"] == expected["side"]
    _assert_found_and_read(obs, expected, least_right=right)


@pytest.mark.parametrize(("seed", "frame", "board", "right"),
                         # (9, 260, 3): places the truth calls hidden under the arm are
                         # read (rightly, bar one), so fewer count as right by being unknown.
                         # (9, 123, 1) and (9, 260, 3): floor places under the arm past the
                         # floor's end are read (rightly) empty.
                         [(7, 302, 1, 45), (9, 123, 1, 39), (9, 260, 3, 33)])
def test_the_strip_under_a_grey_wall_alone_does_not_judge_its_grid(seed, frame, board, right):
    # The benchmark's frames: an arm over a grey board's pattern lines excuses the gaps
    # between them and the wall, and leaves only the narrow strip under the wall, whose
    # windows a grid 2-8 mm off (right enough to read by) puts on the bonus box or a
    # tile's shade. Judged by those alone, the grid was taken for one off and nothing read.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][board], least_right=right)


@pytest.mark.parametrize(("frame", "board", "right"), [(222, 2, 47), (231, 0, 46)])
def test_a_board_whose_grid_shows_hardly_any_print_is_tried_at_its_other_turns(frame, board, right):
    # Seed 4 (no benchmark's): boards turned a quarter wrong by their strip (one under
    # glare, one under a hand), whose grid passed its check on noise with hardly any print
    # showing. Read there as surely as a grid a part of a cell off, 8 and 3 places were
    # misread; at the turn whose grid shows the print clearly, none.
    obs, truth, _ = _recognized(4, frame)
    _assert_found_and_read(obs, truth["boards"][board], least_right=right)


def _panel_measured(shift_mm: float, hidden_mm: list | None = None, short_mm: float = 0.0) -> np.ndarray:
    """A board seen at 30 degrees, its panel measured from its outline moved `shift_mm`
    down the board, its bottom side `short_mm` up it (something grey over the board's
    `hidden_mm` quad, board mm): the panel's corners (TL, TR, BR, BL) as the board's
    print puts them, in panel px (900 x 600 for 243 x 162 mm), and where they should be."""
    rng = np.random.default_rng(31)
    frame, truth = render_table(random_content(rng, players=2), Conditions(tilt_deg=30.0, shadow=0.35), rng)
    board, _ = analyse(frame).boards[0]
    geo = min(truth["geometry"]["boards"],
              key=lambda g: np.linalg.norm(np.mean(g["outline"], axis=0) - board.center))
    cells = np.array([wall_center(r, c) for r in range(5) for c in range(5)], np.float64)
    shown = np.array([np.mean(q, axis=0) for row in geo["wall"] for q in row], np.float64)
    true_panel, _ = cv2.findHomography(cells, shown)
    board_h = rect_homography(board.quad, BOARD_W_MM, BOARD_H_MM)
    if hidden_mm is not None:
        hidden = np.round(apply_h(board_h, hidden_mm)).astype(np.int32)
        frame = cv2.fillPoly(frame.copy(), [hidden], (128, 128, 128))
    bottom = BOARD_H_MM + shift_mm - short_mm
    quad = apply_h(board_h, [[0, shift_mm], [BOARD_W_MM, shift_mm], [BOARD_W_MM, bottom], [0, bottom]])
    found = _refined(quad, 1.0, frame, WhiteBalance.from_brightest(frame), partial=False, occluded=False)
    assert found is not None
    corners = np.array([[0, 0], [900, 0], [900, 600], [0, 600]], np.float64)
    return apply_h(np.linalg.inv(true_panel), apply_h(found.panel_h, corners)), corners


@pytest.mark.parametrize("shift_mm", [-3.0, 3.0])
def test_a_panel_edge_measured_in_one_band_only_runs_as_the_outline_does(shift_mm):
    # Floor tiles seen steeply (their tops lie over the panel's edge) or a hand can leave
    # a panel edge measured in one of its two bands. An outline off by a shift, taken
    # for the other band, tilted the edge: its far corner came out 2-8 mm off. Here the
    # bottom edge's band nearer the right is hidden under something that is not blue.
    x0, _, _, y1 = PANEL_BOX_MM
    shown_at, corners = _panel_measured(shift_mm, [[x0 + 105, y1 - 20], [x0 + 165, y1 - 20],
                                                   [x0 + 165, y1 + 20], [x0 + 105, y1 + 20]])
    bottom = slice(2, 4)
    assert np.linalg.norm(shown_at[bottom] - corners[bottom], axis=1).max() * 243 / 900 < 1.2  # mm


def test_a_panel_edge_past_an_outline_rebuilt_short_is_measured_there():
    # A side the frame's edge cuts, or that tiles on the floor hide, is rebuilt at a
    # board's size on a table plane measured elsewhere, which can put it 10 mm or more
    # short. The panel's edge, not found inside the outline, was not looked for past it:
    # the grid was squeezed, its floor and last pattern line read off their cells.
    shown_at, corners = _panel_measured(0.0, short_mm=12.0)
    bottom = slice(2, 4)
    assert np.linalg.norm(shown_at[bottom] - corners[bottom], axis=1).max() * 243 / 900 < 1.2  # mm


def test_a_panel_edge_found_past_the_outline_in_one_band_only_is_not_taken():
    # Past the outline, in one band, the edge found may be anything's (a mat's, round an
    # outline rebuilt wrong under an arm): the outline stands there. Here the bottom
    # edge's band nearer the right is hidden under something that is not blue, so only
    # the other band finds the edge past the outline.
    x0, _, _, y1 = PANEL_BOX_MM
    hidden = [[x0 + 105, y1 - 20], [x0 + 165, y1 - 20], [x0 + 165, y1 + 20], [x0 + 105, y1 + 20]]
    shown_at, corners = _panel_measured(0.0, hidden, short_mm=12.0)
    # As the outline puts it: 12 mm short, less what the panel's print takes of that.
    off_mm = (corners[2:, 1] - shown_at[2:, 1]) * 243 / 900
    assert np.all(off_mm > 8.0)


def test_a_board_the_frames_edge_cuts_is_read_where_its_panel_runs_past_its_outline():
    # Seed 9, frame 302 (the benchmark's): a board whose far side the frame's top edge
    # grazes was rebuilt from its other three sides, 9 mm short; the panel's far edge lay
    # past the outline, unmeasured, and the last pattern line was left unread.
    obs, truth, _ = _recognized(9, 302)
    _assert_read_exactly(obs, truth["boards"][2])


def test_a_board_the_frames_edge_cuts_at_a_corner_seen_steeply_is_rebuilt_from_its_sides():
    # Seed 9, frame 195 (the benchmark's): seen 44 degrees from above, a board turned
    # about 45 degrees runs out of the frame's right edge. Its far corner in view opens to
    # 132 degrees, which was taken for no board's: its outline was taken to the frame's
    # edge, squeezing its grid off the print, and nothing was read.
    obs, truth, _ = _recognized(9, 195)
    _assert_found_and_read(obs, truth["boards"][2], least_right=47)


def test_a_board_the_frames_edge_cuts_with_an_arm_over_it_is_rebuilt_from_two_sides():
    # Seed 7, frame 24 (the benchmark's): the board nearest the camera runs out of the
    # frame's bottom edge, and its owner's arm lies over its right side. Only its top and
    # left sides show; its outline, cut short along the arm, was no board's, and the
    # board was not found. From the corner those two sides meet at, at a board's size on
    # the table plane the other boards measure, it is found and read.
    obs, truth, cond = _recognized(7, 24)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][0], least_right=47)
    # Seed 1, frame 0: an arm parts such a board's outline in two, each part rebuilt
    # whole; the board is found once.
    obs, truth, _ = _recognized(1, 0)
    assert len(obs["boards"]) == len(truth["boards"]) == 4


def test_a_panel_top_edge_is_not_measured_on_the_score_track():
    # An outline 7 mm off up the board (rebuilt round an arm) puts the score track's
    # last row in the stretch the panel's top edge is looked for in: the edge into that
    # row's cream squares was taken for the panel's, 20 mm off. The edge nearest where
    # the outline puts it is the panel's.
    shown_at, corners = _panel_measured(-7.0)
    top = slice(0, 2)
    assert np.linalg.norm(shown_at[top] - corners[top], axis=1).max() * 243 / 900 < 1.2  # mm


def test_a_grey_board_near_45_degrees_turned_wrong_by_its_strip_is_read_turned_right():
    # Seen near 45 degrees, the strip put this grey board's owner's top half a turn off.
    # Its grid, off the grey block, read as a coloured wall off its print, and nothing was
    # read; the one turn whose grid fits a grey wall is the board's.
    rng = np.random.default_rng(122)
    content = random_content(rng, players=4, side="grey", fill=0.5)
    cond = Conditions(roll_deg=45.0 + rng.uniform(-6, 6), tilt_deg=rng.uniform(0, 30),
                      azimuth_deg=rng.uniform(0, 360), glare=rng.uniform(0.3, 0.9), shadow=0.35)
    frame, truth = render_table(content, cond, rng)
    obs = recognize(frame)
    assert truth["boards"][3]["side"] == "grey"
    # (it lies 45.0 degrees from upright: either quarter turn is as near)
    turns = quarter_turns(truth["geometry"]["boards"][3]["outline"])
    assert len(turns) == 2
    _assert_found_and_read(obs, truth["boards"][3], least_right=47, turns=turns)


def test_a_coloured_board_an_arm_washes_out_is_not_turned_to_a_grey_wall():
    # Seed 7, frame 158 (the benchmark's): an arm over a coloured board seen near 45
    # degrees washed its print out under its own balance, and at a wrong turn its grid
    # fitted a grey wall. With something over the board no grey turn is taken: read
    # under the other boards' balance, the board is read right. (A floor place past its
    # end under the arm is read empty, as it is; the truth leaves it unknown.)
    obs, truth, cond = _recognized(7, 158)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][2], least_right=44)


def test_a_grey_board_turned_wrong_whose_grid_passed_on_noise_is_read_turned_right():
    # Seed 1, frame 69: a grey board seen near 45 degrees, turned a quarter wrong by its
    # strip; its grid passed the coloured check on noise, showing hardly any print, and
    # 8 places were read surely wrong. Of the other turns, the one whose grid fits a
    # grey wall is the board's.
    obs, truth, _ = _recognized(1, 69)
    assert truth["boards"][0]["side"] == "grey"
    _assert_found_and_read(obs, truth["boards"][0], least_right=47)


@pytest.mark.parametrize(("seed", "frame", "board", "line"),
                         [(7, 362, 0, ("red", 3)), (9, 100, 0, ("blue", 2)), (9, 372, 0, ("red", 4))])
def test_a_long_line_seen_steeply_or_blurred_is_read_whole(seed, frame, board, line):
    # The benchmark's frames: the last pattern line's places agree on its colour, and the
    # line is unsure only of its count (a tile's lean over the next place, or blur), yet
    # two in three sure or more of it. It was left unread, all five places.
    obs, truth, _ = _recognized(seed, frame)
    expected = truth["boards"][board]
    assert (expected["lines"][4]["color"], expected["lines"][4]["count"]) == line
    found = _nearest(obs, expected)  # (the frame's edge cuts the boards of 7/362 and 9/100)
    assert found["rotation"] == expected["rotation"]
    assert all(r == t for r, t in zip(_places(found), _places(expected), strict=True) if t != "unknown")


def test_a_board_whose_grid_moved_onto_its_print_is_turned_as_its_panel_lies():
    # Seed 9, frame 315 (the benchmark's): a hand over a corner of a board lying 41
    # degrees from upright skewed its outline 6 degrees, past half-way to the next
    # quarter turn. The grid, moved onto the wall's print, read every place right, but the
    # board was given the outline's turn.
    obs, truth, cond = _recognized(9, 315)
    assert cond.hand
    expected = truth["boards"][1]
    _assert_every_place_in_view_read(obs, expected, least=47, outline_as_found=True)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 63, 2), (9, 131, 1), (9, 197, 1)])
def test_a_grid_moved_onto_its_print_reads_its_places_as_surely_as_any(seed, frame, board):
    # The benchmark's: boards whose grid was moved onto the wall's print, each with places
    # (a pattern line's, a floor's, a wall cell's) read right 0.80-0.85 sure, which a
    # moved grid left unknown.
    obs, truth, _ = _recognized(seed, frame)
    expected = truth["boards"][board]
    _assert_every_place_in_view_read(obs, expected, least=15, outline_as_found=True)


@pytest.mark.parametrize("degrees", [0.0, 30.0, 44.0, 46.0, 100.0, 200.0, 290.0, 350.0])
def test_a_board_is_turned_as_its_panel_lies(degrees):
    # The panel's own homography (panel px -> image) gives the board's turn, as the
    # board's outline would if it were exact.
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = np.array([[0.0, 0.0], [BOARD_W_MM, 0.0], [BOARD_W_MM, BOARD_H_MM], [0.0, BOARD_H_MM]])
    quad = (corners - [BOARD_W_MM / 2, BOARD_H_MM / 2]) @ turn.T * 2.0 + [900.0, 600.0]
    board_h = rect_homography(quad, BOARD_W_MM, BOARD_H_MM)
    x0, y0, x1, y1 = PANEL_BOX_MM
    panel_h = rect_homography(apply_h(board_h, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]),
                              boards.PANEL_W_PX, boards.PANEL_H_PX)
    assert boards.rotation_of(panel_h) == round(degrees / 90.0) % 4 * 90


@pytest.mark.parametrize(("seed", "frame", "board"),
                         [(7, 29, 3), (7, 186, 1), (7, 435, 2), (7, 435, 1), (9, 108, 3)])
def test_a_pale_tile_on_its_print_is_read_on_a_board_nothing_lies_over(seed, frame, board):
    # The benchmark's frames: a yellow or white tile on its pale printed wall cell, whose
    # relief look's model was sure of the tile and whose colour looks' was sure of the
    # print, was read 0.64-0.77 sure: unknown. Nothing lies over the board to show a
    # relief no tile has. (Seed 7 frame 435 board 1 and seed 9 frame 108: the relief look
    # 0.84 and 0.82 sure, read 0.76 and 0.74 at nine times the colour looks' say.)
    obs, truth, cond = _recognized(seed, frame)
    assert not cond.hand
    _assert_read_exactly(obs, truth["boards"][board])


def test_a_pale_tile_on_a_pattern_line_is_read_on_a_board_nothing_lies_over():
    # Seed 9, frame 38 (the benchmark's): a yellow tile under glare on a pattern line,
    # its relief look's model 0.92 sure of it, its colour looks' 0.97 sure of the plain
    # cell: averaged, unknown, and the line's count with it. (The settled model, 0.64
    # sure of it, leaves the line unread: the first read, which reads more, stands.)
    obs, truth, cond = _recognized(9, 38)
    assert not cond.hand and truth["boards"][1]["lines"][2] == {"color": "yellow", "count": 1}
    _assert_read_exactly(obs, truth["boards"][1])


def test_a_line_of_pale_tiles_under_glare_is_read_by_the_settled_models():
    # Seed 11, frame 27 (the benchmark's, never tuned on): four yellow tiles on a pattern
    # line under glare, no hand. The models the grid was placed with left the line unread;
    # read again with the settled models (cells.SETTLED), it is read whole.
    obs, truth, cond = _recognized(11, 27)
    assert not cond.hand and truth["boards"][1]["lines"][4] == {"color": "yellow", "count": 4}
    _assert_read_exactly(obs, truth["boards"][1])


def test_the_settled_models_read_a_board_they_did_not_place():
    # Seed 9, frame 382 (the benchmark's): an arm over a grey board. Read by the settled
    # models throughout, the outline the arm cut short was placed again 4.6 cells off its
    # wall, and 24 of the 32 places in view read wrong, 5 surely; its grid is placed by
    # the models of its kind, and the settled ones only read it once placed.
    obs, truth, cond = _recognized(9, 382)
    assert cond.hand and truth["boards"][1]["side"] == "grey"
    _assert_every_place_in_view_read(obs, truth["boards"][1], least=32)


def test_the_marker_on_the_floor_is_read_where_its_look_is_taken_for_something_over_it():
    # Seed 7, frame 246 (the benchmark's): the first-player marker on a floor's first
    # place, 0.63 the marker and 0.33 something over it, no hand in the frame.
    obs, truth, cond = _recognized(7, 246)
    assert not cond.hand and truth["boards"][0]["floor"][0] == "marker"
    _assert_read_exactly(obs, truth["boards"][0])


def test_a_place_the_frames_edge_cuts_the_relief_look_of_is_read_by_its_colour():
    # Seed 9, frame 396 (the benchmark's): the frame's edge runs past a board's first floor
    # place, in view, and cuts the boxes of its relief look, which saw something over it.
    obs, truth, cond = _recognized(9, 396)
    assert not cond.hand and truth["boards"][3]["floor"][0] is None
    _assert_read_exactly(obs, truth["boards"][3])


def test_a_board_something_lies_over_reads_its_wall_as_the_colour_looks_also_say():
    # Seed 9, frame 195 (the benchmark's): an arm lies over the table. Had the relief look
    # the same say on every board, this board's pattern lines were read on a grid off by
    # a place, eight of them surely wrong.
    obs, truth, cond = _recognized(9, 195)
    assert cond.hand
    _assert_nothing_read_wrong(obs, truth)


def _surely_wrong(obs: dict, expected: dict) -> int:
    """How many places of the board found nearest `expected` are read other than it."""
    return sum(r != t for r, t in zip(_places(_nearest(obs, expected)), _places(expected), strict=True)
               if r != "unknown" and t != "unknown")


def test_the_final_models_read_a_board_out_but_do_not_place_it(monkeypatch):
    # Seed 9, frame 195 (the benchmark's): an arm over a board cut its outline short. The
    # grid's checks were tuned with the first models: had the final ones (cells.FINAL),
    # fitted with other cameras' looks too, placed the board, its pattern lines and floor
    # were read on a grid a place off, and surely wrong.
    content, cond, rng = mixed_table(9, 195)
    image, truth = render_table(content, cond, rng)
    assert cond.hand and _surely_wrong(recognize(image), truth["boards"][0]) == 0
    for kind in [k for k in cells.PLACE_MODELS if k.startswith(cells.FINAL)]:
        monkeypatch.setitem(cells.PLACE_MODELS, kind.removeprefix(cells.FINAL), cells.PLACE_MODELS[kind])
    assert _surely_wrong(recognize(image), truth["boards"][0]) >= 5


def test_a_board_in_another_cameras_look_is_read_out_by_the_final_models(monkeypatch):
    # Seed 7, frame 123 in other looks (the benchmark's --looks): its processing makes the
    # wall's printed cells more vivid than any the first models learned. Read by them, 13
    # empty cells of two boards were read as tiles, surely; the final models, fitted with
    # such looks too, read both boards with none wrong.
    content, cond, rng = mixed_table(7, 123, True)
    image, truth = render_table(content, cond, rng)
    assert not cond.hand
    obs = recognize(image)
    assert [_surely_wrong(obs, truth["boards"][b]) for b in (0, 1)] == [0, 0]
    for kind in [k for k in cells.PLACE_MODELS if k.startswith(cells.FINAL)]:
        monkeypatch.delitem(cells.PLACE_MODELS, kind)
    obs = recognize(image)
    assert min(_surely_wrong(obs, truth["boards"][b]) for b in (0, 1)) >= 3


def test_a_place_in_shade_is_lightened_beside_a_hand_over_many_places():
    # Seed 9, frame 118 (the benchmark's): the first pattern line's place lies in the
    # shadow of a hand whose fingers lie over seven wall cells, more places unsure than
    # a board's places are looked at again beside; lightened, it reads empty.
    obs, truth, cond = _recognized(9, 118)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][0], least=30, near=25.0)  # (4000 px across)


def test_a_board_read_again_reads_its_places_as_looked_at_again_before(monkeypatch):
    # Seed 9, frame 118, as above: places under the hand are looked at again through
    # windows moved past it, and one in its shadow lightened. Read out (cells.read_final)
    # and read by the settled models, the board is read from that looking, kept with its
    # looks (cells._Looked): the same reading as looking afresh, for less looking.
    from vision import recognize as recognize_module
    content, cond, rng = mixed_table(9, 118)
    image, _ = render_table(content, cond, rng)
    windows, read_out = [], []
    looks, shade_gain = cells._looks, cells._shade_gain

    def looks_counted(panel, at, *more):
        windows.append(len(at))
        return looks(panel, at, *more)

    monkeypatch.setattr(cells, "_looks", looks_counted)
    monkeypatch.setattr(cells, "_shade_gain", lambda *args: windows.append(1) or shade_gain(*args))
    read_final = cells.read_final

    def read_out_counted(frame, board, reading, rough):
        windows.clear()
        read = read_final(frame, board, reading, rough)
        read_out.append((board, reading, rough, read, sum(windows)))
        return read

    monkeypatch.setattr(recognize_module, "read_final", read_out_counted)
    recognize(image)
    board, first, rough, read, looked = next(out for out in read_out if out[1].looks is not None
                                             and out[1].looks.seen_past and out[1].looks.seen_lit)
    windows.clear()
    afresh = read_final(image, board, dataclasses.replace(
        first, looks=dataclasses.replace(first.looks, seen_past={}, seen_lit={})), rough)
    assert [r.value for r in afresh.places.values()] == [r.value for r in read.places.values()]
    assert [r.confidence for r in afresh.places.values()] \
        == pytest.approx([r.confidence for r in read.places.values()])
    assert looked < sum(windows) / 2


def test_a_grey_walls_cell_is_not_lightened_on_a_board_with_many_places_unsure():
    # Seed 1, frame 213: a grey board half read under an arm. Lightened by the grey print
    # round it, which is darker than the cream a shade is measured by, an empty cell of
    # its wall read yellow.
    obs, truth, cond = _recognized(1, 213)
    expected = truth["boards"][1]
    assert cond.hand and expected["side"] == "grey" and expected["wall"][0][3] is None
    assert _nearest(obs, expected)["wall"][0][3] in (None, "unknown")


def test_a_grid_on_the_print_but_off_it_at_a_corner_is_moved_onto_it():
    # Seed 9, frame 403 (the benchmark's): a board's grid passed its check, the print in
    # 0.49 of the wall's windows, but lay 0.7 of a place off at the wall's far corner,
    # where a cell was left unread. Moved onto the print (0.86), every place reads.
    obs, truth, cond = _recognized(9, 403)
    expected = truth["boards"][2]
    assert cond.hand and expected["side"] == "colored"
    _assert_every_place_in_view_read(obs, expected, least=40, outline_as_found=True)


def test_a_grid_off_in_perspective_is_moved_onto_the_print_its_cells_show_better():
    # Seed 7, frame 362 (the benchmark's): a grid 0.4-0.5 of a place off put the camera
    # wrong, and the windows the print is judged by, set off by it, showed the print in
    # 0.78 of the wall; its cells showed it in 0.51, and two places read surely wrong.
    # Moved onto the print, the cells show it in 0.78 (those windows 0.46): every place
    # in view reads right.
    obs, truth, cond = _recognized(7, 362)
    expected = truth["boards"][1]
    assert not cond.hand and expected["side"] == "colored"
    _assert_every_place_in_view_read(obs, expected, least=40, outline_as_found=True)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 194, 0), (9, 22, 0)])
def test_a_board_whose_strip_and_cream_an_arm_hides_is_read_under_the_others_balance(seed, frame, board):
    # The benchmark's frames: an arm over a board's strip left its turn untold, and over
    # its cream too, which gave the board gains that washed its wall out (a grey cell 1.14
    # of the cream): at no turn did the grid fit, and the board was not found. Under the
    # other boards' balance, every place in view is read.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_every_place_in_view_read(obs, truth["boards"][board])


def test_a_board_sure_of_the_grey_side_under_a_sleeve_is_read_on_the_side_the_others_show():
    # Seed 9, frame 132 (the benchmark's): a grey sleeve over a coloured board's wall reads
    # as the grey side, surely, and the grid, checked against a grey wall, was off: nothing
    # read. Every board whose grid is on its print shows the coloured side.
    obs, truth, cond = _recognized(9, 132)
    assert cond.hand and truth["boards"][3]["side"] == "colored"
    _assert_every_place_in_view_read(obs, truth["boards"][3])


@pytest.mark.parametrize("frame", [270, 410])
def test_a_board_a_sleeve_shows_as_the_grey_side_is_read_on_the_side_a_whole_wall_shows(frame):
    # Seed 9 (the benchmark's): a grey sleeve over most of a coloured wall, and the few
    # cells in view read the grey side surely, grid in place; the other board's whole wall
    # shows the coloured side as surely. A game is played on one side.
    obs, truth, cond = _recognized(9, frame)
    assert cond.hand and truth["boards"][1]["side"] == "colored"
    found = _nearest(obs, truth["boards"][1])
    assert found["side"] == "colored" and found["rotation"] == truth["boards"][1]["rotation"]
    _assert_nothing_read_wrong(obs, truth)


@pytest.mark.parametrize("frame", [89, 99])
def test_a_board_beside_a_dark_mat_is_outlined_without_the_mats_speckle(frame):
    # Seed 9 (the benchmark's): noise on a dark grey mat passes for the boards' blue pixel
    # by pixel, and closing the mask joined the mat to the board beside it in one outline:
    # the board was not found, or found askew with nothing read. (Frame 89: its speckle
    # vivid enough to pass for print left the outline askew at a corner, and ten places
    # unread.)
    obs, truth, cond = _recognized(9, frame)
    assert not cond.hand and cond.mats
    _assert_every_place_in_view_read(obs, truth["boards"][1])


def _speckled_beside_a_frame(solid: bool) -> tuple[np.ndarray, np.ndarray]:
    """A small balanced frame: a board's blue frame (a square band) and, touching it, a
    dark grey patch whose noise passes for blue in scattered pixels (a mat), or in all of
    its nearer half and scattered pixels of the rest (`solid`: a sleeve, frayed); and its
    blue mask."""
    rng = np.random.default_rng(0)
    small = np.full((200, 300, 3), (40, 90, 140), np.uint8)  # a wooden table
    cv2.rectangle(small, (20, 20), (140, 140), (170, 100, 30), 12)  # the blue frame
    patch = np.full((120, 120, 3), (84, 76, 72), np.int16) + rng.integers(-6, 7, (120, 120, 3))
    small[30:150, 146:266] = np.clip(patch, 0, 255).astype(np.uint8)
    blue = np.zeros(small.shape[:2], np.uint8)
    cv2.rectangle(blue, (20, 20), (140, 140), 255, 12)
    grey = rng.random((120, 120)) < 0.5
    if solid:
        grey[:, :60] = True
    blue[30:150, 146:266][grey] = 255
    return small, blue


@pytest.mark.parametrize("solid", [False, True])
def test_speckle_joined_to_a_boards_frame_is_left_out_a_solid_sleeve_is_not(solid):
    small, blue = _speckled_beside_a_frame(solid)
    k = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(blue, cv2.MORPH_CLOSE, k)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert len(contours) == 1  # the frame and the patch, joined
    after = _unspeckled(list(contours), blue, mask, small, closing=k, least=100.0)
    widths = sorted(cv2.boundingRect(c)[2] for c in after if cv2.contourArea(c) > 100)
    if solid:
        assert widths == [cv2.boundingRect(contours[0])[2]]  # kept whole: a sleeve lies over it
    else:
        assert widths == [133]  # the frame alone


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_an_outline_cut_short_grows_back_to_the_board_from_its_whole_side(cut):
    # An arm over a board's side cuts its outline short there: the outline's side `cut`
    # lies along the arm, a third of the way in. Grown from its whole side (the one
    # opposite), the outline is the board's again, turned right.
    rng = np.random.default_rng(5)
    frame, truth = render_table(random_content(rng, players=2), Conditions(shadow=0.35), rng)
    geo = truth["geometry"]
    outline = np.array(geo["boards"][0]["outline"], np.float64)  # from the owner's top-left
    short = outline.copy()
    a, b = cut, (cut + 1) % 4
    short[a] += (outline[a - 1] - outline[a]) / 3
    short[b] += (outline[(b + 1) % 4] - outline[b]) / 3
    scale = 960 / max(frame.shape[:2])
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rough = WhiteBalance.from_brightest(small)
    small = rough.apply_u8(small)
    found = analyse(frame).boards
    # the plane as the other board measures it
    ref = max((f for f, _ in found), key=lambda f: np.linalg.norm(f.center - outline.mean(axis=0)))
    to_mm = table_plane(ref, scale)
    cut_short = BoardFind(short, np.eye(3), np.eye(3), 0, 1.0)
    boards = grown(cut_short, small, scale, frame, rough, to_mm=to_mm)
    px = geo["camera"]["px_per_mm"]
    # (quads from the owner's top-left, as the outline: the board found is turned right)
    off = [np.abs(b.quad - outline).max() / px for b in boards]
    assert min(off) < 4.0


@pytest.mark.parametrize(("seed", "frame", "board", "least_right"),
                         [(9, 365, 1, 33), (9, 399, 2, 45), (7, 184, 3, 22)])
def test_a_board_outlined_short_along_an_arm_is_grown_back_and_read(seed, frame, board, least_right):
    # The benchmark's frames: an arm over a board's edge cut its outline short there (by
    # 14-121 mm), and the grid it gave lay off the print: nothing was read. Grown back to
    # a board's size from the side of it that is whole, the grid lies on the print.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][board], least_right=least_right)


@pytest.mark.parametrize(("seed", "frame", "board", "least_right"),
                         [(7, 374, 2, 29), (9, 1, 1, 34), (9, 428, 3, 45)])
def test_a_board_whose_turn_the_arm_hid_is_grown_back_and_read(seed, frame, board, least_right):
    # The benchmark's frames: the arm over a coloured board's strip left its turn untold,
    # and cut its outline short (seed 7) or rebuilt it too big round the arm (seed 9): at
    # no turn did the grid show the print, and the board was left out. Grown back (seed
    # 9: to 0.84 and 0.93 of the outline rebuilt), its print tells its turn.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][board], least_right=least_right)


def test_a_board_whose_wall_the_arm_hides_at_its_turn_is_not_read_at_another():
    # Seed 9, frame 428 (the benchmark's): the arm over a coloured board's strip hides its
    # wall too, all but the last column, at the board's turn: too few cells to judge the
    # print by. Round a wrong turn the print was found on eight cells, and the board read
    # there. No turn is told: the board is left out of a frame seen occluded. (The place
    # models before the relief look saw eight cells in view at its turn, three of them
    # under the arm's edge, and read it there.)
    obs, truth, cond = _recognized(9, 428)
    assert cond.hand and obs["occluded"]
    expected = truth["boards"][3]
    for found in obs["boards"]:
        if np.hypot(*np.subtract(found["center"], expected["center"])) < 100:
            assert found["rotation"] == expected["rotation"]
    _assert_nothing_read_wrong(obs, truth)


def test_a_board_whose_print_shows_over_its_whole_wall_at_one_turn_is_read_there():
    # Seed 1, frame 167 (the benchmark's): a sleeve across a board hides its strip and
    # half its wall. Round one turn the print was found clear over the whole wall; round
    # another, too few cells showed to judge it, which left the board out as frame 428
    # is. A print that clear is the board's: 12 of its 13 places in view read right.
    obs, truth, cond = _recognized(1, 167)
    assert cond.hand and obs["occluded"]
    expected = truth["boards"][0]
    found = _nearest(obs, expected)
    assert np.hypot(*np.subtract(found["center"], expected["center"])) < 20
    assert found["rotation"] == expected["rotation"]
    pairs = [(r, t) for r, t in zip(_places(found), _places(expected), strict=True) if t != "unknown"]
    assert sum(r == t for r, t in pairs) >= 12
    _assert_nothing_read_wrong(obs, truth)


def test_a_grey_board_whose_turn_the_arm_hid_is_not_grown():
    # Seed 9, frame 476 (the benchmark's): grown back, a grey board whose strip an arm
    # hid was read at the turn facing the table's middle, 4 of its 20 places surely wrong.
    obs, truth, cond = _recognized(9, 476)
    assert cond.hand and truth["boards"][2]["side"] == "grey"
    _assert_nothing_read_wrong(obs, truth)


def test_an_outline_grown_no_bigger_is_not_read_where_the_first_grid_failed():
    # Seed 9, frame 178 (the benchmark's): the grid of a board under a hand lay 30 mm off
    # its print at a corner, and nothing was read. Rebuilt from its sides, the outline
    # came out no bigger, and its grid passed the check by chance: 10 places were read
    # surely wrong, a cell off. A board not grown is left unread.
    obs, truth, cond = _recognized(9, 178)
    assert cond.hand
    _assert_found_and_read(obs, truth["boards"][2], least_right=0)


def test_of_the_ways_grown_one_showing_the_print_clearly_is_read():
    # Seed 1000, frame 64 (a benchmark's): of a board's outline grown back, a way 35 mm
    # off passed its check weakly and read 5 places surely wrong; two ways a little
    # smaller than the outline found show the coloured print clearly, and one is read.
    obs, truth, _ = _recognized(1000, 64)
    _assert_found_and_read(obs, truth["boards"][2], least_right=33)


def test_no_board_is_grown_where_no_board_in_place_measures_the_table():
    # Seed 4, frame 202 (a benchmark's): neither board's grid is on its print. Grown by
    # a plane its own sides guessed, one was read 200 mm off, on a grey block, with 8
    # places surely wrong.
    obs, truth, _ = _recognized(4, 202)
    _assert_nothing_read_wrong(obs, truth)


def test_a_board_the_others_side_puts_in_place_is_not_grown():
    # Seed 7, frame 348 (the benchmark's): a grey board read first as the coloured side,
    # its grid off the print, is in place on the grey side every other board shows.
    # Grown first, a grid turned half round fitted the grey block, and 27 places were
    # read surely wrong. (In place, its wall's last column shows as light as the cream,
    # which the grey check allows on three cells, not four: read by the colour looks'
    # model alone, which took three of them for something over the board, it was read
    # whole; read by the place models averaged, it is found but left unread.)
    obs, truth, _ = _recognized(7, 348)
    assert truth["boards"][3]["side"] == "grey"
    _assert_found_and_read(obs, truth["boards"][3], least_right=0)


@pytest.mark.parametrize(("seed", "frame"), [(7, 241), (9, 179)])
def test_a_discs_block_of_tiles_is_no_board_far_smaller_than_a_board_there(seed, frame):
    # The benchmark's frames: a disc's four tiles, framed by the sunburst's blue, passed
    # for a whole grey board, a sixth of a board's size where it lay.
    obs, truth, _ = _recognized(seed, frame)
    assert obs["boards"]
    px = truth["geometry"]["camera"]["px_per_mm"]
    for found in obs["boards"]:
        assert min(np.hypot(*np.subtract(b["center"], found["center"])) for b in truth["boards"]) < 30 * px


def test_a_board_the_surest_boards_plane_measures_too_big_is_kept():
    # Seed 1000, frame 127 (a benchmark's): the surest board, cut short by an arm,
    # measured the table plane too small, and the board beside it 1.84 of a board's size
    # there. It is a board all the same: 29 of its places are read, none wrong.
    obs, truth, _ = _recognized(1000, 127)
    expected = truth["boards"][1]
    px = truth["geometry"]["camera"]["px_per_mm"]
    found = _nearest(obs, expected)
    assert np.hypot(*np.subtract(found["center"], expected["center"])) < 30 * px
    read, true = _places(found), _places(expected)
    assert all(r == t for r, t in zip(read, true, strict=True) if r != "unknown" and t != "unknown")
    assert sum(r == t != "unknown" for r, t in zip(read, true, strict=True)) >= 29


def test_the_end_bonus_panel_tells_a_boards_turn_from_any_turn_it_was_found_at():
    # The blue panel of end bonuses lies in the owner's bottom right: whichever turn a
    # board was found at, it tells how far to turn it, and nothing once it is hidden.
    rng = np.random.default_rng(3)
    frame, _ = render_table(random_content(rng, players=4), Conditions(shadow=0.35), rng)
    rec = analyse(frame)
    assert len(rec.boards) == 4
    wb = WhiteBalance.from_brightest(frame)
    for board, _ in rec.boards:
        for quarters in range(4):
            quad = np.roll(board.quad, quarters, axis=0)  # found `quarters` turns anticlockwise
            found = BoardFind(quad, rect_homography(quad, BOARD_W_MM, BOARD_H_MM), board.panel_h,
                              (board.rotation - 90 * quarters) % 360, 0.0, turn_told=False)
            assert bonus_turn(found, frame, wb) == quarters
    board = rec.boards[0][0]
    # the panel's corners in the board's mm (vision.synth draws it at these crop px)
    panel = [(PANEL_X0_MM + x * PANEL_MM_PER_PX, PANEL_Y0_MM + y * PANEL_MM_PER_PX)
             for x, y in ((655, 470), (890, 470), (890, 592), (655, 592))]
    covered = frame.copy()
    cv2.fillConvexPoly(covered, np.round(apply_h(board.board_h, panel)).astype(np.int32), (150, 170, 190))
    assert bonus_turn(board, covered, wb) is None


@pytest.mark.parametrize(("seed", "frame", "board", "right"),
                         [(7, 182, 1, 16), (7, 372, 3, 21), (7, 381, 0, 22)])
def test_a_board_whose_strip_and_print_tell_no_turn_is_read_at_the_turn_its_bonus_panel_tells(
        seed, frame, board, right):
    # The benchmark's frames: an arm over the strip, and the wall under the arm too (or
    # grey, or its print's colours shifted by the light): only the blue end-bonus panel
    # in the owner's bottom right tells the turn.
    obs, truth, cond = _recognized(seed, frame)
    assert cond.hand
    expected = truth["boards"][board]
    _assert_found_and_read(obs, expected, least_right=0)
    found = _nearest(obs, expected)
    assert sum(r == t != "unknown" for r, t in zip(_places(found), _places(expected), strict=True)) >= right


def test_an_outline_not_a_boards_size_is_not_turned_by_blue_in_its_corner():
    # Seed 1000, frame 224 (a benchmark's): an outline run from a board's corner over an
    # arm onto a disc found the sunburst's blue where a board's end-bonus panel lies,
    # and read there it hid two discs. On the table plane it measured 135 x 435 mm.
    content, cond, rng = mixed_table(1000, 224)
    image, truth = render_table(content, cond, rng)
    rec = analyse(image)
    for board, _ in rec.boards:
        outline = board.quad.astype(np.float32).reshape(-1, 1, 2)
        assert all(cv2.pointPolygonTest(outline, tuple(map(float, f["center"])), False) < 0
                   for f in truth["factories"])


def test_a_grey_wall_in_an_arms_shade_keeps_its_grid():
    # Seed 7, frame 348 (the benchmark's): an arm lies over a grey board's pattern lines,
    # and its shade over the wall and the cream beside it. The gaps between the lines and
    # the wall showed 0.62-0.70 of the panel's cream, darker than cream may be, and the
    # grid was taken off: 27 places left unknown. Judged in the wall's own light, they
    # are cream, and the places in view are read.
    obs, truth, cond = _recognized(7, 348)
    assert cond.hand and truth["boards"][3]["side"] == "grey"
    _assert_found_and_read(obs, truth["boards"][3], least_right=40)


@pytest.mark.parametrize(("seed", "frame", "board"), [(7, 196, 1), (7, 64, 1)])
def test_a_floor_a_grid_fitted_to_the_wall_puts_off_is_read_where_the_panel_places_it(seed, frame, board):
    # Seed 7, frames 196 and 64 (the benchmark's): a board's grid moved onto its wall's
    # print lay 54 and 41 crop px off along the floor at its first place, and the floor
    # was read a place along, a place of it surely wrong. Placed by the panel's left
    # edge, every place in view is read right.
    obs, truth, _ = _recognized(seed, frame)
    expected = truth["boards"][board]
    found = _nearest(obs, expected)
    assert found["rotation"] == expected["rotation"] and any(expected["floor"])
    assert [r for r, t in zip(_places(found), _places(expected), strict=True) if t != "unknown"] \
        == [t for t in _places(expected) if t != "unknown"]
    _assert_nothing_read_wrong(obs, truth)


def test_a_grid_fitted_round_a_hand_reads_the_floor_the_panels_edge_places():
    # Seed 1, frame 167 (the benchmark's): a sleeve over half a board's wall; its grid,
    # fitted to the wall round it, could lie a place off along the floor, which was left
    # unread for it. The panel's left edge shows where the floor lies: its tile is read.
    obs, truth, cond = _recognized(1, 167)
    assert cond.hand
    expected = truth["boards"][0]
    found = _nearest(obs, expected)
    assert np.hypot(*np.subtract(found["center"], expected["center"])) < 20
    shown = [i for i, t in enumerate(expected["floor"]) if t != "unknown"]
    assert [found["floor"][i] for i in shown] == [expected["floor"][i] for i in shown]
    assert any(expected["floor"][i] for i in shown)
    _assert_nothing_read_wrong(obs, truth)


def test_a_marker_read_empty_before_a_tile_on_the_floor_is_read_with_it():
    # Seed 9, frame 295 (the benchmark's): on a grey board's floor under glare, the
    # first-player marker was read empty (0.85), surely, before a yellow tile (0.99).
    obs, truth, _ = _recognized(9, 295)
    expected = truth["boards"][1]
    found = _nearest(obs, expected)
    assert expected["floor"][:2] == ["marker", "yellow"]
    assert found["floor"] == expected["floor"]
    _assert_nothing_read_wrong(obs, truth)


def test_a_board_a_dark_navy_sleeve_joins_its_outline_to_is_found_and_read():
    # Seed 7, frame 360 (the benchmark's): a navy sleeve over the right of a board shows
    # the boards' blue in patches, too few to be taken out as a sleeve; joined to the
    # board's frame, it bent the outline off along itself and the board was not found
    # (37 places). Taken out with its dark blue, the board is found and read.
    obs, truth, cond = _recognized(7, 360)
    assert cond.hand and len(obs["boards"]) == len(truth["boards"])
    _assert_every_place_in_view_read(obs, truth["boards"][0], least=30)
    _assert_nothing_read_wrong(obs, truth)


def test_a_blue_grey_mat_beside_a_board_found_whole_leaves_it_whole():
    # Seed 7, frame 166 (the benchmark's): a blue-grey felt mat under a board's corner is
    # as wide as a sleeve in dark blue. Taken out before the board was looked for, it cut
    # the corner off (nine places unread, one read wrong); the board is read exactly.
    obs, truth, _ = _recognized(7, 166)
    _assert_read_exactly(obs, truth["boards"][1])


@pytest.mark.parametrize(("seed", "frame", "board", "in_view"), [
    (2, 186, 0, 47),  # a board in plain view, half on a grey felt mat
    (1, 171, 0, 16),  # a blue-grey sleeve across a board
])
def test_a_board_a_pale_blue_mat_or_sleeve_touches_is_found_in_its_frames_vivid_blue(seed, frame, board,
                                                                                       in_view):
    # A blue-grey mat or sleeve (on a wood table the rough balance turns a grey mat so)
    # passed for the boards' blue, as wide as a sleeve, and was taken out with the frame
    # of the board it touched, whose pieces made no board. Looked for again in the
    # frame's vivid blue alone, the board is found and read.
    obs, truth, _ = _recognized(seed, frame)
    assert len(obs["boards"]) == len(truth["boards"])
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=in_view)
    _assert_nothing_read_wrong(obs, truth)


def test_a_white_tile_the_place_model_takes_for_its_print_is_read_by_its_teal():
    # Seed 8 frame 38 (held out): a board at 45 degrees under blur, a white tile on its
    # own print in plain view, its shadow showing; the place model read it empty at 0.94.
    # Beside the board's other white prints, read empty, its top shows the star's teal.
    obs, truth, cond = _recognized(8, 38)
    assert not cond.hand
    assert truth["boards"][0]["wall"][4][3] == "white"
    _assert_read_exactly(obs, truth["boards"][0])


@pytest.mark.parametrize(("seed", "frame", "board", "outline_as_found"), [
    # Seed 10 frame 137 (never tuned on): a board seen from its left, its grid fitted to
    # the wall (its outline 45 px off); the floor, 84 crop px off at its first place, is
    # placed by its print, and the pattern lines lay 24-85 crop px off too: two tiles
    # read as empty places.
    (10, 137, 1, True),
    # Seed 1 frame 234: the floor placed by the panel's left edge, 108 crop px along; the
    # fourth and fifth lines, off as far, read a red tile empty and left a line of blue unknown.
    (1, 234, 0, False),
], ids=["by-the-floors-print", "by-the-panels-edge"])
def test_pattern_lines_are_read_where_the_floor_placed_off_the_grid_puts_them(
        seed: int, frame: int, board: int, outline_as_found: bool):
    obs, truth, _ = _recognized(seed, frame)
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=40, outline_as_found=outline_as_found)


@pytest.mark.parametrize(("seed", "frame", "board", "place"), [
    # Seed 7 frame 250: a board seen at 35 degrees, a yellow tile on its own print under
    # glare, its top washed out to the print's shade; the place model read it empty at 0.94.
    (7, 250, 0, (2, 3)),
    # Seed 8 frame 40 (held out): a white tile on its print, its star washed out; read
    # empty at 0.93. Its grey side face shows below its top.
    (8, 40, 0, (2, 1)),
], ids=["yellow-under-glare", "white-washed-out"])
def test_a_tile_the_place_model_takes_for_its_print_is_read_by_its_side_face(
        seed: int, frame: int, board: int, place: tuple[int, int]):
    obs, truth, _ = _recognized(seed, frame)
    assert truth["boards"][board]["wall"][place[0]][place[1]] is not None
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=40)


def test_the_marker_the_place_model_leaves_unknown_is_read_by_its_look_beside_the_empty_floor():
    # Seed 11 frame 27 (never tuned on): the first-player marker on a floor's first place,
    # the rest of the floor empty; the place model gave it 0.55, empty 0.26. Beside the
    # floor's empty places it shows its ink and its white against the cream.
    obs, truth, _ = _recognized(11, 27)
    assert truth["boards"][3]["floor"][:2] == ["marker", None]
    _assert_read_exactly(obs, truth["boards"][3])


def test_a_wall_cell_the_place_model_leaves_unknown_is_read_empty_by_its_print_beside_the_others():
    # Seed 11 frame 410 (never tuned on): an empty black print that the place model gave
    # a black tile at 0.71 and left unknown; its colour lies 0.4 from the board's other
    # black prints read empty.
    obs, truth, _ = _recognized(11, 410)
    assert truth["boards"][3]["wall"][4][2] is None
    _assert_every_place_in_view_read(obs, truth["boards"][3], least=30)  # a hand over 17 places


@pytest.mark.parametrize(("seed", "frame", "board", "least", "outline_as_found"), [
    # Seed 8 frame 42 (held out): a board seen from its left, its grid fitted to the
    # wall; the floor lay 20-40 crop px along where the grid put it, more in the middle,
    # and read a place along (three places surely wrong). Its labels and the bonus
    # panel, in view above and beside the tiles, place it. (The frame's edge cuts five
    # places, and the outline.)
    (8, 42, 1, 35, True),
    # Seed 8 frame 456 (held out): a green sleeve over the board's left, the frame left
    # of the floor under it; the floor lay 27-40 crop px along where the grid put it and
    # read two tiles a place along. The frame below it shows little (0.28 of what it
    # can); the labels and the bonus panel show the rest.
    (8, 456, 0, 25, False),
    # Seed 7 frame 183: a board seen steeply, a hand over its wall, its empty floor 29
    # crop px off where the grid put it. Its print showed best 49 off, little better than
    # there: not moved. (Moved so, the floor's first place was left unknown. The board's
    # outline, rebuilt round the hand, lies 35 px off.)
    (7, 183, 3, 30, True),
    # Seed 11 frame 308 (never tuned on): the bonus panel out of the frame, a navy sleeve
    # beside the board; the dark gaps between the last pattern line's tiles, 84 crop px
    # apart, showed as the floor's labels 100 crop px up: not so far up.
    (11, 308, 0, 25, False),
], ids=["a-place-along", "frame-under-a-sleeve", "little-better", "not-onto-the-lines"])
def test_a_floor_is_read_where_its_own_print_shows_it(seed: int, frame: int, board: int, least: int,
                                                      outline_as_found: bool):
    obs, truth, _ = _recognized(seed, frame)
    _assert_every_place_in_view_read(obs, truth["boards"][board], least=least,
                                     outline_as_found=outline_as_found)
