"""Ground truth for a rendered frame: the `azul-observation/1` object a perfect
recogniser would print, plus image geometry for scoring a recogniser per cell.

A place counts as hidden ("unknown") when more than HIDDEN_FRACTION of it is
covered by something drawn over the game (a hand, a cup) or lies outside the image.
"occluded" is true when a hand or a tall thing covers part of the play area.
A disc's places are not printed, so its tiles hidden are counted as unknown, and its
geometry gives the share of its middle hidden ("middle_hidden"): an empty disc under an
arm hides no tile, yet no frame shows it empty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .compose import polygon_mask, roi_of
from .tiles import TILE_MM

HIDDEN_FRACTION = 0.3
QUARTER_SLACK_DEG = 2.0


@dataclass
class TileRecord:
    color: str
    top: np.ndarray  # image quad of the top face
    place: tuple  # ("line", line, place) / ("floor", i) / ("wall", r, c) / ("factory",) / ("center",)


@dataclass
class BoardRecord:
    content_index: int
    center: np.ndarray
    up: np.ndarray  # image direction of the score track
    outline: np.ndarray
    lines: list[list[np.ndarray]]  # lines[k][j]: place j counted from the wall
    floor: list[np.ndarray]
    wall: list[list[np.ndarray]]
    tiles: list[TileRecord] = field(default_factory=list)


# A disc's tiles lie in a 2x2 block round its middle (layout.factory_positions): within
# a tile's diagonal of it, whichever way the block is turned.
MIDDLE_RADIUS_MM = TILE_MM * math.sqrt(2)


@dataclass
class FactoryRecord:
    content_index: int
    center: np.ndarray
    outline: np.ndarray
    middle: np.ndarray  # image outline of the disc's middle, where its tiles lie
    tiles: list[TileRecord] = field(default_factory=list)


def hidden_fraction(poly: np.ndarray, occluder: np.ndarray) -> float:
    """Share of a polygon's area that is off the image or under an occluder."""
    p = np.asarray(poly, np.float64).reshape(-1, 2)
    x, y = p[:, 0], p[:, 1]
    prev = np.arange(-1, len(p) - 1)  # np.roll(., 1) as an index
    area = 0.5 * abs(float(np.dot(x, y[prev]) - np.dot(y, x[prev])))
    if area < 1e-6:
        return 1.0
    h, w = occluder.shape
    roi = roi_of(p, w, h, pad=0)
    if roi is None:
        return 1.0
    x0, y0, x1, y1 = roi
    cover = polygon_mask(p, roi)
    under = occluder[y0:y1, x0:x1]
    if under.any():
        cover *= 1 - under.astype(np.float32) / 255
    seen = float(cover.sum())
    return float(np.clip(1 - seen / area, 0, 1))


def _hidden(polys: list[np.ndarray], occluder: np.ndarray) -> bool:
    return any(hidden_fraction(p, occluder) > HIDDEN_FRACTION for p in polys)


def _inside(point: np.ndarray, width: int, height: int) -> bool:
    return 0 <= point[0] < width and 0 <= point[1] < height


def _rotation(up: np.ndarray) -> int:
    angle = math.degrees(math.atan2(up[0], -up[1]))
    return round(angle / 90.0) % 4 * 90


def quarter_turns(outline: list | np.ndarray) -> set[int]:
    """The rotations a board whose image outline (its top's corners, from the owner's
    top left, clockwise) may rightly be read at: the nearest quarter turn, and both when
    the board lies within QUARTER_SLACK_DEG of half-way between two, where an error of
    a fraction of a degree in finding the board flips which is nearest."""
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    h = cv2.getPerspectiveTransform(square, np.float32(outline))
    centre, top = cv2.perspectiveTransform(np.float32([[[0.5, 0.5], [0.5, 0.0]]]), h)[0]
    up = top - centre
    quarters = math.degrees(math.atan2(up[0], -up[1])) / 90.0
    if abs(quarters - math.floor(quarters) - 0.5) * 90.0 <= QUARTER_SLACK_DEG:
        return {math.floor(quarters) % 4 * 90, math.ceil(quarters) % 4 * 90}
    return {round(quarters) % 4 * 90}


def _clockwise_from_bottom(centers: list[np.ndarray], middle: np.ndarray) -> list[int]:
    """Indices in the spec's order: the one nearest the bottom edge, then clockwise."""
    if not centers:
        return []
    first = max(range(len(centers)), key=lambda i: centers[i][1])
    a0 = math.atan2(centers[first][1] - middle[1], centers[first][0] - middle[0])

    def key(i: int) -> float:
        a = math.atan2(centers[i][1] - middle[1], centers[i][0] - middle[0])
        return (a - a0) % (2 * math.pi)

    return sorted(range(len(centers)), key=key)


