"""The storage tray: found as a round violet shape with bowl-shaped holes; the holes'
centres (the big one in the middle, the small ones round it) give the tray's plane,
and each bowl's floor is then rectified and its tiles counted by colour. A hand that
hides the big bowl leaves the small ones to fix the plane, and one that leaves fewer whole
bowls than that leaves the table's plane (from a board) with the tray's rim and a bowl or
two; a hand over a bowl's floor (anything neither tile nor lavender floor), or anything
lying across its edge, marks the bowl occluded.

Small bowls are numbered 1-5 clockwise round the big bowl, starting from the one
nearest the bottom edge of the image; the big bowl is "big".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.geometry import apply_h

from .colors import COLORS, balance_gains, hue_classes, joined, label_map, tint
from .geometry import BIG_FLOOR_MM, SMALL_FLOOR_MM, SMALL_RING_MM, TRAY_RADIUS_MM, Plane, circle_polygon
from .packing import pack
from .shapes import face_reach_mm, sweep_kernel, unsweep
from .tiles import (
    SHAPE_OF,
    UNKNOWN,
    TileBlob,
    colour_masks,
    expected_area,
    faces_of,
    read_faces,
    tile_strength,
    without_spread,
)

BIG = "big"
FLOOR_RGB = (216, 204, 234)
# Bowls are read at 3 px/mm, or 2.5 px/mm when the photo shows the tray coarser than
# 1.6 px/mm (finer adds pixels, not detail).
_PX_PER_MM, _COARSE_PX_PER_MM, _COARSE_BELOW = 3.0, 2.5, 1.6
_EDGE_MM = 2.0  # the floor's rim, left out: the bowl's wall and lip shade it
# the big bowl's floor is (72 / 46)^2 = 2.4 times a small one's: a hole far bigger is run
# together with something (a hand reaching in)
_BIG_OVER_SMALL = 3.5
_OWN_GAINS_WITHIN = math.log(1.15)  # a bowl's own white balance this close to the tray's is kept
# a bowl's floor measures the lamp's colour this close to the boards' print (skin filling
# a bowl is 25-35% off, a floor 0-7%)
_LAMP_WITHIN = math.log(1.15)
_FLOOR_SLACK = 12  # how far blue may fall below red or green on the lavender floor (balanced)
# pieces of a colour no face explains: this many tiles' worth of pixels, spread over this
# much of a tile's area, are a tile seen in pieces
_FRAGMENT_SHARE, _FRAGMENT_HULL = 0.15, 0.35
# a tile's top reaches this far past the floor's edge beyond its sweep (its bevel, blur);
# past that and the lip ring beyond it, read to see what lies across the bowl's edge
_OVER_EDGE_MM, _LIP_RING_MM = 1.5, 2.5
_TRAY_HUE = (122, 165)  # violet and lavender of the tray and bowls' lips (OpenCV hue)
_TRAY_MIN_SAT = 60
_PALE_INSET_MM = 1.5  # a blurred tile edge's pale fringe is about this wide
# a tile's blurred edge and the shadow at its foot reach this far past its outline
_HALO_MM = 1.5
# where a tile's edge meets the floor's shadow the two mix, within about this of the tile,
# and the mixture can take another tile colour's hue (green and lavender make blue)
_EDGE_MIX_MM = 2.5
_SHADOW_SAT = 30  # a cast shadow on a floor the lamp washes out: grey, this little saturated
_STRANGE_SHARE = 0.03  # of the visible floor, neither tile nor floor: more is a hand
# on the table's plane: circles within this share of their size, centres this close; the
# rim's outline within this share of its radius, seen in this many twelfths of the turn
_TABLE_SIZE_TOL, _TABLE_OFF_MM = 0.12, 15.0
_RIM_TOL, _RIM_SECTORS = 0.03, 5
# a tile made whole from the piece glare left of it: its colour is sure, its outline less
_WHOLE_CONFIDENCE = 0.55
_MOST_WHOLE = 4  # tiles of one colour made whole in one bowl: more is something else
# glare on a tile: as bright as this (OpenCV value) and at least this saturated in its hue
_TINT_VALUE, _TINT_SATURATION = 170, 35
_TINT_NEAR_MM = 1.0  # the tint's edge blurs into what lies beside it over about this
# glare of a tile's own colour over this much of a tile's area, in one piece: the tile's
# top washed out (a green diamond's turns mint), not the floor's tint nor a tile's fringe
_WASHED_SHARE = 0.35
_WASHED_COLORS = ("red", "yellow", "green")  # blue's washed out is the lavender floor's tint
_WASHED_BODY_MM = 2.0  # a washed top is solid this wide: thinner is where colours mix at edges


@dataclass
class BowlReading:
    number: int | str
    center: np.ndarray
    outline: np.ndarray  # image polygon of the floor
    tiles: dict[str, int]
    unknown: int
    occluded: bool
    confidence: float
    blobs: list[TileBlob] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "bowl": self.number,
            "center": [round(float(v)) for v in self.center],
            "tiles": dict(sorted(self.tiles.items())),
            "unknown": self.unknown,
            "occluded": bool(self.occluded),
            "confidence": round(self.confidence, 3),
        }


def find_tray(mask: np.ndarray, scale: float, min_area: float, image_size: tuple[int, int]) -> Plane | None:
    """The tray's plane (tray mm from the big bowl's centre -> image px), or None."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return None
    best = None
    for i, c in enumerate(contours):
        if hierarchy[0][i][3] != -1:
            continue
        area = float(cv2.contourArea(c))
        if area < min_area:
            continue
        holes = []
        child = hierarchy[0][i][2]
        while child != -1:
            hole = contours[child]
            a = float(cv2.contourArea(hole))
            # up to 0.6 of the tray: the big bowl run together with a hand reaching into it
            if 0.015 * area < a < 0.6 * area and len(hole) >= 5:
                holes.append((a, hole))
            child = hierarchy[0][child][0]
        if len(holes) >= 4 and (best is None or len(holes) > len(best)):
            best = holes
    if best is None:
        return None
    bowls = sorted(((a, h) for a, h in best if _round(h)), key=lambda t: -t[0])
    if len(bowls) < 4:
        return None
    big_area, big = bowls[0]
    small_area = float(np.median([a for a, _ in bowls[1:6]]))
    centre_big: np.ndarray | None = None
    if 1.8 * small_area <= big_area <= _BIG_OVER_SMALL * small_area:
        centre_big = np.array(cv2.fitEllipse(big)[0])
        small = bowls[1:6]
    else:  # the big bowl is hidden, or run together with a hand reaching into it
        small = bowls[:5]
        small_area = float(np.median([a for a, _ in small]))
    smalls = [np.array(cv2.fitEllipse(h)[0]) for a, h in small if 0.5 * small_area < a < 1.8 * small_area]
    # Without the big bowl's centre, the small bowls alone fix the plane (four of them or
    # more); their own middle is near enough the tray's to tell which way round they lie.
    if len(smalls) < (3 if centre_big is not None else 4):
        return None
    middle = centre_big if centre_big is not None else np.mean(smalls, axis=0)
    angles = [math.atan2(p[1] - middle[1], p[0] - middle[0]) for p in smalls]
    order = np.argsort(angles)
    a0 = angles[order[0]]
    model, seen = ([(0.0, 0.0, BIG_FLOOR_MM)], [centre_big]) if centre_big is not None else ([], [])
    used = set()
    for j in order:
        step = round(((angles[j] - a0) % (2 * math.pi)) / (2 * math.pi / 5)) % 5
        if step in used:
            return None
        used.add(step)
        t = 2 * math.pi * step / 5
        model.append((SMALL_RING_MM * math.cos(t), SMALL_RING_MM * math.sin(t), SMALL_FLOOR_MM))
        seen.append(smalls[j])
    h = _fit_centres(np.array(model), np.array(seen) / scale)
    return None if h is None else Plane(h, image_size)


