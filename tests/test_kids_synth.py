"""The Azul Kids synthetic renderer: deterministic frames whose truth says what they show."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.rules.kids_board import example_board
from vision.synth import Conditions
from vision.synth.kids import (
    TILE_RGB,
    KidsBoardContent,
    KidsTableContent,
    random_kids_content,
    render_board_photo,
    render_kids_table,
)
from vision.synth.truth import quarter_turns

SEA = example_board("Sea (example)")
TURTLE = example_board("Turtle (example)")


def _content() -> KidsTableContent:
    sea = KidsBoardContent(
        SEA, tuple(tuple(("blue" if k == 0 else None) for k, _ in enumerate(p.fields)) for p in SEA.pictures)
    )
    return KidsTableContent(
        (sea, KidsBoardContent(SEA)),
        bowls=(("red", "red"), (), ("green",), ("blue", "yellow", "yellow"), ("red",) * 5),
        big=("green", "blue"),
    )


@pytest.fixture(scope="module")
def neutral():
    return render_kids_table(_content(), Conditions.neutral(), 3)


def test_same_seed_same_frame_and_another_seed_another() -> None:
    content = random_kids_content(np.random.default_rng(1), 3, "master")
    cond = Conditions(tilt_deg=30, glare=0.5, noise=3, jpeg_quality=80, width=960, height=540)
    a, ta = render_kids_table(content, cond, 7)
    b, tb = render_kids_table(content, cond, 7)
    c, _ = render_kids_table(content, cond, 8)
    assert np.array_equal(a, b) and ta == tb
    assert not np.array_equal(a, c)
    json.dumps(ta)  # the truth is plain JSON


def test_truth_reads_back_the_content(neutral) -> None:
    _, truth = neutral
    assert truth["format"] == "azul-kids-observation/1"
    assert not truth["occluded"]
    seat0, seat1 = truth["boards"]
    assert seat0["rotation"] == 0 and seat1["rotation"] == 180
    assert [quarter_turns(g["outline"]) for g in truth["geometry"]["boards"]] == [{0}, {180}]
    assert seat0["board"] == "Sea (example)" and seat0["side"] == "master"
    assert [p["id"] for p in seat0["pictures"]] == [p.id for p in SEA.pictures]
    assert all(
        p["fields"][0] == "blue" and all(v is None for v in p["fields"][1:]) for p in seat0["pictures"]
    )
    assert all(v is None for p in seat1["pictures"] for v in p["fields"])
    bowls = {b["bowl"]: b for b in truth["bowls"]}
    assert sorted(bowls, key=str) == sorted([1, 2, 3, 4, 5, "big"], key=str)
    assert bowls["big"]["tiles"] == {"blue": 1, "green": 1}
    assert sorted(sum(b["tiles"].values()) for n, b in bowls.items() if n != "big") == [0, 1, 2, 3, 5]


def test_tiles_show_their_colour_where_the_truth_puts_them(neutral) -> None:
    frame, truth = neutral
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    tiles = [t for b in truth["geometry"]["bowls"] for t in b["tiles"]]
    assert len(tiles) == 13
    for t in tiles:
        q = np.float32(t["top"])
        c = q.mean(axis=0)
        mask = np.zeros(frame.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.int32(np.round(c + (q - c) * 0.5))], 1)
        got = np.median(hsv[mask > 0], axis=0)
        want = cv2.cvtColor(np.uint8([[TILE_RGB[t["color"]][::-1]]]), cv2.COLOR_BGR2HSV)[0, 0]
        hue_gap = min(abs(int(got[0]) - int(want[0])), 180 - abs(int(got[0]) - int(want[0])))
        assert hue_gap <= 6 and got[1] > 120, (t["color"], got, want)


def test_a_hand_hides_places_and_the_truth_says_so() -> None:
    content = random_kids_content(np.random.default_rng(4), 4, "apprentice", fill=0.6)
    hidden = 0
    for seed in range(3):
        _, truth = render_kids_table(content, Conditions(hand=True, width=960, height=540), seed)
        assert truth["occluded"]
        hidden += sum(v == "unknown" for b in truth["boards"] for p in b["pictures"] for v in p["fields"])
        hidden += sum(b["occluded"] for b in truth["bowls"])
    assert hidden > 0


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"bowls": (("red",) * 6, (), (), (), ())}, "small bowl 1 holds 6 tiles"),
        ({"bowls": ((), ())}, "5 small bowls"),
        ({"big": ("purple",)}, "unknown Kids tile"),
    ],
)
def test_impossible_content_is_refused(bad: dict, message: str) -> None:
    args = {"boards": (KidsBoardContent(SEA), KidsBoardContent(SEA))} | bad
    with pytest.raises(ValueError, match=message):
        KidsTableContent(**args)


def test_fields_must_follow_the_board() -> None:
    with pytest.raises(ValueError, match="fields must follow"):
        KidsBoardContent(TURTLE, (("red",),))


def test_board_photo_corners_frame_the_board() -> None:
    frame, corners = render_board_photo(TURTLE, Conditions(tilt_deg=20, width=960, height=540), 1)
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.int32(np.round(corners))], 1)
    violet = cv2.inRange(hsv, (118, 70, 35), (160, 255, 255)) > 0
    assert violet[inside > 0].mean() > 0.05  # the frame lies inside the corners
    assert violet[inside == 0].mean() < 0.001  # and nowhere else


@pytest.mark.parametrize("module", ["vision.synth.kids", "vision.synth.render"])
def test_a_thing_behind_the_camera_is_left_out_of_the_photo(module: str, monkeypatch) -> None:
    """A cup set down behind a low, tilted camera would project through the lens's plane
    into a smear over the whole photo; it is left off the table instead."""
    import importlib

    from vision.synth import mixed_table
    from vision.synth.clutter import Thing

    renderer = importlib.import_module(module)
    seen = {}
    draw_table, place_things = renderer.draw_table, renderer.place_things

    def keep_camera(frame, cam, *args, **kwargs):
        seen["cam"] = cam
        return draw_table(frame, cam, *args, **kwargs)

    def and_a_cup_behind(*args, **kwargs):
        cam = seen["cam"]
        x, y, _ = cam.position
        away = cam.R[2, :2] / np.hypot(*cam.R[2, :2])
        for d in range(0, 3000, 5):  # back from the camera until the lens's plane cuts the cup
            at = (x - d * away[0], y - d * away[1])
            if cam.depth(np.array([[*at, 100.0]]))[0] < 0 < cam.depth(np.array([[*at, 0.0]]))[0]:
                break
        return [*place_things(*args, **kwargs), Thing("cup", *at, 40, 100, (140, 70, 40), 0)]

    monkeypatch.setattr(renderer, "draw_table", keep_camera)
    monkeypatch.setattr(renderer, "place_things", and_a_cup_behind)
    cond = Conditions(tilt_deg=40, width=640, height=480)
    if module.endswith("kids"):
        frame, truth = render_kids_table(_content(), cond, 3)
    else:
        content, _, _ = mixed_table(1, 0)
        frame, truth = renderer.render_table(content, cond, 3)
    assert cv2.mean(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))[0] > 60  # not a dark blue smear
    assert not truth["occluded"]
