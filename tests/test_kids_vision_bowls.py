"""The Kids storage tray: found when a hand hides its big bowl, a bowl under a hand
reported as covered rather than empty, and tiles run together counted by their area."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.test_kids_vision_frames import _bowl_patch, _read
from vision.kids.bowls import BIG, _fragments, bowl_centres_mm, find_tray, read_bowls
from vision.kids.colors import label_map, tint
from vision.kids.geometry import Plane
from vision.kids.packing import pack
from vision.kids.shapes import face_outline, unsweep
from vision.kids.tiles import (
    UNKNOWN,
    colour_masks,
    read_faces,
    read_faces_each,
    tile_strength,
    without_spread,
)
from vision.synth.hand import SKIN_RGB

FLOOR_BGR = (234, 204, 216)
VIOLET_BGR = (150, 40, 110)
SKIN_BGR = (167, 194, 241)  # the palest skin the renderer draws: light, little saturated


def _tray_to_image() -> np.ndarray:
    """Tray mm (from the big bowl's centre) -> image px: 2 px/mm, turned a little and
    seen slightly in perspective."""
    a = math.radians(20)
    h = np.array(
        [[2 * math.cos(a), -2 * math.sin(a), 480], [2 * math.sin(a), 2 * math.cos(a), 470], [0, 0, 1.0]]
    )
    tilt = np.array([[1, 0, 0], [0, 1, 0], [0.0003, 0.0002, 1]])
    return h @ tilt


def _draw_tray(h: np.ndarray, size: tuple[int, int] = (960, 940)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), 235, np.uint8)
    outline = np.array([[190 * math.cos(t), 190 * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 90)])
    _fill(img, h, outline, VIOLET_BGR)
    for x, y, r in bowl_centres_mm():
        circle = np.array(
            [[x + r * math.cos(t), y + r * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 60)]
        )
        _fill(img, h, circle, FLOOR_BGR)
    return img


def _fill(img: np.ndarray, h: np.ndarray, pts_mm: np.ndarray, bgr: tuple[int, int, int]) -> None:
    pts = cv2.perspectiveTransform(pts_mm.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], bgr, cv2.LINE_AA, shift=4)


def _violet(img: np.ndarray) -> np.ndarray:
    return cv2.inRange(cv2.cvtColor(img, cv2.COLOR_BGR2HSV), (118, 70, 35), (160, 255, 255))


def test_the_tray_is_found_when_a_hand_runs_its_big_bowl_into_a_small_one() -> None:
    h = _tray_to_image()
    img = _draw_tray(h)
    # a hand lying inside the tray, from the big bowl over the small bowl at 0 degrees:
    # the big bowl's hole and that small bowl's are one hole now
    _fill(img, h, np.array([[30, -25], [175, -30], [175, 30], [30, 25]], np.float64), SKIN_BGR)
    plane = find_tray(_violet(img), 1.0, 0.004 * img.shape[0] * img.shape[1], (img.shape[1], img.shape[0]))
    assert plane is not None
    truth = cv2.perspectiveTransform(
        np.array([(x, y) for x, y, _ in bowl_centres_mm()], np.float64).reshape(-1, 1, 2), h
    ).reshape(-1, 2)
    found = plane.to_image(np.array([(x, y) for x, y, _ in bowl_centres_mm()], np.float64))
    # the tray's own numbering may start anywhere round it: compare as sets
    for point in truth:
        assert min(math.dist(point, f) for f in found) < 4.0


@pytest.mark.parametrize("skin_rgb", SKIN_RGB)
def test_a_bowl_under_a_hand_is_covered_not_empty(skin_rgb: tuple[int, int, int]) -> None:
    h = _tray_to_image()
    img = _draw_tray(h)
    bowls = bowl_centres_mm()
    x, y, r = bowls[2]
    hidden = np.array(
        [[x + 1.3 * r * math.cos(t), y + 1.3 * r * math.sin(t)] for t in np.linspace(0, 6.3, 40)]
    )
    _fill(img, h, hidden, skin_rgb[::-1])
    # a red square in the big bowl, which stays readable
    _fill(img, h, face_outline("square") + np.array([20.0, 10.0]), (58, 52, 228))
    readings = read_bowls(img, Plane(h, (img.shape[1], img.shape[0])))
    under = min(
        readings, key=lambda b: math.dist(b.center, cv2.perspectiveTransform(np.float64([[[x, y]]]), h)[0, 0])
    )
    assert under.occluded and not under.tiles
    others = [b for b in readings if b is not under]
    assert not any(b.occluded for b in others)
    big = next(b for b in readings if b.number == BIG)
    assert big.tiles == {"red": 1} and big.unknown == 0


def test_tiles_run_together_are_counted_by_their_area() -> None:
    s = 3.0
    # three red squares edge to edge in an L: one blob, no dip to split it along, whose
    # hull also spans the corner the L leaves open
    img = _bowl_patch([("square", 30, 30, 0), ("square", 50, 30, 0), ("square", 30, 50, 0)], s, 0.0)
    faces = _read(img, s)
    assert [(f.value, f.count) for f in faces] == [("unknown", 3)]


@pytest.mark.parametrize("shape", ["square", "circle", "hexagon"])
def test_tiles_of_one_colour_lying_close_are_all_counted(shape: str) -> None:
    # a row of tiles of one colour a hair apart, blurred together, in several turns:
    # however the blob is split or not, no tile goes missing from the count
    s = 3.0
    rng = np.random.default_rng(7)
    for _ in range(12):
        n = int(rng.integers(2, 5))
        step = {"square": 20.0, "circle": 22.0, "hexagon": 21.0}[shape] + float(rng.uniform(0.0, 1.2))
        angle = float(rng.uniform(0, 90))
        a = math.radians(float(rng.uniform(0, 180)))
        start = np.array([45.0, 45.0]) - (n - 1) / 2 * step * np.array([math.cos(a), math.sin(a)])
        tiles = [(shape, *(start + k * step * np.array([math.cos(a), math.sin(a)])), angle) for k in range(n)]
        faces = _read(_bowl_patch(tiles, s, 0.4), s)
        assert sum(f.count for f in faces) == n
        assert all(f.value in (_colour(shape), "unknown") for f in faces)


def _colour(shape: str) -> str:
    return {"square": "red", "circle": "blue", "hexagon": "yellow", "diamond": "green"}[shape]


def test_a_tile_washed_out_by_glare_counts_as_unknown_not_as_nothing() -> None:
    s = 3.0
    img = _bowl_patch([("diamond", 45, 45, 0)], s, 0.3)
    # glare over most of the diamond: only its corners keep their green
    centre, axes = (round(45 * s), round(45 * s)), (round(5.5 * s), round(11.5 * s))
    cv2.ellipse(img, centre, axes, 0, 0, 360, (245, 245, 245), -1)
    labels, hsv = label_map(img, np.ones(3, np.float32), grow_pale=True)
    masks = colour_masks(labels, hsv, s)
    faces = read_faces(masks, tile_strength(hsv), s, np.zeros(2))
    assert not [f for f in faces if f.value == "green"]  # too little green left to read
    floor = np.zeros(img.shape[:2], np.uint8)
    cv2.circle(floor, (img.shape[1] // 2, img.shape[0] // 2), round(44 * s), 255, -1)
    assert _fragments(masks, faces, np.zeros(2), floor, s) == 1
    # and a bowl of whole tiles has no such pieces
    whole = _bowl_patch([("diamond", 45, 45, 0), ("square", 20, 45, 10)], s, 0.3)
    labels, hsv = label_map(whole, np.ones(3, np.float32), grow_pale=True)
    masks = colour_masks(labels, hsv, s)
    faces = read_faces(masks, tile_strength(hsv), s, np.zeros(2))
    assert sorted(f.value for f in faces) == ["green", "red"]
    assert _fragments(masks, faces, np.zeros(2), floor, s) == 0


@pytest.mark.parametrize(
    "tiles",
    [
        # two circles, one lying over the other's edge: no dip in colour between them
        [("circle", 35, 45, 0), ("circle", 52, 47, 0)],
        # three hexagons in a clump, turned alike
        [("hexagon", 32, 40, 10), ("hexagon", 50, 40, 10), ("hexagon", 41, 56, 10)],
        # two diamonds side by side, touching along an edge
        [("diamond", 36, 45, 0), ("diamond", 54, 45, 0)],
    ],
)
def test_tiles_lying_on_each_other_are_counted_by_the_faces_that_make_up_their_blob(
    tiles: list[tuple[str, float, float, float]],
) -> None:
    s = 3.0
    faces = _read(_bowl_patch(tiles, s, 0.3), s)
    assert [f.value for f in faces] == [_colour(tiles[0][0])] * len(tiles)
    # each counted where a tile lies
    for _, x, y, _ in tiles:
        assert min(math.dist((x * s, y * s), f.centre) for f in faces) < 2.5 * s


def test_a_blob_no_whole_faces_make_up_stays_unknown() -> None:
    s = 3.0
    # a blue blob of two tiles' area, shaped like no pair of circles: a sleeve's cuff
    img = _bowl_patch([], s, 0.3)
    centre, axes = (round(45 * s), round(45 * s)), (round(26 * s), round(9 * s))
    cv2.ellipse(img, centre, axes, 20, 0, 360, (204, 122, 38), -1)
    faces = _read(img, s)
    assert faces and all(f.value == "unknown" for f in faces)
    assert sum(f.count for f in faces) == 2


def test_a_face_is_laid_only_where_it_lies_within_the_blob() -> None:
    s = 3.0
    region = np.zeros((round(60 * s), round(90 * s)), np.uint8)
    cv2.circle(region, (round(20 * s), round(30 * s)), round(11 * s), 1, -1)
    assert pack(region, "circle", s, 3) is not None
    # a second circle with its far third gone: no whole face explains what is left of it
    cv2.circle(region, (round(55 * s), round(30 * s)), round(11 * s), 1, -1)
    region[:, round(59 * s) :] = 0
    assert pack(region, "circle", s, 3) is None


def _steep_pair(s: float, sweep_mm: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Two circles seen steeply, the first one's top hiding the 1.5 mm gap to the next:
    the mask of all they cover (side faces, tops, blur), and their footprints (mm)."""
    radius = float(np.linalg.norm(face_outline("circle")[0]))
    first = np.array([30.0, 30.0])
    footprints = [first, first + sweep_mm / np.linalg.norm(sweep_mm) * (2 * radius + 1.5)]
    seen = np.zeros((round(90 * s), round(90 * s)), np.uint8)
    for centre in footprints:
        for t in np.linspace(0, 1, 12):  # the side face, footprint to top
            pts = (face_outline("circle") + centre + t * sweep_mm) * s
            cv2.fillPoly(seen, [np.round(pts * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    return cv2.dilate(seen, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))), footprints


def test_a_tile_s_top_explains_the_gap_it_hides() -> None:
    # Seen steeply, a tile's top lies past its footprint (the sweep): the first tile's top
    # hides the gap to the next, so cut back to footprints the two stay joined by a broad
    # neck (blur broadens it further). Each face laid explains the gap its top hides.
    s, sweep_mm = 3.0, np.array([2.8, 4.2])
    seen, footprints = _steep_pair(s, sweep_mm)
    region = unsweep(seen, sweep_mm * s)
    assert pack(region, "circle", s, 3) is None  # faces alone leave the neck unexplained
    found = pack(region, "circle", s, 3, sweep_px=sweep_mm * s)
    assert found is not None and len(found.centres) == 2
    for centre in footprints:
        assert min(math.dist(centre * s, c) for c in found.centres) < 1.5 * s


def test_on_a_board_no_top_hides_a_gap_to_the_next_tile() -> None:
    # in a bowl the pair is two blue circles; on a board, where each tile lies alone on
    # its field, a blob that needs a hidden gap to be two tiles is read as unknown
    s, sweep_mm = 3.0, np.array([2.8, 4.2])
    seen, _ = _steep_pair(s, sweep_mm)
    masks = [np.zeros_like(seen)] * 3 + [seen]
    strength = np.full(seen.shape, 200, np.uint8)
    in_bowl = read_faces(masks, strength, s, sweep_mm * s)
    assert [f.value for f in in_bowl] == ["blue", "blue"]
    on_board = read_faces_each(masks, strength, s, lambda _: sweep_mm * s)
    assert [(f.value, f.count) for f in on_board] == [("unknown", 2)]


def _glared_diamond_tray(hand: bool) -> list:
    """The tray with a green diamond in the big bowl, glare over most of its face, a red
    square beside it; optionally a hand over the bowl's other side."""
    h = _tray_to_image()
    img = _draw_tray(h)
    _fill(img, h, face_outline("diamond") + np.array([-8.0, 5.0]), (84, 168, 62))
    # the diamond's upper half and middle washed out: its lower part keeps its green
    glare = np.array([[9.0 * math.cos(t), 9.0 * math.sin(t)] for t in np.linspace(0, 6.3, 40)])
    _fill(img, h, glare + np.array([-8.0, -1.0]), (245, 245, 245))
    _fill(img, h, face_outline("square") + np.array([20.0, 10.0]), (58, 52, 228))
    if hand:
        _fill(img, h, np.array([[-30.0, -40], [10, -40], [10, -20], [-30, -20]]), SKIN_BGR)
    readings = read_bowls(img, Plane(h, (img.shape[1], img.shape[0])))
    return [b for b in readings if b.number == BIG]


def test_a_tile_glare_washes_out_in_part_is_made_whole() -> None:
    (big,) = _glared_diamond_tray(hand=False)
    assert big.tiles == {"green": 1, "red": 1} and big.unknown == 0 and not big.occluded
    assert big.confidence < 0.6  # its outline was not all seen


def _reading_at(img: np.ndarray, h: np.ndarray, at_mm: np.ndarray):
    """The reading of the bowl nearest `at_mm` (tray mm) in a photo of the tray."""
    readings = read_bowls(img, Plane(h, (img.shape[1], img.shape[0])))
    seen = cv2.perspectiveTransform(at_mm.reshape(1, 1, 2).astype(np.float64), h).reshape(2)
    return min(readings, key=lambda b: float(np.linalg.norm(b.center - seen)))


def test_glare_tinted_by_its_tiles_is_no_hand() -> None:
    # Three tiles in a small bowl, each washed out but for its lower rim: the glare
    # mirrors each tile's own colour, so it is neither tile colour nor the lavender floor,
    # and together it is more of the floor than a speck. It lies within the tiles.
    h = _tray_to_image()
    img = _draw_tray(h)
    bowl = np.array(bowl_centres_mm()[1][:2])
    for shape, offset, bgr, glare in [
        ("diamond", (-14.0, -8.0), (84, 168, 62), (200, 250, 215)),
        ("hexagon", (13.0, -9.0), (38, 196, 250), (200, 250, 255)),
        ("square", (0.0, 16.0), (58, 52, 228), (215, 220, 255)),
    ]:
        outline = face_outline(shape) + bowl + np.array(offset)
        _fill(img, h, outline, bgr)
        top = outline[np.argmin(outline[:, 1])]
        _fill(img, h, top + 0.8 * (outline - top) + np.array([0.0, 0.3]), glare)
    small = _reading_at(img, h, bowl)
    assert not small.occluded
    assert small.tiles == {"green": 1, "yellow": 1, "red": 1} and small.unknown == 0


def test_under_a_hand_a_piece_of_a_tile_is_not_made_whole() -> None:
    (big,) = _glared_diamond_tray(hand=True)
    assert big.occluded and big.tiles == {"red": 1} and big.unknown == 1


def test_a_tile_half_under_glare_of_its_own_colour_is_made_whole() -> None:
    # glare mirrors the tile's green over its right half, edge and all: what keeps its
    # colour is too little of a face to place one, the pale green beside it is not
    h = _tray_to_image()
    img = _draw_tray(h)
    diamond = face_outline("diamond") + np.array([-10.0, 4.0])
    _fill(img, h, diamond, (84, 168, 62))
    middle = diamond.mean(axis=0)
    right = np.array([[0.0, -30], [30, -30], [30, 30], [0, 30]]) + middle
    _, glare = cv2.intersectConvexConvex(diamond.astype(np.float32), right.astype(np.float32))
    _fill(img, h, glare.reshape(-1, 2).astype(np.float64), (200, 245, 205))
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    assert big.tiles == {"green": 1} and big.unknown == 0 and not big.occluded


@pytest.mark.parametrize("cover", [0.3, 0.7])
def test_a_pale_sleeve_across_a_bowl_covers_it(cover: float) -> None:
    # a white sleeve is as pale as the floor; where it lies across the bowl's violet
    # lip, it shows: the diamond half under it is neither made whole nor lost unseen
    h = _tray_to_image()
    img = _draw_tray(h)
    diamond = face_outline("diamond") + np.array([-10.0, -12.0])
    _fill(img, h, diamond, (84, 168, 62))
    _fill(img, h, face_outline("square") + np.array([15.0, 10.0]), (58, 52, 228))
    edge = diamond[:, 1].min() + cover * np.ptp(diamond[:, 1])
    _fill(img, h, np.array([[-60.0, -120], [40, -120], [40, edge], [-60, edge]]), (250, 250, 240))
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    assert big.occluded and big.tiles == {"red": 1}


def test_another_colour_along_a_tile_s_edge_is_that_edge_not_a_tile() -> None:
    # where a tile's edge meets the floor's shadow the two mix, and the mixture can take
    # another tile colour's hue (green and lavender make blue): thin bands of it along
    # four tiles' edges are no blue tile seen in pieces
    s = 3.0
    tiles = [("square", x, y, 0) for x in (34, 56) for y in (34, 56)]
    img = _bowl_patch(tiles, s, 0.3)
    faces = _read(img, s)
    assert [f.value for f in faces] == ["red"] * 4
    blue = np.zeros(img.shape[:2], np.uint8)
    near, far, half = 10.0 + 1.0, 10.0 + 2.2, 10.0  # mm from a square's centre
    for _, x, y, _ in tiles:
        for band in (
            [(-half, near), (far, near), (far, far), (-half, far)],
            [(near, -half), (far, -half), (far, near), (near, near)],
        ):
            cv2.fillPoly(
                blue,
                [np.round((np.array(band) + np.array([x, y])) * s * 16).astype(np.int32)],
                1,
                cv2.LINE_8,
                shift=4,
            )
    floor = np.zeros(img.shape[:2], np.uint8)
    cv2.circle(floor, (img.shape[1] // 2, img.shape[0] // 2), round(44 * s), 255, -1)
    masks = [np.zeros_like(blue)] * 3 + [blue]
    assert _fragments(masks, faces, np.zeros(2), floor, s) == 0


def test_glare_on_a_tile_seen_steeply_is_part_of_it() -> None:
    # seen steeply the tile's side face widens its blob past a flat tile's size; the
    # glare biting into its top's edge still lies within it
    s, sweep_mm = 3.0, np.array([1.0, 5.0])
    img = np.empty((round(90 * s), round(90 * s), 3), np.uint8)
    img[:] = FLOOR_BGR
    footprint = face_outline("diamond") + np.array([45.0, 40.0])
    for t in np.linspace(0, 1, 16):  # the side face, darker
        _fill_patch(img, footprint + t * sweep_mm, s, (50, 110, 40))
    top = footprint + sweep_mm
    _fill_patch(img, top, s, (84, 168, 62))
    cv2.circle(
        img,
        tuple(np.round((top.mean(axis=0) + np.array([3.0, 0.0])) * s).astype(int)),
        round(6 * s),
        (245,) * 3,
        -1,
    )
    img = cv2.GaussianBlur(img, (0, 0), 0.3 * s)
    labels, hsv = label_map(img, np.ones(3, np.float32), grow_pale=True)
    masks = colour_masks(labels, hsv, s, sweep_mm * s)
    faces = read_faces(masks, tile_strength(hsv), s, sweep_mm * s)
    assert [f.value for f in faces] == ["green"]


def _fill_patch(img: np.ndarray, pts_mm: np.ndarray, s: float, bgr: tuple[int, int, int]) -> None:
    cv2.fillPoly(img, [np.round(pts_mm * s * 16).astype(np.int32)], bgr, cv2.LINE_AA, shift=4)


def test_grey_shadows_of_tiles_are_no_hand() -> None:
    # a low lamp casts long shadows; on a floor it washes out they are grey, of no hue
    # the balance sets right (here a little green): neither tile colour nor lavender
    h = _tray_to_image()
    img = _draw_tray(h)
    bowl = np.array(bowl_centres_mm()[1][:2])
    tiles = [("square", (-14.0, -6.0), (58, 52, 228)), ("hexagon", (14.0, -8.0), (38, 196, 250))]
    tiles.append(("circle", (0.0, 18.0), (204, 122, 38)))
    for shape, offset, _ in tiles:
        footprint = face_outline(shape) + bowl + np.array(offset)
        for t in np.linspace(0, 1, 12):
            _fill(img, h, footprint + t * np.array([-7.0, -7.0]), (150, 168, 160))
    for shape, offset, bgr in tiles:
        _fill(img, h, face_outline(shape) + bowl + np.array(offset), bgr)
    small = _reading_at(img, h, bowl)
    assert not small.occluded
    assert small.tiles == {"red": 1, "yellow": 1, "blue": 1} and small.unknown == 0


def test_touching_tiles_glare_bit_into_are_made_whole() -> None:
    # two yellow hexagons side by side; glare bites into the top edge where they meet and
    # into one's lower edge, so their blob is no pair of faces: whole faces make it up
    h = _tray_to_image()
    img = _draw_tray(h)
    hexagon = face_outline("hexagon")
    across = np.ptp(hexagon[:, 0])
    for x in (-12.0, -12.0 + 0.97 * across):
        _fill(img, h, hexagon + np.array([x, 0.0]), (38, 196, 250))
    glare = np.array([[6.0 * math.cos(t), 6.0 * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 40)])
    for spot in ((-12.0 + across / 2, -8.0), (-12.0, 6.0)):
        _fill(img, h, glare + np.array(spot), (245, 245, 245))
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    assert big.tiles == {"yellow": 2} and big.unknown == 0 and not big.occluded


def test_a_pale_sleeve_across_a_short_arc_of_the_lip_covers_the_bowl() -> None:
    # a white sleeve reaching in over the lip's corner, over part of a hexagon: a pale way
    # across the violet lip, however short an arc of it
    h = _tray_to_image()
    img = _draw_tray(h)
    _fill(img, h, face_outline("hexagon") + np.array([-22.0, -18.0]), (38, 196, 250))
    _fill(img, h, face_outline("square") + np.array([15.0, 10.0]), (58, 52, 228))
    along, side = np.array([1.0, 1.0]) / math.sqrt(2), np.array([-1.0, 1.0]) / math.sqrt(2) * 9.0
    tip = np.array([-26.0, -22.0])
    _fill(
        img,
        h,
        np.array([tip - 80 * along + side, tip + side, tip - side, tip - 80 * along - side]),
        (250, 250, 240),
    )
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    assert big.occluded and big.tiles == {"red": 1}


def test_a_hand_filling_most_bowls_does_not_set_the_tray_s_white_balance() -> None:
    # Under a warm lamp a hand lies over four of the six bowls. Balanced to its skin, the
    # two bowls left clear would show their lavender floors saturated blue: a tile.
    h = _tray_to_image()
    img = _draw_tray(h)
    bowls = bowl_centres_mm()
    for x, y, r in bowls[:4]:
        over = np.array(
            [[x + 1.2 * r * math.cos(t), y + 1.2 * r * math.sin(t)] for t in np.linspace(0, 6.3, 40)]
        )
        _fill(img, h, over, SKIN_BGR)
    clear = bowls[4:]
    _fill(img, h, face_outline("square") + np.array(clear[0][:2]), (58, 52, 228))
    _fill(img, h, face_outline("hexagon") + np.array(clear[1][:2]), (40, 200, 235))
    lamp_bgr = np.float32([0.6, 0.82, 1.0])  # about 3000 K
    img = np.clip(img * lamp_bgr, 0, 255).astype(np.uint8)
    readings = read_bowls(img, Plane(h, (img.shape[1], img.shape[0])), lamp=tint(1 / lamp_bgr))
    seen = [cv2.perspectiveTransform(np.float64([[c[:2]]]), h)[0, 0] for c in clear]
    red, yellow = (min(readings, key=lambda b: math.dist(b.center, p)) for p in seen)
    assert (red.tiles, red.unknown, red.occluded) == ({"red": 1}, 0, False)
    assert (yellow.tiles, yellow.unknown, yellow.occluded) == ({"yellow": 1}, 0, False)


@pytest.mark.parametrize(("shape", "pale_bgr"), [("diamond", (200, 240, 205)), ("hexagon", (190, 240, 245))])
def test_a_tile_glare_washes_out_whole_is_made_whole_not_missed(shape: str, pale_bgr: tuple) -> None:
    # glare mirrors the tile's colour over all its face: too pale for a tile anywhere
    # (a green diamond turns mint), and no piece keeps its colour to read it by
    h = _tray_to_image()
    img = _draw_tray(h)
    _fill(img, h, face_outline(shape) + np.array([-10.0, 4.0]), pale_bgr)
    _fill(img, h, face_outline("square") + np.array([25.0, -15.0]), (58, 52, 228))
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    assert big.tiles == {_colour(shape): 1, "red": 1} and big.unknown == 0 and not big.occluded
    assert big.confidence < 0.6  # only its colour was seen, not its outline


def test_the_floor_s_own_tint_is_no_washed_out_blue_tile() -> None:
    # lavender tinted towards blue (a cool lamp, a bowl balanced off) in a tile-sized
    # patch, as pale as a washed-out blue circle would be
    h = _tray_to_image()
    img = _draw_tray(h)
    _fill(img, h, face_outline("circle") + np.array([-10.0, 4.0]), (245, 215, 205))
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    assert big.tiles == {} and big.unknown == 0


def _spread_patch(tiles: list[tuple[str, float, float]], s: float, grow: float) -> np.ndarray:
    """A bowl's floor with tiles (shape, x mm, y mm) drawn `grow` times their size: their
    colour spread past their edges (defocus), as much for every tile."""
    img = np.empty((round(90 * s), round(90 * s), 3), np.uint8)
    img[:] = FLOOR_BGR
    bgr = {"square": (58, 52, 228), "circle": (204, 122, 38), "hexagon": (38, 196, 250)}
    for shape, x, y in tiles:
        pts = (face_outline(shape) * grow + (x, y)) * s
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], bgr[shape], cv2.LINE_AA, shift=4)
    return img


_TOUCHING = {
    "square": [("square", 25.0, 25.0), ("square", 45.0, 31.0), ("square", 41.0, 51.0)],
    "circle": [("circle", 25.0, 30.0), ("circle", 47.0, 30.0), ("circle", 36.0, 49.0)],
}


@pytest.mark.parametrize("shape", ["square", "circle"])
def test_touching_tiles_are_counted_once_cut_back_by_the_spread_the_single_tiles_show(shape: str) -> None:
    # three tiles of one colour touching: spread, their blob is more than three faces and
    # no whole faces explain it; two tiles of other colours lying alone are as much bigger
    # than a face, and say by how much
    s = 3.0
    alone = [("hexagon", 70.0, 75.0), ("circle" if shape == "square" else "square", 20.0, 75.0)]
    img = _spread_patch([*_TOUCHING[shape], *alone], s, 1.12)
    labels, hsv = label_map(img, np.ones(3, np.float32), grow_pale=True)
    strength = tile_strength(hsv)
    faces = read_faces(colour_masks(labels, hsv, s), strength, s, np.zeros(2))
    assert [f.value for f in faces].count(UNKNOWN) == 1
    again = without_spread(faces, strength, s, np.zeros(2))
    assert sorted(f.value for f in again) == sorted([_colour(shape)] * 3 + [_colour(t[0]) for t in alone])
    for _, x, y in _TOUCHING[shape]:  # each counted where a tile lies
        assert min(math.dist((x * s, y * s), f.centre) for f in again if f.value == _colour(shape)) < 2.5 * s


def test_without_single_tiles_to_show_the_spread_touching_tiles_stay_unknown() -> None:
    s = 3.0
    img = _spread_patch(_TOUCHING["square"], s, 1.12)
    labels, hsv = label_map(img, np.ones(3, np.float32), grow_pale=True)
    strength = tile_strength(hsv)
    faces = read_faces(colour_masks(labels, hsv, s), strength, s, np.zeros(2))
    assert [f.value for f in without_spread(faces, strength, s, np.zeros(2))] == [UNKNOWN]


@pytest.mark.parametrize("shape", ["square", "circle"])
def test_a_bowl_counts_its_touching_tiles_cut_back_by_the_spread(shape: str) -> None:
    # the same in a bowl of the tray, every tile's colour spread further: the bowl reads
    # them cut back, not as unknown tiles
    h = _tray_to_image()
    img = _draw_tray(h)
    bgr = {"square": (58, 52, 228), "circle": (204, 122, 38), "hexagon": (38, 196, 250)}
    alone = [("hexagon", 28.0, 30.0), ("circle" if shape == "square" else "square", -10.0, 40.0)]
    for tile, x, y in [*[(t, x - 40.0, y - 45.0) for t, x, y in _TOUCHING[shape]], *alone]:
        _fill(img, h, face_outline(tile) * 1.16 + np.array([x, y]), bgr[tile])
    (big,) = [b for b in read_bowls(img, Plane(h, (img.shape[1], img.shape[0]))) if b.number == BIG]
    expected = {_colour(shape): 3, "yellow": 1, _colour(alone[1][0]): 1}
    assert (big.tiles, big.unknown, big.occluded) == (expected, 0, False)
