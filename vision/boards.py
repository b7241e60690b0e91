"""Finding player boards: the blue ornamental frame round a cream panel.

Stages, each on the physical board rather than on any one picture of it:
1. blue-frame regions in a white-balanced, downscaled frame; a quadrilateral fitted
   to each region's outline (perspective allowed);
2. which side is up: the blue strip between the score track and the panel lies
   about 30% of the way down from the owner's top edge;
3. the panel's edges found in a rectified board, so cells are sampled in the
   measured 900 x 600 panel crop (real-table.md) and not on a guessed offset.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .color import WhiteBalance
from .geometry import (
    TYPICAL_FOCAL,
    apply_h,
    camera_in_plane,
    fit_quad,
    in_frame,
    in_frame_points,
    order_clockwise,
    parallax,
    plane_aspect,
    rect_homography,
    rolled,
)
from .stats import components, percentile

BOARD_W_MM = 260.0
BOARD_H_MM = 250.0
# The lower panel as a prior (mm from the board's top-left); its edges are then measured.
PANEL_BOX_MM = (8.5, 80.0, 251.5, 242.0)
TILE_THICK_MM = 7.0  # a tile's top face stands this far above the table
PANEL_W_PX, PANEL_H_PX = 900, 600  # the measured crop

_ORIENT_PX = 128  # the square a board is judged in for its turn
_UNDER_SLEEVE = 0.02  # of that square under a blue sleeve: the board is occluded
_REFINE_PX_PER_MM = 2.0


@dataclass(frozen=True)
class BoardFind:
    """A board located in the frame: homographies into full-resolution image pixels."""

    quad: np.ndarray  # 4 corners, image px: the owner's top-left, top-right, bottom-right, bottom-left
    board_h: np.ndarray  # board mm -> image px
    panel_h: np.ndarray  # panel crop px (900 x 600) -> image px
    rotation: int  # degrees clockwise from upright, in the image
    confidence: float
    # False when the strip that tells the owner's top is hidden: the cells' print must tell it.
    turn_told: bool = True
    # Of a board whose turn is untold, the same board rebuilt from another of its outlines
    # whose strip tells its turn: read where the print tells none (see find_boards).
    rival: BoardFind | None = None

    @property
    def center(self) -> np.ndarray:
        return apply_h(self.board_h, [[BOARD_W_MM / 2, BOARD_H_MM / 2]])[0]


def table_plane(board: BoardFind, scale: float) -> np.ndarray:
    """Image px of the frame reduced by `scale` -> mm on the table plane `board` lies on."""
    return np.linalg.inv(board.board_h) @ np.diag([1 / scale, 1 / scale, 1.0])


_DETECT_WIDTH = 960  # px: the longer side of the frame as boards are found in it


def reduced(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame reduced as boards are found in it (a copy), and by how much."""
    h, w = frame.shape[:2]
    scale = min(1.0, _DETECT_WIDTH / max(w, h))
    small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1 else frame.copy()
    return small, scale


BLUE_HSV = ((94, 70, 45), (128, 255, 255))  # the least and most (OpenCV's HSV) of the boards' blue


def blue_mask(bgr: np.ndarray) -> np.ndarray:
    """The boards' blue print (and anything of that hue) in a white-balanced image."""
    return cv2.inRange(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV), *BLUE_HSV)


# A board's frame is blue all round, and an arm reaching over the board crosses it: a
# stretch of the frame in view this long (board mm) showing no blue is something over the
# board. Looked at _FRAME_INSET_MM in from the board's edge, every _FRAME_STEP_MM, except
# where a tile's top may lean out over it: seen obliquely, a top face shows off its foot,
# away from the camera, and the tiles of the floor and of the long pattern lines lie by the
# edge. (Seeds 7 / 9: 1 / 2 more frames with a hand over the play area flagged occluded,
# and 5 / 2 without one, 4 / 1 of them with a cup or a bottle over the play area, which
# counts too. Along the owner's left, top and right sides whatever the camera: 1 / 4 more
# with a hand, 4 / 2 without, one of them a steep view of tiles leaning over the left
# side. A stretch of 25 mm along those: 2 / 4 more with a hand, 31 / 23 without.)
_FRAME_INSET_MM, _FRAME_STEP_MM, _FRAME_GONE_MM = 4.0, 5.0, 40.0
_LEAN_MOST_MM = 2.0  # how far out a top face 7 mm up may show before the frame under it is not judged


def frame_covered(board: BoardFind, blue: np.ndarray, scale: float) -> bool:
    """Whether something lies over the board's frame (see _FRAME_GONE_MM). `blue`: the
    blue_mask of the balanced frame reduced by `scale`."""
    gone = _frame_gone(board, blue, scale) == 1  # (a point not judged breaks a stretch)
    run, longest = 0, 0
    for g in np.concatenate([gone, gone]):  # the path runs round: a stretch may span its start
        run = run + 1 if g else 0
        longest = max(longest, run)
    return min(longest, len(gone)) * _FRAME_STEP_MM >= _FRAME_GONE_MM


def frame_blue_share(board: BoardFind, blue: np.ndarray, scale: float) -> float:
    """How much of the board's frame in view shows its blue (see frame_covered); 0 if
    none of it is in view."""
    gone = _frame_gone(board, blue, scale)
    judged = gone[~np.isnan(gone)]
    return float(1.0 - judged.mean()) if len(judged) else 0.0


