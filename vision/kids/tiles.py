"""Reading tiles from a rectified patch: each tile colour's pixels cut back to the top
faces (see shapes.unsweep), each face checked for the shape of its colour, and counted.

Working colour by colour keeps tiles of different colours apart even where their side
faces touch; cutting back to the top faces keeps tiles of one colour apart as long as
they do not touch (their tops are then separate even when their sides merge). Where
blur or coarse JPEG colour bridges the narrow gap between two tiles of one colour, the
gap still shows as a dip in colour strength (darker, less saturated): the blob is split
along it (a watershed from the blob's strongest cores) and kept split only when every
part reads as a tile.
Glare (light, unsaturated) inside a tile's outline is part of the tile.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .colors import COLORS, hue_classes
from .packing import Packing, pack
from .shapes import SHAPES, classify, face_area_mm2, face_outline, features, turned, unsweep

SHAPE_OF = dict(zip(COLORS, ("square", "hexagon", "diamond", "circle"), strict=True))
UNKNOWN = "unknown"
MIN_CONFIDENCE = 0.5
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
# glare: what a glossy tile shows where it mirrors the lamp
_GLARE_MIN_V, _GLARE_MAX_S = 150, 100
_PLAUSIBLE = 0.09  # distance to a shape's prototypes within which a face may be that shape
# a part cut from a blob of one colour has a straight cut for a side and keeps a piece of
# the neck: its outline may lie this much further from its shape's
_PLAUSIBLE_CUT = 0.18
_MERGED = 1.55  # a face this much bigger than a tile is tiles touching, or no tile
_PARTS_COVER = 0.8  # the share of a blob its parts must cover for a split to stand
_MOST_SPLIT = 6  # a blob of more tiles than this is not split (a hand or a print, more likely)
# tiles counted from the faces packed into their blob: the count is sure, each outline less
_PACKED_CONFIDENCE = 0.6
# single tiles read this much bigger than a face (the median of their areas): colour
# spread past their edges (defocus, coarse JPEG colour)
_SPREAD_SEEN = 1.06


@dataclass
class TileBlob:
    """One top face: a tile of `value` (a colour), or "unknown" standing for `count` tiles."""

    value: str
    count: int
    confidence: float
    color: str  # the colour its pixels have, whether or not its shape agreed
    contour: np.ndarray  # patch px

    @property
    def centre(self) -> np.ndarray:
        return self.contour.reshape(-1, 2).mean(axis=0)


@cache
def expected_area(color: str, px_per_mm: float) -> float:
    """A tile face's area in px at `px_per_mm`."""
    return face_area_mm2(SHAPE_OF[color]) * px_per_mm**2


def colour_masks(
    labels: np.ndarray, hsv: np.ndarray, px_per_mm: float, sweep_px: np.ndarray | None = None
) -> list[np.ndarray]:
    """Per colour (COLORS order), its pixels with specks removed, holes filled, and glare
    and paler pixels of the colour inside a tile-sized blob's outline added; a tile's size
    with its side face, when `sweep_px` says how far its top lies from its footprint."""
    glare = ((hsv[..., 2] >= _GLARE_MIN_V) & (hsv[..., 1] <= _GLARE_MAX_S)).astype(np.uint8)
    hue_class = hue_classes(hsv)
    out = []
    for k, color in enumerate(COLORS):
        mask = cv2.morphologyEx((labels == k + 1).astype(np.uint8), cv2.MORPH_OPEN, _OPEN)
        if not mask.any():
            out.append(mask)
            continue
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(mask, contours, -1, 1, -1)  # holes: glare in the middle of a tile
        expected = expected_area(color, px_per_mm)
        # seen steeply, a tile's side face widens it by about the sweep
        side = 1.0 if sweep_px is None else 1.0 + float(np.hypot(*sweep_px)) / math.sqrt(expected)
        hulls = []
        for c in contours:
            hull = cv2.convexHull(c)
            if 0.4 * expected < cv2.contourArea(hull) < 1.3 * side * expected:
                hulls.append(hull)
        if hulls:
            inside = np.zeros_like(mask)
            cv2.drawContours(inside, hulls, -1, 1, -1)
            # glare that bites into a tile's edge, and the paler lit top of a tile whose
            # shaded rim alone passed the colour's saturation threshold
            pale = (hue_class == k + 1).view(np.uint8)
            mask |= inside & (glare | pale)
        out.append(mask)
    return out


