"""The recogniser on deterministic synthetic frames with known truth, and on frames
with nothing to find."""

from __future__ import annotations

import dataclasses
from collections import Counter
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision import color, factories
from vision import recognize as recognize_module
from vision.boards import BOARD_H_MM, BOARD_W_MM, BoardFind
from vision.cells import PLACES
from vision.color import UNKNOWN, Reading, WhiteBalance
from vision.recognize import (
    FORMAT,
    _grown_back,
    _read_or_rival,
    _rebalanced,
    _said_on_told_side,
    _sides_told,
    _table_balances,
    _untold_rebalanced,
    recognize,
)
from vision.synth import (
    BoardContent,
    Conditions,
    TableContent,
    mixed_table,
    printed_color,
    random_content,
    render_table,
)


def _neutral_frame(seed: int, side: str = "colored") -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(seed)
    content = random_content(rng, players=4, side=side)
    return render_table(content, Conditions.neutral(), rng)


@pytest.fixture(scope="module")
def neutral():
    frame, truth = _neutral_frame(1)
    return frame, truth, recognize(frame)


def _check_schema(obs: dict, width: int, height: int) -> None:
    assert set(obs) == {"format", "image", "occluded", "boards", "factories", "center"}
    assert obs["format"] == FORMAT
    assert obs["image"] == {"width": width, "height": height}
    assert isinstance(obs["occluded"], bool)
    for b in obs["boards"]:
        assert set(b) == {"center", "rotation", "side", "lines", "floor", "wall", "confidence"}
        assert b["rotation"] in (0, 90, 180, 270)
        assert b["side"] in ("colored", "grey")
        assert len(b["lines"]) == 5 and len(b["floor"]) == 7
        assert len(b["wall"]) == 5 and all(len(r) == 5 for r in b["wall"])
        assert 0 <= b["confidence"] <= 1
    for f in obs["factories"]:
        assert set(f) == {"center", "tiles", "unknown", "confidence"}
        assert len(f["tiles"]) + f["unknown"] <= 4
    assert set(obs["center"]) == {"tiles", "marker", "unknown"}


def test_neutral_table_boards_read_exactly(neutral):
    frame, truth, obs = neutral
    _check_schema(obs, frame.shape[1], frame.shape[0])
    assert len(obs["boards"]) == 4
    assert sorted(b["rotation"] for b in obs["boards"]) == [0, 90, 180, 270]
    for found, expected in zip(obs["boards"], truth["boards"], strict=True):
        assert np.hypot(*np.subtract(found["center"], expected["center"])) < 10
        assert found["rotation"] == expected["rotation"]
        assert found["side"] == expected["side"]
        assert found["lines"] == expected["lines"]
        assert found["floor"] == expected["floor"]
        assert found["wall"] == expected["wall"]


def test_neutral_table_factories_read_in_spec_order(neutral):
    _, truth, obs = neutral
    assert len(obs["factories"]) == len(truth["factories"])
    for found, expected in zip(obs["factories"], truth["factories"], strict=True):
        assert np.hypot(*np.subtract(found["center"], expected["center"])) < 15
        assert Counter(found["tiles"]) == Counter(expected["tiles"])
        assert found["unknown"] == 0


def test_grey_side_is_recognised():
    rng = np.random.default_rng(5)
    boards = [BoardContent(side="grey", lines=[("red", 1), (None, 0), ("blue", 3), (None, 0), (None, 0)],
                           wall=[["black", None, None, None, None]] + [[None] * 5] * 4)] * 2
    content = TableContent(boards=boards, factories=[["red"] * 4] * 5)
    frame, truth = render_table(content, Conditions.neutral(), rng)
    obs = recognize(frame)
    assert [b["side"] for b in obs["boards"]] == ["grey", "grey"]
    for found, expected in zip(obs["boards"], truth["boards"], strict=True):
        assert found["lines"] == expected["lines"]
        assert found["wall"] == expected["wall"]


