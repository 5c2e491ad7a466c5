"""The small networks (ONNX, run by OpenCV's DNN module) and the crop they share.

The detector is trained by ``scripts/train_dice_classifier.py``, the classifier by
``scripts/train_dice_reader.py``, the face readers by ``scripts/train_face_reader.py``; no weights
are fetched at run time.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

MODEL_DIR = Path(__file__).resolve().parent / "models"
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


class ModelMissingError(RuntimeError):
    """A model file is missing: rerun the training scripts (scripts/train_dice_*.py) or reinstall."""


_lock = threading.Lock()
_nets: dict[Path, cv2.dnn.Net] = {}


def load_net(path: Path) -> cv2.dnn.Net:
    """The network at ``path``, loaded once per process (and per thread-safe cache)."""
    with _lock:
        net = _nets.get(path)
        if net is None:
            if not path.exists():
                raise ModelMissingError(
                    f"dice model {path.name} is missing from {path.parent}: run "
                    "scripts/train_dice_classifier.py (detector), scripts/train_dice_reader.py "
                    "(classifier) or scripts/train_face_reader.py (face_reader_*), or reinstall "
                    "the package"
                )
            net = cv2.dnn.readNetFromONNX(str(path))
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
            _nets[path] = net
        return net


def crop_square(
    grey: np.ndarray, box: tuple[float, float, float, float], size: int = CLASSIFIER_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """A ``size`` x ``size`` crop centred on ``box`` (x, y, w, h), edges replicated past the frame.

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
                    sub, ((x - x0) / f, (y - y0) / f, w / f, h / f), size, margin
                ) if sub.size else np.zeros((size, size), np.uint8)
    return cv2.warpAffine(grey, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
