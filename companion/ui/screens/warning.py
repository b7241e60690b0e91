"""A tracker warning in plain words, with a picture pointing at the problem."""

from __future__ import annotations

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, rows
from companion.ui.pictures import draw_board, draw_factories
from companion.ui.screens.base import Action, Screen
from companion.ui.screens.entry import EntryScreen
from companion.ui.widgets import Canvas


class WarningScreen(Screen):
    """Shown while the tracker reports a problem; it goes away once the table is fixed.

    "Hide" puts it away until a different problem comes up.
    """

    overlay = True

    def __init__(self) -> None:
        super().__init__()
        self.hidden = False

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        if action.name in ("hide", "confirm"):
            self.hidden = True
            self.host.pop(self)
            return True
        if action.name == "enter":
            self.host.push(EntryScreen())
            return True
        if action.name == "undo":
            self.host.send("undo")
            return True
        return action.name != "menu"

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        view = self.host.view
        if view is None or not view.warnings:
            return
        warning = view.warnings[0]
        m = canvas.metrics
        inner = canvas.dialog(theme.WARNING_BG, theme.BAD, margin=(20, 14))
        title, body, buttons = rows(inner, [canvas.line_height("title"), 1.0, m.touch], m.pad)
        canvas.text(_("Please check the table"), title, "title", theme.TEXT)
        if m.portrait:
            picture, words = rows(body, [0.55, 0.45], m.pad)
        else:
            picture, words = columns(body, [0.45, 0.55], 2 * m.pad)
        canvas.panel(picture, theme.PANEL)
        where = warning.where
        seat = where.get("board")
        if isinstance(seat, int) and 0 <= seat < len(view.seats):
            label, art = rows(picture.inflate(-m.pad, -m.pad), [canvas.line_height("small"), 1.0], m.pad // 2)
            canvas.text(view.names[seat], label, "small", align="center", elide=True)
            draw_board(canvas, art, view.seats[seat], view.variant, highlight=where)
        else:
            draw_factories(canvas, picture.inflate(-m.pad, -m.pad), view, highlight=where)
        used = canvas.wrap(warning.message, words, "large")
        more = words.copy()
        more.top += used + m.pad
        more.height = max(0, words.bottom - more.top)
        if more.height >= canvas.line_height("small"):
            canvas.wrap(_("Fix the table and this message goes away."), more, "small", theme.TEXT_DIM)
        hide, enter = columns(buttons, [0.4, 0.6], m.pad)
        canvas.button(hide, _("Hide"), "hide")
        if not view.over:
            canvas.button(enter, _("Enter the move"), "enter")
