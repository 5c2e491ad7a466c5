"""YOLO-labelled dice photos (the Rune55 layout) and the split by source photo.

A folder holds ``images/NAME.jpg`` and ``labels/NAME.txt`` (one ``CLASS CX CY W H`` line per die,
fractions of the image; CLASS 0..5 is the d6 value 1..6). Roboflow exports hold several augmented
copies of one photo named ``STEM.rf.HASH.jpg``; any split must be by STEM, never by file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DEFAULT_REAL_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-rune55"
"""``../shared/data/dice-rune55`` beside the project checkout."""

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


@dataclass(frozen=True)
class LabelledDie:
    box: tuple[float, float, float, float]  # x, y, w, h in pixels
    kind: str
    value: int


@dataclass(frozen=True)
class LabelledImage:
    path: Path
    stem: str
    dice: tuple[LabelledDie, ...]


RUNE55_ERRATA: dict[str, dict[int, tuple[int, int]]] = {
    # image file stem -> {die index in its label file: (value as labelled, value the die shows)}
    # Checked by eye (docs/vision-dice.md, "Label errata"): a five labelled two in all three
    # copies of one 00054 photo, a five labelled three in both copies of one 00077 photo (all
    # five in the eval split); a three labelled five in both copies of one 00059 photo (tune
    # split: the other four files named 00059 are other photos, and their labels are right).
    "00054_jpg.rf.a505c9ac74e5e7ab578f34a73f6af48c": {1: (2, 5)},
    "00054_jpg.rf.7f2da79db0140652ca2d612cdf32002a": {1: (2, 5)},
    "00054_jpg.rf.d38655ef190e8e80f77c314bffd2b764": {1: (2, 5)},
    "00077_jpg.rf.1ba5c681db1351f32b70f66ae14fdbde": {2: (3, 5)},
    "00077_jpg.rf.c3a8fa3b3e6320db6a2854f6b569e0ed": {2: (3, 5)},
    "00059_jpg.rf.5079f8c464b760de598b8e22349cf033": {0: (5, 3)},
    "00059_jpg.rf.a2c53a1b9b7a5f6d0098ddf14151febd": {0: (5, 3)},
}
"""Rune55 labels that are wrong. Every figure is first given as labelled; evaluation with
``errata=True`` reads these dice as what they show, and says how many it changed."""


def apply_errata(path: Path, dice: tuple[LabelledDie, ...]) -> tuple[LabelledDie, ...]:
    """``dice`` with the :data:`RUNE55_ERRATA` of this image applied. An erratum changes a
    label only if it still holds the wrong value the erratum names, so another folder's file
    of the same name is left alone."""
    fixes = RUNE55_ERRATA.get(path.stem)
    if not fixes:
        return dice
    out = list(dice)
    for i, (was, now) in fixes.items():
        if i < len(out) and out[i].value == was:
            out[i] = LabelledDie(box=out[i].box, kind=out[i].kind, value=now)
    return tuple(out)


def stem_of(name: str) -> str:
    """The source-photo stem of a Roboflow export name (the part before ``.rf.``)."""
    base = Path(name).name
    return base.split(".rf.")[0] if ".rf." in base else Path(base).stem


def split_of(stem: str, eval_percent: int = 25) -> str:
    """'eval' or 'tune' for a stem, fixed by a hash so every script agrees on the split."""
    h = int(hashlib.md5(stem.encode()).hexdigest()[:8], 16) % 100
    return "eval" if h < eval_percent else "tune"


def calib_of(stem: str) -> bool:
    """A tune-split stem held back from every network's training to choose thresholds and
    candidates on (about 20%; the trainers' ``calib_of``). The dice detector is the exception:
    it has always trained on the whole tune split of Rune55."""
    return int(hashlib.sha1(stem.encode()).hexdigest()[:8], 16) % 100 < 20


def part_of(stem: str) -> str:
    """'eval', 'calib' or 'train' for a stem (``split_of``, then ``calib_of`` within 'tune')."""
    if split_of(stem) == "eval":
        return "eval"
    return "calib" if calib_of(stem) else "train"


def read_labels(path: Path, width: int, height: int) -> tuple[LabelledDie, ...]:
    dice = []
    if not path.exists():
        return ()
    for line in path.read_text().split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        cls = int(float(parts[0]))
        cx, cy, w, h = (float(p) for p in parts[1:])
        box = ((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)
        dice.append(LabelledDie(box=box, kind="d6", value=cls + 1))
    return tuple(dice)


def iter_folder(
    folder: str | Path, split: str | None = None, size: tuple[int, int] = (640, 640),
    errata: bool = False,
) -> Iterator[LabelledImage]:
    """Labelled images of a YOLO folder in name order; ``split`` 'tune'/'eval' keeps one part
    (or 'calib'/'train', the two parts of 'tune': :func:`part_of`).

    ``size`` is the (width, height) the label fractions refer to; Rune55 images are all 640x640
    (an image of another size is measured when it is read, see :func:`load`). ``errata``
    corrects the labels known to be wrong (:data:`RUNE55_ERRATA`).
    """
    folder = Path(folder)
    image_dir = folder / "images" if (folder / "images").is_dir() else folder
    label_dir = folder / "labels" if (folder / "labels").is_dir() else folder
    for path in sorted(image_dir.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        stem = stem_of(path.name)
        if split is not None and (part_of(stem) if split in ("calib", "train") else split_of(stem)) != split:
            continue
        dice = read_labels(label_dir / (path.stem + ".txt"), *size)
        if errata:
            dice = apply_errata(path, dice)
        yield LabelledImage(path=path, stem=stem, dice=dice)
