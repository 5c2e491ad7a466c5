"""The Raspberry Pi camera through picamera2, as a :class:`hardware.camera.FrameSource`.

picamera2 only exists on a Pi (Raspberry Pi OS package ``python3-picamera2``), so its import is
guarded: this module imports everywhere, and opening the camera elsewhere raises a
:class:`CameraError` saying what to use instead. Importing it registers the ``picamera2`` scheme
with :func:`hardware.camera.register_source` (``picamera2`` or ``picamera2:1280x720``).

Colour order: picamera2's ``RGB888`` format is stored B, G, R in memory (libcamera names formats
by their 32-bit word layout), which is exactly OpenCV's BGR, so frames are passed on unchanged.
``swap_rb=True`` swaps the red and blue channels for a camera or driver that delivers them the
other way round (symptom: red dice show up blue).

Steady pictures for the dice reader: after ``warmup`` seconds of automatic exposure, white
balance and (on cameras with autofocus) one focus cycle, the current values are locked with
``set_controls`` (``AeEnable``/``AwbEnable`` off with the measured ``ExposureTime``,
``AnalogueGain`` and ``ColourGains``; ``AfMode`` manual at the measured ``LensPosition``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hardware.camera import CameraError, register_source

try:  # only on a Raspberry Pi
    from picamera2 import Picamera2
except ImportError:  # pragma: no cover - depends on the machine
    Picamera2 = None

AF_MODE_MANUAL = 0  # libcamera controls::AfModeManual
AF_MODE_AUTO = 1  # libcamera controls::AfModeAuto

INSTALL_HINT = (
    "picamera2 is not available: on Raspberry Pi OS run 'sudo apt install python3-picamera2' and "
    "create the venv with --system-site-packages (systemd/install.sh does both); on another "
    'computer set [camera] backend to "device:0" (USB camera), "synthetic" or "none"'
)


def available() -> bool:
    """True if picamera2 can be imported (that is, probably on a Raspberry Pi)."""
    return Picamera2 is not None


def lock_controls(camera: Any) -> dict[str, Any]:
    """Fix exposure, white balance and focus at their current automatic values.

    Only controls the camera advertises in ``camera_controls`` are set (a camera without
    autofocus has no ``AfMode``). Returns the controls that were set.
    """
    advertised = getattr(camera, "camera_controls", None) or {}
    if "AfMode" in advertised and hasattr(camera, "autofocus_cycle"):
        camera.autofocus_cycle()  # blocks until the lens has settled (or given up)
    metadata = camera.capture_metadata()
    controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
    for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
        if key in metadata:
            controls[key] = metadata[key]
    if "AfMode" in advertised:
        controls["AfMode"] = AF_MODE_MANUAL
        if "LensPosition" in metadata:
            controls["LensPosition"] = metadata["LensPosition"]
    if advertised:
        controls = {k: v for k, v in controls.items() if k in advertised}
    if controls:
        camera.set_controls(controls)
    return controls


class PiCameraSource:
    """Frames from a Pi camera (BGR ``uint8``, ``size`` = (width, height))."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        swap_rb: bool = False,
        warmup: float = 2.0,
        lock: bool = True,
        camera_num: int = 0,
        camera_factory: Callable[[int], Any] | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.size = size
        self.swap_rb = swap_rb
        self.locked: dict[str, Any] = {}
        factory = camera_factory or _real_camera
        try:
            self.camera = factory(camera_num)
        except CameraError:
            raise
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError without a camera
            raise CameraError(
                f"no Pi camera {camera_num} could be opened ({type(exc).__name__}: {exc}): check "
                "the ribbon cable and that 'rpicam-hello --list-cameras' lists it"
            ) from exc
        try:
            config = self.camera.create_video_configuration(
                main={"format": "RGB888", "size": tuple(size)}
            )
            self.camera.configure(config)
            self.camera.start()
            if warmup > 0:
                (sleep or time.sleep)(warmup)
            if lock:
                self.locked = lock_controls(self.camera)
        except Exception as exc:
            self.close()
            raise CameraError(
                f"the Pi camera could not be started at {size[0]}x{size[1]} ({exc}): try a "
                "smaller [camera] size, or check that no other program uses the camera"
            ) from exc

    def read(self) -> np.ndarray | None:
        frame = self.camera.capture_array("main")
        if frame is None:
            return None
        if frame.ndim == 3 and frame.shape[2] == 4:  # XRGB8888 is B, G, R, X in memory
            frame = frame[:, :, :3]
        if self.swap_rb:
            frame = frame[:, :, ::-1]
        return np.ascontiguousarray(frame)

    def close(self) -> None:
        camera = getattr(self, "camera", None)
        if camera is None:
            return
        for step in ("stop", "close"):
            try:
                getattr(camera, step)()
            except Exception:  # closing a camera that failed half-way must not hide the cause
                pass
        self.camera = None


def _real_camera(camera_num: int) -> Any:
    if Picamera2 is None:
        raise CameraError(INSTALL_HINT)
    return Picamera2(camera_num)


def parse_size(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise CameraError(f"camera size {text!r} is not WIDTHxHEIGHT, e.g. picamera2:1280x720")
    return int(width), int(height)


def _from_spec(rest: str) -> PiCameraSource:
    return PiCameraSource(size=parse_size(rest)) if rest else PiCameraSource()


register_source("picamera2", _from_spec)
