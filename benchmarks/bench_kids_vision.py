"""Azul Kids recogniser accuracy and speed on synthetic frames with known truth.

    taskset -c 1 ./dev run python benchmarks/bench_kids_vision.py [--frames 500] [--seed 1]
        [--cache DIR] [--json] [--verbose]

Frames come from vision.synth.kids (every condition vision.synth supports: tilt 0-45
degrees, roll, light colour and falloff, glare, blur, noise, JPEG, wood/white tables,
clutter, hands; 2-4 players, apprentice and master example boards, mistakes included).
The recogniser is given every example board definition. Reported:
- per-cell accuracy: board fields whose truth is visible, read right (a board not found
  counts all its fields wrong; "unknown" for a visible field counts wrong);
- confidently wrong: fields read as a definite value (a colour or empty) that is not
  the truth, over all visible fields;
- boards exact: boards found with the right definition, rotation and every visible field
  (a board within 2 degrees of half-way between two quarter turns may be read at either);
- bowls exact: bowls found with exactly the right tile counts and unknown count; a bowl
  partly under a hand is right when the recogniser says it is occluded and counts no
  tile that is not there;
- bowls confidently wrong: bowls read wrong with no unknown tile and no occlusion;
- median latency of recognise_kids() (one thread) for 1920x1080 frames of a 4-player
  table and for 4000x3000 frames, as CPU time of this process (others' load on a shared
  machine does not count; pin it with taskset -c 1).

Tune on one seed and judge on another: `--seed` picks the frames (default 1, used for
tuning); report on a held-out seed (e.g. `--seed 2`).
Targets (issue 7): per-cell >= 99.5%, confidently wrong <= 0.1%, boards exact >= 98%,
bowls exact >= 99%, median latency <= 150 ms (1920x1080, 4 players) and <= 400 ms (4000x3000).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.rules.kids_board import example_boards
from vision.kids import UNKNOWN, recognise_kids
from vision.synth import Conditions
from vision.synth.kids import mixed_kids_table, render_kids_table
from vision.synth.truth import quarter_turns


def _match(found: list[dict], truth: list[dict], radius: float) -> dict[int, int]:
    """Greedy nearest matching by centre: truth index -> found index."""
    pairs = sorted(
        (math.dist(f["center"], t["center"]), ti, fi)
        for ti, t in enumerate(truth)
        for fi, f in enumerate(found)
    )
    used_t, used_f, out = set(), set(), {}
    for d, ti, fi in pairs:
        if d > radius or ti in used_t or fi in used_f:
            continue
        used_t.add(ti)
        used_f.add(fi)
        out[ti] = fi
    return out


def _fields(board: dict) -> list:
    return [v for p in board["pictures"] for v in p["fields"]]


def score_frame(obs: dict, truth: dict, tally: Counter) -> None:
    px = truth["geometry"]["camera"]["px_per_mm"]
    matches = _match(obs["boards"], truth["boards"], 100 * px)
    for ti, (tb, geo) in enumerate(zip(truth["boards"], truth["geometry"]["boards"], strict=True)):
        tvals = _fields(tb)
        fb = obs["boards"][matches[ti]] if ti in matches else None
        same_board = fb is not None and fb["board"] == tb["board"] and fb["side"] == tb["side"]
        fvals = _fields(fb) if same_board else [UNKNOWN] * len(tvals)
        turned_right = fb is not None and fb["rotation"] in quarter_turns(geo["outline"])
        exact = same_board and turned_right
        for t, f in zip(tvals, fvals, strict=True):
            if t == UNKNOWN:
                continue
            tally["cells"] += 1
            if f == t:
                tally["cells_right"] += 1
            else:
                exact = False
                tally["cells_wrong_" + ("unknown" if f == UNKNOWN else "definite")] += 1
        tally["boards"] += 1
        tally["boards_exact"] += exact
        tally["boards_named"] += same_board
        if fb is not None:
            tally["rotation_right"] += turned_right
    tally["boards_extra"] += len(obs["boards"]) - len(matches)

    bm = _match(obs["bowls"], truth["bowls"], 35 * px)
    for ti, tbowl in enumerate(truth["bowls"]):
        tally["bowls"] += 1
        if ti not in bm:
            continue
        fbowl = obs["bowls"][bm[ti]]
        tally["bowls_numbered"] += fbowl["bowl"] == tbowl["bowl"]
        right = fbowl["tiles"] == tbowl["tiles"] and fbowl["unknown"] == tbowl["unknown"]
        if not right and tbowl["occluded"] and fbowl["occluded"]:
            right = all(n <= tbowl["tiles"].get(c, 0) for c, n in fbowl["tiles"].items())
        tally["bowls_exact"] += right
        tally["bowls_confidently_wrong"] += (not right) and fbowl["unknown"] == 0 and not fbowl["occluded"]


def load_or_render(i: int, seed: int, cache: Path | None) -> tuple[np.ndarray, dict, Conditions]:
    content, cond, rng = mixed_kids_table(seed, i)
    if cache is not None:
        img_path, truth_path = cache / f"kids_{seed}_{i:04d}.png", cache / f"kids_{seed}_{i:04d}.json"
        if img_path.exists() and truth_path.exists():
            return cv2.imread(str(img_path)), json.loads(truth_path.read_text()), cond
    frame, truth = render_kids_table(content, cond, rng)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(img_path), frame)
        truth_path.write_text(json.dumps(truth))
    return frame, truth, cond


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first frame index")
    parser.add_argument("--cache", type=Path, help="keep rendered frames here and reuse them")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="one line per frame")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    boards = example_boards()

    tally: Counter = Counter()
    latency: dict[str, list[float]] = {"1920x1080 4p": [], "4000x3000": []}
    for i in range(args.start, args.start + args.frames):
        frame, truth, cond = load_or_render(i, args.seed, args.cache)
        t0 = time.process_time()
        obs = recognise_kids(frame, boards)
        dt = (time.process_time() - t0) * 1000
        if frame.shape[1] == 1920 and i % 4 == 0:
            latency["1920x1080 4p"].append(dt)
        elif frame.shape[1] == 4000:
            latency["4000x3000"].append(dt)
        before = Counter(tally)
        score_frame(obs, truth, tally)
        if args.verbose:
            d = tally - before
            print(
                f"frame {i}: {frame.shape[1]}x{frame.shape[0]} boards {d['boards_exact']}/{d['boards']} "
                f"cells {d['cells_right']}/{d['cells']} wrong {d['cells_wrong_definite']} "
                f"unknown {d['cells_wrong_unknown']} bowls {d['bowls_exact']}/{d['bowls']} "
                f"bowls wrong {d['bowls_confidently_wrong']} {dt:.0f} ms tilt {cond.tilt_deg:.0f} "
                f"hand {cond.hand} glare {cond.glare:.2f} "
                f"blur {cond.motion_blur_px:.1f}/{cond.defocus_px:.1f}",
                flush=True,
            )

    def rate(a: str, b: str) -> float:
        return tally[a] / tally[b] if tally[b] else float("nan")

    result = {
        "frames": args.frames,
        "per_cell_accuracy": rate("cells_right", "cells"),
        "confidently_wrong": rate("cells_wrong_definite", "cells"),
        "boards_exact": rate("boards_exact", "boards"),
        "bowls_exact": rate("bowls_exact", "bowls"),
        "bowls_confidently_wrong": rate("bowls_confidently_wrong", "bowls"),
        "bowls_numbered_right": rate("bowls_numbered", "bowls"),
        "extra_boards": tally["boards_extra"],
        "latency_median_ms": {k: (round(statistics.median(v), 1) if v else None) for k, v in latency.items()},
        "latency_frames": {k: len(v) for k, v in latency.items()},
        "counts": dict(tally),
    }
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_median_ms"]
        print(f"frames: {args.frames}")
        print(f"per-cell accuracy:   {result['per_cell_accuracy']:.4%}  (target >= 99.5%)")
        print(f"confidently wrong:   {result['confidently_wrong']:.4%}  (target <= 0.1%)")
        print(f"boards exact:        {result['boards_exact']:.2%}  (target >= 98%)")
        print(f"bowls exact:         {result['bowls_exact']:.2%}  (target >= 99%)")
        print(f"bowls wrong without unknown or occlusion: {result['bowls_confidently_wrong']:.2%}")
        print(f"bowls numbered right: {result['bowls_numbered_right']:.2%}")
        print(f"median latency 1920x1080 4 players: {lat['1920x1080 4p']} ms  (target <= 150 ms)")
        print(f"median latency 4000x3000:           {lat['4000x3000']} ms  (target <= 400 ms)")
        print(f"counts: {dict(tally)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