def read_faces(
    masks: list[np.ndarray],
    strength: np.ndarray,
    px_per_mm: float,
    sweep_px: np.ndarray,
    region: np.ndarray | None = None,
) -> list[TileBlob]:
    """Every tile face in a patch, from its colour masks (colour_masks) and colour
    strength (tile_strength) (optionally only faces centred in `region`, a uint8 mask)."""
    out = []
    for k, mask in enumerate(masks):
        if not mask.any():
            continue
        face = unsweep(mask, sweep_px)
        contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            blobs = _read_blob(COLORS[k], contour, face, strength, px_per_mm, hidden_px=sweep_px)
            for blob in blobs:
                if region is not None:
                    cx, cy = np.round(blob.centre).astype(int)
                    if not (0 <= cy < region.shape[0] and 0 <= cx < region.shape[1] and region[cy, cx]):
                        continue
                out.append(blob)
    return out


def without_spread(
    blobs: list[TileBlob], strength: np.ndarray, px_per_mm: float, hidden_px: np.ndarray
) -> list[TileBlob]:
    """The blobs, with those of touching tiles read again cut back by how far colour
    spreads past every tile's edge, as far as the single tiles read show it. Each tile's
    spread adds to their blob until no whole faces explain it; cut back, its tiles are
    kept when every one reads."""
    sure = [b for b in blobs if b.value != UNKNOWN and b.confidence >= MIN_CONFIDENCE]
    if not sure or not any(b.value == UNKNOWN and b.count >= 2 for b in blobs):
        return blobs
    grown = float(np.median([cv2.contourArea(b.contour) / expected_area(b.color, px_per_mm) for b in sure]))
    if grown < _SPREAD_SEEN:
        return blobs
    out = []
    for blob in blobs:
        if blob.value != UNKNOWN or blob.count < 2:
            out.append(blob)
            continue
        outline = face_outline(SHAPE_OF[blob.color]).astype(np.float32)
        # a face's area grows by its perimeter times the spread
        spread = (grown - 1) * face_area_mm2(SHAPE_OF[blob.color]) / cv2.arcLength(outline, True) * px_per_mm
        cut = np.zeros(strength.shape, np.uint8)
        cv2.drawContours(cut, [blob.contour], -1, 1, -1)
        cut = cv2.erode(cut, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(spread) + 1,) * 2))
        contours, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        again = [
            tile
            for contour in contours
            for tile in _read_blob(blob.color, contour, cut, strength, px_per_mm, hidden_px=hidden_px)
        ]
        out += again if again and all(t.value == blob.color for t in again) else [blob]
    return out


def read_faces_each(
    masks: list[np.ndarray],
    strength: np.ndarray,
    px_per_mm: float,
    sweep_at: Callable[[np.ndarray], np.ndarray],
) -> list[TileBlob]:
    """Every tile face in a patch too big for one sweep (a whole board): each blob of a
    colour is cut back by the sweep at its own place (`sweep_at`: patch px -> sweep px),
    so every tile is read once however many fields look at it."""
    out = []
    height, width = strength.shape
    for k, mask in enumerate(masks):
        if not mask.any():
            continue
        color = COLORS[k]
        least = 0.3 * expected_area(color, px_per_mm)  # read_face drops faces smaller than this
        blobs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for outline in blobs:
            x, y, w, h = cv2.boundingRect(outline)
            if w * h < least:
                continue
            sweep = sweep_at(np.array([x + w / 2, y + h / 2]))
            pad = int(np.ceil(np.abs(sweep).max())) + 3
            x0, y0 = max(0, x - pad), max(0, y - pad)
            x1, y1 = min(width, x + w + pad), min(height, y + h + pad)
            own = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.drawContours(own, [outline], -1, 1, -1, offset=(-x0, -y0))
            face = unsweep(own, sweep)
            contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            for contour in contours:
                # On a board each tile lies alone on its field, the fields apart: no tile's
                # top hides a gap to the next, and a blob that needs one hidden is no
                # pair of tiles (a sleeve's, say).
                for blob in _read_blob(
                    color, contour, face, strength[y0:y1, x0:x1], px_per_mm, hidden_px=np.zeros(2)
                ):
                    blob.contour = blob.contour + np.array([x0, y0], np.int32)
                    out.append(blob)
    return out


