"""The number reader's second look at numbered dice: an unsure d8, d10, d12 or d20 is read when
the grey looks and the number reader name the same value; real dice-polyhedral photos
(tests/fixtures/dice/polyhedral, MIT) are read where the two agree, and never read wrong."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import numbers, reader
from vision.dice.models import ModelMissingError
from vision.dice.numbers import GLYPHS, NUMBER_SIZE, number_crops, values_of
from vision.dice.reader import number_verdict
from vision.dice.types import FACES, DiceConfig

from .fixed_answers import classifier_gives, one_die_frame, type_reader_undecided

POLY = Path(__file__).resolve().parents[2] / "fixtures" / "dice" / "polyhedral"
POLY_REGION = (60, 60, 785, 832)
"""The tray in the fixture photos (dice-polyhedral's tray, the photos halved and cut around it)."""
CFG = DiceConfig()


def _probs(n: int, value: int, p: float) -> np.ndarray:
    q = np.full(n, (1 - p) / (n - 1), np.float32)
    q[value - 1] = p
    return q


def test_an_unsure_die_is_read_when_both_looks_name_its_value() -> None:
    grey = _probs(20, 17, 0.6)
    assert number_verdict(grey, _probs(20, 17, 0.85), True, CFG)[:2] == (17, True)
    assert number_verdict(grey, _probs(20, 17, 0.5), True, CFG)[:2] == (17, True)  # number_agree
    # the number reader not sure enough, or naming another value: still unsure
    assert number_verdict(grey, _probs(20, 17, 0.45), True, CFG)[1] is False
    assert number_verdict(grey, _probs(20, 11, 0.95), True, CFG)[1] is False


def test_an_unsure_die_is_read_only_when_the_roll_gives_its_type() -> None:
    # the number names a value, not the type: a barrel d4's 1 is a d12's 1 as well
    grey = _probs(10, 7, 0.6)
    assert number_verdict(grey, _probs(10, 7, 0.95), True, CFG)[:2] == (7, True)
    assert number_verdict(grey, _probs(10, 7, 0.95), False, CFG)[:2] == (7, False)


def test_the_number_reader_alone_reads_only_when_configured() -> None:
    grey = _probs(12, 9, 0.5)
    # by default it is a witness only: another value, however sure, leaves the die unsure
    assert number_verdict(grey, _probs(12, 6, 0.999), True, CFG)[:2] == (9, False)
    alone = replace(CFG, number_alone=0.9)
    assert number_verdict(grey, _probs(12, 6, 0.89), True, alone)[:2] == (9, False)
    assert number_verdict(grey, _probs(12, 6, 0.95), True, alone)[:2] == (6, True)
    # and only when the roll gives the type
    assert number_verdict(grey, _probs(12, 6, 0.999), False, alone)[:2] == (9, False)


def test_an_unsure_die_keeps_the_grey_looks_guess() -> None:
    grey = np.array([0.05, 0.5, 0.05, 0.4], np.float32)
    number = np.array([0.05, 0.1, 0.05, 0.8], np.float32)
    assert number_verdict(grey, number, True, CFG)[:2] == (2, False)


def test_a_d10_shows_its_ten_as_0_and_glyphs_a_type_cannot_show_count_as_doubt() -> None:
    g = np.zeros(GLYPHS, np.float32)
    g[0] = 0.7
    g[15] = 0.3
    d10 = values_of(g, "d10")
    assert d10.shape == (10,) and d10[9] == pytest.approx(0.7) and d10.sum() == pytest.approx(0.7)
    d20 = values_of(g, "d20")
    assert d20.shape == (20,) and d20[14] == pytest.approx(0.3) and d20.sum() == pytest.approx(0.3)


def test_number_crops_are_rgb_and_grey_images_give_three_equal_channels() -> None:
    bgr = np.zeros((100, 100, 3), np.uint8)
    bgr[:, :, 2] = 200  # red in BGR
    x = number_crops(bgr, [(30.0, 30.0, 40.0, 40.0)])
    assert x.shape == (1, 3, NUMBER_SIZE, NUMBER_SIZE)
    assert x[0, 0].mean() == pytest.approx(200) and x[0, 2].mean() == pytest.approx(0)
    g = number_crops(np.full((100, 100), 90, np.uint8), [(30.0, 30.0, 40.0, 40.0)])
    assert np.allclose(g[0, 0], g[0, 2]) and g.mean() == pytest.approx(90)


def test_a_missing_number_model_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setattr(numbers, "MODEL_DIR", tmp_path)
    with pytest.raises(ModelMissingError, match="number_reader.onnx"):
        numbers.read_glyphs(np.zeros((50, 50, 3), np.uint8), [(10.0, 10.0, 20.0, 20.0)])


def _glyphs_say(glyph: int, p: float):  # type: ignore[no-untyped-def]
    def read_glyphs(bgr: np.ndarray, boxes: list[object], turns: int = 1) -> np.ndarray:
        assert bgr.ndim == 3  # the reader hands it the colour image
        return np.tile(_probs(GLYPHS, glyph + 1, p), (len(boxes), 1))
    return read_glyphs


def test_the_reader_reads_an_unsure_d20_only_when_the_number_reader_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d20:11": 0.6, "d20:7": 0.3}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(20, 11, 0.65), (len(crops), 1)))
    frame = one_die_frame("d20")
    cfg = replace(CFG, kinds=("d20",))
    off = reader.read_dice(frame, config=replace(cfg, number_reader=False)).dice[0]
    assert off.status == "unsure"
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.9))
    on = reader.read_dice(frame, config=cfg).dice[0]
    assert (on.status, on.value) == ("read", 11)
    # with another numbered type in play the roll does not give the type: a guess, not a reading
    # (an 11 is a d12's as well as a d20's; a number from 13 up names the d20, see below)
    mixed = reader.read_dice(frame, config=replace(cfg, kinds=("d12", "d20"))).dice[0]
    assert (mixed.status, mixed.guess) == ("unsure", 11)
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(7, 0.9))
    other = reader.read_dice(frame, config=cfg).dice[0]
    assert (other.status, other.value) == ("unsure", None)


