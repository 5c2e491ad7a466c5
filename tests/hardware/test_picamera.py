from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import hardware.picamera as picamera
from companion.config import CameraConfig
from hardware.camera import CameraError, open_source, still_taker
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


class FakeRequest:
    """A completed request as picamera2 returns it (make_array, get_metadata, release)."""

    def __init__(self, cam: FakeStillPicamera2, array: np.ndarray, metadata: dict[str, Any]) -> None:
        self.cam, self.array, self.metadata = cam, array, metadata

    def make_array(self, name: str) -> np.ndarray:
        assert name == "main"
        return self.array

    def get_metadata(self) -> dict[str, Any]:
        return self.metadata

    def release(self) -> None:
        self.cam.calls.append("release")


class FakeStillPicamera2(FakePicamera2):
    """A camera whose sensor has more pixels than the video frames (Camera Module 3: 4608x2592),
    with a video mode that shows ``video_crop`` of the sensor (libcamera's ScalerCrop)."""

    sensor_resolution = (4608, 2592)

    def __init__(self, video_crop: tuple[int, int, int, int] = (0, 0, 4608, 2592),
                 fail_still: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.video_crop = video_crop
        self.fail_still = fail_still
        self.still_config: dict[str, Any] | None = None

    def capture_metadata(self) -> dict[str, Any]:
        return super().capture_metadata() | {"ScalerCrop": self.video_crop}

    def create_still_configuration(self, main: dict[str, Any], controls: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("create_still_configuration")
        self.still_config = {"main": dict(main), "controls": dict(controls), "use_case": "still"}
        return self.still_config

    def switch_mode_and_capture_request(self, config: dict[str, Any]) -> FakeRequest:
        self.calls.append("switch_mode_and_capture_request")
        self.controls = {}  # back in the video mode, its configuration's controls apply
        if self.fail_still:
            raise RuntimeError("Camera frontend has timed out!")
        width, height = config["main"]["size"]
        still = np.zeros((height, width, 3), np.uint8)
        still[:, :] = (10, 20, 200)
        return FakeRequest(self, still, {"ScalerCrop": (0, 0, *self.sensor_resolution), "ExposureTime": 12345})


def test_a_still_at_the_sensor_resolution_maps_onto_the_frames() -> None:
    cam = FakeStillPicamera2()
    source = open_fake(cam, size=(2304, 1296), warmup=0.0)
    assert cam.still_config is not None
    assert cam.still_config["main"] == {"format": "RGB888", "size": (4608, 2592)}
    assert cam.still_config["controls"] == source.locked  # the locked exposure holds for the still
    still = source.capture_still()
    assert still is not None and still.image.shape == (2592, 4608, 3)
    assert tuple(still.image[0, 0]) == (10, 20, 200)
    assert still.scale == (2.0, 2.0) and still.offset == (0.0, 0.0)
    # the video mode's own controls come back with it: the locked ones are set again
    assert cam.calls[-3:] == ["switch_mode_and_capture_request", "set_controls", "release"]
    assert cam.controls == source.locked and cam.controls["AeEnable"] is False
    assert still_taker(source) == source.capture_still


def test_a_video_mode_that_crops_the_sensor_maps_through_the_crop() -> None:
    # IMX219-like: a 1920x1080 video mode reading the sensor's middle 1920x1080 at 1:1
    cam = FakeStillPicamera2(video_crop=(680, 692, 1920, 1080))
    cam.sensor_resolution = (3280, 2464)
    still = open_fake(cam, size=(1280, 720), warmup=0.0).capture_still()
    assert still is not None
    assert still.scale == pytest.approx((1.5, 1.5)) and still.offset == pytest.approx((680.0, 692.0))
    # the frame's middle is the sensor's middle
    assert 640 * still.scale[0] + still.offset[0] == pytest.approx(3280 / 2)


def test_still_mapping_without_crops_needs_one_aspect_ratio() -> None:
    from hardware.picamera import still_mapping

    assert still_mapping((2304, 1296), None, (4608, 2592), None) == ((2.0, 2.0), (0.0, 0.0))
    assert still_mapping((1280, 720), None, (4056, 3040), None) is None  # 16:9 frames, 4:3 still
    assert still_mapping((1280, 720), (0, 0, 0, 0), (4608, 2592), (0, 0, 4608, 2592)) is None
    assert still_mapping((0, 720), None, (4608, 2592), None) is None


def test_no_stills_when_turned_off_or_the_sensor_has_no_more_pixels() -> None:
    cam = FakeStillPicamera2()
    source = open_fake(cam, size=(2304, 1296), warmup=0.0, still=False)
    assert source.capture_still() is None and "create_still_configuration" not in cam.calls
    cam = FakeStillPicamera2()
    cam.sensor_resolution = (2304, 1296)
    assert open_fake(cam, size=(2304, 1296), warmup=0.0).capture_still() is None
    assert open_fake(FakePicamera2(), size=(64, 48), warmup=0.0).capture_still() is None


def test_a_failed_still_is_a_camera_error_and_the_video_goes_on() -> None:
    cam = FakeStillPicamera2(fail_still=True)
    source = open_fake(cam, size=(2304, 1296), warmup=0.0)
    with pytest.raises(CameraError, match="could not take a still"):
        source.capture_still()
    assert cam.controls == source.locked  # locked again even when the still failed
    frame = source.read()
    assert frame is not None and frame.shape == (1296, 2304, 3)


def test_the_camera_setting_turns_stills_off(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[FakeStillPicamera2] = []

    def factory(n: int) -> FakeStillPicamera2:
        made.append(FakeStillPicamera2())
        return made[-1]

    monkeypatch.setattr(picamera, "_real_camera", factory)
    on = open_camera(CameraConfig(backend="picamera2", warmup=0.0, size=(2304, 1296)))
    off = open_camera(CameraConfig(backend="picamera2", warmup=0.0, size=(2304, 1296), closer_look=False))
    assert on is not None and on.capture_still() is not None  # type: ignore[attr-defined]
    assert off is not None and off.capture_still() is None  # type: ignore[attr-defined]