def find_tray_on_table(
    mask: np.ndarray, scale: float, min_area: float, table: np.ndarray, image_size: tuple[int, int]
) -> Plane | None:
    """The tray's plane when a hand leaves too few whole bowls to fix it alone, from the
    table's plane (`table`: table mm -> image px, from a board found whole; the boards
    and the tray lie on one table). Seen on the table, the whole bowls are circles of
    known sizes, and the tray's centre lies on a circle round each small bowl: where on
    it, the tray's round rim says (its pieces on either side of an arm count alike)."""
    to_table = np.linalg.inv(table)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return None
    outline, bigs, smalls = [], [], []
    h, w = mask.shape[:2]
    for i, c in enumerate(contours):
        if hierarchy[0][i][3] != -1 or cv2.contourArea(c) < 0.1 * min_area:
            continue
        pts = c.reshape(-1, 2)
        off_border = (pts[:, 0] > 1) & (pts[:, 1] > 1) & (pts[:, 0] < w - 2) & (pts[:, 1] < h - 2)
        outline.append(pts[off_border] / scale)
        child = hierarchy[0][i][2]
        while child != -1:
            hole = contours[child]
            child = hierarchy[0][child][0]
            if len(hole) < 12 or not _round(hole):
                continue
            x, y, r = _circle_on_table(hole.reshape(-1, 2) / scale, to_table)
            if abs(r / BIG_FLOOR_MM - 1) < _TABLE_SIZE_TOL:
                bigs.append(np.array([x, y]))
            elif abs(r / SMALL_FLOOR_MM - 1) < _TABLE_SIZE_TOL:
                smalls.append(np.array([x, y]))
    if not smalls or not outline:
        return None
    rim = apply_h(to_table, np.concatenate(outline).astype(np.float64))
    rim = rim[np.all(np.isfinite(rim), axis=1)]
    # only outline within the tray's reach of a small bowl can be its rim
    reach = 1.1 * (SMALL_RING_MM + TRAY_RADIUS_MM)
    rim = rim[np.min([np.hypot(*(rim - p).T) for p in smalls], axis=0) < reach]
    # candidate centres: the big bowl's, and round every small bowl at the ring's radius
    turns = np.linspace(0, 2 * math.pi, 180, endpoint=False)
    ring = SMALL_RING_MM * np.column_stack([np.cos(turns), np.sin(turns)])
    candidates = np.concatenate([np.array(bigs).reshape(-1, 2), *[p + ring for p in smalls]])
    d = np.hypot(rim[None, :, 0] - candidates[:, None, 0], rim[None, :, 1] - candidates[:, None, 1])
    on_rim = np.abs(d - TRAY_RADIUS_MM) < _RIM_TOL * TRAY_RADIUS_MM
    best = None
    for k in np.argsort(-on_rim.sum(axis=1))[:5]:  # the best supported, seen round enough
        centre = candidates[k]
        angles = np.arctan2(rim[on_rim[k], 1] - centre[1], rim[on_rim[k], 0] - centre[0])
        sectors = np.unique(np.floor((angles + math.pi) / (2 * math.pi) * 12).astype(int)).size
        if sectors >= _RIM_SECTORS:
            best = centre
            break
    if best is None:
        return None
    if any(np.linalg.norm(p - best) > _TABLE_OFF_MM for p in bigs):
        return None  # a big bowl that is not this tray's
    offsets = [
        p - best for p in smalls if abs(np.linalg.norm(p - best) / SMALL_RING_MM - 1) < _TABLE_SIZE_TOL
    ]
    if not offsets:
        return None
    # the small bowls lie a fifth of a turn apart: their angles, times 5, agree
    angles = np.array([math.atan2(d[1], d[0]) for d in offsets])
    turn = math.atan2(np.sin(5 * angles).sum(), np.cos(5 * angles).sum()) / 5
    spread = np.abs((angles - turn + math.pi / 5) % (2 * math.pi / 5) - math.pi / 5)
    if spread.max() > math.radians(12):
        return None
    size = float(np.median([np.linalg.norm(d) / SMALL_RING_MM for d in offsets]))
    c, s = size * math.cos(turn), size * math.sin(turn)
    on_table = np.array([[c, -s, best[0]], [s, c, best[1]], [0.0, 0.0, 1.0]])
    return Plane(table @ on_table, image_size)


