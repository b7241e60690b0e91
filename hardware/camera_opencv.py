"""A USB webcam (or any source OpenCV's VideoCapture opens) as a camera."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from companion.i18n import _
from hardware.camera import CameraError, ContextCamera, as_bgr


class OpenCVCamera(ContextCamera):
    """``cv2.VideoCapture(device)``; ``device`` is an index (0 = /dev/video0) or a path.

    A few failed reads in a row are normal while a webcam starts; ``max_failures``
    in a row mean it is gone (unplugged), and read() raises CameraError.
    """

    def __init__(
        self,
        device: int | str = 0,
        size: tuple[int, int] | None = None,
        max_failures: int = 10,
        capture_factory: Callable[[int | str], Any] = cv2.VideoCapture,
    ) -> None:
        self.device = device
        self.size = size
        self.max_failures = max_failures
        self._capture_factory = capture_factory
        self._capture: Any = None
        self._failures = 0
        where = f"/dev/video{device}" if isinstance(device, int) else device
        self.description = _("USB camera {device}").format(device=where)

    @property
    def is_open(self) -> bool:
        return self._capture is not None

    def open(self) -> None:
        if self._capture is not None:
            return
        capture = self._capture_factory(self.device)
        if not capture.isOpened():
            capture.release()
            raise CameraError(
                _("{camera} cannot be opened (not plugged in, or in use by another program?)")
                .format(camera=self.description)
            )
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture
        self._failures = 0

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            raise CameraError(_("the camera is not open"))
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self._failures += 1
            if self._failures >= self.max_failures:
                raise CameraError(
                    _("{camera} stopped delivering frames (unplugged?)")
                    .format(camera=self.description)
                )
            return None
        self._failures = 0
        return as_bgr(frame, self.description)

    def close(self) -> None:
        if self._capture is not None:
            capture, self._capture = self._capture, None
            capture.release()
