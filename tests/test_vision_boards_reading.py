"""Reading a board's places: a pattern line read as a whole, and the place models
measured by vision.calibrate."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from vision import cells
from vision.calibrate import fit_model
from vision.cells import HIDDEN, PLACE_MODELS, PLACES, place_kind, side_kind
from vision.color import COLORS, CREAM_RGB, MARKER, UNKNOWN, WhiteBalance
from vision.factories import FACTORY_MODEL
from vision.geometry import apply_h
from vision.recognize import analyse
from vision.synth import mixed_table, render_table

CLASSES = [None, "black", "blue", HIDDEN, "marker", "red", "white", "yellow"]


def _place(**p: float) -> tuple[list, np.ndarray]:
    probs = np.array([p.get("none" if c is None else c, 0.0) for c in CLASSES]) + 1e-4
    return CLASSES, probs / probs.sum()


def test_a_line_is_filled_from_the_wall_end():
    # The middle place alone looks empty as much as red; a red tile further out says it
    # holds a red tile too, since a line fills from the wall end without gaps.
    line = [_place(red=0.99), _place(red=0.5, none=0.5), _place(red=0.97), _place(none=0.99)]
    read = cells._decode_line(line)
    assert [r.value for r in read] == ["red", "red", "red", None]
    assert min(r.confidence for r in read) > 0.9


def test_a_line_with_a_hidden_place_is_not_read():
    line = [_place(blue=0.99), _place(hidden=0.95, none=0.05), _place(none=0.99)]
    assert cells._decode_line(line) is None


def test_a_line_past_a_place_surely_empty_is_read_whatever_may_stand_over_it():
    # The share the model gives to something over the places past the tiles (a cup's
    # shadow in plain view) could hide a tile only where one could lie: no tile lies
    # past an empty place.
    line = [_place(black=0.99), _place(black=0.99), _place(none=0.74, hidden=0.26),
            _place(none=0.86, hidden=0.14)]
    read = cells._decode_line(line)
    assert [r.value for r in read] == ["black", "black", None, None]
    assert min(r.confidence for r in read) >= cells.SURE


def test_a_line_whose_end_lies_under_a_hand_is_not_read():
    line = [_place(blue=0.99), _place(hidden=0.95, none=0.05), _place(hidden=0.95, none=0.05)]
    assert cells._decode_line(line) is None


def test_a_line_a_sleeve_lies_over_is_not_read_as_its_tiles():
    # A navy sleeve over a line looks like black tiles to the model, which still gives
    # each place a share of something over it.
    line = [_place(black=0.86, hidden=0.13) for _ in range(5)]
    assert cells._decode_line(line) is None


@pytest.mark.parametrize(("probs", "grey_wall", "value"), [
    # something half seen over a place that looks empty hides any class alike...
    ({"none": 0.72, "hidden": 0.28}, False, None),
    # ... but a grey sleeve looks like the grey wall's print,
    ({"none": 0.72, "hidden": 0.28}, True, UNKNOWN),
    # and a sleeve like a tile: a tile is read no more surely for it.
    ({"red": 0.75, "hidden": 0.25}, False, UNKNOWN),
    ({"none": 0.45, "hidden": 0.55}, False, UNKNOWN),  # something over it is likeliest
    ({"none": 0.6, "red": 0.3, "hidden": 0.1}, False, UNKNOWN),  # the share cannot outweigh a rival
    ({"red": 0.9, "hidden": 0.1}, False, "red"),
])
def test_a_place_is_read_alone_with_what_may_stand_over_it_weighed(probs, grey_wall, value):
    classes = [None, HIDDEN, "red"]
    p = np.array([probs.get("none" if c is None else c, 0.0) for c in classes])
    assert cells._place_reading(classes, p, grey_wall=grey_wall).value == value


def test_a_line_whose_last_tile_is_in_doubt_is_read_when_its_places_agree_on_colour():
    # Seed 7, frame 362: a red line of three seen steeply, the third tile's lean half over
    # its place. The line is likelier three than two, two in three, and red either way.
    line = [_place(red=0.81, black=0.19), _place(red=0.80, black=0.20), _place(red=0.68, none=0.31),
            _place(none=0.999), _place(none=0.998)]
    read = cells._decode_line(line)
    assert [r.value for r in read] == ["red", "red", "red", None, None]
    assert min(r.confidence for r in read) >= cells.LINE_SURE


def test_a_line_as_likely_one_count_as_another_is_not_read():
    line = [_place(blue=0.99), _place(blue=0.5, none=0.5), _place(none=0.99)]
    assert cells._decode_line(line) is None


def test_a_line_of_two_colours_is_not_read_as_either():
    line = [_place(blue=0.98), _place(yellow=0.98), _place(none=0.99)]
    assert cells._decode_line(line) is None


def test_the_floor_fills_from_the_left():
    # Place 2 alone looks as empty as it looks blue; place 3 surely holds a tile, and the
    # floor fills from the left without gaps, so place 2 holds the blue tile. Place 5
    # alone is unsure it is empty; place 4 surely is, so place 5 is empty too.
    floor = [_place(red=0.99), _place(marker=0.98), _place(blue=0.5, none=0.5), _place(black=0.97),
             _place(none=0.99), _place(none=0.6, white=0.4), _place(none=0.98)]
    read = cells._decode_floor(floor, [True] * 7)
    assert [r.value for r in read] == ["red", "marker", "blue", "black", None, None, None]
    assert min(r.confidence for r in read) >= cells.SURE


def test_a_floor_place_under_a_hand_or_out_of_view_stays_unknown_and_says_nothing():
    # Something over place 1 and place 3 out of the frame: neither is read. Place 3's
    # window, off the frame, looks empty; were it heard, it would set the end before
    # place 5, which surely holds a tile, and leave place 4 (as empty as black) unread.
    floor = [_place(red=0.99), _place(hidden=0.9, none=0.1), _place(white=0.98), _place(none=0.99),
             _place(black=0.5, none=0.5), _place(black=0.99), _place(none=0.99)]
    read = cells._decode_floor(floor, [True, True, True, False, True, True, True])
    assert [r.value for r in read] == ["red", UNKNOWN, "white", UNKNOWN, "black", "black", None]


def test_a_floor_place_past_its_end_is_read_empty_whatever_may_stand_over_it():
    # Place 1 looks empty, with a share to something over it (a shadow in plain view);
    # place 0 surely holds the marker and the rest are surely empty. A tile is read only
    # as surely as nothing stands over it (a sleeve can look like one), but no sleeve
    # looks like the floor's print.
    floor = [_place(marker=0.99), _place(none=0.85, hidden=0.15)] + [_place(none=0.99)] * 5
    read = cells._decode_floor(floor, [True] * 7)
    assert [r.value for r in read] == ["marker"] + [None] * 6
    floor[0] = _place(white=0.85, hidden=0.15)
    assert cells._decode_floor(floor, [True] * 7)[0].value == UNKNOWN


def test_the_marker_is_read_whatever_share_the_model_gives_to_something_over_it():
    # The marker's dark-blue "1" in its frame is plain and dark as a navy sleeve: the
    # model gives it a share of something over its place (seed 7, frame 441), which says
    # nothing against its being the marker, as it would against a tile.
    floor = [_place(marker=0.79, hidden=0.2)] + [_place(none=0.99)] * 6
    read = cells._decode_floor(floor, [True] * 7)
    assert [r.value for r in read] == ["marker"] + [None] * 6
    floor[0] = _place(white=0.79, hidden=0.2)
    assert cells._decode_floor(floor, [True] * 7)[0].value == UNKNOWN


def test_the_share_of_something_over_the_likeliest_marker_leaves_no_doubt_where_the_floor_ends():
    # Seed 7, frame 246: the marker 0.63, something over it 0.33. Counted as something
    # over the place, that share said the floor might end before it: read 0.72 sure.
    floor = [_place(marker=0.63, hidden=0.33, none=0.04)] + [_place(none=0.99)] * 6
    read = cells._decode_floor(floor, [True] * 7)
    assert read[0].value == "marker" and read[0].confidence > 0.9
    # Where something over the place is likelier, it still hides the place.
    floor[0] = _place(marker=0.33, hidden=0.63, none=0.04)
    assert cells._decode_floor(floor, [True] * 7)[0].value == UNKNOWN


def test_place_models_cover_every_kind_of_place():
    # vision/prototypes.json holds a model for every kind of place on both sides, and for
    # each wall cell's say on the side; each gives a probability for each of its classes.
    kinds = {place_kind(p, side) for p in PLACES for side in ("colored", "grey")}
    kinds |= {side_kind(p) for p in PLACES if p[0] == "wall"}
    assert kinds <= set(PLACE_MODELS)
    for kind in kinds:
        classes, p = cells.place_probabilities(kind, np.zeros((3, len(PLACE_MODELS[kind]["mean"]))))
        assert p.shape == (3, len(classes))
        assert np.allclose(p.sum(axis=1), 1.0)
    assert UNKNOWN not in PLACE_MODELS["open"]["classes"]
    assert {None, "marker", HIDDEN} <= set(PLACE_MODELS["open"]["classes"])
    for kind in {side_kind(p) for p in PLACES if p[0] == "wall"}:
        assert set(PLACE_MODELS[kind]["classes"]) == {"colored", "grey", HIDDEN}
    # A factory's places hold a tile, nothing, or lie under something; never the marker.
    assert set(PLACE_MODELS[FACTORY_MODEL]["classes"]) == {None, HIDDEN, *COLORS}


def test_wall_cells_under_a_sleeve_have_no_say_on_the_side(monkeypatch):
    # Ten wall cells show the coloured print; fifteen lie under a grey sleeve, which looks
    # like the grey side's cells but which the side models see as something over them.
    # The side is the one the cells in view show, and surely so.
    def says(kind: str, features: np.ndarray, final: bool) -> tuple[list, np.ndarray]:
        if kind.startswith("wall:"):  # what is on the cell: the sleeve is no tile
            return [None, "red", HIDDEN], np.array([[0.9, 0.05, 0.05]] * len(features))
        classes = ["colored", "grey", HIDDEN]
        rows = [[0.9, 0.05, 0.05] if f[0] == 0 else [0.0, 0.4, 0.6] for f in features]
        return classes, np.array(rows)

    monkeypatch.setattr(cells, "_kind_probabilities", says)
    walls = [i for i, p in enumerate(PLACES) if p[0] == "wall"]
    features = np.zeros((len(PLACES), 4))
    features[walls[10:], 0] = 1.0  # under the sleeve
    hists = np.ones((len(PLACES), 3))
    side, sure = cells._side_by_model(features, hists, np.zeros(len(PLACES)))
    assert side == "colored"
    assert sure >= cells.SIDE_SURE


def test_a_place_model_is_fitted_surely_where_the_classes_part(monkeypatch):
    # Two kinds of window far apart in what the model reads, and a third in between that
    # is either: the fitted model is sure of the first two and unsure of the third.
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(m, 0.3, (300, 5)) for m in (-2.0, 2.0, 0.0)])
    labels = ["red"] * 300 + [None] * 300 + ["red", None] * 150
    model = fit_model(x, labels, [None, "red"])
    monkeypatch.setitem(cells.PLACE_MODELS, "test", {
        "classes": model["classes"], "mean": np.asarray(model["mean"]), "scale": np.asarray(model["scale"]),
        "layers": [np.asarray(w) for w in model["layers"]]})
    _, p = cells.place_probabilities("test", np.repeat([[-2.0], [2.0], [0.0]], 5, axis=1))
    assert p[0, 1] > 0.99 and p[1, 0] > 0.99
    assert 0.2 < p[2, 1] < 0.8


def test_a_sleeve_over_the_panels_cream_does_not_wash_the_panel_out():
    # A board under a dim warm light, a dark sleeve lying over the cream left of the
    # pattern lines and over the left end of the strip under the wall: the cream the
    # panel is balanced by is the cream still in view, so it is brought back to the
    # reference cream and not far past it (which would bleach every printed cell).
    s = 0.5  # the panel is read at half the measured crop's resolution
    cream = np.array([120.0, 160.0, 190.0], np.float32)  # BGR
    panel = np.tile(cream.astype(np.uint8), (300, 450, 1))
    sleeve = (50, 45, 40)
    panel[50:140, 0:90] = sleeve
    panel[215:245, 0:130] = sleeve
    balance = cells._panel_balance(panel, s, WhiteBalance.identity())
    assert balance.apply(cream[None, None])[0, 0] == pytest.approx(np.array(CREAM_RGB[::-1]), rel=0.03)


def test_side_models_that_cannot_tell_a_hand_are_stale(tmp_path):
    # A prototypes.json from before the side models had a class for what lies over a
    # cell: the side could not be read by them, so the models are set aside whole (and
    # places read by the colour-word mixes) rather than failing at the first board.
    path = tmp_path / "prototypes.json"
    open_ = {"open": _model([None, "red", HIDDEN], cells.FEATURE_COLUMNS),
             "colour:open": _model([None, "red", HIDDEN], cells.COLOUR_COLUMNS)}
    path.write_text(json.dumps({"places": {**open_,
                                           "side:blue": _model(["colored", "grey"], cells.COLOUR_COLUMNS)}}))
    assert cells._load_place_models(path) == {}
    side = _model(["colored", "grey", HIDDEN], cells.COLOUR_COLUMNS)
    path.write_text(json.dumps({"places": {**open_, "side:blue": side}}))
    assert set(cells._load_place_models(path)) == {"open", "colour:open", "side:blue"}


def _model(classes: list, reads: int) -> dict:
    return {"classes": classes, "mean": [0.0] * reads, "scale": [1.0] * reads,
            "layers": [[[0.0] * len(classes)] * (reads + 1)]}


def test_place_models_fitted_on_other_features_are_stale(tmp_path):
    # Place models from before the relief look read the colour looks only; the side
    # models read nothing else. Either fitted otherwise would not fit the features read.
    path = tmp_path / "prototypes.json"
    sides, places = ["colored", "grey", HIDDEN], [None, "red", HIDDEN]
    fitted = {"side:red": _model(sides, cells.COLOUR_COLUMNS),
              "wall:red": _model(places, cells.FEATURE_COLUMNS),
              "colour:wall:red": _model(places, cells.COLOUR_COLUMNS)}
    path.write_text(json.dumps({"places": fitted}))
    assert set(cells._load_place_models(path)) == {"side:red", "wall:red", "colour:wall:red"}
    for kind, stale in (("open", _model(places, cells.COLOUR_COLUMNS)),
                        ("wall:red", _model(places, cells.COLOUR_COLUMNS)),
                        ("colour:wall:red", _model(places, cells.FEATURE_COLUMNS)),
                        ("side:red", _model(sides, cells.FEATURE_COLUMNS))):
        path.write_text(json.dumps({"places": {**fitted, kind: stale}}))
        assert cells._load_place_models(path) == {}, kind


@pytest.mark.parametrize("second", [None, [None, "red"]])
def test_a_board_place_model_without_its_second_opinion_is_stale(tmp_path, second):
    # A board's place is read by its model and the one over the colour looks alone
    # together: either missing, or telling other classes, the two cannot be averaged.
    path = tmp_path / "prototypes.json"
    places = {"open": _model([None, "red", HIDDEN], cells.FEATURE_COLUMNS)}
    if second is not None:
        places["colour:open"] = _model(second, cells.COLOUR_COLUMNS)
    path.write_text(json.dumps({"places": places}))
    assert cells._load_place_models(path) == {}


def test_a_settled_model_that_cannot_be_averaged_with_its_kinds_is_stale(tmp_path):
    # A board's places whose grid is chosen are read by its kind's model and the settled
    # one averaged: telling other classes, the two cannot be.
    path = tmp_path / "prototypes.json"
    places = {"open": _model([None, "red", HIDDEN], cells.FEATURE_COLUMNS),
              "colour:open": _model([None, "red", HIDDEN], cells.COLOUR_COLUMNS)}
    for settled, loaded in ((_model([None, "red", HIDDEN], cells.FEATURE_COLUMNS), True),
                            (_model([None, "red"], cells.FEATURE_COLUMNS), False),
                            (_model([None, "red", HIDDEN], cells.COLOUR_COLUMNS), False)):  # other features
        path.write_text(json.dumps({"places": {**places, "settled:open": settled}}))
        assert ("settled:open" in cells._load_place_models(path)) is loaded
        assert bool(cells._load_place_models(path)) is loaded  # stale: all set aside


def test_a_settled_board_reads_its_places_with_the_settled_model_averaged_with_its_kinds(monkeypatch):
    # Once a board's grid is chosen, its places are read with the settled model's
    # probabilities averaged with its kind's (then with the colour looks' as ever); a
    # kind with no settled model, or a board still being placed, reads as it did.
    def model(weights: list[float]) -> dict:
        w = np.zeros((cells.FEATURE_COLUMNS + 1, 2))
        w[-2] = weights  # the last feature's weights
        return {"classes": [None, "red"], "mean": np.zeros(cells.FEATURE_COLUMNS),
                "scale": np.ones(cells.FEATURE_COLUMNS), "layers": [w]}
    kind, settled = model([0.0, 1.0]), model([1.0, 0.0])
    colour = {"classes": [None, "red"], "mean": np.zeros(cells.COLOUR_COLUMNS),  # even: all weights 0
              "scale": np.ones(cells.COLOUR_COLUMNS), "layers": [np.zeros((cells.COLOUR_COLUMNS + 1, 2))]}
    monkeypatch.setitem(cells.PLACE_MODELS, "open", kind)
    monkeypatch.setitem(cells.PLACE_MODELS, "colour:open", colour)
    monkeypatch.delitem(cells.PLACE_MODELS, "settled:open", raising=False)
    features = np.zeros((1, cells.FEATURE_COLUMNS))
    features[0, -1] = 3.0
    _, by_kind = cells._model_probabilities(kind, features)
    _, by_settled = cells._model_probabilities(settled, features)
    _, placing = cells.place_probabilities("open", features)
    assert cells.place_probabilities("open", features, settled=True)[1] == pytest.approx(placing)  # none yet
    monkeypatch.setitem(cells.PLACE_MODELS, "settled:open", settled)
    _, read = cells.place_probabilities("open", features, settled=True)
    assert read == pytest.approx(((by_kind + by_settled) / 2 + 0.5) / 2)  # the colour looks: even
    assert cells.place_probabilities("open", features)[1] == pytest.approx(placing)
    assert by_kind[0, 1] > 0.9 and read[0, 1] < placing[0, 1]


def _read(values: dict[tuple, str | None], confidence: float = 0.9, *,
          in_place: bool = True) -> cells.BoardReading:
    """A board's reading whose places hold `values` (the rest empty), each read 0.9 sure."""
    places = {p: cells.Reading(values.get(p), 0.9) for p in PLACES}
    return cells.BoardReading("colored", 1.0, [], [], [], places, np.zeros((len(PLACES), 2)), confidence,
                              False, WhiteBalance.identity(), np.zeros((len(PLACES), 1)),
                              np.zeros((len(PLACES), 1)), in_place, np.zeros(len(PLACES), bool))


