"""The kiosk main loop: inputs -> screen.update -> screen.draw -> present, once per frame.

Raw pygame events become game-level inputs (``hardware.buttons``): the keyboard backend turns
keys into the same :class:`~hardware.buttons.Input` values the GPIO buttons put into the
shared queue. The systemd watchdog gets READY after the first frame is on screen and a
(rate-limited) WATCHDOG ping every frame, from this loop itself.

Headless (no display, or ``headless=True``): frames are drawn onto an off-screen surface and
every ``save_every``-th one is written as a PNG; time advances by a fixed step per frame so runs
are repeatable.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, MutableMapping
from math import ceil
from pathlib import Path
from typing import Any, Protocol

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from companion.kiosk.painter import Painter  # noqa: E402
from hardware.buttons import Input, InputQueue, KeyboardButtons  # noqa: E402
from hardware.watchdog import Notifier, WatchdogFeeder  # noqa: E402

HEADLESS_DRIVERS = ("offscreen", "dummy")


class Screen(Protocol):
    def handle(self, inp: Input) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surface: pygame.Surface, painter: Painter) -> None: ...


# the keys, in one line for the screen (keyboard mode: the demo in a window, or no GPIO buttons);
# docs/kiosk.md and README list them too
KEY_HELP = "Keys: arrows choose, Enter OK, Esc back, 1-8 react, Ctrl+Q quit"


def key_help_line(pilot: Any) -> str:
    """The key help, and while the demo's bots wait for a person, for how long."""
    paused = float(getattr(pilot, "paused", 0.0) or 0.0)
    if paused > 0:
        return f"Bots paused {ceil(paused)} s (you have the keys). " + KEY_HELP
    return KEY_HELP


class Pilot(Protocol):
    """Something that presses buttons by itself (the demo's bots)."""

    def tick(self, dt: float) -> None: ...

    def human(self) -> None: ...


def private_runtime_dir(env: MutableMapping[str, str] | None = None) -> Path | None:
    """Give SDL's display probe a private ``XDG_RUNTIME_DIR`` when there is none.

    With no ``XDG_RUNTIME_DIR`` (a container, ssh, a CI runner) SDL's Wayland probe makes
    libwayland print "error: XDG_RUNTIME_DIR is invalid or not set in the environment." to the
    terminal. Without that variable and without ``WAYLAND_DISPLAY`` no Wayland display can be
    reached anyway, so an empty private directory (mode 0700, removed at exit) changes nothing
    but the noise. A valid existing setting (a desktop session, the systemd unit's
    ``RuntimeDirectory``) is never touched. Returns the directory made, or None."""
    if env is None:
        env = os.environ
    current = env.get("XDG_RUNTIME_DIR", "")
    if (current.startswith("/") and os.path.isdir(current)) or env.get("WAYLAND_DISPLAY"):
        return None
    import atexit
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="companion-runtime-"))
    env["XDG_RUNTIME_DIR"] = str(path)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def open_display(size: tuple[int, int], fullscreen: bool) -> pygame.Surface | None:
    """A window (or the full screen); None when there is no display to show it on."""
    if os.environ.get("SDL_VIDEODRIVER", "") not in HEADLESS_DRIVERS:
        private_runtime_dir()
    try:
        pygame.display.init()
    except pygame.error:
        return None
    if pygame.display.get_driver() in HEADLESS_DRIVERS:
        return None
    try:
        flags = pygame.FULLSCREEN if fullscreen else 0
        surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Tabletop companion")
        if fullscreen:
            pygame.mouse.set_visible(False)
        return surface
    except pygame.error:
        pygame.display.quit()
        return None


