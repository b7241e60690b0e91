"""Synthetic camera frames of an Azul table, with ground truth.

    frame, truth = render_table(content, Conditions.random(rng), rng)

`truth` is the `azul-observation/1` object a perfect recogniser would give for
the frame, plus a "geometry" key with image polygons of every board place,
factory disc and tile.
"""

from .conditions import Conditions
from .layout import BoardPlacement, Layout
from .random_content import frame_name, mixed_table, random_board, random_content
from .render import render_table
from .scene import COLORS, MARKER, BoardContent, TableContent, printed_color

__all__ = [
    "COLORS",
    "MARKER",
    "BoardContent",
    "BoardPlacement",
    "Conditions",
    "Layout",
    "TableContent",
    "frame_name",
    "mixed_table",
    "printed_color",
    "random_board",
    "random_content",
    "render_table",
]
