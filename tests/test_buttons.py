import threading
import time

import pytest
from gpiozero import BadPinFactory
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import (
    DEFAULT_PINS,
    KEY_INPUTS,
    ButtonBoard,
    ButtonSpec,
    Feedback,
    Input,
    InputEvent,
    PressTracker,
    default_buttons,
    input_for_key,
    open_buttons,
)

# Powers of two, so that sums of test times are exact and thresholds are hit exactly.
DEBOUNCE = 1 / 32
LONG = 0.75
CONFIRM = ButtonSpec("confirm", 17, Input.CONFIRM, Input.MENU)
UNDO = ButtonSpec("undo", 22, None, Input.UNDO)
PLAIN = ButtonSpec("next", 27, Input.NEXT)


def tracker(spec=CONFIRM, pressed=False):
    return PressTracker(spec, DEBOUNCE, LONG, pressed=pressed)


def feed(tr, edges):
    for t, level in edges:
        tr.edge(level, t)


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


# --- debounce and long press, exactly -----------------------------------------------


def test_short_press_counts_on_release_once_debounced():
    tr = tracker()
    feed(tr, [(0.0, True)])
    assert tr.poll(0.0625) == []  # pressed, but short or long is not known yet
    feed(tr, [(0.25, False)])
    assert tr.poll(0.28125 - 1e-9) == []  # the release has not held for the debounce time
    assert tr.poll(0.28125) == [(Input.CONFIRM, 0.25)]
    assert tr.poll(5.0) == []


def test_contact_bounce_gives_one_press():
    tr = tracker()
    press = [(0.000, True), (0.002, False), (0.004, True), (0.007, False), (0.009, True)]
    release = [(0.300, False), (0.301, True), (0.303, False), (0.310, True), (0.312, False)]
    feed(tr, press)
    assert tr.poll(0.1) == []
    feed(tr, release)
    assert tr.poll(1.0) == [(Input.CONFIRM, 0.312)]


def test_a_blip_shorter_than_the_debounce_time_is_ignored():
    tr = tracker(PLAIN)
    feed(tr, [(1.0, True), (1.03, False)])
    assert tr.poll(1.01) == []
    assert tr.poll(3.0) == []


def test_a_press_between_two_polls_still_counts():
    tr = tracker()
    feed(tr, [(0.1, True), (0.3, False), (0.5, True), (0.6, False)])
    assert tr.poll(2.0) == [(Input.CONFIRM, 0.3), (Input.CONFIRM, 0.6)]


def test_long_press_fires_while_held_and_the_release_says_nothing():
    tr = tracker()
    feed(tr, [(0.0, True)])
    assert tr.poll(0.75 - 1e-9) == []
    assert tr.poll(0.75) == [(Input.MENU, 0.75)]
    assert tr.poll(3.0) == []  # held on: not repeated
    feed(tr, [(3.0, False)])
    assert tr.poll(4.0) == []


def test_long_press_that_happened_between_polls_is_not_lost():
    tr = tracker()
    feed(tr, [(0.0, True), (1.0, False)])
    assert tr.poll(2.0) == [(Input.MENU, 0.75)]


def test_long_press_seen_half_by_one_poll_and_half_by_the_next():
    tr = tracker()
    feed(tr, [(1.5, True)])
    assert tr.poll(2.0) == []
    feed(tr, [(2.5, False)])
    assert tr.poll(9.0) == [(Input.MENU, 2.25)]


def test_a_blip_during_a_long_press_does_not_split_it():
    tr = tracker()
    feed(tr, [(0.0, True), (0.4, False), (0.41, True)])
    assert tr.poll(0.9) == [(Input.MENU, 0.75)]


def test_a_release_being_judged_is_not_taken_for_a_long_press():
    tr = tracker()
    feed(tr, [(0.0, True), (0.734375, False)])
    assert tr.poll(0.765625 - 1e-9) == []
    assert tr.poll(0.765625) == [(Input.CONFIRM, 0.734375)]


