"""Finding player boards: the blue ornamental frame round a cream panel.

Stages, each on the physical board rather than on any one picture of it:
1. blue-frame regions in a white-balanced, downscaled frame; a quadrilateral fitted
   to each region's outline (perspective allowed);
2. which side is up: the blue strip between the score track and the panel lies
   about 30% of the way down from the owner's top edge;
3. the panel's edges found in a rectified board, so cells are sampled in the
   measured 900 x 600 panel crop (real-table.md) and not on a guessed offset.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .color import WhiteBalance
from .geometry import apply_h, fit_quad, order_clockwise, rect_homography

BOARD_W_MM = 260.0
BOARD_H_MM = 250.0
# The lower panel as a prior (mm from the board's top-left); its edges are then measured.
PANEL_BOX_MM = (8.5, 80.0, 251.5, 242.0)
PANEL_W_PX, PANEL_H_PX = 900, 600  # the measured crop

_ORIENT_PX_PER_MM = 0.5
_REFINE_PX_PER_MM = 2.0


@dataclass(frozen=True)
class BoardFind:
    """A board located in the frame: homographies into full-resolution image pixels."""

    quad: np.ndarray  # 4 corners, image px: the owner's top-left, top-right, bottom-right, bottom-left
    board_h: np.ndarray  # board mm -> image px
    panel_h: np.ndarray  # panel crop px (900 x 600) -> image px
    rotation: int  # degrees clockwise from upright, in the image
    confidence: float

    @property
    def center(self) -> np.ndarray:
        return apply_h(self.board_h, [[BOARD_W_MM / 2, BOARD_H_MM / 2]])[0]


def blue_mask(bgr: np.ndarray) -> np.ndarray:
    """The boards' blue print (and anything of that hue) in a white-balanced image."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    return ((h >= 94) & (h <= 128) & (s >= 70) & (v >= 45)).astype(np.uint8) * 255


