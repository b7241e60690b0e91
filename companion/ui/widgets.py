"""Drawing with a record: every text, tile and button a screen draws is also noted.

The record (:attr:`Canvas.log`) is what tests read to check a screen: which texts and
numbers it shows, that nothing sticks out of the screen or overlaps, and that every
touch target is large enough. Touch targets double as the hit test for taps.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.ui import theme
from companion.ui.layout import Metrics
from companion.ui.theme import Color, Fonts


@dataclass(frozen=True)
class Drawn:
    """One thing drawn: ``kind`` is "text", "tile" or "button"; ``clipped`` if text did not fit."""

    kind: str
    rect: pygame.Rect
    text: str = ""
    px: int = 0
    action: str | None = None
    clipped: bool = False


@dataclass(frozen=True)
class Target:
    rect: pygame.Rect
    action: str


class Canvas:
    """A surface to draw one frame on, with the screen's metrics and the shared fonts."""

    def __init__(self, surface: pygame.Surface, metrics: Metrics, fonts: Fonts) -> None:
        self.surface = surface
        self.metrics = metrics
        self.fonts = fonts
        self.log: list[Drawn] = []
        self.below: list[Drawn] = []  # what an overlay's shade dimmed: still seen, no longer read
        self.targets: list[Target] = []

    # -- shapes --

    def fill(self, rgb: Color = theme.BACKGROUND) -> None:
        self.surface.fill(rgb)

    def panel(self, rect: pygame.Rect, rgb: Color = theme.PANEL, border: Color | None = None,
              width: int = 0) -> None:
        radius = self.metrics.dp(8)
        pygame.draw.rect(self.surface, rgb, rect, border_radius=radius)
        if border is not None:
            pygame.draw.rect(self.surface, border, rect, width or max(2, self.metrics.dp(3)),
                             border_radius=radius)

    def dialog(self, rgb: Color = theme.PANEL, border: Color = theme.ACCENT,
               margin: tuple[int, int] = (24, 16)) -> pygame.Rect:
        """Dim what is below and draw a panel over it; returns the panel's inside."""
        m = self.metrics
        self.shade()
        box = m.rect.inflate(-2 * m.dp(margin[0]), -2 * m.dp(margin[1]))
        self.panel(box, rgb, border=border)
        return box.inflate(-2 * m.pad, -2 * m.pad)

    def shade(self) -> None:
        """Dim what is below an overlay."""
        self.below.extend(self.log)
        self.log = []
        veil = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
        veil.fill(theme.SHADE)
        self.surface.blit(veil, (0, 0))

    def tile(self, rect: pygame.Rect, color: int | None, *, faded: bool = False) -> None:
        """A tile (or an empty place when ``color`` is None) as big as fits in ``rect``, centred."""
        size = min(rect.width, rect.height)
        if size < 2:
            return
        surface = theme.empty_cell(size) if color is None else theme.tile_surface(color, size, faded)
        at = surface.get_rect(center=rect.center)
        self.surface.blit(surface, at)
        if color is not None and not faded:
            self.log.append(Drawn("tile", at, text=str(color)))

    # -- text --

    def fit(self, text: str, width: int, px: int) -> tuple[int, bool]:
        """The largest size from ``px`` down to the smallest readable one at which ``text`` fits."""
        smallest = min(px, self.metrics.min_text)
        size = px
        while size > smallest and self.fonts.size(text, size)[0] > width:
            size -= max(1, size // 12)
        size = max(size, smallest)
        return size, self.fonts.size(text, size)[0] > width

    def text(self, text: str, rect: pygame.Rect, size: str = "body", rgb: Color = theme.TEXT, *,
             align: str = "left", valign: str = "center", px: int | None = None,
             elide: bool = False) -> pygame.Rect:
        """Draw one line inside ``rect``, shrunk (not below the smallest size) to fit its width.

        ``elide``: a name too long even then loses its end to "…" (anything else is reported
        as clipped, which the tests refuse).
        """
        if not text:
            return pygame.Rect(rect.left, rect.top, 0, 0)
        px, clipped = self.fit(text, rect.width, px or self.metrics.text(size))
        if clipped and elide:
            while len(text) > 1 and self.fonts.size(text + "…", px)[0] > rect.width:
                text = text[:-1]
            text, clipped = text.rstrip() + "…", False
        surface = self.fonts.render(text, px, rgb)
        at = surface.get_rect()
        if align == "left":
            at.left = rect.left
        elif align == "right":
            at.right = rect.right
        else:
            at.centerx = rect.centerx
        if valign == "top":
            at.top = rect.top
        elif valign == "bottom":
            at.bottom = rect.bottom
        else:
            at.centery = rect.centery
        if clipped:
            self.surface.blit(surface, at, area=pygame.Rect(0, 0, rect.width, at.height))
            at.width = rect.width
        else:
            self.surface.blit(surface, at)
        self.log.append(Drawn("text", _ink(at, px), text=text, px=px, clipped=clipped))
        return at

    def line_height(self, size: str) -> int:
        return self.fonts.font(self.metrics.text(size)).get_linesize()

    def wrap(self, text: str, rect: pygame.Rect, size: str = "body", rgb: Color = theme.TEXT,
             align: str = "left") -> int:
        """Draw ``text`` over as many lines as it needs; returns the height used."""
        px = self.metrics.text(size)
        lines = wrap_words(self.fonts, text, px, rect.width)
        step = self.fonts.font(px).get_linesize()
        for i, line in enumerate(lines):
            line_rect = pygame.Rect(rect.left, rect.top + i * step, rect.width, step)
            drawn = self.text(line, line_rect, size, rgb, align=align, px=px)
            if line_rect.bottom > rect.bottom:
                self.log[-1] = Drawn("text", drawn, text=line, px=px, clipped=True)
        return step * len(lines)

    # -- buttons --

    def button(self, rect: pygame.Rect, label: str, action: str, *, selected: bool = False,
               focused: bool = False, enabled: bool = True, size: str = "body") -> None:
        rgb = theme.BUTTON_SELECTED if selected else theme.BUTTON if enabled else theme.PANEL_LIGHT
        self.panel(rect, rgb, border=theme.FOCUS if focused else None)
        self.text(label, rect.inflate(-self.metrics.dp(12), 0), size,
                  theme.TEXT if enabled else theme.TEXT_DIM, align="center")
        if enabled:
            self.target(rect, action, label)
        else:
            self.log.append(Drawn("button", rect.copy(), text=label))

    def target(self, rect: pygame.Rect, action: str, label: str = "") -> None:
        """Make ``rect`` a touch target for ``action`` (drawn by the caller)."""
        self.log.append(Drawn("button", rect.copy(), text=label, action=action))
        self.targets.append(Target(rect.copy(), action))

    def hit(self, pos: tuple[int, int]) -> str | None:
        """The action of the topmost target under ``pos``, if any."""
        for target in reversed(self.targets):
            if target.rect.collidepoint(pos):
                return target.action
        return None

    def texts(self) -> list[str]:
        return [d.text for d in self.log if d.kind == "text"]


def _ink(at: pygame.Rect, px: int) -> pygame.Rect:
    """The text's box without the font's empty line spacing above and below.

    Lines stacked at the font's line size touch but do not overlap; trimming a little
    keeps neighbours from counting as overlapping where only blank leading meets.
    """
    trim = max(0, (at.height - px) // 2)
    return pygame.Rect(at.left, at.top + trim, at.width, max(1, at.height - 2 * trim))


def wrap_words(fonts: Fonts, text: str, px: int, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and fonts.size(trial, px)[0] > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
