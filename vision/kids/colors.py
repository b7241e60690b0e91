"""Kids tile colours under real light: a white balance from a known light print, then
each pixel put in one of the four tile classes by hue, or in none.

The four colours sit far apart in hue (red ~179, yellow ~22, green ~66, blue ~105 on
OpenCV's 0-179 scale); the gaps between the classes are left out on purpose, so that
skin, wood, shadows and anti-aliased edges fall in no class rather than in a wrong one.
"""

from __future__ import annotations

import cv2
import numpy as np

COLORS = ("red", "yellow", "green", "blue")  # class k + 1 in a label map; 0 = no tile colour
_HUE_RANGES = {"red": ((0, 7), (161, 179)), "yellow": ((13, 34),), "green": ((40, 88),), "blue": ((93, 126),)}
# A pixel half tile, half light print is about half as saturated as the tile: these
# minimums (about 60% of each colour's own saturation) put the blob's edge where the
# tile's is, even where blur or JPEG's coarse colour smears the colour outwards.
MIN_SATURATION = {"red": 120, "yellow": 130, "green": 100, "blue": 120}
MIN_VALUE = 45
_LUT = np.zeros((256, 180), np.uint8)  # [saturation, hue] -> class
for _k, _c in enumerate(COLORS, 1):
    for _lo, _hi in _HUE_RANGES[_c]:
        _LUT[MIN_SATURATION[_c] :, _lo : _hi + 1] = _k


def balance_gains(pixels_bgr: np.ndarray, target_rgb: tuple[int, int, int]) -> np.ndarray:
    """Per-channel gains (B, G, R) that bring the median of light, unsaturated pixels
    (a known print: a field's cream, a bowl's floor) to `target_rgb`."""
    px = np.asarray(pixels_bgr).reshape(-1, 3)
    if len(px) > 4000:  # a sample is as good as all of them, and much cheaper
        px = px[:: len(px) // 4000]
    px = px.astype(np.float32)
    if len(px) < 20:
        return np.ones(3, np.float32)
    hi, lo = px.max(axis=1), px.min(axis=1)
    light = px[(hi > 60) & (hi < 250) & (hi - lo < 0.35 * hi)]
    if len(light) < 20:
        return np.ones(3, np.float32)
    measured = np.median(light, axis=0)
    gains = np.float32(target_rgb[::-1]) / np.maximum(measured, 1.0)
    return np.clip(gains, 0.6, 1.8).astype(np.float32)


def label_map(bgr: np.ndarray, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(labels, hsv): labels 1..4 for the tile colours (COLORS order), 0 elsewhere."""
    balanced = cv2.transform(bgr, np.diag(np.asarray(gains, np.float32)))  # saturates at 255
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    labels = _LUT[hsv[..., 1], hsv[..., 0]]
    labels[hsv[..., 2] < MIN_VALUE] = 0
    return labels, hsv
