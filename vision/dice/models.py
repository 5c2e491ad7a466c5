"""The small networks (ONNX, run by onnxruntime or OpenCV's DNN module) and the crop they share.

The detector is trained by ``scripts/train_dice_classifier.py``, the classifier by
``scripts/train_dice_reader.py``, the face readers by ``scripts/train_face_reader.py``, the type
reader by ``scripts/train_type_reader.py``; no weights are fetched at run time.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from pathlib import Path

import cv2
import numpy as np

from vision.onnx_session import session_options

MODEL_DIR = Path(os.environ.get("DICE_MODEL_DIR") or Path(__file__).resolve().parent / "models")
"""Where the networks are read from: the shipped ones, or ``DICE_MODEL_DIR`` (a retrained set
to measure, e.g. ``DICE_MODEL_DIR=/tmp/new python3 benchmarks/vision_dice.py``)."""
DETECTOR_PATH = MODEL_DIR / "dice_detector.onnx"
CLASSIFIER_PATH = MODEL_DIR / "dice_classifier.onnx"
DETECTOR_STRIDE = 8
DETECTOR_ALIGN = 32
CLASSIFIER_SIZE = 64
CROP_MARGIN = 1.15
"""The classifier sees a square of this many times the box's longer side, centred on the box."""
FACE_MARGIN = 0.9
"""A face reader's closer crop: the top face and its number fill more of it."""
D6_FACE_MARGIN = 1.0
"""The d6 face reader's crop: a pip sits near the face's corner, and a photo taken at a slant
shows the top face off the box's centre, so it keeps the whole box."""


def face_margin(kind: str) -> float:
    """The crop margin of ``kind``'s face reader."""
    return D6_FACE_MARGIN if kind == "d6" else FACE_MARGIN


def face_reader_path(kind: str) -> Path:
    """The face reader of one numbered die type (``scripts/train_face_reader.py``)."""
    return MODEL_DIR / f"face_reader_{kind}.onnx"


TYPE_READER_KINDS = ("d4", "d8", "d10", "d12", "d20")
"""The type reader's outputs, in order."""


def type_reader_path() -> Path:
    """The type reader, which tells the numbered types apart (``scripts/train_type_reader.py``)."""
    return MODEL_DIR / "type_reader.onnx"


class ModelMissingError(RuntimeError):
    """A model file is missing: rerun the training scripts (scripts/train_dice_*.py) or reinstall."""


BACKENDS = ("onnxruntime", "opencv")


class BackendError(RuntimeError):
    """``$DICE_BACKEND`` names no backend this machine can use."""


def default_backend() -> str:
    """What runs the networks: ``$DICE_BACKEND`` if set, else onnxruntime when it imports
    (about 1.5-1.8x faster than OpenCV's DNN module for these small networks on an x86 core,
    the same answers to 1e-4), else OpenCV's DNN module."""
    chosen = os.environ.get("DICE_BACKEND", "").strip().lower()
    if chosen:
        if chosen not in BACKENDS:
            raise BackendError(f"DICE_BACKEND must be one of {', '.join(BACKENDS)}, not {chosen!r}: "
                               "unset it or fix its value")
        return chosen
    return "onnxruntime" if onnxruntime_usable() else "opencv"


@functools.cache
def onnxruntime_usable() -> bool:
    """Whether onnxruntime imports here (it may be missing, or built against another numpy)."""
    try:
        import onnxruntime  # noqa: F401
    except Exception:  # noqa: BLE001 - any import failure means: use OpenCV instead
        return False
    return True


SECOND_OUTPUTS = ("features", "embedding")
"""Outputs a network may have beside its first (``run`` gives the first; ``run_all`` names them)."""


