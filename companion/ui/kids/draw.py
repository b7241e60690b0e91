"""The Kids display's pictures, drawn from shapes (never glyphs): tiles, fields, bowls,
animals, stars, dots and the button icons.

Each tile colour has its own shape (red square, yellow hexagon, green diamond, blue
circle), so a colour-blind child tells tiles apart by shape alone; each seat has its own
colour and its own animal, told apart by the animal's outline (cat ears, rabbit ears,
bear ears, frog eyes). Every tile, animal and star drawn is noted in the canvas log
(kinds "shape", "animal", "star", "dots", "icon") for the tests.
"""

from __future__ import annotations

import math

import pygame

from companion.rules.kids import COLORS
from companion.rules.kids_board import SHAPES, KidsBoard
from companion.ui.theme import Color
from companion.ui.widgets import Canvas, Drawn

TILE_RGB: dict[str, Color] = {
    "red": (230, 56, 60),
    "yellow": (250, 200, 40),
    "green": (60, 172, 86),
    "blue": (40, 126, 214),
}
SHAPE_OF_COLOR = dict(zip(COLORS, SHAPES, strict=True))
COLOR_OF_SHAPE = dict(zip(SHAPES, COLORS, strict=True))
SEAT_RGB: tuple[Color, ...] = ((244, 140, 44), (160, 104, 224), (240, 112, 176), (48, 190, 180))
ANIMALS = ("cat", "rabbit", "bear", "frog")
BOARD_RGB: Color = (246, 240, 224)
INK_RGB: Color = (120, 104, 110)
BOWL_RGB: Color = (125, 60, 170)
BOWL_FLOOR_RGB: Color = (216, 204, 234)
GOLD: Color = (255, 204, 48)
WHITE: Color = (255, 255, 255)
DARK: Color = (30, 30, 36)
MAX_DOTS = 10  # more pages than this: a track with a knob instead of dots


def _dim(rgb: Color, t: float = 0.65, to: Color = (70, 74, 86)) -> Color:
    return tuple(round(a * (1 - t) + b * t) for a, b in zip(rgb, to, strict=True))  # type: ignore[return-value]


def shape_points(shape: str, center: tuple[float, float], size: float) -> list[tuple[float, float]]:
    """The outline of a tile or field of ``shape`` ``size`` px across (circles: a polygon)."""
    cx, cy = center
    r = size / 2
    if shape == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "hexagon":
        return [
            (cx + r * math.cos(math.pi / 3 * k), cy + r * 0.92 * math.sin(math.pi / 3 * k)) for k in range(6)
        ]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)]
    return [
        (cx + r * 0.95 * math.cos(a), cy + r * 0.95 * math.sin(a))
        for a in (2 * math.pi * k / 32 for k in range(32))
    ]


def tile(
    canvas: Canvas, color: str, center: tuple[float, float], size: float, *, faded: bool = False
) -> None:
    """A tile: its colour's shape, filled, with a dark rim (faded: a tile that does not fit now)."""
    if size < 3:
        return
    points = shape_points(SHAPE_OF_COLOR[color], center, size)
    rgb = _dim(TILE_RGB[color]) if faded else TILE_RGB[color]
    pygame.draw.polygon(canvas.surface, rgb, points)
    pygame.draw.polygon(canvas.surface, DARK if not faded else _dim(DARK), points, max(1, round(size / 14)))
    if not faded:
        # A light shine in one corner: tiles look like the thick glossy plastic ones.
        pygame.draw.circle(
            canvas.surface,
            _dim(rgb, 0.55, WHITE),
            (center[0] - size * 0.17, center[1] - size * 0.17),
            max(1, size * 0.09),
        )
    canvas.log.append(Drawn("shape", _box(center, size), text=color, clipped=faded))


def field(canvas: Canvas, shape: str, center: tuple[float, float], size: float, rgb: Color = INK_RGB) -> None:
    """An empty field: the outline of its shape."""
    if size < 3:
        return
    pygame.draw.polygon(
        canvas.surface, rgb, shape_points(shape, center, size * 0.9), max(2, round(size / 10))
    )
    canvas.log.append(Drawn("field", _box(center, size), text=shape))


