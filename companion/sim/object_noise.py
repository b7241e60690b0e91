"""A second, structurally different noisy camera: errors object by object, state by state.

:class:`companion.sim.noise.NoiseModel` misreads cells one at a time, mostly for a
frame. This model errs the way a recogniser that works per object does:

- per still state, each object (board, factory disc, centre pile) may be misread as a
  whole for as long as the table stays still: a factory with one tile recoloured or
  missed, a pattern line counted one off or read in a confusable colour, a floor place
  misread, a colour of the centre pile counted one off, the marker missed;
- per frame, an object may show what it showed in the previous still state (the
  recogniser lags behind a hand that just moved tiles), a disc may pick up a tile of its
  neighbour (tiles lying near the rim), or an object may be missed;
- no occluded frames: hands show only as lagging and missed objects.

Its ``rate`` is comparable with the cell model's ``misread``: the chance an object is
misread is the chance that one of its places would be, and half of it lasts the whole
still state.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from companion.rules.azul import COLORS
from companion.sim.noise import confused_with


@dataclass(frozen=True)
class ObjectNoise:
    rate: float = 0.02  # comparable with a per-cell misread rate
    lasting: float = 0.5  # share of the object misreads that last the whole still state
    lag: float = 0.25  # chance an object in a state's first frame still shows the state before
    bleed: float = 0.01  # chance per frame a disc reads a tile of its neighbour too
    missed: float = 0.01  # chance an object is missing from a frame
    refill_misread: float = 0.0  # lasting object misreads already cover the refill
    partial_refill: float = 0.3
    frames: tuple[int, int] = (3, 6)

    def still(self, true: dict, previous: dict | None, rng: random.Random) -> list[dict]:
        lasting = copy.deepcopy(true)
        _Corrupter(rng, self.rate * self.lasting).observation(lasting)
        frames = []
        for i in range(rng.randint(*self.frames)):
            obs = copy.deepcopy(lasting)
            _Corrupter(rng, self.rate * (1 - self.lasting)).observation(obs)
            if i == 0 and previous is not None:
                self._lag(obs, previous, rng)
            self._bleed(obs, rng)
            if i >= 3:  # the first 3 frames show every object, as observation.md promises
                obs["boards"] = [b for b in obs["boards"] if rng.random() >= self.missed]
                obs["factories"] = [f for f in obs["factories"] if rng.random() >= self.missed]
            for part in (*obs["boards"], *obs["factories"]):
                part["center"] = [part["center"][0] + rng.gauss(0, 3), part["center"][1] + rng.gauss(0, 3)]
                part["confidence"] = round(rng.uniform(0.7, 1.0), 3)
            frames.append(obs)
        return frames

    def _lag(self, obs: dict, previous: dict, rng: random.Random) -> None:
        for key in ("boards", "factories"):
            for k, part in enumerate(obs[key]):
                if k < len(previous[key]) and rng.random() < self.lag:
                    old = copy.deepcopy(previous[key][k])
                    old["center"] = part["center"]
                    obs[key][k] = old
        if rng.random() < self.lag:
            obs["center"] = copy.deepcopy(previous["center"])

    def _bleed(self, obs: dict, rng: random.Random) -> None:
        discs = obs["factories"]
        for k, disc in enumerate(discs):
            neighbour = discs[(k + 1) % len(discs)]
            if neighbour["tiles"] and rng.random() < self.bleed:
                disc["tiles"] = [*disc["tiles"], rng.choice(neighbour["tiles"])]


class _Corrupter:
    """Misreads whole objects: each object is hit with the chance one of its places would be."""

    def __init__(self, rng: random.Random, rate: float) -> None:
        self.rng = rng
        self.rate = rate

    def _hit(self, places: int) -> bool:
        return self.rng.random() < 1 - (1 - self.rate) ** max(1, places)

    def observation(self, obs: dict) -> None:
        for board in obs["boards"]:
            self.board(board)
        for factory in obs["factories"]:
            self.factory(factory)
        self.center(obs["center"])

    def board(self, board: dict) -> None:
        rng = self.rng
        if not self._hit(12):
            return
        if rng.random() < 0.6:
            k = rng.randrange(5)
            line = board["lines"][k]
            if line["count"] and rng.random() < 0.5:
                line["color"] = confused_with(line["color"], rng)
            elif rng.random() < 0.3:
                line["count"] = None
            else:
                line["count"] = max(0, min(k + 1, (line["count"] or 0) + rng.choice((-1, 1))))
                if line["count"] and line["color"] is None:
                    line["color"] = rng.choice(COLORS)
        else:
            k = rng.randrange(len(board["floor"]))
            name = board["floor"][k]
            if name is None:
                board["floor"][k] = rng.choice(COLORS)
            else:
                board["floor"][k] = "unknown" if rng.random() < 0.2 else confused_with(name, rng, marker=True)

    def factory(self, factory: dict) -> None:
        rng = self.rng
        tiles = factory["tiles"]
        if not tiles or not self._hit(len(tiles)):
            return
        k = rng.randrange(len(tiles))
        roll = rng.random()
        if roll < 0.7:
            tiles[k] = confused_with(tiles[k], rng)
        elif roll < 0.85:
            tiles.pop(k)
        else:
            tiles.pop(k)
            factory["unknown"] += 1

    def center(self, center: dict) -> None:
        rng = self.rng
        pile = center["tiles"]
        if pile is None or not self._hit(max(1, sum(pile.values()))):
            return
        roll = rng.random()
        if roll < 0.15:
            center["marker"] = not center["marker"]
        elif pile and roll < 0.6:
            name = rng.choice(sorted(pile))
            pile[name] -= 1
            other = confused_with(name, rng)
            pile[other] = pile.get(other, 0) + 1
        elif pile:
            name = rng.choice(sorted(pile))
            pile[name] = max(0, pile[name] + rng.choice((-1, 1)))
        else:
            center["tiles"] = None  # the pile not read at all


LEVELS = {
    "0.5%": ObjectNoise(rate=0.005),
    "2%": ObjectNoise(rate=0.02),
    "5%": ObjectNoise(rate=0.05),
}
