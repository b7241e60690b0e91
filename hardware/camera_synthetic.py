"""A camera whose frames come from any callable: the simulated table, or a test card."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.i18n import _
from hardware.camera import CameraError, ContextCamera, as_bgr

# Median tile colours of the real game (docs: real-table.md), as BGR.
TILE_BGR = {
    "blue": (171, 134, 29),
    "yellow": (67, 138, 243),
    "red": (69, 60, 239),
    "black": (31, 27, 26),
    "white": (200, 199, 101),
}
TABLE_BGR = (228, 234, 238)


class TestCard:
    """A plain test frame: a white table and a row of tiles that steps right each frame."""

    __test__ = False  # not a pytest test class, despite the name

    def __init__(self, size: tuple[int, int] = (640, 480)) -> None:
        self.size = size
        self.frames = 0

    def __call__(self) -> np.ndarray:
        width, height = self.size
        frame = np.empty((height, width, 3), np.uint8)
        frame[:] = TABLE_BGR
        tile = max(4, min(width, height) // 12)
        x = (self.frames * tile // 4) % max(1, width - 5 * tile)
        y = (height - tile) // 2
        for i, bgr in enumerate(TILE_BGR.values()):
            frame[y : y + tile, x + i * tile : x + (i + 1) * tile - 2] = bgr
        self.frames += 1
        return frame


class SyntheticCamera(ContextCamera):
    """Frames from ``source()`` (a BGR uint8 array each call); a TestCard by default.

    The simulated table of vision/synth plugs in here as ``source``; this module
    does not import it, so the camera layer never depends on the vision code.
    """

    def __init__(
        self,
        source: Callable[[], np.ndarray] | None = None,
        size: tuple[int, int] = (640, 480),
    ) -> None:
        self.source = source if source is not None else TestCard(size)
        self.description = _("synthetic table")
        self.is_open = False

    def open(self) -> None:
        self.is_open = True

    def read(self) -> np.ndarray | None:
        if not self.is_open:
            raise CameraError(_("the camera is not open"))
        return as_bgr(self.source(), self.description)

    def close(self) -> None:
        self.is_open = False