def _frame_gone(board: BoardFind, blue: np.ndarray, scale: float) -> np.ndarray:
    """Points along the board's frame, from its owner's bottom-left corner round: 1 where
    no blue shows, 0 where it does, NaN where it is not judged (out of the frame, or
    where a tile standing by the frame leans over it)."""
    x0, y0 = _FRAME_INSET_MM, _FRAME_INSET_MM
    x1, y1 = BOARD_W_MM - _FRAME_INSET_MM, BOARD_H_MM - _FRAME_INSET_MM
    # round the board from the owner's bottom-left corner: left, top, right, bottom sides
    corners = np.array([[x0, y1], [x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    outward = np.array([[-1.0, 0.0], [0.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
    sides = [np.linspace(a, b, max(1, round(math.dist(a, b) / _FRAME_STEP_MM)), endpoint=False)
             for a, b in itertools.pairwise(corners)]
    path = np.concatenate(sides)
    normal = np.repeat(outward, [len(side) for side in sides], axis=0)
    h, w = blue.shape
    camera = camera_in_plane(board.board_h, round(w / scale), round(h / scale))
    leans_out = (parallax(camera, path, TILE_THICK_MM) * normal).sum(axis=1) >= _LEAN_MOST_MM
    at = np.round(apply_h(board.board_h, path) * scale).astype(int)
    margin = 4  # px: what lies on the frame's edge is blurred into what lies off it
    judged = (at[:, 0] >= margin) & (at[:, 1] >= margin) & (at[:, 0] < w - margin) & (at[:, 1] < h - margin)
    judged &= ~leans_out
    # The frame's print is blue with pale marks: a point shows blue if any pixel round it does.
    xs, ys = at[judged, 0], at[judged, 1]
    shown = np.zeros(len(xs), bool)
    for dx, dy in itertools.product((-1, 0, 1), repeat=2):
        shown |= blue[ys + dy, xs + dx] > 0
    gone = np.full(len(path), np.nan)
    gone[judged] = ~shown
    return gone


def find_boards(small: np.ndarray, blue: np.ndarray, scale: float, full: np.ndarray,
                wb: WhiteBalance) -> list[BoardFind]:
    """Boards in `small` (the white-balanced frame reduced by `scale`; `blue`, its
    blue_mask); homographies are returned for `full`, the original frame."""
    k = max(3, round(3 * small.shape[1] / 960)) | 1
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(blue, cv2.MORPH_CLOSE, closing)
    width = mask.shape[1]
    wide = _wide_blue(mask, round(_WIDE_BLUE * width), _WIDE_BLUE_AREA * width**2)
    found, missed = _boards_in(mask, small, blue, scale, full, wide=wide, wb=wb, closing=closing)
    if wide.any():
        found += _wide_tracks(mask, wide, found, small, scale=scale, full=full, wb=wb)
    if missed.any():
        # A dark navy sleeve shows the boards' blue only in patches, too few to make it
        # wide: joined to the frame of a board it lies over, it bends that board's outline
        # off along itself (seed 7 frame 360). The boards are looked for again with it
        # taken out, dark blue and all, and those found where an outline made none are
        # kept. Not in the first look: a blue-grey felt mat's dark blue is as wide, and
        # beside a board found whole it would cut that board's corner off (seed 7 frame 166).
        dark = cv2.inRange(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), *_DARK_BLUE_HSV)
        sleeve_ish = cv2.morphologyEx(blue | dark, cv2.MORPH_CLOSE, closing)
        sleeves = _wide_blue(sleeve_ish, round(_WIDE_BLUE * width), _WIDE_BLUE_AREA * width**2) & ~wide
        if (sleeves & missed).any():
            again, _ = _boards_in(mask, small, blue, scale, full, wide=wide | sleeves, wb=wb,
                                  closing=closing)
            for board in again:
                found = _with_missed(board, missed, found, full, scale)
    if missed.any() and _mostly_pale(small, wide & (blue > 0)):
        # A blue-grey felt mat or sleeve (or a grey one the rough balance turns so) passes
        # for the boards' blue, wide: taken out with the frame of a board it touches, it
        # leaves pieces that make no board (seed 2 frame 186: a board in plain view, half
        # on a grey mat; seed 1 frame 171: a blue-grey sleeve across a board). The frame's
        # blue is vivid, theirs is not: where the wide blue is mostly pale, the boards are
        # looked for again in vivid blue alone, and those found where the first look made
        # none are kept. (Seeds 7 / 9 / 8 / 10 / 11 / 2 / 1: 0 / 0 / 0 / 0 / 0 / +1 / +1
        # boards read exactly, +47 / +16 places, nothing lost, none more surely wrong. On
        # seed 7 the look is taken in 8 frames of 500, 12-59 ms there. Taken wherever wide
        # blue is, in one frame in ten: seeds 8 and 1 one board more each, at 25 ms there;
        # and, let take the place of a board found with its turn untold, it put one a third
        # too wide under an arm, seed 9 frame 22.)
        vivid = cv2.inRange(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), *_VIVID_BLUE_HSV)
        vivid_mask = cv2.morphologyEx(vivid, cv2.MORPH_CLOSE, closing)
        vivid_wide = _wide_blue(vivid_mask, round(_WIDE_BLUE * width), _WIDE_BLUE_AREA * width**2)
        again, _ = _boards_in(vivid_mask, small, vivid, scale, full, wide=vivid_wide, wb=wb, closing=closing)
        found += [board for board in again
                  if _mostly_missed(board, missed, scale) and _new_board(board, found, full, None, scale)]
    return _not_far_smaller(found, scale)


def _mostly_pale(bgr: np.ndarray, where: np.ndarray) -> bool:
    """Whether most of the pixels `where` (if any) fall short of the saturation of the
    boards' frame's vivid blue."""
    if not where.any():
        return False
    saturation = cv2.cvtColor(bgr[where].reshape(-1, 1, 3), cv2.COLOR_BGR2HSV)[:, 0, 1]
    return float((saturation < _VIVID_BLUE_HSV[0][1]).mean()) > 0.5


def _boards_in(mask: np.ndarray, small: np.ndarray, blue: np.ndarray, scale: float, full: np.ndarray, *,
               wide: np.ndarray, wb: WhiteBalance, closing: np.ndarray) -> tuple[list[BoardFind], np.ndarray]:
    """The boards the closed blue `mask` outlines where it is not `wide` (sleeves,
    taken out); and where the outlines that made no board lie (their hulls), but those
    whose middle lies within a board found."""
    mask = np.where(wide, 0, mask).astype(np.uint8)
    cover = _Sleeves.of(wide) if wide.any() else None
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area_img = small.shape[0] * small.shape[1]
    contours = _unspeckled(contours, blue, mask, small, closing=closing, least=_WHOLE_LEAST * area_img)
    found: list[BoardFind] = []
    cut: list[np.ndarray] = []
    blocked: list[np.ndarray] = []  # whole outlines that did not make a board: maybe something stands over it
    pieces: list[np.ndarray] = []  # outlines that made no board: maybe parts of one an arm lies across
    for contour in contours:
        hull_area = cv2.contourArea(cv2.convexHull(contour))
        if hull_area > 0.5 * area_img:
            continue
        if hull_area < max(600.0, _WHOLE_LEAST * area_img):
            if hull_area >= _PIECE_LEAST * area_img:
                pieces.append(contour)
            continue
        # A board cut by the frame's edge: its outline there is the frame's, not the board's.
        if _at_edge(cv2.boundingRect(contour), small.shape):
            cut.append(contour)
            continue
        board = _whole_board(contour, hull_area, small, scale, full, wb=wb, cover=cover)
        if board is not None:
            found.append(board)
        elif hull_area >= 0.01 * area_img:
            blocked.append(contour)
        else:
            pieces.append(contour)
    # Every board lies on the table plane, so a whole board found measures the plane in
    # millimetres; that gives a cut board the sides the frame's edge hides. Without one,
    # the cut board's own sides and a typical lens measure it (_plane_from_sides).
    # A board found surely also tells the size any board shows where it lies: a board
    # rebuilt from part of its outline must show about that (_new_board). Each board found
    # surely has a say (see _expected_diagonal).
    to_mm = sizes = None
    if found:
        ref = max(found, key=lambda b: b.confidence)
        to_mm = table_plane(ref, scale)
        sizes = [table_plane(b, scale) for b in found if b.confidence >= _PLANE_SURE] or None
    rebuilt, unmade = _cut_boards(cut, found, small, scale, full, wb=wb, to_mm=to_mm, sizes=sizes,
                                  cover=cover)
    # A plane measured by a board found whole but unsurely (a factory's sunburst taken for
    # one) rebuilds boards the frame's edge cuts at its own wrong size (seed 9, frame 179: a
    # board cut to two sides, rebuilt a fifth of its size): one rebuilt surely measures the
    # plane instead, for the cut boards it left and all that follow. (Not where no board was
    # found whole: the boards the edge cuts are then rebuilt by their own sides, and one
    # rebuilt by another's plane came out 60-80 mm off, seed 8.)
    surest = max(rebuilt, key=lambda b: b.confidence, default=None)
    if to_mm is not None and sizes is None and surest is not None and surest.confidence >= _PLANE_SURE:
        to_mm = table_plane(surest, scale)
        sizes = [to_mm]
        more, unmade = _cut_boards(unmade, found + rebuilt, small, scale, full, wb=wb, to_mm=to_mm,
                                   sizes=sizes, cover=cover)
        rebuilt += more
    found += rebuilt
    pieces += unmade
    for contour in blocked:
        board = _occluded_board(contour, small, scale, full, wb=wb, to_mm=to_mm, cover=cover)
        if board is None and cover is not None:
            # A mat of the boards' blue beside a board is as wide as a sleeve, and the
            # board's side along it was taken for a sleeve's edge (seed 11 frame 451: a
            # board in plain view beside a blue-grey mat, not found). An outline that makes
            # no board round something over it is tried whole, with nothing over it.
            board = _whole_board(contour, cv2.contourArea(cv2.convexHull(contour)), small, scale, full, wb=wb)
        # Boards lie side by side, never one over another. Where an arm parts a board the
        # frame's edge cuts, the part at the edge is rebuilt from its outline, and can come
        # out well off the board (seed 1, frames 109 and 284: two boards for one, their
        # middles just over the 0.3 of a diagonal apart that _new_board asks): the board
        # rebuilt from the whole outline something stands over, in the frame, is the one.
        # An arm across a board leaves two such outlines, each rebuilt whole. Where the
        # first was rebuilt with its strip hidden, its turn left to the print the arm may
        # hide too, the one whose strip tells its turn is the one (seed 2 frame 134: a
        # board under a sleeve left unread, 22 places; seed 9 frame 59: one read with 11
        # places unread or wrong; both then read exactly).
        if board is None:
            same = []
        else:
            replaceable = rebuilt + ([b for b in found if not b.turn_told] if board.turn_told else [])
            same = [b for b in replaceable if _overlap(board.quad, b.quad) > _OVERLAP_MOST]
            board, same = _whole_at_told_turn(board, same, found, full, wb)
        others = [b for b in found if all(b is not o for o in same)]
        if _new_board(board, others, full, sizes, scale):
            found = [*others, board]
        else:
            pieces.append(contour)
    # The parts an arm leaves of a board found with its turn untold may make it again,
    # with a strip that tells its turn: that one is kept as its rival, read where the
    # print tells the untold one's turn nowhere (seed 1 frame 205: two boards under one
    # sleeve, left unread, 36 places). It does not take the board's place: a strip in a
    # part can tell a turn wrong (seed 8 frame 211, held out: a quarter off, where the
    # print turned the board untold and it was read exactly).
    # Pieces are judged by the size a board shows where they lie: on the planes measured
    # above, else on that of the surest board rebuilt (seed 11 frame 326: no board whole,
    # a board near the camera whose frame the frame's edge cut into two outlines, judged
    # by the size of the other board, cut too and far off, 0.4 of its own, was left in two).
    surest_found = max(found, key=lambda b: b.confidence, default=None)
    judged = sizes if sizes is not None or surest_found is None or surest_found.confidence < _PLANE_SURE \
        else [table_plane(surest_found, scale)]
    for board in _joined(pieces, [b for b in found if b.turn_told], small, scale, full, wb=wb, to_mm=to_mm,
                         sizes=sizes, judged=judged, cover=cover):
        untold = [k for k, b in enumerate(found)
                  if not b.turn_told and _overlap(board.quad, b.quad) > _OVERLAP_MOST]
        if untold and board.turn_told:
            found[untold[0]] = replace(found[untold[0]], rival=board)
        elif _new_board(board, found, full, sizes, scale):
            found.append(board)
    missed = np.zeros(mask.shape, np.uint8)
    for contour in pieces:
        middle = contour.reshape(-1, 2).mean(axis=0, keepdims=True) / scale
        if not any(on_board(b, middle)[0] for b in found):
            cv2.fillPoly(missed, [cv2.convexHull(contour)], 1)
    return found, missed > 0


def on_board(board: BoardFind, points: np.ndarray) -> np.ndarray:
    """Which image points lie on the board's outline (a grid off its board reaches past it)."""
    outline = np.asarray(board.quad, np.float32).reshape(-1, 1, 2)
    return np.array([cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in points])


def _with_missed(board: BoardFind, missed: np.ndarray, found: list[BoardFind], full: np.ndarray,
                 scale: float) -> list[BoardFind]:
    """The boards `found`, with a board found again, a sleeve taken out, if the first look
    missed it (its middle, or most of it, where an outline that made no board lay, and no
    board found near it), or in place of one the first look rebuilt round the sleeve with
    its strip hidden, if its own strip tells its turn (seed 8 frame 370: a navy sleeve
    over a board's side, the board rebuilt 160 mm too long and left unread; found again
    whole with its strip in view)."""
    untold = [b for b in found if board.turn_told and not b.turn_told
              and _overlap(board.quad, b.quad) > _OVERLAP_MOST]
    if not untold and not _mostly_missed(board, missed, scale):
        return found
    others = [b for b in found if all(b is not u for u in untold)]
    return [*others, board] if _new_board(board, others, full, None, scale) else found


def _mostly_missed(board: BoardFind, missed: np.ndarray, scale: float) -> bool:
    """Whether a board's middle, or over half of it, lies in `missed` (small px). The hull
    of a sleeve joined to the frame of the board it lies over can end just short of the
    board's middle (seed 11 frame 74: the board 0.81 in it, its middle 2 px past it)."""
    x, y = np.round(board.center * scale).astype(int)
    if 0 <= y < missed.shape[0] and 0 <= x < missed.shape[1] and missed[y, x]:
        return True
    inside = _inside(board, missed.shape, scale)
    return bool(inside.any() and missed[inside].mean() > 0.5)


def _inside(board: BoardFind, shape: tuple[int, ...], scale: float) -> np.ndarray:
    """Where a board's outline lies in an image of `shape` (small px)."""
    inside = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(board.quad * scale).astype(np.int32), 1)
    return inside > 0


def _cut_boards(cut: list[np.ndarray], found: list[BoardFind], small: np.ndarray, scale: float,
                full: np.ndarray, *, wb: WhiteBalance, to_mm: np.ndarray | None,
                sizes: list[np.ndarray] | None,
                cover: _Sleeves | None) -> tuple[list[BoardFind], list[np.ndarray]]:
    """The boards rebuilt from outlines the frame's edge cuts (`found`: the boards found
    whole), and the outlines that made none."""
    rebuilt: list[BoardFind] = []
    unmade: list[np.ndarray] = []
    first = [(contour, _cut_board(contour, small, scale, full, wb, to_mm=to_mm, cover=cover))
             for contour in cut]
    # Three sides in view rebuild a board at its size on the table plane. With no board
    # found whole to measure it, one the edge cuts that its four sides rebuilt surely
    # measures it: else the outline is taken whole, the frame's edge for a side (seed 11
    # frame 113: a board cut 26-35 px short at the detection width, the other two cut
    # too; its floor, out of the frame, read in view, and its pattern lines a line off).
    plane = None
    if to_mm is None:
        surest = max((b for _, b in first if b is not None), key=lambda b: b.confidence, default=None)
        if surest is not None and surest.confidence >= _PLANE_SURE:
            plane = table_plane(surest, scale)
    for contour, board in first:
        if board is None and plane is not None:
            board = _cut_board(contour, small, scale, full, wb, to_mm=plane, cover=cover)
        if board is None:  # it may only touch the frame's edge, or lose a corner to it
            board = _whole_board(contour, cv2.contourArea(cv2.convexHull(contour)), small, scale, full, wb=wb,
                                 partial=True, cover=cover)
        kept = _new_board(board, found + rebuilt, full, sizes, scale, near_ok=True)
        if not kept and to_mm is not None:
            # An arm may lie over it too, and part its outline in two: each part rebuilt
            # whole is the same board, kept once (seed 1, frame 0).
            board = _cut_under_arm(contour, small, scale, full, wb, to_mm=to_mm, cover=cover)
            kept = _new_board(board, found + rebuilt, full, sizes, scale)
        if kept:
            rebuilt.append(board)
        else:
            unmade.append(contour)
    return rebuilt, unmade


# A board found shows at least this share of the diagonal the surest board's plane gives
# a board where it lies: a disc's block of tiles, framed by the sunburst's blue, passed
# for a whole grey board at 0.16 (seeds 7 and 9), and an outline an arm cut short to a
# corner of its board measured 0.36 (seed 4, frame 170: 15 places read right). Not an
# upper bound: the surest board, cut short, can measure the plane too small (seed 1000,
# frame 127: a board beside one showed 1.84).
_SIZE_LEAST = 0.25


def _not_far_smaller(found: list[BoardFind], scale: float) -> list[BoardFind]:
    """The boards found but those far smaller than a board lying where they do."""
    if not found:
        return found
    ref = max(found, key=lambda b: b.confidence)
    if ref.confidence < _PLANE_SURE:
        return found
    to_mm = table_plane(ref, scale)
    out = []
    for board in found:
        expected = _diagonal_at(to_mm, board.center * scale)
        if expected is None or _diagonals(board.quad * scale) >= _SIZE_LEAST * expected:
            out.append(board)
    return out


def _occluded_board(contour: np.ndarray, small: np.ndarray, scale: float, full: np.ndarray, *,
                    wb: WhiteBalance, to_mm: np.ndarray | None, cover: _Sleeves | None,
                    parts: list[np.ndarray] | None = None) -> BoardFind | None:
    """A board something stands over, from its outline (joining `parts`, if several):
    rebuilt from the sides in view; else its outline's hull, whole round what stands
    over it, as a quad in a board's proportions. Failing both, the quad in whatever
    proportions the hull has (cut short along what stands over it), tried as a board in
    view and as one something stands over: its print may still show, and the cells
    search round the grid for it. A board rebuilt from the sides in view whose strip was
    hidden is kept instead, turned as the cut short quad's strip tells."""
    board = _cut_board(contour, small, scale, full, wb, to_mm=to_mm, occluded=True, parts=parts, cover=cover)
    if board is not None and board.turn_told:
        return board
    untold = board  # kept only if no board whose strip tells its turn is found
    hull_area = cv2.contourArea(cv2.convexHull(contour))
    for occluded, shaped in ((True, True), (False, False), (True, False)):
        board = _whole_board(contour, hull_area, small, scale, full, wb=wb, occluded=occluded,
                             cover=cover, shaped=shaped)
        if board is not None and board.turn_told:
            return board if shaped else _turned_like(untold, board, full, wb)
        untold = untold or board
    return untold


def _whole_at_told_turn(board: BoardFind, same: list[BoardFind], found: list[BoardFind], full: np.ndarray,
                        wb: WhiteBalance) -> tuple[BoardFind, list[BoardFind]]:
    """Of the two outlines an arm across a board leaves, one rebuilt whole with its strip
    hidden and one cut short along the arm whose strip tells the turn: the whole one at
    that turn, in place of both (`same`: the boards found that `board` takes the place of)."""
    h, w = full.shape[:2]
    if board.turn_told:  # (_turned_like keeps a board in a whole board's proportions as it is)
        untold = [b for b in same if not b.turn_told]
        return (_turned_like(untold[0], board, full, wb) if untold else board), same
    cut_short = [b for b in found if b.turn_told and not in_proportion(b.quad, w, h)
                 and _overlap(board.quad, b.quad) > _OVERLAP_MOST]
    if cut_short:
        whole = _turned_like(board, cut_short[0], full, wb)
        if whole is not cut_short[0]:
            return whole, [*same, cut_short[0]]
    return board, same


def _turned_like(rebuilt: BoardFind | None, cut_short: BoardFind, full: np.ndarray,
                 wb: WhiteBalance) -> BoardFind:
    """The board rebuilt whole from its sides in view (whose strip something hid), turned
    as the strip of the same board's outline cut short along what stands over it tells;
    the cut short one if nothing was rebuilt there. (Its quad out of a board's
    proportions, the grid it gives lies off the print by up to the part cut off.)"""
    h, w = full.shape[:2]
    if rebuilt is None or in_proportion(cut_short.quad, w, h) \
            or np.linalg.norm(rebuilt.center - cut_short.center) > 0.5 * _size_px(rebuilt):
        return cut_short
    # the turn whose top side runs the way the cut short outline's does
    top = cut_short.quad[1] - cut_short.quad[0]
    quarters = max(range(4), key=lambda q: float(np.dot(rebuilt.quad[(q + 1) % 4] - rebuilt.quad[q], top)))
    board = turned(rebuilt, quarters, full, wb)
    return cut_short if board is None else replace(board, confidence=cut_short.confidence)


# Two boards found that overlap by more than this share of the smaller are one board.
_OVERLAP_MOST = 0.3


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """How much two convex outlines overlap, as a share of the smaller one's area."""
    a, b = a.astype(np.float32), b.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(a, b)
    return float(shared) / max(1e-9, min(cv2.contourArea(a), cv2.contourArea(b)))


def _new_board(board: BoardFind | None, found: list[BoardFind], full: np.ndarray,
               sizes: list[np.ndarray] | None, scale: float, *, near_ok: bool = False) -> bool:
    """Whether a board rebuilt from part of its outline is kept: centred in the frame, not
    over a board already found (unless `near_ok`), and of the size a board shows there
    on the table planes `sizes` (small px -> mm; see _expected_diagonal), if boards found
    surely measured them."""
    if board is None:
        return False
    h, w = full.shape[:2]
    if not (0 <= board.center[0] < w and 0 <= board.center[1] < h
            and (near_ok or all(np.linalg.norm(board.center - b.center) > 0.3 * _size_px(b) for b in found))):
        return False
    expected = _expected_diagonal(sizes, board.center * scale) if sizes is not None else None
    return expected is None or _REBUILT_SIZE[0] < _diagonals(board.quad * scale) / expected < _REBUILT_SIZE[1]


# A board measures 0.71-1.12 of the diagonal the table plane gives it where it lies
# (seeds 7 and 9: 1,450 boards besides the one that measured the plane); pieces of
# something else rebuilt as a board, 0.44-0.62 (a mat's edge; a score track under an arm).
_REBUILT_SIZE = (0.65, 1.5)
# A board found this surely measures the plane well enough to judge sizes by (a factory's
# sunburst taken for a board, seed 9's frame 179, was found at 0.26).
_PLANE_SURE = 0.5


# An arm or a sleeve of the boards' blue is wide where a board's blue is narrow (its frame
# and strips, under 10 mm; blue tiles laid together): a patch this wide and this big is
# no print of a board. Left in the mask, it joins the boards it lies on into one outline
# with itself, and across a board it looks like the strip that tells the owner's top.
_WIDE_BLUE = 27 / 960  # of the detection width
_WIDE_BLUE_AREA = 3000 / 960**2  # of its square
_WIDE_BLUE_REDUCE = 3
# A navy sleeve's dark blue (in seed 7 frame 360: saturation 49-97, brightness 66-132,
# 5th to 95th percentile). A grey felt mat's noise stays under this saturation (42-53);
# a blue-grey mat's does not (52-65), which is why only a second look takes it out.
_DARK_BLUE_HSV = ((94, 55, 20), (128, 255, 120))
# The boards' blue as vivid as their frame's: a blue-grey mat's or sleeve's falls short
# (seed 2 frame 186: the mat's saturation 88 at the median), the frame passes whole.
_VIVID_BLUE_HSV = ((BLUE_HSV[0][0], 100, BLUE_HSV[0][2]), BLUE_HSV[1])


def _wide_blue(mask: np.ndarray, k: int, least: float) -> np.ndarray:
    """Where `mask` has patches wider than `k` px and of at least `least` px, and a
    little round them (their blurred rim is blue too)."""
    # A third of the size is sharp enough for patches this wide, and nine times cheaper
    # to open (an elliptic kernel costs its size per pixel).
    f = _WIDE_BLUE_REDUCE
    h, w = mask.shape
    reduced = cv2.resize(mask, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    reduced = np.where(reduced >= 128, 255, 0).astype(np.uint8)
    k = max(3, round(k / f)) | 1
    wide = cv2.morphologyEx(reduced, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    _, labels, stats, _ = components(wide)
    big = np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= least / f**2)[0] + 1
    if len(big) == 0:
        return np.zeros(mask.shape, bool)
    cover = cv2.resize(np.isin(labels, big).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    return cv2.dilate(cover, np.ones((7, 7), np.uint8)) > 0


# A board far off and blurred shows its score track as solid blue (its white squares
# blurred into the blue round them) as wide as a sleeve is near by: taken out as one, it
# leaves a rim of frame that makes no board (seed 11 frame 403: a board 150 px across at
# the detection width, in plain view, not found). A patch of wide blue that lies wholly
# inside the whole outline it is part of, with that outline a board, is that board's track.
def _wide_tracks(mask: np.ndarray, wide: np.ndarray, found: list[BoardFind], small: np.ndarray, *,
                 scale: float, full: np.ndarray, wb: WhiteBalance) -> list[BoardFind]:
    """Boards whose own score track `wide` took out of the closed blue `mask`, not found
    by the outlines left (`found`)."""
    area_img = small.shape[0] * small.shape[1]
    _, labels, stats, _ = components(mask)
    more: list[BoardFind] = []
    for k in np.unique(labels[wide & (mask > 0)]):
        x, y, w, h = stats[k, :4]
        if w * h > 0.5 * area_img:
            continue
        part = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                       offset=(int(x), int(y)))
        contour = max(contours, key=cv2.contourArea)
        hull_area = cv2.contourArea(cv2.convexHull(contour))
        if hull_area < max(600.0, _WHOLE_LEAST * area_img) or _at_edge((x, y, w, h), small.shape):
            continue
        board = _whole_board(contour, hull_area, small, scale, full, wb=wb)
        if board is None or not _new_board(board, found + more, full, None, scale):
            continue
        inside = _inside(board, mask.shape, scale).astype(np.uint8)
        track = wide & (labels == k)
        if (track & (cv2.dilate(inside, np.ones((5, 5), np.uint8)) > 0)).sum() == track.sum():
            more.append(board)
    return more


@dataclass(frozen=True)
class _Sleeves:
    """Where wide blue (a sleeve) was taken out of the detection mask, and where lies
    within 5 px of it (an outline that runs there is the sleeve's edge)."""

    over: np.ndarray
    near: np.ndarray

    @classmethod
    def of(cls, over: np.ndarray) -> _Sleeves:
        return cls(over, cv2.dilate(over.astype(np.uint8), np.ones((11, 11), np.uint8)) > 0)


_PIECE_LEAST = 0.0005  # of the frame's area: smaller outlines are no part of a board's frame
_WHOLE_LEAST = 0.002  # ... and no whole board

# Noise on a dark grey (a felt mat, a deep shadow) passes for the boards' blue pixel by
# pixel: a speckle that closing the mask makes solid, joined to any board beside it into
# one outline. Speckle is blue of little chroma (the most of B, G, R less the least,
# balanced: under 25) in scraps that an opening of 3 px removes. Of 2,000 frames (seeds 7
# and 9), six outlines of a board's size had more than 5% of their blue in such scraps:
# those a mat's speckle joined a board to, 17-23%, nearly all their pale blue; those a
# dark sleeve or hand lay on, 13-17%, but as much again of their pale blue solid.
_SPECKLE_CHROMA = 25
_SPECKLED = 0.15  # of an outline's blue in scraps, and ...
_SPECKLED_PALE = 0.75  # ... of its pale blue: speckle, and all its pale blue is left out


def _unspeckled(contours: list[np.ndarray], blue: np.ndarray, mask: np.ndarray, small: np.ndarray, *,
                closing: np.ndarray, least: float) -> list[np.ndarray]:
    """The outlines of the closed blue `mask`; one whose box is at least `least` px in
    area and whose blue is much speckle is outlined again without it."""
    out = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < least:
            out.append(contour)
            continue
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [contour], -1, 1, -1, offset=(-x, -y))
        print_ = (blue[y:y + h, x:x + w] > 0) & (inside > 0)
        b, g, r = cv2.split(small[y:y + h, x:x + w])
        pale = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)) < _SPECKLE_CHROMA
        pale_print = (print_ & pale).astype(np.uint8)
        solid = cv2.morphologyEx(pale_print, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
        scraps = (pale_print > 0) & ~solid
        if scraps.sum() <= max(_SPECKLED * print_.sum(), _SPECKLED_PALE * pale_print.sum()):
            out.append(contour)
            continue
        # What of the speckle is vivid enough to stay is scraps too: opened away.
        vivid = cv2.morphologyEx((print_ & (pale_print == 0)).astype(np.uint8) * 255, cv2.MORPH_OPEN,
                                 np.ones((3, 3), np.uint8))
        clean = cv2.morphologyEx(vivid, cv2.MORPH_CLOSE, closing)
        clean &= mask[y:y + h, x:x + w]
        parts, _ = cv2.findContours(clean, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x, y))
        out.extend(parts)
    return out


_PIECES_MOST = 8  # the largest outlines left over that are tried in pairs
_PIECE_GAP = 0.4  # an arm's width at most, in boards' diagonals
# Their joined hull, in boards' diagonals squared (a whole board: 0.5; an arm across one
# leaves down to 0.25 of it, seed 1000's frame 24).
_PIECES_AREA = (0.2, 1.5)


def _joined(pieces: list[np.ndarray], found: list[BoardFind], small: np.ndarray, scale: float,
            full: np.ndarray, *, wb: WhiteBalance, to_mm: np.ndarray | None, sizes: list[np.ndarray] | None,
            judged: list[np.ndarray] | None, cover: _Sleeves | None) -> list[BoardFind]:
    """Boards an arm lies across, their frame in two outlines either side of it: the
    outlines left over, joined in pairs near enough for an arm to part them; then, with
    `sizes`, boards an arm hides most of, each from the one outline it leaves. `sizes`:
    the table planes (small px -> mm) that give the size a board shows where the pieces
    lie, if boards were found whole surely; `judged`: the planes pairs are judged by
    (`sizes`, or that of a board rebuilt surely), else they are judged by the boards found."""
    pieces = sorted(pieces, key=lambda c: -cv2.contourArea(cv2.convexHull(c)))[:_PIECES_MOST]
    typical = float(np.median([_size_px(b) * scale for b in found])) if found else 0.25 * max(small.shape[:2])
    boxes = [cv2.boundingRect(c) for c in pieces]
    joined: list[BoardFind] = []
    used: set[int] = set()
    for i, j in itertools.combinations(range(len(pieces)), 2):
        if i in used or j in used:
            continue
        # A board far off in a steep view shows far smaller than the boards found nearer.
        middle = _box_middle(boxes[i], boxes[j])
        size = typical if judged is None else _expected_diagonal(judged, middle) or typical
        # Cheapest first: the boxes' gap is at most the outlines'.
        if _box_gap(boxes[i], boxes[j]) > _PIECE_GAP * size:
            continue
        parts = [pieces[i], pieces[j]]
        both = np.concatenate(parts)
        hull_area = cv2.contourArea(cv2.convexHull(both))
        if not _PIECES_AREA[0] * size**2 < hull_area < _PIECES_AREA[1] * size**2 \
                or _gap(*parts) > _PIECE_GAP * size:
            continue
        board = _occluded_board(both, small, scale, full, wb=wb, to_mm=to_mm, cover=cover, parts=parts)
        if _new_board(board, found + joined, full, sizes, scale):
            joined.append(board)
            used |= {i, j}
    if sizes is None:
        return joined  # a piece alone is judged only by the size a board shows where it lies
    for i, piece in enumerate(pieces):
        if i in used or _at_edge(boxes[i], small.shape):
            continue
        size = _expected_diagonal(sizes, _box_middle(boxes[i], boxes[i])) or typical
        if not _ALONE_AREA * size**2 < cv2.contourArea(cv2.convexHull(piece)) < _PIECES_AREA[1] * size**2:
            continue
        board = _occluded_board(piece, small, scale, full, wb=wb, to_mm=to_mm, cover=cover)
        if _new_board(board, found + joined, full, sizes, scale):
            joined.append(board)
    return joined


# A board far off, too small an outline for a whole one, with an arm over most of it
# leaves one piece of its frame, whose hull is at least this much of the diagonal
# squared a board shows there (whole: 0.5; seed 9, frame 301: 0.25, its board read 29
# places right). A piece the frame's edge cuts is left alone: its outline there is the
# frame's (seed 2, frame 21: a bottle's rim, 0.10, rebuilt as a board over the discs
# and read as a grey wall on the wood).
_ALONE_AREA = 0.12


def _at_edge(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> bool:
    """Whether a box (x, y, width, height) touches the edge of a frame of `shape`."""
    x, y, bw, bh = box
    return x <= 1 or y <= 1 or x + bw >= shape[1] - 1 or y + bh >= shape[0] - 1


def _expected_diagonal(planes: list[np.ndarray], point: np.ndarray) -> float | None:
    """The diagonal a board lying at image `point` shows (px), by the median of what the
    table `planes` measured by the boards found surely give. One board's plane,
    extrapolated, is only as good as its corners: a corner 36 px off put a board 400 px
    away at 0.63 of its size (seed 11 frame 141: a board rebuilt round a sleeve, its four
    sides right, was judged too big and lost); the other board's plane gave 0.97."""
    diagonals = [d for d in (_diagonal_at(p, point) for p in planes) if d is not None]
    return float(np.median(diagonals)) if diagonals else None


def _diagonal_at(to_mm: np.ndarray, point: np.ndarray) -> float | None:
    """The diagonal a board lying at image `point` shows (px), by the table plane
    `to_mm` measures (image px -> mm); None where the plane gives none."""
    middle = apply_h(to_mm, [point])[0]
    half = np.array([BOARD_W_MM, BOARD_H_MM]) / 2
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    from_mm = _inverse(np.asarray(to_mm, np.float64).tobytes())
    corners = apply_h(from_mm, [middle + half * sign for sign in signs])
    diagonal = _diagonals(corners)
    return diagonal if np.isfinite(diagonal) and diagonal > 0 else None


@functools.lru_cache(maxsize=32)
def _inverse(h: bytes) -> np.ndarray:
    """The inverse of a 3 x 3 homography (its float64 bytes): a frame's few table planes
    are asked the size of a board at many points."""
    inverse = np.linalg.inv(np.frombuffer(h, np.float64).reshape(3, 3))
    inverse.setflags(write=False)  # (shared by every caller)
    return inverse


def _diagonals(quad: np.ndarray) -> float:
    """The mean length of a quad's two diagonals."""
    return float(np.linalg.norm(quad[2] - quad[0]) + np.linalg.norm(quad[3] - quad[1])) / 2


def _box_middle(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> np.ndarray:
    """The middle of the box round two boxes (x, y, width, height)."""
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    x1, y1 = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    return np.array([(x0 + x1) / 2, (y0 + y1) / 2], np.float64)


def _box_gap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The least distance between two boxes (x, y, width, height)."""
    dx = max(0, max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))
    return float(np.hypot(dx, dy))


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """The least distance between two outlines (each thinned to at most 200 points)."""
    pa, pb = (c.reshape(-1, 2)[:: max(1, len(c) // 200)].astype(np.float64) for c in (a, b))
    return float(np.sqrt(((pa[:, None] - pb[None]) ** 2).sum(axis=2).min()))


def _size_px(board: BoardFind) -> float:
    return float(np.linalg.norm(board.quad[2] - board.quad[0]))


def _whole_board(contour: np.ndarray, hull_area: float, small: np.ndarray, scale: float, full: np.ndarray, *,
                 wb: WhiteBalance, partial: bool = False, occluded: bool = False,
                 cover: _Sleeves | None = None, shaped: bool = True) -> BoardFind | None:
    """A board whose outline is (nearly) all in view: a quadrilateral it fills, in a
    board's proportions if `shaped`. A side that runs along a sleeve in `cover` is the
    sleeve's edge."""
    quad = fit_quad(contour)
    if quad is None or (cover is not None and max(_along(cover.near, quad)) > 0.5):
        return None
    qarea = cv2.contourArea(quad.astype(np.float32))
    if qarea <= 0 or hull_area / qarea < 0.85 or not cv2.isContourConvex(quad.astype(np.float32)):
        return None
    sides = np.linalg.norm(quad - rolled(quad, -1), axis=1)
    if sides.min() / sides.max() < 0.35:
        return None
    # An outline cut short by something over a side of the board (its frame's blue then
    # ends along that thing's edge) fits a quad in the wrong proportions.
    if shaped and not partial and not in_proportion(quad, small.shape[1], small.shape[0]):
        return None
    return _orient_and_refine(small, quad, scale, full, wb, partial=partial, occluded=occluded, cover=cover)


# A board is 260 x 250 mm: its quad seen by a typical lens measures 0.84-1.12 on its
# plane (1.04 true) when the board is whole (all but a few in a thousand), 0.05-0.8 when
# cut short by an arm.
_IN_PROPORTION = (0.8, 1.25)


def in_proportion(quad: np.ndarray, width: int, height: int, *, within: float | None = None) -> bool:
    """Whether a quad (image px, in a frame this size) has a whole board's proportions
    (with `within`: no further than that share from the true ones)."""
    aspect = plane_aspect(quad, width, height)
    if within is not None:
        return abs(aspect / (BOARD_W_MM / BOARD_H_MM) - 1.0) <= within
    return _IN_PROPORTION[0] <= aspect <= _IN_PROPORTION[1]


def _plane_from_sides(sides: list[tuple[np.ndarray, np.ndarray]], w: int, h: int) -> np.ndarray | None:
    """Image px -> table-plane units (metric up to scale) from three sides of a rectangle:
    the first and last are parallel on the table and meet at a vanishing point, the middle
    one is square to them. With the principal point at the image centre and a typical
    focal length (phones and the Pi camera: 55-72 degrees across), that fixes the plane's
    tilt; the middle side's length is the unit."""
    f = TYPICAL_FOCAL * max(w, h)
    k_inv = np.linalg.inv(np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]]))

    def line(p: np.ndarray, d: np.ndarray) -> np.ndarray:
        return np.cross([p[0], p[1], 1.0], [p[0] + d[0], p[1] + d[1], 1.0])

    vanish = np.cross(line(*sides[0]), line(*sides[2]))
    u2 = k_inv @ vanish
    c1, c2 = _intersect(sides[0], sides[1]), _intersect(sides[1], sides[2])
    if not (np.isfinite(c1).all() and np.isfinite(c2).all()) or np.linalg.norm(u2) < 1e-12:
        return None
    d1, d2 = k_inv @ np.array([*c1, 1.0]), k_inv @ np.array([*c2, 1.0])
    along = k_inv @ np.array([*(c2 - c1), 0.0])
    a, b = float(u2 @ along), -float(u2 @ d1)  # the middle side's vanishing point: a*d1 + b*along
    u1 = a * d1 + b * along
    if np.linalg.norm(u1) < 1e-12:
        return None
    u1, u2 = u1 / np.linalg.norm(u1), u2 / np.linalg.norm(u2)
    # c2's ray meets c1's ray plus one unit along u1: mu*d2 = lam*d1 + u1.
    (mu, lam), *_ = np.linalg.lstsq(np.stack([d2, -d1], axis=1), u1, rcond=None)
    if lam < 0:
        u1, mu, lam = -u1, -mu, -lam
    if lam <= 0 or mu <= 0:
        return None
    plane_to_img = np.linalg.inv(k_inv) @ np.stack([u1, u2, lam * d1], axis=1)
    return np.linalg.inv(plane_to_img)


