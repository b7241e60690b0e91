"""The simulated table: true observations numbered as observation.md says, and the noisy camera."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.rules.azul import Game
from companion.sim import object_noise
from companion.sim.noise import LEVELS, confused_with, game_stream
from companion.sim.table import random_layout, table_observation
from companion.tracking.frame import read_frame
from companion.tracking.layout import TableLayout


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_layout_follows_the_seat_and_factory_rules(players: int, seed: int) -> None:
    layout = random_layout(players, random.Random(seed))
    # Seat 0 and factory 1 are nearest the bottom edge of the image.
    assert layout.boards[0][1] == max(y for _x, y, _r in layout.boards)
    assert layout.factories[0][1] == max(y for _x, y in layout.factories)
    # A tracker numbering the boards and discs from scratch finds the same order.
    game = Game(players)
    game.push(game.draw_refill(random.Random(seed)))
    obs = table_observation(game, layout=layout)
    shuffled = dict(obs, boards=obs["boards"][::-1], factories=obs["factories"][::-1])
    tracking = TableLayout(players, len(game.factories))
    boards, factories = tracking.assign(read_frame(shuffled))
    assert [b.center for b in boards] == [tuple(b["center"]) for b in obs["boards"]]
    assert [f.center for f in factories] == [tuple(f["center"]) for f in obs["factories"]]


def test_true_observation_reads_back_as_the_engine_state() -> None:
    game = Game(3, "grey")
    game.push(game.draw_refill(random.Random(1)))
    game.push(game.generate_legal_moves()[0])
    frame = read_frame(table_observation(game, seed_layout=5))
    assert [f.counts for f in frame.factories] == [
        tuple(f.get(c, 0) for c in range(5)) for f in game.factories]
    assert frame.center.counts == tuple(game.center.get(c, 0) for c in range(5))
    mover = frame.boards[0]
    assert [count for _color, count in mover.lines] == game.boards[0].line_counts


def test_noisy_stream_shows_every_still_state_in_three_clear_frames() -> None:
    played = game_stream(2, "colored", 7, LEVELS["5%"])
    assert played.lines[0] == {"setup": {"game": "azul", "variant": "colored", "players": ["Ann", "Bo"]}}
    run = 0
    runs = []
    last = None
    for line, shown in zip(played.lines[1:], played.shown[1:], strict=True):
        if "answer" in line:
            continue
        obs = line["observation"]
        if obs["occluded"]:
            continue
        run = run + 1 if shown == last else 1
        last = shown
        runs.append(run)
    assert max(runs) >= 3
    assert played.game.is_over()
    # The noise really is there: some frames differ from each other within a still state.
    frames = [line["observation"] for line in played.lines if "observation" in line]
    assert any(a["boards"] != b["boards"] for a, b in itertools.pairwise(frames))


def test_misreads_prefer_the_colours_real_vision_confuses() -> None:
    rng = random.Random(3)
    reds = [confused_with("red", rng) for _i in range(2000)]
    whites = [confused_with("white", rng, marker=True) for _i in range(2000)]
    assert reds.count("yellow") > 0.5 * len(reds)
    assert whites.count("blue") + whites.count("marker") > 0.6 * len(whites)
    assert "marker" not in {confused_with("white", rng) for _i in range(200)}


@pytest.mark.parametrize("level", ["2%", "5%"])
def test_object_noise_is_another_model_and_keeps_the_promises(level: str) -> None:
    played = game_stream(3, "grey", 2, object_noise.LEVELS[level])
    assert played.game.is_over()
    first_frames: dict[int, list[dict]] = {}
    for line, shown in zip(played.lines[1:], played.shown[1:], strict=True):
        if "observation" in line:
            first_frames.setdefault(shown, []).append(line["observation"])
    for frames in first_frames.values():
        assert len(frames) >= 3
        # The first 3 frames of every still state show every board and disc.
        assert all(len(f["boards"]) == 3 and len(f["factories"]) == 7 for f in frames[:3])
        assert not any(f["occluded"] for f in frames)
    # Its misreads last the whole still state, object by object.
    game = Game(3)
    game.push(game.draw_refill(random.Random(1)))
    true = table_observation(game, seed_layout=1)
    model = object_noise.ObjectNoise(rate=0.3, lasting=1.0, bleed=0.0)
    frames = model.still(true, None, random.Random(4))
    tiles = [[sorted(f["tiles"]) for f in frame["factories"]] for frame in frames[:3]]
    assert tiles[0] == tiles[1] == tiles[2]
    assert tiles[0] != [sorted(f["tiles"]) for f in true["factories"]]
