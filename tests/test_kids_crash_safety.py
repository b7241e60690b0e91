"""Kill the running Kids companion with SIGKILL at random moments; nothing accepted may be lost.

As tests/test_crash_safety.py does for Azul, but short: `azul-companion demo --game kids
--state-dir D --events` runs in a child process and is killed a few times. After every kill
each event the child announced is in the saved game, in order, and the saved game replays to
exactly the true game so far; the next child resumes it, and the finished game is filed whole.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from companion.kids_tracker import canonical
from companion.rules import kids_record
from companion.rules.kids import KidsState
from companion.rules.kids_record import KidsRecord
from companion.store import GameStore
from companion.ui.kids.demo import GreedyKidsBot, kids_boards

KILLS_PER_GAME = 2  # then the child plays to the end
ROOT = Path(__file__).parent.parent


def true_events(seed: int, side: str, players: int) -> list[dict]:
    """The game the Kids demo's bots play from ``seed``, as record events."""
    rng = random.Random(seed)
    state = KidsState(side, kids_boards(side, players))
    bot = GreedyKidsBot(rng)
    while not state.is_over():
        state.push(canonical(state.draw_fill(rng)) if state.needs_fill else bot.choose(state))
    record = kids_record.record_of(state, [str(seat + 1) for seat in range(players)])
    return kids_record.to_json(record)["events"]


def replayed(side: str, players: int, events: list[dict]) -> KidsState:
    record = KidsRecord(side, tuple(str(seat + 1) for seat in range(players)), kids_boards(side, players))
    return kids_record.replay({**kids_record.to_json(record), "events": events})


def saved_events(state: Path) -> list[dict]:
    store = GameStore(state)
    if not store.has_current():
        return []
    try:
        return store.resume().events
    finally:
        store.close()


def child(seed: int, side: str, players: int, state: Path, frames: Path) -> subprocess.Popen:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--game", "kids", "--side", side, "--headless",
         "--frames", str(frames), "--table", "true", "--players", str(players), "--seed", str(seed),
         "--state-dir", str(state), "--events"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def test_sigkill_at_random_moments_loses_no_accepted_kids_event(tmp_path):
    rng = random.Random(20261130)
    kills = 0
    for games in range(2):
        seed, side, players = 40 + games, ("apprentice", "master")[games % 2], 2
        truth = true_events(seed, side, players)
        state, frames = tmp_path / f"state-{games}", tmp_path / f"frames-{games}"
        for run in range(KILLS_PER_GAME + 1):
            before = saved_events(state)
            process = child(seed, side, players, state, frames)
            if run < KILLS_PER_GAME:
                # Killed after a random number of announced events, however fast the machine is.
                target, lines = rng.randint(2, 12), []
                while len(lines) < target and (line := process.stdout.readline()):
                    lines.append(line)
                if process.poll() is None:
                    process.send_signal(signal.SIGKILL)
                    kills += 1
                out = b"".join(lines) + process.stdout.read()
                process.wait()
            else:
                out, _err = process.communicate(timeout=120)
            # Only whole lines were announced; a kill can cut the last one short.
            announced = [json.loads(line) for line in out.decode().split("\n")[:-1]]
            assert all("undo" not in event for event in announced), "a perfect camera needs no undo"
            finished = sorted((state / "games").glob("*.json"))
            if process.returncode == 0 or finished:
                break  # over; a kill may have come after the game was filed, before the exit
            saved = saved_events(state)
            assert saved[len(before):len(before) + len(announced)] == announced, (
                "every event announced as safe is in the saved game, in order")
            assert saved == truth[:len(saved)], "the saved game is the true game so far"
            assert replayed(side, players, saved) == replayed(side, players, truth[:len(saved)])
        else:
            raise AssertionError(f"game {games} never finished")
        assert not (state / "current.json").exists(), "a finished game leaves the game in progress"
        (finished,) = (state / "games").glob("*_azul-kids.json")
        assert json.loads(finished.read_text())["events"] == truth
    assert kills == 2 * KILLS_PER_GAME, "the children were killed while they played"
