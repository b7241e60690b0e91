"""Every Kids screen drawn from a seeded game, for screenshots and tests.

surface, canvas, app = render("prompt", (800, 480), players=4, side="master")
"""

from __future__ import annotations

import random

import pygame

from companion.i18n import _
from companion.kids_tracker import Prompt, Warning
from companion.rules.kids import KidsState, KidsTake
from companion.ui.app import App
from companion.ui.kids.demo import GreedyKidsBot
from companion.ui.kids.entry import KidsEntryScreen
from companion.ui.kids.screens import (
    CelebrationScreen,
    KidsEndScreen,
    KidsPromptScreen,
    KidsTableScreen,
    KidsWarningScreen,
)
from companion.ui.kids.settings import kids_boards, kids_settings
from companion.ui.kids.view import Celebration, KidsTableView, build_kids_view
from companion.ui.screens.base import Action
from companion.ui.screens.confirm import OTHER
from companion.ui.widgets import Canvas

SCREENS = ("table", "prompt", "none", "warning", "celebration", "end", "entry", "entry-options", "entry-fill")


def sample_game(players: int, side: str, takes: int | None, seed: int = 3) -> KidsState:
    """A game played by greedy bots for ``takes`` takes (None: to the end)."""
    rng = random.Random(seed)
    game = KidsState(side, kids_boards(side, players))
    bot = GreedyKidsBot(rng)
    done = 0
    while not game.is_over() and (takes is None or done < takes or game.needs_fill):
        if game.needs_fill:
            game.push(game.draw_fill(rng))
        else:
            game.push(bot.choose(game))
            done += 1
    return game


def fill_due(players: int, side: str, seed: int = 3) -> KidsState:
    """A game played until the bowls are empty again after the first fill."""
    rng = random.Random(seed)
    game = KidsState(side, kids_boards(side, players))
    bot = GreedyKidsBot(rng)
    game.push(game.draw_fill(rng))
    while not game.needs_fill:
        game.push(bot.choose(game))
    return game


def _ambiguous(game: KidsState) -> tuple[KidsTake, ...]:
    """Two or three takes of one colour from different bowls: what a hand over the tray leaves open."""
    moves = game.generate_legal_moves()
    by_color: dict[str, list[KidsTake]] = {}
    for move in moves:
        same = by_color.setdefault(move.color, [])
        if all(m.source != move.source for m in same):
            same.append(move)
    best = max(by_color.values(), key=len)
    return tuple(best[:3])


class _Still:
    """A pipeline that shows one view and does nothing."""

    def __init__(self, view: KidsTableView) -> None:
        self.view = view

    def first(self) -> KidsTableView:
        return self.view

    def step(self) -> None:
        return None

    def act(self, action: str) -> None:
        return None

    def close(self) -> None:
        """Nothing to close."""


def sample_view(name: str, players: int, side: str) -> KidsTableView:
    names = kids_settings(side, players).names
    if name == "end":
        return build_kids_view(sample_game(players, side, None), names)
    if name == "entry-fill":
        game = fill_due(players, side)
        prompt = Prompt((game.draw_fill(random.Random(5)),), 0, None)
        return build_kids_view(game, names, prompt=prompt)
    # The list of every take is longest just after a fill.
    game = sample_game(players, side, 0 if name.startswith("entry") else 4 * players + 1)
    if name in ("prompt", "none", "entry", "entry-options"):
        prompt = Prompt(_ambiguous(game), 0, game.turn)
        return build_kids_view(game, names, prompt=prompt)
    if name == "warning":
        board = game.boards[game.turn]
        pictures = game.pictures(game.turn)
        picture, index = next(
            (p, f)
            for p in pictures
            for f, full in enumerate(p.filled)
            if not full and p.shapes[f] != "square"
        )
        message = _("{name}: a {color} tile lies on a {field} field; it belongs on a {shape} field.").format(
            name=names[game.turn], color=_("red"), field=_(picture.shapes[index]), shape=_("square")
        )
        warning = Warning(
            "wrong-shape",
            message,
            {"board": game.turn, "picture": picture.id, "field": index, "color": "red"},
        )
        assert board.picture(picture.id)
        return build_kids_view(game, names, warnings=(warning,))
    if name == "celebration":
        seat = next((s for s in range(players) if game.complete_pictures(s)), 0)
        done = game.complete_pictures(seat) or (game.boards[seat].pictures[0].id,)
        return build_kids_view(
            game, names, celebration=Celebration(1, seat, done[0], game.boards[seat].picture(done[0]).stars)
        )
    return build_kids_view(game, names)


def render(
    name: str, size: tuple[int, int], players: int = 4, side: str = "master", elapsed: float = 1.0
) -> tuple[pygame.Surface, Canvas, App]:
    view = sample_view(name, players, side)
    settings = kids_settings(side, players)
    app = App(size, lambda _settings: _Still(view), settings, threaded=False, end_seconds=None)
    app.start(settings)
    if name == "celebration":
        for screen in app.stack:
            if isinstance(screen, CelebrationScreen):
                screen.elapsed = elapsed
    if name == "none":  # "none of these" highlighted, as Next from the last candidate leaves it
        prompt = app.top
        assert isinstance(prompt, KidsPromptScreen)
        prompt.other = True
    if name.startswith("entry"):
        app.action(Action(OTHER, "touch"))
        entry = app.top
        assert isinstance(entry, KidsEntryScreen)
        if name == "entry-options":
            # The take with the most ways of placing (master); the apprentice side has none.
            wide = max(range(len(entry.groups)), key=lambda i: len(entry.groups[i]))
            if len(entry.groups[wide]) > 1:
                entry.press(f"group:{wide}")
                entry.focus = 1
    surface = pygame.Surface(size)
    canvas = app.draw(surface)
    return surface, canvas, app


SCREEN_TYPES = {
    "table": KidsTableScreen,
    "prompt": KidsPromptScreen,
    "none": KidsPromptScreen,
    "warning": KidsWarningScreen,
    "celebration": CelebrationScreen,
    "end": KidsEndScreen,
    "entry": KidsEntryScreen,
    "entry-options": KidsEntryScreen,
    "entry-fill": KidsEntryScreen,
}
