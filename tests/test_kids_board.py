"""Azul Kids board definitions (`azul-kids-board/1`): the shipped examples and the checks
that tell a person exactly what is wrong with the board they described."""

from __future__ import annotations

import copy
import json

import pytest

from companion.rules.errors import RulesError
from companion.rules.kids_board import (
    EXAMPLES_DIR,
    SHAPES,
    BoardError,
    Field,
    KidsBoard,
    example_board,
    example_boards,
    load_board,
)


def master_data() -> dict:
    return {
        "format": "azul-kids-board/1", "name": "My board", "side": "master",
        "pictures": [
            {"id": "whale", "stars": 4, "fields": [
                {"shape": "circle"}, {"shape": "square"}, {"shape": "circle"}, {"shape": "diamond"}]},
            {"id": "starfish", "stars": 1, "fields": [{"shape": "hexagon"}]},
        ],
    }


def apprentice_data() -> dict:
    return {
        "format": "azul-kids-board/1", "name": "My cat", "side": "apprentice",
        "pictures": [{"id": "cat", "stars": 0, "fields": [
            {"shape": "circle", "at": [0.2, 0.3]}, {"shape": "square"}]}],
    }


# --- the shipped examples ---------------------------------------------------------


def test_examples_include_apprentice_and_master_boards_clearly_labelled():
    boards = example_boards()
    sides = [b.side for b in boards]
    assert sides.count("apprentice") >= 1
    assert sides.count("master") >= 2
    for board in boards:
        assert board.name.endswith("(example)"), board.name
        assert board.note and "example" in board.note
    assert len({(b.name, b.side) for b in boards}) == len(boards)


def test_every_example_file_reads_back_as_written():
    files = sorted(EXAMPLES_DIR.glob("*.json"))
    assert len(files) == len(example_boards())
    for path in files:
        data = json.loads(path.read_text())
        assert load_board(path).to_json() == data, path.name
        assert KidsBoard.from_json(load_board(path).to_json()) == load_board(path)


def test_example_fields_are_placed_inside_their_picture_for_vision():
    for board in example_boards():
        for picture in board.pictures:
            assert picture.outline is not None
            xs = [x for x, _y in picture.outline]
            ys = [y for _x, y in picture.outline]
            for number, f in enumerate(picture.fields, 1):
                where = f"{board.name} {picture.id} field {number}"
                assert f.at is not None and f.outline is not None, where
                assert min(xs) <= f.at[0] <= max(xs) and min(ys) <= f.at[1] <= max(ys), where
                assert all(min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
                           for x, y in f.outline), where


def test_example_boards_are_playable_by_four():
    for board in example_boards():
        for shape in SHAPES:
            assert 0 < board.count(shape) * 4 <= 30 or board.side == "master", (board.name, shape)
        if board.side == "master":
            assert all(1 <= len(p.fields) <= 6 and p.stars >= 1 for p in board.pictures)


def test_example_board_by_name():
    sea = example_board("Sea (example)")
    assert sea.side == "master"
    assert [p.id for p in sea.pictures][:2] == ["whale", "seahorse"]
    assert sea.picture("whale").stars == 4
    assert example_board("Sea (example)", "master") == sea
    with pytest.raises(BoardError) as error:
        example_board("Jungle")
    assert "no example board 'Jungle'" in str(error.value)
    assert "'Sea (example)' (master)" in str(error.value)
    with pytest.raises(BoardError, match="no example board"):
        example_board("Sea (example)", "apprentice")


# --- reading and writing ------------------------------------------------------------


def test_a_board_reads_and_writes_back_identical():
    data = apprentice_data()
    board = KidsBoard.from_json(data)
    assert board.to_json() == data
    assert board.pictures[0].fields[0] == Field("circle", (0.2, 0.3))
    assert board.count("circle") == 1 and board.count("hexagon") == 0


def test_a_field_keeps_extra_keys_the_rules_do_not_read():
    data = master_data()
    data["pictures"][1]["fields"][0] = {"shape": "hexagon", "label": "arm", "tilt": [1, 2]}
    board = KidsBoard.from_json(data)
    assert board.to_json() == data
    assert board.pictures[1].fields[0].shape == "hexagon"


def test_load_board_names_the_file(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(master_data()))
    assert load_board(path).name == "My board"
    path.write_text("{not json")
    with pytest.raises(BoardError) as error:
        load_board(path)
    assert str(error.value).startswith(f"{path}: not valid JSON: ")
    with pytest.raises(BoardError, match=r"missing\.json: cannot read"):
        load_board(tmp_path / "missing.json")
    data = master_data()
    data["pictures"][0]["fields"][2]["shape"] = "star"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardError) as error:
        load_board(path)
    assert str(error.value) == (f"{path}: picture 'whale': field 3: unknown shape 'star'"
                                " (shapes: square, hexagon, diamond, circle)")
    assert error.value.source == str(path)
    assert isinstance(error.value, RulesError) and isinstance(error.value, ValueError)


# --- what a wrong board is told -----------------------------------------------------


def broken(change) -> dict:
    data = master_data()
    change(data)
    return data


