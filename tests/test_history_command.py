"""`azul-companion history`: finished games, and the ones that no longer replay, said so."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main
from companion.store import GameStore

EXAMPLES = Path(__file__).parent.parent / "companion" / "examples"


def keep(state: Path, example: str, corrupt: bool = False) -> None:
    data = json.loads((EXAMPLES / example).read_text())
    store = GameStore(state)
    store.start({k: v for k, v in data.items() if k != "events"})
    events = data["events"]
    if corrupt:
        events = [*events[:3], events[1]]
    for event in events:
        store.append(event)
    store.finish()


def test_history_lists_finished_games_with_scores_and_winners(tmp_path, capsys):
    keep(tmp_path, "azul-2p-colored.json")
    keep(tmp_path, "azul-4p-colored.json")
    assert main(["history", "--state-dir", str(tmp_path), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["players"] for r in rows] == [["Ann", "Bo"], ["Ann", "Bo", "Cy", "Di"]]
    assert rows[0]["summary"]["scores"] == [56, 66] and rows[0]["summary"]["winners"] == [1]
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Ann 56, Bo 66  winner: Bo" in out


def test_a_finished_game_that_does_not_replay_is_listed_with_the_reason(tmp_path, capsys):
    keep(tmp_path, "azul-2p-colored.json", corrupt=True)
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    assert "cannot be replayed: event 3:" in capsys.readouterr().out


def test_no_games_yet(tmp_path, capsys):
    assert main(["history", "--state-dir", str(tmp_path / "none")]) == 0
    assert "No finished games" in capsys.readouterr().out


def keep_kids(state: Path, side: str, seed: int, corrupt: bool = False) -> dict:
    """A finished Kids game played by greedy bots, filed as the companion files it; its summary."""
    import random

    from companion.rules import kids_record
    from companion.rules.kids import KidsState
    from companion.ui.kids.demo import GreedyKidsBot, kids_boards

    rng = random.Random(seed)
    game = KidsState(side, kids_boards(side, 2))
    bot = GreedyKidsBot(rng)
    while not game.is_over():
        game.push(game.draw_fill(rng) if game.needs_fill else bot.choose(game))
    data = kids_record.to_json(kids_record.record_of(game, ["Mia", "Leo"]))
    events = data["events"]
    if corrupt:
        events = [*events[:2], events[1]]
    store = GameStore(state)
    store.start({k: v for k, v in data.items() if k != "events"})
    for event in events:
        store.append(event)
    store.finish()
    return kids_record.summary(game)


def test_kids_games_are_listed_with_their_winners_and_stars(tmp_path, capsys):
    keep(tmp_path, "azul-2p-colored.json")
    master = keep_kids(tmp_path, "master", 3)
    apprentice = keep_kids(tmp_path, "apprentice", 4)
    assert main(["history", "--state-dir", str(tmp_path), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["game"] for r in rows] == ["azul", "azul-kids", "azul-kids"]
    assert rows[1]["summary"] == master and rows[2]["summary"] == apprentice
    assert rows[1]["players"] == ["Mia", "Leo"] and rows[1]["error"] is None
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = ["Mia", "Leo"]
    stars = ", ".join(f"{name} {n} stars" for name, n in zip(names, master["stars"], strict=True))
    won = " & ".join(names[w] for w in master["winners"])
    assert lines[1].endswith(f"Azul Kids, master side: {stars}  winner: {won}")
    (first,) = apprentice["winners"]
    assert lines[2].endswith(f"Azul Kids, apprentice side: Mia, Leo  winner: {names[first]}")


def test_a_kids_game_that_does_not_replay_is_listed_with_the_reason(tmp_path, capsys):
    keep_kids(tmp_path, "apprentice", 4, corrupt=True)
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    assert "cannot be replayed: event 2:" in capsys.readouterr().out
