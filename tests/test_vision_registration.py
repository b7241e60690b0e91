"""A board's grid checked against its own print before any place is read."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import cells, recognize
from vision.cells import read_board
from vision.recognize import analyse
from vision.synth import Conditions, random_content, render_table

UNKNOWN = "unknown"


def _places(lines: list[dict], floor: list, wall: list[list]) -> list:
    values = []
    for k, line in enumerate(lines, start=1):
        values += [UNKNOWN if line["count"] is None else line["color"] if p < line["count"] else None
                   for p in range(k)]
    return values + list(floor) + [v for row in wall for v in row]


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(11)
    content = random_content(rng, players=2)
    frame, truth = render_table(content, Conditions(shadow=0.35), rng)
    rec = analyse(frame)
    return frame, truth, rec


def _read_and_true(board, reading, truth: dict) -> tuple[list, list]:
    """Every place of a board as read, and as the truth of the board nearest it has it."""
    expected = min(truth["boards"], key=lambda b: np.hypot(*np.subtract(b["center"], board.center)))
    return (_places(reading.lines, reading.floor, reading.wall),
            _places(expected["lines"], expected["floor"], expected["wall"]))


def test_a_grid_in_place_is_read(table):
    _, truth, rec = table
    colored = [(b, r) for b, r in rec.boards if r.side == "colored"]
    assert colored
    for board, reading in colored:
        read, true = _read_and_true(board, reading, truth)
        assert sum(r == t for r, t in zip(read, true, strict=True)) >= 40


@pytest.mark.parametrize("dx, dy", [(84, 0), (-84, 0), (0, 86), (0, -86)])
def test_a_grid_off_by_a_cell_reads_nothing_wrong(table, dx, dy):
    # A board rebuilt wrong from the sides an arm or the frame's edge leaves in view can
    # put its grid a whole cell off the print: each place would then be read off its
    # neighbour, confidently. The coloured wall's diagonals, one step off, tell.
    frame, truth, rec = table
    for board, reading in rec.boards:
        if reading.side != "colored":
            continue
        off = board.panel_h @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])
        wrong = read_board(frame, dataclasses.replace(board, panel_h=off), reading.balance)
        read, true = _read_and_true(board, wrong, truth)
        assert all(r == t for r, t in zip(read, true, strict=True) if r != UNKNOWN)


def _off(board, move: np.ndarray):
    """The board as found with its outline, and so its grid, off by `move` (crop px)."""
    panel_in_board = np.linalg.inv(board.board_h) @ board.panel_h
    board_h = board.board_h @ panel_in_board @ move @ np.linalg.inv(panel_in_board)
    return dataclasses.replace(board, board_h=board_h, panel_h=board.panel_h @ move)


@pytest.mark.parametrize("move", [
    [[1.0, 0, 126], [0, 1.0, 0]],  # a cell and a half across (about 34 mm)
    [[1.0, 0, 0], [0, 1.0, -86]],  # a cell up
    [[1.0, 0, -40], [0, 1.18, -60]],  # rebuilt at the wrong depth: stretched and moved
])
def test_a_grid_off_the_print_is_moved_onto_it(table, monkeypatch, move):
    # The outline rebuilt wrong round an arm or the frame's edge puts the grid off the
    # print by any amount, stretched too. The coloured wall's print, found round it,
    # tells where the grid is: the board is read there, instead of left unread (a grid
    # off by whole cells) or read off its neighbours (a stretched grid, which still
    # shows the print weakly where it is).
    frame, truth, rec = table
    found = [b for b, _ in rec.boards]
    m = np.vstack([np.array(move, float), [0, 0, 1.0]])
    monkeypatch.setattr(recognize, "find_boards", lambda *args: [_off(b, m) for b in found])
    moved = analyse(frame)
    colored = [(b, r) for b, r in moved.boards if r.side == "colored"]
    assert colored
    for board, reading in colored:
        read, true = _read_and_true(board, reading, truth)
        assert all(r == t for r, t in zip(read, true, strict=True) if r != UNKNOWN)
        assert sum(r == t for r, t in zip(read, true, strict=True)) >= 40
        # A grid placed from the print asks more of its places than one from the outline.
        assert all(r.confidence >= cells._MOVED_SURE for r in reading.places.values() if r.value != UNKNOWN)


def test_a_place_is_read_only_as_sure_as_asked(table):
    frame, _, rec = table
    board, reading = rec.boards[0]
    known = sorted(r.confidence for r in reading.places.values() if r.value != UNKNOWN)
    sure = known[len(known) // 2]
    assert known[0] < sure
    strict = read_board(frame, board, reading.balance, sure)
    for place, r in strict.places.items():
        if reading.places[place].confidence >= sure:
            assert r == reading.places[place]
        else:
            assert r.value == UNKNOWN


def test_a_grid_in_place_is_kept_when_the_print_is_found_where_it_is(table, monkeypatch):
    # A grid that passed the check but shows the print only weakly (dim light, a
    # glossy glare) is searched round. Finding the print where the grid already is, the
    # board is read as found, not less surely from a grid refitted to the same place.
    frame, _, rec = table
    board, reading = next((b, r) for b, r in rec.boards if r.side == "colored")
    move = cells._wall_in_print(frame, board.panel_h, reading.balance)
    assert move is not None
    wall = cells.CENTERS[[i for i, p in enumerate(cells.PLACES) if p[0] == "wall"]]
    assert np.abs(cells.apply_h(move, wall) - wall).max() < 12  # found where it is
    clear, calls = cells._print_clear, []

    def weak_at_first(r):
        calls.append(r)
        return len(calls) > 1 and clear(r)

    monkeypatch.setattr(cells, "_print_clear", weak_at_first)
    kept, again = cells.read_registered(frame, board, reading.balance)
    assert len(calls) == 2  # the grid as found was doubted, and the print searched for
    assert kept is board
    assert again.places == read_board(frame, board, reading.balance).places