def test_a_settled_read_gives_each_part_it_reads_more_of_than_the_read_before(monkeypatch):
    # Each pattern line, the floor and each wall cell is read whole: taken from the
    # settled read (see cells.SETTLED) only where it reads more of it than the first read.
    # So a line is never made of two reads' places. The places are read again where they
    # were looked at: not looked at again.
    first = _read({("line", 2, 0): "yellow", ("wall", 0, 0): UNKNOWN, ("wall", 0, 1): "yellow",
                   ("line", 3, 0): UNKNOWN, ("floor", 0): "marker"}, 0.95)
    first = dataclasses.replace(first, looks="looked")
    settled = _read({("line", 2, 0): UNKNOWN, ("line", 2, 1): "red", ("wall", 0, 0): "blue",
                     ("wall", 0, 1): UNKNOWN, ("line", 3, 0): "red", ("line", 3, 1): "red",
                     ("floor", 0): "marker", ("floor", 1): "black"}, 0.85)
    frame, rough, asked = np.zeros((4, 4, 3), np.uint8), WhiteBalance.identity(), []
    monkeypatch.setitem(cells.PLACE_MODELS, "settled:open", cells.PLACE_MODELS["open"])
    monkeypatch.setattr(cells, "_read_looked", lambda *args, **kw: asked.append((args[3], kw)) or settled)
    read = cells.read_settled(frame, None, first, rough)
    assert asked == [("looked", {"told": ("colored", 1.0), "settled": True, "final": False})]
    assert read.lines[2] == {"color": "yellow", "count": 1}  # the first read reads all of it
    assert read.lines[3] == {"color": "red", "count": 2}  # the settled read does
    assert read.wall[0][:2] == ["blue", "yellow"]
    assert read.floor[:2] == ["marker", None]  # as much of it: the first read's
    assert read.confidence == 0.85
    # A part its choices left unread (cells.BoardReading.withheld) stays so.
    kept = cells.read_settled(frame, None, dataclasses.replace(first, withheld=frozenset({"wall"})), rough)
    assert kept.wall[0][:2] == [UNKNOWN, "yellow"] and kept.lines[3] == {"color": "red", "count": 2}
    del asked[1:]
    # A board the first read wholly is not read again.
    whole = _read({("line", 2, 0): "yellow"})
    assert cells.read_settled(frame, None, whole, rough) is whole
    assert len(asked) == 1
    # Its grid failing its check read so, or a board not in place, it stays as it was.
    monkeypatch.setattr(cells, "_read_looked", lambda *args, **kw: _read({}, in_place=False))
    assert cells.read_settled(frame, None, first, rough) is first
    unplaced = _read({}, in_place=False)
    assert cells.read_settled(frame, None, unplaced, rough) is unplaced
    # With no settled models (a fit of every model makes none), it is not read again.
    for kind in [k for k in cells.PLACE_MODELS if k.startswith(cells.SETTLED)]:
        monkeypatch.delitem(cells.PLACE_MODELS, kind)
    monkeypatch.setattr(cells, "_read_looked", lambda *args, **kw: settled)
    assert cells.read_settled(frame, None, first, rough) is first


