"""Every rule and ruling of RULES.md sections 1 and 2, each from a position built by hand."""

from __future__ import annotations

import pytest

from companion.rules.azul import (
    BLACK,
    BLUE,
    CENTER,
    DRAFTING,
    FLOOR,
    MARKER,
    OVER,
    RED,
    REFILL,
    TILING,
    WHITE,
    YELLOW,
    BonusScore,
    FloorScore,
    Game,
    LineToFloor,
    Place,
    PlayerBoard,
    Refill,
    Take,
    TileScore,
    tile_points,
    wall_column,
)
from companion.rules.errors import IllegalMoveError, InvalidRefillError

B, Y, R, K, W = BLUE, YELLOW, RED, BLACK, WHITE


def refill(game: Game, *factories: tuple[int, ...]) -> None:
    """Push a refill: the factories given, then the rest filled from what the bag holds."""
    bag = game.bag[:]
    for tiles in factories:
        for c in tiles:
            bag[c] -= 1
    rest = []
    for _f in range(len(game.factories) - len(factories)):
        tiles = []
        for _t in range(4):
            c = next(c for c in range(5) if bag[c])
            bag[c] -= 1
            tiles.append(c)
        rest.append(tuple(tiles))
    game.push(Refill(tuple(factories) + tuple(rest)))


def deal(game: Game, *factories: tuple[int, ...]) -> None:
    """Refill with exactly these factories (the others empty): the bag holds just these tiles."""
    game.bag = [sum(f.count(c) for f in factories) for c in range(5)]
    game.lid = [0] * 5
    game.push(Refill(tuple(factories) + ((),) * (len(game.factories) - len(factories))))


def with_wall(game: Game, seat: int, cells: list[tuple[int, int]]) -> None:
    """Put tiles on a player's wall at (row, column), 0-based, taking them out of the bag."""
    board = game.boards[seat]
    for row, column in cells:
        color = (column - row) % 5 if game.variant == "colored" else (row + column) % 5
        board.wall[row * 5 + column] = color
        board.row_colors[row] |= 1 << color
        board.col_colors[column] |= 1 << color
        game.bag[color] -= 1
    for line in range(5):
        board._refresh_line(line)


def empty_table(game: Game) -> None:
    """Draft every remaining tile to seat-appropriate floors, ending the drafting phase."""
    while game.phase == DRAFTING:
        move = next(m for m in game.generate_legal_moves() if m.line == FLOOR)
        game.push(move)