def _circle_on_table(points_px: np.ndarray, to_table: np.ndarray) -> tuple[float, float, float]:
    """(x, y, radius) in table mm of the circle through image points (least squares);
    a radius of 0 when they make none."""
    p = apply_h(to_table, points_px.astype(np.float64))
    p = p[np.all(np.isfinite(p), axis=1)]
    if len(p) < 3:
        return 0.0, 0.0, 0.0
    x, y = p[:, 0], p[:, 1]
    sol, *_ = np.linalg.lstsq(np.column_stack([x, y, np.ones(len(x))]), x**2 + y**2, rcond=None)
    cx, cy = sol[0] / 2, sol[1] / 2
    return float(cx), float(cy), math.sqrt(max(sol[2] + cx**2 + cy**2, 0.0))


def _round(hole: np.ndarray) -> bool:
    """Whether a hole is a whole bowl's outline (an ellipse): not a part of one that
    something covers, nor a board's inside (four corners) where a board touches the tray."""
    (_, _), (a, b), _ = cv2.fitEllipse(hole)
    area = float(cv2.contourArea(hole))
    corners = len(cv2.approxPolyDP(hole, 0.01 * cv2.arcLength(hole, True), True))
    return (
        corners > 6
        and area > 0.9 * math.pi * a * b / 4
        and area > 0.95 * float(cv2.contourArea(cv2.convexHull(hole)))
    )


