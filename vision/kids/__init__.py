"""Azul Kids vision: one frame in, one `azul-kids-observation/1` out (docs/kids-observation.md).

    observation = recognise_kids(frame, boards=[example_board("Sea (example)"), ...])

Boards are found by their frame and named by matching the given board definitions
(`azul-kids-board/1`, with field outlines); the tray by its six bowls. Tiles are read
by colour and by shape (contour geometry after rectification), each must agree with
the other, and anything unsure is "unknown". No rules decisions are made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.i18n import _
from companion.rules.kids_board import KidsBoard

from .boards import BoardFind, BoardReading, identify
from .bowls import BIG, BowlReading, find_tray, find_tray_on_table, read_bowls
from .colors import tint
from .frames import (
    Frames,
    complete_corner,
    complete_frame,
    complete_from_above,
    find_frames,
    frames_from_holes,
    quad_sides,
)
from .geometry import BOARD_H_MM, BOARD_W_MM, FRAME_MM
from .outlines import read_fitted
from .tiles import UNKNOWN

FORMAT = "azul-kids-observation/1"
_DETECT_SIZE = 960
# the violet of the boards' frames and of the tray (OpenCV HSV)
_VIOLET_LO, _VIOLET_HI = (118, 70, 35), (160, 255, 255)
# how much longer than from straight above a board seen on three sides may be in the photo
_STRETCH = (0.7, 0.8, 0.9, 1.0, 1.12, 1.25)
# ... and how far off the unseen side of a frame completed on the table's plane may lie
_NUDGE = (0.98, 1.02, 0.96, 1.04)

__all__ = ["BIG", "FORMAT", "UNKNOWN", "KidsRecognition", "analyse_kids", "recognise_kids"]


@dataclass
class KidsRecognition:
    """The observation, and what it was read from (for overlays and tests)."""

    observation: dict
    boards: list[tuple[BoardFind, BoardReading]] = field(default_factory=list)
    bowls: list[BowlReading] = field(default_factory=list)


def recognise_kids(frame: np.ndarray, boards: Sequence[KidsBoard]) -> dict:
    """The `azul-kids-observation/1` of one BGR frame (uint8, H x W x 3)."""
    return analyse_kids(frame, boards).observation


def analyse_kids(frame: np.ndarray, boards: Sequence[KidsBoard]) -> KidsRecognition:
    frame = _as_bgr(frame)
    definitions = tuple(boards)
    if not definitions:
        raise ValueError(_("recognising Azul Kids needs at least one board definition"))
    h, w = frame.shape[:2]
    scale = min(1.0, _DETECT_SIZE / max(w, h))
    small = (
        cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        if scale < 1
        else frame
    )
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    violet = cv2.inRange(hsv, _VIOLET_LO, _VIOLET_HI)
    violet = cv2.morphologyEx(violet, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    min_area = 0.004 * small.shape[0] * small.shape[1]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    frames = find_frames(violet, min_area)
    whole = [identify(frame, gray, quad / scale, definitions) for quad in frames.quads]
    finds = _distinct(whole)
    unnamed = [quad / scale for quad, find in zip(frames.quads, whole, strict=True) if find is None]
    partial = _partial_frames(frames, unnamed, scale)
    if not finds and frames.open:
        finds = _distinct([identify(frame, gray, q, definitions) for q in _from_above(frames.open, scale)])
    if finds and partial:
        finds = _distinct(finds + _completed(frame, gray, partial, finds=finds, definitions=definitions))
    # a frame whose band runs into other violet (a mat, the tray) shows as the hole it closes
    inside = [q / scale for q in frames_from_holes(violet, min_area, (BOARD_W_MM, BOARD_H_MM), FRAME_MM)]
    inside = [q for q in inside if not _on_a_find(q.mean(axis=0), finds)]
    if inside:
        finds = _distinct(finds + [identify(frame, gray, q, definitions) for q in inside])
    found = [read_fitted(frame, gray, b) for b in finds]
    found = _seat_order(found)
    tray = find_tray(violet, scale, min_area, (w, h))
    if tray is None and finds:
        table = max(finds, key=lambda b: b.score).plane.h
        tray = find_tray_on_table(violet, scale, min_area, table, (w, h))
    lamp = np.median([tint(r.gains) for _, r in found], axis=0) if found else None
    bowls = read_bowls(frame, tray, lamp) if tray is not None else []
    occluded = any(r.occluded for _, r in found) or any(b.occluded for b in bowls) or tray is None
    observation = {
        "format": FORMAT,
        "image": {"width": int(w), "height": int(h)},
        "occluded": bool(occluded),
        "boards": [_board_json(b, r) for b, r in found],
        "bowls": [b.as_json() for b in bowls],
    }
    return KidsRecognition(observation, found, bowls)


def _board_json(find: BoardFind, reading: BoardReading) -> dict:
    pictures = []
    for picture, row in zip(find.board.pictures, reading.pictures, strict=True):
        pictures.append(
            {
                "id": picture.id,
                "fields": [f.value for f in row],
                "confidence": [round(float(f.confidence), 3) for f in row],
            }
        )
    return {
        "center": [round(float(v)) for v in find.center],
        "rotation": find.rotation,
        "side": find.board.side,
        "board": find.board.name,
        "pictures": pictures,
        "confidence": round(float(find.confidence), 3),
    }


def _partial_frames(frames: Frames, unnamed: list[np.ndarray], scale: float) -> list[list]:
    """Frames seen in part, as their sides in image px: three sides, then a quad whose
    print did not match taken three sides at a time (one of its sides may be wrong: a
    mat's edge, the photo's border), then two sides meeting at a corner, the corners of
    three sides included (the third may be wrong)."""
    three = [[(p / scale, n) for p, n in sides] for sides in frames.open]
    two = [[(p / scale, n) for p, n in sides] for sides in frames.corners]
    two += [pair for a, b, c in three for pair in ([a, b], [b, c])]
    for quad in unnamed:
        sides = quad_sides(quad)
        three += [[sides[(k + 1) % 4], sides[(k + 2) % 4], sides[(k + 3) % 4]] for k in range(4)]
    return three + two


def _from_above(open_frames: list[list], scale: float) -> list[np.ndarray]:
    """Frames seen on three sides, completed in image px as if the camera looked straight
    down: with no board found whole, nothing gives the table's plane. A tilted camera
    foreshortens the board away from it, or draws it out towards it, so the unseen side
    is also tried nearer and further (the print decides)."""
    board_mm = (BOARD_W_MM, BOARD_H_MM)
    out = []
    for sides in open_frames:
        sides = [(p / scale, n) for p, n in sides]
        for quad in complete_from_above(sides, board_mm):
            out += _stretched(quad, sides[1], _STRETCH)
    return out


def _stretched(quad: np.ndarray, middle: tuple[np.ndarray, np.ndarray], stretches: tuple) -> list[np.ndarray]:
    """A frame completed from three sides, its unseen side moved nearer to or further
    from the `middle` side (point, normal) by each stretch of the board's length."""
    point, normal = middle
    far = np.argsort(-np.abs((quad - point) @ normal))[:2]  # the corners off the middle side
    near = [next(j for j in ((k + 1) % 4, (k + 3) % 4) if j not in far) for k in far]
    out = []
    for stretch in stretches:
        moved = quad.copy()
        moved[far] = quad[near] + stretch * (quad[far] - quad[near])
        out.append(moved)
    return out