@pytest.mark.parametrize("kind", ["black", "white", "noise", "grey gradient"])
def test_frames_without_a_board(kind):
    rng = np.random.default_rng(3)
    frame = {
        "black": np.zeros((720, 1280, 3), np.uint8),
        "white": np.full((720, 1280, 3), 255, np.uint8),
        "noise": rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8),
        "grey gradient": np.tile(np.linspace(0, 255, 1280, dtype=np.uint8)[None, :, None], (720, 1, 3)),
    }[kind]
    obs = recognize(frame)
    _check_schema(obs, 1280, 720)
    assert obs["boards"] == [] and obs["factories"] == []


def test_grey_and_bgra_input_are_accepted(neutral):
    frame, _, _ = neutral
    small = frame[::4, ::4]
    gray = small.mean(axis=2).astype(np.uint8)
    assert recognize(gray)["image"] == {"width": small.shape[1], "height": small.shape[0]}
    bgra = np.concatenate([small, np.full((*small.shape[:2], 1), 255, np.uint8)], axis=2)
    assert recognize(bgra)["image"]["width"] == small.shape[1]


def test_players_limits_the_boards(neutral):
    frame, _, _ = neutral
    assert len(recognize(frame, players=2)["boards"]) == 2


def _places(board: dict) -> list:
    """Every place of a board observation, pattern-line places right-aligned."""
    values = []
    for k, line in enumerate(board["lines"], start=1):
        values += ["unknown" if line["count"] is None else line["color"] if p < line["count"] else None
                   for p in range(k)]
    return values + list(board["floor"]) + [v for row in board["wall"] for v in row]


def _drawn_places(board: BoardContent) -> list:
    """Every place of a drawn board, in the order of _places."""
    values = [color if p < count else None for k, (color, count) in enumerate(board.lines, start=1)
              for p in range(k)]
    return values + list(board.floor) + [v for row in board.wall for v in row]


def test_boards_cut_by_the_frame_edge_are_read_where_visible():
    # Framed close: the top and bottom boards run out of the frame; their centres stay in it.
    rng = np.random.default_rng(2)
    content = random_content(rng, players=4)
    frame, truth = render_table(content, Conditions(framing=1.3, shadow=0.35), rng)
    h, w = frame.shape[:2]
    cut = [i for i, b in enumerate(truth["geometry"]["boards"])
           if any(x < 2 or y < 2 or x > w - 3 or y > h - 3 for x, y in b["outline"])]
    assert len(cut) == 2  # the frame is what this test is about
    obs = recognize(frame)
    assert len(obs["boards"]) == 4
    for i in cut:
        expected = truth["boards"][i]
        found = min(obs["boards"], key=lambda b: np.hypot(*np.subtract(b["center"], expected["center"])))
        assert np.hypot(*np.subtract(found["center"], expected["center"])) < 15
        assert found["rotation"] == expected["rotation"]
        read, true = _places(found), _places(expected)
        # Places out of the frame are unknown; every place read is read right. (The truth
        # counts a place hidden when a third of it is out of the frame, where a window of
        # it may still be all in view: a place is checked against the tile drawn there.)
        drawn = _drawn_places(content.boards[truth["geometry"]["boards"][i]["content_index"]])
        assert all(r == d for r, d in zip(read, drawn, strict=True) if r != "unknown")
        assert "unknown" in read
        assert sum(r == t for r, t in zip(read, true, strict=True)) >= 25


def test_a_coloured_wall_full_of_tiles_is_still_the_coloured_side():
    # Tiles look the same on either side, so only the wall's empty printed cells tell the side.
    rng = np.random.default_rng(6)
    wall = [[printed_color(r, c) if r < 4 or c < 2 else None for c in range(5)] for r in range(5)]
    boards = [BoardContent(side="colored", lines=[("red", 1), (None, 0), ("blue", 3), (None, 0), (None, 0)],
                           wall=wall)] * 2
    content = TableContent(boards=boards, factories=[["red"] * 4] * 5)
    frame, truth = render_table(content, Conditions.neutral(), rng)
    obs = recognize(frame)
    assert [b["side"] for b in obs["boards"]] == ["colored", "colored"]
    for found, expected in zip(obs["boards"], truth["boards"], strict=True):
        assert found["wall"] == expected["wall"]
        assert found["lines"] == expected["lines"]


