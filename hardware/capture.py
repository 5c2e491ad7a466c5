"""Capture and vision off the UI thread, handing over only the newest result.

:class:`CaptureWorker` reads frames from a :class:`~hardware.camera.FrameSource` in a background
thread and runs a processing callback (the vision pipeline) on each one. The UI loop calls
:meth:`CaptureWorker.take` once a frame: it gets the newest result not yet taken, or None; older
results that the UI never took are dropped (counted in ``dropped``), so the screen never lags
behind the table.

A camera that is unplugged or fails must not stop the game. :meth:`CaptureWorker.status` says
``FAILED`` with a message as soon as ``read()`` raises, and also when a ``read()`` has not
returned for ``stall_timeout`` seconds (default 1.5 s, so with the UI checking every frame the
kiosk drops to button entry within two seconds). ``ENDED`` means the source ran out of frames
(a replay finished, or a camera returned None). Either way the UI switches to the buttons and
may later try again with a new worker.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Generic, TypeVar, cast

import numpy as np

from companion.config import CameraConfig
from hardware.camera import (
    CameraError,
    FrameSource,
    OpenCVSource,
    Still,
    as_bgr8,
    checked,
    open_source,
    still_taker,
)

T = TypeVar("T")
Clock = Callable[[], float]
_Opener = Callable[[], FrameSource]


class CaptureState(Enum):
    STARTING = "starting"  # opening the camera, no frame yet
    RUNNING = "running"
    ENDED = "ended"  # the source said it has no more frames
    FAILED = "failed"  # could not open, read raised, stalled, or processing failed
    STOPPED = "stopped"  # stop() was called


@dataclass(frozen=True)
class CaptureStatus:
    state: CaptureState
    message: str
    frames: int

    @property
    def live(self) -> bool:
        """True while frames are coming (or about to): the camera can be used for input."""
        return self.state in (CaptureState.STARTING, CaptureState.RUNNING)


@dataclass(frozen=True)
class CaptureResult(Generic[T]):
    value: T
    index: int  # number of the frame it came from, 0 for the first
    captured_at: float  # clock time when read() returned the frame


class CaptureWorker(Generic[T]):
    """Runs ``process(frame)`` on every frame of a source in a daemon thread.

    ``source`` is an open FrameSource or a callable that opens one (then opening, which can be
    slow on a Pi camera warming up, also happens off the UI thread and is bounded by
    ``start_timeout``). ``process_timeout`` bounds one processing call.
    """

    def __init__(
        self,
        source: FrameSource | Callable[[], FrameSource],
        process: Callable[[np.ndarray], T],
        *,
        stall_timeout: float = 1.5,
        start_timeout: float = 10.0,
        process_timeout: float = 5.0,
        clock: Clock = time.monotonic,
        name: str = "capture",
        on_open: Callable[[FrameSource], None] | None = None,
    ) -> None:
        self._source_arg = source
        self._process = process
        self._on_open = on_open  # told the source once it is open (on the worker thread)
        self.stall_timeout = stall_timeout
        self.start_timeout = start_timeout
        self.process_timeout = process_timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._state = CaptureState.STARTING
        self._message = "opening the camera"
        self._frames = 0
        self._latest: CaptureResult[T] | None = None
        self._fresh = False
        self._busy: tuple[str, float] | None = None  # ("read" | "process" | "open", since)
        self._source: FrameSource | None = None
        self.dropped = 0

    # -- UI side ---------------------------------------------------------------------------

    def start(self) -> CaptureWorker[T]:
        with self._lock:
            self._busy = ("open", self._clock())
        self._thread.start()
        return self

    def take(self) -> CaptureResult[T] | None:
        """The newest result not taken yet, or None."""
        with self._lock:
            if not self._fresh:
                return None
            self._fresh = False
            return self._latest

    def latest(self) -> CaptureResult[T] | None:
        """The newest result, taken or not (for redrawing a thumbnail)."""
        with self._lock:
            return self._latest

    def status(self) -> CaptureStatus:
        with self._lock:
            if self._state in (CaptureState.STARTING, CaptureState.RUNNING) and self._busy:
                what, since = self._busy
                waited = self._clock() - since
                limit = {
                    "open": self.start_timeout,
                    "read": self.stall_timeout,
                    "process": self.process_timeout,
                }[what]
                if waited >= limit:
                    self._fail_locked(
                        {
                            "open": f"the camera did not start within {limit:g} s",
                            "read": f"no frame from the camera for {limit:g} s (unplugged or "
                            "stuck?)",
                            "process": f"reading the picture took longer than {limit:g} s",
                        }[what]
                    )
            return CaptureStatus(self._state, self._message, self._frames)

    def stop(self, timeout: float = 1.0) -> bool:
        """Ask the thread to end and close the source; True if the thread ended in time.

        A thread stuck inside a camera driver cannot be forced out; it is a daemon thread, so it
        does not keep the program from exiting.
        """
        self._stop.set()
        with self._lock:
            if self._state in (CaptureState.STARTING, CaptureState.RUNNING):
                self._state = CaptureState.STOPPED
                self._message = "stopped"
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    # -- worker side -----------------------------------------------------------------------

    def _fail_locked(self, message: str) -> None:
        self._state = CaptureState.FAILED
        self._message = f"{message}: enter the dice with the buttons"
        self._stop.set()

    def _finish(self, state: CaptureState, message: str) -> None:
        with self._lock:
            if self._state in (CaptureState.STARTING, CaptureState.RUNNING):
                if state is CaptureState.FAILED:
                    self._fail_locked(message)
                else:
                    self._state, self._message = state, message
            self._busy = None

    def _set_busy(self, what: str) -> bool:
        with self._lock:
            if self._stop.is_set():
                return False
            self._busy = (what, self._clock())
            return True

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            source = self._source
            if source is not None:
                try:
                    source.close()
                except Exception:  # a failing camera may also fail to close
                    pass

    def _loop(self) -> None:
        try:
            arg = self._source_arg
            source = cast(FrameSource, arg) if _is_source(arg) else cast(_Opener, arg)()
        except Exception as exc:
            self._finish(CaptureState.FAILED, f"the camera could not be opened ({exc})")
            return
        self._source = source
        if self._on_open is not None:
            try:
                self._on_open(source)
            except Exception as exc:
                self._finish(CaptureState.FAILED, f"the camera could not be set up ({exc})")
                return
        index = 0
        while self._set_busy("read"):
            try:
                frame = source.read()
            except Exception as exc:
                self._finish(
                    CaptureState.FAILED, f"the camera failed ({type(exc).__name__}: {exc})"
                )
                return
            captured_at = self._clock()
            if self._stop.is_set():
                return
            if frame is None:
                self._finish(CaptureState.ENDED, "the camera stopped sending pictures")
                return
            with self._lock:
                self._busy = ("process", captured_at)
            try:
                value = self._process(frame)
            except Exception as exc:
                self._finish(
                    CaptureState.FAILED,
                    f"the picture could not be read ({type(exc).__name__}: {exc})",
                )
                return
            with self._lock:
                if self._stop.is_set():
                    return
                if self._fresh:
                    self.dropped += 1
                self._latest = CaptureResult(value, index, captured_at)
                self._fresh = True
                self._frames = index + 1
                if self._state is CaptureState.STARTING:
                    self._state, self._message = CaptureState.RUNNING, "camera running"
                self._busy = None
            index += 1


def _is_source(obj: object) -> bool:
    return callable(getattr(obj, "read", None))


class SwapRB:
    """Wraps a FrameSource and swaps its red and blue channels."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source

    def read(self) -> np.ndarray | None:
        frame = self.source.read()  # made BGR-shaped first (grey, alpha), then swapped
        return None if frame is None else np.ascontiguousarray(as_bgr8(frame)[:, :, ::-1])

    def capture_still(self) -> Still | None:
        """The wrapped source's still (``hardware.camera.still_taker``), swapped the same way."""
        take = still_taker(self.source)
        still = take() if take is not None else None
        if still is None:
            return None
        return replace(still, image=np.ascontiguousarray(as_bgr8(still.image)[:, :, ::-1]))

    def close(self) -> None:
        self.source.close()