class KioskApp:
    def __init__(self, screen: Screen, size: tuple[int, int], *,
                 window: pygame.Surface | None = None,
                 queue: InputQueue | None = None,
                 keyboard: KeyboardButtons | None = None,
                 notifier: Notifier | None = None,
                 frames_dir: Path | None = None, save_every: int = 30,
                 fps: int = 30, pilot: Pilot | None = None,
                 next_screen: Callable[[Screen], Screen | None] | None = None,
                 key_help: bool = False) -> None:
        self.screen = screen
        self.key_help = key_help  # show the keys on screen (keyboard mode)
        self.size = size
        self.window = window
        self.surface = window if window is not None else pygame.Surface(size)
        self.queue = queue if queue is not None else InputQueue()
        self.keyboard = keyboard
        self.notifier = notifier or Notifier()
        self.feeder = WatchdogFeeder(self.notifier)
        self.painter = Painter()
        self.frames_dir = frames_dir
        self.save_every = max(1, save_every)
        self.fps = fps
        self.pilot = pilot
        self.next_screen = next_screen
        self.frame = 0
        self.saved: list[Path] = []
        self.render_times: list[float] = []
        self.running = True
        self._status = ""

    @property
    def headless(self) -> bool:
        return self.window is None

    def stop(self, *_: Any) -> None:
        self.running = False

    def step(self, dt: float) -> None:  # noqa: C901 - one frame: inputs, feed, screens
        """One frame: inputs, update, draw, present."""
        if self.window is not None or (self.keyboard is not None and pygame.display.get_init()):
            # headless with a keyboard: events posted to SDL's queue (tests, the dummy driver)
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    self.running = False
                elif event.type == pygame.KEYDOWN and event.key in (pygame.K_q, pygame.K_F10) \
                        and (event.key == pygame.K_F10 or event.mod & pygame.KMOD_CTRL):
                    self.running = False
                elif event.type == pygame.WINDOWFOCUSLOST and self.keyboard is not None:
                    self.keyboard.reset()
                elif self.keyboard is not None and self.keyboard.handle_event(event):
                    if event.type == pygame.KEYDOWN and self.pilot is not None:
                        self.pilot.human()
            if self.keyboard is not None:
                self.keyboard.tick()
        if self.pilot is not None:
            self.pilot.tick(dt)
        for inp in self.queue.drain():
            if inp.released:  # the end of a hold: only for screens that use it (a peek)
                release = getattr(self.screen, "release", None)
                if release is not None:
                    release(inp)
                continue
            self.screen.handle(inp)
        if self.key_help and hasattr(self.screen, "key_help"):
            self.screen.key_help = key_help_line(self.pilot)
        self.screen.update(dt)
        t0 = time.perf_counter()
        self.screen.draw(self.surface, self.painter)
        self.render_times.append(time.perf_counter() - t0)
        if self.window is not None:
            pygame.display.flip()
        elif self.frames_dir is not None and self.frame % self.save_every == 0:
            path = self.frames_dir / f"frame-{self.frame:05d}.png"
            pygame.image.save(self.surface, str(path))
            self.saved.append(path)
        presented = getattr(self.screen, "presented", None)
        if presented is not None:
            presented()
        if self.frame == 0:
            self.notifier.ready("kiosk on screen")
        self.feeder.tick()
        status = str(getattr(getattr(getattr(self.screen, "session", None), "state", None),
                             "turn_number", ""))
        if status and status != self._status:
            self._status = status
            self.notifier.status(f"playing, turn {status}")
        self.frame += 1
        if self.next_screen is not None:
            nxt = self.next_screen(self.screen)
            if nxt is not None:
                self.screen = nxt

    def run(self, max_frames: int | None = None,
            until: Callable[[], bool] | None = None) -> int:
        """Run until the window closes, SIGTERM, ``max_frames`` frames or ``until()``."""
        old = signal.signal(signal.SIGTERM, self.stop) if _main_thread() else None
        clock = pygame.time.Clock() if self.window is not None else None
        if self.frames_dir is not None:
            self.frames_dir.mkdir(parents=True, exist_ok=True)
        dt = 1.0 / self.fps
        try:
            while self.running:
                if max_frames is not None and self.frame >= max_frames:
                    break
                if until is not None and until():
                    break
                self.step(dt)
                if clock is not None:
                    dt = min(0.25, clock.tick(self.fps) / 1000.0)
        finally:
            self.notifier.stopping("kiosk stopping")
            if old is not None:
                signal.signal(signal.SIGTERM, old)
        return 0


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
