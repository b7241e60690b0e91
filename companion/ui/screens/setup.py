"""Setting up a game: game, variant, 2-4 players and their names. Touch, or three buttons alone
(Next/Previous move the focus, Confirm presses)."""

from __future__ import annotations

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import columns, grid, rows
from companion.ui.screens.base import Action, FocusScreen, Settings
from companion.ui.screens.keyboard import KeyboardScreen
from companion.ui.widgets import Canvas

GAMES = ("azul",)  # Azul Kids and Azul Duel join once the tracker follows them


def default_names(count: int = 4) -> tuple[str, ...]:
    return tuple(_("Player {n}").format(n=n) for n in range(1, count + 1))


class SetupScreen(FocusScreen):
    """``back``: opened from a running game, so it can go back to it."""

    def __init__(self, settings: Settings | None = None, back: bool = False) -> None:
        super().__init__()
        settings = settings or Settings(default_names(2))
        self.variant = settings.variant
        self.game = settings.game
        self.count = len(settings.names)
        self.names = list(settings.names) + list(default_names())[len(settings.names):]
        self.back = back

    def press(self, action: str) -> bool:
        assert self.host is not None
        kind, _sep, value = action.partition(":")
        if kind == "variant":
            self.variant = value
        elif kind == "players":
            self.count = int(value)
        elif kind == "game":
            self.game = value
        elif kind == "name":
            seat = int(value)
            self.host.push(KeyboardScreen(self.names[seat], lambda text: self._rename(seat, text)))
        elif kind == "start":
            settings = Settings(tuple(self.names[: self.count]), self.variant, self.game)
            self.host.pop(self)
            self.host.start(settings)
        elif kind == "back":
            self.host.pop(self)
        else:
            return False
        return True

    def _rename(self, seat: int, text: str) -> None:
        self.names[seat] = text.strip() or default_names()[seat]

    def handle(self, action: Action) -> bool:
        if action.name == "menu" and self.back:
            return self.press("back")
        return super().handle(action)

    def draw(self, canvas: Canvas) -> None:
        m = canvas.metrics
        canvas.fill()
        start = len(canvas.targets)
        area = m.rect.inflate(-2 * m.pad, -2 * m.pad)
        name_rows = 2 if m.portrait else 1
        names_h = name_rows * m.touch + (name_rows - 1) * m.pad
        title, game, variant, players, names, _gap, go = rows(
            area, [canvas.line_height("title"), m.touch, m.touch, m.touch, names_h, 1.0, m.touch + m.dp(8)],
            m.pad)
        canvas.text(_("New game"), title, "title", theme.ACCENT)
        label_w = m.dp(120)

        def row(rect, label):
            head, rest = columns(rect, [label_w, 1.0], m.pad)
            canvas.text(label, head, "small", theme.TEXT_DIM)
            return rest

        def option(rect, label, action, selected):
            canvas.button(rect, label, action, selected=selected, focused=self.focused(action))

        for cell, value in zip(columns(row(game, _("Game")), [1.0] * 3, m.pad), GAMES, strict=False):
            option(cell, _("Azul"), f"game:{value}", self.game == value)
        cells = columns(row(variant, _("Wall")), [1.0, 1.0], m.pad)
        option(cells[0], _("coloured wall"), "variant:colored", self.variant == "colored")
        option(cells[1], _("grey wall"), "variant:grey", self.variant == "grey")
        for cell, n in zip(columns(row(players, _("Players")), [1.0] * 3, m.pad), (2, 3, 4), strict=True):
            option(cell, str(n), f"players:{n}", self.count == n)
        cells = grid(row(names, _("Names")), 4, 4 // name_rows, m.pad)
        for seat, cell in enumerate(cells):
            if seat < self.count:
                option(cell, self.names[seat], f"name:{seat}", False)
        if self.back:
            back, begin = columns(go, [0.35, 0.65], m.pad)
            option(back, _("Back"), "back", False)
        else:
            begin = go
        canvas.button(begin, _("Start"), "start", selected=True, focused=self.focused("start"), size="large")
        self.remember_targets(canvas, start)

