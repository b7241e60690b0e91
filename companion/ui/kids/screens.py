"""The Kids screens: pictures, not words.

- :class:`KidsTableScreen`: the tray (bowls glowing in the colour of the player to move
  when they hold tiles that fit that player's board; tiles that do not fit are faded)
  and every board with its animal; the player to move is the big animal over the tray
  and their board is framed in their colour.
- :class:`KidsPromptScreen`: the tracker's question as picture cards (bowl number as
  dots, the tiles' shape and count, the animal and picture they went to), and a last
  "none of these" card that opens every legal event (companion/ui/kids/entry.py).
- :class:`KidsWarningScreen`: a tile on the wrong shape, circled on its board, with the
  right shape beside it; other problems as a picture with the tracker's words; a "none of
  these" button opens every legal event as on the prompt.
- :class:`CelebrationScreen`: a picture completed: it fills the screen and its stars burst.
- :class:`KidsEndScreen`: the winner's animal under confetti, every player's stars.
"""

from __future__ import annotations

import math
import random

import pygame

from companion.rules.kids import BIG
from companion.ui import theme
from companion.ui.kids import cards, draw
from companion.ui.kids.entry import KidsEntryScreen
from companion.ui.kids.view import Celebration, KidsTableView
from companion.ui.layout import columns, grid, rows
from companion.ui.screens.base import Action, Screen
from companion.ui.screens.confirm import OTHER, Question
from companion.ui.widgets import Canvas, Drawn

CELEBRATION_SECONDS = 3.0


def _boards_grid(rect: pygame.Rect, players: int, gap: int) -> list[pygame.Rect]:
    cols = 2 if players == 4 else 1
    return grid(rect, players, cols, gap)