# --- setup and drafting ------------------------------------------------------------


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_uses_five_seven_or_nine_factories_and_a_full_bag(players, factories):
    game = Game(players)
    assert len(game.factories) == factories
    assert game.bag == [20] * 5 and game.lid == [0] * 5
    assert game.phase == REFILL and game.turn == 0


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_is_refused(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game(players)


def test_taking_from_a_factory_sends_the_rest_to_the_centre():
    game = Game(2)
    refill(game, (R, R, B, Y))
    game.push(Take(1, R, 2))
    assert game.factories[0] == {}
    assert game.center == {B: 1, Y: 1}
    assert game.boards[0].line_counts[1] == 2 and game.boards[0].line_colors[1] == R
    assert game.turn == 1


def test_first_take_from_the_centre_takes_the_marker_onto_the_floor_first():
    game = Game(2)
    refill(game, (R, R, B, Y), (R, K, K, W))
    game.push(Take(1, R, 2))  # centre now B, Y
    game.push(Take(CENTER, B, 1))
    assert game.boards[1].floor == [MARKER]
    assert game.marker_holder == 1 and not game.center_marker
    game.push(Take(2, K, 3))  # centre gets R, W
    game.push(Take(CENTER, Y, 4))
    assert game.boards[1].floor == [MARKER], "only the first centre take brings the marker"


def test_marker_goes_before_the_overflow_on_the_floor():
    game = Game(2)
    refill(game, (R, B, B, B), (Y, Y, Y, K))
    game.push(Take(1, R, 1))  # B B B to the centre
    game.push(Take(CENTER, B, 1))  # line 1 takes one blue, two overflow
    assert game.boards[1].floor == [MARKER, B, B]


def test_taking_is_compulsory_placing_on_a_line_is_not():
    game = Game(2)
    refill(game, (R, R, B, Y))
    game.push(Take(1, R, FLOOR))
    assert game.boards[0].floor == [R, R]
    assert all(n == 0 for n in game.boards[0].line_counts)


def test_overflow_goes_to_the_floor_and_past_it_to_the_lid():
    game = Game(3)
    deal(game, (R, R, R, R), (B, B, B, B), (K, K, K, K), (W, W, W, W), (Y, Y, Y, Y), (Y, Y, Y, Y),
         (R, B, W, K))
    game.push(Take(1, R, FLOOR))  # seat 0: 4 places
    game.push(Take(4, W, 4))  # seat 1
    game.push(Take(2, B, FLOOR))  # seat 2: 4 places
    game.push(Take(3, K, 2))  # seat 0: 2 on line 2, 2 overflow onto the floor
    assert game.boards[0].line_counts[1] == 2
    assert game.boards[0].floor == [R, R, R, R, K, K]
    game.push(Take(5, Y, 5))  # seat 1
    game.push(Take(6, Y, FLOOR))  # seat 2: 3 fill the floor, 1 goes past it
    assert game.phase == DRAFTING
    assert game.boards[2].floor == [B, B, B, B, Y, Y, Y]
    assert game.lid == [0, 1, 0, 0, 0], "a tile beyond the 7th floor place goes to the lid"


@pytest.mark.parametrize(
    ("setup", "line", "reason"),
    [
        ("full", 2, "pattern line 2 is full"),
        ("other", 3, "pattern line 3 holds blue, not red"),
        ("wall", 4, "wall row 4 already has red"),
    ],
)
def test_illegal_targets_are_refused_with_the_reason(setup, line, reason):
    game = Game(2)
    if setup == "wall":
        with_wall(game, 0, [(3, wall_column(R, 3))])
    refill(game, (R, R, B, Y), (B, B, K, K), (W, W, Y, K))
    board = game.boards[0]
    if setup == "full":
        board.line_counts[1], board.line_colors[1] = 2, R
    if setup == "other":
        board.line_counts[2], board.line_colors[2] = 1, B
    board._refresh_line(line - 1)
    move = Take(1, R, line)
    assert move not in game.legal_moves
    assert Take(1, R, FLOOR) in game.legal_moves
    with pytest.raises(IllegalMoveError, match=reason):
        game.push(move)
    assert game.factories[0] == {R: 2, B: 1, Y: 1}, "a refused move changes nothing"


def test_take_of_a_colour_the_source_lacks_is_refused():
    game = Game(2)
    refill(game, (R, R, B, Y))
    with pytest.raises(IllegalMoveError, match="factory 1 has no black"):
        game.push(Take(1, K, 1))
    with pytest.raises(IllegalMoveError, match="centre has no red"):
        game.push(Take(CENTER, R, 1))
    with pytest.raises(IllegalMoveError, match="no factory 6"):
        game.push(Take(6, R, 1))


# --- wall-tiling and scoring -----------------------------------------------------


@pytest.mark.parametrize(
    ("across", "down", "points"),
    [(1, 1, 1), (3, 1, 3), (1, 4, 4), (3, 2, 5), (4, 2, 6), (5, 5, 10)],
)
def test_tile_points_count_runs_of_two_or_more_each_way(across, down, points):
    assert tile_points(across, down) == points


def _score_one_tile(wall_cells, row, color):
    """Seat 0 completes pattern line ``row`` (0-based) with ``color``; the TileScore it gets."""
    game = Game(2)
    with_wall(game, 0, wall_cells)
    board = game.boards[0]
    board.line_colors[row], board.line_counts[row] = color, row  # one short of full
    game.bag[color] -= row
    board._refresh_line(row)
    refill(game, (color, B if color != B else Y, Y if color != Y else R, K if color != K else W))
    game.push(Take(1, color, row + 1))
    empty_table(game)
    (item,) = [i for i in game.scoring if isinstance(i, TileScore)]
    return game, item


def test_seed_example_two_left_and_one_above_scores_three_plus_two():
    # Row 2 (index 1): the tile goes to column 3 (index 2) with two tiles to its left and one above.
    color = (2 - 1) % 5  # the colour the printed wall puts at row 2, column 3: yellow
    _game, item = _score_one_tile([(1, 0), (1, 1), (0, 2)], 1, color)
    assert (item.row, item.column, item.across, item.down, item.points) == (2, 3, 3, 2, 5)


def test_seed_example_three_in_a_row_beside_and_one_above_scores_four_plus_two():
    # Row 3, column 4: three to its left, one above.
    color = (3 - 2) % 5
    _game, item = _score_one_tile([(2, 0), (2, 1), (2, 2), (1, 3)], 2, color)
    assert (item.across, item.down, item.points) == (4, 2, 6)


def test_a_tile_alone_scores_one_and_a_vertical_run_only_counts_down():
    _game, alone = _score_one_tile([(0, 0), (4, 4)], 2, RED)  # red, row 3 -> column 5
    assert alone.points == 1
    _game, down = _score_one_tile([(1, 4), (0, 4)], 2, RED)
    assert (down.across, down.down, down.points) == (1, 3, 3)


def test_complete_lines_move_one_tile_to_the_wall_the_rest_to_the_lid_incomplete_stay():
    game = Game(2)
    refill(game, (R, R, R, B), (Y, Y, K, K), (W, B, B, B))
    game.push(Take(1, R, 3))  # seat 0: line 3 complete with red
    game.push(Take(2, Y, 2))  # seat 1: line 2 complete
    game.push(Take(3, B, 4))  # seat 0: line 4 has 3 of 4 blue
    lid_before = game.lid[:]
    empty_table(game)
    board = game.boards[0]
    assert board.wall[2 * 5 + wall_column(R, 2)] == R
    assert board.line_counts[2] == 0
    assert board.line_counts[3] == 3 and board.line_colors[3] == B, "incomplete lines stay"
    assert game.lid[R] - lid_before[R] == 2 and game.lid[Y] - lid_before[Y] >= 1


def test_floor_penalties_are_cumulative_and_a_score_never_goes_below_zero():
    game = Game(2)
    refill(game, (R, R, R, R), (B, B, B, B))
    game.boards[1].score = 3
    game.push(Take(1, R, FLOOR))  # seat 0: 4 places: -6 from 0 -> 0
    game.push(Take(2, B, FLOOR))  # seat 1: 4 places: -6 from 3 -> 0
    empty_table(game)
    floors = {i.player: i for i in game.scoring if isinstance(i, FloorScore)}
    assert floors[1].lost == 3 and floors[1].penalty >= 6
    assert all(b.score >= 0 for b in game.boards)
    assert all(b.floor == [] for b in game.boards), "floor tiles go to the lid"


@pytest.mark.parametrize(("places", "penalty"), [(1, 1), (2, 2), (3, 4), (4, 6), (5, 8), (6, 11), (7, 14)])
def test_floor_penalty_by_places(places, penalty):
    game = Game(2)
    game.boards[0].score = 50
    # Seat 0 floors ``places`` red tiles from single-colour factories; seat 1 fills lines.
    reds = [R] * places
    deal(game, tuple(reds[:4]), tuple(reds[4:]) or (K,), (B,), (Y,), (W,))
    game.push(Take(1, R, FLOOR))
    game.push(Take(3, B, 1))
    if places > 4:
        game.push(Take(2, R, FLOOR))
    else:
        game.push(Take(2, K, 2))
    game.push(Take(4, Y, 3))  # seat 1 or 0: never to a floor
    while game.phase == DRAFTING:
        move = next(m for m in game.generate_legal_moves() if m.line != FLOOR)
        game.push(move)
    (floor,) = [i for i in game.scoring if isinstance(i, FloorScore) and i.player == 0]
    assert (floor.places, floor.penalty) == (places, penalty)
    tiles = sum(i.points for i in game.scoring if isinstance(i, TileScore) and i.player == 0)
    assert game.boards[0].score == 50 + tiles - penalty


def test_marker_on_a_full_floor_costs_nothing_but_its_holder_starts_next_round():
    game = Game(2)
    deal(game, (R, R, R, R), (B, B, B, B), (Y, Y, Y, K), (W, W, W, W), (K, K, K, K))
    game.push(Take(4, W, 4))  # seat 0
    game.push(Take(1, R, FLOOR))  # seat 1: 4 places
    game.push(Take(3, Y, 3))  # seat 0: the black goes to the centre
    game.push(Take(2, B, FLOOR))  # seat 1: 7 places, the floor is full; 1 blue to the lid
    game.push(Take(5, K, 5))  # seat 0
    game.push(Take(CENTER, K, FLOOR))  # seat 1 takes first from the centre
    (floor,) = [i for i in game.scoring if isinstance(i, FloorScore) and i.player == 1]
    assert floor.places == 7 and floor.penalty == 14, "the marker on a full floor costs nothing"
    assert game.phase == REFILL and game.turn == 1 and game.starter == 1


def test_the_marker_holder_starts_the_next_round():
    game = Game(3)
    refill(game, (R, R, B, Y))
    game.push(Take(1, R, 2))
    game.push(Take(2, next(iter(game.factories[1])), FLOOR))
    game.push(Take(CENTER, B, FLOOR))  # seat 2 takes the marker
    empty_table(game)
    assert game.phase == REFILL and game.turn == 2


def test_if_nobody_takes_from_the_centre_the_same_player_starts_again():
    game = Game(2)
    # Single-colour factories leave nothing in the centre all round.
    game.push(Refill(((R,) * 4, (B,) * 4, (Y,) * 4, (K,) * 4, (W,) * 4)))
    for source in (1, 2, 3, 4, 5):
        game.push(Take(source, next(iter(game.factories[source - 1])), FLOOR))
    assert game.phase == REFILL and game.turn == 0 and game.marker_holder is None
    game.push(game.draw_refill(_Counter()))
    assert game.turn == 0 and game.center_marker, "the marker is back in the centre"


class _Counter:
    """A deterministic stand-in for a random generator."""

    def __init__(self) -> None:
        self.n = 0

    def randrange(self, stop: int) -> int:
        self.n += 7
        return self.n % stop


# --- refills: chance as an explicit, validated event --------------------------------


def test_a_refill_draws_from_the_bag():
    game = Game(2)
    refill(game, (R, R, B, Y))
    assert sum(game.bag) == 80 and game.bag[R] == 18
    assert game.phase == DRAFTING and game.round == 1 and game.center_marker


@pytest.mark.parametrize(
    ("factories", "message"),
    [
        (((R, R, B, Y, K),) + ((B, B, B, B),) * 4, "factory 1 holds 5 tiles"),
        (((R, R, B, Y),) * 4, "4 factories refilled, but 2 players use 5"),
        (((R, R, R, R),) * 5 + ((R,),), "6 factories refilled"),
        (((R, R, R, R),) * 5 + (), "20 red tiles drawn"),
        (((R, R, R, R),) * 6 + ((R, B, B, Y),), "7 factories"),
        (((R, R, B, Y),) * 4 + ((R, R, B),), "19 tiles drawn, but the bag .* give exactly 20"),
    ],
)
def test_impossible_refills_are_refused(factories, message):
    game = Game(2)
    if message == "20 red tiles drawn":
        game.bag[R] = 19  # pretend one red is elsewhere
        message = "20 red tiles drawn, but the bag holds only 19"
    with pytest.raises(InvalidRefillError, match=message):
        game.push(Refill(factories))
    assert game.phase == REFILL and game.bag[B] == 20


def test_when_the_bag_runs_out_the_lid_refills_it_and_drawing_goes_on():
    game = Game(2)
    game.bag = [2, 2, 2, 1, 1]  # 8 in the bag; 92 elsewhere: put 12 in the lid, 80 on walls
    game.lid = [0, 0, 12, 0, 0]
    game.boards[0].score = 0
    # The bag's 8 tiles must all be drawn, then 12 from the lid.
    factories = ((B, B, Y, Y), (R, R, K, W), (R, R, R, R), (R, R, R, R), (R, R, R, R))
    game.push(Refill(factories))
    assert game.bag == [0] * 5 and game.lid == [0] * 5


def test_when_the_bag_runs_out_every_tile_in_it_must_be_drawn():
    game = Game(2)
    game.bag = [2, 2, 2, 1, 1]
    game.lid = [0, 0, 12, 0, 0]
    # 20 tiles, all possible from bag + lid, but one of the bag's blues was left behind.
    factories = ((B, Y, Y, R), (R, R, K, W), (R, R, R, R), (R, R, R, R), (R, R, R, R))
    with pytest.raises(InvalidRefillError, match="all 2 blue tiles in it are drawn, not 1"):
        game.push(Refill(factories))
    assert game.bag == [2, 2, 2, 1, 1] and game.lid == [0, 0, 12, 0, 0]


def test_a_lid_tile_may_not_be_drawn_while_the_bag_still_has_enough():
    game = Game(2)
    game.bag = [20, 0, 0, 0, 0]
    game.lid = [0, 0, 20, 0, 0]
    with pytest.raises(InvalidRefillError, match="red tiles drawn, but the bag holds only 0"):
        game.push(Refill(((R, B, B, B),) + ((B, B, B, B),) * 4))


def test_when_bag_and_lid_are_both_empty_factories_stay_partly_filled():
    game = Game(2)
    game.bag = [3, 0, 0, 0, 0]
    game.lid = [0, 0, 0, 0, 3]
    game.push(Refill(((B, B, B, W), (W, W), (), (), ())))
    assert game.on_table == 6 and game.phase == DRAFTING
    with pytest.raises(InvalidRefillError):
        Game(2).push(Refill(((B, B, B, W), (W, W), (), (), ())))


def test_an_empty_refill_goes_straight_to_tiling_so_a_game_that_cannot_end_never_hangs():
    game = Game(4)
    game.bag = [0] * 5
    game.push(Refill(((),) * 9))
    assert game.phase == REFILL and game.round == 1 and game.round_scores == [[0, 0, 0, 0]]
    game.push(game.draw_refill(_Counter()))
    assert game.round == 2


def test_draw_refill_is_a_possible_draw_and_does_not_change_the_state():
    game = Game(3)
    game.bag = [1, 1, 0, 0, 0]
    game.lid = [5, 5, 5, 5, 5]
    event = game.draw_refill(_Counter())
    assert game.bag == [1, 1, 0, 0, 0], "drawing only proposes; pushing applies"
    assert sum(len(f) for f in event.factories) == 27
    assert all(len(f) <= 4 for f in event.factories)
    game.push(event)
    assert sum(game.bag) == 0 and game.lid == [0] * 5


def test_a_refill_only_opens_a_round():
    game = Game(2)
    refill(game, (R, R, B, Y))
    with pytest.raises(InvalidRefillError, match="only opens a round"):
        game.push(Refill(((B,) * 4,) * 5))


# --- the end -----------------------------------------------------------------------


def test_the_game_ends_after_the_round_where_a_row_is_completed_with_bonuses():
    game = Game(2)
    # Seat 0: row 1 full but for column 5 (white), column 1 full but for row 1.
    with_wall(game, 0, [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0), (4, 0)])
    refill(game, (W, B, Y, R))
    game.push(Take(1, W, 1))
    assert game.phase == DRAFTING
    empty_table(game)
    assert game.phase == OVER
    bonuses = [(i.kind, i.index, i.points) for i in game.scoring if isinstance(i, BonusScore)]
    assert ("row", 1, 2) in bonuses and ("column", 1, 7) in bonuses
    assert game.is_over() and game.generate_legal_moves() == []
    with pytest.raises(InvalidRefillError):
        game.push(Refill(((B,) * 4,) * 5))


