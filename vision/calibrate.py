"""Measure, on frames with known truth, what each kind of place looks like.

    ./dev run python -m vision.calibrate [--set SEED:FIRST:COUNT ...] [--cache DIR] [--mixes] [--jobs N]
        [--looks] [--kinds KIND ...] [--save-rows FILE | --rows FILE ...]

Writes vision/prototypes.json: the place models that vision.cells reads places with
(a small network per kind of place over the features of vision.cells, with a class
for places the truth marks hidden, and a second over the colour looks alone, named
`colour:` and the kind, that the first is averaged with), the factory's place model
(a tile, nothing or something over each place of a disc), the centre's model (a tile,
the marker or no tile at each point of the centre pile), the side models (one per
printed colour of the wall: which side a wall cell shows, or that something lies over
it), and, with
--mixes, the colour-word mixes that vision.color adds to its stated ones (the
factories read with those, so they are only remade on purpose). Frames are those
benchmarks/bench_vision.py draws for the same seed and number. Never measure on the
benchmark's seeds 7 (tuning), 8 (held out), 9 (checks), 10 or 11 (never tuned on); the
shipped models were made with

    ./dev run python -m vision.calibrate --set 1000:0:800 --set 1:0:800 --set 2:0:800 \
        --set 3:0:350 --set 4:0:800 --cache /tmp/vcache --jobs 2

over the models of the version before (which boards pass the grid check depends on
the side models), the centre's model then alone, with `--kinds center` added (--kinds
fits only the models named and keeps the others as they are), and the pattern lines',
floor's and wall's models alone once they read the relief look, with `--kinds open
wall:black wall:blue wall:grey wall:red wall:white wall:yellow`; their seconds over the
colour looks alone (`--kinds colour:open colour:wall:black ...`) are those models from
before, kept as they were (fitted again from the same rows, they read hard frames
worse: docs/vision.md). The factory's and the centre's models were fitted from that
set's rows and those of 3,550 more frames, `--set 5:0:1800 --set 6:0:1750`, and so were
the settled models (`--kinds settled:open settled:wall:black ...`: a board place's model
fitted again, named `settled:` and its kind, that reads a board once its grid is placed;
see vision.cells.SETTLED), from rows measured by session 60's code (docs/vision.md gives
the commands). The coloured wall's final models (`--kinds final:wall:black ...
final:colour:wall:yellow`, grey's left out: a wall's model and its second fitted again,
named `final:` and their kind, that read a board out once it is placed; see
vision.cells.FINAL) were fitted from the shipped set's rows, measured again by session
74's code, and those of 2,000 frames in other looks (`--set 1000:0:800 --set 1:0:800
--set 2:0:400 --looks`), both kept with --save-rows and given to --rows (BENCHMARKS.md,
session 75), and so was the factory's (`--kinds final:factory`, which reads the discs out:
see vision.factories._read_out; session 76). They should be made again on labelled real
photos when there are some.

Reading the frames is most of the time (the set above: 21 minutes on two cores; a fit
of the boards' models from what they measured, under 4). `--save-rows FILE` keeps what
the frames measured, and `--rows FILE` fits from it instead of reading frames again, to
try fits (or --kinds) on the same measurements; given more than once, from the files'
rows joined, as one measurement of all their frames would give them. `--looks` reads
the frames as other cameras' processing renders them (`bench_vision.py --looks`): rows the
models need to learn more looks than the measured photos' (BENCHMARKS.md, session 73; the
shipped models learned that one alone).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import multiprocessing
import zipfile
import zlib
from pathlib import Path

import cv2
import numpy as np

from .boards import BoardFind
from .cells import (
    BOARD_KINDS,
    COLOUR_COLUMNS,
    COLOUR_ONLY,
    FINAL,
    HIDDEN,
    PLACES,
    SETTLED,
    BoardReading,
    place_kind,
    printed_color,
    read_board,
    side_kind,
    wall_center,
)
from .color import WORD_NAMES
from .factories import CENTER_MODEL, DISC_RADIUS_MM, FACTORY_MODEL, TILE_MM, CenterReading, FactoryReading
from .recognize import analyse

OUT = Path(__file__).with_name("prototypes.json")
_CHUNK = 50  # frames a process reads at a time
UNKNOWN = "unknown"


def _truth_places(board: dict) -> list:
    values = []
    for k, line in enumerate(board["lines"], start=1):
        values += [(UNKNOWN if line["count"] is None else line["color"] if p < line["count"] else None)
                   for p in range(k)]
    return values + list(board["floor"]) + [v for row in board["wall"] for v in row]


def _frame(i: int, seed: int, cache: Path | None, looks: bool = False) -> tuple[np.ndarray, dict]:
    from .synth import frame_name, mixed_table, render_table  # noqa: PLC0415 (calibration only)

    if cache is not None:
        name = frame_name(seed, i, looks)
        img, txt = cache / f"{name}.png", cache / f"{name}.json"
        if img.exists() and txt.exists():
            return cv2.imread(str(img)), json.loads(txt.read_text())
    # The same frames as benchmarks/bench_vision.py draws for (seed, i), so either's cache serves both.
    content, cond, rng = mixed_table(seed, i, looks)
    frame, truth = render_table(content, cond, rng)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(img), frame)
        txt.write_text(json.dumps(truth))
    return frame, truth


def collect(frames: range, seed: int, cache: Path | None = None, looks: bool = False) -> tuple[dict, dict]:
    """Word mixes by label, and (features, label) rows by place kind, of every place seen
    (with `looks`, in the frames as other cameras' processing renders them)."""
    hists: dict[str, list[np.ndarray]] = {}
    rows: dict[str, tuple[list, list]] = {}
    for i in frames:
        frame, truth = _frame(i, seed, cache, looks)
        rec = analyse(frame)
        px = truth["geometry"]["camera"]["px_per_mm"]
        rng = np.random.default_rng([seed, i])  # the same shifts whichever process reads the frame
        for tb in truth["boards"]:
            near = [(math.dist(b.center, tb["center"]), b, r) for b, r in rec.boards]
            if not near:
                continue
            d, board, reading = min(near, key=lambda t: t[0])
            if d > 40 * px:
                continue
            if reading.grid_in_place:
                for kind, feats, label in _shifted(frame, board, reading, tb, rng):
                    rows.setdefault(kind, ([], []))[0].append(feats)
                    rows[kind][1].append(label)
            for k, (place, value) in enumerate(zip(PLACES, _truth_places(tb), strict=True)):
                hist = reading.histograms[k]
                if hist.sum() < 10:  # out of frame
                    continue
                if place[0] == "wall":
                    # What each wall cell says of the side that is up, or that something
                    # (a hand, a grey sleeve that looks like the grey side) is over it. The
                    # side is told before the grid is checked, so from every board.
                    feats, labels = rows.setdefault(side_kind(place), ([], []))
                    feats.append(reading.features[k][:COLOUR_COLUMNS])
                    labels.append(HIDDEN if value == UNKNOWN else tb["side"])
                if not reading.grid_in_place:  # sampled off the print: the recogniser reads no place there
                    continue
                if value == UNKNOWN:
                    # Floor places and wall cells are hidden one by one (a hand, a cup over
                    # them): a class of their own, read as "unknown". A pattern line is
                    # unknown as a whole when any of its places is hidden, so its places
                    # are no sure example of either.
                    if place[0] == "line":
                        continue
                    value = HIDDEN
                feats, labels = rows.setdefault(place_kind(place, tb["side"]), ([], []))
                feats.append(reading.features[k])
                labels.append(value)
                if value == HIDDEN:
                    continue
                if value is not None:
                    label = f"tile:{value}"
                elif place[0] != "wall":
                    label = "empty"
                elif tb["side"] == "colored":
                    label = f"printed:{printed_color(place[1], place[2])}"
                else:
                    label = "printed:grey"
                hists.setdefault(label, []).append(hist / hist.sum())
        for tf, geo in zip(truth["factories"], truth["geometry"]["factories"], strict=True):
            if not rec.factories:
                break
            disc = min(rec.factories, key=lambda f: math.dist(f.center, tf["center"]))
            if math.dist(disc.center, tf["center"]) > 30 * px:
                continue
            feats, labels = rows.setdefault(FACTORY_MODEL, ([], []))
            for f, label in _factory_places(disc, tf, geo):
                feats.append(f)
                labels.append(label)
        # A hand over the pile hides tiles no one can tell apart from the ones in view.
        if rec.center is not None and rec.center.tile_points and truth["center"]["unknown"] == 0:
            feats, labels = rows.setdefault(CENTER_MODEL, ([], []))
            for f, label in _center_places(rec.center, truth["geometry"]["center_tiles"], px):
                feats.append(f)
                labels.append(label)
    return hists, rows


def _factory_places(reading: FactoryReading, tf: dict, geo: dict) -> list[tuple[np.ndarray, str | None]]:
    """(features, label) of each place of a disc read: the colour of the tile whose top
    lies there (each tile given to its nearest place, within half a tile), "hidden" if
    the truth has that tile hidden, None for a place no tile is given to. A place whose
    tile may or may not be the hidden one (another of its colour is seen) is left out."""
    tiles = geo["tiles"]
    hidden = _hidden_tiles([t["color"] for t in tiles], tf["tiles"])
    tops = np.array([np.mean(t["top"], axis=0) for t in tiles]).reshape(-1, 2)
    sites = np.array(reading.tile_points, np.float64).reshape(-1, 2)
    reach = 0.5 * TILE_MM * reading.radius / DISC_RADIUS_MM
    given: dict[int, int] = {}
    pairs = sorted((math.dist(sites[a], tops[b]), a, b) for a in range(len(sites)) for b in range(len(tops)))
    for d, a, b in pairs:
        if d < reach and a not in given and b not in given.values():
            given[a] = b
    out = []
    for a, feats in enumerate(reading.features):
        if feats is None:
            continue
        if a not in given:
            out.append((feats, None))
        elif hidden[given[a]] is None:
            continue
        else:
            out.append((feats, HIDDEN if hidden[given[a]] else tiles[given[a]]["color"]))
    return out


def _center_places(reading: CenterReading, tiles: list[dict],
                   px_per_mm: float) -> list[tuple[np.ndarray, str | None]]:
    """(features, label) of each point of the centre pile read: the colour (or the
    marker) of the tile whose top lies nearest, within _CENTER_REACH of a tile (each tile
    given to one point, nearest first); None for every other point: one far from every
    tile (a hand, a sleeve, a mat's edge), and a second point on a tile another point was
    given, which counted would count the tile twice. (Left out of the fit instead, seeds
    7 and 9 read 330 and 335 of 500 centres exactly with a model fitted on 1,200 frames;
    labelled so, 372 and 387.)"""
    tops = np.array([np.mean(t["top"], axis=0) for t in tiles]).reshape(-1, 2)
    sites = np.array(reading.tile_points, np.float64).reshape(-1, 2)
    reach = _CENTER_REACH * TILE_MM * px_per_mm
    given: dict[int, int] = {}
    pairs = sorted((math.dist(sites[a], tops[b]), a, b) for a in range(len(sites)) for b in range(len(tops)))
    for d, a, b in pairs:
        if d < reach and a not in given and b not in given.values():
            given[a] = b
    return [(feats, tiles[given[a]]["color"] if a in given else None)
            for a, feats in enumerate(reading.features)]


_CENTER_REACH = 0.6  # tiles: a point of the pile this near a tile's top is on that tile

# Every model calibrate fits: the places' on either side (each with its second over the
# colour looks alone), the sides', the discs' and the centre's, and the final ones.
KINDS = sorted(BOARD_KINDS | {prefix + kind for kind in BOARD_KINDS
                              for prefix in (COLOUR_ONLY, SETTLED, FINAL, FINAL + COLOUR_ONLY)}
               | {side_kind(p) for p in PLACES if p[0] == "wall"}
               | {FACTORY_MODEL, FINAL + FACTORY_MODEL, CENTER_MODEL})


def _hidden_tiles(colors: list[str], seen: list[str]) -> list[bool | None]:
    """Which of a disc's tiles (in the truth's order) are hidden, given the colours seen
    (the same order, hidden ones left out): None where the truth could mean either."""
    ways = [set(gone) for gone in itertools.combinations(range(len(colors)), len(colors) - len(seen))
            if [c for i, c in enumerate(colors) if i not in gone] == seen]
    if not ways:
        return [None] * len(colors)
    first = ways[0]
    return [(i in first) if all((i in w) == (i in first) for w in ways) else None for i in range(len(colors))]


# A grid is never exactly on its board (an outline a hand bends, a tile's lean): each board
# is also read with its grid moved by up to half a cell, and each place labelled with its
# own truth. The models then read a place from a window partly off it, and are unsure of
# one half off (as like its neighbour's as its own), which a grid off by that much gives.
_SHIFT_MOST = 0.5


def _shifted(frame: np.ndarray, board: BoardFind, reading: BoardReading, tb: dict,
             rng: np.random.Generator) -> list[tuple[str, np.ndarray, str | None]]:
    """(kind, features, label) of each place in view, read with the grid moved at random."""
    pitch = np.subtract(wall_center(1, 1), wall_center(0, 0))
    dx, dy = rng.uniform(-_SHIFT_MOST, _SHIFT_MOST, 2) * pitch
    moved = np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1]])
    seen = read_board(frame, dataclasses.replace(board, panel_h=board.panel_h @ moved), reading.balance)
    out = []
    for k, (place, value) in enumerate(zip(PLACES, _truth_places(tb), strict=True)):
        kind = place_kind(place, tb["side"])
        if seen.histograms[k].sum() < 10 or (value == UNKNOWN and place[0] == "line"):
            continue
        out.append((kind, seen.features[k], HIDDEN if value == UNKNOWN else value))
    return out