def _cut_board(contour: np.ndarray, small: np.ndarray, scale: float, full: np.ndarray, wb: WhiteBalance, *,
               to_mm: np.ndarray | None, occluded: bool = False,
               parts: list[np.ndarray] | None = None, cover: _Sleeves | None = None) -> BoardFind | None:
    """A board partly outside the frame, from the sides of it that are in view: four
    partial sides meet in the corners (one maybe out of view); three sides leave the
    fourth at the board's known size, measured on the table plane. `parts`: the outlines
    `contour` joins, when something parts the board's frame; `cover`: the blue sleeves
    taken out of the mask (the outline along one is its edge)."""
    sides = _visible_sides(contour, small.shape[1], small.shape[0], occluded, parts=parts, cover=cover)
    if sides is None:
        return None
    if len(sides) == 4:
        quad = np.array([_intersect(sides[i - 1], sides[i]) for i in range(4)])
        if not np.isfinite(quad).all():
            return None
        # A quad out of a board's proportions may have a side along the edge of what
        # stands over the board, not along the board's: then the other three rebuild it.
        cut = _cut_side(small, quad) if occluded and not in_proportion(quad, small.shape[1], small.shape[0]) \
            else None
        if cut is None:
            return _orient_and_refine(small, order_clockwise(quad), scale, full, wb, partial=True,
                                      occluded=occluded, cover=cover)
        # quad[k] -> quad[k + 1] runs along sides[k]; the others, in order round the board
        sides = [sides[(cut + 1 + j) % 4] for j in range(3)]
    if len(sides) != 3:
        return None
    told, untold = _from_three_sides(sides, small, scale, full, wb, to_mm=to_mm, occluded=occluded,
                                     cover=cover)
    return max(told, key=lambda b: b.confidence, default=None) or untold


