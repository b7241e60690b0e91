"""Synthetic camera frames of an Azul Kids table, with ground truth.

    frame, truth = render_kids_table(content, Conditions.random(rng), rng)

The scene: a round storage tray in the middle (5 small bowls around the big one)
and one player board per seat round it, each upright for its owner. Tiles are
thick glossy shapes: red squares, yellow hexagons, green diamonds, blue circles.

The real boards' art is not in our sources, so the boards drawn here are clearly
made up: the fields of an `azul-kids-board/1` definition printed as outlined cream
shapes on a soft, pastel "illustration", pictures (master side) as framed panels
with their stars, and a violet frame round the board. The camera, light, table,
clutter, hands, blur, noise and JPEG all come from the base-game renderer.

`truth` is the `azul-kids-observation/1` object (docs/kids-observation.md) a perfect
recogniser would print for the frame, plus a "geometry" key with image polygons of
every board, field, bowl and tile.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from companion.rules.kids import BIG, BOWL_SIZE, BOWLS, COLORS, SHAPE_OF
from companion.rules.kids_board import APPRENTICE, SIDES, KidsBoard, example_boards

from .camera import Camera, fit_camera
from .clutter import draw_thing, in_view, place_things, shadow_outline
from .compose import ShadowLayer, blend_layer, draw_sprite, pose_matrix, sprite_homography, warp_layer
from .conditions import Conditions
from .designs import bgr
from .layout import BoardPlacement, Layout
from .photo import photograph
from .render import _MAT_BGR, _draw_hand, _glare_spot, _hand_pose, _light_vector
from .solids import box_sides, solid_of_revolution
from .sprites import Sprite, make_sprite, rounded_rect_alpha, smooth_noise
from .table import draw_mat, draw_table
from .truth import HIDDEN_FRACTION, hidden_fraction

FORMAT = "azul-kids-observation/1"

# A Kids board lies 3:2 (the example definitions' fields are about as wide as tall on it).
BOARD_W_MM, BOARD_H_MM = 300.0, 200.0
BOARD_THICKNESS_MM = 2.5
FRAME_MM = 7.0  # the violet band round a board
TILE_THICKNESS_MM = 5.0
# Tile footprints (mm, centred, unrotated): a hexagon with its corners left and right
# and a diamond standing on its tip, as the example boards print their fields.
SQUARE_MM = 20.0
HEXAGON_FLATS_MM = 21.0
DIAMOND_MM = (18.0, 28.0)
CIRCLE_MM = 22.0
# The tray: bowl floors lie at the tray's top; small bowls on a ring round the big one.
TRAY_RADIUS_MM = 190.0
TRAY_HEIGHT_MM = 12.0
BIG_FLOOR_MM = 72.0
SMALL_FLOOR_MM = 46.0
SMALL_RING_MM = 130.0
LIP_MM = 4.0
MAX_BIG_TILES = 10

# Colours (RGB): saturated plastic tiles, a violet board frame and tray, pastel art.
TILE_RGB = {"red": (228, 52, 58), "yellow": (250, 196, 38), "green": (62, 168, 84), "blue": (38, 122, 204)}
VIOLET_RGB = (125, 60, 170)
LIP_RGB = (160, 112, 200)
FLOOR_RGB = (216, 204, 234)
FIELD_RGB = (246, 240, 224)
INK_RGB = (70, 50, 60)
BOARD_EDGE_RGB = (72, 62, 66)
_PASTELS = (
    (200, 226, 236),
    (214, 236, 204),
    (244, 222, 200),
    (236, 214, 226),
    (222, 218, 244),
    (244, 236, 196),
    (204, 228, 222),
    (230, 206, 196),
)
_BOARD_PX_PER_MM = 5.0
_TRAY_PX_PER_MM = 4.0
_TILE_PX_PER_MM = 8.0
SHAPES_INDEX = {SHAPE_OF[c]: i for i, c in enumerate(COLORS)}


# --- what lies on the table -------------------------------------------------------


@dataclass(frozen=True)
class KidsBoardContent:
    """One player's board and the tile on each of its fields: ``fields[p][f]`` is the
    colour on field f of picture p (definition order), or None. Any colour may lie on
    any field: a camera sees mistakes too."""

    board: KidsBoard
    fields: tuple[tuple[str | None, ...], ...] = ()

    def __post_init__(self) -> None:
        fields = self.fields or tuple((None,) * len(p.fields) for p in self.board.pictures)
        object.__setattr__(self, "fields", tuple(tuple(row) for row in fields))
        if len(self.fields) != len(self.board.pictures) or any(
            len(row) != len(p.fields) for row, p in zip(self.fields, self.board.pictures, strict=True)
        ):
            raise ValueError(f"board {self.board.name!r}: fields must follow its pictures and fields")
        for row in self.fields:
            for tile in row:
                if tile is not None and tile not in COLORS:
                    raise ValueError(f"unknown Kids tile {tile!r} (expected one of {', '.join(COLORS)})")


@dataclass(frozen=True)
class KidsTableContent:
    """Boards in seat order, the 5 small bowls (bowl 1 first) and the big bowl."""

    boards: tuple[KidsBoardContent, ...]
    bowls: tuple[tuple[str, ...], ...] = ((),) * BOWLS
    big: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "boards", tuple(self.boards))
        object.__setattr__(self, "bowls", tuple(tuple(b) for b in self.bowls))
        object.__setattr__(self, "big", tuple(self.big))
        if not 2 <= len(self.boards) <= 4:
            raise ValueError(f"Azul Kids has 2 to 4 boards, got {len(self.boards)}")
        if len(self.bowls) != BOWLS:
            raise ValueError(f"the tray has {BOWLS} small bowls, got {len(self.bowls)}")
        for i, bowl in enumerate(self.bowls, 1):
            if len(bowl) > BOWL_SIZE:
                raise ValueError(f"small bowl {i} holds {len(bowl)} tiles (at most {BOWL_SIZE})")
        if len(self.big) > MAX_BIG_TILES:
            raise ValueError(f"the renderer lays at most {MAX_BIG_TILES} tiles in the big bowl")
        for tile in [t for b in self.bowls for t in b] + list(self.big):
            if tile not in COLORS:
                raise ValueError(f"unknown Kids tile {tile!r} (expected one of {', '.join(COLORS)})")


def random_kids_content(
    rng: np.random.Generator,
    players: int = 4,
    side: str = APPRENTICE,
    fill: float = 0.5,
    mistakes: float = 0.03,
) -> KidsTableContent:
    """Example boards of `side` for `players`, about `fill` of their fields covered (now and
    then with a wrong tile), and bowls as a game leaves them."""
    if side not in SIDES:
        raise ValueError(f"side {side!r} is not 'apprentice' or 'master'")
    choices = [b for b in example_boards() if b.side == side]
    boards = []
    for _ in range(players):
        board = choices[int(rng.integers(len(choices)))]
        rows = []
        for picture in board.pictures:
            row = []
            for f in picture.fields:
                tile = None
                if rng.uniform() < fill:
                    tile = COLORS[SHAPES_INDEX[f.shape]]
                    if rng.uniform() < mistakes:
                        tile = str(rng.choice([c for c in COLORS if c != tile]))
                row.append(tile)
            rows.append(tuple(row))
        boards.append(KidsBoardContent(board, tuple(rows)))
    bowls = []
    for _ in range(BOWLS):
        n = BOWL_SIZE if rng.uniform() < 0.5 else int(rng.integers(0, BOWL_SIZE + 1))
        bowls.append(tuple(str(c) for c in rng.choice(COLORS, n)))
    big = tuple(str(c) for c in rng.choice(COLORS, int(rng.integers(0, MAX_BIG_TILES + 1))))
    return KidsTableContent(tuple(boards), tuple(bowls), big)


def mixed_kids_table(seed: int, i: int) -> tuple[KidsTableContent, Conditions, np.random.Generator]:
    """Frame ``i`` of the Kids benchmark's mix for ``seed``: its contents, its conditions and
    the generator to render it with (as vision.synth.mixed_table for the base game)."""
    rng = np.random.default_rng([seed, i])
    players = 4 if i % 4 == 0 else int(rng.integers(2, 5))
    side = str(rng.choice(list(SIDES)))
    content = random_kids_content(rng, players=players, side=side, fill=float(rng.uniform(0.0, 1.0)))
    # every fourth frame is the latency case: a 4-player table at 1920x1080
    cond = Conditions.random(rng, 1920, 1080) if i % 4 == 0 else Conditions.random(rng)
    return content, cond, rng


# --- shapes and artwork -----------------------------------------------------------


def tile_outline(color: str, n_circle: int = 32) -> np.ndarray:
    """Footprint of a tile of `color` (mm, centred, unrotated) as a convex polygon."""
    shape = SHAPE_OF[color]
    if shape == "square":
        h = SQUARE_MM / 2
        return np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    if shape == "hexagon":
        r = HEXAGON_FLATS_MM / math.sqrt(3)
        a = np.radians(np.arange(6) * 60.0)
        return np.column_stack([r * np.cos(a), r * np.sin(a)])
    if shape == "diamond":
        w, h = DIAMOND_MM[0] / 2, DIAMOND_MM[1] / 2
        return np.array([[0, -h], [w, 0], [0, h], [-w, 0]])
    a = np.linspace(0, 2 * np.pi, n_circle, endpoint=False)
    return np.column_stack([CIRCLE_MM / 2 * np.cos(a), CIRCLE_MM / 2 * np.sin(a)])


def tile_area_mm2(color: str) -> float:
    p = tile_outline(color, 256)
    return 0.5 * abs(float(np.dot(p[:, 0], np.roll(p[:, 1], 1)) - np.dot(p[:, 1], np.roll(p[:, 0], 1))))


@cache
def kids_tile_sprite(color: str) -> Sprite:
    """The glossy top face: the colour, a darker bevel round the edge, a faint sheen."""
    s = _TILE_PX_PER_MM
    outline = tile_outline(color, 96)
    half = float(np.abs(outline).max()) + 1.0
    n = round(2 * half * s)
    big = np.zeros((n * 4, n * 4), np.uint8)
    cv2.fillPoly(big, [np.round((outline + half) * s * 4).astype(np.int32)], 255, cv2.LINE_AA)
    alpha = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    edge = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 5) / s  # mm from the edge
    bevel = 1.2
    shade = np.where(edge < bevel, 0.72 + 0.28 * (edge / bevel) ** 0.6, 1.0)
    shade += 0.08 * np.exp(-(((edge - bevel) / 0.3) ** 2))
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    sheen = 1.0 + 0.04 * ((xx + yy) / n - 1.0)
    rng = np.random.default_rng(zlib.crc32(color.encode()))
    grain = 1.0 + 0.01 * smooth_noise((n, n), 5, rng)
    face = np.empty((n, n, 3), np.float32)
    face[:] = bgr(TILE_RGB[color])
    face *= (shade * sheen * grain)[..., None]
    return make_sprite(np.clip(face, 0, 255), alpha, s)


def side_bgr(color: str) -> tuple[float, float, float]:
    r, g, b = TILE_RGB[color]
    return bgr((round(r * 0.86), round(g * 0.86), round(b * 0.86)))


def board_mm(point: tuple[float, float]) -> tuple[float, float]:
    """Board-relative [x, y] (0..1, from the top-left corner) -> board mm from its centre."""
    return (point[0] * BOARD_W_MM - BOARD_W_MM / 2, point[1] * BOARD_H_MM - BOARD_H_MM / 2)


def field_outline_mm(f, n_circle: int = 48) -> np.ndarray:
    """A field's printed outline in board mm from the board's centre: its definition's
    polygon, a circle drawn as the ellipse through its points."""
    if f.outline is not None:
        pts = np.array([board_mm(p) for p in f.outline])
    else:  # only a centre: print the tile's shape with a margin
        at = np.array(board_mm(f.at if f.at is not None else (0.5, 0.5)))
        color = COLORS[SHAPES_INDEX[f.shape]]
        pts = at + tile_outline(color) * 1.5
    if f.shape != "circle":
        return pts
    (cx, cy), (w, h), angle = cv2.fitEllipse(pts.astype(np.float32))
    a = np.linspace(0, 2 * np.pi, n_circle, endpoint=False)
    t = math.radians(angle)
    u, v = w / 2 * np.cos(a), h / 2 * np.sin(a)
    return np.column_stack([cx + u * math.cos(t) - v * math.sin(t), cy + u * math.sin(t) + v * math.cos(t)])


def field_center_mm(f) -> np.ndarray:
    if f.at is not None:
        return np.array(board_mm(f.at))
    return field_outline_mm(f).mean(axis=0)


def _star(center: tuple[float, float], radius: float) -> np.ndarray:
    a = np.arange(10) * np.pi / 5 - np.pi / 2
    r = np.where(np.arange(10) % 2 == 0, radius, radius * 0.45)
    return np.column_stack([center[0] + r * np.cos(a), center[1] + r * np.sin(a)])


@cache
def kids_board_sprite(board: KidsBoard) -> Sprite:
    """A made-up illustrated board for a definition (deterministic per board)."""
    s = _BOARD_PX_PER_MM
    w, h = round(BOARD_W_MM * s), round(BOARD_H_MM * s)
    rng = np.random.default_rng(zlib.crc32(f"{board.name}/{board.side}".encode()))
    top, bottom = (np.float32(bgr(_PASTELS[int(i)])) for i in rng.choice(len(_PASTELS), 2, replace=False))
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img = np.ascontiguousarray(np.broadcast_to(top * (1 - t) + bottom * t, (h, w, 3)), np.float32)
    aa = cv2.LINE_AA
    for _ in range(14):  # soft hills, clouds and waves
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        axes = (int(rng.uniform(20, 90) * s), int(rng.uniform(10, 50) * s))
        color = np.float32(bgr(_PASTELS[int(rng.integers(len(_PASTELS)))])) * rng.uniform(0.9, 1.02)
        cv2.ellipse(img, c, axes, float(rng.uniform(0, 180)), 0, 360, color.tolist(), -1, aa)
    img = cv2.GaussianBlur(img, (0, 0), 2.5 * s)
    for _ in range(10):  # doodled lines in a darker pastel
        x0, y0 = rng.uniform(0, BOARD_W_MM), rng.uniform(0, BOARD_H_MM)
        xs = x0 + np.linspace(0, rng.uniform(40, 120), 40)
        ys = y0 + 4 * np.sin(np.linspace(0, rng.uniform(3, 9), 40))
        color = (np.float32(bgr(_PASTELS[int(rng.integers(len(_PASTELS)))])) * 0.8).tolist()
        cv2.polylines(
            img,
            [np.round(np.column_stack([xs, ys]) * s).astype(np.int32)],
            False,
            color,
            max(1, round(0.8 * s)),
            aa,
        )
    img *= (1 + 0.02 * smooth_noise((h, w), 6 * s, rng))[..., None]

    def px(points_mm: np.ndarray) -> np.ndarray:  # board mm from the centre -> sprite px (x16)
        return np.round(np.add(points_mm, (BOARD_W_MM / 2, BOARD_H_MM / 2)) * s * 16).astype(np.int32)

    ink = bgr(INK_RGB)
    for picture in board.pictures:
        if board.side == APPRENTICE or picture.outline is None:
            continue
        panel = np.array([board_mm(p) for p in picture.outline])
        layer = img.copy()
        tint = np.float32(bgr(_PASTELS[int(rng.integers(len(_PASTELS)))])) * 1.03
        cv2.fillPoly(layer, [px(panel)], tint.tolist(), aa, shift=4)
        img = 0.5 * img + 0.5 * layer
        cv2.polylines(img, [px(panel)], True, ink, max(1, round(0.7 * s)), aa, shift=4)
        corner = panel[np.argmax(panel[:, 0] - panel[:, 1])]  # top right
        for k in range(picture.stars):
            star = _star((corner[0] - 4.0 - 6.5 * k, corner[1]), 3.0)
            cv2.fillPoly(img, [px(star)], bgr((252, 250, 244)), aa, shift=4)
            cv2.polylines(img, [px(star)], True, ink, max(1, round(0.4 * s)), aa, shift=4)
    for picture in board.pictures:
        for f in picture.fields:
            outline = px(field_outline_mm(f))
            tint = 0.85 * np.float32(bgr(FIELD_RGB)) + 0.15 * np.float32(
                bgr(TILE_RGB[COLORS[SHAPES_INDEX[f.shape]]])
            )
            cv2.fillPoly(img, [outline], tint.tolist(), aa, shift=4)
            cv2.polylines(img, [outline], True, ink, max(1, round(1.0 * s)), aa, shift=4)
    f = round(FRAME_MM * s)
    violet = bgr(VIOLET_RGB)
    img[:f], img[-f:], img[:, :f], img[:, -f:] = violet, violet, violet, violet
    cv2.rectangle(img, (f, f), (w - f, h - f), bgr((250, 246, 236)), max(1, round(0.6 * s)), aa)
    return make_sprite(np.clip(img, 0, 255), rounded_rect_alpha(w, h, 3.0 * s), s, min_size=64)


def _small_bowl_centres(rotation_deg: float) -> np.ndarray:
    a = np.radians(rotation_deg + 72.0 * np.arange(BOWLS) - 90.0)
    return np.column_stack([SMALL_RING_MM * np.cos(a), SMALL_RING_MM * np.sin(a)])


def bowl_layout(rotation_deg: float = 0.0) -> list[tuple[float, float, float]]:
    """(x, y, floor radius) of the big bowl, then the 5 small ones, in tray mm from its
    centre; small bowl k lies at rotation + 72 k degrees clockwise from 'north'."""
    small = _small_bowl_centres(rotation_deg)
    return [(0.0, 0.0, BIG_FLOOR_MM)] + [(float(x), float(y), SMALL_FLOOR_MM) for x, y in small]


@cache
def tray_sprite() -> Sprite:
    """The storage tray seen from above: violet plastic, six shallow lavender bowls."""
    s = _TRAY_PX_PER_MM
    n = round(2 * TRAY_RADIUS_MM * s)
    c = n / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) + 0.5
    r = np.hypot(xx - c, yy - c) / s
    img = np.empty((n, n, 3), np.float32)
    img[:] = bgr(VIOLET_RGB)
    img *= (1.0 - 0.08 * np.clip((r - TRAY_RADIUS_MM + 8) / 8, 0, 1))[..., None]
    for x, y, radius in bowl_layout():
        d = np.hypot(xx - c - x * s, yy - c - y * s) / s
        lip = (d > radius) & (d <= radius + LIP_MM)
        img[lip] = bgr(LIP_RGB)
        floor = d <= radius
        depth = 0.8 + 0.2 * np.clip((radius - d) / 10.0, 0, 1)  # the bowl's wall darkens its edge
        img[floor] = np.float32(bgr(FLOOR_RGB)) * depth[floor][:, None]
    rng = np.random.default_rng(23)
    img *= (1 + 0.015 * smooth_noise((n, n), 12 * s, rng))[..., None]
    alpha = np.clip(TRAY_RADIUS_MM * s - r * s + 0.5, 0, 1)
    return make_sprite(np.clip(img, 0, 255), alpha, s, min_size=32)


# --- the table --------------------------------------------------------------------


@dataclass(frozen=True)
class KidsLayout:
    boards: tuple[BoardPlacement, ...]
    tray_rotation_deg: float = 0.0  # the tray lies at the table's origin

    @staticmethod
    def around_tray(
        n_boards: int, rng: np.random.Generator, *, jitter_mm: float = 25.0, jitter_deg: float = 5.0
    ) -> KidsLayout:
        sides = {2: ((0, 2),), 3: ((0, 1, 2), (0, 1, 3)), 4: ((0, 1, 2, 3),)}[n_boards]
        seating = sides[int(rng.integers(len(sides)))]
        boards = []
        for k in seating:  # south, west, north, east; each upright for its owner
            a = math.radians(90 + 90 * k)
            dx, dy = math.cos(a), math.sin(a)
            dist = TRAY_RADIUS_MM + rng.uniform(25, 70) + BOARD_H_MM / 2
            along = rng.uniform(-jitter_mm, jitter_mm) * 1.5
            radial = rng.uniform(-jitter_mm, jitter_mm) * 0.5
            boards.append(
                BoardPlacement(
                    dx * (dist + radial) - dy * along,
                    dy * (dist + radial) + dx * along,
                    (90.0 * k + rng.uniform(-jitter_deg, jitter_deg)) % 360,
                )
            )
        return KidsLayout(tuple(boards), float(rng.uniform(0, 72)))

    def extent_points(self) -> np.ndarray:
        a = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        pts = [(x, y, 0.0) for b in self.boards for x, y in _board_footprint(b)]
        pts.extend((TRAY_RADIUS_MM * math.cos(t), TRAY_RADIUS_MM * math.sin(t), 0.0) for t in a)
        return np.array(pts)


def _board_footprint(b: BoardPlacement) -> np.ndarray:
    hw, hh = BOARD_W_MM / 2, BOARD_H_MM / 2
    return _transform(np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]]), b.x, b.y, b.rotation_deg)


def _transform(points: np.ndarray, x: float, y: float, angle_deg: float) -> np.ndarray:
    m = pose_matrix(x, y, angle_deg)
    p = np.asarray(points, np.float64).reshape(-1, 2)
    return p @ m[:2, :2].T + m[:2, 2]


def _circle(x: float, y: float, r: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([x + r * np.cos(a), y + r * np.sin(a)])


@dataclass
class _Tile:
    color: str
    x: float
    y: float
    base: float
    angle: float
    place: tuple  # ("field", seat, picture, field) or ("bowl", index) with index 0 = big
    top: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))

    def footprint(self) -> np.ndarray:
        return _transform(tile_outline(self.color), self.x, self.y, self.angle)


def _bowl_positions(
    colors: tuple[str, ...], radius: float, rng: np.random.Generator
) -> list[tuple[float, float, float]]:
    """Tiles lying loose in a bowl, inside its floor and 1.5 mm or more apart."""
    for _restart in range(50):
        placed: list[tuple[float, float, float]] = []
        grown: list[np.ndarray] = []
        for color in colors:
            outline = tile_outline(color, 16)
            bigger = outline * (1 + 0.75 / np.linalg.norm(outline, axis=1).min())
            for _attempt in range(300):
                r = (radius - 10.0) * math.sqrt(rng.uniform())
                a = rng.uniform(0, 2 * math.pi)
                x, y, angle = r * math.cos(a), r * math.sin(a), rng.uniform(0, 360)
                poly = _transform(outline, x, y, angle)
                if np.linalg.norm(poly, axis=1).max() > radius - 1.0:
                    continue
                mine = _transform(bigger, x, y, angle).astype(np.float32)
                if all(cv2.intersectConvexConvex(mine, other)[0] <= 0 for other in grown):
                    placed.append((x, y, angle))
                    grown.append(mine)
                    break
            else:
                break
        if len(placed) == len(colors):
            return placed
    raise ValueError(f"cannot lay {len(colors)} tiles apart in a bowl of radius {radius} mm")


def render_kids_table(
    content: KidsTableContent,
    conditions: Conditions,
    rng: np.random.Generator | int,
    layout: KidsLayout | None = None,
) -> tuple[np.ndarray, dict]:
    """Draw one camera frame (BGR uint8) of a Kids table holding `content`, and return it
    with its ground truth (observation + "geometry"). `conditions.layout` is not used:
    pass a KidsLayout, or one is made round the tray with the conditions' jitters."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    cond = conditions
    layout = layout or KidsLayout.around_tray(
        len(content.boards), rng, jitter_mm=cond.board_jitter_mm, jitter_deg=cond.board_jitter_deg
    )
    if len(layout.boards) != len(content.boards):
        raise ValueError(f"layout has {len(layout.boards)} boards, content has {len(content.boards)}")
    w, h = cond.width, cond.height
    ext = layout.extent_points()
    cam = fit_camera(
        ext,
        tilt_deg=cond.tilt_deg,
        azimuth_deg=cond.azimuth_deg,
        roll_deg=cond.roll_deg,
        hfov_deg=cond.hfov_deg,
        width=w,
        height=h,
        framing=cond.framing,
    )
    light = _light_vector(cond)
    drop = -light[:2] / light[2]
    scale = cam.px_per_mm(np.array([[0.0, 0.0, 0.0]]))
    max_scale = cam.px_per_mm(ext)

    frame = np.empty((h, w, 3), np.float32)
    grow_x = max(0.0, 900 - np.ptp(ext[:, 0])) / 2
    grow_y = max(0.0, 800 - np.ptp(ext[:, 1])) / 2
    rect = (
        ext[:, 0].min() - grow_x - rng.uniform(60, 400),
        ext[:, 1].min() - grow_y - rng.uniform(60, 400),
        ext[:, 0].max() + grow_x + rng.uniform(60, 400),
        ext[:, 1].max() + grow_y + rng.uniform(60, 400),
    )
    draw_table(frame, cam, cond.table, rect, rng)

    def free(x: float, y: float, radius: float) -> bool:
        if math.hypot(x, y) < TRAY_RADIUS_MM + radius:
            return False
        return all(math.hypot(x - b.x, y - b.y) > 185 + radius for b in layout.boards)

    for _ in range(cond.mats):
        size = (rng.uniform(280, 450), rng.uniform(200, 320))
        x, y = rng.uniform(rect[0], rect[2]), rng.uniform(rect[1], rect[3])
        if math.hypot(x, y) > TRAY_RADIUS_MM + 150:
            draw_mat(
                frame,
                cam,
                (x, y),
                size,
                rng.uniform(0, 180),
                color_bgr=_MAT_BGR[int(rng.integers(len(_MAT_BGR)))],
                oval=rng.uniform() < 0.3,
                rng=rng,
            )
    things = place_things({"cup": cond.cups, "bottle": cond.bottles, "bag": cond.bags}, free, rect, rng)
    things = [t for t in things if in_view(t, cam)]

    under = ShadowLayer(w, h)
    for b in layout.boards:
        fp = _board_footprint(b)
        under.add(
            cam.project(
                np.column_stack([np.concatenate([fp, fp + drop * BOARD_THICKNESS_MM * 2]), np.zeros(8)])
            ),
            cond.shadow,
        )
    ring = _circle(0, 0, TRAY_RADIUS_MM)
    under.add(
        cam.project(
            np.column_stack([np.concatenate([ring, ring + drop * TRAY_HEIGHT_MM]), np.zeros(2 * len(ring))])
        ),
        cond.shadow,
    )
    under.apply(frame, 2.0 * scale)

    for b, content_board in zip(layout.boards, content.boards, strict=True):
        box_sides(
            frame,
            cam,
            _board_footprint(b),
            0.0,
            BOARD_THICKNESS_MM,
            side_bgr=bgr(BOARD_EDGE_RGB),
            light=light,
        )
        draw_sprite(
            frame,
            kids_board_sprite(content_board.board),
            cam.homography(BOARD_THICKNESS_MM),
            pose_matrix(b.x, b.y, b.rotation_deg),
            max_scale,
        )
    solid_of_revolution(
        frame,
        cam,
        (0.0, 0.0),
        [(0.0, TRAY_RADIUS_MM - 4), (TRAY_HEIGHT_MM, TRAY_RADIUS_MM)],
        np.asarray(bgr(VIOLET_RGB)) * 0.8,
        light=light,
        gloss=0.3,
        segments=64,
    )
    draw_sprite(
        frame,
        tray_sprite(),
        cam.homography(TRAY_HEIGHT_MM),
        pose_matrix(0, 0, layout.tray_rotation_deg),
        max_scale,
    )

    tiles = _place_tiles(content, layout, rng)
    low = ShadowLayer(w, h)
    for t in tiles:
        fp = t.footprint()
        low.add(
            cam.project(
                np.column_stack(
                    [np.concatenate([fp, fp + drop * TILE_THICKNESS_MM]), np.full(2 * len(fp), t.base)]
                )
            ),
            cond.shadow * 1.2,
        )
    low.apply(frame, 0.9 * scale)
    glare_spot = _glare_spot(cam, light, (0.0, 0.0), TRAY_HEIGHT_MM + TILE_THICKNESS_MM)
    glare_sigma = rng.uniform(60, 220)
    if tiles:
        depth = cam.depth(np.array([[t.x, t.y, t.base] for t in tiles]))
        for k in np.argsort(-depth):
            _draw_tile(
                frame,
                cam,
                tiles[k],
                light,
                rng,
                glare=cond.glare,
                spot=glare_spot,
                sigma=glare_sigma,
                max_scale=max_scale,
            )

    occluder = np.zeros((h, w), np.uint8)
    high = ShadowLayer(w, h)
    for thing in things:
        high.add(cam.project(np.column_stack([shadow_outline(thing, drop), np.zeros(48)])), cond.shadow * 0.8)
    bowls = bowl_layout(layout.tray_rotation_deg)
    hand = None
    if cond.hand:
        reach = Layout(layout.boards, tuple((x, y) for x, y, _ in bowls), (0.0, 0.0), 60.0)
        hand = _hand_pose(reach, rng)
        sprite, pose, height = hand
        img, sc = sprite.level_for(scale)
        shadow_pose = np.array([[1, 0, drop[0] * height], [0, 1, drop[1] * height], [0, 0, 1]]) @ pose
        high.add_warped(
            img, sprite_homography(cam.homography(0.0), shadow_pose, sc, img.shape[1::-1]), cond.shadow * 0.8
        )
    high.apply(frame, 6.0 * scale)
    for thing in sorted(things, key=lambda t: -cam.depth(np.array([[t.x, t.y, 0.0]]))[0]):
        hull = cv2.convexHull(np.round(draw_thing(frame, cam, thing, light)).astype(np.int32))
        cv2.fillConvexPoly(occluder, hull, 255)
    if hand is not None:
        _draw_hand(frame, occluder, cam, hand, rng)
    play = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(play, cv2.convexHull(np.round(cam.project(ext)).astype(np.int32)), 255)
    play_covered = bool(cv2.countNonZero(cv2.bitwise_and(play, occluder)))

    image = photograph(frame, cam, cond, rng)
    truth = _truth(content, layout, cam, tiles, occluder=occluder, play_covered=play_covered, scale=scale)
    return image, truth


