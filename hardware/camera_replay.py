"""Recorded frames as a camera: a folder of images or a video file, at a set rate."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.i18n import _
from hardware.camera import CameraError, ContextCamera, as_bgr

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class ReplayCamera(ContextCamera):
    """Plays ``path`` back: images in name order, or the frames of a video.

    With ``fps`` set, read() hands out a new frame only once 1/fps seconds have
    passed since the last one (None in between), as a real camera would; without
    it, every read() gives the next frame. At the end it starts again when
    ``loop`` is set, else read() returns None and ``exhausted`` turns True.
    An image that cannot be decoded gives one None (and a warning), not an error:
    the kiosk must live through a bad frame.
    """

    def __init__(
        self,
        path: str | Path,
        fps: float | None = None,
        loop: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.fps = fps
        self.loop = loop
        self._clock = clock
        self.description = _("replay of {path}").format(path=self.path)
        self.exhausted = False
        self._images: list[Path] | None = None
        self._video: Any = None
        self._index = 0
        self._next_due: float | None = None

    @property
    def is_open(self) -> bool:
        return self._images is not None or self._video is not None

    def open(self) -> None:
        if self.is_open:
            return
        if self.path.is_dir():
            images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not images:
                raise CameraError(
                    _("{path} holds no images ({suffixes})").format(
                        path=self.path, suffixes=", ".join(sorted(IMAGE_SUFFIXES)))
                )
            self._images = images
        elif self.path.is_file():
            video = cv2.VideoCapture(str(self.path))
            if not video.isOpened():
                video.release()
                raise CameraError(_("{path} is not a video OpenCV can read").format(path=self.path))
            self._video = video
        else:
            raise CameraError(_("{path} does not exist").format(path=self.path))
        self._index = 0
        self._next_due = None
        self.exhausted = False

    def read(self) -> np.ndarray | None:
        if not self.is_open:
            raise CameraError(_("the camera is not open"))
        if self.exhausted:
            return None
        if self.fps:
            now = self._clock()
            if self._next_due is not None and now < self._next_due:
                return None
            self._next_due = now + 1.0 / self.fps
        return self._next_image() if self._images is not None else self._next_video_frame()

    def _next_image(self) -> np.ndarray | None:
        assert self._images is not None
        if self._index >= len(self._images):
            if not self.loop:
                self.exhausted = True
                return None
            self._index = 0
        path = self._images[self._index]
        self._index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            log.warning("replay: cannot decode %s; skipping that frame", path)
            return None
        return as_bgr(frame, str(path))

    def _next_video_frame(self) -> np.ndarray | None:
        ok, frame = self._video.read()
        if not ok and self.loop:
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._video.read()
        if not ok:
            self.exhausted = True
            return None
        return as_bgr(frame, self.description)

    def close(self) -> None:
        self._images = None
        if self._video is not None:
            video, self._video = self._video, None
            video.release()