def test_a_board_is_read_out_by_the_final_models_where_its_places_were_looked_at(monkeypatch):
    # Its outline, turn, side and grid chosen, a board's places are read again where they
    # were looked at, by the final models (see cells.FINAL), its grid not checked again
    # (the final models have no say in it); then by the settled ones too where unread.
    # Its confidence is the lesser of the two reads', and what the first saw over a place
    # it still says.
    first = _read({("wall", 0, 0): "blue", ("wall", 0, 1): UNKNOWN}, 0.95)
    first = dataclasses.replace(first, looks="looked", occluded=True)
    final = _read({("wall", 0, 0): "red", ("wall", 0, 1): UNKNOWN}, 0.85)
    settled = _read({("wall", 0, 0): "red", ("wall", 0, 1): "yellow"}, 0.8)
    frame, rough, asked = np.zeros((4, 4, 3), np.uint8), WhiteBalance.identity(), []

    def read_looked(*args, **kw) -> cells.BoardReading:
        asked.append((args[3], kw))
        return settled if kw.get("settled") else dataclasses.replace(final, looks=args[3])

    monkeypatch.setattr(cells, "_read_looked", read_looked)
    monkeypatch.setitem(cells.PLACE_MODELS, "settled:open", cells.PLACE_MODELS["open"])
    monkeypatch.setitem(cells.PLACE_MODELS, "final:open", cells.PLACE_MODELS["open"])
    read = cells.read_final(frame, None, first, rough)
    assert asked == [("looked", {"told": ("colored", 1.0), "final": True}),
                     ("looked", {"told": ("colored", 1.0), "settled": True, "final": True})]
    assert read.wall[0][:2] == ["red", "yellow"]
    assert read.confidence == 0.8 and read.occluded
    # A part its choices left unread (cells.BoardReading.withheld) stays so.
    asked.clear()
    read = cells.read_final(frame, None, dataclasses.replace(first, withheld=frozenset({"wall"})), rough)
    assert len(asked) == 2 and read.wall[0][:2] == ["blue", UNKNOWN]
    # A board not in place is not read out.
    unplaced = _read({}, in_place=False)
    assert cells.read_final(frame, None, unplaced, rough) is unplaced
    # Nor one on a side none of whose places has a final model: read by the same models,
    # it would read as it did. The settled models read it where unread, its grid not
    # checked again.
    monkeypatch.delitem(cells.PLACE_MODELS, "final:open")
    monkeypatch.delitem(cells.PLACE_MODELS, "final:wall:grey", raising=False)
    monkeypatch.setitem(cells.PLACE_MODELS, "final:wall:red", cells.PLACE_MODELS["wall:red"])
    asked.clear()
    read = cells.read_final(frame, None, dataclasses.replace(first, side="grey"), rough)
    assert asked == [("looked", {"told": ("grey", 1.0), "settled": True, "final": True})]
    assert read.wall[0][:2] == ["blue", "yellow"]  # as it was, but for the cell unread
    # With no final models of a board's places (a disc's are no board's), its first read
    # is read again by the settled models only.
    for kind in [k for k in cells.PLACE_MODELS if k.startswith(cells.FINAL)]:
        monkeypatch.delitem(cells.PLACE_MODELS, kind)
    monkeypatch.setitem(cells.PLACE_MODELS, "final:factory", cells.PLACE_MODELS["factory"])
    asked.clear()
    read = cells.read_final(frame, None, first, rough)
    assert asked == [("looked", {"told": ("colored", 1.0), "settled": True, "final": False})]
    assert read.wall[0][:2] == ["blue", "yellow"]


def test_a_floor_read_off_a_grid_fitted_to_part_of_the_wall_is_withheld():
    # Such a grid may read the floor a place along: a floor holding tiles is left unread,
    # and stays so whatever the board is read again by (cells.BoardReading.withheld), but
    # an empty one is empty all the same, and one the panel's edge placed is read as it is.
    # None counts among the places read first, which choices between outlines go by.
    def whole(values: dict[tuple, str | None]) -> cells.BoardReading:
        read = _read(values)
        lines, floor, wall = cells._board_values(read.places)
        return dataclasses.replace(read, lines=lines, floor=floor, wall=wall,
                                   read_first=np.ones(len(PLACES), bool), withheld=frozenset({"wall"}))

    floor_rows = np.array([p[0] == "floor" for p in PLACES])
    tiled = cells._floor_unread_but_empty(whole({("floor", 0): "marker", ("floor", 1): "red"}))
    assert tiled.floor == [UNKNOWN] * 7 and tiled.withheld == {"wall", "floor"}
    assert all(tiled.places[("floor", j)] == cells.Reading(UNKNOWN, 0.9) for j in range(7))
    assert not tiled.read_first[floor_rows].any() and tiled.read_first[~floor_rows].all()
    empty = cells._floor_unread_but_empty(whole({}))
    assert empty.floor == [None] * 7 and empty.withheld == {"wall"}
    assert not empty.read_first[floor_rows].any()
    placed = whole({("floor", 0): "marker", ("floor", 1): "red"})
    placed = cells._floor_unread_but_empty(dataclasses.replace(placed, floor_moved=np.zeros((7, 2))))
    assert placed.floor[:3] == ["marker", "red", None] and placed.withheld == {"wall"}
    assert not placed.read_first[floor_rows].any()


def test_a_final_model_that_cannot_stand_for_its_kinds_is_stale(tmp_path):
    # Read out, a board's places and a disc's are read by the final models in the place of
    # their kind's (and the colour looks' second's): telling other classes, or reading
    # other features, they cannot stand for them; nor with no model of their kind.
    path = tmp_path / "prototypes.json"
    places = {"open": _model([None, "red", HIDDEN], cells.FEATURE_COLUMNS),
              "colour:open": _model([None, "red", HIDDEN], cells.COLOUR_COLUMNS),
              "factory": _model([None, "red", HIDDEN], 40)}
    for kind, final, loaded in (
            ("final:open", _model([None, "red", HIDDEN], cells.FEATURE_COLUMNS), True),
            ("final:open", _model([None, "red"], cells.FEATURE_COLUMNS), False),
            ("final:open", _model([None, "red", HIDDEN], cells.COLOUR_COLUMNS), False),
            ("final:colour:open", _model([None, "red", HIDDEN], cells.COLOUR_COLUMNS), True),
            ("final:colour:open", _model([None, "red", HIDDEN], cells.FEATURE_COLUMNS), False),
            ("final:colour:open", _model(["red", HIDDEN], cells.COLOUR_COLUMNS), False),
            ("final:factory", _model([None, "red", HIDDEN], 40), True),
            ("final:factory", _model([None, "red", HIDDEN], 41), False),
            ("final:factory", _model(["red", HIDDEN], 40), False),
            ("final:center", _model([None, "red", HIDDEN], 40), False)):
        path.write_text(json.dumps({"places": {**places, kind: final}}))
        assert (kind in cells._load_place_models(path)) is loaded
        assert bool(cells._load_place_models(path)) is loaded  # stale: all set aside


def test_a_place_read_out_is_read_by_its_kinds_models_and_their_final_ones(monkeypatch):
    # Read out (see cells.FINAL), a place is read by each of its kind's models (the first,
    # and the second over the colour looks) with its final one, averaged before the
    # softmax (the final one's say cells._FINAL_SAY); the two then as ever. A model with
    # no final one reads alone, and a board still being placed reads by its kind's only.
    def model(reads: int, weights: list[float]) -> dict:
        w = np.zeros((reads + 1, 2))
        w[-2] = weights  # the last feature's weights
        return {"classes": [None, "red"], "mean": np.zeros(reads), "scale": np.ones(reads), "layers": [w]}
    colours = cells.COLOUR_COLUMNS
    first, second = model(cells.FEATURE_COLUMNS, [0.0, 1.0]), model(colours, [0.0, 1.0])
    final, final_second = model(cells.FEATURE_COLUMNS, [1.5, 0.0]), model(colours, [0.5, 0.0])
    for kind, m in (("open", first), ("colour:open", second), ("final:open", final),
                    ("final:colour:open", final_second)):
        monkeypatch.setitem(cells.PLACE_MODELS, kind, m)
    features = np.full((1, cells.FEATURE_COLUMNS), 2.0)

    def by(*models: dict) -> np.ndarray:
        """The models' probabilities, the last's logits with the final say."""
        say = [1 - cells._FINAL_SAY, cells._FINAL_SAY] if len(models) == 2 else [1.0]
        z = sum(w * (m["layers"][0][-2] * 2.0 + m["layers"][0][-1]) for w, m in zip(say, models, strict=True))
        return np.exp(z) / np.exp(z).sum()
    placing = cells.place_probabilities("open", features)[1]
    assert placing[0] == pytest.approx((by(first) + by(second)) / 2)
    read = cells.place_probabilities("open", features, final=True)[1]
    assert read[0] == pytest.approx((by(first, final) + by(second, final_second)) / 2)
    assert read[0, 0] > 0.5 > placing[0, 0]
    monkeypatch.delitem(cells.PLACE_MODELS, "final:colour:open")
    read = cells.place_probabilities("open", features, final=True)[1]
    assert read[0] == pytest.approx((by(first, final) + by(second)) / 2)
    monkeypatch.delitem(cells.PLACE_MODELS, "final:open")
    assert cells.place_probabilities("open", features, final=True)[1] == pytest.approx(placing)


def test_a_place_the_relief_alone_is_sure_of_is_read_only_as_surely_as_both_models_say(monkeypatch):
    # The relief look's model is sure of a tile where the colour looks' model is sure of
    # nothing (a sleeve's edge, say): averaged, the place is not read surely. Where both
    # lean the same way, it is.
    def model(column: int, weight: float) -> dict:
        w = np.zeros((cells.FEATURE_COLUMNS + 1, 2))
        w[column] = (-weight, weight)  # the class "red" the more the column reads
        reads = cells.COLOUR_COLUMNS if column < cells.COLOUR_COLUMNS else cells.FEATURE_COLUMNS
        return {"classes": [None, "red"], "mean": np.zeros(reads), "scale": np.ones(reads),
                "layers": [np.concatenate([w[:reads], w[-1:]])]}
    monkeypatch.setitem(cells.PLACE_MODELS, "open", model(cells.FEATURE_COLUMNS - 1, 5.0))
    monkeypatch.setitem(cells.PLACE_MODELS, "colour:open", model(0, 5.0))
    features = np.zeros((3, cells.FEATURE_COLUMNS))
    features[0, -1] = 1.0  # the relief says a tile, the colours nothing
    features[1, [0, -1]] = 1.0  # both a tile
    features[2, [0, -1]] = -1.0  # both no tile
    classes, p = cells.place_probabilities("open", features)
    red = classes.index("red")
    assert p[0, red] < cells.SURE < min(p[1, red], p[2, 1 - red])
    assert p[0, red] > 0.5  # the relief still leans the reading its way


