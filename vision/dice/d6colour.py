"""The colour d6 reader: a second, independent look at a d6's top face, in colour.

Every other reading network sees grey; a marbled or translucent die whose pips match its body
once turned grey is lost to them. ``d6_colour.onnx`` sees the colour crop: the first blocks
of EfficientNet-Lite0 with its ImageNet weights (kept as they were, Apache-2.0; see
``models/NOTICE-d6_colour.txt``) and a small head trained on the real photos the project may
train on and on rendered colour, marbled and translucent dice (``scripts/train_d6_colour.py``).
The reader's d6 pass (``reader._d6_pass``, ``DiceConfig.d6_colour``) asks it about each d6 whose verdict it can change (one the grey looks leave unsure).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .models import MODEL_DIR, load_net, rgb_crops

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
    x = colour_crops(bgr, boxes)
    if not len(x):
        return np.zeros((0, 6), np.float32)
    out = load_net(colour_path()).run(x)
    return np.asarray(out, np.float32).reshape(len(x), 6)


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


def as_colour(image: np.ndarray) -> np.ndarray:
    """A BGR view of ``image`` (grey images get three equal channels)."""
    return image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
