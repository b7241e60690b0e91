"""Drawing primitives on a float32 BGR frame: warped sprites, polygons, shadows.

Everything works on the smallest region of interest so that a frame with a
hundred tiles stays cheap.
"""

from __future__ import annotations

import math
import threading

import cv2
import numpy as np

from .sprites import LazySprite, Sprite, unpack

_SHIFT = 4  # sub-pixel bits for polygon drawing
_scratch = threading.local()


def scratch(role: str, shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
    """An uninitialised work array, reused from one frame to the next: one buffer per
    role and thread, grown as needed. Fresh frame-sized arrays cost the kernel a page
    fault per 4 kB on first touch, which at 4000 x 3000 is a good share of a frame."""
    buffers = _scratch.__dict__
    size = math.prod(shape)
    buf = buffers.get(role)
    if buf is None or buf.dtype != dtype or buf.size < size:
        buf = buffers[role] = np.empty(size, dtype)
    return buf[:size].reshape(shape)


_ONE = 1 << _SHIFT


def roi_of(points: np.ndarray, width: int, height: int, pad: int = 2) -> tuple[int, int, int, int] | None:
    p = np.asarray(points, np.float64).reshape(-1, 2)
    lo, hi = p.min(axis=0), p.max(axis=0)
    if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
        return None
    x0 = max(0, math.floor(lo[0]) - pad)
    y0 = max(0, math.floor(lo[1]) - pad)
    x1 = min(width, math.ceil(hi[0]) + pad + 1)
    y1 = min(height, math.ceil(hi[1]) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def polygon_mask(points: np.ndarray, roi: tuple[int, int, int, int]) -> np.ndarray:
    """Anti-aliased coverage (float32 0..1) of a polygon inside a region of interest."""
    x0, y0, x1, y1 = roi
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round((np.asarray(points, np.float64).reshape(-1, 2) - (x0, y0)) * _ONE).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, shift=_SHIFT)
    return mask.astype(np.float32) * (1 / 255)


def fill_polygon(
    frame: np.ndarray, points: np.ndarray, color: tuple[float, ...] | np.ndarray, opacity: float = 1.0
) -> None:
    h, w = frame.shape[:2]
    roi = roi_of(points, w, h)
    if roi is None:
        return
    a = polygon_mask(points, roi)
    if opacity != 1.0:
        a *= np.float32(opacity)
    x0, y0, x1, y1 = roi
    region = frame[y0:y1, x0:x1]
    region += weighted(cv2.subtract(cv_scalar(color), region), a)


def warp_layer(
    sprite_img: np.ndarray, H: np.ndarray, width: int, height: int
) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Warp a premultiplied BGRA image (a sprite level, packed or float32) by H
    (sprite px -> frame px) into its own ROI, as float32."""
    sh, sw = sprite_img.shape[:2]
    corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], np.float64) @ H.T
    if (corners[:, 2] <= 0).any():
        return None
    roi = roi_of(corners[:, :2] / corners[:, 2:3], width, height)
    if roi is None:
        return None
    x0, y0, x1, y1 = roi
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    layer = cv2.warpPerspective(
        sprite_img,
        shift @ H,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    return roi, unpack(layer)


def blend_layer(frame: np.ndarray, roi: tuple[int, int, int, int], layer: np.ndarray) -> None:
    x0, y0, x1, y1 = roi
    region = frame[y0:y1, x0:x1]
    region *= cv2.cvtColor(np.subtract(np.float32(1), layer[..., 3]), cv2.COLOR_GRAY2BGR)
    region += cv2.cvtColor(layer, cv2.COLOR_BGRA2BGR)


def cv_scalar(color: tuple[float, ...] | np.ndarray) -> tuple[float, float, float, float]:
    """A BGR colour as an OpenCV scalar (float32-rounded, as numpy would use it)."""
    b, g, r = (float(c) for c in np.asarray(color, np.float32))
    return (b, g, r, 0.0)


def weighted(image: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """image (h, w, 3) times a per-pixel weight (h, w), in place. OpenCV's channel
    expansion beats numpy broadcasting over a last axis of 3 several times."""
    image *= cv2.cvtColor(weight, cv2.COLOR_GRAY2BGR)
    return image


def sprite_homography(
    H_plane: np.ndarray, pose: np.ndarray, px_per_mm: float, size_px: tuple[int, int]
) -> np.ndarray:
    """H from sprite pixels to the frame: sprite centred on the object's origin,
    `pose` (3x3) places object mm on the table plane, H_plane maps that plane to the frame."""
    w, h = size_px
    to_mm = np.array(
        [[1 / px_per_mm, 0, -w / (2 * px_per_mm)], [0, 1 / px_per_mm, -h / (2 * px_per_mm)], [0, 0, 1]]
    )
    return H_plane @ pose @ to_mm


def draw_sprite(
    frame: np.ndarray,
    sprite: Sprite | LazySprite,
    H_plane: np.ndarray,
    pose: np.ndarray,
    needed_px_per_mm: float,
) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Warp the right pyramid level of a sprite onto the frame; returns its ROI and layer."""
    img, scale = sprite.level_for(needed_px_per_mm)
    H = sprite_homography(H_plane, pose, scale, (img.shape[1], img.shape[0]))
    h, w = frame.shape[:2]
    warped = warp_layer(img, H, w, h)
    if warped is None:
        return None
    blend_layer(frame, *warped)
    return warped


def pose_matrix(x: float, y: float, angle_deg: float) -> np.ndarray:
    """Object mm -> table mm: rotate clockwise (image sense, y down) then translate."""
    a = np.radians(angle_deg)
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, x], [s, c, y], [0, 0, 1.0]])