def _cut_under_arm(contour: np.ndarray, small: np.ndarray, scale: float, full: np.ndarray,
                   wb: WhiteBalance, *, to_mm: np.ndarray, cover: _Sleeves | None) -> BoardFind | None:
    """A board the frame's edge cuts and an arm lies over too: rebuilt from the sides
    in view as one something stands over, or, with only two of its sides in view, from
    those (see _from_two_sides). Only an outline that is convex: sides of a bottle's
    blue cut by the frame's edge crossed (seed 2, frame 21)."""
    board = _cut_board(contour, small, scale, full, wb, to_mm=to_mm, occluded=True, cover=cover)
    if board is None:
        sides = _visible_sides(contour, small.shape[1], small.shape[0], True, cover=cover)
        if sides is not None and len(sides) == 2:
            board = _from_two_sides(sides, contour, small, scale, full, wb=wb, to_mm=to_mm, cover=cover)
    return board if board is not None and cv2.isContourConvex(board.quad.astype(np.float32)) else None


def _from_two_sides(sides: list[tuple[np.ndarray, np.ndarray]], contour: np.ndarray, small: np.ndarray,
                    scale: float, full: np.ndarray, *, wb: WhiteBalance, to_mm: np.ndarray,
                    cover: _Sleeves | None) -> BoardFind | None:
    """The board two of whose sides, meeting at a corner, are in view (lines in `small`),
    rebuilt square on the table plane (`to_mm`, small px -> mm) at a board's size: the
    first side taken as its width and as its height, and kept where the strip the board
    shows tells a turn that agrees."""
    corner = _intersect(sides[0], sides[1])
    if not np.isfinite(corner).all():
        return None
    pts = contour.reshape(-1, 2).astype(np.float64)
    at = apply_h(to_mm, [corner])[0]
    ways = []  # on the plane, from the corner along each side
    for _, d in sides:
        on = np.abs((pts - corner) @ np.array([-d[1], d[0]])) < 3.0  # outline points along the side
        if not on.any():
            return None
        ahead = float(((pts[on] - corner) @ d).mean()) >= 0  # the side runs from the corner where they lie
        step = apply_h(to_mm, [corner + (d if ahead else -d) * 10.0])[0] - at
        ways.append(step / np.linalg.norm(step))
    across = np.array([-ways[0][1], ways[0][0]])  # square to the first side, toward the second
    if across @ ways[1] < 0:
        across = -across
    from_mm = np.linalg.inv(to_mm)
    told = []
    for is_width, (first, second) in ((True, (BOARD_W_MM, BOARD_H_MM)), (False, (BOARD_H_MM, BOARD_W_MM))):
        end = apply_h(from_mm, [at + ways[0] * first])[0]
        quad = apply_h(from_mm, [at, at + ways[0] * first, at + ways[0] * first + across * second,
                                 at + across * second])
        board = _orient_and_refine(small, order_clockwise(quad), scale, full, wb, partial=True, occluded=True,
                                   cover=cover)
        if board is None or not board.turn_told:
            continue
        # The first side runs along the owner's top or bottom edge exactly when it is the width.
        if _along_width(board, corner, end, scale) == is_width:
            told.append(board)
    return max(told, key=lambda b: b.confidence, default=None)