def test_boards_are_found_under_warm_uncorrected_light():
    # Tungsten light the camera did not balance pales the boards' blue towards grey-green.
    rng = np.random.default_rng(4)
    content = random_content(rng, players=4)
    frame, truth = render_table(content, Conditions(kelvin=2700, shadow=0.35), rng)
    obs = recognize(frame)
    assert len(obs["boards"]) == 4
    assert [b["rotation"] for b in obs["boards"]] == [b["rotation"] for b in truth["boards"]]
    assert len(obs["factories"]) == len(truth["factories"])


def test_a_frame_reads_the_same_whatever_was_read_before():
    # Touching centre tiles are split by k-means, seeded from OpenCV's thread-wide
    # generator; frame 1 of this mix is one whose reading used to follow that state.
    content, conditions, rng = mixed_table(5, 1)
    image, _truth = render_table(content, conditions, rng)
    readings = []
    for state in (1, 987654):
        cv2.setRNGSeed(state)
        readings.append(recognize(image, len(content.boards)))
    assert readings[0] == readings[1]


def test_centre_tiles_left_unread_are_unknown_not_a_hand(monkeypatch) -> None:
    # A heap in the centre leaves its tiles unread (here: the centre's model sure of
    # none). They are counted as unknown, and the frame is not "occluded": that is for a
    # hand over the play area (observation.md), and a tracker sets such frames aside with
    # everything else they show.
    content, cond, rng = mixed_table(7, 2)
    frame, truth = render_table(content, cond, rng)
    assert not cond.hand and not truth["occluded"]  # (frame 0 has cups over the play area)
    monkeypatch.setattr(factories, "_PILE_SURE", 1.01)
    obs = recognize(frame, len(truth["boards"]))
    assert obs["center"]["unknown"] == sum(truth["center"]["tiles"].values()) > 0
    assert not obs["occluded"]


def test_a_board_not_where_it_was_found_does_not_tint_the_table() -> None:
    # A board rebuilt round a navy sleeve, its grid off its print, took the sleeve for its
    # cream: gains of 3-6. With the one board in place, the median of two tinted every disc.
    def board(gains: tuple, in_place: bool) -> SimpleNamespace:
        return SimpleNamespace(balance=WhiteBalance(np.float32(gains)), grid_in_place=in_place)

    placed = board((0.96, 1.01, 1.05), True)
    astray = board((3.2, 5.1, 6.2), False)
    near = board((0.8, 0.9, 0.9), False)  # its grid failed under a hand, but it is where it was found
    assert [b.gains.tolist() for b in _table_balances([placed, astray, near])] == \
        [placed.balance.gains.tolist(), near.balance.gains.tolist()]
    # With no grid in place there is nothing to judge by: every board counts.
    assert len(_table_balances([board((1, 1, 1), False), board((3, 3, 3), False)])) == 2