def _place_tiles(content: KidsTableContent, layout: KidsLayout, rng: np.random.Generator) -> list[_Tile]:
    tiles = []
    for seat, (b, board) in enumerate(zip(layout.boards, content.boards, strict=True)):
        for p, (picture, row) in enumerate(zip(board.board.pictures, board.fields, strict=True)):
            for f, (spec, tile) in enumerate(zip(picture.fields, row, strict=True)):
                if tile is None:
                    continue
                local = field_center_mm(spec) + rng.normal(0, 1.0, 2)
                x, y = _transform(local, b.x, b.y, b.rotation_deg)[0]
                tiles.append(
                    _Tile(
                        tile,
                        x,
                        y,
                        BOARD_THICKNESS_MM,
                        b.rotation_deg + rng.normal(0, 4.0),
                        ("field", seat, p, f),
                    )
                )
    for index, ((bx, by, radius), bowl_tiles) in enumerate(
        zip(bowl_layout(layout.tray_rotation_deg), (content.big, *content.bowls), strict=True)
    ):
        for color, (dx, dy, angle) in zip(bowl_tiles, _bowl_positions(bowl_tiles, radius, rng), strict=True):
            tiles.append(_Tile(color, bx + dx, by + dy, TRAY_HEIGHT_MM, angle, ("bowl", index)))
    return tiles


