"""The engine against an independent reference implementation written from the spec alone.

Records come from both sides (the reference's uniform random games, the engine's greedy
bots whose scores look like real games) and from mutations of them; both must give the
same summary, or both must refuse the record at the same event.
"""

from __future__ import annotations

import copy
import random

import pytest

from companion.bots import GreedyBot
from companion.rules import azul_record
from companion.rules.azul import OVER, REFILL, Game
from companion.rules.errors import RecordError
from tests.reference import azul_reference

VARIANTS = [(p, v) for p in (2, 3, 4) for v in ("colored", "grey")]


def engine_summary(data: dict) -> dict | tuple[str, int | None]:
    try:
        return azul_record.summary(azul_record.replay(azul_record.read_record(data)))
    except RecordError as error:
        return ("rejected", error.index)


def reference_summary(data: dict) -> dict | tuple[str, int | None]:
    try:
        return azul_reference.replay(data)
    except azul_reference.Rejected as error:
        return ("rejected", error.index)


def greedy_record(seed: int, players: int, variant: str) -> dict:
    rng = random.Random(seed)
    bot = GreedyBot(rng)
    game = Game(players, variant)
    record = azul_record.Record([f"P{i}" for i in range(players)], variant)
    while game.phase != OVER and game.round < 30:
        if game.phase == REFILL:
            event = game.draw_refill(rng)
            game.push(event)
            record.append(event)
            continue
        # Mostly greedy, sometimes random, so that odd positions come up too.
        move = bot.choose(game) if rng.random() < 0.85 else rng.choice(game.generate_legal_moves())
        seat = game.turn
        game.push(move)
        record.append(move, seat)
    return record.to_json()


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_reference_games_replay_to_the_same_summary(players, variant):
    for seed in range(120):
        data = azul_reference.random_record(seed * 7919 + players, players, variant)
        assert engine_summary(data) == reference_summary(data), f"seed {seed}"


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_greedy_games_replay_to_the_same_summary(players, variant):
    ended = 0
    for seed in range(60):
        data = greedy_record(seed * 104729 + players, players, variant)
        mine = engine_summary(data)
        assert mine == reference_summary(data), f"seed {seed}"
        ended += mine["over"]
        assert max(mine["scores"]) > 0
    assert ended >= 55, "greedy games mostly end, so end bonuses and tie-breaks get compared"


def mutate(data: dict, rng: random.Random) -> dict:
    """One small corruption of a record: a changed field, a dropped, swapped or repeated event."""
    data = copy.deepcopy(data)
    events = data["events"]
    i = rng.randrange(len(events))
    (kind, body), = events[i].items()
    choice = rng.randrange(6)
    if choice == 0:
        del events[i]
    elif choice == 1 and i + 1 < len(events):
        events[i], events[i + 1] = events[i + 1], events[i]
    elif choice == 2:
        events.insert(i, copy.deepcopy(events[i]))
    elif kind == "take":
        key = rng.choice(["player", "from", "color", "to"])
        body[key] = rng.choice({
            "player": [0, 1, 2, 3, 4, -1],
            "from": ["center", 1, 2, 3, 5, 7, 9, 10, 0],
            "color": ["blue", "yellow", "red", "black", "white", "green"],
            "to": [1, 2, 3, 4, 5, "floor", 0, 6],
        }[key])
    elif kind == "place":
        key = rng.choice(["player", "line", "column"])
        body[key] = rng.randrange(-1, 7)
    else:
        factory = rng.choice(body)
        colors = ["blue", "yellow", "red", "black", "white"]
        if factory and rng.random() < 0.7:
            factory[rng.randrange(len(factory))] = rng.choice(colors)
        else:
            factory.append(rng.choice(colors))
    return data


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_mutated_records_are_judged_alike(players, variant):
    rng = random.Random(players * 31 + len(variant))
    rejected = 0
    for seed in range(150):
        source = (greedy_record(seed, players, variant) if seed % 2
                  else azul_reference.random_record(seed, players, variant))
        data = mutate(source, rng)
        mine = engine_summary(data)
        assert mine == reference_summary(data), f"seed {seed}"
        rejected += isinstance(mine, tuple)
    assert rejected > 50, "most mutations break a rule, so refusals get compared"