def _fit_centres(model: np.ndarray, seen: np.ndarray) -> np.ndarray | None:
    """The homography taking bowls (x, y, radius in tray mm) to the centres of their
    holes' outlines in the image. In perspective, the centre of a circle's outline is not
    the image of its centre (the far half looks smaller): each hole's centre is moved by
    that offset, as the homography fitted so far predicts it, and the fit repeated."""
    points = model[:, :2].astype(np.float32)
    h, _ = cv2.findHomography(points, seen.astype(np.float32), 0)
    for _refit in range(2):
        if h is None:
            return None
        shifted = []
        for (x, y, r), p in zip(model, seen, strict=True):
            outline = apply_h(h, circle_polygon(x, y, r, 32))
            if not np.all(np.isfinite(outline)):
                return None
            offset = (
                np.array(cv2.fitEllipse(outline.astype(np.float32))[0]) - apply_h(h, np.array([[x, y]]))[0]
            )
            shifted.append(p - offset)
        h, _ = cv2.findHomography(points, np.array(shifted, np.float32), 0)
    return h


def bowl_centres_mm() -> list[tuple[float, float, float]]:
    """(x, y, floor radius): the big bowl, then the 5 small bowls in tray order."""
    small = [
        (
            SMALL_RING_MM * math.cos(2 * math.pi * k / 5),
            SMALL_RING_MM * math.sin(2 * math.pi * k / 5),
            SMALL_FLOOR_MM,
        )
        for k in range(5)
    ]
    return [(0.0, 0.0, BIG_FLOOR_MM), *small]