def test_undo_needs_a_long_press():
    tr = tracker(UNDO)
    feed(tr, [(0.0, True), (0.5, False)])
    assert tr.poll(1.0) == []
    feed(tr, [(2.0, True)])
    assert tr.poll(2.75) == [(Input.UNDO, 2.75)]
    feed(tr, [(4.0, False)])
    assert tr.poll(5.0) == []


def test_a_button_without_long_meaning_acts_on_press():
    tr = tracker(PLAIN)
    feed(tr, [(0.0, True)])
    assert tr.poll(DEBOUNCE - 1e-9) == []
    assert tr.poll(DEBOUNCE) == [(Input.NEXT, 0.0)]
    feed(tr, [(2.0, False)])
    assert tr.poll(3.0) == []


def test_a_button_held_at_start_up_is_no_press():
    tr = tracker(pressed=True)
    assert tr.poll(2.0) == []
    feed(tr, [(2.0, False)])
    assert tr.poll(3.0) == []
    feed(tr, [(4.0, True), (4.125, False)])
    assert tr.poll(5.0) == [(Input.CONFIRM, 4.125)]


def test_a_release_that_bounces_ends_the_hold_at_its_first_edge():
    # Found by hypothesis: held 0.748 s, the release bounced for 2 ms past the long-press time.
    tr = tracker()
    feed(tr, [(1.0, True), (1.001, False), (1.0015, True),
              (1.75, False), (1.7512, True), (1.7524, False)])
    assert tr.poll(6.75) == [(Input.CONFIRM, 1.7524)]


def bounced(level, at, blips):
    """Edges of a contact that settles on ``level`` after flickering: (edges, settled time)."""
    edges = [(at, level)]
    for away, back in blips:
        edges.append((edges[-1][0] + away, not level))
        edges.append((edges[-1][0] + back, level))
    return edges, edges[-1][0]


@st.composite
def bouncy_presses(draw):
    """Presses of random lengths; every edge bounces for less than the debounce time."""
    blip = st.floats(0.0005, DEBOUNCE / 20)
    bounce = st.lists(st.tuples(blip, blip), max_size=3)
    t = 0.0
    edges, expected = [], []
    for _ in range(draw(st.integers(1, 6))):
        t += draw(st.floats(0.1, 2.0))
        held = draw(st.floats(2 * DEBOUNCE, 2.0))
        press, pressed_at = bounced(True, t, draw(bounce))
        release, released_at = bounced(False, t + held, draw(bounce))
        edges += press + release
        if t + held - pressed_at >= LONG:
            expected.append((Input.MENU, pressed_at + LONG))
        else:
            expected.append((Input.CONFIRM, released_at))
        t = released_at
    polls = draw(st.lists(st.floats(0.0, t + 1.0), max_size=8))
    return edges, [*sorted(polls), t + 5.0], expected


@settings(max_examples=200, deadline=None)
@given(bouncy_presses())
def test_bouncing_presses_count_once_however_often_polled(case):
    edges, polls, expected = case
    tr = tracker()
    found, fed = [], 0
    for now in polls:
        while fed < len(edges) and edges[fed][0] <= now:
            tr.edge(edges[fed][1], edges[fed][0])
            fed += 1
        found += tr.poll(now)
    meanings = [meaning for meaning, _t in found]
    assert meanings == [meaning for meaning, _t in expected]
    for (_m, got), (_e, want) in zip(found, expected, strict=True):
        assert got == pytest.approx(want)


# --- the board, over gpiozero's mock pins -------------------------------------------


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def test_board_turns_pin_edges_into_queued_inputs(factory):
    clock = FakeClock()
    board = ButtonBoard(pin_factory=factory, clock=clock, debounce=DEBOUNCE, long_press=LONG)
    with board:
        confirm, nxt, undo = factory.pin(17), factory.pin(27), factory.pin(22)
        confirm.drive_low()  # buttons pull the pin to ground
        clock.t = 0.002
        confirm.drive_high()  # bounce
        clock.t = 0.004
        confirm.drive_low()
        clock.t = 0.25
        confirm.drive_high()
        nxt.drive_low()
        clock.t = 1.0
        board.poll()
        undo.drive_low()
        clock.t = 2.0
        undo.drive_high()
        nxt.drive_high()
        board.poll()
        assert board.drain() == [
            InputEvent(Input.CONFIRM, "button:confirm", 0.25),
            InputEvent(Input.PREVIOUS, "button:next", 1.0),
            InputEvent(Input.UNDO, "button:undo", 1.75),
        ]
        assert board.drain() == []


