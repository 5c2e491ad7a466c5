from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import CameraConfig
from hardware.camera import CameraError, CheckedSource, FolderSource, Still, still_taker
from hardware.capture import (
    CaptureState,
    CaptureStatus,
    CaptureWorker,
    SwapRB,
    open_camera,
    start_capture,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


def frame(i: int) -> np.ndarray:
    return np.full((4, 6, 3), i % 256, np.uint8)


class CountingSource:
    """n frames, then None."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.i = 0
        self.closed = False

    def read(self) -> np.ndarray | None:
        if self.i >= self.n:
            return None
        self.i += 1
        return frame(self.i - 1)

    def close(self) -> None:
        self.closed = True


class StallingSource(CountingSource):
    """n frames, then read() blocks (an unplugged camera whose driver never returns)."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.stalled = threading.Event()
        self.release = threading.Event()

    def read(self) -> np.ndarray | None:
        if self.i >= self.n:
            self.stalled.set()
            self.release.wait(10)
            return frame(0)
        return super().read()


class FailingSource(CountingSource):
    def read(self) -> np.ndarray | None:
        if self.i >= self.n:
            raise OSError("[Errno 19] No such device")
        return super().read()


def wait_for(worker: CaptureWorker[int], states: set[CaptureState]) -> CaptureStatus:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status = worker.status()
        if status.state in states:
            return status
        time.sleep(0.005)
    raise AssertionError(f"worker never reached {states}: {worker.status()}")


def test_only_the_latest_result_is_handed_over() -> None:
    source = CountingSource(100)

    def process(f: np.ndarray) -> int:
        return int(f[0, 0, 0])

    worker = CaptureWorker(source, process).start()
    status = wait_for(worker, {CaptureState.ENDED})
    assert status.frames == 100 and "stopped sending" in status.message
    assert not status.live
    result = worker.take()
    assert result is not None and (result.value, result.index) == (99, 99)
    assert worker.take() is None  # handed over once
    assert worker.latest() == result
    assert worker.dropped == 99
    assert worker.stop()
    assert source.closed


def test_take_while_running_sees_increasing_frames() -> None:
    source = CountingSource(10_000)
    worker = CaptureWorker(source, lambda f: 0).start()
    seen: list[int] = []
    while len(seen) < 5:
        result = worker.take()
        if result is not None:
            seen.append(result.index)
        time.sleep(0.001)
    assert seen == sorted(set(seen))
    assert worker.status().state in (CaptureState.RUNNING, CaptureState.ENDED)
    assert worker.stop()
    assert worker.status().state in (CaptureState.STOPPED, CaptureState.ENDED)


def test_stalled_camera_reports_failure_after_stall_timeout() -> None:
    clock = FakeClock()
    source = StallingSource(3)
    worker = CaptureWorker(source, lambda f: 1, stall_timeout=1.5, clock=clock).start()
    assert source.stalled.wait(10)
    status = worker.status()
    assert status.state is CaptureState.RUNNING and status.live
    clock.advance(1.4)
    assert worker.status().state is CaptureState.RUNNING
    clock.advance(0.2)
    status = worker.status()
    assert status.state is CaptureState.FAILED
    assert "no frame from the camera for 1.5 s" in status.message
    assert "buttons" in status.message
    source.release.set()  # the driver finally returns: the failure stays, no new results
    worker.stop()
    assert worker.status().state is CaptureState.FAILED
    assert worker.latest() is not None and worker.latest().index == 2  # type: ignore[union-attr]


def test_default_stall_timeout_leaves_margin_under_two_seconds() -> None:
    worker = CaptureWorker(CountingSource(1), lambda f: 0)
    assert worker.stall_timeout < 2.0
    assert CameraConfig().stall_timeout < 2.0


def test_camera_that_raises_fails_at_once() -> None:
    source = FailingSource(2)
    worker = CaptureWorker(source, lambda f: 0).start()
    status = wait_for(worker, {CaptureState.FAILED})
    assert "No such device" in status.message and status.frames == 2
    assert source.closed


def test_camera_that_cannot_open_fails() -> None:
    def opener() -> CountingSource:
        raise CameraError("no Pi camera 0 could be opened")

    worker = CaptureWorker(opener, lambda f: 0).start()
    status = wait_for(worker, {CaptureState.FAILED})
    assert "could not be opened" in status.message


def test_slow_start_fails_after_start_timeout() -> None:
    clock = FakeClock()
    entered = threading.Event()
    release = threading.Event()

    def opener() -> CountingSource:
        entered.set()
        release.wait(10)
        return CountingSource(1)

    worker = CaptureWorker(opener, lambda f: 0, start_timeout=10.0, clock=clock).start()
    assert entered.wait(10)
    assert worker.status().state is CaptureState.STARTING
    clock.advance(10.0)
    assert "did not start within 10 s" in worker.status().message
    release.set()
    worker.stop()


def test_processing_error_is_reported() -> None:
    def process(f: np.ndarray) -> int:
        raise ValueError("board not found")

    worker = CaptureWorker(CountingSource(5), process).start()
    status = wait_for(worker, {CaptureState.FAILED})
    assert "board not found" in status.message


def test_folder_replay_through_open_camera(tmp_path: Path) -> None:
    for i in range(3):
        img = np.zeros((8, 8, 3), np.uint8)
        img[:, :, 2] = 200 + i  # red
        cv2.imwrite(str(tmp_path / f"f{i}.png"), img)
    source = open_camera(CameraConfig(backend=f"folder:{tmp_path}", swap_rb=True))
    assert isinstance(source, CheckedSource) and isinstance(source.source, SwapRB)
    assert isinstance(source.source.source, FolderSource)
    f = source.read()
    assert f is not None and f[0, 0, 0] == 200 and f[0, 0, 2] == 0
    source.close()
    assert open_camera(CameraConfig(backend="none")) is None
    assert start_capture(CameraConfig(backend="none"), lambda f: 0) is None
    worker = start_capture(CameraConfig(backend=f"folder:{tmp_path}"), lambda f: int(f[0, 0, 2]))
    assert worker is not None
    status = wait_for(worker, {CaptureState.ENDED})  # type: ignore[arg-type]
    assert status.frames == 3
    result = worker.take()
    assert result is not None and result.value == 202


def test_unknown_backend_fails_with_message() -> None:
    with pytest.raises(CameraError, match="unknown frame source"):
        open_camera(CameraConfig(backend="webcam"))


class StillSource(CountingSource):
    """Frames and, on request, a still twice their size (red in channel 2, as BGR)."""

    def capture_still(self) -> Still:
        image = np.zeros((8, 12, 3), np.uint8)
        image[:, :] = (10, 20, 200)
        return Still(image, (2.0, 2.0))


def test_swap_rb_swaps_stills_too_and_a_source_without_stills_gives_none() -> None:
    still = SwapRB(StillSource(1)).capture_still()
    assert still is not None and tuple(still.image[0, 0]) == (200, 20, 10) and still.scale == (2.0, 2.0)
    assert SwapRB(CountingSource(1)).capture_still() is None
    assert still_taker(CountingSource(1)) is None


def test_the_worker_tells_who_asks_which_source_it_opened() -> None:
    opened: list[object] = []
    source = StillSource(3)
    worker = CaptureWorker(lambda: source, lambda f: int(f[0, 0, 0]), on_open=opened.append).start()
    worker._thread.join(2.0)
    assert opened == [source] and worker.status().state is CaptureState.ENDED

    def refuse(src: object) -> None:
        raise ValueError("no room for stills")

    worker = CaptureWorker(CountingSource(3), lambda f: 0, on_open=refuse).start()
    worker._thread.join(2.0)
    status = worker.status()
    assert status.state is CaptureState.FAILED and "no room for stills" in status.message