def _along_width(board: BoardFind, a: np.ndarray, b: np.ndarray, scale: float) -> bool:
    """Whether the side from a to b (small px) is the board's owner's top or bottom edge."""
    q = board.quad * scale
    d = [min(np.linalg.norm(q[i] - a) + np.linalg.norm(q[(i + 1) % 4] - b),
             np.linalg.norm(q[i] - b) + np.linalg.norm(q[(i + 1) % 4] - a)) for i in range(4)]
    return int(np.argmin(d)) % 2 == 0


# A board's whole side (250 or 260 mm) measures within these on the table plane another
# board measured, extrapolated to where it lies.
_SIDE_MM = (0.85 * BOARD_H_MM, 1.15 * BOARD_W_MM)


def _from_three_sides(sides: list[tuple[np.ndarray, np.ndarray]], small: np.ndarray, scale: float,
                      full: np.ndarray, wb: WhiteBalance, *, to_mm: np.ndarray | None, occluded: bool,
                      cover: _Sleeves | None) -> tuple[list[BoardFind], BoardFind | None]:
    """The board whose side in view is the middle one of three sides (lines in `small`,
    in order round it), rebuilt whole (see _run_on): the boards rebuilt whose strip
    tells their turn, and one whose strip does not."""
    told: list[BoardFind] = []
    untold = None
    # Whether the whole side in view is the board's width or its height is told by the
    # board's own print (which side is the owner's top), so both are tried.
    for is_width, quad in _run_on(sides, small, to_mm):
        c1, c2 = quad[:2]
        board = _orient_and_refine(small, order_clockwise(quad), scale, full, wb, partial=True,
                                   occluded=occluded, cover=cover)
        if board is None:
            continue
        if not board.turn_told:
            # Which side in view is the width only its turn tells; the two depths differ
            # by 4%, which the panel's measured edges make up.
            untold = untold or board
            continue
        # The side in view runs along the owner's top or bottom edge exactly when it is the width.
        if _along_width(board, c1, c2, scale) != is_width:
            continue
        told.append(board)
    return told, untold


def _run_on(sides: list[tuple[np.ndarray, np.ndarray]], small: np.ndarray,
            to_mm: np.ndarray | None) -> list[tuple[bool, np.ndarray]]:
    """The quads (in `small`: the middle side's ends, then the far side's, in order round
    it) whose middle side is that of three sides (lines in `small`, in order round the
    board) and whose far side lies at a board's size from it on the table plane (`to_mm`,
    small px -> mm; else the sides and a typical lens measure it): one with the middle
    side the board's width (True), one with it its height."""
    c1, c2 = _intersect(sides[0], sides[1]), _intersect(sides[1], sides[2])
    # The plane a whole board measures, extrapolated to this one, can be off by a fifth
    # across a wide frame; then the board's own sides measure it.
    if to_mm is not None:
        p1, p2 = apply_h(to_mm, [c1, c2])
        length = float(np.linalg.norm(p2 - p1))
        if not _SIDE_MM[0] < length < _SIDE_MM[1]:
            to_mm = None
    if to_mm is None:
        unit = _plane_from_sides(sides, small.shape[1], small.shape[0])
        if unit is None:
            return []
        # The side in view is the board's width or its height: either way about this long.
        to_mm = np.diag([(BOARD_W_MM + BOARD_H_MM) / 2] * 2 + [1.0]) @ unit
        p1, p2 = apply_h(to_mm, [c1, c2])
        length = float(np.linalg.norm(p2 - p1))
    normal = np.array([-(p2 - p1)[1], (p2 - p1)[0]]) / length
    inward = apply_h(to_mm, [sides[0][0], sides[2][0]]).mean(axis=0) - (p1 + p2) / 2
    if normal @ inward < 0:
        normal = -normal
    from_mm = np.linalg.inv(to_mm)
    out = []
    for along, across in ((BOARD_W_MM, BOARD_H_MM), (BOARD_H_MM, BOARD_W_MM)):
        depth = length * across / along
        far = apply_h(from_mm, [p2 + normal * depth, p1 + normal * depth])
        out.append((along == BOARD_W_MM, np.array([c1, c2, far[0], far[1]])))
    return out