def test_a_board_whose_cream_measured_far_darker_is_read_again_under_the_others(monkeypatch) -> None:
    # An arm over most of a board's cream gives the panel gains that wash its print out;
    # so does a grid off its board (its cream's windows on tiles or the table). Read again
    # under the other boards' balance, the board is taken if its grid was in place, if it
    # now shows the coloured print clearly, or if its grid now fits a grey wall read
    # surely as grey.
    def reading(gains: float, in_place: bool, side: str = "colored", clear: bool = False,
                side_sure: float = 1.0) -> SimpleNamespace:
        return SimpleNamespace(balance=WhiteBalance(np.full(3, gains, np.float32)), grid_in_place=in_place,
                               side=side, clear=clear, side_confidence=side_sure,
                               places={p: Reading(None, 0.9) for p in PLACES})

    again: dict[str, SimpleNamespace] = {}
    creams = []

    def read_registered(frame, board, rough, cream=None):
        creams.append((board, float(cream.gains.mean())))
        return board, again[board]

    monkeypatch.setattr(recognize_module, "read_registered", read_registered)
    monkeypatch.setattr(recognize_module, "shows_print", lambda r: r.side == "colored" and r.clear)
    rough = WhiteBalance.identity()
    lit = [("a", reading(1.0, True)), ("b", reading(1.2, True))]

    again["dark"] = reading(1.1, True, "grey", side_sure=0.9)  # unsure of the side: no grey wall
    out = _rebalanced(None, [*lit, ("dark", reading(2.4, False))], rough)
    assert creams == [("dark", pytest.approx(1.1))]  # only the dark board, under the others' median
    assert out[2][1].balance.gains.mean() == pytest.approx(2.4)  # kept as first read

    again["dark"] = reading(1.1, False, "colored")  # still off its print
    assert _rebalanced(None, [*lit, ("dark", reading(2.4, False))], rough)[2][1].balance.gains.mean() \
        == pytest.approx(2.4)

    again["dark"] = reading(1.1, True, "grey")
    assert _rebalanced(None, [*lit, ("dark", reading(2.4, False))], rough)[2][1] is again["dark"]

    again["dark"] = reading(1.1, True, "colored", clear=True)
    assert _rebalanced(None, [*lit, ("dark", reading(2.4, False))], rough)[2][1] is again["dark"]

    again["dark"] = reading(1.1, True, "grey", side_sure=0.9)  # taken for the grid in place at first
    assert _rebalanced(None, [*lit, ("dark", reading(2.4, True, "grey"))], rough)[2][1] is again["dark"]

    creams.clear()
    _rebalanced(None, [*lit, ("dim", reading(1.55, True))], rough)  # within a lamp's falloff (1.41)
    assert creams == []
    again["sleeve"] = reading(1.1, True)
    _rebalanced(None, [*lit, ("sleeve", reading(1.63, True))], rough)  # a sleeve over part of the cream: 1.48
    assert creams == [("sleeve", pytest.approx(1.1))]

    # A board found wrong took an arm for its cream: its gains are no measure of the light.
    astray = ("astray", reading(5.0, False))
    again["astray"] = reading(5.0, False)
    _rebalanced(None, [lit[0], astray, ("dark", reading(2.0, True))], rough)
    assert ("dark", pytest.approx(1.0)) in creams


def test_a_board_read_in_place_with_places_unread_under_a_darker_cream_is_read_again(monkeypatch) -> None:
    # A sleeve over part of a board's cream leaves its gains within the others' spread
    # but dark enough to read places it lies beside as something over them. Such a board
    # is read again under the other boards' balance, and taken only if it then reads at
    # least three places more, in place and on the same side.
    def reading(gains: float, read: int, in_place: bool = True, side: str = "grey") -> SimpleNamespace:
        places = {p: Reading(None if k < read else UNKNOWN, 0.9) for k, p in enumerate(PLACES)}
        return SimpleNamespace(balance=WhiteBalance(np.full(3, gains, np.float32)), grid_in_place=in_place,
                               side=side, side_confidence=1.0, places=places, clear=False)

    again: dict[str, SimpleNamespace] = {}
    asked = []

    def read_registered(frame, board, rough, cream=None):
        asked.append(board)
        return board, again[board]

    monkeypatch.setattr(recognize_module, "read_registered", read_registered)
    rough = WhiteBalance.identity()
    lit = [("a", reading(1.0, len(PLACES))), ("b", reading(1.2, len(PLACES)))]  # their median: 1.1

    def taken(first: SimpleNamespace) -> bool:
        return _rebalanced(None, [*lit, ("shaded", first)], rough)[2][1] is again["shaded"]

    again["shaded"] = reading(1.1, 33)
    assert taken(reading(1.4, 30))  # 1.27 times darker: three more places read
    assert asked == ["shaded"]
    again["shaded"] = reading(1.1, 32)
    assert not taken(reading(1.4, 30))  # only two more
    again["shaded"] = reading(1.1, 40, in_place=False)
    assert not taken(reading(1.4, 30))
    again["shaded"] = reading(1.1, 40, side="colored")
    assert not taken(reading(1.4, 30))
    again["shaded"] = reading(1.1, 40)
    asked.clear()
    assert not taken(reading(1.26, 30))  # 1.145 times darker: not read again
    assert not taken(reading(1.4, 30, in_place=False, side="colored"))  # off its print: see above
    assert not taken(reading(1.4, len(PLACES)))  # every place read
    assert asked == []


