"""The table top (white or wooden) and the floor beyond its edge.

Textures are periodic (made by filtering noise in the frequency domain), so one
small cached texture covers any table by wrapping.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from .camera import Camera
from .compose import polygon_mask, roi_of
from .designs import bgr

TEXTURE_PX = 1024
TEXTURE_PX_PER_MM = 2.0
FLOOR_BGR = bgr((74, 66, 60))


def periodic_noise(n: int, sigma_x: float, sigma_y: float, rng: np.random.Generator) -> np.ndarray:
    """Unit-variance noise that tiles seamlessly; sigma_* are spectral widths in cycles/image."""
    fy = np.fft.fftfreq(n)[:, None] * n
    fx = np.fft.fftfreq(n)[None, :] * n
    spectrum = np.exp(-0.5 * ((fx / sigma_x) ** 2 + (fy / sigma_y) ** 2))
    white = np.fft.fft2(rng.standard_normal((n, n)))
    out = np.real(np.fft.ifft2(white * spectrum)).astype(np.float32)
    return out / max(1e-6, float(out.std()))


@cache
def table_texture(kind: str, variant: int) -> np.ndarray:
    """BGR float32 texture of TEXTURE_PX square at TEXTURE_PX_PER_MM."""
    n = TEXTURE_PX
    rng = np.random.default_rng(1000 + variant)
    if kind == "white":
        base = np.float32(bgr((236, 234, 228))) * (0.97 + 0.01 * variant)
        mottle = 0.012 * periodic_noise(n, 6, 6, rng) + 0.006 * periodic_noise(n, 120, 120, rng)
        return base * (1 + mottle)[..., None]
    tones = [
        ((176, 122, 78), (120, 74, 42)),
        ((206, 162, 112), (150, 104, 62)),
        ((140, 92, 58), (84, 52, 32)),
    ]
    light, dark = (np.float32(bgr(c)) for c in tones[variant % len(tones)])
    planks = 4
    grain = np.empty((n, n), np.float32)
    streak = periodic_noise(n, 3, 90, rng)
    fine = periodic_noise(n, 40, 300, rng)
    rows = n // planks
    for k in range(planks):
        shift = int(rng.integers(0, n))
        band = np.roll(streak, shift, axis=1)[k * rows : (k + 1) * rows]
        grain[k * rows : (k + 1) * rows] = band + 0.25 * rng.standard_normal()
    t = 0.5 + 0.5 * np.tanh(0.8 * grain + 0.25 * fine)
    img = light * (1 - t[..., None]) + dark * t[..., None]
    img *= (1 + 0.04 * periodic_noise(n, 4, 4, rng))[..., None]
    for k in range(planks):
        y = k * rows
        img[max(0, y - 1) : y + 2] *= 0.55
    return img


def draw_table(
    frame: np.ndarray,
    cam: Camera,
    kind: str,
    rect: tuple[float, float, float, float],
    rng: np.random.Generator,
) -> None:
    """Fill the frame with the table top inside rect (x0, y0, x1, y1 mm) and floor outside."""
    h, w = frame.shape[:2]
    texture = table_texture(kind, int(rng.integers(3)))
    angle = float(rng.choice([0.0, 90.0])) + rng.normal(0, 1.5)
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    off = rng.uniform(0, TEXTURE_PX, 2)
    mm_per_px = 1 / TEXTURE_PX_PER_MM
    tex_to_table = np.array(
        [[c * mm_per_px, -s * mm_per_px, off[0]], [s * mm_per_px, c * mm_per_px, off[1]], [0, 0, 1]]
    )
    H = cam.homography(0.0) @ tex_to_table
    frame[:] = cv2.warpPerspective(texture, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    x0, y0, x1, y1 = rect
    r = 40.0
    corners = []
    for cx, cy, a0 in (
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
        (x1 - r, y0 + r, 270),
    ):
        for t in np.radians(np.linspace(a0, a0 + 90, 8)):
            corners.append((cx + r * np.cos(t), cy + r * np.sin(t), 0.0))
    outline = cam.project(np.array(corners))
    frame_corners = [(0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0)]
    poly = outline.astype(np.float32).reshape(-1, 1, 2)
    if all(cv2.pointPolygonTest(poly, p, False) > 0 for p in frame_corners):
        return  # the table fills the frame (a convex table covers all between its corners)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [np.round(outline * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    alpha = inside.astype(np.float32) * (1 / 255)
    floor = np.float32(FLOOR_BGR)
    frame -= floor
    frame *= alpha[..., None]
    frame += floor


def draw_mat(
    frame: np.ndarray,
    cam: Camera,
    center: tuple[float, float],
    size: tuple[float, float],
    angle_deg: float,
    *,
    color_bgr: tuple[float, ...],
    oval: bool,
    rng: np.random.Generator,
) -> None:
    """A flat place mat: felt, cork or woven, lying on the table."""
    a = np.radians(angle_deg)
    c, s = np.cos(a), np.sin(a)
    t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    if oval:
        local = np.column_stack([size[0] / 2 * np.cos(t), size[1] / 2 * np.sin(t)])
    else:
        sx, sy = size[0] / 2, size[1] / 2
        local = np.array([[-sx, -sy], [sx, -sy], [sx, sy], [-sx, sy]])
    pts = np.column_stack(
        [
            center[0] + c * local[:, 0] - s * local[:, 1],
            center[1] + s * local[:, 0] + c * local[:, 1],
            np.full(len(local), 0.5),
        ]
    )
    img_pts = cam.project(pts)
    h, w = frame.shape[:2]
    roi = roi_of(img_pts, w, h)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    mask = polygon_mask(img_pts, roi)[..., None]
    stripes = 1.0
    if rng.uniform() < 0.5:  # woven: fine stripes across the mat
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        table_pts = cv2.perspectiveTransform(
            np.dstack([xx, yy]).reshape(-1, 1, 2), np.linalg.inv(cam.homography(0.5))
        ).reshape(y1 - y0, x1 - x0, 2)
        along = (table_pts[..., 0] - center[0]) * c + (table_pts[..., 1] - center[1]) * s
        stripes = (0.9 + 0.1 * np.sin(along * (2 * np.pi / 4.0)))[..., None]
    region = frame[y0:y1, x0:x1]
    region += (np.float32(color_bgr) * stripes - region) * mask
