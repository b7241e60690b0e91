"""The recogniser judged on labelled photos of a real table (issue 3's last point).

    ./dev run python benchmarks/bench_photos.py DIR [--players N] [--json] [--verbose] [--failures FILE]
    ./dev run python benchmarks/bench_photos.py DIR --draft

DIR holds photos (.jpg, .jpeg, .png) and beside each its truth, NAME.truth.json: what a
person sees in the photo, as an `azul-observation/1` object (shared/spec/observation.md),
the schema the recogniser reports in. Every board with its centre (pixels), rotation,
side, pattern lines, floor and wall; every factory display with its centre, the tiles
in view and, as "unknown", how many of its places the person cannot see into; the
centre pile; "occluded" when a hand or anything else is over the play area. A place the
person cannot make out either (a hand, glare, the frame's edge) is "unknown", and is not
scored; a pattern line one of whose places is hidden has its count null.

`--draft` writes NAME.truth.json for each photo that has none, from what the recogniser
reads there, marked `"draft": true`: a person corrects it against the photo (or against
`azul-companion recognize PHOTO --debug-dir D`'s overlay) and deletes that key. A truth
still marked draft is refused, so that the recogniser is never judged by itself.

Reported as benchmarks/bench_vision.py reports synthetic frames, against the same targets:
- per-cell accuracy: places the truth shows (a board not found counts all its places wrong);
- confidently wrong: places read as a definite value that is not the truth's;
- boards exact: found, with the truth's rotation and side and every place it shows; also
  by the truth's rotation and side (the issue asks for boards at every turn);
- factories exact: found with every tile in view read and nothing left unknown; on a disc
  with places hidden, every tile in view read, no more tiles read than in view and
  hidden, and no more places read or left unknown than a disc has (what lies under a
  hand a photo cannot tell);
- centre exact: the pile's counts, marker and unknown tiles the truth's;
- occluded: the share of photos the truth calls occluded that are flagged so, and of those
  it does not;
- median latency of recognize() per photo size, as the process's CPU time, OpenCV on one
  thread (one pass: a photo set is small);
- each photo's own counts (`--verbose` prints a line for each; `--json` has them).
A board or disc found is the truth's when it is the nearest to it, within half the
distance between the truth's two nearest (boards, or discs), and no more than a quarter
of the photo's shorter side. `--failures FILE` writes one JSON line per board and disc not
read exactly. Bad input (no photos, a photo that cannot be read, a photo with no truth, a
truth that is not a full observation, or that gives another image size than the photo's,
a failures file with no directory to go in, a file that cannot be written) is named and
exits 2 with nothing printed or half-written.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vision import UNKNOWN, match_by_centre, place_values, score_places

from companion.rules.azul import COLORS
from companion.tracking.frame import FORMAT, ObservationError, read_frame
from vision.io import ImageError, load_image
from vision.recognize import recognize

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
TRUTH_SUFFIX = ".truth.json"
_ROTATIONS = (0, 90, 180, 270)
_SIDES = ("colored", "grey")
_DISC_PLACES = 4
_BOARD_KINDS = [*(f"rotation {r}" for r in _ROTATIONS), *(f"side {s}" for s in _SIDES)]
_PER_PHOTO = ("boards", "boards_exact", "cells", "cells_right", "cells_confidently_wrong",
              "factories", "factories_exact", "centres_exact")


class PhotoSetError(Exception):
    """A photo set that cannot be judged, and why."""


def truth_path(photo: Path) -> Path:
    return photo.with_name(photo.stem + TRUTH_SUFFIX)


def photos_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise PhotoSetError(f"{folder}: not a directory")
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file())
    if not photos:
        raise PhotoSetError(f"{folder}: no photos (.jpg, .jpeg, .png)")
    return photos


def load_truth(path: Path) -> dict:
    """A person's reading of a photo, checked to be a whole observation, or PhotoSetError."""
    try:
        truth = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise PhotoSetError(f"{path}: cannot read: {error.strerror or error}") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise PhotoSetError(f"{path}: not JSON: {error}") from None
    try:
        read_frame(truth)
    except ObservationError as error:
        raise PhotoSetError(f"{path}: {error}") from None
    if truth.get("draft"):
        raise PhotoSetError(f"{path}: still a draft: check it against the photo, then delete \"draft\"")
    if truth.get("format") != FORMAT:
        raise PhotoSetError(f"{path}: \"format\" must be {FORMAT!r}")
    for key in ("boards", "factories", "center"):
        if key not in truth:
            raise PhotoSetError(f"{path}: no {key!r}: a truth lists what the photo shows")
    for n, board in enumerate(truth["boards"], 1):
        missing = [k for k in ("center", "rotation", "side", "lines", "floor", "wall")
                   if board.get(k) is None]
        if missing:
            raise PhotoSetError(f"{path}: board {n} has no {', '.join(map(repr, missing))}")
        if board["rotation"] not in _ROTATIONS:
            raise PhotoSetError(f"{path}: board {n}: rotation must be 0, 90, 180 or 270")
        if board["side"] not in _SIDES:
            raise PhotoSetError(f"{path}: board {n}: side must be \"colored\" or \"grey\"")
        if len(board["floor"]) != 7:
            raise PhotoSetError(f"{path}: board {n}: the floor has 7 places")
    for n, disc in enumerate(truth["factories"], 1):
        if "center" not in disc or "tiles" not in disc:
            raise PhotoSetError(f"{path}: factory {n} needs its \"center\" and \"tiles\"")
        if not all(t in COLORS for t in disc["tiles"]):
            raise PhotoSetError(f"{path}: factory {n}: \"tiles\" lists the colours in view "
                                f"(those hidden are counted in \"unknown\")")
        if disc.get("unknown", 0) is None:
            raise PhotoSetError(f"{path}: factory {n}: \"unknown\" counts its places hidden (0 if none)")
        if len(disc["tiles"]) + disc.get("unknown", 0) > _DISC_PLACES:
            raise PhotoSetError(f"{path}: factory {n}: more than 4 tiles and hidden places")
    center = truth["center"]
    if not isinstance(center.get("tiles"), dict) or not all(c in COLORS for c in center["tiles"]) \
            or not isinstance(center.get("marker"), bool) or center.get("unknown", 0) is None:
        raise PhotoSetError(f"{path}: the centre needs its \"tiles\" (colour: count) and \"marker\"")
    return truth


