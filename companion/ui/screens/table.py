"""The live table: scores, this round's points as things stand, bonus progress, whose turn,
the current player's legal moves with the points each brings now, and the move just seen."""

from __future__ import annotations

import pygame

from companion.i18n import _
from companion.rules.azul import CENTER, DRAFTING, REFILL, TILING
from companion.ui import theme
from companion.ui.layout import Metrics, columns, grid, rows
from companion.ui.pictures import draw_board, draw_factories
from companion.ui.screens.base import Action, Screen
from companion.ui.view import MoveGroup, PlayerView, TableView
from companion.ui.widgets import Canvas, Drawn


def frame_surface(view: TableView) -> pygame.Surface | None:
    if view.frame is None:
        return None
    height, width = view.frame.shape[:2]
    return pygame.image.frombuffer(view.frame.tobytes(), (width, height), "RGB")


class TableScreen(Screen):
    def __init__(self) -> None:
        super().__init__()
        self._frame: tuple[int, pygame.Surface | None, tuple[int, int]] | None = None

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
        view = self.host.view
        m = canvas.metrics
        canvas.fill()
        if view is None:
            canvas.text(_("Waiting for the table..."), m.rect, "large", align="center")
            return
        parts = table_layout(m, view.status is not None)
        self._header(canvas, parts["header"], view)
        if view.status is not None:
            canvas.panel(parts["status"], theme.WARNING_BG)
            canvas.text(view.status, parts["status"].inflate(-2 * m.pad, 0), "small", align="center")
        self._players(canvas, parts["players"], view)
        self._moves(canvas, parts["moves"], view)
        self._footer(canvas, parts["last"], view)
        self._camera(canvas, parts["camera"], view)

    # -- parts --

    def _header(self, canvas: Canvas, rect: pygame.Rect, view: TableView) -> None:
        m = canvas.metrics
        menu_w = m.dp(96)
        left, middle, right = columns(rect, [0.3, 0.7, menu_w], m.pad)
        phase = {REFILL: _("new round"), DRAFTING: _("drafting"), TILING: _("wall tiling")}.get(
            view.phase, _("game over"))
        canvas.text(_("Round {n}").format(n=view.round), pygame.Rect(left.x, left.y, left.w, left.h // 2 + 2),
                    "body", valign="bottom")
        canvas.text(phase, pygame.Rect(left.x, left.centery + 2, left.w, left.h // 2 - 2), "small",
                    theme.TEXT_DIM, valign="top")
        if view.phase == DRAFTING:
            turn = _("{name}'s turn").format(name=view.names[view.turn])
        elif view.phase == TILING:
            turn = _("Choose wall columns")
        elif view.phase == REFILL:
            turn = _("Fill the factories")
        else:
            turn = _("Game over")
        canvas.text(turn, middle, "title", theme.ACCENT, align="center")
        canvas.button(right, _("Menu"), "menu", size="small")

    def _players(self, canvas: Canvas, rect: pygame.Rect, view: TableView) -> None:
        m = canvas.metrics
        count = len(view.seats)
        for player, cell in zip(view.seats, grid(rect, count, 1, m.pad), strict=True):
            current = view.phase == DRAFTING and player.seat == view.turn
            player_card(canvas, cell, player, view.variant, current)

    def _moves(self, canvas: Canvas, rect: pygame.Rect, view: TableView) -> None:
        m = canvas.metrics
        canvas.panel(rect)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        title_h = canvas.line_height("body")
        title, body = rows(inner, [title_h, 1.0], m.pad // 2)
        if view.phase == DRAFTING:
            canvas.text(_("{name} may take (points now):").format(name=view.names[view.turn]), title, "body")
        elif view.phase == TILING:
            canvas.text(_("Wall column for each complete line (points):"), title, "body")
        else:
            canvas.text(_("No moves to choose now"), title, "body", theme.TEXT_DIM)
            return
        move_table(canvas, body, view)

    def _footer(self, canvas: Canvas, rect: pygame.Rect, view: TableView) -> None:
        m = canvas.metrics
        canvas.panel(rect)
        inner = rect.inflate(-2 * m.pad, -m.pad)
        if view.warnings:
            canvas.wrap(view.warnings[0].message, inner, "small", theme.BAD)
            return
        label_h = canvas.line_height("small")
        label, body = rows(inner, [label_h, 1.0])
        canvas.text(_("Last move"), label, "small", theme.TEXT_DIM)
        if view.last is None:
            canvas.text(_("none yet"), body, "body", theme.TEXT_DIM, valign="top")
            return
        if view.last_color is not None:
            icon = pygame.Rect(body.left, body.top, canvas.line_height("body"), canvas.line_height("body"))
            canvas.tile(icon.inflate(-m.dp(4), -m.dp(4)), view.last_color)
            body = pygame.Rect(icon.right + m.pad, body.top, body.right - icon.right - m.pad, body.height)
        canvas.wrap(view.last, body, "body")

    def _camera(self, canvas: Canvas, rect: pygame.Rect, view: TableView) -> None:
        m = canvas.metrics
        pygame.draw.rect(canvas.surface, (16, 18, 22), rect, border_radius=m.dp(6))
        surface = self._camera_surface(view, rect)
        if surface is not None:
            canvas.surface.blit(surface, surface.get_rect(center=rect.center))
        else:
            # No camera frame (the demo's placeholder): a top view drawn from the table's state.
            draw_factories(canvas, rect.inflate(-m.dp(6), -m.dp(6)), view)
        pygame.draw.rect(canvas.surface, theme.TEXT_DIM, rect, max(1, m.dp(2)), border_radius=m.dp(6))

    def _camera_surface(self, view: TableView, rect: pygame.Rect) -> pygame.Surface | None:
        # A frame is scaled once per view, not once per drawn frame.
        if self._frame is None or self._frame[0] != view.serial or self._frame[2] != rect.size:
            surface = frame_surface(view)
            if surface is not None:
                w, h = surface.get_size()
                scale = min(rect.width / w, rect.height / h)
                fitted = (max(1, int(w * scale)), max(1, int(h * scale)))
                surface = pygame.transform.smoothscale(surface, fitted)
            self._frame = (view.serial, surface, rect.size)
        return self._frame[1]


def table_layout(m: Metrics, status: bool) -> dict[str, pygame.Rect]:
    pad = m.pad
    area = m.rect.inflate(-2 * pad, -2 * pad)
    header_h = m.touch + m.dp(4)
    status_h = m.dp(34) if status else 0
    if m.portrait:
        footer_h = m.dp(130)
        header, status_rect, players, moves, footer = rows(
            area, [header_h, status_h, 0.45, 0.55, footer_h], pad)
    else:
        footer_h = m.dp(92)
        header, status_rect, body, footer = rows(area, [header_h, status_h, 1.0, footer_h], pad)
        players, moves = columns(body, [0.5, 0.5], pad)
    camera_w = footer_h * 4 // 3
    last, camera = columns(footer, [1.0, camera_w], pad)
    return {"header": header, "status": status_rect, "players": players, "moves": moves,
            "last": last, "camera": camera}


def player_card(canvas: Canvas, rect: pygame.Rect, player: PlayerView, variant: str, current: bool) -> None:
    """Name, score, this round's points as things stand, bonus progress and a small wall."""
    m = canvas.metrics
    canvas.panel(rect, theme.PANEL, border=theme.ACCENT if current else None)
    inner = rect.inflate(-2 * m.pad, -m.pad)
    small_h = canvas.line_height("small")
    name_h = canvas.line_height("large")
    tiles = sum(t.points for t in player.tiles_now)
    now = _("this round {points:+d}").format(points=player.round_points)
    if player.floor_now:
        detail = _("tiles +{tiles}, floor -{floor}").format(tiles=tiles, floor=player.floor_now)
    else:  # not "-0"
        detail = _("tiles +{tiles}, floor 0").format(tiles=tiles)
    bonus = _("bonus now +{points}").format(points=player.bonus_now)
    progress = _("rows {rows}, columns {columns}, colours {colors}").format(
        rows=player.rows_done, columns=player.columns_done, colors=player.colors_done)
    name_rgb = theme.ACCENT if current else theme.TEXT
    now_rgb = theme.GOOD if player.round_points > 0 else theme.BAD if player.round_points < 0 else theme.TEXT
    score_w = canvas.fonts.size("188", m.text("large"))[0]
    if inner.height < name_h + 2 * small_h:
        # Short and wide (3-4 players beside the moves): everything on one row.
        stats_w = max(canvas.fonts.size(now, m.min_text)[0], canvas.fonts.size(bonus, m.min_text)[0])
        name, score, stats, board = columns(inner, [1.0, score_w, stats_w, inner.height], m.pad)
        canvas.text(player.name, name, "body", name_rgb, elide=True)
        canvas.text(str(player.score), score, "large", align="right")
        top, bottom = rows(stats, [0.5, 0.5])
        canvas.text(now, top, "small", now_rgb)
        canvas.text(bonus, bottom, "small", theme.TEXT_DIM)
        draw_board(canvas, board, player, variant, lines=False, floor=False)
        return
    board_w = min(inner.height, inner.width // 3)
    text, board = columns(inner, [1.0, board_w], m.pad)
    draw_board(canvas, board, player, variant, lines=False, floor=False)
    top, rest = rows(text, [name_h, 1.0])
    name, score = columns(top, [1.0, score_w], m.pad)
    canvas.text(player.name, name, "body", name_rgb, elide=True)
    canvas.text(str(player.score), score, "large", align="right")
    fit = rest.height // small_h
    texts = [(now, now_rgb), (detail, theme.TEXT_DIM), (bonus, theme.TEXT_DIM), (progress, theme.TEXT_DIM)]
    if fit < 4:
        texts = [texts[0], texts[2], texts[1]]
    # Lines that would not fit at a readable size are left out, the most useful kept.
    texts = [t for i, t in enumerate(texts) if i == 0 or canvas.fonts.size(t[0], m.min_text)[0] <= rest.width]
    texts = texts[:max(1, fit)]
    for i, (line, rgb) in enumerate(texts):
        canvas.text(line, pygame.Rect(rest.left, rest.top + i * small_h, rest.width, small_h), "small", rgb)


def move_table(canvas: Canvas, rect: pygame.Rect, view: TableView) -> None:
    """One row per source and colour, one column per pattern line (and the floor)."""
    m = canvas.metrics
    row_h = max(m.dp(36), canvas.line_height("small") + m.dp(6))
    headers = view.move_columns
    floor_w = canvas.fonts.size(headers[-1], m.min_text)[0] + m.dp(12) if len(headers) == 6 else 0
    cell_w = m.dp(40)
    label_w = rect.width - cell_w * 5 - floor_w
    widths = [label_w] + [cell_w] * 5 + ([floor_w] if floor_w else [])
    header_row = pygame.Rect(rect.left, rect.top, rect.width, row_h)
    cells = columns(header_row, widths)
    canvas.text(_("line") if view.phase == DRAFTING else _("column"), cells[0].inflate(-m.pad, 0),
                "small", theme.TEXT_DIM, align="right")
    for cell, header in zip(cells[1:], headers, strict=True):
        canvas.text(header, cell, "small", theme.TEXT_DIM, align="center")
    space = (rect.bottom - header_row.bottom) // row_h
    groups = view.moves
    shown = groups if len(groups) <= space else groups[: max(0, space - 1)]
    for i, group in enumerate(shown):
        row = pygame.Rect(rect.left, header_row.bottom + i * row_h, rect.width, row_h)
        _group_row(canvas, columns(row, widths), group, view)
    if len(shown) < len(groups):
        row = pygame.Rect(rect.left, header_row.bottom + len(shown) * row_h, rect.width, row_h)
        canvas.text(_("and {n} more").format(n=len(groups) - len(shown)), row, "small", theme.TEXT_DIM)


def _group_row(canvas: Canvas, cells: list[pygame.Rect], group: MoveGroup, view: TableView) -> None:
    m = canvas.metrics
    label = cells[0]
    icon = min(label.height - m.dp(6), m.dp(30))
    if group.source is None:
        text, tile = columns(label, [1.0, icon], m.dp(4))
        canvas.text(_("{name}, line {n}").format(name=view.names[group.player], n=group.count), text,
                    "small", align="right")
    else:
        count_w = canvas.fonts.size("×88", m.min_text)[0]
        _rest, source, tile, count = columns(label, [1.0, icon + m.dp(4), icon, count_w], m.dp(4))
        source_icon(canvas, source, group.source)
        canvas.text(f"×{group.count}", count, "small")
    canvas.tile(tile, group.color)
    best = group.best
    for option in group.options:
        cell = cells[1 + option.column].inflate(-m.dp(4), -m.dp(4))
        if option.points == best:
            pygame.draw.rect(canvas.surface, theme.PANEL_LIGHT, cell, border_radius=m.dp(5))
        rgb = theme.GOOD if option.points > 0 else theme.BAD if option.points < 0 else theme.TEXT_DIM
        canvas.text(f"{option.points:+d}" if option.points else "0", cell, "small", rgb, align="center")


def source_icon(canvas: Canvas, rect: pygame.Rect, source: int) -> None:
    """A factory as the disc it is, with its number; the centre as rings around the middle."""
    m = canvas.metrics
    radius = min(rect.width, rect.height) // 2
    if source == CENTER:
        pygame.draw.circle(canvas.surface, theme.TEXT_DIM, rect.center, radius, max(2, m.dp(3)))
        pygame.draw.circle(canvas.surface, theme.TEXT_DIM, rect.center, max(2, radius // 3))
        canvas.log.append(Drawn("icon", rect.copy(), text=_("centre")))
        return
    pygame.draw.circle(canvas.surface, theme.PANEL_LIGHT, rect.center, radius)
    pygame.draw.circle(canvas.surface, theme.TEXT_DIM, rect.center, radius, max(1, m.dp(2)))
    canvas.text(str(source), rect, "small", align="center")