def read_bowls(frame: np.ndarray, tray: Plane, lamp: np.ndarray | None = None) -> list[BowlReading]:
    """Every bowl's reading. `lamp`: the light's colour (`tint`) as the boards' print
    shows it, if any board was read."""
    bowls = bowl_centres_mm()
    centres = tray.to_image(np.array([(x, y) for x, y, _ in bowls]))
    big = centres[0]
    small = list(range(1, 6))
    first = max(small, key=lambda i: centres[i][1])
    a0 = math.atan2(centres[first][1] - big[1], centres[first][0] - big[0])
    small.sort(
        key=lambda i: (math.atan2(centres[i][1] - big[1], centres[i][0] - big[0]) - a0) % (2 * math.pi)
    )
    s = _read_scale(tray)
    patches = []
    reaches = []
    for index in [*small, 0]:
        x, y, radius = bowls[index]
        # as far as a tile's top can reach over the floor's edge, and a ring of lip beyond
        reach = radius + float(np.linalg.norm(tray.sweep_mm(np.array([x, y])))) + _OVER_EDGE_MM
        half = reach + _LIP_RING_MM
        reaches.append(reach)
        patches.append(tray.warp(frame, (x - half, y - half), (2 * half, 2 * half), s))
    # One white balance for the whole tray, so that a hand filling a bowl is not taken for
    # its floor; a bowl keeps its own where it agrees (light falls off across a table).
    own = [balance_gains(_seen(p[::3, ::3]), FLOOR_RGB) for p in patches]
    shared = _tray_gains(own, lamp)
    out = []
    for number, index, patch, gains, reach in zip(
        [*range(1, 6), BIG], [*small, 0], patches, own, reaches, strict=True
    ):
        x, y, radius = bowls[index]
        if np.abs(np.log(gains / shared)).max() > _OWN_GAINS_WITHIN:
            gains = shared
        outline = tray.to_image(circle_polygon(x, y, radius, 32))
        sweep = tray.sweep_mm(np.array([x, y])) * s
        out.append(
            _read_bowl(
                patch, gains, number, centres[index], outline, radius=radius, reach=reach, sweep=sweep, s=s
            )
        )
    return out


def _tray_gains(own: list[np.ndarray], lamp: np.ndarray | None) -> np.ndarray:
    """The tray's white balance: the median of the bowls' own, of those whose colour
    agrees with the lamp's (a hand filling half the bowls would balance them to skin);
    of them all when no board shows the lamp's colour or no bowl agrees with it."""
    if lamp is not None:
        agree = [g for g in own if np.abs(tint(g) - lamp).max() <= _LAMP_WITHIN]
        if agree:
            return np.median(agree, axis=0)
    return np.median(own, axis=0)


def _seen(patch: np.ndarray) -> np.ndarray:
    """A patch's pixels inside the photo (the warp leaves black outside it)."""
    return patch[cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) > 0]


def _read_scale(tray: Plane) -> float:
    """px/mm at which the bowls are rectified for reading."""
    a, b, c = tray.to_image(np.array([[0.0, 0.0], [SMALL_RING_MM, 0.0], [0.0, SMALL_RING_MM]]))
    seen = (np.linalg.norm(b - a) + np.linalg.norm(c - a)) / (2 * SMALL_RING_MM)
    return _PX_PER_MM if seen >= _COARSE_BELOW else _COARSE_PX_PER_MM