def tile_strength(hsv: np.ndarray) -> np.ndarray:
    """Saturation times value (0..255): high on a tile's top, lower on its bevel, its
    side face and the gap to the next tile."""
    return ((hsv[..., 1].astype(np.uint16) * hsv[..., 2]) >> 8).astype(np.uint8)


def _read_blob(
    color: str,
    contour: np.ndarray,
    face: np.ndarray,
    strength: np.ndarray,
    px_per_mm: float,
    *,
    hidden_px: np.ndarray,
) -> list[TileBlob]:
    """The tiles of one blob of a colour; `hidden_px`: how far past a tile's footprint its
    top may hide a gap to the next tile (packing.pack's `sweep_px`)."""
    blob = read_face(color, contour, px_per_mm)
    if blob is None or blob.value != UNKNOWN or not 2 <= blob.count <= _MOST_SPLIT:
        return [] if blob is None else [blob]
    parts = _split(color, contour, face, strength, px_per_mm)
    if parts:
        return parts
    packed = _packed(color, contour, px_per_mm, hidden_px, most=min(_MOST_SPLIT, blob.count + 1))
    return packed if packed else [blob]


def _packed(
    color: str, contour: np.ndarray, px_per_mm: float, hidden_px: np.ndarray, *, most: int
) -> list[TileBlob] | None:
    """Touching tiles of one colour counted by the whole faces that make up their blob
    (packing.pack); None when no such faces explain it."""
    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour], -1, 1, -1, offset=(-x, -y))
    shape = SHAPE_OF[color]
    packing = pack(region, shape, px_per_mm, most, sweep_px=hidden_px)
    if packing is None:
        return None
    return faces_of(color, packing, px_per_mm, _PACKED_CONFIDENCE, offset=(x, y))


def faces_of(
    color: str, packing: Packing, px_per_mm: float, confidence: float, *, offset: tuple[int, int] = (0, 0)
) -> list[TileBlob]:
    """The tiles of a packing, their contours the faces laid (patch px, plus `offset`)."""
    outline = face_outline(SHAPE_OF[color]) * px_per_mm
    out = []
    for (cx, cy), turn in zip(packing.centres, packing.turns, strict=True):
        pts = turned(outline, turn) + np.array([cx + offset[0], cy + offset[1]])
        out.append(TileBlob(color, 1, confidence, color, np.round(pts).astype(np.int32).reshape(-1, 1, 2)))
    return out


