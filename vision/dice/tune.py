"""Learning a table's own dice: confirmed rolls kept as examples, and an adaptation fitted on them.

Every roll a person confirms at the table is a labelled example of that table's dice under its
camera and light. :class:`ExampleStore` keeps each confirmed d6 as a small crop (the d6
reader's 64x64 grey crop, a PNG of about 3 kB) named after its value, in a folder with a size
cap (the oldest examples go first). :func:`fit` adapts the d6 reader to them: a small
correction added to the reader's logits, linear in the reader's 96-number summary of the crop,
fitted with numpy in well under a second on a few hundred examples (on a Pi too), and pulled
towards no change so that a few examples cannot undo what the reader knew. The result is saved
beside the examples (``adaptation.npz``) and given to the reader as
``DiceConfig(d6_table=Adaptation.load(folder))``.

``companion dice tune`` fits it; ``companion dice learn`` adds examples from photos of one die
showing a known face (the "show me each face" set-up of a new die set).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .d6head import EMBED_DIM, EMBED_SIZE, embed, grey_crops

ADAPTATION_FILE = "adaptation.npz"
_NAME = re.compile(r"^(\d+)-d6-([1-6])\.png$")


class TuneError(ValueError):
    """Bad input to the table's learning: the message says what was wrong and what to do."""


