"""Pre-rendered artwork with alpha, kept as a small mip pyramid.

Every flat thing the renderer draws (tile faces, boards, factory discs, hands)
is a premultiplied BGRA image with a known resolution in pixels per mm.
Warping a sprite much larger than its footprint in the frame would alias, so
the renderer picks the pyramid level just above the needed scale.

Levels are stored as uint16 (colour x 256, alpha x 65535): half the memory of
float32 at a precision far below one 8-bit level, and OpenCV warps them as
fast. `unpack` turns a warped patch back into float32 (colour 0..255, alpha 0..1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

COLOUR_SCALE = 256.0
ALPHA_SCALE = 65535.0
_PACK = (COLOUR_SCALE, COLOUR_SCALE, COLOUR_SCALE, ALPHA_SCALE)
_UNPACK = (1 / COLOUR_SCALE, 1 / COLOUR_SCALE, 1 / COLOUR_SCALE, 1 / ALPHA_SCALE)
_ROWS = 64  # rows packed at a time (even, so 2x2 means never straddle two bands)


@dataclass(frozen=True)
class Sprite:
    levels: tuple[np.ndarray, ...]  # packed premultiplied BGRA uint16, largest first
    px_per_mm: float  # of levels[0]

    def level_for(self, needed_px_per_mm: float) -> tuple[np.ndarray, float]:
        """The smallest level at least as sharp as needed, and its px/mm."""
        return _pick(self.levels, self.px_per_mm, needed_px_per_mm)


def _pick(levels, px_per_mm: float, needed_px_per_mm: float) -> tuple[np.ndarray, float]:
    scale = px_per_mm
    chosen = levels[0]
    for level in levels[1:]:
        if scale / 2 < needed_px_per_mm:
            break
        chosen, scale = level, scale / 2
    return chosen, scale


def _pack_rows(premultiplied: np.ndarray, out: np.ndarray) -> None:
    """Float32 premultiplied BGRA (colour 0..255, alpha 0..1) -> the uint16 storage form."""
    packed = cv2.multiply(premultiplied, _PACK, dtype=cv2.CV_32F)
    packed += np.float32(0.5)  # round; nothing overflows as colour <= 255 and alpha <= 1
    out[:] = packed


def unpack(packed: np.ndarray) -> np.ndarray:
    """A warped uint16 level (or a float32 one, returned as is) -> float32 premultiplied BGRA."""
    if packed.dtype == np.float32:
        return packed
    return cv2.multiply(packed, _UNPACK, dtype=cv2.CV_32F)


def _pack(level: np.ndarray) -> np.ndarray:
    out = np.empty(level.shape, np.uint16)
    for r0 in range(0, level.shape[0], _ROWS):
        _pack_rows(level[r0 : r0 + _ROWS], out[r0 : r0 + _ROWS])
    return out


def _levels(bgr: np.ndarray, alpha: np.ndarray, min_size: int, *, keep_top: bool) -> list[np.ndarray | None]:
    """Packed mip levels of a straight BGR image and its alpha (levels[0] is None unless kept)."""
    h, w = alpha.shape[:2]
    more = min(h, w) // 2 >= min_size
    # Level 0 is premultiplied a band of rows at a time, so that a board-sized sprite
    # never exists whole in float32; with even sides the next level (then a plain
    # 2x2 mean) is made band by band too.
    banded = h % 2 == 0 and w % 2 == 0
    top = np.empty((h, w, 4), np.uint16) if keep_top or not more else None
    level = np.empty((h // 2, w // 2, 4) if banded else (h, w, 4), np.float32) if more else None
    rows = _ROWS if banded else h
    for r0 in range(0, h, rows):
        r1 = min(h, r0 + rows)
        a = np.clip(alpha[r0:r1], 0, 1).astype(np.float32, copy=False)
        band = np.empty((r1 - r0, w, 4), np.float32)
        np.clip(bgr[r0:r1], 0, 255, out=band[..., :3])
        band[..., :3] *= a[..., None]
        band[..., 3] = a
        if top is not None:
            _pack_rows(band, top[r0:r1])
        if level is not None and banded:
            half = cv2.resize(band, (w // 2, (r1 - r0) // 2), interpolation=cv2.INTER_AREA)
            level[r0 // 2 : r1 // 2] = half
        elif level is not None:
            level[:] = band
    levels: list[np.ndarray | None] = [top]
    if level is not None and not banded:
        level = cv2.resize(level, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    while level is not None:
        levels.append(_pack(level))
        lh, lw = level.shape[:2]
        level = (
            cv2.resize(level, (lw // 2, lh // 2), interpolation=cv2.INTER_AREA)
            if min(lh, lw) // 2 >= min_size
            else None
        )
    return levels


def make_sprite(bgr: np.ndarray, alpha: np.ndarray, px_per_mm: float, min_size: int = 8) -> Sprite:
    """Sprite from a straight (not premultiplied) BGR image and an alpha in 0..1."""
    return Sprite(tuple(_levels(bgr, alpha, min_size, keep_top=True)), px_per_mm)


class LazySprite:
    """A big sprite whose full-resolution level is made, and kept, only once a frame
    needs it: a board at 6 px/mm is 19 MB that small frames never use. `draw`
    returns the straight BGR image and alpha, as make_sprite takes them."""

    def __init__(
        self, draw: Callable[[], tuple[np.ndarray, np.ndarray]], px_per_mm: float, min_size: int = 8
    ) -> None:
        self._draw = draw
        self.px_per_mm = px_per_mm
        self._min_size = min_size
        self._levels: list[np.ndarray | None] | None = None

    def level_for(self, needed_px_per_mm: float) -> tuple[np.ndarray, float]:
        needs_top = self.px_per_mm / 2 < needed_px_per_mm
        if self._levels is None or (needs_top and self._levels[0] is None):
            bgr, alpha = self._draw()
            levels = _levels(bgr, alpha, self._min_size, keep_top=needs_top)
            if self._levels is not None:
                levels[1:] = self._levels[1:]  # the same drawing: keep what was made
            self._levels = levels
        return _pick(self._levels, self.px_per_mm, needed_px_per_mm)


def rounded_rect_alpha(width: int, height: int, radius: float) -> np.ndarray:
    """Anti-aliased alpha of a rounded rectangle filling the image."""
    xs = np.arange(width, dtype=np.float32) + np.float32(0.5)
    ys = (np.arange(height, dtype=np.float32) + np.float32(0.5))[:, None]
    dx = np.maximum(np.maximum(radius - xs, xs - (width - radius)), 0).astype(np.float32)
    dy = np.maximum(np.maximum(radius - ys, ys - (height - radius)), 0).astype(np.float32)
    edge_x = np.minimum(xs, width - xs)
    edge_y = np.minimum(ys, height - ys)
    alpha = np.clip(np.minimum(edge_x, edge_y), 0, 1).astype(np.float32)
    # only the corner squares need the round edge
    cx = np.flatnonzero(dx > 0)
    cy = np.flatnonzero(dy[:, 0] > 0)
    if len(cx) and len(cy):
        ddx, ddy = dx[cx], dy[cy]
        outside = np.sqrt(ddx * ddx + ddy * ddy) - radius
        corner = np.clip(0.5 - outside, 0, 1)
        alpha[np.ix_(cy, cx)] = corner
    return alpha


def smooth_noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> np.ndarray:
    """Zero-mean, unit-ish noise with features about `scale` pixels across."""
    h, w = shape
    small = (max(2, int(w / scale) + 2), max(2, int(h / scale) + 2))
    base = rng.standard_normal((small[1], small[0])).astype(np.float32)
    big = cv2.resize(base, (w, h), interpolation=cv2.INTER_CUBIC)
    big /= np.float32(max(1e-6, float(big.std())))
    return big
