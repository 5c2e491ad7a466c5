"""The colour d6 reader: a second, independent look at a d6's top face, in colour.

Every other reading network sees grey; a marbled or translucent die whose pips match its body
once turned grey is lost to them. ``d6_colour.onnx`` sees the colour crop: the first blocks
of EfficientNet-Lite0 with its ImageNet weights (kept as they were, Apache-2.0; see
``models/NOTICE-d6_colour.txt``) and a small head trained on the real photos the project may
train on and on rendered colour, marbled and translucent dice (``scripts/train_d6_colour.py``).
The reader's d6 pass (``reader._d6_pass``, ``DiceConfig.d6_colour``) asks it about each d6 whose verdict it can change (one the grey looks leave unsure).
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from .models import MODEL_DIR, ModelMissingError, load_net, rgb_crops
from .models import fingerprint as fingerprint_of

COLOUR_SIZE = 80
"""The side of the colour crop the network sees."""
COLOUR_MARGIN = 1.2
"""Its crop: this many times the box's longer side, centred on the box."""


def colour_path() -> Path:
    """The colour d6 reader (``scripts/train_d6_colour.py export``)."""
    return MODEL_DIR / "d6_colour.onnx"


def colour_crops(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """The network's input for ``boxes`` in a BGR image: N x 3 x S x S, RGB, 0..255."""
    return rgb_crops(bgr, boxes, COLOUR_SIZE, COLOUR_MARGIN)


def read_colour(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """N x 6 value probabilities (value 1 first) of the d6 in ``boxes`` of a BGR (or grey) image."""
    return read_colour_crops(colour_crops(bgr, boxes))


def read_colour_crops(x: np.ndarray) -> np.ndarray:
    """N x 6 value probabilities (value 1 first) of the network's input ``x`` (``colour_crops``)."""
    if not len(x):
        return np.zeros((0, 6), np.float32)
    out = load_net(colour_path()).run(x)
    return np.asarray(out, np.float32).reshape(len(x), 6)


def read_colour_and_chroma(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """(:func:`read_colour`, :func:`colour_chroma`) of ``boxes``: what the reader asks of a d6 it
    looks at in colour, its crop cut once for both."""
    x = colour_crops(bgr, boxes)
    return read_colour_crops(x), crop_chroma(x)


def crop_chroma(x: np.ndarray) -> np.ndarray:
    """How colourful each die of :func:`colour_crops`' N x 3 x S x S input is: over the middle
    of the crop (its central 40%, inside the die's face), the 75th percentile of each pixel's
    largest channel minus its smallest (0 for a grey image; white, ivory and black dice about
    3-10; colour bodies 20-200)."""
    if not len(x):
        return np.zeros(0, np.float32)
    n = x.shape[2]
    a = int(n * 0.3)
    mid = x[:, :, a:n - a, a:n - a]
    spread = mid.max(axis=1) - mid.min(axis=1)
    out: np.ndarray = np.percentile(spread.reshape(len(x), -1), 75, axis=1).astype(np.float32)
    return out


def colour_chroma(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """:func:`crop_chroma` of the colour reader's crops of ``boxes``."""
    return crop_chroma(colour_crops(bgr, boxes))


def colour_and_features(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N x 6 value probabilities, N x F features) of the network's input ``x``
    (``colour_crops``, or ``tune.colour_input`` of kept crops); the features are the head's
    pooled input, which a table's memory of its own d6 compares (``vision.dice.tune``).
    A network exported without them raises ``ModelMissingError`` saying how to add them."""
    if not len(x):
        return np.zeros((0, 6), np.float32), np.zeros((0, 0), np.float32)
    net = load_net(colour_path())
    try:
        p, f = net.run_all(np.ascontiguousarray(x, np.float32), ("output", "features"))
    except Exception as exc:  # onnxruntime and OpenCV raise their own errors for a missing output
        raise ModelMissingError(
            f"{colour_path().name} has no 'features' output ({type(exc).__name__}): run "
            "'python3 scripts/train_d6_colour.py outputs' to add it (its readings stay the same)") from exc
    return np.asarray(p, np.float32).reshape(len(x), 6), np.asarray(f, np.float32).reshape(len(x), -1)


def fingerprint() -> str:
    """A short digest of the colour d6 reader's file: a table's colour memory is kept with the
    fingerprint of the network that made its features, and is used only with that network (a
    retrained one gives other features; tune again)."""
    return fingerprint_of(colour_path())


def has_features() -> bool:
    """Whether the colour d6 reader gives its ``features`` (a table's colour memory needs them;
    a ``d6_colour.onnx`` exported without them leaves the memory unused rather than failing)."""
    path = colour_path()
    try:
        return _gives_features(path, path.stat().st_mtime_ns)
    except OSError:
        return False


@functools.cache
def _gives_features(path: Path, mtime: int) -> bool:
    try:
        colour_and_features(np.zeros((1, 3, COLOUR_SIZE, COLOUR_SIZE), np.float32))
    except ModelMissingError:
        return False
    return True


def as_colour(image: np.ndarray) -> np.ndarray:
    """A BGR view of ``image`` (grey images get three equal channels)."""
    return image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
