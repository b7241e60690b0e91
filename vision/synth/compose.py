"""Drawing primitives on a float32 BGR frame: warped sprites, polygons, shadows.

Everything works on the smallest region of interest so that a frame with a
hundred tiles stays cheap.
"""

from __future__ import annotations

import cv2
import numpy as np

from .sprites import Sprite

_SHIFT = 4  # sub-pixel bits for polygon drawing
_ONE = 1 << _SHIFT


def roi_of(points: np.ndarray, width: int, height: int, pad: int = 2) -> tuple[int, int, int, int] | None:
    p = np.asarray(points, np.float64).reshape(-1, 2)
    if not np.isfinite(p).all():
        return None
    x0 = max(0, int(np.floor(p[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(p[:, 1].min())) - pad)
    x1 = min(width, int(np.ceil(p[:, 0].max())) + pad + 1)
    y1 = min(height, int(np.ceil(p[:, 1].max())) + pad + 1)
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
    a = (polygon_mask(points, roi) * opacity)[..., None]
    x0, y0, x1, y1 = roi
    region = frame[y0:y1, x0:x1]
    region += (np.asarray(color, np.float32) - region) * a


def warp_layer(
    sprite_img: np.ndarray, H: np.ndarray, width: int, height: int
) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Warp a premultiplied BGRA image by H (sprite px -> frame px) into its own ROI."""
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
    return roi, layer


def blend_layer(frame: np.ndarray, roi: tuple[int, int, int, int], layer: np.ndarray) -> None:
    x0, y0, x1, y1 = roi
    region = frame[y0:y1, x0:x1]
    region *= 1 - layer[..., 3:4]
    region += layer[..., :3]


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
    frame: np.ndarray, sprite: Sprite, H_plane: np.ndarray, pose: np.ndarray, needed_px_per_mm: float
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
        full = cv2.resize(soft, (fx1 - fx0, fy1 - fy0), interpolation=cv2.INTER_LINEAR)
        frame[fy0:fy1, fx0:fx1] *= (1 - full)[..., None]

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