def match_radius(truth_items: list[dict], width: int, height: int) -> float:
    """How far from a truth item a found one may be: half the distance between the
    truth's two nearest items, and at most a quarter of the photo's shorter side."""
    most = min(width, height) / 4
    centers = [t["center"] for t in truth_items]
    gaps = [math.dist(a, b) for i, a in enumerate(centers) for b in centers[i + 1:]]
    return min([most] + [g / 2 for g in gaps])


def disc_read_right(read: dict, truth: dict) -> bool:
    """Whether a disc is read exactly, as far as the photo shows (see the module's doc)."""
    tiles, seen = Counter(read["tiles"]), Counter(truth["tiles"])
    hidden = truth.get("unknown", 0)
    if hidden == 0:
        return tiles == seen and read["unknown"] == 0
    return (not seen - tiles and len(read["tiles"]) <= len(truth["tiles"]) + hidden
            and len(read["tiles"]) + read["unknown"] <= _DISC_PLACES)


def _counted(tiles: dict[str, int]) -> dict[str, int]:
    return {color: n for color, n in tiles.items() if n}


def score_photo(obs: dict, truth: dict, tally: Counter, failures: list[dict] | None = None) -> None:
    """Add one photo's figures to `tally` (and what was not read exactly to `failures`)."""
    width, height = obs["image"]["width"], obs["image"]["height"]
    boards = match_by_centre(obs["boards"], truth["boards"], match_radius(truth["boards"], width, height))
    for ti, tb in enumerate(truth["boards"]):
        fb = obs["boards"][boards[ti]] if ti in boards else None
        tvals = place_values(tb)
        fvals = place_values(fb) if fb is not None else [UNKNOWN] * len(tvals)
        wrong = score_places(tvals, fvals, tally)
        exact = fb is not None and fb["rotation"] == tb["rotation"] and fb["side"] == tb["side"] and not wrong
        tally["boards"] += 1
        tally["boards_exact"] += exact
        for kind in (f"rotation {tb['rotation']}", f"side {tb['side']}"):  # (the issue asks for every turn)
            tally[f"boards {kind}"] += 1
            tally[f"boards {kind} exact"] += exact
        if failures is not None and not exact:
            failures.append({"board": ti, "center": tb["center"], "found": fb is not None,
                             "rotation": [tb["rotation"], fb and fb["rotation"]],
                             "side": [tb["side"], fb and fb["side"]], "wrong_places": wrong})
    tally["boards_extra"] += len(obs["boards"]) - len(boards)
    discs = match_by_centre(obs["factories"], truth["factories"],
                            match_radius(truth["factories"], width, height))
    for ti, tf in enumerate(truth["factories"]):
        ff = obs["factories"][discs[ti]] if ti in discs else None
        right = ff is not None and disc_read_right(ff, tf)
        tally["factories"] += 1
        tally["factories_exact"] += right
        tally["factories_confidently_wrong"] += ff is not None and not right and ff["unknown"] == 0
        if failures is not None and not right:
            failures.append({"factory": ti, "center": tf["center"], "found": ff is not None,
                             "tiles": [tf["tiles"], ff and ff["tiles"]],
                             "unknown": [tf.get("unknown", 0), ff and ff["unknown"]]})
    tally["factories_extra"] += len(obs["factories"]) - len(discs)
    tc, fc = truth["center"], obs["center"]
    exact = (_counted(fc["tiles"]) == _counted(tc["tiles"]) and fc["marker"] == tc["marker"]
             and fc["unknown"] == tc.get("unknown", 0))
    tally["centres"] += 1
    tally["centres_exact"] += exact
    tally["centres_confidently_wrong"] += not exact and fc["unknown"] == 0
    covered = "occluded" if truth.get("occluded", False) else "clear"
    tally[f"photos_{covered}"] += 1
    tally[f"flagged_{covered}"] += obs["occluded"]


