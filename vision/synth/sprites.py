"""Pre-rendered artwork with alpha, kept as a small mip pyramid.

Every flat thing the renderer draws (tile faces, boards, factory discs, hands)
is a premultiplied BGRA float32 image with a known resolution in pixels per mm.
Warping a sprite much larger than its footprint in the frame would alias, so
the renderer picks the pyramid level just above the needed scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Sprite:
    levels: tuple[np.ndarray, ...]  # premultiplied BGRA float32, largest first
    px_per_mm: float  # of levels[0]

    def level_for(self, needed_px_per_mm: float) -> tuple[np.ndarray, float]:
        """The smallest level at least as sharp as needed, and its px/mm."""
        scale = self.px_per_mm
        chosen = self.levels[0]
        for level in self.levels[1:]:
            if scale / 2 < needed_px_per_mm:
                break
            chosen, scale = level, scale / 2
        return chosen, scale


def make_sprite(bgr: np.ndarray, alpha: np.ndarray, px_per_mm: float, min_size: int = 8) -> Sprite:
    """Sprite from a straight (not premultiplied) BGR image and an alpha in 0..1."""
    a = alpha.astype(np.float32)[..., None]
    top = np.concatenate([bgr.astype(np.float32) * a, a], axis=2)
    levels = [top]
    while min(levels[-1].shape[:2]) // 2 >= min_size:
        h, w = levels[-1].shape[:2]
        levels.append(cv2.resize(levels[-1], (w // 2, h // 2), interpolation=cv2.INTER_AREA))
    return Sprite(tuple(levels), px_per_mm)


def rounded_rect_alpha(width: int, height: int, radius: float) -> np.ndarray:
    """Anti-aliased alpha of a rounded rectangle filling the image."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    dx = np.maximum(np.maximum(radius - (xx + 0.5), (xx + 0.5) - (width - radius)), 0)
    dy = np.maximum(np.maximum(radius - (yy + 0.5), (yy + 0.5) - (height - radius)), 0)
    outside = np.sqrt(dx * dx + dy * dy) - radius
    edge = np.minimum.reduce([xx + 0.5, width - xx - 0.5, yy + 0.5, height - yy - 0.5])
    alpha = np.clip(edge, 0, 1)
    corner = (dx > 0) & (dy > 0)
    alpha[corner] = np.clip(0.5 - outside[corner], 0, 1)
    return alpha


def smooth_noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> np.ndarray:
    """Zero-mean, unit-ish noise with features about `scale` pixels across."""
    h, w = shape
    small = (max(2, int(w / scale) + 2), max(2, int(h / scale) + 2))
    base = rng.standard_normal((small[1], small[0])).astype(np.float32)
    big = cv2.resize(base, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / max(1e-6, float(big.std()))
