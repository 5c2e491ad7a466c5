from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig
from hardware.buttons import (
    BACK,
    CONFIRM,
    NEXT,
    PREV,
    ButtonError,
    ButtonLogic,
    GpioButtons,
    Input,
    InputKind,
    InputQueue,
    KeyboardButtons,
    open_buttons,
)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture()
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()
    f.close()


def make_pad(
    factory: MockFactory, clock: FakeClock, hold_time: float = 5.0, **kw: Any
) -> GpioButtons:
    config = ButtonsConfig(bounce_time=0.05, hold_time=hold_time, **kw)
    return GpioButtons(config, pin_factory=factory, clock=clock)


def test_input_values() -> None:
    assert Input.react(3) == Input(InputKind.REACT, 3)
    assert str(Input.react(0)) == "REACT seat 1"
    assert str(BACK.as_held()) == "BACK (held)"
    with pytest.raises(ValueError, match="seat"):
        Input(InputKind.REACT)
    with pytest.raises(ValueError, match="seat"):
        Input.react(8)
    with pytest.raises(ValueError, match="no seat"):
        Input(InputKind.NEXT, 2)


def test_each_pin_gives_its_input(factory: MockFactory) -> None:
    clock = FakeClock()
    with make_pad(factory, clock) as pad:
        presses = [(5, PREV), (6, NEXT), (13, CONFIRM), (17, Input.react(0)), (16, Input.react(7))]
        for pin, _ in presses:
            factory.pin(pin).drive_low()
            clock.advance(0.2)
            factory.pin(pin).drive_high()
            clock.advance(0.2)
        assert pad.queue.drain() == [value for _, value in presses]
        assert pad.seats == 8


def test_bounce_on_press_and_release_gives_one_input(factory: MockFactory) -> None:
    clock = FakeClock()
    with make_pad(factory, clock) as pad:
        pin = factory.pin(13)
        # contact chatter: several edges a few ms apart when pressed, and again when released
        for level in [0, 1, 0, 1, 0]:
            (pin.drive_low if level == 0 else pin.drive_high)()
            clock.advance(0.004)
        clock.advance(0.3)
        for level in [1, 0, 1, 0, 1]:
            (pin.drive_low if level == 0 else pin.drive_high)()
            clock.advance(0.004)
        assert pad.queue.drain() == [CONFIRM]
        # a genuine second press after the bounce window counts again
        clock.advance(0.2)
        pin.drive_low()
        assert pad.queue.drain() == [CONFIRM]
        pin.drive_high()  # released before closing: gpiozero's hold thread ends at once


def test_presses_closer_than_bounce_time_are_one(factory: MockFactory) -> None:
    clock = FakeClock()
    with make_pad(factory, clock) as pad:
        pin = factory.pin(6)
        pin.drive_low()
        clock.advance(0.2)
        pin.drive_high()
        clock.advance(0.01)  # re-press 10 ms after release: still bouncing
        pin.drive_low()
        clock.advance(0.2)
        pin.drive_high()
        assert pad.queue.drain() == [NEXT]


def test_holding_a_button_is_one_press_not_many(factory: MockFactory) -> None:
    clock = FakeClock()
    config = ButtonsConfig(bounce_time=0.05, hold_time=0.1, hold_actions=frozenset({"back"}))
    with GpioButtons(config, pin_factory=factory, clock=clock) as pad:
        held = threading.Event()
        original = pad.logic[NEXT].held

        def spy() -> None:
            original()
            held.set()

        pad._buttons[1].when_held = spy  # NEXT, which has no hold meaning
        pin = factory.pin(6)
        pin.drive_low()
        assert pad.queue.get(timeout=2) == NEXT
        # stay down past the hold time: gpiozero's hold thread fires, nothing repeats
        assert held.wait(timeout=5), "gpiozero never reported the hold"
        clock.advance(1.0)
        pin.drive_high()
        assert pad.queue.drain() == []


def test_back_held_gives_one_held_input_then_its_release_and_no_tap(
        factory: MockFactory) -> None:
    clock = FakeClock()
    config = ButtonsConfig(bounce_time=0.05, hold_time=0.1, hold_actions=frozenset({"back"}))
    with GpioButtons(config, pin_factory=factory, clock=clock) as pad:
        pin = factory.pin(26)
        pin.drive_low()
        assert pad.queue.get(timeout=5) == BACK.as_held()
        clock.advance(1.0)
        pin.drive_high()
        assert pad.queue.drain() == [BACK.as_released()]


def test_react_held_by_default_gives_held_then_released_for_a_peek(
        factory: MockFactory) -> None:
    clock = FakeClock()
    config = ButtonsConfig(bounce_time=0.05, hold_time=0.1)
    with GpioButtons(config, pin_factory=factory, clock=clock) as pad:
        pin = factory.pin(27)  # seat 2
        pin.drive_low()
        assert pad.queue.get(timeout=5) == Input.react(1, held=True)
        clock.advance(1.0)
        pin.drive_high()
        assert pad.queue.drain() == [Input.react(1).as_released()]


def test_back_tapped_gives_tap_on_release(factory: MockFactory) -> None:
    clock = FakeClock()
    with make_pad(factory, clock, hold_time=5.0) as pad:
        pin = factory.pin(26)
        pin.drive_low()
        assert pad.queue.drain() == []  # could still become a hold
        clock.advance(0.2)
        pin.drive_high()
        assert pad.queue.drain() == [BACK]


def test_logic_hold_and_release_race_sends_exactly_one() -> None:
    clock = FakeClock()
    out: list[Input] = []
    logic = ButtonLogic(BACK, out.append, 0.05, True, clock)
    logic.pressed()
    clock.advance(1.0)
    logic.held()
    logic.held()
    logic.released()
    assert out == [BACK.as_held(), BACK.as_released()]