def test_colour_bonus_for_all_five_of_a_colour():
    game = Game(2)
    # All five blue: blue sits at column r in row r; leave row 5's blue to be tiled.
    with_wall(game, 0, [(r, r) for r in range(4)] + [(4, c) for c in range(4)])
    refill(game, (B, Y, R, K))
    board = game.boards[0]
    board.line_colors[4], board.line_counts[4] = B, 4
    game.bag[B] -= 4
    board._refresh_line(4)
    game.push(Take(1, B, 5))
    empty_table(game)
    kinds = {(i.kind, i.index) for i in game.scoring if isinstance(i, BonusScore) and i.player == 0}
    assert ("color", B) in kinds and ("row", 5) in kinds
    assert ("column", 5) not in kinds, "column 5 is not complete"


def test_highest_score_wins():
    game = Game(2)
    with_wall(game, 0, [(0, c) for c in range(4)])
    game.boards[1].score = 40
    refill(game, (W, B, Y, R))
    game.push(Take(1, W, 1))
    empty_table(game)
    outcome = game.outcome()
    assert outcome.winners == (1,) and not outcome.tie_broken_by_rows


def test_a_tie_on_points_goes_to_most_complete_rows():
    game = Game(2)
    with_wall(game, 0, [(0, c) for c in range(4)])
    refill(game, (W, B, Y, R))
    game.push(Take(1, W, 1))
    empty_table(game)
    assert game.phase == OVER
    game.boards[1].score = game.boards[0].score  # same points, no complete row
    outcome = game.outcome()
    assert outcome.winners == (0,) and outcome.tie_broken_by_rows and not outcome.shared