def find_boards(small: np.ndarray, scale: float, full: np.ndarray, wb: WhiteBalance) -> list[BoardFind]:
    """Boards in `small` (the white-balanced frame reduced by `scale`); homographies are
    returned for `full`, the original frame."""
    mask = blue_mask(small)
    k = max(3, round(3 * small.shape[1] / 960)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area_img = small.shape[0] * small.shape[1]
    found: list[BoardFind] = []
    for contour in contours:
        hull_area = cv2.contourArea(cv2.convexHull(contour))
        if hull_area < max(600.0, 0.002 * area_img) or hull_area > 0.5 * area_img:
            continue
        quad = fit_quad(contour)
        if quad is None:
            continue
        # A board cut by the frame's edge gives a quad of its visible part only; reading
        # that would be guessing, so it is left out (not seen) rather than misread.
        x, y, bw, bh = cv2.boundingRect(contour)
        if x <= 1 or y <= 1 or x + bw >= small.shape[1] - 1 or y + bh >= small.shape[0] - 1:
            continue
        qarea = cv2.contourArea(quad.astype(np.float32))
        if qarea <= 0 or hull_area / qarea < 0.85 or not cv2.isContourConvex(quad.astype(np.float32)):
            continue
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        if sides.min() / sides.max() < 0.35:
            continue
        board = _orient_and_refine(small, quad, scale, full, wb)
        if board is not None:
            found.append(board)
    return found


def _orient(small: np.ndarray, quad: np.ndarray) -> tuple[int, float] | None:
    """Which quad side is the owner's top: index k such that quad rolled by k starts at
    the owner's top-left; and how clearly the panel sits low."""
    n = 128
    h = rect_homography(quad, n, n)
    square = cv2.warpPerspective(small, np.linalg.inv(h), (n, n), flags=cv2.INTER_LINEAR)
    blue = blue_mask(square) > 0
    border = np.concatenate([blue[:4].ravel(), blue[-4:].ravel(), blue[:, :4].ravel(), blue[:, -4:].ravel()])
    if border.mean() < 0.55:  # not framed in blue all round
        return None
    # The blue strip between the score track and the panel runs across the board about
    # 30% of the way down from the owner's top; nothing like it lies 30% up from the bottom.
    depth = (PANEL_BOX_MM[1] - 5.0) / BOARD_H_MM
    lo, hi = round((depth - 0.1) * n), round((depth + 0.08) * n)
    inner = slice(round(0.1 * n), round(0.9 * n))
    bands = [blue[lo:hi, inner].mean(axis=1).max(),  # the square's top side is the owner's top
             blue[inner, n - hi:n - lo].mean(axis=0).max(),  # right side
             blue[n - hi:n - lo, inner].mean(axis=1).max(),  # bottom side
             blue[inner, lo:hi].mean(axis=0).max()]  # left side
    order = np.argsort(bands)[::-1]
    best, second = bands[order[0]], bands[order[1]]
    if best < 0.6:
        return None
    # Owner's top on the square's side j: the owner's top-left corner is quad[j]
    # (top: q0; right: q1; bottom: q2; left: q3).
    k = int(order[0])
    clarity = float(np.clip((best - second) / 0.4, 0, 1))
    return k, float(clarity)


def _edge(profile: np.ndarray, lo: int, hi: int, rising: bool, hold: int = 8) -> float | None:
    """Position in [lo, hi) where a non-blue fraction profile crosses 0.5 into (rising)
    or out of (falling) a stretch that stays non-blue for `hold` samples: thin cream
    lines printed on the frame do not count as the panel's edge."""
    lo, hi = max(0, lo), min(len(profile), hi)
    seg = profile[lo:hi]
    if len(seg) < 3:
        return None
    above = seg >= 0.5
    if rising:
        idx = [i for i in np.nonzero(~above[:-1] & above[1:])[0]
               if profile[lo + i + 1:lo + i + 1 + hold].mean() >= 0.7]
    else:
        idx = [i for i in np.nonzero(above[:-1] & ~above[1:])[0]
               if profile[max(0, lo + i + 1 - hold):lo + i + 1].mean() >= 0.7]
    if not idx:
        return None
    i = idx[0] if rising else idx[-1]
    a, b = seg[i], seg[i + 1]
    return lo + i + (0.5 - a) / (b - a + 1e-9) + 0.5


def _looks_like_board(rect: np.ndarray, s: float) -> bool:
    """The score track's cream squares and the panel's cream background are there (a
    factory's sunburst, a blue mat or a cup fitted as a quad has neither)."""
    hsv = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)
    light = (hsv[..., 1] < 90) & (hsv[..., 2] > 0.55 * np.percentile(hsv[..., 2], 95))
    track = light[round(12 * s):round(68 * s), round(14 * s):round(246 * s)].mean()
    panel = light[round((PANEL_BOX_MM[1] + 30) * s):round((PANEL_BOX_MM[1] + 72) * s),
                  round((PANEL_BOX_MM[0] + 4) * s):round((PANEL_BOX_MM[0] + 45) * s)].mean()
    return bool(track > 0.35 and panel > 0.45)