def _read_bowl(
    patch: np.ndarray,
    gains: np.ndarray,
    number: int | str,
    centre: np.ndarray,
    outline: np.ndarray,
    *,
    radius: float,
    reach: float,
    sweep: np.ndarray,
    s: float,
) -> BowlReading:
    n = patch.shape[0]
    floor = np.zeros(patch.shape[:2], np.uint8)
    cv2.circle(floor, (n // 2, n // 2), round((radius - _EDGE_MM) * s), 255, -1)
    visible = floor.astype(bool) & (cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) > 0)
    if visible.sum() < 0.7 * floor.astype(bool).sum():
        return BowlReading(number, centre, outline, {}, 0, True, 0.0)
    labels, hsv = label_map(patch, gains, grow_pale=True, pale_inset_px=_PALE_INSET_MM * s)
    masks = colour_masks(labels, hsv, s, sweep)
    strength = tile_strength(hsv)
    blobs = without_spread(read_faces(masks, strength, s, sweep, floor), strength, s, sweep)
    tinted = hue_classes(hsv, _TINT_SATURATION, _TINT_VALUE)
    masks = _with_washed(masks, blobs, tinted, labels, sweep=sweep, floor=floor, s=s)
    fragments = _fragments(masks, blobs, sweep, floor, s)
    tiles = (labels > 0).astype(np.uint8)
    # a hand or a sleeve over the floor: what it hides cannot be counted
    near_tiles = cv2.dilate(tiles, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    sat, val = hsv[..., 1], hsv[..., 2]
    # the floor is lavender (blue at least as strong as red and green), also in shadow or
    # glare; skin, wood and most sleeves are not
    b, g, r = cv2.split(cv2.transform(patch, np.diag(np.asarray(gains, np.float32))).astype(np.int16))
    floor_like = (sat < 80) & (val >= 40) & (b >= r - _FLOOR_SLACK) & (b >= g - _FLOOR_SLACK)
    # a tile's cast shadow on a floor the lamp washes out is grey, of no hue the balance
    # can set right; grey sleeves show where they cross the lip (_reaches_out)
    shadow = (sat < _SHADOW_SAT) & (val >= 40)
    strange = visible & (near_tiles == 0) & (labels == 0) & ~floor_like & ~shadow
    across = visible.sum() < floor.astype(bool).sum() * 0.98 or _reaches_out(
        labels, hsv, floor_like, floor, reach * s
    )
    # Nothing lies across the bowl's edge: pieces of tile colour are tiles glare washed
    # out in part, and what glare leaves of a tile's top (neither its colour nor the
    # floor's) lies within the tile made whole. Under a hand or a sleeve, pieces are as
    # likely tiles it hides in part, and a pale sleeve could be taken for a tile's face.
    if not across and (fragments or any(b.value == UNKNOWN for b in blobs)):
        whole = _made_whole(blobs, masks, labels, tinted, visible, sweep=sweep, floor=floor, s=s)
        if whole is not None and not _covered(strange, visible, whole, sweep, s):
            blobs, fragments = whole, 0
    occluded = across or _covered(strange, visible, blobs, sweep, s)
    counts: dict[str, int] = {}
    unknown, confidence = fragments, 1.0
    for blob in blobs:
        if blob.value == UNKNOWN:
            unknown += blob.count
        else:
            counts[blob.value] = counts.get(blob.value, 0) + 1
            confidence = min(confidence, blob.confidence)
    if occluded:
        confidence = min(confidence, 0.5)
    return BowlReading(number, centre, outline, counts, unknown, occluded, confidence, blobs)


def _covered(
    strange: np.ndarray, visible: np.ndarray, blobs: list[TileBlob], sweep: np.ndarray, s: float
) -> bool:
    """Whether something neither tile nor floor (a hand, a sleeve) covers part of the
    floor: `strange` pixels beyond the footprints of the tiles read are more than a speck
    of the floor. Only tiles read count: a blob of unknown shape may be the hand itself."""
    most = _STRANGE_SHARE * np.count_nonzero(visible)
    if np.count_nonzero(strange) <= most:
        return False
    footprints = _footprints(strange.shape, [b for b in blobs if b.value != UNKNOWN], sweep, s)
    return bool(np.count_nonzero(strange & (footprints == 0)) > most)


def _footprints(
    size: tuple[int, ...], blobs: list[TileBlob], sweep: np.ndarray, s: float, halo_mm: float = _HALO_MM
) -> np.ndarray:
    """Where tiles lie in a bowl's patch of `size` (uint8): each face, read at its
    footprint, swept to its top, and the blurred edge round it; the shadow at a tile's
    foot, on the side away from its top, reaches about as far as its side face."""
    footprints = np.zeros(size[:2], np.uint8)
    cv2.drawContours(footprints, [b.contour for b in blobs], -1, 1, -1)
    footprints = cv2.dilate(footprints, sweep_kernel(sweep) | sweep_kernel(-np.asarray(sweep)))
    halo = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(halo_mm * s) + 1,) * 2)
    return cv2.dilate(footprints, halo)