def test_a_tie_on_points_and_rows_is_a_shared_victory():
    game = Game(3)
    for seat in (0, 1):
        with_wall(game, seat, [(0, c) for c in range(4)])
    refill(game, (W, B, Y, R), (W, B, Y, K))
    game.push(Take(1, W, 1))
    game.push(Take(2, W, 1))
    empty_table(game)
    assert game.phase == OVER
    scores = [b.score for b in game.boards]
    assert scores[0] == scores[1] > scores[2]
    outcome = game.outcome()
    assert outcome.winners == (0, 1) and outcome.shared


# --- grey wall -----------------------------------------------------------------------


def _grey_with_complete_line(row: int, color: int) -> Game:
    game = Game(2, "grey")
    refill(game, (color,) * (row + 1) + tuple(c for c in (B, Y, R, K) if c != color)[: 3 - row])
    return game


def test_grey_wall_player_chooses_the_column_and_scores_it():
    game = Game(2, "grey")
    refill(game, (R, R, B, Y))
    game.push(Take(1, R, 2))
    empty_table(game)
    assert game.phase == TILING
    assert game.pending_placements() == [(0, 1)]
    assert set(game.generate_legal_moves()) == {Place(0, 2, c) for c in range(1, 6)}
    game.push(Place(0, 2, 4))
    board = game.boards[0]
    assert board.wall[1 * 5 + 3] == R and board.score >= 0
    assert game.phase == REFILL
    assert next(i for i in game.scoring if isinstance(i, TileScore)).column == 4