class Network:
    """One ONNX network: ``run(x)`` gives its (first) output for the float32 batch ``x``.

    onnxruntime uses as many threads as OpenCV is set to (``cv2.setNumThreads``), so one knob
    sets both (the benchmark's ``--threads``); they sleep between runs (``vision.onnx_session``)."""

    def __init__(self, path: Path, backend: str) -> None:
        self.path, self.backend = path, backend
        if backend == "onnxruntime":
            import onnxruntime as ort

            options = session_options(cv2.getNumThreads())
            self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            self._input = self._session.get_inputs()[0].name
        else:
            net = cv2.dnn.readNetFromONNX(str(path))
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
            self._net = net
            # a network with a second output (``features``, ``embedding``) gives run() its first
            outs = [n for n in net.getUnconnectedOutLayersNames() if n not in SECOND_OUTPUTS]
            self._first: str | None = outs[0] if len(outs) == 1 else None
            self._net_lock = threading.Lock()  # an OpenCV net holds its input between calls

    def run(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        if self.backend == "onnxruntime":
            return np.asarray(self._session.run(None, {self._input: x})[0])
        with self._net_lock:
            self._net.setInput(x)
            return np.asarray(self._net.forward(self._first) if self._first else self._net.forward())

    def run_all(self, x: np.ndarray, names: tuple[str, ...]) -> list[np.ndarray]:
        """The outputs ``names`` of the network, in that order (the d6 embedding network:
        ``("output", "embedding")``)."""
        x = np.ascontiguousarray(x, np.float32)
        if self.backend == "onnxruntime":
            return [np.asarray(o) for o in self._session.run(list(names), {self._input: x})]
        with self._net_lock:
            self._net.setInput(x)
            return [np.asarray(o) for o in self._net.forward(list(names))]


def fingerprint(path: Path) -> str:
    """A short digest of a network's file (16 hex digits of its SHA-256; "" when it cannot be
    read). A table's tuning keeps the fingerprints of the networks whose outputs it was built on
    and is used only with those networks (``vision.dice.tune``): a retrained one gives other
    outputs. Worked out once per file and modification time."""
    try:
        st = path.stat()
        return _digest(path, st.st_mtime_ns, st.st_size)
    except OSError:
        return ""


@functools.lru_cache(maxsize=64)
def _digest(path: Path, mtime: int, size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


_lock = threading.Lock()
_nets: dict[tuple[Path, str], Network] = {}


def load_net(path: Path, backend: str | None = None) -> Network:
    """The network at ``path``, loaded once per process and backend (thread-safe cache)."""
    backend = backend or default_backend()
    with _lock:
        net = _nets.get((path, backend))
        if net is None:
            if not path.exists():
                raise ModelMissingError(
                    f"dice model {path.name} is missing from {path.parent}: run "
                    "scripts/train_dice_classifier.py (detector), scripts/train_dice_reader.py "
                    "(classifier), scripts/train_face_reader.py (face_reader_*) or "
                    "scripts/train_type_reader.py (type_reader), or reinstall the package"
                )
            net = Network(path, backend)
            _nets[(path, backend)] = net
        return net


def rgb_crops(image: np.ndarray, boxes: list[tuple[float, float, float, float]], size: int,
              margin: float) -> np.ndarray:
    """The input of a colour network for ``boxes`` in a BGR (or grey) image: N x 3 x ``size`` x
    ``size`` float32, RGB, 0..255, each crop ``margin`` times the box's longer side
    (``crop_square``); a grey image gives the same value in every channel."""
    if not boxes:
        return np.zeros((0, 3, size, size), np.float32)
    crops = np.stack([crop_square(image, b, size, margin) for b in boxes])
    if crops.ndim == 3:
        crops = np.repeat(crops[..., None], 3, axis=3)
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), np.float32)


def crop_square(
    grey: np.ndarray, box: tuple[float, float, float, float], size: int = CLASSIFIER_SIZE,
    margin: float = CROP_MARGIN, border: int = cv2.BORDER_REPLICATE,
) -> np.ndarray:
    """A ``size`` x ``size`` crop centred on ``box`` (x, y, w, h), edges replicated past the frame
    (or filled as ``border``, an OpenCV border mode, says).

    The crop's side is ``margin`` times the box's longer side."""
    x, y, w, h = box
    side = max(w, h) * margin
    cx, cy = x + w / 2, y + h / 2
    scale = size / max(side, 1.0)
    m = np.array([[scale, 0, size / 2 - cx * scale], [0, scale, size / 2 - cy * scale]], np.float32)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    if scale < 0.5:
        # pre-shrink so the affine warp does not alias small pips away
        f = max(1, int(1 / scale / 1.5))
        if f > 1:
            x0, y0 = int(max(0, cx - side)), int(max(0, cy - side))
            x1, y1 = int(min(grey.shape[1], cx + side)), int(min(grey.shape[0], cy + side))
            if x1 > x0 and y1 > y0:
                sub = cv2.resize(
                    grey[y0:y1, x0:x1], None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA
                )
                return crop_square(
                    sub, ((x - x0) / f, (y - y0) / f, w / f, h / f), size, margin, border
                ) if sub.size else np.zeros((size, size), np.uint8)
    return cv2.warpAffine(grey, m, (size, size), flags=interp, borderMode=border)