_BAND = 32  # frame rows darkened at a time
_GAP = 48  # columns without shadow worth skipping


def _runs(on: np.ndarray) -> list[tuple[int, int]]:
    """Index ranges where `on` is true, joining those less than _GAP apart."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], on, [False]]).astype(np.int8)))
    runs: list[tuple[int, int]] = []
    for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
        if runs and start - runs[-1][1] < _GAP:
            runs[-1] = (runs[-1][0], stop)
        else:
            runs.append((start, stop))
    return runs


class ShadowLayer:
    """Soft shadows gathered at half resolution, then multiplied into the frame."""

    def __init__(self, width: int, height: int) -> None:
        self.scale = 0.5
        self.mask = np.zeros(
            (max(1, round(height * self.scale)), max(1, round(width * self.scale))), np.float32
        )
        self.box = [self.mask.shape[1], self.mask.shape[0], 0, 0]  # bounds of what was drawn

    @property
    def used(self) -> bool:
        return self.box[2] > self.box[0]

    def _grow(self, roi: tuple[int, int, int, int]) -> None:
        b = self.box
        self.box = [min(b[0], roi[0]), min(b[1], roi[1]), max(b[2], roi[2]), max(b[3], roi[3])]

    def add(self, points: np.ndarray, strength: float) -> None:
        pts = np.asarray(points, np.float64).reshape(-1, 2) * self.scale
        if not np.isfinite(pts).all():
            return
        hull = cv2.convexHull(np.round(pts * _ONE).astype(np.int32))
        layer_value = float(strength)
        roi = roi_of(pts, self.mask.shape[1], self.mask.shape[0])
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        local = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(local, hull - np.int32([x0 * _ONE, y0 * _ONE]), 255, cv2.LINE_AA, shift=_SHIFT)
        region = self.mask[y0:y1, x0:x1]
        np.maximum(region, local.astype(np.float32) * (layer_value / 255), out=region)
        self._grow(roi)

    def apply(self, frame: np.ndarray, blur_px: float) -> None:
        if not self.used:
            return
        sigma = max(0.3, blur_px * self.scale)
        pad = int(3 * sigma) + 2
        mh, mw = self.mask.shape
        x0, y0 = max(0, self.box[0] - pad), max(0, self.box[1] - pad)
        x1, y1 = min(mw, self.box[2] + pad), min(mh, self.box[3] + pad)
        soft = cv2.GaussianBlur(self.mask[y0:y1, x0:x1], (0, 0), sigma)
        h, w = frame.shape[:2]
        fx0, fy0 = int(x0 / self.scale), int(y0 / self.scale)
        fx1, fy1 = min(w, int(np.ceil(x1 / self.scale))), min(h, int(np.ceil(y1 / self.scale)))
        # map frame pixel centres onto the half-resolution mask
        full = scratch("shadow", (fy1 - fy0, fx1 - fx0))
        cv2.resize(soft, (fx1 - fx0, fy1 - fy0), dst=full, interpolation=cv2.INTER_LINEAR)
        np.subtract(np.float32(1), full, out=full)
        # shadows are sparse: darken only the runs of columns, band by band, where
        # there is any (elsewhere the factor is exactly 1)
        for r0 in range(0, full.shape[0], _BAND):
            light = full[r0 : r0 + _BAND]
            for c0, c1 in _runs(cv2.reduce(light, 0, cv2.REDUCE_MIN)[0] < 1):
                weighted(frame[fy0 + r0 : fy0 + r0 + light.shape[0], fx0 + c0 : fx0 + c1], light[:, c0:c1])

    def add_warped(self, sprite_img: np.ndarray, H: np.ndarray, strength: float) -> None:
        """Add the alpha of a sprite warped by H (sprite px -> full-resolution frame px)."""
        half = np.diag([self.scale, self.scale, 1.0]) @ H
        warped = warp_layer(sprite_img, half, self.mask.shape[1], self.mask.shape[0])
        if warped is None:
            return
        (x0, y0, x1, y1), layer = warped
        region = self.mask[y0:y1, x0:x1]
        np.maximum(region, layer[..., 3] * strength, out=region)
        self._grow((x0, y0, x1, y1))
