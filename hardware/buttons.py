"""Buttons beside the screen, status LEDs and a buzzer, over gpiozero; keys as a fallback.

Every input, from a GPIO button or a key, becomes the same small vocabulary
(``Input``: confirm, next, previous, undo, menu), so the app loop has one path.

Three buttons do five things through long presses (DEFAULT_BUTTONS):

- Confirm: short = confirm, held = menu.
- Next: short = next, held = previous.
- Undo: only held = undo; a short tap does nothing, so a brushed sleeve never
  takes back a move.

A short press of a button that also has a long meaning counts on release (only
then is it known to be short); a button without a long meaning acts on press.
The long meaning fires while still held, as soon as ``long_press`` seconds pass.

Debounce is ours, not gpiozero's (its mock pins ignore ``bounce_time``, so that
could never be tested): a level counts once it has held for ``debounce`` seconds;
shorter blips are contact bounce and are dropped. Pin edges are stamped by an
injectable clock and judged in ``poll()``, so tests are exact.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Self

from gpiozero import LED, Button, Buzzer, GPIOZeroError

from companion.i18n import _

log = logging.getLogger(__name__)


class Input(StrEnum):
    CONFIRM = "confirm"
    NEXT = "next"
    PREVIOUS = "previous"
    UNDO = "undo"
    MENU = "menu"


@dataclass(frozen=True)
class InputEvent:
    input: Input
    source: str  # "button:undo", "key:return": for logs, not for decisions
    time: float


@dataclass(frozen=True)
class ButtonSpec:
    """One physical button: its BCM pin and what a short and a long press mean."""

    name: str
    pin: int
    short: Input | None
    long: Input | None = None


DEFAULT_PINS = MappingProxyType({"confirm": 17, "next": 27, "undo": 22})
_MEANINGS = {
    "confirm": (Input.CONFIRM, Input.MENU),
    "next": (Input.NEXT, Input.PREVIOUS),
    "undo": (None, Input.UNDO),
}


def default_buttons(pins: Mapping[str, int | None] = DEFAULT_PINS) -> tuple[ButtonSpec, ...]:
    """The three standard buttons on ``pins`` (name -> BCM pin; None leaves one out)."""
    unknown = set(pins) - set(_MEANINGS)
    if unknown:
        raise ValueError(_("unknown buttons: {names}").format(names=", ".join(sorted(unknown))))
    return tuple(
        ButtonSpec(name, pin, *_MEANINGS[name]) for name, pin in pins.items() if pin is not None
    )


# Key names as pygame.key.name() gives them; the display maps its key events with this.
KEY_INPUTS: Mapping[str, Input] = MappingProxyType({
    "return": Input.CONFIRM,
    "enter": Input.CONFIRM,
    "space": Input.CONFIRM,
    "right": Input.NEXT,
    "down": Input.NEXT,
    "left": Input.PREVIOUS,
    "up": Input.PREVIOUS,
    "backspace": Input.UNDO,
    "escape": Input.MENU,
})


def input_for_key(name: str) -> Input | None:
    """The input a key stands for (by its pygame name, e.g. "return"), or None."""
    return KEY_INPUTS.get(name.lower())


class PressTracker:
    """Debounce and long press for one button, from timestamped raw edges.

    ``edge()`` records what the pin did and when; ``poll(now)`` turns every edge
    that has stood for the debounce time into presses and releases, and those
    into inputs. Edges are kept in order, so a press and release that both
    happened between two polls still count.
    """

    def __init__(
        self, spec: ButtonSpec, debounce: float, long_press: float, pressed: bool = False
    ) -> None:
        self.spec = spec
        self.debounce = debounce
        self.long_press = long_press
        self._raw = pressed
        self._edges: list[tuple[float, bool]] = []
        self._stable = pressed
        # A button held down at start-up is not a press: its release must not count either.
        self._pressed_at: float | None = None
        self._long_done = pressed
        self._bounce: float | None = None  # when the blips since the last settled level began

    def edge(self, pressed: bool, t: float) -> None:
        if pressed != self._raw:
            self._raw = pressed
            self._edges.append((t, pressed))

    def poll(self, now: float) -> list[tuple[Input, float]]:
        out: list[tuple[Input, float]] = []
        while self._edges:
            t, level = self._edges[0]
            until = self._edges[1][0] if len(self._edges) > 1 else now
            if until - t >= self.debounce:
                # The old level lasted until the bounce that led here began (a release that
                # bounces ends the hold at its first edge, not its last).
                self._check_long(t if self._bounce is None else self._bounce, out)
                self._settle(level, t, out)
                self._bounce = None
                self._check_long(until, out)
            elif len(self._edges) == 1:
                break  # the newest level has not held long enough yet
            elif self._bounce is None:
                self._bounce = t
            self._edges.pop(0)
        # The stable level is known to last until the first edge still being judged.
        self._check_long(self._bounce if self._bounce is not None else self._edges[0][0] if self._edges
                         else now, out)
        return out

    def _settle(self, pressed: bool, t: float, out: list[tuple[Input, float]]) -> None:
        if pressed == self._stable:
            return  # a blip of the other level, shorter than the debounce time
        self._stable = pressed
        spec = self.spec
        if pressed:
            self._pressed_at = t
            self._long_done = False
            if spec.long is None and spec.short is not None:
                out.append((spec.short, t))
        else:
            if self._pressed_at is not None and spec.long is not None and not self._long_done \
                    and spec.short is not None:
                out.append((spec.short, t))
            self._pressed_at = None

    def _check_long(self, until: float, out: list[tuple[Input, float]]) -> None:
        spec = self.spec
        if (self._stable and spec.long is not None and not self._long_done
                and self._pressed_at is not None
                and until - self._pressed_at >= self.long_press):
            self._long_done = True
            out.append((spec.long, self._pressed_at + self.long_press))


class ButtonBoard:
    """GPIO buttons whose inputs go into a thread-safe queue that the app loop drains.

    ``pin_factory`` is gpiozero's (``MockFactory()`` in tests; None for gpiozero's
    own choice on a Pi). Call ``poll()`` often (every few milliseconds), or
    ``start()`` a thread that does.
    """

    def __init__(
        self,
        buttons: Sequence[ButtonSpec] | None = None,
        *,
        pin_factory: Any = None,
        debounce: float = 0.03,
        long_press: float = 0.8,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.events: queue.Queue[InputEvent] = queue.Queue()
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._devices: list[Button] = []
        self._trackers: list[PressTracker] = []
        try:
            for spec in default_buttons() if buttons is None else buttons:
                # bounce_time stays None: gpiozero's debounce would hide edges from ours.
                device = Button(spec.pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._devices.append(device)
                tracker = PressTracker(spec, debounce, long_press, pressed=device.is_pressed)
                self._trackers.append(tracker)
                device.when_pressed = self._on_edge(tracker, True)
                device.when_released = self._on_edge(tracker, False)
        except BaseException:
            self.close()
            raise

    def _on_edge(self, tracker: PressTracker, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            with self._lock:
                tracker.edge(pressed, self._clock())

        return on_edge

    def poll(self) -> None:
        """Judge the edges seen so far; queue the inputs they make."""
        with self._lock:
            now = self._clock()
            found = [
                InputEvent(meaning, f"button:{tracker.spec.name}", t)
                for tracker in self._trackers
                for meaning, t in tracker.poll(now)
            ]
        for event in sorted(found, key=lambda e: e.time):
            self.events.put(event)

    def drain(self) -> list[InputEvent]:
        """Every queued input, oldest first."""
        return list(_drain(self.events))

    def start(self, interval: float = 0.005) -> None:
        """Poll in a background thread until close()."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, args=(interval,), name="buttons", daemon=True
            )
            self._thread.start()

    def _run(self, interval: float) -> None:
        while not self._stop.wait(interval):
            self.poll()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._thread = None
        for device in self._devices:
            device.close()
        self._devices.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _drain(events: queue.Queue[InputEvent]) -> Iterator[InputEvent]:
    while True:
        try:
            yield events.get_nowait()
        except queue.Empty:
            return