def open_camera(config: CameraConfig) -> FrameSource | None:
    """The frame source the ``[camera]`` settings ask for; None for ``backend = "none"``. Every
    frame it gives is BGR ``uint8`` or a :class:`CameraError` (``hardware.camera.as_bgr8``).

    Raises :class:`CameraError` with a message when it cannot be opened (the caller then uses
    button entry). Slow to return for a Pi camera (``warmup``): call it from the worker, e.g.
    ``CaptureWorker(lambda: open_camera(cfg), process)``.
    """
    backend = config.backend
    if backend == "none":
        return None
    scheme = backend.partition(":")[0]
    if scheme == "picamera2":
        from hardware.picamera import PiCameraSource

        return checked(PiCameraSource(
            size=config.size,
            swap_rb=config.swap_rb,
            warmup=config.warmup,
            lock=config.lock_controls,
            still=config.closer_look,
        ))
    source = open_source(backend)
    if isinstance(source, OpenCVSource) and (scheme == "device" or backend.isdigit()):
        import cv2

        source.capture.set(cv2.CAP_PROP_FRAME_WIDTH, config.size[0])
        source.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, config.size[1])
    return checked(SwapRB(source) if config.swap_rb else source)


def start_capture(
    config: CameraConfig, process: Callable[[np.ndarray], T]
) -> CaptureWorker[T] | None:
    """Open the configured camera in a worker thread and run ``process`` on its frames."""
    if config.backend == "none":
        return None

    def opener() -> FrameSource:
        source = open_camera(config)
        if source is None:
            raise CameraError("no camera configured")
        return source

    return CaptureWorker(
        opener,
        process,
        stall_timeout=config.stall_timeout,
        start_timeout=max(10.0, config.warmup + 8.0),
    ).start()
