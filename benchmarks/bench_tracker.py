"""How well the tracker follows whole games through a noisy camera.

Bots play 2-, 3- and 4-player games on both walls; an observation model turns each true
table into noisy frames, fed through the same Tracker API the app uses. Two structurally
different models (see companion.sim.noise): "cells" (per-cell misreads, mostly passing)
and "objects" (per-object misreads lasting a still state, lagging and bleeding
readings), so that a tracker tuned on one is checked on the other. A truthful scripted
player answers the prompts (Next until the true event is highlighted, then Confirm; "none of
these" and the true event from the list when it is not offered, or when the tracker says it
is stuck) and holds Undo when a move was accepted wrongly.

    ./dev run python benchmarks/bench_tracker.py --games 500 --level 2% --model cells --jobs 2
    ./dev run python benchmarks/bench_tracker.py --games 100 --level 2% --offline   # through `track`
    ./dev run python benchmarks/bench_tracker.py --e2e 20 --jobs 2   # renderer + real recogniser

Reported per model and noise level: games whose final scores equal the truth,
confirmations per game, moves (takes and placements) accepted wrongly without asking
per 1,000 moves (--offline: moves wrong in the final record), and the tracker's time per
observation.

--e2e N plays N whole games end to end instead: every still state of the table is drawn
by the synthetic renderer (vision.synth.render_table, a frame with a hand over the table
then 3 without, 1280x720, the camera over the table from seat 0's side) and read back by
the real recogniser (vision.recognize.recognize); the tracker gets what it reports. It prints a
line per game as it goes (rendering and recognising cost about 0.4 s a frame), then the
same measures, with frames and time. Nothing here imports vision otherwise. With
--cache DIR each game's recognised stream is kept and read back by later runs, so that
judging a tracker change end to end takes seconds, not minutes ("frames" then counts the
ones rendered in this run).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import pickle
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from pathlib import Path

from companion.commands.track import track
from companion.rules.azul import Place, Refill
from companion.rules.azul_record import Record, replay
from companion.rules.errors import RulesError
from companion.sim import noise, object_noise
from companion.sim.noise import Camera, Played, game_stream
from companion.tracker import Accepted, Prompt, Tracker, Warning

MODELS = {"cells": noise.LEVELS, "objects": object_noise.LEVELS}


@dataclass
class Tally:
    games: int = 0
    exact: int = 0
    asked: int = 0
    moves: int = 0
    wrong_auto: int = 0
    wrong_refills: int = 0
    unanswered: int = 0
    observations: int = 0
    seconds: float = 0.0
    failed: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("games", "exact", "asked", "moves", "wrong_auto", "wrong_refills", "unanswered",
                     "observations", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failed += other.failed


def _canonical(event):
    if isinstance(event, Refill):
        return Refill(tuple(tuple(sorted(f)) for f in event.factories))
    return event


def same_outcome(tracker: Tracker, index: int, event, true) -> bool:
    """Whether the accepted event is the true one, or leaves the same boards (two columns that
    both break the Sudoku rule send a line to the floor alike: no camera can tell them apart)."""
    if event == true:
        return True
    if not (isinstance(event, Place) and isinstance(true, Place)):
        return False
    before = replay(Record(list(tracker.record.players), tracker.record.variant,
                           tracker.record.events[:index], tracker.record.movers[:index]))
    mine, theirs = before.copy(), before.copy()
    try:
        mine.push(event)
        theirs.push(true)
    except RulesError:
        return False
    return [b.to_dict() for b in mine.boards] == [b.to_dict() for b in theirs.boards]


def reorder(truth: list, index: int, event) -> None:
    """Placements of different players may come in any order (game-record.md): when ``event``
    is a later true placement of another player than those before it, move it to ``index``."""
    if not isinstance(event, Place):
        return
    for later in range(index, len(truth)):
        true = truth[later]
        if not isinstance(true, Place) or (later > index and true.player == event.player and true != event):
            return
        if true == event:
            truth.insert(index, truth.pop(later))
            return


def play_one(players: int, variant: str, seed: int, model: Camera | None, tally: Tally, *,
             played: Played | None = None) -> None:
    if played is None:
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
                reorder(truth, index, result.event)
                if index < len(truth) and not same_outcome(tracker, index, result.event, truth[index]):
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
                    # None of these: the person picks the true event from the list of legal ones.
                    tally.unanswered += 1
                    position[0] = index
                    handle(tracker.enter(truth[index]))
                    return
            elif isinstance(result, Warning) and result.code == "stalled":
                index = len(tracker.record.events)
                if index < shown[0]:
                    tally.unanswered += 1  # "Enter the move" on the warning
                    position[0] = index
                    handle(tracker.enter(truth[index]))
                    return

    start = time.perf_counter()
    for line, on_table in zip(played.lines[1:], played.shown[1:], strict=True):
        shown[0] = on_table
        if "observation" in line:
            tally.observations += 1
            handle(tracker.observe(line["observation"]))
    tally.seconds += time.perf_counter() - start
    tally.games += 1
    tally.asked += tracker.asked
    tally.moves += sum(1 for e in truth if not isinstance(e, Refill))
    if [b.score for b in tracker.game.boards] == [b.score for b in played.game.boards] \
            and tracker.game.phase == played.game.phase:
        tally.exact += 1
    else:
        tally.failed.append(seed)


def play_offline(players: int, variant: str, seed: int, model: Camera, tally: Tally) -> None:
    """The game's offline stream through `azul-companion track`: answers come from the stream,
    nobody undoes, refills are never asked about. Wrong moves are counted in the final record."""
    played = game_stream(players, variant, seed, model)
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        tracker, summary = track([json.dumps(line) for line in played.lines], Path(directory) / "out.json")
        tally.seconds += time.perf_counter() - start
    tally.observations += sum(1 for line in played.lines if "observation" in line)
    truth = [_canonical(e) for e in played.record.events]
    tally.games += 1
    tally.asked += summary["asked"]
    tally.moves += sum(1 for e in truth if not isinstance(e, Refill))
    mine = tracker.record.events
    for index, event in enumerate(mine):
        reorder(truth, index, event)
    for index, (event, true) in enumerate(zip(mine, truth, strict=False)):
        if not isinstance(true, Refill) and not same_outcome(tracker, index, event, true):
            tally.wrong_auto += 1
    scores = [b.score for b in played.game.boards]
    if summary["scores"] == scores and summary["over"] == played.game.is_over():
        tally.exact += 1
    else:
        tally.failed.append(seed)


class RenderedCamera:
    """The renderer draws each still state; the real recogniser reads it (see --e2e).

    Seats and factories are laid out the way observation.md numbers them (seat 0 at the
    bottom of the picture, boards and factories clockwise), so the tracker's numbers are
    the game's. Each still state is first seen with a hand over the table (the move being
    made), then in ``frames`` frames without; whether the hand is seen, dropped frames and
    misread refills come from the recogniser alone.
    """

    partial_refill = 0.0
    refill_misread = 0.0

    def __init__(self, players: int, seed: int, frames: int = 3, size: tuple[int, int] = (1280, 720)) -> None:
        import numpy as np  # noqa: PLC0415 (only the end-to-end run needs numpy and vision)

        from companion.rules.azul import FACTORIES  # noqa: PLC0415
        from companion.tracking.layout import clockwise_order  # noqa: PLC0415
        from vision.synth import Conditions, Layout  # noqa: PLC0415

        self.players = players
        self.frames = frames
        self.rng = np.random.default_rng(seed)
        drawn = Layout.around_table(players, FACTORIES[players], self.rng)
        # Table millimetres: x east, y south; seen from the south side, y grows down the picture.
        order = clockwise_order(list(drawn.factories), drawn.center)
        layout = Layout(drawn.boards, tuple(drawn.factories[i] for i in order), drawn.center,
                        drawn.center_radius)
        self.conditions = Conditions(width=size[0], height=size[1], layout=layout)
        self.rendered = 0
        self.render_seconds = 0.0

    def still(self, true: dict, previous: dict | None, rng: random.Random) -> list[dict]:
        from vision.recognize import recognize  # noqa: PLC0415
        from vision.synth import BoardContent, TableContent, render_table  # noqa: PLC0415

        content = TableContent(
            tuple(BoardContent(side=b["side"], lines=tuple((ln["color"], ln["count"]) for ln in b["lines"]),
                               floor=tuple(b["floor"]), wall=tuple(tuple(row) for row in b["wall"]))
                  for b in true["boards"]),
            tuple(tuple(f["tiles"]) for f in true["factories"]),
            dict(true["center"]["tiles"]), true["center"]["marker"])
        frames = []
        start = time.perf_counter()
        for hand in (True, *[False] * self.frames):
            image, _truth = render_table(content, replace(self.conditions, hand=hand), self.rng)
            frames.append(recognize(image, self.players))
        self.render_seconds += time.perf_counter() - start
        self.rendered += len(frames)
        return frames


def _fingerprint() -> str:
    """A hash of everything that makes an end-to-end stream: renderer, recogniser, simulator
    and the camera that draws each still state (the Azul Kids recogniser, vision/kids, plays
    no part in it)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    files = (*root.glob("vision/**/*.py"), *root.glob("vision/**/*.json"),
             *root.glob("companion/sim/*.py"), *root.glob("companion/rules/*.py"))
    for path in sorted(p for p in files if "kids" not in p.relative_to(root).parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(inspect.getsource(RenderedCamera).encode())  # how each still state is drawn
    return digest.hexdigest()[:16]


def _e2e_game(job: tuple[int, str, Path | None]) -> tuple[int, int, Tally, int, float]:
    """One end-to-end game; ``job`` is (seed, variant, where its stream is kept or None)."""
    seed, variant, stored = job
    players = (2, 3, 4)[seed % 3]
    camera = RenderedCamera(players, seed)
    tally = Tally()
    start = time.perf_counter()
    played = None
    if stored is not None and stored.exists():
        played = pickle.loads(stored.read_bytes())
    elif stored is not None:
        played = game_stream(players, variant, seed, camera)
        stored.parent.mkdir(parents=True, exist_ok=True)
        partial = stored.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(played))
        partial.replace(stored)
    play_one(players, variant, seed, camera, tally, played=played)
    return seed, players, tally, camera.rendered, time.perf_counter() - start


