from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import hardware.picamera as picamera
from companion.config import CameraConfig
from hardware.camera import CameraError, open_source
from hardware.capture import open_camera
from hardware.picamera import PiCameraSource, lock_controls, parse_size


class FakePicamera2:
    """Records the picamera2 calls the adapter makes (documented picamera2 API names)."""

    def __init__(self, autofocus: bool = True, fail_start: bool = False) -> None:
        self.calls: list[str] = []
        self.controls: dict[str, Any] = {}
        self.config: dict[str, Any] | None = None
        self.fail_start = fail_start
        self.camera_controls: dict[str, Any] = {
            "AeEnable": (False, True, True),
            "AwbEnable": (False, True, True),
            "ExposureTime": (1, 1000000, 20000),
            "AnalogueGain": (1.0, 16.0, 1.0),
            "ColourGains": (0.0, 32.0, None),
        }
        if autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("create_video_configuration")
        return {"main": dict(main), "use_case": "video"}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append("configure")
        self.config = config

    def start(self) -> None:
        self.calls.append("start")
        if self.fail_start:
            raise RuntimeError("Failed to start camera: Device or resource busy")

    def autofocus_cycle(self) -> bool:
        self.calls.append("autofocus_cycle")
        return True

    def capture_metadata(self) -> dict[str, Any]:
        self.calls.append("capture_metadata")
        return {
            "ExposureTime": 12345,
            "AnalogueGain": 2.5,
            "ColourGains": (1.8, 1.4),
            "LensPosition": 3.2,
            "Lux": 400.0,
        }

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append("set_controls")
        self.controls |= controls

    def capture_array(self, name: str = "main") -> np.ndarray:
        assert self.config is not None
        width, height = self.config["main"]["size"]
        frame = np.zeros((height, width, 3), np.uint8)
        frame[:, :] = (10, 20, 200)  # B, G, R in memory: a red scene
        return frame

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def open_fake(cam: FakePicamera2, **kw: Any) -> PiCameraSource:
    slept: list[float] = []
    source = PiCameraSource(camera_factory=lambda n: cam, sleep=slept.append, **kw)
    assert slept == ([kw["warmup"]] if kw.get("warmup", 2.0) > 0 else [])
    return source


def test_configures_rgb888_and_passes_bgr_unchanged() -> None:
    cam = FakePicamera2()
    source = open_fake(cam, size=(64, 48), warmup=2.0)
    assert cam.config is not None
    assert cam.config["main"] == {"format": "RGB888", "size": (64, 48)}
    frame = source.read()
    assert frame is not None and frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    assert tuple(frame[0, 0]) == (10, 20, 200)  # red stays in channel 2, as OpenCV expects
    source.close()
    assert cam.calls[-2:] == ["stop", "close"]


def test_swap_rb() -> None:
    source = open_fake(FakePicamera2(), size=(8, 8), swap_rb=True, warmup=0.0)
    frame = source.read()
    assert frame is not None and tuple(frame[0, 0]) == (200, 20, 10)
    assert frame.flags["C_CONTIGUOUS"]


def test_controls_locked_after_warmup_with_focus() -> None:
    cam = FakePicamera2(autofocus=True)
    source = open_fake(cam, size=(8, 8), warmup=1.0)
    order = cam.calls
    assert order.index("start") < order.index("autofocus_cycle") < order.index("set_controls")
    assert cam.controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 12345,
        "AnalogueGain": 2.5,
        "ColourGains": (1.8, 1.4),
        "AfMode": picamera.AF_MODE_MANUAL,
        "LensPosition": 3.2,
    }
    assert source.locked == cam.controls


def test_camera_without_autofocus_gets_no_af_controls() -> None:
    cam = FakePicamera2(autofocus=False)
    locked = lock_controls(cam)
    assert "AfMode" not in locked and "LensPosition" not in locked
    assert "autofocus_cycle" not in cam.calls
    assert locked["AeEnable"] is False and locked["ColourGains"] == (1.8, 1.4)


def test_lock_can_be_turned_off() -> None:
    cam = FakePicamera2()
    open_fake(cam, size=(8, 8), warmup=0.0, lock=False)
    assert "set_controls" not in cam.calls


def test_start_failure_is_a_camera_error_and_closes() -> None:
    cam = FakePicamera2(fail_start=True)
    with pytest.raises(CameraError, match="could not be started at 8x8"):
        open_fake(cam, size=(8, 8), warmup=0.0)
    assert cam.calls[-2:] == ["stop", "close"]


def test_no_camera_attached() -> None:
    def factory(n: int) -> Any:
        raise IndexError("list index out of range")

    with pytest.raises(CameraError, match="ribbon cable"):
        PiCameraSource(camera_factory=factory)


@pytest.mark.skipif(picamera.available(), reason="picamera2 is installed here")
def test_without_picamera2_the_message_says_what_to_do() -> None:
    with pytest.raises(CameraError, match="python3-picamera2"):
        open_source("picamera2")
    with pytest.raises(CameraError, match="python3-picamera2"):
        open_camera(CameraConfig(backend="picamera2", warmup=0.0))


def test_registered_scheme_and_size_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    cam = FakePicamera2()
    monkeypatch.setattr(picamera, "_real_camera", lambda n: cam)
    monkeypatch.setattr(picamera.time, "sleep", lambda s: None)
    source = open_source("picamera2:32x24")
    frame = source.read()
    assert frame is not None and frame.shape == (24, 32, 3)
    assert parse_size("640X480") == (640, 480)
    with pytest.raises(CameraError, match="WIDTHxHEIGHT"):
        parse_size("big")
