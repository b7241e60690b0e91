"""Whether a found board's printed field outlines show in the photo, and where.

A field read as empty must show its light print inside, but a white or grey sleeve
is light too: over a field it would pass for the print. The printed outline tells them
apart: round an empty field it shows all round as a dark line with the light print
just inside, while under a sleeve it is gone.

The outlines also place the board: its frame is found on a shrunk photo, and a side
found a little askew puts a corner of the board, and the fields there, some mm off
(fit_to_print).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.rules.kids_board import KidsBoard

from .boards import BoardFind, BoardReading, FieldReading, field_outline_mm, moved, per_board, read_board
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
_SEARCH_MM = 4.0  # a field's outline is looked for this far either side of where the find puts it
_FIT_TOLERANCE_MM = 0.75  # a field placed this close to where the board's fit puts it agrees
_MIN_FIELDS_FITTED = 8  # twice what a homography needs: one field misplaced cannot tilt the fit
_MOVED_MM = 0.75  # a fit that moves no field further than this leaves the find as it was


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
    return replace(reading, pictures=pictures, occluded=reading.occluded or any(hidden))


def read_fitted(frame: np.ndarray, gray: np.ndarray, find: BoardFind) -> tuple[BoardFind, BoardReading]:
    """A found board and its reading; a board with a field left unknown is read again
    where its print puts it, if that is clearly elsewhere (fit_to_print): the field
    may have been looked for in the wrong place. A board read whole is not fitted: the
    fit costs a few ms a board, and would change no reading."""
    reading = hide_unshown(gray, find, read_board(frame, find))
    if all(f.value != UNKNOWN for row in reading.pictures for f in row):
        return find, reading
    fitted = fit_to_print(gray, find)
    if fitted is find:
        return find, reading
    return fitted, hide_unshown(gray, fitted, read_board(frame, fitted))


def fit_to_print(gray: np.ndarray, find: BoardFind) -> BoardFind:
    """The find moved onto its printed outlines. A frame's sides are found on the photo
    shrunk to 960 px and fitted to pieces of band: one side a little askew puts a corner
    of the board some mm off, and the fields there with it. Each field's outline, looked
    for across its expected place, says how far its field lies from where the find puts
    it; the fields' shifts, taken together, give the board's true place. The find is
    returned as it was when too few outlines show, or they agree with it."""
    s = _PX_PER_MM
    patch = cv2.GaussianBlur(find.plane.warp(gray, (0.0, 0.0), (BOARD_W_MM, BOARD_H_MM), s), (0, 0), 1.0)
    shifts = _field_shifts(patch.astype(np.float32), find.board)
    if shifts is None:
        return find
    correction = _fitted(*shifts)
    if correction is None:
        return find
    centres = np.float32(_centres(find.board))[:, None]
    if np.abs(cv2.perspectiveTransform(centres, correction) - centres).max() < _MOVED_MM:
        return find
    return moved(find, find.plane.h @ correction, (gray.shape[1], gray.shape[0]))


def _fitted(at: np.ndarray, to: np.ndarray) -> np.ndarray | None:
    """The homography taking fields from where they were to where the print puts them,
    fitted to the fields that agree with it (a field's outline can be misplaced by a
    tile's side face or an arm's edge lying along it); None if too few agree."""
    agree = np.ones(len(at), bool)
    for _refit in range(3):
        if np.count_nonzero(agree) < _MIN_FIELDS_FITTED:
            return None
        h, _ = cv2.findHomography(at[agree], to[agree], 0)
        if h is None:
            return None
        off = np.hypot(*(cv2.perspectiveTransform(at[:, None], h)[:, 0] - to).T)
        agree = off < max(_FIT_TOLERANCE_MM, float(np.median(off)) * 3)
    return h if np.count_nonzero(agree) >= _MIN_FIELDS_FITTED else None


def _field_shifts(patch: np.ndarray, board: KidsBoard) -> tuple[np.ndarray, np.ndarray] | None:
    """(field centres, where the print puts them) in board mm, for the fields whose
    outline shows clearly enough all round to place them; None if too few do."""
    pts, inward, owner = _samples(board)
    step = 1.0 / _PX_PER_MM
    offsets = np.arange(-_SEARCH_MM, _SEARCH_MM + _LIGHT_MM[1] + 1e-9, step)
    along = pts[:, None, :] + offsets[None, :, None] * inward[:, None, :]
    profile = _at(patch, along.reshape(-1, 2) * _PX_PER_MM).reshape(len(pts), len(offsets))
    # each sample's dip (the light print just inside, less the line) with the line at each offset
    near, far = (round(x / step) for x in _LIGHT_MM)
    reach = len(offsets) - far
    dip = np.fmax(profile[:, near : near + reach], profile[:, far:]) - profile[:, :reach]
    seen = np.isfinite(dip).all(axis=1)
    if not seen.any():
        return None
    best = np.argmax(np.where(seen[:, None], dip, -np.inf), axis=1)
    strength = dip[np.arange(len(dip)), best]
    clear = seen & (strength > max(_MIN_DIP, _DIP_SHARE * float(np.percentile(strength[seen], 75))))
    found = offsets[best]
    # per field, the shift s with inward . s = the offset found all round its outline (least squares)
    fields = int(owner.max()) + 1
    n = inward * clear[:, None]
    a = np.bincount(owner, n[:, 0] * n[:, 0], fields)
    b = np.bincount(owner, n[:, 0] * n[:, 1], fields)
    c = np.bincount(owner, n[:, 1] * n[:, 1], fields)
    u = np.bincount(owner, n[:, 0] * found, fields)
    v = np.bincount(owner, n[:, 1] * found, fields)
    det = a * c - b * b
    shown = np.bincount(owner, clear, fields) >= _MIN_SHOWN * np.bincount(owner, minlength=fields)
    # the smaller eigenvalue: an outline that shows along one side only places its field one way
    least = (a + c) / 2 - np.sqrt(((a - c) / 2) ** 2 + b * b)
    placed = shown & (least > 0.2 * np.bincount(owner, clear, fields))
    if np.count_nonzero(placed) < _MIN_FIELDS_FITTED:
        return None
    shift = np.column_stack([c * u - b * v, a * v - b * u])[placed] / det[placed, None]
    centres = _centres(board)[placed]
    return np.float32(centres), np.float32(centres + shift)


@per_board
def _centres(board: KidsBoard) -> np.ndarray:
    """Each field's centre (board mm, definition order)."""
    return np.array([field_outline_mm(f).mean(axis=0) for p in board.pictures for f in p.fields])


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
