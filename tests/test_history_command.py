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
