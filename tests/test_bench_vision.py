"""The vision benchmark's scoring: what it counts of the places the truth hides."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

from vision.synth import BoardContent, TableContent

_spec = importlib.util.spec_from_file_location(
    "bench_vision", Path(__file__).resolve().parent.parent / "benchmarks" / "bench_vision.py")
bench = sys.modules["bench_vision"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

_WALL = tuple(tuple("blue" if (r, c) == (0, 0) else None for c in range(5)) for r in range(5))
_BOARD = BoardContent(lines=((None, 0), ("red", 2), (None, 0), (None, 0), (None, 0)), wall=_WALL)
_TABLE = TableContent(boards=(BoardContent(), _BOARD), factories=(("red",) * 4,) * 5)
_NO_CENTER = {"tiles": {}, "marker": False, "unknown": 0}


def _observed(board: BoardContent) -> dict:
    """A board as an observation holds it, every place in view."""
    return {"center": [500.0, 500.0], "rotation": 0, "side": "colored",
            "lines": [{"color": color, "count": count} for color, count in board.lines],
            "floor": list(board.floor), "wall": [list(row) for row in board.wall]}


def _frame(read: str | None, occluded: bool) -> tuple[dict, dict]:
    """Truth and observation of one board (the table's second) whose first wall cell a
    hand hides in the truth, and that the recogniser reads as `read`."""
    hidden = _observed(_BOARD)
    hidden["wall"][0][0] = "unknown"
    outline = [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]
    truth = {"boards": [hidden], "factories": [], "center": _NO_CENTER,
             "geometry": {"camera": {"px_per_mm": 1.0}, "boards": [{"outline": outline, "content_index": 1}]}}
    seen = _observed(_BOARD)
    seen["wall"][0][0] = read
    return truth, {"boards": [seen], "factories": [], "occluded": occluded, "center": _NO_CENTER}


def test_a_boards_content_lists_its_places_as_the_truth_does():
    assert bench.content_values(_BOARD) == [None, "red", "red"] + [None] * 19 + ["blue"] + [None] * 24


def test_a_place_the_truth_hides_is_scored_against_what_lies_there():
    for read, wrong in (("blue", 0), (None, 1), ("unknown", 0)):
        for occluded in (True, False):
            truth, obs = _frame(read, occluded)
            tally: Counter = Counter()
            bench.score_frame(obs, truth, tally, content=_TABLE)
            assert tally["cells"] == tally["cells_right"] == 46  # the hidden place is in no per-cell figure
            assert tally["hidden_read"] == (read != "unknown")
            assert tally["hidden_read_wrong"] == wrong
            assert tally["hidden_read_wrong_unflagged"] == (wrong and not occluded)