class _Found(str):
    """A board found, by name, and how surely (all _side_told asks of a BoardFind)."""

    def __new__(cls, name: str, confidence: float = 1.0) -> _Found:
        found = super().__new__(cls, name)
        found.confidence = confidence
        return found


def test_a_board_unsure_of_its_side_is_read_on_the_side_the_others_show(monkeypatch) -> None:
    # An arm over most of a board's wall leaves too few cells to tell its side, and the
    # whole wall went unread. A game is played on one side (the record's variant): the
    # side every board sure of its own shows is the unsure board's too.
    @dataclasses.dataclass
    class Reading:
        side: str
        side_confidence: float
        grid_in_place: bool
        sure: float | None
        occluded: bool
        wall: list
        balance: WhiteBalance = dataclasses.field(default_factory=WhiteBalance.identity)

    def reading(side: str, sure: float, in_place: bool = True, bar: float | None = None, *,
                occluded: bool = False, wall_read: int = 25) -> Reading:
        wall = [[None if 5 * r + c < wall_read else UNKNOWN for c in range(5)] for r in range(5)]
        return Reading(side, sure, in_place, bar, occluded, wall)

    asked = []
    again: dict[str, Reading] = {}

    def read_board(frame, board, rough, sure=None, cream=None, *, told=None):
        asked.append((board, sure, told))
        return again[board]

    monkeypatch.setattr(recognize_module, "read_board", read_board)
    rough = WhiteBalance.identity()
    sure = [(_Found("a"), reading("colored", 0.999)), (_Found("b"), reading("colored", 1.0))]

    again["armed"] = reading("colored", 0.999)
    out = _sides_told(None, [*sure, (_Found("armed"), reading("grey", 0.6, bar=0.85))], rough)
    # only the unsure board, as it was read (a grid moved onto the print reads its places
    # only from 0.85 sure), on the side told as surely as the least sure board
    assert asked == [("armed", 0.85, ("colored", 0.999))]
    assert out[:2] == sure and out[2] == ("armed", again["armed"])

    # A board read at a turn its print told (its strip hidden) stays occluded: what hid
    # the strip still stands over it.
    out = _sides_told(None, [*sure, (_Found("armed"), reading("grey", 0.6, occluded=True))], rough)
    assert out[2][1].occluded and out[2][1].side == "colored"

    again["armed"] = reading("colored", 0.999, in_place=False)  # off its print on that side
    unsure = (_Found("armed"), reading("grey", 0.6))
    assert _sides_told(None, [*sure, unsure], rough)[2] == unsure

    # A board whose grid is off its print read its side off whatever lies there (a grey
    # sleeve over a coloured wall reads as the grey side): it has no say, and is read
    # again on the side told, however sure it was of its own.
    asked.clear()
    again["armed"] = reading("colored", 0.999)
    again["sleeved"] = reading("colored", 0.999)
    out = _sides_told(None, [*sure, (_Found("sleeved"), reading("grey", 1.0, in_place=False)), unsure], rough)
    assert asked == [("sleeved", None, ("colored", 0.999)), ("armed", None, ("colored", 0.999))]
    assert out[2] == ("sleeved", again["sleeved"])
    # On the side told, it is not read again.
    asked.clear()
    _sides_told(None, [*sure, (_Found("moved"), reading("colored", 1.0, in_place=False))], rough)
    assert asked == []

    # Boards sure of different sides, or none sure: nothing to tell.
    asked.clear()
    _sides_told(None, [sure[0], (_Found("g"), reading("grey", 1.0)), unsure], rough)
    _sides_told(None, [unsure, (_Found("u"), reading("colored", 0.9))], rough)
    assert asked == []

    # Where boards sure of their side differ, one that shows little of its wall (a grey
    # sleeve over most of a coloured one) has no say: it is read again on the side the
    # boards that show theirs show. Twelve cells are too few, thirteen enough.
    for shown, told in [(12, ("colored", 0.999)), (13, None)]:
        asked.clear()
        again["sleeved"] = reading("colored", 1.0)
        out = _sides_told(None, [*sure, (_Found("sleeved"), reading("grey", 1.0, wall_read=shown))], rough)
        assert asked == ([("sleeved", None, told)] if told else [])
        assert out[2][1].side == ("colored" if told else "grey")
    # Nor does one found less than 0.5 sure (an outline rebuilt round an arm and the
    # frame's edge, its grid on a grey board's pattern lines, read "coloured" surely).
    for found, told in [(0.0, ("colored", 0.999)), (0.5, None)]:
        asked.clear()
        again["rebuilt"] = reading("colored", 1.0)
        _sides_told(None, [*sure, (_Found("rebuilt", found), reading("grey", 1.0))], rough)
        assert asked == ([("rebuilt", None, told)] if told else [])
    # Agreeing, each has its say however little of its wall it shows.
    asked.clear()
    _sides_told(None, [(_Found("a"), reading("grey", 1.0, wall_read=3)),
                       (_Found("b"), reading("grey", 1.0, wall_read=25))], rough)
    assert asked == []


