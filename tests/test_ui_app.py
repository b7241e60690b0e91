"""The app loop: one input path, the screen flow a view calls for, the worker off the loop."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import threading
import time
from dataclasses import dataclass

import pygame
import pytest

from companion.ui import samples
from companion.ui.app import App, Worker, key_action, run_window
from companion.ui.screens.base import Action, Settings
from companion.ui.screens.confirm import ConfirmScreen
from companion.ui.screens.end import EndScreen
from companion.ui.screens.idle import IdleScreen
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.summary import RoundScreen
from companion.ui.screens.table import TableScreen
from companion.ui.screens.warning import WarningScreen


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


class FakePipeline:
    """Hands out the views it is given, records the actions it gets."""

    def __init__(self, views, delay: float = 0.0) -> None:
        self.views = list(views)
        self.delay = delay
        self.acts: list[str] = []
        self.steps = 0
        self.closed = False

    def first(self):
        return self.views[0]

    def step(self):
        time.sleep(self.delay)
        self.steps += 1
        return self.views[min(self.steps, len(self.views) - 1)]

    def act(self, action):
        self.acts.append(action)

    def close(self):
        self.closed = True


def make_app(views, **options) -> tuple[App, list[FakePipeline]]:
    made: list[FakePipeline] = []

    def session(settings):
        made.append(FakePipeline(views, options.pop("delay", 0.0)))
        return made[-1]

    app = App((800, 480), session, Settings(samples.NAMES[:2]), threaded=options.pop("threaded", False),
              **options)
    return app, made


def test_keys_become_the_button_vocabulary():
    assert key_action("return").name == "confirm"
    assert key_action("right").name == "next"
    assert key_action("left").name == "previous"
    assert key_action("backspace").name == "undo"
    assert key_action("escape").name == "menu"
    assert key_action("q") is None


def test_a_tap_presses_the_button_under_it():
    _surface, canvas, app = samples.render("setup", (800, 480), 2)
    target = next(t for t in canvas.targets if t.action == "players:4")
    app.tap(target.rect.center)
    assert app.top.count == 4
    app.on_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=target.rect.move(0, -400).center))
    assert app.top.count == 4  # a tap on nothing changes nothing


def test_three_buttons_alone_set_up_and_start_a_game():
    view = samples.table(3)

    @dataclass
    class Press:
        input: str
        source: str = "button:test"

    class Buttons:
        def __init__(self):
            self.queue = []

        def drain(self):
            out, self.queue = self.queue, []
            return out

    buttons = Buttons()
    app, made = make_app([view], buttons=buttons)
    app.push(SetupScreen(app.settings))
    surface = pygame.Surface((800, 480))
    app.draw(surface)
    order = app.top._actions
    # Walk to "3 players" and press it, then step back from the start to "Start".
    for _i in range(order.index("players:3")):
        buttons.queue.append(Press("next"))
    buttons.queue.append(Press("confirm"))
    app.poll()
    app.draw(surface)
    assert app.top.count == 3
    buttons.queue += [Press("previous")] * (app.top.focus + 1) + [Press("confirm")]
    app.poll()
    assert isinstance(app.stack[0], TableScreen)  # under the summary of the sample's last round
    assert app.settings.names == ("Åse", "Łukasz", "Player 3")
    assert made and made[-1].views[0] is view


def test_views_bring_up_and_take_down_the_screens_they_call_for():
    table = samples.table(2)
    asking = samples.confirm(2)
    app, made = make_app([table])
    app.start(app.settings)
    app.action(Action("continue", "touch"))  # the sample's last round summary
    assert isinstance(app.top, TableScreen)
    app.receive(asking)
    assert isinstance(app.top, ConfirmScreen)
    app.action(Action("confirm", "button:confirm"))
    app.action(Action("pick:0", "touch"))
    assert made[-1].acts == ["confirm", "previous"]  # selected was 1: one step back
    app.receive(table)
    assert app.find(ConfirmScreen) is None
    app.receive(samples.warning(2))
    assert isinstance(app.top, WarningScreen)
    app.action(Action("hide", "touch"))
    assert app.find(WarningScreen) is None
    app.receive(samples.warning(2))
    assert app.find(WarningScreen) is None  # the same problem stays hidden
    app.receive(table)
    ended = samples.game_end(2)
    app.receive(ended)
    assert isinstance(app.top, RoundScreen)
    assert isinstance(app.stack[0], EndScreen)
    app.action(Action("confirm", "key:return"))
    assert isinstance(app.top, EndScreen)


def test_round_summary_closes_by_itself():
    app, _made = make_app([samples.table(2)], round_seconds=3.0)
    app.start(app.settings)
    app.advance(3.5)
    app.receive(samples.round_end(2))
    assert isinstance(app.top, RoundScreen)
    app.advance(2.0)
    assert isinstance(app.top, RoundScreen)
    app.advance(1.5)
    assert isinstance(app.top, TableScreen)


def test_idle_screen_after_a_quiet_while_and_back_on_a_touch():
    app, _made = make_app([samples.table(2)], idle_after=5.0)
    app.push(SetupScreen(app.settings))
    app.advance(4.0)
    assert isinstance(app.top, SetupScreen)
    app.advance(1.5)
    assert isinstance(app.top, IdleScreen)
    app.tap((10, 10))
    assert isinstance(app.top, SetupScreen)


def test_demo_pace_asks_the_pipeline_for_steps():
    app, made = make_app([samples.table(2), samples.table(3)], pace=1.0, round_seconds=None)
    app.start(app.settings)
    app.action(Action("continue", "touch"))
    app.advance(0.5)
    assert made[-1].steps == 0
    app.advance(0.6)
    assert made[-1].steps == 1


def test_demo_pace_goes_on_under_a_question_but_not_while_a_person_chooses():
    from companion.ui.screens.confirm import ConfirmScreen
    from companion.ui.screens.entry import EntryScreen

    app, made = make_app([samples.confirm(2)] * 4, pace=1.0, round_seconds=None)
    app.start(app.settings)
    assert isinstance(app.top, ConfirmScreen)
    app.advance(1.1)
    assert made[-1].steps == 1, "the simulated players answer the question themselves"
    app.push(EntryScreen())
    app.advance(2.2)
    assert made[-1].steps == 1


def test_slow_work_runs_off_the_render_loop():
    slow = FakePipeline([samples.table(2), samples.table(3)], delay=0.5)
    worker = Worker(slow)
    worker.start()
    app, _made = make_app([samples.table(2)])
    app.worker = worker
    try:
        deadline = time.monotonic() + 2
        while app.view is None and time.monotonic() < deadline:
            app.poll()
        worker.submit("step")
        surface = pygame.Surface((800, 480))
        started = time.perf_counter()
        for _frame in range(5):
            app.poll()
            app.update(1 / 30)
            app.draw(surface)
        assert time.perf_counter() - started < 0.4  # five frames while the step sleeps 0.5 s
        assert slow.steps == 0 or app.view.names != samples.NAMES[:3]
        while slow.steps == 0 and time.monotonic() < deadline + 2:
            time.sleep(0.01)
        time.sleep(0.05)
        app.poll()
        assert len(app.view.names) == 3
    finally:
        worker.close()
    assert slow.closed


def test_a_failing_pipeline_shows_the_problem_and_goes_on():
    class Broken(FakePipeline):
        def step(self):
            raise RuntimeError("boom")

    worker = Worker(Broken([samples.table(2)]))
    worker.handle("step")  # no view yet: nothing to show, nothing raised
    worker._call(worker.pipeline.first)
    worker.handle("step")
    views = worker.results()
    assert views[-1].status == "Internal error: boom"


def test_window_loop_tells_systemd_it_is_ready_and_feeds_the_watchdog():
    class Notifier:
        watchdog_interval = 0.0

        def __init__(self):
            self.calls = []

        def ready(self, status=None):
            self.calls.append("ready")
            return True

        def watchdog(self):
            self.calls.append("watchdog")
            return True

    notifier = Notifier()
    app, _made = make_app([samples.table(2)])
    frames = []

    def quit_soon(dt):
        frames.append(dt)
        if len(frames) > 5:
            app.running = False

    app.update = quit_soon  # type: ignore[method-assign]
    assert run_window(app, notifier=notifier, first=lambda: app.start(app.settings)) == 0
    assert notifier.calls[0] == "ready"
    assert notifier.calls.count("ready") == 1
    assert notifier.calls.count("watchdog") >= 2
    assert threading.active_count() >= 1


# --- one app, both games ----------------------------------------------------------------


def test_one_app_switches_between_the_azul_and_the_kids_screens():
    from companion.ui.kids import samples as kids_samples
    from companion.ui.kids.screens import KidsPromptScreen, KidsTableScreen
    from companion.ui.kids.settings import kids_settings

    made: list[FakePipeline] = []
    kids = kids_settings("master", 4)
    views = {"azul": [samples.table(2)], "azul-kids": [kids_samples.sample_view("table", 4, "master"),
                                                         kids_samples.sample_view("prompt", 4, "master")]}

    def session(settings):
        made.append(FakePipeline(views[settings.game]))
        return made[-1]

    app = App((800, 480), session, Settings(samples.NAMES[:2]), threaded=False, round_seconds=None)
    app.start(app.settings)
    assert isinstance(app.stack[0], TableScreen) and isinstance(app.top, RoundScreen)  # Azul's screens
    app.start(kids)
    assert made[0].closed, "the Azul game's pipeline was let go"
    assert isinstance(app.top, KidsTableScreen) and app.view.variant == "master"
    app.send("step")
    assert isinstance(app.top, KidsPromptScreen), "the Kids question, not Azul's"
    app.action(Action("confirm", "button:confirm"))
    assert made[1].acts == ["confirm"]
    app.start(Settings(samples.NAMES[:2]))
    assert isinstance(app.stack[0], TableScreen) and made[1].closed
    canvas = app.draw(pygame.Surface((800, 480)))
    assert samples.NAMES[0] in canvas.texts()


def test_the_idle_screen_comes_over_the_end_of_a_kids_game_and_the_setup_follows():
    from companion.ui.kids import samples as kids_samples
    from companion.ui.kids.screens import KidsEndScreen
    from companion.ui.kids.settings import kids_settings

    settings = kids_settings("apprentice", 2)
    ended = kids_samples.sample_view("end", 2, "apprentice")
    app = App((800, 480), lambda _s: FakePipeline([ended]), settings, threaded=False, idle_after=5.0)
    app.start(settings)
    assert isinstance(app.top, KidsEndScreen)
    app.advance(5.5)
    assert isinstance(app.top, IdleScreen)
    app.tap((10, 10))
    assert isinstance(app.top, KidsEndScreen)
    app.action(Action("next", "button:next"))  # from "again" to the setup
    app.action(Action("confirm", "button:confirm"))
    assert isinstance(app.top, SetupScreen) and app.top.game == "azul-kids"
    app.advance(5.5)
    assert isinstance(app.top, IdleScreen)