def test_grey_wall_column_already_holding_the_colour_sends_the_whole_line_to_the_floor():
    game = Game(2, "grey")
    board = game.boards[0]
    board.wall[0 * 5 + 2] = R
    board.row_colors[0] |= 1 << R
    board.col_colors[2] |= 1 << R
    game.bag[R] -= 1
    board._refresh_line(0)
    refill(game, (R, R, R, B))
    game.push(Take(1, R, 3))
    empty_table(game)
    floor_before = len(game.boards[0].floor)
    game.push(Place(0, 3, 3))  # column 3 already has red (row 1)
    assert game.boards[0].wall[2 * 5 + 2] == -1
    assert any(isinstance(i, LineToFloor) for i in game.scoring)
    (floor,) = [i for i in game.scoring if isinstance(i, FloorScore) and i.player == 0]
    assert floor.places == min(7, floor_before + 3)


def test_grey_wall_taken_cell_and_out_of_order_lines_are_refused():
    game = Game(2, "grey")
    board = game.boards[0]
    board.wall[1 * 5 + 0] = B
    board.row_colors[1] |= 1 << B
    board.col_colors[0] |= 1 << B
    game.bag[B] -= 1
    refill(game, (R, Y, Y, K), (K, K, W, W))
    game.push(Take(1, R, 1))
    game.push(Take(2, W, FLOOR))
    game.push(Take(CENTER, Y, 2))
    empty_table(game)
    assert game.phase == TILING
    with pytest.raises(IllegalMoveError, match="must place pattern line 1 first"):
        game.push(Place(0, 2, 2))
    game.push(Place(0, 1, 1))
    with pytest.raises(IllegalMoveError, match="row 2, column 1 is taken"):
        game.push(Place(0, 2, 1))
    with pytest.raises(IllegalMoveError, match="no tiles may be taken now"):
        game.push(Take(1, R, 1))