def test_a_board_that_does_not_show_its_side_surely_is_said_to_show_the_others_side() -> None:
    # Seed 9, frame 45 (the benchmark's): three coloured boards sure of their side, and a
    # fourth read at the turn its bonus panel told, under an arm, taken for the grey
    # side 0.78 sure. Its wall was unread; the side it was said to show was wrong.
    @dataclasses.dataclass
    class Reading:
        side: str
        side_confidence: float
        grid_in_place: bool
        wall: list
        places: dict = dataclasses.field(default_factory=dict)
        withheld: frozenset = frozenset()

    read = [["blue", None, None, None, None]] + [[None] * 5] * 4
    unread = [[UNKNOWN] * 5] * 5
    sure = [(_Found("a"), Reading("colored", 0.999, True, read)),
            (_Found("b"), Reading("colored", 1.0, True, read))]
    out = _said_on_told_side([*sure, (_Found("armed"), Reading("grey", 0.78, True, unread)),
                              (_Found("sleeved"), Reading("grey", 1.0, False, unread))])
    assert out[:2] == sure
    assert [r.side for _, r in out[2:]] == ["colored", "colored"]
    # A wall read on the other side's print is not kept.
    places = {("wall", 0, 0): color.Reading("blue", 0.95), ("line", 0, 0): color.Reading("red", 0.9)}
    guessed = (_Found("guessed"), Reading("grey", 0.9, True, read, places))
    (_, told), = _said_on_told_side([*sure, guessed])[2:]
    assert told.side == "colored" and told.wall == unread
    assert told.places == {("wall", 0, 0): color.Reading(UNKNOWN, 0.0),
                           ("line", 0, 0): places[("line", 0, 0)]}
    assert told.withheld == {"wall"}  # and not read again (cells.read_final)
    # A board sure of another side keeps it: sides differ, nothing is told.
    grey = (_Found("g"), Reading("grey", 1.0, True, read))
    assert _said_on_told_side([*sure, grey, (_Found("armed"), Reading("grey", 0.78, True, unread))])[2:] == \
        [grey, (_Found("armed"), Reading("grey", 0.78, True, unread))]
    # ... unless it shows little of its wall (seed 9, frame 270: 4 cells under a sleeve).
    sleeved = [["blue", None, None, None, UNKNOWN]] + [[UNKNOWN] * 5] * 4
    (_, told), = _said_on_told_side([*sure, (_Found("sleeved"), Reading("grey", 1.0, True, sleeved))])[2:]
    assert told.side == "colored" and told.wall == unread


def test_a_board_whose_turn_was_untold_is_read_again_under_the_others_balance(monkeypatch) -> None:
    # An arm over a board's strip may lie over its cream too: its own balance washed its
    # wall out and no turn fitted. It is read again under the boards' balance; one that
    # still fits nowhere stays unread (None, in its place).
    def reading(gains: float) -> SimpleNamespace:
        return SimpleNamespace(balance=WhiteBalance(np.full(3, gains, np.float32)), grid_in_place=True)

    creams = []

    def read_registered(frame, board, rough, cream=None, middle=None):
        creams.append((board, float(cream.gains.mean()), middle))
        return None if board == "lost" else (board, "read")

    monkeypatch.setattr(recognize_module, "read_registered", read_registered)
    rough = WhiteBalance.identity()
    read = [("a", reading(1.0)), ("b", reading(1.2))]
    assert _untold_rebalanced(None, ["armed", "lost"], read, rough, "middle") == [("armed", "read"), None]
    assert [(b, m) for b, _, m in creams] == [("armed", "middle"), ("lost", "middle")]
    table = WhiteBalance.combine([r.balance for _, r in read])
    assert creams[0][1] == pytest.approx(float(table.gains.mean()))
    creams.clear()
    assert _untold_rebalanced(None, ["armed"], [], rough, None) == [None]  # no board to balance by
    assert creams == []


