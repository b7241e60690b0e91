"""The end of the game: the winner, the tie-break explained, and where each score comes from."""

from __future__ import annotations

import math

import pygame

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, rows
from companion.ui.screens.base import Action, FocusScreen
from companion.ui.view import Ending
from companion.ui.widgets import Canvas


class EndScreen(FocusScreen):
    """``seconds``: start the next game by itself after so long (the demo's kiosk mode)."""

    def __init__(self, ending: Ending, names: tuple[str, ...], seconds: float | None = None) -> None:
        super().__init__()
        self.ending = ending
        self.names = names
        self.seconds = seconds
        self._shown = -1

    def press(self, action: str) -> bool:
        assert self.host is not None
        if action == "again":
            self.host.start(self.host.settings)
            return True
        if action == "setup":
            from companion.ui.screens.setup import SetupScreen  # noqa: PLC0415
            self.host.push(SetupScreen(self.host.settings))
            return True
        return False

    def handle(self, action: Action) -> bool:
        if action.name == "menu":
            return self.press("setup")
        return super().handle(action)

    def update(self, dt: float) -> bool:
        if self.seconds is None:
            return False
        self.seconds -= dt
        if self.seconds <= 0:
            self.seconds = None
            return self.press("again")
        return math.ceil(self.seconds) != self._shown

    def draw(self, canvas: Canvas) -> None:
        m = canvas.metrics
        ending = self.ending
        canvas.fill()
        area = m.rect.inflate(-2 * m.pad, -2 * m.pad)
        reason_h = 2 * canvas.line_height("small") if ending.reason else 0
        title, reason, table, buttons = rows(
            area, [canvas.line_height("title"), reason_h, 1.0, m.touch], m.pad)
        canvas.text(ending.verdict, title, "title", theme.ACCENT, align="center")
        if ending.reason:
            canvas.wrap(ending.reason, reason, "small", align="center")
        self._table(canvas, table)
        start = len(canvas.targets)
        again, setup = columns(buttons, [0.5, 0.5], m.pad)
        label = _("Play again")
        if self.seconds is not None:
            self._shown = math.ceil(self.seconds)
            label = _("Play again ({seconds})").format(seconds=self._shown)
        canvas.button(again, label, "again", focused=self.focused("again"), selected=True)
        canvas.button(setup, _("New players"), "setup", focused=self.focused("setup"))
        self.remember_targets(canvas, start)

    def _table(self, canvas: Canvas, rect: pygame.Rect) -> None:
        m = canvas.metrics
        ending = self.ending
        labels = [_("wall"), _("floor"), _("rows"), _("columns"), _("colours"), _("total")]
        label_w = max(canvas.fonts.size(text, m.min_text)[0] for text in labels) + m.dp(16)
        canvas.panel(rect)
        inner = rect.inflate(-2 * m.pad, -m.pad)
        count = len(self.names)
        widths = [label_w] + [1.0] * count
        row_h = min(canvas.line_height("large") + m.dp(4), inner.height // 7)
        lines = rows(inner, [row_h] * 7)
        head = columns(lines[0], widths, m.dp(4))
        for seat, cell in enumerate(head[1:]):
            winner = seat in ending.outcome.winners
            canvas.text(self.names[seat], cell, "body", theme.ACCENT if winner else theme.TEXT, align="right",
                        elide=True)
        for i, label in enumerate(labels):
            cells = columns(lines[i + 1], widths, m.dp(4))
            total = i == len(labels) - 1
            if total:
                pygame.draw.line(canvas.surface, theme.TEXT_DIM, cells[0].topleft, lines[i + 1].topright,
                                 max(1, m.dp(2)))
            canvas.text(label, cells[0], "small", theme.TEXT_DIM)
            for seat, cell in enumerate(cells[1:]):
                b = ending.breakdowns[seat]
                value = (b.wall, -b.floor, b.rows, b.columns, b.colors, b.total)[i]
                text = str(value) if total else (f"{value:+d}" if value else "0")
                canvas.text(text, cell, "large" if total else "body", align="right",
                            rgb=theme.BAD if value < 0 else theme.TEXT)