def _with_washed(
    masks: list[np.ndarray],
    blobs: list[TileBlob],
    tinted: np.ndarray,
    labels: np.ndarray,
    *,
    sweep: np.ndarray,
    floor: np.ndarray,
    s: float,
) -> list[np.ndarray]:
    """Each colour's mask with the tops glare washed out of that colour's tiles added:
    solid pale blobs of its hue (`tinted`, no tile colour in `labels`) in the floor, that
    no tile read explains (a tile's blurred fringe), as large as a good part of a tile.
    They are pieces no face explains, so a tile so washed out is made whole, or counted
    unknown, rather than missed."""
    out, explained = [], None
    pale = (labels == 0) & (floor > 0)
    body = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(_WASHED_BODY_MM * s) | 1,) * 2)
    for k, (color, mask) in enumerate(zip(COLORS, masks, strict=True), 1):
        candidate = ((tinted == k) & pale).view(np.uint8)
        least = _WASHED_SHARE * expected_area(color, s)
        if color not in _WASHED_COLORS or np.count_nonzero(candidate) < least:
            out.append(mask)
            continue
        if explained is None:  # only a few bowls get this far
            explained = _footprints(floor.shape, blobs, sweep, s, _EDGE_MIX_MM)
        candidate = cv2.morphologyEx(candidate & (explained == 0), cv2.MORPH_OPEN, body)
        _, parts, stats, _ = cv2.connectedComponentsWithStats(candidate)
        big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= least)
        big = big[big > 0]
        out.append(mask | np.isin(parts, big).view(np.uint8) if big.size else mask)
    return out


def _made_whole(
    blobs: list[TileBlob],
    masks: list[np.ndarray],
    labels: np.ndarray,
    tinted: np.ndarray,
    visible: np.ndarray,
    *,
    sweep: np.ndarray,
    floor: np.ndarray,
    s: float,
) -> list[TileBlob] | None:
    """The bowl's tiles when each piece of tile colour that no face read explains (glare
    washing out part of a tile, a pale top inside a dark bevel, tiles touching whose
    outline glare bit into) is part of one whole face of its colour lying over no other
    tile; None when some piece is not."""
    known = [b for b in blobs if b.value != UNKNOWN]
    taken = np.zeros(labels.shape, np.uint8)
    cv2.drawContours(taken, [b.contour for b in known], -1, 1, -1)
    beside = cv2.dilate(taken, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(2 * s) | 1,) * 2))
    free = (beside == 0) & (floor > 0)
    out = list(known)
    for k, color in enumerate(COLORS):
        pieces = unsweep(masks[k], sweep) & free
        if not pieces.any():
            continue
        room = (visible & (taken == 0) & ((labels == 0) | (labels == k + 1))).astype(np.uint8)
        found = _whole(pieces, room, color, sweep, s)
        if found is None:
            # Glare that mirrors the tile's own colour, far paler than the tile, shows the
            # rest of its face: the face lies on it, not on what merely looks like floor
            # (a pale sleeve over the rest of a tile).
            lit = joined(pieces, unsweep((tinted == k + 1).view(np.uint8), sweep) & free).view(np.uint8)
            near = cv2.dilate(
                lit, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(_TINT_NEAR_MM * s) + 1,) * 2)
            )
            found = _whole(lit, near & room, color, sweep, s)
        if found is None:
            return None
        out += found
    if _fragments(masks, out, sweep, floor, s):
        return None
    return out


def _whole(
    pieces: np.ndarray, room: np.ndarray, color: str, sweep: np.ndarray, s: float
) -> list[TileBlob] | None:
    """The whole faces of `color` that `pieces` are part of, each lying within `room`."""
    # a face laid over a piece reaches at most its own width past it, however turned
    x, y, w, h = cv2.boundingRect(pieces)
    m = math.ceil(2 * face_reach_mm(SHAPE_OF[color]) * s)
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(pieces.shape[1], x + w + m), min(pieces.shape[0], y + h + m)
    found = pack(
        pieces[y0:y1, x0:x1], SHAPE_OF[color], s, _MOST_WHOLE, room=room[y0:y1, x0:x1], sweep_px=sweep
    )
    return None if found is None else faces_of(color, found, s, _WHOLE_CONFIDENCE, offset=(x0, y0))


