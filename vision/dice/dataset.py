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


def stem_of(name: str) -> str:
    """The source-photo stem of a Roboflow export name (the part before ``.rf.``)."""
    base = Path(name).name
    return base.split(".rf.")[0] if ".rf." in base else Path(base).stem


def split_of(stem: str, eval_percent: int = 25) -> str:
    """'eval' or 'tune' for a stem, fixed by a hash so every script agrees on the split."""
    h = int(hashlib.md5(stem.encode()).hexdigest()[:8], 16) % 100
    return "eval" if h < eval_percent else "tune"


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
    folder: str | Path, split: str | None = None, size: tuple[int, int] = (640, 640)
) -> Iterator[LabelledImage]:
    """Labelled images of a YOLO folder in name order; ``split`` 'tune'/'eval' keeps one part.

    ``size`` is the (width, height) the label fractions refer to; Rune55 images are all 640x640
    (an image of another size is measured when it is read, see :func:`load`).
    """
    folder = Path(folder)
    image_dir = folder / "images" if (folder / "images").is_dir() else folder
    label_dir = folder / "labels" if (folder / "labels").is_dir() else folder
    for path in sorted(image_dir.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        stem = stem_of(path.name)
        if split is not None and split_of(stem) != split:
            continue
        dice = read_labels(label_dir / (path.stem + ".txt"), *size)
        yield LabelledImage(path=path, stem=stem, dice=dice)
