"""Write sample synthetic frames with their ground truth, and time the renderer.

    ./dev run python benchmarks/synth_samples.py [OUT_DIR] [--count N] [--seed S]

Each sample is OUT_DIR/NNN.png (the frame exactly as rendered, JPEG artefacts
included when the conditions ask for them) plus OUT_DIR/NNN.json (the truth);
some are rendered at 4000x3000. Prints the render time of every frame.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.synth import Conditions, random_content, render_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="/tmp/synth", type=Path)
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    times: dict[tuple[int, int], list[float]] = {}
    for k in range(args.count):
        cond = Conditions.random(rng)
        if k == 0:
            cond = replace(Conditions.neutral(), table="wood")
        content = random_content(rng, int(rng.integers(2, 5)))
        start = time.perf_counter()
        frame, truth = render_table(content, cond, int(rng.integers(1 << 31)))
        elapsed = time.perf_counter() - start
        times.setdefault((cond.width, cond.height), []).append(elapsed)
        stem = args.out / f"{k:03d}"
        if not cv2.imwrite(str(stem.with_suffix(".png")), frame):
            print(f"synth_samples: cannot write {stem}.png", file=sys.stderr)
            return 1
        stem.with_suffix(".json").write_text(json.dumps(truth))
        print(
            f"{stem}.png {cond.width}x{cond.height} tilt {cond.tilt_deg:4.1f} {cond.table:5s} "
            f"hand {cond.hand!s:5s} {elapsed * 1000:6.0f} ms"
        )
    for (w, h), ts in sorted(times.items()):
        print(
            f"{w}x{h}: {len(ts)} frames, median {np.median(ts) * 1000:.0f} ms (first includes sprite set-up)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