def test_grey_wall_row_holding_the_colour_refuses_the_line():
    game = Game(2, "grey")
    board = game.boards[0]
    board.wall[3 * 5 + 4] = K
    board.row_colors[3] |= 1 << K
    board.col_colors[4] |= 1 << K
    game.bag[K] -= 1
    board._refresh_line(3)
    refill(game, (K, K, B, Y))
    with pytest.raises(IllegalMoveError, match="wall row 4 already has black"):
        game.push(Take(1, K, 4))


def test_coloured_wall_takes_no_place_events():
    game = Game(2)
    refill(game, (R, R, B, Y))
    with pytest.raises(IllegalMoveError, match="no tile may be placed"):
        game.push(Place(0, 1, 1))


# --- state: copy, JSON, notation -------------------------------------------------------


def test_copy_is_independent():
    game = Game(2)
    refill(game, (R, R, B, Y))
    clone = game.copy()
    clone.push(Take(1, R, 2))
    assert game.factories[0] == {R: 2, B: 1, Y: 1} and game.boards[0].line_counts[1] == 0
    assert clone != game


def test_state_round_trips_through_json():
    import json

    game = Game(3, "grey")
    refill(game, (R, R, B, Y))
    game.push(Take(1, R, 2))
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again == game
    assert again.generate_legal_moves() == game.generate_legal_moves()


