"""Kill the running companion with SIGKILL at random moments; nothing accepted may be lost.

The app runs for real in a child process (`azul-companion demo --state-dir D --events`):
bots play, the tracker follows, each accepted event is appended and fsynced to the game in
progress and only then printed. After every kill the test checks that every event the child
announced is in the saved game, in order, and that the saved game replays to exactly the
state of the true game at that point; then it starts the child again, which resumes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from companion.bots import GreedyBot
from companion.rules import azul_record
from companion.rules.azul import COLORS, OVER, REFILL, Game, Take
from companion.store import GameStore
from companion.ui.screens.setup import default_names

KILLS_WANTED = 50
ROOT = Path(__file__).parent.parent


def true_events(seed: int, players: int) -> list[dict]:
    """The game the demo's bots play from ``seed``: a refill drawn from the bag, else the bot's move."""
    rng = random.Random(seed)
    game = Game(players)
    bot = GreedyBot(rng)
    events = []
    while game.phase != OVER:
        event = game.draw_refill(rng) if game.phase == REFILL else bot.choose(game)
        seat = game.turn if isinstance(event, Take) else None
        game.push(event)
        events.append(azul_record.event_to_json(event, seat))
    return events


def canonical(events: list[dict]) -> list[dict]:
    """Events as the rules see them: the order of tiles within a factory does not matter."""
    return [{"refill": [sorted(tiles, key=COLORS.index) for tiles in e["refill"]]} if "refill" in e else e
            for e in events]


def replayed(players: int, events: list[dict]) -> Game:
    data = {"format": "azul-record/1", "game": "azul", "variant": "colored",
            "players": list(default_names(players)), "events": events}
    return azul_record.replay(azul_record.read_record(data))


def saved_events(state: Path) -> list[dict]:
    store = GameStore(state)
    if not store.has_current():
        return []
    try:
        return store.resume().events
    finally:
        store.close()


def child(seed: int, players: int, state: Path, frames: Path) -> subprocess.Popen:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--headless", "--frames", str(frames), "--table", "true",
         "--players", str(players), "--seed", str(seed), "--state-dir", str(state), "--events"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def test_sigkill_at_random_moments_loses_no_accepted_event(tmp_path):
    rng = random.Random(20261129)
    kills = games = 0
    while kills < KILLS_WANTED:
        seed, players = 100 + games, 2 + games % 3
        truth = true_events(seed, players)
        state, frames = tmp_path / f"state-{games}", tmp_path / f"frames-{games}"
        for _run in range(200):
            before = saved_events(state)
            process = child(seed, players, state, frames)
            # The clock starts at the first announced event, so that a loaded machine's slow
            # start does not use up the time: the kill lands at a random moment of play.
            first = process.stdout.readline()
            try:
                out, _err = process.communicate(timeout=rng.uniform(0.05, 1.2))
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
                out, _err = process.communicate()
                kills += 1
            out = first + out
            # Only whole lines were announced; a kill can cut the last one short.
            announced = [json.loads(line) for line in out.decode().split("\n")[:-1]]
            assert all("undo" not in event for event in announced), "a perfect camera needs no undo"
            finished = sorted((state / "games").glob("*.json"))
            if process.returncode == 0 or finished:
                break  # over; a kill may have come after the game was filed, before the exit
            saved = saved_events(state)
            assert saved[len(before):len(before) + len(announced)] == announced, (
                "every event announced as safe is in the saved game, in order")
            assert canonical(saved) == canonical(truth[:len(saved)]), "the saved game is the true game so far"
            assert replayed(players, saved) == replayed(players, truth[:len(saved)])
        else:
            raise AssertionError(f"game {games} never finished")
        assert not (state / "current.json").exists(), "a finished game leaves the game in progress"
        (finished,) = (state / "games").glob("*.json")
        assert canonical(json.loads(finished.read_text())["events"]) == canonical(truth)
        games += 1
    assert kills >= KILLS_WANTED and games >= 2
