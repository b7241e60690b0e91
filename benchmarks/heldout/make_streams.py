"""Write held-out tracker streams: DIR/NNNN.jsonl and the true record DIR/NNNN.truth.json.

    ./dev run python -m benchmarks.heldout.make_streams --games 500 --misread 0.02 --seed 1 --out DIR

Game NNNN is the same game at every misread rate (the game's dice depend on the seed and
its number only), so rates compare on equal games. Streams are deterministic by seed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from benchmarks.heldout.model import Noise, make_game, make_stream
from companion.rules import azul_record


def write_game(index: int, seed: int, noise: Noise, out: Path) -> dict:
    played = make_game(index, seed)
    lines, tally = make_stream(played, noise, index, seed)
    stem = out / f"{index:04d}"
    stream = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    _write(stem.with_suffix(".jsonl"), stream)
    _write(stem.with_suffix(".truth.json"), azul_record.dumps(played.record.to_json()))
    return {"places": tally.places, "wrong": tally.wrong, "unknown": tally.unknown,
            "frames": tally.frames, "occluded": tally.occluded,
            "moves": sum(1 for line in lines if "answer" in line)}


def _write(path: Path, text: str) -> None:
    # Whole files only: a half-written stream must never be judged.
    partial = path.with_name(path.name + ".part")
    partial.write_text(text)
    partial.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--misread", type=float, required=True, help="e.g. 0.02 for 2%% of read places")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", help="write only these game numbers, e.g. 8,10,21 (to look at one game)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=RATE",
                        help="override one rate of the model, e.g. sticky=0 or half_tiled=0 (repeatable)")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 <= args.misread < 0.5:
        parser.error("--games must be at least 1 and --misread in [0, 0.5)")
    noise = Noise.at(args.misread)
    for item in args.set:
        name, _sep, value = item.partition("=")
        if name not in vars(noise) or name == "misread":
            parser.error(f"--set: no rate {name!r}; the rates are {', '.join(vars(noise))}")
        try:
            setattr(noise, name, float(value))
        except ValueError:
            parser.error(f"--set {item!r}: the rate must be a number")
    args.out.mkdir(parents=True, exist_ok=True)
    totals = {"places": 0, "wrong": 0, "unknown": 0, "frames": 0, "occluded": 0, "moves": 0}
    indices = range(args.games)
    if args.only:
        try:
            indices = [int(n) for n in args.only.split(",")]
        except ValueError:
            parser.error(f"--only {args.only!r}: game numbers separated by commas")
    for index in indices:
        for key, value in write_game(index, args.seed, noise, args.out).items():
            totals[key] += value
    meta = {"games": args.games, "seed": args.seed, "noise": vars(noise), **totals,
            "measured_misread": round(totals["wrong"] / max(totals["places"], 1), 5)}
    (args.out / "streams.json").write_text(json.dumps(meta, indent=1) + "\n")
    json.dump(meta, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