def test_on_the_coloured_wall_the_relief_has_the_larger_say(monkeypatch):
    # A wall cell of the coloured side holds a tile of its print's colour or shows the
    # print: the relief look tells the two apart, the colours hardly (a yellow tile in
    # glare is the print's shade). Where the colour looks' model leans to the print and
    # the relief look's is sure of the tile, the wall cell is read; a pattern-line place
    # so read is not.
    def model(column: int, weights: list[float]) -> dict:
        reads = cells.COLOUR_COLUMNS if column < cells.COLOUR_COLUMNS else cells.FEATURE_COLUMNS
        w = np.zeros((reads + 1, 3))
        w[column] = weights
        return {"classes": [None, "red", HIDDEN], "mean": np.zeros(reads), "scale": np.ones(reads),
                "layers": [w]}
    relief, colours = model(cells.FEATURE_COLUMNS - 1, [0.0, 6.0, 0.0]), model(0, [0.0, -0.85, -3.0])
    for kind in ("wall:red", "open"):
        monkeypatch.setitem(cells.PLACE_MODELS, kind, relief)
        monkeypatch.setitem(cells.PLACE_MODELS, cells.COLOUR_ONLY + kind, colours)
    features = np.zeros((1, cells.FEATURE_COLUMNS))
    features[0, [0, -1]] = 1.0  # the relief sure of a tile, the colours leaning to the print
    (_, wall), (_, line) = (cells.place_probabilities(kind, features) for kind in ("wall:red", "open"))
    assert wall[0, 1] >= cells.SURE > line[0, 1]


def test_on_a_board_nothing_lies_over_a_pattern_line_place_the_relief_is_sure_of_is_read_by_it(monkeypatch):
    # Only a tile or the marker stands up from a pattern line or the floor: where nothing
    # lies over the board, a place the relief look's model is sure of is read by it alone
    # (a pale tile under glare looks like the plain cell in colour). Where it is unsure,
    # the colour looks keep their even say.
    def model(column: int, weights: list[float]) -> dict:
        reads = cells.COLOUR_COLUMNS if column < cells.COLOUR_COLUMNS else cells.FEATURE_COLUMNS
        w = np.zeros((reads + 1, 2))
        w[column] = weights
        return {"classes": [None, "red"], "mean": np.zeros(reads), "scale": np.ones(reads), "layers": [w]}
    relief = model(cells.FEATURE_COLUMNS - 1, [0.0, 1.0])
    monkeypatch.setitem(cells.PLACE_MODELS, "open", relief)
    monkeypatch.setitem(cells.PLACE_MODELS, "colour:open", model(0, [3.0, 0.0]))
    features = np.zeros((2, cells.FEATURE_COLUMNS))
    features[:, 0] = 1.0  # the colours sure of the plain cell
    features[:, -1] = (4.0, 0.5)  # the relief sure of a tile (0.98), then unsure (0.62)
    _, alone = cells._model_probabilities(relief, features)
    _, even = cells.place_probabilities("open", features)
    _, clear = cells.place_probabilities("open", features, clear=True)
    assert clear[0, 1] == pytest.approx(alone[0, 1]) and clear[0, 1] >= cells.SURE > even[0, 1]
    assert clear[1] == pytest.approx(even[1]) and even[1, 1] < alone[1, 1]


def test_a_place_half_under_a_glint_is_read_by_what_shows(monkeypatch):
    # A glint covers most of a tile's window; the rest still shows the tile, and the
    # place model (which reads the glare's share too) is sure of it: it is read. A window
    # wholly out of the frame says nothing.
    def says(kind: str, features: np.ndarray, final: bool) -> tuple[list, np.ndarray]:
        return CLASSES, np.tile([0.01, 0.01, 0.01, 0.01, 0.01, 0.93, 0.01, 0.01], (len(features), 1))

    monkeypatch.setattr(cells, "_kind_probabilities", says)
    n = len(PLACES)
    hists, glare = np.full((n, 3), 10.0), np.full(n, 45.0)  # 60% of each window glare
    hists[0], glare[0] = 0.0, 0.0  # out of the frame
    places, _, _ = cells._read_places(np.ones((n, 3 * cells._LOOK)), glare, hists, "grey", np.zeros(n, bool),
                                      cut=np.zeros(n, bool), frame_shown=lambda: False)
    assert places[("wall", 2, 3)].value == "red"
    assert places[("floor", 3)].value == "red"
    assert places[PLACES[0]].value == UNKNOWN


def test_a_line_read_whole_less_surely_than_a_place_is_said_apart_from_what_is_read_sure(monkeypatch):
    # The second line's places agree it is red, unsure only of its count; the first line's
    # one place is a place alone, as unsure. The second line is said; the grid's checks
    # and the board's confidence go by the places as read alone, its count unread.
    looks = {PLACES.index(("line", 0, 0)): _place(red=0.7, none=0.3)[1],
             PLACES.index(("line", 1, 0)): _place(red=0.82, black=0.18)[1],
             PLACES.index(("line", 1, 1)): _place(red=0.7, none=0.3)[1]}

    def says(kind: str, features: np.ndarray, final: bool) -> tuple[list, np.ndarray]:
        return CLASSES, np.array([looks.get(int(i), _place(none=0.99)[1]) for i in features[:, 0]])

    monkeypatch.setattr(cells, "_kind_probabilities", says)
    n = len(PLACES)
    features = np.repeat(np.arange(n, dtype=np.float64)[:, None], 3 * cells._LOOK, axis=1)
    places, _, said = cells._read_places(features, np.zeros(n), np.full((n, 3), 10.0), "colored",
                                         np.zeros(n, bool), cut=np.zeros(n, bool), frame_shown=lambda: False)
    assert places[("line", 0, 0)].value == UNKNOWN and ("line", 0, 0) not in said
    assert [places[("line", 1, j)].value for j in range(2)] == ["red", UNKNOWN]
    assert [said[("line", 1, j)].value for j in range(2)] == ["red", "red"]
    assert cells.LINE_SURE <= said[("line", 1, 0)].confidence < cells.SURE
    assert set(said) == {("line", 1, 0), ("line", 1, 1)}


def test_a_window_plain_dark_in_every_look_shows_no_black_tile():
    # A black tile's windows show its rosette: teal ink, teal colour words or light
    # pixels in at least one of the three looks. A navy sleeve's show none of them.
    plain = np.zeros(cells._LOOK)
    plain[cells._V90] = 0.22
    features = np.tile(plain, (5, 3))
    features[1, cells._LOOK + cells._TEAL_INK] = 0.4  # ink in the look at a tile's top
    features[2, 2 * cells._LOOK + cells._TEAL_WORDS[1]] = 0.4  # teal words in the look at the cell
    features[3, cells._V90] = 0.45  # light in the window
    features[4, 2 * cells._LOOK + cells._V90] = 0.45  # ... or in the look at the cell
    assert cells._plain_dark(features).tolist() == [True, False, False, False, False]


def test_a_dark_place_most_of_whose_neighbours_are_dark_lies_under_a_sleeve():
    # A cream panel (half scale) with a sleeve three rows deep across the wall's left
    # columns, a black tile alone in a wall row and three black tiles along a pattern line.
    panel = np.full((300, 450, 3), 220, np.uint8)

    def dark(place: tuple) -> None:
        x, y = np.round(np.array(cells.CENTERS[PLACES.index(place)]) * cells._SCALE).astype(int)
        panel[y - 20:y + 21, x - 20:x + 21] = 40

    for r in range(1, 4):
        for c in range(3):
            dark(("wall", r, c))
    dark(("wall", 0, 4))
    for j in range(3):
        dark(("line", 4, j))
    covered = cells._dark_round(panel, cells.CENTERS)
    assert covered[PLACES.index(("wall", 2, 1))]
    assert covered[PLACES.index(("wall", 2, 0))]  # three of its neighbours dark
    assert not covered[PLACES.index(("wall", 0, 4))]
    assert not covered[PLACES.index(("line", 4, 1))]
    assert not covered[PLACES.index(("wall", 0, 0))]


def test_a_place_something_plain_and_dark_covers_is_not_read_as_a_black_tile(monkeypatch):
    # The model is sure of a black tile at every place; at places the sleeve covers,
    # what it took for black is something over the place.
    def says(kind: str, features: np.ndarray, final: bool) -> tuple[list, np.ndarray]:
        return CLASSES, np.tile([0.01, 0.93, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01], (len(features), 1))

    monkeypatch.setattr(cells, "_kind_probabilities", says)
    n = len(PLACES)
    sleeve = [("wall", 1, 1), ("floor", 1), ("floor", 2)]
    covered = np.isin(np.arange(n), [PLACES.index(p) for p in sleeve])
    places, over, _ = cells._read_places(np.ones((n, 3 * cells._LOOK)), np.zeros(n), np.full((n, 3), 10.0),
                                         "grey", covered, cut=np.zeros(n, bool), frame_shown=lambda: False)
    for place in sleeve:
        assert places[place].value == UNKNOWN
        assert over[PLACES.index(place)]
    assert places[("wall", 0, 0)].value == "black"
    assert places[("floor", 0)].value == "black"
    assert not over[PLACES.index(("wall", 0, 0))]


def test_windows_over_the_panels_edge_repeat_its_pixels():
    # Each window is the (2 half)^2 pixels round its centre, those past the panel's edge
    # taken from the edge: windows inside, across each edge and wholly off the panel.
    rng = np.random.default_rng(2)
    panel = rng.integers(0, 256, (40, 60, 3)).astype(np.uint8)
    centers = np.array([[30.0, 20.0], [1.4, 3.0], [58.6, 39.0], [-500.0, 10.0], [30.0, 900.0], [61.0, -7.0]])
    half = 4
    pixels, groups = cells._sample_windows(panel, centers, half)
    off = np.arange(-half, half)
    for k, (x, y) in enumerate(np.round(centers).astype(int)):
        ys, xs = np.clip(y + off, 0, 39), np.clip(x + off, 0, 59)
        assert np.array_equal(pixels[groups == k], panel[ys][:, xs].reshape(-1, 3))
    grey, _ = cells._sample_windows(panel[..., 0], centers, half)  # one channel too
    assert np.array_equal(grey, pixels[:, 0])
    none, groups = cells._sample_windows(panel, np.empty((0, 2)), half)
    assert none.shape == (0, 3) and len(groups) == 0


def _wall_reading(clear: np.ndarray, shift: int = 0) -> cells.BoardReading:
    """A coloured board's reading whose wall cells in `clear` show their print's colour
    (moved on by `shift` steps along the pattern) and the rest a hand (skin) read as such."""
    hists = np.zeros((len(PLACES), len(cells.color.WORD_NAMES)))
    over = np.zeros(len(PLACES), bool)
    for k, i in enumerate(cells._WALL_ROWS):
        if clear[k]:
            word = cells._PRINT_WORDS[(cells._WALL_DIAGONAL[k] + shift) % 5]
            hists[i, cells.color.WORD_NAMES.index(word)] = 300
        else:
            hists[i, cells.color.WORD_NAMES.index("skin")] = 300
            over[i] = True
    return cells.BoardReading("colored", 1.0, [], [], [], {}, np.zeros((len(PLACES), 2)), 1.0,
                              bool(over.any()), WhiteBalance.identity(), hists, np.zeros((len(PLACES), 1)),
                              True, over)


