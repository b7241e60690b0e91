"""Random games on one core: how fast the Azul rules engine plays.

Each move is chosen uniformly from the complete legal-move list; refills are drawn with
a seeded RNG; games are capped at --max-rounds (a 4-player game can, rarely, never end).

    python benchmarks/bench_rules.py --players 2 --seconds 10 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from companion.rules.azul import OVER, REFILL, Game


def play(game: Game, rng: random.Random, max_rounds: int, checked: bool = False) -> tuple[int, int]:
    """Play one game to its end or the round cap; returns (moves, legal-move calls)."""
    moves = calls = 0
    choice = rng.choice
    push = game.push if checked else game.push_unchecked
    while game.phase != OVER:
        if game.phase == REFILL:
            if game.round >= max_rounds:
                break
            game.push(game.draw_refill(rng))
            continue
        legal = game.generate_legal_moves()
        calls += 1
        push(choice(legal))
        moves += 1
    return moves, calls


def run(players: int, seconds: float, *, seed: int, variant: str, max_rounds: int,
        checked: bool = False) -> dict:
    rng = random.Random(seed)
    games = moves = calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        m, c = play(Game(players, variant), rng, max_rounds, checked)
        games += 1
        moves += m
        calls += c
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": round(games / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
        "legal_calls_per_s": round(calls / elapsed, 1),
        "games": games,
        "moves_per_game": round(moves / games, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="colored", choices=("colored", "grey"))
    parser.add_argument("--max-rounds", type=int, default=50)
    parser.add_argument("--checked", action="store_true",
                        help="validate every move again on push (as the tracker does)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.players, args.seconds, seed=args.seed, variant=args.variant,
                 max_rounds=args.max_rounds, checked=args.checked)
    if args.json:
        print(json.dumps({k: result[k] for k in ("games_per_s", "moves_per_s", "legal_calls_per_s")}))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