def draft(folder: Path, players: int | None) -> list[Path]:
    """A draft truth, from the recogniser, for every photo of `folder` that has none; the
    truths written. Every such photo is read before any draft is written."""
    todo = [p for p in photos_in(folder) if not truth_path(p).exists()]
    # (first, so that deleting its line leaves the rest as it was)
    drafts = {p: {"draft": True, **recognize(_photo(p), players)} for p in todo}
    written = []
    for photo, obs in drafts.items():
        _write(truth_path(photo), editable(obs))
        written.append(truth_path(photo))
    return written


def _write(path: Path, text: str) -> None:
    """`text` to `path`, whole or not at all; PhotoSetError naming why it could not be."""
    part = path.with_name(path.name + ".part")
    try:
        part.write_text(text, encoding="utf-8")
        part.replace(path)
    except OSError as error:
        if part.is_file():
            part.unlink()
        raise PhotoSetError(f"{path}: cannot write: {error.strerror or error}") from None


def editable(obs: dict) -> str:
    """An observation as JSON laid out to be corrected by hand: each pattern line, floor,
    wall row and list of tiles on a line of its own, not a line for every value."""
    text = json.dumps(obs, indent=1)
    # (The values are numbers, colour names and keys: no bracket lies inside a string.)
    return re.sub(r"[\[{][^\[\]{}]*[\]}]", lambda m: re.sub(r"\s*\n\s*", " ", m.group()), text) + "\n"


def _photo(path: Path):
    try:
        return load_image(path)
    except ImageError as error:
        raise PhotoSetError(f"{path}: {error}") from None