def test_board_closes_its_pins(factory):
    board = ButtonBoard(default_buttons({"confirm": 5}), pin_factory=factory)
    board.close()
    board.close()
    ButtonBoard(default_buttons({"confirm": 5}), pin_factory=factory).close()  # pin free again


def test_board_polls_in_the_background(factory):
    board = ButtonBoard(default_buttons({"next": 27}), pin_factory=factory, debounce=0.01,
                        long_press=60)
    board.start(interval=0.002)
    try:
        assert "buttons" in [thread.name for thread in threading.enumerate()]
        factory.pin(27).drive_low()
        time.sleep(0.05)  # held past the debounce time: a short press, acted on at release
        factory.pin(27).drive_high()
        event = board.events.get(timeout=5)
        assert event.input is Input.NEXT
    finally:
        board.close()
    assert "buttons" not in [thread.name for thread in threading.enumerate()]


def test_no_gpio_falls_back_to_the_keyboard():
    class NoGpio(MockFactory):
        def pin(self, spec, **kwargs):
            raise BadPinFactory("Unable to load any default pin factory!")

    board, message = open_buttons(pin_factory=NoGpio())
    assert board is None
    assert "Unable to load any default pin factory" in message
    assert "Enter confirms" in message


def test_open_buttons_gives_a_board_when_gpio_exists(factory):
    board, message = open_buttons(default_buttons({"undo": 4}), pin_factory=factory, long_press=0.5)
    assert message is None
    board.close()


def test_default_buttons_follow_the_pins():
    assert default_buttons() == (
        CONFIRM, ButtonSpec("next", 27, Input.NEXT, Input.PREVIOUS), UNDO)
    assert dict(DEFAULT_PINS) == {"confirm": 17, "next": 27, "undo": 22}
    assert default_buttons({"confirm": 5, "next": None, "undo": 6}) == (
        ButtonSpec("confirm", 5, Input.CONFIRM, Input.MENU),
        ButtonSpec("undo", 6, None, Input.UNDO),
    )
    with pytest.raises(ValueError, match="unknown buttons: redo"):
        default_buttons({"redo": 3})


def test_keys_map_to_the_same_inputs():
    assert input_for_key("Return") is Input.CONFIRM
    assert input_for_key("space") is Input.CONFIRM
    assert input_for_key("right") is Input.NEXT
    assert input_for_key("left") is Input.PREVIOUS
    assert input_for_key("backspace") is Input.UNDO
    assert input_for_key("escape") is Input.MENU
    assert input_for_key("x") is None
    assert set(KEY_INPUTS.values()) == set(Input)


# --- LEDs and buzzer ----------------------------------------------------------------


def wait_until(condition, timeout=5.0):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.005)


def test_feedback_lights_and_beeps(factory):
    with Feedback(pin_factory=factory, ready_led=5, attention_led=6, buzzer=13) as feedback:
        ready, attention, buzzer = factory.pin(5), factory.pin(6), factory.pin(13)
        feedback.ready(True)
        assert ready.state
        feedback.ready(False)
        assert not ready.state
        feedback.attention(True)
        wait_until(lambda: [s.state for s in attention.states].count(True) >= 2)  # blinking
        feedback.attention(False)
        assert not attention.state
        feedback.beep(2)
        wait_until(lambda: [s.state for s in buzzer.states] == [False, True, False, True, False])


def test_feedback_without_pins_does_nothing(factory):
    feedback = Feedback(pin_factory=factory)
    feedback.ready(True)
    feedback.attention(True)
    feedback.beep()
    feedback.close()
