"""The storage tray: found as a round violet shape with bowl-shaped holes; the holes'
centres (the big one in the middle, the small ones round it) give the tray's plane,
and each bowl's floor is then rectified and its tiles counted by colour.

Small bowls are numbered 1-5 clockwise round the big bowl, starting from the one
nearest the bottom edge of the image; the big bowl is "big".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .colors import balance_gains, label_map
from .geometry import BIG_FLOOR_MM, SMALL_FLOOR_MM, SMALL_RING_MM, Plane, circle_polygon
from .tiles import UNKNOWN, TileBlob, colour_masks, read_faces, tile_strength

BIG = "big"
FLOOR_RGB = (216, 204, 234)
_PX_PER_MM = 3.0
_EDGE_MM = 2.0  # the floor's rim, left out: the bowl's wall and lip shade it


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
            if 0.015 * area < a < 0.3 * area and len(hole) >= 5:
                holes.append((a, hole))
            child = hierarchy[0][child][0]
        if len(holes) >= 4 and (best is None or len(holes) > len(best)):
            best = holes
    if best is None:
        return None
    best.sort(key=lambda t: -t[0])
    (big_area, big), small = best[0], best[1:6]
    if big_area < 1.8 * float(np.median([a for a, _ in small])):
        return None  # the big bowl is not among the holes (a hand over it): no sure plane
    centre_big = np.array(cv2.fitEllipse(big)[0])
    smalls = [np.array(cv2.fitEllipse(h)[0]) for a, h in small if a < 0.7 * big_area]
    if len(smalls) < 3:
        return None
    angles = [math.atan2(p[1] - centre_big[1], p[0] - centre_big[0]) for p in smalls]
    order = np.argsort(angles)
    a0 = angles[order[0]]
    model, seen = [(0.0, 0.0)], [centre_big]
    used = set()
    for j in order:
        step = round(((angles[j] - a0) % (2 * math.pi)) / (2 * math.pi / 5)) % 5
        if step in used:
            return None
        used.add(step)
        t = 2 * math.pi * step / 5
        model.append((SMALL_RING_MM * math.cos(t), SMALL_RING_MM * math.sin(t)))
        seen.append(smalls[j])
    h, _ = cv2.findHomography(np.float32(model), np.float32(seen) / scale, 0)
    if h is None:
        return None
    return Plane(h, image_size)


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


def read_bowls(frame: np.ndarray, tray: Plane, gains: np.ndarray | None) -> list[BowlReading]:
    bowls = bowl_centres_mm()
    centres = tray.to_image(np.array([(x, y) for x, y, _ in bowls]))
    big = centres[0]
    small = list(range(1, 6))
    first = max(small, key=lambda i: centres[i][1])
    a0 = math.atan2(centres[first][1] - big[1], centres[first][0] - big[0])
    small.sort(
        key=lambda i: (math.atan2(centres[i][1] - big[1], centres[i][0] - big[0]) - a0) % (2 * math.pi)
    )
    out = []
    for number, index in [(k + 1, i) for k, i in enumerate(small)] + [(BIG, 0)]:
        x, y, radius = bowls[index]
        out.append(_read_bowl(frame, tray, number, (x, y), radius=radius, centre=centres[index], gains=gains))
    return out


def _read_bowl(
    frame: np.ndarray,
    tray: Plane,
    number: int | str,
    at: tuple[float, float],
    *,
    radius: float,
    centre: np.ndarray,
    gains: np.ndarray | None,
) -> BowlReading:
    s = _PX_PER_MM
    half = radius + 3.0
    patch = tray.warp(frame, (at[0] - half, at[1] - half), (2 * half, 2 * half), s)
    n = patch.shape[0]
    floor = np.zeros(patch.shape[:2], np.uint8)
    cv2.circle(floor, (n // 2, n // 2), round((radius - _EDGE_MM) * s), 255, -1)
    outline = tray.to_image(circle_polygon(at[0], at[1], radius, 32))
    visible = floor.astype(bool) & (cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) > 0)
    if visible.sum() < 0.7 * floor.astype(bool).sum():
        return BowlReading(number, centre, outline, {}, 0, True, 0.0)
    own = balance_gains(patch[visible], FLOOR_RGB)
    labels, hsv = label_map(patch, own if gains is None else np.sqrt(own * gains), grow_pale=True)
    sweep = tray.sweep_mm(np.array(at)) * s
    blobs = read_faces(colour_masks(labels, hsv, s), tile_strength(hsv), s, sweep, floor)
    counts: dict[str, int] = {}
    unknown, confidence = 0, 1.0
    for blob in blobs:
        if blob.value == UNKNOWN:
            unknown += blob.count
        else:
            counts[blob.value] = counts.get(blob.value, 0) + 1
            confidence = min(confidence, blob.confidence)
    tiles = (labels > 0).astype(np.uint8)
    # a hand or a sleeve over the floor: what it hides cannot be counted
    near_tiles = cv2.dilate(tiles, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    sat, val = hsv[..., 1], hsv[..., 2]
    strange = visible & (near_tiles == 0) & (labels == 0) & ((sat >= 80) | (val < 40))
    occluded = bool(strange.sum() > 0.03 * visible.sum()) or visible.sum() < floor.astype(bool).sum() * 0.98
    if occluded:
        confidence = min(confidence, 0.5)
    return BowlReading(number, centre, outline, counts, unknown, occluded, confidence, blobs)