def test_the_shipped_number_reader_names_most_rendered_d20_faces_in_a_tray() -> None:
    # each face of a rendered d20 of 150-250 px once, on a dark tray (seeds never trained on):
    # its top glyph at the truth box is right for most of them
    from vision.dice.evaluate import tray_items

    right = 0
    for _name, img, truths in tray_items(20, "d20", seed=83_000):
        t = truths[0]
        p = values_of(numbers.read_glyphs(img, [t.box])[0], "d20")
        right += int(np.argmax(p)) + 1 == t.value
    assert right >= 14


def _poly(name: str) -> np.ndarray:
    img = cv2.imread(str(POLY / name))
    assert img is not None, f"fixture {name} missing"
    return img


@pytest.mark.parametrize(("name", "value"), [("d12_a_11.jpg", 11), ("d12_a_12.jpg", 12), ("d12_a_4.jpg", 4),
                                             ("d12_a_7.jpg", 7), ("d12_a_3.jpg", 3)])
def test_real_d12_the_grey_looks_leave_unsure_are_read_right_with_the_number_reader(name: str, value: int) -> None:
    cfg = DiceConfig(kinds=("d12",))
    img = _poly(name)
    before = reader.read_dice(img, POLY_REGION, replace(cfg, number_reader=False)).dice
    assert [d.status for d in before] == ["unsure"]
    after = reader.read_dice(img, POLY_REGION, cfg).dice
    assert [(d.kind, d.status, d.value) for d in after] == [("d12", "read", value)]


@pytest.mark.parametrize(("name", "kind", "value"), [("d10_a_3.jpg", "d10", 2)])
def test_real_dice_the_two_looks_disagree_on_stay_unsure(name: str, kind: str, value: int) -> None:
    # the d10 "2": neither the two looks together nor the number reader alone are sure enough
    # (the d12 "7" stayed unsure before the number reader learned the plastic look, the d12 "3"
    # before the d12 face reader did; both are read now, above)
    dice = reader.read_dice(_poly(name), POLY_REGION, DiceConfig(kinds=(kind,))).dice
    assert dice and all(d.status != "read" for d in dice)


def test_a_read_die_is_never_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:3": 0.9999}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)

    def never(*args: object) -> np.ndarray:
        raise AssertionError("the number reader was asked about a read die")
    monkeypatch.setattr(reader, "read_glyphs", never)
    die = reader.read_dice(one_die_frame("d8"), config=replace(CFG, kinds=("d8",))).dice[0]
    assert (die.status, die.value) == ("read", 3)


