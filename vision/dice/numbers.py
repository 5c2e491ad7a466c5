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

from pathlib import Path

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


def read_glyphs(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """N x ``GLYPHS`` probabilities of the glyph on the top face of the dice in ``boxes``."""
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
