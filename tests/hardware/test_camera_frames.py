"""Frames of any dtype, shape or channel count are made BGR uint8 or refused with a message."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from companion.config import CameraConfig
from hardware.camera import CameraError, CheckedSource, Still, as_bgr8, checked, still_taker
from hardware.capture import CaptureState, CaptureWorker, open_camera


def test_uint8_bgr_passes_through_unchanged() -> None:
    frame = np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3)
    out = as_bgr8(frame)
    assert out.dtype == np.uint8 and out.shape == (4, 5, 3)
    assert np.array_equal(out, frame)


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        (np.full((6, 7, 3), 0.5, np.float32), 128),  # 0..1 floats are scaled
        (np.full((6, 7, 3), 0.5, np.float64), 128),
        (np.full((6, 7, 3), 300.0, np.float64), 255),  # other floats are clipped
        (np.full((6, 7, 3), 0x8000, np.uint16), 128),  # top 8 bits
        (np.full((6, 7, 3), -5, np.int32), 0),
        (np.full((6, 7), 77, np.uint8), 77),  # grey
        (np.full((6, 7, 1), 77, np.uint8), 77),
        (np.ones((6, 7, 3), bool), 255),
    ],
)
def test_other_frames_are_converted(frame: np.ndarray, expected: int) -> None:
    out = as_bgr8(frame)
    assert out.dtype == np.uint8 and out.shape == (6, 7, 3) and out.flags.c_contiguous
    assert int(out[0, 0, 0]) == expected and int(out[-1, -1, 2]) == expected


def test_alpha_is_dropped_and_nan_is_black() -> None:
    bgra = np.zeros((4, 4, 4), np.uint8)
    bgra[..., 0], bgra[..., 3] = 9, 250
    assert as_bgr8(bgra).shape == (4, 4, 3) and int(as_bgr8(bgra)[0, 0, 0]) == 9
    f = np.full((4, 4, 3), 0.25, np.float64)
    f[0, 0, 0] = np.nan
    out = as_bgr8(f)
    assert int(out[0, 0, 0]) == 0 and int(out[1, 1, 1]) == 64


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        ("not a frame", "str, not a picture"),
        (np.zeros((0, 5, 3), np.uint8), "empty picture"),
        (np.zeros((4, 4, 2), np.uint8), "1, 3 or 4 channels"),
        (np.zeros((2, 4, 4, 3), np.uint8), "1, 3 or 4 channels"),
        (np.full((4, 4, 3), np.nan), "no finite value"),
        (np.zeros((4, 4, 3), np.complex64), "not a picture's values"),
    ],
)
def test_frames_that_cannot_be_shown_are_refused_with_what_arrived(frame: object,
                                                                    words: str) -> None:
    with pytest.raises(CameraError, match="the camera gave") as info:
        as_bgr8(frame)
    assert words in str(info.value)


class _Odd:
    def __init__(self, frames: list[object]) -> None:
        self.frames = frames

    def read(self) -> object:
        return self.frames.pop(0) if self.frames else None

    def capture_still(self) -> Still:
        return Still(np.full((8, 8), 0.5, np.float32), (2.0, 2.0))

    def close(self) -> None:
        pass


def test_checked_source_converts_frames_and_stills() -> None:
    source = checked(_Odd([np.zeros((8, 8, 3), np.uint16)]))  # type: ignore[arg-type]
    frame = source.read()
    assert frame is not None and frame.dtype == np.uint8 and frame.shape == (8, 8, 3)
    assert source.read() is None
    take = still_taker(source)
    assert take is not None
    still = take()
    assert still is not None and still.image.dtype == np.uint8 and still.scale == (2.0, 2.0)


def test_a_camera_of_float_frames_reaches_the_reader_as_uint8_and_bad_ones_stop_it() -> None:
    """The capture worker processes converted frames; a frame that cannot be shown ends the
    capture with a message instead of reaching the screen."""
    seen: list[np.dtype] = []
    frames: list[object] = [np.full((8, 8, 3), 0.2, np.float32), np.full((8, 8, 3), np.nan)]
    worker = CaptureWorker(CheckedSource(_Odd(frames)),  # type: ignore[arg-type]
                           lambda f: seen.append(f.dtype)).start()
    for _ in range(200):
        if worker.status().state is CaptureState.FAILED:
            break
        time.sleep(0.01)
    status = worker.status()
    worker.stop()
    assert seen == [np.dtype(np.uint8)]
    assert status.state is CaptureState.FAILED and "no finite value" in status.message


def test_synthetic_backend_opens_without_anything_imported_first() -> None:
    """``[camera] backend = "synthetic"`` works in a fresh interpreter (nothing else imported the
    synthetic table first)."""
    code = ("from companion.config import CameraConfig\n"
            "from hardware.capture import open_camera\n"
            "s = open_camera(CameraConfig(backend='synthetic', swap_rb=False))\n"
            "f = s.read()\n"
            "print(f.dtype, f.ndim)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["uint8", "3"]


def test_open_camera_wraps_every_source() -> None:
    source = open_camera(CameraConfig(backend="synthetic", swap_rb=False))
    assert isinstance(source, CheckedSource)