def _cells_showing(reading: cells.BoardReading, shown: np.ndarray, *,
                   out_of_frame: np.ndarray | None = None) -> cells.BoardReading:
    """`reading` with its printed cells (the place model's third look) showing their
    print's colour where `shown`, cream elsewhere; the wall cells `out_of_frame` have no
    histograms, and their third look sees the dark past the frame's edge."""
    features = np.zeros((len(PLACES), cells.FEATURE_COLUMNS))
    hists = reading.histograms.copy()
    third = 2 * cells._LOOK
    for k, i in enumerate(cells._WALL_ROWS):
        word = cells._PRINT_WORDS[cells._WALL_DIAGONAL[k]] if shown[k] else "cream"
        if out_of_frame is not None and out_of_frame[k]:
            word = "dark"
            hists[i] = 0
        features[i, third + cells.color.WORD_NAMES.index(word)] = 1.0  # shares are square-rooted
    return dataclasses.replace(reading, features=features, histograms=hists)


def test_a_grid_moved_onto_the_print_is_judged_on_its_printed_cells_too():
    # The windows the print is judged by lie halfway to a tile's top, where the camera
    # the grid implies puts them: a grid off in perspective can show the print there on
    # 20 cells but on its printed cells on 12. Moved onto the print, on 15 and 20: it
    # shows the print clearly better on the cells, and is taken.
    first = _cells_showing(_wall_reading(np.arange(25) < 20), np.arange(25) < 12)
    moved = _cells_showing(_wall_reading(np.arange(25) < 15), np.arange(25) < 20)
    assert cells._print_shown(moved) < cells._print_shown(first)
    assert cells._print_at_cells(first) == pytest.approx(12 / 25)
    assert cells._print_better(moved, first)
    assert cells._print_better(first, moved)  # on the first look alone, as before
    # Not better on either look: not taken.
    alike = _cells_showing(_wall_reading(np.arange(25) < 20), np.arange(25) < 14)
    assert not cells._print_better(alike, first)
    # Cells out of the frame (no histograms) are not counted, whatever their look sees.
    cut = np.arange(25) >= 20
    assert cells._print_at_cells(_cells_showing(first, np.arange(25) < 20, out_of_frame=cut)) == 1.0


def test_a_hand_over_most_of_the_wall_leaves_the_print_to_the_cells_in_view():
    # A hand over 16 of the wall's 25 cells: the print is not clear over the whole wall,
    # but it is on the nine cells the place model sees nothing over. Fewer than eight
    # cells in view cannot tell, nor can cells that show the pattern a step on.
    clear = np.arange(25) < 9
    reading = _wall_reading(clear)
    assert not cells._print_clear(reading)
    assert cells._print_clear(reading, in_view=True)
    assert not cells._print_clear(_wall_reading(clear, shift=1), in_view=True)
    assert not cells._print_clear(_wall_reading(np.arange(25) < 7), in_view=True)


def test_a_board_whose_strip_a_hand_hides_takes_the_one_turn_its_print_shows(monkeypatch):
    # The print over the whole wall tells the turn first; failing that, the print on the
    # cells in view at one turn alone; at two turns it tells nothing.
    unplaced = dataclasses.replace(_wall_reading(np.zeros(25, bool)), grid_in_place=False)
    whole = _wall_reading(np.ones(25, bool))
    in_view = _wall_reading(np.arange(25) < 9)

    def turn(shows: dict[int, cells.BoardReading], round_a_hand: bool = True) -> int | None:
        monkeypatch.setattr(cells, "turned", lambda board, quarters, frame, rough: quarters)
        monkeypatch.setattr(cells, "read_board", lambda frame, q, rough, cream=None: shows.get(q, unplaced))
        told = cells._turned_to_print(None, 0, WhiteBalance.identity(), (0, 1, 2, 3),
                                      round_a_hand=round_a_hand)
        return None if told is None else told[0]

    assert turn({1: in_view}) == 1
    assert turn({1: in_view}, round_a_hand=False) is None
    assert turn({1: in_view, 3: in_view}) is None
    assert turn({1: in_view, 2: whole}) == 2


def test_a_board_no_turn_of_whose_grid_is_on_the_print_takes_the_turn_it_is_found_round(monkeypatch):
    # The hand that hides the strip cuts the outline too, and the grid is off the print
    # at every turn. The print is looked for round each turn's grid: the one turn it is
    # found round is the board's, its floor unread unless read empty (the grid is fitted
    # to the part of the wall round the hand); found round two turns, or none, it tells
    # nothing. Nor does it where the hand leaves too few wall cells in view round another
    # turn to judge the print by there, unless the one turn shows it over the whole wall.
    unplaced = dataclasses.replace(_wall_reading(np.zeros(25, bool)), grid_in_place=False)
    in_view = _wall_reading(np.arange(25) < 9)
    hardly_in_view = _wall_reading(np.arange(25) < 7)
    looked_round = []

    def turn(found_round: dict[int, cells.BoardReading], shows: dict | None = None):
        looked_round.clear()
        shows = shows or {}

        def moved(frame, quarters, rough, cream):
            looked_round.append(quarters)
            return None if quarters not in found_round else (10 + quarters, found_round[quarters], True)

        monkeypatch.setattr(cells, "turned", lambda board, quarters, frame, rough: quarters)
        monkeypatch.setattr(cells, "read_board", lambda frame, q, rough, cream=None: shows.get(q, unplaced))
        monkeypatch.setattr(cells, "_moved_grid", moved)
        return cells._turned_to_print(None, 0, WhiteBalance.identity(), (0, 1, 2, 3), round_a_hand=True)

    board, reading = turn({2: in_view})
    assert board == 12 and reading.floor == [UNKNOWN] * 7
    # a floor read empty at every place is kept: a place along, it is empty still
    assert turn({2: dataclasses.replace(in_view, floor=[None] * 7)})[1].floor == [None] * 7
    assert turn({2: dataclasses.replace(in_view, floor=[None] * 6 + ["red"])})[1].floor == [UNKNOWN] * 7
    assert looked_round == [0, 1, 2, 3]
    assert turn({1: in_view, 2: in_view}) is None
    assert turn({}) is None
    assert turn({2: in_view, 3: hardly_in_view}) is None
    assert turn({2: _wall_reading(np.ones(25, bool)), 3: hardly_in_view})[0] == 12
    # round a turn the print is not found at (a step on), it is judged not there
    assert turn({2: in_view, 3: _wall_reading(np.arange(25) < 9, shift=1)})[0] == 12
    # A turn whose grid shows the print in view is taken without looking round any.
    assert turn({2: in_view}, shows={1: in_view})[0] == 1 and looked_round == []


def _cream_panel() -> np.ndarray:
    """A board's panel (half the measured crop's resolution), balanced: cream all over."""
    h, w = round(cells.PANEL_H_PX * cells._SCALE), round(cells.PANEL_W_PX * cells._SCALE)
    return np.tile(np.float32(CREAM_RGB[::-1]), (h, w, 1))


def test_the_shade_round_a_place_is_measured_by_the_plain_print_round_it():
    panel = _cream_panel()
    place = np.array(cells.wall_center(2, 2))
    assert cells._shade_gain(panel, place) == pytest.approx(1.0)
    x, y = (place * cells._SCALE).astype(int)
    panel[y - 60:y + 60, x - 60:x + 60] *= 0.5  # a shadow over the place and all round it
    assert cells._shade_gain(panel, place) == pytest.approx(2.0)


def test_no_shade_is_measured_beside_an_arm():
    # Skin (not plain) over the ring's left side: the shade there says nothing.
    panel = _cream_panel()
    place = np.array(cells.wall_center(2, 2))
    x, y = (place * cells._SCALE).astype(int)
    panel[y - 60:y + 60, x - 60:x + 60] *= 0.5
    panel[:, :x - 15] = (54, 85, 141)
    assert cells._shade_gain(panel, place) is None


def test_a_place_lightened_is_looked_at_as_on_the_whole_panel_lightened():
    # Only the panel round the place is lightened; its windows must fall as they would
    # on the whole panel (many centres lie half a pixel off the half-scale grid).
    rng = np.random.default_rng(3)
    size = (round(cells.PANEL_H_PX * cells._SCALE), round(cells.PANEL_W_PX * cells._SCALE), 3)
    panel = rng.uniform(0, 255, size).astype(np.float32)
    shift = rng.uniform(-12, 12, (len(PLACES), 2))
    nudge = np.zeros((len(PLACES), 2))  # a place in the frame: its printed cell is looked at round its centre
    lit = np.minimum(cv2.multiply(panel, (1.6, 1.6, 1.6, 0.0)), np.float32(255))  # as the reader lightens
    for i in range(len(PLACES)):
        whole = cells._looks(lit, cells.CENTERS[i:i + 1], shift[i:i + 1], nudge[i:i + 1])[-1]
        # (the relief look's box sums, taken over a part of the panel, round a little differently)
        np.testing.assert_allclose(cells._lifted_looks(panel, i, 1.6, shift, nudge), whole, rtol=1e-6)


def _pale_square(tile: bool, light: float = 1.0) -> np.ndarray:
    """A cream panel with a pale orange square (a printed yellow cell, 0.94 of a cell
    across) round (100, 100); as a tile, its top is ringed by a darker bevel and its
    shadow falls to the right of it."""
    panel = np.zeros((200, 200, 3), np.float32)
    panel[:] = CREAM_RGB[::-1]
    r = round(0.47 * cells.CELL_PX * cells._SCALE)
    if tile:
        panel[100 - r:100 + r, 100 + r:100 + r + 12] *= 0.55
    panel[100 - r:100 + r, 100 - r:100 + r] = (150, 190, 245)
    if tile:
        panel[100 - r:100 + r, 100 - r:100 + r] *= 0.74
        panel[100 - r + 2:100 + r - 2, 100 - r + 2:100 + r - 2] = (150, 190, 245)
    return panel * np.float32(light)


def test_a_tile_shows_its_relief_where_a_printed_cell_of_its_shade_is_flat():
    at = np.array([[100.0, 100.0]])
    tile, flat = cells._relief(_pale_square(True), at)[0], cells._relief(_pale_square(False), at)[0]
    edges, past = slice(1, 5), slice(5, 9)  # each sorted by side
    assert (tile[edges] > 1.5 * flat[edges]).all()  # the bevel all round the top
    assert tile[past][0] < 0.8 * flat[past][0]  # the shadow on one side
    assert tile[past][1:] == pytest.approx(flat[past][1:], rel=0.05)


def test_the_relief_look_is_the_same_whichever_way_the_shadow_falls_and_in_any_light():
    at = np.array([[100.0, 100.0]])
    tile = cells._relief(_pale_square(True), at)[0, :9]
    turned = np.ascontiguousarray(np.rot90(_pale_square(True)))  # the shadow above it
    assert cells._relief(turned, at)[0, :9] == pytest.approx(tile, rel=1e-3)
    assert cells._relief(_pale_square(True, light=0.6), at)[0, :9] == pytest.approx(tile, rel=1e-3)


