"""Reading tiles from a rectified patch: each tile colour's pixels cut back to the top
faces (see shapes.unsweep), each face checked for the shape of its colour, and counted.

Working colour by colour keeps tiles of different colours apart even where their side
faces touch; cutting back to the top faces keeps tiles of one colour apart as long as
they do not touch (their tops are then separate even when their sides merge).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .colors import COLORS
from .shapes import classify, face_area_mm2, features, unsweep

SHAPE_OF = dict(zip(COLORS, ("square", "hexagon", "diamond", "circle"), strict=True))
UNKNOWN = "unknown"
MIN_CONFIDENCE = 0.5
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


@dataclass
class TileBlob:
    """One top face: a tile of `value` (a colour), or "unknown" standing for `count` tiles."""

    value: str
    count: int
    confidence: float
    color: str  # the colour its pixels have, whether or not its shape agreed
    contour: np.ndarray  # patch px

    @property
    def centre(self) -> np.ndarray:
        return self.contour.reshape(-1, 2).mean(axis=0)


def colour_masks(labels: np.ndarray) -> list[np.ndarray]:
    """Per colour (COLORS order), its pixels with specks removed."""
    return [
        cv2.morphologyEx((labels == k + 1).astype(np.uint8), cv2.MORPH_OPEN, _OPEN)
        for k in range(len(COLORS))
    ]


def read_faces(
    labels: np.ndarray, px_per_mm: float, sweep_px: np.ndarray, region: np.ndarray | None = None
) -> list[TileBlob]:
    """Every tile face in a patch (optionally only those centred in `region`, a uint8 mask)."""
    out = []
    for k, mask in enumerate(colour_masks(labels)):
        if not mask.any():
            continue
        face = unsweep(mask, sweep_px)
        contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            blob = read_face(COLORS[k], contour, px_per_mm)
            if blob is None:
                continue
            if region is not None:
                cx, cy = np.round(blob.centre).astype(int)
                if not (0 <= cy < region.shape[0] and 0 <= cx < region.shape[1] and region[cy, cx]):
                    continue
            out.append(blob)
    return out


def read_face(color: str, contour: np.ndarray, px_per_mm: float) -> TileBlob | None:
    """A face outline of one colour: that colour's tile, "unknown", or None if it is a speck."""
    expected = face_area_mm2(SHAPE_OF[color]) * px_per_mm**2
    hull_area = float(cv2.contourArea(cv2.convexHull(contour)))
    ratio = hull_area / expected
    if ratio < 0.3:
        return None
    if ratio > 1.55:  # tiles touching each other, or something that is no tile
        return TileBlob(UNKNOWN, max(1, round(ratio)), 0.0, color, contour)
    f = features(contour)
    if f is None:
        return TileBlob(UNKNOWN, 1, 0.0, color, contour)
    shape, shape_confidence, _ = classify(f, px_per_mm)
    size_confidence = float(np.clip(1.0 - abs(np.log(ratio)) / np.log(1.5), 0, 1)) ** 0.5
    solid_confidence = float(np.clip((f.solidity - 0.75) / 0.15, 0, 1))
    confidence = min(shape_confidence, size_confidence, solid_confidence)
    if shape != SHAPE_OF[color] or confidence < MIN_CONFIDENCE:
        return TileBlob(UNKNOWN, 1, confidence if shape == SHAPE_OF[color] else 0.0, color, contour)
    return TileBlob(color, 1, confidence, color, contour)