def star(
    canvas: Canvas, center: tuple[float, float], size: float, *, filled: bool = True, rgb: Color = GOLD
) -> None:
    cx, cy = center
    points = []
    for k in range(10):
        r = size / 2 if k % 2 == 0 else size / 5
        a = -math.pi / 2 + k * math.pi / 5
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    if filled:
        pygame.draw.polygon(canvas.surface, rgb, points)
        pygame.draw.polygon(canvas.surface, DARK, points, max(1, round(size / 16)))
    else:
        pygame.draw.polygon(canvas.surface, _dim(rgb, 0.5), points, max(2, round(size / 10)))
    canvas.log.append(Drawn("star", _box(center, size), text="full" if filled else "empty"))


def dots(canvas: Canvas, count: int, center: tuple[float, float], size: float, rgb: Color = WHITE) -> None:
    """``count`` dots in a dice-like pattern inside a square ``size`` px across (a bowl's number)."""
    cx, cy = center
    d = size / 3.2
    layouts = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    }
    radius = max(2, size / 8)
    for dx, dy in layouts.get(count, []):
        at = (cx + dx * d, cy + dy * d)
        pygame.draw.circle(canvas.surface, DARK, at, radius + max(1, radius / 3))
        pygame.draw.circle(canvas.surface, rgb, at, radius)
    canvas.log.append(Drawn("dots", _box(center, size), text=str(count)))


