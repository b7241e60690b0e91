"""Tile sprites: the glossy top face of each tile, and the colour of its sides.

A tile is 20 mm square and 7 mm thick; its top shows the design with a
slightly darker bevel round the edge and a faint gloss gradient.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .designs import TILE_PALETTE, bgr, design_image
from .sprites import Sprite, make_sprite, rounded_rect_alpha, smooth_noise

TILE_MM = 20.0
TILE_THICKNESS_MM = 7.0
_SPRITE_PX = 128


@cache
def tile_sprite(color: str) -> Sprite:
    n = _SPRITE_PX
    px_per_mm = n / TILE_MM
    face = design_image(color, n, TILE_PALETTE)
    rng = np.random.default_rng(sum(map(ord, color)))
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) + 0.5
    edge = np.minimum.reduce([xx, n - xx, yy, n - yy]) / px_per_mm  # mm from the nearest edge
    bevel_mm = 1.1
    shade = np.where(edge < bevel_mm, 0.74 + 0.26 * (edge / bevel_mm) ** 0.6, 1.0)
    shade += 0.07 * np.exp(-(((edge - bevel_mm) / 0.25) ** 2))  # catch-light on the bevel's inner lip
    gloss = 1.0 + 0.025 * ((xx + yy) / n - 1.0)
    grain = 1.0 + 0.012 * smooth_noise((n, n), 6, rng)
    face = face * (shade * gloss * grain)[..., None]
    alpha = rounded_rect_alpha(n, n, 1.0 * px_per_mm)
    return make_sprite(np.clip(face, 0, 255), alpha, px_per_mm)


def side_bgr(color: str) -> tuple[float, float, float]:
    """Body colour seen on a tile's side faces (patterns are only on top)."""
    return bgr(TILE_PALETTE[color]["base"])
