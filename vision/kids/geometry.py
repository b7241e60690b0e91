"""Board and tray planes: what the recogniser assumes about the Kids table, and the
camera seen through a plane's homography (for the parallax of thick tiles)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.geometry import apply_h, focal_from_homography

# A Kids board lies 3:2; positions in a board definition are fractions of these.
BOARD_W_MM, BOARD_H_MM = 300.0, 200.0
FRAME_MM = 7.0
TILE_LIFT_MM = 5.0  # a tile's thickness: its top face lies this far above what it rests on
# The tray: a big bowl in the middle, 5 small bowls on a ring round it (floor radii).
BIG_FLOOR_MM = 72.0
SMALL_FLOOR_MM = 46.0
SMALL_RING_MM = 130.0
TRAY_RADIUS_MM = 190.0  # the tray's round rim


def board_point_mm(point: tuple[float, float]) -> tuple[float, float]:
    """Board-relative [x, y] (0..1) -> board mm from the top-left corner."""
    return (point[0] * BOARD_W_MM, point[1] * BOARD_H_MM)


def circle_polygon(cx: float, cy: float, r: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


def ellipse_through(points: np.ndarray, n: int = 48) -> np.ndarray:
    """The ellipse through a polygon's points (a circle field's 8-point outline)."""
    (cx, cy), (w, h), angle = cv2.fitEllipse(np.asarray(points, np.float32))
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    t = math.radians(angle)
    u, v = w / 2 * np.cos(a), h / 2 * np.sin(a)
    return np.column_stack([cx + u * math.cos(t) - v * math.sin(t), cy + u * math.sin(t) + v * math.cos(t)])


# Phone and Pi camera lenses: 50-75 degrees across the image.
_FOCAL_RANGE = (0.65, 1.07)
_FOCAL_TYPICAL = 0.8


def camera_in_plane(h: np.ndarray, width: int, height: int) -> np.ndarray:
    """Camera centre (x, y, height above the plane) in the plane's own units. The focal
    length comes from the plane's perspective when that is well posed, and is a typical
    lens's when not (a camera looking nearly straight down)."""
    f = focal_from_homography(h, width, height)
    lo, hi = (r * max(width, height) for r in _FOCAL_RANGE)
    if not lo <= f <= hi:
        f = _FOCAL_TYPICAL * max(width, height)
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])
    m = np.linalg.inv(k) @ h
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * lam, m[:, 1] * lam, m[:, 2] * lam
    if t[2] < 0:  # the plane lies in front of the camera
        r1, r2, t = -r1, -r2, -t
    u, _, vt = np.linalg.svd(np.stack([r1, r2, np.cross(r1, r2)], axis=1))
    r = u @ vt
    c = -r.T @ t
    return np.array([c[0], c[1], abs(c[2])])


class Plane:
    """A plane seen by the camera: H maps its mm (x right, y down) to image pixels."""

    def __init__(self, h: np.ndarray, image_size: tuple[int, int]) -> None:
        self.h = np.asarray(h, np.float64)
        self.camera = camera_in_plane(self.h, *image_size)  # (x, y, height) in plane mm

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        return apply_h(self.h, points_mm)

    def sweep_mm(self, point_mm: np.ndarray, lift: float = TILE_LIFT_MM) -> np.ndarray:
        """Where a tile's top face lies, relative to its footprint, when rectified onto
        this plane: away from the camera's foot, further the further out it lies."""
        height = max(float(self.camera[2]), 4 * lift)
        return (np.asarray(point_mm, np.float64) - self.camera[:2]) * (lift / (height - lift))

    def warp(
        self,
        frame: np.ndarray,
        origin_mm: tuple[float, float],
        size_mm: tuple[float, float],
        px_per_mm: float,
    ) -> np.ndarray:
        """The plane's rectangle from origin_mm, size_mm, rectified at px_per_mm."""
        to_mm = np.array([[1 / px_per_mm, 0, origin_mm[0]], [0, 1 / px_per_mm, origin_mm[1]], [0, 0, 1.0]])
        size = (max(1, round(size_mm[0] * px_per_mm)), max(1, round(size_mm[1] * px_per_mm)))
        return cv2.warpPerspective(
            frame,
            self.h @ to_mm,
            size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0),
        )
