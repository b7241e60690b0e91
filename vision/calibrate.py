"""Measure the colour-word mixes of each kind of place on frames with known truth.

    ./dev run python -m vision.calibrate [--frames 24] [--seed 1]

Writes vision/prototypes.json, which vision.color adds to its stated mixes. Run it
on frames other than the benchmark's (the benchmark's default seed is 1, frames
0..N; use another seed here to keep the benchmark honest), and again on labelled
real photos when there are some.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np

from .cells import PLACES, printed_color
from .color import WORD_NAMES
from .recognize import analyse

OUT = Path(__file__).with_name("prototypes.json")


def _truth_places(board: dict) -> list:
    values = []
    for k, line in enumerate(board["lines"], start=1):
        values += [("unknown" if line["count"] is None else line["color"] if p < line["count"] else None)
                   for p in range(k)]
    return values + list(board["floor"]) + [v for row in board["wall"] for v in row]


def collect(frames: int, seed: int) -> dict[str, list[np.ndarray]]:
    from .synth import Conditions, random_content, render_table  # noqa: PLC0415 (test-time only)

    found: dict[str, list[np.ndarray]] = {}
    for i in range(frames):
        rng = np.random.default_rng([seed, i])
        content = random_content(rng, players=int(rng.integers(2, 5)),
                                 side="grey" if rng.uniform() < 0.25 else "colored",
                                 fill=float(rng.uniform(0.1, 1.0)))
        frame, truth = render_table(content, Conditions.random(rng), rng)
        rec = analyse(frame)
        for tb in truth["boards"]:
            near = [(math.dist(b.center, tb["center"]), b, r) for b, r in rec.boards]
            if not near:
                continue
            d, _, reading = min(near, key=lambda t: t[0])
            if d > 40 or reading.side != tb["side"]:
                continue
            for k, (place, value) in enumerate(zip(PLACES, _truth_places(tb), strict=True)):
                hist = reading.histograms[k]
                if value == "unknown" or hist.sum() < 10:
                    continue
                if value is not None:
                    label = f"tile:{value}"
                elif place[0] != "wall":
                    label = "empty"
                elif tb["side"] == "colored":
                    label = f"printed:{printed_color(place[1], place[2])}"
                else:
                    label = "printed:grey"
                found.setdefault(label, []).append(hist / hist.sum())
    return found


def cluster(hists: list[np.ndarray], most: int = 4) -> list[list[float]]:
    x = np.array(hists, np.float32)
    k = min(most, max(1, len(x) // 15))
    if k == 1:
        return [[round(float(v), 4) for v in x.mean(axis=0)]]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-4)
    _, assign, centers = cv2.kmeans(x, k, None, crit, 5, cv2.KMEANS_PP_CENTERS)
    counts = np.bincount(assign.ravel(), minlength=k)
    return [[round(float(v), 4) for v in c] for c, n in zip(centers, counts, strict=True) if n >= 3]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure colour-word mixes on synthetic frames.")
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    mixes = {label: cluster(h) for label, h in sorted(collect(args.frames, args.seed).items())}
    OUT.write_text(json.dumps({"words": list(WORD_NAMES), "mixes": mixes}, indent=0) + "\n")
    for label, m in mixes.items():
        print(f"{label}: {len(m)} mixes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
