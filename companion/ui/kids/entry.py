"""Kids "none of these": every legal event as picture cards, for when the tracker's question
does not offer what happened (or it cannot follow the table). No words.

- A take: first every bowl and colour that may be taken (the tray with its bowl lit and the
  tiles taken); where that take leaves a choice (the master side's pictures), the take's
  every way of placing as the prompt's cards (the animal and picture the tiles went to).
- A fill: the five bowls as columns of tiles, as many as each gets; a press on a tile gives
  it the next colour (shape), the green tick saves.

Pages of cards, one dot per page. Three buttons drive it alone: Next/Previous move the
highlight over the cards and the back arrow (pages follow), Confirm presses the highlighted
one; Undo goes back. Touch: a tap on a card that leads on presses it, a tap on a card that
enters an event highlights it (a second tap, or the tick, enters it), so a stray touch
never records anything. The entry goes to the tracker as :func:`enter_command`; it checks
it against the rules (a fill against the bag) and warns if it cannot have happened.
"""

from __future__ import annotations

import pygame

from companion.rules.kids import COLORS, Fill, KidsTake
from companion.ui import theme
from companion.ui.kids import cards, draw
from companion.ui.kids.view import Candidate, KidsTableView, enter_command
from companion.ui.layout import columns, rows
from companion.ui.screens.base import Action, Host, Screen
from companion.ui.widgets import Canvas

BACK = "back"
SAVE = "save"