def judge(folder: Path, players: int | None, failure_log: list[dict] | None = None) -> dict:
    """The figures for every photo of `folder` (each with its truth)."""
    photos = photos_in(folder)
    unlabelled = [p.name for p in photos if not truth_path(p).exists()]
    if unlabelled:
        raise PhotoSetError(f"{folder}: no truth for {', '.join(unlabelled)} "
                            f"(NAME{TRUTH_SUFFIX}; --draft writes one to correct)")
    truths = {p: load_truth(truth_path(p)) for p in photos}
    cv2.setNumThreads(1)
    tally: Counter = Counter()
    latency: dict[str, list[float]] = {}
    by_photo = []
    for photo, truth in truths.items():
        frame = _photo(photo)  # (one at a time: a set of 12-megapixel photos fills memory)
        size = f"{frame.shape[1]}x{frame.shape[0]}"
        labelled = truth.get("image")
        if isinstance(labelled, dict) and f"{labelled.get('width')}x{labelled.get('height')}" != size:
            # (centres given on a copy of another size would match nothing)
            raise PhotoSetError(f"{truth_path(photo)}: labelled on a {labelled.get('width')}x"
                                f"{labelled.get('height')} image, the photo is {size}")
        t0 = time.process_time()
        obs = recognize(frame, players)
        ms = (time.process_time() - t0) * 1000
        latency.setdefault(size, []).append(ms)
        found: list[dict] = []
        before = Counter(tally)
        score_photo(obs, truth, tally, found)
        if failure_log is not None:
            failure_log.extend({"photo": photo.name, **f} for f in found)
        by_photo.append({"photo": photo.name, "size": size, "ms": round(ms),
                         **{k: tally[k] - before[k] for k in _PER_PHOTO}})

    def rate(a: str, b: str) -> float | None:
        return tally[a] / tally[b] if tally[b] else None

    return {
        "photos": len(photos),
        "per_cell_accuracy": rate("cells_right", "cells"),
        "confidently_wrong": rate("cells_confidently_wrong", "cells"),
        "boards_exact": rate("boards_exact", "boards"),
        "factories_exact": rate("factories_exact", "factories"),
        "factories_confidently_wrong": rate("factories_confidently_wrong", "factories"),
        "centre_exact": rate("centres_exact", "centres"),
        "centre_confidently_wrong": rate("centres_confidently_wrong", "centres"),
        "occluded_flagged": rate("flagged_occluded", "photos_occluded"),
        "clear_flagged": rate("flagged_clear", "photos_clear"),
        "boards_exact_by": {kind: rate(f"boards {kind} exact", f"boards {kind}") for kind in _BOARD_KINDS},
        "extra_boards": tally["boards_extra"],
        "extra_factories": tally["factories_extra"],
        "latency_median_ms": {size: statistics.median(ms) for size, ms in sorted(latency.items())},
        "by_photo": by_photo,
        "counts": dict(tally),
    }


def _shown(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, metavar="DIR")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), help="as recognize's --players")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--failures", type=Path,
                        help="write the boards and discs not read exactly here (JSON lines)")
    parser.add_argument("--verbose", action="store_true", help="a line for each photo")
    parser.add_argument("--draft", action="store_true",
                        help="write a draft truth for each photo that has none, to be corrected by hand")
    args = parser.parse_args(argv)
    try:
        if args.draft:
            for path in draft(args.folder, args.players):
                print(f"wrote {path}: correct it against the photo, then delete \"draft\"")
            return 0
        if args.failures and not args.failures.parent.is_dir():  # (known before a long run, not after)
            raise PhotoSetError(f"{args.failures}: no directory {args.failures.parent} to write it in")
        failures: list[dict] | None = [] if args.failures else None
        result = judge(args.folder, args.players, failures)
        if failures is not None:
            _write(args.failures, "".join(json.dumps(f) + "\n" for f in failures))
    except PhotoSetError as error:
        print(f"bench_photos: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    c = result["counts"]
    for one in result["by_photo"] if args.verbose else []:
        print(f"{one['photo']}: {one['size']} boards {one['boards_exact']}/{one['boards']} "
              f"places {one['cells_right']}/{one['cells']} ({one['cells_confidently_wrong']} surely wrong) "
              f"factories {one['factories_exact']}/{one['factories']} centre {one['centres_exact']} "
              f"{one['ms']} ms")
    print(f"photos: {result['photos']}")
    print(f"per-cell accuracy:   {_shown(result['per_cell_accuracy'], 4)}  (target >= 99.5%)")
    print(f"confidently wrong:   {_shown(result['confidently_wrong'], 4)}  (target <= 0.1%)")
    print(f"boards exact:        {_shown(result['boards_exact'])} of {c.get('boards', 0)}  (target >= 98%)")
    print("  by truth: " + ", ".join(f"{kind} {_shown(share)} of {c.get(f'boards {kind}', 0)}"
                                 for kind, share in result["boards_exact_by"].items()))
    print(f"factories exact:     {_shown(result['factories_exact'])} of {c.get('factories', 0)}"
          "  (target >= 99%)")
    print(f"factories wrong without unknown: {_shown(result['factories_confidently_wrong'])}")
    print(f"centre exact:        {_shown(result['centre_exact'])}")
    print(f"centre wrong without unknown: {_shown(result['centre_confidently_wrong'])}")
    print(f"flagged occluded:    {_shown(result['occluded_flagged'])} of {c.get('photos_occluded', 0)} "
          f"photos with something over the game, {_shown(result['clear_flagged'])} of "
          f"{c.get('photos_clear', 0)} without")
    print(f"extra boards / factories: {result['extra_boards']} / {result['extra_factories']}")
    for size, ms in result["latency_median_ms"].items():
        print(f"median latency {size}: {ms:.0f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
