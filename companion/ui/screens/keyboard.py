"""Typing a player's name on the touchscreen (or letter by letter with Next and Confirm)."""

from __future__ import annotations

from collections.abc import Callable

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, grid, rows
from companion.ui.screens.base import FocusScreen
from companion.ui.widgets import Canvas

# Letters of every language the companion speaks (da, de, es, nl, pl) beside English.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅÄÖÜßÑĄĆĘŁŃÓŚŹŻ"
MAX_NAME = 12


class KeyboardScreen(FocusScreen):
    def __init__(self, text: str, done: Callable[[str], None]) -> None:
        super().__init__()
        self.text = text
        self.done = done
        self.fresh = True  # the first letter typed replaces the old name

    def press(self, action: str) -> bool:
        assert self.host is not None
        if action.startswith("key:"):
            letter = action.removeprefix("key:")
            if self.fresh:
                self.text, self.fresh = "", False
            if len(self.text) < MAX_NAME:
                capital = not self.text or self.text.endswith(" ")
                self.text += letter if capital else letter.lower()
        elif action == "space":
            self.fresh = False
            if self.text and len(self.text) < MAX_NAME:
                self.text += " "
        elif action == "delete":
            self.fresh = False
            self.text = self.text[:-1]
        elif action == "done":
            self.done(self.text)
            self.host.pop(self)
        else:
            return False
        return True

    def draw(self, canvas: Canvas) -> None:
        m = canvas.metrics
        canvas.fill()
        start = len(canvas.targets)
        area = m.rect.inflate(-2 * m.pad, -2 * m.pad)
        top, keys, bottom = rows(area, [m.touch, 1.0, m.touch], m.pad)
        field, done = columns(top, [1.0, m.dp(150)], m.pad)
        canvas.panel(field, theme.PANEL_LIGHT)
        canvas.text(self.text or _("(name)"), field.inflate(-2 * m.pad, 0), "large",
                    theme.TEXT if self.text else theme.TEXT_DIM)
        per_row = 7 if m.portrait else 11
        for cell, letter in zip(grid(keys, len(LETTERS), per_row, m.pad // 2), LETTERS, strict=True):
            canvas.button(cell, letter, f"key:{letter}", focused=self.focused(f"key:{letter}"), size="large")
        space, delete = columns(bottom, [0.6, 0.4], m.pad)
        canvas.button(space, _("Space"), "space", focused=self.focused("space"))
        canvas.button(delete, _("Delete"), "delete", focused=self.focused("delete"))
        canvas.button(done, _("Done"), "done", selected=True, focused=self.focused("done"))
        self.remember_targets(canvas, start)
