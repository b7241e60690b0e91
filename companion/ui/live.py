"""The live pipeline of `azul-companion run`: camera -> vision -> tracker, off the render loop.

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


class LivePipeline:
    """One step reads one frame; the table's view is rebuilt only when the tracker moved on."""

    def __init__(self, settings: Settings, camera: Any, recognise: Recognise | None, reader: Reader) -> None:
        self.settings = settings
        self.camera = camera
        self.recognise = recognise
        self.reader = reader
        self._base: TableView | None = None
        self._status: str | None = None
        self._frame: np.ndarray | None = None

    def first(self) -> TableView:
        self.camera.open()
        self._base = self._build()
        return self._show()

    def step(self) -> TableView | None:
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

    def act(self, action: str) -> TableView | None:
        self.reader.act(action)
        self._base = self._build()
        return self._show()

    def close(self) -> None:
        self.camera.close()

    def _build(self) -> TableView:
        reader = self.reader
        return build_view(reader.game, self.settings.names, prompt=reader.prompt, warnings=reader.warnings,
                          last=reader.last)

    def _show(self) -> TableView:
        assert self._base is not None
        return self._base.but(frame=self._frame, status=self._status)
