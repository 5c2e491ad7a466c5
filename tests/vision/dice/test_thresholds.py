"""Per-type read thresholds (``DiceConfig.kind_read_thresholds``) and the face readers' place in
``read_dice``: the logic, with the networks' answers fixed by monkeypatching (the type reader's
with no opinion, so the classifier's type stands)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.dice.reader as reader
from vision.dice import DiceConfig, read_dice
from vision.dice.labels import CLASSES, class_of

from .fixed_answers import classifier_says, one_die_frame, type_reader_undecided


def test_threshold_for_falls_back_to_the_read_threshold() -> None:
    cfg = DiceConfig(read_threshold=0.9, kind_read_thresholds=(("d12", 0.8),))
    assert cfg.threshold_for("d12") == 0.8
    assert cfg.threshold_for("d6") == 0.9
    assert DiceConfig(kind_read_thresholds=()).threshold_for("d20") == DiceConfig().read_threshold


def test_a_types_own_threshold_decides_whether_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    img = one_die_frame("d12")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(class_of("d12", 7), 0.9))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    # the classifier's answer alone (the d12's face reader is tested with the real models)
    low = read_dice(img, config=DiceConfig(read_threshold=0.98, kind_read_thresholds=(("d12", 0.85),),
                                           face_readers=()))
    assert [(d.kind, d.value, d.status) for d in low.dice] == [("d12", 7, "read")]
    high = read_dice(img, config=DiceConfig(read_threshold=0.5, kind_read_thresholds=(("d12", 0.95),),
                                            face_readers=()))
    assert [(d.value, d.status) for d in high.dice] == [(None, "unsure")]
    # another type's threshold does not apply to this one
    other = read_dice(img, config=DiceConfig(read_threshold=0.98, kind_read_thresholds=(("d6", 0.5),),
                                             face_readers=()))
    assert [(d.value, d.status) for d in other.dice] == [(None, "unsure")]


def test_a_die_at_the_edge_still_needs_the_edge_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    img = one_die_frame("d12")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(class_of("d12", 7), 0.9))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    cfg = DiceConfig(kind_read_thresholds=(("d12", 0.85),), edge_read_threshold=0.99, face_readers=())
    obs = read_dice(img, config=cfg)
    assert obs.dice[0].status == "read"
    x, y, w, h = obs.dice[0].box
    # the same die with the frame's edge two pixels into it
    edge = read_dice(np.ascontiguousarray(img[:, x + 2 :]), config=cfg)
    assert [d.status for d in edge.dice] == ["unsure"]
    # a region's edge there is no frame edge: the reader sees past it
    inside = read_dice(img, region=(x + 2, 0, 640 - x - 2, 480), config=cfg)
    assert [d.status for d in inside.dice] == ["read"]


def test_the_d20_face_reader_reads_the_value_of_a_die_typed_d20(monkeypatch: pytest.MonkeyPatch) -> None:
    img = one_die_frame("d20")
    d20 = [i for i, c in enumerate(CLASSES) if c.startswith("d20:")]

    def typed_d20_unsure_of_value(crops, *args):  # type: ignore[no-untyped-def]
        p = np.zeros((len(crops), len(CLASSES)), np.float32)
        p[:, d20] = 0.96 / 20
        p[:, class_of("d8", 3)] = 0.04
        return p

    calls: list[int] = []

    def faces(kind, crops, *turn_below):  # type: ignore[no-untyped-def]
        assert kind == "d20"
        calls.append(len(crops))
        q = np.full((len(crops), 20), 0.01 / 19, np.float32)
        q[:, 17 - 1] = 0.99
        return q

    monkeypatch.setattr(reader, "classify_with_turns", typed_d20_unsure_of_value)
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", faces)
    cfg = DiceConfig(kind_read_thresholds=(("d20", 0.9),))
    obs = read_dice(img, config=cfg)
    assert [(d.kind, d.value, d.status) for d in obs.dice] == [("d20", 17, "read")]
    # the d20 share (0.96) times the reader's confidence (0.99)
    assert obs.dice[0].confidence == pytest.approx(0.96 * 0.99, abs=1e-5)
    assert calls == [1]
    # without the d20 reader the classifier's own spread-out d20 classes decide: unsure
    off = read_dice(img, config=DiceConfig(kind_read_thresholds=(("d20", 0.9),), face_readers=()))
    assert [d.status for d in off.dice] == ["unsure"]
    # at a roll with no d20 the d20 reader is not asked at all
    read_dice(img, config=DiceConfig(kinds=("d6",)))
    assert calls == [1]


def test_the_d20_face_reader_leaves_dice_not_typed_d20_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    img = one_die_frame("d12")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(class_of("d12", 11), 0.99))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)

    def never(kind, crops):  # type: ignore[no-untyped-def]
        raise AssertionError(f"the {kind} face reader was asked about a d12")

    monkeypatch.setattr(reader, "read_faces", never)
    obs = read_dice(img, config=DiceConfig(face_readers=("d20",)))
    assert [(d.kind, d.value) for d in obs.dice] == [("d12", 11)]


def test_a_value_the_classifier_is_sure_of_skips_the_face_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    img = one_die_frame("d20")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(class_of("d20", 17), 0.99))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    asked: list[int] = []

    def faces(kind, crops, *turn_below):  # type: ignore[no-untyped-def]
        asked.append(len(crops))
        return np.full((len(crops), 20), 1 / 20, np.float32)

    monkeypatch.setattr(reader, "read_faces", faces)
    obs = read_dice(img, config=DiceConfig(face_reader_skip_above=0.98))
    assert [(d.kind, d.value, d.status) for d in obs.dice] == [("d20", 17, "read")] and asked == []
    # a stricter setting asks the face reader, whose doubt (1/20 each) then makes the die unsure
    obs = read_dice(img, config=DiceConfig(face_reader_skip_above=0.995, face_reader_names_type=(2.0, 2.0, 2.0)))
    # asked at the first look, and again at the second look the unsure die gets
    assert [(d.value, d.status) for d in obs.dice] == [(None, "unsure")] and asked == [1, 1]
    # and once more by the d20's own look at an unsure d20 (step 15), whose doubt keeps it unsure
    asked.clear()
    obs = read_dice(img, config=DiceConfig(face_reader_skip_above=0.995))
    assert [(d.value, d.status) for d in obs.dice] == [(None, "unsure")] and asked == [1, 1, 1]


def test_by_default_a_value_the_classifier_gives_098_is_still_checked_by_the_face_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the numbered set's one confident-wrong die (before b522543): a d8 the classifier called "d10:2"
    # at 0.98, which skipped the d10 reader; the reader's doubt must get a say
    img = one_die_frame("d8")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(class_of("d10", 2), 0.984))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    asked: list[str] = []

    def faces(kind, crops, *turn_below):  # type: ignore[no-untyped-def]
        asked.append(kind)
        row = np.zeros(10, np.float32)
        row[1] = 0.5  # half on the value 2 (index 1), the other half on "not a d10"
        return np.tile(row, (len(crops), 1))

    monkeypatch.setattr(reader, "read_faces", faces)
    obs = read_dice(img)
    assert asked == ["d10", "d10"]  # the first look and the unsure die's second look
    assert [(d.value, d.status) for d in obs.dice] == [(None, "unsure")]


def test_the_rendered_d8_once_read_as_a_d10_is_no_longer_read_wrong() -> None:
    # the real networks on the frame where it was found (the benchmark's numbered set, frame
    # 20008): read as "d10:2" at 0.980 when the d10 reader was skipped
    from vision.dice.evaluate import synthetic_items
    from vision.dice.finder import iou

    name, img, truths = next(synthetic_items(1, 20_008, cocked_rate=0.0, kinds=("d4", "d8", "d10", "d12", "d20")))
    (d8,) = [t for t in truths if t.kind == "d8" and t.value == 2]
    # the classifier and the face readers alone leave it unsure, with the right guess
    obs = read_dice(img, config=DiceConfig(type_reader=False))
    (die,) = [d for d in obs.dice if iou(d8.box, d.box) > 0.3]
    assert die.status == "unsure" and die.value is None
    assert die.guess == 2
    # the type reader calls it a d8, and the d8 reader then reads it
    (die,) = [d for d in read_dice(img).dice if iou(d8.box, d.box) > 0.3]
    assert (die.kind, die.value, die.status) == ("d8", 2, "read")


def test_a_d12_nine_the_classifier_calls_six_is_checked_by_its_face_reader() -> None:
    # found in a d12 roll set (100 frames of seed 81,000, no test or benchmark set): the
    # classifier gives "d12:6" 0.9995 to this d12 showing an underlined 9; while values above
    # 0.995 skipped the face reader it was read confidently wrong; the d12 reader reads it 9
    from vision.dice.evaluate import synthetic_items

    _, img, truths = next(synthetic_items(1, 81_050, kinds=("d12",), cocked_rate=0.0))
    assert (truths[0].box[:2], truths[0].value) == ((607.0, 54.0), 9)
    for config in (DiceConfig(kinds=("d12",)), DiceConfig()):
        obs = read_dice(img, config=config)
        near = [d for d in obs.dice if abs(d.box[0] - 607) < 15 and abs(d.box[1] - 54) < 15]
        assert len(near) == 1 and near[0].guess == 9, near
        assert near[0].status != "read" or near[0].value == 9


def test_a_close_up_d12_the_classifier_is_sure_is_a_d20_is_shown_to_the_type_reader() -> None:
    # a rendered d12 of 150-250 px alone in a dark tray (the tray set's frame 80021): the
    # classifier types it d20 past the skip, and read so it was "d20:10", confidently wrong;
    # the type reader calls it a d12, and a die this large is always shown to it
    from dataclasses import replace
    from itertools import islice

    from vision.dice.evaluate import tray_items

    name, img, truths = list(islice(tray_items(22, "d12"), 21, 22))[0]
    assert name == "tray-d12-80021" and truths[0].value == 10
    skipping = read_dice(img, None, replace(DiceConfig(), type_reader_always_px=100_000))
    # skipped, the classifier's type stands (the d20 face reader read it "10" until it learned
    # the plastic look; it is unsure of it now)
    assert [d.kind for d in skipping.dice] == ["d20"]
    (die,) = read_dice(img).dice
    assert die.status != "read" or (die.kind, die.value) == ("d12", 10)
