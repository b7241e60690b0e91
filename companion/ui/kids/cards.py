"""The Kids question's cards, shared by the prompt and the "none of these" list: a take as
the tray with its bowl lit, the tiles taken, and the animal and picture each went to; a
fill as the five bowls with their tiles."""

from __future__ import annotations

import math

import pygame

from companion.ui.kids import draw
from companion.ui.kids.view import Candidate, KidsTableView
from companion.ui.layout import columns, grid
from companion.ui.widgets import Canvas


def candidate(canvas: Canvas, rect: pygame.Rect, view: KidsTableView, card: Candidate, *,
              placements: bool = True) -> None:
    """One candidate event; ``placements`` False draws a take's bowl and tiles only."""
    m = canvas.metrics
    h = rect.height
    if card.bowls:  # a fill: the five bowls as they were filled
        for number, (cell, tiles) in enumerate(zip(grid(rect, 5, 5, m.pad), card.bowls, strict=True), 1):
            counts = tuple(tiles.count(c) for c in draw.COLORS)
            draw.bowl(canvas, cell.center, min(cell.width, cell.height) * 0.42, counts, number=number)
        return
    shown = card.placements if placements else ()
    if shown:
        bowl_cell, tiles_cell, rest = columns(rect, [h, min(rect.width // 3, h * 2), 1.0], m.pad)
    else:  # the bowl and the tiles alone: the tiles may take the room
        bowl_cell, tiles_cell = columns(rect, [h, max(1, min(rect.width - h - m.pad, h * 3))], m.pad)
    if card.source is not None:
        draw.tray_icon(canvas, bowl_cell.center, h * 0.46, card.source)
    if card.color is not None:
        tile_row(canvas, tiles_cell, card.color, card.tiles)
    if not shown:
        return
    spots = columns(rest, [1.0] * len(shown), m.pad)
    for (seat, picture, _tiles), spot in zip(shown, spots, strict=True):
        face, board_rect = columns(spot, [int(min(h * 0.6, spot.width // 3)), 1.0], m.dp(4))
        draw.animal(canvas, seat, face)
        info = view.seats[seat]
        draw.board(
            canvas,
            view.boards[seat],
            info.filled,
            board_rect,
            highlight=picture,
            done=info.done,
            only=picture if view.variant == "master" else None,
        )


def tile_row(canvas: Canvas, rect: pygame.Rect, color: str, count: int) -> None:
    """``count`` tiles of ``color``, in rows of up to five, as large as fit in ``rect``."""
    size = min(rect.height * 0.7, rect.width / max(1, min(count, 5)) * 0.95)
    per_row = max(1, min(count, int(rect.width // size)))
    rows_n = math.ceil(count / per_row)
    size = min(size, rect.height / max(1, rows_n) * 0.95)
    for k in range(count):
        r, c = divmod(k, per_row)
        x = rect.left + size * (c + 0.5) * 1.02
        y = rect.centery + (r - (rows_n - 1) / 2) * size
        draw.tile(canvas, color, (x, y), size * 0.92)