def set_key(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def delete(path):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


CASES = [
    (set_key(["format"], "azul-board/1"), "format must be 'azul-kids-board/1', not 'azul-board/1'"),
    (delete(["name"]), "name must be a non-empty text, not None"),
    (set_key(["name"], "  "), "name must be a non-empty text"),
    (set_key(["side"], "front"), "side must be 'apprentice' or 'master', not 'front'"),
    (set_key(["note"], 3), "note must be a text, not 3"),
    (set_key(["colour"], "blue"), "unknown key 'colour' (a board has"),
    (set_key(["pictures"], []), "pictures must be a non-empty list"),
    (set_key(["pictures"], {"whale": 1}), "pictures must be a non-empty list"),
    (set_key(["pictures", 1], "starfish"), "picture 2: a picture is a JSON object, not a text"),
    (delete(["pictures", 1, "id"]), "picture 2: id must be a non-empty text, not None"),
    (set_key(["pictures", 1, "id"], "whale"),
     "picture 2: the id 'whale' is used twice; each picture needs its own"),
    (set_key(["pictures", 1, "star"], 1), "picture 'starfish': unknown key 'star'"),
    (set_key(["pictures", 1, "stars"], -1), "picture 'starfish': stars must be a whole number 0"
     " or more, not -1"),
    (set_key(["pictures", 1, "stars"], 1.5), "stars must be a whole number 0 or more, not 1.5"),
    (set_key(["pictures", 1, "stars"], True), "stars must be a whole number 0 or more, not True"),
    (delete(["pictures", 1, "stars"]), "picture 'starfish': stars must be a whole number"),
    (set_key(["pictures", 1, "fields"], []), "picture 'starfish': fields must be a non-empty list"),
    (set_key(["pictures", 0, "fields"], [{"shape": "circle"}] * 7),
     "picture 'whale': a master picture has 1 to 6 fields, not 7"),
    (set_key(["pictures", 0, "fields", 1], "square"),
     "picture 'whale': field 2: a field is a JSON object, not a text"),
    (set_key(["pictures", 0, "fields", 1], {"shape": "triangle"}),
     "picture 'whale': field 2: unknown shape 'triangle'"),
    (set_key(["pictures", 0, "fields", 1], {"colour": "red"}),
     "picture 'whale': field 2: unknown shape None"),
    (set_key(["pictures", 0, "fields", 3, "at"], [0.5, 1.5]),
     "picture 'whale': field 4: at: a point is [x, y] with both between 0 and 1, not [0.5, 1.5]"),
    (set_key(["pictures", 0, "fields", 3, "at"], [0.5]), "field 4: at: a point is [x, y]"),
    (set_key(["pictures", 0, "fields", 3, "at"], ["0.5", 0.5]), "field 4: at: a point is [x, y]"),
    (set_key(["pictures", 0, "fields", 0, "outline"], [[0, 0], [1, 1]]),
     "picture 'whale': field 1: outline: an outline is a list of at least 3 points"),
    (set_key(["pictures", 0, "fields", 0, "outline"], [[0, 0], [1, 1], [1, -0.1]]),
     "picture 'whale': field 1: outline point 3: a point is [x, y]"),
    (set_key(["pictures", 0, "outline"], "box"),
     "picture 'whale': outline: an outline is a list of at least 3 points"),
]


@pytest.mark.parametrize(("change", "message"), CASES)
def test_a_wrong_board_is_told_what_and_where(change, message):
    with pytest.raises(BoardError) as error:
        KidsBoard.from_json(broken(change), "mine.json")
    assert str(error.value).startswith("mine.json: ")
    assert message in str(error.value)


@pytest.mark.parametrize("data", [[], "board", None, 3])
def test_a_board_is_an_object(data):
    with pytest.raises(BoardError, match="board: a board is a JSON object"):
        KidsBoard.from_json(data)


def test_an_apprentice_board_is_one_picture_with_no_stars():
    two = apprentice_data()
    two["pictures"].append({"id": "dog", "stars": 0, "fields": [{"shape": "square"}]})
    with pytest.raises(BoardError, match="an apprentice board is one picture, not 2"):
        KidsBoard.from_json(two)
    starred = apprentice_data()
    starred["pictures"][0]["stars"] = 3
    with pytest.raises(BoardError, match="picture 'cat': an apprentice picture has stars 0, not 3"):
        KidsBoard.from_json(starred)
    many = apprentice_data()
    many["pictures"][0]["fields"] = [{"shape": "square"}] * 12
    assert len(KidsBoard.from_json(many).pictures[0].fields) == 12  # no 6-field limit


def test_a_board_cannot_need_more_tiles_of_a_shape_than_the_game_has():
    data = apprentice_data()
    data["pictures"][0]["fields"] = [{"shape": "square"}] * 31
    with pytest.raises(BoardError, match="31 square fields, but the game has only 30 square tiles"):
        KidsBoard.from_json(data)
    data["pictures"][0]["fields"] = [{"shape": "square"}] * 30
    assert KidsBoard.from_json(data).count("square") == 30


def test_the_checks_do_not_change_the_input():
    data = master_data()
    before = copy.deepcopy(data)
    KidsBoard.from_json(data)
    assert data == before
