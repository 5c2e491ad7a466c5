"""The type reader (``reader.with_type_reader``): how its answer re-weighs a numbered die's type,
with the network's answer fixed by monkeypatching, and the shipped network itself."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.dice.reader as reader
from vision.dice import DiceConfig, read_dice
from vision.dice.labels import CLASSES, class_of
from vision.dice.models import CLASSIFIER_SIZE, TYPE_READER_KINDS, crop_square, type_reader_path
from vision.dice.types import FACES
from vision.synthetic.dice import DieSpec, draw_die

from .fixed_answers import classifier_gives, one_die_frame

CROPS = [np.zeros((CLASSIFIER_SIZE, CLASSIFIER_SIZE), np.uint8)]


def _probs(answer: dict[str, float]) -> np.ndarray:
    p = np.zeros((1, len(CLASSES)), np.float32)
    for name, v in answer.items():
        p[0, CLASSES.index(name)] = v
    return p


def _type_reader_says(answer: dict[str, float], asked: list[int] | None = None):  # type: ignore[no-untyped-def]
    def read_types(crops, *args):  # type: ignore[no-untyped-def]
        if asked is not None:
            asked.append(len(crops))
        return np.tile(np.array([answer.get(k, 0.0) for k in TYPE_READER_KINDS], np.float32), (len(crops), 1))
    return read_types


def _share(p: np.ndarray, kind: str) -> float:
    return float(sum(p[0, i] for i, c in enumerate(CLASSES) if c.split(":")[0] == kind))


def test_a_doubted_type_the_type_reader_confirms_gains_share(monkeypatch: pytest.MonkeyPatch) -> None:
    p = _probs({"d8:5": 0.5, "d8:3": 0.1, "d10:5": 0.3, "cocked": 0.1})
    monkeypatch.setattr(reader, "read_types", _type_reader_says({"d8": 0.99, "d10": 0.01}))
    out = reader.with_type_reader(CROPS, p)
    # the numbered share (0.9) stays; the split goes from 0.6 : 0.3 to 2/3 * 0.99 : 1/3 * 0.01
    a, b = 0.6 / 0.9 * 0.99, 0.3 / 0.9 * 0.01
    assert _share(out, "d8") == pytest.approx(0.9 * a / (a + b), abs=1e-5)
    assert _share(out, "d8") + _share(out, "d10") == pytest.approx(0.9, abs=1e-5)
    # each type keeps the classifier's spread over its values; cocked is untouched
    d8 = out[0, class_of("d8", 5)] / out[0, class_of("d8", 3)]
    assert d8 == pytest.approx(5.0, rel=1e-4)
    assert out[0, CLASSES.index("cocked")] == pytest.approx(0.1)
    assert p[0, class_of("d8", 5)] == pytest.approx(0.5)  # the input is not changed


def test_a_type_the_type_reader_contradicts_loses_share(monkeypatch: pytest.MonkeyPatch) -> None:
    p = _probs({"d10:2": 0.9, "d8:2": 0.08})
    monkeypatch.setattr(reader, "read_types", _type_reader_says({"d8": 0.9, "d10": 0.1}))
    out = reader.with_type_reader(CROPS, p)
    assert _share(out, "d10") < 0.8 and _share(out, "d8") > 0.15


def test_a_type_the_classifier_is_sure_of_or_a_die_not_numbered_skips_it(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    monkeypatch.setattr(reader, "read_types", _type_reader_says({"d8": 1.0}, asked))
    sure = _probs({"d10:2": 0.99995, "d8:2": 0.00004})
    assert reader.with_type_reader(CROPS, sure) is sure
    d6 = _probs({"d6:4": 0.6, "d8:4": 0.2, "d10:4": 0.2})  # numbered share 0.4: not typed numbered
    assert reader.with_type_reader(CROPS, d6) is d6
    assert asked == []
    assert reader.with_type_reader(CROPS, sure, sure=0.999999) is not sure and asked == [1]
    # 0.998 on one type is not sure enough to skip it (the skip was once 0.995)
    almost = _probs({"d10:8": 0.998, "d12:8": 0.002})
    assert reader.with_type_reader(CROPS, almost) is not almost and asked == [1, 1]


def test_a_type_the_classifier_gave_nothing_is_spread_evenly_over_its_values(monkeypatch: pytest.MonkeyPatch) -> None:
    p = _probs({"d8:1": 0.6, "d10:1": 0.4})
    monkeypatch.setattr(reader, "read_types", _type_reader_says({"d8": 0.5, "d10": 0.25, "d12": 0.25}))
    out = reader.with_type_reader(CROPS, p)
    # the classifier gave d12 nothing, so the product gives it nothing either
    assert _share(out, "d12") == 0.0
    assert np.isfinite(out).all() and out.sum() == pytest.approx(1.0, abs=1e-5)


def test_read_dice_asks_it_only_when_a_numbered_type_can_be_in_the_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    img = one_die_frame("d8")
    monkeypatch.setattr(reader, "classify_with_turns",
                        classifier_gives({"d8:5": 0.7, "d10:5": 0.29}))
    asked: list[int] = []
    monkeypatch.setattr(reader, "read_types", _type_reader_says({"d8": 1.0}, asked))
    cfg = DiceConfig(face_readers=())
    obs = read_dice(img, config=cfg)
    # 0.7 : 0.29 with the reader's 1 : 0 gives the d8 the whole numbered share (0.99 + the rest)
    assert asked == [1] and [(d.kind, d.value, d.status) for d in obs.dice] == [("d8", 5, "read")]
    asked.clear()
    obs = read_dice(img, config=DiceConfig(face_readers=(), type_reader=False))
    assert asked == [] and [(d.kind, d.status) for d in obs.dice] == [("d8", "unsure")]
    obs = read_dice(img, config=DiceConfig(face_readers=(), kinds=("d6",)))
    assert asked == []


def test_the_shipped_type_reader_knows_clean_dice_of_every_numbered_type() -> None:
    assert type_reader_path().exists()
    rng = np.random.default_rng(3)
    crops, truth = [], []
    for k, kind in enumerate(TYPE_READER_KINDS):
        for value in range(1, FACES[kind] + 1, max(1, FACES[kind] // 4)):
            canvas = np.full((160, 160, 3), (60, 110, 50), np.uint8)
            box = draw_die(canvas, DieSpec(kind, value, (80, 80), 56, angle=float(rng.uniform(0, 360)),
                                           colour="ivory"), rng).box
            crops.append(crop_square(cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY), tuple(float(v) for v in box)))
            truth.append(k)
    p = reader.read_types(crops)
    assert p.shape == (len(crops), len(TYPE_READER_KINDS))
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-3)
    right = float(np.mean(p.argmax(axis=1) == np.array(truth)))
    assert right >= 0.9, p.argmax(axis=1)


def test_the_shipped_type_reader_settles_a_rendered_d8_the_classifier_half_takes_for_another_type() -> None:
    # found by comparing the reader with and without the type reader on 60 frames of seed
    # 70,000 (no test or benchmark set): four dice went from unsure to read right, none the
    # other way; this d8 showing 2 reads 0.79 without it
    from vision.dice.evaluate import synthetic_items
    from vision.dice.finder import iou

    name, img, truths = next(synthetic_items(1, 70_005, cocked_rate=0.0, kinds=TYPE_READER_KINDS))
    off = read_dice(img, config=DiceConfig(type_reader=False)).dice
    on = read_dice(img).dice
    (d8,) = [t for t in truths if t.kind == "d8" and t.value == 2
             and any(iou(t.box, d.box) > 0.3 and d.status == "unsure" for d in off)]
    (die,) = [d for d in on if iou(d8.box, d.box) > 0.3]
    assert (die.kind, die.value, die.status) == ("d8", 2, "read")
    # and nothing it read before is read differently now
    assert sum(d.status == "read" for d in on) == sum(d.status == "read" for d in off) + 1


def test_a_d12_boxed_by_its_top_face_is_not_read_as_a_d10() -> None:
    # found by reading 100 rendered frames of seed 40,000 (no test or benchmark set): the
    # detector boxed only this d12's pentagon top face (44 px of 62), the classifier took the
    # crop for a d10 "8" at 0.998, and while the type reader was skipped above 0.995 the die was
    # read confidently wrong; shown to the type reader it is left unsure (guess 8)
    from vision.dice.evaluate import synthetic_items

    _, img, truths = next(synthetic_items(1, 40_008, kinds=("d4", "d8", "d10", "d12", "d20"),
                                          cocked_rate=0.0))
    d12 = next(t for t in truths if t.box[:2] == (521.0, 238.0))
    assert (d12.kind, d12.value) == ("d12", 8)
    obs = read_dice(img)
    near = [d for d in obs.dice if abs(d.box[0] - 521) < 20 and abs(d.box[1] - 238) < 20]
    assert len(near) == 1
    die = near[0]
    assert die.status != "read" or (die.kind, die.value) == ("d12", 8), die
    assert die.guess == 8
