"""How well the tracker follows whole games through a noisy camera.

Bots play 2-, 3- and 4-player games; the observation model of companion.sim.noise turns
each true table into noisy frames (misread cells, unknown cells, null counts, hands,
dropped frames, a misread refill now and then), fed through the same Tracker API the
app uses. A truthful scripted player answers the prompts (Next until the true event is
highlighted, then Confirm) and holds Undo when a move was accepted wrongly.

    ./dev run python benchmarks/bench_tracker.py --games 500 --level 2%
    ./dev run python benchmarks/bench_tracker.py --e2e vision.pipeline:recognise_scene --games 20

Reported per noise level: games whose final scores equal the truth, confirmations per
game, moves (takes and placements) accepted wrongly without asking per 1,000 moves.

--e2e MODULE:FUNCTION replaces the observation model by a real pipeline: the function
gets the true observation (dict) and a seeded random.Random and returns the observation
the recogniser made of a rendered frame (render with vision.synth, recognise with the
vision recogniser). Nothing here imports vision otherwise.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from dataclasses import dataclass, field

from companion.rules.azul import Refill
from companion.rules.azul_record import Record
from companion.sim.noise import LEVELS, NoiseModel, game_stream
from companion.tracker import Accepted, Prompt, Tracker


@dataclass
class Tally:
    games: int = 0
    exact: int = 0
    asked: int = 0
    moves: int = 0
    wrong_auto: int = 0
    wrong_refills: int = 0
    unanswered: int = 0
    seconds: float = 0.0
    failed: list[int] = field(default_factory=list)


def _canonical(event):
    if isinstance(event, Refill):
        return Refill(tuple(tuple(sorted(f)) for f in event.factories))
    return event


def play_one(players: int, variant: str, seed: int, model: NoiseModel | None, tally: Tally,
             *, observe_hook=None) -> None:
    played = game_stream(players, variant, seed, model)
    truth = [_canonical(e) for e in played.record.events]
    tracker = Tracker(Record(list(played.record.players), variant))
    position = [0]  # events the scripted player has checked
    shown = [0]

    def handle(results: list) -> None:
        for result in results:
            if isinstance(result, Accepted):
                if result.revised:
                    continue
                index = position[0]
                position[0] += 1
                if index < len(truth) and result.event != truth[index]:
                    if isinstance(result.event, Refill):
                        tally.wrong_refills += 1  # nobody checks the draw; the tracker may revise it
                        continue
                    if result.auto:
                        tally.wrong_auto += 1
                    position[0] = len(tracker.record.events) - 1
                    handle(tracker.act("undo"))
                    return
            elif isinstance(result, Prompt):
                index = len(tracker.record.events)
                if index < shown[0] and truth[index] in result.candidates:
                    while tracker.prompt.candidates[tracker.prompt.selected] != truth[index]:
                        tracker.act("next")
                    position[0] = index
                    handle(tracker.act("confirm"))
                    return
                if index < shown[0]:
                    tally.unanswered += 1

    for line, on_table in zip(played.lines[1:], played.shown[1:], strict=True):
        shown[0] = on_table
        if "observation" in line:
            obs = line["observation"] if observe_hook is None else observe_hook(line["observation"], seed)
            handle(tracker.observe(obs))
    tally.games += 1
    tally.asked += tracker.asked
    tally.moves += sum(1 for e in truth if not isinstance(e, Refill))
    if [b.score for b in tracker.game.boards] == [b.score for b in played.game.boards] \
            and tracker.game.phase == played.game.phase:
        tally.exact += 1
    else:
        tally.failed.append(seed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500,
                        help="games per noise level (spread over 2-4 players)")
    parser.add_argument("--level", action="append", choices=sorted(LEVELS), help="noise levels (default all)")
    parser.add_argument("--variant", default="colored", choices=("colored", "grey"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--e2e", metavar="MODULE:FUNCTION", help="a renderer+recogniser pipeline to use")
    args = parser.parse_args()
    hook = None
    if args.e2e:
        module, _sep, name = args.e2e.partition(":")
        try:
            pipeline = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as error:
            print(f"bench_tracker: cannot load {args.e2e}: {error}", file=sys.stderr)
            return 2

        def hook(obs: dict, seed: int) -> dict:
            return pipeline(obs, random.Random(seed))

    levels = args.level or ["0.5%", "2%", "5%"]
    for level in levels:
        model = None if hook else LEVELS[level]
        tally = Tally()
        start = time.perf_counter()
        for k in range(args.games):
            players = (2, 3, 4)[k % 3]
            play_one(players, args.variant, args.seed + k, model, tally, observe_hook=hook)
        tally.seconds = time.perf_counter() - start
        name = "e2e" if hook else level
        print(f"{name}: {tally.games} games, exact {100 * tally.exact / tally.games:.1f}%,"
              f" asked {tally.asked / tally.games:.2f}/game,"
              f" wrong autos {1000 * tally.wrong_auto / max(1, tally.moves):.2f}/1000 moves"
              f" ({tally.wrong_auto} of {tally.moves}), wrong refills {tally.wrong_refills},"
              f" unanswerable prompts {tally.unanswered}, {tally.seconds:.0f}s;"
              f" inexact seeds {tally.failed[:10]}", flush=True)
        if hook:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
