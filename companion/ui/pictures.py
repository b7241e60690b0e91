"""Pictures of the table: a player's board, the factories and the centre.

Used small on the live table and large in warnings, where a red outline points at the
place the table must fix.
"""

from __future__ import annotations

import math

import pygame

from companion.rules.azul import MARKER
from companion.ui import theme
from companion.ui.view import PlayerView, TableView, wall_color
from companion.ui.widgets import Canvas


def board_size(cell: int, lines: bool, floor: bool) -> tuple[int, int]:
    gap = max(2, cell // 10)
    width = 5 * (cell + gap) + (5 * (cell + gap) + cell // 2 if lines else 0)
    height = 5 * (cell + gap) + (cell + gap + cell // 3 if floor else 0)
    return width, height


def fit_cell(rect: pygame.Rect, lines: bool, floor: bool) -> int:
    """The largest tile size at which the board fits in ``rect``."""
    cell = 4
    while True:
        w, h = board_size(cell + 1, lines, floor)
        if w > rect.width or h > rect.height:
            return cell
        cell += 1


def draw_board(canvas: Canvas, rect: pygame.Rect, player: PlayerView, variant: str, *,
               lines: bool = True, floor: bool = True, highlight: dict | None = None) -> pygame.Rect:
    """Pattern lines (right-aligned, as on the board), the wall and the floor line, in ``rect``."""
    cell = fit_cell(rect, lines, floor)
    gap = max(2, cell // 10)
    width, height = board_size(cell, lines, floor)
    area = pygame.Rect(0, 0, width, height)
    area.center = rect.center
    step = cell + gap
    wall_left = area.left + (5 * step + cell // 2 if lines else 0)
    highlight = highlight or {}
    for row in range(5):
        y = area.top + row * step
        if lines:
            count, color = player.line_counts[row], player.line_colors[row]
            for place in range(row + 1):
                x = wall_left - cell // 2 - (place + 1) * step
                canvas.tile(pygame.Rect(x, y, cell, cell), color if place < count else None)
            if highlight.get("line") == row + 1:
                box = pygame.Rect(wall_left - cell // 2 - (row + 1) * step - gap, y - gap,
                                  (row + 1) * step + gap, step + gap)
                pygame.draw.rect(canvas.surface, theme.BAD, box, max(2, cell // 8), border_radius=gap)
        for column in range(5):
            color = player.wall[row * 5 + column]
            place = pygame.Rect(wall_left + column * step, y, cell, cell)
            if color >= 0:
                canvas.tile(place, color)
            else:
                printed = wall_color(variant, row, column)
                canvas.tile(place, printed, faded=printed is not None)
        if highlight.get("row") == row + 1:
            box = pygame.Rect(wall_left - gap, y - gap, 5 * step + gap, step + gap)
            pygame.draw.rect(canvas.surface, theme.BAD, box, max(2, cell // 8), border_radius=gap)
    if floor:
        y = area.top + 5 * step + cell // 3
        for place in range(7):
            color = player.floor[place] if place < len(player.floor) else None
            canvas.tile(pygame.Rect(area.left + place * step, y, cell, cell), color)
        if highlight.get("floor"):
            box = pygame.Rect(area.left - gap, y - gap, 7 * step + gap, step + gap)
            pygame.draw.rect(canvas.surface, theme.BAD, box, max(2, cell // 8), border_radius=gap)
    return area


def draw_factories(canvas: Canvas, rect: pygame.Rect, view: TableView, highlight: dict | None = None) -> None:
    """The factory displays in a ring around the centre pile, numbered as the tracker numbers them."""
    highlight = highlight or {}
    count = len(view.factories)
    size = min(rect.width, rect.height)
    disc = max(8, int(size * (0.22 if count <= 5 else 0.18 if count <= 7 else 0.155)))
    ring = size / 2 - disc / 2 - 2
    cx, cy = rect.center
    font_px = max(8, disc // 3)
    for i, tiles in enumerate(view.factories):
        # Factory 1 nearest the bottom, then clockwise as seen from above.
        angle = math.pi / 2 + 2 * math.pi * i / count
        center = (round(cx + ring * math.cos(angle)), round(cy + ring * math.sin(angle)))
        pick = highlight.get("factory") == i + 1
        pygame.draw.circle(canvas.surface, theme.BAD if pick else theme.PANEL_LIGHT, center, disc // 2)
        pygame.draw.circle(canvas.surface, theme.TEXT_DIM, center, disc // 2, max(1, disc // 24))
        tile = max(3, int(disc * 0.3))
        for k, color in enumerate(tiles):
            dx = -1 if k % 2 == 0 else 1
            dy = -1 if k < 2 else 1
            place = pygame.Rect(0, 0, tile, tile)
            place.center = (center[0] + dx * tile * 0.55, center[1] + dy * tile * 0.55)
            canvas.tile(place, color)
        if not tiles:
            label = canvas.fonts.render(str(i + 1), font_px, theme.TEXT_DIM)
            canvas.surface.blit(label, label.get_rect(center=center))
    middle = pygame.Rect(0, 0, int(ring * 1.1), int(ring * 1.1))
    middle.center = rect.center
    if highlight.get("center"):
        pygame.draw.rect(canvas.surface, theme.BAD, middle, max(2, disc // 10), border_radius=disc // 4)
    tiles = list(view.center) + ([MARKER] if view.center_marker else [])
    if tiles:
        per_row = max(1, math.ceil(math.sqrt(len(tiles))))
        tile = max(3, min(int(disc * 0.3), middle.width // (per_row + 1)))
        for k, color in enumerate(tiles):
            place = pygame.Rect(0, 0, tile, tile)
            place.topleft = (middle.centerx - per_row * tile * 1.1 / 2 + (k % per_row) * tile * 1.1,
                             middle.centery - per_row * tile * 1.1 / 2 + (k // per_row) * tile * 1.1)
            canvas.tile(place, color)