def _split(
    color: str, contour: np.ndarray, face: np.ndarray, strength: np.ndarray, px_per_mm: float
) -> list[TileBlob] | None:
    """Touching tiles of one colour, split along the dip in colour strength between them;
    None unless every part reads as a tile of the colour."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(face.shape[1], x + w + pad), min(face.shape[0], y + h + pad)
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(region, [contour], -1, 1, -1, offset=(-x0, -y0))
    sat = strength[y0:y1, x0:x1]
    inside = sat[region > 0]
    blob_area = float(cv2.contourArea(contour))
    expected = expected_area(color, px_per_mm)
    # cores: first the blob shrunk past the narrow necks between tiles, then its
    # strongest pixels at rising thresholds, each part grown back over the colour
    # strength; last the blob shrunk further (blurred tiles touching corner to corner),
    # grown back over its distance from its edge
    distance = cv2.normalize(cv2.distanceTransform(region, cv2.DIST_L2, 3), None, 0, 255, cv2.NORM_MINMAX)
    strong = cv2.normalize(sat, None, 0, 255, cv2.NORM_MINMAX)
    neck = max(3, round(3.0 * px_per_mm)) | 1
    tries = [(cv2.erode(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (neck, neck))), strong)]
    tries += [
        (((sat > q) & (region > 0)).astype(np.uint8), strong) for q in np.percentile(inside, (40, 55, 70, 82))
    ]
    tries += [
        (cv2.erode(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))), distance)
        for d in (neck * 2 | 1, neck * 3 | 1)
    ]
    for cores, landscape in tries:
        cores = cv2.erode(cores, _OPEN)
        n, markers, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=4)
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.08 * expected]
        if len(big) < 2:
            continue
        seeds = np.zeros(region.shape, np.int32)
        for m, i in enumerate(big, 1):
            seeds[markers == i] = m
        seeds[cv2.dilate(region, _OPEN) == 0] = len(big) + 1  # the background
        cv2.watershed(cv2.cvtColor(255 - landscape.astype(np.uint8), cv2.COLOR_GRAY2BGR), seeds)
        own = np.where((seeds >= 1) & (seeds <= len(big)) & (region > 0), seeds, 0)
        # the blob's rim, which the background flooded: back to the part next to it
        for _grow in range(neck):
            free = (own == 0) & (region > 0)
            if not free.any():
                break
            grown = cv2.dilate(own.astype(np.uint8), _OPEN)  # ties go to the higher label
            own = np.where(free, grown, own)
        parts = []
        for m in range(1, len(big) + 1):
            part = (own == m).astype(np.uint8)
            cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            tile = (
                read_face(color, max(cs, key=cv2.contourArea) + np.array([x0, y0]), px_per_mm, cut=True)
                if cs
                else None
            )
            if tile is None or tile.value != color:
                parts = None
                break
            parts.append(tile)
        # every tile the blob holds must be among the parts: parts that leave much of it
        # out (or too few for its area) would lose a tile without a word
        if (
            parts
            and len(parts) >= round(blob_area / expected)
            and sum(float(cv2.contourArea(t.contour)) for t in parts) >= _PARTS_COVER * blob_area
        ):
            return parts
    return None


def read_face(color: str, contour: np.ndarray, px_per_mm: float, *, cut: bool = False) -> TileBlob | None:
    """A face outline of one colour: that colour's tile, "unknown", or None if it is a speck.
    `cut`: the face is a part split from a blob of the colour (its shape is less sure)."""
    expected = expected_area(color, px_per_mm)
    hull_area = float(cv2.contourArea(cv2.convexHull(contour)))
    ratio = hull_area / expected
    if ratio < 0.3:
        return None
    if ratio > _MERGED:  # tiles touching each other, or something that is no tile
        # how many: by the blob's own area (its hull also spans the gaps between tiles)
        return TileBlob(UNKNOWN, max(1, round(cv2.contourArea(contour) / expected)), 0.0, color, contour)
    f = features(contour)
    if f is None:
        return TileBlob(UNKNOWN, 1, 0.0, color, contour)
    shape, shape_confidence, distances = classify(f, px_per_mm)
    own = SHAPE_OF[color]
    size_confidence = max(0.0, 1.0 - abs(math.log(ratio)) / math.log(1.5)) ** 0.5
    solid_confidence = min(1.0, max(0.0, (f.solidity - 0.75) / 0.15))
    confidence = min(shape_confidence, size_confidence, solid_confidence)
    if shape == own and confidence >= MIN_CONFIDENCE:
        return TileBlob(color, 1, confidence, color, contour)
    # Small or blurred faces lose their corners: a hexagon then looks as round as a
    # circle. The colour still names the tile when the face is a tile's size, solid, and
    # close to its colour's own shape even if not closest to it.
    own_distance = float(distances[SHAPES.index(own)])
    # nearest to its own shape, though not by much (corners blurred alike): as plausible
    plausible = _PLAUSIBLE_CUT if cut or shape == own else _PLAUSIBLE
    if own_distance < plausible and min(size_confidence, solid_confidence) >= 0.7:
        closeness = 1.0 - own_distance / plausible
        return TileBlob(
            color, 1, 0.5 * min(size_confidence, solid_confidence) * (0.5 + 0.5 * closeness), color, contour
        )
    return TileBlob(UNKNOWN, 1, confidence if shape == own else 0.0, color, contour)
