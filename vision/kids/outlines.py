"""Whether a found board's printed field outlines show in the photo.

A field read as empty must show its light print inside, but a white or grey sleeve
is light too: over a field it would pass for the print. The printed outline tells them
apart: round an empty field it shows all round as a dark line with the light print
just inside, while under a sleeve it is gone.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.rules.kids_board import KidsBoard

from .boards import BoardFind, BoardReading, FieldReading, field_outline_mm, per_board
from .geometry import BOARD_H_MM, BOARD_W_MM
from .tiles import UNKNOWN

_PX_PER_MM = 2.0
_STEP_MM = 1.5  # outline samples this far apart
# the printed line is looked for across this (a find is a mm off)
_INK_REACH_MM = (-1.5, -0.75, 0.0, 0.75, 1.5)
_LIGHT_MM = (2.5, 3.5)  # the light print inside the line
_MIN_DIP = 10.0  # grey levels: the least dip of a line that shows
_DIP_SHARE = 0.35  # ... or this share of the board's clearly shown lines, if more
_MIN_SHOWN = 0.5  # share of an empty field's outline that must show


def hide_unshown(gray: np.ndarray, find: BoardFind, reading: BoardReading) -> BoardReading:
    """The reading with every field read empty whose outline does not show made
    "unknown": something light lies over it (the board is then occluded)."""
    empty = [f.value is None for row in reading.pictures for f in row]
    if not any(empty):
        return reading
    shown = _outline_shown(gray, find, empty)
    hidden = [bool(e and s < _MIN_SHOWN) for e, s in zip(empty, shown, strict=True)]
    flags = iter(hidden)
    pictures = [
        [FieldReading(UNKNOWN, 0.0, f.outline_mm) if next(flags) else f for f in row]
        for row in reading.pictures
    ]
    return BoardReading(pictures, reading.occluded or any(hidden))


def _outline_shown(gray: np.ndarray, find: BoardFind, wanted: list[bool]) -> np.ndarray:
    """For each field (definition order), the share of its printed outline that shows:
    a dark line with lighter print just inside it (NaN where not `wanted`)."""
    s = _PX_PER_MM
    patch = find.plane.warp(gray, (0.0, 0.0), (BOARD_W_MM, BOARD_H_MM), s)
    patch = cv2.GaussianBlur(patch, (0, 0), 1.0).astype(np.float32)
    pts, inward, owner = _samples(find.board)
    keep = np.asarray(wanted)[owner]
    pts, inward, owner = pts[keep], inward[keep], owner[keep]
    ink = np.min([_at(patch, (pts + d * inward) * s) for d in _INK_REACH_MM], axis=0)
    light = np.max([_at(patch, (pts + d * inward) * s) for d in _LIGHT_MM], axis=0)
    dip = light - ink
    seen = np.isfinite(dip)
    if not seen.any():
        return np.zeros(len(wanted))
    level = max(_MIN_DIP, _DIP_SHARE * float(np.percentile(dip[seen], 75)))
    shows = np.bincount(owner[seen], weights=(dip[seen] > level).astype(np.float64), minlength=len(wanted))
    counted = np.bincount(owner[seen], minlength=len(wanted))
    return shows / np.maximum(counted, 1)


@per_board
def _samples(board: KidsBoard) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points every _STEP_MM along each field's outline (board mm), the unit vector from
    each into its field, and the field's index."""
    outlines = [field_outline_mm(f) for p in board.pictures for f in p.fields]
    pts = [_resampled(np.vstack([o, o[:1]])) for o in outlines]
    inward = [o.mean(axis=0) - p for o, p in zip(outlines, pts, strict=True)]
    inward = [v / np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-9)[:, None] for v in inward]
    owner = np.concatenate([np.full(len(p), k) for k, p in enumerate(pts)])
    return np.concatenate(pts), np.concatenate(inward), owner


def _resampled(polyline: np.ndarray) -> np.ndarray:
    """Points every _STEP_MM along a polyline."""
    seg = np.diff(polyline, axis=0)
    length = np.concatenate([[0.0], np.cumsum(np.hypot(seg[:, 0], seg[:, 1]))])
    at = np.arange(0.0, length[-1], _STEP_MM)
    return np.column_stack([np.interp(at, length, polyline[:, 0]), np.interp(at, length, polyline[:, 1])])


def _at(patch: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Nearest-pixel values at points (NaN off the patch, or where the photo ends: black)."""
    h, w = patch.shape
    x, y = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    out = np.full(len(pts), np.nan, np.float32)
    out[inside] = patch[y[inside], x[inside]]
    out[out == 0] = np.nan
    return out
