"""Sizes and rectangles: one layout unit scales the whole display with the screen's short side.

Sizes are given in "dp": pixels on the official 7-inch touchscreen (800x480 at about
155 mm x 86 mm visible, so 800 / 155 = 5.16 px per mm). Larger screens scale every dp
by their short side / 480, so a 1920x1080 screen shows the same layout 2.25 times
bigger, and a portrait 720x1280 screen gets its own arrangement at 1.5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

OFFICIAL_7INCH_PX = (800, 480)
OFFICIAL_7INCH_MM = (155.0, 86.0)
PX_PER_MM_7INCH = OFFICIAL_7INCH_PX[0] / OFFICIAL_7INCH_MM[0]  # 5.16
TOUCH_MM = 9.0
# 9 mm is 46.5 px on the 7-inch screen; 48 keeps targets above 9 mm on 7-inch 1024x600 too.
TOUCH_DP = max(48, math.ceil(TOUCH_MM * PX_PER_MM_7INCH))

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))

# Text sizes (font pixel size in dp). "small" is the floor for anything a player must read:
# 22 px on the 7-inch screen is a 4.3 mm em, 3 mm capitals, legible at arm's length (~70 cm).
TEXT_DP = {"small": 22, "body": 26, "large": 32, "title": 38, "huge": 60}


@dataclass(frozen=True)
class Metrics:
    """What a screen of ``width`` x ``height`` pixels needs to lay itself out."""

    width: int
    height: int

    @property
    def unit(self) -> float:
        return min(self.width, self.height) / OFFICIAL_7INCH_PX[1]

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)

    def dp(self, value: float) -> int:
        return round(value * self.unit)

    @property
    def touch(self) -> int:
        """The smallest side of anything to be touched, in pixels."""
        return self.dp(TOUCH_DP)

    @property
    def pad(self) -> int:
        return self.dp(8)

    def text(self, size: str) -> int:
        return self.dp(TEXT_DP[size])

    @property
    def min_text(self) -> int:
        return self.text("small")


def split(rect: pygame.Rect, sizes: Sequence[int | float], gap: int = 0, *,
          vertical: bool = True) -> list[pygame.Rect]:
    """Cut ``rect`` into consecutive parts along one axis.

    An int is a fixed length in pixels; a float is a share of what the ints leave.
    """
    total = rect.height if vertical else rect.width
    fixed = sum(s for s in sizes if isinstance(s, int))
    shares = sum(s for s in sizes if isinstance(s, float))
    free = max(0, total - fixed - gap * (len(sizes) - 1))
    parts = []
    pos = rect.top if vertical else rect.left
    for size in sizes:
        length = size if isinstance(size, int) else int(free * size / shares)
        if vertical:
            parts.append(pygame.Rect(rect.left, pos, rect.width, length))
        else:
            parts.append(pygame.Rect(pos, rect.top, length, rect.height))
        pos += length + gap
    return parts


def rows(rect: pygame.Rect, sizes: Sequence[int | float], gap: int = 0) -> list[pygame.Rect]:
    return split(rect, sizes, gap, vertical=True)


def columns(rect: pygame.Rect, sizes: Sequence[int | float], gap: int = 0) -> list[pygame.Rect]:
    return split(rect, sizes, gap, vertical=False)


def grid(rect: pygame.Rect, count: int, cols: int, gap: int = 0) -> list[pygame.Rect]:
    """``count`` equal cells, ``cols`` to a row, filling ``rect`` row by row."""
    nrows = max(1, math.ceil(count / cols))
    cells = []
    for row in rows(rect, [1.0] * nrows, gap):
        cells.extend(columns(row, [1.0] * cols, gap))
    return cells[:count]


def square_in(rect: pygame.Rect) -> pygame.Rect:
    side = min(rect.width, rect.height)
    square = pygame.Rect(0, 0, side, side)
    square.center = rect.center
    return square
