"""Reading a located board: pattern lines, floor and wall.

Places are sampled in the measured 900 x 600 crop of the lower panel
(real-table.md), white-balanced on the board's own cream. A tile is 7 mm thick, so
seen obliquely its top face lies off the cell printed under it, away from the
camera's foot; each place is looked at three times: halfway between the cell and
the top face (inside both), on the top face with a wider window, and on the printed
cell. A small place model per kind of place (pattern line or floor; each printed
colour of the coloured wall; the grey wall), measured by vision.calibrate on frames
with known truth, reads the three looks (colour-word shares and lightness and
saturation statistics) into tile colours, empty, or hidden; a place it is not sure
of is "unknown". A pattern line is then read as a whole (one colour, filled from
the wall end), and the side that is up from what every wall cell says of it. Before
any place counts, the grid is checked against the board's own print: a coloured
wall's colours must lie on their diagonals where the grid puts them, else the grid is
off (a board rebuilt wrong round an arm or the frame's edge): the print is then
searched for round it and the board read where the print is, or, if the print is
nowhere clear, nothing is read. (What the place model sees a hand or an arm over is
left out of the check.) A grey wall has no colours to check a grid by; its
grid must lie on the wall's block of grey cells, darker than the cream beside and
under it, and fit that block better than the grid a cell away does, else nothing is
read (a coloured wall read as grey off its grid is then searched for as above). Once a
board is placed, its places are read out again where they were looked at, its coloured
wall's models joined by final ones that learned other cameras' looks too (see FINAL).
Without a measured model, places are read by the colour-word mixes of vision.color.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import color
from .boards import (
    PANEL_H_PX,
    PANEL_W_PX,
    TILE_THICK_MM,
    BoardFind,
    blue_mask,
    bonus_turn,
    frame_covered,
    in_proportion,
    on_board,
    reduced,
    rotation_of,
    turned,
)
from .color import COLORS, MARKER, UNKNOWN, Reading, WhiteBalance
from .geometry import apply_h, camera_in_plane, in_frame, parallax, rolled
from .stats import counted_percentile, median, percentile

CELL_PX = 78
_MM_PER_CROP_PX = 243.0 / PANEL_W_PX  # the measured crop is 243 mm across
TILE_LIFT_PX = TILE_THICK_MM / _MM_PER_CROP_PX  # a tile's thickness in crop px
_WINDOW = 0.44  # sampled window, as a fraction of a cell
_SCALE = 0.5  # the panel is read at half the measured crop's resolution
_WINDOW_HALF = max(3, round(_WINDOW * CELL_PX * _SCALE / 2))  # a sampled window's half side, panel px


def wall_center(row: int, column: int) -> tuple[float, float]:
    return 512 + 84 * column, 57 + 86 * row


def line_center(line: int, place: int) -> tuple[float, float]:
    """Pattern line `line` (0-based), `place` counted from the wall end."""
    return 388 - 84 * place, 57 + 86 * line


def floor_center(place: int) -> tuple[float, float]:
    return 50 + 90 * place, 545


def printed_color(row: int, column: int) -> str:
    """Colour printed on the coloured wall at 0-based (row, column) (game-record.md)."""
    return COLORS[(column - row) % 5]


# Every place of a board, in a fixed order: 15 pattern-line places, 7 floor, 25 wall.
PLACES: list[tuple] = (
    [("line", k, p) for k in range(5) for p in range(k + 1)]
    + [("floor", i) for i in range(7)]
    + [("wall", r, c) for r in range(5) for c in range(5)]
)
CENTERS = np.array([line_center(p[1], p[2]) if p[0] == "line" else floor_center(p[1]) if p[0] == "floor"
                    else wall_center(p[1], p[2]) for p in PLACES], np.float64)


@dataclass(frozen=True)
class BoardReading:
    side: str
    side_confidence: float
    lines: list[dict]
    floor: list[str | None]
    wall: list[list[str | None]]
    places: dict[tuple, Reading]
    sample_points: np.ndarray  # where each place was sampled, image px (for debug overlays)
    confidence: float
    occluded: bool  # the place model sees something (a hand, a cup) over a place
    balance: WhiteBalance
    histograms: np.ndarray  # word counts of each place's window, in PLACES order
    features: np.ndarray  # what the place model reads, one row a place, in PLACES order
    grid_in_place: bool  # the wall (print or grey block) lies where the grid puts it (else nothing is read)
    over: np.ndarray  # the places the place model sees something (a hand, a cup) over, in PLACES order
    sure: float | None = None  # how sure anything read (a line said too) had to be, if given (see read_board)
    # the places the first look read, in PLACES order (a second reads more, on a grid off its print too)
    read_first: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(len(PLACES), bool))
    # how far (crop px, across and down) the floor's places were moved from where the grid
    # puts them, if the panel's left edge or the floor's print showed where they lie
    floor_moved: np.ndarray | None = None
    looks: _Looked | None = None  # how its places looked, to read them again by (see read_final)
    # the parts ("floor", "wall") left unread whatever a read again reads: the choices that
    # placed the board could not tell them (see _floor_unread_but_empty; recognize's side told)
    withheld: frozenset[str] = frozenset()

    @property
    def floor_placed(self) -> bool:
        return self.floor_moved is not None


def _sample_windows(panel: np.ndarray, centers: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of a (2*half)^2 window round each centre (panel px), and each pixel's window
    index; a window over the panel's edge repeats the edge's pixels."""
    h, w = panel.shape[:2]
    if not len(centers):
        return panel.reshape(-1, *panel.shape[2:])[:0], np.zeros(0, int)
    # (a window wholly off the panel is its nearest edge pixel, repeated)
    x0 = np.clip(np.round(centers[:, 0]).astype(int) - half, 1 - 2 * half, w - 1)
    y0 = np.clip(np.round(centers[:, 1]).astype(int) - half, 1 - 2 * half, h - 1)
    left, top = max(0, -int(x0.min())), max(0, -int(y0.min()))
    right, bottom = max(0, int(x0.max()) + 2 * half - w), max(0, int(y0.max()) + 2 * half - h)
    if left or top or right or bottom:
        panel = cv2.copyMakeBorder(panel, top, bottom, left, right, cv2.BORDER_REPLICATE)
    # Every window as a view of the panel, gathered in one copy.
    windows = sliding_window_view(panel, (2 * half, 2 * half), axis=(0, 1))[y0 + top, x0 + left]
    pixels = np.moveaxis(windows, 1, -1).reshape(-1, 3) if panel.ndim == 3 else windows.reshape(-1)
    groups = np.repeat(np.arange(len(centers)), (2 * half) ** 2)
    return pixels, groups


@dataclass(frozen=True)
class _Looked:
    """A board's places as looked at where its grid puts them (see _looks), and what that
    took: a board read again at the same places need not look again."""
    panel: np.ndarray  # balanced
    balance: WhiteBalance
    shift: np.ndarray  # crop px: each place's half lift (see parallax)
    nudge: np.ndarray  # crop px: each window's move (the floor's and lines' moves in it)
    moved: np.ndarray  # crop px: each place's move off the grid (the floor's and lines')
    floor_placed: bool  # the floor's places were placed (see BoardReading.floor_moved)
    out_of_frame: np.ndarray
    cut: np.ndarray  # the places whose relief look the frame's edge cuts
    pixels: np.ndarray
    groups: np.ndarray
    hists: np.ndarray
    glare: np.ndarray
    features: np.ndarray
    vivid: np.ndarray
    size: tuple[int, int]  # the frame's width and height
    # What looking again at a place (_past_over, _in_shade) saw, kept by the place's index:
    # every read of the board (the first, the final, the settled) looks again at the same
    # places the same way.
    seen_past: dict[int, tuple[np.ndarray, np.ndarray]] = dataclasses.field(default_factory=dict, repr=False)
    seen_lit: dict[int, np.ndarray | None] = dataclasses.field(default_factory=dict, repr=False)


def _look_at(frame: np.ndarray, board: BoardFind, rough: WhiteBalance, cream: WhiteBalance | None,
             floor_moved: np.ndarray | None) -> _Looked:
    """Every place of a located board looked at (see read_board)."""
    s = _SCALE
    out_w, out_h = round(PANEL_W_PX * s), round(PANEL_H_PX * s)
    to_img = board.panel_h @ np.diag([1 / s, 1 / s, 1.0])
    panel = cv2.warpPerspective(frame, np.linalg.inv(to_img), (out_w, out_h), flags=cv2.INTER_LINEAR)
    wb = cream if cream is not None else _panel_balance(panel, s, rough)
    panel = wb.apply(panel)

    cam = camera_in_plane(board.panel_h, frame.shape[1], frame.shape[0])
    shift = parallax(cam, CENTERS, TILE_LIFT_PX) / 2
    half = _WINDOW_HALF
    h_img, w_img = frame.shape[:2]
    along = _floor_along(frame, board.panel_h, wb) if floor_moved is None else None
    moved = np.zeros_like(CENTERS)
    if floor_moved is not None:
        moved[_FLOOR_ROWS] = floor_moved
    elif along is not None and np.abs(along).max() >= _FLOOR_MOVE_LEAST:
        moved[_FLOOR_ROWS, 0] = along
    if np.abs(moved[_FLOOR_ROWS]).max() >= _FLOOR_MOVE_LEAST:
        moved[_LINE_ROWS] = _lines_moved(moved[_FLOOR_ROWS])
    nudge = _into_frame(board.panel_h, CENTERS + shift + moved, half / s, w_img, h_img)
    out_of_frame = np.isnan(nudge[:, 0])  # a place no nudge brings into the frame is not seen
    nudge[out_of_frame] = 0.0
    nudge += moved
    pixels, groups, hists, glare, features = _looks(panel, CENTERS, shift, nudge)
    vivid = _vivid_share(pixels, groups, len(PLACES))
    hists[out_of_frame] = 0
    glare[out_of_frame] = 0

    # The frame's edge is no hand. The relief look sees a place whose boxes the edge cuts
    # as the models learned to see a place under something (the truth hides a place mostly
    # out of the frame): such a place is read by its colour looks alone (_read_places), and
    # leaves the board not occluded. (Seed 7: 10 of the 11 frames with no hand that the
    # relief look newly flagged. Read by the colour looks, seeds 7 / 9 / 8 / 2 / 1: 0 / +1
    # / 0 / 0 / 0 boards read exactly, none more wrong; of the places the truth hides, +1 /
    # +9 / +10 / -1 / -3 read, -1 / 0 / +2 / 0 / -2 of them wrong.)
    cut = ~_inside(board.panel_h, (CENTERS + shift + moved)[:, None, :], _RELIEF_REACH * CELL_PX,
                   w_img, h_img)[:, 0]
    return _Looked(panel, wb, shift, nudge, moved, along is not None or floor_moved is not None, out_of_frame,
                   cut, pixels, groups, hists, glare, features, vivid, (w_img, h_img))


def read_board(frame: np.ndarray, board: BoardFind, rough: WhiteBalance,
               sure: float | None = None, cream: WhiteBalance | None = None, *,
               told: tuple[str, float] | None = None, settled: bool = False,
               floor_moved: np.ndarray | None = None) -> BoardReading:
    """Every place of a located board; with `sure`, nothing is read less surely than
    that (a grid placed less exactly, at _MOVED_SURE, says no pattern line below it). The
    panel is balanced by its own cream, or by `cream` when given (what other boards' cream
    measured). The side up is what the board's own wall says, or `told` (side,
    confidence) when given. `settled`: the board's outline and grid are chosen, and its
    places are read with the settled models too (see SETTLED). `floor_moved`: how far
    (crop px, across and down) the floor's places lie from where the grid puts them, if
    known (see read_floor_by_print)."""
    return _read_looked(frame, board, rough, _look_at(frame, board, rough, cream, floor_moved), sure,
                        told=told, settled=settled)


def _read_looked(frame: np.ndarray, board: BoardFind, rough: WhiteBalance, looked: _Looked,
                 sure: float | None, *, told: tuple[str, float] | None, settled: bool = False,
                 final: bool = False) -> BoardReading:
    """A board's places read from how they look (see read_board); `final`: its outline,
    turn, side and grid are chosen, and its places are read out by the final models, the
    grid not checked again (see FINAL)."""
    panel, shift, nudge, cut = looked.panel, looked.shift, looked.nudge, looked.cut
    out_of_frame = looked.out_of_frame
    pixels, hists, glare, features = looked.pixels, looked.hists, looked.glare, looked.features
    wb = looked.balance
    if told is not None:
        side, side_conf = told
    elif "side:blue" in PLACE_MODELS:
        side, side_conf = _side_by_model(features, hists, glare)
    else:
        side, side_conf = _decide_side(hists)
    if PLACE_MODELS:
        covered = _plain_dark(features)
        if covered.any():  # (most boards have no plain dark place: their neighbours are not looked at)
            covered[covered] = _dark_round(panel, (CENTERS + nudge)[covered])

        @functools.cache
        def frame_shown() -> bool:
            """Whether the board's blue frame shows all round (see _RELIEF_ALONE_CLEAR),
            only when asked: seldom."""
            return _frame_shown(frame, board, rough)

        places, over, said = _read_places(features, glare, hists, side, covered, cut=cut,
                                          frame_shown=frame_shown, settled=settled, final=final)
        places = _wall_if_side_sure(places, side_conf)
    else:
        places, over, said = _read_by_mixes(hists, glare, looked.vivid, side), np.zeros(len(PLACES), bool), {}
    places = _at_least(places, sure)
    sampled = apply_h(board.panel_h, CENTERS + shift + nudge)
    # (A final read's grid was checked as the board was chosen: see read_final.)
    in_place = final or _grid_checked(frame, board, looked, places=places, over=over, sampled=sampled,
                                      side=side)
    if not in_place:
        # The grid is not where the board's print is (a board rebuilt wrong from the sides
        # a hand or the frame's edge left in view): every place would be read off a
        # neighbour's or off the frame, so none is read.
        places = {p: Reading(UNKNOWN, 0.0) for p in PLACES}
    # How sure the board is read, and how much of it, is judged by its first look: what
    # a second one reads, a grid off its print reads too, and choices between outlines
    # go by them.
    read_first = np.array([r.value != UNKNOWN for r in places.values()])
    known = [r.confidence for r in places.values() if r.value != UNKNOWN]
    if in_place and PLACE_MODELS:
        # A hand over part of a place may leave the rest of it in view, and a glint or a
        # tile's side face part of a window: each place left unread is looked at again
        # where the model sees least over it. Only once the grid is checked, which a
        # place read so must not sway, and not on a board with many places unsure,
        # which is more likely off its print than looked at badly.
        again = np.array([r.value == UNKNOWN for r in places.values()]) & ~out_of_frame
        if side_conf < SIDE_SURE:
            again &= np.array([p[0] != "wall" for p in PLACES])
        # Then a place in a shade, still unread or read black, is looked at lightened: in
        # its own windows, so also on a board with many places unsure (an arm's shadow
        # leaves many so), bar the grey wall's there (see _SHADE_RING).
        shaded = again.copy()
        if (again & ~over).sum() > _UNSURE_MOST:
            again &= over
            if side != "colored":
                shaded &= np.array([p[0] != "wall" for p in PLACES])
        looks_again = [
            lambda seen, places: _past_over(looked, seen, again, side, panel_h=board.panel_h,
                                            settled=settled, final=final),
            lambda seen, places: _in_shade(
                looked, seen, np.array([r.value == UNKNOWN for r in places.values()]) & shaded,
                np.array([r.value == "black" and not (side == "grey" and p[0] == "wall")
                          for p, r in places.items()]) & ~out_of_frame,
                side, settled=settled, final=final),
        ]
        seen = features
        for look_again in looks_again:
            rows, new = look_again(seen, places)
            if len(rows):
                seen = seen.copy()
                seen[rows] = new
                places, over_again, said = _read_places(seen, glare, hists, side, covered, cut=cut,
                                                        frame_shown=frame_shown, settled=settled, final=final)
                places = _at_least(_wall_if_side_sure(places, side_conf), sure)
                over |= over_again
        places |= _at_least(said, sure)
    # What the models leave unsure, or read against the board's own empty places, is
    # told by how it looks beside them, in the board's own light.
    unjudged = over | out_of_frame
    if in_place and side == "colored" and side_conf >= SIDE_SURE:
        places = _tile_by_side_face(places, panel, 2 * shift, nudge, unjudged)
        places = _print_on_wall(_white_on_print(places, pixels, unjudged), pixels, unjudged)
    if in_place:
        places = _marker_on_floor(places, pixels, unjudged)
    lines, floor, wall = _board_values(places)
    confidence = board.confidence * side_conf * (min(known) if known else 0.0)
    return BoardReading(side, side_conf, lines, floor, wall, places, sampled, float(confidence),
                        bool((over & ~cut).any()), wb, hists, features, in_place, over, sure, read_first,
                        floor_moved=looked.moved[_FLOOR_ROWS] if looked.floor_placed else None, looks=looked)


def _grid_checked(frame: np.ndarray, board: BoardFind, looked: _Looked, *, places: dict[tuple, Reading],
                  over: np.ndarray, sampled: np.ndarray, side: str) -> bool:
    """Whether a board's wall (its print, or its grey block) lies where its grid puts it."""
    w_img, h_img = looked.size
    # Something over the board hides the print a grid is checked by: where the place model
    # sees a hand or an arm, the print is not judged. Not on an outline out of a board's
    # proportions (cut short by that arm): what is left in view must show the grid is
    # right, and a grey wall, whose plain block a squeezed grid still finds, cannot.
    whole = in_proportion(board.quad, w_img, h_img)
    excused = over & on_board(board, sampled) if whole and over.any() else np.zeros_like(over)
    in_place = _grid_in_place(np.where(excused[:, None], 0.0, looked.hists), side)
    if not in_place and side == "colored" and whole:
        in_place = _print_in_place_by_contrast(looked.pixels, looked.hists.sum(axis=1) > 0, excused)
    if side != "colored":
        in_place = in_place and whole \
            and _grey_wall_in_place(frame, board.panel_h, looked.balance, _gaps_clear(places), excused,
                                    tiled=_tiled(places))
    return in_place


def read_floor_by_print(frame: np.ndarray, board: BoardFind, reading: BoardReading,
                        rough: WhiteBalance) -> BoardReading:
    """A board read in place, its floor read again where the floor's own print shows it
    lies (see _FLOOR_STRIP), if that is elsewhere, and its pattern lines where that puts
    them (see _lines_moved); as it was otherwise."""
    if not reading.grid_in_place:
        return reading
    moved = _floor_by_print(frame, board.panel_h, reading.balance,
                            None if reading.floor_moved is None else reading.floor_moved[:, 0])
    if moved is None:
        return reading
    again = read_board(frame, board, rough, reading.sure, reading.balance,
                       told=(reading.side, reading.side_confidence), floor_moved=moved)
    if not again.grid_in_place:
        return reading
    places = reading.places | {p: again.places[p] for p in PLACES if p[0] in ("line", "floor")}
    sampled = reading.sample_points.copy()
    sampled[_LINE_ROWS] = again.sample_points[_LINE_ROWS]
    sampled[_FLOOR_ROWS] = again.sample_points[_FLOOR_ROWS]
    lines, floor, wall = _board_values(places)
    return dataclasses.replace(reading, places=places, lines=lines, floor=floor, wall=wall,
                               sample_points=sampled, floor_moved=moved,
                               withheld=reading.withheld - {"floor"})


# The parts of a board read whole: each pattern line (its colour and count), the floor
# (filled from the left) and each wall cell.
_PARTS = ([[("line", k, j) for j in range(k + 1)] for k in range(5)] + [[("floor", j) for j in range(7)]]
          + [[p] for p in PLACES if p[0] == "wall"])