def open_buttons(
    buttons: Sequence[ButtonSpec] | None = None,
    *,
    pin_factory: Any = None,
    **options: Any,
) -> tuple[ButtonBoard | None, str | None]:
    """A ButtonBoard, or (None, why) where there is no GPIO: then keys stand in."""
    try:
        return ButtonBoard(buttons, pin_factory=pin_factory, **options), None
    except (GPIOZeroError, OSError) as error:
        message = _(
            "No GPIO buttons ({error}). Use the keyboard: Enter confirms, Right/Left for "
            "next/previous, Backspace undoes, Escape opens the menu."
        ).format(error=error)
        log.warning("%s", message)
        return None, message


class Feedback:
    """Optional status LEDs and buzzer; any of them may be absent (pin None).

    - ready LED: lit while the companion is watching the table;
    - attention LED: blinks while something needs a person (confirm a move, camera lost);
    - buzzer: one short beep for an accepted input, three for a refusal.
    """

    def __init__(
        self,
        *,
        pin_factory: Any = None,
        ready_led: int | None = None,
        attention_led: int | None = None,
        buzzer: int | None = None,
    ) -> None:
        self._ready = LED(ready_led, pin_factory=pin_factory) if ready_led is not None else None
        self._attention = (
            LED(attention_led, pin_factory=pin_factory) if attention_led is not None else None
        )
        self._buzzer = Buzzer(buzzer, pin_factory=pin_factory) if buzzer is not None else None

    def ready(self, on: bool) -> None:
        if self._ready is not None:
            self._ready.value = on

    def attention(self, on: bool) -> None:
        if self._attention is not None:
            if on:
                self._attention.blink(on_time=0.3, off_time=0.3)
            else:
                self._attention.off()

    def beep(self, count: int = 1) -> None:
        if self._buzzer is not None:
            self._buzzer.beep(on_time=0.05, off_time=0.08, n=count)

    def close(self) -> None:
        for device in (self._ready, self._attention, self._buzzer):
            if device is not None:
                device.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
