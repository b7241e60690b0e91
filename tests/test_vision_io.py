"""Loading images: every bad file is a clear ImageError, never a crash or a silent grey picture."""

from __future__ import annotations

import struct

import cv2
import numpy as np
import pytest

from vision.io import ImageError, decode_image, load_image


def _jpeg(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    return buf.tobytes()


def test_loads_a_png_as_bgr(tmp_path):
    image = np.zeros((40, 60, 3), np.uint8)
    image[:, :, 2] = 200  # red in BGR
    path = tmp_path / "red.png"
    cv2.imwrite(str(path), image)
    loaded = load_image(path)
    assert loaded.shape == (40, 60, 3)
    assert loaded[0, 0].tolist() == [0, 0, 200]


def test_missing_file_names_the_problem(tmp_path):
    with pytest.raises(ImageError, match="cannot read"):
        load_image(tmp_path / "nope.png")


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image(path)


def test_not_an_image():
    with pytest.raises(ImageError, match="decode"):
        decode_image(b"this is not a picture at all")


def test_truncated_jpeg_is_refused():
    data = _jpeg(np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8))
    assert decode_image(data).shape == (120, 160, 3)
    with pytest.raises(ImageError, match="truncated"):
        decode_image(data[: len(data) // 2])


def test_tiny_image_is_refused():
    _, buf = cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ImageError, match="too small"):
        decode_image(buf.tobytes())


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """A JPEG with an EXIF APP1 segment giving only its orientation (as phones write)."""
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + b"MM\x00\x2a" + struct.pack(">I", 8) + ifd
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


@pytest.mark.parametrize(("orientation", "shape", "red_at"), [
    (1, (40, 80, 3), (20, 10)),  # as stored: red on the left
    (6, (80, 40, 3), (10, 20)),  # turned 90 degrees clockwise to be seen: red at the top
    (3, (40, 80, 3), (20, 70)),  # upside down: red on the right
])
def test_a_phone_photo_is_read_turned_as_its_exif_says(tmp_path, orientation, shape, red_at):
    # Phones store a photo as the sensor saw it and say in EXIF how to turn it; a person
    # labelling it, or looking at the overlay, sees it turned (docs/vision.md).
    image = np.zeros((40, 80, 3), np.uint8)
    image[:, :40, 2] = 255
    path = tmp_path / "phone.jpg"
    path.write_bytes(_with_orientation(_jpeg(image), orientation))
    loaded = load_image(path)
    assert loaded.shape == shape
    y, x = red_at
    assert loaded[y, x, 2] > 200 and loaded[y, x, 0] < 60
