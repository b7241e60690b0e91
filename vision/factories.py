"""Factory displays and the centre pile.

A factory is a round disc: an orange-brown rim, a cream ring, a blue sunburst
(about 59 mm across) that shows round the tiles lying on it. Blue blobs are where
to look; the disc itself is then measured by its ring's outer edge, an ellipse in
the image that maps to a circle: no board is needed to find or read a disc. Its
tiles lie in a 2 x 2 block of places about the middle, turned as their outlines
run, each read at its top face (7 mm up, so off the block's foot when seen
obliquely). A place next to a stretch of hidden rim (a hand, a cup, the frame's
edge) is unknown. The centre pile is whatever is not table inside the ring of discs.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from . import color
from .boards import (
    BLUE_HSV,
    BOARD_H_MM,
    BOARD_W_MM,
    TILE_THICK_MM,
    BoardFind,
    board_of_panel,
)
from .cells import FINAL, HIDDEN, PLACE_MODELS, leans_on, place_probabilities, window_features
from .color import COLORS, MARKER, UNKNOWN, WhiteBalance
from .geometry import apply_h, camera_in_plane, clockwise_from_bottom, parallax, rolled, stretches
from .stats import components, median, percentile

SUNBURST_RADIUS_MM = 29.5
DISC_RADIUS_MM = 45.0
TILE_MM = 20.0
_PATCH_PX_PER_MM = 2.0
# A factory's place is read only when its model is this sure. (At 0.75, seed 7 read 11
# more discs exactly and 8 more wrong with no place unknown. From 0.85 to 0.80, seeds 7
# / 9 / 8 / 2 / 1: +4 / +3 / +9 / +1 / -1 exactly, 1 / 0 / 1 / 0 / 2 more wrong with no
# place unknown; seed 7 on to 0.75: 1 more exactly, 1 more wrong.)
SURE = 0.80
# A top face lies off its foot by the tile's thickness times the tangent of the view's
# angle from vertical there: a camera tilted 45 degrees sees the far discs at some 60-65.
_LIFT_MOST = TILE_THICK_MM * 2.5
_CENTER_PX_PER_MM = 1.5  # a tile is 30 px across: plenty to segment the pile and read it
_RING_PX_PER_MM = 1.5  # enough to find the ring's edge, to a fraction of a mm after fitting

# On a disc no printed cell lies under a tile, so a pale colour there is a tile washed
# out by glare or gloss: each tile's mixes, and its washed-out looks.
_DISC_TILE_MIXES = {c: list(color.TILE_MIXES[c]) for c in COLORS}
_DISC_TILE_MIXES["blue"] += [color._mix(pale_blue=0.7, blue=0.2, white=0.1),
                             color._mix(pale_blue=0.5, pale_teal=0.2, white=0.3)]
_DISC_TILE_MIXES["red"] += [color._mix(pale_red=0.7, red=0.15, darkred=0.15),
                            color._mix(pale_red=0.5, white=0.4, red=0.1)]
_DISC_TILE_MIXES["yellow"] += [color._mix(pale_orange=0.6, orange=0.2, skin=0.1, cream=0.1),
                               color._mix(cream=0.5, pale_orange=0.4, skin=0.1),
                               color._mix(skin=0.8, orange=0.15, darkred=0.05)]
_DISC_TILE_MIXES["black"] += [color._mix(pale_dark=0.35, dark=0.2, pale_teal=0.15, grey=0.15, white=0.1,
                                         pale_blue=0.05)]
_DISC_TILE_MIXES["white"] += [color._mix(white=0.5, pale_teal=0.4, cream=0.1)]

_EMPTY_DISC = [color._mix(print_blue=0.5, print_light=0.4, navy=0.1),
               color._mix(print_light=0.6, print_blue=0.3, blue=0.1),
               color._mix(print_blue=0.6, navy=0.3, print_light=0.1)]


@dataclass(frozen=True)
class FactoryReading:
    center: np.ndarray
    radius: float  # image px, for drawing
    tiles: list[str]
    unknown: int
    confidence: float
    tile_points: list = field(default_factory=list)
    slot_values: list = field(default_factory=list)
    rim_hidden: float = 0.0  # the share of the rim something (a hand, a sleeve, a cup) hides
    features: list = field(default_factory=list)  # each place as the place model sees it (None: unseen)
    looked: _DiscLooked | None = field(default=None, repr=False)  # how its places looked (see _read_out)

    def read(self, *, final: bool) -> FactoryReading:
        """The disc with its places read from how they looked (`final`: see _read_out)."""
        values, confs = _read_looked(self.looked, final=final)
        return dataclasses.replace(
            self, tiles=[v for v in values if v not in (None, UNKNOWN)], slot_values=values,
            unknown=sum(v == UNKNOWN for v in values),
            confidence=float(min([1.0] + [c for v, c in zip(values, confs, strict=True) if v != UNKNOWN])))

    @property
    def covered(self) -> bool:
        """Whether something lies over the disc's rim."""
        return self.rim_hidden > 0

    def as_json(self) -> dict:
        return {"center": [round(float(v)) for v in self.center], "tiles": self.tiles,
                "unknown": self.unknown, "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class CenterReading:
    tiles: dict[str, int]
    marker: bool
    unknown: int
    tile_points: list = field(default_factory=list)
    values: list = field(default_factory=list)
    features: np.ndarray | None = None  # each tile_point described for the centre's model
    # Points read as no tile before the heaps were split again (a hand's fingers by the
    # pile among them: read again, fewer to a heap, they may join a tile's point).
    nothing_first: int = 0

    def as_json(self) -> dict:
        return {"tiles": dict(self.tiles), "marker": self.marker, "unknown": self.unknown}


@dataclass(frozen=True)
class _Plane:
    """The table plane in one board's millimetres."""

    h: np.ndarray  # plane mm -> image px
    inv: np.ndarray

    def to_plane(self, pts: np.ndarray) -> np.ndarray:
        return apply_h(self.inv, pts)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return apply_h(self.h, pts)

    def patch(self, frame: np.ndarray, center_mm: np.ndarray, half_mm: float, wb: WhiteBalance,
              ppm: float = _PATCH_PX_PER_MM) -> np.ndarray:
        n = round(2 * half_mm * ppm)
        to_plane = np.array([[1 / ppm, 0, center_mm[0] - half_mm],
                             [0, 1 / ppm, center_mm[1] - half_mm], [0, 0, 1]])
        m = self.h @ to_plane
        out = cv2.warpPerspective(frame, np.linalg.inv(m), (n, n), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        return wb.apply(out)


def _plane_for(boards: list[BoardFind], point: np.ndarray) -> _Plane:
    return _outline_plane(min(boards, key=lambda b: float(np.linalg.norm(b.center - point))))


def _outline_plane(board: BoardFind) -> _Plane:
    """The table plane as the board's outline measures it."""
    return _Plane(board.board_h, np.linalg.inv(board.board_h))


def _panel_plane(board: BoardFind) -> _Plane:
    """The table plane as the board's panel measures it (the panel's own edges, where an
    arm over the board's edge cut its outline short)."""
    h = board_of_panel(board.panel_h)
    return _Plane(h, np.linalg.inv(h))


# The plane a board's outline measures, drawn out far from the board, can be off (an arm
# over the board's edge cut its outline short: seed 9, frame 315, the discs read measured
# 0.47-0.70 of their rings' size on it, as they did 0.95-1.05 on its panel's plane). The
# circle of discs is drawn on a plane that measures the discs read, in the median, within
# this factor of their rings (where it holds, 0.85-1.13: seeds 8 and 9, 147 frames with
# discs placed, all but three).
_PLANE_OFF_MOST = 1.25


def _plane_of_discs(factories: list[FactoryReading], plane: _Plane,
                    boards: list[BoardFind]) -> _Plane | None:
    """`plane` if it measures the discs read as their rings do (within _PLANE_OFF_MOST),
    else the first of the boards' outlines' planes that does, else of their panels'
    (an outline's is the more exact: with the panels' planes for all, seeds 7 and 9 read
    18 discs fewer exactly); None if none does."""
    for p in [plane, *(_outline_plane(b) for b in boards), *(_panel_plane(b) for b in boards)]:
        at = p.to_plane(np.array([f.center for f in factories]))
        sizes = [_local_ppm(p, a) * DISC_RADIUS_MM / f.radius for a, f in zip(at, factories, strict=True)]
        if 1 / _PLANE_OFF_MOST <= float(np.median(sizes)) <= _PLANE_OFF_MOST:
            return p
    return None


def read_factories(frame: np.ndarray, blue: np.ndarray, scale: float, wb: WhiteBalance,
                   boards: list[BoardFind], *, expected: int | None = None, at_least: bool = False
                   ) -> tuple[list[FactoryReading], CenterReading | None]:
    """Discs found by their own print (blue sunburst inside a cream ring inside an
    orange-brown rim), each read in its own rectified view; the boards, when found,
    only hide their own blue and give the table plane for the centre pile. `blue`: the
    blue_mask of the balanced frame reduced by `scale`. With `expected` (how many discs
    the game lays out), a disc the circle of those read shows to lie where none was read
    is given with its places unknown (see _unread_discs); with `at_least`, the game may
    lay out more than `expected`."""
    if not boards:
        # No board's cream balanced the frame: the brightest things on the table stand in,
        # enough to find the discs' cream rings, and each disc's own ring does the rest.
        wb = WhiteBalance.from_brightest(frame[::4, ::4])
    mask = blue.copy()
    for b in boards:
        m = 8.0
        corners = apply_h(b.board_h, [[-m, -m], [BOARD_W_MM + m, -m], [BOARD_W_MM + m, BOARD_H_MM + m],
                                      [-m, BOARD_H_MM + m]]) * scale
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 0)
    _, _, stats, cents = components(mask)
    plane = _plane_for(boards, np.array([frame.shape[1] / 2, frame.shape[0] / 2])) if boards else None
    small_area = mask.shape[0] * mask.shape[1]
    top_of = _lift(plane, frame.shape[1], frame.shape[0]) if plane is not None else None
    order = [i for i in np.argsort(-stats[:, cv2.CC_STAT_AREA]) if i > 0
             and 12 <= stats[i, cv2.CC_STAT_AREA] <= 0.02 * small_area][:_MOST_BLOBS]
    # Tiles split a sunburst's blue into several blobs: the biggest first, and any blob
    # inside a disc already read is skipped.
    factories: list[FactoryReading] = []
    deferred: list[FactoryReading] = []
    missed: list[np.ndarray] = []  # blobs no ring was found round
    for i in order:
        c_img = cents[i] / scale
        if any(math.dist(f.center, c_img) < f.radius for f in factories):
            continue
        if len(factories) >= 5:
            # Inside the circle of discs lies the centre pile: its blue tiles are no disc.
            middle = np.mean([f.center for f in factories], axis=0)
            if math.dist(middle, c_img) < min(math.dist(middle, f.center) - f.radius for f in factories):
                continue
        # Image px per mm there, guessed: from the discs already read (all discs are
        # one size, on one table), from the table plane, from the blob taken as a whole
        # sunburst; the disc's own ring then measures it.
        guesses = []
        if factories:
            guesses.append(median(np.array([f.radius / DISC_RADIUS_MM for f in factories])))
        if plane is not None:
            guesses.append(_local_ppm(plane, plane.to_plane([c_img])[0]))
        if not factories:
            # Only while no disc is known: tiles split the blue into parts of any size.
            guesses.append(math.sqrt(stats[i, cv2.CC_STAT_AREA] / math.pi) / scale / SUNBURST_RADIUS_MM)
        tried: list[float] = []
        for ppm in guesses:
            if not 0.05 < ppm < 50 or any(abs(ppm / t - 1) < 0.2 for t in tried):
                continue
            tried.append(ppm)
            reading = _read_disc(frame, c_img, ppm, wb, top_of)
            if reading is not None and reading.covered and plane is not None:
                # A ring fitted to what a hand leaves of it can lie askew; one of the
                # disc's size on the table fits it there (see _ring_in_plane).
                again = _read_on_plane(frame, plane, reading.center, wb, top_of)
                if again is not None and (_apart_mm(plane, reading, again) >= _REFIT_MOVED_MM
                                          or again.unknown < reading.unknown):
                    reading = again
            if reading is not None and reading.rim_hidden > _HIDDEN_FIRST:
                deferred.append(reading)  # (and the next guess tried: see _HIDDEN_MOST)
            elif reading is not None:
                factories = _with_disc(factories, reading)
                break
        else:
            missed.append(c_img)
    for reading in deferred:
        if not _over(factories, reading):
            factories = _with_disc(factories, reading)
    if factories:
        factories = _from_arcs(frame, factories, missed, wb, top_of)
    factories = _of_one_size(factories)
    circle_plane = (_plane_of_discs(factories, plane, boards)
                    if plane is not None and expected is not None and factories else None)
    if circle_plane is not None:
        for placed in _unread_discs(factories, expected, circle_plane, frame.shape[1], frame.shape[0],
                                    at_least=at_least):
            # Where the circle places a disc, its ring is looked for on the table.
            found = (_read_on_plane(frame, circle_plane, placed.center, wb, top_of, placed=True)
                     or _read_placed(frame, placed, wb, top_of))
            factories.append(placed if found is None or _over(factories, found) else found)
    if factories:
        middle = np.mean([f.center for f in factories], axis=0)
        factories = [factories[i] for i in clockwise_from_bottom([f.center for f in factories], middle)]
    factories = _read_out(factories)
    center = None
    if top_of is not None and len(factories) >= 3:
        center = _read_center(frame, plane, factories, wb, top_of)
    return factories, center


def _from_arcs(frame: np.ndarray, factories: list[FactoryReading], missed: list[np.ndarray],
               wb: WhiteBalance, top_of: Callable[[np.ndarray], np.ndarray] | None) -> list[FactoryReading]:
    """The discs read, with those found from the middle of blobs no ring was found round
    (`missed`, image px; those in a disc read are its own) that lie within a disc's
    radius of one another: a disc's four tiles can leave its sunburst's blue only in
    arcs at its edge, each too far off its middle for the ring's edge to show on the rays
    from there (seed 1, frame 95: four arcs 22 mm off the middle, the ring's edge on
    18-30 rays of 72). One is taken only as big as the discs read, within _BIGGER_DISC:
    from arcs of two discs, a ring can be fitted round the tiles of one (seed 7, frame
    314: 0.68 of the discs' size). Each group of arcs is tried once."""
    ppm = float(np.median([f.radius / DISC_RADIUS_MM for f in factories]))
    missed = [m for m in missed if not any(math.dist(f.center, m) < f.radius for f in factories)]
    tried: set[tuple[int, ...]] = set()
    for c in missed:
        near = [k for k, m in enumerate(missed) if math.dist(m, c) < DISC_RADIUS_MM * ppm]
        if len(near) < 2 or tuple(near) in tried:
            continue
        tried.add(tuple(near))
        middle = np.mean([missed[k] for k in near], axis=0)
        if any(math.dist(f.center, middle) < f.radius for f in factories):
            continue
        reading = _read_disc(frame, middle, ppm, wb, top_of)
        if (reading is not None and reading.rim_hidden <= _HIDDEN_FIRST
                and abs(math.log(reading.radius / (DISC_RADIUS_MM * ppm))) < math.log(_BIGGER_DISC)):
            factories = _with_disc(factories, reading)
    return factories


# The circle of discs read is trusted when every disc read lies within this share of its
# radius of it (a layout's discs lie within 10 mm, on circles of 140-190 mm), and when
# discs as many as the game lays out fit round it without overlapping.
_ROUND_WITHIN = 0.12
# Three discs read lie on some circle, whatever the table's is: theirs is trusted only
# if it spaces them evenly, each gap within this share of a spacing of a whole number of
# them (a layout's discs lie within 0.06 rad of even spacing).
_EVEN_WITHIN = 0.2
_DISC_COUNTS = (5, 7, 9)  # two discs a player and one more


def _unread_discs(factories: list[FactoryReading], expected: int, plane: _Plane,
                  width: int, height: int, *, at_least: bool = False) -> list[FactoryReading]:
    """The discs not read that the circle of those read shows to be there (a hand over
    them, mostly): the game lays its discs out in a circle, about evenly spaced, so a
    gap between two neighbours read that spans k + 1 spacings holds k discs. Each is
    placed evenly in its gap, on the circle, with all four places unknown. Where the
    gaps do not account for every disc missing, the discs read fitted as some of those
    laid out evenly place them (_evenly_round); none where neither does (the discs are
    not laid out evenly), none round fewer than three discs read, and none whose middle
    is out of the frame. (With an arm over two discs of a two-player
    table's five, three are read: on seed 9, 12 frames of 500.) With `at_least` (the
    count told by the boards found, which an arm over a board undercounts), the game's
    larger counts are tried too, and kept when the discs read lie evenly round the
    circle at one of them; of the counts that account for the gaps, the one the discs
    read lie most evenly at is taken (seed 8, frame 73: four of seven read, which five
    also accounts for with one missing)."""
    if len(factories) < 3:
        return []
    pts = plane.to_plane(np.array([f.center for f in factories]))
    counts = [expected] + [n for n in _DISC_COUNTS if n > expected and at_least]
    size = float(np.median([f.radius for f in factories]))  # image px: all discs are one size
    placed = _in_gaps(pts, counts)
    if placed is None:
        # (Only as many discs as the game lays out for the boards read: three discs read in
        # a row fit any count evenly, round a circle of some size.)
        placed = _evenly_round(pts, expected)
    unread = []
    for p in placed or []:
        at = plane.to_image([p])[0]
        if 0 <= at[0] < width and 0 <= at[1] < height:
            unread.append(FactoryReading(at, size, [], 4, 0.0))
    return unread


def _in_gaps(pts: np.ndarray, counts: list[int]) -> list[np.ndarray] | None:
    """Where the discs missing lie (plane mm) on the circle through the discs read
    (`pts`), each placed evenly in its gap; None where that circle does not account for
    them (see _unread_discs)."""
    middle, radius = _circle_through(pts)
    off = np.abs(np.linalg.norm(pts - middle, axis=1) - radius)
    if off.max() > _ROUND_WITHIN * radius:
        return None
    angles = np.sort(np.arctan2(pts[:, 1] - middle[1], pts[:, 0] - middle[0]))
    gaps = np.diff(np.append(angles, angles[0] + 2 * math.pi))
    held, least = None, math.inf
    for n in counts:
        if n <= len(pts) or radius * math.sin(math.pi / n) < DISC_RADIUS_MM:
            continue
        fits = _held(gaps, n, len(pts), even=len(pts) == 3 or n != counts[0])
        if fits is not None and _uneven(gaps, n) < least:
            held, least = fits, _uneven(gaps, n)
    if held is None:
        return None
    return [middle + radius * np.array([math.cos(a), math.sin(a)])
            for start, gap, k in zip(angles, gaps, held, strict=True)
            for a in (start + gap * j / (k + 1) for j in range(1, k + 1))]


# The discs read fitted as some of those laid out evenly round a circle place the rest
# where the fit is this close (rms, mm): a layout's discs lie within 10 mm of even, and
# the plane drawn out to them adds a few (seed 9, frame 63: 9.4).
_EVEN_FIT_MM = 10.0


def _evenly_round(pts: np.ndarray, n: int) -> list[np.ndarray] | None:
    """Where the discs missing lie (plane mm), the discs read (`pts`) fitted as some of
    `n` laid out evenly round a circle, each way the gaps between them can hold the rest:
    three discs read fix a circle through them exactly, which a few mm off each bends far
    from the table's (seed 9, frame 63: 166 mm in radius, not 146, its gaps 0.81-0.93
    spacings); None where no way fits within _EVEN_FIT_MM. Disc k of n lies at
    c + M (cos 2 pi k / n, sin 2 pi k / n), M turning and scaling: linear in c and M."""
    m = len(pts)
    ordered = pts[np.argsort(np.arctan2(*(pts - pts.mean(axis=0)).T[::-1]))]
    best = None
    for cuts in itertools.combinations(range(1, n), m - 1):
        ks = np.array((0, *cuts))
        u = np.column_stack([np.cos(2 * math.pi * ks / n), np.sin(2 * math.pi * ks / n)])
        a = np.zeros((2 * m, 4))
        a[0::2] = np.column_stack([np.ones(m), np.zeros(m), u[:, 0], -u[:, 1]])
        a[1::2] = np.column_stack([np.zeros(m), np.ones(m), u[:, 1], u[:, 0]])
        fit, *_ = np.linalg.lstsq(a, ordered.reshape(-1), rcond=None)
        rms = math.sqrt(2 * float(np.mean((a @ fit - ordered.reshape(-1)) ** 2)))
        if math.hypot(fit[2], fit[3]) * math.sin(math.pi / n) < DISC_RADIUS_MM:
            continue  # n discs do not fit round a circle that small
        if best is None or rms < best[0]:
            best = (rms, fit, set(ks.tolist()))
    if best is None or best[0] > _EVEN_FIT_MM:
        return None
    _, (cx, cy, c, s), read = best
    turn = np.array([[c, -s], [s, c]])
    return [np.array([cx, cy]) + turn @ np.array([math.cos(a), math.sin(a)])
            for a in (2 * math.pi * k / n for k in range(n) if k not in read)]


def _held(gaps: np.ndarray, count: int, read: int, *, even: bool) -> np.ndarray | None:
    """How many discs each gap between neighbours read holds, `count` discs laid out
    round the circle; None when that does not account for every disc missing, or (with
    `even`) when a gap is not within _EVEN_WITHIN of a whole number of spacings."""
    held = np.maximum(np.round(gaps / (2 * math.pi / count)).astype(int) - 1, 0)
    if held.sum() != count - read or (even and _uneven(gaps, count) > _EVEN_WITHIN):
        return None
    return held


def _uneven(gaps: np.ndarray, count: int) -> float:
    """How far the gap furthest from a whole number of spacings, `count` discs laid out
    round the circle, is from one (in spacings)."""
    spacings = gaps / (2 * math.pi / count)
    return float(np.abs(spacings - np.round(spacings)).max())


def _circle_through(pts: np.ndarray) -> tuple[np.ndarray, float]:
    """The circle nearest to points (least squares, algebraic): its middle and radius
    (0 when the fit gives no real circle)."""
    a = np.column_stack([2 * pts, np.ones(len(pts))])
    b = (pts**2).sum(axis=1)
    (cx, cy, c), *_ = np.linalg.lstsq(a, b, rcond=None)
    r2 = c + cx**2 + cy**2
    return np.array([cx, cy]), float(math.sqrt(r2)) if r2 > 0 else 0.0


# A disc read this many times as big as discs it lies over replaces them (see _with_disc).
_BIGGER_DISC = 1.2
# All discs are one size: of seeds 7 and 9, a disc read right measured 0.73-1.36 of the
# median of the others (perspective), one whose ring was found inside what an arm leaves
# of it 0.36-0.63.
_SMALLEST_DISC = 0.65


def _of_one_size(factories: list[FactoryReading]) -> list[FactoryReading]:
    """The discs read, but one far smaller than the others: its ring was found inside
    what an arm leaves of a disc, and what it reads lies under the arm (seed 7, frame 90:
    two discs half under an arm, each read as an empty disc half its size). Of three
    discs or fewer none is told wrong."""
    if len(factories) < 4:
        return factories
    radii = [f.radius for f in factories]
    return [f for k, f in enumerate(factories)
            if f.radius >= _SMALLEST_DISC * median(np.array(radii[:k] + radii[k + 1:]))]


def _over(factories: list[FactoryReading], reading: FactoryReading) -> list[FactoryReading]:
    """The discs read that `reading` lies over, or they over it."""
    return [f for f in factories if math.dist(f.center, reading.center) < max(f.radius, reading.radius)]


def _with_disc(factories: list[FactoryReading], reading: FactoryReading) -> list[FactoryReading]:
    """The discs read so far with one more, unless it lies over one of them. A white tile
    beside a yellow or red one shows cream giving way to orange, as a disc's ring does at
    its rim: a disc read that much smaller round its tiles is no disc when a bigger one
    is read round it, and gives way."""
    over = _over(factories, reading)
    if not over:
        return [*factories, reading]
    if all(reading.radius > _BIGGER_DISC * f.radius and math.dist(f.center, reading.center) < reading.radius
           for f in over):
        return [f for f in factories if all(f is not o for o in over)] + [reading]
    return factories


def _local_ppm(plane: _Plane, p_mm: np.ndarray) -> float:
    q = plane.to_image([p_mm, p_mm + np.array([10.0, 0.0]), p_mm + np.array([0.0, 10.0])])
    a, b = q[1] - q[0], q[2] - q[0]
    return float(math.sqrt(abs(a[0] * b[1] - a[1] * b[0])) / 10)


@lru_cache(maxsize=8)
def _radius_grid(n: int, ppm: float) -> np.ndarray:
    """Each pixel's distance (mm) from the middle of an n x n view at `ppm`."""
    d = np.arange(n, dtype=np.float32) + 0.5 - n / 2
    r = np.hypot(d[None, :], d[:, None]) / ppm
    r.setflags(write=False)
    return r


@lru_cache(maxsize=16)
def _zone(n: int, inner_mm: float, outer_mm: float) -> np.ndarray:
    """The pixels of an n x n disc view (at _PATCH_PX_PER_MM) between two radii."""
    r = _radius_grid(n, _PATCH_PX_PER_MM)
    zone = (r > inner_mm) & (r < outer_mm)
    zone.setflags(write=False)
    return zone


# Where the cream ring meets the orange-brown rim, mm from the disc's centre.
RING_MM = 40.0
_RAYS = 72
_MOST_BLOBS = 40
_CENTER_MOST_MM = 250.0
_PILE_MOST = 30  # tiles in one heap of the centre pile: more is no heap of tiles
# A point of the pile stands off the table by a Lab distance (lightness halved) this many
# times the table's grain (its 70th percentile), between these bounds.
_OFF_GRAIN = 3.0
_OFF_TABLE_LEAST = 6.0
_OFF_TABLE_MOST = 14.0
_KMEANS_PER_TILE = 100  # points of a heap that place each of its tiles


def _warp(frame: np.ndarray, disc_to_img: np.ndarray, half: float, ppm: float,
          wb: WhiteBalance) -> np.ndarray:
    """The square (-half..half mm)^2 of a disc's own plane, at `ppm`, white-balanced."""
    n = round(2 * half * ppm)
    to_disc = np.array([[1 / ppm, 0, -half], [0, 1 / ppm, -half], [0, 0, 1]])
    out = cv2.warpPerspective(frame, np.linalg.inv(disc_to_img @ to_disc), (n, n), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    g = [float(v) for v in wb.gains]
    return cv2.multiply(out, (g[0], g[1], g[2], 0.0))  # saturating: as the balance's clip


@lru_cache(maxsize=4)
def _ring_samples(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pixels of an n x n view of a disc that its ring is judged at (view px): those
    that _RAYS rays out from the middle pick (nearest, a pixel apart, as cv2.warpPolar
    picks them), and every third pixel of the view (for how light it is)."""
    xx, yy = np.meshgrid(np.arange(n, dtype=np.float32), np.arange(n, dtype=np.float32))
    rays = cv2.warpPolar(np.dstack([xx, yy]), (n // 2, _RAYS), (n / 2, n / 2), n / 2,
                         cv2.WARP_POLAR_LINEAR).astype(np.float64)
    grid = np.dstack([xx[::3, ::3], yy[::3, ::3]]).astype(np.float64)
    for a in (rays, grid):
        a.setflags(write=False)
    return rays, grid


def _ring_look(frame: np.ndarray, disc_to_img: np.ndarray, half: float, ppm: float,
               wb: WhiteBalance) -> tuple[np.ndarray, float]:
    """A disc's rays (HSV, one row a ray, from the middle out, in the view of `_warp`)
    and how light the view is (90th percentile of value), each pixel taken from the
    frame where it lies: only these are judged, so no more of the view is warped."""
    n = round(2 * half * ppm)
    to_img = disc_to_img @ np.array([[1 / ppm, 0, -half], [0, 1 / ppm, -half], [0, 0, 1]])
    g = [float(v) for v in wb.gains]
    looks = []
    for at in _ring_samples(n):
        xy = cv2.perspectiveTransform(at.reshape(-1, 1, 2), to_img).astype(np.float32).reshape(at.shape)
        px = cv2.remap(frame, xy, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=(0, 0, 0))
        looks.append(cv2.cvtColor(cv2.multiply(px, (g[0], g[1], g[2], 0.0)), cv2.COLOR_BGR2HSV))
    rays, grid = looks
    return rays, percentile(grid[..., 2], 90)


# The rim's orange-brown is darker than the cream (value up to 240 of 255 in the disc's
# balance; brighter yellow tiles and skin are not rim). An overexposed frame lifts it
# toward the cream, which clips (seed 9, frame 253, a white table: 243-251): where the
# view clips, a ring not found is looked for again with a brighter rim allowed.
# (Allowed at once, it made other discs' rings smaller round yellow tiles: seed 7, 5
# fewer discs read exactly, 1 more read wrong. Allowed where the view does not clip, it
# found discs in hands: seed 9, frame 411, a disc under a hand read empty.)
_RIM_LIGHTEST = (240, 252)


def _ring_ellipse(rays: np.ndarray, lit: float, n: int, ppm: float, least_ratio: float = 0.6, *,
                  rim_lightest: int = _RIM_LIGHTEST[0]) -> tuple[np.ndarray, np.float64] | None:
    """The cream ring's outer edge in a roughly rectified n x n view of a disc, from its
    rays (`_ring_look`): going out from the middle along each ray, the first place where
    cream gives way to the rim's orange-brown for good. Returns the affine map (2 x 3)
    taking disc mm (the ring at RING_MM) to view px, and the share of rays that agree
    with it."""
    pts = _ring_edges(rays, lit, n, ppm, rim_lightest)
    if len(pts) < _RAYS // 3:
        return None
    p = pts
    keep = np.ones(len(p), bool)
    affine = None
    for _ in range(3):
        if keep.sum() < 8:
            return None
        affine, resid = _fit_ellipse(p[keep], p)
        kept = resid < max(0.06, 2.5 * median(resid[keep]))
        if np.array_equal(kept, keep):
            break  # the same points would fit the same ellipse again
        keep = kept
    share = keep.sum() / _RAYS
    most, least = stretches(affine)
    if share < 0.4 or least / most < least_ratio:
        return None
    return affine, np.float64(share)


def _ring_edges(rays: np.ndarray, lit: float, n: int, ppm: float, rim_lightest: int) -> np.ndarray:
    """Where the cream ring gives way to the rim on each ray that shows it (`_ring_look`),
    as points of the n x n view."""
    h, s, v = rays[..., 0], rays[..., 1], rays[..., 2]
    cr = (s < 85) & (v > 0.55 * lit)
    br = (h >= 3) & (h <= 24) & (s >= 80) & (v >= 40) & (v <= rim_lightest)
    # The rim is 5 mm wide (3.5 mm seen at 45 degrees), the plain cream before it about
    # 3 mm: the orange dots (1.5 mm) round the sunburst and the black waves do not pass.
    run, before = max(2, round(2.5 * ppm)), max(2, round(2.0 * ppm))
    lo, hi = round(0.4 * RING_MM * ppm), min(n // 2 - run, round(1.35 * RING_MM * ppm))
    # ok[a, j]: on ray a, the rim runs on from j and cream lies just before it.
    bc = np.concatenate([np.zeros((_RAYS, 1)), np.cumsum(br, axis=1)], axis=1)
    cc = np.concatenate([np.zeros((_RAYS, 1)), np.cumsum(cr, axis=1)], axis=1)
    j = np.arange(lo, hi)
    ok = ((bc[:, j + run] - bc[:, j]) >= run) & ((cc[:, j] - cc[:, j - before]) >= before - 1)
    hit = ok.any(axis=1)
    first = lo + ok.argmax(axis=1)
    ang = 2 * np.pi * np.arange(_RAYS) / _RAYS
    return np.column_stack([n / 2 + first * np.cos(ang), n / 2 + first * np.sin(ang)])[hit]


# A disc the circle places (see _unread_discs) lies on the table plane a board gives, so
# its ring is a circle of RING_MM there: only its middle is unknown, which what shows of
# the ring's edge fixes even where an arm hides half of it.
_PLACED_REACH_MM = 30.0  # how far from where the circle puts it
_RING_TOL_MM = 1.5  # an edge point this near the circle lies on it
_RING_SHOWN = 12  # edge points (of _RAYS rays) on the circle: a sixth of it


def _read_on_plane(frame: np.ndarray, plane: _Plane, at_img: np.ndarray, wb: WhiteBalance,
                   top_of: Callable[[np.ndarray], np.ndarray] | None, *,
                   placed: bool = False) -> FactoryReading | None:
    """A disc near image point `at_img`, read by its ring fitted on the table plane
    (`placed`: as _read_fitted's)."""
    disc_to_img = _ring_in_plane(frame, plane, at_img, wb)
    if disc_to_img is None:
        return None
    return _read_fitted(frame, disc_to_img, wb, top_of, _RIM_LIGHTEST[0], sought=True, placed=placed)


def _read_placed(frame: np.ndarray, placed: FactoryReading, wb: WhiteBalance,
                 top_of: Callable[[np.ndarray], np.ndarray] | None) -> FactoryReading | None:
    """A disc where the circle places one (`placed`), by its ring fitted as the blue's
    are: where a board's plane, carried far across the table, sizes the ring wrong (seed
    7, frame 314: 11% too big, tilted 28 degrees), a ring of its own size still shows.
    Only one whose rim shows all round is taken: under an arm, the ring so found can lie
    inside what the arm leaves of the disc (seed 8, frame 73: 0.63 of the discs' size,
    it read three tiles under the arm as empty places), and on an oblique disc, blur
    loses the rim in patches with nothing over it (seed 8, frame 76), which would flag
    the frame as occluded where the disc left unread flags nothing."""
    ppm = placed.radius / DISC_RADIUS_MM
    reading = _read_disc(frame, placed.center, ppm, wb, top_of, sought=True)
    if (reading is None or reading.covered
            or math.dist(reading.center, placed.center) > _PLACED_REACH_MM * ppm):
        return None
    return reading


def _apart_mm(plane: _Plane, a: FactoryReading, b: FactoryReading) -> float:
    """How far apart two discs' middles lie on the table."""
    return math.dist(*plane.to_plane(np.array([a.center, b.center])))


# A ring fitted to what a hand leaves of a disc lies up to 25 mm off it; one fitted on
# the table, whose plane a board gives, can lie a few mm off where the first was right:
# it is taken only where the two lie further apart, or where it reads more of the disc
# (seed 7, frame 85: a first ring 0.7 mm off left a tile in plain view unread). (Seeds
# 7 / 9: +6 / +1 discs read exactly; from 3 mm, 0 / -2 more; taken wherever found, +9 /
# 0. Then where it reads more, seeds 7 / 9 / 8 / 2 / 1: +3 / +2 / +3 / +3 / +1, none
# read worse.)
_REFIT_MOVED_MM = 5.0


def _ring_in_plane(frame: np.ndarray, plane: _Plane, at_img: np.ndarray,
                   wb: WhiteBalance) -> np.ndarray | None:
    """The map from a disc's plane to the image, its ring found as a circle of RING_MM on
    the table plane within _PLACED_REACH_MM of image point `at_img`; None where no such
    circle shows."""
    half = DISC_RADIUS_MM * 1.35
    rp = _RING_PX_PER_MM
    n = round(2 * half * rp)
    start = c_mm = plane.to_plane([at_img])[0]
    for _ in range(4):
        rays, lit = _ring_look(frame, plane.h @ _moved_to(c_mm), half, rp, wb)
        edges = _ring_edges(rays, lit, n, rp, _RIM_LIGHTEST[0])
        middle = _circle_middle(edges, RING_MM * rp, _RING_TOL_MM * rp)
        if middle is None:
            return None
        step = (middle - n / 2) / rp
        c_mm = c_mm + step
        if math.dist(c_mm, start) > _PLACED_REACH_MM:
            return None
        if np.hypot(*step) < 0.5:
            return plane.h @ _moved_to(c_mm)
    return None


def _moved_to(p: np.ndarray) -> np.ndarray:
    """The translation to point `p` (3 x 3)."""
    return np.array([[1.0, 0, p[0]], [0, 1.0, p[1]], [0, 0, 1.0]])


def _circle_middle(pts: np.ndarray, r: float, tol: float) -> np.ndarray | None:
    """The middle of the circle of radius `r` through most of `pts` (at least _RING_SHOWN
    of them within `tol`), or None: every pair of points gives the two middles of such
    circles through both, the one most points agree with is refined on them."""
    if len(pts) < _RING_SHOWN:
        return None
    i, j = np.triu_indices(len(pts), 1)
    d = pts[j] - pts[i]
    chord = np.hypot(d[:, 0], d[:, 1])
    ok = (chord > 4 * tol) & (chord < 2 * r)
    d, chord, mid = d[ok], chord[ok], (pts[i][ok] + pts[j][ok]) / 2
    off = np.sqrt(r * r - (chord / 2) ** 2)[:, None] * np.column_stack([-d[:, 1], d[:, 0]]) / chord[:, None]
    middles = np.concatenate([mid + off, mid - off])
    if not len(middles):
        return None
    near = np.abs(np.linalg.norm(pts[None] - middles[:, None], axis=2) - r) < tol
    c = middles[near.sum(axis=1).argmax()]
    for _ in range(5):
        v = pts - c
        dist = np.hypot(v[:, 0], v[:, 1])
        on = np.abs(dist - r) < tol
        if on.sum() < _RING_SHOWN:
            return None
        u = v[on] / dist[on, None]
        c = c + np.linalg.lstsq(u, dist[on] - r, rcond=None)[0]
    return c


def _fit_ellipse(fit_pts: np.ndarray, all_pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Affine map (2 x 3) taking the circle of radius RING_MM onto the ellipse through
    `fit_pts`, and every point's distance from the ellipse in units of its radius."""
    (cx, cy), (w, hh), ang = cv2.fitEllipse(fit_pts.astype(np.float32))
    c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    dx, dy = all_pts[:, 0] - cx, all_pts[:, 1] - cy
    u, v = dx * c + dy * s, dy * c - dx * s  # the points along the ellipse's turned axes
    best, best_spread = None, math.inf
    # Which of the two axes OpenCV's angle turns is left to the check below.
    for a_x, a_y in ((w, hh), (hh, w)):
        rx, ry = max(a_x, 1) / 2, max(a_y, 1) / 2
        resid = np.abs(np.hypot(u / rx, v / ry) - 1)
        spread = median(resid)
        if best is None or spread < best_spread:
            ax, ay = rx / RING_MM, ry / RING_MM
            best, best_spread = (np.array([[c * ax, -s * ay, cx], [s * ax, c * ay, cy]]), resid), spread
    return best


def _lift(plane: _Plane, width: int, height: int) -> Callable[[np.ndarray], np.ndarray]:
    """Where the top face of a tile lying at an image point shows: the camera, placed
    by a board's homography, sees a 7 mm tall tile's top off its foot."""
    cam = camera_in_plane(plane.h, width, height)

    def top_of(point: np.ndarray) -> np.ndarray:
        p_mm = plane.to_plane([point])[0]
        return plane.to_image([p_mm + parallax(cam, p_mm, TILE_THICK_MM)[0]])[0]

    return top_of


def _trusted(lift: np.ndarray) -> np.ndarray | None:
    """A tile's lift (mm, its top off its foot) as the camera placed by a board measures
    it, or None where that is no lift a tile could show (_LIFT_MOST)."""
    return lift if np.isfinite(lift).all() and np.hypot(*lift) <= _LIFT_MOST else None


def _ring_fit(frame: np.ndarray, c_img: np.ndarray, ppm_img: float, wb: WhiteBalance,
              rim_lightest: int) -> np.ndarray | None:
    """The map from a disc's plane (mm, its middle at 0) to the image, by its ring's
    outer edge found near image point `c_img` (about `ppm_img` image px per mm there);
    None when no ring is found there, or none steadily."""
    half = DISC_RADIUS_MM * 1.35
    disc_to_img = np.array([[ppm_img, 0, c_img[0]], [0, ppm_img, c_img[1]], [0, 0, 1.0]])
    # The first look is centred on the blue and scaled by a guess; each next one on the
    # ring found in the last, until the ring is a circle round the middle of the view.
    n = round(2 * half * _RING_PX_PER_MM)
    for attempt in range(4):
        rays, lit = _ring_look(frame, disc_to_img, half, _RING_PX_PER_MM, wb)
        if rim_lightest > _RIM_LIGHTEST[0] and lit < 255:
            return None
        # A disc far off to the side of an oblique view looks flat at first.
        found = _ring_ellipse(rays, lit, n, _RING_PX_PER_MM, 0.4 if attempt == 0 else 0.6,
                              rim_lightest=rim_lightest)
        if found is None:
            return None
        affine, _ = found
        rp = _RING_PX_PER_MM
        patch_to_disc_plane = np.array([[1 / rp, 0, -half], [0, 1 / rp, -half], [0, 0, 1]])
        step = patch_to_disc_plane @ np.vstack([affine, [0, 0, 1]])
        if attempt == 0 and np.hypot(*step[:2, 2]) > SUNBURST_RADIUS_MM + 3:
            # The blue it started from lies outside the ring it found. (Four tiles leave
            # only arcs of the sunburst, whose middles lie up to its edge.)
            return None
        disc_to_img = disc_to_img @ step
        most, least = stretches(step)
        moved, stretched = np.hypot(*step[:2, 2]), max(most - 1, 1 - least)
        if moved < 1.5 and stretched < 0.04:
            break
    else:
        if moved > 3 or stretched > 0.08:
            return None  # the ring's edge is not steady: no disc, or not one seen clearly
    scale = math.sqrt(abs(np.linalg.det(disc_to_img[:2, :2])))
    return disc_to_img if 0.05 < scale < 50 else None


def _read_disc(frame: np.ndarray, c_img: np.ndarray, ppm_img: float, wb: WhiteBalance,
               top_of: Callable[[np.ndarray], np.ndarray] | None = None, *,
               sought: bool = False) -> FactoryReading | None:
    """A disc near image point `c_img` (about `ppm_img` image px per mm there; `sought`:
    as _read_fitted's)."""
    for rim_lightest in _RIM_LIGHTEST:
        disc_to_img = _ring_fit(frame, c_img, ppm_img, wb, rim_lightest)
        if disc_to_img is not None:
            return _read_fitted(frame, disc_to_img, wb, top_of, rim_lightest, sought=sought)
    return None


def _read_fitted(frame: np.ndarray, disc_to_img: np.ndarray, wb: WhiteBalance,
                 top_of: Callable[[np.ndarray], np.ndarray] | None,
                 rim_lightest: int, *, sought: bool = False, placed: bool = False) -> FactoryReading | None:
    """A disc whose ring is fitted (`disc_to_img`: its plane, mm from its middle, to the
    image), read in its own rectified view; None when it shows too little of a disc
    (`sought`: its ring was found where a disc was looked for, as a circle of its size on
    the table or where the circle of discs places one, which tells a disc where the
    sunburst does not show; `placed`: where the circle of discs places one, which also
    tells it under an arm over most of its rim)."""
    ppm = _PATCH_PX_PER_MM
    half = DISC_RADIUS_MM + 3
    patch = _warp(frame, disc_to_img, half, ppm, wb)
    n = patch.shape[0]
    r = _radius_grid(n, ppm)
    hsv = hsv0 = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    ring_zone = _zone_index(n, SUNBURST_RADIUS_MM + 2, RING_MM - 1)
    cream = ((hsv[..., 1] < 90) & (hsv[..., 2] > 110)).ravel()[ring_zone].mean()
    # Blue judged only where it counts (colours are judged pixel by pixel).
    blue = cv2.inRange(hsv0, *BLUE_HSV).ravel()[_zone_index(n, -1.0, SUNBURST_RADIUS_MM - 1)] > 0
    # A disc with a place bare shows a third of its sunburst's blue or more, one of four
    # tiles a sixth (seed 7, frames in full view, 1st percentiles): where under 8% shows,
    # no place lies bare, and what the place model reads as the disc's print is a hand
    # over it.
    bare = blue.mean() >= 0.08
    if (not bare and not sought) or cream < (_PLACED_CREAM_LEAST if placed else _CREAM_LEAST):
        return None
    # The disc's own cream ring balances the colour where the disc lies: light falls off
    # across a table and no board need be in view to balance the frame.
    gains = np.clip(_DISC_CREAM_BGR / np.maximum(_ring_cream(patch), 1.0), 0.7, 1.45)
    patch = cv2.multiply(patch, (*(float(g) for g in gains), 0.0))
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    # Words only where tiles can show (the rest is the ring and rim, judged by hue).
    words = np.full(n * n, -1, np.int64)
    near = _zone_index(n, -1.0, SUNBURST_RADIUS_MM + 7)
    words[near] = color.word_indices(patch.reshape(-1, 3)[near])
    words = words.reshape(n, n)
    tile_px = _tile_pixels(words, hsv)
    # A tile's top may reach over the cream ring when seen obliquely; there only words
    # that the ring's print (cream, black waves, orange dots) does not show count.
    sunburst = _zone(n, -1.0, SUNBURST_RADIUS_MM)
    tile = tile_px & (sunburst | (_zone(n, -1.0, SUNBURST_RADIUS_MM + 5) & ~_RING_PRINT[words]))
    lift = None
    if top_of is not None:
        centre = apply_h(disc_to_img, [[0.0, 0.0]])[0]
        lift = _trusted(apply_h(np.linalg.inv(disc_to_img), [top_of(centre)])[0])
    slots = _tile_sites(tile & sunburst, patch, ppm, lift)
    half_win = _HALF_WIN
    core_win = max(2, round(0.18 * TILE_MM * ppm))
    points = []
    inside = _zone(n, -1.0, SUNBURST_RADIUS_MM + 5)
    slots = [_settle(tile, inside, s, half_win, round(4 * ppm)) for s in slots]
    # The warp leaves what lies out of the frame black. (Two maximums: numpy's max over a
    # 3-wide last axis is some 30 times slower.)
    seen = np.maximum(np.maximum(patch[..., 0], patch[..., 1]), patch[..., 2]) > 0
    hidden = _hidden_sectors(hsv0, seen, rim_lightest)
    if placed:
        most = _PLACED_HIDDEN_MOST if _one_stretch(_gaps_closed(hidden)) else _HIDDEN_FIRST
    else:
        most = _HIDDEN_MOST if _one_stretch(hidden) else _HIDDEN_FIRST
    if hidden.mean() > most:
        return None  # no rim round most of it: print on a board, tiles in a heap, not a disc
    if not slots and hidden.any():
        # Too little shows to place a block, and something lies over the rim: the four
        # places are judged by where the rim is hidden.
        c0 = n / 2 + (lift * ppm if lift is not None else np.zeros(2))
        slots = [tuple(c0 + np.array([du, dv]) * _SITE_MM / 2 * ppm) for du in (-1, 1) for dv in (-1, 1)]
    # What lies over the rim where it is hidden (a hand, a sleeve, a cup): a place beside
    # it that this explains as well as any tile is unknown, not read as skin-coloured
    # yellow or a shadow-black tile.
    over = _occluder_mix(patch, r, hidden, seen) if hidden.any() else None
    at = _LookAt(n, hidden, seen, tile, inside, words, half_win, core_win, over is not None)
    looks: list[_Look | None] = []
    for sx, sy in slots:
        points.append(apply_h(disc_to_img, [[sx / ppm - half, sy / ppm - half]])[0])
        looks.append(at(sx, sy))
    seen_looks = [look for look in looks if look is not None]
    rows = iter(_site_features(patch, words, seen_looks, over, lift) if seen_looks else [])
    features = [None if look is None else next(rows) for look in looks]
    looked = _DiscLooked(patch, words, at, looks, features, over, lift, float(hidden.mean()),
                         bare and cream >= _CREAM_LEAST)
    center_img = apply_h(disc_to_img, [[0.0, 0.0]])[0]
    radius_img = DISC_RADIUS_MM * math.sqrt(abs(np.linalg.det(disc_to_img[:2, :2])))
    return FactoryReading(center_img, radius_img, [], 0, 1.0, points, rim_hidden=float(hidden.mean()),
                          features=features, looked=looked).read(final=False)


@dataclass(frozen=True)
class _DiscLooked:
    """A disc's places as looked at in its rectified view: what its reading is read from,
    and read out from (see _read_out)."""

    patch: np.ndarray
    words: np.ndarray
    at: _LookAt
    looks: list  # each place's _Look (None: unseen)
    features: list  # each place as the place model sees it (None: unseen)
    over: np.ndarray | None  # the colour-word mix of what lies over the rim, if anything does
    lift: np.ndarray | None  # how far a tile's top lies off its foot, mm
    rim_hidden: float
    bare: bool  # a place lies bare and the ring's cream shows: a place read empty is empty


def _read_looked(looked: _DiscLooked, *, final: bool) -> tuple[list, list]:
    """Each place's value and confidence, read from how it looked (`final`: by the
    factory's model read out by its final one, see _read_out)."""
    patch, words, at, looks, over, lift = looked.patch, looked.words, looked.at, looked.looks, looked.over, \
        looked.lift
    seen = [f for f in looked.features if f is not None]
    if seen and FACTORY_MODEL in PLACE_MODELS:
        classes, probs = place_probabilities(FACTORY_MODEL, np.array(seen), final=final)
        by_model = iter(probs)
    values, confs, seen_probs = [], [], []
    for look in looks:
        if look is None:
            rd = color.Reading(UNKNOWN, 0.0)
        elif FACTORY_MODEL in PLACE_MODELS:
            p = next(by_model)
            seen_probs.append(p)
            best = int(np.argmax(p))
            conf = float(p[best])
            rd = color.Reading(classes[best] if conf >= SURE and classes[best] != HIDDEN else UNKNOWN, conf)
        else:
            rd = _read_by_mixes(look, over)
        values.append(rd.value)
        confs.append(rd.confidence)
    if seen_probs:
        def model(moved: list[_Look]) -> np.ndarray:
            return place_probabilities(FACTORY_MODEL, _site_features(patch, words, moved, over, lift),
                                       final=final)[1]

        values, confs = _past_over(at, looks, probs=seen_probs, classes=classes, values=values, confs=confs,
                                   model=model)
    if len(seen_probs) == 4:
        told = _fourth_tile(classes, seen_probs, values)
        if told is not None:
            k, value, conf = told
            values[k], confs[k] = value, conf
    if looked.rim_hidden > _HIDDEN_FIRST:
        values = _beside_most_hidden(patch, words, looks, over, values)
    if not looked.bare:
        values = [UNKNOWN if v is None else v for v in values]
    return values, confs


def _read_out(factories: list[FactoryReading]) -> list[FactoryReading]:
    """The discs, each chosen and placed, their places read again where they were looked
    at by the factory's model read out by its final one (fitted with other cameras'
    looks too, see cells.FINAL); as they are without a final model."""
    if FINAL + FACTORY_MODEL not in PLACE_MODELS:
        return factories
    return [f if f.looked is None else f.read(final=True) for f in factories]


@dataclass(frozen=True)
class _LookAt:
    """Looks at the places of one disc's view (see _Look)."""

    n: int
    hidden: np.ndarray  # sectors of the rim something lies over
    seen: np.ndarray  # pixels in the frame
    tile: np.ndarray  # pixels of a tile
    inside: np.ndarray  # pixels where tiles can lie
    words: np.ndarray
    half_win: int
    core_win: int
    over_known: bool  # what lies over the rim is known

    def __call__(self, sx: float, sy: float) -> _Look | None:
        """The look at a site, or None where too little of its window is in the frame or
        something lies over the rim beside it and what is not known."""
        n, hw, cw = self.n, self.half_win, self.core_win
        sector = round(math.atan2(sy - n / 2, sx - n / 2) / (2 * math.pi) * _SECTORS)
        near = [(sector + k) % _SECTORS for k in range(-_SECTORS // 8, _SECTORS // 8 + 1)]
        beside_hidden = bool(self.hidden[near].any())
        x0, y0 = round(sx) - hw, round(sy) - hw
        box = (slice(max(0, y0), y0 + 2 * hw), slice(max(0, x0), x0 + 2 * hw))
        if self.seen[box].mean() < 0.8 or (beside_hidden and not self.over_known):
            return None
        # A tile fills the middle of its place; a neighbour's side face and shadow, seen
        # obliquely, reach only its edge.
        cx, cy = round(sx), round(sy)
        core = (slice(max(0, cy - cw), cy + cw), slice(max(0, cx - cw), cx + cw))
        win = self.words[box].ravel()
        inside = self.inside
        return _Look((sx, sy), self.tile[box].sum() / max(1, inside[box].sum()),
                     self.tile[core].sum() / max(1, inside[core].sum()), beside_hidden,
                     np.bincount(win[win >= 0], minlength=len(color.WORD_NAMES)).astype(np.float64),
                     float((win < 0).sum()))


# A tile something lies over part of (up to 30% of its top: it is in view) can leave the
# place model unsure whether it sees the tile or what lies over it (seed 7, frame 213: a
# red tile under a sleeve's edge, red 0.49, over it 0.49). Such a place, left unknown,
# is looked at again in windows moved 2 mm across and down within the tile; the window
# the model sees least over is taken where the model is sure of the tile there (SURE)
# and the next least agrees with it on the tile's colour, and so does the first look
# (cells.leans_on, as a board's places). A place the first look leans
# empty on is not: a disc's places are not printed, and a hand over one hides how many
# tiles lie there. (Seeds 7 / 9 / 8 / 2 / 1: +2 / +7 / +10 / +8 / +1 discs read exactly;
# seed 8 one more read wrong with nothing unknown, a blue tile read yellow where a
# block's places lie off its tiles. Moved 4 mm: seeds 7 / 9 +3 / +6; taken below SURE,
# +3 / +8, but that reads what the model is unsure of wherever it looks.)
_PAST_MOST = 4  # view px, at _PATCH_PX_PER_MM
_PAST_STEP = 4
_PAST_MOVES = [(float(x), float(y)) for x in range(-_PAST_MOST, _PAST_MOST + 1, _PAST_STEP)
               for y in range(-_PAST_MOST, _PAST_MOST + 1, _PAST_STEP) if (x, y) != (0, 0)]


def _past_over(at: _LookAt, looks: list[_Look | None], *, probs: list[np.ndarray], classes: list,
               values: list, confs: list,
               model: Callable[[list[_Look]], np.ndarray]) -> tuple[list, list]:
    """`values` and `confs` with the places left unknown read where a window moved
    within the tile shows it clear of what lies over part of it (see _PAST_MOST), surely.
    `probs`: the place model's for each look in `looks` that is not None; `model` gives
    them for other looks."""
    if HIDDEN not in classes:  # (a model fitted without what lies over a place)
        return values, confs
    values, confs = list(values), list(confs)
    firsts = iter(probs)
    over_it = classes.index(HIDDEN)
    for k, look in enumerate(looks):
        if look is None:
            continue
        first = next(firsts)
        if values[k] != UNKNOWN:
            continue
        holds = leans_on(first, classes)
        if holds is None or classes[holds] is None:
            continue
        x, y = look.site
        moved = [m for m in (at(x + dx, y + dy) for dx, dy in _PAST_MOVES) if m is not None]
        if len(moved) < 2:
            continue
        p = model(moved)
        least, next_least = np.argsort(p[:, over_it])[:2]
        if int(np.argmax(p[least])) == holds == int(np.argmax(p[next_least])) and p[least, holds] >= SURE:
            values[k], confs[k] = classes[holds], float(p[least, holds])
    return values, confs


# A tile's top fits its colour's mixes far better than what lies over the rim (the
# tiles read right on such discs of seeds 7 and 9: by 3.5-9 in mean log-likelihood a
# pixel); a sleeve of the tile's colour fits both alike.
_OVER_MARGIN = 2.0


def _beside_most_hidden(patch: np.ndarray, words: np.ndarray, looks: list[_Look | None],
                        over: np.ndarray | None, values: list) -> list:
    """The places of a disc something hides most of the rim of (`over`: its colour-word
    mix), as read by the place model, which never saw so much hidden: a tile whose
    window that mix explains about as well as the tile's colour is unknown (a yellow
    sleeve is no yellow tile), and where a tile is read, a place read empty is unknown.
    The place model can read a place under a sleeve as empty (seed 9, frame 472: three,
    0.91-0.97 sure); but a disc holds its tiles together, four of them or the last the
    bag held."""
    seen = [k for k, look in enumerate(looks) if look is not None and values[k] not in (None, UNKNOWN)]
    if over is not None and seen:
        hist = _window_looks(patch, words, [looks[k].site for k in seen], _HALF_WIN)[1]
        fits = _mix_fits(hist, [_DISC_TILE_MIXES[c] for c in COLORS])
        by_over = hist @ np.log(over) / np.maximum(1.0, hist.sum(axis=1))
        values = list(values)
        for row, k in enumerate(seen):
            if by_over[row] >= fits[row, COLORS.index(values[k])] - _OVER_MARGIN:
                values[k] = UNKNOWN
    if any(v not in (None, UNKNOWN) for v in values):
        values = [UNKNOWN if v is None else v for v in values]
    return values


FACTORY_MODEL = "factory"  # the place model that reads a factory's places (vision.calibrate fits it)

# A tile's colour is read on a disc's fourth place from this share of what its model
# gives the colours (see _fourth_tile): a white tile among yellow ones read 0.88 white
# was told. (From 0.9, seeds 7 / 9 / 8 / 2 / 1: +2 / 0 / 0 / +1 / 0 discs read exactly;
# from 0.7, +2 / +1 / +1 / +1 / +1 but 2 more read wrong with nothing unknown: a pale
# blue tile in bright light read 0.71 white.)
_FOURTH_COLOR_SURE = 0.8


def _fourth_tile(classes: list, probs: list[np.ndarray], values: list) -> tuple[int, str, float] | None:
    """The one place of a disc left unknown whose three others hold tiles read surely,
    told as a tile: (its index, colour, confidence), or None. The factories are filled
    with four tiles each and a player takes all of a disc's tiles at once, so a disc
    holds four or none (fewer only when the bag and the lid ran out as the round began).
    The place must still look more like a tile than like the disc's print, nothing be
    over it, and its colour be plain among the colours: the rule tells that a tile is
    there, not which. This holds where something lies over the disc's rim too: a place
    the model reads as something over it is not told, nor a disc with a place read empty;
    a black tile beside an arm is read as black only a little surely (seed 9, frame
    345: 0.61), which was left unknown. (Told only on discs whose rim shows all round,
    seeds 7 / 9 / 8 / 2 / 1 read 2 / 3 / 1 / 0 / 1 discs fewer exactly, none more
    wrong with nothing unknown.)"""
    unknown = [k for k, v in enumerate(values) if v == UNKNOWN]
    if len(unknown) != 1 or any(v is None for v in values):
        return None
    k = unknown[0]
    p = probs[k]
    colours = [i for i, c in enumerate(classes) if c not in (None, HIDDEN)]
    tile = float(p[colours].sum())
    best = colours[int(np.argmax(p[colours]))]
    share = float(p[best]) / max(tile, 1e-9)
    if classes[int(np.argmax(p))] == HIDDEN or tile <= p[classes.index(None)] or share < _FOURTH_COLOR_SURE:
        return None
    return k, classes[best], share


@dataclass(frozen=True)
class _Look:
    """What one place of a disc shows, in its window."""

    site: tuple[float, float]  # disc view px
    covered: float  # share of the window that is no print of the disc
    core_covered: float  # the same of its middle
    beside_hidden: bool  # something lies over the rim beside it
    hist: np.ndarray  # colour-word counts
    glare: float  # glare pixels


def _read_by_mixes(look: _Look, over: np.ndarray | None) -> color.Reading:
    """A place read by the colour-word mixes, when no factory model is at hand."""
    if look.covered < 0.15 or look.core_covered < 0.3:
        return color.Reading(None, 1.0)  # the sunburst shows: no tile here
    cands: dict[str | None, list[np.ndarray]] = dict(_DISC_TILE_MIXES)
    if look.covered < 0.6:
        cands[None] = _EMPTY_DISC
    rd = color.classify(look.hist, look.glare, cands)
    fit = color._score(look.hist, cands[rd.value]) if rd.value in cands else -np.inf
    if rd.value in _PLAIN and (rd.confidence < 0.9 or fit < _LEAST_FIT):
        # Seen steeply, a tile's side face and shadow fill much of the place beside
        # it, darker and flat: a tile colour that fits it poorly is no tile's top.
        return color.Reading(UNKNOWN, rd.confidence)
    if look.beside_hidden and rd.value != UNKNOWN and (
            rd.confidence < 0.9 or float(np.log(over) @ look.hist) / max(1.0, look.hist.sum()) > fit - 0.5):
        return color.Reading(UNKNOWN, 0.0)
    return rd


def _site_features(patch: np.ndarray, words: np.ndarray, looks: list[_Look], over: np.ndarray | None,
                   lift: np.ndarray | None) -> np.ndarray:
    """Places of a disc described for the place model, one row each: the windows the
    boards' places are described by, at the place and over a wider square (does a tile
    fill it?), the share of each that is no print of the disc, how well each tile
    colour's mixes fit, and what is known of things over the rim beside it and of how
    steep the view is."""
    sites = [look.site for look in looks]
    parts = [_window_looks(patch, words, sites, half) for half in (_HALF_WIN, _WIDE_WIN)]
    hist = parts[0][1]  # the place's own window
    per_px = np.maximum(1.0, hist.sum(axis=1))
    fits = _mix_fits(hist, [_DISC_TILE_MIXES[c] for c in COLORS])
    seen_over = hist @ np.log(over) / per_px if over is not None else np.zeros(len(looks))
    steep = float(np.hypot(*lift)) if lift is not None else -1.0
    known = np.array([[look.covered, look.core_covered, look.beside_hidden, over is not None, fit, steep]
                      for look, fit in zip(looks, seen_over, strict=True)], np.float64)
    return np.concatenate([*(features for features, _, _ in parts), known, fits], axis=1)


def _window_looks(patch: np.ndarray, words: np.ndarray, sites: list, half: int
                  ) -> tuple[np.ndarray, np.ndarray, list[tuple[slice, slice]]]:
    """A square window 2 * half px across at each site of a view, moved inside the view:
    the boards' window features of each, their colour-word counts, and the windows."""
    n = patch.shape[0]
    pixels, hists, glare, boxes = [], [], [], []
    for x, y in sites:
        x0 = min(max(0, round(x) - half), n - 2 * half)
        y0 = min(max(0, round(y) - half), n - 2 * half)
        box = (slice(y0, y0 + 2 * half), slice(x0, x0 + 2 * half))
        w = words[box].ravel()
        hists.append(np.bincount(w[w >= 0], minlength=len(color.WORD_NAMES)))
        glare.append((w < 0).sum())
        pixels.append(patch[box].reshape(-1, 3))
        boxes.append(box)
    hists_a = np.array(hists, np.float64)
    return window_features(np.array(pixels), hists_a, np.array(glare, np.float64)), hists_a, boxes


def _mix_fits(hists: np.ndarray, mixes: list[list[np.ndarray]]) -> np.ndarray:
    """How well each list of mixes fits each window's word counts (one row a window): the
    best mix's mean log-likelihood per pixel (0 for a window all glare)."""
    per_px = np.maximum(1.0, hists.sum(axis=1))
    return np.stack([(hists @ color._log_mixes(m).T).max(axis=1) for m in mixes], axis=1) / per_px[:, None]


_HALF_WIN = max(2, round(0.28 * TILE_MM * _PATCH_PX_PER_MM))
_WIDE_WIN = max(2, round(0.42 * TILE_MM * _PATCH_PX_PER_MM))


# The ring's print (RGB 236, 222, 188); boards balanced to CREAM_RGB show it so too.
_DISC_CREAM_BGR = np.array([188.0, 222.0, 236.0], np.float32)


def _ring_cream(patch: np.ndarray) -> np.ndarray:
    """The cream ring's colour (B, G, R) in a disc's view (at _PATCH_PX_PER_MM): the
    lighter half of the plain ring between the sunburst's dots and the black waves'
    inner swing, where no tile reaches."""
    zone = patch.reshape(-1, 3)[_zone_index(patch.shape[0], SUNBURST_RADIUS_MM + 3, RING_MM - 1.5)]
    total = (zone[:, 0].astype(np.int32) + zone[:, 1]) + zone[:, 2]  # as zone.sum(axis=1), much faster
    lighter = zone[total >= percentile(total, 50)]
    # (8-bit medians: counted, not sorted)
    return np.array([percentile(np.ascontiguousarray(lighter[:, k]), 50) for k in range(3)], np.float32)


@lru_cache(maxsize=16)
def _zone_index(n: int, inner_mm: float, outer_mm: float) -> np.ndarray:
    """Flat indices of an n x n disc view (at _PATCH_PX_PER_MM) between two radii."""
    return np.flatnonzero(_zone(n, inner_mm, outer_mm))


def _occluder_mix(patch: np.ndarray, r: np.ndarray, hidden: np.ndarray,
                  seen: np.ndarray) -> np.ndarray | None:
    """The colour-word mix of what covers the rim where it is hidden (and in the frame)."""
    zone = (r > RING_MM - 4) & (r < DISC_RADIUS_MM - 1) & seen & hidden[_sector_map(r.shape[0])]
    if zone.sum() < 20:
        return None
    w = color.word_indices(patch[zone])
    hist = np.bincount(w[w >= 0], minlength=len(color.WORD_NAMES)).astype(np.float64)
    return (hist + 0.5) / (hist.sum() + 0.5 * len(hist))


# A plain tile's top (mean log-likelihood per pixel under its best mix) fits better than
# this; the patterned black and white tiles vary too much for such a bound.
_LEAST_FIT = -2.0
_PLAIN = ("blue", "red", "yellow")

_SITE_MM = TILE_MM + 0.6  # tiles of a block touch, or nearly


_SUNBURST = np.zeros(len(color.WORD_NAMES) + 1, bool)
_SUNBURST[[color._W["print_blue"], color._W["print_light"], -1]] = True
_RING_PRINT = np.zeros(len(color.WORD_NAMES) + 1, bool)
_RING_PRINT[[color._W[w] for w in ("cream", "shade", "grey", "pale_dark", "dark", "orange", "pale_orange")]
            + [-1]] = True


def _settle(tile: np.ndarray, inside: np.ndarray, site: tuple[float, float], hw: int,
            reach: int) -> tuple[float, float]:
    """A site moved (at most `reach` px) to where its window lies most on a tile: the
    tiles of a block are not laid exactly, and each top face is where it is seen."""
    n = tile.shape[0]
    x, y = round(site[0]), round(site[1])
    y0, y1 = max(0, y - hw - reach), min(n, y + hw + reach)
    x0, x1 = max(0, x - hw - reach), min(n, x + hw + reach)
    if y1 - y0 <= 2 * hw or x1 - x0 <= 2 * hw:
        return site
    cover = cv2.boxFilter(tile[y0:y1, x0:x1].astype(np.float32), -1, (2 * hw, 2 * hw), normalize=True,
                          borderType=cv2.BORDER_CONSTANT)
    if cover[y - y0, x - x0] < 0.4:
        return site  # no tile here to centre on: a neighbour's side face must not pull it
    xs, ys = np.arange(x0, x1), np.arange(y0, y1)
    # Nearer places win ties: the block's own place is the better guess.
    score = cover - 0.02 * np.hypot(xs[None, :] - x, ys[:, None] - y) / max(1, reach)
    score[:, np.abs(xs - x) > reach] = -1
    score[np.abs(ys - y) > reach, :] = -1
    j = int(np.argmax(score))
    return float(xs[j % len(xs)]), float(ys[j // len(xs)])


_SECTORS = 24
# A disc shows its rim round most of it; a ring fitted to print on a board, to a heap of
# tiles or wrongly to a disc finds it hidden in patches. An arm or a sleeve across a
# disc hides one stretch of it, up to half (seeds 7 / 9: 6 / 6 more discs read exactly,
# none less; from 0.55 to 0.65 changes nothing). Such a disc is read after the others:
# its ring, fitted to half a circle, sizes the discs still to find less well.
_HIDDEN_FIRST = 0.4
_HIDDEN_MOST = 0.55
# Where the circle of discs places a disc, one is there: an arm can hide more of its rim
# and leave its middle in view (seed 7, frame 491: 0.62 of the rim, a tenth of the
# middle; seeds 7 / 9 / 8: +2 / 0 / +3 discs read exactly, none fewer; 0.85 changes
# nothing more).
_PLACED_HIDDEN_MOST = 0.7
# A disc's cream ring fills this share of its zone, or what was fitted is no disc; where
# the circle of discs places one, less: an arm or a sleeve over half of it leaves under
# a third (seed 11 frame 252: 0.23, a hand over half a disc, its yellow and white tiles
# in view; seeds 7 / 9 / 10 / 11: 4 / 1 / 1 / 1 more discs read exactly, none fewer). A
# disc that shows so little of its ring may hide its tiles under what hides the ring:
# its places that show no tile are unknown, not empty (seed 8 frame 289: a sliver of
# sunburst by a sleeve, four tiles under it).
_CREAM_LEAST = 0.3
_PLACED_CREAM_LEAST = 0.2


def _one_stretch(hidden: np.ndarray) -> bool:
    """Whether the sectors hidden (one flag a sector, round the disc) run unbroken."""
    return int((hidden & ~rolled(hidden, 1)).sum()) == 1


def _gaps_closed(hidden: np.ndarray) -> np.ndarray:
    """The sectors hidden, with each one shown between two hidden taken as hidden: an
    arm's edge or a fold of its sleeve the rim's hue can show one sector within the
    stretch it hides (seed 7, frame 183)."""
    return hidden | (rolled(hidden, 1) & rolled(hidden, -1))


@lru_cache(maxsize=8)
def _sector_map(n: int) -> np.ndarray:
    """Which of _SECTORS sectors round the middle each pixel of an n x n view is in."""
    yy, xx = np.mgrid[0:n, 0:n]
    angle = np.arctan2(yy + 0.5 - n / 2, xx + 0.5 - n / 2)
    return np.round(angle / (2 * np.pi) * _SECTORS).astype(int) % _SECTORS


def _hidden_sectors(hsv: np.ndarray, seen: np.ndarray, rim_lightest: int = _RIM_LIGHTEST[0]) -> np.ndarray:
    """Which of _SECTORS equal sectors of a rectified disc (at _PATCH_PX_PER_MM) do not
    show its rim (orange-brown) or the cream ring just inside it where they are in the
    frame: a stretch out of the frame hides nothing that is in it."""
    n = hsv.shape[0]
    flat_hsv, flat_seen, sector = hsv.reshape(-1, 3), seen.ravel(), _sector_map(n).ravel()

    def band(inner_mm: float, outer_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The band's pixels in the frame: their sectors and hue, saturation, value."""
        idx = _zone_index(n, inner_mm, outer_mm)
        idx = idx[flat_seen[idx]]
        h, s, v = flat_hsv[idx].T
        return sector[idx], h, s, v

    def share(mask: np.ndarray, where: np.ndarray) -> np.ndarray:
        count = np.bincount(where, minlength=_SECTORS)
        part = np.bincount(where, weights=mask.astype(np.float64), minlength=_SECTORS)
        return np.where(count >= 3, part / np.maximum(count, 1), 1.0)

    # A hand is near the rim's hue but no cream; blur mixes both bands with their
    # neighbours a little.
    rim_at, h, s, v = band(RING_MM + 1, DISC_RADIUS_MM - 1)
    brown = (h >= 3) & (h <= 24) & (s >= 80) & (v >= 40) & (v <= rim_lightest)
    ring_at, _, s, v = band(RING_MM - 4, RING_MM - 1)
    cream = (s < 90) & (v > 100)
    # Either band gone, over a stretch wider than blur or a misfit leaves: a thing on top.
    gone = (share(brown, rim_at) < 0.25) | (share(cream, ring_at) < 0.2)
    return gone & (rolled(gone, 1) | rolled(gone, -1))


def _tile_pixels(words: np.ndarray, hsv: np.ndarray) -> np.ndarray:
    """Pixels of a disc's rectified view that are no part of its print. The sunburst's
    saturated blue keeps its hue and saturation in a tile's shadow; a black tile is
    dark and dull (HSV about 109, 81, 31, real-table.md) even where a bluish light
    makes it read as navy, and a blue tile is a greener cyan (H about 98)."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    deep_blue = (h >= 102) & (h <= 130) & (s >= 120) & (v >= 45)
    return ~_SUNBURST[words] & ~deep_blue


# A turn whose edges are this strong beside the strongest (3-degree bins) leaves the
# block's turn in doubt: on seeds 7 / 9, the discs another turn read right showed it
# 0.92-0.99 as strong; from half as strong, two more were read wrong (0.55 and 0.61).
# Of up to _TURNS_TRIED such turns, one wins by windows clearer by _CLEARER (the four
# windows' clearness, each 0-1, summed).
_TURN_IN_DOUBT = 0.9
_TURNS_TRIED = 3
_CLEARER = 0.1


@lru_cache(maxsize=4)
def _site_masks(n: int, ppm: float) -> tuple[tuple[slice, slice], np.ndarray, np.ndarray, np.ndarray,
                                             np.ndarray]:
    """What `_tile_sites` needs of an n x n disc view that is the same for every disc:
    the square about the sunburst that it looks in, and there the sunburst (as 0/1),
    where its edges count, and per window of a place, whether enough of it lies on the
    sunburst and over how much."""
    r = _radius_grid(n, ppm)
    hw = max(2, round(0.28 * TILE_MM * ppm))
    # Past the sunburst by a window and more than the blur and the gradient reach: what
    # lies further is no tile, and a window there covers none of the sunburst.
    reach = math.ceil(SUNBURST_RADIUS_MM * ppm) + max(hw, 5) + 1
    lo, hi = max(0, n // 2 - reach), min(n, n - n // 2 + reach)
    box = (slice(lo, hi), slice(lo, hi))
    r = r[box]
    inside = (r < SUNBURST_RADIUS_MM).astype(np.float32)
    edge_zone = r < SUNBURST_RADIUS_MM - 2
    k = (2 * hw, 2 * hw)
    a_sum = cv2.boxFilter(inside, -1, k, normalize=False, borderType=cv2.BORDER_CONSTANT)
    masks = (inside, edge_zone, a_sum > 0.3 * k[0] * k[1], np.maximum(a_sum, 1.0))
    for m in masks:
        m.setflags(write=False)
    return box, *masks


def _tile_sites(tile_px: np.ndarray, patch: np.ndarray, ppm: float,
                lift: np.ndarray | None = None) -> list[tuple[float, float]]:
    """The four places of the 2 x 2 block the tiles lie in, patch px: turned as the
    tiles' outlines run, and shifted to where their top faces are (a tile's top is
    lifted 7 mm, so seen obliquely it lies off the block's foot). `patch`: the disc's
    balanced view, whose colour edges tell how the block is turned alike with the
    outline of what is no print."""
    n = tile_px.shape[0]
    box, inside, edge_zone, enough, area = _site_masks(n, ppm)
    tile = tile_px[box].astype(np.float32) * inside
    if tile.sum() < 0.25 * (TILE_MM * ppm) ** 2:
        return []
    soft = cv2.GaussianBlur(tile, (0, 0), 1.0)
    gx, gy = cv2.Sobel(soft, cv2.CV_32F, 1, 0), cv2.Sobel(soft, cv2.CV_32F, 0, 1)
    # When blur mixes the sunburst into the tiles, what is no print fills it nearly whole
    # and its outline says little of the turn: the edges between tiles of two colours,
    # and between each tile and the print, still run with the block; half the view's
    # detail shows them. (Seeds 7 / 9, by the outline alone: 18 / 26 fewer discs read
    # exactly, 2 / 4 more read wrong with no place unknown.)
    lab = cv2.cvtColor(cv2.resize(patch[box], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2Lab)
    cgx, cgy, steep = _colour_gradient(lab)
    hist = (_turns(gx, gy, cv2.magnitude(gx, gy) * edge_zone, 0.01)
            + _turns(cgx, cgy, steep * inside[:2 * lab.shape[0]:2, :2 * lab.shape[1]:2], 0.1))
    hist = hist + 0.5 * (rolled(hist, 1) + rolled(hist, -1))
    # The turns the edges run at most: the strongest, and those nearly as strong.
    order = np.argsort(-hist, kind="stable")
    turns = [int(j) for j in order if hist[j] > 0 and hist[j] >= _TURN_IN_DOUBT * hist[order[0]]
             and hist[j] >= max(hist[j - 1], hist[(j + 1) % len(hist)])] or [int(order[0])]
    # The block's place: each of its places holds a tile or does not, so the shift that
    # leaves the four windows each most clearly full or empty (not straddling a tile's
    # edge) is where the block lies.
    hw = max(2, round(0.28 * TILE_MM * ppm))
    k = (2 * hw, 2 * hw)
    t_sum = cv2.boxFilter(tile, -1, k, normalize=False, borderType=cv2.BORDER_CONSTANT)
    near = np.where(enough, t_sum / area, 0.5)
    cover = np.full((n, n), 0.5, near.dtype)
    cover[box] = near
    step = max(1, round(ppm))
    # The top faces lie off the block's foot by the lift the camera sees (known from a
    # board's homography); without one, anywhere a tile's thickness and a loose lay allow.
    reach = round((4 if lift is not None else 9) * ppm)
    c = np.array([n / 2, n / 2]) + (lift * ppm if lift is not None else 0)
    d = np.arange(-reach, reach + 1, step)
    dx, dy = d[None, None, :], d[None, :, None]
    middle = -0.002 * (dx**2 + dy**2)[0] / ppm**2  # the block lies about the middle
    # Where the edges leave the turn in doubt (blur, a tile turned in the block, a
    # neighbour's side face), the turn whose windows are clearly clearer wins.
    chosen = None
    for j in turns[:_TURNS_TRIED]:
        theta = math.radians(3 * j + 1.5)
        u = np.array([math.cos(theta), math.sin(theta)])
        v = np.array([-math.sin(theta), math.cos(theta)])
        offsets = [(du * u + dv * v) * _SITE_MM / 2 * ppm for du in (-1, 1) for dv in (-1, 1)]
        at = c + np.array(offsets)  # the four places, unshifted
        xs = np.clip(np.round(at[:, 0, None, None] + dx).astype(int), 0, n - 1)
        ys = np.clip(np.round(at[:, 1, None, None] + dy).astype(int), 0, n - 1)
        clear = np.abs(2 * cover[ys, xs] - 1)
        score = middle + clear[0] + clear[1] + clear[2] + clear[3]
        iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
        if chosen is None or score[iy, ix] > chosen[0] + _CLEARER:
            chosen = (float(score[iy, ix]), np.array([d[ix], d[iy]], float), offsets)
    _, best, offsets = chosen
    return [tuple(c + best + o) for o in offsets]


def _colour_gradient(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gradient of a colour image where its channels together change most (Di
    Zenzo's): x and y parts, and how steep. (Channels summed by cv2.transform: numpy's
    sum over a 3-wide last axis is several times slower.)"""
    gx, gy = cv2.Sobel(image, cv2.CV_32F, 1, 0), cv2.Sobel(image, cv2.CV_32F, 0, 1)
    ones = np.ones((1, 3), np.float32)
    gxx, gyy, gxy2 = (cv2.transform(a * b, ones) for a, b in ((gx, gx), (gy, gy), (2 * gx, gy)))
    # The steepest direction, from the doubled angle (a gradient and its reverse are one edge).
    steep = cv2.sqrt(0.5 * (gxx + gyy + cv2.magnitude(gxx - gyy, gxy2)))
    x, y = cv2.polarToCart(steep, 0.5 * cv2.phase(gxx - gyy, gxy2))
    return x, y, steep


def _turns(gx: np.ndarray, gy: np.ndarray, weight: np.ndarray, least: float) -> np.ndarray:
    """How edges run, modulo a quarter turn, in 3-degree bins summing to 1: each edge
    pixel (weight over `least` of the most) counts by its weight."""
    weight = weight.astype(np.float32)
    edge = weight > least * weight.max()
    if not edge.any():
        return np.zeros(30)
    ang = cv2.phase(gx[edge], gy[edge], angleInDegrees=True).ravel() % 90.0
    hist = np.bincount(np.minimum((ang / 3).astype(int), 29), weights=weight[edge], minlength=30)
    return hist / max(float(hist.sum()), 1e-9)


def _read_center(frame: np.ndarray, plane: _Plane, factories: list[FactoryReading],
                 wb: WhiteBalance, top_of: Callable[[np.ndarray], np.ndarray]) -> CenterReading:
    centers_mm = plane.to_plane(np.array([f.center for f in factories]))
    middle = centers_mm.mean(axis=0)
    radius = float(np.linalg.norm(centers_mm - middle, axis=1).min()) - DISC_RADIUS_MM - 3
    # The discs lie round the centre pile in a loose circle (of 9 discs at most, about
    # 250 mm across): anything wider is a misplaced plane or a disc read in the wrong place.
    if radius < 2 * TILE_MM or radius > _CENTER_MOST_MM:
        return CenterReading({}, False, 0)
    ppm = _CENTER_PX_PER_MM
    side = TILE_MM * ppm  # a tile's side in the pile's view
    patch = plane.patch(frame, middle, radius, wb, ppm)
    n = patch.shape[0]
    inside = _radius_grid(n, ppm) < radius
    lab = cv2.cvtColor(patch / np.float32(255.0), cv2.COLOR_BGR2Lab)  # (balanced: 0-255 already)
    # A sample is plenty for the table's colour.
    sample = lab.reshape(-1, 3)[np.flatnonzero(inside)[::7]]
    table = np.array([np.median(sample[:, k]) for k in range(3)], np.float32)
    # Distance from it (lightness halved), channel by channel: numpy's reductions over a
    # 3-wide last axis are slow. Summed in the order np.linalg.norm sums them.
    sq = [np.square((lab[..., k] - table[k]).astype(np.float64) * w) for k, w in enumerate((0.5, 1.0, 1.0))]
    dist = np.sqrt((sq[0] + sq[1]) + sq[2])
    # Off the table's colour by more than its own grain varies (a wooden table's by much,
    # a plain white one's hardly at all): white tiles and the marker on a white table
    # differ from it only by their shade and print.
    grain = percentile(dist[inside][::7].astype(np.float32), 70)
    fg = ((dist > min(_OFF_TABLE_MOST, max(_OFF_TABLE_LEAST, _OFF_GRAIN * grain))) & inside).astype(np.uint8)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    fg = _print_pieces_joined(fg, side)
    # A tile's print and outline stand off the table where its white does not: the
    # whole tile is inside them.
    outlines, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    fg = cv2.drawContours(np.zeros_like(fg), outlines, -1, 1, -1) & inside.astype(np.uint8)
    count, labels, stats, _ = components(fg)
    # A tile seen obliquely covers more of the table than its top face: its side faces
    # too, from its foot to its top, which shows off the foot by the tile's parallax;
    # and a little more for its bevel and shadow. (The lift counted: seeds 7 and 9,
    # frames 0-199, read the centre exactly in 49% and 50% of frames, not 33% and 30%.
    # With 1.1 or 1.3 for the rest, seed 9 read 15 and 9 frames fewer exactly.)
    lift = _trusted(plane.to_plane([top_of(plane.to_image([middle])[0])])[0] - middle)
    sides = 0.0 if lift is None else TILE_MM * float(np.abs(lift).sum())
    tile_area = (TILE_MM ** 2 + sides) * ppm ** 2 * 1.2
    to_mm = np.array([[1 / ppm, 0, middle[0] - radius], [0, 1 / ppm, middle[1] - radius], [0, 0, 1]])
    sites, blobs, heaps = [], [], []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < 0.3 * tile_area:
            continue
        x, y, bw, bh = stats[i, :4]
        ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == i)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        k = min(_PILE_MOST, max(1, round(area / tile_area)))
        at, of = _heap_points(pts, k, area, tile_area)
        heaps.append((len(sites), len(at), pts, k, area))
        sites += at
        blobs += of
    words = color.word_indices(patch).reshape(patch.shape[:2])
    for cpt, area in _marker_prints(words, inside, side):  # (no heap of its own)
        if not sites or np.linalg.norm(np.array(sites) - cpt, axis=1).min() > _PRINT_CLEAR * side:
            sites.append(cpt)
            blobs.append((1, area / tile_area, 1.0))
    if not sites:
        return CenterReading({}, False, 0)
    features = _pile_features(patch, words, fg, np.array(sites), np.array(blobs))
    if CENTER_MODEL in PLACE_MODELS:
        readings = _pile_readings(features)
        nothing_first = sum(r.value is None for r in readings)
        # A heap of two tiles whose area makes one (a white tile on a light table stands
        # off it by its print alone, a yellow one on wood by its edges) is read as one:
        # split once more, each point read as a tile of its own, it is two. A heap whose
        # area makes more tiles than it holds (their shadows on a light table join them)
        # has points between its tiles, read as no tile, and a tile or the marker read
        # off its middle is missed: split into fewer points, down to _FEWER_MOST fewer,
        # the fewest that read as many tiles as any are taken.
        for start, n, pts, k, area in reversed(heaps):
            now = readings[start:start + n]
            tries = [k + 1] if area / (k * tile_area) >= _SPLIT_TRIED and k < _PILE_MOST else []
            if k >= 2 and any(r.value is None for r in now):
                tries += range(k - 1, max(0, k - 1 - _FEWER_MOST), -1)
            tiles_now = sum(r.value not in (None, UNKNOWN) for r in now)
            for points in tries:
                at, of = _heap_points(pts, points, area, tile_area)
                more = _pile_features(patch, words, fg, np.array(at), np.array(of))
                read = _pile_readings(more)
                values = [r.value for r in read]
                tiles = sum(v not in (None, UNKNOWN) for v in values)
                taken = _tiles_apart(np.array(at), values, side) if points > k \
                    else tiles >= tiles_now and _tiles_apart(np.array(at), values, side, nothing_ok=True)
                if taken:
                    sites[start:start + n], readings[start:start + n] = at, read
                    features = np.concatenate([features[:start], more, features[start + n:]])
                    n, tiles_now = len(at), tiles
                    if points > k:
                        break
    else:
        cands: dict[str | None, list[np.ndarray]] = {c: color.TILE_MIXES[c] for c in COLORS}
        cands[MARKER] = color.TILE_MIXES[MARKER]
        half_win = round(_PILE_WIN * side)
        readings = []
        for cpt in sites:
            x0, y0 = round(cpt[0]) - half_win, round(cpt[1]) - half_win
            win = words[max(0, y0):y0 + 2 * half_win, max(0, x0):x0 + 2 * half_win]
            hist = np.bincount(win[win >= 0], minlength=len(color.WORD_NAMES)).astype(np.float64)
            readings.append(color.classify(hist, float((win < 0).sum()), cands))
        nothing_first = sum(r.value is None for r in readings)
    readings = _one_a_tile(np.array(sites), readings, side)
    tiles: dict[str, int] = {}
    marker, unknown = False, 0
    for rd in readings:
        if rd.value == UNKNOWN:
            unknown += 1
        elif rd.value == MARKER:
            marker = True
        elif rd.value is not None:
            tiles[rd.value] = tiles.get(rd.value, 0) + 1
    points = [plane.to_image(apply_h(to_mm, [cpt]))[0] for cpt in sites]
    values = [rd.value for rd in readings]
    return CenterReading(dict(sorted(tiles.items())), marker, unknown, points, values, features,
                         nothing_first)


def _heap_points(pts: np.ndarray, k: int, area: float,
                 tile_area: float) -> tuple[list[np.ndarray], list[tuple]]:
    """A heap of the pile (its pixels, px) split into k points, and each point's heap as
    the centre's model is told it: its tiles, its area a tile, the point's share of it."""
    if k > 1 and len(pts) > k:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        # k-means++ seeds from OpenCV's thread-wide generator: reset it, or a frame would
        # read differently depending on what was read before it.
        cv2.setRNGSeed(1)
        # A tile is some 1,000 px here: a hundred of each place the heap's tiles as well as all of them.
        pts = pts[::max(1, len(pts) // (_KMEANS_PER_TILE * k))]
        _, assign, centers = cv2.kmeans(pts, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
        assign = assign.ravel()
    else:
        assign, centers = np.zeros(len(pts), int), pts.mean(axis=0, keepdims=True)
    at, of = [], []
    for j, cpt in enumerate(centers):
        share = float((assign == j).mean()) * len(centers)
        if share > 0:
            at.append(cpt)
            of.append((k, area / (k * tile_area), share))
    return at, of


def _pile_readings(features: np.ndarray) -> list[color.Reading]:
    classes, probs = place_probabilities(CENTER_MODEL, features)
    return [color.Reading(classes[int(np.argmax(p))] if p.max() >= _PILE_SURE else UNKNOWN, float(p.max()))
            for p in probs]


# A heap is split once more when it covers this many tiles' areas a point at least.
# (Seeds 7 / 9, 500 frames: 3 / 2 more centres read exactly, none less well; from 1.15,
# 3 / 1; from 0.7, as from 0.9.)
_SPLIT_TRIED = 0.9


def _tiles_apart(sites: np.ndarray, values: list, side: float, *, nothing_ok: bool = False) -> bool:
    """Whether the points a heap was split into are each a tile: read as one, and two
    read as the same colour lying at least _SPLIT_APART sides (`side`, patch px) apart."""
    if any(v == UNKNOWN or (v is None and not nothing_ok) for v in values):
        return False
    apart = np.linalg.norm(sites[:, None] - sites[None], axis=-1)
    same = np.equal.outer(np.array(values, object), np.array(values, object))
    return not np.triu(same & (apart < _SPLIT_APART * side), 1).any()


# Two tiles of one colour side by side, their heap split, lie 1.22-1.43 sides apart (seed
# 7, 500 frames); a blurred tile and its shadow split into three, 0.83-1.02. (Seeds 7 / 9 /
# 8 / 2 / 1: 11 / 8 / 8 / 5 / 11 more centres read exactly than with a split taken only
# into points of distinct colours; with no distance asked, 10 / 6 / 9 / 5 / 10.)
_SPLIT_APART = 1.1
# Seeds 7 / 9 / 8 / 2 / 1: 15 / 13 / 15 / 9 / 9 more centres read exactly, 17 / 12 / 13 / 5
# / 9 fewer surely wrong; seed 7 frame by frame, 17 more exactly (12 in plain view, the
# marker found in 4), 2 fewer: a hand's fingers, fewer to their heap, read as a tile (both
# frames flagged occluded, the pile unknown in part).
_FEWER_MOST = 3


def _print_pieces_joined(fg: np.ndarray, side: float) -> np.ndarray:
    """The mask with each group of small pieces lying within a tile of each other filled
    to their hull, where that hull is about a tile's top (`side`: a tile's side, px).
    On a table as light as the marker only its print stands off it, in pieces each too
    small for a tile: its square's sides apart, its "1"."""
    count, labels, stats, _ = components(fg)
    small = np.zeros(count, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < _PIECE_MOST * side ** 2
    if not small[1:].any():
        return fg
    out = fg.copy()
    for xs, _, hull, area, longest in _grouped(small[labels].astype(np.uint8), side):
        # (not a line longer than a tile: a mat's edge, the table's grain)
        if len(xs) >= 3 and _HULL_LEAST * side ** 2 <= area <= _HULL_MOST * side ** 2 \
                and longest <= _HULL_LONGEST * side:
            cv2.fillConvexPoly(out, hull, 1)
    return out


def _grouped(mask: np.ndarray,
             side: float) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """The mask's pixels grouped where they lie within _PIECES_APART of a tile (`side`:
    a tile's side, px) of each other: each group's xs, ys, hull, hull area and the
    length of the hull's bounding box."""
    reach = max(3, round(_PIECES_APART * side)) | 1
    near = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    groups, group_of, _, _ = components(near)
    for g in range(1, groups):
        ys, xs = np.nonzero((group_of == g) & (mask > 0))
        hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
        _, (w, h), _ = cv2.minAreaRect(hull)
        yield xs, ys, hull, float(cv2.contourArea(hull)), float(max(w, h))


# Pieces (each under _PIECE_MOST of a tile's top) within _PIECES_APART of a tile of each
# other, whose hull covers _HULL_LEAST to _HULL_MOST of a tile's top and is no longer
# than _HULL_LONGEST tiles, are one tile. (Seeds 7 / 9, 500 frames: 3 / 1 more centres
# read exactly, the marker on a white table; with 0.5 and 0.4 tiles, 3 / 0. With the
# marker also found by its print (_marker_prints), 1 / 1.)
_PIECE_MOST = 0.3
_PIECES_APART = 0.6
_HULL_LEAST = 0.3
_HULL_MOST = 1.6
_HULL_LONGEST = 1.6


def _marker_prints(words: np.ndarray, inside: np.ndarray, side: float) -> list[tuple[np.ndarray, float]]:
    """Where the marker's print (its navy square and "1") lies in the pile's view, each
    as its middle and the area of its hull (px; `side`: a tile's side, px). On a table
    as light as the marker, only its print stands off it, and where the marker touches
    a tile, the print's pieces join the tile's heap and are counted with it."""
    out = []
    for xs, ys, _, area, longest in _grouped(((words == _NAVY) & inside).astype(np.uint8), side):
        # (not a navy sleeve, nor a blue tile's side face in shade)
        enough = len(xs) >= _NAVY_LEAST * side ** 2
        if enough and _PRINT_LEAST * side ** 2 <= area <= _PRINT_MOST * side ** 2 \
                and longest <= _PRINT_LONGEST * side:
            out.append((np.array([xs.mean(), ys.mean()], np.float32), area))
    return out


_NAVY = color.WORD_NAMES.index("navy")
# The marker's print: at least _NAVY_LEAST of a tile's top navy, its hull _PRINT_LEAST to
# _PRINT_MOST of a tile's top and no longer than _PRINT_LONGEST tiles; it is another
# point of the pile where no point lies within _PRINT_CLEAR tiles. (Seeds 7 / 9, 500
# frames: 7 / 3 more centres read exactly, the marker on a white or a light wooden table,
# alone or touching a tile; none read less well. 0.02, 0.12 or 0.45 for the bounds read
# the same.)
_NAVY_LEAST = 0.03
_PRINT_LEAST = 0.2
_PRINT_MOST = 1.0
_PRINT_LONGEST = 1.2
_PRINT_CLEAR = 0.6


def _one_a_tile(sites: np.ndarray, readings: list[color.Reading], side: float) -> list[color.Reading]:
    """The readings of the pile's points (`sites`, `side`: a tile's side, both patch px),
    each point read as the same tile (or the marker) as a surer point nearer than
    _SAME_TILE sides read as no tile. Two tiles lie a side apart at least, but a heap
    that stands off the table further than its tiles (a tile's shadow on a light table)
    is split into more points than it has tiles."""
    out = list(readings)
    apart = np.linalg.norm(sites[:, None] - sites[None], axis=-1)
    for i, j in zip(*np.nonzero(np.triu(apart < _SAME_TILE * side, 1)), strict=True):
        a, b = out[i], out[j]
        if a.value == b.value and a.value not in (None, UNKNOWN):
            weaker = j if b.confidence <= a.confidence else i
            out[weaker] = color.Reading(None, out[weaker].confidence)
    return out


# Seeds 7 / 9, 500 frames: the points of a tile split in two lay 0.65-0.93 of a side
# apart in the image, those of two tiles side by side 0.86 and more. Read as one tile
# within 0.85 sides (in the plane): 9 / 8 more centres read exactly; within 0.92, 0.95 and
# 1.0: 16, 15, 16 / 10; within 1.1, 10 / 9 (neighbours taken for one tile).
_SAME_TILE = 0.95


CENTER_MODEL = "center"  # the model that reads each point of the centre pile (vision.calibrate fits it)
_PILE_WIN = 0.3  # half a window on a tile of the pile, in tiles: its top face, clear of its neighbours
_PILE_WIDE = 0.5  # ... and on the whole tile
# A point of the pile is read as what the centre's model finds likelier than all else
# together. (It only says "unknown" below that; any unknown keeps the tracker from
# using the centre at all. Seeds 7 / 9: at 0.85, 322 / 319 of 500 centres read exactly;
# at 0.5, 380 / 395; with no bar at all, 380 / 397.)
_PILE_SURE = 0.5


def _pile_features(patch: np.ndarray, words: np.ndarray, fg: np.ndarray, sites: np.ndarray,
                   blobs: np.ndarray) -> np.ndarray:
    """Points of the centre pile described for the centre's model, one row each: the
    windows the boards' places are described by, on a tile's top and on the whole tile,
    how well each tile's (and the marker's) mixes fit, how much of each window stands off
    the table, and the heap the point was split from (its tiles, its area per tile, this
    point's share of it): a hand, a sleeve or a mat is no tile, whatever colour it is."""
    looks = [_window_looks(patch, words, sites, max(2, round(size * TILE_MM * _CENTER_PX_PER_MM)))
             for size in (_PILE_WIN, _PILE_WIDE)]
    fits = _mix_fits(looks[0][1], [color.TILE_MIXES[c] for c in (*COLORS, MARKER)])
    off_table = np.array([[fg[box].mean() for box in boxes] for _, _, boxes in looks]).T
    return np.concatenate([*(features for features, _, _ in looks), fits, off_table, blobs], axis=1)
