"""What every screen is, and what it may ask of the app that shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from companion.ui.widgets import Canvas

if TYPE_CHECKING:
    from companion.ui.view import TableView

# The input vocabulary shared with the buttons and the tracker.
ACTIONS = ("confirm", "next", "previous", "undo", "menu")


@dataclass(frozen=True)
class Action:
    """One input: ``name`` is one of ACTIONS or a touch target's own action ("players:3")."""

    name: str
    source: str  # "key:return", "button:next", "touch": for logs, never for decisions
    pos: tuple[int, int] | None = None


@dataclass(frozen=True)
class Settings:
    """A game as chosen on the setup screen."""

    names: tuple[str, ...]
    variant: str = "colored"
    game: str = "azul"


class Host(Protocol):
    """The app, as a screen sees it."""

    view: TableView | None
    settings: Settings

    def push(self, screen: Screen) -> None: ...

    def pop(self, screen: Screen) -> None: ...

    def send(self, action: str) -> None: ...

    def start(self, settings: Settings) -> None: ...


class Screen:
    """A screen on the stack. ``overlay`` screens are drawn over the one below."""

    overlay = False

    def __init__(self) -> None:
        self.host: Host | None = None

    def enter(self, host: Host) -> None:
        self.host = host

    def exit(self) -> None:
        """Called when the screen leaves the stack."""

    def handle(self, action: Action) -> bool:
        """React to an input; True if it was used."""
        return False

    def update(self, dt: float) -> bool:
        """Advance by ``dt`` seconds; True if the screen must be drawn again."""
        return False

    def on_view(self, view: TableView) -> None:
        """A new view of the table arrived."""

    def draw(self, canvas: Canvas) -> None:
        raise NotImplementedError


class FocusScreen(Screen):
    """A screen of buttons that three GPIO buttons can drive alone.

    Next and Previous move the focus over the touch targets of the last frame; Confirm
    presses the focused one. Taps arrive as the target's own action.
    """

    def __init__(self) -> None:
        super().__init__()
        self.focus = 0
        self._actions: list[str] = []

    def handle(self, action: Action) -> bool:
        if action.name in ("next", "previous") and self._actions:
            step = 1 if action.name == "next" else -1
            self.focus = (self.focus + step) % len(self._actions)
            return True
        if action.name == "confirm" and self._actions:
            return self.press(self._actions[min(self.focus, len(self._actions) - 1)])
        if action.source == "touch" and action.name in self._actions:
            self.focus = self._actions.index(action.name)
            return self.press(action.name)
        return False

    def press(self, action: str) -> bool:
        raise NotImplementedError

    def focused(self, action: str) -> bool:
        return bool(self._actions) and self._actions[min(self.focus, len(self._actions) - 1)] == action

    def remember_targets(self, canvas: Canvas, start: int) -> None:
        """Keep the actions of the targets drawn since ``start`` as the focus order."""
        self._actions = [t.action for t in canvas.targets[start:]]
