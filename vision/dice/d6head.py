"""The d6 head: the d6 reader's judgement adapted to the real photos, and to each table's dice.

The d6 face reader (``face_reader_d6.onnx``) ends in a 96-number summary of the crop (its
global average pool) and one dense layer to the six values. ``d6_embed.onnx`` is the same
network with that summary as a second output. A *head* is a correction added to the reader's
six logits, linear in the summary (:class:`vision.dice.tune.Adaptation`): the shipped one,
``d6_head.npz``, is fitted on every real photo the project may train on (the Rune55 grey
photos and the dice-colour-epanemu colour photos, split by source photo;
``scripts/train_d6_head.py``), and a table's own one on its confirmed rolls
(``companion dice tune``). Fitting a head takes numpy and well under a second, on a Pi too.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from .models import MODEL_DIR, crop_square, load_net

EMBED_SIZE = 64
"""The side of the grey crop the d6 face reader sees."""
EMBED_MARGIN = 1.0
"""Its crop: the box itself (a pip sits near the face's corner)."""
EMBED_DIM = 96


def embed_path() -> Path:
    """The d6 face reader with its summary as a second output."""
    return MODEL_DIR / "d6_embed.onnx"


def head_path() -> Path:
    """The shipped head (``scripts/train_d6_head.py``)."""
    return MODEL_DIR / "d6_head.npz"


def grey_crops(grey: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """The d6 face reader's crops of ``boxes`` in a grey image."""
    if not boxes:
        return np.zeros((0, EMBED_SIZE, EMBED_SIZE), np.uint8)
    return np.stack([crop_square(grey, b, EMBED_SIZE, EMBED_MARGIN) for b in boxes])


def embed(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N x 6 logits, N x 96 summaries) of grey crops, normalised as the reader does."""
    if not len(crops):
        return np.zeros((0, 6)), np.zeros((0, EMBED_DIM), np.float32)
    net = load_net(embed_path())
    logits, embs = [], []
    for i in range(0, len(crops), 256):
        x = crops[i:i + 256].astype(np.float32) * (1.0 / 255.0)
        mean = x.mean(axis=(1, 2), keepdims=True)
        std = x.std(axis=(1, 2), keepdims=True)
        out, emb = net.run_all(((x - mean) / (std + 0.02))[:, None], ("output", "embedding"))
        logits.append(out.reshape(len(x), -1)[:, :6])
        embs.append(emb.reshape(len(x), -1))
    return np.concatenate(logits).astype(np.float64), np.concatenate(embs).astype(np.float32)


@functools.cache
def shipped_head() -> object | None:
    """The shipped head (a ``tune.Adaptation``), or None when the models folder has none."""
    from .tune import Adaptation

    path = head_path()
    return Adaptation.load_file(path) if path.is_file() else None


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def read_d6(grey: np.ndarray, boxes: list[tuple[float, float, float, float]],
            table: object | None = None, shipped: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(N x 6 value probabilities, value 1 first; N x 96 summaries) of the d6 in ``boxes``: the
    d6 face reader's logits, corrected by the shipped head (``shipped``) and then by the
    table's own (``table``, a ``tune.Adaptation``)."""
    logits, emb = embed(grey_crops(grey, boxes))
    if shipped and (head := shipped_head()) is not None:
        logits = head.logits(logits, emb)  # type: ignore[attr-defined]
    if table is not None:
        logits = table.logits(logits, emb)  # type: ignore[attr-defined]
    return softmax(logits).astype(np.float32), emb
