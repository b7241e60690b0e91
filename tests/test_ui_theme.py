"""Tiles tell their colour by shape too, and the font carries every letter we need."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import itertools

import pygame
import pytest

from companion.rules.azul import MARKER
from companion.ui.theme import FONT_PATH, tile_surface


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


def symbol_mask(color: int, size: int = 60) -> set[tuple[int, int]]:
    """The pixels of the symbol: those far from the tile's own colour (so, by shape, not hue)."""
    surface = tile_surface(color, size)
    base = surface.get_at((size // 2, size // 8))
    mask = set()
    for x in range(size // 8, size - size // 8):
        for y in range(size // 8, size - size // 8):
            pixel = surface.get_at((x, y))
            if sum(abs(pixel[i] - base[i]) for i in range(3)) > 120:
                mask.add((x, y))
    return mask


def test_every_tile_colour_has_its_own_shape():
    masks = {color: symbol_mask(color) for color in [*range(5), MARKER]}
    for color, mask in masks.items():
        assert len(mask) > 60, f"colour {color} shows no symbol"
    for a, b in itertools.combinations(masks, 2):
        overlap = len(masks[a] & masks[b]) / len(masks[a] | masks[b])
        assert overlap < 0.6, f"colours {a} and {b} look alike without colour ({overlap:.2f})"


def test_font_has_the_letters_of_every_language():
    font = pygame.font.Font(FONT_PATH, 30)
    missing = pygame.image.tobytes(font.render("\ue000", True, (255, 255, 255)), "RGBA")
    for letter in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻæøåÆØÅßñÑäöüÄÖÜ…×":
        drawn = pygame.image.tobytes(font.render(letter, True, (255, 255, 255)), "RGBA")
        assert drawn != missing, f"{letter!r} renders as a missing glyph"
