"""The table top (white or wooden) and the floor beyond its edge.

Textures are periodic (made by filtering noise in the frequency domain), so one
small cached texture covers any table by wrapping.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .camera import Camera
from .compose import cv_scalar, polygon_mask, roi_of, weighted
from .designs import bgr

TEXTURE_PX = 1024
TEXTURE_PX_PER_MM = 2.0
FLOOR_BGR = bgr((74, 66, 60))


def periodic_noise(n: int, sigma_x: float, sigma_y: float, rng: np.random.Generator) -> np.ndarray:
    """Unit-variance noise that tiles seamlessly; sigma_* are spectral widths in cycles/image."""
    fy = np.fft.fftfreq(n)[:, None] * n
    fx = np.fft.rfftfreq(n)[None, :] * n
    # single precision throughout (the float64 draws converted a band at a time): a
    # quarter of the memory of a float64 complex transform, and no visible difference
    white = np.empty((n, n), np.float32)
    for r0 in range(0, n, 128):
        white[r0 : r0 + 128] = rng.standard_normal((min(128, n - r0), n))
    spectrum = np.fft.rfft2(white)
    spectrum *= np.exp(-0.5 * ((fx / sigma_x) ** 2 + (fy / sigma_y) ** 2)).astype(np.float32)
    out = np.fft.irfft2(spectrum, s=(n, n))
    out /= np.float32(max(1e-6, float(out.std())))
    return out


@dataclass(frozen=True)
class TableTexture:
    """A periodic texture stored compactly: `packed` (uint16, one or three channels)
    times `gain` (per BGR channel) is the float32 BGR texture."""

    packed: np.ndarray
    gain: tuple[float, float, float, float]  # an OpenCV scalar


_WOOD_SCALE = 128.0  # uint16 steps per 8-bit level
_MOTTLE_SCALE = 32768.0  # uint16 steps per unit of brightness


@cache
def table_texture(kind: str, variant: int) -> TableTexture:
    """Texture of TEXTURE_PX square at TEXTURE_PX_PER_MM."""
    n = TEXTURE_PX
    rng = np.random.default_rng(1000 + variant)
    if kind == "white":
        base = np.float32(bgr((236, 234, 228))) * (0.97 + 0.01 * variant)
        mottle = 0.012 * periodic_noise(n, 6, 6, rng) + 0.006 * periodic_noise(n, 120, 120, rng)
        # one colour, mottled: a single brightness channel
        factor = (1 + mottle) * np.float32(_MOTTLE_SCALE) + np.float32(0.5)
        return TableTexture(factor.astype(np.uint16), (*(float(b) / _MOTTLE_SCALE for b in base), 0.0))
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
    img *= np.float32(_WOOD_SCALE)
    img += np.float32(0.5)
    return TableTexture(img.astype(np.uint16), (1 / _WOOD_SCALE, 1 / _WOOD_SCALE, 1 / _WOOD_SCALE, 0.0))


_BLOCK = 512  # frame pixels per side of a block drawn at once
_MASK_MARGIN = 4
_MIN_SPLIT = 128  # frame pixels: blocks seeing a wrap are split down to this size


def _spans(a: int, b: int, n: int) -> list[tuple[int, int]]:
    """Index range a..b of a period-n axis as at most two ranges inside 0..n."""
    a0 = a % n
    if a0 + (b - a) <= n:
        return [(a0, a0 + b - a)]
    return [(a0, n), (0, b - a - (n - a0))]


def _window(packed: np.ndarray, v0: int, v1: int, u0: int, u1: int) -> np.ndarray:
    """Rows v0..v1 and columns u0..u1 of the endlessly repeated texture: a slice when
    the window lies in one period, else a copy."""
    n = packed.shape[0]
    if v1 - v0 > n or u1 - u0 > n:
        rows = np.take(packed, np.arange(v0, v1), axis=0, mode="wrap")
        return np.take(rows, np.arange(u0, u1), axis=1, mode="wrap")
    rows, cols = _spans(v0, v1, n), _spans(u0, u1, n)
    if len(rows) == 1 and len(cols) == 1:
        return packed[rows[0][0] : rows[0][1], cols[0][0] : cols[0][1]]
    patch = np.empty((v1 - v0, u1 - u0, *packed.shape[2:]), packed.dtype)
    y = 0
    for r0, r1 in rows:
        x = 0
        for c0, c1 in cols:
            patch[y : y + r1 - r0, x : x + c1 - c0] = packed[r0:r1, c0:c1]
            x += c1 - c0
        y += r1 - r0
    return patch


def _texture_block(
    out: np.ndarray, texture: TableTexture, to_texture: np.ndarray, block: tuple[int, int, int, int]
) -> None:
    """Draw the table texture seen in frame[y0:y1, x0:x1] into `out` (that view of the
    frame). OpenCV's wrapping border is slow, so the block warps just the window of
    the texture it sees: a slice of one period, or, for a block across a seam of the
    repeat (split down to a small size first), a small copy."""
    x0, y0, x1, y1 = block
    corners = np.array([[x0 - 1, y0 - 1, 1], [x1, y0 - 1, 1], [x1, y1, 1], [x0 - 1, y1, 1]], np.float64)
    p = corners @ to_texture.T
    uv = p[:, :2] / p[:, 2:3]
    u0, v0 = np.floor(uv.min(axis=0)).astype(int) - 2
    u1, v1 = np.ceil(uv.max(axis=0)).astype(int) + 3
    n = texture.packed.shape[0]
    wraps = u0 // n != (u1 - 1) // n or v0 // n != (v1 - 1) // n
    if wraps and min(x1 - x0, y1 - y0) > _MIN_SPLIT:
        xm, ym = (x0 + x1) // 2, (y0 + y1) // 2
        for sx0, sy0, sx1, sy1 in ((x0, y0, xm, ym), (xm, y0, x1, ym), (x0, ym, xm, y1), (xm, ym, x1, y1)):
            sub = out[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0]
            _texture_block(sub, texture, to_texture, (sx0, sy0, sx1, sy1))
        return
    patch = _window(texture.packed, v0, v1, u0, u1)
    # block pixel -> frame pixel -> texture pixel -> patch pixel
    m = np.array([[1, 0, -u0], [0, 1, -v0], [0, 0, 1]], np.float64) @ to_texture
    m = m @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    warped = cv2.warpPerspective(
        patch,
        m,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if warped.ndim == 2:
        warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
    cv2.multiply(warped, texture.gain, dst=out, dtype=cv2.CV_32F)


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
    to_texture = np.linalg.inv(cam.homography(0.0) @ tex_to_table)
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
    # a convex table covers all between its corners
    fills_frame = all(cv2.pointPolygonTest(poly, p, False) > 0 for p in frame_corners)
    outline16 = np.round(outline * 16).astype(np.int32)
    floor = np.float32(FLOOR_BGR)
    floor4 = (*(float(f) for f in floor), 0.0)
    for by in range(0, h, _BLOCK):
        for bx in range(0, w, _BLOCK):
            ex, ey = min(w, bx + _BLOCK), min(h, by + _BLOCK)
            inside = None
            if not fills_frame:
                # drawn with a margin: anti-aliased edges are cut short at the image border
                mx0, my0 = bx - min(bx, _MASK_MARGIN), by - min(by, _MASK_MARGIN)
                mx1, my1 = min(w, ex + _MASK_MARGIN), min(h, ey + _MASK_MARGIN)
                inside = np.zeros((my1 - my0, mx1 - mx0), np.uint8)
                shift = np.int32([mx0 * 16, my0 * 16])
                cv2.fillPoly(inside, [outline16 - shift], 255, cv2.LINE_AA, shift=4)
                inside = inside[by - my0 : ey - my0, bx - mx0 : ex - mx0]
                if not cv2.countNonZero(inside):
                    frame[by:ey, bx:ex] = floor
                    continue
            block = frame[by:ey, bx:ex]  # OpenCV writes into this view of the frame
            _texture_block(block, texture, to_texture, (bx, by, ex, ey))
            if inside is not None and cv2.countNonZero(cv2.bitwise_not(inside)):
                cv2.subtract(block, floor4, dst=block)
                cv2.multiply(
                    block,
                    cv2.cvtColor(inside, cv2.COLOR_GRAY2BGR),
                    dst=block,
                    scale=1 / 255,
                    dtype=cv2.CV_32F,
                )
                cv2.add(block, floor4, dst=block)


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
    mask = polygon_mask(img_pts, roi)
    stripes = None
    if rng.uniform() < 0.5:  # woven: fine stripes across the mat
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        table_pts = cv2.perspectiveTransform(
            np.dstack([xx, yy]).reshape(-1, 1, 2), np.linalg.inv(cam.homography(0.5))
        ).reshape(y1 - y0, x1 - x0, 2)
        along = (table_pts[..., 0] - center[0]) * c + (table_pts[..., 1] - center[1]) * s
        stripes = 0.9 + 0.1 * np.sin(along * (2 * np.pi / 4.0))
    region = frame[y0:y1, x0:x1]
    if stripes is None:
        target = cv2.subtract(cv_scalar(color_bgr), region)
    else:
        target = cv2.multiply(
            cv2.cvtColor(stripes.astype(np.float32), cv2.COLOR_GRAY2BGR), cv_scalar(color_bgr)
        )
        target -= region
    region += weighted(target, mask)
