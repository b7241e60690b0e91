"""The confirmation prompt: the tracker's candidates, best first; Next/Previous move, Confirm takes."""

from __future__ import annotations

import pygame

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, rows
from companion.ui.screens.base import Action, Screen
from companion.ui.screens.entry import EntryScreen
from companion.ui.widgets import Canvas, wrap_words

OTHER = "other"  # the "none of these" row


class Question(Screen):
    """A question of the tracker's whose last choice, "none of these", opens ``entry``: the
    list of every legal event.

    The tracker knows only its candidates, so the screen keeps that choice's highlight itself:
    Next from the last candidate lands on it, Next again wraps to the first.
    """

    overlay = True
    entry: type[Screen]

    def __init__(self) -> None:
        super().__init__()
        self.other = False  # "none of these" is highlighted

    def on_view(self, view) -> None:  # type: ignore[no-untyped-def]
        if view.prompt is None:
            self.other = False

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        view = self.host.view
        prompt = view.prompt if view is not None else None
        if action.name == OTHER or (action.name == "confirm" and self.other):
            self.other = False
            self.host.push(self.entry())
            return True
        if action.name.startswith("pick:") and prompt is not None:
            # A tapped candidate: the tracker only knows Next and Previous, so walk there.
            self.other = False
            delta = int(action.name.removeprefix("pick:")) - prompt.selected
            for _step in range(abs(delta)):
                self.host.send("next" if delta > 0 else "previous")
            return True
        if action.name in ("next", "previous") and prompt is not None:
            last = len(prompt.candidates) - 1
            forward = action.name == "next"
            if self.other:
                self.other = False
                if forward:
                    self.host.send("next")  # the tracker wraps from the last candidate to the first
            elif prompt.selected == (last if forward else 0):
                self.other = True
                if not forward:
                    self.host.send("previous")  # ... and from the first to the last, beside "none of these"
            else:
                self.host.send(action.name)
            return True
        if action.name in ("confirm", "undo"):
            self.host.send(action.name)
            return True
        return action.name != "menu"


class ConfirmScreen(Question):
    """The tracker's candidates in words, best first, and "none of these" as the last row."""

    entry = EntryScreen

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        view = self.host.view
        if view is None or view.prompt is None:
            return
        prompt = view.prompt
        m = canvas.metrics
        inner = canvas.dialog()
        title_h = canvas.line_height("large")
        hint_text = _("Next picks another; Confirm accepts the highlighted one.")
        hint_lines = len(wrap_words(canvas.fonts, hint_text, m.min_text, inner.width))
        title, hint, body, buttons = rows(
            inner, [title_h, hint_lines * canvas.line_height("small"), 1.0, m.touch], m.pad)
        who = view.names[prompt.player] if prompt.player is not None else ""
        canvas.text(_("Is this what happened?") + (f" ({who})" if who else ""), title, "large", theme.ACCENT)
        canvas.wrap(hint_text, hint, "small", theme.TEXT_DIM)
        row_h = m.touch
        labels = [*prompt.candidates, _("None of these: choose what happened")]
        chosen = len(prompt.candidates) if self.other else prompt.selected
        space = max(1, (body.height + m.pad // 2) // (row_h + m.pad // 2))
        first = min(max(0, chosen - space + 1), max(0, len(labels) - space))
        for i in range(first, min(len(labels), first + space)):
            row = pygame.Rect(body.left, body.top + (i - first) * (row_h + m.pad // 2), body.width, row_h)
            canvas.panel(row, theme.BUTTON_SELECTED if i == chosen else theme.PANEL_LIGHT)
            label = row.inflate(-2 * m.pad, 0)
            if i < len(prompt.candidates) and prompt.colors[i] is not None:
                icon, label = columns(label, [row_h - m.dp(10), 1.0], m.pad)
                canvas.tile(icon, prompt.colors[i])
            dim = i == len(prompt.candidates)
            canvas.text(labels[i], label, "body", theme.TEXT_DIM if dim else theme.TEXT, elide=True)
            canvas.target(row, f"pick:{i}" if i < len(prompt.candidates) else OTHER, labels[i])
        previous, following, confirm = columns(buttons, [0.3, 0.3, 0.4], m.pad)
        canvas.button(previous, _("Previous"), "previous")
        canvas.button(following, _("Next"), "next")
        canvas.button(confirm, _("Confirm"), "confirm", selected=True)