class KidsTableScreen(Screen):
    """The live Kids table (see the module doc). Menu (hold Confirm) opens the setup screen."""

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        if action.name == "menu":
            from companion.ui.screens.setup import SetupScreen  # noqa: PLC0415  (screens refer to each other)

            self.host.push(SetupScreen(self.host.settings, back=True))
            return True
        if action.name in ("confirm", "next", "previous", "undo"):
            self.host.send(action.name)
            return True
        return False

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        view: KidsTableView | None = self.host.view  # type: ignore[assignment]
        m = canvas.metrics
        canvas.fill()
        if view is None:
            draw.icon(
                canvas,
                "camera",
                pygame.Rect(0, 0, m.dp(120), m.dp(120)).move(
                    m.width // 2 - m.dp(60), m.height // 2 - m.dp(60)
                ),
                theme.TEXT_DIM,
            )
            return
        area = m.rect.inflate(-2 * m.pad, -2 * m.pad)
        if m.portrait:
            left, right = rows(area, [0.45, 0.55], m.pad)
        else:
            left, right = columns(area, [0.42, 0.58], m.pad)
        self._tray(canvas, left, view)
        for seat, cell in zip(view.seats, _boards_grid(right, len(view.seats), m.pad), strict=True):
            draw_seat(canvas, view, seat.seat, cell, turn=view.turn == seat.seat)
        if view.status:
            canvas.text(
                view.status,
                pygame.Rect(area.left, area.bottom - m.dp(28), area.width, m.dp(28)),
                "small",
                theme.BAD,
                elide=True,
            )

    def _tray(self, canvas: Canvas, rect: pygame.Rect, view: KidsTableView) -> None:
        m = canvas.metrics
        badge_h = min(m.dp(96), rect.height // 4)
        badge, tray, buttons = rows(rect, [badge_h, 1.0, m.touch], m.pad)
        if view.turn is not None:
            rgb = draw.SEAT_RGB[view.turn]
            canvas.panel(badge, theme.PANEL, border=rgb, width=m.dp(4))
            draw.animal(canvas, view.turn, badge.inflate(-m.dp(6), -m.dp(6)))
        elif view.outcome is None:
            # A fill is due: a big bowl with a "?" asks the table to fill the bowls.
            draw.icon(canvas, "question", badge, theme.ACCENT)
        radius = min(tray.width, tray.height) / 2
        center = tray.center
        small = radius * 0.25
        ring = radius - small * 1.15
        glow = draw.SEAT_RGB[view.turn] if view.turn is not None else None
        draw.bowl(
            canvas,
            center,
            radius * 0.33,
            view.bowls[5],
            number=None,
            fits=view.fits,
            glow=glow if BIG in view.glowing else None,
            tile_size=min(small * 0.55, radius * 0.12),
        )
        for number in range(1, 6):
            # Bowl 1 nearest the bottom, then clockwise, as the camera numbers them.
            a = math.pi / 2 + (number - 1) * 2 * math.pi / 5
            at = (center[0] + ring * math.cos(a), center[1] + ring * math.sin(a))
            lit = number in view.glowing
            draw.bowl(
                canvas,
                at,
                small,
                view.bowls[number - 1],
                number=number,
                fits=view.fits,
                glow=glow if lit else None,
            )
        back = pygame.Rect(buttons.left, buttons.top, m.touch, m.touch)
        canvas.panel(back, theme.BUTTON)
        draw.icon(canvas, "undo", back.inflate(-m.dp(8), -m.dp(8)))
        canvas.target(back, "undo")


def draw_seat(
    canvas: Canvas,
    view: KidsTableView,
    seat: int,
    rect: pygame.Rect,
    *,
    turn: bool = False,
    highlight: str | None = None,
    wrong: tuple[str, int] | None = None,
) -> None:
    """One player's panel: the animal, the stars (master) and the board."""
    m = canvas.metrics
    info = view.seats[seat]
    rgb = draw.SEAT_RGB[seat]
    canvas.panel(
        rect, theme.PANEL_LIGHT if turn else theme.PANEL, border=rgb if turn else None, width=m.dp(5)
    )
    inner = rect.inflate(-m.dp(8), -m.dp(8))
    side = min(inner.height, max(m.dp(30), inner.width // 5))
    if inner.width > inner.height * 1.9:
        badge, board_rect = columns(inner, [side, 1.0], m.dp(4))
        head = pygame.Rect(badge.left, badge.top, side, side)
        stars_rect = pygame.Rect(badge.left, head.bottom, side, badge.bottom - head.bottom)
    else:
        top, board_rect = rows(inner, [min(side, inner.height // 4), 1.0], m.dp(4))
        head = pygame.Rect(top.left, top.top, top.height, top.height)
        stars_rect = pygame.Rect(head.right + m.dp(4), top.top, top.width - head.width - m.dp(4), top.height)
    draw.animal(canvas, seat, head)
    if view.variant == "master" and stars_rect.height > 4 and stars_rect.width > 4:
        size = min(stars_rect.height, stars_rect.width, m.dp(26))
        draw.star(canvas, (stars_rect.left + size / 2 + 2, stars_rect.top + size / 2 + 2), size)
        count = pygame.Rect(
            stars_rect.left + size + m.dp(4), stars_rect.top, stars_rect.width - size - m.dp(4), size + 4
        )
        if count.width > m.dp(20):
            canvas.text(str(info.stars), count, "small", draw.GOLD)
    draw.board(
        canvas, view.boards[seat], info.filled, board_rect, highlight=highlight, done=info.done, wrong=wrong
    )


class _Overlay(Screen):
    overlay = True

    def view(self) -> KidsTableView | None:
        assert self.host is not None
        return self.host.view  # type: ignore[return-value]


class KidsPromptScreen(Question, _Overlay):
    """The tracker asks: which of these happened? Cards, arrows and a tick; no words.

    The last card, "none of these" (a card crossed out, and every tile shape), opens the list
    of every legal event (:class:`~companion.ui.kids.entry.KidsEntryScreen`). The tracker
    knows only its candidates, so the screen keeps that card's highlight itself: Next from
    the last candidate lands on it, Next again wraps to the first.
    """

    entry = KidsEntryScreen

    def draw(self, canvas: Canvas) -> None:
        view = self.view()
        if view is None or view.prompt is None:
            return
        prompt = view.prompt
        m = canvas.metrics
        canvas.shade()
        box = m.rect.inflate(-2 * m.dp(16), -2 * m.dp(12))
        canvas.panel(box, theme.PANEL, border=theme.ACCENT)
        inner = box.inflate(-2 * m.pad, -2 * m.pad)
        head, body, buttons = rows(inner, [m.dp(64), 1.0, m.dp(72)], m.pad)
        who, ask = columns(head, [m.dp(64), m.dp(64)], m.pad)
        if prompt.player is not None:
            draw.animal(canvas, prompt.player, who)
        draw.icon(canvas, "question", ask, theme.ACCENT)
        count = len(prompt.candidates) + 1  # the candidates, then "none of these"
        chosen = len(prompt.candidates) if self.other else prompt.selected
        card_h = max(m.touch, min(m.dp(110), body.height // 2 - m.pad))
        space = max(1, (body.height + m.pad) // (card_h + m.pad))
        first = min(max(0, chosen - space + 1), max(0, count - space))
        for i in range(first, min(count, first + space)):
            card = pygame.Rect(body.left, body.top + (i - first) * (card_h + m.pad), body.width, card_h)
            selected = i == chosen
            canvas.panel(
                card,
                theme.BUTTON_SELECTED if selected else theme.PANEL_LIGHT,
                border=theme.FOCUS if selected else None,
            )
            inside = card.inflate(-2 * m.pad, -m.pad)
            if i < len(prompt.candidates):
                cards.candidate(canvas, inside, view, prompt.candidates[i])
                canvas.target(card, f"pick:{i}")
            else:
                draw.none_of_these(canvas, inside)
                canvas.target(card, OTHER)
        previous, following, confirm = columns(buttons, [1.0, 1.0, 1.4], m.pad)
        for rect, kind, rgb in (
            (previous, "previous", theme.BUTTON),
            (following, "next", theme.BUTTON),
            (confirm, "confirm", theme.GOOD),
        ):
            canvas.panel(rect, rgb)
            draw.icon(canvas, kind, rect.inflate(-m.dp(10), -m.dp(10)))
            canvas.target(rect, kind)


class KidsWarningScreen(_Overlay):
    """A problem at the table, shown as a picture; it goes when the table is put right."""

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        if action.name in ("hide", "confirm"):
            self.host.pop(self)
            return True
        if action.name == OTHER:
            self.host.pop(self)
            self.host.push(KidsEntryScreen())
            return True
        if action.name == "undo":
            self.host.send("undo")
            return True
        return action.name != "menu"

    def draw(self, canvas: Canvas) -> None:
        view = self.view()
        if view is None or not view.warnings:
            return
        warning = view.warnings[0]
        m = canvas.metrics
        canvas.shade()
        box = m.rect.inflate(-2 * m.dp(16), -2 * m.dp(12))
        canvas.panel(box, theme.WARNING_BG, border=theme.BAD)
        inner = box.inflate(-2 * m.pad, -2 * m.pad)
        picture, words, buttons = rows(inner, [1.0, canvas.line_height("small") * 2, m.touch], m.pad)
        where = warning.where
        seat = where.get("board")
        if warning.code == "wrong-shape" and isinstance(seat, int) and 0 <= seat < len(view.seats):
            board_rect, fix = columns(picture, [0.62, 0.38], m.pad)
            draw_seat(
                canvas,
                view,
                seat,
                board_rect,
                turn=True,
                highlight=where.get("picture"),
                wrong=(where.get("picture"), where.get("field")),
            )
            # The tile, an arrow, and the field it belongs on.
            color = where.get("color")
            tile_at, arrow, target = rows(fix, [1.0, 0.6, 1.0], m.pad)
            size = min(tile_at.width, tile_at.height) * 0.8
            draw.tile(canvas, color, tile_at.center, size)
            pygame.draw.polygon(
                canvas.surface,
                theme.TEXT,
                [
                    (arrow.centerx - arrow.height * 0.3, arrow.top + arrow.height * 0.1),
                    (arrow.centerx + arrow.height * 0.3, arrow.top + arrow.height * 0.1),
                    (arrow.centerx, arrow.bottom - arrow.height * 0.1),
                ],
            )
            pygame.draw.rect(
                canvas.surface,
                draw.BOARD_RGB,
                pygame.Rect(0, 0, size * 1.2, size * 1.2).move(
                    target.centerx - size * 0.6, target.centery - size * 0.6
                ),
                border_radius=m.dp(6),
            )
            draw.field(canvas, draw.SHAPE_OF_COLOR[color], target.center, size)
        elif isinstance(seat, int) and 0 <= seat < len(view.seats):
            draw_seat(canvas, view, seat, picture, turn=True)
        else:
            draw.icon(canvas, "camera", picture, theme.TEXT)
        canvas.wrap(warning.message, words, "small", theme.TEXT, align="center")
        back = pygame.Rect(buttons.left, buttons.top, m.touch * 2, m.touch)
        canvas.panel(back, theme.BUTTON)
        draw.icon(canvas, "undo", back.inflate(-m.dp(8), -m.dp(8)))
        canvas.target(back, "undo")
        hide = pygame.Rect(buttons.right - m.touch * 2, buttons.top, m.touch * 2, m.touch)
        canvas.panel(hide, theme.GOOD)
        draw.icon(canvas, "confirm", hide.inflate(-m.dp(8), -m.dp(8)))
        canvas.target(hide, "hide")
        if view.moves or view.fill_sizes:
            # "None of these" here too: what happened, picked from every legal event.
            other = pygame.Rect(0, 0, min(m.touch * 4, hide.left - back.right - 2 * m.pad), m.touch)
            other.center = ((back.right + hide.left) // 2, buttons.centery)
            canvas.panel(other, theme.BUTTON)
            draw.none_of_these(canvas, other.inflate(-m.dp(8), -m.dp(6)))
            canvas.target(other, OTHER)


def _burst(
    canvas: Canvas, center: tuple[float, float], radius: float, *, t: float, count: int, seed: int
) -> None:
    """Stars flying out from ``center``; ``t`` 0..1 how far they have gone."""
    rng = random.Random(seed)
    m = canvas.metrics
    screen = m.rect.inflate(-m.dp(20), -m.dp(20))
    for k in range(count):
        a = 2 * math.pi * k / count + rng.uniform(-0.2, 0.2)
        r = radius * (0.3 + 0.9 * t) * rng.uniform(0.7, 1.1)
        size = m.dp(18) + m.dp(14) * rng.random()
        at = (center[0] + r * math.cos(a), center[1] + r * math.sin(a))
        if screen.collidepoint(at):
            draw.star(canvas, at, size)


class CelebrationScreen(_Overlay):
    """A picture was completed: it is shown big with its stars bursting out, for a moment."""

    def __init__(self, celebration: Celebration, seconds: float = CELEBRATION_SECONDS) -> None:
        super().__init__()
        self.celebration = celebration
        self.seconds = seconds
        self.elapsed = 0.0

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        if action.name in ("confirm", "tap", "hide"):
            self.host.pop(self)
        return action.name != "menu"

    def update(self, dt: float) -> bool:
        assert self.host is not None
        self.elapsed += dt
        if self.elapsed >= self.seconds:
            self.host.pop(self)
        return True

    def draw(self, canvas: Canvas) -> None:
        view = self.view()
        if view is None:
            return
        c = self.celebration
        m = canvas.metrics
        canvas.shade()
        box = m.rect.inflate(-2 * m.dp(40), -2 * m.dp(30))
        canvas.panel(box, theme.PANEL, border=draw.SEAT_RGB[c.seat], width=m.dp(6))
        inner = box.inflate(-2 * m.pad, -2 * m.pad)
        face, picture, stars = columns(inner, [0.22, 0.5, 0.28], m.pad)
        draw.animal(canvas, c.seat, face)
        info = view.seats[c.seat]
        draw.board(canvas, view.boards[c.seat], info.filled, picture, only=c.picture, done=info.done)
        size = min(stars.width * 0.6, stars.height / max(1, c.stars) * 0.85)
        for k in range(c.stars):
            draw.star(canvas, (stars.centerx, stars.top + (k + 0.5) * stars.height / max(1, c.stars)), size)
        t = min(1.0, self.elapsed / max(0.1, self.seconds * 0.6))
        reach = min(m.width, m.height) * 0.6
        _burst(canvas, picture.center, reach, t=t, count=10 + 2 * c.stars, seed=c.serial)
        canvas.target(m.rect, "hide")


class KidsEndScreen(Screen):
    """The end: the winner's animal (or winners') under confetti, and everyone's stars.

    Two buttons: play again (the same players and boards) and the setup screen (three
    sliders, for the grown-ups); Next/Previous move the highlight, Confirm presses it,
    Menu (hold Confirm) opens the setup screen. ``seconds``: play again by itself after so
    long (the demo's kiosk mode; None: wait).
    """

    BUTTONS = ("again", "setup")

    def __init__(self, view: KidsTableView, seconds: float | None = None) -> None:
        super().__init__()
        self.final = view
        self.seconds = seconds
        self.elapsed = 0.0
        self.focus = 0

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        name = action.name
        if name in ("next", "previous"):
            self.focus = (self.focus + 1) % len(self.BUTTONS)
            return True
        if name == "confirm":
            name = self.BUTTONS[self.focus]
        if name == "again":
            self.host.start(self.host.settings)
            return True
        if name in ("setup", "menu"):
            from companion.ui.screens.setup import SetupScreen  # noqa: PLC0415  (screens refer to each other)

            self.seconds = None  # a person is choosing: no game starts by itself under them
            self.host.push(SetupScreen(self.host.settings))
            return True
        return False

    def update(self, dt: float) -> bool:
        assert self.host is not None
        self.elapsed += dt
        if self.seconds is not None and self.elapsed >= self.seconds:
            self.seconds = None
            self.host.start(self.host.settings)
        return True

    def draw(self, canvas: Canvas) -> None:
        view = self.final
        outcome = view.outcome
        m = canvas.metrics
        canvas.fill()
        area = m.rect.inflate(-2 * m.pad, -2 * m.pad)
        # Every player's stars in a row; on a narrow portrait screen, two to a row.
        per_row = 2 if m.portrait else len(view.seats)
        lines = math.ceil(len(view.seats) / per_row)
        score_h = min(m.dp(110), area.height // 4)
        stage, scores = rows(area, [1.0, lines * score_h + (lines - 1) * m.pad], m.pad)
        main, again = columns(stage, [1.0, m.dp(96)], m.pad)
        winners = outcome.winners if outcome is not None else ()
        if winners:
            self._confetti(canvas, stage)
            for seat, cell in zip(winners, columns(main, [1.0] * len(winners), m.pad), strict=True):
                # Three stars over each winner, as wide as the cell allows (a narrow portrait screen).
                crown_h = min(cell.height // 5, int(cell.width / 3.4))
                crown = pygame.Rect(cell.left, cell.top, cell.width, crown_h)
                for k in range(3):
                    draw.star(
                        canvas,
                        (crown.centerx + (k - 1) * crown.height * 1.1, crown.centery),
                        crown.height * 0.9,
                    )
                draw.animal(
                    canvas, seat, pygame.Rect(cell.left, crown.bottom, cell.width, cell.height - crown.height)
                )
        else:
            # A stalled game: no winner; every board with its empty fields.
            for seat, cell in zip(view.seats, _boards_grid(main, len(view.seats), m.pad), strict=True):
                draw_seat(canvas, view, seat.seat, cell)
        side = max(m.touch, min(again.width, (again.height - m.pad) // 2))
        top = again.centery - (2 * side + m.pad) // 2
        for k, action in enumerate(self.BUTTONS):
            button = pygame.Rect(again.left, top + k * (side + m.pad), again.width, side)
            canvas.panel(button, theme.GOOD if action == "again" else theme.BUTTON,
                         border=theme.FOCUS if k == self.focus else None, width=m.dp(4))
            draw.icon(canvas, action, button.inflate(-m.dp(12), -m.dp(12)))
            canvas.target(button, action)
        for seat, cell in zip(view.seats, grid(scores, len(view.seats), per_row, m.pad), strict=True):
            winner = seat.seat in winners
            canvas.panel(
                cell,
                theme.PANEL_LIGHT if winner else theme.PANEL,
                border=draw.SEAT_RGB[seat.seat] if winner else None,
                width=m.dp(4),
            )
            face, rest = columns(
                cell.inflate(-m.dp(6), -m.dp(6)), [min(cell.height, cell.width // 3), 1.0], m.dp(4)
            )
            draw.animal(canvas, seat.seat, face)
            if view.variant == "master":
                self._stars(canvas, rest, seat.stars)

    def _stars(self, canvas: Canvas, rect: pygame.Rect, stars: int) -> None:
        m = canvas.metrics
        size = min(rect.height * 0.45, m.dp(30))
        if not stars:
            draw.star(canvas, rect.center, size, filled=False)
            return
        per_row = max(1, int(rect.width // (size * 1.05)))
        if stars > per_row * 2:  # too many to show one by one: a star and the number
            draw.star(canvas, (rect.left + size, rect.centery), size * 1.4)
            canvas.text(
                str(stars),
                pygame.Rect(rect.left + size * 2, rect.top, rect.width - size * 2, rect.height),
                "large",
                draw.GOLD,
            )
            return
        lines = math.ceil(stars / per_row)
        for k in range(stars):
            r, c = divmod(k, per_row)
            draw.star(
                canvas,
                (rect.left + size * (0.55 + c * 1.05), rect.centery + (r - (lines - 1) / 2) * size * 1.05),
                size,
            )

    def _confetti(self, canvas: Canvas, rect: pygame.Rect) -> None:
        rng = random.Random(7)
        colors = [*draw.TILE_RGB.values(), *draw.SEAT_RGB]
        shapes = list(draw.SHAPE_OF_COLOR.values())
        for _k in range(60):
            x = rect.left + rng.random() * rect.width
            fall = (rng.random() + self.elapsed * rng.uniform(0.15, 0.35)) % 1.0
            y = rect.top + fall * rect.height
            size = canvas.metrics.dp(8) + rng.random() * canvas.metrics.dp(8)
            points = draw.shape_points(rng.choice(shapes), (x, y), size)
            pygame.draw.polygon(canvas.surface, rng.choice(colors), points)
        canvas.log.append(Drawn("confetti", rect.copy(), text="60"))