def test_the_number_reader_flag_turns_the_look_on_or_off_for_read_and_watch() -> None:
    import argparse

    from vision.dice.cli import _config

    assert _config(argparse.Namespace(kinds="d20", threshold=None, number_reader="off")).number_reader is False
    assert _config(argparse.Namespace(kinds=None, threshold=0.5, number_reader="off")).number_reader is False
    assert _config(argparse.Namespace(kinds=None, threshold=None, number_reader="on")).number_reader is True
    assert _config(argparse.Namespace(kinds=None, threshold=None)).number_reader is DiceConfig().number_reader


def _type_reader_says(kind: str, p: float):  # type: ignore[no-untyped-def]
    from vision.dice.models import TYPE_READER_KINDS

    def read_types(crops: list[np.ndarray], *args: object) -> np.ndarray:
        q = np.full(len(TYPE_READER_KINDS), (1 - p) / (len(TYPE_READER_KINDS) - 1), np.float32)
        q[TYPE_READER_KINDS.index(kind)] = p
        return np.tile(q, (len(crops), 1))
    return read_types


def test_a_roll_of_every_type_reads_a_d20_only_when_both_type_networks_say_d20(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d20:11": 0.6, "d20:7": 0.35}))
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(20, 11, 0.65), (len(crops), 1)))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.9))
    frame = one_die_frame("d20")
    every = CFG  # every type in play: the roll does not name the die's type
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.95))
    both = reader.read_dice(frame, config=every).dice[0]
    assert (both.kind, both.status, both.value) == ("d20", "read", 11)
    # the type reader doubting the type (or naming another), the gate at a stricter level, or
    # the type left out of number_any_roll_kinds: the die stays unsure, its guess unchanged
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.85))
    assert reader.read_dice(frame, config=every).dice[0].status == "unsure"
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.95))
    assert reader.read_dice(frame, config=replace(every, number_type_agree=0.99)).dice[0].status == "unsure"
    unnamed = reader.read_dice(frame, config=replace(every, number_any_roll_kinds=("d8",))).dice[0]
    assert (unnamed.status, unnamed.guess) == ("unsure", 11)


def test_a_roll_of_every_type_never_reads_a_d10_or_d12_by_its_number(monkeypatch: pytest.MonkeyPatch) -> None:
    # real barrel d4 and a digit d6 were typed d10 and d12 by both networks: those types need the roll
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d12:5": 0.6, "d12:8": 0.35}))
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d12", 0.999))
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(12, 5, 0.65), (len(crops), 1)))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(5, 0.95))
    frame = one_die_frame("d12")
    assert reader.read_dice(frame, config=CFG).dice[0].status == "unsure"
    named = reader.read_dice(frame, config=replace(CFG, kinds=("d12",))).dice[0]
    assert (named.status, named.value) == ("read", 5)


def test_the_classifiers_own_doubt_of_the_type_keeps_a_d8_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    # the type reader sure of d8, the classifier alone splitting it with d10: no agreement
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:4": 0.55, "d10:4": 0.4}))
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d8", 0.999))
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(8 if kind == "d8" else 10, 4, 0.65), (len(crops), 1)))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(4, 0.95))
    frame = one_die_frame("d8")
    d = reader.read_dice(frame, config=CFG).dice[0]
    assert d.kind == "d8" and d.status == "unsure"
    named = reader.read_dice(frame, config=replace(CFG, kinds=("d8",))).dice[0]
    assert (named.status, named.value) == ("read", 4)


def test_a_roll_of_every_type_reads_a_d20_the_type_reader_alone_is_sure_of(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # on real numbered photos the classifier's share of the type varies; the type reader alone at
    # 0.99 agrees a d20 (number_type_reader_alone), and the number reader must still name the value
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d20:11": 0.5, "d8:3": 0.3}))
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(20, 11, 0.65), (len(crops), 1)))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.9))
    frame = one_die_frame("d20")
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.995))
    sure = reader.read_dice(frame, config=CFG).dice[0]
    assert (sure.kind, sure.status, sure.value) == ("d20", "read", 11)
    # under its level, without the rule, or for the d8 (not listed): unsure, the guess kept
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.98))
    assert reader.read_dice(frame, config=CFG).dice[0].status == "unsure"
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.995))
    off = reader.read_dice(frame, config=replace(CFG, number_type_reader_alone=())).dice[0]
    assert (off.status, off.guess) == ("unsure", 11)


