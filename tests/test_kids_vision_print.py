"""Kids boards placed by their print: a frame's side found a little askew puts a corner
of the board some mm off, and its fields with it; the fields' printed outlines say
where the board truly lies, and a field left unknown is read again there."""

from __future__ import annotations

import cv2
import numpy as np
from test_kids_vision import BOARDS, _fields, _master_content

from vision.geometry import apply_h
from vision.kids import UNKNOWN, analyse_kids
from vision.kids.boards import BoardFind, moved, read_board
from vision.kids.geometry import BOARD_H_MM, BOARD_W_MM
from vision.kids.outlines import fit_to_print, hide_unshown, read_fitted
from vision.synth import Conditions
from vision.synth.kids import render_kids_table

_CORNERS_MM = np.float32([[0, 0], [BOARD_W_MM, 0], [BOARD_W_MM, BOARD_H_MM], [0, BOARD_H_MM]])


def _table() -> tuple[np.ndarray, dict, BoardFind]:
    frame, truth = render_kids_table(_master_content(), Conditions(tilt_deg=25, azimuth_deg=40, noise=1.5), 3)
    find = analyse_kids(frame, BOARDS).boards[0][0]
    return frame, truth, find


def _askew(find: BoardFind, frame: np.ndarray) -> BoardFind:
    """The find with its board's bottom-left corner put 6 mm out and 3 mm down, as a
    frame's side found askew puts it."""
    off = _CORNERS_MM.copy()
    off[3] += (-6.0, 3.0)
    return moved(find, find.plane.h @ cv2.getPerspectiveTransform(_CORNERS_MM, off), frame.shape[1::-1])


def _corner_error_mm(find: BoardFind, truth_outline: list) -> float:
    """How far the truth's board corners lie from the find's (in the find's board mm)."""
    mm = apply_h(np.linalg.inv(find.plane.h), np.array(truth_outline, np.float64))
    return max(float(np.hypot(*(_CORNERS_MM - p).T).min()) for p in mm)


def test_a_board_found_askew_is_moved_onto_its_print() -> None:
    frame, truth, find = _table()
    outline = min(
        (b["outline"] for b in truth["geometry"]["boards"]),
        key=lambda o: np.hypot(*(np.mean(o, axis=0) - find.center)),
    )
    askew = _askew(find, frame)
    assert _corner_error_mm(askew, outline) > 5
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert _corner_error_mm(fit_to_print(gray, askew), outline) < 2


def test_a_field_left_unknown_by_a_board_found_askew_is_read_where_the_print_puts_it() -> None:
    frame, truth, find = _table()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    askew = _askew(find, frame)
    board = min(truth["boards"], key=lambda b: np.hypot(*(np.array(b["center"]) - find.center)))
    as_found = [f.value for row in hide_unshown(gray, askew, read_board(frame, askew)).pictures for f in row]
    assert UNKNOWN in as_found
    _, reading = read_fitted(frame, gray, askew)
    assert [f.value for row in reading.pictures for f in row] == _fields(board)
