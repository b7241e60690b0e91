"""Colours, fonts and the tiles: each tile colour also carries its own shape.

The five colours are those of the real tiles; the symbols (blue ring, yellow sun,
red square frame, black cross, white star) are drawn as shapes, never font glyphs, so a
colour-blind player tells the tiles apart by shape alone.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

import pygame

from companion.rules.azul import BLACK, BLUE, MARKER, RED, WHITE, YELLOW

Color = tuple[int, int, int]

TILE_RGB: dict[int, Color] = {
    BLUE: (29, 134, 171),
    YELLOW: (243, 138, 67),
    RED: (239, 60, 69),
    BLACK: (26, 27, 31),
    WHITE: (101, 199, 200),
    MARKER: (236, 232, 220),
}
SYMBOL_RGB: dict[int, Color] = {
    BLUE: (235, 245, 250),
    YELLOW: (255, 236, 160),
    RED: (255, 232, 232),
    BLACK: (225, 225, 230),
    WHITE: (20, 70, 72),
    MARKER: (40, 40, 48),
}

BACKGROUND: Color = (34, 38, 46)
PANEL: Color = (50, 56, 68)
PANEL_LIGHT: Color = (68, 76, 92)
EMPTY_CELL: Color = (72, 80, 96)
TEXT: Color = (242, 242, 238)
TEXT_DIM: Color = (176, 182, 192)
ACCENT: Color = (255, 196, 64)
GOOD: Color = (110, 214, 120)
BAD: Color = (255, 112, 104)
WARNING_BG: Color = (120, 46, 40)
BUTTON: Color = (74, 110, 168)
BUTTON_SELECTED: Color = (214, 150, 40)
FOCUS: Color = (255, 255, 255)
SHADE = (0, 0, 0, 160)

_SUPERSAMPLE = 3


def _star(cx: float, cy: float, outer: float, inner: float, points: int) -> list[tuple[float, float]]:
    result = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / points
        result.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return result


def draw_symbol(surface: pygame.Surface, color: int, rect: pygame.Rect, rgb: Color) -> None:
    """The shape of ``color`` inside ``rect``: ring, sun, square frame, cross, star (marker: a "1")."""
    cx, cy = rect.center
    r = rect.width / 2
    if color == BLUE:
        pygame.draw.circle(surface, rgb, (cx, cy), r * 0.62, max(2, int(r * 0.22)))
    elif color == YELLOW:
        pygame.draw.polygon(surface, rgb, _star(cx, cy, r * 0.86, r * 0.36, 8))
    elif color == RED:
        side = r * 1.3
        frame = pygame.Rect(cx - side / 2, cy - side / 2, side, side)
        pygame.draw.rect(surface, rgb, frame, max(2, int(r * 0.24)))
    elif color == BLACK:
        arm = r * 0.62
        width = max(2, int(r * 0.26))
        pygame.draw.line(surface, rgb, (cx - arm, cy - arm), (cx + arm, cy + arm), width)
        pygame.draw.line(surface, rgb, (cx - arm, cy + arm), (cx + arm, cy - arm), width)
    elif color == WHITE:
        pygame.draw.polygon(surface, rgb, _star(cx, cy, r * 0.8, r * 0.34, 5))
    elif color == MARKER:
        # The first-player marker: a bold "1" drawn as bars, not a glyph.
        w = r * 0.22
        pygame.draw.rect(surface, rgb, pygame.Rect(cx - w / 2, cy - r * 0.6, w, r * 1.2))
        pygame.draw.polygon(surface, rgb, [(cx - w / 2, cy - r * 0.6), (cx - r * 0.42, cy - r * 0.3),
                                           (cx - r * 0.42, cy - r * 0.12), (cx - w / 2, cy - r * 0.34)])
    else:
        raise ValueError(color)


@lru_cache(maxsize=128)
def tile_surface(color: int, size: int, faded: bool = False) -> pygame.Surface:
    """A tile of ``size`` px with its symbol, drawn large and scaled down for smooth edges.

    ``faded`` is the printed, still empty place of a coloured wall.
    """
    big = size * _SUPERSAMPLE
    surface = pygame.Surface((big, big), pygame.SRCALPHA)
    rgb = TILE_RGB[color]
    symbol = SYMBOL_RGB[color]
    if faded:
        rgb = _mix(rgb, EMPTY_CELL, 0.8)
        symbol = _mix(symbol, EMPTY_CELL, 0.7)
    radius = big // 7
    pygame.draw.rect(surface, rgb, surface.get_rect(), border_radius=radius)
    if color in (BLACK, MARKER) and not faded:
        # A dark tile on a dark screen needs a rim to show its outline.
        rim = max(2, big // 18)
        pygame.draw.rect(surface, (150, 152, 160), surface.get_rect(), rim, border_radius=radius)
    inner = surface.get_rect().inflate(-big // 5, -big // 5)
    draw_symbol(surface, color, inner, symbol)
    return pygame.transform.smoothscale(surface, (size, size))


@lru_cache(maxsize=64)
def empty_cell(size: int) -> pygame.Surface:
    surface = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(surface, EMPTY_CELL, surface.get_rect(), border_radius=max(1, size // 7))
    return surface


def _mix(a: Color, b: Color, t: float) -> Color:
    return tuple(round(x * (1 - t) + y * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


FONT_PATH = str(Path(pygame.__file__).parent / pygame.font.get_default_font())


class Fonts:
    """pygame's bundled FreeSans Bold (it covers æøå ß ñ ąćęłńóśźż), and rendered text kept for reuse.

    Text that does not change between frames is rendered once: the cache holds the most
    recent surfaces by (text, size, colour).
    """

    def __init__(self, capacity: int = 1024) -> None:
        self._fonts: dict[int, pygame.font.Font] = {}
        self._surfaces: OrderedDict[tuple[str, int, Color], pygame.Surface] = OrderedDict()
        self._capacity = capacity

    def font(self, px: int) -> pygame.font.Font:
        font = self._fonts.get(px)
        if font is None:
            # By path, not Font(None, px): pygame shrinks its default font to 0.6875 of the size asked.
            font = self._fonts[px] = pygame.font.Font(FONT_PATH, px)
        return font

    def size(self, text: str, px: int) -> tuple[int, int]:
        return self.font(px).size(text)

    def render(self, text: str, px: int, rgb: Color) -> pygame.Surface:
        key = (text, px, rgb)
        surface = self._surfaces.get(key)
        if surface is None:
            surface = self.font(px).render(text, True, rgb)
            self._surfaces[key] = surface
            if len(self._surfaces) > self._capacity:
                self._surfaces.popitem(last=False)
        else:
            self._surfaces.move_to_end(key)
        return surface
