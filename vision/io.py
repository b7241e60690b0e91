"""Loading camera images safely: every bad file becomes an ImageError naming the problem."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.i18n import _

_MAX_PIXELS = 80_000_000  # far above any camera we support; guards against decompression bombs


class ImageError(ValueError):
    """An image file that cannot be used."""


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as a BGR uint8 array, or raise ImageError."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ImageError(_("cannot read: {reason}").format(reason=error.strerror or error)) from None
    return decode_image(data)


def decode_image(data: bytes) -> np.ndarray:
    if not data:
        raise ImageError(_("the file is empty"))
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-64:].rstrip(b"\x00"):
        # OpenCV decodes a cut-off JPEG into a grey-padded picture without complaint.
        raise ImageError(_("the JPEG file is truncated"))
    buf = np.frombuffer(data, np.uint8)
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageError(_("not an image OpenCV can decode"))
    if image.shape[0] * image.shape[1] > _MAX_PIXELS:
        raise ImageError(_("the image is too large ({w}x{h})").format(w=image.shape[1], h=image.shape[0]))
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise ImageError(_("the image is too small ({w}x{h})").format(w=image.shape[1], h=image.shape[0]))
    return image
