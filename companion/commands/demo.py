"""`azul-companion demo`: bots play a simulated table; until the display lands, in the terminal."""

from __future__ import annotations

import argparse
import random

from companion.explain import explain
from companion.i18n import _
from companion.rules.azul import OVER, REFILL, Game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help=_("watch bots play a simulated table"),
                                   description=_("Bots play a game of Azul on a simulated table."))
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--variant", default="colored", choices=("colored", "grey"))
    parser.add_argument("--seed", type=int, default=None)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    game = Game(args.players, args.variant)
    shown = 0
    while game.phase != OVER and game.round < 50:
        if game.phase == REFILL:
            refill = game.draw_refill(rng)
            game.push(refill)
            print(_("Round {n}: factories {tiles}").format(n=game.round, tiles=refill))
            continue
        seat = game.turn
        move = rng.choice(game.generate_legal_moves())
        game.push(move)
        print("  " + _("Player {n}: {move}").format(n=seat, move=move))
        for item in game.scoring[shown:]:
            print("    " + _("Player {n}").format(n=item.player) + ": " + explain(item))
        shown = len(game.scoring)
        if game.round_scores and game.phase != "drafting":
            print("  " + _("Scores: {scores}").format(scores=game.round_scores[-1]))
    outcome = game.outcome()
    if outcome:
        print(_("Final scores {scores}; winner(s): {winners}").format(
            scores=list(outcome.scores), winners=list(outcome.winners)))
    return 0
