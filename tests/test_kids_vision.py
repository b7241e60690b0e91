"""The Azul Kids recogniser: tiles read by colour and shape on boards and in bowls, and
"unknown" rather than a wrong answer; the photo helper that drafts a board definition."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from companion.rules.kids_board import KidsBoard, example_board, example_boards
from vision.kids import UNKNOWN, analyse_kids, recognise_kids
from vision.kids.overlay import draw_overlay
from vision.kids.shapes import SHAPES, classify, face_outline, features, unsweep
from vision.kids_board_photo import PhotoError, propose_board
from vision.synth import Conditions
from vision.synth.kids import (
    KidsBoardContent,
    KidsTableContent,
    mixed_kids_table,
    render_board_photo,
    render_kids_table,
)

SEA = example_board("Sea (example)")
GARDEN = example_board("Garden (example)")
BOARDS = example_boards()


def _fields(board: dict) -> list:
    return [v for p in board["pictures"] for v in p["fields"]]


def _master_content() -> KidsTableContent:
    # Sea: every first field covered by its own colour, and a red square lying on a
    # circle field (a mistake the camera must report as it is); Garden: empty but two.
    sea = KidsBoardContent(
        SEA,
        (
            ("red", "blue", None, "red", None, "yellow"),
            ("yellow", None, "green", "blue", "red"),
            ("red", "green", None),
            (None,),
            (None, "green"),
            ("blue", None, None, None),
        ),
    )
    garden_rows = [[None] * len(p.fields) for p in GARDEN.pictures]
    garden_rows[0][4], garden_rows[1][1] = "blue", "yellow"
    garden = KidsBoardContent(GARDEN, tuple(tuple(r) for r in garden_rows))
    return KidsTableContent(
        (sea, garden),
        bowls=(
            ("red", "red", "blue"),
            (),
            ("green",),
            ("blue", "yellow", "yellow", "red"),
            ("red", "green", "blue", "yellow", "red"),
        ),
        big=("green", "blue", "yellow"),
    )


def _compare(obs: dict, truth: dict) -> tuple[int, int, int]:
    """(fields right, fields confidently wrong, visible fields) over matched boards."""
    right = wrong = total = 0
    for tb in truth["boards"]:
        fb = min(obs["boards"], key=lambda b: math.dist(b["center"], tb["center"]), default=None)
        assert fb is not None and math.dist(fb["center"], tb["center"]) < 60
        assert (fb["board"], fb["rotation"]) == (tb["board"], tb["rotation"])
        for t, f in zip(_fields(tb), _fields(fb), strict=True):
            if t == UNKNOWN:
                continue
            total += 1
            right += f == t
            wrong += f not in (t, UNKNOWN)
    return right, wrong, total


@pytest.fixture(scope="module")
def clean():
    frame, truth = render_kids_table(_master_content(), Conditions(tilt_deg=15, azimuth_deg=30, noise=1.5), 5)
    return frame, truth, analyse_kids(frame, BOARDS)


def test_a_clean_frame_is_read_exactly(clean) -> None:
    _, truth, found = clean
    obs = found.observation
    assert obs["format"] == "azul-kids-observation/1"
    assert obs["image"] == {"width": 1920, "height": 1080}
    json.dumps(obs)
    assert [(b["board"], b["rotation"], b["side"]) for b in obs["boards"]] == [
        (b["board"], b["rotation"], b["side"]) for b in truth["boards"]
    ]
    for fb, tb in zip(obs["boards"], truth["boards"], strict=True):
        assert [p["id"] for p in fb["pictures"]] == [p["id"] for p in tb["pictures"]]
        assert _fields(fb) == _fields(tb)
        assert all(0 <= c <= 1 for p in fb["pictures"] for c in p["confidence"])
    assert [(b["bowl"], b["tiles"], b["unknown"]) for b in obs["bowls"]] == [
        (b["bowl"], b["tiles"], b["unknown"]) for b in truth["bowls"]
    ]
    assert not obs["occluded"]


def test_a_tile_on_the_wrong_field_is_reported_as_it_lies(clean) -> None:
    _, _, found = clean
    sea = next(b for b in found.observation["boards"] if b["board"] == "Sea (example)")
    whale = next(p for p in sea["pictures"] if p["id"] == "whale")
    assert SEA.picture("whale").fields[0].shape == "circle"
    assert whale["fields"][0] == "red"


def test_the_overlay_marks_what_was_read(clean, tmp_path) -> None:
    frame, _, found = clean
    out = draw_overlay(frame, found)
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    assert cv2.imwrite(str(tmp_path / "overlay.png"), out)


def test_an_oblique_glossy_noisy_frame_is_read_without_confident_mistakes() -> None:
    cond = Conditions(
        tilt_deg=38,
        azimuth_deg=200,
        roll_deg=4,
        glare=0.7,
        noise=4,
        jpeg_quality=75,
        kelvin=3000,
        gradient=0.4,
        table="wood",
        width=4000,
        height=3000,
    )
    frame, truth = render_kids_table(_master_content(), cond, 11)
    obs = recognise_kids(frame, BOARDS)
    right, wrong, total = _compare(obs, truth)
    assert wrong == 0
    assert right >= 0.9 * total
    bowls = {b["bowl"]: b for b in obs["bowls"]}
    for t in truth["bowls"]:
        got = bowls[t["bowl"]]
        assert all(n <= t["tiles"].get(c, 0) for c, n in got["tiles"].items()), (got, t)


def test_a_hand_over_the_table_gives_unknown_not_wrong() -> None:
    content = _master_content()
    for seed in (2,):
        frame, truth = render_kids_table(content, Conditions(hand=True, tilt_deg=10, noise=2), seed)
        obs = recognise_kids(frame, BOARDS)
        for tb in truth["boards"]:
            fb = min(obs["boards"], key=lambda b: math.dist(b["center"], tb["center"]), default=None)
            if fb is None or math.dist(fb["center"], tb["center"]) > 60:
                continue
            assert fb["board"] == tb["board"]
            for t, f in zip(_fields(tb), _fields(fb), strict=True):
                assert f in (t, UNKNOWN) or t == UNKNOWN


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes_are_told_apart_whatever_their_turn_and_blur(shape: str) -> None:
    rng = np.random.default_rng(SHAPES.index(shape))
    s = 2.5
    for _ in range(6):
        a = rng.uniform(0, 2 * math.pi)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = face_outline(shape) @ rot.T * s * rng.uniform(0.95, 1.05) + 40
        img = np.zeros((80, 80), np.uint8)
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 2.0))
        contours, _ = cv2.findContours((img > 127).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        found, confidence, _ = classify(features(max(contours, key=cv2.contourArea)), s)
        assert found == shape and confidence > 0.5


def test_a_blob_of_no_tile_shape_is_not_confident() -> None:
    img = np.zeros((80, 80), np.uint8)
    cv2.fillPoly(img, [np.int32([[10, 10], [70, 12], [40, 30], [68, 60], [12, 66]])], 255)
    contours, _ = cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    _, confidence, _ = classify(features(contours[0]), 2.5)
    assert confidence < 0.5


def test_unsweep_gives_back_the_top_face() -> None:
    face = np.zeros((100, 100), np.uint8)
    cv2.fillPoly(face, [np.int32([[50, 20], [75, 50], [50, 80], [25, 50]])], 1)
    kernel = np.zeros((7, 9), np.uint8)
    cv2.line(kernel, (0, 0), (8, 6), 1, 1)  # the side face: the top swept by (8, 6)
    seen = cv2.dilate(face, kernel, anchor=(8, 6))  # every point of the face, and up to (8, 6) on
    back = unsweep(seen, np.array([8.0, 6.0]))
    assert np.count_nonzero(back != face) < 0.03 * face.sum()
    assert np.count_nonzero(seen != face) > 0.2 * face.sum()


def test_bad_input_is_refused_and_an_empty_table_shows_nothing() -> None:
    with pytest.raises(ValueError, match="board definition"):
        recognise_kids(np.zeros((100, 100, 3), np.uint8), [])
    with pytest.raises(ValueError, match="H x W x 3"):
        recognise_kids(np.zeros((100, 100, 5), np.uint8), BOARDS)
    obs = recognise_kids(np.full((540, 960, 3), 230, np.uint8), BOARDS)
    assert obs["boards"] == [] and obs["bowls"] == [] and obs["occluded"]


def test_the_photo_helper_drafts_the_board_from_its_printed_fields() -> None:
    turtle = example_board("Turtle (example)")
    photo, _ = render_board_photo(
        turtle, Conditions(tilt_deg=25, azimuth_deg=15, noise=3, jpeg_quality=85, board_jitter_deg=4), 2
    )
    draft = propose_board(photo, "apprentice", "Turtle (ours)")
    board = KidsBoard.from_json(draft, "draft")
    got = [(f.shape, f.at) for p in board.pictures for f in p.fields]
    want = [(f.shape, f.at) for p in turtle.pictures for f in p.fields]
    assert len(want) - 1 <= len(got) <= len(want)
    matched = sum(any(s == gs and math.dist(a, ga) < 0.02 for gs, ga in got) for s, a in want)
    assert matched >= len(want) - 1
    assert all(f.outline is not None and len(f.outline) >= 4 for p in board.pictures for f in p.fields)


def test_the_photo_helper_groups_master_pictures_by_their_frames() -> None:
    photo, _ = render_board_photo(GARDEN, Conditions(tilt_deg=10, noise=2), 4)
    draft = propose_board(photo, "master", "Garden (ours)")
    sizes = sorted(len(p["fields"]) for p in draft["pictures"])
    assert sizes[-2:] == [5, 6] and all(p["stars"] == 0 for p in draft["pictures"])


def test_the_photo_helper_says_when_it_finds_no_fields() -> None:
    with pytest.raises(PhotoError, match="no printed field"):
        propose_board(np.full((400, 600, 3), 200, np.uint8), "apprentice")
    with pytest.raises(PhotoError, match="side"):
        propose_board(np.full((400, 600, 3), 200, np.uint8), "duel")


@pytest.mark.parametrize("seed", [3, 6])
def test_the_photo_helper_finds_every_field_of_every_example_board(seed: int) -> None:
    # A crisply printed square's hull has only four corners; it once fell out of the draft.
    conditions = Conditions(tilt_deg=25, azimuth_deg=15, noise=3, jpeg_quality=85, board_jitter_deg=4)
    for board in example_boards():
        photo, _ = render_board_photo(board, conditions, seed)
        draft = KidsBoard.from_json(propose_board(photo, board.side, "draft"), "draft")
        got = [(f.shape, f.at) for p in draft.pictures for f in p.fields]
        want = [(f.shape, f.at) for p in board.pictures for f in p.fields]
        found = sum(any(s == gs and math.dist(a, ga) < 0.02 for gs, ga in got) for s, a in want)
        assert found == len(want), board.name


def test_boards_the_photos_edges_cut_are_found_though_none_shows_whole() -> None:
    # a table from the benchmark (seed 3, frame 58) framed tight at 25 degrees: each of the
    # two boards runs off the photo, so no board found whole gives the table's plane, and
    # the unseen side completed as if from straight above lies some mm off
    content, cond, rng = mixed_kids_table(3, 58)
    frame, truth = render_kids_table(content, cond, rng)
    assert len(truth["boards"]) == 2
    obs = recognise_kids(frame, BOARDS)
    assert len(obs["boards"]) == 2
    right, wrong, total = _compare(obs, truth)
    assert (right, wrong) == (total, 0)