def grown(board: BoardFind, small: np.ndarray, scale: float, full: np.ndarray, wb: WhiteBalance, *,
          to_mm: np.ndarray | None) -> list[BoardFind]:
    """The board an outline cut short along something over it (a hand, an arm) may be:
    each side of its quad kept, and its two neighbours run on from it to a board's size
    on the table plane (`to_mm`, small px -> mm, if a board measured it), turned as it
    was found or as its strip, in view grown whole, tells. Its corners lie on the
    board's sides however short it was cut, so whichever side of it is the board's
    whole side rebuilds the board; only the board's print tells which. A side the plane
    measures shorter or longer than any of a board's is none of them."""
    quad = board.quad * scale  # from the owner's top-left: sides 0 and 2 run along its width
    lines = [(quad[k], quad[(k + 1) % 4] - quad[k]) for k in range(4)]
    out = []
    for k in range(4):
        if min(np.linalg.norm(lines[j][1]) for j in (k - 1, k, (k + 1) % 4)) < 1.0:
            continue
        if to_mm is not None:
            length = float(np.linalg.norm(np.subtract(*apply_h(to_mm, [quad[k], quad[(k + 1) % 4]]))))
            if not _SIDE_MM[0] < length < _SIDE_MM[1]:
                continue
        sides = [(p, d / np.linalg.norm(d)) for p, d in (lines[k - 1], lines[k], lines[(k + 1) % 4])]
        for is_width, run_on in _run_on(sides, small, to_mm):
            if is_width != (k % 2 == 0):
                continue
            again = _refined(rolled(run_on, k) / scale, 1.0, full, wb, partial=True, occluded=True,
                             looked=True)
            if again is not None:
                out.append(replace(again, confidence=board.confidence, turn_told=board.turn_told))
        # Grown whole, the board may show the strip that tells its turn otherwise.
        told, _ = _from_three_sides(sides, small, scale, full, wb, to_mm=to_mm, occluded=True, cover=None)
        out += [b for b in told if b.rotation != board.rotation]
    return out


# The side of an outline cut short along what stands over the board (a hand, an arm)
# shows little of the frame's blue. Of 336 whole boards with nothing over them (seed 7's
# frames 0-199), every side of all but one showed 0.34 or more, tiles along it and all;
# that one lay under glare.
_CUT_SIDE_BLUE = 0.3