# Only a part the first read left unsure of is taken from the settled read, and only if
# it reads more of it: the new models are less sure of some tiles (seed 9 frame 38: a
# yellow tile under glare, the relief look's model 0.92 sure of it, the settled one 0.64)
# and see a hand's shade over some cells, and a board the first read wholly is not read
# again (nine in ten: the time a second read takes). (Each part taken from the settled
# read unless the first read more of it: seed 9 one board fewer exactly and one place
# more surely wrong, the other six seeds as so; taken whole, seeds 7 / 9 / 8 / 2 / 1 / 10
# / 11 2 / 4 / 4 / 1 / 3 / 2 / 0 boards fewer than so, with 0 / 1 / 9 / 1 / 0 / 3 / 3
# fewer places surely wrong.)
def read_settled(frame: np.ndarray, board: BoardFind, reading: BoardReading,
                 rough: WhiteBalance, *, final: bool = False) -> BoardReading:
    """A board whose grid is in place and some of whose places are unread, read again
    with the settled models too (see SETTLED): each part of it (see _PARTS) the read
    again reads more of taken from it. As it was with no such models, or if its grid then
    fails its check (the models see something else over a place, which the check leaves
    out). `final`: the board was read out by the final models (see read_final), which
    read it again, and its grid is not checked again."""
    if not reading.grid_in_place or not any(kind.startswith(SETTLED) for kind in PLACE_MODELS) \
            or all(r.value != UNKNOWN for r in reading.places.values()):
        return reading
    again = _read_looked(frame, board, rough, reading.looks, reading.sure,
                         told=(reading.side, reading.side_confidence), settled=True, final=final)
    if not again.grid_in_place:
        return reading
    places = dict(reading.places)
    for part in _PARTS:
        if part[0][0] not in reading.withheld and sum(again.places[p].value != UNKNOWN for p in part) \
                > sum(places[p].value != UNKNOWN for p in part):
            places.update({p: again.places[p] for p in part})
    lines, floor, wall = _board_values(places)
    return dataclasses.replace(again, places=places, confidence=min(reading.confidence, again.confidence),
                               occluded=again.occluded or reading.occluded, lines=lines, floor=floor,
                               wall=wall, withheld=reading.withheld)


def read_final(frame: np.ndarray, board: BoardFind, reading: BoardReading,
               rough: WhiteBalance) -> BoardReading:
    """A board whose outline, turn, side and grid are chosen, its places read out by the
    final models where there are some (see FINAL), then read with the settled ones too
    (see read_settled). As it was if its grid is not in place."""
    if not reading.grid_in_place:
        return reading
    final = any(FINAL + kind in PLACE_MODELS for kind in BOARD_KINDS)  # (a disc's is no board's)
    # (A side none of whose places has a final model, the grey wall's, would be read as
    # it was: it is not read again.)
    if any(FINAL + place_kind(p, reading.side) in PLACE_MODELS for p in PLACES):
        again = _read_looked(frame, board, rough, reading.looks, reading.sure,
                             told=(reading.side, reading.side_confidence), final=True)
        places = {p: reading.places[p] if p[0] in reading.withheld else r for p, r in again.places.items()}
        lines, floor, wall = _board_values(places)
        reading = dataclasses.replace(again, places=places, lines=lines, floor=floor, wall=wall,
                                      confidence=min(reading.confidence, again.confidence),
                                      occluded=again.occluded or reading.occluded, withheld=reading.withheld)
    return read_settled(frame, board, reading, rough, final=final)


def _board_values(places: dict[tuple, Reading]) -> tuple[list[dict], list, list[list]]:
    """A board's pattern lines (colour and count), floor and wall, as its places read."""
    return ([_line(k, [places[("line", k, p)] for p in range(k + 1)]) for k in range(5)],
            [places[("floor", i)].value for i in range(7)],
            [[places[("wall", r, c)].value for c in range(5)] for r in range(5)])


# A place the frame's edge cuts is read from the part of it in view: its windows moved
# into the frame by up to _NUDGE_MOST crop px across and down, which keeps the sampled
# window (half of it 18 crop px) off the neighbouring cells: their edges lie 45-47 crop px
# from a cell's middle (a cell's half is 39, the pitch 84 x 86 on the wall, 84 on the
# lines). Nudges are tried nearest first, every _NUDGE_STEP crop px: a window centred on
# the frame's edge (a place a fifth cut off, its tile leaning out) is then brought in
# whichever way the edge runs across the board. (Seeds 7 / 9, from up to 18 px in eight
# directions: 9 / 9 more places read, 8 / 8 more boards exact, none read wrong. From 21,
# which kept the window on the cell: floor places 0.52-0.71 in the frame, their windows
# lifted towards a tile's top to where 0.39-0.42 of the cell is, were left unread, seeds
# 9 frames 19 and 121, 7 frame 406. Seeds 7 / 9 / 8 / 2 / 1, +1 / +2 / +2 / +1 / 0 boards
# read exactly, none more surely wrong; of the places the truth hides, 25 / 18 / 22 / 16
# / 18 more read, one of them wrong.)
_NUDGE_MOST = 27
_NUDGE_STEP = 3
_NUDGES = np.array(sorted(((float(x), float(y)) for x in range(-_NUDGE_MOST, _NUDGE_MOST + 1, _NUDGE_STEP)
                           for y in range(-_NUDGE_MOST, _NUDGE_MOST + 1, _NUDGE_STEP)),
                          key=lambda n: np.hypot(*n)))


def _looks(panel: np.ndarray, cells: np.ndarray, lift: np.ndarray,
           moves: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The place model's three looks at places (cell centres, the tile's lift and the
    window's move, crop px): the window where a tile's top shows, a wide window on where
    it would be lifted to, and the printed cell itself (what shows when no tile is
    there). Returns the first window's pixels, their window index, its colour-word
    histograms and glare, and each place's features (see window_features)."""
    s = _SCALE
    pixels, groups = _sample_windows(panel, (cells + lift + moves) * s, _WINDOW_HALF)
    hists, glare = color.histograms(color.word_indices(pixels), groups, len(cells))
    wide = max(4, round(_WIDE_WINDOW * CELL_PX * s / 2))
    features = np.concatenate([window_features(pixels, hists, glare),
                               window_features(*_look(panel, (cells + 2 * lift + moves) * s, wide)),
                               window_features(*_look(panel, (cells + moves) * s, _WINDOW_HALF)),
                               _relief(panel, (cells + lift + moves) * s)], axis=1)
    return pixels, groups, hists, glare, features


# The relief look. A tile stands 7 mm proud of the board: its top is ringed by its edge
# and, beyond that, by its side faces and its shadow, darker than the top; a printed cell
# is flat. Glare, or light washing a frame out, can leave a tile's top the shade of the
# print under it, which the colour looks cannot tell apart, but its relief still shows.
# Round where a tile's top would show, boxes (in cells, across and down from there): the
# middle, a band along each side of the top's edge and one past it (the sides sorted:
# the side faces and the shadow lie on whichever sides the camera and the light put
# them), and a grid of blocks over all of it. (The models fitted again with it, seeds 7 /
# 9 / 8 read 7 / 28 / 24 more boards exactly than the models before; fitted again on the
# same frames without it, seeds 7 / 9 read 5 / 3 fewer.)
_RELIEF_MIDDLE, _RELIEF_EDGE, _RELIEF_PAST, _RELIEF_REACH = 0.3, 0.38, 0.55, 0.72
_RELIEF_BLOCKS = 8


def _relief_boxes() -> np.ndarray:
    """The boxes' corners (x0, y0, x1, y1), panel px from the centre, in _relief's order."""
    def sides(near: float, far: float, along: float) -> list[tuple[float, ...]]:
        return [(-far, -along, -near, along), (near, -along, far, along),
                (-along, -far, along, -near), (-along, near, along, far)]
    m, e, p, r = _RELIEF_MIDDLE, _RELIEF_EDGE, _RELIEF_PAST, _RELIEF_REACH
    step = 2 * r / _RELIEF_BLOCKS
    blocks = [(-r + i * step, -r + j * step, -r + (i + 1) * step, -r + (j + 1) * step)
              for j in range(_RELIEF_BLOCKS) for i in range(_RELIEF_BLOCKS)]
    boxes = [(-m, -m, m, m), *sides(e, p, e), *sides(p, r, p), *blocks]
    return np.round(np.array(boxes) * CELL_PX * _SCALE).astype(int)


_RELIEF_BOXES = _relief_boxes()
_RELIEF_PAD = int(np.abs(_RELIEF_BOXES).max())


def _box_corners(shape: tuple[int, int], at: np.ndarray) -> tuple[np.ndarray, ...]:
    """Where, in a flattened integral image of `shape`, the four corners of each of
    _RELIEF_BOXES round each point (padded panel px) lie: one set of indices serves every
    map summed."""
    h, w = shape[0] - 1, shape[1] - 1
    x0 = np.clip(at[:, :1] + _RELIEF_BOXES[:, 0], 0, w - 1)
    y0 = np.clip(at[:, 1:] + _RELIEF_BOXES[:, 1], 0, h - 1)
    x1 = np.clip(at[:, :1] + _RELIEF_BOXES[:, 2], x0 + 1, w)
    y1 = np.clip(at[:, 1:] + _RELIEF_BOXES[:, 3], y0 + 1, h)
    return y1 * shape[1] + x1, y0 * shape[1] + x1, y1 * shape[1] + x0, y0 * shape[1] + x0


def _relief(panel: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """The relief look at each centre (panel px): the edge strength in the middle, along
    the four sides of the top's edge, and the shade past them, sorted by side; then the
    shade and the edge strength of each block. All as shares of the middle's shade, so
    that light and exposure cancel. Only what is in the frame counts (the panel is black
    beyond it): a box wholly out of it has the middle's shade and no edge."""
    b, g, r = cv2.split(panel)
    shade = cv2.max(cv2.max(b, g), r)
    seen = (shade > 0).view(np.uint8)
    edges = cv2.magnitude(cv2.Sobel(shade, cv2.CV_32F, 1, 0, ksize=3, scale=0.125),
                          cv2.Sobel(shade, cv2.CV_32F, 0, 1, ksize=3, scale=0.125))
    edges_seen = cv2.erode(seen, np.ones((3, 3), np.uint8))  # the frame's own edge is no tile's
    pad = _RELIEF_PAD
    corners = _box_corners((shade.shape[0] + 2 * pad + 1, shade.shape[1] + 2 * pad + 1),
                           np.round(centers).astype(int) + pad)

    def sums(m: np.ndarray) -> np.ndarray:
        # Counts (8-bit masks) sum exactly, and fastest, in 32 bits; shades need 64.
        summed = cv2.integral(cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_REPLICATE),
                              sdepth=cv2.CV_32S if m.dtype == np.uint8 else cv2.CV_64F).ravel()
        x1y1, x1y0, x0y1, x0y0 = (summed[c] for c in corners)
        return x1y1 - x1y0 - x0y1 + x0y0

    shown, edges_shown = sums(seen), sums(edges_seen)
    shades = sums(shade) / np.maximum(shown, 1)
    middle = np.maximum(shades[:, :1], 8.0)
    shades = np.where(shown > 0, shades, middle)
    strengths = sums(edges * edges_seen) / np.maximum(edges_shown, 1)
    return np.concatenate([strengths[:, :1], np.sort(strengths[:, 1:5], axis=1),
                           np.sort(shades[:, 5:9], axis=1), shades[:, 9:], strengths[:, 9:]], axis=1) / middle


# A place left unread is looked at again from windows moved in its cell, every
# _PAST_STEP crop px up to _PAST_MOST across and down (less shows much the same window;
# every 3 px, 200 windows a place rather than 24, read much the same, but a 4000 x 3000
# frame with a hand over a board took 2.7 s rather than 0.6 s, and 0.4 s with no second
# look). The look taken is the one the place model sees least over, if the next least
# agrees on what the place holds and so does the first look, which must give it at least
# _PAST_SAID and _PAST_AHEAD times what it gives any other (nothing over it counted).
# Only places something stands over are looked at again on a board with more than
# _UNSURE_MOST other places unread.
# (First, places something stands over, looked at again before the grid check, seeds
# 7 / 9: 27 / 40 more read right, 8 / 5 more boards exact, none more wrong; of places
# the truth hides, 56 / 54 more read, 4 / 5 of them wrong, all in frames seen occluded.
# Without _PAST_SAID: 15 / 11 more of those wrong; without _PAST_AHEAD, a white tile in
# a hand's shadow, which the first look gave black 0.23 and empty 0.19, was read black.
# Then every place left unread, once the grid is checked: 80 / 82 more read right,
# 37 / 35 more boards exact, 4 / 4 more wrong. Looked at before the check, places read
# so swayed it: a grey board's grid a cell off passed. With no _UNSURE_MOST, a board
# seen at 42 degrees, 8 places unsure, read 7 more wrong. Since places in shade are looked
# at lightened and the relief look read too, the first look need lean less: from 0.15 and
# 1.5 times to 0.1 and 1.2 times, seeds 7 / 9 / 8 / 2 / 1, 0 / +3 / +1 / 0 / +2 boards
# read exactly, 0 / 0 / 1 / 1 / 0 more surely wrong, a tile read as none; of the places
# the truth hides, 14 / 18 / 16 / 13 / 6 more read, 2 / 2 / 0 / 2 / 0 of them wrong, all
# in frames seen occluded. From 1.5 to 1.2 times alone, or to 1.0: seed 9, +2 boards.
# The white tile above, 1.21 times, would pass now; no such place is read wrong on those
# five seeds.)
_PAST_STEP, _PAST_MOST = 9, 18
_PAST_NUDGES = np.array([(float(x), float(y)) for x in range(-_PAST_MOST, _PAST_MOST + 1, _PAST_STEP)
                         for y in range(-_PAST_MOST, _PAST_MOST + 1, _PAST_STEP) if (x, y) != (0, 0)])
_PAST_SAID = 0.1
_PAST_AHEAD = 1.2
_UNSURE_MOST = 6


def _wall_if_side_sure(places: dict[tuple, Reading], side_conf: float) -> dict[tuple, Reading]:
    """The places with the wall unread if the side is unsure: the wall reads differently on each side."""
    if side_conf >= SIDE_SURE:
        return places
    return {p: Reading(UNKNOWN, r.confidence) if p[0] == "wall" else r for p, r in places.items()}


def _at_least(places: dict[tuple, Reading], sure: float | None) -> dict[tuple, Reading]:
    """The places with each read less surely than `sure` (if given) unread."""
    if sure is None:
        return places
    return {p: r if r.confidence >= sure else Reading(UNKNOWN, r.confidence) for p, r in places.items()}


def _past_over(looked: _Looked, first_look: np.ndarray, again: np.ndarray, side: str, *,
               panel_h: np.ndarray, settled: bool, final: bool) -> tuple[np.ndarray, np.ndarray]:
    """Of the places marked in `again`, those a window moved within the cell shows clear
    of whatever stands over them or blurs them, and their features there (see _PAST_STEP)."""
    keep, pick = [], []
    rows = np.flatnonzero(again)
    for i, (features, clear) in zip(rows, _moved_looks(looked, rows, panel_h), strict=True):
        kind = place_kind(PLACES[i], side)
        classes, p = place_probabilities(kind, features, settled=settled, final=final)
        if HIDDEN not in classes:
            continue
        seen_over = np.where(clear, p[:, classes.index(HIDDEN)], np.inf)
        least, next_least = np.argsort(seen_over)[:2]
        if not np.isfinite(seen_over[next_least]):
            continue
        holds = leans_on(place_probabilities(kind, first_look[i:i + 1], settled=settled, final=final)[1][0],
                         classes)
        if holds is not None and holds == int(np.argmax(p[least])) == int(np.argmax(p[next_least])):
            keep.append(i)
            pick.append(features[least])
    return np.array(keep, int), np.array(pick).reshape(len(pick), first_look.shape[1])


def _moved_looks(looked: _Looked, rows: np.ndarray,
                 panel_h: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each place's (rows: their indices) features (see _looks) in each window of
    _PAST_NUDGES, and which of those lie in the frame and show nothing plain and dark;
    looked at once a board (see _Looked)."""
    new = np.array([i for i in rows if i not in looked.seen_past], int)
    if len(new):
        k = len(_PAST_NUDGES)
        moves = looked.nudge[new][:, None, :] + _PAST_NUDGES[None]
        cells, lift = np.repeat(CENTERS[new], k, axis=0), np.repeat(looked.shift[new], k, axis=0)
        *_, features = _looks(looked.panel, cells, lift, moves.reshape(-1, 2))
        clear = _inside(panel_h, cells.reshape(-1, k, 2) + lift.reshape(-1, k, 2) + moves,
                        _WINDOW_HALF / _SCALE, *looked.size) & ~_plain_dark(features).reshape(-1, k)
        looked.seen_past.update({int(i): (features[n * k:(n + 1) * k], clear[n]) for n, i in enumerate(new)})
    return [looked.seen_past[int(i)] for i in rows]


def leans_on(first: np.ndarray, classes: list) -> int | None:
    """The class (its index) a place's first look (`first`: its class probabilities)
    leans on enough for a window moved clear of what lies over part of the place to
    read it: at least _PAST_SAID and _PAST_AHEAD times any other class but something
    over it; None if it leans on none so."""
    said = np.where([c == HIDDEN for c in classes], -1.0, first)
    holds = int(np.argmax(said))
    return holds if said[holds] >= max(_PAST_SAID, _PAST_AHEAD * np.max(np.delete(said, holds))) else None


# A place in a shadow (a hand's, a cup's) is darker all over, print and tile alike. The
# place model, which has seen more of what stands over places in shade than of shaded
# places, reads it as something over it, and a black print shaded as a black tile. Such
# a place, left unread or read black, is looked at once more with its view lightened by
# the shade measured round it: the brightest (_SHADE_TOP percentile) plain pixels
# (channels within _SHADE_PLAIN of each other, as cream, a white cell or a white tile
# are; skin and most sleeves are not) in a ring from _SHADE_RING[0] to _SHADE_RING[1]
# pitches round it, at least _SHADE_SEEN of them and _SHADE_SIDE on each side, brought
# to the cream's own brightness; only a shade from _SHADE_GAIN[0] to _SHADE_GAIN[1]
# times darker is lifted. A place left unread takes what it reads lightened as
# _past_over takes a moved window's; a place read black, what it reads lightened surely
# (a black tile lightened stays black), but not on the grey wall: its cells' ring is
# grey print, which measures up to 1.35 times darker than cream in full light. (Seeds
# 7 / 9 / 8: 6 / 19 / 21 more places read right, 4 / 9 / 5 more boards exact, 0 / 4 / 3
# fewer read wrong, none more; of the places the truth hides, 6 / 4 / 7 more read, 2 /
# 3 / 2 of them wrong, all in frames seen occluded. Every place read, lightened and read
# again, grey wall and all: 30 / 15 more read wrong. Without each side's print needed:
# a red sleeve's shaded edge, lightened, read as three red tiles.) On a board with more
# than _UNSURE_MOST places unsure, whose other places are looked at again only where
# something stands over them, the places in shade are still lightened: seed 9 frame 118,
# the first pattern line's place in the shadow of a hand whose fingers lie over seven
# wall cells. Not the grey wall's there, whose grey print lightens too much: a yellow
# tile read red and an empty cell yellow (seeds 8 and 1, boards half read under an arm).
# (Seeds 7 / 9 / 8 / 2 / 1: 0 / +1 / 0 / 0 / 0 boards read exactly, none more wrong; of
# the places the truth hides, 0 / 1 / 5 / 0 / 0 fewer read, 0 / 1 / 2 / 0 / 0 fewer wrong.)
_SHADE_RING = (0.45, 1.0)
_SHADE_PLAIN = 0.22
_SHADE_TOP = 90
_SHADE_SEEN = 40
_SHADE_SIDE = 6
_SHADE_GAIN = (1.2, 2.6)


def _shade_gain(panel: np.ndarray, center: np.ndarray) -> float | None:
    """How much lighter the print round a place (centre in crop px) would be out of its
    shade; None where too little plain print shows round it to tell."""
    x, y = center * _SCALE
    reach = _SHADE_RING[1] * _PITCH[0] * _SCALE
    h, w = panel.shape[:2]
    x0, x1 = max(0, int(x - reach)), min(w, int(x + reach) + 1)
    y0, y1 = max(0, int(y - reach)), min(h, int(y + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    px = panel[y0:y1, x0:x1]
    dx = np.arange(x0, x1)[None, :] - x
    dy = np.arange(y0, y1)[:, None] - y
    ring = np.maximum(np.abs(dx), np.abs(dy)) >= _SHADE_RING[0] * _PITCH[0] * _SCALE
    b, g, r = px[..., 0], px[..., 1], px[..., 2]  # (reducing over the channels' axis takes 20 times as long)
    top, low = np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)
    plain = ring & (top > 0) & (top - low < _SHADE_PLAIN * top)
    if plain.sum() < _SHADE_SEEN:
        return None
    # Each side of the ring (left, right, above, below) must show plain print: a place
    # beside an arm's edge shows the arm on one side at least.
    across = np.abs(dx) >= np.abs(dy)
    sides = [across & (dx < 0), across & (dx > 0), ~across & (dy < 0), ~across & (dy > 0)]
    if min(int((plain & side).sum()) for side in sides) < _SHADE_SIDE:
        return None
    return max(color.CREAM_RGB) / max(float(np.percentile(top[plain], _SHADE_TOP)), 1.0)


def _in_shade(looked: _Looked, first_look: np.ndarray, unread: np.ndarray, black: np.ndarray, side: str, *,
              settled: bool, final: bool) -> tuple[np.ndarray, np.ndarray]:
    """Of the places marked `unread` or `black`, those in a shade that read otherwise once
    it is lifted, and their features then (see _SHADE_RING)."""
    keep, rows = [], []
    for i in np.flatnonzero(unread | black):
        if int(i) not in looked.seen_lit:  # (looked at once a board, see _Looked)
            gain = _shade_gain(looked.panel, CENTERS[i] + looked.nudge[i])
            in_shade = gain is not None and _SHADE_GAIN[0] <= gain <= _SHADE_GAIN[1]
            looked.seen_lit[int(i)] = _lifted_looks(looked.panel, i, gain, looked.shift, looked.nudge) \
                if in_shade else None
        features = looked.seen_lit[int(i)]
        if features is None:
            continue
        kind = place_kind(PLACES[i], side)
        classes, p = place_probabilities(kind, features, settled=settled, final=final)
        holds = int(np.argmax(p[0]))
        if classes[holds] == HIDDEN:
            continue
        if unread[i]:
            taken = holds == leans_on(place_probabilities(kind, first_look[i:i + 1], settled=settled,
                                                          final=final)[1][0],
                                      classes)
        else:
            taken = classes[holds] != "black" and p[0, holds] >= SURE
        if taken:
            keep.append(i)
            rows.append(features[0])
    return np.array(keep, int), np.array(rows).reshape(len(rows), first_look.shape[1])


def _lifted_looks(panel: np.ndarray, i: int, gain: float, shift: np.ndarray, nudge: np.ndarray) -> np.ndarray:
    """Place i's features (see _looks) on the panel round it made `gain` times lighter."""
    reach = 2 * np.abs(shift[i]) + np.abs(nudge[i]) + CELL_PX  # crop px: every look's window
    # (an even corner: windows are placed by rounding half to even, which an odd shift would change)
    x0, y0 = np.maximum(((CENTERS[i] - reach) * _SCALE).astype(int) // 2 * 2, 0)
    x1, y1 = ((CENTERS[i] + reach) * _SCALE).astype(int) + 1
    lit = cv2.multiply(panel[y0:y1, x0:x1], (gain, gain, gain, 0.0))
    cv2.threshold(lit, 255.0, 255.0, cv2.THRESH_TRUNC, dst=lit)
    at = CENTERS[i:i + 1] - np.array([x0, y0]) / _SCALE
    return _looks(lit, at, shift[i:i + 1], nudge[i:i + 1])[-1]


def _into_frame(panel_h: np.ndarray, centers: np.ndarray, half: float, width: int, height: int) -> np.ndarray:
    """For each window (centre in crop px, `half` its half side), the smallest of _NUDGES
    that puts it all inside the frame; NaN where none does (the place is not seen)."""
    nudge = np.zeros_like(centers)
    cut = ~_inside(panel_h, centers[:, None, :], half, width, height)[:, 0]
    if cut.any():  # only places the frame's edge cuts are nudged
        inside = _inside(panel_h, centers[cut][:, None, :] + _NUDGES[None], half, width, height)
        moved = _NUDGES[inside.argmax(axis=1)]
        moved[~inside.any(axis=1)] = np.nan
        nudge[cut] = moved
    return nudge


# The floor lies farthest of all places from the wall, its first place 50 crop px in from
# the panel's left edge, where the board's blue frame ends. A grid fitted to the wall's
# print, or built from an outline an arm or the frame's edge cut, can lie right on the wall
# and still off along the floor, more the farther from the wall: by half a place and more
# at its first (seeds 7 / 9: 10 of 66 / 5 of 78 grids fitted to the print off by over 40
# crop px there, 2 / 5 of some 1,500 built from an outline; read a place along, or left
# unread). No tile ever lies against the frame's inner edge between the AZUL logo and the
# longest pattern line: it is looked for across _EDGE_REACH at _EDGE_ROWS, where a run of
# the frame's blue (_EDGE_BLUE panel px) gives way to _EDGE_PANEL px of anything else.
# Found in _EDGE_ROWS_LEAST rows on a straight line, it shows where the panel's left edge
# lies at the floor, and each floor place is moved along its row as far as the edge is
# off there, less the nearer it lies to the wall's middle column, where the grid is
# fitted. (Measured on seeds 7 and 9: the edge found
# within 3 crop px of the truth's; of the boards so moved, 11 / 11 floors nearer the
# truth's, 0 / 1 further. Seeds 7 / 9 / 8 / 2 / 1: +3 / -1 / +1 / +1 / 0 boards read
# exactly, 2 / 2 / 0 / 2 / 2 places fewer surely wrong; the one lost, a floor place now
# read where the frame's edge cuts it, was read right from the place beside it. Moved
# down too, by the bonus panel's top edge below the wall: -1 board on seed 9, its edge
# under a leaning tile or a navy sleeve as often as not.) A floor so placed is read
# whatever the grid was fitted to (see _floor_unread_but_empty).
_EDGE_ROWS = np.array([150.0, 190.0, 230.0, 270.0, 310.0, 350.0])  # crop px, down
_EDGE_HALF = 8.0  # crop px: each row's band, up and down
_EDGE_REACH = (-330.0, 130.0)  # crop px across
_EDGE_BLUE, _EDGE_PANEL = 6, 20  # panel px
_EDGE_ROWS_LEAST = 3
_EDGE_STRAIGHT = 4.0  # crop px: the most a row's edge may lie off the line through them all
_FLOOR_ROWS = np.array([i for i, p in enumerate(PLACES) if p[0] == "floor"])
_FLOOR_PIVOT = wall_center(0, 2)[0]
_FLOOR_MOVE_LEAST = 15.0  # crop px: a floor nearer than this to where the grid puts it is not moved


_LINE_ROWS = np.array([i for i, p in enumerate(PLACES) if p[0] == "line"])

# A grid fitted to the wall's print, or built from an outline an arm or the frame's edge
# cut, lies off at the pattern lines as it does at the floor, the more so the farther
# down and left: where the floor is placed off the grid (by the panel's edge or its
# print), each pattern line place is moved as the floor is below it (the floor's moves
# taken along the row at the place), by the share of the way down from the panel's top
# edge to the floor that it lies. (Measured on seeds 5 and 7, of the boards read in place
# whose floor was moved: of their line places, 141 / 304 lay over 15 crop px off, 81 /
# 86 once moved so; 15 / 30 boards' worst place 3 crop px or more nearer, 1 / 0 further
# off. Moved as the plane's map through the wall, unmoved, and the floor would put
# them, 118 / 172, and 5 / 10 boards further off: the wall may lie 20-60 crop px off
# too, a grid's shift its checks allow.)
def _lines_moved(floor_moved: np.ndarray) -> np.ndarray:
    """How far (crop px, across and down) the pattern lines' places lie from where the
    grid puts them, for a floor that lies `floor_moved` off it (see above)."""
    floor, lines = CENTERS[_FLOOR_ROWS], CENTERS[_LINE_ROWS]
    below = np.stack([np.interp(lines[:, 0], floor[:, 0], floor_moved[:, k]) for k in range(2)], axis=1)
    return below * (lines[:, 1:] / floor[:, 1].mean())


def _floor_along(frame: np.ndarray, panel_h: np.ndarray, wb: WhiteBalance) -> np.ndarray | None:
    """How far (crop px, along their row) the floor's places lie from where the grid
    puts them, by the panel's left edge (see _EDGE_ROWS); None if the edge does not show."""
    s = _SCALE
    x0, y0 = _EDGE_REACH[0], _EDGE_ROWS[0] - _EDGE_HALF
    size = (round((_EDGE_REACH[1] - x0) * s), round((_EDGE_ROWS[-1] + _EDGE_HALF - y0) * s))
    to_img = panel_h @ np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1.0]])
    strip = cv2.warpPerspective(frame, np.linalg.inv(to_img), size, flags=cv2.INTER_LINEAR)
    seen = in_frame(to_img, *size, frame.shape[1], frame.shape[0])
    blue = blue_mask(wb.apply_u8(strip)) > 0
    bands = [slice(round((y - _EDGE_HALF - y0) * s), round((y + _EDGE_HALF - y0) * s)) for y in _EDGE_ROWS]
    zero = np.zeros((len(bands), 1), int)
    is_blue = np.hstack([zero, np.cumsum([blue[b].mean(axis=0) > 0.5 for b in bands], axis=1)])
    shown = np.hstack([zero, np.cumsum([seen[b].all(axis=0) for b in bands], axis=1)])
    n_blue, n_panel = _EDGE_BLUE, _EDGE_PANEL
    i = np.arange(n_blue, size[0] - n_panel + 1)
    edge = ((is_blue[:, i] - is_blue[:, i - n_blue] == n_blue) & (is_blue[:, i + n_panel] == is_blue[:, i])
            & (shown[:, i + n_panel] - shown[:, i - n_blue] == n_blue + n_panel))
    found = edge.any(axis=1)
    if found.sum() < _EDGE_ROWS_LEAST:
        return None
    rows = _EDGE_ROWS[found]
    edges = x0 + i[len(i) - 1 - np.argmax(edge[found, ::-1], axis=1)] / s  # each row's last edge
    slope = np.dot(rows - rows.mean(), edges - edges.mean()) / np.dot(rows - rows.mean(), rows - rows.mean())
    if np.abs(edges.mean() + slope * (rows - rows.mean()) - edges).max() > _EDGE_STRAIGHT:
        return None
    off = edges.mean() + slope * (floor_center(0)[1] - rows.mean())  # the edge at the floor's row
    return off * (1 - CENTERS[_FLOOR_ROWS, 0] / _FLOOR_PIVOT)


