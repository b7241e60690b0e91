"""How many tiles of one shape make up a blob of their colour: whole tile faces, of the
size and shape the colour's tiles have, are laid into it one by one, each where it
covers most of what is still unexplained, until the blob is explained.

This counts touching tiles that no dip in colour strength separates (two blue circles
lying against each other, a tile half on top of another): their union's outline is no
tile's, but it is exactly the union of a few whole faces that each fit inside it. A blob
that is not (something else of the colour, a tile half hidden) leaves pixels no whole
face can cover, or needs a face that sticks out of it, and is not counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .shapes import face_outline, face_reach_mm, sweep_kernel, turned

# a tile's shape repeats after this turn (degrees); faces are tried turned in steps of _STEP_DEG
_PERIOD = {"square": 90.0, "hexagon": 60.0, "diamond": 180.0, "circle": 360.0}
_STEP_DEG = 7.5
_SLACK_MM = 0.7  # a face's outline is this uncertain (blur, the cut-back side face)
_NECK_MM = 4.0  # parts of a blob narrower than this need no face of their own
_INSIDE = 0.9  # of a laid face, at least this share lies in the blob
_COVER = 0.95  # the faces together cover at least this share of the blob
_LEAST_NEW = 0.4  # a face laid must explain this share of a face's area not yet covered
_HIDDEN = 0.5  # tiles lying on one another hide at most this many tiles' area of a blob
_HEM = 0.5  # weight of a face's hemmed-in rim pixels against the pixels it explains
_WORK_PX_PER_MM = 1.5  # faces are laid at this resolution: a tile is 30 px across, enough
# A tile partly hidden (lay_hidden): its face holds this share of what shows, of which
# there is at least this share of a face; this share of the face does not show, and of
# that, this share lies under what hides it.
_HOLDS = 0.95
_SEEN_LEAST = 0.4
_UNSEEN_LEAST = 0.05
_HIDDEN_ALL = 0.9


@dataclass(frozen=True)
class Packing:
    centres: list[tuple[float, float]]  # region px
    turns: list[float]  # degrees


@cache
def _faces(shape: str, px_per_mm: float) -> tuple[tuple[float, np.ndarray, np.ndarray], ...]:
    """(turn, face mask, the ring of pixels round it) for each turn tried; masks float32,
    square and odd-sized, centred."""
    outline = face_outline(shape) * px_per_mm
    n = 2 * math.ceil(face_reach_mm(shape) * px_per_mm) + 3
    period = _PERIOD[shape]
    out = []
    for turn in np.arange(0.0, period, _STEP_DEG if shape != "circle" else period):
        pts = turned(outline, turn) + n // 2
        mask = np.zeros((n, n), np.uint8)
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
        ring = cv2.dilate(mask, np.ones((3, 3), np.uint8)) - mask
        out.append((float(turn), mask.astype(np.float32), ring.astype(np.float32)))
    return tuple(out)


def pack(
    region: np.ndarray,
    shape: str,
    px_per_mm: float,
    most: int,
    *,
    room: np.ndarray | None = None,
    sweep_px: np.ndarray | None = None,
) -> Packing | None:
    """The whole faces of `shape` that explain `region` (a uint8 mask of one colour's
    blob at `px_per_mm`, cut back to the tiles' footprints by shapes.unsweep), at most
    `most`, each lying within `room` (a uint8 mask the size of `region`; by default the
    blob itself); None when no such faces explain it. `sweep_px`, where a tile's top lies
    from its footprint: a tile's top hides the gap beyond it, which the cut back keeps."""
    zoom = min(1.0, _WORK_PX_PER_MM / px_per_mm)
    if zoom < 1.0:
        region = _shrink(region, zoom)
        room = None if room is None else _shrink(room, zoom)
    px = px_per_mm * zoom
    neck = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(_NECK_MM * px) | 1,) * 2)
    found = _pack(
        region,
        region if room is None else room,
        _faces(shape, round(px, 2)),
        slack=max(1, round(_SLACK_MM * px)),
        most=most,
        neck=neck,
        beyond=sweep_kernel(np.zeros(2) if sweep_px is None else np.asarray(sweep_px, np.float64) * zoom),
    )
    if found is None or zoom == 1.0:
        return found
    # a pixel's centre lies half a pixel in: so it does at either resolution
    centres = [((x + 0.5) / zoom - 0.5, (y + 0.5) / zoom - 0.5) for x, y in found.centres]
    return Packing(centres, found.turns)


