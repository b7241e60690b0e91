"""Factory displays and the centre pile.

A factory is a round disc whose blue sunburst (about 59 mm across) shows round the
tiles lying on it; the discs' blue blobs are found in the frame, each disc is looked
at from straight above through the table plane (known from the boards), and its
tiles are read as the 1 x 1 to 2 x 2 block of tile-sized places they form.
The centre pile is whatever is not table inside the ring of discs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import color
from .boards import BOARD_H_MM, BOARD_W_MM, BoardFind, blue_mask
from .color import COLORS, MARKER, UNKNOWN, WhiteBalance
from .geometry import apply_h, clockwise_from_bottom

SUNBURST_RADIUS_MM = 29.5
DISC_RADIUS_MM = 45.0
TILE_MM = 20.0
_PATCH_PX_PER_MM = 2.0

_EMPTY_DISC = [color._mix(print_blue=0.5, print_light=0.4, navy=0.1),
               color._mix(print_light=0.6, print_blue=0.3, blue=0.1),
               color._mix(print_blue=0.6, navy=0.3, print_light=0.1)]
# Indexed by word (-1, glare, is the last entry): is this word the disc's own print or glare?
_NOT_TILE = np.zeros(len(color.WORD_NAMES) + 1, bool)
_NOT_TILE[[color._W[w] for w in color.DISC_PRINT_WORDS] + [-1]] = True


@dataclass(frozen=True)
class FactoryReading:
    center: np.ndarray
    radius: float  # image px, for drawing
    tiles: list[str]
    unknown: int
    confidence: float
    tile_points: list = field(default_factory=list)
    slot_values: list = field(default_factory=list)

    def as_json(self) -> dict:
        return {"center": [round(float(v)) for v in self.center], "tiles": self.tiles,
                "unknown": self.unknown, "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class CenterReading:
    tiles: dict[str, int]
    marker: bool
    unknown: int
    tile_points: list = field(default_factory=list)
    values: list = field(default_factory=list)

    def as_json(self) -> dict:
        return {"tiles": dict(self.tiles), "marker": self.marker, "unknown": self.unknown}


@dataclass(frozen=True)
class _Plane:
    """The table plane in one board's millimetres."""

    h: np.ndarray  # plane mm -> image px
    inv: np.ndarray

    def to_plane(self, pts: np.ndarray) -> np.ndarray:
        return apply_h(self.inv, pts)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return apply_h(self.h, pts)

    def patch(self, frame: np.ndarray, center_mm: np.ndarray, half_mm: float, wb: WhiteBalance,
              ppm: float = _PATCH_PX_PER_MM) -> np.ndarray:
        n = round(2 * half_mm * ppm)
        to_plane = np.array([[1 / ppm, 0, center_mm[0] - half_mm],
                             [0, 1 / ppm, center_mm[1] - half_mm], [0, 0, 1]])
        m = self.h @ to_plane
        out = cv2.warpPerspective(frame, np.linalg.inv(m), (n, n), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        return wb.apply(out)


def _plane_for(boards: list[BoardFind], point: np.ndarray) -> _Plane:
    nearest = min(boards, key=lambda b: float(np.linalg.norm(b.center - point)))
    return _Plane(nearest.board_h, np.linalg.inv(nearest.board_h))


def read_factories(frame: np.ndarray, small: np.ndarray, scale: float, wb: WhiteBalance,
                   boards: list[BoardFind]) -> tuple[list[FactoryReading], CenterReading | None]:
    if not boards:
        return [], None
    mask = blue_mask(small)
    for b in boards:
        m = 8.0
        corners = apply_h(b.board_h, [[-m, -m], [BOARD_W_MM + m, -m], [BOARD_W_MM + m, BOARD_H_MM + m],
                                      [-m, BOARD_H_MM + m]]) * scale
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 0)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    plane = _plane_for(boards, np.array([frame.shape[1] / 2, frame.shape[0] / 2]))
    blobs = []
    for i in range(1, n):
        c_img = cents[i] / scale
        c_mm = plane.to_plane([c_img])[0]
        ppm = _local_ppm(plane, c_mm)
        area_mm = stats[i, cv2.CC_STAT_AREA] / (scale * ppm) ** 2
        if 40 < area_mm < 3600:
            blobs.append((c_mm, area_mm, i))
    # Tiles split a sunburst's blue into several blobs: group blobs of one disc.
    groups: list[list[tuple]] = []
    for blob in sorted(blobs, key=lambda t: -t[1]):
        for g in groups:
            if np.linalg.norm(g[0][0] - blob[0]) < 2 * SUNBURST_RADIUS_MM + 4:
                g.append(blob)
                break
        else:
            groups.append([blob])
    factories = []
    for g in groups:
        total = sum(b[1] for b in g)
        if total < 300:
            continue
        pts = np.column_stack(np.nonzero(np.isin(labels, [b[2] for b in g])))[:, ::-1].astype(np.float32)
        (cx, cy), _ = cv2.minEnclosingCircle(pts)
        c_img = np.array([cx, cy]) / scale
        reading = _read_disc(frame, plane, plane.to_plane([c_img])[0], wb)
        if reading is not None:
            factories.append(reading)
    if factories:
        middle = np.mean([f.center for f in factories], axis=0)
        factories = [factories[i] for i in clockwise_from_bottom([f.center for f in factories], middle)]
    center = _read_center(frame, plane, factories, wb) if len(factories) >= 3 else None
    return factories, center


