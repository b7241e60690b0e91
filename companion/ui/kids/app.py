"""The app for an Azul Kids table: the base app's stack, input path and loop, with the Kids screens."""

from __future__ import annotations

from companion.ui.app import App, InlineWorker, Worker
from companion.ui.kids.screens import (
    CelebrationScreen,
    KidsEndScreen,
    KidsPromptScreen,
    KidsTableScreen,
    KidsWarningScreen,
)
from companion.ui.kids.view import KidsTableView
from companion.ui.screens.base import Settings


class KidsApp(App):
    """``end_seconds``: how long the end celebration stays before the next game (None: until tapped)."""

    playing = (KidsTableScreen, KidsPromptScreen, KidsWarningScreen)

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._celebrated = 0

    def start(self, settings: Settings) -> None:
        self.settings = settings
        if self.worker is not None:
            self.worker.close()
        self.view = None
        self._celebrated = 0
        self._warned = ()
        self.reset(KidsTableScreen())
        pipeline = self.session(settings)
        self.worker = (Worker if self.threaded else InlineWorker)(pipeline, self.period)
        self.worker.start()
        self.poll()

    def _follow(self, view: KidsTableView) -> None:  # type: ignore[override]
        if view.over:
            if self.find(KidsEndScreen) is None:
                self.reset(KidsEndScreen(view, self.end_seconds))
            return
        celebration = view.celebration
        if celebration is not None and celebration.serial > self._celebrated:
            self._celebrated = celebration.serial
            self.push(CelebrationScreen(celebration))
        codes = tuple(w.code for w in view.warnings)
        warning = self.find(KidsWarningScreen)
        if not codes:
            if warning is not None:
                self.pop(warning)
        elif codes != self._warned and warning is None:
            self.push(KidsWarningScreen())
        self._warned = codes
        prompt = self.find(KidsPromptScreen)
        if view.prompt is not None and prompt is None:
            self.push(KidsPromptScreen())
        elif view.prompt is None and prompt is not None:
            self.pop(prompt)
