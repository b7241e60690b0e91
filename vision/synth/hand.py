"""A hand and forearm reaching over the table, seen from above.

Drawn flat (a top-down silhouette with rounded shading) on a plane some cm
above the table, so it hides what lies under it and casts a soft shadow.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .designs import bgr
from .sprites import Sprite, make_sprite

SKIN_RGB = ((241, 194, 167), (224, 172, 135), (198, 134, 96), (141, 85, 54), (92, 56, 38))
SLEEVE_RGB = ((40, 44, 60), (150, 30, 40), (200, 200, 196), (60, 100, 70), (210, 160, 60), (90, 90, 96))
_PX_PER_MM = 2.0
# Local frame: wrist at the origin, fingers towards +x, the arm running off to -x.
_X0, _X1, _HALF_Y = -900.0, 170.0, 90.0
WRIST_TO_SPRITE_CENTRE_MM = (_X0 + _X1) / 2


def _capsule(mask: np.ndarray, a: tuple[float, float], b: tuple[float, float], width: float) -> None:
    s = _PX_PER_MM
    pa = (round((a[0] - _X0) * s), round((a[1] + _HALF_Y) * s))
    pb = (round((b[0] - _X0) * s), round((b[1] + _HALF_Y) * s))
    cv2.line(mask, pa, pb, 255, max(1, round(width * s)), cv2.LINE_AA)


@dataclass(frozen=True)
class HandSprite:
    """A hand of one shape in given colours. The shape is kept once per finger spread,
    as a sprite whose channels are the skin and sleeve shading (premultiplied, x255)
    and the alpha; a level is coloured when it is picked, which spares drawing (and
    keeping) a sprite for each of the 90 looks."""

    shape: Sprite
    tint: np.ndarray  # 4x4: shape channels -> premultiplied BGRA

    def level_for(self, needed_px_per_mm: float) -> tuple[np.ndarray, float]:
        level, scale = self.shape.level_for(needed_px_per_mm)
        return cv2.transform(level, self.tint), scale


def hand_sprite(skin: int, sleeve: int, spread: int) -> HandSprite:
    tint = np.zeros((4, 4), np.float32)
    tint[:3, 0] = np.float32(bgr(SKIN_RGB[skin])) / 255
    tint[:3, 1] = np.float32(bgr(SLEEVE_RGB[sleeve])) / 255
    tint[3, 3] = 1
    return HandSprite(_hand_shape(spread), tint)


@lru_cache(maxsize=3)
def _hand_shape(spread: int) -> Sprite:
    s = _PX_PER_MM
    w, h = round((_X1 - _X0) * s), round(2 * _HALF_Y * s)
    skin_mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(
        skin_mask,
        (round((48 - _X0) * s), round(_HALF_Y * s)),
        (round(50 * s), round(43 * s)),
        0,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    fan = 0.08 * spread
    for k, (y, length) in enumerate(((-27, 52), (-9, 66), (9, 62), (27, 48))):
        tip = (88 + length * np.cos(fan * (k - 1.5)), y + length * np.sin(fan * (k - 1.5)) * 1.2 + y * 0.15)
        _capsule(skin_mask, (82, y * 0.95), tip, 17.5 - 1.2 * abs(k - 1.5))
    _capsule(skin_mask, (25, 36), (68, 62 + 6 * spread), 21)
    _capsule(skin_mask, (-170, 0), (10, 0), 64)
    sleeve_mask = np.zeros((h, w), np.uint8)
    _capsule(sleeve_mask, (_X0 - 60, 0), (-150, 0), 86)
    _capsule(sleeve_mask, (_X0 - 60, 0), (-400, 0), 100)  # the upper arm widens
    mask = np.maximum(skin_mask, sleeve_mask)
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 5) / s
    shade = (0.62 + 0.38 * np.sqrt(np.clip(dist / 22.0, 0, 1))).astype(np.float32) * np.float32(255)
    is_sleeve = sleeve_mask > 127
    weights = np.zeros((h, w, 3), np.float32)
    weights[..., 0] = np.where(is_sleeve, 0, shade)
    weights[..., 1] = np.where(is_sleeve, shade, 0)
    return make_sprite(weights, mask.astype(np.float32) / 255, _PX_PER_MM, min_size=16)