# The floor's own print places it where the panel's edge cannot (a sleeve over it, or a
# grid off down as well as along, or off in perspective: seed 8 frames 42 and 456, read
# three and two tiles a place along). It shows round the tiles: the seven labels (-1 -1
# -2 -2 -2 -3 -3, dark grey ink 55 crop px above each place's centre, above the tiles),
# the bonus panel's blue edges (65 crop px right of the last place, 75 above the places'
# centres) and the frame's (50 crop px left of the first place, 55 below the places).
# Each is looked for as a box where it should show against boxes where it should not (a
# label against the cream between the labels and above them; the blue against the cream
# inside its edge), over moves of the floor across and down, pitches of its places and
# slopes of its row, and the floor is placed where they show best, if each shows
# (_FLOOR_SHOWN) and far better than where the floor lies now (_FLOOR_BETTER); then each
# place is moved along its row to its own label, where that shows clearly near (the fit
# lays the places evenly; a grid off its board is off in perspective too). A floor whose
# print shows where it lies (_FLOOR_IN_PLACE: three in four) is not searched for.
# Measured on seeds 5 and 7 (frames 0-399 and 0-499) against the truth's floor: of the
# boards read in place whose floor lay more than 20 crop px off, 6 of 29 / 17 of 33
# placed within 10 crop px, and of the 74 boards moved, one further off (13.7 -> 22.4
# crop px at its worst place); without the margin, 334 moved, 75 further off. The
# frame's least, 0.1, places 4 floors more than 0.3 on seed 7 and none off. Not moved up
# more than 40 crop px: past that the labels would lie on the last pattern line's
# squares, whose tiles' dark gaps lie a place apart as the labels do (seed 11 frame 308,
# the bonus panel out of the frame and a navy sleeve beside the board: a floor read 100
# crop px up); on seeds 5 and 7 no floor lay more than 28 up.
_FLOOR_STRIP = (-160.0, 380.0, 940.0, 780.0)  # crop px: x0, y0, x1, y1 looked in (all a fit reaches)
_FLOOR_INK = 25  # how much darker than round it (8-bit grey) a label's stroke shows ...
_FLOOR_INK_GREY = 60  # ... and how grey (its most and least of B, G, R apart) at most
_INK_ROUND = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))  # strip px: wider than a stroke
_LABEL_ABOVE, _LABEL_CLEAR = 55.0, 18.0  # crop px: a label above its place; cream above the label
_LABEL_BOX = (20, 14)  # crop px
_BONUS_LEFT, _BONUS_TOP = 65.0, -75.0  # crop px from the last place's centre
_FRAME_LEFT, _FRAME_BOTTOM = -50.0, 55.0  # crop px from the first place's centre
_EDGE_SIDE = 12.0  # crop px: each side of an edge looked at this far from it
_EDGE_BOX_TALL, _EDGE_BOX_WIDE = (16, 100), (190, 16)  # crop px
_FLOOR_SHIFTS = (np.arange(-90.0, 91.0, 10.0), np.arange(-40.0, 121.0, 8.0),  # crop px across, down
                 np.linspace(0.86, 1.14, 6), np.array([-6.0, 0.0, 6.0]))  # pitch; crop px down a place
_FLOOR_FINE = (np.arange(-6.0, 7.0, 2.0), np.arange(-4.0, 5.0, 2.0), np.linspace(-0.028, 0.028, 5),
               np.arange(-3.0, 3.1, 1.5))
_FLOOR_WEIGHTS = np.array([1.0, 0.5, 0.5])  # of the labels, the bonus panel and the frame
_FLOOR_SHOWN = (0.2, 0.3, 0.1)  # the least the labels, the bonus panel and the frame may show
_FLOOR_IN_PLACE = (0.3, 0.3, 0.3)  # a floor whose print shows so much where it lies is not searched for
_FLOOR_BETTER = 0.3  # how much better than where the floor lies now its print must show
_LABEL_NEAR = (16.0, 8.0)  # crop px across and down: how far from the fit a place's own label is looked for
_LABEL_PEAK = 0.35  # how clearly a place's own label must show to move it
_ROUND_FLOOR = 36.0  # crop px past the bonus panel's top, the frame's edge and the boxes that the looks reach
_FLOOR_PAD = 8  # strip px of nothing round the strip, past which no box looked at reaches


_ALONG = CENTERS[_FLOOR_ROWS, 0] - CENTERS[_FLOOR_ROWS[3], 0]  # crop px along the floor from its middle place
_MIDDLE = (CENTERS[_FLOOR_ROWS[3], 0], CENTERS[_FLOOR_ROWS[0], 1])
_PLACE_STEPS = _ALONG / (_MIDDLE[0] - CENTERS[_FLOOR_ROWS[2], 0])  # places from the middle one


def _floor_by_print(frame: np.ndarray, panel_h: np.ndarray, wb: WhiteBalance,
                    along: np.ndarray | None) -> np.ndarray | None:
    """How far (crop px, across and down) each floor place lies from where the grid puts
    it, by the floor's print (see _FLOOR_STRIP); None where the print does not show it
    clearly, or shows it where it lies now (moved by `along`, see _floor_along)."""
    now = CENTERS[_FLOOR_ROWS, 0] + (0.0 if along is None else along)
    pitch, at = np.polyfit(_ALONG, now, 1)
    here = (np.array([at - _MIDDLE[0]]), np.zeros(1), np.array([pitch]), np.zeros(1))
    was = _FloorPrint.seen_in(frame, panel_h, wb, _round_floor(at, pitch)).shows(here)[:, 0]
    if (was >= _FLOOR_IN_PLACE).all():
        return None
    found = _floor_fit(_FloorPrint.seen_in(frame, panel_h, wb, _FLOOR_STRIP), was)
    if found is None:
        return None
    moved = found - CENTERS[_FLOOR_ROWS]
    return moved if np.abs(found[:, 0] - now).max() >= _FLOOR_MOVE_LEAST \
        or np.abs(moved[:, 1]).max() >= _FLOOR_MOVE_LEAST else None


