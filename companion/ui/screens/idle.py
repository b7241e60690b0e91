"""The kiosk's idle screen: tiles drift by; any touch or button brings the companion back."""

from __future__ import annotations

import math

import pygame

from companion.i18n import _
from companion.ui import theme
from companion.ui.layout import rows
from companion.ui.screens.base import Action, Screen
from companion.ui.widgets import Canvas


class IdleScreen(Screen):
    def __init__(self) -> None:
        super().__init__()
        self.time = 0.0

    def handle(self, action: Action) -> bool:
        assert self.host is not None
        self.host.pop(self)
        return True

    def update(self, dt: float) -> bool:
        self.time += dt
        return True

    def draw(self, canvas: Canvas) -> None:
        m = canvas.metrics
        canvas.fill((20, 24, 30))
        size = m.dp(56)
        width, height = m.width, m.height
        for i in range(10):
            # Each tile drifts along its own slow Lissajous path.
            x = (0.5 + 0.42 * math.sin(self.time * 0.11 * (1 + i % 3) + i * 1.7)) * width
            y = (0.5 + 0.42 * math.cos(self.time * 0.07 * (1 + i % 4) + i * 2.3)) * height
            rect = pygame.Rect(0, 0, size, size)
            rect.center = (round(x), round(y))
            canvas.tile(rect, i % 5)
        band = pygame.Rect(0, 0, width, m.dp(200))
        band.center = m.rect.center
        veil = pygame.Surface(band.size, pygame.SRCALPHA)
        veil.fill((20, 24, 30, 215))
        canvas.surface.blit(veil, band)
        title, subtitle = rows(band.inflate(-2 * m.pad, -2 * m.pad), [0.6, 0.4])
        canvas.text(_("Azul Table Companion"), title, "huge", theme.ACCENT, align="center")
        canvas.text(_("Touch the screen or press a button to start"), subtitle, "body", align="center")
