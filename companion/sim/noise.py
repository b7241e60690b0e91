"""A noisy camera: turns true observations into what a real recogniser would report.

Two structurally different models share one protocol (:class:`Camera`: the frames of
one still state, given the true observation and the one before it), so a tracker tuned
on one can be checked on the other:

- :class:`NoiseModel` (here) errs cell by cell: each tile or place is misread on its own,
  mostly in the colour pairs real vision confuses (real-table.md: white and the
  first-player marker, white and blue, red and yellow, black and blue in shadow),
  left unread ("unknown", count ``null``), a share of misreads lasting as long as the
  table stays still (glare); frames are dropped or duplicated, positions jitter, a board
  or disc is now and then missed for a frame, a hand covers part of the table between
  still states (occluded frames) or, unflagged, a board for a frame; the refill is laid
  out factory by factory and one refill tile may be misread while it is on view;
- :class:`companion.sim.object_noise.ObjectNoise` errs object by object (see there).

Every still state is still seen in at least 3 consecutive non-occluded frames, as
observation.md promises. :func:`game_stream` plays a whole game with bots and returns
the offline tracking stream (``setup``, ``observation`` and ``answer`` lines) with the
true record.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from companion.bots import GreedyBot
from companion.rules.azul import COLORS, OVER, REFILL, Game, Place, Refill, Take
from companion.rules.azul_record import Record, apply_event, event_to_json
from companion.sim.table import SeatLayout, partly_filled, random_layout, still_states, table_observation

# Colours a camera mixes up (real-table.md), with how much likelier each partner is.
CONFUSED = {"red": {"yellow": 6}, "yellow": {"red": 6}, "white": {"blue": 4, "marker": 5},
            "blue": {"white": 4, "black": 3}, "black": {"blue": 3}, "marker": {"white": 6}}
MAX_ROUNDS = 30


class Camera(Protocol):
    """An observation model: the frames a recogniser reports while the table stays still."""

    partial_refill: float  # chance the factories are seen half filled before a refill
    refill_misread: float  # chance per round that one refill tile is misread while on view

    def still(self, true: dict, previous: dict | None, rng: random.Random) -> list[dict]: ...


@dataclass(frozen=True)
class NoiseModel:
    misread: float = 0.02  # chance a tile or place is read wrong, per frame
    unknown: float = 0.01  # chance a place is reported unknown, per frame
    count_null: float = 0.02  # chance a pattern line's count is reported null
    sticky: float = 0.1  # share of the misreads that last as long as the table stays still
    hand: float = 0.4  # chance a hand covers the table (occluded frames) before a still state
    drop: float = 0.3  # chance each frame beyond the first 3 of a still state is dropped
    duplicate: float = 0.05  # chance a frame is delivered twice
    missed: float = 0.01  # chance a board or disc is missing from a frame
    unflagged_hand: float = 0.03  # chance a frame beyond the first 3 has a board under a hand, unflagged
    refill_misread: float = 0.1  # chance per round that one refill tile is misread while on view
    partial_refill: float = 0.3  # chance the factories are seen half filled before the refill
    jitter: float = 4.0  # pixels of position noise
    frames: tuple[int, int] = (3, 6)  # frames a still state stays on view

    def still(self, true: dict, previous: dict | None, rng: random.Random) -> list[dict]:
        return list(still_frames(true, self, rng))


LEVELS = {
    "0.5%": NoiseModel(misread=0.005, unknown=0.005, count_null=0.01),
    "2%": NoiseModel(misread=0.02, unknown=0.01, count_null=0.02),
    "5%": NoiseModel(misread=0.05, unknown=0.02, count_null=0.04),
}


def confused_with(name: str, rng: random.Random, marker: bool = False) -> str:
    """A colour ``name`` is misread as: a confusable partner most of the time."""
    weights = {c: 1.0 for c in COLORS if c != name}
    for partner, weight in CONFUSED.get(name, {}).items():
        if partner != "marker" or marker:
            weights[partner] = float(weight)
    if name == "marker":
        weights = {"white": 6.0, "blue": 1.0}
    names = list(weights)
    return rng.choices(names, [weights[n] for n in names])[0]


def _misread(name: str | None, rng: random.Random, marker: bool = False) -> str | None:
    if name is None:
        return rng.choice(COLORS)  # a printed cell or a shadow read as a tile
    if rng.random() < 0.15:
        return None  # a tile missed
    return confused_with(name, rng, marker)


class _Reader:
    """Applies misreads to one observation at a given rate, with its own random source."""

    def __init__(self, model: NoiseModel, rng: random.Random, rate: float, unknowns: bool) -> None:
        self.model = model
        self.rng = rng
        self.rate = rate
        self.unknowns = unknowns

    def cell(self, name: str | None, marker: bool = False) -> str | None:
        rng = self.rng
        if self.unknowns and rng.random() < self.model.unknown:
            return "unknown"
        # Empty places are misread less often than tiles.
        if rng.random() < (self.rate if name is not None else self.rate / 3):
            return _misread(name, rng, marker)
        return name

    def board(self, board: dict) -> None:
        rng = self.rng
        lines = []
        for k, line in enumerate(board["lines"], 1):
            color, count = line["color"], line["count"]
            if count is not None and rng.random() < self.rate:
                count = max(0, min(k, count + rng.choice((-1, 1))))
            if self.unknowns and rng.random() < self.model.count_null:
                count = None
            if color is not None or rng.random() < 0.2:
                color = self.cell(color)
                if color is None and count:
                    color = "unknown"
            if color is None and count:
                count = 0 if rng.random() < 0.5 else count
            lines.append({"color": color, "count": count})
        board["lines"] = lines
        board["floor"] = [self.cell(v, marker=True) for v in board["floor"]]
        board["wall"] = [[self.cell(v) for v in row] for row in board["wall"]]

    def factory(self, factory: dict) -> None:
        tiles = []
        for name in factory["tiles"]:
            read = self.cell(name)
            if read == "unknown":
                factory["unknown"] += 1
            elif read is not None:
                tiles.append(read)
        factory["tiles"] = tiles

    def center(self, center: dict) -> None:
        tiles: dict[str, int] = {}
        for name, n in center["tiles"].items():
            for _i in range(n):
                read = self.cell(name)
                if read == "unknown":
                    center["unknown"] += 1
                elif read is not None:
                    tiles[read] = tiles.get(read, 0) + 1
        if self.rng.random() < self.rate / 3:
            extra = self.rng.choice(COLORS)
            tiles[extra] = tiles.get(extra, 0) + 1
        center["tiles"] = tiles
        if self.rng.random() < self.rate:
            center["marker"] = not center["marker"]

    def observation(self, obs: dict) -> None:
        for board in obs["boards"]:
            self.board(board)
        for factory in obs["factories"]:
            self.factory(factory)
        self.center(obs["center"])


def noisy_frame(true: dict, model: NoiseModel, rng: random.Random, state_seed: int,
                extras: bool = False) -> dict:
    """One frame of a still table: lasting misreads (seeded by the state) and passing ones.

    ``extras`` allows the rarer glitches (a missed board or disc, a board under a hand).
    """
    obs = copy.deepcopy(true)
    _Reader(model, random.Random(state_seed), model.misread * model.sticky, False).observation(obs)
    _Reader(model, rng, model.misread * (1 - model.sticky), True).observation(obs)
    for part in (*obs["boards"], *obs["factories"]):
        # Now and then the detector finds an object's centre a good way off.
        spread = model.jitter * (5 if rng.random() < 0.02 else 1)
        part["center"] = [part["center"][0] + rng.gauss(0, spread),
                          part["center"][1] + rng.gauss(0, spread)]
        part["confidence"] = round(rng.uniform(0.8, 1.0), 3)
    if extras:
        if obs["boards"] and rng.random() < model.unflagged_hand:
            board = rng.choice(obs["boards"])
            board["lines"] = [{"color": "unknown", "count": None} for _k in range(5)]
            board["floor"] = ["unknown"] * len(board["floor"])
        obs["boards"] = [b for b in obs["boards"] if rng.random() >= model.missed]
        obs["factories"] = [f for f in obs["factories"] if rng.random() >= model.missed]
    rng.shuffle(obs["boards"])
    rng.shuffle(obs["factories"])
    return obs


def hand_frame(true: dict, rng: random.Random) -> dict:
    """A frame with a hand over the table: flagged occluded, part of it unreadable or missing."""
    obs = copy.deepcopy(true)
    obs["occluded"] = True
    if obs["boards"] and rng.random() < 0.5:
        obs["boards"].pop(rng.randrange(len(obs["boards"])))
    for factory in obs["factories"]:
        if rng.random() < 0.3:
            factory["unknown"] += len(factory["tiles"])
            factory["tiles"] = []
    return obs


def still_frames(true: dict, model: NoiseModel, rng: random.Random) -> Iterator[dict]:
    """The frames of one still state: a hand may pass first; at least 3 frames stay."""
    if rng.random() < model.hand:
        for _i in range(rng.randint(1, 3)):
            yield hand_frame(true, rng)
    state_seed = rng.randrange(1 << 30)
    count = rng.randint(*model.frames)
    kept = 3 + sum(1 for _i in range(count - 3) if rng.random() >= model.drop)
    for i in range(kept):
        # The first 3 frames show every object, as observation.md promises; later ones may not.
        frame = noisy_frame(true, model, rng, state_seed, extras=i >= 3)
        yield frame
        if rng.random() < model.duplicate:
            yield copy.deepcopy(frame)


def _misread_refill(true: dict, rng: random.Random) -> dict:
    obs = copy.deepcopy(true)
    full = [f for f in obs["factories"] if f["tiles"]]
    if full:
        factory = rng.choice(full)
        k = rng.randrange(len(factory["tiles"]))
        name = factory["tiles"][k]
        factory["tiles"][k] = confused_with(name, rng)
    return obs


@dataclass
class Played:
    """A simulated game: its stream lines, the true record and the final state."""

    lines: list[dict]
    shown: list[int]  # per line: how many of the record's events the table has shown by then
    record: Record
    game: Game
    layout: SeatLayout


def game_stream(players: int, variant: str, seed: int, model: Camera | None = None) -> Played:
    """Bots play a whole game; a noisy camera watches. ``model`` None gives perfect frames."""
    rng = random.Random(seed)
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    layout = random_layout(players, rng)
    game = Game(players, variant)
    record = Record(names, variant)
    bot = GreedyBot(rng)
    lines: list[dict] = [{"setup": {"game": "azul", "variant": variant, "players": names}}]
    shown: list[int] = [0]

    previous: list[dict | None] = [None]

    def show(state: Game, done: bool = True, misread_refill: bool = False) -> None:
        true = table_observation(state, layout=layout)
        if misread_refill:
            true = _misread_refill(true, rng)
        if model is None:
            lines.extend({"observation": true} for _i in range(3))
        else:
            lines.extend({"observation": frame} for frame in model.still(true, previous[0], rng))
        previous[0] = true
        shown.extend([len(record.events) + done] * (len(lines) - len(shown)))

    show(game, done=False)
    while game.phase != OVER and game.round < MAX_ROUNDS:
        if game.phase == REFILL:
            event: Refill | Take | Place = game.draw_refill(rng)
            player = None
        else:
            event = bot.choose(game)
            player = game.turn if isinstance(event, Take) else event.player  # type: ignore[union-attr]
        states = still_states(game, event)
        if isinstance(event, Refill) and model is not None:
            if rng.random() < model.partial_refill and len(event.factories) > 1:
                show(partly_filled(game, event, rng.randrange(1, len(event.factories))), done=False)
            show(states[0], misread_refill=rng.random() < model.refill_misread)
        else:
            show(states[0])
        if not isinstance(event, Refill):
            lines.append({"answer": event_to_json(event, player)})
            shown.append(len(record.events) + 1)
        for state in states[1:]:
            show(state)
        apply_event(game, event, player)
        record.append(event, player)
    return Played(lines, shown, record, game, layout)