class KidsEntryScreen(Screen):
    overlay = True

    def __init__(self) -> None:
        super().__init__()
        self.events = -1  # the game's event count when opened: the list is of that moment
        self.player: int | None = None
        self.groups: list[tuple[Candidate, ...]] = []  # legal takes by bowl and colour
        self.group: int | None = None  # the group whose options are shown
        self.fill: list[list[str]] = []  # a fill being entered, bowl by bowl
        self.focus = 0
        self.page = 0

    def enter(self, host: Host) -> None:
        super().enter(host)
        view: KidsTableView | None = host.view  # type: ignore[assignment]
        if view is None:
            return
        self.events, self.player = view.events, view.turn
        if view.fill_sizes:
            self.fill = _first_fill(view)
        else:
            self.groups = _groups(view.moves)

    def on_view(self, view: KidsTableView) -> None:  # type: ignore[override]
        # The tracker moved on (an answer, a new reading): the list is of a past moment.
        if view.events != self.events or view.over:
            assert self.host is not None
            self.host.pop(self)

    # -- input --

    def items(self) -> list[str]:
        """The focus order: every card, then the way out (a fill: save, then back)."""
        if self.fill:
            tiles = [f"tile:{b}:{k}" for b, bowl in enumerate(self.fill) for k in range(len(bowl))]
            return [*tiles, SAVE, BACK]
        if self.group is None:
            return [*(f"group:{i}" for i in range(len(self.groups))), BACK]
        return [*(f"option:{i}" for i in range(len(self.groups[self.group]))), BACK]

    def handle(self, action: Action) -> bool:
        items = self.items()
        if action.name in ("next", "previous"):
            self.focus = (self.focus + (1 if action.name == "next" else -1)) % len(items)
        elif action.name == "confirm":
            self.press(items[min(self.focus, len(items) - 1)])
        elif action.name == "undo":
            self.press(BACK)
        elif action.name in items:
            index = items.index(action.name)
            if self._enters(action.name) and self.focus != index:
                self.focus = index  # a card that records an event: highlighted first
            else:
                self.focus = index
                self.press(action.name)
        return True

    def _enters(self, item: str) -> bool:
        kind, _sep, value = item.partition(":")
        return kind == "option" or (kind == "group" and len(self.groups[int(value)]) == 1)

    def press(self, item: str) -> None:
        assert self.host is not None
        kind, _sep, value = item.partition(":")
        if kind == BACK:
            if self.group is not None:
                self.focus, self.group, self.page = self.group, None, 0
            else:
                self.host.pop(self)
        elif kind == "group":
            options = self.groups[int(value)]
            if len(options) == 1:
                self._send(options[0].event)
            else:
                self.group, self.focus, self.page = int(value), 0, 0
        elif kind == "option" and self.group is not None:
            self._send(self.groups[self.group][int(value)].event)
        elif kind == "tile":
            bowl, place = (int(v) for v in value.split(":"))
            tiles = self.fill[bowl]
            tiles[place] = COLORS[(COLORS.index(tiles[place]) + 1) % len(COLORS)]
        elif kind == SAVE:
            self._send(Fill(tuple(tuple(bowl) for bowl in self.fill)))

    def _send(self, event: KidsTake | Fill) -> None:
        assert self.host is not None
        self.host.send(enter_command(event))
        self.host.pop(self)

    # -- drawing --

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        view: KidsTableView | None = self.host.view  # type: ignore[assignment]
        if view is None:
            return
        m = canvas.metrics
        canvas.shade()
        box = m.rect.inflate(-2 * m.dp(16), -2 * m.dp(12))
        canvas.panel(box, theme.PANEL, border=theme.ACCENT)
        inner = box.inflate(-2 * m.pad, -2 * m.pad)
        head, body, buttons = rows(inner, [m.dp(56), 1.0, m.dp(64)], m.pad)
        items = self.items()
        focused = items[min(self.focus, len(items) - 1)]
        who, chosen, dots = columns(head, [head.height, 1.0, 0.5], m.pad)
        if self.fill:
            draw.bowl(canvas, who.center, who.height * 0.45, (0,) * len(COLORS), number=None)
            draw.icon(canvas, "question", who.inflate(-m.dp(14), -m.dp(14)), theme.ACCENT)
            self._bowls(canvas, body, focused)
        else:
            if self.player is not None:
                draw.animal(canvas, self.player, who)
            if self.group is not None:
                cards.candidate(canvas, chosen, view, self.groups[self.group][0], placements=False)
            pages = self._cards(canvas, body, view, focused)
            draw.page_dots(canvas, dots, pages, self.page)
        self._buttons(canvas, buttons, focused)

    def _cards(self, canvas: Canvas, body: pygame.Rect, view: KidsTableView, focused: str) -> int:
        """The page of cards holding the highlight; returns the number of pages."""
        m = canvas.metrics
        if self.group is None:
            shown = [(f"group:{i}", g) for i, g in enumerate(self.groups)]
            lanes = 1 if m.portrait else 2
            card_h = max(m.touch, min(m.dp(84), (body.height - 2 * m.pad) // 3))
        else:
            shown = [(f"option:{i}", (c,)) for i, c in enumerate(self.groups[self.group])]
            lanes = 1
            card_h = max(m.touch, min(m.dp(110), (body.height - 2 * m.pad) // 3))
        per_lane = max(1, (body.height + m.pad) // (card_h + m.pad))
        per_page = per_lane * lanes
        pages = max(1, -(-len(shown) // per_page))
        if self.focus < len(shown):
            self.page = self.focus // per_page
        self.page = min(self.page, pages - 1)
        lane_rects = columns(body, [1.0] * lanes, m.pad)
        for n, (item, options) in enumerate(shown[self.page * per_page:(self.page + 1) * per_page]):
            lane = lane_rects[n // per_lane]
            card = pygame.Rect(lane.left, lane.top + (n % per_lane) * (card_h + m.pad), lane.width, card_h)
            lit = item == focused
            canvas.panel(card, theme.BUTTON_SELECTED if lit else theme.PANEL_LIGHT,
                         border=theme.FOCUS if lit else None)
            inside = card.inflate(-2 * m.pad, -m.pad)
            if self.group is None and len(options) > 1:
                # A take that leaves a choice: its bowl and tiles, and a fan of cards (choose next).
                face, fan = columns(inside, [1.0, round(inside.height * 0.9)], m.pad)
                cards.candidate(canvas, face, view, options[0], placements=False)
                _fan(canvas, fan, len(options))
            else:
                cards.candidate(canvas, inside, view, options[0], placements=self.group is not None)
            canvas.target(card, item)
        return pages

    def _bowls(self, canvas: Canvas, body: pygame.Rect, focused: str) -> None:
        """The fill: each bowl a column of its tiles, and the green tick that saves it."""
        m = canvas.metrics
        *bowls, save = columns(body, [1.0] * (len(self.fill) + 1), m.pad)
        for b, (column, tiles) in enumerate(zip(bowls, self.fill, strict=True)):
            number, stack = rows(column, [m.dp(34), 1.0], m.dp(4))
            pygame.draw.rect(canvas.surface, draw.BOWL_RGB, column, border_radius=m.dp(10))
            draw.dots(canvas, b + 1, number.center, number.height * 1.2)
            if not tiles:
                continue
            cell_h = min(round(m.touch * 1.3), (stack.height - 4 * m.dp(4)) // 5)
            for k, color in enumerate(tiles):
                cell = pygame.Rect(stack.left + m.dp(4), stack.top + k * (cell_h + m.dp(4)),
                                   stack.width - 2 * m.dp(4), cell_h)
                item = f"tile:{b}:{k}"
                canvas.panel(cell, draw.BOWL_FLOOR_RGB, border=theme.FOCUS if item == focused else None,
                             width=m.dp(4))
                draw.tile(canvas, color, cell.center, min(cell.width, cell.height) * 0.8)
                canvas.target(cell, item)
        lit = focused == SAVE
        canvas.panel(save, theme.GOOD, border=theme.FOCUS if lit else None, width=m.dp(4))
        draw.icon(canvas, "confirm", save.inflate(-m.dp(10), -m.dp(10)))
        canvas.target(save, SAVE)

    def _buttons(self, canvas: Canvas, rect: pygame.Rect, focused: str) -> None:
        m = canvas.metrics
        back, previous, following, confirm = columns(rect, [1.0, 1.0, 1.0, 1.4], m.pad)
        for part, kind, action, rgb in (
            (back, "undo", BACK, theme.PANEL_LIGHT),
            (previous, "previous", "previous", theme.BUTTON),
            (following, "next", "next", theme.BUTTON),
            (confirm, "confirm", "confirm", theme.GOOD),
        ):
            canvas.panel(part, rgb, border=theme.FOCUS if action == focused else None, width=m.dp(4))
            draw.icon(canvas, kind, part.inflate(-m.dp(10), -m.dp(10)))
            canvas.target(part, action)


def _groups(moves: tuple[Candidate, ...]) -> list[tuple[Candidate, ...]]:
    """The legal takes by bowl (1-5, then the big one) and colour, each with its every placing."""
    found: dict[tuple[object, str | None], list[Candidate]] = {}
    for move in moves:
        found.setdefault((move.source, move.color), []).append(move)

    def order(key: tuple[object, str | None]) -> tuple[int, int]:
        source, color = key
        return (source if isinstance(source, int) else 99, COLORS.index(color) if color in COLORS else 9)

    return [tuple(found[key]) for key in sorted(found, key=order)]


def _first_fill(view: KidsTableView) -> list[list[str]]:
    """Where entering a fill starts: the fill the tracker asked about, else red tiles everywhere."""
    if view.prompt is not None:
        for candidate in view.prompt.candidates:
            if candidate.bowls and tuple(len(b) for b in candidate.bowls) == view.fill_sizes:
                return [list(bowl) for bowl in candidate.bowls]
    return [[COLORS[0]] * size for size in view.fill_sizes]


def _fan(canvas: Canvas, rect: pygame.Rect, count: int) -> None:
    """A fan of cards: this take is placed in one of ``count`` ways, chosen on the next page."""
    size = min(rect.width, rect.height)
    shown = min(count, 3)
    for k in range(shown):
        card = pygame.Rect(0, 0, size * 0.5, size * 0.66)
        card.center = (round(rect.centerx + (k - (shown - 1) / 2) * size * 0.16),
                       round(rect.centery - (k - (shown - 1) / 2) * size * 0.06))
        pygame.draw.rect(canvas.surface, (200, 204, 214), card, border_radius=max(2, round(size / 14)))
        pygame.draw.rect(canvas.surface, draw.DARK, card, max(1, round(size / 30)),
                         border_radius=max(2, round(size / 14)))
    draw.icon(canvas, "question", pygame.Rect(0, 0, size * 0.5, size * 0.5).move(
        round(rect.centerx - size * 0.25 + (shown - 1) * size * 0.08),
        round(rect.centery - size * 0.25 - (shown - 1) * size * 0.03)), draw.DARK)
