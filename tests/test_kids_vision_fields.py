"""Kids recogniser, reading board fields in hard light: a white balance that holds under
incandescent light and in shadow, tiles whose shape glare or blur leaves unsure named
by their colour where they lie on a field (and nothing else so), and an empty field
seen to be empty though an arm hides its edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_kids_vision import BOARDS, SEA, _compare, _master_content

from vision.kids import UNKNOWN, analyse_kids, recognise_kids
from vision.kids.boards import CREAM_RGB, BoardFind, _partly_hidden, field_outline_mm, read_scale
from vision.kids.colors import COLORS, balance_gains, label_map
from vision.kids.packing import lay_hidden
from vision.kids.shapes import face_outline
from vision.kids.tiles import MIN_CONFIDENCE, TileBlob
from vision.synth import Conditions
from vision.synth.hand import SKIN_RGB, SLEEVE_RGB
from vision.synth.kids import mixed_kids_table, random_kids_content, render_kids_table

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


def test_a_bright_tile_keeps_its_hue_when_balancing_brightens_it_past_white() -> None:
    # a board in dim light: the balance doubles every channel, and a blue tile's blue
    # (221 in the photo) would clip at 255 while its green rises, turning it cyan
    tile = np.full((20, 20, 3), (221, 120, 45), np.uint8)
    gains = np.float32([1.86, 2.07, 2.18])
    clipped, _ = label_map(tile, gains)
    labels, hsv = label_map(tile, gains, unclipped_hue=True)
    assert not clipped.any()
    assert (labels == COLORS.index("blue") + 1).all() and (hsv[..., 2] == 255).all()


def test_a_shadow_or_a_grey_sleeve_is_not_taken_for_the_print() -> None:
    rng = np.random.default_rng(2)
    print_px = np.clip(CREAM_BGR * 0.85 + rng.normal(0, 3, (800, 3)), 0, 255)
    grey = np.clip(np.float32([92, 90, 88]) + rng.normal(0, 3, (1200, 3)), 0, 255)
    gains = balance_gains(np.concatenate([print_px, grey]).astype(np.uint8), CREAM_RGB)
    assert np.allclose(np.median(_balanced(print_px, gains), axis=0), CREAM_BGR, rtol=0.03)


def test_the_prints_dark_ink_is_no_tile_colour_where_no_tile_of_its_hue_lies() -> None:
    # a board with no red tile: its purplish-brown outlines (saturation about 85, as the
    # renderer's ink reads once balanced) are the only pixels of red's hue, and the
    # threshold that follows a colour's own pixels for washed-out tiles must not fall to them
    rng = np.random.default_rng(3)
    patch = np.clip(CREAM_BGR + rng.normal(0, 2, (120, 160, 3)), 0, 255).astype(np.uint8)
    for y in range(10, 120, 25):
        cv2.rectangle(patch, (10, y), (150, y + 2), (64, 52, 78), -1)  # BGR of RGB (78, 52, 64)
    cv2.circle(patch, (80, 60), 12, (200, 120, 40), -1)  # a blue tile's top
    labels, _ = label_map(patch, np.ones(3, np.float32))
    assert not np.any(labels == COLORS.index("red") + 1)
    assert np.count_nonzero(labels == COLORS.index("blue") + 1) > 0.9 * np.pi * 12**2


def test_an_empty_field_in_tinted_shade_is_read_empty() -> None:
    # light from the room (a warm wall, a wooden table) tints the shade over one field:
    # its print reads a little more saturated than the rest of the board's, yet less
    # than a sleeve or skin (70 and more)
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, _ = analyse_kids(frame, BOARDS).boards[0]
    # round the square field at x 120-160 mm; the print there reads saturation 66-69
    around = find.plane.to_image(np.array([[112.0, 6], [168, 6], [168, 54], [112, 54]]))
    shade = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(shade, [np.round(around).astype(np.int32)], 255)
    shade = cv2.GaussianBlur(shade, (0, 0), 3)[..., None] / 255.0
    tinted = frame * (1 - shade + shade * np.float32([0.85, 0.95, 0.98]))
    _, reading = analyse_kids(np.clip(tinted, 0, 255).astype(np.uint8), BOARDS).boards[0]
    assert reading.pictures[0][2].value is None


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


def test_tiles_blurred_and_in_glare_are_named_by_their_colour() -> None:
    # four players in a 1920x1080 photo (about 1.1 px/mm), glare, blur and JPEG: the
    # faces come out a fifth too big or with a bite taken out, and their shapes unsure
    cond = Conditions(
        width=1920,
        height=1080,
        tilt_deg=4,
        azimuth_deg=180,
        roll_deg=20,
        kelvin=3300,
        exposure=0.8,
        glare=0.94,
        motion_blur_px=1.1,
        motion_angle_deg=35,
        defocus_px=1.2,
        noise=6,
        jpeg_quality=70,
        table="white",
    )
    rng = np.random.default_rng(2)
    content = random_kids_content(rng, players=4, side="apprentice", fill=0.7)
    frame, truth = render_kids_table(content, cond, rng)
    obs = recognise_kids(frame, BOARDS)
    right, wrong, total = _compare(obs, truth)
    assert wrong == 0
    assert right >= total - 1
    named = [c for b in obs["boards"] for p in b["pictures"] for c in p["confidence"] if 0 < c < 0.7]
    assert named, "no tile here needed its colour to be named"


def test_tiles_whose_top_glare_washes_out_are_read_from_their_rim_and_side() -> None:
    # seen at 36 degrees in strong glare: a tile's top is pale, and only its rim and its
    # side face keep their colour; the hull of those, cut back by the sweep, is the tile
    cond = Conditions(
        width=4000,
        height=3000,
        tilt_deg=36,
        azimuth_deg=130,
        roll_deg=7,
        glare=0.92,
        noise=2,
        jpeg_quality=45,
        table="white",
    )
    right, wrong, total = _read_random_table(cond, seed=2, players=3, side="apprentice", fill=0.8)
    assert (right, wrong) == (total, 0)


def test_tiles_whose_lit_top_glare_pales_are_read_from_its_pale_hue() -> None:
    # bright light and strong glare at 22 degrees: a tile's lit top pales below its
    # colour's saturation, leaving a rim and a side face too thin to outline the tile;
    # the pale pixels of its hue round them are the rest of its top
    cond = Conditions(
        width=1920,
        height=1080,
        tilt_deg=22,
        azimuth_deg=190,
        roll_deg=5,
        kelvin=4300,
        exposure=1.15,
        glare=0.85,
        noise=4,
        jpeg_quality=70,
        table="white",
    )
    right, wrong, total = _read_random_table(cond, seed=5, players=3, side="apprentice", fill=0.9)
    assert (right, wrong) == (total, 0)


def test_a_tile_whose_glare_bites_through_its_side_is_still_the_face_on_its_field() -> None:
    # a lamp's full glare at 29 degrees: a tile's washed-out top opens its saturated rim
    # into a crescent, which covers little of the field; its hull covers the field as
    # the tile does (a tile is convex)
    cond = Conditions(
        width=1920,
        height=1080,
        tilt_deg=29,
        azimuth_deg=300,
        roll_deg=2,
        kelvin=4000,
        exposure=0.8,
        light_azimuth_deg=313,
        light_elevation_deg=42,
        glare=1.0,
        noise=2,
        jpeg_quality=88,
        table="wood",
    )
    right, wrong, total = _read_random_table(cond, seed=7, players=3, side="master", fill=0.9)
    assert (right, wrong) == (total, 0)


# BGR: dark, a paler yellow, a darker yellow
@pytest.mark.parametrize("sleeve", [(40, 40, 46), (150, 215, 240), (30, 110, 160)])
def test_a_fingertip_of_a_tiles_colour_on_a_field_stays_unknown(sleeve: tuple[int, int, int]) -> None:
    # a yellow-gloved fingertip, tile-sized and centred on an empty field, at the end of a
    # sleeve: its colour alone must not name a tile, nor its being lighter than the sleeve
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, reading = analyse_kids(frame, BOARDS).boards[0]
    assert (
        find.board.name == SEA.name and reading.pictures[0][2].value is None
    )  # the square field at (140, 30) mm
    centre = np.array([140.0, 30.0])
    arm = find.plane.to_image(np.array([[-7, 0], [7, 0], [9, -90], [-9, -90]], np.float64) + centre)
    cv2.fillPoly(frame, [np.round(arm).astype(np.int32)], sleeve, cv2.LINE_AA)
    a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    tip = find.plane.to_image(np.column_stack([9 * np.cos(a), 2 + 11 * np.sin(a)]) + centre)
    cv2.fillPoly(frame, [np.round(tip).astype(np.int32)], (60, 190, 245), cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8)
    _, reading = analyse_kids(frame, BOARDS).boards[0]
    assert reading.pictures[0][2].value == UNKNOWN


def test_an_empty_field_the_photos_edge_cuts_is_read_from_what_shows() -> None:
    # the photo's edge runs 4 mm above the middle of an empty square field: more than
    # half of its middle, which a tile lying on it would cover, shows only print
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find = analyse_kids(frame, BOARDS).boards[0][0]
    assert find.board.name == SEA.name and find.rotation == 0
    edge = find.plane.to_image(np.array([[140.0, 26.0]]))[0]  # the field's middle is at (140, 30) mm
    cut = frame[round(edge[1]) :]
    sea = next(r for f, r in analyse_kids(cut, BOARDS).boards if f.board.name == SEA.name)
    assert sea.pictures[0][2].value is None


def _with_arm(
    frame: np.ndarray, find: BoardFind, band_mm: np.ndarray, sleeve_rgb: tuple[int, int, int] = SLEEVE_RGB[0]
) -> np.ndarray:
    """The frame with an arm in a sleeve (a polygon in board mm, dark unless told) over the board."""
    out = frame.copy()
    arm = find.plane.to_image(np.asarray(band_mm, np.float64))
    cv2.fillPoly(out, [np.round(arm).astype(np.int32)], sleeve_rgb[::-1], cv2.LINE_AA)
    return cv2.GaussianBlur(out, (0, 0), 0.8)


@pytest.mark.parametrize("sleeve_rgb", [SLEEVE_RGB[0], SLEEVE_RGB[4]])  # dark; yellow, read as a tile colour
def test_an_empty_field_partly_under_an_arm_is_still_empty(sleeve_rgb: tuple[int, int, int]) -> None:
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, reading = analyse_kids(frame, BOARDS).boards[0]
    assert find.board.name == SEA.name and reading.pictures[0][2].value is None  # x 120-160 mm
    # the arm hides the field's right fifth, well away from its middle
    covered = _with_arm(frame, find, np.array([[151, -60], [230, -60], [230, 60], [151, 60]]), sleeve_rgb)
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    field = reading.pictures[0][2]
    assert field.value is None and MIN_CONFIDENCE <= field.confidence < 0.8


@pytest.mark.parametrize("sleeve_rgb", [SLEEVE_RGB[0], SLEEVE_RGB[3]])  # dark; green, read as a tile colour
def test_an_empty_field_whose_middle_a_sleeve_reaches_into_is_still_empty(sleeve_rgb) -> None:
    # the arm hides the square field's right 17 mm (x 143-160), a fifth of its middle
    # (x 133-147 mm): a tile on the field would cover all of the middle, and most shows print
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, _ = analyse_kids(frame, BOARDS).boards[0]
    covered = _with_arm(frame, find, np.array([[143, -60], [230, -60], [230, 60], [143, 60]]), sleeve_rgb)
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    field = reading.pictures[0][2]
    assert field.value is None and MIN_CONFIDENCE <= field.confidence < 0.8


@pytest.mark.parametrize("skin_rgb", [SKIN_RGB[1], SKIN_RGB[3]])
def test_an_empty_field_a_fingertip_reaches_into_is_still_empty(skin_rgb: tuple[int, int, int]) -> None:
    # a hand hides the square field's right 4 mm (x 156-160); a fingertip reaches in to
    # x 149, short of the middle (x 133-147 mm), lit so that its skin reads as yellow:
    # that yellow is part of the hand, which runs on out of the field's surroundings
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, _ = analyse_kids(frame, BOARDS).boards[0]
    hand = frame.copy()
    a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    for rgb, band in (
        (skin_rgb, [[156, -60], [230, -60], [230, 60], [156, 60]]),
        ((245, 190, 60), np.column_stack([154 + 5 * np.cos(a), 30 + 7 * np.sin(a)])),
    ):
        outline = find.plane.to_image(np.asarray(band, np.float64))
        cv2.fillPoly(hand, [np.round(outline).astype(np.int32)], rgb[::-1], cv2.LINE_AA)
    _, reading = analyse_kids(cv2.GaussianBlur(hand, (0, 0), 0.8), BOARDS).boards[0]
    field = reading.pictures[0][2]
    assert field.value is None and MIN_CONFIDENCE <= field.confidence < 0.8


@pytest.mark.parametrize("ink_rgb", [(190, 130, 40), (200, 60, 50)])  # yellow, red
def test_a_fields_outline_whose_ink_takes_a_tiles_colour_is_no_tile(ink_rgb: tuple[int, int, int]) -> None:
    # under tinted light the dark ink round an empty field may pass for a tile's colour:
    # closed round the field, it would be filled in as a tile bigger than any
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, reading = analyse_kids(frame, BOARDS).boards[0]
    assert find.board.name == SEA.name and reading.pictures[0][2].value is None
    outline = find.plane.to_image(field_outline_mm(SEA.pictures[0].fields[2]))
    width = max(1, round(1.2 * read_scale(find)))
    cv2.polylines(frame, [np.round(outline).astype(np.int32)], True, ink_rgb[::-1], width, cv2.LINE_AA)
    _, reading = analyse_kids(cv2.GaussianBlur(frame, (0, 0), 0.8), BOARDS).boards[0]
    field = reading.pictures[0][2]
    assert field.value is None and field.confidence >= MIN_CONFIDENCE


@pytest.mark.parametrize("scene", [(1, 306), (1, 362), (4, 150), (4, 168), (4, 498)])
def test_tiles_whose_top_glare_washes_out_whole_are_read_from_their_rims(scene: tuple[int, int]) -> None:
    # tables from the benchmark in a lamp's glare (0.8-0.99), some with motion blur: a
    # green diamond's top pales to light green or white but for its rim and side face, too
    # thin to leave a face once cut back to the top, and glare may cut that rim in pieces
    # (4, 150 and 168); in 4, 498 the photo's edge cuts off the diamond's tip
    content, cond, rng = mixed_kids_table(*scene)
    frame, truth = render_kids_table(content, cond, rng)
    right, wrong, total = _compare(recognise_kids(frame, BOARDS), truth)
    assert (right, wrong) == (total, 0)


def test_a_tile_whose_side_an_arm_hides_is_named_by_its_colour() -> None:
    # the red square on the circle field (x 20-60 mm) lies about x 27-53 mm: the arm
    # hides its right third, and all of the square that does not show lies under it
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, _ = analyse_kids(frame, BOARDS).boards[0]
    covered = _with_arm(frame, find, np.array([[45, -60], [120, -60], [120, 60], [45, 60]]))
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    field = reading.pictures[0][0]
    assert field.value == "red" and MIN_CONFIDENCE <= field.confidence < 0.6


def test_a_tile_whose_side_a_sleeve_of_its_colour_hides_is_named_by_its_colour() -> None:
    # as above, in a red sleeve: it joins the red square into one blob bigger than a
    # tile, but cloth in the arm's shade is darker than a tile's top in the light
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, _ = analyse_kids(frame, BOARDS).boards[0]
    covered = _with_arm(frame, find, np.array([[45, -60], [120, -60], [120, 60], [45, 60]]), SLEEVE_RGB[1])
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    field = reading.pictures[0][0]
    assert field.value == "red" and MIN_CONFIDENCE <= field.confidence < 0.6


def test_a_tile_whose_side_face_touches_the_printed_lines_is_named_by_its_colour() -> None:
    # a table from the benchmark seen 45 degrees from above, in a hand's shadow: two green
    # diamonds' tall side faces reach their fields' printed outlines, whose ink runs on
    # into the picture's lines and out of the fields' windows; thin lines are no hand
    content, cond, rng = mixed_kids_table(3, 168)
    frame, truth = render_kids_table(content, cond, rng)
    right, wrong, total = _compare(recognise_kids(frame, BOARDS), truth)
    assert (right, wrong) == (total, 0)


@pytest.mark.parametrize("side_face", [False, True])
def test_a_tile_the_photos_edge_cuts_is_named_by_its_colour(side_face: bool) -> None:
    # a yellow hexagon on its field (centred at 20, 20 mm), the photo ending at y 26 mm:
    # seen steeply, its side face may lie between its top and the photo's edge
    s = 2.5
    hexagon = face_outline("hexagon") + 20
    seen = np.zeros((100, 100), np.uint8)
    cv2.fillPoly(seen, [np.round(hexagon * s).astype(np.int32)], 1)
    seen[60:] = 0
    tiles = seen.copy()
    if side_face:
        tiles[60:68] = cv2.dilate(seen, np.ones((1, 9), np.uint8))[59]
    hsv = np.full((100, 100, 3), (30, 20, 230), np.uint8)
    hsv[68 if side_face else 60 :] = 0  # beyond the photo
    contours, _ = cv2.findContours(seen, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    face = TileBlob(UNKNOWN, 1, 0.0, "yellow", contours[0])
    field = hexagon + 1.5 * (hexagon - 20) / np.hypot(*(hexagon - 20).T)[:, None]  # a field a little bigger
    assert _partly_hidden(face, field, hsv, tiles, np.zeros_like(tiles), s=s, window=(0, 0, 100, 100))


@pytest.mark.parametrize("rest_hidden", [True, False])
def test_a_face_is_laid_whole_only_where_what_does_not_show_is_hidden(rest_hidden: bool) -> None:
    s = 2.5
    square = np.zeros((100, 100), np.uint8)
    cv2.fillPoly(square, [np.round(face_outline("square") * s + 50).astype(np.int32)], 1)  # 62 px across
    seen = square.copy()
    seen[:, 58:] = 0  # the square's right part does not show
    hidden = np.zeros_like(seen)
    if rest_hidden:
        hidden[:, 58:] = 1  # a sleeve over it; otherwise print lies round what shows
    laid = lay_hidden(seen, hidden, "square", s, about=(50.0, 50.0), reach_mm=5.0)
    if rest_hidden:
        assert laid is not None and np.allclose(laid.centres[0], (50, 50), atol=2)
    else:
        assert laid is None


def test_a_field_whose_middle_an_arm_hides_is_not_read_empty() -> None:
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, reading = analyse_kids(frame, BOARDS).boards[0]
    assert reading.pictures[0][0].value == "red"  # a square on the circle field at x 20-60 mm
    covered = _with_arm(frame, find, np.array([[-40, -60], [46, -60], [46, 60], [-40, 60]]))
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    assert reading.pictures[0][0].value in ("red", UNKNOWN)


def test_a_tile_on_its_field_is_read_though_a_sleeve_of_a_tile_colour_bends_round_it() -> None:
    # a yellow sleeve above the red square's field and down past its right edge: the
    # sleeve's hull covers the field, the sleeve itself only the field's rim
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, reading = analyse_kids(frame, BOARDS).boards[0]
    assert reading.pictures[0][0].value == "red"  # a square on the circle field at x 20-60, y 14-46 mm
    bent = np.array([[0, -60], [75, -60], [75, 60], [57, 60], [57, 11], [0, 11]])
    covered = _with_arm(frame, find, bent, SLEEVE_RGB[4])
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    assert reading.pictures[0][0].value == "red"


def test_a_tile_whose_top_glare_washes_out_is_not_read_empty_beside_an_arm() -> None:
    # a green diamond on the empty square field (x 120-160 mm): glare leaves its top as
    # light as the print and only the rim round its top corner green, while an arm
    # hides the field's right fifth
    frame, _ = render_kids_table(_master_content(), Conditions(tilt_deg=10, noise=1.5), 3)
    find, _ = analyse_kids(frame, BOARDS).boards[0]
    rim = find.plane.to_image(np.array([[135.5, 23], [140, 16], [144.5, 23]], np.float64))
    px_per_mm = float(np.linalg.norm(rim[2] - rim[0])) / 9
    green, width = (84, 168, 62), round(1.5 * px_per_mm)
    cv2.polylines(frame, [np.round(rim).astype(np.int32)], False, green, width, cv2.LINE_AA)
    covered = _with_arm(frame, find, np.array([[151, -60], [230, -60], [230, 60], [151, 60]]))
    _, reading = analyse_kids(covered, BOARDS).boards[0]
    assert reading.pictures[0][2].value in ("green", UNKNOWN)


def _read_random_table(
    cond: Conditions, *, seed: int, players: int, side: str, fill: float
) -> tuple[int, int, int]:
    """(fields read right, read wrong, visible) on a table of random tiles drawn under `cond`."""
    rng = np.random.default_rng(seed)
    content = random_kids_content(rng, players=players, side=side, fill=fill)
    frame, truth = render_kids_table(content, cond, rng)
    return _compare(recognise_kids(frame, BOARDS), truth)
