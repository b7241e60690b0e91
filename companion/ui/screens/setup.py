"""Setting up a game: the game (Azul or Azul Kids), Azul's wall or the Kids boards' side and
whose boards, 2-4 players and their names. Touch, or three buttons alone (Next/Previous move
the focus, Confirm presses)."""

from __future__ import annotations

from companion.i18n import _
from companion.rules.kids_board import APPRENTICE, MASTER, KidsBoard
from companion.session import AZUL, KIDS
from companion.ui import theme
from companion.ui.kids.settings import KidsSettings, of_side
from companion.ui.layout import columns, grid, rows
from companion.ui.screens.base import Action, FocusScreen, Host, Settings
from companion.ui.screens.keyboard import KeyboardScreen
from companion.ui.widgets import Canvas

GAMES = (AZUL, KIDS)  # Azul Duel joins once the tracker follows it


def game_name(game: str) -> str:
    return _("Azul Kids") if game == KIDS else _("Azul")


def default_names(count: int = 4) -> tuple[str, ...]:
    return tuple(_("Player {n}").format(n=n) for n in range(1, count + 1))


class SetupScreen(FocusScreen):
    """``back``: opened from a running game, so it can go back to it.

    Azul Kids boards: the examples, or "our boards", a family's own boards of the chosen side
    (the app's ``own_boards``, from the configuration, and those of the game it came from).
    """

    def __init__(self, settings: Settings | None = None, back: bool = False) -> None:
        super().__init__()
        settings = settings or Settings(default_names(2))
        kids = isinstance(settings, KidsSettings)
        self.game = settings.game
        self.variant = "colored" if kids else settings.variant
        self.side = settings.variant if kids else APPRENTICE
        self.count = len(settings.names)
        self.names = list(settings.names) + list(default_names())[len(settings.names):]
        self.back = back
        self.library: tuple[KidsBoard, ...] = settings.boards if kids else ()
        # Our boards or the examples; None: ours if there are any, decided once the app is known.
        self.own: bool | None = bool(settings.boards) if kids else None

    def enter(self, host: Host) -> None:
        super().enter(host)
        # A host without a library of boards (a test's fake) offers the examples alone.
        own = tuple(getattr(host, "own_boards", ()))
        self.library = tuple(dict.fromkeys(own + self.library))
        if self.own is None:
            self.own = bool(self.library)

    def ours(self) -> tuple[KidsBoard, ...]:
        """Our boards of the chosen side (handed out in turn round the table)."""
        return of_side(self.library, self.side)

    def chosen(self) -> Settings:
        names = tuple(self.names[: self.count])
        if self.game == KIDS:
            return KidsSettings(names, self.side, boards=self.ours() if self.own else ())
        return Settings(names, self.variant, self.game)

    def press(self, action: str) -> bool:
        assert self.host is not None
        kind, _sep, value = action.partition(":")
        if kind == "variant":
            self.variant = value
        elif kind == "side":
            self.side = value
        elif kind == "boards":
            self.own = value == "own"
        elif kind == "players":
            self.count = int(value)
        elif kind == "game":
            self.game = value
        elif kind == "name":
            seat = int(value)
            self.host.push(KeyboardScreen(self.names[seat], lambda text: self._rename(seat, text)))
        elif kind == "start":
            settings = self.chosen()
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
        # Portrait is narrow: each row's label goes above its buttons instead of beside them.
        label_h = canvas.line_height("small") if m.portrait else 0
        kids = self.game == KIDS
        line = label_h + m.touch
        boards_h = [line] if kids else []  # the Kids boards' row
        sizes = [canvas.line_height("title"), line, line, *boards_h, line, label_h + names_h, 1.0,
                 m.touch + m.dp(8)]
        title, game, variant, *boards, players, names, _gap, go = rows(area, sizes, m.pad)
        canvas.text(_("New game"), title, "title", theme.ACCENT)

        def row(rect, label):
            if m.portrait:
                head, rest = rows(rect, [label_h, 1.0])
            else:
                head, rest = columns(rect, [m.dp(120), 1.0], m.pad)
            canvas.text(label, head, "small", theme.TEXT_DIM)
            return rest

        def option(rect, label, action, selected, enabled=True):
            canvas.button(rect, label, action, selected=selected, focused=self.focused(action),
                          enabled=enabled)

        for cell, value in zip(columns(row(game, _("Game")), [1.0] * len(GAMES), m.pad), GAMES, strict=True):
            option(cell, game_name(value), f"game:{value}", self.game == value)
        if kids:
            cells = columns(row(variant, _("Side")), [1.0, 1.0], m.pad)
            option(cells[0], _("apprentice"), f"side:{APPRENTICE}", self.side == APPRENTICE)
            option(cells[1], _("master"), f"side:{MASTER}", self.side == MASTER)
            # "Our boards" waits, greyed, until there are boards of this side to hand out.
            ours = bool(self.ours())
            cells = columns(row(boards[0], _("Boards")), [1.0, 1.0], m.pad)
            option(cells[0], _("example boards"), "boards:examples", not (ours and self.own))
            option(cells[1], _("our boards"), "boards:own", ours and bool(self.own), enabled=ours)
        else:
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

