"""Annotated overlays a person can check: what was found and how each place was read."""

from __future__ import annotations

import cv2
import numpy as np

from .aruco import Aid
from .cells import PLACES
from .color import UNKNOWN
from .recognize import Recognition

# Drawing colours (BGR) for each reading.
_INK = {
    "blue": (200, 120, 20), "yellow": (0, 170, 255), "red": (40, 40, 230), "black": (30, 30, 30),
    "white": (255, 255, 255), "marker": (120, 40, 20), None: (160, 160, 160), UNKNOWN: (255, 0, 255),
}
_AID_INK = (0, 140, 255)  # the kit's markers and the places they give
_LETTER = {"blue": "B", "yellow": "Y", "red": "R", "black": "K", "white": "W", "marker": "1",
           None: ".", UNKNOWN: "?"}


def overlay(frame: np.ndarray, rec: Recognition) -> np.ndarray:
    """A copy of the frame with board outlines, seats, each place's reading, factories and the centre."""
    out = frame.copy()
    w = out.shape[1]
    unit = max(1.0, w / 1920)
    thick = max(1, round(2 * unit))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for seat, (board, reading) in enumerate(rec.boards):
        cv2.polylines(out, [np.round(board.quad).astype(np.int32)], True, (0, 255, 0), thick, cv2.LINE_AA)
        # The owner's top edge drawn thicker, so the rotation can be checked at a glance.
        top = np.round(board.quad[:2]).astype(np.int32)
        cv2.line(out, tuple(top[0]), tuple(top[1]), (0, 200, 255), thick * 3, cv2.LINE_AA)
        c = np.round(board.center).astype(int)
        label = f"seat {seat} {reading.side} rot {board.rotation} conf {reading.confidence:.2f}"
        cv2.putText(out, label, (int(c[0] - 120 * unit), int(c[1])), font, 0.5 * unit, (0, 0, 0),
                    thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, (int(c[0] - 120 * unit), int(c[1])), font, 0.5 * unit, (0, 255, 0),
                    thick, cv2.LINE_AA)
        for place, point in zip(PLACES, reading.sample_points, strict=True):
            r = reading.places[place]
            p = tuple(np.round(point).astype(int))
            cv2.circle(out, p, max(2, round(4 * unit)), _INK[r.value], -1, cv2.LINE_AA)
            cv2.circle(out, p, max(2, round(4 * unit)), (0, 0, 0), 1, cv2.LINE_AA)
            cv2.putText(out, _LETTER[r.value], (p[0] + round(4 * unit), p[1] - round(3 * unit)), font,
                        0.35 * unit, (255, 0, 255) if r.value == UNKNOWN else (0, 0, 0), 1, cv2.LINE_AA)
    for number, f in enumerate(rec.factories, start=1):
        c = tuple(np.round(f.center).astype(int))
        cv2.circle(out, c, max(4, round(f.radius)), (255, 255, 0), thick, cv2.LINE_AA)
        text = f"{number}: " + "".join(_LETTER.get(t, "?") for t in f.tiles) + "?" * f.unknown
        cv2.putText(out, text, (c[0] - round(30 * unit), c[1] - round(f.radius) - 4), font, 0.5 * unit,
                    (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, text, (c[0] - round(30 * unit), c[1] - round(f.radius) - 4), font, 0.5 * unit,
                    (255, 255, 0), thick, cv2.LINE_AA)
        for point, value in zip(f.tile_points, f.slot_values, strict=True):
            p = tuple(np.round(point).astype(int))
            cv2.circle(out, p, max(2, round(4 * unit)), _INK[value], -1, cv2.LINE_AA)
    if rec.center is not None:
        for point, value in zip(rec.center.tile_points, rec.center.values, strict=True):
            p = tuple(np.round(point).astype(int))
            cv2.drawMarker(out, p, _INK[value], cv2.MARKER_TILTED_CROSS, round(14 * unit), thick)
    if rec.aid is not None:
        _draw_aid(out, rec.aid, unit, thick)
    return out


def _draw_aid(out: np.ndarray, aid: Aid, unit: float, thick: int) -> None:
    """The kit's markers seen (each outlined, with its id) and where they place each seat's
    board (by its tags, or by the seat's place in the layout)."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    for marker in aid.markers:
        cv2.polylines(out, [np.round(marker.corners).astype(np.int32)], True, _AID_INK, thick, cv2.LINE_AA)
        at = tuple(np.round(marker.corners[0]).astype(int))
        cv2.putText(out, str(marker.id), at, font, 0.6 * unit, _AID_INK, thick, cv2.LINE_AA)
    for region in aid.boards:
        cv2.polylines(out, [np.round(region.quad).astype(np.int32)], True, _AID_INK, 1, cv2.LINE_AA)
        x, y = np.round(region.quad[3]).astype(int)
        cv2.putText(out, f"seat {region.seat} ({region.source})", (int(x), int(y - round(6 * unit))), font,
                    0.45 * unit, _AID_INK, 1, cv2.LINE_AA)