def test_the_relief_looks_blocks_are_the_shade_and_edges_of_what_shows_in_them():
    # A panel lit as a ramp (shade 20 + x, an edge strength of 1 everywhere), black
    # (out of the frame) from x = 150, and past its own sides taken as its edge rows and
    # columns go on: each block's shade is the mean over what of it shows, its edge
    # strength 1 where any of it shows clear of the frame's edge, and a block wholly out
    # of the frame has the middle's shade and no edge.
    panel = np.zeros((120, 200, 3), np.float32)
    panel[:, :150] = (20.0 + np.arange(150, dtype=np.float32))[None, :, None]
    pad = cells._RELIEF_PAD
    shade = np.pad(panel[..., 0], pad, mode="edge")
    for x, y in ((60, 60), (140, 60), (60, 10)):  # (60, 10): boxes past the panel's top
        look = cells._relief(panel, np.array([[float(x), float(y)]]))[0]
        boxes = cells._RELIEF_BOXES + np.array([x, y, x, y]) + pad
        middle = shade[boxes[0, 1]:boxes[0, 3], boxes[0, 0]:boxes[0, 2]]
        middle = middle[middle > 0].mean()
        blocks = boxes[9:]
        assert len(look) == 9 + 2 * len(blocks)
        for k, (x0, y0, x1, y1) in enumerate(blocks):
            part = shade[y0:y1, x0:x1]
            shown = part[part > 0]
            assert look[9 + k] == pytest.approx((shown.mean() if shown.size else middle) / middle)
            clear = x0 - pad < 149  # the frame's edge column itself is no tile's edge
            assert look[9 + len(blocks) + k] == pytest.approx((1.0 if clear else 0.0) / middle)


def test_a_board_the_frames_edge_cuts_is_not_occluded():
    # Seed 9, frame 329: no hand, and the frame's edge cuts a board's place, which the
    # place model sees as under something (the truth hides a place mostly out of the
    # frame; such a place is read by its colour looks alone, and these still see it so).
    # The place is unknown; the frame is not occluded.
    content, cond, rng = mixed_table(9, 329)
    frame, truth = render_table(content, cond, rng)
    assert not cond.hand and not truth["occluded"]
    rec = analyse(frame)
    assert any(r.over.any() for _, r in rec.boards)
    assert not rec.observation["occluded"]


@pytest.mark.parametrize("side", ["colored", "grey"])
def test_a_boards_places_are_weighed_both_ways_from_one_asking_of_their_models(side):
    # _read_places asks each kind's models once and weighs what they say both as on a
    # board something may lie over and as on one nothing does: each way, as
    # place_probabilities says, in every read (first, settled, final).
    rows = np.random.default_rng(5).normal(size=(len(PLACES), len(PLACE_MODELS["open"]["mean"])))
    rows = rows * PLACE_MODELS["open"]["scale"] + PLACE_MODELS["open"]["mean"]
    every = list(range(len(PLACES)))

    def told(p: np.ndarray) -> tuple[int, bool]:
        return int(np.argmax(p)), bool(p.max() >= cells.SURE)

    for settled, final in [(False, False), (True, False), (False, True), (True, True)]:
        says = cells._says_by_kind(lambda place: place_kind(place, side), every, rows, settled=settled,
                                   final=final)
        assert len(says) == (6 if side == "colored" else 2)
        for clear in (False, True):
            weighed = cells._weighed(says, clear)
            for kind, (idx, classes, p) in weighed.items():
                want = cells.place_probabilities(kind, rows[idx], clear=clear, settled=settled, final=final)
                assert classes == want[0]
                np.testing.assert_array_equal(p, want[1])
        # Whether the two weighings tell any place apart (its likeliest class, or whether
        # it is sure), and whether the model sees something over any place, row by row:
        usual, clear = (cells._by_place(cells._weighed(says, weighing)) for weighing in (False, True))
        apart = any(told(usual[i][1]) != told(clear[i][1]) for i in every)
        assert cells._told_apart(cells._weighed(says, False), cells._weighed(says, True)) == apart
        assert apart or side == "grey"  # (on the coloured side the relief look alone reads the wall)
        for weighing, by_place in ((False, usual), (True, clear)):
            over = any(classes[int(np.argmax(p))] == HIDDEN for classes, p in by_place.values())
            assert cells._seen_over(cells._weighed(says, weighing)) == over


@pytest.mark.parametrize("kind", ["wall:yellow", "wall:grey", "open"])
def test_the_relief_looks_more_say_on_a_board_nothing_lies_over_is_where_only_a_tile_shows_relief(kind):
    # A coloured wall cell holds a tile of its print's colour or shows the print, what the
    # relief look was made to tell: it is read by the relief look alone. A pattern line's or
    # the floor's place is so read where the relief look is sure of it. The grey wall's
    # cells keep the even say.
    rows = np.random.default_rng(3).normal(size=(40, len(PLACE_MODELS[kind]["mean"])))
    rows = rows * PLACE_MODELS[kind]["scale"] + PLACE_MODELS[kind]["mean"]
    _, usual = cells.place_probabilities(kind, rows)
    _, clear = cells.place_probabilities(kind, rows, clear=True)
    relief = cells._model_probabilities(PLACE_MODELS[kind], rows)[1]
    sure = relief.max(axis=1) >= cells.SURE
    if kind == "wall:grey":
        np.testing.assert_array_equal(clear, usual)
        return
    alone = np.ones(len(rows), bool) if kind == "wall:yellow" else sure
    assert alone.any() and (kind == "wall:yellow" or not alone.all())
    np.testing.assert_allclose(clear[alone], relief[alone])
    np.testing.assert_array_equal(clear[~alone], usual[~alone])
    assert np.abs(usual[alone] - relief[alone]).sum() > 0.1


def _board_in_plain_view() -> tuple[np.ndarray, cells.BoardFind, cells.BoardReading]:
    # Seed 7, frame 5: a board found exactly, its frame in view all round.
    content, cond, rng = mixed_table(7, 5)
    frame, _ = render_table(content, cond, rng)
    board, reading = analyse(frame).boards[0]
    return frame, board, reading


def _stretched(board: cells.BoardFind, by: float, down: float = 1.0) -> cells.BoardFind:
    """The board with its grid stretched across by `by` about the wall's middle column,
    and down by `down` about its middle row, as a grid fitted to the wall alone may be:
    true panel x = pivot + (x - pivot) * by."""
    pivot, middle = cells._FLOOR_PIVOT, cells.wall_center(2, 2)[1]
    stretch = np.array([[by, 0.0, pivot * (1 - by)], [0.0, down, middle * (1 - down)], [0.0, 0.0, 1.0]])
    return dataclasses.replace(board, panel_h=board.panel_h @ stretch)


def _where_stretched(by: float, down: float = 1.0) -> np.ndarray:
    """Where the floor's places lie on a grid _stretched by `by` and `down` (crop px)."""
    pivot, middle = cells._FLOOR_PIVOT, cells.wall_center(2, 2)[1]
    x, y = cells.CENTERS[cells._FLOOR_ROWS].T
    return np.column_stack([pivot + (x - pivot) / by, middle + (y - middle) / down])


def _covered(frame: np.ndarray, board: cells.BoardFind,
             *boxes: tuple[float, float, float, float]) -> np.ndarray:
    """The frame with an arm's skin over each box (x0, y0, x1, y1, crop px) of the board."""
    out = frame.copy()
    for x0, y0, x1, y1 in boxes:
        quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        cv2.fillConvexPoly(out, np.round(apply_h(board.panel_h, quad)).astype(np.int32), (90, 130, 190))
    return out


def test_the_floor_is_placed_along_its_row_by_the_panels_left_edge():
    frame, board, reading = _board_in_plain_view()
    along = cells._floor_along(frame, board.panel_h, reading.balance)
    assert along is not None and np.abs(along).max() < cells._FLOOR_MOVE_LEAST
    # A grid stretched by a tenth puts the floor's first place 57 crop px off, its last 8.
    pivot, floor_x = cells._FLOOR_PIVOT, cells.CENTERS[cells._FLOOR_ROWS, 0]
    truly = pivot + (floor_x - pivot) / 1.1  # where the floor's places lie on that grid
    along = cells._floor_along(frame, _stretched(board, 1.1).panel_h, reading.balance)
    np.testing.assert_allclose(along, truly - floor_x, atol=4.0)
    again = cells.read_board(frame, _stretched(board, 1.1), reading.balance, cream=reading.balance)
    assert again.floor_placed and again.floor == reading.floor


def test_a_floor_is_not_placed_where_the_panels_left_edge_does_not_show():
    frame, board, reading = _board_in_plain_view()
    # An arm's skin over the frame's left side, from the AZUL logo to the last pattern line
    hidden = _covered(frame, board, (-60.0, 100.0, 60.0, 420.0))
    assert cells._floor_along(hidden, board.panel_h, reading.balance) is None
    assert not cells.read_board(hidden, board, reading.balance, cream=reading.balance).floor_placed


def test_the_floor_is_placed_by_its_own_print():
    frame, board, reading = _board_in_plain_view()
    assert cells._floor_by_print(frame, board.panel_h, reading.balance, None) is None  # it lies in place
    for by, down in [(1.1, 1.08), (0.92, 0.94), (1.0, 1.08)]:
        moved = cells._floor_by_print(frame, _stretched(board, by, down).panel_h, reading.balance, None)
        assert moved is not None
        truly = _where_stretched(by, down) - cells.CENTERS[cells._FLOOR_ROWS]
        np.testing.assert_allclose(moved, truly, atol=5.0)


def test_whether_the_floor_lies_in_place_is_seen_in_the_columns_round_it_as_in_all_of_them():
    # The check that the floor lies where the grid puts it looks at the rows and the
    # columns round the floor alone (_round_floor); every box it reads across lies in its
    # columns, so it sees what looking at all the strip's columns sees, to the last bit,
    # wherever the floor lies.
    frame, board, reading = _board_in_plain_view()
    x0, _, x1, _ = cells._FLOOR_STRIP
    for at, pitch in [(320.0, 1.0), (270.0, 1.1), (380.0, 0.9), (250.0, 0.86), (400.0, 1.14)]:
        box = cells._round_floor(at, pitch)
        assert box[2] - box[0] < x1 - x0  # a part only
        here = (np.array([at - cells._MIDDLE[0]]), np.zeros(1), np.array([pitch]), np.zeros(1))
        part, across = (cells._FloorPrint.seen_in(frame, board.panel_h, reading.balance, b).shows(here)
                        for b in (box, (x0, box[1], x1, box[3])))
        np.testing.assert_array_equal(part, across)


def test_the_floors_print_is_judged_over_a_grid_of_fits_as_fit_by_fit():
    # shows() works a grid of fits out axis by axis; each fit's judgement is the one it
    # has alone, in np.meshgrid's "ij" order (the order _floor_fit takes its best from).
    frame, board, reading = _board_in_plain_view()
    print_ = cells._FloorPrint.seen_in(frame, board.panel_h, reading.balance, cells._FLOOR_STRIP)
    grid = (np.array([-20.0, 0.0, 30.0]), np.array([-8.0, 16.0]), np.array([0.9, 1.0, 1.1, 1.14]),
            np.array([-6.0, 6.0]))
    judged = print_.shows(grid)
    assert judged.shape == (3, 3 * 2 * 4 * 2)
    fits = np.array(np.meshgrid(*grid, indexing="ij")).reshape(4, -1)
    for i in range(fits.shape[1]):
        alone = print_.shows(tuple(fits[k, i:i + 1] for k in range(4)))
        np.testing.assert_array_equal(judged[:, i:i + 1], alone)
    assert len({tuple(column) for column in judged.T}) > 1  # (the fits are told apart)


