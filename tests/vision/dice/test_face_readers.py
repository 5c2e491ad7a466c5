"""The shipped face readers (``vision/dice/models/face_reader_*.onnx``): one per die type in
``DiceConfig().face_readers`` (the numbered types and the pipped d6), each
answering over that type's faces, and the reading networks' size budget (the classifier, the
face readers and the type reader)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import DiceConfig
from vision.dice.models import (
    CLASSIFIER_PATH,
    CLASSIFIER_SIZE,
    crop_square,
    face_margin,
    face_reader_path,
    type_reader_path,
)
from vision.dice.reader import _softmax_of, read_faces
from vision.dice.types import FACES
from vision.synthetic.dice import DieSpec, draw_die

READERS = DiceConfig().face_readers


def test_every_die_type_has_a_face_reader() -> None:
    assert set(READERS) == {"d4", "d6", "d8", "d10", "d12", "d20"}


def _clean_faces(kind: str) -> list[np.ndarray]:
    """Face-reader crops of a large ivory ``kind`` showing each of its values in turn (1 first)."""
    rng = np.random.default_rng(FACES[kind])
    crops = []
    for value in range(1, FACES[kind] + 1):
        canvas = np.full((160, 160, 3), (60, 110, 50), np.uint8)
        truth = draw_die(canvas, DieSpec(kind, value, (80, 80), 64, angle=float(rng.uniform(0, 360)),
                                         colour="ivory"), rng)
        grey = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
        crops.append(crop_square(grey, tuple(float(v) for v in truth.box), CLASSIFIER_SIZE, face_margin(kind)))
    return crops


@pytest.mark.parametrize("kind", READERS)
def test_a_face_reader_reads_its_own_faces(kind: str) -> None:
    values = list(range(1, FACES[kind] + 1))
    p = read_faces(kind, _clean_faces(kind))
    assert p.shape == (FACES[kind], FACES[kind])
    # a reader with a "not this type" output gives it almost nothing for its own clean faces
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-2)
    right = float(np.mean(p.argmax(axis=1) + 1 == np.array(values)))
    # a clean, large, ivory die of every face: nearly all read right (measured: all)
    assert right >= 0.9, (kind, p.argmax(axis=1) + 1)


def test_the_reading_networks_fit_in_five_megabytes() -> None:
    total = (CLASSIFIER_PATH.stat().st_size + type_reader_path().stat().st_size
             + sum(face_reader_path(k).stat().st_size for k in READERS))
    assert total < 5 * 1024 * 1024, total


def _outputs(kind: str) -> int:
    return int(_softmax_of([np.zeros((CLASSIFIER_SIZE, CLASSIFIER_SIZE), np.uint8)], face_reader_path(kind), 0).shape[1])


def test_the_d4_d10_d12_and_d20_readers_say_when_a_die_is_not_theirs() -> None:
    # trained with the other numbered types' faces as a last "not this type" output
    # (scripts/train_face_reader.py --negatives): a mistyped die keeps no value of theirs
    for kind in ("d4", "d10", "d12", "d20"):
        assert _outputs(kind) == FACES[kind] + 1, kind
        for other in ("d4", "d8", "d10", "d12", "d20"):
            if other == kind:
                continue
            p = read_faces(kind, _clean_faces(other))
            # measured: under 0.001 of every row for every other type
            assert float(p.sum(axis=1).max()) < 0.1, (kind, other, p.sum(axis=1))
