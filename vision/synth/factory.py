"""Factory display artwork: a round cardboard disc about 4.5 tile widths across."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from .designs import bgr
from .sprites import Sprite, make_sprite, smooth_noise

DISC_RADIUS_MM = 45.0
DISC_THICKNESS_MM = 2.0
EDGE_BGR = bgr((120, 62, 30))
_PX_PER_MM = 6.0


def _disc_image() -> tuple[np.ndarray, np.ndarray]:
    s = _PX_PER_MM
    n = round(2 * DISC_RADIUS_MM * s)
    c = n / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) + 0.5
    r = np.hypot(xx - c, yy - c) / s  # mm from the centre
    theta = np.arctan2(yy - c, xx - c)
    img = np.zeros((n, n, 3), np.float32)

    rays = 0.5 + 0.5 * np.sign(np.sin(theta * 16))
    sun = (
        np.array(bgr((30, 78, 150)), np.float32) * (1 - rays[..., None])
        + np.array(bgr((52, 122, 192)), np.float32) * rays[..., None]
    )
    sun *= (0.8 + 0.2 * np.clip(r / 28, 0, 1))[..., None]
    img[:] = sun
    ring = (r > 29.5) & (r <= 40.0)
    img[ring] = bgr((236, 222, 188))
    rim = r > 40.0
    img[rim] = bgr((178, 96, 44))

    u8 = np.zeros((n, n), np.uint8)
    wave = [
        (c + (35.0 + 2.2 * np.sin(12 * a)) * s * np.cos(a), c + (35.0 + 2.2 * np.sin(12 * a)) * s * np.sin(a))
        for a in np.linspace(0, 2 * np.pi, 721)
    ]
    cv2.polylines(
        u8,
        [np.round(np.array(wave) * 16).astype(np.int32)],
        True,
        255,
        max(1, round(0.9 * s)),
        cv2.LINE_AA,
        shift=4,
    )
    for a in np.linspace(0, 2 * np.pi, 12, endpoint=False) + np.pi / 24:
        p = (c + 35.0 * s * np.cos(a), c + 35.0 * s * np.sin(a))
        cv2.circle(
            u8, (round(p[0] * 16), round(p[1] * 16)), round(0.9 * s * 16), 255, -1, cv2.LINE_AA, shift=4
        )
    a = (u8.astype(np.float32) / 255)[..., None]
    img = img * (1 - a) + np.float32(bgr((24, 22, 20))) * a

    u8[:] = 0
    for ang in np.linspace(0, 2 * np.pi, 48, endpoint=False):
        p = (c + 30.6 * s * np.cos(ang), c + 30.6 * s * np.sin(ang))
        cv2.circle(
            u8, (round(p[0] * 16), round(p[1] * 16)), round(0.75 * s * 16), 255, -1, cv2.LINE_AA, shift=4
        )
    a = (u8.astype(np.float32) / 255)[..., None]
    img = img * (1 - a) + np.float32(bgr((232, 118, 36))) * a

    rng = np.random.default_rng(11)
    img *= (1 + 0.025 * smooth_noise((n, n), 10 * s, rng))[..., None]
    alpha = np.clip(DISC_RADIUS_MM * s - r * s + 0.5, 0, 1)
    return np.clip(img, 0, 255), alpha


@cache
def disc_sprite() -> Sprite:
    img, alpha = _disc_image()
    return make_sprite(img, alpha, _PX_PER_MM, min_size=32)