def test_pattern_lines_are_moved_as_the_floor_below_them_the_more_the_lower():
    floor_x = cells.CENTERS[cells._FLOOR_ROWS, 0]
    assert not cells._lines_moved(np.zeros((7, 2))).any()
    # A floor off along by 60 crop px at its first place, 10 at its last, and 20 down.
    ramp = np.column_stack([np.linspace(60.0, 10.0, 7), np.full(7, 20.0)])
    moved = cells._lines_moved(ramp)
    lines = cells.CENTERS[cells._LINE_ROWS]
    below = np.interp(lines[:, 0], floor_x, ramp[:, 0])
    assert np.all(moved[:, 0] < below) and np.all(moved[:, 0] > 0) and np.all(moved[:, 1] < 20.0)
    # Along a line, the place farther left (above more of the floor's move) moves more;
    # the same place lower down, more too.
    for k in range(1, 5):
        row = [cells.PLACES.index(("line", k, j)) for j in range(k + 1)]
        xs, along = cells.CENTERS[row, 0], moved[np.searchsorted(cells._LINE_ROWS, row), 0]
        assert np.all(np.diff(along[np.argsort(xs)]) < 0)
    last, first = (cells.PLACES.index(("line", k, 0)) for k in (4, 0))
    i_last, i_first = np.searchsorted(cells._LINE_ROWS, [last, first])
    assert moved[i_last, 1] > moved[i_first, 1]


def test_a_floor_read_a_place_along_is_read_again_where_its_print_shows_it():
    frame, board, reading = _board_in_plain_view()
    assert reading.floor[:3] == ["red", "yellow", None]
    # A grid squeezed across by an eighth puts the floor's first place 86 crop px off (a
    # place is 90), and an arm hides the panel's left edge, which would place it.
    hidden = _covered(frame, board, (-60.0, 100.0, 60.0, 420.0))
    squeezed = _stretched(board, 0.88)
    first = cells.read_board(hidden, squeezed, reading.balance, cream=reading.balance)
    assert first.grid_in_place and not first.floor_placed and first.floor != reading.floor
    again = cells.read_floor_by_print(hidden, squeezed, first, reading.balance)
    assert again.floor_placed and again.floor == reading.floor
    assert again.wall == first.wall and again.lines == first.lines


def test_a_floor_is_not_placed_by_a_print_that_does_not_show_all_round_it():
    frame, board, reading = _board_in_plain_view()
    stretched = _stretched(board, 1.1, 1.08)
    hidden = [
        [(0.0, 478.0, 640.0, 502.0)],  # the labels
        [(650.0, 460.0, 900.0, 600.0)],  # the bonus panel
        [(-40.0, 470.0, 10.0, 640.0), (-40.0, 590.0, 650.0, 640.0)],  # the frame left of and below it
    ]
    for boxes in hidden:
        assert cells._floor_by_print(_covered(frame, board, *boxes), stretched.panel_h, reading.balance,
                                     None) is None
    # With only the frame left of the floor hidden, or only the frame below it, it is placed.
    for box in [(-40.0, 470.0, 10.0, 640.0), (-40.0, 590.0, 650.0, 640.0)]:
        assert cells._floor_by_print(_covered(frame, board, box), stretched.panel_h, reading.balance,
                                     None) is not None


def test_a_floor_place_read_empty_before_a_tile_is_read_as_the_whole_floor_reads_it():
    R = cells.Reading
    whole = [R("marker", 0.83), R("yellow", 0.99)] + [R(None, 0.99)] * 5
    # The marker under glare, read empty alone, before a tile read surely: the floor fills
    # from the left, so the floor read whole says what lies there.
    alone = [R(None, 0.85), R("yellow", 0.99)] + [R(None, 0.99)] * 5
    assert [r.value for r in cells._floor_filled(alone, whole)] == ["marker", "yellow"] + [None] * 5
    # Read empty after the tiles, or unread, a place is read as before: alone where sure.
    alone = [R("marker", 0.9), R(UNKNOWN, 0.5), R(None, 0.95)] + [R(None, 0.99)] * 4
    whole = [R("marker", 0.9), R("red", 0.81), R(UNKNOWN, 0.7)] + [R(None, 0.99)] * 4
    assert [r.value for r in cells._floor_filled(alone, whole)] == ["marker", "red"] + [None] * 5


def test_each_gap_by_a_grey_wall_is_judged_in_the_light_of_the_cells_round_it():
    # A lamp to the top right: the wall's two left columns and three lower rows lie in a
    # shade (0.58 of the cream, where lit cells show 0.74). The gaps (between the lines and
    # the wall, then under it) are judged in it; gaps whose cells are all dark tiles, or
    # out of the frame, in the wall's own light (here 0.9).
    rows, cols = np.divmod(np.arange(25), 5)
    wall = np.where((rows >= 2) | (cols <= 1), 0.58, 0.74)[None]
    shaded = 0.58 / 0.74
    assert cells._gap_shades(wall, 0.9)[0] == pytest.approx([shaded] * 9)
    assert cells._gap_shades(np.full((1, 25), 0.74), 0.9)[0] == pytest.approx([1.0] * 9)
    lit = wall.copy()
    lit[0, 1] = 0.74  # a lit cell by the first gap
    assert cells._gap_shades(lit, 0.9)[0][:2] == pytest.approx([1.0, shaded])
    tiles = wall.copy()
    tiles[0, [15, 16, 20, 21]] = [0.11, 0.47, 0.14, 0.21]  # tiles or a hand round the last gap by the lines
    assert cells._gap_shades(tiles, 0.9)[0][3] == pytest.approx(0.9)
    unseen = wall.copy()
    unseen[0, [15, 16, 20, 21]] = np.nan
    assert cells._gap_shades(unseen, 0.9)[0][3] == pytest.approx(0.9)
    glare = wall.copy()
    glare[0, 20] = 0.97  # a white tile under glare asks more of the cream by it, not less
    assert cells._gap_shades(glare, 0.9)[0][4] == pytest.approx(1.0)
    moved = np.vstack([wall, np.full(25, 0.74)])  # each grid tried in its own windows' light
    assert cells._gap_shades(moved, 0.9)[1] == pytest.approx([1.0] * 9)


_WHITE_PRINT_BGR = (196.0, 222.0, 214.0)  # the white print's pale teal on a balanced panel
_WHITE_STAR_BGR = (200.0, 199.0, 101.0)  # a white tile's teal star (real-table.md)


def _white_prints(tile: dict[int, tuple[float, float, float]],
                  values: dict[int, str | None] | None = None) -> tuple[dict, np.ndarray]:
    """A coloured board's places read as `values` (by white print, 0-4, at 0.9; the others
    read empty surely), and the first look's windows: every white print shows the print's
    colour but those in `tile`, which show theirs."""
    window = (2 * cells._WINDOW_HALF) ** 2
    pixels = np.tile(np.array(_WHITE_PRINT_BGR, np.float32), (len(PLACES), window, 1))
    places = {p: cells.Reading(None, 1.0) for p in PLACES}
    for k, i in enumerate(cells._WHITE_PRINT_ROWS):
        if k in tile:
            pixels[i] = tile[k]
        if values and k in values:
            places[PLACES[i]] = cells.Reading(values[k], 0.9)
    return places, pixels.reshape(-1, 3)


def _mixed(a: tuple[float, ...], b: tuple[float, ...], share: float) -> tuple[float, float, float]:
    return tuple(x + share * (y - x) for x, y in zip(a, b, strict=True))


def test_a_white_tile_read_as_its_print_is_told_by_its_teal_beside_the_boards_other_prints():
    # The place model read a white tile on its own print empty (seed 8 frame 38: under
    # blur, at 0.94); beside the board's other white prints read empty, its top shows
    # the star's teal, and it is read white. So is one the model was unsure of.
    tile = _mixed(_WHITE_PRINT_BGR, _WHITE_STAR_BGR, 0.35)
    none = np.zeros(len(PLACES), bool)
    for value in (None, UNKNOWN):
        places, pixels = _white_prints({4: tile}, {4: value})
        read = cells._white_on_print(places, pixels, none)
        assert read[PLACES[cells._WHITE_PRINT_ROWS[4]]].value == "white"
        assert [p for p in PLACES if read[p] != places[p]] == [PLACES[cells._WHITE_PRINT_ROWS[4]]]
    places, pixels = _white_prints({4: tile}, {4: None})
    # Something over the place, or no other print read empty to judge it by: not read.
    over = none.copy()
    over[cells._WHITE_PRINT_ROWS[4]] = True
    assert cells._white_on_print(places, pixels, over) == places
    alone, _ = _white_prints({}, {k: UNKNOWN for k in range(4)} | {4: None})
    assert cells._white_on_print(alone, pixels, none) == alone
    # A print that shows only a little teal, or only bluer (the light's cast over part of
    # the board), or far darker (a teal sleeve's shade), is no white tile.
    little = _mixed(_WHITE_PRINT_BGR, _WHITE_STAR_BGR, 0.1)
    for other in (little, (214.0, 222.0, 205.0), (140.0, 130.0, 60.0)):
        places, pixels = _white_prints({4: other}, {4: None})
        assert cells._white_on_print(places, pixels, none) == places
    # Two tiles read empty surely: each is judged by the prints read so, not by itself too.
    places, pixels = _white_prints({3: tile, 4: tile}, {0: UNKNOWN})
    read = cells._white_on_print(places, pixels, none)
    assert [read[PLACES[i]].value for i in cells._WHITE_PRINT_ROWS] == [UNKNOWN, None, None, "white", "white"]
    # Nor by two prints read empty that do not agree (one pink in a red sleeve's glare);
    # of three, the two that agree judge it.
    red = (190.0, 190.0, 250.0)
    places, pixels = _white_prints({2: red, 4: tile}, {0: UNKNOWN, 1: UNKNOWN})
    assert cells._white_on_print(places, pixels, none) == places
    places, pixels = _white_prints({2: red, 4: tile}, {0: UNKNOWN})
    assert cells._white_on_print(places, pixels, none)[PLACES[cells._WHITE_PRINT_ROWS[4]]].value == "white"


_CREAM_BGR = tuple(float(v) for v in CREAM_RGB[::-1])


_PRINT_SHADE = 200.0  # a wall print's shade on the balanced panel