def test_a_low_confidence_agreement_reads_only_with_the_grey_looks_own_probability() -> None:
    # the grey looks' own probabilities of the type's values (not renormalised): 0.6 on 7
    raw = _probs(10, 7, 0.6) * 0.9
    first = raw / raw.sum()
    number = _probs(10, 7, 0.3)
    # off (2.0): 0.3 is far under number_agree
    assert number_verdict(first, number, True, replace(CFG, number_agree_grey=(2.0, 2.0)), raw)[:2] == (7, False)
    # the default, and a stricter one
    assert number_verdict(first, number, True, CFG, raw)[:2] == (7, True)
    low = replace(CFG, number_agree_grey=(0.25, 0.5))
    assert number_verdict(first, number, True, low, raw)[:2] == (7, True)
    # the grey looks' own probability under the second threshold, the number reader under the
    # first, another value named, no grey probabilities given, or the roll not naming the type
    assert number_verdict(first, number, True, replace(CFG, number_agree_grey=(0.25, 0.6)), raw)[1] is False
    assert number_verdict(first, number, True, replace(CFG, number_agree_grey=(0.35, 0.5)), raw)[1] is False
    assert number_verdict(first, _probs(10, 4, 0.3), True, low, raw)[:2] == (7, False)
    assert number_verdict(first, number, True, low)[1] is False
    assert number_verdict(first, number, False, low, raw)[1] is False
    # renormalising over the type does not stand in for the grey looks' own probability
    assert number_verdict(first, number, True, low, raw * 0.5)[1] is False


def test_a_low_confidence_agreement_keeps_the_grey_looks_confidence() -> None:
    raw = _probs(10, 7, 0.6) * 0.9
    low = replace(CFG, number_agree_grey=(0.25, 0.5))
    value, sure, conf = number_verdict(raw / raw.sum(), _probs(10, 7, 0.3), True, low, raw)
    assert (value, sure) == (7, True) and conf == pytest.approx(0.54)
    # the number reader's own agreement keeps its own probability
    assert number_verdict(raw / raw.sum(), _probs(10, 7, 0.9), True, low, raw)[2] == pytest.approx(0.9)


def test_a_real_d10_is_read_when_the_number_reader_agrees_with_the_grey_looks_at_low_confidence() -> None:
    # "D10 (A) (9)" shows 8: the grey looks give it 0.85, the number reader names 8 at under 0.5
    cfg = DiceConfig(kinds=("d10",))
    img = _poly("d10_a_9.jpg")
    before = reader.read_dice(img, POLY_REGION, replace(cfg, number_agree_grey=(2.0, 2.0))).dice
    die = max(before, key=lambda d: d.box[2] * d.box[3])
    assert (die.status, die.guess) == ("unsure", 8)
    after = reader.read_dice(img, POLY_REGION, cfg).dice
    die = max(after, key=lambda d: d.box[2] * d.box[3])
    assert (die.kind, die.status, die.value) == ("d10", "read", 8)
    assert all(d.status != "read" for d in after if d is not die)  # the tray's lip stays unread


