"""Telling the tracker by hand what happened: the way out when none of its candidates is
right, or when it cannot follow the table. Touch, or three buttons alone (Next/Previous
move the focus, Confirm presses).

A take is picked in two steps, source and colour first, then where the tiles went; a
grey-wall placement as the pattern line, then the column; a refill factory by factory,
each tile's colour changed by pressing it. Only legal events are offered; the tracker
still checks the refill against bag and lid and says so if it cannot have happened.
"""

from __future__ import annotations

import pygame

from companion.i18n import _
from companion.rules.azul import CENTER, COLORS, FACTORIES, FLOOR, REFILL, Refill, Take
from companion.ui import theme
from companion.ui.layout import columns, rows
from companion.ui.screens.base import Action, FocusScreen, Host
from companion.ui.view import MoveGroup, Option, TableView, describe, enter_command
from companion.ui.widgets import Canvas

SHOWN_TILES = 4  # more tiles than this are one icon and a count


class EntryScreen(FocusScreen):
    overlay = True

    def __init__(self) -> None:
        super().__init__()
        self.moves: tuple[MoveGroup, ...] = ()
        self.phase = ""
        self.group: MoveGroup | None = None
        self.page = 0
        self.refill: list[list[int]] = []
        self.factory: int | None = None

    def enter(self, host: Host) -> None:
        super().enter(host)
        view = host.view
        if view is None:
            return
        self.moves, self.phase = view.moves, view.phase
        if view.phase == REFILL:
            self.refill = _first_refill(view)

    def on_view(self, view: TableView) -> None:
        # The tracker moved on (a confirmation, a new reading): the question is gone.
        if view.phase != self.phase or (view.phase != REFILL and view.moves != self.moves):
            assert self.host is not None
            self.host.pop(self)

    def handle(self, action: Action) -> bool:
        if action.name == "undo":
            return self.press("back")
        if action.name == "menu":
            return True
        return super().handle(action)

    def press(self, action: str) -> bool:
        assert self.host is not None
        kind, _sep, value = action.partition(":")
        if kind == "back":
            if self.group is not None or self.factory is not None:
                self.group = self.factory = None
                self.page = 0
                self.focus = 0
            else:
                self.host.pop(self)
        elif kind == "more":
            self.page += 1
            self.focus = 0
        elif kind == "group":
            self.group, self.page, self.focus = self.moves[int(value)], 0, 0
        elif kind == "option" and self.group is not None:
            option = self.group.options[int(value)]
            player = self.group.player if isinstance(option.move, Take) else None
            self.host.send(enter_command(option.move, player))
            self.host.pop(self)
        elif kind == "factory":
            self.factory, self.focus = int(value), 0
        elif kind == "tile" and self.factory is not None:
            tiles = self.refill[self.factory]
            place = int(value)
            tiles[place] = (tiles[place] + 1) % len(COLORS)
        elif kind == "save":
            self.host.send(enter_command(Refill(tuple(tuple(sorted(f)) for f in self.refill))))
            self.host.pop(self)
        else:
            return False
        return True

    # -- drawing --

    def draw(self, canvas: Canvas) -> None:
        assert self.host is not None
        view = self.host.view
        if view is None:
            return
        m = canvas.metrics
        inner = canvas.dialog()
        title, body, buttons = rows(inner, [canvas.line_height("large"), 1.0, m.touch], m.pad)
        start = len(canvas.targets)
        canvas.text(self._title(view), title, "large", theme.ACCENT, elide=True)
        if self.phase == REFILL and self.factory is not None:
            self._tiles(canvas, body, self.refill[self.factory])
            items: list[tuple[str, tuple[int, ...], str]] = []
        elif self.phase == REFILL:
            items = [(_("factory {n}").format(n=i + 1), tuple(tiles), f"factory:{i}")
                     for i, tiles in enumerate(self.refill)]
        elif self.group is None:
            order = sorted(range(len(self.moves)), key=lambda i: _source_order(self.moves[i]))
            items = [(_source(self.moves[i]), _shown_tiles(self.moves[i]), f"group:{i}") for i in order]
        else:
            items = [(_target(o, view), (self.group.color,), f"option:{i}")
                     for i, o in enumerate(self.group.options)]
        more = self._list(canvas, body, items)
        if more:
            back, forward = columns(buttons, [0.5, 0.5], m.pad)
            self._button(canvas, forward, _("More"), "more")
        else:
            back = buttons
        if self.phase == REFILL and self.factory is None:
            back, save = columns(back, [0.5, 0.5], m.pad)
            self._button(canvas, save, _("Save the refill"), "save", selected=True)
        self._button(canvas, back, _("Back"), "back")
        self.remember_targets(canvas, start)

    def _title(self, view: TableView) -> str:
        if self.phase == REFILL:
            if self.factory is None:
                return _("What is on the factories?")
            return _("factory {n}").format(n=self.factory + 1)
        who = view.names[view.turn] if 0 <= view.turn < len(view.names) else ""
        if self.group is None:
            return _("What happened?") + (f" ({who})" if who else "")
        return _("Where did the tiles go?")

    def _tiles(self, canvas: Canvas, body: pygame.Rect, tiles: list[int]) -> None:
        """A factory's tiles as big buttons in a row; each press gives the next colour."""
        m = canvas.metrics
        used = canvas.wrap(_("Press a tile to change its colour."), body, "body", theme.TEXT_DIM)
        body = pygame.Rect(body.left, body.top + used + m.pad, body.width, body.height - used - m.pad)
        side = min(body.height, (body.width - 3 * m.pad) // 4, m.dp(120))
        row = pygame.Rect(0, 0, 4 * side + 3 * m.pad, side)
        row.center = body.center
        for k, (cell, color) in enumerate(zip(columns(row, [1.0] * 4, m.pad), tiles, strict=False)):
            action = f"tile:{k}"
            canvas.panel(cell, theme.PANEL_LIGHT, border=theme.FOCUS if self.focused(action) else None)
            canvas.tile(cell.inflate(-m.pad, -m.pad), color)
            canvas.target(cell, action, _(COLORS[color]))

    def _list(self, canvas: Canvas, body: pygame.Rect, items: list[tuple[str, tuple[int, ...], str]]) -> bool:
        """Rows of touch targets, two columns when wide; True if more pages follow."""
        m = canvas.metrics
        per_column = max(1, (body.height + m.pad // 2) // (m.touch + m.pad // 2))
        lanes = 1 if m.portrait else 2
        per_page = per_column * lanes
        pages = max(1, -(-len(items) // per_page))
        page = self.page % pages
        shown = items[page * per_page:(page + 1) * per_page]
        lane_rects = columns(body, [1.0] * lanes, m.pad)
        for n, (label, tiles, action) in enumerate(shown):
            lane = lane_rects[n // per_column]
            top = lane.top + (n % per_column) * (m.touch + m.pad // 2)
            row = pygame.Rect(lane.left, top, lane.width, m.touch)
            canvas.panel(row, theme.PANEL_LIGHT, border=theme.FOCUS if self.focused(action) else None)
            inside = row.inflate(-2 * m.pad, 0)
            icon = m.touch - m.dp(10)
            words, icons = columns(inside, [1.0, len(tiles) * (icon + m.dp(4))], m.pad)
            canvas.text(label, words, "body", elide=True)
            for cell, color in zip(columns(icons, [1.0] * len(tiles), m.dp(4)), tiles, strict=True):
                canvas.tile(cell, color)
            canvas.target(row, action, label)
        return pages > 1

    def _button(self, canvas: Canvas, rect: pygame.Rect, label: str, action: str, *,
                selected: bool = False) -> None:
        canvas.button(rect, label, action, selected=selected, focused=self.focused(action))


def _first_refill(view: TableView) -> list[list[int]]:
    """Where editing a refill starts: the tracker's best guess if it asked, else blue everywhere."""
    if view.prompt is not None:
        for event in view.prompt.events:
            if isinstance(event, Refill):
                return [list(tiles) for tiles in event.factories]
    return [[0] * 4 for _f in range(FACTORIES[len(view.names)])]


def _source(group: MoveGroup) -> str:
    if group.source is None:
        return _("line {n}").format(n=group.count)
    where = _("the centre") if group.source == CENTER else _("factory {n}").format(n=group.source)
    return where if group.count <= SHOWN_TILES else f"{where}: {group.count} \u00d7"


def _shown_tiles(group: MoveGroup) -> tuple[int, ...]:
    """The tiles a group takes, one icon each (one icon and a count in words when many)."""
    if group.source is None or group.count > SHOWN_TILES:
        return (group.color,)
    return (group.color,) * group.count


def _source_order(group: MoveGroup) -> tuple[int, int, int]:
    """Factories in their order, the centre after them (grey wall: lines in order)."""
    if group.source is None:
        return (0, group.count, group.color)
    return (1 if group.source == CENTER else 0, group.source, group.color)


def _target(option: Option, view: TableView) -> str:
    if isinstance(option.move, Take):
        where = _("the floor") if option.move.line == FLOOR else _("line {n}").format(n=option.move.line)
    else:
        where = describe(option.move, None, view.names, named=False)
    return f"{where} ({option.points:+d})"
