"""`azul-companion recognize`: output shapes, exit statuses, debug overlays, bad files."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.synth import Conditions, random_content, render_table


@pytest.fixture(scope="module")
def table_png(tmp_path_factory):
    rng = np.random.default_rng(1)
    frame, _ = render_table(random_content(rng, players=2), Conditions.neutral(1280, 720), rng)
    path = tmp_path_factory.mktemp("frames") / "table.png"
    cv2.imwrite(str(path), frame)
    return path


def test_json_prints_one_observation_per_image(table_png, tmp_path, capsys):
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((300, 400, 3), np.uint8))
    assert main(["recognize", "--json", str(table_png), str(black)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["format"] == second["format"] == "azul-observation/1"
    assert len(first["boards"]) == 2
    assert second["boards"] == [] and second["image"] == {"width": 400, "height": 300}


def test_summary_without_json(table_png, capsys):
    assert main(["recognize", str(table_png)]) == 0
    out = capsys.readouterr().out
    assert "2 boards" in out and "seat 1" in out and "factory 5" in out


def test_no_board_is_not_an_error(tmp_path, capsys):
    white = tmp_path / "white.png"
    cv2.imwrite(str(white), np.full((300, 400, 3), 255, np.uint8))
    assert main(["recognize", str(white)]) == 0
    assert "no player board found" in capsys.readouterr().out


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    (b"GIF89a but not really", "decode"),
])
def test_unreadable_files_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.png"
    path.write_bytes(content)
    assert main(["recognize", "--json", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(path) in captured.err and message in captured.err


def test_truncated_jpeg_exits_2_and_others_still_print(table_png, tmp_path, capsys):
    _, buf = cv2.imencode(".jpg", cv2.imread(str(table_png)))
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(buf.tobytes()[:5000])
    assert main(["recognize", "--json", str(cut), str(table_png)]) == 2
    captured = capsys.readouterr()
    assert "truncated" in captured.err
    assert len(captured.out.strip().splitlines()) == 1


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["recognize", str(tmp_path / "nope.jpg")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_debug_dir_gets_an_overlay(table_png, tmp_path, capsys):
    out_dir = tmp_path / "debug"
    assert main(["recognize", "--debug-dir", str(out_dir), str(table_png)]) == 0
    overlay = cv2.imread(str(out_dir / "table.overlay.png"))
    original = cv2.imread(str(table_png))
    assert overlay is not None and overlay.shape == original.shape
    assert (overlay != original).any(axis=2).mean() > 0.001  # outlines and readings drawn