def _net_once(img: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    from vision.dice.models import load_net

    return np.asarray(load_net(numbers.number_path()).run(number_crops(img, boxes)), np.float32).reshape(len(boxes), -1)


def test_one_turn_gives_exactly_the_old_reading() -> None:
    img = _poly("d12_a_11.jpg")
    box = max(reader.read_dice(img, POLY_REGION, DiceConfig(kinds=("d12",))).dice, key=lambda d: d.box[2]).box
    assert CFG.number_turns == 1
    assert np.array_equal(numbers.read_glyphs(img, [box]), _net_once(img, [box]))
    assert np.array_equal(numbers.read_glyphs(img, [box], 1), _net_once(img, [box]))


def test_turned_crops_are_the_crop_turned_evenly() -> None:
    img = _poly("d10_a_9.jpg")
    box = (300.0, 280.0, 110.0, 104.0)
    eight = numbers.turned_crops(img, [box], 8)
    assert eight.shape == (8, 1, 3, NUMBER_SIZE, NUMBER_SIZE)
    assert np.array_equal(eight[0], number_crops(img, [box]))
    for k in range(4):  # the quarter turns exactly, the eighth turns cut from a wider crop
        assert np.array_equal(eight[2 * k], np.rot90(eight[0], k, axes=(2, 3)))
    assert np.array_equal(numbers.turned_crops(img, [box], 4)[1], eight[2])
    # an eighth turn twice over is a quarter turn: the middle of the crop matches
    twice = np.rot90(eight[1], 1, axes=(2, 3))
    assert np.abs(twice - eight[3])[..., 20:-20, 20:-20].mean() < 0.15 * np.abs(eight[3] - eight[3].mean()).mean()


def test_a_crop_turned_by_a_quarter_gives_the_same_answer_at_four_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    img = _poly("d12_a_4.jpg")
    box = max(reader.read_dice(img, POLY_REGION, DiceConfig(kinds=("d12",))).dice, key=lambda d: d.box[2]).box
    plain = number_crops(img, [box])
    turned = np.ascontiguousarray(np.rot90(plain, 1, axes=(2, 3)))
    one = [numbers.read_glyphs(img, [box])]
    monkeypatch.setattr(numbers, "number_crops", lambda bgr, boxes: turned)
    # the reader's answer depends on the turn, the average over four quarter turns does not
    assert not np.allclose(numbers.read_glyphs(img, [box]), one[0], atol=1e-3)
    at_four = numbers.read_glyphs(img, [box], 4)
    monkeypatch.setattr(numbers, "number_crops", lambda bgr, boxes: plain)
    assert np.allclose(at_four, numbers.read_glyphs(img, [box], 4), atol=1e-5)


def test_the_numbered_pass_reads_at_the_configured_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d20:13": 0.6, "d20:7": 0.3}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(20, 13, 0.65), (len(crops), 1)))
    asked: list[int] = []

    def read_glyphs(bgr: np.ndarray, boxes: list[object], turns: int = 1) -> np.ndarray:
        asked.append(turns)
        return np.tile(_probs(GLYPHS, 14, 0.9), (len(boxes), 1))
    monkeypatch.setattr(reader, "read_glyphs", read_glyphs)
    cfg = replace(CFG, kinds=("d20",))
    for turns in (1, 4, 16):
        die = reader.read_dice(one_die_frame("d20"), config=replace(cfg, number_turns=turns)).dice[0]
        assert (die.status, die.value, asked[-1]) == ("read", 13, turns)


def test_a_number_only_a_d20_has_reads_the_die_as_a_d20_roll_whatever_its_type(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the grey looks take the die for a d8 (a rendered plastic d20 often looks so); the number
    # reader sees a 14, which no other type has: the view is read again with the d20 alone
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:4": 0.6, "d20:14": 0.3}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(8, 4, 0.65) if kind == "d8" else _probs(20, 14, 0.65), (len(crops), 1)))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(14, 0.95))
    frame = one_die_frame("d20")
    die = reader.read_dice(frame, config=CFG).dice[0]
    assert (die.kind, die.status, die.value) == ("d20", "read", 14)
    # off, a roll without the d20, or a number the d12 has as well: the first look stands
    off = reader.read_dice(frame, config=replace(CFG, number_names_d20=2.0)).dice[0]
    assert (off.kind, off.status, off.guess) == ("d8", "unsure", 4)
    no_d20 = reader.read_dice(frame, config=replace(CFG, kinds=("d6", "d8", "d12"))).dice[0]
    assert (no_d20.kind, no_d20.status) == ("d8", "unsure")
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.95))
    eleven = reader.read_dice(frame, config=CFG).dice[0]
    assert (eleven.kind, eleven.status) == ("d8", "unsure")
    # the d20 look must still agree: a d20 roll whose face reader names another value leaves it
    # unsure, as a d20, its guess the number that made it one
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(17, 0.95))
    doubt = reader.read_dice(frame, config=CFG).dice[0]
    assert (doubt.kind, doubt.status, doubt.value, doubt.guess) == ("d20", "unsure", None, 17)


def test_a_die_read_as_a_type_without_the_number_it_shows_is_left_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    # the grey looks are sure of a d8's 4; the number reader sees an 11, which a d8 does not have
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:4": 0.995}))
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d8", 0.999))
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(FACES[kind], 4, 0.999), (len(crops), 1)))
    frame = one_die_frame("d8")
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(4, 0.9))
    assert reader.read_dice(frame, config=CFG).dice[0].value == 4
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.9))
    vetoed = reader.read_dice(frame, config=CFG).dice[0]
    assert (vetoed.kind, vetoed.status, vetoed.value) == ("d8", "unsure", None)
    # a roll that names the d8 (the number reader is not asked about a read die), or the veto off
    assert reader.read_dice(frame, config=replace(CFG, kinds=("d8",))).dice[0].value == 4
    assert reader.read_dice(frame, config=replace(CFG, number_type_veto=2.0)).dice[0].value == 4


