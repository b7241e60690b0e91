"""The five tile designs and the first-player marker, as vector drawings.

Tiles (tiles.py) and the wall printed on the board (board.py) share the
geometry and differ only in palette: printed cells are the same designs, paler
and flat. Colours are RGB; drawings are BGR float images.
"""

from __future__ import annotations

import cv2
import numpy as np

# Median colours of real tiles (real-table.md), RGB.
TILE_MEDIAN_RGB = {
    "blue": (29, 134, 171),
    "yellow": (243, 138, 67),
    "red": (239, 60, 69),
    "black": (26, 27, 31),
    "white": (101, 199, 200),
    "marker": (230, 225, 233),
}

# base: the tile body; ink: the ornament drawn on it; light: white details.
TILE_PALETTE = {
    "blue": {"base": (29, 134, 171)},
    "yellow": {"base": (243, 138, 67), "ink": (200, 38, 36)},
    "red": {"base": (239, 60, 69)},
    "black": {"base": (26, 27, 31), "ink": (34, 152, 150)},
    "white": {"base": (238, 240, 234), "ink": (101, 199, 200), "light": (240, 242, 236)},
    "marker": {"base": (230, 225, 233), "ink": (28, 42, 118)},
}

CREAM = (234, 224, 200)


def _pale(rgb: tuple[int, int, int], amount: float) -> tuple[int, ...]:
    return tuple(round(c * (1 - amount) + k * amount) for c, k in zip(rgb, CREAM, strict=True))


# Printed wall cells: the designs mixed towards the board's cream, flat ink.
PRINTED_PALETTE = {
    name: {role: _pale(rgb, 0.55) for role, rgb in roles.items()} for name, roles in TILE_PALETTE.items()
}
GREY_CELL_RGB = (168, 166, 160)


def bgr(rgb: tuple[int, ...]) -> tuple[float, float, float]:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def _pts(unit_points: np.ndarray, n: int) -> np.ndarray:
    return np.round(np.asarray(unit_points) * n).astype(np.int32)


def _star_polygon(center: float, outer: float, inner_ratio: float, points: int) -> np.ndarray:
    angles = np.arange(points * 2) * np.pi / points - np.pi / 2
    radii = np.where(np.arange(points * 2) % 2 == 0, outer, outer * inner_ratio)
    return np.stack([center + radii * np.cos(angles), center + radii * np.sin(angles)], axis=1)


def draw_design(img: np.ndarray, color: str, palette: dict[str, dict[str, tuple]]) -> None:
    """Draw `color`'s design over the whole square image (already sized, BGR float)."""
    n = img.shape[0]
    roles = palette[color]
    img[:] = bgr(roles["base"])
    t = max(1, round(0.03 * n))
    aa = cv2.LINE_AA
    if color == "yellow":
        ink = bgr(roles["ink"])
        diamond = np.array([[0.5, 0.12], [0.88, 0.5], [0.5, 0.88], [0.12, 0.5]])
        cv2.polylines(img, [_pts(diamond, n)], True, ink, t, aa)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            center = (round((0.5 + 0.13 * dx) * n), round((0.5 + 0.13 * dy) * n))
            axes = (round(0.09 * n), round(0.045 * n)) if dx else (round(0.045 * n), round(0.09 * n))
            cv2.ellipse(img, center, axes, 0, 0, 360, ink, max(1, round(0.022 * n)), aa)
        cv2.circle(img, (n // 2, n // 2), round(0.04 * n), ink, -1, aa)
        for cx, cy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            cv2.circle(img, (cx * n, cy * n), round(0.13 * n), ink, t, aa)
    elif color == "black":
        ink = bgr(roles["ink"])
        for k in range(8):
            angle = k * 45.0
            cx = 0.5 + 0.17 * np.cos(np.radians(angle))
            cy = 0.5 + 0.17 * np.sin(np.radians(angle))
            cv2.ellipse(
                img,
                (round(cx * n), round(cy * n)),
                (round(0.075 * n), round(0.034 * n)),
                angle,
                0,
                360,
                ink,
                -1,
                aa,
            )
        cv2.circle(img, (n // 2, n // 2), round(0.045 * n), ink, -1, aa)
        cv2.circle(img, (n // 2, n // 2), round(0.32 * n), ink, max(1, round(0.018 * n)), aa)
    elif color == "white":
        ink, light = bgr(roles["ink"]), bgr(roles["light"])
        star = _star_polygon(0.5, 0.45, 0.72, 8)
        cv2.fillPoly(img, [_pts(star, n)], ink, aa)
        inner = _star_polygon(0.5, 0.21, 0.7, 8)
        cv2.polylines(img, [_pts(inner, n)], True, light, max(1, round(0.024 * n)), aa)
        cv2.circle(img, (n // 2, n // 2), round(0.06 * n), light, -1, aa)
    elif color == "marker":
        ink = bgr(roles["ink"])
        cv2.rectangle(
            img,
            (round(0.14 * n), round(0.14 * n)),
            (round(0.86 * n), round(0.86 * n)),
            ink,
            max(1, round(0.035 * n)),
            aa,
        )
        one = np.array(
            [
                [0.47, 0.29],
                [0.55, 0.29],
                [0.55, 0.66],
                [0.62, 0.66],
                [0.62, 0.71],
                [0.39, 0.71],
                [0.39, 0.66],
                [0.47, 0.66],
                [0.47, 0.38],
                [0.40, 0.42],
                [0.38, 0.37],
            ]
        )
        cv2.fillPoly(img, [_pts(one, n)], ink, aa)


def design_image(color: str, size: int, palette: dict[str, dict[str, tuple]]) -> np.ndarray:
    """A size x size BGR float32 image of the design, drawn 4x larger and reduced (anti-aliased)."""
    big = np.zeros((size * 4, size * 4, 3), np.float32)
    draw_design(big, color, palette)
    return cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