def _shrink(mask: np.ndarray, zoom: float) -> np.ndarray:
    small = cv2.resize(mask.astype(np.float32), None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
    return (small >= 0.5).astype(np.uint8)


def _pack(
    region: np.ndarray,
    room: np.ndarray,
    faces: tuple[tuple[float, np.ndarray, np.ndarray], ...],
    *,
    slack: int,
    most: int,
    neck: np.ndarray,
    beyond: np.ndarray,
) -> Packing | None:
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * slack + 1, 2 * slack + 1))
    # room for any face that lies mostly inside: more than half of one centred nearer
    # the edge than its own half-size would lie off the room
    pad = faces[0][1].shape[0] // 2 + slack + 1 + max(beyond.shape) // 2
    blob = cv2.copyMakeBorder(region, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    # a face may reach the slack past its room's edge; the blob's rim need not be covered
    loose = cv2.dilate(cv2.copyMakeBorder(room, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0), kernel)
    loose = loose.astype(np.float32)
    # nor need a neck between two tiles (their side faces, blur bridging the gap) be
    must = cv2.morphologyEx(cv2.erode(blob, kernel), cv2.MORPH_OPEN, neck)
    if not must.any():
        return None
    areas = [float(m.sum()) for _, m, _ in faces]
    outside = [
        a - cv2.filter2D(loose, -1, m, borderType=cv2.BORDER_CONSTANT)
        for (_, m, _), a in zip(faces, areas, strict=True)
    ]
    fits = [out <= (1 - _INSIDE) * a + 0.5 for out, a in zip(outside, areas, strict=True)]
    left = blob.copy()
    centres: list[tuple[float, float]] = []
    turns: list[float] = []
    laid = np.zeros_like(loose)
    for _laid in range(most):
        left_f = left.astype(np.float32)
        # A face goes where it explains most and sticks out least; of places alike, where
        # the blob's edge or a face laid hems it in most: a row of tiles is then laid from
        # its ends, tile on tile, not astride two (which leaves halves that take a face each).
        hemmed = 1.0 - loose + laid
        # each turn's faces by what they explain, net of what sticks out (per pixel: faces
        # turned differently differ in pixels); the hem only ranks turns that can still win
        nets = []
        for (turn, mask, ring), fit, area, out in zip(faces, fits, areas, outside, strict=True):
            if not fit.any():
                continue
            gain = cv2.filter2D(left_f, -1, mask, borderType=cv2.BORDER_CONSTANT)
            net = (gain - out) / area
            net[~fit | (gain < _LEAST_NEW * area)] = -np.inf
            nets.append((float(net.max()), net, turn, mask, ring, area))
        best = None
        for top, net, turn, mask, ring, area in sorted(nets, key=lambda t: -t[0]):
            if not np.isfinite(top) or (best is not None and top + _HEM * ring.sum() / area <= best[0]):
                continue
            score = net + _HEM / area * cv2.filter2D(hemmed, -1, ring, borderType=cv2.BORDER_CONSTANT)
            y, x = np.unravel_index(int(np.argmax(score)), score.shape)
            if best is None or score[y, x] > best[0]:
                best = (float(score[y, x]), int(x), int(y), turn, mask)
        if best is None:
            break
        _, x, y, turn, mask = best
        h = mask.shape[0] // 2
        # the face explains its footprint and, where the cut back kept it, the gap its
        # top hides beyond it
        ky, kx = beyond.shape[0] // 2, beyond.shape[1] // 2
        swept = cv2.dilate(cv2.copyMakeBorder(mask, ky, ky, kx, kx, cv2.BORDER_CONSTANT, value=0), beyond)
        left[y - h - ky : y + h + ky + 1, x - h - kx : x + h + kx + 1] &= (swept == 0).view(np.uint8)
        laid[y - h : y + h + 1, x - h : x + h + 1] = np.maximum(
            laid[y - h : y + h + 1, x - h : x + h + 1], mask
        )
        centres.append((float(x - pad), float(y - pad)))
        turns.append(turn)
        if not (left & must).any():
            break
    cover = 1.0 - float((left & must).sum()) / float(must.sum())
    # tiles lying apart fill their blob; one on another hides some of it, but a count
    # far past the blob's area is faces laid astride tiles, each explaining a sliver
    if not centres or cover < _COVER or len(centres) > float(region.sum()) / areas[0] + _HIDDEN:
        return None
    return Packing(centres, turns)


def lay_hidden(
    seen: np.ndarray,
    hidden: np.ndarray,
    shape: str,
    px_per_mm: float,
    *,
    about: tuple[float, float],
    reach_mm: float,
) -> Packing | None:
    """The whole face of `shape` of which `seen` (a uint8 mask at `px_per_mm`: one tile's
    top where it shows) is a part, the rest lying under `hidden` (a uint8 mask: an arm,
    a sleeve, what the photo's edge cuts off), centred within `reach_mm` of `about` (mask
    px); None when there is none. The face must hold all that shows, and what of it does
    not show must all be hidden: a fingertip or a sleeve's cuff of a tile's colour, laid
    round with print, is no tile."""
    zoom = min(1.0, _WORK_PX_PER_MM / px_per_mm)
    if zoom < 1.0:
        seen, hidden = _shrink(seen, zoom), _shrink(hidden, zoom)
    px = px_per_mm * zoom
    faces = _faces(shape, round(px, 2))
    slack = max(1, round(_SLACK_MM * px))
    # only centres within reach are tried: the masks cut down to what such faces cover
    half = faces[0][1].shape[0] // 2 + slack + 1
    cx, cy = ((about[0] + 0.5) * zoom - 0.5, (about[1] + 0.5) * zoom - 0.5)
    r = math.ceil(reach_mm * px)
    x0, y0 = round(cx) - r - half, round(cy) - r - half
    size = 2 * (r + half) + 1
    seen_f = _cut(seen, x0, y0, size, 0).astype(np.float32)
    if seen_f.sum() < seen.sum():
        return None  # what shows reaches further than any such face
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * slack + 1, 2 * slack + 1))
    near_seen = cv2.dilate(seen_f, kernel)
    # what lies past the masks' edge is not seen: hidden too
    under = _cut(hidden, x0, y0, size, 1).astype(np.float32) * (1 - near_seen)
    shown = float(seen_f.sum())
    yy, xx = np.mgrid[:size, :size]
    within = np.hypot(xx + x0 - cx, yy + y0 - cy) <= reach_mm * px
    best = None
    for turn, mask, _ in faces:
        loose, tight = _loose_and_tight(shape, round(px, 2), turn, slack)
        held = cv2.filter2D(seen_f, -1, loose, borderType=cv2.BORDER_CONSTANT)
        # the face's inside not seen, and how much of that is hidden
        unseen = float(tight.sum()) - cv2.filter2D(near_seen, -1, tight, borderType=cv2.BORDER_CONSTANT)
        covered = cv2.filter2D(under, -1, tight, borderType=cv2.BORDER_CONSTANT)
        fine = (held >= _HOLDS * shown) & (unseen >= _UNSEEN_LEAST * float(tight.sum()))
        fine &= covered >= _HIDDEN_ALL * unseen
        fine &= within & (shown >= _SEEN_LEAST * float(mask.sum()))
        if not fine.any():
            continue
        score = np.where(fine, held + covered, -np.inf)
        y, x = np.unravel_index(int(np.argmax(score)), score.shape)
        if best is None or score[y, x] > best[0]:
            best = (float(score[y, x]), x + x0, y + y0, turn)
    if best is None:
        return None
    _, x, y, turn = best
    return Packing([((x + 0.5) / zoom - 0.5, (y + 0.5) / zoom - 0.5)], [turn])


def _cut(mask: np.ndarray, x0: int, y0: int, size: int, fill: int) -> np.ndarray:
    """The size x size square of a mask from (x0, y0), `fill` where it lies off the mask."""
    h, w = mask.shape
    out = np.full((size, size), fill, np.uint8)
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + size), min(h, y0 + size)
    if xa < xb and ya < yb:
        out[ya - y0 : yb - y0, xa - x0 : xb - x0] = mask[ya:yb, xa:xb]
    return out


@cache
def _loose_and_tight(shape: str, px_per_mm: float, turn: float, slack: int) -> tuple[np.ndarray, np.ndarray]:
    """A face turned `turn` grown and shrunk by the slack of its outline."""
    mask = next(m for t, m, _ in _faces(shape, px_per_mm) if t == turn)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * slack + 1, 2 * slack + 1))
    return cv2.dilate(mask, kernel), cv2.erode(mask, kernel)