def _draw_tile(
    frame: np.ndarray,
    cam: Camera,
    t: _Tile,
    light: np.ndarray,
    rng: np.random.Generator,
    *,
    glare: float,
    spot: np.ndarray,
    sigma: float,
    max_scale: float,
) -> None:
    top_h = t.base + TILE_THICKNESS_MM
    t.top = box_sides(frame, cam, t.footprint(), t.base, top_h, side_bgr=side_bgr(t.color), light=light)
    img, sc = kids_tile_sprite(t.color).level_for(max_scale)
    H = sprite_homography(cam.homography(top_h), pose_matrix(t.x, t.y, t.angle), sc, img.shape[1::-1])
    warped = warp_layer(img, H, frame.shape[1], frame.shape[0])
    if warped is None:
        return
    blend_layer(frame, *warped)
    if glare <= 0:
        return
    d = float(np.hypot(t.x - spot[0], t.y - spot[1]))
    strength = glare * math.exp(-0.5 * (d / sigma) ** 2) * rng.uniform(0.3, 1.3)
    if rng.uniform() < 0.08 * glare:  # another lamp or a window catching this tile
        strength = max(strength, glare * rng.uniform(0.4, 1.0))
    if strength < 0.05:
        return
    (x0, y0, x1, y1), layer = warped
    spot = rng.uniform(-5, 5, 2)
    centre = cam.project(np.array([[t.x + spot[0], t.y + spot[1], top_h]]))[0]
    radius = rng.uniform(3, 7) * cam.px_per_mm(np.array([[t.x, t.y, top_h]]))
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    blob = np.exp(-0.5 * (((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / radius**2))
    weight = (np.minimum(1.0, strength) * blob * layer[..., 3])[..., None]
    region = frame[y0:y1, x0:x1]
    region += (np.float32(262.0) - region) * weight


# --- ground truth -----------------------------------------------------------------


def _pts(a: np.ndarray) -> list:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(a).reshape(-1, 2)]


def _rotation(up: np.ndarray) -> int:
    return round(math.degrees(math.atan2(up[0], -up[1])) / 90.0) % 4 * 90


def clockwise_from_bottom(centers: list, middle: np.ndarray) -> list[int]:
    """Indices in the spec's order: the one nearest the bottom edge, then clockwise as
    seen from above (on screen, y down, clockwise is increasing angle)."""
    if not centers:
        return []
    first = max(range(len(centers)), key=lambda i: centers[i][1])
    a0 = math.atan2(centers[first][1] - middle[1], centers[first][0] - middle[0])
    return sorted(
        range(len(centers)),
        key=lambda i: (math.atan2(centers[i][1] - middle[1], centers[i][0] - middle[0]) - a0) % (2 * math.pi),
    )


def _truth(
    content: KidsTableContent,
    layout: KidsLayout,
    cam: Camera,
    tiles: list[_Tile],
    *,
    occluder: np.ndarray,
    play_covered: bool,
    scale: float,
) -> dict:
    h, w = occluder.shape
    on_field = {t.place: t for t in tiles if t.place[0] == "field"}

    def hidden(polys: list[np.ndarray]) -> bool:
        return any(hidden_fraction(p, occluder) > HIDDEN_FRACTION for p in polys)

    found = []
    for seat, (b, board) in enumerate(zip(layout.boards, content.boards, strict=True)):
        center = cam.project(np.array([[b.x, b.y, BOARD_THICKNESS_MM]]))[0]
        if not (0 <= center[0] < w and 0 <= center[1] < h):
            continue
        top = _transform(np.array([0.0, -BOARD_H_MM / 2]), b.x, b.y, b.rotation_deg)[0]
        up = cam.project(np.array([[*top, BOARD_THICKNESS_MM]]))[0] - center
        pictures, geo_pictures = [], []
        for p, (picture, row) in enumerate(zip(board.board.pictures, board.fields, strict=True)):
            values, polys = [], []
            for f, (spec, tile) in enumerate(zip(picture.fields, row, strict=True)):
                mm = _transform(field_outline_mm(spec, 16), b.x, b.y, b.rotation_deg)
                poly = cam.project(np.column_stack([mm, np.full(len(mm), BOARD_THICKNESS_MM)]))
                placed = on_field.get(("field", seat, p, f))
                values.append("unknown" if hidden([poly] + ([placed.top] if placed else [])) else tile)
                polys.append({"outline": _pts(poly), "tile": _pts(placed.top) if placed else None})
            pictures.append({"id": picture.id, "fields": values, "confidence": [1.0] * len(values)})
            geo_pictures.append({"id": picture.id, "fields": polys})
        outline = cam.project(np.column_stack([_board_footprint(b), np.full(4, BOARD_THICKNESS_MM)]))
        found.append(
            (
                center,
                {
                    "center": _pts(center)[0],
                    "rotation": _rotation(up),
                    "side": board.board.side,
                    "board": board.board.name,
                    "pictures": pictures,
                    "confidence": 1.0,
                },
                {"content_index": seat, "outline": _pts(outline), "pictures": geo_pictures},
            )
        )
    order = clockwise_from_bottom(
        [c for c, _, _ in found], np.mean([c for c, _, _ in found], axis=0) if found else np.zeros(2)
    )
    boards = [found[i][1] for i in order]
    geo_boards = [dict(found[i][2], seat=seat) for seat, i in enumerate(order)]

    bowls = bowl_layout(layout.tray_rotation_deg)
    centres = [cam.project(np.array([[x, y, TRAY_HEIGHT_MM]]))[0] for x, y, _ in bowls]
    small_order = clockwise_from_bottom(centres[1:], centres[0])
    obs_bowls, geo_bowls = [], []
    for number, index in [(k + 1, i + 1) for k, i in enumerate(small_order)] + [(BIG, 0)]:
        x, y, radius = bowls[index]
        floor = cam.project(np.column_stack([_circle(x, y, radius, 32), np.full(32, TRAY_HEIGHT_MM)]))
        inside = [t for t in tiles if t.place == ("bowl", index)]
        counts: dict[str, int] = {}
        unknown = 0
        for t in inside:
            if hidden([t.top]):
                unknown += 1
            else:
                counts[t.color] = counts.get(t.color, 0) + 1
        obs_bowls.append(
            {
                "bowl": number,
                "center": _pts(centres[index])[0],
                "tiles": dict(sorted(counts.items())),
                "unknown": unknown,
                "occluded": hidden_fraction(floor, occluder) > 0.02,
                "confidence": 1.0,
            }
        )
        geo_bowls.append(
            {
                "bowl": number,
                "floor": _pts(floor),
                "tiles": [{"color": t.color, "top": _pts(t.top)} for t in inside],
            }
        )
    return {
        "format": FORMAT,
        "image": {"width": w, "height": h},
        "occluded": play_covered,
        "boards": boards,
        "bowls": obs_bowls,
        "geometry": {
            "camera": {
                "K": cam.K.round(3).tolist(),
                "R": cam.R.round(6).tolist(),
                "t": cam.t.round(3).tolist(),
                "position_mm": cam.position.round(1).tolist(),
                "px_per_mm": round(scale, 3),
            },
            "boards": geo_boards,
            "bowls": geo_bowls,
            "tray": {
                "center": _pts(cam.project(np.array([[0.0, 0.0, TRAY_HEIGHT_MM]])))[0],
                "outline": _pts(
                    cam.project(
                        np.column_stack(
                            [
                                ring_pts := _circle(0, 0, TRAY_RADIUS_MM, 32),
                                np.full(len(ring_pts), TRAY_HEIGHT_MM),
                            ]
                        )
                    )
                ),
            },
        },
    }


def render_board_photo(
    board: KidsBoard, conditions: Conditions, rng: np.random.Generator | int
) -> tuple[np.ndarray, np.ndarray]:
    """A photo of one empty board lying on the table, upright for the camera (the kind of
    photo a person takes to describe their board), and the image corners of the board
    (top-left, top-right, bottom-right, bottom-left)."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    cond = conditions
    placement = BoardPlacement(0.0, 0.0, float(rng.uniform(-cond.board_jitter_deg, cond.board_jitter_deg)))
    footprint = _board_footprint(placement)
    ext = np.column_stack([footprint, np.zeros(4)])
    cam = fit_camera(
        ext,
        tilt_deg=cond.tilt_deg,
        azimuth_deg=cond.azimuth_deg,
        roll_deg=cond.roll_deg,
        hfov_deg=cond.hfov_deg,
        width=cond.width,
        height=cond.height,
        framing=cond.framing,
        margin=0.12,
    )
    light = _light_vector(cond)
    frame = np.empty((cond.height, cond.width, 3), np.float32)
    draw_table(frame, cam, cond.table, (-600.0, -500.0, 600.0, 500.0), rng)
    box_sides(frame, cam, footprint, 0.0, BOARD_THICKNESS_MM, side_bgr=bgr(BOARD_EDGE_RGB), light=light)
    draw_sprite(
        frame,
        kids_board_sprite(board),
        cam.homography(BOARD_THICKNESS_MM),
        pose_matrix(placement.x, placement.y, placement.rotation_deg),
        cam.px_per_mm(ext),
    )
    corners = cam.project(np.column_stack([footprint, np.full(4, BOARD_THICKNESS_MM)]))
    return photograph(frame, cam, cond, rng), corners
