"""Which of the four Kids shapes a blob is, from its outline alone.

A blob is first cut back to the tile's top face: a 5 mm tile seen at an angle shows a
side face that sweeps its outline towards the camera's foot, so the blob is (nearly)
the face dilated by a short segment; eroding by that same segment gives the face back,
exactly for a convex face. The face's outline, read as its distance from the centre
round the full turn, is then described by the strength of its 2-, 4- and 6-fold
ripples and its roundness: a circle has none, a hexagon a faint 6-fold one, a square a
strong 4-fold one and a diamond (longer than wide) a strong 2-fold one. These do not
change when the tile turns, and survive blur and small perspective left-overs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

SHAPES = ("square", "hexagon", "diamond", "circle")
# Tile faces (mm, centred): the same sizes the game's tiles have in our model of them.
SQUARE_MM = 20.0
HEXAGON_FLATS_MM = 21.0
DIAMOND_MM = (18.0, 28.0)
CIRCLE_MM = 22.0


def face_outline(shape: str, n_circle: int = 64) -> np.ndarray:
    if shape == "square":
        h = SQUARE_MM / 2
        return np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    if shape == "hexagon":
        r = HEXAGON_FLATS_MM / math.sqrt(3)
        a = np.radians(np.arange(6) * 60.0)
        return np.column_stack([r * np.cos(a), r * np.sin(a)])
    if shape == "diamond":
        return np.array(
            [[0, -DIAMOND_MM[1] / 2], [DIAMOND_MM[0] / 2, 0], [0, DIAMOND_MM[1] / 2], [-DIAMOND_MM[0] / 2, 0]]
        )
    a = np.linspace(0, 2 * np.pi, n_circle, endpoint=False)
    return np.column_stack([CIRCLE_MM / 2 * np.cos(a), CIRCLE_MM / 2 * np.sin(a)])


def face_reach_mm(shape: str) -> float:
    """How far the face's outline reaches from its centre (mm), however it is turned."""
    return float(np.hypot(*face_outline(shape).T).max())


def turned(points: np.ndarray, degrees: float) -> np.ndarray:
    """Points (x, y rows) turned about the origin, as the image shows a turn (y down)."""
    a = math.radians(degrees)
    return points @ np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]).T


def face_area_mm2(shape: str) -> float:
    p = face_outline(shape, 256)
    return 0.5 * abs(float(np.dot(p[:, 0], np.roll(p[:, 1], 1)) - np.dot(p[:, 1], np.roll(p[:, 0], 1))))


