"""Frame sources behind one small protocol.

A frame source yields BGR ``uint8`` arrays (H x W x 3). ``open_source(spec)`` picks the backend
from a short text spec so the command line, the config file and the tests share one vocabulary:

- ``folder:PATH`` or a directory path: every image in the folder, sorted by name, once;
- ``video:PATH`` or a path ending in a video suffix: the frames of a video file;
- ``device:N`` or a bare integer: an OpenCV/V4L2 camera (USB webcam);
- ``synthetic``: the synthetic table (``vision.synthetic.table``, imported when first asked for);
- ``picamera2``: the Pi camera (only on a Pi; see ``hardware.picamera``).

Cameras do not always give what they promise: :func:`as_bgr8` turns a frame of any dtype, shape
or channel count that can be shown into BGR ``uint8`` and refuses the rest with a
:class:`CameraError` that says what arrived; :class:`CheckedSource` applies it to every frame.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".h264", ".webm"}


class CameraError(RuntimeError):
    """The camera could not be opened or stopped delivering frames; the message says what to do."""


class FrameSource(Protocol):
    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when the source has ended."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class Still:
    """A picture of the same view as the frames at a higher resolution (a camera's full-sensor
    still), for a closer look at dice a frame leaves unsure (``vision.dice.closer``).

    A frame pixel (x, y) is the still pixel (x * scale[0] + offset[0], y * scale[1] +
    offset[1]); the two can differ in field of view as well as size (a video mode that crops
    the sensor), which the offset carries."""

    image: np.ndarray
    scale: tuple[float, float]
    offset: tuple[float, float] = (0.0, 0.0)


def still_taker(source: object) -> Callable[[], Still | None] | None:
    """``source.capture_still`` when the source can take stills, else None. The method returns
    a :class:`Still`, or None when it has none to give this time; it may raise
    :class:`CameraError` (the caller keeps what the frame showed)."""
    take = getattr(source, "capture_still", None)
    return take if callable(take) else None


class FolderSource:
    """Replays the images of a folder in name order (unreadable files are skipped with a note)."""

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"replay folder {self.folder} does not exist: give a folder of images")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"replay folder {self.folder} holds no images (.jpg, .png, ...)")
        self.loop = loop
        self._index = 0
        self.skipped: list[str] = []

    def read(self) -> np.ndarray | None:
        import cv2

        while True:
            if self._index >= len(self.paths):
                if not self.loop:
                    return None
                self._index = 0
            path = self.paths[self._index]
            self._index += 1
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is not None:
                return frame
            self.skipped.append(f"{path.name}: not a readable image")
            if len(self.skipped) > len(self.paths):
                return None

    def close(self) -> None:
        self._index = len(self.paths)


class OpenCVSource:
    """A video file or a V4L2 device through ``cv2.VideoCapture``."""

    def __init__(self, target: str | int) -> None:
        import cv2

        self.capture = cv2.VideoCapture(target)
        if not self.capture.isOpened():
            raise CameraError(
                f"could not open camera or video {target!r}: check the cable or the file path"
            )

    def read(self) -> np.ndarray | None:
        ok, frame = self.capture.read()
        return frame if ok else None

    def close(self) -> None:
        self.capture.release()


_FACTORIES: dict[str, Callable[[str], FrameSource]] = {}
# Schemes whose module registers itself on import; imported the first time the scheme is used.
_LAZY_SCHEMES = {
    "picamera2": "hardware.picamera",
    "synthetic": "vision.synthetic.table",
    "synthetic-dice": "vision.synthetic.dice",
}


def register_source(scheme: str, factory: Callable[[str], FrameSource]) -> None:
    """Lets another package (the synthetic table, the Pi camera) add a ``scheme:`` to open_source."""
    _FACTORIES[scheme] = factory


def open_source(spec: str) -> FrameSource:
    """Open a frame source from its text spec (see the module docstring)."""
    scheme, _, rest = spec.partition(":")
    if scheme not in _FACTORIES and scheme in _LAZY_SCHEMES:
        importlib.import_module(_LAZY_SCHEMES[scheme])
    if scheme in _FACTORIES:
        return _FACTORIES[scheme](rest)
    if scheme == "folder":
        return FolderSource(rest)
    if scheme == "video":
        return OpenCVSource(rest)
    if scheme == "device":
        if not rest.isdigit():
            raise CameraError(f"camera {spec!r}: a device is a number, e.g. device:0 for the "
                              "first USB camera (ls /dev/video* lists them)")
        return OpenCVSource(int(rest))
    if spec.isdigit():
        return OpenCVSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return OpenCVSource(str(path))
    raise CameraError(
        f"unknown frame source {spec!r}: use a folder of images, a video file, a device number, "
        "'synthetic' or 'picamera2'"
    )


def frames(source: FrameSource) -> Iterator[np.ndarray]:
    """Iterate a source until it ends."""
    while (frame := source.read()) is not None:
        yield frame


def as_bgr8(frame: object) -> np.ndarray:
    """``frame`` as a contiguous BGR ``uint8`` array (H x W x 3).

    Grey (H x W or H x W x 1) is repeated into three channels, a fourth (alpha) channel is
    dropped. ``uint16`` keeps its top 8 bits; floats whose values lie within 0..1 are scaled by
    255, other floats and integers are clipped to 0..255, NaN counts as black. Anything else (not
    an array, an empty frame, 2 or 5+ channels, complex or object values, a frame with no
    finite value) raises :class:`CameraError` naming what arrived.
    """
    if not isinstance(frame, np.ndarray):
        raise CameraError(f"the camera gave a {type(frame).__name__}, not a picture: check the "
                          "camera backend in the config")
    what = f"a {frame.dtype} frame of shape {frame.shape}"
    if frame.ndim == 3 and frame.shape[2] == 1:
        frame = frame[:, :, 0]
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = frame[:, :, :3]
    elif frame.ndim != 3 or frame.shape[2] != 3:
        raise CameraError(f"the camera gave {what}: expected a picture of 1, 3 or 4 channels; "
                          "check the camera's format setting")
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        raise CameraError(f"the camera gave {what}: an empty picture; check the camera")
    kind = frame.dtype.kind
    if frame.dtype == np.uint8:
        out = frame
    elif kind == "b":
        out = frame.astype(np.uint8) * 255
    elif frame.dtype == np.uint16:
        out = (frame >> 8).astype(np.uint8)
    elif kind in "iu":
        out = np.clip(frame, 0, 255).astype(np.uint8)
    elif kind == "f":
        finite = np.isfinite(frame)
        if not finite.any():
            raise CameraError(f"the camera gave {what} with no finite value: check the camera")
        values = np.where(finite, frame, 0.0)
        low, high = float(values.min()), float(values.max())
        if low >= 0.0 and high <= 1.0:
            values = values * 255.0
        out = np.clip(np.rint(values), 0, 255).astype(np.uint8)
    else:
        raise CameraError(f"the camera gave {what}: not a picture's values; check the camera's "
                          "format setting")
    return np.ascontiguousarray(out)


class CheckedSource:
    """Wraps a FrameSource so that every frame (and still) it gives is BGR ``uint8``
    (:func:`as_bgr8`); a frame that cannot be shown raises :class:`CameraError`."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source

    def read(self) -> np.ndarray | None:
        frame = self.source.read()
        return None if frame is None else as_bgr8(frame)

    def close(self) -> None:
        self.source.close()


class CheckedStillSource(CheckedSource):
    """A :class:`CheckedSource` of a camera that takes stills (``still_taker``)."""

    def capture_still(self) -> Still | None:
        take = still_taker(self.source)
        still = take() if take is not None else None
        if still is None:
            return None
        return Still(as_bgr8(still.image), still.scale, still.offset)


def checked(source: FrameSource) -> CheckedSource:
    """``source`` wrapped so that every frame and still it gives is BGR ``uint8``."""
    return CheckedStillSource(source) if still_taker(source) is not None else CheckedSource(source)
