"""The screens of an Azul Kids game, as the app (companion/ui/app.py) brings them up.

The app is the same for both games: its stack, input path and loop; a game of Azul Kids
(``Settings.game`` "azul-kids") gets these screens instead of Azul's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.ui.kids.screens import (
    CelebrationScreen,
    KidsEndScreen,
    KidsPromptScreen,
    KidsTableScreen,
    KidsWarningScreen,
)
from companion.ui.kids.view import KidsTableView
from companion.ui.screens.base import Screen

if TYPE_CHECKING:
    from companion.ui.app import App


class KidsScreens:
    """The live Kids table, its questions and warnings, a picture's celebration, the end."""

    playing = (KidsTableScreen, KidsPromptScreen, KidsWarningScreen)
    resting = (KidsEndScreen,)

    def __init__(self) -> None:
        self._celebrated = 0
        self._warned: tuple[str, ...] = ()

    def table(self) -> Screen:
        return KidsTableScreen()

    def follow(self, app: App, view: KidsTableView) -> None:
        if view.over:
            if app.find(KidsEndScreen) is None:
                app.reset(KidsEndScreen(view, app.end_seconds))
            return
        celebration = view.celebration
        if celebration is not None and celebration.serial > self._celebrated:
            self._celebrated = celebration.serial
            app.push(CelebrationScreen(celebration))
        codes = tuple(w.code for w in view.warnings)
        warning = app.find(KidsWarningScreen)
        if not codes:
            if warning is not None:
                app.pop(warning)
        elif codes != self._warned and warning is None:
            app.push(KidsWarningScreen())
        self._warned = codes
        prompt = app.find(KidsPromptScreen)
        if view.prompt is not None and prompt is None:
            app.push(KidsPromptScreen())
        elif view.prompt is None and prompt is not None:
            app.pop(prompt)