@pytest.mark.parametrize("text", ["3r2", "cbf", "9w5", "1k1"])
def test_take_notation_round_trips(text):
    assert Take.parse(text).notation() == text


@pytest.mark.parametrize("text", ["", "3x2", "0r2", "3r6", "cr", "3r2x"])
def test_bad_take_notation_is_refused(text):
    with pytest.raises(ValueError, match="not a take"):
        Take.parse(text)


def test_place_notation_round_trips():
    assert Place.parse("p1:2@4") == Place(1, 2, 4)
    assert str(Place(1, 2, 4)) == "p1:2@4"


def test_player_board_json_keeps_the_targets():
    board = PlayerBoard()
    board.line_colors[2], board.line_counts[2] = R, 1
    board._refresh_line(2)
    again = PlayerBoard.from_dict(board.to_dict())
    assert again.targets == board.targets
    assert not again.targets[B] >> 2 & 1 and again.targets[R] >> 2 & 1


def test_preview_shows_the_last_take_before_wall_tiling():
    game = Game(2)
    deal(game, (R, R, B, B))
    first = game.preview(Take(1, R, 2))
    assert first.boards[0].line_counts[1] == 2 and first.center == {B: 2}
    assert game.factories[0] == {R: 2, B: 2}, "the game itself is untouched"
    game.push(Take(1, R, 2))
    last = Take(CENTER, B, 2)  # seat 1 empties the table: drafting ends
    shown = game.preview(last)
    assert shown.boards[1].line_counts[1] == 2 and shown.boards[1].floor == [MARKER]
    assert shown.boards[0].line_counts[1] == 2 and shown.boards[0].wall == [-1] * 25
    game.push(last)
    assert game.phase == REFILL and game.boards[0].line_counts[1] == 0
    assert game.boards[0].wall[1 * 5 + wall_column(R, 1)] == R
    with pytest.raises(IllegalMoveError):
        game.preview(last)
