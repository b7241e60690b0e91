"""The live pipeline of `azul-companion run`: camera -> vision -> tracker, off the render loop.

The same pipeline serves both games: Azul (vision/recognize.py, companion/tracker.py, the
table's :class:`~companion.ui.view.TableView`) and Azul Kids (vision/kids, companion/kids_tracker.py,
a :class:`~companion.ui.kids.view.KidsTableView`); the caller gives the recogniser, the
reader and how a view is made of the reader (``show``).

A missing camera, a lost one, or a frame the recogniser cannot read shows a message and
the loop goes on: the camera is a ReconnectingCamera-like object whose ``read()`` returns
None while there is no frame, with ``status`` saying why.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.i18n import _
from companion.ui.demo import Reader, Sight, thumbnail
from companion.ui.screens.base import Settings
from companion.ui.view import TableView, build_view

log = logging.getLogger(__name__)

Recognise = Callable[[np.ndarray], dict]
Show = Callable[[Any], Any]  # the reader -> the game's view (it has ``but(frame=, status=)``)


def azul_view(names: tuple[str, ...]) -> Show:
    """How an Azul table is shown: the tracker's game, question, warnings and last move."""

    def show(reader: Reader) -> TableView:
        return build_view(reader.game, names, prompt=reader.prompt, warnings=reader.warnings,
                          last=reader.last)

    return show


class LivePipeline:
    """One step reads one frame; the table's view is rebuilt only when the tracker moved on.

    ``show``: how the reader becomes a view (default: Azul's table).
    """

    def __init__(self, settings: Settings, camera: Any, recognise: Recognise | None, reader: Any,
                 show: Show | None = None) -> None:
        self.settings = settings
        self.camera = camera
        self.recognise = recognise
        self.reader = reader
        self.show = show if show is not None else azul_view(settings.names)
        self._base: Any = None
        self._status: str | None = None
        self._frame: np.ndarray | None = None

    def first(self) -> Any:
        self.camera.open()
        self._base = self._build()
        return self._show()

    def step(self) -> Any:
        frame = self.camera.read()
        if frame is None:
            status = getattr(self.camera, "status", None) or _("Waiting for the camera...")
            if status == self._status:
                return None
            self._status = status
            return self._show()
        self._frame = thumbnail(frame)
        if self.recognise is None:
            self._status = _("Tile recognition is not installed yet: showing the camera only.")
            return self._show()
        try:
            observation = self.recognise(frame)
        except ValueError as error:
            # A bad frame (glare, a hand, a half-written image) is skipped, never fatal.
            log.warning("unreadable frame: %s", error)
            self._status = _("Could not read this frame: {error}").format(error=error)
            return self._show()
        self._status = None
        if self.reader.read([Sight(observation, frame)]):
            self._base = self._build()
        return self._show()

    def act(self, action: str) -> Any:
        self.reader.act(action)
        self._base = self._build()
        return self._show()

    def close(self) -> None:
        self.camera.close()

    def _build(self) -> Any:
        return self.show(self.reader)

    def _show(self) -> Any:
        assert self._base is not None
        return self._base.but(frame=self._frame, status=self._status)
