"""Loading images: every bad file is a clear ImageError, never a crash or a silent grey picture."""

from __future__ import annotations

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
