"""Game-level inputs from GPIO push buttons (gpiozero) or the keyboard, through one queue.

A shared navigation pad (previous, next, confirm, back) plus one "react" button per seat (up to 8,
for off-turn reactions and auction bids). Both backends put the same :class:`Input` values into an
:class:`InputQueue` that the UI loop drains once per frame, so a GPIO button and a key are the
same thing to the screens.

One physical press gives one input: contact bounce is filtered (edges closer than ``bounce_time``
to the last accepted edge are ignored), and keeping a button down never repeats it. Buttons listed
in ``hold_actions`` have a second meaning when kept down for ``hold_time`` (for example BACK held
opens the undo menu): those send their tap when released, or one ``held=True`` input once the hold
time is reached (and nothing on release). The other buttons send their tap the moment they go
down, for the quickest response.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.config import MAX_SEATS, NAV_INPUTS, ButtonsConfig

Clock = Callable[[], float]


class InputKind(Enum):
    PREV = "prev"
    NEXT = "next"
    CONFIRM = "confirm"
    BACK = "back"
    REACT = "react"


@dataclass(frozen=True)
class Input:
    """One game-level input: a navigation button, or the react button of ``seat`` (0-based)."""

    kind: InputKind
    seat: int | None = None
    held: bool = False
    released: bool = False  # the end of a hold: the button, kept down, is let go

    def __post_init__(self) -> None:
        if self.kind is InputKind.REACT:
            if self.seat is None or not 0 <= self.seat < MAX_SEATS:
                raise ValueError(f"a react input needs a seat 0..{MAX_SEATS - 1}, got {self.seat}")
        elif self.seat is not None:
            raise ValueError(f"{self.kind.name} is a shared button and has no seat")

    @classmethod
    def react(cls, seat: int, held: bool = False) -> Input:
        return cls(InputKind.REACT, seat, held)

    def as_held(self) -> Input:
        return Input(self.kind, self.seat, True)

    def as_released(self) -> Input:
        """The input that ends a hold (``held`` then ``released``: a peek lasts between)."""
        return Input(self.kind, self.seat, True, True)

    def __str__(self) -> str:
        name = self.kind.name if self.seat is None else f"REACT seat {self.seat + 1}"
        if self.released:
            return f"{name} (let go)"
        return f"{name} (held)" if self.held else name


PREV = Input(InputKind.PREV)
NEXT = Input(InputKind.NEXT)
CONFIRM = Input(InputKind.CONFIRM)
BACK = Input(InputKind.BACK)


class ButtonError(RuntimeError):
    """The buttons could not be set up; the message says what to do."""


class InputQueue:
    """Thread-safe FIFO of inputs: GPIO callback threads put, the UI loop drains.

    Bounded (``maxlen``): if the UI stalls, the oldest inputs are dropped and counted in
    ``dropped`` rather than replayed as a burst minutes later.
    """

    def __init__(self, maxlen: int = 64) -> None:
        self._items: deque[Input] = deque()
        self._maxlen = maxlen
        self._cond = threading.Condition()
        self.dropped = 0

    def put(self, item: Input) -> None:
        with self._cond:
            if len(self._items) >= self._maxlen:
                self._items.popleft()
                self.dropped += 1
            self._items.append(item)
            self._cond.notify_all()

    def drain(self) -> list[Input]:
        """Every waiting input, oldest first (never blocks)."""
        with self._cond:
            items = list(self._items)
            self._items.clear()
            return items

    def get(self, timeout: float | None = None) -> Input | None:
        """The oldest input, waiting up to ``timeout`` seconds; None if nothing came."""
        with self._cond:
            if not self._cond.wait_for(lambda: bool(self._items), timeout):
                return None
            return self._items.popleft()

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)


class ButtonLogic:
    """Debounce and hold logic of one button, independent of where its edges come from."""

    def __init__(
        self,
        value: Input,
        emit: Callable[[Input], None],
        bounce_time: float,
        tap_on_release: bool,
        clock: Clock,
    ) -> None:
        self.value = value
        self._emit = emit
        self._bounce = bounce_time
        self._tap_on_release = tap_on_release
        self._clock = clock
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._last_edge = float("-inf")

    def pressed(self) -> None:
        with self._lock:
            now = self._clock()
            if now - self._last_edge < self._bounce:
                return  # bounce of the last accepted edge
            self._last_edge = now
            self._down = True
            self._held = False
            if not self._tap_on_release:
                self._emit(self.value)

    def released(self) -> None:
        with self._lock:
            if not self._down:
                return
            now = self._clock()
            if now - self._last_edge < self._bounce:
                return
            self._last_edge = now
            self._down = False
            if self._tap_on_release and not self._held:
                self._emit(self.value)
            elif self._tap_on_release:
                self._emit(self.value.as_released())  # the end of the hold

    def held(self) -> None:
        """Called once the button has stayed down for the hold time."""
        with self._lock:
            if not self._down or self._held:
                return
            self._held = True
            if self._tap_on_release:
                self._emit(self.value.as_held())


def button_inputs(config: ButtonsConfig) -> list[tuple[Input, Any]]:
    """(input, pin) for every configured button, navigation pad first, then seats in order."""
    pairs: list[tuple[Input, Any]] = [
        (Input(InputKind(name)), config.pins[name]) for name in NAV_INPUTS
    ]
    pairs += [(Input.react(seat), pin) for seat, pin in enumerate(config.react_pins)]
    return pairs


def _hold_enabled(value: Input, hold_actions: Iterable[str]) -> bool:
    return value.kind.value in set(hold_actions)


class GpioButtons:
    """Push buttons on GPIO pins via gpiozero; each pin is wired to ground (internal pull-up).

    ``pin_factory`` is the gpiozero pin factory to use (``MockFactory()`` in tests, ``None`` for
    gpiozero's default on a Pi: lgpio on Raspberry Pi OS).
    """

    def __init__(
        self,
        config: ButtonsConfig,
        pin_factory: Any = None,
        queue: InputQueue | None = None,
        clock: Clock | None = None,
    ) -> None:
        import time

        from gpiozero.exc import GPIOZeroError, PinFactoryFallback

        self.queue = queue if queue is not None else InputQueue()
        self.seats = len(config.react_pins)
        self.logic: dict[Input, ButtonLogic] = {}
        self._buttons: list[Any] = []
        clock = clock or time.monotonic
        failure: Exception | None = None
        with warnings.catch_warnings(record=True) as caught:
            # gpiozero warns once per pin factory it cannot load before it gives up; the error
            # below says what to do, so those warnings go into it instead of being printed
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                self._make_buttons(config, pin_factory, clock)
            except (GPIOZeroError, OSError, RuntimeError) as exc:
                failure = exc
        fallbacks = [str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)]
        for w in caught:
            if not issubclass(w.category, PinFactoryFallback):
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        if failure is not None:
            self.close()
            tried = f" (tried: {'; '.join(fallbacks)})" if fallbacks else ""
            raise ButtonError(
                f"could not set up the GPIO buttons ({type(failure).__name__}: {failure}){tried}: "
                "on a Pi check that the user is in the 'gpio' group and that no other program "
                'uses the pins in [buttons.pins]; on a desktop set [buttons] backend = "keyboard"'
            ) from failure

    def _make_buttons(self, config: ButtonsConfig, pin_factory: Any,
                      clock: Callable[[], float]) -> None:
        from gpiozero import Button

        for value, pin in button_inputs(config):
            logic = ButtonLogic(
                value,
                self.queue.put,
                config.bounce_time,
                _hold_enabled(value, config.hold_actions),
                clock,
            )
            button = Button(
                pin,
                pull_up=True,
                bounce_time=config.bounce_time or None,
                hold_time=config.hold_time,
                hold_repeat=False,
                pin_factory=pin_factory,
            )
            self._buttons.append(button)
            button.when_pressed = logic.pressed
            button.when_released = logic.released
            button.when_held = logic.held
            self.logic[value] = logic

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons.clear()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# pygame key name -> input; REACT seats on the digit keys 1..8 (top row and keypad).
KEY_NAMES: Mapping[str, Input] = {
    "K_LEFT": PREV,
    "K_UP": PREV,
    "K_RIGHT": NEXT,
    "K_DOWN": NEXT,
    "K_RETURN": CONFIRM,
    "K_KP_ENTER": CONFIRM,
    "K_SPACE": CONFIRM,
    "K_ESCAPE": BACK,
    "K_BACKSPACE": BACK,
    **{f"K_{n}": Input.react(n - 1) for n in range(1, MAX_SEATS + 1)},
    **{f"K_KP{n}": Input.react(n - 1) for n in range(1, MAX_SEATS + 1)},
}


class KeyboardButtons:
    """The keyboard as the button pad: arrows, Enter/Space, Escape/Backspace, digits 1-8.

    Feed it every pygame event with :meth:`handle_event` and call :meth:`tick` once a frame (it
    sends the ``held`` input of a key kept down for ``hold_time``). Shift + a key sends the held
    input at once, for desktops. Key auto-repeat is ignored: a key kept down is one press.
    """

    def __init__(
        self,
        queue: InputQueue | None = None,
        hold_time: float = 1.0,
        hold_actions: Iterable[str] = ("back", "react"),
        seats: int = MAX_SEATS,
        clock: Clock | None = None,
    ) -> None:
        import time

        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self._pg = pygame
        self.queue = queue if queue is not None else InputQueue()
        self.hold_time = hold_time
        self._hold_actions = frozenset(hold_actions)
        self._clock = clock or time.monotonic
        self.keymap: dict[int, Input] = {
            getattr(pygame, name): value
            for name, value in KEY_NAMES.items()
            if value.seat is None or value.seat < seats
        }
        self._down: dict[int, tuple[float, bool]] = {}  # key -> (pressed at, hold sent)

    @classmethod
    def from_config(
        cls, config: ButtonsConfig, queue: InputQueue | None = None, clock: Clock | None = None
    ) -> KeyboardButtons:
        seats = len(config.react_pins) if config.backend == "gpio" else MAX_SEATS
        return cls(queue, config.hold_time, config.hold_actions, seats, clock)

    def handle_event(self, event: Any) -> bool:
        """Turn a pygame key event into an input; True if the event was one of ours."""
        pg = self._pg
        if event.type not in (pg.KEYDOWN, pg.KEYUP) or event.key not in self.keymap:
            return False
        value = self.keymap[event.key]
        hold_enabled = _hold_enabled(value, self._hold_actions)
        if event.type == pg.KEYDOWN:
            if event.key in self._down:
                return True  # auto-repeat
            if getattr(event, "mod", 0) & pg.KMOD_SHIFT:
                self._down[event.key] = (self._clock(), True)
                self.queue.put(value.as_held() if hold_enabled else value)
                return True
            self._down[event.key] = (self._clock(), False)
            if not hold_enabled:
                self.queue.put(value)
            return True
        pressed = self._down.pop(event.key, None)
        if pressed is not None and hold_enabled:
            self.queue.put(value.as_released() if pressed[1] else value)
        return True

    def tick(self) -> None:
        """Send the held input of hold-enabled keys kept down for ``hold_time``."""
        now = self._clock()
        for key, (since, sent) in list(self._down.items()):
            value = self.keymap[key]
            if not sent and _hold_enabled(value, self._hold_actions):
                if now - since >= self.hold_time:
                    self._down[key] = (since, True)
                    self.queue.put(value.as_held())

    def reset(self) -> None:
        """Forget keys that are down (call when the window loses focus: no KEYUP will come)."""
        self._down.clear()


def open_buttons(
    config: ButtonsConfig, queue: InputQueue | None = None, pin_factory: Any = None
) -> GpioButtons | None:
    """The GPIO buttons if the config asks for them, else None (the keyboard stands in)."""
    if config.backend != "gpio":
        return None
    return GpioButtons(config, pin_factory=pin_factory, queue=queue)
