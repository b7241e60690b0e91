"""Cameras: one Protocol, one chooser, and a wrapper that survives a lost device.

A camera is built cheaply (no device is touched), then ``open()`` takes the device,
``read()`` returns the newest frame as a BGR ``uint8`` array of shape
(height, width, 3), or None when there is no new frame yet, and ``close()`` lets
it go (twice is fine). Cameras are context managers. Every failure a user can
cause (no camera, unplugged cable, unreadable file) is a ``CameraError`` whose
message says what is wrong.

Backends live in their own modules, and their libraries (picamera2 above all)
are imported only when that backend opens, so this module imports anywhere.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self, runtime_checkable

import numpy as np

from companion.i18n import _

log = logging.getLogger(__name__)

BACKENDS = ("auto", "picamera2", "opencv", "replay:PATH", "synthetic")
# What "auto" tries, in order. The synthetic table is left out on purpose: a
# kiosk without a camera must say so, not keep the score of a table that isn't there.
AUTO_ORDER = ("picamera2", "opencv")

_CLASSES = {
    "picamera2": "hardware.camera_picamera2:Picamera2Camera",
    "opencv": "hardware.camera_opencv:OpenCVCamera",
    "replay": "hardware.camera_replay:ReplayCamera",
    "synthetic": "hardware.camera_synthetic:SyntheticCamera",
}


class CameraError(Exception):
    """A camera that cannot be opened or stopped delivering frames; the message says why."""


@runtime_checkable
class Camera(Protocol):
    """What the app loop needs from any camera."""

    description: str

    def open(self) -> None: ...

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc_info: object) -> None: ...


class ContextCamera:
    """``with camera:`` opens (unless open already) and always closes."""

    is_open: bool = False

    def __enter__(self) -> Self:
        if not self.is_open:
            self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def as_bgr(frame: object, source: str) -> np.ndarray:
    """``frame`` as a contiguous (height, width, 3) uint8 BGR array, or a CameraError.

    Grey frames are widened; a 4th channel (XBGR8888 and the like) is dropped.
    """
    if isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.size:
        if frame.ndim == 2:
            return np.ascontiguousarray(np.repeat(frame[:, :, None], 3, axis=2))
        if frame.ndim == 3 and frame.shape[2] in (3, 4):
            return np.ascontiguousarray(frame[:, :, :3])
    shape = getattr(frame, "shape", None)
    dtype = getattr(frame, "dtype", type(frame).__name__)
    raise CameraError(
        _("{source} gave a frame of shape {shape} and type {dtype}; "
          "expected height x width x 3 bytes").format(source=source, shape=shape, dtype=dtype)
    )


def make_camera(name: str, **options: Any) -> Camera:
    """The camera called ``name`` (see BACKENDS), built but not opened.

    ``options`` go to the backend's constructor; for "auto" they go to every
    candidate, so only options they share (``size``) belong there, plus ``report``,
    a callable told which camera was chosen and why the others were not.
    """
    kind, _sep, argument = name.partition(":")
    if kind == "auto" and not argument:
        report = options.pop("report", None)
        return AutoCamera([_factory(candidate, options) for candidate in AUTO_ORDER],
                          report=report)
    if kind == "replay":
        if not argument:
            raise CameraError(_("camera 'replay' needs a folder or video: replay:PATH"))
        return _class(kind)(argument, **options)
    if kind == "opencv" and argument:
        device: int | str = int(argument) if argument.isdigit() else argument
        return _class(kind)(device=device, **options)
    if kind in _CLASSES and not argument:
        return _class(kind)(**options)
    raise CameraError(
        _("unknown camera {name!r}; choose one of: {choices}").format(
            name=name, choices=", ".join(BACKENDS)
        )
    )


def open_camera(name: str, **options: Any) -> Camera:
    """``make_camera(name, **options)``, opened; CameraError if it cannot be."""
    camera = make_camera(name, **options)
    camera.open()
    return camera


def _class(kind: str) -> Callable[..., Camera]:
    module, _sep, cls = _CLASSES[kind].partition(":")
    return getattr(importlib.import_module(module), cls)


def _factory(kind: str, options: dict[str, Any]) -> Callable[[], Camera]:
    return lambda: _class(kind)(**options)


class AutoCamera(ContextCamera):
    """The first of several cameras that opens; tried again in order on every open()."""

    def __init__(
        self,
        candidates: Sequence[Callable[[], Camera]],
        report: Callable[[str], None] | None = None,
    ) -> None:
        self._candidates = candidates
        self._report = report or log.info
        self._chosen: Camera | None = None
        self.description = _("automatic choice (not opened yet)")

    @property
    def is_open(self) -> bool:
        return self._chosen is not None

    def open(self) -> None:
        if self._chosen is not None:
            return
        problems = []
        for make in self._candidates:
            camera = make()
            try:
                camera.open()
            except CameraError as error:
                problems.append(str(error))
                self._report(_("{camera}: not used: {error}").format(
                    camera=camera.description, error=error))
                continue
            self._chosen = camera
            self.description = camera.description
            self._report(_("Camera: {camera}").format(camera=camera.description))
            return
        raise CameraError(_("no camera found: {problems}").format(problems="; ".join(problems)))

    def read(self) -> np.ndarray | None:
        if self._chosen is None:
            raise CameraError(_("the camera is not open"))
        return self._chosen.read()

    def close(self) -> None:
        if self._chosen is not None:
            chosen, self._chosen = self._chosen, None
            chosen.close()


class ReconnectingCamera(ContextCamera):
    """Wraps a camera so the app loop never sees it fail.

    While the camera is missing or lost, ``read()`` returns None, ``status`` says what
    is wrong in words for the screen, and the camera is reopened after a delay that
    doubles after each failed attempt (``first_delay`` up to ``max_delay`` seconds).
    Nothing here sleeps: attempts happen inside ``read()`` once they are due.
    """

    def __init__(
        self,
        camera: Camera,
        *,
        clock: Callable[[], float] = time.monotonic,
        first_delay: float = 1.0,
        max_delay: float = 30.0,
        on_status: Callable[[str | None], None] | None = None,
    ) -> None:
        self.camera = camera
        self._clock = clock
        self._first_delay = first_delay
        self._max_delay = max_delay
        self._on_status = on_status
        self._delay = first_delay
        self._next_attempt: float | None = None
        self._device_open = False
        self.is_open = False
        self.status: str | None = None
        self.failed_attempts = 0

    @property
    def description(self) -> str:
        return self.camera.description

    def open(self) -> None:
        self.is_open = True
        self._attempt()

    def read(self) -> np.ndarray | None:
        if not self.is_open:
            raise CameraError(_("the camera is not open"))
        if not self._device_open:
            if self._next_attempt is not None and self._clock() < self._next_attempt:
                return None
            if not self._attempt():
                return None
        try:
            return self.camera.read()
        except CameraError as error:
            self._lost(_("Camera lost: {error}").format(error=error))
            return None

    def close(self) -> None:
        self.is_open = False
        if self._device_open:
            self._device_open = False
            self.camera.close()

    def _attempt(self) -> bool:
        try:
            self.camera.open()
        except CameraError as error:
            self._lost(_("Camera not available: {error}").format(error=error))
            return False
        self._device_open = True
        self._delay = self._first_delay
        self._next_attempt = None
        self.failed_attempts = 0
        self._set_status(None)
        return True

    def _lost(self, problem: str) -> None:
        if self._device_open:
            self._device_open = False
            self.camera.close()
        else:
            self.failed_attempts += 1
        self._next_attempt = self._clock() + self._delay
        self._set_status(
            _("{problem}. Trying again in {seconds:g} s.").format(
                problem=problem, seconds=self._delay
            )
        )
        log.warning("%s", self.status)
        self._delay = min(self._delay * 2, self._max_delay)

    def _set_status(self, status: str | None) -> None:
        if status != self.status:
            self.status = status
            if self._on_status is not None:
                self._on_status(status)