def _tiles_on_prints(tiles: list[tuple[int, int]], lift: tuple[float, float],
                     face: float) -> tuple[np.ndarray, np.ndarray]:
    """A balanced panel (read at _SCALE): cream, every wall cell printed one plain shade,
    and a tile on each of `tiles` (row, column) whose top, lifted `lift` crop px off its
    cell, shows the print's shade and whose footprint beyond the top shows `face` of it;
    and each place's lift (crop px, in PLACES order)."""
    s = cells._SCALE
    panel = np.full((round(cells.PANEL_H_PX * s), round(cells.PANEL_W_PX * s), 3), _CREAM_BGR, np.float32)

    def square(centre: np.ndarray, half: float, shade: float) -> None:
        x0, y0 = np.round((centre - half) * s).astype(int)
        x1, y1 = np.round((centre + half) * s).astype(int)
        panel[y0:y1, x0:x1] = shade

    for i, place in enumerate(PLACES):
        if place[0] == "wall":
            square(cells.CENTERS[i], cells.CELL_PX / 2, _PRINT_SHADE)
            if place[1:] in tiles:
                square(cells.CENTERS[i], cells._TILE_HALF_PX, face * _PRINT_SHADE)
                square(cells.CENTERS[i] + lift, cells._TILE_HALF_PX, _PRINT_SHADE)
    return panel, np.tile(np.array(lift, float), (len(PLACES), 1))


def _wall_read(values: dict[tuple[int, int], cells.Reading]) -> dict[tuple, cells.Reading]:
    """A board's places read empty surely but for the wall's `values` (row, column)."""
    return {p: values.get(p[1:], cells.Reading(None, 1.0)) if p[0] == "wall" else cells.Reading(None, 1.0)
            for p in PLACES}


def test_a_tile_read_as_its_print_is_told_by_its_side_face():
    # The place model read a yellow tile on its own print empty at 0.94 (seed 7 frame
    # 250: its top washed out to the print's shade); the cell's footprint beyond its top,
    # on the camera's side, shows its side face, darker than the top.
    unsure = _wall_read({(2, 2): cells.Reading(None, 0.9)})
    none = np.zeros(len(PLACES), bool)
    still = np.zeros((len(PLACES), 2))
    for lift in ((0.0, 12.0), (-15.0, 0.0), (10.0, -10.0)):
        panel, lifts = _tiles_on_prints([(2, 2)], lift, face=0.45)
        read = cells._tile_by_side_face(unsure, panel, lifts, still, none)
        assert read[("wall", 2, 2)] == cells.Reading(COLORS[0], cells._BY_PEERS_SURE)
        assert [p for p in PLACES if read[p] != unsure[p]] == [("wall", 2, 2)]
    panel, lifts = _tiles_on_prints([(2, 2)], (0.0, 12.0), face=0.45)
    # A neighbour beyond the top, away from the camera, may hold a tile: its side face
    # does not lean over the cell.
    beyond = _wall_read({(2, 2): cells.Reading(None, 0.9), (3, 2): cells.Reading(COLORS[4], 1.0)})
    assert cells._tile_by_side_face(beyond, panel, lifts, still, none)[("wall", 2, 2)].value == COLORS[0]
    # Not a place read empty surely, or something over; nor one whose neighbour on the
    # camera's side holds a tile or is unsure (its top leans over the footprint).
    sure = _wall_read({(2, 2): cells.Reading(None, 0.98)})
    assert cells._tile_by_side_face(sure, panel, lifts, still, none) == sure
    over = none.copy()
    over[PLACES.index(("wall", 2, 2))] = True
    assert cells._tile_by_side_face(unsure, panel, lifts, still, over) == unsure
    for neighbour in (cells.Reading(COLORS[1], 1.0), cells.Reading(None, 0.9)):
        beside = _wall_read({(2, 2): cells.Reading(None, 0.9), (1, 2): neighbour})
        assert cells._tile_by_side_face(beside, panel, lifts, still, none) == beside
    # A flat print (its footprint as light as its middle), or a face barely darker, is no tile.
    for face in (1.0, 0.7):
        panel, lifts = _tiles_on_prints([(2, 2)], (0.0, 12.0), face=face)
        assert cells._tile_by_side_face(unsure, panel, lifts, still, none) == unsure
    # A top lifted too little shows too thin a face to judge; one lifted so far that its
    # middle lies over the next cell compares the footprint with that cell's print.
    for lift in ((0.0, 6.0), (0.0, 26.0)):
        panel, lifts = _tiles_on_prints([(2, 2)], lift, face=0.45)
        assert cells._tile_by_side_face(unsure, panel, lifts, still, none) == unsure


_MARKER_BGR = (205.0, 195.0, 190.0)  # the marker's white and its dark blue ink, on the balanced panel


def _floor(values: list, looks: dict[int, tuple[float, float, float]]) -> tuple[dict, np.ndarray]:
    """A board's places read empty surely but the floor's, read as `values` (at 0.9; None
    at 1.0), and the first look's windows: the cream but the floor places in `looks`."""
    window = (2 * cells._WINDOW_HALF) ** 2
    pixels = np.tile(np.array(_CREAM_BGR, np.float32), (len(PLACES), window, 1))
    places = {p: cells.Reading(None, 1.0) for p in PLACES}
    for k, value in enumerate(values):
        places[("floor", k)] = cells.Reading(value, 1.0 if value is None else 0.9)
    for k, look in looks.items():
        pixels[PLACES.index(("floor", k))] = look
    return places, pixels.reshape(-1, 3)


def test_the_marker_left_unknown_is_told_by_its_look_beside_the_floors_empty_places():
    # Seed 11 frames 27 and 470: the marker on the floor's first place, left unknown (the
    # model 0.55 / 0.36 sure of it). Beside the floor's places read empty, it shows darker
    # (its ink) and less yellow (its white against the cream), and no white tile's teal.
    none = np.zeros(len(PLACES), bool)
    empty = [None] * 6
    for values, at in (([UNKNOWN, *empty], 0), (["yellow", "red", UNKNOWN, None, None, None, None], 2)):
        places, pixels = _floor(values, {at: _MARKER_BGR})
        read = cells._marker_on_floor(places, pixels, none)
        assert read[("floor", at)] == cells.Reading(MARKER, cells._BY_PEERS_SURE)
        assert [p for p in PLACES if read[p] != places[p]] == [("floor", at)]
    # The floor fills from the left: no marker lies past an empty place, nor past one
    # unknown; a place read empty is left so; nor is one read under something, nor with
    # under two empty places to judge it by.
    reds = ["red"] * 5
    cases = (([None, UNKNOWN, *empty[1:]], 1, None), ([UNKNOWN, UNKNOWN, *empty[1:]], 1, None),
             ([None, *empty], 0, None), ([UNKNOWN, *empty], 0, 0), ([UNKNOWN, *reds, None], 0, None))
    for values, at, hidden in cases:
        places, pixels = _floor(values, {at: _MARKER_BGR})
        over = none.copy()
        if hidden is not None:
            over[PLACES.index(("floor", hidden))] = True
        assert cells._marker_on_floor(places, pixels, over) == places
    # A white tile's teal, a shade over the cream, a grey sleeve, glare, a red sleeve's
    # pink, or the cream itself: no marker.
    for look in ((200.0, 199.0, 101.0), tuple(0.85 * v for v in _CREAM_BGR), (130.0, 120.0, 115.0),
                 (250.0, 250.0, 250.0), (190.0, 180.0, 215.0), _CREAM_BGR):
        places, pixels = _floor([UNKNOWN, *empty], {0: look})
        assert cells._marker_on_floor(places, pixels, none) == places
    # Nor beside two empty places that do not agree (one under a warm light).
    places, pixels = _floor([UNKNOWN, None, None, "red", "red", "red", "red"],
                            {0: _MARKER_BGR, 2: (160.0, 215.0, 240.0)})
    assert cells._marker_on_floor(places, pixels, none) == places


_PRINTS_BGR = [(214.0, 200.0, 160.0), (150.0, 200.0, 240.0), (160.0, 160.0, 235.0), (150.0, 150.0, 150.0),
               (196.0, 222.0, 214.0)]  # the pale prints, in COLORS order, on a balanced panel


def _wall(values: dict[tuple[int, int], str | None], looks: dict[tuple[int, int], tuple[float, float, float]]
          ) -> tuple[dict, np.ndarray]:
    """A coloured board's places read empty surely but the wall cells in `values` (at 0.6),
    and the first look's windows: each wall cell its print's colour but those in `looks`."""
    window = (2 * cells._WINDOW_HALF) ** 2
    pixels = np.tile(np.array(_CREAM_BGR, np.float32), (len(PLACES), window, 1))
    places = {p: cells.Reading(None, 1.0) for p in PLACES}
    for r in range(5):
        for c in range(5):
            pixels[PLACES.index(("wall", r, c))] = looks.get((r, c), _PRINTS_BGR[(c - r) % 5])
    for (r, c), value in values.items():
        places[("wall", r, c)] = cells.Reading(value, 0.6)
    return places, pixels.reshape(-1, 3)


def test_a_wall_cell_left_unknown_that_shows_its_print_beside_the_boards_empty_prints_is_read_empty():
    # Seed 11 frame 410: a black print the place model gave a black tile 0.71; its colour
    # lies 0.4 from the board's other black prints read empty. Read empty.
    none = np.zeros(len(PLACES), bool)
    places, pixels = _wall({(4, 2): UNKNOWN}, {})
    read = cells._print_on_wall(places, pixels, none)
    assert read[("wall", 4, 2)] == cells.Reading(None, cells._BY_PEERS_SURE)
    assert [p for p in PLACES if read[p] != places[p]] == [("wall", 4, 2)]
    # A black tile, or a window a little off its print's colour; one read as a tile;
    # one under something; a white or a yellow print (a tile washed out by glare looks
    # like it): left as read.
    near = tuple(v + 10.0 for v in _PRINTS_BGR[3])  # 3.8 off in Lab
    for values, looks, hidden in (({(4, 2): UNKNOWN}, {(4, 2): (40.0, 38.0, 35.0)}, None),
                                  ({(4, 2): UNKNOWN}, {(4, 2): near}, None),
                                  ({(4, 2): "black"}, {}, None), ({(4, 2): UNKNOWN}, {}, ("wall", 4, 2)),
                                  ({(0, 4): UNKNOWN}, {}, None), ({(0, 1): UNKNOWN}, {}, None)):
        places, pixels = _wall(values, looks)
        over = none.copy()
        if hidden is not None:
            over[PLACES.index(hidden)] = True
        assert cells._print_on_wall(places, pixels, over) == places
    # Judged only by the prints of its own colour read empty (here the blue prints alone,
    # whose colour it shows), two at least that agree.
    tiled = {(r, c): "red" for r in range(5) for c in range(5) if (c - r) % 5}
    places, pixels = _wall(tiled | {(4, 2): UNKNOWN}, {(4, 2): _PRINTS_BGR[0]})
    assert cells._print_on_wall(places, pixels, none) == places
    places, pixels = _wall({(4, 2): UNKNOWN, (0, 3): "black", (1, 4): "black"}, {(2, 0): (40.0, 38.0, 35.0)})
    assert cells._print_on_wall(places, pixels, none) == places
    places, pixels = _wall({(4, 2): UNKNOWN, (0, 3): "black", (1, 4): "black"}, {(2, 0): (40.0, 38.0, 35.0)})
    assert cells._print_on_wall(places, pixels, none) == places
