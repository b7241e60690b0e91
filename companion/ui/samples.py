"""Seeded example tables for every screen: used by the tests, the screenshots and the benchmarks."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pygame

from companion.bots import GreedyBot
from companion.rules.azul import DRAFTING, OVER, REFILL, Event, Game, Place, Take
from companion.ui.app import App, Pipeline
from companion.ui.screens.base import Action, Settings
from companion.ui.screens.idle import IdleScreen
from companion.ui.screens.keyboard import KeyboardScreen
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.summary import RoundScreen
from companion.ui.screens.table import TableScreen
from companion.ui.view import TableView, build_view
from companion.ui.widgets import Canvas

# Names with the letters the font must carry (Danish, Polish, German, Spanish).
NAMES = ("Åse", "Łukasz", "Jürgen", "Nuño")


@dataclass(frozen=True)
class Seen:
    """The tracker's Accepted, as the samples make it."""

    event: Event
    player: int | None
    auto: bool = True
    revised: bool = False


@dataclass(frozen=True)
class FakePrompt:
    candidates: tuple[Event, ...]
    selected: int
    player: int | None


@dataclass(frozen=True)
class FakeWarning:
    code: str
    message: str
    where: dict


def play(players: int, variant: str = "colored", seed: int = 7, *, rounds: int | None = None,
         turns: int = 0) -> tuple[Game, Seen | None]:
    """A game by greedy bots: ``rounds`` complete rounds (None: to the end), then ``turns`` moves."""
    rng = random.Random(seed)
    bot = GreedyBot(rng)
    game = Game(players, variant)
    last = None
    while game.phase != OVER and (rounds is None or len(game.round_scores) < rounds):
        last = _advance(game, bot, rng)
    for _turn in range(turns):
        if game.phase == OVER:
            break
        last = _advance(game, bot, rng)
    return game, last


def _advance(game: Game, bot: GreedyBot, rng: random.Random) -> Seen:
    if game.phase == REFILL:
        event: Event = game.draw_refill(rng)
        game.push(event)
        return Seen(event, None)
    event = bot.choose(game)
    player = event.player if isinstance(event, Place) else game.turn
    game.push(event)
    return Seen(event, player, auto=False)


def table(players: int, variant: str = "colored") -> TableView:
    game, last = play(players, variant, rounds=2, turns=4)
    return build_view(game, NAMES[:players], last=last)


def confirm(players: int) -> TableView:
    game, last = play(players, rounds=2, turns=3)
    assert game.phase == DRAFTING
    moves = [m for m in game.generate_legal_moves() if isinstance(m, Take)][:3]
    prompt = FakePrompt(tuple(moves), 1, game.turn)
    return build_view(game, NAMES[:players], prompt=prompt, last=last)


def warning(players: int) -> TableView:
    game, last = play(players, rounds=2, turns=3)
    seat = 1
    trouble = FakeWarning("wrong-line-color", "Łukasz put red tiles on pattern line 3, which holds blue.",
                          {"board": seat, "line": 3})
    return build_view(game, NAMES[:players], warnings=(trouble,), last=last)


def refill_question(players: int) -> TableView:
    """A new round whose refill the tracker is unsure of: two draws to choose from."""
    game, last = play(players, rounds=2)
    assert game.phase == REFILL
    draws = tuple(game.copy().draw_refill(random.Random(seed)) for seed in (1, 2))
    return build_view(game, NAMES[:players], prompt=FakePrompt(draws, 0, None), last=last)


def round_end(players: int) -> TableView:
    game, last = play(players, rounds=3)
    return build_view(game, NAMES[:players], last=last)


def game_end(players: int) -> TableView:
    game, last = play(players)
    return build_view(game, NAMES[:players], last=last)


SCREENS = ("setup", "keyboard", "table", "confirm", "warning", "entry", "entry-lines", "entry-refill",
           "round", "end", "idle")


def _no_session(settings: Settings) -> Pipeline:
    raise RuntimeError("sample screens run no pipeline")


def stage(name: str, size: tuple[int, int], players: int = 4, variant: str = "colored") -> App:
    """An app showing screen ``name`` over a sample table, without a pipeline."""
    app = App(size, _no_session, Settings(NAMES[:players], variant), round_seconds=None)
    if name in ("setup", "keyboard", "idle"):
        app.reset(SetupScreen(app.settings))
        if name == "keyboard":
            app.push(KeyboardScreen(NAMES[1], lambda text: None))
        elif name == "idle":
            app.push(IdleScreen())
            app.update(40.0)  # tiles somewhere along their paths
        return app
    view = {"table": table, "confirm": confirm, "warning": warning, "round": round_end,
            "end": game_end, "entry": confirm, "entry-lines": confirm, "entry-refill": refill_question,
            }[name](players) if variant == "colored" else table(players, variant)
    app.reset(TableScreen())
    app.receive(view)
    summary = app.find(RoundScreen)
    if name != "round" and summary is not None:
        # The round's summary comes up first; these samples show what lies below it.
        app.pop(summary)
    if name.startswith("entry"):
        # "None of these" on the question, then (for -lines and -refill) the first choice.
        app.action(Action("other", "touch"))
        if name != "entry":
            app.draw(pygame.Surface(size))  # a tap finds what the last frame drew
            app.action(Action("group:0" if name == "entry-lines" else "factory:0", "touch"))
    return app


def render(name: str, size: tuple[int, int], players: int = 4, variant: str = "colored",
           ) -> tuple[pygame.Surface, Canvas, App]:
    app = stage(name, size, players, variant)
    surface = pygame.Surface(size)
    canvas = app.draw(surface)
    return surface, canvas, app