def test_a_die_the_numbered_pass_asked_about_is_not_read_again_for_its_type(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # an unsure d20 the type reader alone agrees on: the numbered pass asks the number reader, which
    # is not sure enough; the type check after it uses that answer instead of reading the die again
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d20:11": 0.5, "d8:3": 0.3}))
    monkeypatch.setattr(reader, "read_types", _type_reader_says("d20", 0.995))
    monkeypatch.setattr(reader, "read_faces", lambda kind, crops, below=0.97: np.tile(
        _probs(FACES[kind], 11 if kind == "d20" else 3, 0.65), (len(crops), 1)))
    asked: list[int] = []
    say = _glyphs_say(11, 0.08)  # under number_agree_grey's least

    def read_glyphs(bgr: np.ndarray, boxes: list[object], turns: int = 1) -> np.ndarray:
        asked.append(len(boxes))
        return say(bgr, boxes, turns)
    monkeypatch.setattr(reader, "read_glyphs", read_glyphs)
    die = reader.read_dice(one_die_frame("d20"), config=CFG).dice[0]
    assert (die.kind, die.status, die.guess) == ("d20", "unsure", 11)
    assert sum(asked) == 1


def _d20_reader_says(value: int, p: float, mass: float):  # type: ignore[no-untyped-def]
    """The d20 face reader puts ``mass`` on its values (the rest on "not a d20"), ``p`` of it on
    ``value``; the other types' readers name ``value`` (or 3) surely."""
    def read_faces(kind: str, crops: list[np.ndarray], below: float = 0.97) -> np.ndarray:
        if kind != "d20":
            return np.tile(_probs(FACES[kind], min(value, FACES[kind]), 0.999), (len(crops), 1))
        q = np.full(20, (mass - p) / 19, np.float32)
        q[value - 1] = p
        return np.tile(q, (len(crops), 1))
    return read_faces


RULE = replace(CFG, face_reader_names_type=(0.95, 0.95, 0.5))


def test_the_d20_face_reader_reads_a_d20_the_classifier_takes_for_a_d8_in_a_d20_roll(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the classifier gives the d20 a fifth of its probability: its face reader was never asked, and
    # the d20's values could not reach a threshold whatever that reader said
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:3": 0.75, "d20:3": 0.1, "d20:13": 0.1}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(13, 0.97, 0.99))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(13, 0.8))
    frame = one_die_frame("d20")
    roll = replace(RULE, kinds=("d20",))
    die = reader.read_dice(frame, config=roll).dice[0]
    assert (die.kind, die.status, die.value) == ("d20", "read", 13)
    assert die.confidence == pytest.approx(0.97, abs=1e-3)
    off = reader.read_dice(frame, config=replace(roll, face_reader_names_type=(2.0, 2.0, 2.0))).dice[0]
    assert (off.kind, off.status) == ("d20", "unsure")
    # the number reader names another number: unsure, but the kiosk pre-fills the d20 reader's value
    # (the classifier alone would guess 3 or 13 by a hair)
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(18, 0.8))
    doubt = reader.read_dice(frame, config=roll).dice[0]
    assert (doubt.kind, doubt.status, doubt.value, doubt.guess) == ("d20", "unsure", None, 13)
    # each of the three witnesses under its level leaves the die unsure
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(13, 0.4))
    assert reader.read_dice(frame, config=roll).dice[0].status == "unsure"
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(13, 0.8))
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(13, 0.9, 0.99))
    assert reader.read_dice(frame, config=roll).dice[0].status == "unsure"
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(13, 0.9, 0.9))
    assert reader.read_dice(frame, config=roll).dice[0].status == "unsure"


