"""The confirmation prompt: the tracker's candidates, best first; Next/Previous move, Confirm takes."""

from __future__ import annotations

import pygame

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, rows
from companion.ui.screens.base import Action, Screen
from companion.ui.widgets import Canvas, wrap_words


class ConfirmScreen(Screen):
    overlay = True

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        view = self.host.view
        if action.name.startswith("pick:") and view is not None and view.prompt is not None:
            # A tapped candidate: the tracker only knows Next and Previous, so walk there.
            delta = int(action.name.removeprefix("pick:")) - view.prompt.selected
            for _step in range(abs(delta)):
                self.host.send("next" if delta > 0 else "previous")
            return True
        if action.name in ("confirm", "next", "previous", "undo"):
            self.host.send(action.name)
            return True
        return action.name != "menu"

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        view = self.host.view
        if view is None or view.prompt is None:
            return
        prompt = view.prompt
        m = canvas.metrics
        canvas.shade()
        box = m.rect.inflate(-2 * m.dp(24), -2 * m.dp(16))
        canvas.panel(box, theme.PANEL, border=theme.ACCENT)
        inner = box.inflate(-2 * m.pad, -2 * m.pad)
        title_h = canvas.line_height("large")
        hint_text = _("Next picks another; Confirm accepts the highlighted one.")
        hint_lines = len(wrap_words(canvas.fonts, hint_text, m.min_text, inner.width))
        title, hint, body, buttons = rows(
            inner, [title_h, hint_lines * canvas.line_height("small"), 1.0, m.touch], m.pad)
        who = view.names[prompt.player] if prompt.player is not None else ""
        canvas.text(_("Is this what happened?") + (f" ({who})" if who else ""), title, "large", theme.ACCENT)
        canvas.wrap(hint_text, hint, "small", theme.TEXT_DIM)
        row_h = m.touch
        space = max(1, (body.height + m.pad // 2) // (row_h + m.pad // 2))
        first = min(max(0, prompt.selected - space + 1), max(0, len(prompt.candidates) - space))
        for i in range(first, min(len(prompt.candidates), first + space)):
            row = pygame.Rect(body.left, body.top + (i - first) * (row_h + m.pad // 2), body.width, row_h)
            selected = i == prompt.selected
            canvas.panel(row, theme.BUTTON_SELECTED if selected else theme.PANEL_LIGHT)
            label = row.inflate(-2 * m.pad, 0)
            if prompt.colors[i] is not None:
                icon, label = columns(label, [row_h - m.dp(10), 1.0], m.pad)
                canvas.tile(icon, prompt.colors[i])
            canvas.text(prompt.candidates[i], label, "body")
            canvas.target(row, f"pick:{i}", prompt.candidates[i])
        previous, following, confirm = columns(buttons, [0.3, 0.3, 0.4], m.pad)
        canvas.button(previous, _("Previous"), "previous")
        canvas.button(following, _("Next"), "next")
        canvas.button(confirm, _("Confirm"), "confirm", selected=True)

