"""Reading a located board: pattern lines, floor and wall, each place on its own.

Places are sampled in the measured 900 x 600 crop of the lower panel
(real-table.md). A tile is 7 mm thick, so seen obliquely its top face lies off the
cell printed under it, away from the camera's foot; each place is sampled halfway
between the cell and the top face, in a window small enough to lie inside both:
the tile's top (or body) when a tile is there, the printed cell when not.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import color
from .boards import PANEL_H_PX, PANEL_W_PX, BoardFind
from .color import COLORS, MARKER, UNKNOWN, Reading, WhiteBalance
from .geometry import apply_h, camera_in_plane, parallax

CELL_PX = 78
TILE_LIFT_PX = 7.0 / (243.0 / PANEL_W_PX)  # a tile's thickness in crop px
_WINDOW = 0.44  # sampled window, as a fraction of a cell
_SCALE = 0.5  # the panel is read at half the measured crop's resolution


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

# Cream background of the panel (crop px), free of cells and print: beside the short
# pattern lines, and the strip between the wall and the floor labels.
_CREAM_BOXES = ((15, 110, 165, 265), (20, 447, 640, 478))


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
    occluded: bool
    balance: WhiteBalance
    histograms: np.ndarray  # word counts of each place's window, in PLACES order


def _sample_windows(panel: np.ndarray, centers: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of a (2*half)^2 window round each centre (panel px), and each pixel's window index."""
    h, w = panel.shape[:2]
    off = np.arange(-half, half)
    cx = np.clip(np.round(centers[:, 0]).astype(int)[:, None, None] + off[None, None, :], 0, w - 1)
    cy = np.clip(np.round(centers[:, 1]).astype(int)[:, None, None] + off[None, :, None], 0, h - 1)
    cx, cy = np.broadcast_arrays(cx, cy)
    pixels = panel[cy.ravel(), cx.ravel()]
    groups = np.repeat(np.arange(len(centers)), (2 * half) ** 2)
    return pixels, groups


def read_board(frame: np.ndarray, board: BoardFind, rough: WhiteBalance) -> BoardReading:
    s = _SCALE
    out_w, out_h = round(PANEL_W_PX * s), round(PANEL_H_PX * s)
    to_img = board.panel_h @ np.diag([1 / s, 1 / s, 1.0])
    panel = cv2.warpPerspective(frame, np.linalg.inv(to_img), (out_w, out_h), flags=cv2.INTER_LINEAR)
    panel = panel.astype(np.float32)
    wb = _panel_balance(panel, s, rough)
    panel = wb.apply(panel)

    cam = camera_in_plane(board.panel_h, frame.shape[1], frame.shape[0])
    shift = parallax(cam, CENTERS, TILE_LIFT_PX) / 2
    centers = (CENTERS + shift) * s
    half = max(3, round(_WINDOW * CELL_PX * s / 2))
    pixels, groups = _sample_windows(panel, centers, half)
    words = color.word_indices(pixels)
    hists, glare = color.histograms(words, groups, len(PLACES))
    vivid = _vivid_share(pixels, groups, len(PLACES))

    # A place whose sampled window runs out of the frame is not seen.
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half / s
    looks = [apply_h(board.panel_h, c + corners) for c in CENTERS + shift]
    h_img, w_img = frame.shape[:2]
    out_of_frame = np.array([((q < 0).any() or (q[:, 0] > w_img - 1).any() or (q[:, 1] > h_img - 1).any())
                             for q in looks])
    hists[out_of_frame] = 0
    glare[out_of_frame] = 0

    side, side_conf = _decide_side(hists)
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

    lines = [_line(k, [places[("line", k, p)] for p in range(k + 1)]) for k in range(5)]
    floor = [places[("floor", i)].value for i in range(7)]
    wall = [[places[("wall", r, c)].value for c in range(5)] for r in range(5)]
    known = [r.confidence for r in places.values() if r.value != UNKNOWN]
    any_unknown = any(r.value == UNKNOWN for r in places.values())
    confidence = board.confidence * side_conf * (min(known) if known else 0.0)
    return BoardReading(side, side_conf, lines, floor, wall, places,
                        apply_h(board.panel_h, CENTERS + shift), float(confidence), any_unknown, wb, hists)


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
    hi, lo = px.max(axis=1), px.min(axis=1)
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


def _panel_balance(panel: np.ndarray, s: float, rough: WhiteBalance) -> WhiteBalance:
    """Gains that make this board's cream background look like the reference cream."""
    px = np.concatenate([panel[round(y0 * s):round(y1 * s), round(x0 * s):round(x1 * s)].reshape(-1, 3)
                         for x0, y0, x1, y1 in _CREAM_BOXES])
    bright = px.sum(axis=1)
    px = px[bright > 0]  # black: out of the frame
    if len(px) < 20:
        return rough
    bright = bright[bright > 0]
    px = px[bright >= np.percentile(bright, 40)]
    ref = np.median(px, axis=0)
    if ref.min() < 10:  # nothing usable: keep the frame's balance
        return rough
    return WhiteBalance.from_reference(ref)


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