def _pts(a: np.ndarray) -> list:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(a).reshape(-1, 2)]


def _board_observation(rec: BoardRecord, content, occluder: np.ndarray) -> dict:
    by_place = {t.place: t for t in rec.tiles}

    def hidden(place: tuple, cell: np.ndarray) -> bool:
        polys = [cell] + ([by_place[place].top] if place in by_place else [])
        return _hidden(polys, occluder)

    lines = []
    for k, (color, count) in enumerate(content.lines):
        hidden_places = [hidden(("line", k, j), rec.lines[k][j]) for j in range(k + 1)]
        if any(hidden_places):
            seen = [j for j in range(count) if not hidden_places[j]]
            lines.append({"color": color if seen else "unknown", "count": None})
        else:
            lines.append({"color": color, "count": count})
    floor = [
        "unknown" if hidden(("floor", i), rec.floor[i]) else tile for i, tile in enumerate(content.floor)
    ]
    wall = [
        ["unknown" if hidden(("wall", r, c), rec.wall[r][c]) else content.wall[r][c] for c in range(5)]
        for r in range(5)
    ]
    return {
        "center": _pts(rec.center)[0],
        "rotation": _rotation(rec.up),
        "side": content.side,
        "lines": lines,
        "floor": floor,
        "wall": wall,
        "confidence": 1.0,
    }


def build_truth(
    content,
    boards: list[BoardRecord],
    factories: list[FactoryRecord],
    center_tiles: list[TileRecord],
    middle: np.ndarray,
    *,
    occluder: np.ndarray,
    play_covered: bool,
    camera_info: dict,
) -> dict:
    h, w = occluder.shape
    shown_boards = [b for b in boards if _inside(b.center, w, h)]
    seat_order = [
        shown_boards[i]
        for i in _clockwise_from_bottom(
            [b.center for b in shown_boards],
            np.mean([b.center for b in shown_boards], axis=0) if shown_boards else middle,
        )
    ]
    shown_factories = [f for f in factories if _inside(f.center, w, h)]
    factory_order = [
        shown_factories[i] for i in _clockwise_from_bottom([f.center for f in shown_factories], middle)
    ]

    obs_boards, geo_boards = [], []
    for seat, rec in enumerate(seat_order):
        board = _board_observation(rec, content.boards[rec.content_index], occluder)
        obs_boards.append(board)
        geo_boards.append(
            {
                "seat": seat,
                "content_index": rec.content_index,
                "outline": _pts(rec.outline),
                "lines": [[_pts(q) for q in line] for line in rec.lines],
                "floor": [_pts(q) for q in rec.floor],
                "wall": [[_pts(q) for q in row] for row in rec.wall],
                "tiles": [{"color": t.color, "place": list(t.place), "top": _pts(t.top)} for t in rec.tiles],
            }
        )
    obs_factories, geo_factories = [], []
    for number, rec in enumerate(factory_order, start=1):
        seen = [t for t in rec.tiles if not _hidden([t.top], occluder)]
        unknown = len(rec.tiles) - len(seen)
        obs_factories.append(
            {
                "center": _pts(rec.center)[0],
                "tiles": [t.color for t in seen],
                "unknown": unknown,
                "confidence": 1.0,
            }
        )
        radius = float(np.mean(np.linalg.norm(rec.outline - rec.center, axis=1)))
        geo_factories.append(
            {
                "number": number,
                "content_index": rec.content_index,
                "center": _pts(rec.center)[0],
                "radius": round(radius, 1),
                "outline": _pts(rec.outline),
                "middle_hidden": round(hidden_fraction(rec.middle, occluder), 3),
                "tiles": [{"color": t.color, "top": _pts(t.top)} for t in rec.tiles],
            }
        )
    counts: dict[str, int] = {}
    marker, unknown = False, 0
    for t in center_tiles:
        if _hidden([t.top], occluder):
            unknown += 1
        elif t.color == "marker":
            marker = True
        else:
            counts[t.color] = counts.get(t.color, 0) + 1
    return {
        "format": "azul-observation/1",
        "image": {"width": w, "height": h},
        "occluded": play_covered,
        "boards": obs_boards,
        "factories": obs_factories,
        "center": {"tiles": counts, "marker": marker, "unknown": unknown},
        "geometry": {
            "camera": camera_info,
            "boards": geo_boards,
            "factories": geo_factories,
            "center_tiles": [{"color": t.color, "top": _pts(t.top)} for t in center_tiles],
            "middle": _pts(middle)[0],
        },
    }
