"""Kids player boards: found by their violet frame (frames.py), named and turned upright by matching
every board definition's printed field outlines, then read field by field.

A board definition places its fields in board-relative coordinates; once the frame's
four corners are known, the homography of each of the four ways round maps the
definition onto the photo, and the printed outlines (dark ink round a light field)
must lie where the definition says. The best (definition, way round) wins; its lead over
the runner-up is the board's confidence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import TypeVar

import cv2
import numpy as np

from companion.rules.kids_board import KidsBoard
from vision.geometry import apply_h

from .colors import COLORS, balance_gains, hue_classes, label_map
from .geometry import BOARD_H_MM, BOARD_W_MM, Plane, board_point_mm, ellipse_through
from .packing import lay_hidden
from .shapes import SHAPES, classify, face_reach_mm, features, unsweep
from .tiles import (
    MIN_CONFIDENCE,
    SHAPE_OF,
    UNKNOWN,
    TileBlob,
    colour_masks,
    expected_area,
    read_faces_each,
    tile_strength,
)

T = TypeVar("T")
_MATCH_PX_PER_MM = 2.0
_MATCH_STEP = 3  # every third pixel of a template is plenty for its contrast, and 3x cheaper
# Boards are read at 2.5 px/mm, or 2 px/mm when the photo shows them coarser than 1.6 px/mm:
# rectifying finer than that adds pixels (and time), not detail.
_READ_PX_PER_MM, _READ_COARSE_PX_PER_MM, _COARSE_BELOW = 2.5, 2.0, 1.6
_CLEARLY_LONGER = 1.25  # sides this much longer than the others in the photo are the board's long ones
_MIN_MATCH = 0.45  # contrast of the outlines (in near-band spreads) below which it is no board
# below this contrast not even part of the outlines shows: no board, however hidden
_SECOND_LOOK = 0.05
_MIN_SHOWN = 0.2  # the least share of a template that must show its print for a match to count
_TILE_SAT = 100  # saturation above the print's pastels: a tile, skin, a coloured sleeve
_FLAT_WINDOW = 17  # px at _MATCH_PX_PER_MM: about 8 mm, wider than an outline's light bands
# print's spread below this share of the board's 90th percentile (or an absolute floor) is flat
_FLAT_SHARE, _FLAT_MIN = 0.25, 3.0
CREAM_RGB = (244, 236, 220)  # a field's print, the reference for white balance
# A face whose shape was unsure (glare washing out part of its top, blur or coarse JPEG
# colour smearing it a millimetre outwards) still names its tile by its colour when it
# lies where a tile on the field lies: about a tile's size, centred on the field, not far
# from its colour's shape, and with nothing unexplained (a finger) round it.
_BY_COLOUR_SIZE = (0.55, 1.5)  # its area over its colour's tile face
_BY_COLOUR_OFF_MM = 5.0  # its footprint's centre from the field's
_BY_COLOUR_SHAPE = 0.25  # distance to its colour's shape prototypes (a tile's own: < 0.09)
_BY_COLOUR_SOLID = 0.75  # area over its hull's: a bite out of it is a glare spot, no more
_RING_MM = 1.5  # what lies this close round a face touches it
# An empty field partly under an arm: a tile lying on the field, even 4 mm off its centre,
# covers the middle of the field's outline (this share of it each way: about 5 mm round
# the centre of a field half again a tile's size)
_MIDDLE = 0.35
_PARTLY_SEEN_EMPTY = 0.6
_SPECKS = 0.02  # the share of the middle that may show specks (noise, a crumb)
# the least share of a field's inside, and of its middle (which a tile on it covers), that
# the photo must show for the field to be read from it
_IN_PHOTO = 0.5
_EDGE_MM = 1.0  # how far an arm's or a sleeve's edge blends into the print in a photo
_PARTLY_HIDDEN = 0.55  # a tile named by its colour, the rest of its face hidden
_RIM_SHARE = 0.05  # of a field's middle, what a tile's rim left by glare shows of its colour
_RIM_MM2 = 25.0  # a tile's rim or side face left by glare shows at least this much colour
_DARK = 100  # value (of a balanced print at about 240) below which it is no print in light
_PRINT_SAT = 70  # saturation below which a light pixel is print; above, a tile, a sleeve or skin
_LIGHTER = 1.2  # a tile in light over a sleeve of its colour: this much lighter, at least
_INK_MM = 1.5  # how far from a field's printed outline its ink shows (its width, blur, fit)
_ON_INK = 0.6  # the share of a part of tile colour on the outlines that makes it their ink


@dataclass
class BoardFind:
    quad: np.ndarray  # image corners of the board: its top-left, top-right, bottom-right, bottom-left
    board: KidsBoard
    plane: Plane
    rotation: int
    confidence: float
    center: np.ndarray = field(default_factory=lambda: np.zeros(2))
    score: float = 0.0  # how well the printed outlines matched (contrast in spreads)


@dataclass
class FieldReading:
    value: str | None
    confidence: float
    outline_mm: np.ndarray


@dataclass
class BoardReading:
    pictures: list[list[FieldReading]]
    occluded: bool
    gains: np.ndarray  # the white balance the board's print gave (B, G, R)


def field_outline_mm(f) -> np.ndarray:
    """A field's printed outline in board mm (a circle's outline as a smooth ellipse)."""
    if f.outline is not None:
        pts = np.array([board_point_mm(p) for p in f.outline])
        return ellipse_through(pts) if f.shape == "circle" else pts
    at = np.array(board_point_mm(f.at if f.at is not None else (0.5, 0.5)))
    return at + np.array([[-16, -16], [16, -16], [16, 16], [-16, 16]], np.float64)


def per_board(make: Callable[[KidsBoard], T]) -> Callable[[KidsBoard], T]:
    """`make`, kept per board definition by identity: hashing a whole definition costs
    more than the look-up saves. The definition is kept too, so its id is not reused."""
    kept: dict[int, tuple[KidsBoard, T]] = {}

    def get(board: KidsBoard) -> T:
        hit = kept.get(id(board))
        if hit is None or hit[0] is not board:
            if len(kept) > 64:
                kept.clear()
            hit = kept[id(board)] = (board, make(board))
        return hit[1]

    return get


@per_board
def _template(board: KidsBoard) -> tuple[np.ndarray, np.ndarray]:
    """Masks at _MATCH_PX_PER_MM: where the board's outlines are printed, and the light
    bands either side of them."""
    s = _MATCH_PX_PER_MM
    size = (round(BOARD_H_MM * s), round(BOARD_W_MM * s))
    ink = np.zeros(size, np.uint8)
    for picture in board.pictures:
        for f in picture.fields:
            pts = np.round(field_outline_mm(f) * s * 16).astype(np.int32)
            cv2.polylines(ink, [pts], True, 255, 3, cv2.LINE_8, shift=4)
    wide = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)))
    mid = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    return np.flatnonzero(ink)[::_MATCH_STEP], np.flatnonzero((wide > 0) & (mid == 0))[::_MATCH_STEP]


def _corner_homography(quad: np.ndarray, turn: int) -> np.ndarray:
    """Board mm -> image, with the board's top-left corner at quad[turn]."""
    src = np.float32([[0, 0], [BOARD_W_MM, 0], [BOARD_W_MM, BOARD_H_MM], [0, BOARD_H_MM]])
    return cv2.getPerspectiveTransform(src, np.float32(np.roll(quad, -turn, axis=0)))


