"""Kids recogniser, the hard cases of a real table: a board frame cut by an arm or by the
photo's edge, a board with one side out of the photo, tiles of one colour touching in a
bowl, glare on a tile, and a small blurred tile whose corners have gone."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.kids.colors import label_map
from vision.kids.frames import (
    complete_corner,
    complete_frame,
    complete_from_above,
    find_frames,
    frames_from_holes,
)
from vision.kids.shapes import face_outline
from vision.kids.tiles import colour_masks, read_faces, tile_strength

W, H = 960, 720
QUAD = np.array([[300.0, 200.0], [660.0, 230.0], [640.0, 470.0], [280.0, 450.0]])  # clockwise


def _band(quad: np.ndarray, width: int = 6) -> np.ndarray:
    mask = np.zeros((H, W), np.uint8)
    cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * width + 1, 2 * width + 1)))
    return cv2.subtract(mask, inner)


def _corner_error(found: list[np.ndarray], quad: np.ndarray) -> float:
    best = math.inf
    for q in found:
        for turn in range(4):
            best = min(best, float(np.abs(np.roll(q, -turn, axis=0) - quad).max()))
    return best


def test_a_whole_frame_is_found_at_its_outer_edge() -> None:
    frames = find_frames(_band(QUAD), 0.004 * W * H)
    assert _corner_error(frames.quads, QUAD) < 2.0


def test_a_frame_cut_in_two_by_an_arm_is_found() -> None:
    mask = _band(QUAD)
    cv2.line(mask, (420, 100), (520, 600), 0, 60)  # an arm across both long sides
    n, _ = cv2.connectedComponents(mask)
    assert n - 1 == 2  # two pieces of frame
    frames = find_frames(mask, 0.004 * W * H)
    assert _corner_error(frames.quads, QUAD) < 2.5


def test_a_frame_with_a_corner_out_of_the_photo_is_found() -> None:
    quad = QUAD + np.array([0.0, -215.0])  # the top-left corner leaves the photo
    assert quad[0, 1] < 0 < quad[1, 1]
    frames = find_frames(_band(quad), 0.004 * W * H)
    assert _corner_error(frames.quads, quad) < 2.5


def test_a_frame_lying_on_a_violet_mat_is_found_from_inside() -> None:
    # the band drawn to scale (7 mm of a 300 x 200 mm board), its left side on a violet
    # mat: band and mat are one thick blob there, which the band finder takes out
    to_image = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [300, 0], [300, 200], [0, 200]]), np.float32(QUAD)
    )
    inner = cv2.perspectiveTransform(np.float32([[[7, 7]], [[293, 7]], [[293, 193]], [[7, 193]]]), to_image)
    mask = np.zeros((H, W), np.uint8)
    cv2.fillPoly(mask, [np.round(QUAD * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    cv2.fillPoly(mask, [np.round(inner.reshape(-1, 2) * 16).astype(np.int32)], 0, cv2.LINE_8, shift=4)
    mat = np.array([[120, 150], [303, 196], [284, 455], [120, 560]], np.int32)  # up to the left side
    cv2.fillPoly(mask, [mat], 255)
    assert _corner_error(find_frames(mask, 0.004 * W * H).quads, QUAD) > 10
    found = frames_from_holes(mask, 0.004 * W * H, (300.0, 200.0), 7.0)
    assert _corner_error(found, QUAD) < 2.5


def test_the_unseen_side_is_completed_on_the_tables_plane() -> None:
    # a plane seen in perspective: board mm -> image px
    src = np.float32([[0, 0], [300, 0], [300, 200], [0, 200]])
    h = cv2.getPerspectiveTransform(src, np.float32(QUAD)).astype(np.float64)
    # another board on the same table, 400 mm to the right, lying the other way round
    other_mm = np.array([[400.0, -20.0], [600.0, -20.0], [600.0, 280.0], [400.0, 280.0]])
    other = cv2.perspectiveTransform(other_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    sides = []
    for a, b in ((other[3], other[0]), (other[0], other[1]), (other[1], other[2])):  # left, top, right
        u = (b - a) / np.linalg.norm(b - a)
        n = np.array([u[1], -u[0]])  # outward for a clockwise quad
        sides.append(((a + b) / 2, n))
    quad = complete_frame(sides, h, (300.0, 200.0))
    assert quad is not None
    assert _corner_error([quad], other) < 1.0
    # three sides that cannot belong to a board of that size are refused
    squeezed = [
        (p * 0.5 + other.mean(axis=0) * 0.5, n) if k != 1 else (p, n) for k, (p, n) in enumerate(sides)
    ]
    assert complete_frame(squeezed, h, (300.0, 200.0)) is None


def test_a_frame_showing_only_a_corner_is_completed_both_ways_on_the_tables_plane() -> None:
    src = np.float32([[0, 0], [300, 0], [300, 200], [0, 200]])
    h = cv2.getPerspectiveTransform(src, np.float32(QUAD)).astype(np.float64)
    other_mm = np.array([[400.0, -20.0], [600.0, -20.0], [600.0, 280.0], [400.0, 280.0]])
    other = cv2.perspectiveTransform(other_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    mask = _band(other)
    # an arm over the right and bottom sides: the band shows only round the top-left corner
    cv2.fillPoly(mask, [np.round(other[1:] + (other[1:] - other.mean(axis=0)) * 0.2).astype(np.int32)], 0)
    cv2.line(mask, tuple(np.round(other[1]).astype(int)), tuple(np.round(other[3]).astype(int)), 0, 40)
    frames = find_frames(mask, 0.004 * W * H)
    assert not frames.quads and not frames.open
    [corner] = frames.corners
    quads = complete_corner(corner, h, (300.0, 200.0))
    assert len(quads) == 2  # the board may lie either way; the print decides
    assert _corner_error(quads, other) < 2.0
    # two lines that do not meet square on the table are no corner
    slanted = [
        corner[0],
        (corner[1][0], (corner[1][1] + corner[0][1]) / np.linalg.norm(corner[1][1] + corner[0][1])),
    ]
    assert complete_corner(slanted, h, (300.0, 200.0)) == []


def test_three_sides_seen_from_above_are_completed_both_ways() -> None:
    # a board seen straight down at 1.2 px/mm, its right side out of the photo
    board = np.array([[100.0, 100.0], [460.0, 100.0], [460.0, 340.0], [100.0, 340.0]])
    sides = [((board[3] + board[0]) / 2, np.array([-1.0, 0.0]))]  # left
    sides += [((board[0] + board[1]) / 2, np.array([0.0, -1.0]))]  # top
    sides += [((board[2] + board[3]) / 2, np.array([0.0, 1.0]))]  # bottom
    sides = [sides[2], sides[0], sides[1]]  # clockwise round it, as find_frames gives them
    quads = complete_from_above(sides, (300.0, 200.0))
    assert len(quads) == 2  # 240 px across: 200 mm (board lying long side across) or 300 mm
    assert _corner_error(quads, board) < 1.0


def _bowl_patch(tiles: list[tuple[str, float, float, float]], px_per_mm: float, blur_mm: float) -> np.ndarray:
    """A lavender bowl floor with flat tiles (shape, x mm, y mm, angle) drawn on it."""
    size = round(90 * px_per_mm)
    img = np.empty((size, size, 3), np.uint8)
    img[:] = (234, 204, 216)  # BGR of the floor
    colour = {
        "square": (58, 52, 228),
        "circle": (204, 122, 38),
        "hexagon": (38, 196, 250),
        "diamond": (84, 168, 62),
    }
    for shape, x, y, angle in tiles:
        a = math.radians(angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = (face_outline(shape) @ rot.T + (x, y)) * px_per_mm
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour[shape], cv2.LINE_AA, shift=4)
    if blur_mm:
        img = cv2.GaussianBlur(img, (0, 0), blur_mm * px_per_mm)
    return img


def _read(img: np.ndarray, px_per_mm: float) -> list:
    labels, hsv = label_map(img, np.ones(3, np.float32), grow_pale=True)
    return read_faces(colour_masks(labels, hsv, px_per_mm), tile_strength(hsv), px_per_mm, np.zeros(2))


def test_touching_tiles_of_one_colour_are_counted_one_by_one() -> None:
    s = 3.0
    # two blue circles 1.2 mm apart: blur bridges the gap in the colour mask
    img = _bowl_patch([("circle", 34, 45, 0), ("circle", 57.2, 47, 0)], s, 0.5)
    labels, _ = label_map(img, np.ones(3, np.float32), grow_pale=True)
    n, _ = cv2.connectedComponents((labels == 4).astype(np.uint8))
    assert n - 1 == 1  # one merged blob
    faces = _read(img, s)
    assert [f.value for f in faces] == ["blue", "blue"]


def test_a_tile_with_glare_is_still_read() -> None:
    s = 3.0
    img = _bowl_patch([("circle", 45, 45, 0)], s, 0.3)
    cv2.circle(img, (round(50 * s), round(45 * s)), round(5 * s), (250, 250, 250), -1)  # glare at the edge
    faces = _read(img, s)
    assert [f.value for f in faces] == ["blue"]


def test_a_blob_that_is_no_tile_stays_unknown() -> None:
    s = 3.0
    img = _bowl_patch([], s, 0.0)
    cv2.rectangle(img, (round(20 * s), round(40 * s)), (round(70 * s), round(48 * s)), (38, 196, 250), -1)
    faces = _read(img, s)
    assert faces and all(f.value == "unknown" for f in faces)