def _reaches_out(
    labels: np.ndarray, hsv: np.ndarray, floor_like: np.ndarray, floor: np.ndarray, reach_px: float
) -> bool:
    """Whether something lies across the bowl's edge: a blob of tile colour or of no
    print (skin, a sleeve) inside the floor that runs out past where any tile lying in
    the bowl can reach, onto the ring of tray beyond, or something as pale as the floor
    (a white or grey sleeve) lying across the violet lip. Tiles lie on the floor; hands
    come from outside."""
    n = floor.shape[0]
    lip = np.zeros(floor.shape, np.uint8)
    cv2.circle(lip, (n // 2, n // 2), n // 2, 255, -1)
    cv2.circle(lip, (n // 2, n // 2), round(reach_px), 0, -1)
    ring = lip > 0
    hue, sat, val = cv2.split(hsv)
    tray = (hue >= _TRAY_HUE[0]) & (hue <= _TRAY_HUE[1]) & (sat >= _TRAY_MIN_SAT)
    least = 4.0 * (n / 100.0) ** 2  # a speck of noise is no hand
    # the lip shows the tray's violet all round the floor: a way across it as pale as the
    # floor, from the floor out to the tray beyond, is a pale sleeve lying across it
    within = np.zeros(floor.shape, np.uint8)
    cv2.circle(within, (n // 2, n // 2), n // 2, 255, -1)
    beyond = (within > 0) & (cv2.erode(within, np.ones((5, 5), np.uint8)) == 0)
    pale = floor_like & ~tray & (val > 0) & (within > 0)
    if np.count_nonzero(pale[beyond]) > least and _joins(pale, floor > 0, beyond, least):
        return True
    foreign = ((labels > 0) | (~floor_like & ~tray)) & (val > 0)
    if np.count_nonzero(foreign[ring]) <= least:
        return False  # nothing on the ring: the usual case
    return _joins(foreign, floor > 0, ring, least)


def _joins(mask: np.ndarray, a: np.ndarray, b: np.ndarray, least: float) -> bool:
    """Whether one connected part of `mask` has more than `least` pixels in `a` and in `b`."""
    count, parts = cv2.connectedComponents(mask.astype(np.uint8))
    in_a = np.bincount(parts[a], minlength=count)
    in_b = np.bincount(parts[b], minlength=count)
    return bool(np.any((in_a[1:] > least) & (in_b[1:] > least)))


def _fragments(
    masks: list[np.ndarray], blobs: list[TileBlob], sweep: np.ndarray, floor: np.ndarray, s: float
) -> int:
    """Tiles seen only in pieces (glare washing out a tile's middle leaves bits of its
    rim, each too small to be read): tile-sized clusters of a colour that no face read
    explains. They count as unknown tiles rather than vanish."""
    explained = _footprints(floor.shape, blobs, sweep, s, _EDGE_MIX_MM)
    near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(12 * s) | 1,) * 2)  # pieces of one tile
    inner = None
    found = 0
    for color, mask in zip(COLORS, masks, strict=True):
        left = mask & (explained == 0) & (floor > 0)
        if np.count_nonzero(left) < _FRAGMENT_SHARE * expected_area(color, s):
            continue
        if inner is None:  # only a few bowls get this far
            inner = cv2.erode(floor, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(10 * s) | 1,) * 2))
        n, groups = cv2.connectedComponents(cv2.dilate(left, near))
        for k in range(1, n):
            ys, xs = np.nonzero(left & (groups == k))
            if len(xs) < 3 or not inner[int(ys.mean()), int(xs.mean())]:
                continue  # at the floor's edge: a tile on the rim, not in this bowl
            hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
            if cv2.contourArea(hull) >= _FRAGMENT_HULL * expected_area(color, s):
                found += 1
    return found
