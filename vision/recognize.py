"""One frame in, one `azul-observation/1` out (shared/spec/observation.md).

On a kiosk's table that carries the kit's ArUco markers (`azul-companion kit`), what
they say of each seat's board (vision.aruco) is an aid: a board they place that no board
found lies over is read where they place it (see MarkedTable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from .aruco import Aid, BoardRegion, MarkerLayout, aided_regions
from .boards import (
    BOARD_H_MM,
    BOARD_W_MM,
    BoardFind,
    blue_mask,
    board_of_panel,
    board_sized,
    find_boards,
    frame_blue_share,
    frame_covered,
    grown,
    in_proportion,
    panel_of_board,
    reduced,
    rotation_of,
    table_plane,
)
from .cells import (
    SIDE_SURE,
    BoardReading,
    fits_grey_wall,
    places_unread,
    read_at_bonus_turn,
    read_board,
    read_final,
    read_floor_by_print,
    read_registered,
    shows_print,
)
from .color import UNKNOWN, Reading, WhiteBalance
from .factories import CenterReading, FactoryReading, read_factories
from .geometry import apply_h, clockwise_from_bottom

FORMAT = "azul-observation/1"


@dataclass
class Recognition:
    """Everything found in a frame: the observation, and what drew it (for overlays)."""

    observation: dict
    boards: list[tuple[BoardFind, BoardReading]] = field(default_factory=list)
    factories: list[FactoryReading] = field(default_factory=list)
    center: CenterReading | None = None
    aid: Aid | None = None  # what the kit's markers said, when the frame was read with them


def recognize(frame_bgr: np.ndarray, players: int | None = None, aid: Aid | None = None) -> dict:
    """The observation of one BGR frame (uint8, H x W x 3); `aid`: what the kit's markers
    in it say (vision.aruco.aided_regions), on a table that carries them."""
    return analyse(frame_bgr, players, aid).observation


class MarkedTable:
    """A kiosk's table that carries the kit's markers for `players` players: each frame
    recognised with what its markers say, the last table plane carried over while arms
    hide them (a kiosk's camera does not move). Called with a frame, as recognize."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.layout = MarkerLayout.for_players(players)
        self.aid: Aid | None = None

    def __call__(self, frame_bgr: np.ndarray) -> dict:
        aid = aided_regions(frame_bgr, self.layout, self.players, self.aid)
        if aid is not None:
            self.aid = aid
        return recognize(frame_bgr, self.players, aid)


def analyse(frame_bgr: np.ndarray, players: int | None = None, aid: Aid | None = None) -> Recognition:
    frame = _as_bgr(frame_bgr)
    h, w = frame.shape[:2]
    small, scale = reduced(frame)
    rough = WhiteBalance.from_brightest(small)
    small = rough.apply_u8(small)
    blue = blue_mask(small)
    finds = find_boards(small, blue, scale, frame, rough)
    if players is not None:
        finds = sorted(finds, key=lambda b: -b.confidence)[:players]
    # Boards lie round the table: the middle of them is its middle, which a board whose
    # turn is hidden faces (see read_registered).
    middle = np.mean([b.center for b in finds], axis=0) if len(finds) >= 2 else None
    found = [_read_or_rival(frame, b, rough, middle) for b in finds]
    readings = [r for r in found if r is not None]
    readings = _rebalanced(frame, readings, rough)
    unread = [b for b, r in zip(finds, found, strict=True) if r is None]
    again = _untold_rebalanced(frame, unread, readings, rough, middle)
    readings += [r for r in again if r is not None]
    unread = [b for b, r in zip(unread, again, strict=True) if r is None]
    readings = _grown_back(frame, small, scale, rough, readings, middle=middle, unread=unread)
    # The side is told once boards are grown back: one whose wall a sleeve lies over is
    # then read again on it too (seed 9, frame 1: its wall cells in view, read 0.72-1.00
    # sure and right, were left unread).
    readings = _sides_told(frame, readings, rough)
    # Last, of the boards neither the strip nor the print turned (nor grown back whole):
    unread = [b for b in unread if not any(_over(b, other) for other, _ in readings)]
    readings += [r for r in _bonus_told(frame, scale, rough, unread, readings) if r is not None]
    if aid is not None:
        readings = _aided(frame, readings, aid.boards, rough, middle=middle,
                          blue_share=lambda board: frame_blue_share(board, blue, scale))
    readings = _seat_order(_said_on_told_side(readings))
    # Every outline, turn, side and grid chosen, the places are read out (cells.FINAL and
    # cells.SETTLED), and the floor where its print lies.
    readings = [(board, read_final(frame, board, reading, rough)) for board, reading in readings]
    readings = [(board, read_floor_by_print(frame, board, reading, rough)) for board, reading in readings]

    table_wb = WhiteBalance.combine(_table_balances([r for _, r in readings]))
    # The game lays out two discs a player and one more, for two players or more: one
    # board read (an arm over the others) still tells the circle of discs five or more.
    seated = players if players is not None else (max(2, len(readings)) if readings else None)
    factories, center = read_factories(frame, blue, scale, table_wb, [b for b, _ in readings],
                                       expected=2 * seated + 1 if seated else None,
                                       at_least=players is None)

    boards_json = [_board_json(b, r) for b, r in readings]
    # Occluded means something (a hand) is over the play area, as observation.md has it: a
    # place or a centre tile read as "unknown" (glare, blur) says so itself and leaves the
    # rest of the frame worth reading.
    occluded = (any(r.occluded or frame_covered(b, blue, scale) for b, r in readings)
                or any(f.covered for f in factories))
    # A hand over the pile hides what lies under it, and its fingers are read as no tile:
    # with many such points in a frame with a hand, a tile of the pile may be hidden.
    if occluded and center is not None and center.unknown == 0 \
            and center.nothing_first >= _HAND_BY_PILE:
        center = dataclasses.replace(center, unknown=1)
    observation = {
        "format": FORMAT,
        "image": {"width": int(w), "height": int(h)},
        "occluded": bool(occluded),
        "boards": boards_json,
        "factories": [f.as_json() for f in factories],
        "center": center.as_json() if center is not None else {"tiles": {}, "marker": False, "unknown": 0},
    }
    return Recognition(observation, readings, factories, center, aid)


def _read_or_rival(frame: np.ndarray, board: BoardFind, rough: WhiteBalance,
                   middle: np.ndarray | None) -> tuple[BoardFind, BoardReading] | None:
    """A board read where its print is (cells.read_registered); one whose turn neither its
    strip nor its print tells, read as its rival (BoardFind.rival) if that one's grid
    lies on its print. None if neither is read."""
    read = read_registered(frame, board, rough, middle=middle)
    if read is None and board.rival is not None:
        again = read_registered(frame, board.rival, rough, middle=middle)
        if again is not None and again[1].grid_in_place:
            return again
    return read


# A grid on the bare table can pass its check on the cloth's noise (a seat's place with
# no board there: seed 7 frame 452, none of a frame's blue where it was read): a board
# the markers place shows its blue frame, bar what an arm hides (boards the finder missed
# under arms, tagged, seeds 7 / 9 / 8: 0.56-1.0 of it).
_AIDED_FRAME_SHOWN = 0.3


def _aided(frame: np.ndarray, readings: list[tuple[BoardFind, BoardReading]],
           regions: tuple[BoardRegion, ...], rough: WhiteBalance, *, middle: np.ndarray | None,
           blue_share: Callable[[BoardFind], float]) -> list[tuple[BoardFind, BoardReading]]:
    """The boards read, with each board the markers place (`regions`) that no board read
    lies over read where they place it, if its grid then lies on its print (the print is
    searched for round it: a seat's place is only where its board should lie) and at
    least _AIDED_FRAME_SHOWN of its blue frame in view shows (`blue_share`, see
    boards.frame_blue_share). A board whose own tags place it also takes the place of the
    boards read over it whose grids lie off their print (an arm over its outline, say)."""
    out = list(readings)
    for region in regions:
        placed = _placed(region)
        over = [k for k, (board, _) in enumerate(out) if _over(placed, board) or _over(board, placed)]
        if over and (region.source != "tags" or any(out[k][1].grid_in_place for k in over)):
            continue
        read = read_registered(frame, placed, rough, middle=middle)
        if read is None or not read[1].grid_in_place:
            continue
        there = _placed_by_panel(read[0])
        if blue_share(there) >= _AIDED_FRAME_SHOWN:
            out = [*(r for k, r in enumerate(out) if k not in over), (there, read[1])]
    return out


def _placed(region: BoardRegion) -> BoardFind:
    """A board where the markers place it, turned as they say."""
    panel_h = panel_of_board(region.board_h)
    return BoardFind(region.quad, region.board_h, panel_h, rotation_of(panel_h), region.confidence)


def _placed_by_panel(board: BoardFind) -> BoardFind:
    """A board the markers placed, drawn out from where its panel was read: they say where
    to look, the print (searched for round a grid off it) where the board is."""
    board_h = board_of_panel(board.panel_h)
    quad = apply_h(board_h, [[0, 0], [BOARD_W_MM, 0], [BOARD_W_MM, BOARD_H_MM], [0, BOARD_H_MM]])
    return dataclasses.replace(board, quad=quad, board_h=board_h)


# Points of the pile read as no tile, in a frame flagged occluded, that leave the pile
# unknown in part. (Seed 7: of 30 frames whose hand hid a tile of the pile, 29 had 4 or
# more, and the pile was read surely wrong in all but one; of 353 piles read exactly in
# frames not flagged, 24 had 4 or more, 12 of 72 in frames flagged. Seeds 7 / 9, from 7:
# 33 / 30 fewer centres read surely wrong, 4 / 15 fewer exactly; from 4, 37 / 34 and 5 / 21.)
_HAND_BY_PILE = 7


# A board's outline grown back is this much bigger than the one found, or it is much the
# same outline found again: a grid near where the first one failed may pass its check by
# chance (seed 9: a grid 30 mm off, grown to 0.92 of the outline found, read 10 of 25
# places wrong a cell off; outlines grown right measured 1.02-2.4 of those found). Not
# so a grid on which the coloured print shows clearly, nor a board unread: its outline,
# rebuilt round what hid its strip, may be too big, and its grid grown back is read
# only if the print tells its turn (seed 9, frames 1 and 428: grown back to 0.84 and
# 0.93 of the outline rebuilt, 35 and 46 of 47 places read right, none wrong).
_GROWN_LEAST = 1.03


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def _plane_in_place(readings: list[tuple[BoardFind, BoardReading]], scale: float) -> np.ndarray | None:
    """The table plane (small px -> mm) the surest board whose grid is in place measures;
    None with no such board."""
    placed = [b for b, r in readings if r.grid_in_place]
    return table_plane(max(placed, key=lambda b: b.confidence), scale) if placed else None


# A board sure of its side reads at least this many of its wall cells, or, where boards
# sure of theirs differ, it has no say: a sleeve over most of a coloured wall reads as the
# grey side, surely, from the few cells left in view. (Seeds 9 / 8: 2 / 4 boards read so
# on the other side than the rest, 3 to 11 wall cells read, where the others read 25.)
_SIDE_WALL_SHOWN = 13
# ... and was found at least this surely: an outline rebuilt round an arm and the frame's
# edge (seed 10 frame 305: found at 0.00) can put a grid on a grey board's pattern lines,
# where the coloured print's check passes on the tiles, and the wall read there says
# "coloured" surely.
_OUTLINE_SURE = 0.5


def _wall_shown(reading: BoardReading) -> bool:
    return sum(v != UNKNOWN for row in reading.wall for v in row) >= _SIDE_WALL_SHOWN


def _side_told(readings: list[tuple[BoardFind, BoardReading]]) -> tuple[str, float] | None:
    """The side every board sure of its own shows (a game is played on one side), and
    how surely the least sure of them shows it; None if they differ, or there are none.
    Where they differ, only boards that show most of their wall, and whose outline was
    found surely, have a say."""
    sure = [(b, r) for b, r in readings if r.side_confidence >= SIDE_SURE and r.grid_in_place]
    if len({r.side for _, r in sure}) > 1:
        sure = [(b, r) for b, r in sure if _wall_shown(r) and b.confidence >= _OUTLINE_SURE]
    sides = {r.side for _, r in sure}
    return (sides.pop(), min(r.side_confidence for _, r in sure)) if len(sides) == 1 else None


def _grown_back(frame: np.ndarray, small: np.ndarray, scale: float, rough: WhiteBalance,
                readings: list[tuple[BoardFind, BoardReading]], *, middle: np.ndarray | None,
                unread: list[BoardFind]) -> list[tuple[BoardFind, BoardReading]]:
    """Each board read, and a board whose grid lies off its print read again as its
    outline grown back to a board's size (see boards.grown), if grown one way its grid
    lies on the print: its outline was cut short along an arm over it. So too a board
    `unread` (its turn untold, and its print shown at no turn): the arm that hid its
    strip may have cut its outline short, or it was rebuilt too big round the arm. Such a
    board may be grown to any size (see _GROWN_LEAST), and must read as the coloured side,
    whose print told its turn, or fit a grey wall with nothing over it: a grey one read
    at the turn facing the table's middle, the hand over it, read 4 places of 20 surely
    wrong (seed 9, frame 476); grown to a board's size clear of the hand, it fits the
    grey wall at one turn only and reads 38 places of 47 right, none wrong.

    Only where a board in place measures the table plane: by a plane its own sides
    guessed, a board grown 200 mm off fitted a grey wall (seed 4, frame 202). A game is
    played on one side, so a board grown onto the other side than every board sure of
    its own shows is read again on theirs, and kept only if its grid lies on that side's
    wall (seed 8, frame 312: grown 113 mm off, it read 27 places on the coloured side
    beside three grey boards). Of several ways, one on which the coloured print shows
    clearly, then one whose grid passed its check as placed (not only weakly), then the
    one that reads most places."""
    to_mm = _plane_in_place(readings, scale)
    if to_mm is None:
        return readings
    placed = [b for b, r in readings if r.grid_in_place]
    told = _side_told(readings)

    def on_told_side(board: BoardFind, reading: BoardReading) -> tuple[BoardFind, BoardReading] | None:
        if told is None or reading.side == told[0]:
            return board, reading
        reread = read_board(frame, board, rough, reading.sure, reading.balance, told=told)
        return (board, reread) if reread.grid_in_place else None

    def again(board: BoardFind, *, untold: bool = False) -> tuple[BoardFind, BoardReading] | None:
        least = 0.0 if untold else _GROWN_LEAST * _area(board.quad)
        boards = [b for b in grown(board, small, scale, frame, rough, to_mm=to_mm)
                  if not any(_over(b, other) for other in placed)]
        read = filter(None, (read_registered(frame, b, rough, middle=middle) for b in boards))
        in_place = filter(None, (on_told_side(b, r) for b, r in read if r.grid_in_place))
        tries = [(b, r) for b, r in in_place if (shows_print(r) or _area(b.quad) >= least)
                 and (r.side == "colored" or not untold or (fits_grey_wall(r) and not r.occluded))]
        return max(tries, key=lambda t: (shows_print(t[1]), t[1].sure is None, int(t[1].read_first.sum())),
                   default=None)

    out = [(board, reading) if reading.grid_in_place else again(board) or (board, reading)
           for board, reading in readings]
    return out + [r for r in (again(b, untold=True) for b in unread) if r is not None]


def _over(board: BoardFind, other: BoardFind) -> bool:
    """Whether a board lies over another (their middles nearer than 0.3 of its diagonal)."""
    size = np.linalg.norm(board.quad[2] - board.quad[0])
    return bool(np.linalg.norm(board.center - other.center) < 0.3 * size)


# Under one light, boards' creams measure within 0.77-1.41 of the others' gains (1,607
# boards of seed 7, a lamp's falloff included); boards whose cream an arm or a sleeve
# hid measured 1.6-2.9, and boards with a sleeve over part of it 1.46-1.49, whose places
# by the sleeve were then unread or read wrong (a white tile as its print). (Seeds 7 /
# 9 / 8 / 2 / 1, from 1.55: +2 / +1 / 0 / +1 / 0 boards read exactly, 3 / 2 / 0 / 0 / 0
# fewer places surely wrong, none more.)
_DARKER_MOST = 1.45
# An arm lying over the cream beside a grey board's pattern lines shows there as the
# lightest thing, taken for the cream: its gains were 1.2-1.5 times the others', the
# grey cells showed as light as "cream" and the grid failed its check, every place left
# unknown. A grey board read surely grey, whose grid failed, is read again under the
# other boards' balance from this much darker, and taken if its grid fits the grey block
# then. Only on an outline within _SQUARE_WITHIN of a whole board's proportions: an
# outline an arm cut short (0.86 of them, seed 2 frame 181) fitted the block squeezed.
# (Seeds 7 / 9 / 8 / 2 / 1: 0 / 2 / 3 / 0 / 2 more boards read exactly, none more wrong.)
_GREY_DARKER_MOST = 1.15
_SQUARE_WITHIN = 0.1
# A sleeve over part of the cream, not most of it, leaves a board read in place with
# gains within the others' spread, but dark enough that the places beside the sleeve
# read as something over them: a grey board beside a red sleeve read 3 of its 18 places
# in view, the other 15 unknown, and all 18 under the other boards' balance (seed 11
# frame 75). A board read in place with places unread, its cream more than this much
# darker than the others', is read again under their balance, and taken if it then reads
# at least _READS_MORE places more, in place and on the same side. (Seeds 7 / 5, 17 / 14
# such boards: the three reading 6-7 more read as many places right or more, 3 more on
# seed 7 and 5 on seed 5; those reading 1-2 more, as many or one more wrong, seed 5
# frame 389; a coloured board read again as grey, seed 5 frame 181.
# Seeds 7 / 9 / 8 / 10 / 11 / 2 / 1: +1 / 0 / 0 / 0 / +2 / 0 / 0 boards read exactly,
# none more surely wrong; seed 10 frame 53 lost a board, a black tile by a sleeve read as
# something over it, and a disc, the table's balance moved by the board's.)
_UNREAD_DARKER_MOST = 1.15
_READS_MORE = 3


def _rebalanced(frame: np.ndarray, readings: list[tuple[BoardFind, BoardReading]],
                rough: WhiteBalance) -> list[tuple[BoardFind, BoardReading]]:
    """Each board, and a board whose cream measured far darker than the other boards'
    read again under their balance: an arm or a sleeve over most of its cream's windows
    gave it gains that wash its print out. (So does a grid off its board, whose cream's
    windows lie on tiles or the table: unless its grid was in place, the board read again
    must show the coloured print clearly, or fit a grey wall read surely as grey.) So too
    a grey board whose grid failed, its cream measured somewhat darker (see
    _GREY_DARKER_MOST), kept if its grid then fits the grey wall; and a board read in
    place with places unread, its cream measured somewhat darker (see
    _UNREAD_DARKER_MOST), kept if it then reads more of them."""
    out = []
    for k, (board, reading) in enumerate(readings):
        others = [r for j, (_, r) in enumerate(readings) if j != k]
        table = WhiteBalance.combine(_table_balances(others))
        darker = reading.balance.gains.mean() / table.gains.mean() if others else 0.0
        far = darker > _DARKER_MOST
        grey = not far and darker > _GREY_DARKER_MOST and _grey_unplaced(reading) \
            and in_proportion(board.quad, frame.shape[1], frame.shape[0], within=_SQUARE_WITHIN)
        unread = not far and darker > _UNREAD_DARKER_MOST and reading.grid_in_place \
            and places_unread(reading) > 0
        if far or grey or unread:
            again = read_registered(frame, board, rough, cream=table)
            if again is None:
                taken = False
            elif unread:
                taken = _reads_more(again[1], reading)
            else:
                taken = fits_grey_wall(again[1]) or (far and (reading.grid_in_place or shows_print(again[1])))
            if taken:
                out.append(again)
                continue
        out.append((board, reading))
    return out


def _reads_more(again: BoardReading, reading: BoardReading) -> bool:
    """Whether a board read again reads at least _READS_MORE places more than it did,
    in place and on the same side."""
    return again.grid_in_place and again.side == reading.side \
        and places_unread(again) <= places_unread(reading) - _READS_MORE


def _grey_unplaced(reading: BoardReading) -> bool:
    """Whether a board reads surely as the grey side with its grid off the grey block."""
    return not reading.grid_in_place and reading.side == "grey" and reading.side_confidence >= SIDE_SURE


def _untold_rebalanced(frame: np.ndarray, unread: list[BoardFind],
                       readings: list[tuple[BoardFind, BoardReading]], rough: WhiteBalance,
                       middle: np.ndarray | None) -> list[tuple[BoardFind, BoardReading] | None]:
    """Boards whose turn nothing told, read again under the other boards' balance: the
    arm that hid the strip may lie over the cream too. None for each still unread."""
    if not readings:
        return [None] * len(unread)
    table = WhiteBalance.combine(_table_balances([r for _, r in readings]))
    return [read_registered(frame, b, rough, cream=table, middle=middle) for b in unread]


def _bonus_told(frame: np.ndarray, scale: float, rough: WhiteBalance, unread: list[BoardFind],
                readings: list[tuple[BoardFind, BoardReading]],
                ) -> list[tuple[BoardFind, BoardReading] | None]:
    """`unread` (boards whose turn nothing told; `readings`, every other board), each
    read at the turn its end-bonus panel tells (cells.read_at_bonus_turn), under its own
    balance or else the other boards'. None for each still unread. Only an outline whose
    sides all measure a board's on the table plane a board in place gives: one run from
    a board's corner over an arm onto a disc found the sunburst's blue where the panel
    would be (seed 1000, frame 224), and its own sides guessed a plane it was square on.
    (Seeds 7 / 9: 59 / 3 more places read right; seeds 4 / 1000: 18 / 13; none wrong.)"""
    to_mm = _plane_in_place(readings, scale)
    if to_mm is None:
        return [None] * len(unread)
    table = WhiteBalance.combine(_table_balances([r for _, r in readings]))
    return [read_at_bonus_turn(frame, board, rough, table) if board_sized(board, to_mm, scale) else None
            for board in unread]


def _sides_told(frame: np.ndarray, readings: list[tuple[BoardFind, BoardReading]],
                rough: WhiteBalance) -> list[tuple[BoardFind, BoardReading]]:
    """Each board, and a board whose own wall leaves its side unsure (an arm over most of
    it) read again, where and as it was read, on the side every board sure of its own
    shows: a game is played on one side (game-record.md's variant). A board whose grid
    is off its print has no say: it read its side off whatever lies there (a grey sleeve
    looks like the grey side), and is read again on the side told however sure it was;
    so too, where boards sure of their side differ, one that shows little of its wall."""
    told = _side_told(readings)
    if told is None:
        return readings
    out = []
    for board, reading in readings:
        if reading.side_confidence < SIDE_SURE or reading.side != told[0]:
            again = read_board(frame, board, rough, reading.sure, reading.balance, told=told)
            if again.grid_in_place:
                # what hid the strip of a board whose turn was untold still stands over it
                out.append((board, dataclasses.replace(again, occluded=again.occluded or reading.occluded)))
                continue
        out.append((board, reading))
    return out


def _said_on_told_side(readings: list[tuple[BoardFind, BoardReading]]
                       ) -> list[tuple[BoardFind, BoardReading]]:
    """Each board, and one that does not show its side surely (its own wall unsure, its
    grid off its print, or little of its wall in view where boards sure of their side
    differ) said to show the side every board sure of its own shows, with
    its wall unread: a game is played on one side, and a wall read on the other side's
    print is read off the wrong colours. (Seeds 7 / 9: 1 / 3 more boards on their side.)"""
    told = _side_told(readings)
    if told is None:
        return readings
    out = []
    for board, r in readings:
        if r.side != told[0]:
            places = {p: Reading(UNKNOWN, 0.0) if p[0] == "wall" else v for p, v in r.places.items()}
            r = dataclasses.replace(r, side=told[0], places=places, wall=[[UNKNOWN] * 5 for _ in range(5)],
                                    withheld=r.withheld | {"wall"})
        out.append((board, r))
    return out


_BALANCE_APART = 1.5  # a board's gains this far (either way) from those of boards in place


def _table_balances(readings: list[BoardReading]) -> list[WhiteBalance]:
    """The boards' balances the table's is made from. A board whose grid is not on its
    print may not be where it was found: its "cream" may be an arm or the table, and its
    gains, far from those of the boards whose grid is in place, would tint every disc."""
    placed = [r.balance.gains for r in readings if r.grid_in_place]
    if not placed:
        return [r.balance for r in readings]
    middle = np.median(np.stack(placed), axis=0)
    return [r.balance for r in readings if r.grid_in_place
            or np.all(np.abs(np.log(r.balance.gains / middle)) < np.log(_BALANCE_APART))]


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    a = np.asarray(frame)
    if a.ndim == 2:
        a = cv2.cvtColor(a, cv2.COLOR_GRAY2BGR)
    elif a.ndim == 3 and a.shape[2] == 4:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2BGR)
    elif a.ndim != 3 or a.shape[2] != 3:
        raise ValueError(f"expected an H x W x 3 BGR image, got shape {a.shape}")
    if a.dtype != np.uint8:
        if np.issubdtype(a.dtype, np.floating):
            a = np.clip(a, 0, 255).astype(np.uint8)
        else:
            a = np.clip(a, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(a)


def _seat_order(readings: list[tuple[BoardFind, BoardReading]]) -> list[tuple[BoardFind, BoardReading]]:
    if not readings:
        return readings
    centers = [b.center for b, _ in readings]
    middle = np.mean(centers, axis=0)
    return [readings[i] for i in clockwise_from_bottom(centers, middle)]


def _board_json(board: BoardFind, reading: BoardReading) -> dict:
    return {
        "center": [round(float(v)) for v in board.center],
        "rotation": board.rotation,
        "side": reading.side,
        "lines": reading.lines,
        "floor": reading.floor,
        "wall": reading.wall,
        "confidence": round(float(reading.confidence), 3),
    }


__all__ = ["FORMAT", "UNKNOWN", "Recognition", "analyse", "clockwise_from_bottom", "recognize"]