def test_a_board_whose_turn_nothing_told_is_read_as_its_rival_only_if_unread(monkeypatch) -> None:
    # A board rebuilt with its strip hidden, and the same board rebuilt from its parts
    # either side of an arm, whose strip tells a turn: the rival is read only where the
    # print turns the board at no turn, and kept only if its grid lies on its print.
    def read_registered(frame, board, rough, cream=None, middle=None):
        tried.append(board.name)
        return board.read

    def board(name, read, rival=None):
        return SimpleNamespace(name=name, read=read, rival=rival)

    monkeypatch.setattr(recognize_module, "read_registered", read_registered)
    rough = WhiteBalance.identity()
    placed, off = SimpleNamespace(grid_in_place=True), SimpleNamespace(grid_in_place=False)
    rival = board("rival", ("rival", placed))
    tried = []
    assert _read_or_rival(None, board("untold", ("untold", placed), rival), rough, None) == ("untold", placed)
    assert tried == ["untold"]
    tried = []
    assert _read_or_rival(None, board("untold", None, rival), rough, None) == ("rival", placed)
    assert tried == ["untold", "rival"]
    assert _read_or_rival(None, board("untold", None, board("rival", ("rival", off))), rough, None) is None
    assert _read_or_rival(None, board("untold", None), rough, None) is None


@pytest.mark.parametrize(("grown_side", "on_grey_wall", "kept"),
                         [("grey", True, True), ("colored", False, False), ("colored", True, True)])
def test_a_board_grown_is_read_on_the_side_the_others_show(monkeypatch, grown_side, on_grey_wall,
                                                           kept) -> None:
    # A game is played on one side: where every board sure of its side shows the grey one,
    # a board grown back whose grid passed on the coloured side is read again on the grey
    # side, and kept only if its grid lies on a grey wall there (an outline grown 113 mm
    # off read 27 places on the coloured side).
    def board(x: float, size: float = 100.0) -> BoardFind:
        quad = np.array([[x, 0.0], [x + size, 0.0], [x + size, size], [x, size]])
        to_img = np.array([[size / BOARD_W_MM, 0.0, x], [0.0, size / BOARD_H_MM, 0.0], [0.0, 0.0, 1.0]])
        return BoardFind(quad, to_img, to_img, 0, 0.9)

    def reading(side: str, in_place: bool) -> SimpleNamespace:
        return SimpleNamespace(side=side, side_confidence=1.0, grid_in_place=in_place, sure=None, places={},
                               read_first=np.zeros(len(PLACES), bool), balance=None)

    bigger = board(290.0, 130.0)
    asked = []

    def read_board(frame, b, rough, sure, cream, *, told=None):
        asked.append(told)
        return reading(told[0], on_grey_wall)

    monkeypatch.setattr(recognize_module, "grown", lambda b, *args, **kwargs: [bigger])
    monkeypatch.setattr(recognize_module, "shows_print", lambda r: r.side == "colored")  # clearly, at that
    monkeypatch.setattr(recognize_module, "read_registered",
                        lambda frame, b, *args, **kwargs: (b, reading(grown_side, True)))
    monkeypatch.setattr(recognize_module, "read_board", read_board)
    readings = [(board(0.0), reading("grey", True)), (board(300.0), reading("grey", False))]
    out = _grown_back(None, None, 1.0, None, readings, middle=None, unread=[])
    assert (out[1][0] is bigger) == kept
    assert out[1][1].side == "grey"
    assert asked == ([] if grown_side == "grey" else [("grey", 1.0)])
    assert out[0] == readings[0]