def _local_ppm(plane: _Plane, p_mm: np.ndarray) -> float:
    q = plane.to_image([p_mm, p_mm + np.array([10.0, 0.0]), p_mm + np.array([0.0, 10.0])])
    a, b = q[1] - q[0], q[2] - q[0]
    return float(math.sqrt(abs(a[0] * b[1] - a[1] * b[0])) / 10)


def _radius_grid(n: int, ppm: float) -> np.ndarray:
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    return np.hypot(xx + 0.5 - n / 2, yy + 0.5 - n / 2) / ppm


def _read_disc(frame: np.ndarray, plane: _Plane, c_mm: np.ndarray, wb: WhiteBalance) -> FactoryReading | None:
    ppm = _PATCH_PX_PER_MM
    half = DISC_RADIUS_MM + 5
    patch = plane.patch(frame, c_mm, half, wb, ppm)
    n = patch.shape[0]
    r = _radius_grid(n, ppm)
    blue = blue_mask(np.clip(patch, 0, 255).astype(np.uint8)) > 0
    inner = blue[r < SUNBURST_RADIUS_MM - 1].mean()
    ring = blue[(r > SUNBURST_RADIUS_MM + 3) & (r < DISC_RADIUS_MM - 2)].mean()
    if inner < 0.12 or ring > 0.25:
        return None
    # A disc, not a blue thing on the table: a cream ring round the sunburst and an
    # orange-brown rim round that.
    hsv = cv2.cvtColor(np.clip(patch, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0].astype(int), hsv[..., 1].astype(int), hsv[..., 2].astype(int)
    ring_zone = (r > SUNBURST_RADIUS_MM + 2) & (r < 39)
    rim_zone = (r > 41) & (r < 44)
    cream = ((sat < 90) & (val > 120))[ring_zone].mean()
    brown = ((hue >= 3) & (hue <= 22) & (sat > 90) & (val > 50) & (val < 235))[rim_zone].mean()
    if cream < 0.35 or brown < 0.35:
        return None
    words = color.word_indices(patch.reshape(-1, 3)).reshape(n, n)
    tile_px = (r < SUNBURST_RADIUS_MM - 1) & ~_NOT_TILE[words]
    tile_px = cv2.morphologyEx(tile_px.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    slots: list[np.ndarray] = []
    if tile_px.sum() > 0.25 * (TILE_MM * ppm) ** 2:
        ys, xs = np.nonzero(tile_px)
        (bx, by), (bw, bh), angle = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        a = math.radians(angle)
        u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        nu = 2 if bw / ppm > 1.6 * TILE_MM else 1
        nv = 2 if bh / ppm > 1.6 * TILE_MM else 1
        for i in range(nu):
            for j in range(nv):
                du = (i - (nu - 1) / 2) * bw / nu
                dv = (j - (nv - 1) / 2) * bh / nv
                slots.append(np.array([bx, by]) + du * u + dv * v)
    half_win = max(2, round(0.3 * TILE_MM * ppm))
    values, confs = [], []
    cands = {None: _EMPTY_DISC, **{c: color.TILE_MIXES[c] for c in COLORS}}
    for s in slots:
        x0, y0 = round(s[0]) - half_win, round(s[1]) - half_win
        win = words[max(0, y0):y0 + 2 * half_win, max(0, x0):x0 + 2 * half_win].ravel()
        hist = np.bincount(win[win >= 0], minlength=len(color.WORD_NAMES)).astype(np.float64)
        rd = color.classify(hist, float((win < 0).sum()), cands)
        values.append(rd.value)
        confs.append(rd.confidence)
    tiles = [v for v in values if v not in (None, UNKNOWN)]
    unknown = sum(v == UNKNOWN for v in values)
    to_mm = np.array([[1 / ppm, 0, c_mm[0] - half], [0, 1 / ppm, c_mm[1] - half], [0, 0, 1]])
    slot_img = [plane.to_image(apply_h(to_mm, [s]))[0] for s in slots]
    center_img = plane.to_image([c_mm])[0]
    radius_img = DISC_RADIUS_MM * _local_ppm(plane, c_mm)
    confidence = float(min([1.0] + [c for v, c in zip(values, confs, strict=True) if v != UNKNOWN]))
    shown = [v if v is not None else None for v in values]
    return FactoryReading(center_img, radius_img, tiles, unknown, confidence, slot_img, shown)


def _read_center(frame: np.ndarray, plane: _Plane, factories: list[FactoryReading],
                 wb: WhiteBalance) -> CenterReading:
    centers_mm = plane.to_plane(np.array([f.center for f in factories]))
    middle = centers_mm.mean(axis=0)
    radius = float(np.linalg.norm(centers_mm - middle, axis=1).min()) - DISC_RADIUS_MM - 3
    if radius < 2 * TILE_MM:
        return CenterReading({}, False, 0)
    ppm = _PATCH_PX_PER_MM
    patch = plane.patch(frame, middle, radius, wb, ppm)
    n = patch.shape[0]
    inside = _radius_grid(n, ppm) < radius
    lab = cv2.cvtColor(np.clip(patch / 255.0, 0, 1).astype(np.float32), cv2.COLOR_BGR2Lab)
    table = np.median(lab[inside], axis=0)
    dist = np.linalg.norm((lab - table) * [0.5, 1, 1], axis=2)
    fg = ((dist > 14) & inside).astype(np.uint8)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fg)
    tile_area = (TILE_MM * ppm) ** 2 * 1.2
    words = None
    tiles: dict[str, int] = {}
    marker, unknown = False, 0
    points, values = [], []
    cands = {c: color.TILE_MIXES[c] for c in COLORS}
    cands[MARKER] = color.TILE_MIXES[MARKER]
    to_mm = np.array([[1 / ppm, 0, middle[0] - radius], [0, 1 / ppm, middle[1] - radius], [0, 0, 1]])
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < 0.3 * tile_area:
            continue
        if words is None:
            words = color.word_indices(patch.reshape(-1, 3)).reshape(n, n)
        x, y, bw, bh = stats[i, :4]
        ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == i)
        xs, ys = xs + x, ys + y
        k = max(1, round(area / tile_area))
        pts = np.column_stack([xs, ys]).astype(np.float32)
        if k > 1 and len(pts) > k:
            crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
            _, assign, centers = cv2.kmeans(pts, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
            assign = assign.ravel()
        else:
            assign, centers = np.zeros(len(pts), int), pts.mean(axis=0, keepdims=True)
        for j, cpt in enumerate(centers):
            half_win = round(0.3 * TILE_MM * ppm)
            x0, y0 = round(cpt[0]) - half_win, round(cpt[1]) - half_win
            win = words[max(0, y0):y0 + 2 * half_win, max(0, x0):x0 + 2 * half_win].ravel()
            if (assign == j).sum() == 0 or win.size == 0:
                continue
            hist = np.bincount(win[win >= 0], minlength=len(color.WORD_NAMES)).astype(np.float64)
            rd = color.classify(hist, float((win < 0).sum()), cands)
            if rd.value == UNKNOWN:
                unknown += 1
            elif rd.value == MARKER:
                marker = True
            elif rd.value is not None:
                tiles[rd.value] = tiles.get(rd.value, 0) + 1
            points.append(plane.to_image(apply_h(to_mm, [cpt]))[0])
            values.append(rd.value)
    return CenterReading(dict(sorted(tiles.items())), marker, unknown, points, values)