@dataclass(frozen=True)
class Adaptation:
    """A correction to the d6 reader's logits: ``logits + embedding @ weight + bias``."""

    weight: np.ndarray  # 96 x 6
    bias: np.ndarray  # 6
    examples: int = 0

    def logits(self, logits: np.ndarray, embedding: np.ndarray) -> np.ndarray:
        return np.asarray(logits + embedding.astype(np.float64) @ self.weight + self.bias)

    def save(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        return self.save_file(folder / ADAPTATION_FILE)

    def save_file(self, path: Path) -> Path:
        tmp = path.with_name(path.stem + ".tmp.npz")
        np.savez(tmp, weight=self.weight, bias=self.bias, examples=np.array(self.examples))
        tmp.replace(path)  # never a half-written adaptation
        return path

    @staticmethod
    def load(folder: str | Path) -> Adaptation | None:
        """The adaptation saved in ``folder``, or None when there is none."""
        path = Path(folder) / ADAPTATION_FILE
        return Adaptation.load_file(path) if path.is_file() else None

    @staticmethod
    def load_file(path: Path) -> Adaptation:
        try:
            d = np.load(path)
            w, b = np.asarray(d["weight"], np.float64), np.asarray(d["bias"], np.float64)
        except (OSError, ValueError, KeyError) as exc:
            raise TuneError(f"{path} is damaged ({exc}): delete it and run 'companion dice tune' again") from exc
        if w.shape != (EMBED_DIM, 6) or b.shape != (6,):
            raise TuneError(f"{path} does not fit this d6 reader: delete it and run 'companion dice tune' again")
        return Adaptation(w, b, int(d["examples"]))


class ExampleStore:
    """Confirmed d6 crops in ``folder`` (``NNNNNNNNNN-d6-V.png``, the d6 reader's 64x64 grey
    crop), at most ``max_bytes`` in all."""

    def __init__(self, folder: str | Path, max_bytes: int = 20_000_000) -> None:
        self.folder = Path(folder)
        self.max_bytes = max_bytes

    def add_crop(self, crop: np.ndarray, value: int) -> Path:
        """Keep one confirmed die: its crop and the value a person confirmed."""
        if not 1 <= int(value) <= 6:
            raise TuneError(f"a d6 shows 1 to 6, not {value}: give the value the die shows")
        if crop.shape != (EMBED_SIZE, EMBED_SIZE) or crop.dtype != np.uint8:
            raise TuneError(f"an example is a {EMBED_SIZE}x{EMBED_SIZE} grey uint8 crop, not "
                            f"{crop.shape} {crop.dtype}: cut it with vision.dice.d6head.grey_crops")
        self.folder.mkdir(parents=True, exist_ok=True)
        n = max([self._number(p) for p in self.paths()] + [int(time.time() * 1000) % 10**10 - 1]) + 1
        path = self.folder / f"{n:010d}-d6-{int(value)}.png"
        if not cv2.imwrite(str(path), crop):
            raise TuneError(f"cannot write {path}: check the folder is writable")
        self._cap()
        return path

    def add_roll(self, grey: np.ndarray, boxes: Iterable[tuple[float, float, float, float]],
                 values: Iterable[int]) -> int:
        """Keep the dice of one confirmed roll (their boxes in the frame and confirmed values);
        returns how many were kept."""
        boxes, values = list(boxes), list(values)
        if len(boxes) != len(values):
            raise TuneError(f"{len(boxes)} dice but {len(values)} values: give one value per die")
        crops = grey_crops(grey, boxes)
        for c, v in zip(crops, values, strict=True):
            self.add_crop(c, v)
        return len(boxes)

    def paths(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.iterdir() if _NAME.match(p.name))

    def load(self) -> tuple[np.ndarray, np.ndarray]:
        """(N x 64 x 64 grey crops, N values), oldest first; unreadable files are skipped."""
        crops, values = [], []
        for p in self.paths():
            img = cv2.imread(str(p), cv2.IMREAD_GRAYSCALE)
            m = _NAME.match(p.name)
            if img is None or m is None or img.shape != (EMBED_SIZE, EMBED_SIZE):
                continue
            crops.append(img)
            values.append(int(m.group(2)))
        if not crops:
            return np.zeros((0, EMBED_SIZE, EMBED_SIZE), np.uint8), np.zeros(0, np.int64)
        return np.stack(crops), np.array(values, np.int64)

    @staticmethod
    def _number(p: Path) -> int:
        m = _NAME.match(p.name)
        return int(m.group(1)) if m else 0

    def _cap(self) -> None:
        paths = self.paths()
        sizes = [p.stat().st_size for p in paths]
        total = sum(sizes)
        for p, s in zip(paths, sizes, strict=True):
            if total <= self.max_bytes:
                break
            p.unlink(missing_ok=True)
            total -= s


def fit(logits: np.ndarray, emb: np.ndarray, values: np.ndarray, l2: float = 1.0,
        steps: int = 300, lr: float = 0.5) -> Adaptation:
    """The correction that best explains the confirmed ``values`` (1..6) from the reader's
    ``logits`` and ``emb``: full-batch gradient descent on the cross-entropy plus ``l2`` times
    the squared size of the correction per example seen (few examples: a small correction)."""
    if len(values) == 0:
        raise TuneError("no confirmed dice to learn from: confirm some rolls at the table, or "
                        "run 'companion dice learn' with photos of each face")
    if np.any((values < 1) | (values > 6)):
        raise TuneError("a d6 example must have a value 1 to 6")
    n = len(values)
    x = emb.astype(np.float64)
    scale = float(np.sqrt((x ** 2).sum(axis=1).mean())) or 1.0
    x = x / scale
    y = np.eye(6)[values - 1]
    w = np.zeros((x.shape[1], 6))
    b = np.zeros(6)
    reg = l2 / n
    for _ in range(steps):
        z = logits + x @ w + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / n
        w -= lr * (x.T @ g + reg * w)
        b -= lr * (g.sum(axis=0) + reg * b)
    return Adaptation(w / scale, b, n)


def tune_folder(folder: str | Path, l2: float = 1.0) -> tuple[Adaptation, dict[str, float]]:
    """Fit and save the adaptation of the examples in ``folder`` (on top of the shipped head);
    returns it and what it did on those examples (top value right before and after; a check,
    not a measurement)."""
    from .d6head import shipped_head

    crops, values = ExampleStore(folder).load()
    logits, emb = embed(crops)
    if (head := shipped_head()) is not None:
        logits = head.logits(logits, emb)  # type: ignore[attr-defined]
    ad = fit(logits, emb, values, l2)
    ad.save(Path(folder))
    before = float((logits.argmax(1) + 1 == values).mean()) if len(values) else 0.0
    after = float((ad.logits(logits, emb).argmax(1) + 1 == values).mean()) if len(values) else 0.0
    return ad, {"examples": float(len(values)), "top_right_before": before, "top_right_after": after}
