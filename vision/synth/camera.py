"""A pinhole camera over the table plane.

Table coordinates are mm: x east, y south (towards the default camera), height
h above the table. Internally the world z axis points down (z = -h), which
keeps (x, y, z) right-handed with OpenCV's camera frame (x right, y down, z ahead).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

_FLIP_Z = np.array([1.0, 1.0, -1.0])  # table (x, y, height) -> world (x, y, z = -height)


@dataclass(frozen=True)
class Camera:
    K: np.ndarray  # 3x3 intrinsics
    R: np.ndarray  # world -> camera rotation
    t: np.ndarray  # world -> camera translation
    width: int
    height: int

    @property
    def position(self) -> np.ndarray:
        """Camera centre as (x, y, height) in table mm."""
        c = -self.R.T @ self.t
        return np.array([c[0], c[1], -c[2]])

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) table points (x, y, height) -> (N, 2) image pixels."""
        world = np.asarray(points, np.float64).reshape(-1, 3) * _FLIP_Z
        cam = world @ self.R.T + self.t
        img = cam @ self.K.T
        return img[:, :2] / img[:, 2:3]

    def homography(self, height: float = 0.0) -> np.ndarray:
        """3x3 map from table (x, y) on the plane at `height` to image pixels."""
        r = self.R
        m = np.stack([r[:, 0], r[:, 1], self.t - height * r[:, 2]], axis=1)
        h = self.K @ m
        return h / h[2, 2]

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the optical axis (for drawing far things first)."""
        world = np.asarray(points, np.float64).reshape(-1, 3) * _FLIP_Z
        return (world @ self.R.T + self.t)[:, 2]

    def px_per_mm(self, points: np.ndarray) -> float:
        """Largest image scale (px per mm) at any of the given table points."""
        d = self.depth(points)
        return float(self.K[0, 0] / max(1e-6, d.min()))


def look_at(
    target: tuple[float, float],
    distance: float,
    *,
    tilt_deg: float,
    azimuth_deg: float,
    roll_deg: float,
    hfov_deg: float,
    width: int,
    height: int,
) -> Camera:
    """Camera `distance` mm from `target` on the table, tilted from vertical towards the
    side given by `azimuth_deg` (0 = south, 90 = west: clockwise seen from above)."""
    tilt, az, roll = np.radians([tilt_deg, azimuth_deg, roll_deg])
    toward_camera = np.array([-np.sin(az), np.cos(az), 0.0])
    target3 = np.array([target[0], target[1], 0.0])
    centre = target3 + distance * (np.sin(tilt) * toward_camera + np.cos(tilt) * np.array([0, 0, -1.0]))
    forward = target3 - centre
    forward /= np.linalg.norm(forward)
    down = toward_camera - forward * (toward_camera @ forward)
    if np.linalg.norm(down) < 1e-9:  # looking straight down: image down = towards the camera side
        down = toward_camera
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    c, s = np.cos(roll), np.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    R = np.stack([right, down, forward])
    t = -R @ centre
    f = (width / 2) / np.tan(np.radians(hfov_deg) / 2)
    K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])
    return Camera(K, R, t, width, height)


def fit_camera(
    points: np.ndarray,
    *,
    tilt_deg: float,
    azimuth_deg: float,
    roll_deg: float,
    hfov_deg: float,
    width: int,
    height: int,
    framing: float,
    margin: float = 0.04,
) -> Camera:
    """Camera that frames the given table points (x, y, height), then zooms by `framing`
    (1 = everything just inside the image with `margin` to spare, > 1 = closer)."""
    pts = np.ascontiguousarray(points, np.float64)
    view = (tilt_deg, azimuth_deg, roll_deg, hfov_deg, width, height, framing, margin)
    return _fit_camera(pts.tobytes(), pts.shape, view)


@lru_cache(maxsize=16)  # a fixed camera over a fixed layout (the demo) is fitted once
def _fit_camera(points: bytes, shape: tuple[int, ...], view_args: tuple) -> Camera:
    pts = np.frombuffer(points, np.float64).reshape(shape)
    tilt_deg, azimuth_deg, roll_deg, hfov_deg, width, height, framing, margin = view_args
    view = {
        "tilt_deg": tilt_deg,
        "azimuth_deg": azimuth_deg,
        "roll_deg": roll_deg,
        "hfov_deg": hfov_deg,
        "width": width,
        "height": height,
    }
    target = pts[:, :2].mean(axis=0)

    def fits(cam: Camera) -> bool:
        if cam.depth(pts).min() <= 1:
            return False
        p = cam.project(pts)
        mx, my = margin * width, margin * height
        return bool(
            (p[:, 0] >= mx).all()
            and (p[:, 0] <= width - mx).all()
            and (p[:, 1] >= my).all()
            and (p[:, 1] <= height - my).all()
        )

    hi = 0.0
    for attempt in range(3):
        lo, hi = 100.0, 20000.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if fits(look_at(tuple(target), mid, **view)):
                hi = mid
            else:
                lo = mid
        if attempt < 2:
            cam = look_at(tuple(target), hi, **view)
            p = cam.project(pts)
            # re-aim at the table point seen in the middle of the points' image box
            target = back_project(cam, ((p.min(axis=0) + p.max(axis=0)) / 2)[None])[0]
    distance = hi / framing
    cam = look_at(tuple(target), distance, **view)
    for a in (cam.K, cam.R, cam.t):
        a.flags.writeable = False  # shared by every frame that hits the cache
    return cam


def back_project(cam: Camera, pixels: np.ndarray, height: float = 0.0) -> np.ndarray:
    """(N, 2) image pixels -> (N, 2) table points on the plane at `height`."""
    hinv = np.linalg.inv(cam.homography(height))
    p = np.concatenate([np.asarray(pixels, np.float64), np.ones((len(pixels), 1))], axis=1) @ hinv.T
    return p[:, :2] / p[:, 2:3]