def unsweep(mask: np.ndarray, sweep_px: np.ndarray) -> np.ndarray:
    """Erode a uint8 mask by the segment from 0 to `sweep_px` (x, y): undoes the side face
    a tile shows when its top lies at the segment's far end (board-plane pixels)."""
    dx, dy = float(sweep_px[0]), float(sweep_px[1])
    if math.hypot(dx, dy) < 0.75:
        return mask
    x0, x1 = min(0, round(dx)), max(0, round(dx))
    y0, y1 = min(0, round(dy)), max(0, round(dy))
    kernel = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    anchor = (-x0, -y0)
    cv2.line(kernel, anchor, (round(dx) - x0, round(dy) - y0), 1, 1)
    # erode: dst(x) = min over the kernel of src(x + k - anchor), i.e. over x + t * sweep
    return cv2.erode(mask, kernel, anchor=anchor, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def sweep_kernel(sweep_px: np.ndarray) -> np.ndarray:
    """A dilation kernel that sweeps a mask from each pixel to `sweep_px` beyond it: from
    a tile's footprint (what unsweep leaves) to all it covers, side face and top."""
    dx, dy = round(float(sweep_px[0])), round(float(sweep_px[1]))
    kernel = np.zeros((2 * abs(dy) + 1, 2 * abs(dx) + 1), np.uint8)
    # dilate: dst(x) = max over the kernel of src(x + k - anchor), i.e. over x - t * sweep
    cv2.line(kernel, (abs(dx), abs(dy)), (abs(dx) - dx, abs(dy) - dy), 1)
    return kernel


_SEGMENT = np.linspace(0, 1, 12, endpoint=False)  # points along each hull edge
_GRID = np.linspace(-np.pi, np.pi, 128, endpoint=False)  # angles the radius is sampled at


@dataclass(frozen=True)
class ShapeFeatures:
    area: float  # px
    ripple: tuple[float, float, float]  # relative strength of the 2-, 4- and 6-fold ripples
    roundness: float  # 4 pi area / perimeter^2 of the convex hull
    solidity: float  # area / hull area

    def vector(self) -> np.ndarray:
        return np.array([*self.ripple, 1.0 - self.roundness])


def features(contour: np.ndarray) -> ShapeFeatures | None:
    """Features of one outline (OpenCV contour of a blob); None for a blob too small to tell."""
    c = contour.reshape(-1, 2).astype(np.float64)
    area = float(cv2.contourArea(contour))
    if len(c) < 8 or area < 30:
        return None
    hull = cv2.convexHull(contour)
    hull_area = float(cv2.contourArea(hull))
    perimeter = float(cv2.arcLength(hull, True))
    m = cv2.moments(hull)
    if m["m00"] <= 0 or perimeter <= 0:
        return None
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    # the hull's radius at 128 evenly spaced angles (its outline, resampled)
    a = hull.reshape(-1, 2).astype(np.float64)
    b = np.concatenate([a[1:], a[:1]])
    pts = (a[:, None, :] + (b - a)[:, None, :] * _SEGMENT[None, :, None]).reshape(-1, 2)
    d = pts - centre
    angles = np.arctan2(d[:, 1], d[:, 0])
    radii = np.hypot(d[:, 0], d[:, 1])
    order = np.argsort(angles)
    r = np.interp(_GRID, angles[order], radii[order], period=2 * np.pi)
    spectrum = np.abs(np.fft.rfft(r)) / (len(r) / 2) / max(1e-6, r.mean())
    return ShapeFeatures(
        area,
        (float(spectrum[2]), float(spectrum[4]), float(spectrum[6])),
        4 * math.pi * hull_area / perimeter**2,
        area / max(1e-6, hull_area),
    )


@cache
def _prototype_table(px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """All prototype vectors (scaled) in one array, and the shape index of each row."""
    protos = prototypes(px_per_mm)
    rows = [(SHAPES.index(s), v) for s, vs in protos.items() for v in vs]
    return np.array([v for _, v in rows]) * _SCALE, np.array([k for k, _ in rows])


@cache
def prototypes(px_per_mm: float) -> dict[str, list[np.ndarray]]:
    """Feature vectors of ideal faces drawn at `px_per_mm`, turned and blurred as much
    as a photo blurs them."""
    out: dict[str, list[np.ndarray]] = {s: [] for s in SHAPES}
    for shape in SHAPES:
        for angle in (0, 10, 20, 30, 40):
            for sigma in (0.0, 0.4, 0.8, 1.2, 1.6):  # mm of blur: corners round off
                pts = turned(face_outline(shape), angle) * px_per_mm
                n = int(2 * np.abs(pts).max() + 12)
                img = np.zeros((n, n), np.uint8)
                cv2.fillPoly(img, [np.round((pts + n / 2) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
                if sigma:
                    img = cv2.GaussianBlur(img, (0, 0), sigma * px_per_mm)
                contours, _ = cv2.findContours(
                    (img > 127).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
                )
                f = features(max(contours, key=cv2.contourArea))
                if f is not None:
                    out[shape].append(f.vector())
    return out


_SCALE = np.array([1.0, 1.0, 2.0, 0.75])  # the 6-fold ripple is faint: weigh it up


def classify(f: ShapeFeatures, px_per_mm: float) -> tuple[str, float, np.ndarray]:
    """(shape, confidence 0..1, distance to each shape's prototypes, SHAPES order) of a
    face's features."""
    table, shape_of_row = _prototype_table(round(px_per_mm, 2))
    d = np.sqrt(((table - f.vector() * _SCALE) ** 2).sum(axis=1))
    per_shape = np.full(len(SHAPES), np.inf)
    np.minimum.at(per_shape, shape_of_row, d)
    ranked = np.argsort(per_shape)
    best, second = float(per_shape[ranked[0]]), float(per_shape[ranked[1]])
    confidence = (second - best) / max(1e-6, second)
    # an outline far from every prototype is something else (a hand, two tiles, a torn blob)
    fit = 1.0 / (1.0 + (best / 0.08) ** 4)
    return SHAPES[int(ranked[0])], min(1.0, max(0.0, confidence * 1.4)) * fit, per_shape
