"""A debug picture of what the Kids recogniser read: board frames, every field outlined
in the colour it was read as (white = empty, magenta = unknown), bowls with their counts."""

from __future__ import annotations

import cv2
import numpy as np

from . import KidsRecognition
from .tiles import UNKNOWN

_BGR = {
    "red": (40, 40, 230),
    "yellow": (0, 210, 255),
    "green": (60, 180, 60),
    "blue": (220, 120, 30),
    None: (255, 255, 255),
    UNKNOWN: (255, 0, 255),
}


def draw_overlay(frame: np.ndarray, recognition: KidsRecognition) -> np.ndarray:
    out = frame.copy()
    width = max(1, round(frame.shape[1] / 960))
    for find, reading in recognition.boards:
        cv2.polylines(out, [np.round(find.quad).astype(np.int32)], True, (0, 255, 0), 2 * width)
        cv2.circle(out, tuple(np.round(find.quad[0]).astype(int)), 6 * width, (0, 255, 0), -1)
        for row in reading.pictures:
            for f in row:
                pts = np.round(find.plane.to_image(f.outline_mm)).astype(np.int32)
                cv2.polylines(out, [pts], True, _BGR[f.value], 2 * width, cv2.LINE_AA)
        label = f"{find.board.name} {find.rotation} {find.confidence:.2f}"
        _text(out, label, find.center, width)
    for bowl in recognition.bowls:
        cv2.polylines(out, [np.round(bowl.outline).astype(np.int32)], True, (0, 255, 255), width, cv2.LINE_AA)
        counts = " ".join(f"{c[0]}{n}" for c, n in sorted(bowl.tiles.items()))
        extra = f" ?{bowl.unknown}" if bowl.unknown else ""
        _text(out, f"{bowl.number}: {counts}{extra}{' occ' if bowl.occluded else ''}", bowl.center, width)
    return out


def _text(img: np.ndarray, text: str, at: np.ndarray, width: int) -> None:
    org = (int(at[0]) - 60 * width, int(at[1]))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * width, (0, 0, 0), 3 * width, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * width, (255, 255, 255), width, cv2.LINE_AA)