def test_the_d20_face_reader_takes_a_read_d8_for_a_d20_only_for_a_number_no_d8_has(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every type allowed: the grey looks read a d8's 3 (a plastic d20 looks so to them)
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:3": 0.995}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    frame = one_die_frame("d20")
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.9))
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(11, 0.98, 0.99))
    d20 = reader.read_dice(frame, config=RULE).dice[0]
    assert (d20.kind, d20.status, d20.value) == ("d20", "read", 11)
    # a number a d8 has: the reading stands, whatever the d20 face reader says (a rendered d8
    # showing 1 was a d20's 1 to it and to the number reader)
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(3, 0.9))
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(3, 0.98, 0.99))
    d8 = reader.read_dice(frame, config=RULE).dice[0]
    assert (d8.kind, d8.status, d8.value) == ("d8", "read", 3)
    # the d20 reader's "not a d20" takes most of it: a d8 stays a d8 (here left unsure by the
    # number check that follows, which finds an 11 on a die read as a d8)
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(11, 0.9))
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(11, 0.3, 0.31))
    doubted = reader.read_dice(frame, config=replace(RULE, number_names_d20=2.0)).dice[0]
    assert (doubted.kind, doubted.status) == ("d8", "unsure")
    # a roll without the d20 never asks
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(11, 0.98, 0.99))
    assert reader.read_dice(frame, config=replace(RULE, kinds=("d6", "d8"))).dice[0].kind == "d8"


def test_the_d20_face_reader_never_retypes_a_d10_or_a_read_d12(monkeypatch: pytest.MonkeyPatch) -> None:
    # a rendered d10 showing 6 was taken for a d20's 6 by the d20 face reader and the number reader
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(6, 0.99, 0.999))
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(6, 0.95))
    frame = one_die_frame("d10")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d10:6": 0.6, "d10:5": 0.3}))
    d10 = reader.read_dice(frame, config=RULE).dice[0]
    assert (d10.kind, d10.status) == ("d10", "unsure")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d12:6": 0.995}))
    d12 = reader.read_dice(frame, config=RULE).dice[0]
    assert (d12.kind, d12.status, d12.value) == ("d12", "read", 6)


def test_in_a_roll_of_one_type_that_types_face_reader_reads_a_die_the_classifier_took_for_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a d12 roll; the classifier calls the die a d20 (it did so for real d12 at 0.97-1.0), so the
    # d12's values never reach a threshold and the d12 face reader was not asked in the first look
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d20:7": 0.8, "d12:7": 0.05, "d12:1": 0.06}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    asked: list[str] = []

    def read_faces(kind: str, crops: list[np.ndarray], below: float = 0.97) -> np.ndarray:
        asked.append(kind)
        return np.tile(_probs(FACES[kind], 7, 0.99), (len(crops), 1))
    monkeypatch.setattr(reader, "read_faces", read_faces)
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(7, 0.6))
    frame = one_die_frame("d12")
    roll = replace(RULE, kinds=("d12",))
    die = reader.read_dice(frame, config=roll).dice[0]
    assert (die.kind, die.status, die.value) == ("d12", "read", 7)
    assert asked == ["d12"]
    # the number reader names another number: unsure, the guess the d12 reader's 7, not the
    # classifier's 1
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(9, 0.6))
    doubt = reader.read_dice(frame, config=roll).dice[0]
    assert (doubt.kind, doubt.status, doubt.guess) == ("d12", "unsure", 7)
    off = reader.read_dice(frame, config=replace(roll, face_reader_names_type=(2.0, 2.0, 2.0))).dice[0]
    assert (off.status, off.guess) == ("unsure", 1)
    # with two numbered types in play only the d20 rule applies: a d12 is not asked
    monkeypatch.setattr(reader, "read_glyphs", _glyphs_say(7, 0.6))
    mixed = reader.read_dice(frame, config=replace(RULE, kinds=("d10", "d12"))).dice[0]
    assert mixed.status == "unsure"


def test_a_die_too_small_for_the_number_reader_gets_only_its_guess_from_its_types_face_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the die (60 px) under number_min_px: never read by the face reader's own look, but the kiosk
    # pre-fills that reader's value; the number reader is not asked
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d8:3": 0.75, "d20:3": 0.1, "d20:13": 0.1}))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(13, 0.99, 0.999))

    def never(*args: object) -> np.ndarray:
        raise AssertionError("the number reader was asked about a die under its least size")
    monkeypatch.setattr(reader, "read_glyphs", never)
    small = replace(RULE, kinds=("d20",), number_min_px=100.0)
    die = reader.read_dice(one_die_frame("d20"), config=small).dice[0]
    assert (die.kind, die.status, die.value, die.guess) == ("d20", "unsure", None, 13)
    # a face reader that does not take the die for its type leaves the grey looks' guess
    monkeypatch.setattr(reader, "read_faces", _d20_reader_says(13, 0.5, 0.6))
    doubt = reader.read_dice(one_die_frame("d20"), config=small).dice[0]
    assert (doubt.status, doubt.guess) == ("unsure", 3)