def identify(
    frame: np.ndarray, gray: np.ndarray, quad: np.ndarray, boards: tuple[KidsBoard, ...]
) -> BoardFind | None:
    """Which definition, which way round, a board frame at image `quad` shows. Only the
    part of the board inside the photo is compared."""
    s = _MATCH_PX_PER_MM
    size = (round(BOARD_W_MM * s), round(BOARD_H_MM * s))
    to_mm = np.diag([1 / s, 1 / s, 1.0])
    scores = []
    flats, valids = {}, {}
    image_h, image_w = gray.shape[:2]
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    across = (sides[0] + sides[2]) / max(1e-6, sides[1] + sides[3])
    # a board is 3:2: with one pair of sides clearly the longer in the photo, the ways
    # round that would lay the board's short sides along them are not tried
    turns = (0, 2) if across > _CLEARLY_LONGER else (1, 3) if across < 1 / _CLEARLY_LONGER else (0, 1, 2, 3)
    for turn in turns:
        h = _corner_homography(quad, turn)
        if turn not in flats:  # one pixel more each way, so that the half turn below lines up exactly
            big = cv2.warpPerspective(
                gray, h @ to_mm, (size[0] + 1, size[1] + 1), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
            )
            # blurred: a frame found a millimetre or two off still matches its outlines
            big = cv2.GaussianBlur(big, (0, 0), 1.5)
            flats[turn] = big[:-1, :-1].ravel()
            flats[(turn + 2) % 4] = big[::-1, ::-1][:-1, :-1].ravel()
            # where the photo is: its corners mapped back onto the board
            corners = np.float64([[0, 0], [image_w - 1, 0], [image_w - 1, image_h - 1], [0, image_h - 1]])
            inside = np.zeros((size[1] + 1, size[0] + 1), np.uint8)
            back = apply_h(np.linalg.inv(h @ to_mm), corners)
            if np.all(np.isfinite(back)) and _in_front(h @ to_mm, corners):
                cv2.fillPoly(inside, [np.round(back * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
            else:
                inside[:] = 1
            whole = bool(inside[:-1, :-1].all())  # the board lies wholly inside the photo
            valids[turn] = None if whole else inside[:-1, :-1].ravel().astype(bool)
            valids[(turn + 2) % 4] = None if whole else inside[::-1, ::-1][:-1, :-1].ravel().astype(bool)
        flat, valid = flats[turn], valids[turn]
        for board in boards:
            ink, near = _template(board)
            if valid is not None:
                ink, near = ink[valid[ink]], near[valid[near]]
                if len(ink) < 0.35 * len(_template(board)[0]):
                    scores.append((0.0, turn, board, h))
                    continue
            light = flat[near]
            contrast = (float(light.mean()) - float(flat[ink].mean())) / (float(light.std()) + 8.0)
            scores.append((contrast, turn, board, h))
    scores.sort(key=lambda t: -t[0])
    if _SECOND_LOOK <= scores[0][0] < _MIN_MATCH:
        # an arm over the board, or thick tiles hiding the outlines: compare only where
        # the photo shows print
        scores = _scores_where_printed(frame, quad, turns, boards)
    best, turn, board, h = scores[0]
    if best < _MIN_MATCH:
        return None
    runner_up = scores[1][0] if len(scores) > 1 else 0.0
    confidence = float(np.clip((best - runner_up) / 0.6, 0, 1)) * float(np.clip(best / 2.5, 0, 1))
    plane = Plane(h, (frame.shape[1], frame.shape[0]))
    centre = _centre(plane)
    top = plane.to_image(np.array([[BOARD_W_MM / 2, 0.0]]))[0]
    up = top - centre
    rotation = round(np.degrees(np.arctan2(up[0], -up[1])) / 90.0) % 4 * 90
    return BoardFind(np.roll(quad, -turn, axis=0), board, plane, int(rotation), confidence, centre, best)


def moved(find: BoardFind, h: np.ndarray, image_size: tuple[int, int]) -> BoardFind:
    """The find with the board lying where homography `h` (board mm -> image) puts it."""
    plane = Plane(h, image_size)
    corners = plane.to_image(np.array([[0, 0], [BOARD_W_MM, 0], [BOARD_W_MM, BOARD_H_MM], [0, BOARD_H_MM]]))
    return replace(find, quad=corners, plane=plane, center=_centre(plane))


def _centre(plane: Plane) -> np.ndarray:
    return plane.to_image(np.array([[BOARD_W_MM / 2, BOARD_H_MM / 2]]))[0]


def _scores_where_printed(
    frame: np.ndarray, quad: np.ndarray, turns: tuple[int, ...], boards: tuple[KidsBoard, ...]
) -> list[tuple[float, int, KidsBoard, np.ndarray]]:
    """(contrast, turn, board, homography) best first, each over the template pixels
    where the photo shows the board's print: not off the photo, not tile-coloured (a
    tile, a hand) and not flat (an arm or sleeve hides the print's light and dark)."""
    views: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    scores = []
    for turn in turns:
        h = _corner_homography(quad, turn)
        if turn not in views:
            views.update(_print_views(frame, h, turn))
        flat, shown = views[turn]
        for board in boards:
            ink, near = _template(board)
            ink_shown, near_shown = ink[shown[ink]], near[shown[near]]
            if len(ink_shown) < _MIN_SHOWN * len(ink) or len(near_shown) < _MIN_SHOWN * len(near):
                scores.append((0.0, turn, board, h))
                continue
            light = flat[near_shown].astype(np.float64)
            contrast = (float(light.mean()) - float(flat[ink_shown].mean())) / (float(light.std()) + 8.0)
            scores.append((contrast, turn, board, h))
    scores.sort(key=lambda t: -t[0])
    return scores


def _print_views(frame: np.ndarray, h: np.ndarray, turn: int) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The board rectified (blurred grey, flattened) and where it shows its print, for
    this way round and the half turn from it (one warp, a pixel more each way so that
    the half turn lines up exactly)."""
    s = _MATCH_PX_PER_MM
    size = (round(BOARD_W_MM * s) + 1, round(BOARD_H_MM * s) + 1)
    to_mm = np.diag([1 / s, 1 / s, 1.0])
    patch = cv2.warpPerspective(frame, h @ to_mm, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    gray = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (0, 0), 1.5)
    shown = _shows_print(patch, gray)
    image_h, image_w = frame.shape[:2]
    corners = np.float64([[0, 0], [image_w - 1, 0], [image_w - 1, image_h - 1], [0, image_h - 1]])
    back = apply_h(np.linalg.inv(h @ to_mm), corners)
    if np.all(np.isfinite(back)) and _in_front(h @ to_mm, corners):
        inside = np.zeros(shown.shape, np.uint8)
        cv2.fillPoly(inside, [np.round(back * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
        shown &= inside > 0
    return {
        turn: (gray[:-1, :-1].ravel(), shown[:-1, :-1].ravel()),
        (turn + 2) % 4: (gray[::-1, ::-1][:-1, :-1].ravel(), shown[::-1, ::-1][:-1, :-1].ravel()),
    }


def _shows_print(patch: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """Where a rectified board patch may show its print: not a saturated colour (tiles
    and their side faces, skin, most sleeves; the dark ink's hue is noise, so only
    colours at least half as bright as the board are counted) and not flat over a few
    mm (the print has dark outlines every few cm; an arm is one smooth shape)."""
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1], hsv[..., 2]
    bright = val > 0.5 * float(np.median(val[::4, ::4]))
    coloured = cv2.dilate(((sat > _TILE_SAT) & bright).astype(np.uint8), _disc(2 * _MATCH_PX_PER_MM))
    g = gray.astype(np.float32)
    k = (_FLAT_WINDOW, _FLAT_WINDOW)
    mean = cv2.blur(g, k)
    spread = np.sqrt(np.maximum(cv2.blur(g * g, k) - mean * mean, 0))
    textured = spread > max(_FLAT_MIN, _FLAT_SHARE * float(np.percentile(spread[::4, ::4], 90)))
    return textured & (coloured == 0)


def _in_front(h: np.ndarray, points: np.ndarray) -> bool:
    """Whether every image point maps back onto the plane in front of the camera (the
    homography's denominator keeps its sign)."""
    inv = np.linalg.inv(h)
    w = inv[2, 0] * points[:, 0] + inv[2, 1] * points[:, 1] + inv[2, 2]
    return bool(np.all(w > 0) or np.all(w < 0))


def read_board(frame: np.ndarray, find: BoardFind) -> BoardReading:
    """Every field of the found board: a colour, None (empty) or "unknown"."""
    s = read_scale(find)
    patch = find.plane.warp(frame, (0.0, 0.0), (BOARD_W_MM, BOARD_H_MM), s)
    outlines = [field_outline_mm(f) for p in find.board.pictures for f in p.fields]
    interior = np.zeros(patch.shape[:2], np.uint8)
    for o in outlines:
        cv2.fillPoly(interior, [np.round(o * s).astype(np.int32)], 255)
    interior = cv2.erode(interior, _disc(1.2 * s))
    gains = balance_gains(patch[::3, ::3][interior[::3, ::3] > 0], CREAM_RGB)
    labels, hsv = label_map(patch, gains, unclipped_hue=True)
    labels = _without_ink(labels, outlines, s)
    masks = colour_masks(labels, hsv, s)
    sweep_at = partial(_sweep_px, find.plane, s)
    # tiles read whole first: one on a field is what lies there, whatever else reaches in
    faces = sorted(read_faces_each(masks, tile_strength(hsv), s, sweep_at), key=lambda f: f.value == UNKNOWN)
    boxes = [cv2.boundingRect(face.contour) for face in faces]
    tiles = (labels > 0).astype(np.uint8)
    covered = _unexplained(hsv, labels)
    hull_face = partial(_hull_face, masks=masks, hsv=hsv, s=s, sweep_at=sweep_at)
    h, w = labels.shape
    readings = [
        _read_field(
            o,
            faces,
            boxes,
            tiles,
            masks=masks,
            hsv=hsv,
            covered=covered,
            s=s,
            size=(w, h),
            hull_face=hull_face,
        )
        for o in outlines
    ]
    occluded = any(r.value == UNKNOWN and r.confidence == 0.0 for r in readings)
    pictures: list[list[FieldReading]] = []
    for picture in find.board.pictures:
        pictures.append(readings[: len(picture.fields)])
        readings = readings[len(picture.fields) :]
    return BoardReading(pictures, occluded, gains)


def read_scale(find: BoardFind) -> float:
    """px/mm at which a found board is rectified for reading."""
    seen = np.sqrt(cv2.contourArea(find.quad.astype(np.float32)) / (BOARD_W_MM * BOARD_H_MM))
    return _READ_PX_PER_MM if seen >= _COARSE_BELOW else _READ_COARSE_PX_PER_MM


@cache
def _disc(radius_px: float) -> np.ndarray:
    """A round kernel of about this radius (px)."""
    d = 2 * max(1, round(radius_px)) + 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def _without_ink(labels: np.ndarray, outlines: list[np.ndarray], s: float) -> np.ndarray:
    """The label map without the parts that lie mostly on the fields' printed outlines:
    under tinted light the dark ink can take on a tile's colour, and, closed round a
    field, would be filled in as a tile bigger than any; a tile lies inside its field,
    its rim clear of the outline."""
    ink = np.zeros(labels.shape, np.uint8)
    band = max(1, round(2 * _INK_MM * s))
    cv2.polylines(ink, [np.round(o * s).astype(np.int32) for o in outlines], True, 1, band)
    coloured = (labels > 0).view(np.uint8)
    on_ink = cv2.bitwise_and(coloured, ink)
    if not on_ink.any():
        return labels
    count, parts = cv2.connectedComponents(coloured)  # with stats, 6x slower
    shares = np.bincount(parts[on_ink > 0], minlength=count)
    areas = np.bincount(parts[coloured > 0], minlength=count)
    printed = np.flatnonzero((shares >= _ON_INK * areas) & (areas > 0))
    if not printed.size:
        return labels
    return np.where(np.isin(parts, printed), 0, labels).astype(np.uint8)


def _unexplained(hsv: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Pixels that are neither a tile colour nor a light print: a hand, a sleeve, a cup
    (black: outside the image)."""
    sat, val = hsv[..., 1], hsv[..., 2]
    return ((labels == 0) & ((sat >= _PRINT_SAT) | (val < 45)) & (val > 0)).astype(np.uint8)


def _read_field(
    outline: np.ndarray,
    faces: list[TileBlob],
    boxes: list[tuple[int, int, int, int]],
    tiles: np.ndarray,
    *,
    masks: list[np.ndarray],
    hsv: np.ndarray,
    covered: np.ndarray,
    s: float,
    size: tuple[int, int],
    hull_face: Callable[[TileBlob], TileBlob | None],
) -> FieldReading:
    w, h = size
    lo = np.floor(outline.min(axis=0) * s - 8 * s).astype(int)
    hi = np.ceil(outline.max(axis=0) * s + 8 * s).astype(int)
    x0, y0 = max(0, lo[0]), max(0, lo[1])
    x1, y1 = min(w, hi[0]), min(h, hi[1])
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(outline * s - (x0, y0)).astype(np.int32)], 255)
    core = cv2.erode(inside, _disc(1.6 * s))  # about 1.6 mm in from the printed outline
    core_px = core > 0
    core_area = int(core_px.sum())
    if core_area < 20:
        return FieldReading(UNKNOWN, 0.0, outline)
    if np.mean(hsv[y0:y1, x0:x1, 2][core_px] > 0) < _IN_PHOTO:
        return FieldReading(UNKNOWN, 0.0, outline)  # off the image
    win_tiles = tiles[y0:y1, x0:x1]
    best, best_box, best_overlap = None, None, 0
    for face, box in zip(faces, boxes, strict=True):  # tiles read whole first
        bx, by, bw, bh = box
        if bx >= x1 or by >= y1 or bx + bw <= x0 or by + bh <= y0:
            continue
        drawn = np.zeros_like(core)
        # a tile covers the field by its hull: every tile is convex, and glare that bites
        # through a tile's side leaves a crescent covering little of what the tile covers;
        # a blob bigger than tiles (a sleeve of a tile's colour) covers only itself
        covers = face.contour if face.count > 1 else cv2.convexHull(face.contour)
        cv2.drawContours(drawn, [covers], -1, 255, -1, offset=(-int(x0), -int(y0)))
        overlap = int(np.count_nonzero(drawn & core))
        # a tile read whole on the field is what lies on it, whatever else reaches in
        # (a field holds one tile): it is weighed before the faces of unsure shape
        if best is not None and best.value != UNKNOWN and best_overlap > 0.15 * core_area:
            break
        if overlap > best_overlap:
            best, best_box, best_overlap = face, box, overlap
    if best is not None and best_overlap > 0.15 * core_area:
        bx, by, bw, bh = best_box
        if bx <= x0 or by <= y0 or bx + bw >= x1 or by + bh >= y1:  # bigger than a tile
            window = (x0, y0, x1, y1)
            if _clear_middle(outline, hsv, tiles, covered, s=s, window=window):
                return FieldReading(None, _PARTLY_SEEN_EMPTY, outline)
            lit = _lit_part(best, outline, hsv, s=s, window=window)
            if lit is not None and _partly_hidden(lit, outline, hsv, tiles, covered, s=s, window=window):
                return FieldReading(best.color, _PARTLY_HIDDEN, outline)
            return FieldReading(UNKNOWN, 0.0, outline)
        if best.value == UNKNOWN:
            window = hsv[y0:y1, x0:x1]
            by_colour = _by_colour(best, outline, window, s=s, corner=(x0, y0))
            if by_colour is None and (whole := hull_face(best)) is not None:
                by_colour = _by_colour(whole, outline, window, s=s, corner=(x0, y0))
            if by_colour is not None:
                return FieldReading(best.color, by_colour, outline)
            if _partly_hidden(best, outline, hsv, tiles, covered, s=s, window=(x0, y0, x1, y1)):
                return FieldReading(best.color, _PARTLY_HIDDEN, outline)
        return FieldReading(best.value, round(best.confidence, 3), outline)
    # no face: glare may have washed out all of a tile's top but its rim and side face
    # (too thin to leave a face once cut back to the top), which show round a pale top
    # of their hue
    tile_px = float(np.mean(win_tiles[core_px] > 0))
    seed = _rim(masks, core, corner=(x0, y0)) if tile_px >= _RIM_SHARE else None
    if seed is not None and (whole := hull_face(seed)) is not None:
        by_colour = _by_colour(whole, outline, hsv[y0:y1, x0:x1], s=s, corner=(x0, y0))
        if by_colour is not None:
            return FieldReading(seed.color, by_colour, outline)
    # no tile: the field's light print must show nearly everywhere
    sat = hsv[y0:y1, x0:x1, 1][core_px]
    val = hsv[y0:y1, x0:x1, 2][core_px]
    light = float(np.mean((sat < _PRINT_SAT) & (val > 40)))
    hidden = float(np.mean(covered[y0:y1, x0:x1][core_px] > 0))
    if light >= 0.8 and tile_px < 0.05 and hidden < 0.1:
        confidence = float(np.clip((light - 0.8) / 0.15, 0, 1)) * 0.5 + 0.5
        return FieldReading(None, round(confidence, 3), outline)
    if _clear_middle(outline, hsv, tiles, covered, s=s, window=(x0, y0, x1, y1)):
        return FieldReading(None, _PARTLY_SEEN_EMPTY, outline)
    return FieldReading(UNKNOWN, round(max(0.0, min(light, MIN_CONFIDENCE) - 0.3), 3), outline)


def _rim(masks: list[np.ndarray], core: np.ndarray, *, corner: tuple[int, int]) -> TileBlob | None:
    """The colour most of a field's middle (`core`, a uint8 mask of its window at
    `corner`) shows, as a face of unknown shape: the hull of its pieces there; None if
    there is too little of any colour to be a tile's rim."""
    x0, y0 = corner
    h, w = core.shape
    inside = core > 0
    counts = [int(np.count_nonzero(m[y0 : y0 + h, x0 : x0 + w][inside])) for m in masks]
    k = int(np.argmax(counts))
    if counts[k] < _RIM_SHARE * np.count_nonzero(inside):
        return None
    # glare may cut the rim into pieces (one side and a corner): all of them in the middle
    _, parts = cv2.connectedComponents(masks[k][y0 : y0 + h, x0 : x0 + w])
    held = np.unique(parts[inside])
    pieces = np.isin(parts, held[held > 0]).view(np.uint8)
    rim = cv2.convexHull(cv2.findNonZero(pieces)) + np.array([x0, y0], np.int32)
    return TileBlob(UNKNOWN, 1, 0.0, COLORS[k], rim)


def _lit_part(
    blob: TileBlob, outline: np.ndarray, hsv: np.ndarray, *, s: float, window: tuple[int, int, int, int]
) -> TileBlob | None:
    """The part of a blob bigger than a tile that is clearly lighter than the rest, where
    it covers the field's middle: a tile partly under a sleeve of its colour, which is
    darker (cloth, shaded round an arm); None if the blob is much of one lightness."""
    x0, y0, x1, y1 = window
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [blob.contour], -1, 1, -1, offset=(-x0, -y0))
    val = hsv[y0:y1, x0:x1, 2]
    values = val[inside > 0]
    if values.size < 2:
        return None
    level, _ = cv2.threshold(values.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lighter, darker = values[values > level], values[values <= level]
    if not (lighter.size and darker.size) or lighter.mean() < _LIGHTER * darker.mean():
        return None
    lit = cv2.morphologyEx(((inside > 0) & (val > level)).view(np.uint8), cv2.MORPH_OPEN, _disc(1))
    _, parts = cv2.connectedComponents(lit)
    centre = np.round(outline.mean(axis=0) * s - (x0, y0)).astype(int)
    cx, cy = np.clip(centre, 0, np.array(lit.shape[::-1]) - 1)
    if parts[cy, cx] == 0:
        return None
    part = (parts == parts[cy, cx]).view(np.uint8)
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    top = max(contours, key=cv2.contourArea) + np.array([x0, y0], np.int32)
    return TileBlob(UNKNOWN, 1, 0.0, blob.color, top)


def _partly_hidden(
    face: TileBlob,
    outline: np.ndarray,
    hsv: np.ndarray,
    tiles: np.ndarray,
    covered: np.ndarray,
    *,
    s: float,
    window: tuple[int, int, int, int],
) -> bool:
    """Whether a face of unsure shape is a tile of its colour on this field, the rest of
    it hidden: under an arm or a sleeve (what runs on out of the field's surroundings),
    or beyond the photo's edge (packing.lay_hidden)."""
    x0, y0, x1, y1 = window
    inside = (slice(y0, y1), slice(x0, x1))
    seen = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(seen, [face.contour], -1, 1, -1, offset=(-x0, -y0))
    near = cv2.dilate(seen, _disc(_EDGE_MM * s))
    hidden = _running_out((tiles[inside] | covered[inside]) & (1 - near), s, beyond=hsv[inside][..., 2] == 0)
    about = outline.mean(axis=0) * s - (x0, y0)
    laid = lay_hidden(seen, hidden, SHAPE_OF[face.color], s, about=tuple(about), reach_mm=_BY_COLOUR_OFF_MM)
    return laid is not None


def _clear_middle(
    outline: np.ndarray,
    hsv: np.ndarray,
    tiles: np.ndarray,
    covered: np.ndarray,
    *,
    s: float,
    window: tuple[int, int, int, int],
) -> bool:
    """Whether a field partly hidden (an arm, a sleeve, a neighbour's tile over its edge,
    the photo's edge) is still seen to be empty: its middle, which any tile lying on it
    covers whole, shows print in light over at least half of it, and nothing else but
    what runs on out of the field's surroundings (an arm, a sleeve, of a tile's colour
    or not); and every patch of tile colour in the field bigger than a speck runs on out
    too (a tile on the field whose top glare washes out shows a light middle, and its
    rim and side faces reach past the outline by no more than its side)."""
    x0, y0, x1, y1 = window
    inside = (slice(y0, y1), slice(x0, x1))
    field = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(field, [np.round(outline * s - (x0, y0)).astype(np.int32)], 1)
    # a hand's skin shows partly in a tile's colour: what of it joins the hand runs out
    runs_out = _running_out(tiles[inside] | covered[inside], s)
    _, parts, stats, _ = cv2.connectedComponentsWithStats(tiles[inside])
    alone = np.setdiff1d(parts[field > 0], np.append(parts[runs_out > 0], 0))
    if np.any(stats[alone, cv2.CC_STAT_AREA] >= _RIM_MM2 * s * s):
        return False
    centre = outline.mean(axis=0)
    middle = np.zeros_like(field)
    ring = np.round((centre + _MIDDLE * (outline - centre)) * s - (x0, y0)).astype(np.int32)
    cv2.fillPoly(middle, [ring], 1)
    sat, val = hsv[inside][..., 1][middle > 0], hsv[inside][..., 2][middle > 0]
    tile_colour = tiles[inside][middle > 0] > 0
    hidden = covered[inside][middle > 0] > 0
    lit = (sat < _PRINT_SAT) & (val >= _DARK) & ~tile_colour & ~hidden
    # the photo's edge may cut the middle (the rectified photo blends into the black
    # beyond its edge over a pixel or two), and a sleeve may reach into it: a tile on the
    # field would cover all of the middle, so what of it shows print is enough, if
    # nothing else there might be a tile (a sleeve of a tile's colour runs on out of
    # the field's surroundings; a tile on the field does not)
    shown = ~_past_photo(hsv[inside][..., 2])[middle > 0]
    if np.count_nonzero(shown & lit) < _IN_PHOTO * lit.size:
        return False
    sleeve = runs_out[middle > 0] > 0
    return np.count_nonzero(shown & ~lit & ~sleeve) <= _SPECKS * lit.size


def _past_photo(val: np.ndarray) -> np.ndarray:
    """Where a rectified patch (its value channel) lies past the photo's edge, with the
    pixel or two the photo blends over into the black beyond it: nothing is seen there."""
    return cv2.dilate((val == 0).view(np.uint8), _disc(2)) > 0


def _running_out(mask: np.ndarray, s: float, *, beyond: np.ndarray | None = None) -> np.ndarray:
    """The parts of a field window's mask (uint8) that run on out of the window (an arm,
    a sleeve) or, given `beyond` (where the photo ends), off the photo, with the blurred
    edge they blend into the print over (uint8)."""
    _, parts = cv2.connectedComponents(mask)
    out = _on_edge(parts)
    if beyond is not None:
        out = np.concatenate([out, parts[cv2.dilate(beyond.view(np.uint8), _disc(1)) > 0]])
    over = np.isin(parts, out[out > 0])
    if beyond is not None:
        over |= beyond
    return cv2.dilate(over.view(np.uint8), _disc(_EDGE_MM * s))


def _sweep_px(plane: Plane, s: float, at_px: np.ndarray) -> np.ndarray:
    """The sweep of a tile's top (patch px) at a place on a board read at `s` px/mm."""
    return plane.sweep_mm(at_px / s) * s


def _hull_face(
    face: TileBlob,
    *,
    masks: list[np.ndarray],
    hsv: np.ndarray,
    s: float,
    sweep_at: Callable[[np.ndarray], np.ndarray],
) -> TileBlob | None:
    """A face as the hull of its colour's blob there, cut back by the sweep: glare that
    washes out a tile's whole top leaves only its rim and side face saturated, and the
    hull of those is the tile seen whole. Glare pales the lit top below its colour's
    saturation but keeps its hue: the pale pixels of its hue joined to the rim, and
    light (not the dark ink of an outline), are its top too."""
    k = COLORS.index(face.color)
    x, y, w, h = cv2.boundingRect(face.contour)
    sweep = sweep_at(np.array([x + w / 2, y + h / 2]))
    # the rest of the top lies within a face's reach of what of it showed
    pad = int(np.ceil(np.abs(sweep).max() + face_reach_mm(SHAPE_OF[face.color]) * s))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(hsv.shape[1], x + w + pad), min(hsv.shape[0], y + h + pad)
    window = hsv[y0:y1, x0:x1]
    pale = (hue_classes(window) == k + 1) & (window[..., 2] >= _DARK)
    seen = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(seen, [face.contour], -1, 1, -1, offset=(-x0, -y0))
    _, parts = cv2.connectedComponents(((masks[k][y0:y1, x0:x1] > 0) | pale).view(np.uint8))
    held = np.unique(parts[seen > 0])
    blob = np.isin(parts, held[held > 0]).astype(np.uint8)
    if not blob.any():
        return None
    whole = np.zeros_like(blob)
    cv2.fillConvexPoly(whole, cv2.convexHull(cv2.findNonZero(blob)), 1)
    contours, _ = cv2.findContours(unsweep(whole, sweep), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    top = max(contours, key=cv2.contourArea) + np.array([x0, y0], np.int32)
    return TileBlob(UNKNOWN, 1, 0.0, face.color, top)


def _by_colour(
    face: TileBlob, outline: np.ndarray, hsv: np.ndarray, *, s: float, corner: tuple[int, int]
) -> float | None:
    """The confidence (0.5..0.7) with which a face of unsure shape is still a tile of its
    colour on this field, or None (see _BY_COLOUR_SIZE). `hsv`: the field's window, whose
    top-left corner lies at `corner` (patch px)."""
    f = features(face.contour)
    if f is None or f.solidity < _BY_COLOUR_SOLID:
        return None
    size = float(cv2.contourArea(cv2.convexHull(face.contour))) / expected_area(face.color, s)
    if not _BY_COLOUR_SIZE[0] <= size <= _BY_COLOUR_SIZE[1]:
        return None
    m = cv2.moments(face.contour)
    centre_mm = np.array([m["m10"], m["m01"]]) / max(1e-6, m["m00"]) / s
    off = float(np.hypot(*(centre_mm - outline.mean(axis=0))))
    if off > _BY_COLOUR_OFF_MM:
        return None
    own = float(classify(f, s)[2][SHAPES.index(SHAPE_OF[face.color])])
    if own > _BY_COLOUR_SHAPE or not _alone(face, hsv, s, corner):
        return None
    fit = min(1 - off / _BY_COLOUR_OFF_MM, 1 - own / _BY_COLOUR_SHAPE, 1 - abs(np.log(size)) / np.log(1.5))
    return round(0.5 + 0.2 * max(0.0, fit), 3)


def _alone(face: TileBlob, hsv: np.ndarray, s: float, corner: tuple[int, int]) -> bool:
    """Whether a face lies alone on the print: neither its hue, however pale, nor
    anything dark or of another colour touching it runs on out of the field's window
    (a finger and its hand, a sleeve); the black past the photo's edge is neither, nor
    the print's thin dark lines, which a tall tile's side face may touch."""
    inside = np.zeros(hsv.shape[:2], np.uint8)
    cv2.drawContours(inside, [face.contour], -1, 1, -1, offset=(-corner[0], -corner[1]))
    own_hue = hue_classes(hsv) == COLORS.index(face.color) + 1
    ring = (cv2.dilate(inside, _disc(_RING_MM * s)) > 0) & (inside == 0)
    foreign = ~own_hue & ~_past_photo(hsv[..., 2]) & ((hsv[..., 1] >= _PRINT_SAT) | (hsv[..., 2] < _DARK))
    # a hand is wider than the print's lines, ink blurred and all
    foreign = cv2.morphologyEx(foreign.view(np.uint8), cv2.MORPH_OPEN, _disc(_INK_MM * s)) > 0
    return not (_runs_out(own_hue | (inside > 0), inside > 0) or _runs_out(foreign, ring & foreign))


def _runs_out(mask: np.ndarray, seed: np.ndarray) -> bool:
    """Whether the parts of `mask` that hold a `seed` pixel reach the window's edge."""
    if not seed.any():
        return False
    _, parts = cv2.connectedComponents(mask.view(np.uint8))
    held = np.zeros(parts.max() + 1, bool)
    held[parts[seed]] = True
    held[0] = False
    return bool(held[_on_edge(parts)].any())


def _on_edge(parts: np.ndarray) -> np.ndarray:
    """The labels of a label map found on its window's edge."""
    return np.concatenate([parts[0], parts[-1], parts[:, 0], parts[:, -1]])