def _orient_and_refine(small: np.ndarray, quad_small: np.ndarray, scale: float, full: np.ndarray,
                       wb: WhiteBalance) -> BoardFind | None:
    oriented = _orient(small, quad_small)
    if oriented is None:
        return None
    k, clarity = oriented
    quad = np.roll(order_clockwise(quad_small), -k, axis=0) / scale
    # The quad's long/short sides tell the board's 260 x 250 mm only roughly; rely on the panel.
    board_h = rect_homography(quad, BOARD_W_MM, BOARD_H_MM)
    s = _REFINE_PX_PER_MM
    to_img = board_h @ np.diag([1 / s, 1 / s, 1.0])
    w, h = round(BOARD_W_MM * s), round(BOARD_H_MM * s)
    rect = cv2.warpPerspective(full, np.linalg.inv(to_img), (w, h), flags=cv2.INTER_LINEAR)
    rect = wb.apply(rect).astype(np.uint8)
    body = (blue_mask(rect) == 0).astype(np.float32)
    if not _looks_like_board(rect, s):
        return None
    x0, y0, x1, y1 = (v * s for v in PANEL_BOX_MM)
    win = round(14 * s)
    # Each edge measured in two bands, so a perspective error in the quad is corrected too.
    def band(lo: float, hi: float) -> slice:
        return slice(round(lo), round(hi))

    ya, yb = band(y0 + 25 * s, y0 + 70 * s), band(y1 - 70 * s, y1 - 35 * s)
    xa, xb = band(x0 + 30 * s, x0 + 100 * s), band(x0 + 110 * s, x0 + 160 * s)
    left = [_edge(body[r].mean(axis=0), round(x0) - win, round(x0) + win, True) for r in (ya, yb)]
    right = [_edge(body[r].mean(axis=0), round(x1) - win, round(x1) + win, False) for r in (ya, yb)]
    top = [_edge(body[:, c].mean(axis=1), round(y0) - win, round(y0) + win, True) for c in (xa, xb)]
    bottom = [_edge(body[:, c].mean(axis=1), round(y1) - win, round(y1) + win, False) for c in (xa, xb)]
    found = [v for v in (*left, *right, *top, *bottom) if v is not None]
    measured = len(found)
    mid_ya, mid_yb = (ya.start + ya.stop) / 2, (yb.start + yb.stop) / 2
    mid_xa, mid_xb = (xa.start + xa.stop) / 2, (xb.start + xb.stop) / 2

    def pick(vals: list[float | None], prior: float) -> tuple[float, float]:
        a, b = vals
        a = prior if a is None else a
        b = prior if b is None else b
        return a, b

    la, lb = pick(left, x0)
    ra, rb = pick(right, x1)
    ta, tb = pick(top, y0)
    ba, bb = pick(bottom, y1)

    def line_x(xa_: float, xb_: float, y: float) -> float:  # x of a near-vertical edge at row y
        return xa_ + (xb_ - xa_) * (y - mid_ya) / (mid_yb - mid_ya)

    def line_y(ya_: float, yb_: float, x: float) -> float:
        return ya_ + (yb_ - ya_) * (x - mid_xa) / (mid_xb - mid_xa)

    corners = []
    for ux, uy in ((0, 0), (1, 0), (1, 1), (0, 1)):
        # Intersect the two edges by a few fixed-point steps (they are nearly axis-aligned).
        y = y0 if uy == 0 else y1
        for _ in range(3):
            x = line_x(la, lb, y) if ux == 0 else line_x(ra, rb, y)
            y = line_y(ta, tb, x) if uy == 0 else line_y(ba, bb, x)
        corners.append((x / s, y / s))
    corners_mm = np.array(corners)
    pw = np.linalg.norm(corners_mm[1] - corners_mm[0])
    ph = np.linalg.norm(corners_mm[3] - corners_mm[0])
    pw /= PANEL_BOX_MM[2] - PANEL_BOX_MM[0]
    ph /= PANEL_BOX_MM[3] - PANEL_BOX_MM[1]
    if not (0.85 < pw < 1.15 and 0.85 < ph < 1.15):
        return None
    panel_quad_img = apply_h(board_h, corners_mm)
    panel_h = rect_homography(panel_quad_img, PANEL_W_PX, PANEL_H_PX)
    up = apply_h(board_h, [[BOARD_W_MM / 2, 0]])[0] - apply_h(board_h, [[BOARD_W_MM / 2, BOARD_H_MM / 2]])[0]
    angle = np.degrees(np.arctan2(up[0], -up[1]))
    rotation = round(angle / 90.0) % 4 * 90
    confidence = clarity * (0.6 + 0.4 * measured / 8)
    return BoardFind(quad, board_h, panel_h, rotation, float(confidence))
