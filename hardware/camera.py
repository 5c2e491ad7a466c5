"""Frame sources behind one small protocol.

A frame source yields BGR ``uint8`` arrays (H x W x 3). ``open_source(spec)`` picks the backend
from a short text spec so the command line, the config file and the tests share one vocabulary:

- ``folder:PATH`` or a directory path: every image in the folder, sorted by name, once;
- ``video:PATH`` or a path ending in a video suffix: the frames of a video file;
- ``device:N`` or a bare integer: an OpenCV/V4L2 camera (USB webcam);
- ``synthetic``: the synthetic table (registered by ``vision.synthetic``);
- ``picamera2``: the Pi camera (only on a Pi; see ``hardware.picamera``).
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
_LAZY_SCHEMES = {"picamera2": "hardware.picamera"}


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