def animal(canvas: Canvas, seat: int, rect: pygame.Rect, *, rgb: Color | None = None) -> None:
    """Seat ``seat``'s animal, in the seat's colour, as big as fits in ``rect``."""
    kind = ANIMALS[seat % len(ANIMALS)]
    rgb = rgb or SEAT_RGB[seat % len(SEAT_RGB)]
    s = min(rect.width, rect.height)
    cx, cy = rect.centerx, rect.centery + s * 0.08
    r = s * 0.32
    surface = canvas.surface
    edge = max(1, round(s / 30))
    if kind == "cat":
        for side in (-1, 1):
            ear = [
                (cx + side * r * 0.95, cy - r * 0.2),
                (cx + side * r * 0.85, cy - r * 1.45),
                (cx + side * r * 0.2, cy - r * 0.85),
            ]
            pygame.draw.polygon(surface, rgb, ear)
            pygame.draw.polygon(surface, DARK, ear, edge)
    elif kind == "rabbit":
        for side in (-1, 1):
            ear = pygame.Rect(0, 0, r * 0.55, r * 1.5)
            ear.center = (round(cx + side * r * 0.45), round(cy - r * 1.2))
            pygame.draw.ellipse(surface, rgb, ear)
            pygame.draw.ellipse(surface, DARK, ear, edge)
    elif kind == "bear":
        for side in (-1, 1):
            at = (cx + side * r * 0.78, cy - r * 0.78)
            pygame.draw.circle(surface, rgb, at, r * 0.42)
            pygame.draw.circle(surface, DARK, at, r * 0.42, edge)
    if kind == "frog":
        head = pygame.Rect(0, 0, r * 2.5, r * 1.7)
        head.center = (round(cx), round(cy + r * 0.15))
        for side in (-1, 1):
            at = (cx + side * r * 0.72, cy - r * 0.72)
            pygame.draw.circle(surface, rgb, at, r * 0.5)
            pygame.draw.circle(surface, DARK, at, r * 0.5, edge)
        pygame.draw.ellipse(surface, rgb, head)
        pygame.draw.ellipse(surface, DARK, head, edge)
        eyes = [(cx + side * r * 0.72, cy - r * 0.72) for side in (-1, 1)]
        pygame.draw.arc(
            surface,
            DARK,
            pygame.Rect(cx - r * 0.8, cy - r * 0.2, r * 1.6, r * 0.9),
            math.pi * 1.1,
            math.pi * 1.9,
            max(2, edge),
        )
    else:
        pygame.draw.circle(surface, rgb, (cx, cy), r)
        pygame.draw.circle(surface, DARK, (cx, cy), r, edge)
        eyes = [(cx + side * r * 0.38, cy - r * 0.15) for side in (-1, 1)]
        pygame.draw.circle(surface, DARK, (cx, cy + r * 0.25), max(2, r * 0.12))  # nose
    for at in eyes:
        pygame.draw.circle(surface, WHITE, at, max(2, r * 0.22))
        pygame.draw.circle(surface, DARK, at, max(1, r * 0.11))
    canvas.log.append(
        Drawn("animal", pygame.Rect(rect.centerx - s // 2, rect.centery - s // 2, s, s), text=kind)
    )


def bowl(
    canvas: Canvas,
    center: tuple[float, float],
    radius: float,
    counts: tuple[int, ...],
    *,
    number: int | None,
    fits: frozenset[str] = frozenset(),
    glow: Color | None = None,
    tile_size: float | None = None,
) -> None:
    """A bowl with its tiles; ``number`` 1-5 as dots on its rim (None: the big bowl).

    ``glow`` rings a bowl holding tiles that fit the player to move; tiles not in ``fits``
    are drawn faded when a glow is shown anywhere (``fits`` non-empty)."""
    surface = canvas.surface
    cx, cy = center
    if glow is not None:
        pygame.draw.circle(surface, glow, center, radius * 1.16)
        pygame.draw.circle(surface, WHITE, center, radius * 1.16, max(2, round(radius / 14)))
    pygame.draw.circle(surface, BOWL_RGB, center, radius)
    pygame.draw.circle(surface, BOWL_FLOOR_RGB, center, radius * 0.84)
    tiles = [color for color, n in zip(COLORS, counts, strict=True) for _n in range(n)]
    if tiles:
        cols = max(1, math.ceil(math.sqrt(len(tiles))))
        rows = math.ceil(len(tiles) / cols)
        size = tile_size or min(radius * 1.2 / max(cols, rows) * 1.15, radius * 0.62)
        for k, color in enumerate(tiles):
            row, col = divmod(k, cols)
            in_row = min(cols, len(tiles) - row * cols)
            x = cx + (col - (in_row - 1) / 2) * size * 1.05
            y = cy + (row - (rows - 1) / 2) * size * 1.05
            tile(canvas, color, (x, y), size, faded=bool(fits) and color not in fits)
    if number is not None:
        at = (cx + radius * 0.78, cy - radius * 0.78)
        pygame.draw.circle(surface, BOWL_RGB, at, radius * 0.42)
        dots(canvas, number, at, radius * 0.6)
    canvas.log.append(
        Drawn(
            "bowl",
            _box(center, radius * 2),
            text=str(number or "big"),
            action=None if glow is None else "glow",
        )
    )


def tray_icon(canvas: Canvas, center: tuple[float, float], radius: float, source: int | str) -> None:
    """A small picture of the tray with bowl ``source`` (1-5 or "big") lit, and its dots."""
    surface = canvas.surface
    cx, cy = center
    pygame.draw.circle(surface, BOWL_RGB, center, radius)
    small = radius * 0.22
    for number in range(1, 6):
        a = math.pi / 2 + (number - 1) * 2 * math.pi / 5
        at = (cx + radius * 0.68 * math.cos(a), cy + radius * 0.68 * math.sin(a))
        if source != number:
            pygame.draw.circle(surface, BOWL_FLOOR_RGB, at, small)
    big = not isinstance(source, int)
    pygame.draw.circle(surface, GOLD if big else BOWL_FLOOR_RGB, center, radius * 0.34)
    if big:
        pygame.draw.circle(surface, DARK, center, radius * 0.34, max(1, round(radius / 20)))
    else:
        # The lit bowl drawn last and larger, with its number as dots.
        a = math.pi / 2 + (int(source) - 1) * 2 * math.pi / 5  # type: ignore[arg-type]
        at = (cx + radius * 0.68 * math.cos(a), cy + radius * 0.68 * math.sin(a))
        pygame.draw.circle(surface, GOLD, at, small * 1.6)
        pygame.draw.circle(surface, DARK, at, small * 1.6, max(1, round(radius / 20)))
        dots(canvas, int(source), at, small * 2.2, DARK)  # type: ignore[arg-type]
    canvas.log.append(Drawn("tray", _box(center, radius * 2), text=str(source)))


def board(
    canvas: Canvas,
    board_def: KidsBoard,
    filled: tuple[tuple[bool, ...], ...],
    rect: pygame.Rect,
    *,
    highlight: str | None = None,
    done: frozenset[str] = frozenset(),
    only: str | None = None,
    wrong: tuple[str, int] | None = None,
) -> pygame.Rect:
    """A board (or with ``only``, one picture of it) as big as fits in ``rect``, keeping its 3:2.

    ``filled[p][f]``: field f of picture p holds its tile. ``highlight``: a picture outlined
    in gold; ``done``: complete pictures (their stars filled); ``wrong``: (picture, field)
    to mark with a red ring. Returns the rectangle the board took.
    """
    pictures = [(p, picture) for p, picture in enumerate(board_def.pictures) if only in (None, picture.id)]
    spots = _field_spots(board_def)
    xs = [x for p, _pic in pictures for x, _y, _s in spots[p]]
    ys = [y for p, _pic in pictures for _x, y, _s in spots[p]]
    sizes = [s for p, _pic in pictures for _x, _y, s in spots[p]]
    if only is None:
        box = (0.0, 0.0, 1.0, 1.0)
    else:
        pad = max(sizes)
        box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    aspect = 1.5 * (box[2] - box[0]) / max(1e-6, box[3] - box[1])
    width = min(rect.width, rect.height * aspect)
    area = pygame.Rect(0, 0, round(width), round(width / aspect))
    area.center = rect.center
    pygame.draw.rect(canvas.surface, BOARD_RGB, area, border_radius=max(2, area.width // 30))

    def to_px(x: float, y: float) -> tuple[float, float]:
        return (
            area.left + (x - box[0]) / (box[2] - box[0]) * area.width,
            area.top + (y - box[1]) / (box[3] - box[1]) * area.height,
        )

    unit = area.width / (box[2] - box[0])
    for p, picture in pictures:
        if board_def.side == "master":
            outline = picture.outline or _hull(spots[p])
            points = [to_px(x, y) for x, y in outline]
            gold = picture.id == highlight or picture.id in done
            pygame.draw.polygon(canvas.surface, (255, 236, 170) if gold else (234, 226, 206), points)
            pygame.draw.polygon(
                canvas.surface,
                GOLD if gold else INK_RGB,
                points,
                max(2, round(unit / 110)) * (3 if picture.id == highlight else 1),
            )
            if only is not None:
                # One picture drawn big: its stars along its top edge (on a whole board
                # they would cover the fields; the panel shows the star total instead).
                top = min(q[1] for q in points)
                right = max(q[0] for q in points)
                size = max(8.0, min(unit * 0.05, area.height / 6))
                for k in range(picture.stars):
                    star(
                        canvas,
                        (right - size * (0.7 + k * 1.05), top - size * 0.45),
                        size,
                        filled=picture.id in done,
                    )
        for f, (x, y, s) in enumerate(spots[p]):
            center = to_px(x, y)
            size = s * unit * 0.95
            shape = picture.fields[f].shape
            if filled[p][f]:
                tile(canvas, COLOR_OF_SHAPE[shape], center, size)
            else:
                field(canvas, shape, center, size)
            if wrong == (picture.id, f):
                pygame.draw.circle(canvas.surface, (255, 40, 40), center, size * 0.8, max(3, round(size / 7)))
    return area


def _field_spots(board_def: KidsBoard) -> list[list[tuple[float, float, float]]]:
    """Each field's centre and size as fractions of the board (a grid when the file gives none)."""
    every = [f for p in board_def.pictures for f in p.fields]
    if all(f.at is not None for f in every):
        out = []
        for picture in board_def.pictures:
            row = []
            for f in picture.fields:
                if f.outline:
                    xs = [q[0] for q in f.outline]
                    size = max(xs) - min(xs)
                else:
                    size = 0.1
                row.append((f.at[0], f.at[1], size))  # type: ignore[index]
            out.append(row)
        return out
    count = len(every)
    cols = math.ceil(math.sqrt(count * 1.5))
    rows = math.ceil(count / cols)
    out, k = [], 0
    for picture in board_def.pictures:
        row = []
        for _f in picture.fields:
            r, c = divmod(k, cols)
            row.append(((c + 0.5) / cols, (r + 0.5) / rows, min(0.8 / cols, 0.8 / rows / 1.5)))
            k += 1
        out.append(row)
    return out


def _hull(spots: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    xs = [x for x, _y, _s in spots]
    ys = [y for _x, y, _s in spots]
    pad = max(s for _x, _y, s in spots) * 0.8
    return [
        (min(xs) - pad, min(ys) - pad),
        (max(xs) + pad, min(ys) - pad),
        (max(xs) + pad, max(ys) + pad),
        (min(xs) - pad, max(ys) + pad),
    ]


def icon(canvas: Canvas, kind: str, rect: pygame.Rect, rgb: Color = WHITE) -> None:
    """A button's picture: "previous", "next" (arrows), "confirm" (a tick), "undo", "again" (a
    round arrow), "question" (a question mark), "hand" (tiles still in a hand), "camera", "setup"
    (three sliders: the setup screen, for the grown-ups)."""
    s = min(rect.width, rect.height)
    cx, cy = rect.center
    w = max(3, round(s / 9))
    surface = canvas.surface
    if kind in ("previous", "next"):
        d = 1 if kind == "next" else -1
        pygame.draw.polygon(
            surface,
            rgb,
            [(cx + d * s * 0.32, cy), (cx - d * s * 0.1, cy - s * 0.32), (cx - d * s * 0.1, cy + s * 0.32)],
        )
        pygame.draw.rect(
            surface,
            rgb,
            pygame.Rect(min(cx - d * s * 0.32, cx - d * s * 0.05), cy - s * 0.1, s * 0.27, s * 0.2),
        )
    elif kind == "confirm":
        pygame.draw.lines(
            surface,
            rgb,
            False,
            [(cx - s * 0.3, cy), (cx - s * 0.08, cy + s * 0.24), (cx + s * 0.32, cy - s * 0.26)],
            w,
        )
    elif kind in ("undo", "again"):
        arc = pygame.Rect(0, 0, s * 0.62, s * 0.62)
        arc.center = rect.center
        start = 0.9 if kind == "undo" else 0.4
        pygame.draw.arc(surface, rgb, arc, math.pi * start, math.pi * (start + 1.6), w)
        tip = (cx + s * 0.31 * math.cos(math.pi * start), cy - s * 0.31 * math.sin(math.pi * start))
        pygame.draw.polygon(
            surface,
            rgb,
            [
                (tip[0] - s * 0.14, tip[1] - s * 0.02),
                (tip[0] + s * 0.14, tip[1] - s * 0.02),
                (tip[0], tip[1] + s * 0.16),
            ],
        )
    elif kind == "question":
        arc = pygame.Rect(0, 0, s * 0.5, s * 0.44)
        arc.midtop = (cx, rect.top + s * 0.1)
        pygame.draw.arc(surface, rgb, arc, -math.pi * 0.5, math.pi, w)
        pygame.draw.line(surface, rgb, (cx, arc.bottom - w // 2), (cx, cy + s * 0.18), w)
        pygame.draw.circle(surface, rgb, (cx, cy + s * 0.33), w * 0.8)
    elif kind == "camera":
        body = pygame.Rect(0, 0, s * 0.7, s * 0.46)
        body.center = (cx, cy + s * 0.05)
        pygame.draw.rect(surface, rgb, body, border_radius=max(2, s // 12))
        pygame.draw.circle(surface, DARK, body.center, s * 0.15)
        pygame.draw.rect(surface, rgb, pygame.Rect(cx - s * 0.12, body.top - s * 0.1, s * 0.24, s * 0.12))
    elif kind == "setup":
        for k, knob in enumerate((0.6, 0.3, 0.75)):
            y = cy + (k - 1) * s * 0.26
            pygame.draw.line(surface, rgb, (cx - s * 0.34, y), (cx + s * 0.34, y), max(2, w // 2))
            pygame.draw.circle(surface, rgb, (cx - s * 0.34 + knob * s * 0.68, y), s * 0.08)
    canvas.log.append(Drawn("icon", rect.copy(), text=kind))


def none_of_these(canvas: Canvas, rect: pygame.Rect) -> None:
    """"None of these": a card crossed out in red, an arrow, and every tile shape (all the others)."""
    surface = canvas.surface
    h = rect.height
    unit = min(h, rect.width / 3.4)
    card = pygame.Rect(0, 0, unit * 0.9, unit * 0.7)
    card.center = (round(rect.centerx - unit * 1.15), rect.centery)
    pygame.draw.rect(surface, (200, 204, 214), card, border_radius=max(2, round(unit / 12)))
    for k, color in enumerate(("red", "blue")):
        tile(canvas, color, (card.left + card.width * (0.32 + 0.36 * k), card.centery), unit * 0.28)
    w = max(3, round(unit / 10))
    cross = card.inflate(unit * 0.1, unit * 0.1)
    for a, b in ((cross.topleft, cross.bottomright), (cross.bottomleft, cross.topright)):
        pygame.draw.line(surface, (230, 56, 60), a, b, w)
    arrow = pygame.Rect(0, 0, unit * 0.6, unit * 0.6)
    arrow.center = rect.center
    icon(canvas, "next", arrow)
    grid = pygame.Rect(0, 0, unit * 0.9, unit * 0.9)
    grid.center = (round(rect.centerx + unit * 1.15), rect.centery)
    for k, color in enumerate(COLORS):
        r, c = divmod(k, 2)
        at = (grid.left + grid.width * (0.25 + 0.5 * c), grid.top + grid.height * (0.25 + 0.5 * r))
        tile(canvas, color, at, unit * 0.4)
    canvas.log.append(Drawn("icon", rect.copy(), text="none"))


def page_dots(canvas: Canvas, rect: pygame.Rect, pages: int, page: int) -> None:
    """Where the page shown is among ``pages``: one dot per page (the page shown filled), or,
    when there are too many pages for dots, a track with a knob where the page is."""
    if pages < 2:
        return
    if pages <= MAX_DOTS:
        size = min(rect.height * 0.5, rect.width / (pages * 1.6))
        for k in range(pages):
            at = (rect.centerx + (k - (pages - 1) / 2) * size * 1.6, rect.centery)
            ring = 0 if k == page else max(1, round(size / 6))  # 0: filled
            pygame.draw.circle(canvas.surface, WHITE, at, size / 2, ring)
    else:
        track = pygame.Rect(0, 0, rect.width, max(4, rect.height // 6))
        track.center = rect.center
        pygame.draw.rect(canvas.surface, _dim(WHITE, 0.6), track, border_radius=track.height // 2)
        knob = max(track.height * 2, track.width / pages)
        left = track.left + (track.width - knob) * page / (pages - 1)
        handle = pygame.Rect(left, rect.centery - track.height, knob, track.height * 2)
        pygame.draw.rect(canvas.surface, WHITE, handle, border_radius=track.height)
    canvas.log.append(Drawn("pages", rect.copy(), text=f"{page + 1}/{pages}"))


def _box(center: tuple[float, float], size: float) -> pygame.Rect:
    rect = pygame.Rect(0, 0, max(1, round(size)), max(1, round(size)))
    rect.center = (round(center[0]), round(center[1]))
    return rect
