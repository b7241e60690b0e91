"""`azul-companion kit --out DIR`: printable markers at their exact size, and a guide."""

from __future__ import annotations

import re
import zlib

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.aruco import MarkerLayout, detect_markers

A4_PX = (3508, 2480)  # 297 x 210 mm at 300 dpi
FILES = {"markers-table.png", "markers-boards.png", "markers.pdf", "placement.png", "placement.md"}


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit") / "new" / "kit"
    assert main(["kit", "--out", str(out)]) == 0
    return out


def black_side_px(page: np.ndarray, corners: np.ndarray) -> tuple[int, int]:
    """The printed marker's width and height in whole pixels, counted along the rows and
    columns through its middle (its black border runs edge to edge there)."""
    cx, cy = np.round(corners.mean(axis=0)).astype(int)
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 10
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 10
    row = np.flatnonzero(page[cy, x0:x1] < 128)
    col = np.flatnonzero(page[y0:y1, cx] < 128)
    return int(row[-1] - row[0] + 1), int(col[-1] - col[0] + 1)


def test_the_kit_has_its_files_and_names_them(kit, capsys):
    assert {p.name for p in kit.iterdir()} == FILES
    main(["kit", "--out", str(kit)])
    printed = capsys.readouterr().out
    assert all(name in printed for name in FILES)
    assert {p.name for p in kit.iterdir()} == FILES  # written again in place, no leftovers


@pytest.mark.parametrize(("name", "ids", "size_mm"), [
    ("markers-table.png", [0, 1, 2, 3], 60.0),
    ("markers-boards.png", list(range(10, 18)), 30.0),
])
def test_markers_are_printed_at_their_physical_size(kit, name, ids, size_mm):
    page = cv2.imread(str(kit / name), cv2.IMREAD_GRAYSCALE)
    assert page.shape == A4_PX
    layout = MarkerLayout.for_players(4)
    assert size_mm in {p.size for p in layout.table} | {p.size for _s, p in layout.tags}
    markers = detect_markers(page)
    assert [m.id for m in markers] == ids
    for m in markers:
        w, h = black_side_px(page, m.corners)
        assert abs(w - size_mm / 25.4 * 300) <= 1 and abs(h - size_mm / 25.4 * 300) <= 1


def test_the_pngs_say_they_are_300_dpi(kit):
    data = (kit / "markers-table.png").read_bytes()
    i = data.index(b"pHYs")
    assert data[i + 4:i + 13] == round(300 / 0.0254).to_bytes(4, "big") * 2 + b"\x01"
    assert cv2.imread(str(kit / "markers-table.png"), cv2.IMREAD_GRAYSCALE) is not None


def test_the_pdf_pages_are_a4_and_carry_the_sheets_pixel_for_pixel(kit):
    pdf = (kit / "markers.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert len(boxes) == 2
    for w, h in boxes:
        assert float(w) == pytest.approx(595.3, abs=0.5) and float(h) == pytest.approx(841.9, abs=0.5)
    images = list(re.finditer(rb"/Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", pdf))
    assert len(images) == 2
    for image, name in zip(images, ("markers-table.png", "markers-boards.png"), strict=True):
        w, h, n = (int(v) for v in image.groups())
        pixels = np.frombuffer(zlib.decompress(pdf[image.end():image.end() + n]), np.uint8)
        assert pdf[image.end() + n:].startswith(b"\nendstream")
        page = cv2.imread(str(kit / name), cv2.IMREAD_GRAYSCALE)
        assert (h, w) == page.shape
        assert np.array_equal(pixels.reshape(page.shape), page)
    # Every object the cross-reference table points at is where it says.
    start = int(re.search(rb"startxref\n(\d+)", pdf).group(1))
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n", pdf[start:])]
    for number, offset in enumerate(offsets, start=1):
        assert pdf[offset:].startswith(b"%d 0 obj" % number)


def test_the_guide_gives_positions_and_camera_heights_for_both_tables(kit):
    guide = (kit / "placement.md").read_text(encoding="utf-8")
    assert "(placement.png)" in guide
    assert "| 1 | top-right | 900 | 0 |" in guide and "| 2 | bottom-right | 1000 | 1000 |" in guide
    heights = [int(h) for h in re.findall(r"\| Camera Module 3 Wide \| (\d+) cm", guide)]
    assert len(heights) == 2 and heights[0] < heights[1]  # the 4-player table needs the camera higher
    diagram = cv2.imread(str(kit / "placement.png"))
    assert diagram is not None and diagram.shape[1] > diagram.shape[0] > 800


def test_out_is_a_file_exit_2_and_nothing_written(tmp_path, capsys):
    target = tmp_path / "kit.txt"
    target.write_text("keep me")
    assert main(["kit", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert str(target) in err and "not a directory" in err
    assert target.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit.txt"]


def test_out_under_a_file_exit_2_with_the_reason(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["kit", "--out", str(blocker / "kit")]) == 2
    err = capsys.readouterr().err
    assert "cannot write the kit" in err and str(blocker) in err


def test_kit_needs_out(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["kit"])
    assert stop.value.code == 2 and "--out" in capsys.readouterr().err
