"""Judge `azul-companion track` on held-out streams written by make_streams.py.

    ./dev run python -m benchmarks.heldout.judge DIR --jobs 2 [--limit N] [--json]

For every DIR/NNNN.jsonl it runs `azul-companion track STREAM --record OUT --json` in a
fresh process (so a crash or a hang is seen as one) and compares with DIR/NNNN.truth.json:

- exact: the final scores (and whether the game is over) equal the truth's;
- asked: confirmations the tracker says it asked;
- wrong moves: the records are compared event by event, in order (the tracker writes its
  record as the game goes, so its n-th event stands for the n-th at the table). The person
  answers truthfully, so a move the tracker asked about in step with the table is the true
  one: the first wrong move of a game was accepted without asking ("first_wrong":
  "move"). After it the games differ, so every later take or place that differs is
  counted in "wrong_moves" too; "wrong_autos" counts only the first, once per game;
- wrong refills and missed events (truth events with no counterpart) likewise. Events are
  compared as the camera can see them: a refill's tiles on a factory as a set, a grey
  place that broke the Sudoku rule (the line went to the floor) without its column, and
  the placements of one wall-tiling in seat order (players may interleave them);
- crashes: non-zero exit, a hang past --timeout, or output that is not a summary.

Writes DIR/judge.json (every game and the totals) and prints the totals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from companion.rules import azul_record
from companion.rules.azul import COLORS, Game
from companion.rules.errors import RulesError

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "vision", "hardware")
TARGETS = {"exact": 0.995, "asked_per_game": 2.0, "wrong_per_1000_moves": 1.0}


def normal_events(record: dict) -> list[dict]:
    """A record's events as compared, replayed with the engine to see what is visible.

    A refill's tiles on a factory are a set (the camera cannot see the drawing order). A
    grey-wall place that breaks the Sudoku rule sends the whole line to the floor, so no
    column can be seen, and any such column means the same: it is written "floor". The
    placements of one wall-tiling are put in seat order (each player's own order kept).
    """
    game = Game(len(record["players"]), record["variant"])
    normal = []
    for event in record["events"]:
        if "refill" in event:
            normal.append({"refill": [sorted(tiles, key=COLORS.index) for tiles in event["refill"]]})
        elif "place" in event and game is not None:
            place = event["place"]
            board = game.boards[place["player"]] if 0 <= place["player"] < game.players else None
            line = place["line"] - 1
            broken = (board is not None and 0 <= line < 5 and 1 <= place["column"] <= 5
                      and board.line_counts[line] == line + 1
                      and board.col_colors[place["column"] - 1] >> board.line_colors[line] & 1)
            normal.append({"place": {**place, "column": "floor"}} if broken else event)
        else:
            normal.append(event)
        if game is not None:
            try:
                one = azul_record.read_record({**record, "events": [event]})
                azul_record.apply_event(game, one.events[0], one.movers[0])
            except RulesError:
                game = None  # an illegal record: the rest is compared as written
    # Players may interleave their placements; the result is the same in any order.
    start = 0
    while start < len(normal):
        end = start
        while end < len(normal) and "place" in normal[end]:
            end += 1
        normal[start:end] = sorted(normal[start:end], key=lambda e: e["place"]["player"])
        start = end + 1
    return normal


def _key(event: dict) -> str:
    return json.dumps(event, sort_keys=True)


def compare_events(truth: list[dict], inferred: list[dict]) -> dict:
    """Compare two lists of normal events position by position.

    The tracker writes its record as the game goes, so its n-th event stands for the n-th
    event at the table; once one differs, the games differ and later events are compared
    only to count how much of the record is wrong.
    """
    wrong_moves = wrong_refills = 0
    first = None
    for index, event in enumerate(inferred):
        if index < len(truth) and event == truth[index]:
            continue
        if first is None:
            first = index
        if "refill" in event:
            wrong_refills += 1
        else:
            wrong_moves += 1
    missed = max(0, len(truth) - len(inferred))
    if first is None and missed:
        first = len(inferred)
    if first is None:
        kind = None
    elif first >= len(inferred):
        kind = "stopped"  # every event right, but the record ends early
    else:
        kind = "refill" if "refill" in inferred[first] else "move"
    return {"wrong_moves": wrong_moves, "wrong_refills": wrong_refills, "missed": missed,
            "first_difference": first, "first_wrong": kind}


def copy_code(work: Path, rev: str | None) -> tuple[Path, str]:
    """Copy the code under test, so that one run judges one version of the tracker.

    Other developers change the working tree while a run goes on, so by default the
    committed version ``rev`` is judged (``git archive``, which leaves the repository as it
    is); with ``rev`` None, a copy of the working tree as it is now. The version names the
    commit, or for a working tree a hash of every file.
    """
    code = work / "code"
    shutil.rmtree(code, ignore_errors=True)
    code.mkdir(parents=True)
    if rev is None:
        for package in PACKAGES:
            shutil.copytree(REPO / package, code / package, ignore=shutil.ignore_patterns("__pycache__"))
        return code, f"working tree {fingerprint(code)}"
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, *PACKAGES],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
    return code, f"commit {commit[:12]}"


def fingerprint(code: Path) -> str:
    digest = hashlib.sha256()
    for package in PACKAGES:
        for path in sorted((code / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(code)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def judge_stream(stream: Path, work: Path, timeout: float, code: Path) -> dict:
    stem = stream.name.removesuffix(".jsonl")
    truth_data = json.loads(stream.with_name(stem + ".truth.json").read_text())
    truth_game = azul_record.replay(azul_record.read_record(truth_data))
    truth = azul_record.summary(truth_game)
    moves = sum(1 for e in truth_data["events"] if "refill" not in e)
    out = work / f"{stem}.out.json"
    out.unlink(missing_ok=True)
    row: dict = {"game": stem, "players": len(truth_data["players"]), "variant": truth_data["variant"],
                 "moves": moves, "true_scores": truth["scores"]}
    started = time.monotonic()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(code), env.get("PYTHONPATH")]))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", "track", str(stream.resolve()),
             "--record", str(out.resolve()), "--json"],
            # Not from the working tree: `-m` puts the current directory first on the path.
            cwd=code, capture_output=True, text=True, timeout=timeout, check=False, env=env)
    except subprocess.TimeoutExpired:
        row.update(crash=f"no answer within {timeout:.0f} s", exact=False)
        return row
    row["seconds"] = round(time.monotonic() - started, 2)
    row["exit"] = done.returncode
    try:
        summary = json.loads(done.stdout)
    except json.JSONDecodeError:
        summary = None
    if done.returncode != 0 or not isinstance(summary, dict):
        row.update(crash=(done.stderr.strip().splitlines() or ["(no message)"])[-1][:300], exact=False)
        return row
    row.update(scores=summary.get("scores"), over=summary.get("over"), asked=summary.get("asked", 0),
               auto=summary.get("auto", 0), warnings=summary.get("warnings", 0))
    return score(row, truth_data, truth, out)


def score(row: dict, truth_data: dict, truth: dict, out: Path) -> dict:
    """Compare a tracked game (its summary in ``row``, its record in ``out``) with the truth."""
    row["exact"] = row["scores"] == truth["scores"] and row["over"] == truth["over"]
    try:
        inferred = json.loads(out.read_text())["events"]
    except (OSError, ValueError, KeyError) as error:
        row.update(crash=f"no readable record: {error}", exact=False)
        return row
    truth_events = normal_events(truth_data)
    inferred_events = normal_events({**truth_data, "events": inferred})
    row.update(compare_events(truth_events, inferred_events))
    row["record_identical"] = truth_events == inferred_events
    return row


def totals(rows: list[dict]) -> dict:
    games = len(rows)
    moves = sum(r["moves"] for r in rows)
    wrong = sum(r.get("wrong_moves", 0) for r in rows)
    return {
        "games": games,
        "exact": sum(r["exact"] for r in rows),
        "exact_share": round(sum(r["exact"] for r in rows) / games, 4) if games else 0.0,
        "records_identical": sum(bool(r.get("record_identical")) for r in rows),
        "asked_per_game": round(sum(r.get("asked", 0) for r in rows) / games, 3) if games else 0.0,
        "moves": moves,
        "wrong_moves": wrong,
        "wrong_per_1000_moves": round(1000 * wrong / moves, 3) if moves else 0.0,
        "wrong_autos": sum(r.get("first_wrong") == "move" for r in rows),
        "wrong_autos_per_1000_moves": round(1000 * sum(r.get("first_wrong") == "move" for r in rows)
                                            / moves, 3) if moves else 0.0,
        "games_first_wrong_refill": sum(r.get("first_wrong") == "refill" for r in rows),
        "games_stopped_early": sum(r.get("first_wrong") == "stopped" for r in rows),
        "wrong_refills": sum(r.get("wrong_refills", 0) for r in rows),
        "missed_events": sum(r.get("missed", 0) for r in rows),
        "warnings": sum(r.get("warnings", 0) for r in rows),
        "crashes": sum("crash" in r for r in rows),
        "seconds": round(sum(r.get("seconds", 0) for r in rows), 1),
    }


def rescore(directory: Path) -> list[dict]:
    """Score the records of an earlier run again (DIR/judge.json and DIR/tracked) without tracking."""
    rows = json.loads((directory / "judge.json").read_text())["games"]
    for row in rows:
        if "crash" in row:
            continue
        truth_data = json.loads((directory / f"{row['game']}.truth.json").read_text())
        truth = azul_record.summary(azul_record.replay(azul_record.read_record(truth_data)))
        score(row, truth_data, truth, directory / "tracked" / f"{row['game']}.out.json")
    return rows


def by_shape(rows: list[dict]) -> dict:
    shapes: dict[str, list[dict]] = {}
    for r in rows:
        shapes.setdefault(f"{r['players']}p {r['variant']}", []).append(r)
    return {shape: totals(group) for shape, group in sorted(shapes.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="judge only the first N streams")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per game")
    parser.add_argument("--json", action="store_true", help="print the totals as JSON")
    parser.add_argument("--rev", default="HEAD", help="the commit to judge (default HEAD)")
    parser.add_argument("--working-tree", action="store_true",
                        help="judge a copy of the working tree as it is at the start instead of a commit")
    parser.add_argument("--code", type=Path,
                        help="judge the copy of the code made by an earlier run (its DIR/tracked/code)")
    parser.add_argument("--rescore", action="store_true",
                        help="compare the records of the last run again instead of tracking")
    args = parser.parse_args(argv)
    if args.rescore:
        earlier = json.loads((args.dir / "judge.json").read_text())
        return report(args.dir, rescore(args.dir), args.json, earlier.get("code"))
    streams = sorted(args.dir.glob("[0-9][0-9][0-9][0-9].jsonl"))[: args.limit]
    if not streams:
        print(f"judge: no NNNN.jsonl streams in {args.dir}", file=sys.stderr)
        return 2
    work = args.dir / "tracked"
    work.mkdir(exist_ok=True)
    if args.code:
        if not all((args.code / package).is_dir() for package in PACKAGES):
            print(f"judge: {args.code} holds no copy of {', '.join(PACKAGES)}", file=sys.stderr)
            return 2
        code, version = args.code.resolve(), f"copy {fingerprint(args.code)}"
    else:
        try:
            code, version = copy_code(work, None if args.working_tree else args.rev)
        except subprocess.CalledProcessError as error:
            print(f"judge: cannot take {args.rev!r} from git: {error.stderr or error}", file=sys.stderr)
            return 2
    print(f"judge: {len(streams)} streams, code {version}", file=sys.stderr)
    rows: list[dict] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for n, row in enumerate(pool.map(lambda s: judge_stream(s, work, args.timeout, code), streams), 1):
            rows.append(row)
            if not row["exact"] or row.get("wrong_moves") or "crash" in row:
                print(f"  {row['game']}: {_describe(row)}", file=sys.stderr)
            if n % 50 == 0:
                print(f"judge: {n}/{len(streams)}", file=sys.stderr)
    return report(args.dir, rows, args.json, version)


def report(directory: Path, rows: list[dict], as_json: bool, version: str | None) -> int:
    result = {"dir": str(directory), "code": version, "totals": totals(rows), "by_shape": by_shape(rows),
              "targets": TARGETS, "games": rows}
    (directory / "judge.json").write_text(json.dumps(result, indent=1) + "\n")
    if as_json:
        print(json.dumps({"code": version, "totals": result["totals"], "by_shape": result["by_shape"]}))
    else:
        t = result["totals"]
        print(f"code {version}; games {t['games']}: exact {t['exact']} "
              f"({100 * t['exact_share']:.1f}%, target >= 99.5%), "
              f"asked {t['asked_per_game']}/game (target <= 2), wrong moves {t['wrong_moves']} = "
              f"{t['wrong_per_1000_moves']} per 1,000 moves; first wrong move per game {t['wrong_autos']} = "
              f"{t['wrong_autos_per_1000_moves']} per 1,000 moves (target < 1), crashes {t['crashes']}")
    return 0


def _describe(row: dict) -> str:
    if "crash" in row:
        return f"CRASH {row['crash']}"
    return (f"{row['players']}p {row['variant']} scores {row['scores']} truth {row['true_scores']}, "
            f"asked {row['asked']}, wrong moves {row['wrong_moves']}, wrong refills {row['wrong_refills']}, "
            f"missed {row['missed']}, first difference ({row['first_wrong']}) at event "
            f"{row['first_difference']}")


if __name__ == "__main__":
    sys.exit(main())
