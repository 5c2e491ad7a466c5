"""The Raspberry Pi camera through picamera2, as a :class:`hardware.camera.FrameSource`.

picamera2 only exists on a Pi (Raspberry Pi OS package ``python3-picamera2``), so its import is
guarded: this module imports everywhere, and opening the camera elsewhere raises a
:class:`CameraError` saying what to use instead. Importing it registers the ``picamera2`` scheme
with :func:`hardware.camera.register_source` (``picamera2`` or ``picamera2:1280x720``).

Colour order: picamera2's ``RGB888`` format is stored B, G, R in memory (libcamera names formats
by their 32-bit word layout), which is exactly OpenCV's BGR, so frames are passed on unchanged.
``swap_rb=True`` swaps the red and blue channels for a camera or driver that delivers them the
other way round (symptom: red dice show up blue).

Stills for a closer look (``still=True``, the default): the video stream is a compromise (the
Camera Module 3 streams 2304x1296; its sensor has 4608x2592 pixels), so :meth:`capture_still`
takes one picture at the sensor's full resolution (``sensor_resolution``) with
``switch_mode_and_capture_request`` (picamera2 switches back to the video mode by itself), for
the dice reader to read the dice a frame left unsure (``vision.dice.closer``). The frame and
the still are mapped onto each other through the sensor area each shows (the ``ScalerCrop``
in their metadata), so a video mode that crops the sensor still maps right.

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

from hardware.camera import CameraError, Still, register_source

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
        still: bool = True,
    ) -> None:
        self.size = size
        self.swap_rb = swap_rb
        self.locked: dict[str, Any] = {}
        self.still_config: Any = None  # None: this camera takes no stills (see capture_still)
        self._video_crop: tuple[int, int, int, int] | None = None
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
        if still:
            self._prepare_still()

    def _prepare_still(self) -> None:
        """The still configuration, when the sensor has more pixels than the video frames (a
        camera without them, or that cannot say, takes no stills; the frames are read alone)."""
        try:
            full = tuple(int(v) for v in (getattr(self.camera, "sensor_resolution", None) or ()))
            if len(full) != 2 or full[0] <= self.size[0] or full[1] <= self.size[1]:
                return
            crop = self.camera.capture_metadata().get("ScalerCrop")
            self._video_crop = tuple(int(v) for v in crop) if crop else None  # type: ignore[assignment]
            self.still_config = self.camera.create_still_configuration(
                main={"format": "RGB888", "size": full}, controls=dict(self.locked))
        except Exception:  # no stills is a lesser camera, not a broken one
            self.still_config = None

    def _relock(self) -> None:
        if self.locked and self.camera is not None:
            try:
                self.camera.set_controls(dict(self.locked))
            except Exception:  # the next frames show whether the camera is still there
                pass

    def _as_bgr(self, frame: np.ndarray) -> np.ndarray:
        if frame.ndim == 3 and frame.shape[2] == 4:  # XRGB8888 is B, G, R, X in memory
            frame = frame[:, :, :3]
        if self.swap_rb:
            frame = frame[:, :, ::-1]
        return np.ascontiguousarray(frame)

    def read(self) -> np.ndarray | None:
        frame = self.camera.capture_array("main")
        if frame is None:
            return None
        return self._as_bgr(frame)

    def capture_still(self) -> Still | None:
        """One picture at the sensor's full resolution, mapped onto the video frames; None when
        this camera takes no stills. A mode switch and back, expected to take under a second on a
        Pi (not measured: no Pi here); raises :class:`CameraError` when the camera fails it."""
        if self.still_config is None or self.camera is None:
            return None
        try:
            request = self.camera.switch_mode_and_capture_request(self.still_config)
        except Exception as exc:
            raise CameraError(f"the Pi camera could not take a still ({exc})") from exc
        finally:
            # back in the video mode, picamera2 applies that configuration's own controls: lock
            # exposure, white balance and focus again so the frames keep their look
            self._relock()
        try:
            image = request.make_array("main")
            metadata = request.get_metadata()
        finally:
            request.release()
        if image is None:
            return None
        image = self._as_bgr(image)
        crop = metadata.get("ScalerCrop") if isinstance(metadata, dict) else None
        mapping = still_mapping(self.size, self._video_crop, (image.shape[1], image.shape[0]),
                                tuple(int(v) for v in crop) if crop else None)
        if mapping is None:
            return None
        return Still(image, *mapping)

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


def still_mapping(
    frame_size: tuple[int, int], frame_crop: tuple[int, ...] | None,
    still_size: tuple[int, int], still_crop: tuple[int, ...] | None,
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """(scale, offset) taking frame pixels to still pixels, from the sensor area each picture
    shows (``ScalerCrop``: x, y, width, height in sensor pixels). Without both areas the two
    are taken to show the whole view, which only a matching aspect ratio allows (else None:
    the still cannot be placed)."""
    fw, fh = frame_size
    sw, sh = still_size
    if min(fw, fh, sw, sh) <= 0:
        return None
    if frame_crop and still_crop and len(frame_crop) == 4 and len(still_crop) == 4:
        fx, fy, fcw, fch = frame_crop
        sx, sy, scw, sch = still_crop
        if min(fcw, fch, scw, sch) <= 0:
            return None
        kx, ky = sw / scw, sh / sch  # still pixels per sensor pixel
        return ((fcw / fw * kx, fch / fh * ky), ((fx - sx) * kx, (fy - sy) * ky))
    if abs(fw / fh - sw / sh) > 0.01 * (sw / sh):
        return None
    return ((sw / fw, sh / fh), (0.0, 0.0))


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