def test_fewer_seats_and_custom_pins(factory: MockFactory) -> None:
    clock = FakeClock()
    config = ButtonsConfig(
        pins={"prev": 4, "next": 5, "confirm": 6, "back": 7}, react_pins=(20, 21),
        hold_actions=frozenset({"back"}),
    )
    with GpioButtons(config, pin_factory=factory, clock=clock) as pad:
        assert pad.seats == 2
        factory.pin(21).drive_low()
        factory.pin(4).drive_low()
        assert pad.queue.drain() == [Input.react(1), PREV]
        factory.pin(21).drive_high()
        factory.pin(4).drive_high()


def test_pin_in_use_is_a_clear_error(factory: MockFactory) -> None:
    clock = FakeClock()
    with make_pad(factory, clock):
        with pytest.raises(ButtonError, match="no other program uses the pins"):
            make_pad(factory, clock)


def test_keyboard_backend_is_not_gpio() -> None:
    assert open_buttons(ButtonsConfig(backend="keyboard")) is None


def test_queue_is_thread_safe_and_bounded() -> None:
    queue = InputQueue(maxlen=10_000)

    def producer(seat: int) -> None:
        for _ in range(1000):
            queue.put(Input.react(seat))

    threads = [threading.Thread(target=producer, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    got: list[Input] = []
    for t in threads:
        t.join()
    got += queue.drain()
    assert len(got) == 4000
    assert {i.seat for i in got} == {0, 1, 2, 3}
    small = InputQueue(maxlen=2)
    for value in (PREV, NEXT, CONFIRM):
        small.put(value)
    assert small.drain() == [NEXT, CONFIRM] and small.dropped == 1
    assert small.get(timeout=0.01) is None


def key(pg: Any, kind: int, k: int, mod: int = 0) -> Any:
    return pg.event.Event(kind, key=k, mod=mod)


def test_keyboard_maps_keys_to_the_same_inputs() -> None:
    import pygame as pg

    clock = FakeClock()
    kb = KeyboardButtons(hold_time=1.0, clock=clock)
    for k in (pg.K_LEFT, pg.K_RIGHT, pg.K_RETURN, pg.K_3, pg.K_8):
        assert kb.handle_event(key(pg, pg.KEYDOWN, k))
        assert kb.handle_event(key(pg, pg.KEYUP, k))
    assert not kb.handle_event(key(pg, pg.KEYDOWN, pg.K_q))
    assert not kb.handle_event(pg.event.Event(pg.MOUSEBUTTONDOWN, button=1, pos=(0, 0)))
    assert kb.queue.drain() == [PREV, NEXT, CONFIRM, Input.react(2), Input.react(7)]


def test_keyboard_repeat_is_one_press_and_escape_hold() -> None:
    import pygame as pg

    clock = FakeClock()
    kb = KeyboardButtons(hold_time=1.0, clock=clock)
    for _ in range(5):  # auto-repeat sends KEYDOWN again and again
        kb.handle_event(key(pg, pg.KEYDOWN, pg.K_DOWN))
    kb.handle_event(key(pg, pg.KEYUP, pg.K_DOWN))
    assert kb.queue.drain() == [NEXT]

    kb.handle_event(key(pg, pg.KEYDOWN, pg.K_ESCAPE))
    clock.advance(0.5)
    kb.tick()
    assert kb.queue.drain() == []
    clock.advance(0.6)
    kb.tick()
    kb.tick()
    kb.handle_event(key(pg, pg.KEYUP, pg.K_ESCAPE))
    assert kb.queue.drain() == [BACK.as_held(), BACK.as_released()]

    kb.handle_event(key(pg, pg.KEYDOWN, pg.K_ESCAPE))
    clock.advance(0.2)
    kb.tick()
    kb.handle_event(key(pg, pg.KEYUP, pg.K_ESCAPE))
    kb.handle_event(key(pg, pg.KEYDOWN, pg.K_ESCAPE, mod=pg.KMOD_LSHIFT))
    assert kb.queue.drain() == [BACK, BACK.as_held()]
    kb.handle_event(key(pg, pg.KEYUP, pg.K_ESCAPE))
    assert kb.queue.drain() == [BACK.as_released()]


def test_keyboard_seats_follow_config() -> None:
    import pygame as pg

    kb = KeyboardButtons.from_config(ButtonsConfig(react_pins=(17, 27)))
    assert kb.handle_event(key(pg, pg.KEYDOWN, pg.K_2))
    assert kb.handle_event(key(pg, pg.KEYUP, pg.K_2))  # REACT taps arrive on release
    assert not kb.handle_event(key(pg, pg.KEYDOWN, pg.K_3))
    assert kb.queue.drain() == [Input.react(1)]


def test_no_pin_factory_gives_one_clear_error_without_gpiozero_warnings() -> None:
    """Off a Pi, `companion hw buttons` prints one error naming the factories it tried, not
    gpiozero's fallback warnings around it."""
    import importlib.util
    import os
    import subprocess
    import sys
    from pathlib import Path

    if importlib.util.find_spec("lgpio") or importlib.util.find_spec("RPi"):
        pytest.skip("a GPIO library is installed here: the default pin factory may load")
    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO_")}
    env["PYTHONPATH"] = str(repo)
    out = subprocess.run([sys.executable, "-m", "companion.cli", "hw", "buttons"],
                         capture_output=True, text=True, timeout=60, env=env, cwd=repo)
    text = out.stdout + out.stderr
    assert out.returncode != 0
    assert "PinFactoryFallback" not in text and "warnings.warn" not in text, text
    assert "could not set up the GPIO buttons" in text and "(tried: Falling back from" in text
    assert len(text.strip().splitlines()) == 1, text
