"""The Raspberry Pi camera through picamera2 (from apt, imported only on open).

Frames are asked for as "RGB888", which picamera2 lays out B, G, R in memory: just
what OpenCV calls BGR, so no conversion is needed.

After start, a calibration shot lets auto exposure, auto white balance and (on a
camera with autofocus, like Camera Module 3) one autofocus cycle settle; then all
three are locked at the values they reached. Tile colours must not drift when a
hand or a dark sleeve passes over the table.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from companion.i18n import _
from hardware.camera import CameraError, ContextCamera, as_bgr

log = logging.getLogger(__name__)

# libcamera's enum values, written out so that libcamera need not be imported.
AF_MODE_MANUAL = 0
AF_MODE_AUTO = 1
AF_TRIGGER_START = 0
AF_STATE_FOCUSED = 2
AF_STATE_FAILED = 3


class Picamera2Camera(ContextCamera):
    """A CSI camera on a Raspberry Pi."""

    def __init__(
        self,
        camera_num: int = 0,
        size: tuple[int, int] = (2304, 1296),
        *,
        lock: bool = True,
        settle_frames: int = 15,
        focus_frames: int = 90,
        frame_timeout: float = 2.0,
    ) -> None:
        self.camera_num = camera_num
        self.size = tuple(size)
        self.lock = lock
        self.settle_frames = settle_frames
        self.focus_frames = focus_frames
        self.frame_timeout = frame_timeout
        self.description = _("Raspberry Pi camera {number}").format(number=camera_num)
        # The controls that were locked after calibration (for logs and tests).
        self.locked: dict[str, Any] = {}
        self._picam: Any = None

    @property
    def is_open(self) -> bool:
        return self._picam is not None

    def open(self) -> None:
        if self._picam is not None:
            return
        try:
            # picamera2 exists only on a Pi, from apt: import it only when asked for.
            from picamera2 import Picamera2  # noqa: PLC0415
        except ImportError as error:
            raise CameraError(
                _("picamera2 is not installed (on Raspberry Pi OS: sudo apt install "
                  "python3-picamera2, and make the venv with --system-site-packages)")
            ) from error
        # picamera2 and libcamera raise all sorts (RuntimeError, IndexError, OSError):
        # at this boundary each of them means "this camera cannot be used".
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as error:
            raise CameraError(_("libcamera cannot list cameras: {error}").format(error=error)) \
                from error
        if self.camera_num >= len(cameras):
            raise CameraError(
                _("no Raspberry Pi camera {number} found (is the ribbon cable seated, "
                  "contacts the right way round?)").format(number=self.camera_num)
            )
        model = cameras[self.camera_num].get("Model", "?")
        self.description = _("Raspberry Pi camera {number} ({model})").format(
            number=self.camera_num, model=model
        )
        picam = None
        try:
            picam = Picamera2(self.camera_num)
            config = picam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}
            )
            picam.configure(config)
            picam.start()
            if self.lock:
                self.locked = self._calibrate(picam)
        except Exception as error:
            if picam is not None:
                _shut(picam)
            raise CameraError(
                _("{camera} cannot start: {error}").format(camera=self.description, error=error)
            ) from error
        self._picam = picam

    def _calibrate(self, picam: Any) -> dict[str, Any]:
        autofocus = "AfMode" in picam.camera_controls
        if autofocus:
            picam.set_controls({"AfMode": AF_MODE_AUTO, "AfTrigger": AF_TRIGGER_START})
        # capture_metadata() waits for the next frame: counting frames is the clock.
        metadata: dict[str, Any] = {}
        for _frame in range(self.settle_frames):
            metadata = picam.capture_metadata()
        if autofocus:
            for _frame in range(self.focus_frames):
                if metadata.get("AfState") in (AF_STATE_FOCUSED, AF_STATE_FAILED):
                    break
                metadata = picam.capture_metadata()
            if metadata.get("AfState") != AF_STATE_FOCUSED:
                log.warning("%s: autofocus did not succeed; keeping the lens where it is",
                            self.description)
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if name in metadata:
                controls[name] = metadata[name]
        if autofocus:
            controls["AfMode"] = AF_MODE_MANUAL
            if "LensPosition" in metadata:
                controls["LensPosition"] = metadata["LensPosition"]
        picam.set_controls(controls)
        log.info("%s: locked %s", self.description, controls)
        return controls

    def read(self) -> np.ndarray | None:
        if self._picam is None:
            raise CameraError(_("the camera is not open"))
        try:
            # Ask without blocking, then wait with a limit: a camera whose cable came
            # loose stops delivering, and the app loop must hear about it.
            job = self._picam.capture_array("main", wait=False)
            frame = self._picam.wait(job, timeout=self.frame_timeout)
        except TimeoutError as error:
            raise CameraError(
                _("{camera} delivered no frame for {seconds:g} s (cable loose?)").format(
                    camera=self.description, seconds=self.frame_timeout)
            ) from error
        except Exception as error:
            raise CameraError(
                _("{camera} stopped: {error}").format(camera=self.description, error=error)
            ) from error
        return as_bgr(frame, self.description)

    def close(self) -> None:
        if self._picam is not None:
            picam, self._picam = self._picam, None
            _shut(picam)


def _shut(picam: Any) -> None:
    # A camera that vanished fails to stop too; closing must still finish.
    for step in (picam.stop, picam.close):
        try:
            step()
        except Exception as error:
            log.warning("picamera2 %s failed: %s", step.__name__, error)
