"""The round summary: each point of the round explained ("red, row 2: 3 across + 2 down = 5")."""

from __future__ import annotations

import math

import pygame

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, grid, rows
from companion.ui.screens.base import Action, Screen
from companion.ui.view import RoundReport
from companion.ui.widgets import Canvas


class RoundScreen(Screen):
    """Shown after each round's tiling; closes itself after ``seconds`` (None: only on Confirm)."""

    def __init__(self, report: RoundReport, seconds: float | None = 12.0) -> None:
        super().__init__()
        self.report = report
        self.seconds = seconds
        self.page = 0
        self._pages = 1
        self._shown = -1

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        if action.name == "more" or (action.name == "next" and self._pages > 1):
            self.page = (self.page + 1) % self._pages
            return True
        if action.name in ("confirm", "continue"):
            self.host.pop(self)
            return True
        return action.name != "menu"

    def update(self, dt: float) -> bool:
        assert self.host is not None
        if self.seconds is None:
            return False
        self.seconds -= dt
        if self.seconds <= 0:
            self.host.pop(self)
            return True
        return math.ceil(self.seconds) != self._shown

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        names = self.host.view.names if self.host.view else ()
        m = canvas.metrics
        canvas.fill()
        area = m.rect.inflate(-2 * m.pad, -2 * m.pad)
        title, body, buttons = rows(area, [canvas.line_height("title"), 1.0, m.touch], m.pad)
        canvas.text(_("Round {n}: where the points come from").format(n=self.report.number), title, "title",
                    theme.ACCENT)
        widest = max((canvas.fonts.size(text, m.min_text)[0] for seat in self.report.seats
                      for text, _points in seat.lines), default=0)
        cols = max(1, min(len(self.report.seats), (body.width + m.pad) // (widest + 3 * m.pad)))
        longest = max(max(len(seat.lines), 1) for seat in self.report.seats)
        needed = canvas.line_height("large") + longest * canvas.line_height("small") + 2 * m.pad + m.pad
        per_col = max(1, (body.height + m.pad) // (needed + m.pad))
        per_page = cols * per_col
        self._pages = math.ceil(len(self.report.seats) / per_page)
        self.page %= self._pages
        seats = self.report.seats[self.page * per_page:(self.page + 1) * per_page]
        for seat, cell in zip(seats, grid(body, per_page, cols, m.pad), strict=False):
            canvas.panel(cell)
            inner = cell.inflate(-2 * m.pad, -2 * m.pad)
            head, lines = rows(inner, [canvas.line_height("large"), 1.0], m.pad // 2)
            name, total = columns(head, [1.0, canvas.fonts.size("+88 = 888", m.text("large"))[0]], m.pad)
            canvas.text(names[seat.seat] if seat.seat < len(names) else "", name, "large", elide=True)
            canvas.text(f"{seat.gained:+d} = {seat.score}", total, "large",
                        theme.GOOD if seat.gained > 0 else theme.TEXT, align="right")
            step = canvas.line_height("small")
            texts = seat.lines or ((_("no tiles this round"), 0),)
            for i, (text, points) in enumerate(texts):
                slot = pygame.Rect(lines.left, lines.top + i * step, lines.width, step)
                canvas.text(text, slot, "small", theme.BAD if points < 0 else theme.TEXT)
        if self._pages > 1:
            more, go = columns(buttons, [0.5, 0.5], m.pad)
            canvas.button(more, _("Page {n} of {total}").format(n=self.page + 1, total=self._pages), "more")
        else:
            go = buttons
        label = _("Continue")
        if self.seconds is not None:
            self._shown = math.ceil(self.seconds)
            label = _("Continue ({seconds})").format(seconds=self._shown)
        canvas.button(go, label, "continue", selected=True)