def cluster(hists: list[np.ndarray], most: int = 4) -> list[list[float]]:
    x = np.array(hists, np.float32)
    k = min(most, max(1, len(x) // 15))
    if k == 1:
        return [[round(float(v), 4) for v in x.mean(axis=0)]]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-4)
    cv2.setRNGSeed(1)  # the same prototypes from the same frames, whatever ran before
    _, assign, centers = cv2.kmeans(x, k, None, crit, 5, cv2.KMEANS_PP_CENTERS)
    counts = np.bincount(assign.ravel(), minlength=k)
    return [[round(float(v), 4) for v in c] for c, n in zip(centers, counts, strict=True) if n >= 3]


def fit_model(x: np.ndarray, labels: list, classes: list, *, hidden: int = 64, l2: float = 1e-4,
              epochs: int = 20, batch: int = 256, rate: float = 3e-3, seed: int = 0) -> dict:
    """A small network (standardised features, one ReLU layer, softmax) fitted by
    minibatch Adam on the cross-entropy, the step shrinking to nothing along a cosine;
    the model as JSON for vision.cells."""
    rng = np.random.default_rng(seed)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    truth = np.array([classes.index(v) for v in labels])
    sizes = [z.shape[1], hidden, len(classes)] if hidden else [z.shape[1], len(classes)]
    layers = [np.vstack([rng.normal(0, np.sqrt(2 / a), (a, b)), np.zeros((1, b))])
              for a, b in itertools.pairwise(sizes)]
    moments = [(np.zeros_like(w), np.zeros_like(w)) for w in layers]
    t = 0
    for epoch in range(epochs):
        step = rate * 0.5 * (1 + math.cos(math.pi * epoch / epochs))
        order = rng.permutation(len(z))
        for start in range(0, len(z), batch):
            rows = order[start:start + batch]
            t += 1
            acts = [z[rows]]
            for k, w in enumerate(layers):
                a = acts[-1] @ w[:-1] + w[-1]
                acts.append(np.maximum(a, 0) if k < len(layers) - 1 else a)
            out = acts[-1] - acts[-1].max(axis=1, keepdims=True)
            p = np.exp(out)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(rows)), truth[rows]] -= 1  # the cross-entropy's gradient
            delta = p / len(rows)
            for k in range(len(layers) - 1, -1, -1):
                w = layers[k]
                grad = np.vstack([acts[k].T @ delta + l2 * w[:-1], delta.sum(axis=0, keepdims=True)])
                if k:
                    delta = (delta @ w[:-1].T) * (acts[k] > 0)
                m, v = moments[k]
                m[:] = 0.9 * m + 0.1 * grad
                v[:] = 0.999 * v + 0.001 * grad**2
                w -= step * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return {"classes": classes, "mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
            "layers": [w.round(5).tolist() for w in layers]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure place models (and word mixes) on synthetic frames.")
    parser.add_argument("--set", action="append", metavar="SEED:FIRST:COUNT", dest="sets",
                        help="frames to measure on (repeatable; default 1000:0:200)")
    parser.add_argument("--cache", type=Path, help="keep rendered frames here and reuse them")
    parser.add_argument("--mixes", action="store_true", help="remake the colour-word mixes too")
    parser.add_argument("--looks", action="store_true",
                        help="the frames as other cameras' processing renders them (bench_vision.py --looks)")
    parser.add_argument("--jobs", type=int, default=1, help="frames read by this many processes at once")
    parser.add_argument("--kinds", nargs="+", metavar="KIND",
                        help="fit only these place models (e.g. center factory open), keeping the others")
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument("--save-rows", type=Path, metavar="FILE",
                      help="also keep what the frames measured here")
    keep.add_argument("--rows", type=Path, action="append", metavar="FILE",
                      help="fit from what --save-rows kept instead of reading frames "
                           "(repeatable: the files' rows joined in the order given)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: at least one process is needed")
    unknown_kinds = sorted(set(args.kinds or ()) - set(KINDS))
    if unknown_kinds:
        parser.error(f"--kinds {' '.join(unknown_kinds)}: no such model (the models: {' '.join(KINDS)})")
    if args.rows is not None and args.sets:
        parser.error("--rows with --set: the rows were measured on their frames already")
    if args.save_rows is not None:  # said now, not after the frames are read
        if not args.save_rows.parent.is_dir():
            parser.error(f"--save-rows {args.save_rows}: no such folder {args.save_rows.parent}")
        if args.save_rows.is_dir():
            parser.error(f"--save-rows {args.save_rows}: is a folder, not a file")
    if args.rows is not None:
        hists, rows = _kept(parser, args.rows, args.kinds)
    else:
        hists, rows = _measure(parser, args)
    _fit(hists, rows, mixes=args.mixes, kinds=args.kinds)
    if args.save_rows is not None:
        try:
            save_rows(args.save_rows, hists, rows)
        except OSError as e:  # the fit, the long run's point, is written all the same
            parser.error(f"--save-rows {args.save_rows}: not written ({e}); the models were")
    return 0


# Models measured on the frames the benchmark reads would be judged on what they learned.
BENCHMARK_SEEDS = frozenset({7, 8, 9, 10, 11})


def _measure(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[dict, dict]:
    """What the frames of args.sets measure, as collect's, all chunks joined in frame order."""
    cv2.setNumThreads(1)
    chunks = []
    for spec in args.sets or ["1000:0:200"]:
        try:
            seed, first, count = (int(v) for v in spec.split(":"))
        except ValueError:
            parser.error(f"--set {spec!r} is not SEED:FIRST:COUNT")
        if seed in BENCHMARK_SEEDS:
            parser.error(f"--set {spec}: seed {seed} is one the benchmark judges the models on "
                         f"(seeds {', '.join(map(str, sorted(BENCHMARK_SEEDS)))})")
        chunks += [(range(a, min(a + _CHUNK, first + count)), seed, args.cache, args.looks)
                   for a in range(first, first + count, _CHUNK)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            parts = pool.starmap(collect, chunks)
    else:
        parts = [collect(*chunk) for chunk in chunks]
    return _joined(parts)  # in frame order, whatever the number of jobs


def _joined(parts: list[tuple[dict, dict]]) -> tuple[dict, dict]:
    """Several measurements' word mixes and rows as one, each label's and kind's in order."""
    hists: dict[str, list[np.ndarray]] = {}
    rows: dict[str, tuple[list, list]] = {}
    for more_hists, more_rows in parts:
        for label, h in more_hists.items():
            hists.setdefault(label, []).extend(h)
        for kind, (feats, labels) in more_rows.items():
            have = rows.setdefault(kind, ([], []))
            have[0].extend(feats)
            have[1].extend(labels)
    return hists, rows


def _kept(parser: argparse.ArgumentParser, paths: list[Path], kinds: list[str] | None) -> tuple[dict, dict]:
    """The rows of the files --rows names, joined. Files measured by code that described
    a place with other numbers cannot be fitted together: named for the kinds to be fitted
    (another kind's rows are only carried)."""
    parts = []
    for path in paths:
        try:
            part = load_rows(path)
        except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as e:
            parser.error(f"--rows {path}: not rows saved by --save-rows ({e})")
        if not part[1]:  # fitted from, it would leave no model at all
            parser.error(f"--rows {path}: not rows saved by --save-rows (no place measured in it)")
        parts.append(part)
    fitted = ({kind.removeprefix(FINAL).removeprefix(COLOUR_ONLY).removeprefix(SETTLED) for kind in kinds}
              if kinds else None)
    for kind in sorted(set().union(*(part[1] for part in parts))):
        widths = {path: len(rows[kind][0][0]) for path, (_, rows) in zip(paths, parts, strict=True)
                  if rows.get(kind, ([], []))[0]}
        if len(set(widths.values())) > 1 and (fitted is None or kind in fitted):
            told = ", ".join(f"{path} {width}" for path, width in widths.items())
            parser.error(f"--rows: the {kind} rows are not measured alike ({told} numbers a place)")
    return _joined(parts)


def _fit(hists: dict[str, list[np.ndarray]], rows: dict[str, tuple[list, list]], *, mixes: bool,
         kinds: list[str] | None) -> None:
    """The models fitted to what was measured, written to OUT (the kinds not fitted kept)."""
    try:
        data = json.loads(OUT.read_text())
    except (OSError, ValueError):
        data = {}
    if mixes or "mixes" not in data:
        data["words"] = list(WORD_NAMES)
        data["mixes"] = {label: cluster(h) for label, h in sorted(hists.items())}
    models = dict(data.get("places", {})) if kinds else {}
    rows = dict(rows)
    for kind in BOARD_KINDS & rows.keys():
        feats, labels = rows[kind]
        rows[COLOUR_ONLY + kind] = ([f[:COLOUR_COLUMNS] for f in feats], labels)
    # (Fitted with the rest, a settled or final model would be its kind's twin.)
    for named in list(rows):
        for prefix in (SETTLED, FINAL):
            if kinds and prefix + named in kinds:
                rows[prefix + named] = rows[named]
    for kind, (feats, labels) in sorted(rows.items()):
        if kinds and kind not in kinds:
            continue
        classes = sorted(set(labels), key=lambda c: "" if c is None else c)
        if len(classes) < 2:
            continue
        # Each kind's own seed: a kind added or gone leaves the others' fits as they were. A
        # settled or final model is its kind's fitted on other rows, from the same start.
        models[kind] = fit_model(np.array(feats), labels, classes,
                                 seed=zlib.crc32(kind.removeprefix(FINAL).removeprefix(SETTLED).encode()))
        print(f"{kind}: {len(labels)} places, classes {classes}")
    data["places"] = models
    part = OUT.with_suffix(".json.part")  # whole or not at all: vision.cells reads it at import
    part.write_text(json.dumps(data, indent=0) + "\n")
    part.replace(OUT)


# In a rows file an empty place is labelled "", which no colour, "marker" or HIDDEN is.
_EMPTY = ""


def save_rows(path: Path, hists: dict[str, list[np.ndarray]], rows: dict[str, tuple[list, list]]) -> None:
    """What frames measured (collect's word mixes by label and rows by kind) to `path`,
    whole or not at all."""
    arrays = {f"mix/{label}": np.array(h, np.float64) for label, h in hists.items()}
    for kind, (feats, labels) in rows.items():
        arrays[f"x/{kind}"] = np.array(feats, np.float64)
        arrays[f"y/{kind}"] = np.array([_EMPTY if v is None else v for v in labels], str)
    part = path.with_name(path.name + ".part")
    try:
        with part.open("wb") as f:
            np.savez_compressed(f, **arrays)
    except OSError:
        part.unlink(missing_ok=True)
        raise
    part.replace(path)


def load_rows(path: Path) -> tuple[dict[str, list[np.ndarray]], dict[str, tuple[list, list]]]:
    """What save_rows kept: word mixes by label, and (features, labels) by kind."""
    hists: dict[str, list[np.ndarray]] = {}
    rows: dict[str, tuple[list, list]] = {}
    with np.load(path, allow_pickle=False) as data:
        for name in data.files:
            what, _, key = name.partition("/")
            if what not in ("mix", "x", "y") or not key:
                raise ValueError(f"it holds {name!r}")
            if what == "mix":
                hists[key] = list(data[name])
            elif what == "x":
                labels = [None if v == _EMPTY else str(v) for v in data[f"y/{key}"]]
                rows[key] = (list(data[name]), labels)
    return hists, rows


if __name__ == "__main__":
    raise SystemExit(main())
