"""Campaign 6: faulty cameras.

Fake frame sources that raise, return None, give frames of wrong dtypes, shapes, NaN, empty or
huge values, or stall, wrapped as ``open_camera`` wraps every source (``hardware.camera.checked``)
and read by a :class:`CaptureWorker`: every frame that reaches the processing step is BGR
``uint8`` (the kiosk's ``pygame.image.frombuffer`` takes it), and the worker ends FAILED or
ENDED with a message; nothing the camera does raises in the caller."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from companion.config import CameraConfig
from hardware.camera import CameraError, CheckedSource, checked
from hardware.capture import CaptureState, CaptureStatus, CaptureWorker, SwapRB, open_camera

Campaign = Any  # the type of conftest.py's ``campaign`` fixture, which carries the helpers

H, W = 6, 8
STALL = "stall"


def _shaped(values: Any, dtype: Any, shape: tuple[int, ...] = (H, W, 3)) -> np.ndarray:
    return np.resize(np.asarray(values), shape).astype(dtype)


# frames that must come out as BGR uint8 ...
GOOD: dict[str, Any] = {
    "uint8 BGR": np.full((H, W, 3), 7, np.uint8),
    "grey": np.full((H, W), 9, np.uint8),
    "grey with one channel": np.full((H, W, 1), 9, np.uint8),
    "BGRA": np.full((H, W, 4), 200, np.uint8),
    "uint16": _shaped([0, 65535, 4096], np.uint16),
    "big-endian uint16": _shaped([0, 65535, 4096], ">u2"),
    "float32 0..1": _shaped([0.0, 0.5, 1.0], np.float32),
    "float64 0..1000": _shaped([0.0, 500.0, 1000.0], np.float64),
    "float16": _shaped([0.0, 0.25, 1.0], np.float16),
    "float with NaN and inf": _shaped([np.nan, np.inf, -np.inf, 0.5], np.float64),
    "huge floats": _shaped([1e308, -1e308, 3e38], np.float64),
    "int8 negative": _shaped([-128, -1, 127], np.int8),
    "int64 huge": _shaped([2**62, -(2**62), 3], np.int64),
    "uint32": _shaped([2**32 - 1, 0], np.uint32),
    "bool": _shaped([True, False], np.bool_),
    "1 x 1": np.zeros((1, 1, 3), np.uint8),
    "a strided view": np.zeros((H * 2, W * 2, 3), np.uint8)[::2, ::-2],
    "Fortran order": np.asfortranarray(np.zeros((H, W, 3), np.uint8)),
    "read-only": np.zeros((H, W, 3), np.uint8).copy(),
}
GOOD["read-only"].flags.writeable = False
# ... and frames that must be refused with a CameraError naming what arrived
BAD: dict[str, Any] = {
    "all NaN": np.full((H, W, 3), np.nan, np.float32),
    "all inf": np.full((H, W, 3), np.inf, np.float64),
    "complex": np.zeros((H, W, 3), np.complex64),
    "object": np.full((H, W, 3), None, object),
    "text": np.full((H, W, 3), "x"),
    "datetime": np.zeros((H, W, 3), "datetime64[s]"),
    "structured": np.zeros((H, W, 3), [("a", np.uint8), ("b", np.uint8)]),
    "empty": np.zeros((0, 0, 3), np.uint8),
    "no columns": np.zeros((H, 0), np.uint8),
    "one dimension": np.zeros(H * W * 3, np.uint8),
    "four dimensions": np.zeros((1, H, W, 3), np.uint8),
    "two channels": np.zeros((H, W, 2), np.uint8),
    "five channels": np.zeros((H, W, 5), np.uint8),
    "a list": [[0, 0, 0]],
    "bytes": b"\x00" * (H * W * 3),
    "a number": 0,
    "a dict": {"frame": 1},
    "a string": "frame",
    "a 0-d array": np.array(5, np.uint8),
}
FAILURES: dict[str, BaseException] = {
    "RuntimeError": RuntimeError("device lost"),
    "OSError": OSError(5, "Input/output error"),
    "CameraError": CameraError("unplugged"),
    "ValueError": ValueError("bad buffer"),
    "MemoryError": MemoryError(),
    "TimeoutError": TimeoutError("no frame"),
}


class FakeCamera:
    """Gives ``items`` in turn: an array (or anything) is a frame, an exception is raised,
    None ends, STALL blocks until ``release`` is set; then None."""

    def __init__(self, items: list[Any], close_raises: bool = False) -> None:
        self.items = list(items)
        self.close_raises = close_raises
        self.release = threading.Event()
        self.closed = False

    def read(self) -> Any:
        if not self.items:
            return None
        item = self.items.pop(0)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, str) and item == STALL:
            self.release.wait(30)
            return None
        return item

    def close(self) -> None:
        self.closed = True
        self.release.set()
        if self.close_raises:
            raise OSError("close failed")


def kiosk_process(frame: np.ndarray) -> tuple[int, int]:
    """What the game screen needs of a frame: BGR uint8, H x W x 3 (pygame takes its bytes)."""
    import pygame

    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8, frame.dtype
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.flags.c_contiguous, frame.shape
    h, w = frame.shape[:2]
    pygame.image.frombuffer(frame.tobytes(), (w, h), "BGR")
    return h, w


def run_worker(source: Any, process: Callable[[np.ndarray], Any] = kiosk_process,
               timeout: float = 10.0, **kwargs: Any) -> tuple[CaptureStatus, int]:
    """Run a worker to its end; its final status and how many results the caller took. Every
    call the kiosk makes (take, latest, status, stop) must not raise."""
    worker: CaptureWorker[Any] = CaptureWorker(source, process, **kwargs).start()
    taken = 0
    deadline = time.monotonic() + timeout
    while worker.status().live and time.monotonic() < deadline:
        if worker.take() is not None:
            taken += 1
        worker.latest()
        time.sleep(0.002)
    status = worker.status()
    while worker.take() is not None:
        taken += 1
    worker.stop(timeout=1.0)
    return status, taken


def test_every_frame_a_camera_may_give(campaign: Campaign) -> None:
    rng = campaign.rng("camera frames")
    names = sorted(GOOD) + sorted(BAD) + sorted(FAILURES)
    runs = campaign.size(50, 600)
    for run in range(runs):
        # a stream of good frames, then (usually) one fault, then more good frames
        items: list[Any] = [GOOD[rng.choice(sorted(GOOD))] for _ in range(rng.randint(0, 4))]
        before = len(items)
        fault = names[run] if run < len(names) else rng.choice(names)
        items.append(GOOD.get(fault, BAD.get(fault, FAILURES.get(fault))))
        items += [GOOD["uint8 BGR"]] * rng.randint(0, 2)
        fake = FakeCamera(items, close_raises=rng.random() < 0.2)
        # swap_rb as open_camera wraps it, on colour frames (see the swap_rb test below)
        colour = all(isinstance(i, BaseException) or (isinstance(i, np.ndarray) and i.ndim == 3
                     and i.shape[2] == 3) for i in items)
        wrapped = checked(SwapRB(fake)) if colour and rng.random() < 0.3 else checked(fake)
        status, taken = run_worker(wrapped)
        label = f"run {run}: {fault}"
        assert status.message, label
        if fault in GOOD:
            assert status.state is CaptureState.ENDED, (label, status)
            assert status.frames == len(items), (label, status)
        else:
            assert status.state is CaptureState.FAILED, (label, status)
            assert "enter the dice with the buttons" in status.message, (label, status)
            assert status.frames == before, (label, status)
            if fault in BAD:
                assert "the camera gave" in status.message, (label, status.message)
        assert taken <= status.frames and fake.closed, label


def test_a_camera_that_cannot_open_or_set_up_or_stalls() -> None:
    def broken_opener() -> Any:
        raise OSError("no such device")

    status, _ = run_worker(broken_opener)
    assert status.state is CaptureState.FAILED and "could not be opened" in status.message

    def on_open(source: Any) -> None:
        raise RuntimeError("controls refused")

    status, _ = run_worker(checked(FakeCamera([GOOD["grey"]])), on_open=on_open)
    assert status.state is CaptureState.FAILED and "set up" in status.message

    stuck = FakeCamera([GOOD["grey"], STALL])  # a driver whose read never returns
    status, taken = run_worker(checked(stuck), stall_timeout=0.2)
    assert status.state is CaptureState.FAILED and "no frame" in status.message
    assert taken == 1
    stuck.release.set()

    gate = threading.Event()

    def slow_opener() -> Any:
        gate.wait(30)
        return checked(FakeCamera([]))

    status, _ = run_worker(slow_opener, start_timeout=0.2)
    assert status.state is CaptureState.FAILED and "did not start" in status.message
    gate.set()

    def slow_process(frame: np.ndarray) -> None:
        gate.wait(30)  # until the test lets it go

    gate.clear()
    status, _ = run_worker(checked(FakeCamera([GOOD["uint16"]])), slow_process,
                           process_timeout=0.1)
    assert status.state is CaptureState.FAILED and "took longer" in status.message
    gate.set()

    status, _ = run_worker(checked(FakeCamera([])))
    assert status.state is CaptureState.ENDED and status.message


def test_bad_camera_settings_open_or_raise_camera_error() -> None:
    for backend in ("device:99", "video:/nonexistent.mp4", "folder:/nonexistent", "nonsense",
                    "/etc/passwd", ":", "folder:", "synthetic:xyz", "picamera2:bogus"):
        try:
            source = open_camera(CameraConfig(backend=backend, warmup=0.0))
        except CameraError as exc:
            assert str(exc), backend
        else:
            assert source is not None
            source.close()
    assert open_camera(CameraConfig(backend="none")) is None
    source = open_camera(CameraConfig(backend="synthetic", swap_rb=True))
    assert isinstance(source, CheckedSource)
    try:
        frame = source.read()
        assert frame is not None and frame.dtype == np.uint8 and frame.shape[2] == 3
    finally:
        source.close()


def test_a_device_that_is_not_a_number_is_a_camera_error() -> None:
    for backend in ("device:abc", "device:"):
        with pytest.raises(CameraError):
            open_camera(CameraConfig(backend=backend))


def test_swap_rb_works_on_grey_and_four_channel_frames() -> None:
    bgra = np.zeros((H, W, 4), np.uint8)
    bgra[..., 0], bgra[..., 1], bgra[..., 2], bgra[..., 3] = 10, 20, 30, 255
    frame = checked(SwapRB(FakeCamera([bgra]))).read()
    assert frame is not None and frame[0, 0].tolist() == [30, 20, 10]
    grey = checked(SwapRB(FakeCamera([GOOD["grey"]]))).read()
    assert grey is not None and grey.shape == (H, W, 3)


def test_the_synthetic_dice_backend_opens_in_a_fresh_process(campaign: Campaign) -> None:
    code = ("from companion.config import CameraConfig\n"
            "from hardware.capture import open_camera\n"
            "s = open_camera(CameraConfig(backend='synthetic-dice'))\n"
            "f = s.read()\n"
            "assert f is not None and f.dtype.name == 'uint8', f\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=campaign.cli_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
