"""Things with height drawn in perspective: tile-like boxes and upright solids of
revolution (cups, bottles, bags, the edges of discs).

The light is a unit vector (x, y, height) pointing at the lamp.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import Camera
from .compose import cv_scalar, fill_polygon, polygon_mask, roi_of, weighted

_AMBIENT, _DIFFUSE = 0.42, 0.58


def _relative_shade(normal_xy: np.ndarray, light: np.ndarray) -> float:
    """Brightness of a vertical face relative to a lit top face."""
    lambert = max(0.0, float(normal_xy @ light[:2]))
    return (_AMBIENT + _DIFFUSE * lambert) / (_AMBIENT + _DIFFUSE * light[2])


def box_sides(
    frame: np.ndarray,
    cam: Camera,
    footprint: np.ndarray,
    h0: float,
    h1: float,
    *,
    side_bgr: tuple[float, ...],
    light: np.ndarray,
) -> np.ndarray:
    """Draw the visible vertical faces of a box with a convex footprint; returns the
    image corners of its top face."""
    fp = np.asarray(footprint, np.float64)
    n = len(fp)
    low = cam.project(np.column_stack([fp, np.full(n, h0)]))
    high = cam.project(np.column_stack([fp, np.full(n, h1)]))
    eye = cam.position[:2]
    centroid = fp.mean(axis=0)
    base = np.asarray(side_bgr, np.float64)
    for i in range(n):
        j = (i + 1) % n
        edge = fp[j] - fp[i]
        normal = np.array([edge[1], -edge[0]])
        normal /= np.linalg.norm(normal)
        mid = (fp[i] + fp[j]) / 2
        if normal @ (mid - centroid) < 0:
            normal = -normal
        if normal @ (eye - mid) <= 0:
            continue
        quad = np.array([low[i], low[j], high[j], high[i]])
        fill_polygon(frame, quad, base * _relative_shade(normal, light))
    return high


def _ring(center: tuple[float, float], radii: np.ndarray, angles: np.ndarray, h: float) -> np.ndarray:
    return np.column_stack(
        [center[0] + radii * np.cos(angles), center[1] + radii * np.sin(angles), np.full(len(angles), h)]
    )


def solid_of_revolution(
    frame: np.ndarray,
    cam: Camera,
    center: tuple[float, float],
    profile: list[tuple[float, float]],
    body_bgr: tuple[float, ...],
    *,
    light: np.ndarray,
    opacity: float = 1.0,
    gloss: float = 0.3,
    wobble: np.ndarray | None = None,
    segments: int = 40,
) -> np.ndarray:
    """Draw an upright solid given its profile [(height, radius), ...] from the bottom up;
    returns the image points of its silhouette (for occlusion and shadows)."""
    angles = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    scale = np.ones(segments) if wobble is None else wobble
    rings = [cam.project(_ring(center, r * scale, angles, h)) for h, r in profile]
    silhouette = np.concatenate(rings)
    base = np.asarray(body_bgr, np.float64)
    fill_polygon(frame, _hull(silhouette), base * 0.7, opacity)
    eye = cam.position
    half = light[:2] + (eye[:2] - np.asarray(center)) / max(
        1e-6, np.linalg.norm(eye[:2] - np.asarray(center))
    )
    half /= max(1e-6, np.linalg.norm(half))
    for k in range(len(profile) - 1):
        lo, hi = rings[k], rings[k + 1]
        for i in range(segments):
            j = (i + 1) % segments
            a = (angles[i] + angles[j]) / 2 + (np.pi if j == 0 else 0)
            normal = np.array([np.cos(a), np.sin(a)])
            p = np.asarray(center) + normal * profile[k][1]
            if normal @ (eye[:2] - p) <= 0:
                continue
            shade = _relative_shade(normal, light) + gloss * max(0.0, float(normal @ half)) ** 24
            fill_polygon(
                frame, np.array([lo[i], lo[j], hi[j], hi[i]]), np.clip(base * shade, 0, 255), opacity
            )
    return silhouette


def cap(
    frame: np.ndarray,
    cam: Camera,
    center: tuple[float, float],
    radius: float,
    h: float,
    *,
    color: tuple[float, ...],
    opacity: float = 1.0,
    clip_to: np.ndarray | None = None,
    wobble: np.ndarray | None = None,
    segments: int = 40,
) -> np.ndarray:
    """Fill the flat top of a solid (optionally clipped to another image polygon)."""
    angles = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    scale = np.ones(segments) if wobble is None else wobble
    pts = cam.project(_ring(center, radius * scale, angles, h))
    if clip_to is None:
        fill_polygon(frame, pts, color, opacity)
        return pts
    roi = roi_of(pts, frame.shape[1], frame.shape[0])
    if roi is not None:
        a = polygon_mask(pts, roi) * polygon_mask(clip_to, roi) * opacity
        x0, y0, x1, y1 = roi
        region = frame[y0:y1, x0:x1]
        region += weighted(cv2.subtract(cv_scalar(color), region), a)
    return pts


def _hull(points: np.ndarray) -> np.ndarray:
    return cv2.convexHull(np.asarray(points, np.float32)).reshape(-1, 2)
