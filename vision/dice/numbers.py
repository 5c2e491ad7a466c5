"""The number reader: a second, independent look at a numbered die's top number, in colour.

The grey face readers (``face_reader_KIND.onnx``) learned numbers from renders alone, with
networks trained from scratch, and read rendered numbers far better than real ones.
``number_reader.onnx`` sees the colour crop through the first blocks of EfficientNet-Lite0 with
its ImageNet weights (kept as they were, Apache-2.0; see ``models/NOTICE-number_reader.txt``)
and a small head trained on rendered numbered dice made to look like photos
(``scripts/train_number_reader.py``). It names the *glyph* in the middle of the top face, "0" to
"20" (a d10 prints its 10 as 0), for every numbered type with a number there (d8, d10, d12,
d20); the reader keeps the glyphs the die's type can show. The reader's numbered pass
(``reader._numbered_pass``, ``DiceConfig.number_reader``) asks it about each numbered die the
grey looks leave unsure.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from .models import MODEL_DIR, load_net, rgb_crops
from .types import FACES

NUMBER_SIZE = 96
"""The side of the colour crop the network sees."""
NUMBER_MARGIN = 0.95
"""Its crop: this many times the box's longer side, centred on the box."""
GLYPHS = 21
"""The network's outputs: the glyphs "0" to "20"."""
NUMBER_KINDS = ("d8", "d10", "d12", "d20")
"""The types whose top number the network was trained to read."""


def number_path() -> Path:
    """The number reader (``scripts/train_number_reader.py export``)."""
    return MODEL_DIR / "number_reader.onnx"


def number_crops(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """The network's input for ``boxes`` in a BGR (or grey) image: N x 3 x S x S, RGB, 0..255."""
    return rgb_crops(bgr, boxes, NUMBER_SIZE, NUMBER_MARGIN)


def glyphs_and_features(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N x ``GLYPHS`` glyph probabilities, N x F features) of the network's input ``x``
    (``number_crops``); the features are the head's pooled input, which a table's memory of its
    own dice compares (``vision.dice.tune``)."""
    if not len(x):
        return np.zeros((0, GLYPHS), np.float32), np.zeros((0, 0), np.float32)
    p, f = load_net(number_path()).run_all(x, ("p", "features"))
    return np.asarray(p, np.float32).reshape(len(x), GLYPHS), np.asarray(f, np.float32).reshape(len(x), -1)


def turned_crops(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]], turns: int) -> np.ndarray:
    """The network's input for ``boxes`` turned ``turns`` evenly spaced ways, the first as cut:
    T x N x 3 x S x S. A quarter turn is the crop turned exactly (``np.rot90``); any other turn is
    a wider crop turned about its centre and cut to the same side, so every turn sees the same
    scale."""
    plain = number_crops(bgr, boxes)
    out = np.empty((turns, *plain.shape), np.float32)
    wide: np.ndarray | None = None
    big = 2 * math.ceil(NUMBER_SIZE * math.sqrt(2) / 2) + 2
    for k in range(turns):
        angle = 360.0 * k / turns
        if (angle / 90.0).is_integer():
            out[k] = np.rot90(plain, int(angle // 90) % 4, axes=(2, 3))
            continue
        if wide is None:
            wide = rgb_crops(bgr, boxes, big, NUMBER_MARGIN * big / NUMBER_SIZE).transpose(0, 2, 3, 1)
        m = np.asarray(cv2.getRotationMatrix2D(((big - 1) / 2, (big - 1) / 2), angle, 1.0), np.float64)  # middle pixel
        m[:, 2] -= (big - NUMBER_SIZE) / 2
        for j, w in enumerate(wide):
            turned = cv2.warpAffine(np.ascontiguousarray(w), m, (NUMBER_SIZE, NUMBER_SIZE), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
            out[k, j] = turned.transpose(2, 0, 1)
    return out


def read_turned(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]], turns: int) -> np.ndarray:
    """T x N x ``GLYPHS`` glyph probabilities of the dice in ``boxes``, the crop read at
    ``turns`` evenly spaced turns (``turned_crops``)."""
    if not boxes:
        return np.zeros((turns, 0, GLYPHS), np.float32)
    x = turned_crops(bgr, boxes, turns)
    out = load_net(number_path()).run(x.reshape(-1, *x.shape[2:]))
    return np.asarray(out, np.float32).reshape(turns, len(boxes), GLYPHS)


def read_glyphs(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]], turns: int = 1) -> np.ndarray:
    """N x ``GLYPHS`` probabilities of the glyph on the top face of the dice in ``boxes``; with
    ``turns`` above 1 (``DiceConfig.number_turns``) the mean over that many evenly spaced turns
    of the crop (a die's numbers are printed at any angle, so every turn is a fair look)."""
    if turns > 1:
        return np.asarray(read_turned(bgr, boxes, turns).mean(axis=0), np.float32)
    x = number_crops(bgr, boxes)
    if not len(x):
        return np.zeros((0, GLYPHS), np.float32)
    out = load_net(number_path()).run(x)
    return np.asarray(out, np.float32).reshape(len(x), GLYPHS)


def values_of(glyphs: np.ndarray, kind: str) -> np.ndarray:
    """A die's value probabilities (value 1 first) from its glyph probabilities: the glyphs
    ``kind`` can show (a d10's 0 is its 10). Not renormalised: what the network put on glyphs
    the type cannot show is doubt."""
    n = FACES[kind]
    out = glyphs[..., 1:n + 1].copy()
    if kind == "d10":
        out[..., 9] = glyphs[..., 0]
    return out
