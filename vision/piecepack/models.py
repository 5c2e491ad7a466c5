"""The piecepack camera's small networks (ONNX, run by onnxruntime) and the crops they read.

Trained by ``scripts/train_piecepack.py`` on renders of ``vision.synthetic.piecepack``; no
weights are fetched at run time.

- ``piece_finder.onnx``: the dice area at a quarter of its size in, a map at 16 frame pixels a
  cell out: the chance a die's centre / a coin's centre lies in the cell, and the piece's size;
- ``piece_reader.onnx``: a 40x40 colour crop of one piece in, one of :data:`PIECE_CLASSES`;
- ``space_reader.onnx``: a 40x40 crop of one dungeon space (the table plane seen from above at
  1 px/mm) in, one of :data:`SPACE_CLASSES`.
"""

from __future__ import annotations

import functools
import os
import threading
from pathlib import Path

import cv2
import numpy as np

from vision.onnx_session import session_options

MODEL_DIR = Path(os.environ.get("PIECEPACK_MODEL_DIR")
                 or Path(__file__).resolve().parent / "models")
FINDER_PATH = MODEL_DIR / "piece_finder.onnx"
READER_PATH = MODEL_DIR / "piece_reader.onnx"
SPACE_PATH = MODEL_DIR / "space_reader.onnx"

SUITS: tuple[str, ...] = ("suns", "moons", "crowns", "arms")
VALUE_LABELS: tuple[str, ...] = ("null", "ace", "2", "3", "4", "5")

FINDER_SCALE = 0.25
"""The finder sees the frame at this scale."""
FINDER_STRIDE = 16
"""Frame pixels per cell of the finder's map."""
FINDER_ALIGN = 16
"""The finder's input sides are padded to a multiple of this (its two stride-2 steps and a
margin)."""
SIZE_UNIT = 16.0
"""The finder's size channel is log(box side / SIZE_UNIT)."""

CROP = 40
"""Side of the readers' crops, pixels."""
CROP_MARGIN = 1.25
"""The piece reader's crop is this many times the piece's box side, centred on it."""

DIE_CLASSES = tuple((s, v) for s in SUITS for v in range(6))
"""Piece reader classes 0-23: a die of suit s showing value v (class = 6 * suit index + v)."""
COIN_VALUE0 = 24
"""Classes 24-29: a coin, value side up, showing 0-5."""
COIN_SUIT0 = 30
"""Classes 30-33: a coin, suit side up, of each suit."""
NOT_A_PIECE = 34
PIECE_CLASSES = 35

SPACE_LABELS: tuple[str, ...] = ("none", "tile", "coin", "pawn suns", "pawn moons",
                                 "pawn crowns", "pawn arms")
"""Space reader classes: no tile there, a bare space of a tile, a coin on it, a pawn of each
suit on it."""
SPACE_MARGIN_MM = 7.5
"""Around a 25.4 mm space, the space reader also sees this much of its neighbours (a standing
pawn leans into them)."""


class ModelMissingError(RuntimeError):
    """A piecepack model is missing: run ``scripts/train_piecepack.py`` or reinstall."""


class Network:
    """One ONNX network run by onnxruntime on as many threads as OpenCV uses (``vision.onnx_session``)."""

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort

        options = session_options(cv2.getNumThreads())
        self._session = ort.InferenceSession(str(path), options,
                                             providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        self._lock = threading.Lock()

    def run(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        with self._lock:
            return np.asarray(self._session.run(None, {self._input: x})[0])


_lock = threading.Lock()


@functools.cache
def _load(path: Path) -> Network:
    if not path.exists():
        raise ModelMissingError(f"piecepack model {path.name} is missing from {path.parent}: "
                                "run scripts/train_piecepack.py or reinstall the package")
    return Network(path)


def load_net(path: Path) -> Network:
    """The network at ``path``, loaded once per process."""
    with _lock:
        return _load(path)


def to_input(bgr: np.ndarray) -> np.ndarray:
    """HxWx3 uint8 BGR -> 3xHxW float32 in [-0.5, 0.5] (the networks' input)."""
    return np.transpose(bgr.astype(np.float32) / 255.0 - 0.5, (2, 0, 1))


def crop_piece(frame: np.ndarray, centre: tuple[float, float], side: float,
               size: int = CROP, margin: float = CROP_MARGIN) -> np.ndarray:
    """A ``size`` x ``size`` BGR crop centred on ``centre``, ``margin`` x ``side`` wide (edges
    replicated past the frame)."""
    span = max(side * margin, 4.0)
    scale = size / span
    cx, cy = centre
    m = np.array([[scale, 0, size / 2 - cx * scale], [0, scale, size / 2 - cy * scale]],
                 np.float32)
    src = frame
    if scale < 0.5:  # shrink first so thin strokes are averaged, not skipped
        f = int(1 / scale / 1.5)
        x0, y0 = int(max(0, cx - span)), int(max(0, cy - span))
        x1, y1 = int(min(frame.shape[1], cx + span)), int(min(frame.shape[0], cy + span))
        if x1 - x0 > 2 * f and y1 - y0 > 2 * f:
            src = cv2.resize(frame[y0:y1, x0:x1], None, fx=1 / f, fy=1 / f,
                             interpolation=cv2.INTER_AREA)
            m = np.array([[scale * f, 0, size / 2 - (cx - x0) / f * scale * f],
                          [0, scale * f, size / 2 - (cy - y0) / f * scale * f]], np.float32)
    return np.asarray(cv2.warpAffine(src, m, (size, size), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


_WEIGHT_CACHE: dict[int, np.ndarray] = {}


def _centre_weight(size: int) -> np.ndarray:
    w = _WEIGHT_CACHE.get(size)
    if w is None:
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2
        w = np.exp(-(xx ** 2 + yy ** 2) / (2 * (size * 0.3) ** 2)).astype(np.float32)
        _WEIGHT_CACHE[size] = w
    return w


def upright(crop: np.ndarray) -> np.ndarray:
    """The crop turned so the strongest square edges (a die's sides) run along its axes.

    Edge directions are averaged on the circle four times over (a square's four sides agree
    there), so a die comes out in one of four turns and the reader, trained on all four, need
    not learn every angle. A coin has no such edges: it is turned by whatever its marks say,
    the same way in training as when reading."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = (gx * gx + gy * gy) * _centre_weight(crop.shape[0])
    ang = np.arctan2(gy, gx)
    z = complex(float((mag * np.cos(4 * ang)).sum()), float((mag * np.sin(4 * ang)).sum()))
    theta = np.degrees(np.angle(z) / 4)
    size = crop.shape[0]
    m = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), float(theta), 1.0)
    return np.asarray(cv2.warpAffine(crop, m, (size, size), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))