def _completed(
    frame: np.ndarray,
    gray: np.ndarray,
    partial: list[list],
    *,
    finds: list[BoardFind],
    definitions: tuple[KidsBoard, ...],
) -> list[BoardFind]:
    """Boards whose frame shows in part, completed on the plane of the best board found
    whole (every board lies on the same table, and is 300 x 200 mm). That plane, from a
    frame's corners, is a little off: a board's length away from what shows of a frame,
    the unseen side may be some px off, so it is also tried a little nearer and further."""
    plane = max(finds, key=lambda b: b.score).plane.h
    board_mm = (BOARD_W_MM, BOARD_H_MM)
    out, tried = [], []
    for sides in partial:
        if len(sides) == 3:
            quad = complete_frame(sides, plane, board_mm)
            quads = [] if quad is None else [quad]
        else:
            quads = complete_corner(sides, plane, board_mm)
        for quad in quads:
            if _on_a_find(quad.mean(axis=0), finds) or any(_same_quad(quad, t) for t in tried):
                continue  # a board already found, or a quad already matched
            tried.append(quad)
            nudged = _stretched(quad, sides[1], _NUDGE) if len(sides) == 3 else []
            for candidate in [quad, *nudged]:
                find = identify(frame, gray, candidate, definitions)
                if find is not None:
                    out.append(find)
                    break
    return out


def _same_quad(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two quads have the same corners, to within what the print match
    tolerates (the pieces of one frame complete it alike)."""
    tolerance = 0.01 * float(np.linalg.norm(a[2] - a[0]))
    return any(float(np.abs(np.roll(b, -k, axis=0) - a).max()) < tolerance for k in range(4))


def _on_a_find(point: np.ndarray, finds: list[BoardFind]) -> bool:
    """Whether an image point lies on a board already found."""
    p = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(f.quad.astype(np.float32), p, False) >= 0 for f in finds)


def _distinct(finds: list[BoardFind | None]) -> list[BoardFind]:
    """One find per board: of candidates lying on each other, the best matched."""
    kept: list[BoardFind] = []
    for find in sorted((f for f in finds if f is not None), key=lambda b: -b.score):
        size = np.linalg.norm(find.quad[2] - find.quad[0])
        if all(np.linalg.norm(find.center - k.center) > 0.3 * size for k in kept):
            kept.append(find)
    return kept


def _seat_order(found: list) -> list:
    """Seat 0 nearest the bottom edge, then clockwise as seen from above."""
    if not found:
        return found
    centres = [b.center for b, _ in found]
    middle = np.mean(centres, axis=0)
    first = max(range(len(centres)), key=lambda i: centres[i][1])
    a0 = np.arctan2(*(centres[first] - middle)[::-1])
    return [
        found[i]
        for i in sorted(
            range(len(found)), key=lambda i: (np.arctan2(*(centres[i] - middle)[::-1]) - a0) % (2 * np.pi)
        )
    ]


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    a = np.asarray(frame)
    if a.ndim == 2:
        a = cv2.cvtColor(a, cv2.COLOR_GRAY2BGR)
    elif a.ndim == 3 and a.shape[2] == 4:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2BGR)
    elif a.ndim != 3 or a.shape[2] != 3:
        raise ValueError(_("expected an H x W x 3 BGR image, got shape {shape}").format(shape=a.shape))
    if a.shape[0] < 32 or a.shape[1] < 32:
        raise ValueError(_("image {w}x{h} is too small").format(w=a.shape[1], h=a.shape[0]))
    if a.dtype != np.uint8:
        a = np.clip(a, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(a)