def run_e2e(games: int, first: int, variant: str, jobs: int, cache: str | None = None) -> None:
    total = Tally()
    frames = 0
    start = time.perf_counter()
    variants = [variant if variant != "both" else ("colored", "grey")[k // 3 % 2] for k in range(games)]
    key = _fingerprint() if cache else None
    stored = [Path(cache) / f"e2e-{first + k}-{variants[k]}-{key}.pickle" if cache else None
              for k in range(games)]
    with Pool(jobs) as pool:
        for seed, players, tally, rendered, seconds in pool.imap_unordered(
                _e2e_game, [(first + k, variants[k], stored[k]) for k in range(games)]):
            total.add(tally)
            frames += rendered
            print(f"  game {seed} ({players} players): {'exact' if tally.exact else 'NOT exact'},"
                  f" asked {tally.asked}, wrong autos {tally.wrong_auto} of {tally.moves} moves,"
                  f" {rendered} frames, {seconds:.0f} s", flush=True)
    print(report("e2e", total), flush=True)
    print(f"e2e: {total.games} games, {frames} frames rendered and recognised,"
          f" {time.perf_counter() - start:.0f} s wall ({jobs} jobs)", flush=True)


def _game(job: tuple[str, str, str, int, bool]) -> Tally:
    model_name, level, variants, k, offline = job
    players = (2, 3, 4)[k % 3]
    variant = variants if variants != "both" else ("colored", "grey")[k // 3 % 2]
    tally = Tally()
    if offline:
        play_offline(players, variant, k, MODELS[model_name][level], tally)
    else:
        play_one(players, variant, k, MODELS[model_name][level], tally)
    return tally


def report(name: str, tally: Tally) -> str:
    return (f"{name}: {tally.games} games, exact {100 * tally.exact / tally.games:.1f}%,"
            f" asked {tally.asked / tally.games:.2f}/game,"
            f" wrong autos {1000 * tally.wrong_auto / max(1, tally.moves):.2f}/1000 moves"
            f" ({tally.wrong_auto} of {tally.moves}), wrong refills at first {tally.wrong_refills},"
            f" entered by hand {tally.unanswered},"
            f" {1000 * tally.seconds / max(1, tally.observations):.2f} ms/observation;"
            f" inexact seeds {sorted(tally.failed)[:12]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500,
                        help="games per noise level (spread over 2-4 players and both walls)")
    parser.add_argument("--level", action="append", choices=sorted(noise.LEVELS),
                        help="noise levels (default all)")
    parser.add_argument("--model", action="append", choices=sorted(MODELS),
                        help="observation models (default all)")
    parser.add_argument("--variant", default="both", choices=("colored", "grey", "both"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="games played side by side")
    parser.add_argument("--offline", action="store_true",
                        help="feed each game's stream to `azul-companion track` (answers from the stream)")
    parser.add_argument("--e2e", type=int, metavar="N",
                        help="play N whole games through the synthetic renderer and the real recogniser")
    parser.add_argument("--cache", metavar="DIR",
                        help="--e2e: keep each game's recognised frames in DIR and read them back on "
                             "later runs (keyed by a hash of vision/, companion/sim/ and the rules)")
    args = parser.parse_args()
    if args.e2e is not None:
        if args.e2e < 1:
            parser.error("--e2e needs at least 1 game")
        run_e2e(args.e2e, args.seed, args.variant, args.jobs, args.cache)
        return 0
    with Pool(args.jobs) as pool:
        for model_name in args.model or sorted(MODELS):
            for level in args.level or ["0.5%", "2%", "5%"]:
                tally = Tally()
                jobs = [(model_name, level, args.variant, args.seed + k, args.offline)
                        for k in range(args.games)]
                for result in pool.imap_unordered(_game, jobs, chunksize=4):
                    tally.add(result)
                mode = " offline" if args.offline else ""
                print(report(f"{model_name} {level}{mode}", tally), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