def _blue_square(small: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The quad (in `small`) seen square, _ORIENT_PX a side: the homography from the
    square to `small`, and where the square shows the boards' blue."""
    n = _ORIENT_PX
    h = rect_homography(quad, n, n)
    return h, blue_mask(cv2.warpPerspective(small, np.linalg.inv(h), (n, n), flags=cv2.INTER_LINEAR)) > 0


def _cut_side(small: np.ndarray, quad: np.ndarray) -> int | None:
    """Of a quad (in `small`) out of a board's proportions, the side k (quad[k] ->
    quad[k + 1]) that runs along no blue frame, if one alone does: the edge of what
    stands over the board."""
    n = _ORIENT_PX
    _, blue = _blue_square(small, quad)
    inner = slice(8, n - 8)
    rims = (blue[:4, inner], blue[inner, -4:], blue[-4:, inner], blue[inner, :4])  # top, right, bottom, left
    low = [k for k, rim in enumerate(rims) if rim.mean() < _CUT_SIDE_BLUE]
    return low[0] if len(low) == 1 else None


# How near a right angle consecutive sides of a board meet in the frame: the cosine of
# the angle between them at most. Seen 45 degrees from above, the far corners of a board
# turned about 45 degrees open to 130 degrees (seed 9, frame 195: 0.67; at 0.6, its
# sides were given up and its outline taken to the frame's edge, and nothing read).
_SIDES_MEET = 0.75


def _visible_sides(contour: np.ndarray, w: int, h: int, occluded: bool = False, *,
                   parts: list[np.ndarray] | None = None,
                   cover: _Sleeves | None = None) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Lines (point, direction) of the board sides in view, in order along the outline,
    leaving out the stretches that run along the frame's edge or a sleeve in `cover`
    and, if `occluded`, those of the outline's hull that no point of the outlines
    (`parts`, if `contour` joins several) lies along: there something (a hand, a bottle)
    stands over the board's edge and the hull only bridges it. Sides in runs apart are
    chained from whichever run leaves each meeting a right angle."""
    hull = cv2.convexHull(contour.reshape(-1, 1, 2).astype(np.float32)).reshape(-1, 2).astype(np.float64)
    peri = cv2.arcLength(hull.astype(np.float32).reshape(-1, 1, 2), True)
    poly = cv2.approxPolyDP(hull.astype(np.float32).reshape(-1, 1, 2), 0.012 * peri, True).reshape(-1, 2)

    def on_edge(p: np.ndarray) -> set[int]:
        return {i for i, hit in enumerate((p[0] <= 2, p[1] <= 2, p[0] >= w - 3, p[1] >= h - 3)) if hit}

    poly = _with_edge_ends(hull, poly.astype(np.float64), on_edge)
    n = len(poly)
    if n < 3:
        return None
    edges = [on_edge(poly[i]) for i in range(n)]
    border = [bool(edges[i] & edges[(i + 1) % n]) for i in range(n)]  # segment i: poly[i] -> poly[i+1]
    if cover is not None:
        border = [b or sl > 0.5 for b, sl in zip(border, _along(cover.near, poly), strict=True)]
    if occluded:
        border = [b or sup < 0.6 for b, sup in zip(border, _support(parts or [contour], poly), strict=True)]
    else:
        # A chord of the hull from the frame's edge along which no outline runs is no side:
        # the blue along the board's side is hidden near the edge (tiles lean over it), or
        # the board lies over a corner of the frame and the hull bridges the corner across
        # its print.
        from_edge = [i for i in range(n) if not border[i] and (edges[i] or edges[(i + 1) % n])]
        if from_edge:
            support = _support([contour], poly)
            border = [b or (i in from_edge and support[i] < 0.6) for i, b in enumerate(border)]
    if not any(border) or all(border):
        return None
    # The runs of the outline between the stretches left out, each simplified to sides.
    start = next(i for i in range(n) if border[i - 1] and not border[i])
    runs: list[list[int]] = []
    for j in range(n):
        i = (start + j) % n
        if border[i]:
            continue
        if border[i - 1] or not runs:
            runs.append([])
        runs[-1].append(i)
    if len(runs) > 1 and not occluded:
        return None  # cut by the frame in two places: too little of the board to rebuild
    pieces = []
    for run in runs:
        chain = np.array([poly[i] for i in run] + [poly[(run[-1] + 1) % n]])
        simple = cv2.approxPolyDP(chain.astype(np.float32).reshape(-1, 1, 2), 0.03 * peri, False)
        simple = simple.reshape(-1, 2)
        pieces += [(a, b) for a, b in itertools.pairwise(simple.astype(np.float64))]
    lengths = np.array([np.linalg.norm(b - a) for a, b in pieces])
    if len(lengths) == 0:
        return None
    pts = contour.reshape(-1, 2).astype(np.float64)
    sides = []
    for (a, b), length in zip(pieces, lengths, strict=True):
        if length < 0.08 * lengths.max():
            continue
        ab = b - a
        nrm = np.array([-ab[1], ab[0]]) / length
        along = (pts - a) @ ab / length**2
        sel = pts[(along > 0.1) & (along < 0.9) & (np.abs((pts - a) @ nrm) < max(2.0, 0.03 * length))]
        if len(sel) >= 5:
            vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.array([vx, vy], np.float64)
            if d @ ab < 0:
                d = -d
            side = (np.array([x0, y0], np.float64), d)
        else:
            side = (a, ab / length)
        # Two pieces of one side either side of whatever stands over it are one side.
        if sides and abs(float(sides[-1][1] @ side[1])) > 0.97 and _off_line(sides[-1], side[0]) < 3.0:
            continue
        sides.append(side)
    # Consecutive sides of a board meet near a right angle. Runs apart (something over the
    # board between them) keep their order round it, but the chain may start in any run.
    for turn in range(len(sides) if len(runs) > 1 else 1):
        chain = sides[turn:] + sides[:turn]
        if all(abs(float(s1[1] @ s2[1])) <= _SIDES_MEET for s1, s2 in itertools.pairwise(chain)):
            return chain
    return None


def _with_edge_ends(hull: np.ndarray, poly: np.ndarray,
                    on_edge: Callable[[np.ndarray], set[int]]) -> np.ndarray:
    """`poly` (corners picked from `hull`, in its order) with both ends of each stretch
    of the hull along the frame's edge among them: a board whose corner only just runs
    out of the frame leaves a stretch too short for the simplified outline to keep, and
    its sides would run on through the cut to a corner that is not the board's."""
    picked = {i for i, p in enumerate(hull) if any(np.array_equal(p, q) for q in poly)}
    m = len(hull)
    for i in range(m):
        common = on_edge(hull[i]) & on_edge(hull[(i + 1) % m])
        if common and np.linalg.norm(hull[(i + 1) % m] - hull[i]) >= 2:
            picked |= {i, (i + 1) % m}
    return hull[sorted(picked)]


def _support(parts: list[np.ndarray], poly: np.ndarray) -> list[float]:
    """For each segment of a closed polygon, the share of it that runs along the outlines."""
    pts = np.concatenate([c.reshape(-1, 2) for c in parts]).astype(np.int32)
    x0, y0 = pts.min(axis=0) - 4
    size = pts.max(axis=0) - (x0, y0) + 5
    ink = np.full((int(size[1]), int(size[0])), 255, np.uint8)
    outlines = [(c.reshape(-1, 2).astype(np.int32) - (x0, y0)).reshape(-1, 1, 2) for c in parts]
    cv2.polylines(ink, outlines, True, 0, 1)
    dist = cv2.distanceTransform(ink, cv2.DIST_L2, 3)
    out = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        steps = max(2, int(np.linalg.norm(b - a)))
        t = np.linspace(0, 1, steps)[:, None]
        q = np.round(a + (b - a) * t - (x0, y0)).astype(int)
        q[:, 0] = np.clip(q[:, 0], 0, dist.shape[1] - 1)
        q[:, 1] = np.clip(q[:, 1], 0, dist.shape[0] - 1)
        out.append(float((dist[q[:, 1], q[:, 0]] <= 2.5).mean()))
    return out


def _along(near: np.ndarray, poly: np.ndarray) -> list[float]:
    """For each segment of a closed polygon, the share of it that lies in `near`."""
    h, w = near.shape
    out = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        t = np.linspace(0, 1, max(2, int(np.linalg.norm(b - a))))[:, None]
        q = np.round(a + (b - a) * t).astype(int)
        inside = (q[:, 0] >= 0) & (q[:, 0] < w) & (q[:, 1] >= 0) & (q[:, 1] < h)
        hits = near[q[inside, 1], q[inside, 0]]
        out.append(float(hits.sum() / len(q)))
    return out


def _off_line(line: tuple[np.ndarray, np.ndarray], p: np.ndarray) -> float:
    (q, d) = line
    return float(abs(d[0] * (p - q)[1] - d[1] * (p - q)[0]))


def _intersect(l1: tuple[np.ndarray, np.ndarray], l2: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (p1, d1), (p2, d2) = l1, l2
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-9:
        return np.array([np.nan, np.nan])
    t = np.linalg.solve(m, p2 - p1)
    return p1 + t[0] * d1


# A board something stands over is rebuilt from less of its outline; a strip standing out
# little from the other sides' bands is then no better than a guess at its turn.
_OCCLUDED_CLARITY = 0.3


def _orient(small: np.ndarray, quad: np.ndarray, partial: bool = False,
            occluded: bool = False, under: np.ndarray | None = None) -> tuple[int, float | None] | None:
    """Which quad side is the owner's top: index k such that quad rolled by k starts at
    the owner's top-left; and how clearly the panel sits low (None: the strip does not
    tell, on a board something stands over). `partial`: the board
    runs out of the frame, so only the part in view is judged; `under`: where a blue
    sleeve lies over it (in the square of _ORIENT_PX), of which nothing is judged."""
    n = _ORIENT_PX
    h, blue_px = _blue_square(small, quad)
    blue = blue_px.astype(np.float32)
    seen = in_frame(h, n, n, small.shape[1], small.shape[0]) if partial else np.ones((n, n), bool)
    if under is not None:
        seen &= ~under
    ring = np.zeros((n, n), bool)
    ring[:4], ring[-4:], ring[:, :4], ring[:, -4:] = True, True, True, True
    # Where something stands over the board, its frame is not blue there.
    if (ring & seen).sum() < 0.4 * ring.sum() or blue[ring & seen].mean() < (0.4 if occluded else 0.55):
        return None  # not framed in blue all round
    # Rows (or columns) mostly out of view cannot show the strip.
    blue[~seen] = np.nan
    # The blue strip between the score track and the panel runs across the board about
    # 30% of the way down from the owner's top; nothing like it lies 30% up from the bottom.
    depth = (PANEL_BOX_MM[1] - 5.0) / BOARD_H_MM
    lo, hi = round((depth - 0.1) * n), round((depth + 0.08) * n)
    inner = slice(round(0.1 * n), round(0.9 * n))
    # A row is judged on what of it is in view, if that is most of it; over a board
    # something stands over, on half of it.
    least_seen = 0.5 if occluded else 0.8

    def strongest(rows: np.ndarray) -> float:
        seen_share = np.isfinite(rows).mean(axis=1)
        means = np.nanmean(np.where(seen_share[:, None] >= least_seen, rows, 0.0), axis=1)
        return float(np.max(np.where(seen_share >= least_seen, means, 0.0)))

    bands = [strongest(blue[lo:hi, inner]),  # the square's top side is the owner's top
             strongest(blue[inner, n - hi:n - lo].T),  # right side
             strongest(blue[n - hi:n - lo, inner]),  # bottom side
             strongest(blue[inner, lo:hi].T)]  # left side
    order = np.argsort(bands)[::-1]
    best, second = bands[order[0]], bands[order[1]]
    # Owner's top on the square's side j: the owner's top-left corner is quad[j]
    # (top: q0; right: q1; bottom: q2; left: q3).
    k = int(order[0])
    clarity = float(np.clip((best - second) / 0.4, 0, 1))
    # Something standing over the board hides part of the strip too; then the strip
    # must at least stand out clearly from the other sides' bands.
    if (best < 0.6 and not (occluded and best >= 0.45 and best >= 1.6 * second)) \
            or (occluded and clarity < _OCCLUDED_CLARITY):
        # Framed in blue, but with something over it the strip may be what it hides: the
        # board's print must tell its turn.
        return (0, None) if occluded else None
    return k, clarity


_EDGE_HOLD = 8


def _edge(profile: np.ndarray, lo: int, hi: int, rising: bool, *, nearest: bool = False,
          innermost: bool = False) -> float | None:
    """Position in [lo, hi) where a non-blue fraction profile crosses 0.5 into (rising)
    or out of (falling) a stretch that stays non-blue for _EDGE_HOLD samples: thin cream
    lines printed on the frame do not count as the panel's edge. Of several, the
    outermost (tiles by the edge make more inside), with `nearest` the one nearest the
    middle of [lo, hi), where the outline puts the edge, or with `innermost` the
    innermost."""
    middle = (lo + hi) / 2
    lo, hi = max(0, lo), min(len(profile), hi)
    seg = profile[lo:hi]
    if len(seg) < 3:
        return None
    above = seg >= 0.5
    if rising:
        idx = [i for i in np.nonzero(~above[:-1] & above[1:])[0]
               if profile[lo + i + 1:lo + i + 1 + _EDGE_HOLD].mean() >= 0.7]
    else:
        idx = [i for i in np.nonzero(above[:-1] & ~above[1:])[0]
               if profile[max(0, lo + i + 1 - _EDGE_HOLD):lo + i + 1].mean() >= 0.7]
    if not idx:
        return None
    i = idx[-1] if rising == innermost else idx[0]
    if nearest:
        i = min(idx, key=lambda j: abs(lo + j - middle))
    a, b = seg[i], seg[i + 1]
    return lo + i + (0.5 - a) / (b - a + 1e-9) + 0.5


def _body(full: np.ndarray, to_img: np.ndarray, wb: WhiteBalance, rows: slice, cols: slice) -> np.ndarray:
    """1.0 where rows x cols of a board's rectified view (`to_img`: view px -> frame px)
    show no blue print, warped on their own."""
    shift = np.array([[1.0, 0.0, cols.start], [0.0, 1.0, rows.start], [0.0, 0.0, 1.0]])
    part = cv2.warpPerspective(full, to_img @ shift, (cols.stop - cols.start, rows.stop - rows.start),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return (blue_mask(wb.apply_u8(part)) == 0).astype(np.float32)


# Whether a quad looks like a board is judged at this scale: its cream shows plainly.
_LOOK_PX_PER_MM = 1.0


def _looked_at(full: np.ndarray, board_h: np.ndarray, wb: WhiteBalance,
               partial: bool) -> tuple[np.ndarray, float, np.ndarray]:
    """A board's rectified view in HSV, at _LOOK_PX_PER_MM, and which of it is in the frame."""
    s = _LOOK_PX_PER_MM
    to_img = board_h @ np.diag([1 / s, 1 / s, 1.0])
    w, h = round(BOARD_W_MM * s), round(BOARD_H_MM * s)
    rect = cv2.warpPerspective(full, to_img, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    seen = in_frame(to_img, w, h, full.shape[1], full.shape[0]) if partial else np.ones((h, w), bool)
    return cv2.cvtColor(wb.apply_u8(rect), cv2.COLOR_BGR2HSV), s, seen


def _looks_like_board(hsv: np.ndarray, s: float, seen: np.ndarray, occluded: bool = False) -> bool:
    """The score track's cream squares and the panel's cream background are there (a
    factory's sunburst, a blue mat or a cup fitted as a quad has neither); of a board
    partly out of the frame, those of the two that are in view; of a board something
    stands over, one of the two."""
    if not seen.any():
        return False  # a quad rebuilt wholly out of the frame shows nothing of a board
    v = hsv[..., 2]
    light = (hsv[..., 1] < 90) & (v > 0.55 * percentile(v, 95, seen))
    zones = (((slice(round(12 * s), round(68 * s)), slice(round(14 * s), round(246 * s))), 0.35),
             ((slice(round((PANEL_BOX_MM[1] + 30) * s), round((PANEL_BOX_MM[1] + 72) * s)),
               slice(round((PANEL_BOX_MM[0] + 4) * s), round((PANEL_BOX_MM[0] + 45) * s))), 0.45))
    judged = passed = 0
    for zone, least in zones:
        z_seen = seen[zone]
        if z_seen.mean() < 0.4:
            continue
        judged += 1
        passed += light[zone][z_seen].mean() > least
    return passed > 0 and (occluded or passed == judged)


def _orient_and_refine(small: np.ndarray, quad_small: np.ndarray, scale: float, full: np.ndarray,
                       wb: WhiteBalance, *, partial: bool = False, occluded: bool = False,
                       cover: _Sleeves | None = None) -> BoardFind | None:
    under = None
    if cover is not None:
        h = rect_homography(quad_small, _ORIENT_PX, _ORIENT_PX)
        under = cv2.warpPerspective(cover.over.astype(np.uint8), np.linalg.inv(h), (_ORIENT_PX, _ORIENT_PX),
                                    flags=cv2.INTER_NEAREST) > 0
        # a blue sleeve over a board stands over it as a hand does
        occluded = occluded or under.mean() > _UNDER_SLEEVE
    oriented = _orient(small, quad_small, partial, occluded, under)
    if oriented is None:
        return None
    k, clarity = oriented
    quad = rolled(order_clockwise(quad_small), -k) / scale
    if clarity is not None:
        return _refined(quad, clarity, full, wb, partial=partial, occluded=occluded)
    for quarters in range(4):  # the panel measured at whichever turn shows it; the print tells which is right
        board = _refined(rolled(quad, -quarters), 0.0, full, wb, partial=partial, occluded=True)
        if board is not None:
            return replace(board, turn_told=False)
    return None


# The end-bonus panel (+2, +7, +10) is the one solid block of blue in the board's
# lower right, beside its floor (board mm, inside its edges by a margin an outline a
# little off still keeps): the owner's bottom right, which tells a board's turn when an
# arm hides its strip. Seen square, the panel there shows 0.92-1.0 blue (seed 7's first
# boards and its boards under arms); the other corners, where the score track's ruling
# or the floor's arches lie, 0-0.76.
_BONUS_MM = (192.0, 214.0, 242.0, 234.0)
_BONUS_BLUE = 0.85  # the share of the panel's region that shows blue at the board's turn
_BONUS_APART = 0.15  # and how much more than at any other turn


def board_sized(board: BoardFind, to_mm: np.ndarray, scale: float) -> bool:
    """Whether every side of a board's outline measures a board's side on the table
    plane `to_mm` (small px -> mm; `scale`: small px per image px)."""
    corners = apply_h(to_mm, board.quad * scale)
    sides = np.linalg.norm(corners - rolled(corners, -1), axis=1)
    return bool(np.all((sides > _SIDE_MM[0]) & (sides < _SIDE_MM[1])))


def bonus_turn(board: BoardFind, full: np.ndarray, wb: WhiteBalance) -> int | None:
    """The quarter turns clockwise from where the board was found that put its owner's
    bottom right where the end-bonus panel's blue shows, if one turn clearly does; None
    if none does (something over it, or out of the frame)."""
    n = _ORIENT_PX
    to_img = board.board_h @ np.diag([BOARD_W_MM / n, BOARD_H_MM / n, 1.0])
    view = cv2.warpPerspective(full, np.linalg.inv(to_img), (n, n), flags=cv2.INTER_AREA)
    blue = blue_mask(wb.apply_u8(view)) > 0
    seen = in_frame(to_img, n, n, full.shape[1], full.shape[0])
    x0, y0, x1, y1 = _BONUS_MM
    region = np.zeros((n, n), bool)
    rows = slice(round(y0 / BOARD_H_MM * n), round(y1 / BOARD_H_MM * n))
    region[rows, round(x0 / BOARD_W_MM * n):round(x1 / BOARD_W_MM * n)] = True
    shares = []
    for quarters in range(4):
        at = np.rot90(region, -quarters) & seen  # the owner's bottom right, the top turned on
        shares.append(float(blue[at].mean()) if at.sum() >= 0.5 * region.sum() else 0.0)
    best = int(np.argmax(shares))
    others = max(v for q, v in enumerate(shares) if q != best)
    return best if shares[best] >= _BONUS_BLUE and shares[best] - others >= _BONUS_APART else None


def turned(board: BoardFind, quarters: int, full: np.ndarray, wb: WhiteBalance) -> BoardFind | None:
    """The board with its owner's top `quarters` quarter turns clockwise from where it
    was found, its panel measured again; None if no panel is there. For a board whose
    grid misses its print: seen near 45 degrees, the strip that told its top may have
    been misjudged."""
    # It was found a board already: turned, the hand that hid its strip may hide what
    # the look for a board judges by, and only the print tells whether the turn is right.
    refined = _refined(rolled(board.quad, -quarters), 0.0, full, wb, partial=True, occluded=True,
                       looked=True)
    return None if refined is None else replace(refined, confidence=board.confidence)


# How far a panel's measured corner may lie from where the board's outline puts it: a
# board found right measures under 12 mm off (all but one in a hundred), and one whose
# edge was measured on an arm over it 20-130 mm.
_EDGE_OFF_MOST = 18.0
_PAST_AGREE = 6.0  # mm: how near an edge found past the outline lies in its two bands


def _refined(quad: np.ndarray, clarity: float, full: np.ndarray, wb: WhiteBalance, *,
             partial: bool, occluded: bool, looked: bool = False) -> BoardFind | None:
    """The board whose outline is `quad` (image px, from the owner's top-left), its
    panel's edges measured; `clarity`: how clearly its turn was told; `looked`: it was
    judged a board already."""
    # The quad's long/short sides tell the board's 260 x 250 mm only roughly; rely on the panel.
    board_h = rect_homography(quad, BOARD_W_MM, BOARD_H_MM)
    if not looked and not _looks_like_board(*_looked_at(full, board_h, wb, partial), occluded):
        return None
    s = _REFINE_PX_PER_MM
    to_img = board_h @ np.diag([1 / s, 1 / s, 1.0])
    w, h = round(BOARD_W_MM * s), round(BOARD_H_MM * s)

    def seen(rows: slice, cols: slice, *, past: bool = False) -> bool:
        """Whether a block of the view lies wholly in the frame (with `past`, the block
        as it runs past the board's outline too). What of the view is in the frame is
        convex (bounded by lines in the view), so its corners tell."""
        ys = range(rows.start, rows.stop) if past else range(max(0, rows.start), min(h, rows.stop))
        xs = range(cols.start, cols.stop) if past else range(max(0, cols.start), min(w, cols.stop))
        if not partial or not ys or not xs:
            return True
        corners = [(x + 0.5, y + 0.5) for x in (xs[0], xs[-1]) for y in (ys[0], ys[-1])]
        return bool(in_frame_points(to_img, corners, full.shape[1], full.shape[0]).all())

    x0, y0, x1, y1 = (v * s for v in PANEL_BOX_MM)
    win = round(14 * s)
    # Each edge measured in two bands, so a perspective error in the quad is corrected too.
    def band(lo: float, hi: float) -> slice:
        return slice(round(lo), round(hi))

    ya, yb = band(y0 + 25 * s, y0 + 70 * s), band(y1 - 70 * s, y1 - 35 * s)
    xa, xb = band(x0 + 30 * s, x0 + 100 * s), band(x0 + 110 * s, x0 + 160 * s)
    # Only the stretches an edge is looked for in (and the hold past them) are warped.
    reach = win + _EDGE_HOLD

    def measure(band_: slice, at: float, rising: bool, *, down: bool) -> tuple[float | None, bool]:
        """Where the panel's edge crosses a band (rows for a near-vertical edge, columns
        for a near-horizontal one `down`) near `at` (view px), and whether past the outline."""
        a, size = round(at), h if down else w

        def block(lo: int, hi: int) -> tuple[slice, slice]:  # rows, columns
            return (slice(lo, hi), band_) if down else (band_, slice(lo, hi))

        def profile(lo: int, hi: int) -> np.ndarray:
            return _body(full, to_img, wb, *block(lo, hi)).mean(axis=1 if down else 0)

        # Above the top edge lies the score track, whose last row's cream squares an
        # outline rebuilt a few mm off brings in reach (seed 9: a grid 0.85 of a cell off).
        nearest = down and rising
        lo, hi = a - win, a + win
        if not seen(*block(lo, hi)):
            return None, False  # out of view: keep the prior
        span = slice(max(0, a - reach), min(size, a + reach))
        inside = np.full(size, np.nan, np.float32)
        inside[span] = profile(span.start, span.stop)
        edge = _edge(inside, lo, hi, rising, nearest=nearest)
        if edge is not None or (lo >= 0 and hi <= size):
            return edge, False
        # Not found within the outline, which may end short of the board: a side the
        # frame's edge cuts is rebuilt at a board's size on a table plane measured
        # elsewhere, which, extrapolated, put it 9 mm short (seed 9, frame 302: the
        # panel's edge lay past the outline). The edge is then looked for as far again
        # past the outline: the first met going out, as the panel runs on to its frame.
        lo, hi = (a - 2 * win, a + win) if rising else (a - win, a + 2 * win)
        if not seen(*block(lo, hi), past=True):
            return None, False
        past = _edge(profile(lo - _EDGE_HOLD, hi + _EDGE_HOLD), _EDGE_HOLD, hi - lo + _EDGE_HOLD, rising,
                     innermost=True)
        return (None, False) if past is None else (past + lo - _EDGE_HOLD, True)

    def kept(measures: list[tuple[float | None, bool]]) -> list[float | None]:
        """An edge's measures in its two bands. One past the outline is kept only where
        the other band found the edge past it too, within _PAST_AGREE: found in one band
        only, it may be something else's edge (an outline rebuilt wrong round an arm
        found a mat's, seed 8, frame 467)."""
        (a, a_past), (b, b_past) = measures
        if a_past and b_past and abs(a - b) <= _PAST_AGREE * s:
            return [a, b]
        return [None if a_past else a, None if b_past else b]

    left = [measure(r, x0, True, down=False) for r in (ya, yb)]
    right = [measure(r, x1, False, down=False) for r in (ya, yb)]
    top = [measure(c, y0, True, down=True) for c in (xa, xb)]
    bottom = [measure(c, y1, False, down=True) for c in (xa, xb)]
    beyond = {at for at, measures in ((x0, left), (x1, right), (y0, top), (y1, bottom))  # by the prior
              if all(past for _, past in measures)}
    left, right, top, bottom = (kept(m) for m in (left, right, top, bottom))
    found = [v for v in (*left, *right, *top, *bottom) if v is not None]
    measured = len(found)
    mid_ya, mid_yb = (ya.start + ya.stop) / 2, (yb.start + yb.stop) / 2
    mid_xa, mid_xb = (xa.start + xa.stop) / 2, (xb.start + xb.stop) / 2

    def pick(vals: list[float | None], prior: float) -> tuple[float, float]:
        a, b = vals
        if a is None and b is None:
            return prior, prior
        # Measured in one band only, the edge runs through it as the outline runs: the
        # outline is off mostly by a shift, so the prior taken for the other band tilted
        # the edge (seed 7: a corner 2 mm or more off on 5% and 9% of boards' right and
        # bottom edges).
        return (b if a is None else a), (a if b is None else b)

    la, lb = pick(left, x0)
    ra, rb = pick(right, x1)
    ta, tb = pick(top, y0)
    ba, bb = pick(bottom, y1)

    def line_x(xa_: float, xb_: float, y: float) -> float:  # x of a near-vertical edge at row y
        return xa_ + (xb_ - xa_) * (y - mid_ya) / (mid_yb - mid_ya)

    def line_y(ya_: float, yb_: float, x: float) -> float:
        return ya_ + (yb_ - ya_) * (x - mid_xa) / (mid_xb - mid_xa)

    def corners() -> np.ndarray:  # rect px: top-left, top-right, bottom-right, bottom-left
        out = []
        for ux, uy in ((0, 0), (1, 0), (1, 1), (0, 1)):
            # Intersect the two edges by a few fixed-point steps (they are nearly axis-aligned).
            y = y0 if uy == 0 else y1
            for _ in range(3):
                x = line_x(la, lb, y) if ux == 0 else line_x(ra, rb, y)
                y = line_y(ta, tb, x) if uy == 0 else line_y(ba, bb, x)
            out.append((x, y))
        return np.array(out)

    # An edge whose two measures put a corner far from the prior was measured on
    # something else at one of them (an arm's edge over the panel): the prior stands.
    # Not an edge found past the outline: the outline ended short of it.
    # (Of a board the frame's edge cuts, the outline is partly rebuilt: its prior is
    # the weaker.)
    c, most = corners(), _EDGE_OFF_MOST * s if seen(slice(0, h), slice(0, w)) else np.inf
    if x0 not in beyond and max(abs(c[0, 0] - x0), abs(c[3, 0] - x0)) > most:
        la = lb = x0
    if x1 not in beyond and max(abs(c[1, 0] - x1), abs(c[2, 0] - x1)) > most:
        ra = rb = x1
    if y0 not in beyond and max(abs(c[0, 1] - y0), abs(c[1, 1] - y0)) > most:
        ta = tb = y0
    if y1 not in beyond and max(abs(c[3, 1] - y1), abs(c[2, 1] - y1)) > most:
        ba = bb = y1
    corners_mm = corners() / s
    pw = np.linalg.norm(corners_mm[1] - corners_mm[0])
    ph = np.linalg.norm(corners_mm[3] - corners_mm[0])
    pw /= PANEL_BOX_MM[2] - PANEL_BOX_MM[0]
    ph /= PANEL_BOX_MM[3] - PANEL_BOX_MM[1]
    if not (0.85 < pw < 1.15 and 0.85 < ph < 1.15):
        return None
    panel_quad_img = apply_h(board_h, corners_mm)
    panel_h = rect_homography(panel_quad_img, PANEL_W_PX, PANEL_H_PX)
    confidence = clarity * (0.6 + 0.4 * measured / 8)
    return BoardFind(quad, board_h, panel_h, rotation_of(panel_h), float(confidence))


def _board_to_panel() -> np.ndarray:
    """Board mm -> panel px: the panel's measured edges (PANEL_BOX_MM) in the board."""
    x0, y0, x1, y1 = PANEL_BOX_MM
    sx, sy = PANEL_W_PX / (x1 - x0), PANEL_H_PX / (y1 - y0)
    return np.array([[sx, 0.0, -x0 * sx], [0.0, sy, -y0 * sy], [0.0, 0.0, 1.0]])


def board_of_panel(panel_h: np.ndarray) -> np.ndarray:
    """The board (mm) -> image homography its panel (`panel_h`: panel px -> image) gives:
    the board drawn out from the panel's measured edges."""
    return panel_h @ _board_to_panel()


def panel_of_board(board_h: np.ndarray) -> np.ndarray:
    """The panel (panel px -> image) of a board placed by `board_h` (board mm -> image),
    as board_of_panel gives it back."""
    return board_h @ np.linalg.inv(_board_to_panel())


def rotation_of(panel_h: np.ndarray) -> int:
    """How far the board whose panel `panel_h` maps into the image is turned clockwise
    from upright (its owner's top at the top of the image), to the nearest quarter turn.
    Judged by the panel, whose edges are measured, not by the outline: a hand over a
    corner of the board skews the outline (seed 9, frame 315: 6 degrees, which turned a
    board lying 41 degrees from upright a quarter too far)."""
    board_h = board_of_panel(panel_h)
    up = apply_h(board_h, [[BOARD_W_MM / 2, 0]])[0] - apply_h(board_h, [[BOARD_W_MM / 2, BOARD_H_MM / 2]])[0]
    return round(np.degrees(np.arctan2(up[0], -up[1])) / 90.0) % 4 * 90