def _round_floor(at: float, pitch: float) -> tuple[float, float, float, float]:
    """The part of _FLOOR_STRIP (x0, y0, x1, y1, crop px) in which the print shows whether
    the floor lies with its middle place `at` across, its places `pitch` crop px apart:
    whether it does is seen in the rows round it alone, which is all most boards need
    (from above the bonus panel to below the frame's edge, with room for the boxes and the
    ink's look), and so across (from the frame's edge left of the first place to the far
    end of the box right of the bonus panel's edge). Its left and top lie a whole strip px
    from _FLOOR_STRIP's, so that it sees the same pixels."""
    x0, y0, x1, y1 = _FLOOR_STRIP
    first, last = at + pitch * _ALONG[[0, -1]]
    left = first + _FRAME_LEFT * pitch - _EDGE_SIDE - _EDGE_BOX_TALL[0] / 2 - _ROUND_FLOOR
    right = last + _BONUS_LEFT * pitch + _EDGE_BOX_WIDE[0] + _EDGE_SIDE + _ROUND_FLOOR
    top = _MIDDLE[1] + _BONUS_TOP * pitch - _ROUND_FLOOR
    return (x0 + 2 * max(0, (left - x0) // 2), y0 + 2 * max(0, (top - y0) // 2),
            min(x1, right), min(y1, _MIDDLE[1] + _FRAME_BOTTOM * pitch + _ROUND_FLOOR))


def _floor_places(dx: np.ndarray, dy: np.ndarray, pitch: np.ndarray,
                  slope: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The floor's places (crop px, across and down; along the last axis) with the middle
    one moved by dx, dy, the places `pitch` times as far apart and each `slope` further
    down than the one before, for each fit (the four broadcast together)."""
    return ((_MIDDLE[0] + dx)[..., None] + pitch[..., None] * _ALONG,
            (_MIDDLE[1] + dy)[..., None] + slope[..., None] * _PLACE_STEPS)


class _FloorPrint:
    """What of the floor's print the balanced panel shows over part of _FLOOR_STRIP, at
    _SCALE: where the labels' ink shows, and how the blue's edges do."""

    def __init__(self, strip: np.ndarray, seen: np.ndarray, origin: tuple[float, float]):
        s = _SCALE
        self.origin = origin
        dark = cv2.morphologyEx(cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY), cv2.MORPH_BLACKHAT, _INK_ROUND)
        b, g, r = cv2.split(strip)
        tint = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
        ink = ((dark > _FLOOR_INK) & (tint < _FLOOR_INK_GREY) & seen).astype(np.float32)
        blue = ((blue_mask(strip) > 0) & seen).astype(np.float32)
        pad, side = _FLOOR_PAD, round(_EDGE_SIDE * s)

        def box_means(mask: np.ndarray, box: tuple[int, int]) -> np.ndarray:
            """Each box's mean at every pixel of the strip, and 0 round it out to `pad`."""
            means = cv2.boxFilter(mask, -1, (max(1, round(box[0] * s)), max(1, round(box[1] * s))),
                                  borderType=cv2.BORDER_CONSTANT)
            return np.pad(means, pad)

        def across(means: np.ndarray) -> np.ndarray:
            """How much more a box shows right of each pixel than left of it."""
            out = np.zeros_like(means)
            out[:, side:-side] = means[:, 2 * side:] - means[:, :-2 * side]
            return out

        def down(means: np.ndarray) -> np.ndarray:
            """How much more a box shows below each pixel than above it."""
            out = np.zeros_like(means)
            out[side:-side] = means[2 * side:] - means[:-2 * side]
            return out

        labels_at = box_means(ink, _LABEL_BOX)
        clear = round(_LABEL_CLEAR * s)
        self.labels = labels_at.copy()
        self.labels[clear:] -= 0.5 * labels_at[:-clear]  # a label has cream above it
        self.maps = [m.ravel() for m in (self.labels, labels_at, across(box_means(blue, _EDGE_BOX_TALL)),
                                         down(box_means(blue, _EDGE_BOX_WIDE)))]

    @classmethod
    def seen_in(cls, frame: np.ndarray, panel_h: np.ndarray, wb: WhiteBalance,
                box: tuple[float, float, float, float]) -> _FloorPrint:
        """The print over `box` (x0, y0, x1, y1, crop px) of _FLOOR_STRIP in a frame."""
        s = _SCALE
        x0, y0, x1, y1 = box
        size = (round((x1 - x0) * s), round((y1 - y0) * s))
        to_img = panel_h @ np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1.0]])
        strip = wb.apply_u8(cv2.warpPerspective(frame, np.linalg.inv(to_img), size, flags=cv2.INTER_LINEAR))
        return cls(strip, in_frame(to_img, *size, frame.shape[1], frame.shape[0]), (x0, y0))

    def index(self, x: np.ndarray | float, y: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
        """The pixel (column, row) of the padded maps at crop px (x, y)."""
        ix = ((x - self.origin[0]) * _SCALE + (_FLOOR_PAD + 0.5)).astype(np.intp)
        iy = ((y - self.origin[1]) * _SCALE + (_FLOOR_PAD + 0.5)).astype(np.intp)
        return ix, iy

    def at(self, which: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ix, iy = self.index(x, y)
        return self.maps[which][iy * self.labels.shape[1] + ix]

    def shows(self, grid: tuple[np.ndarray, ...]) -> np.ndarray:
        """How clearly the labels, the bonus panel and the frame show (3 x fits) at each
        fit of a grid (dx, dy, pitch, slope: each a 1-d array of values, the fits all
        their combinations, in the order of np.meshgrid's "ij"; see _floor_places). What
        lies across depends on dx and the pitch alone, so it is worked out once for each."""
        shape = [len(v) for v in grid]
        dx, dy, pitch, slope = (np.reshape(v, [n if k == j else 1 for k, n in enumerate(shape)])
                                for j, v in enumerate(grid))
        xs, ys = _floor_places(dx, dy, pitch, slope)
        label_y = ys - _LABEL_ABOVE * pitch[..., None]
        between = (xs[..., :-1] + xs[..., 1:]) / 2, (label_y[..., :-1] + label_y[..., 1:]) / 2
        labels = self.at(0, xs, label_y).mean(axis=-1) - 0.5 * self.at(1, *between).mean(axis=-1)
        bonus_x, bonus_y = xs[..., -1] + _BONUS_LEFT * pitch, ys[..., -1] + _BONUS_TOP * pitch
        bonus = (self.at(2, bonus_x, bonus_y + _EDGE_BOX_TALL[1] / 2 + _EDGE_SIDE)
                 + self.at(3, bonus_x + _EDGE_BOX_WIDE[0] / 2 + _EDGE_SIDE, bonus_y)) / 2
        frame_x, frame_y = xs[..., 0] + _FRAME_LEFT * pitch, ys + _FRAME_BOTTOM * pitch[..., None]
        frame_shows = (-self.at(2, frame_x, ys[..., 0])
                       + self.at(3, xs[..., 1:6:2], frame_y[..., 1:6:2]).mean(axis=-1)) / 2
        return np.array([np.broadcast_to(part, shape).ravel() for part in (labels, bonus, frame_shows)])


def _floor_fit(print_: _FloorPrint, was: np.ndarray) -> np.ndarray | None:
    """Where the floor's places lie (crop px), by its print, if it shows them clearly
    and far better than where they lie now (which shows `was`, see _FloorPrint.shows)."""

    def best(grid: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
        parts = print_.shows(grid)
        i = int(np.argmax(_FLOOR_WEIGHTS @ parts))
        at = np.unravel_index(i, [len(v) for v in grid])
        return np.array([v[k] for v, k in zip(grid, at, strict=True)]), parts[:, i]

    coarse, _ = best(_FLOOR_SHIFTS)
    fit, parts = best(tuple(c + fine for c, fine in zip(coarse, _FLOOR_FINE, strict=True)))
    if (parts < _FLOOR_SHOWN).any() or _FLOOR_WEIGHTS @ (parts - was) <= _FLOOR_BETTER:
        return None
    xs, ys = _floor_places(*fit[:, None])
    found = np.column_stack([xs[0], ys[0]])
    # The fit lays the places evenly; a grid off its board is off in perspective too, so
    # each place is then moved to its own label, where that shows clearly near.
    reach = np.round(np.array(_LABEL_NEAR) * _SCALE).astype(int)
    for k, (x, y) in enumerate(found):
        ix, iy = print_.index(x, y - _LABEL_ABOVE * fit[2])
        near = print_.labels[iy - reach[1]:iy + reach[1] + 1, ix - reach[0]:ix + reach[0] + 1]
        j, i = np.unravel_index(np.argmax(near), near.shape)
        if near[j, i] >= _LABEL_PEAK:
            found[k, 0] += (i - reach[0]) / _SCALE
    return found


def _inside(panel_h: np.ndarray, centers: np.ndarray, half: float, width: int, height: int) -> np.ndarray:
    """Whether each window (centres in crop px, any shape ending in 2) lies all in the frame."""
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half
    img = apply_h(panel_h, (centers[..., None, :] + corners).reshape(-1, 2))
    img = img.reshape(*centers.shape[:-1], 4, 2)
    return ((img >= 0).all(axis=-1) & (img[..., 0] <= width - 1) & (img[..., 1] <= height - 1)).all(axis=-1)


# The grey side has no coloured print to check a grid by, but its wall is as plain a
# structure: a block of grey cells (or tiles) set in the panel's cream. Cream lies in
# the gap between the pattern lines' ends and the wall (between the small triangles)
# and in the strip under the wall, above the floor's labels (crop px).
_GREY_GAPS = np.array([(450.0, 100.0 + 86 * k) for k in range(4)]
                      + [(512.0 + 84 * c, 460.0) for c in range(5)])
_GAP_HALF = 12  # crop px: inside the gap, clear of the triangles, the cells and the labels
# Right of the wall and above it lies the board's blue frame, darker than any cream.
_GREY_RIM = np.array([(916.0, 57.0 + 86 * r) for r in range(5)] + [(512.0 + 84 * c, -17.0) for c in range(5)])
# Lightness (luma) relative to the panel's cream, which the board's balance sets to
# CREAM_RGB: empty grey cells show about 0.74 of it, tiles less (a white tile's teal
# star too: about 0.8, though seen steeply under glare 0.95), the cream 0.95-1.0 (its
# veins and a tile's shadow darken some).
_CREAM_LUMA = float(np.dot(color.CREAM_RGB, (0.299, 0.587, 0.114)))
_GREY_CELL_LIGHT = 0.92  # a wall window this light is no grey cell nor a tile
_GREY_LIGHT_MOST = 3  # wall windows that light the grid may have (glare, a tile's pale side)
_GAP_DARK = 0.8  # a gap window this dark is no cream
_GAP_DARK_SHARE = 2 / 3  # ... and a grid in place has at most this share of them dark
# Dark, that is, in the light the panel's cream was measured in. An arm's shade over the
# wall darkens the cream beside it too (seed 7, frame 348: the gaps 0.62-0.70, the grid
# taken off and 27 places left unknown), so the gaps are judged in the wall's own light:
# its lighter quarter of windows, mostly empty cells, shows about _GREY_CELL_LUMA of the
# cream there.
# (Tiles are darker, a white one seen steeply as light: neither makes the light look dimmer
# than it is, and a grid off the block, on the cream, fails the light-windows check first.)
_GREY_CELL_LUMA = 0.74
_SHADE_QUANTILE = 0.75
_SHADE_CELLS = 8  # wall windows in view needed to judge the light by
# Gap windows in view needed to judge by them: more than the strip's five. The strip
# under the wall is narrow (30 crop px between its last row and the bonus box): a grid a
# few mm off, which the outline allows, puts its windows on the box or the cells. Only
# with a gap between the lines and the wall among them do dark windows tell a grid off.
_GAPS_JUDGED = 6
# A tile stands 7 mm tall: seen obliquely, its top face and a side lean off its cell
# over the cream next to it, and lit obliquely, it shades it. The places next to each
# gap window: the pattern lines' ends either side of a gap between the triangles, the
# wall's last row above the strip. (Not the wall's first column: a grid a cell off to
# the left reads it from the gap itself, where a line's end tile leans, and would excuse
# the gaps it has moved onto the tiles.)
_GAP_NEIGHBOURS = ([[("line", k, 0), ("line", k + 1, 0)] for k in range(4)]
                   + [[("wall", 4, c)] for c in range(5)])
# A grid a cell off still sees mostly grey cells and cream where it looks; the grid
# moved back by that cell fits the block clearly better: by this many windows more.
_NEIGHBOUR_BETTER = 2
_GREY_MARGIN = 120  # crop px seen round the panel: a cell and a window past the rim
_GREY_SCALE = 0.25  # of the crop: a window's median lightness needs few pixels


def _grey_wall_in_place(frame: np.ndarray, panel_h: np.ndarray, wb: WhiteBalance, clear: np.ndarray,
                        over: np.ndarray, *, tiled: np.ndarray) -> bool:
    """Whether a grey wall's grid lies on the board's grey block: its cells darker than
    the cream, the cream round it where the grid puts it, and no grid a cell away
    fitting the block clearly better (`clear`: the cream's windows with no tile by them;
    `over`: the places something stands over, whose windows are not judged; `tiled`:
    the places read surely as tiles, whose wall windows are not judged either where
    they show as light as the cream).
    A grid off (a board rebuilt wrong round an arm, a mat or the frame's edge) sees
    cream or the table in wall cells, or cells and tiles in the cream."""
    luma = _luma_view(frame, panel_h, wb)
    steps = np.array([(0.0, 0.0), (_PITCH[0], 0.0), (-_PITCH[0], 0.0), (0.0, _PITCH[1]), (0.0, -_PITCH[1])])
    wall = luma((CENTERS[_WALL_ROWS][None] + steps[:, None]).reshape(-1, 2)).reshape(len(steps), -1)
    gaps = luma((_GREY_GAPS[None] + steps[:, None]).reshape(-1, 2), _GAP_HALF).reshape(len(steps), -1)
    rim = luma((_GREY_RIM[None] + steps[:, None]).reshape(-1, 2), _GAP_HALF).reshape(len(steps), -1)
    # What something stands over shows it, not the board: not judged. Nor is a tile read
    # surely that shows as light as the cream (a white one, seen steeply under glare):
    # it shows itself, not the cell. (Darker tiles fit the block as its cells do, and
    # tell a grid a cell off: they are judged.)
    wall[0, over[_WALL_ROWS] | (tiled[_WALL_ROWS] & (wall[0] >= _GREY_CELL_LIGHT))] = np.nan
    gaps[0, _beside(_GAP_PLACES, over)] = np.nan
    rim[0, _beside(_RIM_PLACES, over)] = np.nan
    if (wall[0] >= _GREY_CELL_LIGHT).sum() > _GREY_LIGHT_MOST:
        return False
    shade = _shade(wall[0])
    dark = _GAP_DARK * shade
    gap_dark = _GAP_DARK * _gap_shades(wall, shade)
    gaps[:, ~clear] = np.nan
    judged = np.isfinite(gaps[0])
    if judged.sum() >= _GAPS_JUDGED and (gaps[0][judged] < gap_dark[0][judged]).mean() > _GAP_DARK_SHARE:
        return False
    here, *moved = [_grey_fit(w, g, r, dark=dark, gap_dark=d)
                    for w, g, r, d in zip(wall, gaps, rim, gap_dark, strict=True)]
    for there in moved:
        both = np.isfinite(here) & np.isfinite(there)
        if there[both].sum() >= here[both].sum() + _NEIGHBOUR_BETTER:
            return False
    return True


# The places round each gap and rim window: something over one of them may be over the window too.
_GAP_PLACES = ([[("line", k, 0), ("line", k + 1, 0), ("wall", k, 0), ("wall", k + 1, 0)] for k in range(4)]
               + [[("wall", 4, c)] for c in range(5)])
_RIM_PLACES = [[("wall", r, 4)] for r in range(5)] + [[("wall", 0, c)] for c in range(5)]


def _beside(windows: list[list[tuple]], over: np.ndarray) -> np.ndarray:
    """Which windows have a place something stands over beside them."""
    return np.array([any(over[PLACES.index(p)] for p in near) for near in windows])


# A tile read beside a gap window excuses it only this surely: read less surely, it may
# be the grid's error (a grid off reads tiles in the cream's windows; seed 1, frame 150:
# a pattern line read 0.85 sure, the place models averaged, let a grid a cell off pass).
_EXCUSE_SURE = 0.9


def _gaps_clear(places: dict[tuple, Reading]) -> np.ndarray:
    """Which gap windows have no tile read surely next to them. A place left unread
    (under a hand, say) excuses no dark window: a grid off reads most places so."""
    return np.array([all(places[p].value in (None, UNKNOWN) or places[p].confidence < _EXCUSE_SURE
                         for p in near) for near in _GAP_NEIGHBOURS])


def _tiled(places: dict[tuple, Reading]) -> np.ndarray:
    """Which places hold a tile read surely (a white one may show as light as the cream)."""
    return np.array([places[p].value not in (None, UNKNOWN) and places[p].confidence >= _EXCUSE_SURE
                     for p in PLACES])


# The light falls off across a board (a lamp to one side): each gap window is judged in
# the light of the four wall cells round it, by the lightest of them (tiles are darker,
# bar a white one, which asks more of the gap, not less), unless even that one is
# darker than _LOCAL_LEAST of an empty cell in the wall's light, and then in the wall's
# light, as before: such cells are tiles, or something over them, more likely than a
# shade. (Seed 11 frame 85: the wall's left and lower cells 0.58-0.66 of the cream, its
# others 0.74, the gaps by them 0.78-0.88, judged dark: the grid was taken off and the
# board left unread. From 0.6, seed 2 frame 181: a hand over a grey wall, its lightest
# cell by a gap 0.47, let a grid off it pass, and 12 places were read surely wrong.)
_GAP_CELLS = ([[(k, 0), (k + 1, 0), (k, 1), (k + 1, 1)] for k in range(4)]
              + [[(4, c - 1), (4, c), (4, c + 1), (3, c)] for c in range(5)])
# (A cell past the wall's edge is the 26th window, out of view.)
_GAP_CELL_INDEX = np.array([[r * 5 + c if 0 <= c < 5 else 25 for r, c in near] for near in _GAP_CELLS])
_LOCAL_LEAST = 0.7


def _gap_shades(wall: np.ndarray, shade: float) -> np.ndarray:
    """Each gap window's light (see _shade), for each grid tried (a row of `wall`'s)."""
    seen = np.concatenate([wall, np.full((len(wall), 1), np.nan)], axis=1)[:, _GAP_CELL_INDEX]
    light = np.max(np.where(np.isfinite(seen), seen, -1.0), axis=2) / _GREY_CELL_LUMA
    return np.where(light >= _LOCAL_LEAST, np.minimum(light, 1.0), shade)


def _shade(wall: np.ndarray) -> float:
    """How much darker than the cream the light the wall lies in is (1: as light): by
    its lighter cells, empty ones, which show _GREY_CELL_LUMA of the cream in its light."""
    seen = wall[np.isfinite(wall)]
    if len(seen) < _SHADE_CELLS:
        return 1.0
    return min(1.0, float(np.quantile(seen, _SHADE_QUANTILE)) / _GREY_CELL_LUMA)


def _grey_fit(wall: np.ndarray, gaps: np.ndarray, rim: np.ndarray, *, dark: float,
              gap_dark: np.ndarray) -> np.ndarray:
    """Each window's fit to the grey block: 1 for a wall window darker than the cream, a
    gap window as light as it (than `gap_dark`, each in its own light) and a window on
    the frame darker (than `dark`: the lightness no cream shows in the wall's light),
    else 0; NaN where the window is out of the frame or not judged."""
    fit = np.concatenate([wall < _GREY_CELL_LIGHT, gaps >= gap_dark, rim < dark]).astype(np.float64)
    fit[~np.isfinite(np.concatenate([wall, gaps, rim]))] = np.nan
    return fit


def _luma_view(frame: np.ndarray, panel_h: np.ndarray,
               wb: WhiteBalance) -> Callable[..., np.ndarray]:
    """The panel and _GREY_MARGIN round it, balanced, at _GREY_SCALE: a function giving
    the median lightness (relative to the cream) of windows round points (crop px), NaN
    for a window that runs out of the frame."""
    s, m = _GREY_SCALE, _GREY_MARGIN
    w, h = round((PANEL_W_PX + 2 * m) * s), round((PANEL_H_PX + 2 * m) * s)
    to_img = panel_h @ np.array([[1 / s, 0, -m], [0, 1 / s, -m], [0, 0, 1.0]])
    view = wb.apply_u8(cv2.warpPerspective(frame, np.linalg.inv(to_img), (w, h), flags=cv2.INTER_LINEAR))
    view = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)  # luma: 0.299 R + 0.587 G + 0.114 B
    seen = in_frame(to_img, w, h, frame.shape[1], frame.shape[0])

    def luma(points: np.ndarray, half: float = _WINDOW * CELL_PX / 2) -> np.ndarray:
        at = (points + m) * s
        r = max(2, round(half * s))
        pixels, _ = _sample_windows(view, at, r)
        box = np.array([[-r, -r], [r - 1, -r], [-r, r - 1], [r - 1, r - 1]])
        corners = np.clip(np.round(at).astype(int)[:, None, :] + box, 0, (w - 1, h - 1))
        lightness = np.median(pixels.reshape(len(points), -1), axis=1) / _CREAM_LUMA
        return np.where(seen[corners[..., 1], corners[..., 0]].all(axis=1), lightness, np.nan)

    return luma


def read_registered(frame: np.ndarray, board: BoardFind, rough: WhiteBalance,
                    cream: WhiteBalance | None = None,
                    middle: np.ndarray | None = None) -> tuple[BoardFind, BoardReading] | None:
    """A board read where its print is. When the grid found from the board's outline is off
    the print (the outline rebuilt wrong round an arm or the frame's edge), or is on a
    coloured wall whose print it shows only weakly (off by part of a cell, or
    stretched), or shows it clearly but leaves places unread (off towards a corner), the
    coloured wall's print is searched for round it and the board read there if the print
    is clear there (and, for a grid that showed it clearly, more places read). A board
    seen near 45 degrees, or turned by its strip only faintly, whose grid is off the
    print is also tried at its other turns. A grid off the print is left unread only when
    no placement shows the print. A board whose turn its strip does not tell (something
    over it) is read at the turn whose grid shows the coloured print clearly; failing
    that, a grey board at the turn that faces `middle`, the table's middle (image px), if
    its grid fits a grey wall there (see _facing_middle); with neither, it is no board
    (None). `cream`, when given, balances the panel (see read_board)."""
    if not board.turn_told:
        told = _turned_to_print(frame, board, rough, (0, 1, 2, 3), cream, round_a_hand=True)
        if told is None and middle is not None:
            told = _facing_middle(frame, board, rough, cream, middle)
        if told is None:
            return None
        other, again = told
        # whatever hides the strip stands over the board
        return (dataclasses.replace(other, turn_told=True, confidence=_PRINT_TURN_SURE),
                dataclasses.replace(again, occluded=True))
    reading = read_board(frame, board, rough, cream=cream)
    if reading.grid_in_place and (reading.side != "colored" or _print_clear(reading)):
        if shows_print(reading) and places_unread(reading):
            # A grid that shows the print clearly may still lie off it towards a corner,
            # its places there unread: moved onto the print, it is taken if the print
            # shows clearly better and it reads more places (see _PRINT_BETTER).
            found = _moved_to_print(frame, board, rough, cream)
            if found is not None and _print_better(found[1], reading) \
                    and places_unread(found[1]) < places_unread(reading):
                return _read_moved(found)
        return board, reading
    # A grid off the print may have been rebuilt round a hand, which may hide much of the
    # wall too: the print found is then judged on the cells in view.
    found = _moved_to_print(frame, board, rough, cream, in_view=not reading.grid_in_place)
    # A grid that passed the check is given up only for one that shows the print
    # clearly better: the same print found again is no reason to read less surely.
    if found is not None and (not reading.grid_in_place
                              or _print_better(found[1], reading)):
        return _read_moved(found)
    if reading.grid_in_place and reading.side == "colored":
        if _print_shown(reading) < _PRINT_FAINT:
            # Hardly any print where the grid puts it: the check passed on noise, and the
            # board may be turned wrong (its panel on the score track or the pattern lines);
            # a grey board too (seed 1: a grid a quarter turn off read 8 places surely wrong).
            told = _turned_to_print(frame, board, rough, (1, 3, 2), cream, or_grey=True,
                                    or_better=_print_shown(reading))
            if told is not None:
                return told
        # The print shows only weakly where the grid puts it and clearly nowhere near: the
        # grid may be off by part of a cell, so its places are read as surely as a moved one's.
        return board, read_board(frame, board, rough, _MOVED_SURE, cream)
    if not reading.grid_in_place and _near_diagonal(board):
        # Seen near 45 degrees, a board's strip (which tells its owner's top) may be
        # misjudged. Turned wrong, its wall lies off the print (the panel is the board's
        # lower part): a turn whose grid shows the coloured print clearly is the board's.
        # (Only the coloured print: the grey check, and a coloured one passed only weakly,
        # let wrong turns through over the pattern lines' tiles.) Failing that, a grey
        # board turned wrong reads as a coloured one off its print: the one turn whose
        # grid fits a grey wall read surely as grey, with nothing over the board, is the
        # board's. (An arm over a coloured board's cream washes its print out under the
        # board's own balance: at a wrong turn it fitted a grey wall, seed 7.) Not where
        # something lies over the board's frame: what lies over a grid at one turn may
        # lie off it at another (seed 11 frame 428: a sleeve across a grey wall, the
        # strip's turn right; a quarter turn off, the pattern lines' tiles fitted a grey
        # wall, and 16 places were read surely wrong). Only here, where the grid failed
        # at the turn found: a blurred frame under glare does not show blue all round
        # either (seed 1 frame 69: a grey board found a quarter turn off, its print faint
        # there, turned to where its grid fits a grey wall and read exactly). Nor by
        # what the place model sees over the grid that failed: a wrong turn's grid sees
        # tiles as something over it (seeds 11 and 8: 4 boards turned right no more).
        told = _turned_to_print(frame, board, rough, (1, 3, 2), cream,
                                or_grey=_frame_shown(frame, board, rough))
        if told is not None:
            return told
    elif not reading.grid_in_place and board.confidence < _TURN_WEAK:
        # A strip told faintly (a hand over part of it) can turn a board wrong at any
        # angle (seed 11 frame 389: a quarter off at 0.17, its places left unread): it is
        # tried at its other turns too, by the coloured print alone.
        told = _turned_to_print(frame, board, rough, (1, 3, 2), cream)
        if told is not None:
            return told
    return board, reading


_TURN_WEAK = 0.5  # a board's turn told less surely than this may be wrong at any angle


def _frame_shown(frame: np.ndarray, board: BoardFind, rough: WhiteBalance) -> bool:
    """Whether the board's blue frame shows all round, judged as boards are found
    (boards.frame_covered)."""
    small, scale = reduced(frame)
    return not frame_covered(board, blue_mask(rough.apply_u8(small)), scale)


def places_unread(reading: BoardReading) -> int:
    """How many of a board's places are read as unknown."""
    return sum(r.value == UNKNOWN for r in reading.places.values())


def _read_moved(found: tuple[BoardFind, BoardReading, bool]) -> tuple[BoardFind, BoardReading]:
    """A board whose grid was moved onto its print (see _moved_to_print), as read there."""
    board_there, again, whole = found
    return board_there, (again if whole else _floor_unread_but_empty(again))


def _turned_to_print(frame: np.ndarray, board: BoardFind, rough: WhiteBalance, turns: tuple[int, ...],
                     cream: WhiteBalance | None = None, *, round_a_hand: bool = False,
                     or_grey: bool = False,
                     or_better: float | None = None) -> tuple[BoardFind, BoardReading] | None:
    """The board at the first of `turns` (quarter turns clockwise from where it was
    found) whose grid shows the coloured wall's print clearly, and its reading. With
    `round_a_hand` (what hid the strip may hide much of the wall too), failing that, the
    one turn whose grid shows the print clearly on the wall cells nothing lies over.
    With `or_grey`, failing that, the one turn whose grid fits a grey wall (fits_grey_wall)
    with nothing over the board. With `or_better` (the print the board's grid shows
    where it was found, faintly), failing all that, the turn whose grid shows the print
    most: if at least _PRINT_FOUND, _PRINT_BETTER more than that, and twice as much as
    any other turn whose grid passed its check."""
    round_hand, tried, grey, shown = [], [], [], []
    for quarters in turns:
        other = board if quarters == 0 else turned(board, quarters, frame, rough)
        if other is None:
            continue
        tried.append(other)
        again = read_board(frame, other, rough, cream=cream)
        if or_grey and fits_grey_wall(again) and not again.occluded:
            grey.append((other, again))
        if not again.grid_in_place or again.side != "colored":
            continue
        if _print_clear(again):
            return other, again
        shown.append((_print_shown(again), other, again))
        if round_a_hand and _print_clear(again, in_view=True):
            round_hand.append((other, again))
    if round_a_hand and not round_hand:
        # No turn's grid is on the print: the outline was rebuilt wrong round the hand.
        # The print is looked for round each; the one turn it is found at is the board's.
        # Its floor is read only empty: the grid, fitted to the wall round that hand, came
        # out a place along there (seed 2), whole wall and all (see _floor_unread_but_empty).
        # A turn whose moved grid has too few wall cells in view to judge the print by
        # may be the board's as well: no turn is then the one. (Seed 9, frame 428: the
        # place models saw the arm over all but five of the wall's cells at the board's
        # turn, and the print was found, on eight cells, at a wrong one.) Not where a turn's
        # print shows clearly over the whole wall, sleeve and all, not only on the cells in
        # view (seed 1, frame 167: found so at the board's turn, 12 places read right).
        moved = [m for m in (_moved_grid(frame, other, rough, cream) for other in tried) if m is not None]
        round_hand = [(there, _floor_unread_but_empty(again)) for there, again, _ in moved
                      if _print_clear(again) or _print_clear(again, in_view=True)]
        if any(not _print_clear(again) and not _print_judged(again) for _, again, _ in moved) \
                and not any(_print_clear(again) for _, again in round_hand):
            return None
    only = round_hand or grey
    if len(only) == 1:
        return only[0]
    if or_better is not None and shown:
        most, board_there, read_there = max(shown, key=lambda turn: turn[0])
        if most >= max(_PRINT_FOUND, or_better + _PRINT_BETTER) \
                and all(print_ < most / 2 for print_, other, _ in shown if other is not board_there):
            return board_there, read_there
    return None


def read_at_bonus_turn(frame: np.ndarray, board: BoardFind, rough: WhiteBalance,
                       cream: WhiteBalance) -> tuple[BoardFind, BoardReading] | None:
    """A board whose strip, hidden, does not tell its turn, read at the turn its
    end-bonus panel tells (boards.bonus_turn), if its grid there passes the check under
    the board's own balance or else under `cream` (see read_board); its places read as
    surely as a moved grid's. None if not."""
    quarters = bonus_turn(board, frame, rough)
    there = None if quarters is None else board if quarters == 0 else turned(board, quarters, frame, rough)
    if there is None:
        return None
    for balance in (None, cream):
        again = read_board(frame, there, rough, _MOVED_SURE, balance)
        if again.grid_in_place:
            # whatever hides the strip stands over the board
            return dataclasses.replace(there, turn_told=True), dataclasses.replace(again, occluded=True)
    return None


# A board faces the table's middle when its owner's top points at it within about 25
# degrees (the cosine of the angle between them).
_FACING = 0.9


def _facing_middle(frame: np.ndarray, board: BoardFind, rough: WhiteBalance, cream: WhiteBalance | None,
                   middle: np.ndarray) -> tuple[BoardFind, BoardReading] | None:
    """A grey board whose strip, hidden, does not tell its turn, at the turn whose
    owner's top faces the table's middle: players set their boards before them, the
    score track away from them. It is read there only if _PRINT_CELLS_LEAST of its wall
    cells show with nothing over them and its grid fits a grey wall (fits_grey_wall);
    its places are read as surely as a moved grid's. None if not. (Not a coloured board:
    where its print shows too weakly to tell its turn, grids a cell off passed with the
    diagonals twice as plain as a step on, and read 7 and 10 places surely wrong on seeds
    2 and 1000.)"""
    toward = middle - board.center
    for quarters in range(4):
        top = rolled(board.quad, -quarters)[:2].mean(axis=0)  # the owner's top edge, so turned
        up = top - board.center
        if np.dot(up, toward) >= _FACING * np.linalg.norm(up) * np.linalg.norm(toward):
            break
    else:
        return None
    facing = board if quarters == 0 else turned(board, quarters, frame, rough)
    if facing is None:
        return None
    again = read_board(frame, facing, rough, _MOVED_SURE, cream)
    shown = ~again.over[_WALL_ROWS] & (again.histograms[_WALL_ROWS].sum(axis=1) > 0)
    if shown.sum() < _PRINT_CELLS_LEAST or not fits_grey_wall(again):
        return None
    return facing, again


def _moved_to_print(frame: np.ndarray, board: BoardFind, rough: WhiteBalance, cream: WhiteBalance | None,
                    in_view: bool = False) -> tuple[BoardFind, BoardReading, bool] | None:
    """The board with its grid moved onto the coloured wall's print found round it, its
    reading, if the print shows clearly there (`in_view`: or clearly on the wall cells
    nothing lies over, see _print_clear), and whether the grid was fitted to the whole
    wall's print, found clearly. Fitted to part of the wall (the rest under a hand, or
    its print weak), a grid says least of the floor, the places farthest below and
    beside the wall: read, they came out a place along (seeds 1 and 2). Only the panel
    moves: the fit to the wall's cells holds on the panel, not out to the board's edges,
    so the outline (which only hides the board from the search for discs and gives the
    table's plane) stays as found."""
    found = _moved_grid(frame, board, rough, cream)
    if found is None:
        return None
    there, again, clear = found
    if _print_clear(again):
        return there, again, clear
    if in_view and _print_clear(again, in_view=True):
        return there, again, False
    return None


def _moved_grid(frame: np.ndarray, board: BoardFind, rough: WhiteBalance,
               cream: WhiteBalance | None) -> tuple[BoardFind, BoardReading, bool] | None:
    """The board with its grid moved onto the coloured wall's print found round it, its
    reading, and whether the grid was fitted to the whole wall's print, found clearly;
    None if no print is found, or the grid there is not on a coloured wall."""
    found = _wall_in_print(frame, board.panel_h, rough)
    if found is None:
        return None
    moved, clear = found
    panel_h = board.panel_h @ moved
    there = dataclasses.replace(board, panel_h=panel_h, rotation=rotation_of(panel_h))
    again = read_board(frame, there, rough, _MOVED_SURE, cream)
    if not again.grid_in_place or again.side != "colored":
        return None
    return there, again, clear


def _floor_unread_but_empty(reading: BoardReading) -> BoardReading:
    """The reading with its floor unknown, unless it reads empty at every place or the
    panel's edge placed it.

    A grid fitted to part of the wall may read the floor a place along. A floor read
    empty at all seven places is empty all the same, but for its first place when the
    grid lies a place towards the floor's end: a tile (the first-player marker) alone
    there would be missed. (Seeds 7 / 9 / 8 / 2 / 1: 0 / +7 / +3 / 0 / 0 places read
    right, none surely wrong; a floor holding tiles kept where the grid was fitted to
    the whole wall round a hand: seed 2 read two a place along, surely, seed 2 frame 241.)
    A floor the panel's left edge placed (see _floor_along) is read as it is: the edge,
    not the grid, says where it lies. (Seeds 7 / 9 / 8 / 2 / 1: 0 / 0 / +2 / 0 / +1
    boards read exactly, none more wrong.)
    Either way the floor does not count among the places read first, which choices
    between outlines go by: counted, a grid moved onto the print on an outline grown
    77 px off was chosen over the outline grown right (seed 9, frame 365)."""
    read_first = reading.read_first & np.array([p[0] != "floor" for p in PLACES])
    if reading.floor == [None] * 7 or reading.floor_placed:
        return dataclasses.replace(reading, read_first=read_first)
    places = {p: Reading(UNKNOWN, r.confidence) if p[0] == "floor" else r for p, r in reading.places.items()}
    return dataclasses.replace(reading, places=places, floor=[UNKNOWN] * 7, read_first=read_first,
                               withheld=reading.withheld | {"floor"})


# A turn the print alone tells: its coloured wall shows clearly at one turn only (at the
# others the grid lies off the wall, or the diagonals run the other way).
_PRINT_TURN_SURE = 0.5
_DIAGONAL_WITHIN = 15.0  # degrees from 45 (in the image) a board's turn may be misjudged


def _near_diagonal(board: BoardFind) -> bool:
    top = board.quad[1] - board.quad[0]
    angle = float(np.degrees(np.arctan2(top[1], top[0]))) % 90.0
    return abs(angle - 45.0) <= _DIAGONAL_WITHIN


def _print_shown(reading: BoardReading) -> float:
    """The share of the wall's windows that show their diagonal's colour."""
    return float(_diagonal_agreement(reading.histograms[_WALL_ROWS])[0])


def _print_at_cells(reading: BoardReading) -> float:
    """The share of the wall's printed cells (the place model's third look) that show
    their diagonal's colour. (The features keep each look's colour-word shares
    square-rooted; a place out of the frame has none in its histograms and is not counted.)"""
    words = reading.features[_WALL_ROWS, 2 * _LOOK:2 * _LOOK + len(color.WORD_NAMES)] ** 2
    seen = reading.histograms[_WALL_ROWS].sum(axis=1) > 0
    return float(_diagonal_agreement(np.where(seen[:, None], words, 0.0))[0])


def _print_better(moved: BoardReading, reading: BoardReading) -> bool:
    """Whether a grid moved onto the print shows it clearly better than the grid it was
    moved from (see _PRINT_BETTER), in the windows a wall's print is judged by or on the
    printed cells themselves."""
    return (_print_shown(moved) >= _print_shown(reading) + _PRINT_BETTER
            or _print_at_cells(moved) >= _print_at_cells(reading) + _PRINT_BETTER)


def shows_print(reading: BoardReading) -> bool:
    """Whether a board reads as the coloured side with its print clearly where its grid is."""
    return reading.side == "colored" and _print_clear(reading)


def fits_grey_wall(reading: BoardReading) -> bool:
    """Whether a board reads surely as the grey side with its grid on the grey block."""
    return reading.grid_in_place and reading.side == "grey" and reading.side_confidence >= SIDE_SURE


def _print_clear(reading: BoardReading, in_view: bool = False) -> bool:
    """Whether the wall's colours lie on its diagonals clearly: most of them, and far
    more than with the colours moved on by any step. `in_view`: judged on the cells the
    place model sees nothing over, if there are _PRINT_CELLS_LEAST of them."""
    hists = reading.histograms[_WALL_ROWS]
    if in_view:
        if not _print_judged(reading):
            return False
        hists = np.where(_wall_in_view(reading)[:, None], hists, 0.0)
    agree = _diagonal_agreement(hists)
    return bool(agree[0] >= _PRINT_SHOWN and agree[0] >= _PRINT_CLEAR * agree[1:].max())


_PRINT_CELLS_LEAST = 8  # wall cells in view that can show the print's diagonals


def _wall_in_view(reading: BoardReading) -> np.ndarray:
    """Which wall cells show, with nothing the place model sees over them."""
    return ~reading.over[_WALL_ROWS] & (reading.histograms[_WALL_ROWS].sum(axis=1) > 0)


def _print_judged(reading: BoardReading) -> bool:
    """Whether _PRINT_CELLS_LEAST wall cells show, to judge the print by (see _print_clear)."""
    return int(_wall_in_view(reading).sum()) >= _PRINT_CELLS_LEAST


_WIDE_WINDOW = 0.6  # the wide look, as a fraction of a cell

# Colour words of each tile colour, in a tile or in its paler print on the coloured wall.
_FAMILY_WORDS = {"blue": ("blue", "pale_blue"), "yellow": ("orange", "pale_orange"),
                 "red": ("red", "pale_red", "darkred"), "black": ("dark", "pale_dark"),
                 "white": ("teal", "pale_teal")}
_FAMILY_INDEX = [[color.WORD_NAMES.index(w) for w in _FAMILY_WORDS[c]] for c in COLORS]
_WALL_ROWS = [i for i, p in enumerate(PLACES) if p[0] == "wall"]
# Which colour each wall cell shows on the coloured side, tile or print: (column - row) mod 5.
_WALL_DIAGONAL = np.array([(PLACES[i][2] - PLACES[i][1]) % 5 for i in _WALL_ROWS])


def _diagonal_agreement(wall_hists: np.ndarray) -> np.ndarray:
    """How well the wall cells' colours follow the coloured wall's diagonals, for the
    grid where it is (entry 0) and with every cell's colour moved on by 1..4 steps
    along the pattern (what a grid off by a cell, across or down, sees)."""
    total = wall_hists.sum(axis=1)
    seen = total > 0
    if not seen.any():
        return np.zeros(5)
    share = np.stack([wall_hists[:, idx].sum(axis=1) for idx in _FAMILY_INDEX], axis=1)
    share = share[seen] / total[seen, None]
    diag = _WALL_DIAGONAL[seen]
    rows = np.arange(len(diag))
    return np.array([share[rows, (diag + o) % 5].mean() for o in range(5)])


def _grid_in_place(hists: np.ndarray, side: str) -> bool:
    """Whether the wall shows its colours where the grid puts them. On the coloured side
    every wall cell shows its printed colour, whether a tile lies on it or not, so a grid
    off by a cell sees the diagonals one step on, and a board rebuilt wrong sees none.
    A wall read as the grey side can still be a coloured one seen a cell off (the side
    is read from the same cells): then the diagonals one step on are plain to see,
    more than tiles laid freely on a grey wall ever line up; but not on a few cells (a
    sleeve over the rest), whose tiles follow some diagonals by chance: the grey wall's
    own check judges those."""
    agree = _diagonal_agreement(hists[_WALL_ROWS])
    off = agree[1:].max()
    if agree[0] > off or not agree.any():
        return True
    shown = int((hists[_WALL_ROWS].sum(axis=1) > 0).sum())
    return side != "colored" and (off < _DIAGONAL_PLAIN or shown < _DIAGONAL_CELLS_LEAST)


_DIAGONAL_PLAIN = 0.45
_DIAGONAL_CELLS_LEAST = 8


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Colours (BGR, 0-255) in CIE Lab."""
    scaled = np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(scaled, cv2.COLOR_BGR2Lab).reshape(-1, 3)


# The print of each tile colour on the coloured wall (its pale word), in COLORS order.
_PRINT_WORDS = tuple(next(w for w in _FAMILY_WORDS[c] if w.startswith("pale_")) for c in COLORS)
_PRINT_LAB = _lab([color.WORDS[w][::-1] for w in _PRINT_WORDS])  # in the balanced panel


def _print_in_place_by_contrast(pixels: np.ndarray, seen: np.ndarray, excused: np.ndarray) -> bool:
    """Whether the coloured wall's diagonals show its five print colours where the grid
    puts them, judged by how they differ from each other rather than by the colour words:
    a cast the panel's balance left (the light's colour, glare on the cream) moves every
    print alike, and the pale blue print then reads as the white tiles' pale teal, the
    pale red as pale orange. Each diagonal's median colour, less the diagonals' mean, is
    matched to the prints' (less theirs) with the colours moved on by 0..4 steps; the grid
    is in place when the unmoved match is the closest by far (a grid a cell off matches
    a step on)."""
    n = len(PLACES)
    windows = np.median(pixels.reshape(n, -1, 3)[_WALL_ROWS], axis=1)
    use = seen[_WALL_ROWS] & ~excused[_WALL_ROWS]
    diagonals = [d for d in range(5) if (use & (d == _WALL_DIAGONAL)).sum() >= _CONTRAST_CELLS]
    if len(diagonals) < 4:
        return False
    lab = _lab(windows)
    means = np.array([lab[use & (d == _WALL_DIAGONAL)].mean(axis=0) for d in diagonals])
    means -= means.mean(axis=0)
    misfit = []
    for step in range(5):
        ref = _PRINT_LAB[[(d + step) % 5 for d in diagonals]]
        misfit.append(float(np.sum((means - (ref - ref.mean(axis=0))) ** 2)))
    return misfit[0] * _CONTRAST_CLEAR < min(misfit[1:])


# A tile on its own print whose top glare or blur washes out to the print's shade (seed 7
# frame 250: a yellow tile read empty at 0.94) still stands 7 mm proud. Seen obliquely,
# its top lies off the cell printed under it, away from the camera, and the cell's
# footprint left beyond the top, on the camera's side, shows the tile's side face, darker
# than its top; an empty print shows its own edge there, about as light as its middle.
# A wall place read empty less surely than _PEER_SURE, its top lifted _SIDE_FACE_LEAST or
# more off its cell, whose footprint beyond the top shows _SIDE_FACE_DARK of the top's
# shade or less, holds a tile of its print's colour. Only where the top's middle lies
# over the cell's own footprint (seed 11 frame 326: a top lifted 55 crop px down lies
# over the cell below, and an empty black print showed half the shade of the red print
# there), and where the neighbours on the camera's side, whose tops and faces lean over
# the cell's footprint, are read empty surely (or lie off the wall). Measured on seed
# 5's frames 0-399 and seed 7's 0-499 (the mean shade of that footprint over the median
# of the top's middle, on boards read in place, with those bounds): of 14,148 empty
# places read empty, the least 0.25 and 0.31 (both read at 0.9997 or more), then 0.62;
# of the 48 read less surely than _PEER_SURE, 0.68; below 0.55, 49% of 3,482 tiles, and
# the one tile read empty (0.50).
_SIDE_FACE_LEAST = 8.0  # crop px a tile's top shows off its cell, at least: less is too thin a face
_SIDE_FACE_DARK = 0.55  # the side face's shade, as a share of the top's, at most
_LEANS_OVER = 4.0  # crop px a neighbour's top lies off its cell toward this one, about the gap
_TILE_HALF_PX = 10.0 / _MM_PER_CROP_PX  # half a tile's side (10 mm), crop px
_TOP_MIDDLE = 0.4  # the top's middle, as a share of its half side


def _tile_by_side_face(places: dict[tuple, Reading], panel: np.ndarray, lift: np.ndarray,
                       nudge: np.ndarray, hidden: np.ndarray) -> dict[tuple, Reading]:
    """The coloured wall's places read empty unsurely whose footprint beyond a tile's top
    shows its side face, read as their print's colour (see _SIDE_FACE_DARK). `panel`: the
    balanced panel read at _SCALE; `lift`: how far a tile's top shows off each cell and
    `nudge` each window's move (crop px, in PLACES order); `hidden`: places not judged."""
    out = dict(places)
    for k, i in enumerate(_WALL_ROWS):
        place = PLACES[i]
        reading = places[place]
        if reading.value is not None or reading.confidence >= _PEER_SURE or hidden[i] \
                or np.hypot(*lift[i]) < _SIDE_FACE_LEAST \
                or np.abs(lift[i]).max() > (1 - _TOP_MIDDLE) * _TILE_HALF_PX:
            continue
        _, row, column = place
        toward = -np.sign(lift[i]) * (np.abs(lift[i]) > _LEANS_OVER)  # the camera's side
        beside = {(row + int(toward[1]), column), (row, column + int(toward[0])),
                  (row + int(toward[1]), column + int(toward[0]))} - {(row, column)}
        if not all(_empty_surely(places, hidden, ("wall", r, c)) for r, c in beside
                   if 0 <= r < 5 and 0 <= c < 5):
            continue
        if _side_face_share(panel, (CENTERS[i] + nudge[i]) * _SCALE, lift[i] * _SCALE) <= _SIDE_FACE_DARK:
            out[place] = Reading(COLORS[_WALL_DIAGONAL[k]], _BY_PEERS_SURE)
    return out


def _empty_surely(places: dict[tuple, Reading], hidden: np.ndarray, place: tuple) -> bool:
    reading = places[place]
    return reading.value is None and reading.confidence >= _PEER_SURE and not hidden[PLACES.index(place)]


def _side_face_share(panel: np.ndarray, base: np.ndarray, lift: np.ndarray) -> float:
    """The mean shade of a cell's footprint (a tile's, centred on `base`) beyond where a
    tile's top would show (lifted by `lift`), as a share of the median shade of the top's
    middle; panel px."""
    half = _TILE_HALF_PX * _SCALE
    reach = int(np.ceil(half + np.abs(lift).max())) + 1
    cx, cy = np.round(base).astype(int)
    x0, y0 = max(cx - reach, 0), max(cy - reach, 0)
    box = panel[y0:cy + reach + 1, x0:cx + reach + 1]
    shade = box.max(axis=2)
    ys, xs = np.mgrid[y0:y0 + box.shape[0], x0:x0 + box.shape[1]] + 0.5
    top = base + lift
    footprint = (np.abs(xs - base[0]) < half) & (np.abs(ys - base[1]) < half)
    face = footprint & ~((np.abs(xs - top[0]) < half + 1) & (np.abs(ys - top[1]) < half + 1))
    middle = (np.abs(xs - top[0]) < half * _TOP_MIDDLE) & (np.abs(ys - top[1]) < half * _TOP_MIDDLE)
    return float(shade[face].mean() / max(float(np.median(shade[middle])), 8.0))


# A white tile on its own print: the print is the tile's design paler, and under blur
# the place model can take the tile for it (seed 8 frame 38: a white tile in plain view,
# its shadow showing, read empty at 0.94). The board's other white prints read empty
# surely show what the print looks like in this board's light, if two or more agree
# (within _PEERS_AGREE of their median: one read empty under a red sleeve's glare, seed
# 10 frame 342, is no print to judge by); the tile's top is teal beside them (its star:
# greener and bluer, a* and b* both lower), an empty print the same colour, and as light
# (a window far darker lies under a sleeve or a cup's shade; one far lighter, under
# glare). Measured on seed 5's frames 0-399 and seed 7's 0-499 (the mean colour of the
# window where a tile's top would show, against the median of the board's other white
# prints read empty at 0.97 or more): white tiles read right, a* 11.2 and b* 10.0 lower
# (median; 90% of them past both of _WHITE_TEAL), L* from 5.5 lighter to 15.4 darker
# (1% and 99%); empty prints, 1% of them 3.1 / 3.0 lower or more; of the white prints
# left empty or unknown, the 4 of 8 white tiles were past all the marks, none of 8,376
# empty prints.
_WHITE_PRINT_ROWS = np.array([i for i, d in zip(_WALL_ROWS, _WALL_DIAGONAL, strict=True)
                              if COLORS[d] == "white"])
_PEER_SURE = 0.97
_PEERS_AGREE = 6.0  # Lab distance
_WHITE_TEAL = (8.0, 2.0)  # how much lower than the print's a* and b* show on a white tile
_WHITE_LIGHTNESS = (-8.0, 20.0)  # how much darker than the print a white tile's top shows, L*
_BY_PEERS_SURE = 0.9  # no empty place was read so: above SURE, below the models' sure reads


def _white_on_print(places: dict[tuple, Reading], pixels: np.ndarray,
                    hidden: np.ndarray) -> dict[tuple, Reading]:
    """The coloured wall's white prints read empty or unknown that show a white tile's
    teal beside the board's other white prints read empty, read white (see _WHITE_TEAL).
    `pixels`: the first look's windows, in PLACES order; `hidden`: places not judged
    (something over them, out of the frame)."""
    lab = _window_colours(pixels, _WHITE_PRINT_ROWS)
    readings = [places[PLACES[i]] for i in _WHITE_PRINT_ROWS]
    seen = ~hidden[_WHITE_PRINT_ROWS]
    empty = seen & np.array([r.value is None and r.confidence >= _PEER_SURE for r in readings])
    peers_of = empty[None, :] & ~np.eye(len(readings), dtype=bool)
    # Cheapest first: a median of peers is teal past a place only if some peer is.
    most = np.where(peers_of[:, :, None], lab[None, :, 1:], -np.inf).max(axis=1)
    maybe = seen & (peers_of.sum(axis=1) >= 2) & np.all(most - lab[:, 1:] > _WHITE_TEAL, axis=1) \
        & np.array([r.value in (None, UNKNOWN) for r in readings])
    out = dict(places)
    for k in np.flatnonzero(maybe):
        print_lab = _agreed(lab[peers_of[k]])
        if print_lab is None:
            continue
        lower = print_lab - lab[k]
        if _WHITE_LIGHTNESS[0] < lower[0] < _WHITE_LIGHTNESS[1] \
                and lower[1] > _WHITE_TEAL[0] and lower[2] > _WHITE_TEAL[1]:
            out[PLACES[_WHITE_PRINT_ROWS[k]]] = Reading("white", _BY_PEERS_SURE)
    return out


def _window_colours(pixels: np.ndarray, rows: np.ndarray | list[int]) -> np.ndarray:
    """The mean colour (Lab) of the first look's windows (`pixels`, in PLACES order) at
    the places `rows`."""
    return _lab(pixels.reshape(len(PLACES), -1, 3)[rows].mean(axis=1))


def _agreed(peers: np.ndarray) -> np.ndarray | None:
    """The median colour (Lab) of the places read empty that agree, within _PEERS_AGREE
    of all their median, if two or more do."""
    if len(peers) < 2:
        return None
    peers = peers[np.linalg.norm(peers - np.median(peers, axis=0), axis=1) < _PEERS_AGREE]
    return np.median(peers, axis=0) if len(peers) >= 2 else None


# A place of the coloured wall the place model left unknown whose window shows the
# colour of the board's other prints of its colour read empty surely (within _PRINT_NEAR
# of their median, two at least that agree) shows its print: it is read empty (seed 11
# frame 410: a black print the model gave a black tile 0.71, its colour 0.4 from the two
# other black prints'). Only the blue, red and black prints: a white or a yellow tile
# that glare or blur washes out can look like its pale print (seed 11 frame 304: a white
# tile 2.8 from the white prints). On seeds 5 and 7 (frames 0-399 and 0-499), the blue,
# red and black tiles lie 4.3, 7.2 and 6.0 from their prints at the nearest (2.0 and 2.2
# the white and yellow); empty prints, a median 1.3.
_PRINT_NEAR = 3.0  # Lab distance
_PRINTS_TOLD = np.isin(np.array(COLORS)[_WALL_DIAGONAL], ("blue", "red", "black"))


def _print_on_wall(places: dict[tuple, Reading], pixels: np.ndarray,
                   hidden: np.ndarray) -> dict[tuple, Reading]:
    """The coloured wall's blue, red and black prints read unknown that show their print's
    colour beside the board's other prints of that colour read empty, read empty (see
    _PRINT_NEAR).
    `pixels`: the first look's windows, in PLACES order; `hidden`: places not judged."""
    readings = [places[PLACES[i]] for i in _WALL_ROWS]
    asked = [k for k, r in enumerate(readings)
             if r.value == UNKNOWN and _PRINTS_TOLD[k] and not hidden[_WALL_ROWS[k]]]
    if not asked:
        return places
    lab = _window_colours(pixels, _WALL_ROWS)
    empty = ~hidden[_WALL_ROWS] & np.array([r.value is None and r.confidence >= _PEER_SURE for r in readings])
    out = dict(places)
    for k in asked:
        print_lab = _agreed(lab[empty & (_WALL_DIAGONAL[k] == _WALL_DIAGONAL)])
        if print_lab is not None and np.linalg.norm(lab[k] - print_lab) < _PRINT_NEAR:
            out[PLACES[_WALL_ROWS[k]]] = Reading(None, _BY_PEERS_SURE)
    return out


# The first-player marker on the floor, left unknown by the place model (seed 11 frames
# 27 and 470: the marker 0.55 / 0.36 sure, empty 0.26 / 0.48): a white tile with a dark
# blue "1" in a frame, where an empty floor place shows the cream. Beside the board's
# other floor places read empty surely (two at least that agree, within _PEERS_AGREE),
# the marker shows darker (its ink), less yellow (its white against the cream) and
# neither greener (no white tile's teal star) nor redder. Measured on seed 5's frames
# 0-399 and seed 7's 0-499 (the mean colour of the window where a tile's top would
# show, against the median of the board's other floor places read empty at 0.97 or
# more): of 266 markers, 261 lie within every mark of _MARKER_LOOK; of 13,182 empty
# places, 4 (read empty surely), and none of 2,587 tiles. Only a place the model left
# unknown is read so, and only where the floor holds tiles before it: the floor fills
# from the left.
_MARKER_LOOK = ((5.0, 25.0), (-9.0, 3.0), (6.0, np.inf))  # how much lower than the cream's: L*, a*, b*


def _marker_on_floor(places: dict[tuple, Reading], pixels: np.ndarray,
                     hidden: np.ndarray) -> dict[tuple, Reading]:
    """The floor's first place not holding a tile, read unknown, read as the marker where
    it looks as the marker does beside the floor's places read empty (see _MARKER_LOOK).
    `pixels`: the first look's windows, in PLACES order; `hidden`: places not judged."""
    readings = [places[PLACES[i]] for i in _FLOOR_ROWS]
    first = next((k for k, r in enumerate(readings) if r.value is None or r.value == UNKNOWN), None)
    if first is None or readings[first].value != UNKNOWN or hidden[_FLOOR_ROWS[first]]:
        return places
    empty = [k for k, r in enumerate(readings) if r.value is None and r.confidence >= _PEER_SURE
             and not hidden[_FLOOR_ROWS[k]]]
    if len(empty) < 2:
        return places
    lab = _window_colours(pixels, _FLOOR_ROWS[[first, *empty]])
    cream = _agreed(lab[1:])
    if cream is None:
        return places
    lower = cream - lab[0]
    if all(lo < v < hi for v, (lo, hi) in zip(lower, _MARKER_LOOK, strict=True)):
        return places | {PLACES[_FLOOR_ROWS[first]]: Reading(MARKER, _BY_PEERS_SURE)}
    return places


_CONTRAST_CELLS = 2  # wall cells in view a diagonal needs to be judged
_CONTRAST_CLEAR = 3.0  # how many times worse every step on must fit

# The search for the coloured wall's print round a grid that is off: the panel and
# _SEARCH_REACH crop px round it seen at _SEARCH_SCALE of the crop, the wall tried
# up to 0.8 of that reach (about 95 mm) from where the grid puts it, with its pitch
# across and down each taken from _SEARCH_PITCHES (a board rebuilt at the wrong depth is
# stretched or squeezed; the outline allows 15% either way, and its error adds on the
# panel's); then at twice the scale, within _FINE_REACH crop px and _FINE_PITCHES of
# the best.
_SEARCH_SCALE = 0.125
_PITCH = (wall_center(0, 1)[0] - wall_center(0, 0)[0], wall_center(1, 0)[1] - wall_center(0, 0)[1])
_SEARCH_REACH = 440
_SEARCH_PITCHES = np.linspace(0.76, 1.3, 10)
_FINE_REACH = 16
_FINE_PITCHES = np.linspace(-0.06, 0.06, 7)
# The print is looked at closer only where at least _PRINT_FOUND of the wall's windows
# show their diagonal's colour (an arm over the wall's top two rows leaves seed 7's
# prints at 0.25-0.29), and taken as found clearly from _PRINT_CLEARLY; a wall cell is
# placed by its own colour only where it shows it in _CELL_FOUND of a window. The board
# is read there only if the grid moved onto the print then passes a stricter check than
# a grid found from the board's outline: at least _PRINT_SHOWN of the wall's windows on
# their diagonals, and _PRINT_CLEAR times as much as with the colours moved on by any
# step (a grid in place sees 0.5-0.8 and under 0.15 moved on; a grid still off, under 0.35).
_PRINT_FOUND = 0.22
_PRINT_CLEARLY = 0.3
_CELL_FOUND = 0.3
_PRINT_SHOWN = 0.4
_PRINT_CLEAR = 3.0
# A grid that passed the check, but shows the print only weakly, is moved only where the
# print shows in _PRINT_BETTER more of the wall's windows. So is one that shows it
# clearly but leaves places unread, and only if it then reads more places: a grid
# fitted on the wall's outer cells can come out in place there and off by half a place
# and more at a far corner (seed 9 frame 403: a wall cell 0.7 of a place off, unread,
# the print in 0.49 of the windows; moved, 0.86, every place read right). (Seeds 7 / 9 /
# 8 / 2 / 1: 0 / +2 / +1 / 0 / +1 boards read exactly, none more wrong. Without asking for
# more places read, seed 9 frame 100: moved onto the print, 0.71 to 0.84, the wall right
# and its pattern lines a place along, 6 places unread then 12, one surely wrong. Taken
# where the print shows about as much, 0.05 less or more, with more places read: no more
# boards exactly, 3 more of the places the truth hides read wrong.)
# Better on the printed cells counts too. The windows the print is judged by lie halfway
# to where a tile's top would show, which hangs on where the grid puts the camera: a grid
# off in perspective puts it wrong, and can set its own windows back onto the cells it
# misses (seed 7 frame 362: a grid 0.4-0.5 of a place off showed the print in 0.78 of
# them and 0.51 of the cells; moved onto it, nearer the truth everywhere, 0.46 and 0.78,
# two places read surely wrong then right). Judged on the cells alone, seed 9 frame 209's
# grid, 0.25 of a place off at the wall, showed as much print as when moved (0.66, 0.69):
# at either look, then. (Seeds 7 / 9 / 8 / 2 / 1: +1 / 0 / 0 / 0 / 0 boards read
# exactly, 2 / 0 / 0 / 0 / 0 places fewer surely wrong; seed 9 read 5 fewer of the places
# the truth hides, 3 fewer wrong.)
_PRINT_BETTER = 0.1
# Where a grid passed its check with less of the print than this (seed 7: 9 of 12 such
# grids were turned wrong or off; of those showing more, none), the other turns are tried.
_PRINT_FAINT = 0.2
# The tile colour of each colour word (-1: none); the last entry is glare's (word -1).
_FAMILY_OF_WORD = np.array([next((f for f, idx in enumerate(_FAMILY_INDEX) if w in idx), -1)
                            for w in range(len(color.WORD_NAMES))] + [-1])


def _wall_in_print(frame: np.ndarray, panel_h: np.ndarray,
                   rough: WhiteBalance) -> tuple[np.ndarray, bool] | None:
    """Where the coloured wall's print is round a grid that is off: the map (crop px to
    crop px) that moves the grid's wall onto it, and whether the print showed clearly
    (_PRINT_CLEARLY, not just _PRINT_FOUND), or None if it is found nowhere.
    Each wall cell shows its printed colour whether a tile lies on it or not, so the
    grid is placed where most cells see the colour of their diagonal: first roughly,
    moved and stretched over the whole reach, then each cell finely where its colour
    is, and the grid fitted to those cells (which also takes up the perspective the
    outline got wrong)."""
    x0, y0 = wall_center(0, 0)
    coarse = _view_shares(frame, panel_h, rough, _SEARCH_SCALE)
    _, sx, sy, origin = _print_search(coarse, _SEARCH_SCALE, (x0, y0), round(_SEARCH_REACH * 0.8),
                                      (_SEARCH_PITCHES, _SEARCH_PITCHES))
    s = 2 * _SEARCH_SCALE
    fine = _view_shares(frame, panel_h, rough, s)
    score, sx, sy, (ox, oy) = _print_search(fine, s, origin, _FINE_REACH,
                                            (sx + _FINE_PITCHES, sy + _FINE_PITCHES))
    if score < _PRINT_FOUND:
        return None
    move = np.array([[sx, 0, ox - sx * x0], [0, sy, oy - sy * y0], [0, 0, 1.0]])
    share, cell_seen = fine
    m = _SEARCH_REACH
    nominal = CENTERS[_WALL_ROWS]
    # Each cell's colour looked for within 0.3 of a cell of where the grid moved puts it;
    # its centre is that of the window positions that show it nearly as much as the best
    # (a plain print shows its colour evenly over much of the cell).
    found, kept = [], []
    half = round(0.3 * CELL_PX * s)
    for i, (px, py) in enumerate(apply_h(move, nominal)):
        f = _WALL_DIAGONAL[i]
        x, y = (px + m) * s, (py + m) * s
        for _ in range(2):  # the centre of where the colour is, looked for twice
            xi, yi = round(x), round(y)
            if not (half <= xi < share.shape[2] - half and half <= yi < share.shape[1] - half):
                break
            win = share[f, yi - half:yi + half + 1, xi - half:xi + half + 1] \
                * cell_seen[yi - half:yi + half + 1, xi - half:xi + half + 1]
            top = float(win.max())
            if top < _CELL_FOUND:
                break
            ys, xs = np.nonzero(win >= 0.8 * top)
            x, y = xi - half + xs.mean(), yi - half + ys.mean()
        else:
            found.append((x / s - m, y / s - m))
            kept.append(i)
    if len(kept) >= 8:  # enough cells, and cells a tile or a hand shows wrong left out
        fit, inliers = cv2.findHomography(nominal[kept], np.array(found), cv2.RANSAC, 12.0)
        if fit is not None and inliers.sum() >= 8:
            move = fit
    return move, score >= _PRINT_CLEARLY


def _view_shares(frame: np.ndarray, panel_h: np.ndarray, rough: WhiteBalance,
                 s: float) -> tuple[np.ndarray, np.ndarray]:
    """The panel and _SEARCH_REACH round it, seen at `s` of the crop: the share of each
    tile colour's words in a cell-sized window round each pixel, and where such a
    window is in the frame."""
    m = _SEARCH_REACH
    w, h = round((PANEL_W_PX + 2 * m) * s), round((PANEL_H_PX + 2 * m) * s)
    to_img = panel_h @ np.array([[1 / s, 0, -m], [0, 1 / s, -m], [0, 0, 1.0]])
    view = cv2.warpPerspective(frame, np.linalg.inv(to_img), (w, h), flags=cv2.INTER_LINEAR)
    view = rough.apply_u8(view)
    words = color.word_indices(view.reshape(-1, 3)).reshape(h, w)
    seen = in_frame(to_img, w, h, frame.shape[1], frame.shape[0]) & (words >= 0)
    family = np.where(seen, _FAMILY_OF_WORD[words], -1)
    k = max(3, round(_WINDOW * CELL_PX * s))
    n_seen = cv2.boxFilter(seen.astype(np.float32), -1, (k, k))
    share = np.stack([cv2.boxFilter((family == f).astype(np.float32), -1, (k, k)) for f in range(5)])
    share /= np.maximum(n_seen, 1e-6)
    return share, (n_seen >= 0.5).astype(np.float32)


def _print_search(shares: tuple[np.ndarray, np.ndarray], s: float, around: tuple[float, float], reach: int,
                  pitches: tuple[np.ndarray, np.ndarray]) -> tuple[float, float, float, tuple[float, float]]:
    """The best place of the wall's top-left cell (crop px, within `reach` crop px of
    `around`) and pitches across and down (as fractions of the measured ones), by how
    much of each wall cell shows its diagonal's colour."""
    share, cell_seen = shares
    m = _SEARCH_REACH
    r_px = max(1, round(reach * s))
    # Padded with unseen view, so that a grid stretched to the edge of the view is only
    # partly seen. A wall's score is summed row by row: each row's cells for a pitch
    # across, then the rows for each pitch down.
    pad = r_px + round(2 * CELL_PX * s)
    shown = np.pad(share * cell_seen, ((0, 0), (pad, pad), (pad, pad)))
    seen = np.pad(cell_seen, pad)
    ax, ay = (around[0] + m) * s + pad, (around[1] + m) * s + pad
    best = (-1.0, 1.0, 1.0, around)
    for sx in pitches[0]:
        xs = [slice(x - r_px, x + r_px + 1) for x in (round(ax + _PITCH[0] * c * sx * s) for c in range(5))]
        seen_row = sum(seen[:, x] for x in xs)
        rows = [sum(shown[(c - r) % 5, :, x] for c, x in enumerate(xs)) for r in range(5)]
        for sy in pitches[1]:
            ys = [slice(y - r_px, y + r_px + 1)
                  for y in (round(ay + _PITCH[1] * r * sy * s) for r in range(5))]
            num = sum(row[y] for row, y in zip(rows, ys, strict=True))
            cnt = sum(seen_row[y] for y in ys)
            score = np.where(cnt >= 13, num / np.maximum(cnt, 1), 0.0)
            iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
            if score[iy, ix] > best[0]:
                best = (float(score[iy, ix]), float(sx), float(sy),
                        (around[0] + (ix - r_px) / s, around[1] + (iy - r_px) / s))
    return best


def _look(panel: np.ndarray, centers: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pixels, groups = _sample_windows(panel, centers, half)
    hists, glare = color.histograms(color.word_indices(pixels), groups, len(centers))
    return pixels, hists, glare


def window_features(pixels: np.ndarray, hists: np.ndarray, glare: np.ndarray) -> np.ndarray:
    """One window of each place described for the place model: the share of each colour
    word (square-rooted, so that small shares such as the marker's ink count), the glare
    share, and lightness and saturation order statistics, which say how dark, how vivid
    and how uniform the window is without fixing any colour."""
    n = len(hists)
    px = pixels.reshape(n, -1, 3).astype(np.float32, copy=False)
    b, g, r = px[..., 0], px[..., 1], px[..., 2]
    hi, lo = np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)
    sat = (hi - lo) / np.maximum(hi, 1.0)
    m = px.shape[1]
    v = np.sort(hi, axis=1)[:, [m // 10, m // 2, 9 * m // 10]] / 255.0
    sq = np.sort(sat, axis=1)
    stats = np.stack([
        v[:, 0], v[:, 1], v[:, 2], sq[:, m // 2], sq[:, 9 * m // 10],
        ((hi >= 40) & (sat >= 0.45)).mean(axis=1),  # vivid
        ((sat >= 0.3) & (np.minimum(b, g) > r + 30)).mean(axis=1),  # teal ink
        (hi < 70).mean(axis=1),  # dark
    ], axis=1)
    total = hists.sum(axis=1, keepdims=True) + glare[:, None]
    shares = np.sqrt(hists / np.maximum(total, 1.0))
    return np.concatenate([shares, glare[:, None] / np.maximum(total, 1.0), stats], axis=1)


# Columns of one look in window_features' row: the word shares, the glare share, then the stats.
_LOOK = len(color.WORD_NAMES) + 1 + 8
# A place's features: its three colour looks, then the relief look (see _relief). The
# side models read the colour looks only.
COLOUR_COLUMNS = 3 * _LOOK
FEATURE_COLUMNS = COLOUR_COLUMNS + 9 + 2 * _RELIEF_BLOCKS**2
_V90 = len(color.WORD_NAMES) + 1 + 2
_TEAL_INK = len(color.WORD_NAMES) + 1 + 6
_TEAL_WORDS = [color.WORD_NAMES.index(w) for w in ("teal", "darkteal")]


@functools.cache
def place_kind(place: tuple, side: str) -> str:
    """Which place model reads a place: pattern lines and floor share one; a wall cell
    is read by the grey side's or, on the coloured side, by its printed colour's."""
    if place[0] != "wall":
        return "open"
    return f"wall:{printed_color(place[1], place[2])}" if side == "colored" else "wall:grey"


def side_kind(place: tuple) -> str:
    """The model that tells from a wall cell which side of the board is up."""
    return f"side:{printed_color(place[1], place[2])}"


def _load_place_models(path: Path) -> dict[str, dict]:
    """The place models measured by vision.calibrate (kept in prototypes.json)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    models = {}
    for kind, m in data.get("places", {}).items():
        try:
            models[kind] = {"classes": [None if c is None else str(c) for c in m["classes"]],
                            "mean": np.asarray(m["mean"], np.float64),
                            "scale": np.asarray(m["scale"], np.float64),
                            "layers": [np.asarray(w, np.float64) for w in m["layers"]]}
        except (KeyError, TypeError, ValueError):
            return {}  # made by another version: stale, read by the mixes instead
        if kind.startswith("side:") and HIDDEN not in models[kind]["classes"]:
            return {}  # side models from before they told what lies over a cell: stale too
        reads = (COLOUR_COLUMNS if kind.startswith(("side:", COLOUR_ONLY))
                 else FEATURE_COLUMNS if kind.removeprefix(SETTLED) in BOARD_KINDS else None)
        if reads is not None and len(models[kind]["mean"]) != reads:
            return {}  # fitted on other features (place models from before the relief look): stale too
    for kind in BOARD_KINDS & models.keys():
        pair = models.get(COLOUR_ONLY + kind)
        if pair is None or pair["classes"] != models[kind]["classes"]:
            return {}  # a board's model without its second opinion to read with: stale too
        settled = models.get(SETTLED + kind)
        if settled is not None and settled["classes"] != models[kind]["classes"]:
            return {}  # a settled model that cannot be averaged with its kind's: stale too
    # (A final model reads what its kind's does: its numbers are checked as its kind's.)
    for kind in [k for k in models if k.startswith(FINAL)]:
        base = models.get(kind.removeprefix(FINAL))
        if base is None or base["classes"] != models[kind]["classes"] \
                or len(base["mean"]) != len(models[kind]["mean"]):
            return {}  # a final model that cannot stand for its kind's: stale too
    return models


# The place models of a board's places, on either side.
BOARD_KINDS = {place_kind(p, side) for p in PLACES for side in ("colored", "grey")}
# Each board's place model has a second, fitted on the colour looks alone (its kind so
# prefixed). The relief look makes a model sure also where a sleeve's edge, a tall tile's
# side faces seen at 42 degrees or a hand's shadow show a relief no tile on its place has
# (seed 9, frame 299: a floor of tall tiles read empty, surely; other boards read turned
# or sided wrong by what the model saw over their walls). A place is read by the two
# models' probabilities averaged (see _RELIEF_SAY): surely only where both lean the same
# way. (Seeds 7 / 9, against the relief look's models alone: 3 / 13 fewer places surely
# wrong, 0 / 11 fewer boards read exactly; against the colour looks' alone: 7 / 7 fewer
# surely wrong, 7 / 17 more boards exactly.)
COLOUR_ONLY = "colour:"
# On the coloured wall a place holds a tile or shows its print (or lies under something),
# the tile the print's colour: what the relief look was made to tell. There the relief
# look's model has three times the colour looks' say. (Seeds 7 / 9, against an even say:
# 5 / 4 more boards read exactly, 27 / 11 more places right, none more wrong; at 0.9, a
# sleeve's edge over a wall, seed 3, read as a black tile again.)
_RELIEF_SAY = {f"wall:{c}": 0.75 for c in COLORS}
# Where nothing can show a relief no tile has, the relief look alone reads the coloured
# wall: a white or yellow tile on its pale print can look like the print in colour alone
# (seed 7, frame 29: a yellow tile, relief look 1.00, colour looks 0.02, read 0.75 sure;
# frame 435: a white tile, relief look 0.84, colour looks 0.07, read 0.76 sure at nine
# times the colour looks' say). That is a coloured board whose blue frame shows all round
# (a sleeve along the top of the wall crosses it), where the model sees nothing over any
# place, before or after, nothing plain and dark lies over one, and no more than
# _UNSURE_MOST places are unsure (more: its grid is likelier off its print than its
# places looked at badly). (Seeds 7 / 9 / 8 / 2 / 1: +3 / +1 / +2 / +1 / +1 boards read
# exactly, none more wrong. On every board, seed 9: 8 more places surely wrong, where
# sleeves lie; on boards with more places unsure, seed 1: 4, on a board half a cell off;
# with the frame not judged, a sleeve's edge along the top of a wall read as a black tile.
# From nine times the colour looks' say to the relief look's alone: +1 / +1 / +1 / 0 / +2
# boards, a white tile seen at 45 degrees under glare read empty, seed 8.)
_RELIEF_ALONE_CLEAR = frozenset(_RELIEF_SAY)
# On such a board a pattern line's or the floor's place the relief look is sure of (SURE)
# is read by it alone too: there only a tile or the marker stands up, and a yellow or
# white tile under glare can look like the plain cell in colour alone (seed 9, frame 38:
# a yellow tile, relief look 0.92, colour looks 0.02: read unknown). Where the relief
# look is less sure, the two keep an even say: alone, its 0.61 for a blue tile (the colour
# looks' 0.81) left a line unknown (seed 1, frame 26). (Seeds 7 / 9 / 8 / 2 / 1: 0 / +1 /
# 0 / 0 / 0 boards read exactly, none more wrong; on the grey side too, no change. Seeds 10
# / 11, never tuned on: +3 / +1 boards, 0 / +2 places surely wrong, one the marker read as
# a white tile, the relief look 0.91 sure of it, seed 11 frame 144.)
_RELIEF_ALONE_SURE_CLEAR = frozenset({"open"})
# A board's place models fitted again, on the frames they were fitted on and 3,550 more
# (seeds 5 and 6), are named so: once a board's outline and grid are chosen (see
# recognize.analyse), its places are read again with each such model's probabilities
# averaged with its kind's (see read_settled). They read pale tiles under glare and
# places half under a hand more surely, but only there: the grid's checks, the choice
# between outlines and whether a board shows its print go by what its places read, and
# were tuned with the models of its kind. Read by the new models throughout, outlines an
# arm cut short were placed again off their print and read surely wrong (seed 9 frames
# 195 and 382: 13 and 5 places). (Seeds 7 / 9 / 8 / 2 / 1: +2 / +3 / +4 / 0 / +2 boards
# read exactly, 0 / 0 / 0 / +1 / +2 places surely wrong; seeds 10 / 11, never tuned on:
# +4 / +13 boards, +1 / +3. Read again by the new models alone, not averaged, and taken
# whole: seed 9 11 more places surely wrong, a floor of tall tiles at 42 degrees read
# empty.)
SETTLED = "settled:"
# The coloured wall's models (each first and its `colour:` second) fitted again with
# other cameras' looks too (vision.calibrate --looks: more or less colourful, another tone
# curve, sharpened), named so and their kind. Once a board's outline, turn, side and grid
# are chosen by its kind's models, its places are read out by each model with its final
# one (see read_final), where they were looked at. Only read out: the grid's checks, the
# choice between outlines and whether a board shows its print go by what its places
# read, and were tuned with the models of its kind (choosing with the final models too,
# outlines an arm cut short were placed a place off their print and their pattern lines
# and floor read surely wrong: seed 9 frame 195, 11 places; seed 8 frame 255, 17). The
# grey wall has none: its boards read other looks nearly as well, and refitted its models
# left empty cells of a grey board under an arm unknown (session 74). The factory's model
# has one too, which reads the discs out likewise (see vision.factories._read_out).
FINAL = "final:"
# Read out by the final models alone, other looks (frames 0-299 of seeds 7 / 8) read 937 /
# 926 boards exactly where the shipped models read 875 / 846, with 22 / 94 places surely
# wrong against 256 / 302; but the measured look 3 / 3 / 6 boards fewer (seeds 7 / 9 / 8):
# refitted, a model loses boards its kind read, with the looks or without (session 73).
# So each model and its final one are averaged before the softmax, the final one having
# this say: other looks (500 frames of seeds 7 / 8) 95.0% / 92.6% of boards exactly
# (88.9% / 86.0% before), 0.104% / 0.193% of places surely wrong (0.564% / 0.638%); the
# measured look 0 / +1 / -2 boards against the kind's alone, none more surely wrong. (An
# even say, frames 0-299: 920 / 901 boards, 90 / 148 surely wrong; 0.75: 933 / 914, 38 / 111.)
_FINAL_SAY = 0.75


HIDDEN = "hidden"  # a place model's class for something (a hand, a cup) over the place
PLACE_MODELS = _load_place_models(Path(__file__).with_name("prototypes.json"))
# A place of a board is read only when the model is this sure; below it, "unknown".
# (Seeds 7 / 9, from 0.85 to 0.80: 53 / 47 more cells read right, 3 / 3 more wrong; on
# to 0.75: 27 / 29 more right, 4 / 6 more wrong, and seed 9 near the bound of 0.1% wrong.)
SURE = 0.80
# A pattern line of two places or more, read as a whole (_decode_line), is said when its
# likeliest (colour, count) is this sure. Places that agree on one colour leave a line
# unsure mostly of where its last tile ends, at a place a tile's side face or lean half
# covers. It is said only: the grid's checks and the board's confidence go by what is
# read SURE (taken into them, it lowered a board's confidence and a grey board under an
# arm was read on another outline, seed 1 frame 150). Seeds 7 / 9 / 8, from 0.80: 1 / 2 / 2
# more boards read exactly, one more place surely wrong (seed 8, a line of two read as
# three); at 0.70, fewer; at 0.60, seed 9 read 7 places of a board surely wrong. A line
# of one place is a place alone: said at 0.65, one more surely wrong on seed 1.
LINE_SURE = 0.65
# A grid moved onto the print is fitted to its cells' colours, less exactly than one
# measured on the panel's edges: its pattern lines are said (LINE_SURE) only as surely as
# a place is read. Its places once asked more than SURE: 0.95, then 0.90 (seeds 7 / 9: 57
# / 62 more cells read right, 1 / 2 more wrong), then 0.85 (43 / 27 more right, 1 / 2 more
# wrong). With the relief look's models, on to 0.80: seeds 7 / 9 / 8 / 2 / 1, 2 / 2 / 1
# / 0 / 1 more boards read exactly, 9 / 10 / 6 / 6 / 2 more cells right, 0 / 1 / 1 / 1 / 0
# more wrong (places the grid moved read 0.80-0.85 sure, right).
_MOVED_SURE = SURE
# The side must be surer: read wrong, it turns every wall cell into a confident misread.
# (0.99 is the vote of about four clear cells more for one side than for the other.)
SIDE_SURE = 0.99


def place_probabilities(kind: str, features: np.ndarray, *, clear: bool = False,
                        settled: bool = False, final: bool = False) -> tuple[list, np.ndarray]:
    """Classes of a place model and their probabilities for each row of features (for a
    board's place, averaged with its second model's over the colour looks: see COLOUR_ONLY
    and _RELIEF_SAY; `clear`: on a board nothing lies over, see _RELIEF_ALONE_CLEAR and
    _RELIEF_ALONE_SURE_CLEAR; `settled`: on a board whose grid is chosen, see SETTLED;
    `final`: read out by the final models, see FINAL)."""
    colour_too = kind in BOARD_KINDS and not (clear and kind in _RELIEF_ALONE_CLEAR)
    return _said(kind, _PlaceSays.of(kind, features, settled=settled, final=final, colour=colour_too), clear)


@dataclass(frozen=True)
class _PlaceSays:
    """What a place model and its model of the colour looks alone (None: it has none, or
    it was not asked) say of rows of features, before they are weighed together: a board
    read both as one something lies over and as one nothing does weighs the same says."""

    classes: list
    p: np.ndarray
    colour: np.ndarray | None

    @classmethod
    def of(cls, kind: str, features: np.ndarray, *, settled: bool, final: bool,
           colour: bool = True) -> _PlaceSays:
        classes, p = _kind_probabilities(kind, features, final)
        if settled and SETTLED + kind in PLACE_MODELS:
            p = (p + _model_probabilities(PLACE_MODELS[SETTLED + kind], features)[1]) / 2
        colour_p = (_kind_probabilities(COLOUR_ONLY + kind, features[:, :COLOUR_COLUMNS], final)[1]
                    if colour and kind in BOARD_KINDS else None)
        return cls(classes, p, colour_p)


def _said(kind: str, says: _PlaceSays, clear: bool) -> tuple[list, np.ndarray]:
    """A place model's classes and probabilities, its says weighed (see place_probabilities)."""
    p = says.p
    if says.colour is not None and not (clear and kind in _RELIEF_ALONE_CLEAR):
        w = _RELIEF_SAY.get(kind, 0.5)
        if clear and kind in _RELIEF_ALONE_SURE_CLEAR:
            w = np.where(p.max(axis=1, keepdims=True) >= SURE, 1.0, w)
        p = w * p + (1 - w) * says.colour
    return says.classes, p


def _kind_probabilities(kind: str, features: np.ndarray, final: bool) -> tuple[list, np.ndarray]:
    """A kind of place's classes and their probabilities: in a final read, its model's and
    its final model's, if it has one, averaged before the softmax (see _FINAL_SAY)."""
    m, read_out = PLACE_MODELS[kind], PLACE_MODELS.get(FINAL + kind) if final else None
    if read_out is None:
        return _model_probabilities(m, features)
    return m["classes"], _softmax((1 - _FINAL_SAY) * _model_logits(m, features)
                                  + _FINAL_SAY * _model_logits(read_out, features))


def _model_probabilities(m: dict, features: np.ndarray) -> tuple[list, np.ndarray]:
    return m["classes"], _softmax(_model_logits(m, features))


def _model_logits(m: dict, features: np.ndarray) -> np.ndarray:
    z = (features - m["mean"]) / m["scale"]
    for k, w in enumerate(m["layers"]):
        z = z @ w[:-1] + w[-1]
        if k < len(m["layers"]) - 1:
            z = np.maximum(z, 0.0)  # hidden layers: ReLU
    return z


def _softmax(z: np.ndarray) -> np.ndarray:
    p = np.exp(z - z.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def _read_places(features: np.ndarray, glare: np.ndarray, hists: np.ndarray, side: str,
                 covered: np.ndarray, *, cut: np.ndarray, frame_shown: Callable[[], bool],
                 settled: bool = False,
                 final: bool = False) -> tuple[dict[tuple, Reading], np.ndarray, dict[tuple, Reading]]:
    """Each place's reading, which places the model sees something (a hand, a cup) over,
    and the places of pattern lines read whole less surely than SURE (said, see LINE_SURE,
    and read in the first place by themselves); `covered` marks places that something
    plain and dark lies over (see _plain_dark), `cut` those whose relief look the frame's
    edge cuts, read by their colour looks alone (see read_board); `frame_shown`: whether
    the board's frame shows all round (see _RELIEF_ALONE_CLEAR and
    _RELIEF_ALONE_SURE_CLEAR); `settled`, `final`: see SETTLED and FINAL."""
    every = list(range(len(PLACES)))
    says = _says_by_kind(lambda place: place_kind(place, side), every, features, settled=settled, final=final)
    weighed = _weighed(says, clear=False)
    probs = _by_place(weighed)
    if side == "colored" and not covered.any() and not _seen_over(weighed) \
            and sum(int((p.max(axis=1) < SURE).sum()) for _, _, p in weighed.values()) <= _UNSURE_MOST:
        clear = _weighed(says, clear=True)
        if not _seen_over(clear) and _told_apart(weighed, clear) and frame_shown():
            probs = _by_place(clear)
    for i in np.flatnonzero(cut):
        classes, p = _kind_probabilities(COLOUR_ONLY + place_kind(PLACES[i], side),
                                         features[i:i + 1, :COLOUR_COLUMNS], final)
        probs[i] = (classes, p[0])
    places = {}
    said: dict[tuple, Reading] = {}
    over = np.zeros(len(PLACES), bool)
    # Glare is one of what the model reads (its share of the window): a glint over part of
    # a tile still leaves the rest to read it by. Only a window out of the frame says nothing.
    in_view = hists.sum(axis=1) + glare > 0
    for i, place in enumerate(PLACES):
        classes, p = probs[i]
        if not in_view[i]:
            places[place] = Reading(UNKNOWN, 0.0)
            probs[i] = (classes, np.full(len(classes), 1.0 / len(classes)))  # says nothing
            continue
        if place[0] == "line" and MARKER in classes:  # the marker never lies on a pattern line
            p = p.copy()
            p[classes.index(MARKER)] = 0.0
            p = p / p.sum()
            probs[i] = (classes, p)
        if covered[i] and "black" in classes and HIDDEN in classes:
            # What the model takes for a black tile is plain dark, and so is the print
            # round it: a sleeve over the place.
            p = p.copy()
            p[classes.index(HIDDEN)] += p[classes.index("black")]
            p[classes.index("black")] = 0.0
            probs[i] = (classes, p)
        over[i] = classes[int(np.argmax(p))] == HIDDEN
        places[place] = _place_reading(classes, p, grey_wall=place_kind(place, side) == "wall:grey")
    for k in range(5):
        index = [PLACES.index(("line", k, j)) for j in range(k + 1)]
        decoded = _decode_line([probs[i] for i in index])
        if decoded is not None and decoded[0].confidence < SURE:
            if k:  # (a line of one place is a place alone: read SURE)
                said.update({("line", k, j): reading for j, reading in enumerate(decoded)})
            decoded = None
        if decoded is None:
            # No (colour, count) is sure: whatever its places say one by one, the count is unread.
            weakest = min(range(k + 1), key=lambda j: places[("line", k, j)].confidence)
            decoded = [places[("line", k, j)] for j in range(k + 1)]
            decoded[weakest] = Reading(UNKNOWN, decoded[weakest].confidence)
        for j, reading in enumerate(decoded):
            places[("line", k, j)] = reading
    index = [PLACES.index(("floor", j)) for j in range(7)]
    floor = _floor_filled([places[("floor", j)] for j in range(7)],
                          _decode_floor([probs[i] for i in index], list(in_view[index])))
    places.update({("floor", j): reading for j, reading in enumerate(floor)})
    return places, over, said


def _floor_filled(alone: list[Reading], whole: list[Reading]) -> list[Reading]:
    """The floor's places, each as read alone (`alone`) where that is sure, else as the
    floor read whole (`whole`, see _decode_floor). Not a place read empty before one read
    as a tile: the floor fills from the left, so one of the two is wrong, and the floor
    read whole weighs both. (Seed 9, frame 295: the first-player marker under glare read
    empty at 0.85, the yellow tile after it at 0.99; read whole, the marker at 0.83.
    Seeds 7 / 9 / 8 / 2 / 1: 0 / +1 / 0 / 0 / 0 boards read exactly, 0 / 2 / 0 / 0 / 0
    fewer places surely wrong, and of the places the truth hides, 1 / 1 / 5 / 1 / 3 fewer
    read wrong.)"""
    tiled = [r.value not in (None, UNKNOWN) for r in alone]
    return [w if a.value == UNKNOWN or (a.value is None and any(tiled[j + 1:])) else a
            for j, (a, w) in enumerate(zip(alone, whole, strict=True))]


_PLAIN_DARK_V = 0.3  # a black tile's rosette lifts its window's brightest tenth past this
_PLAIN_DARK_INK = 0.01  # ... and shows at least this share of teal ink


def _plain_dark(features: np.ndarray) -> np.ndarray:
    """Places each of whose looks (see read_board) is dark and plain: nothing light, no
    teal. A black tile's window shows its teal rosette; a navy sleeve's shows nothing.
    (Seeds 7 and 9, frames 0-249: of 3,896 black tiles read black, none plain; of 190
    places read black where none lies, 122, most under navy sleeves.)"""
    looks = [features[:, k:k + _LOOK] for k in range(0, COLOUR_COLUMNS, _LOOK)]
    return np.all([(f[:, _V90] < _PLAIN_DARK_V) & (f[:, _TEAL_INK] < _PLAIN_DARK_INK)
                   & ((f[:, _TEAL_WORDS] ** 2).sum(axis=1) < _PLAIN_DARK_INK) for f in looks], axis=0)


_ROUND = np.array([(_PITCH[0], 0), (-_PITCH[0], 0), (0, _PITCH[1]), (0, -_PITCH[1])], np.float64)  # crop px
_ROUND_HALF = 6  # panel px
_ROUND_DARK = 3  # of the four


def _dark_round(panel: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """Places (centres in crop px) most of whose four neighbours (a pitch away across and
    down) are dark too. A sleeve is some cells wide; black tiles lie in a line, or alone
    in a wall row, with lighter places across from them."""
    pixels, _ = _sample_windows(panel, ((centers[:, None, :] + _ROUND) * _SCALE).reshape(-1, 2), _ROUND_HALF)
    light = np.median(pixels.max(axis=-1).reshape(len(centers) * len(_ROUND), -1), axis=1) / 255.0
    return (light < _PLAIN_DARK_V).reshape(-1, len(_ROUND)).sum(axis=1) >= _ROUND_DARK


def _over_shared(classes: list, p: np.ndarray) -> np.ndarray:
    """Class probabilities (one row a place) with the share the model gives to something
    over a place (HIDDEN) added to every class alike: what stands over a place could hide
    any of them, so that share says nothing of which. (The model gives such a share in
    plain view too, to a cup's shadow or a tile's side face.)"""
    if HIDDEN not in classes:
        return p
    over = p[..., classes.index(HIDDEN)]
    return p + over[..., None] / (len(classes) - 1)


def _place_reading(classes: list, p: np.ndarray, *, grey_wall: bool) -> Reading:
    """A place read alone: its likeliest class if the model is SURE of it; unknown if
    something over it is likeliest. A place that looks empty is read so once the share
    the model gives to something over it is shared out (_over_shared): nothing that
    stands over a place looks like its print, bar a grey sleeve like the grey wall's.
    (What stands over a place can look like a tile: a navy sleeve like a black one.)"""
    best = int(np.argmax(p))
    if classes[best] == HIDDEN:
        return Reading(UNKNOWN, float(p[best]))
    conf = float(p[best])
    if classes[best] is None and not grey_wall and HIDDEN in classes:
        conf += float(p[classes.index(HIDDEN)]) / (len(classes) - 1)  # as _over_shared, for one class
    return Reading(classes[best] if conf >= SURE else UNKNOWN, conf)


def _decode_floor(probs: list[tuple[list, np.ndarray]], in_view: list[bool]) -> list[Reading]:
    """The floor line read as a whole: it fills from the left, so its places hold
    `count` tiles (or the marker) and nothing after them. Each place is read from the
    chance that it lies before or after the end, and, before it, of each tile; a place
    the model sees something over stays unknown, and so does one out of the frame, which
    says nothing of where the end is."""
    classes = probs[0][0]
    p = np.array([q for _, q in probs])  # places x classes
    if MARKER in classes and HIDDEN in classes:
        # Where the marker is likeliest, the share of something over its place is its
        # own (see below): it says nothing of whether the floor ends there.
        marked = np.argmax(p, axis=1) == classes.index(MARKER)
        p[marked, classes.index(MARKER)] += p[marked, classes.index(HIDDEN)]
        p[marked, classes.index(HIDDEN)] = 0.0
    empty = p[:, classes.index(None)]
    over = p[:, classes.index(HIDDEN)] if HIDDEN in classes else np.zeros(len(p))
    filled = np.clip(1 - empty - over, 0.0, 1.0)
    # Something over a place says nothing of whether it holds a tile.
    log_filled = np.where(in_view, np.log(np.clip(filled + over, 1e-9, 1.0)), 0.0)
    log_empty = np.where(in_view, np.log(np.clip(empty + over, 1e-9, 1.0)), 0.0)
    n = len(p)
    scores = np.array([log_filled[:k].sum() + log_empty[k:].sum() for k in range(n + 1)])
    post = np.exp(scores - scores.max())
    post /= post.sum()
    readings = []
    for j in range(n):
        before_end = float(post[j + 1:].sum())
        best = int(np.argmax(np.where([c in (None, HIDDEN) for c in classes], -1.0, p[j])))
        options = [(1 - before_end, None), (before_end * p[j, best] / max(filled[j], 1e-9), classes[best])]
        conf, value = max(options, key=lambda o: o[0])
        # What stands over a place can look like a tile, not like the floor's print. Nor
        # like the first-player marker, whose dark-blue "1" in its frame, plain and dark
        # as a navy sleeve, earns it a share of something over the place (seed 7, frame
        # 441: 0.28; seeds 7 / 9 / 8 / 2 / 1: 1 / 0 / 0 / 1 / 1 more boards read exactly,
        # none more wrong). Counted as something over the place, that share also left
        # where the floor ends in doubt: seed 7 frame 246, the marker 0.63 and something
        # over it 0.33, read 0.72 sure (taken as the marker's: +1 / 0 / 0 / 0 / 0 boards,
        # none more wrong).
        if value is not None and value != "marker":
            conf *= 1 - over[j]
        readings.append(Reading(value if conf >= SURE and in_view[j] else UNKNOWN, conf))
    return readings


def _decode_line(probs: list[tuple[list, np.ndarray]]) -> list[Reading] | None:
    """A pattern line read as a whole: it holds `count` tiles of one colour from the wall
    end and nothing after them, so its places are read together as the most likely
    (colour, count); None when that is not LINE_SURE."""
    classes = probs[0][0]
    # A place something may stand over leaves the count open only as far as any tile
    # could lie under it: past a place surely empty, none can.
    model_p = np.array([q for _, q in probs])  # places x classes
    logp = np.log(np.clip(_over_shared(classes, model_p), 1e-9, 1.0))
    empty = classes.index(None)
    colors = [c for c, name in enumerate(classes) if name in COLORS]
    n = len(probs)
    # tail[c]: log-probability that places c.. are all empty
    tail = np.concatenate([np.cumsum(logp[::-1, empty])[::-1], [0.0]])
    options = [(tail[0], None, 0)]
    for c in colors:
        head = np.cumsum(logp[:, c])
        options += [(head[count - 1] + tail[count], classes[c], count) for count in range(1, n + 1)]
    scores = np.array([o[0] for o in options])
    post = np.exp(scores - scores.max())
    post /= post.sum()
    best = int(np.argmax(post))
    _, name, count = options[best]
    # What stands over a place can look like a tile (a navy sleeve like black ones), so a
    # tile is read only as surely as nothing is over it.
    conf = float(post[best])
    if HIDDEN in classes:
        conf *= float(np.prod(1 - model_p[:count, classes.index(HIDDEN)]))
    if conf < LINE_SURE:
        return None
    return [Reading(name if j < count else None, conf) for j in range(n)]


def _read_by_mixes(hists: np.ndarray, glare: np.ndarray, vivid: np.ndarray,
                   side: str) -> dict[tuple, Reading]:
    """Each place by the colour-word mixes alone (when no place model has been measured)."""
    tiles = {c: color.TILE_MIXES[c] for c in COLORS}
    places: dict[tuple, Reading] = {}
    for i, place in enumerate(PLACES):
        if place[0] == "line":
            cands: dict[str | None, list[np.ndarray]] = {None: color.EMPTY_MIXES, **tiles}
        elif place[0] == "floor":
            cands = {None: color.EMPTY_MIXES, **tiles, MARKER: color.TILE_MIXES[MARKER]}
        elif side == "colored":
            # On the coloured side a wall cell only ever takes the tile of its printed
            # colour (the rules), so the question there is only "tile or not?".
            printed = printed_color(place[1], place[2])
            cands = {None: color.PRINTED_MIXES[printed], printed: color.TILE_MIXES[printed]}
        else:
            cands = {None: color.PRINTED_MIXES["grey"], **tiles}
        reading = color.classify(hists[i], glare[i], cands)
        if place[0] == "wall" and side == "colored" and hists[i].sum() > 0:
            reading = _tile_or_print(reading, printed, vivid[i])
        places[place] = reading
    return places


# Saturation (max - min) / max does not change when a shadow or a falloff of the light
# dims a place, and it parts a tile from the print under it: blue, red and yellow tiles
# are vivid (real tiles: S about 0.75-0.83), the wall's printed designs pale
# (real-table.md). White tiles (S about 0.5 over half the tile) are too close to their
# print, and black is told by lightness, which a shadow does change: both are left to
# the colour mixes.
_VIVID_S = 0.45
_VIVID_TILE = {"blue": 0.5, "red": 0.5, "yellow": 0.5}
_VIVID_PRINT = 0.08


def _vivid_share(pixels: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """Share of each window's pixels that are vivid (saturated and not dark)."""
    px = pixels.astype(np.float32)
    b, g, r = px[:, 0], px[:, 1], px[:, 2]
    hi, lo = np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)
    vivid = (hi >= 40) & (hi - lo >= _VIVID_S * np.maximum(hi, 1))
    return np.bincount(groups, weights=vivid.astype(np.float64), minlength=n) / np.maximum(
        np.bincount(groups, minlength=n), 1)


def _tile_or_print(reading: Reading, printed: str, vivid: float) -> Reading:
    """A coloured-side wall cell: the colour mixes' call checked against saturation."""
    if printed not in _VIVID_TILE:
        return reading
    tile_like = vivid >= _VIVID_TILE[printed]
    print_like = vivid <= _VIVID_PRINT
    if (reading.value == printed and print_like) or (reading.value is None and tile_like):
        return Reading(UNKNOWN, 0.0)  # the two cues disagree: do not guess
    if reading.value == UNKNOWN and (tile_like or print_like):
        return Reading(printed if tile_like else None, 0.7)
    return reading


# The cream boxes cut into windows of about a cell (crop px): beside the short pattern
# lines, and along the strip between the wall and the floor labels.
_CREAM_WINDOWS = ([(x, y, x + 75, y + 77) for x in (15, 90) for y in (110, 187)]
                  + [(x, 447, x + 77, 478) for x in range(20, 564, 77)])
# A hand, a sleeve or a tile's shadow over part of the cream darkens the windows under it
# whole, and a lamp's light falls off across the board: a window darker than this share
# of what the brighter half of the windows show is not the cream the places lie on.
_CREAM_SHADED = 0.75


def _panel_balance(panel: np.ndarray, s: float, rough: WhiteBalance) -> WhiteBalance:
    """Gains that make this board's cream background look like the reference cream,
    measured on the 8-bit panel where nothing lies over the cream. (The cream is even
    over a window: every second pixel across and down measures it as well as all of them.)"""
    windows = [panel[round(y0 * s):round(y1 * s):2, round(x0 * s):round(x1 * s):2].reshape(-1, 3)
               for x0, y0, x1, y1 in _CREAM_WINDOWS]
    px = np.concatenate(windows)
    of = np.repeat(np.arange(len(windows)), [len(w) for w in windows])
    bright = (px[:, 0].astype(np.intp) + px[:, 1]) + px[:, 2]
    # Each window's brightness counted (a sum of three 8-bit channels): its median and
    # percentiles are read off the counts. Black is out of the frame: not counted.
    levels = 3 * 255 + 1
    counts = np.bincount(of * levels + bright, minlength=len(windows) * levels).reshape(len(windows), levels)
    counts[:, 0] = 0
    seen = np.flatnonzero(counts.sum(axis=1))
    if not len(seen):
        return rough
    medians = np.array([counted_percentile(counts[i], 50) for i in seen])
    cream = median(np.sort(medians)[len(medians) // 2:])
    clear = np.zeros(len(windows), bool)
    clear[seen[medians >= _CREAM_SHADED * cream]] = True
    counted = counts[clear].sum(axis=0)
    if counted.sum() < 20:
        return rough
    px = px[clear[of] & (bright >= counted_percentile(counted, 40))]
    ref = np.array([percentile(px[:, k], 50) for k in range(3)])
    if ref.min() < 10:  # nothing usable: keep the frame's balance
        return rough
    return WhiteBalance.from_reference(ref)


# Each kind's places (by index), classes and probabilities, a row a place (see _weighed).
_Weighed = dict[str, tuple[list[int], list, np.ndarray]]


def _told_apart(a: _Weighed, b: _Weighed) -> bool:
    """Whether two weighings of the same places (see _weighed) tell any place apart: its
    likeliest class, or whether that is SURE."""
    for (_, _, p), (_, _, q) in zip(a.values(), b.values(), strict=True):
        sure_p, sure_q = p.max(axis=1) >= SURE, q.max(axis=1) >= SURE
        if (p.argmax(axis=1) != q.argmax(axis=1)).any() or (sure_p != sure_q).any():
            return True
    return False


def _seen_over(weighed: _Weighed) -> bool:
    """Whether the model sees something over any of the places (see _weighed)."""
    return any(HIDDEN in classes and bool((p.argmax(axis=1) == classes.index(HIDDEN)).any())
               for _, classes, p in weighed.values())


def _by_kind(kind_of, rows: list[int], features: np.ndarray) -> dict[int, tuple[list, np.ndarray]]:
    """Class probabilities of places (by index), each under the model `kind_of` names for it."""
    return _by_place(_weighed(_says_by_kind(kind_of, rows, features), clear=False))


def _says_by_kind(kind_of, rows: list[int], features: np.ndarray, *, settled: bool = False,
                  final: bool = False) -> dict[str, tuple[list[int], _PlaceSays]]:
    """What each kind of place's models say of its places (by index): see _PlaceSays."""
    groups: dict[str, list[int]] = {}
    for i in rows:
        groups.setdefault(kind_of(PLACES[i]), []).append(i)
    return {kind: (idx, _PlaceSays.of(kind, features[idx], settled=settled, final=final))
            for kind, idx in groups.items()}


def _weighed(says: dict[str, tuple[list[int], _PlaceSays]], clear: bool) -> _Weighed:
    """Each kind's places, classes and probabilities, its says weighed (`clear`: see
    place_probabilities)."""
    return {kind: (idx, *_said(kind, kind_says, clear)) for kind, (idx, kind_says) in says.items()}


def _by_place(weighed: _Weighed) -> dict[int, tuple[list, np.ndarray]]:
    """Each place's classes and probabilities, by its index."""
    return {i: (classes, row) for idx, classes, p in weighed.values() for i, row in zip(idx, p, strict=True)}


def _side_by_model(features: np.ndarray, hists: np.ndarray, glare: np.ndarray) -> tuple[str, float]:
    """The side up, from what every wall cell in view says of it (a cell holding a tile
    says little: the same tile may lie on either side). Each cell's say is capped, so
    a few cells read wrong cannot outvote the rest; a cell the side model sees something
    over (a hand; a grey sleeve looks like the grey side) says nothing."""
    total = hists.sum(axis=1) + glare
    cells = [i for i, p in enumerate(PLACES) if p[0] == "wall" and total[i] > 0]
    votes = 0.0
    for classes, p in _by_kind(side_kind, cells, features[:, :COLOUR_COLUMNS]).values():
        if p[classes.index(HIDDEN)] >= 0.5:
            continue
        odds = np.log(max(p[classes.index("colored")], 1e-6) / max(p[classes.index("grey")], 1e-6))
        votes += float(np.clip(odds, -3.0, 3.0))
    side = "colored" if votes >= 0 else "grey"
    return side, float(1 / (1 + np.exp(-abs(votes) / 2)))


def _decide_side(hists: np.ndarray) -> tuple[str, float]:
    """Coloured side if the wall's empty cells look like their printed colours, grey if
    grey. A cell holding a tile says nothing: the same tile may lie on either side."""
    diff = []
    for i, place in enumerate(PLACES):
        if place[0] != "wall":
            continue
        h = hists[i]
        colored = color._score(h, color.PRINTED_MIXES[printed_color(place[1], place[2])])
        grey = color._score(h, color.PRINTED_MIXES["grey"])
        tile = max(color._score(h, color.TILE_MIXES[t]) for t in COLORS)
        if np.isfinite(colored) and np.isfinite(grey) and max(colored, grey) > tile:
            diff.append(colored - grey)
    if not diff:
        return "colored", 0.0
    votes = np.sign(diff)
    share = float((votes > 0).mean())
    side = "colored" if share >= 0.5 else "grey"
    agreement = share if side == "colored" else 1 - share
    return side, float(np.clip((agreement - 0.5) / 0.3, 0, 1))


def _line(k: int, readings: list[Reading]) -> dict:
    """A pattern line's colour and count from its places (place 0 next to the wall)."""
    values = [r.value for r in readings]
    if any(v == UNKNOWN for v in values):
        seen = {v for v in values if v not in (None, UNKNOWN)}
        return {"color": seen.pop() if len(seen) == 1 else UNKNOWN, "count": None}
    tiles = [v for v in values if v is not None]
    if not tiles:
        return {"color": None, "count": 0}
    kinds = set(tiles)
    return {"color": tiles[0] if len(kinds) == 1 else UNKNOWN, "count": len(tiles)}
