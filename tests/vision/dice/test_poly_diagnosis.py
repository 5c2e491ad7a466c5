"""The real numbered dice's diagnosis (benchmarks/dice_poly_diagnosis.py) and the choice of the
number reader's low-confidence agreement by leaving one real type out
(benchmarks/dice_number_rule.py): their tallies, on made-up rows (the figures themselves come
from the scripts, on ../shared/data)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from vision.dice.types import DiceConfig

WITHOUT = DiceConfig(number_agree=0.8, number_alone=2.0, number_agree_grey=(2.0, 2.0))
"""A reader without the low-confidence agreement, the number reader trusted only at 0.8 in
agreement (what the rule is chosen against in these made-up rows)."""

ROOT = Path(__file__).resolve().parents[3]


def _bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)
    spec.loader.exec_module(mod)
    return mod


def _one_hot(n: int, value: int, p: float) -> list[float]:
    q = np.full(n, (1 - p) / (n - 1))
    q[value - 1] = p
    return q.tolist()


def _row(kind: str, value: int, status: str, read_value: int | None, guess: int, face: int, number: int) -> dict[str, Any]:
    n = int(kind[1:])
    return {"photo": f"{kind}-{value}", "kind": kind, "value": value, "found": True, "box": [0, 0, 100, 100],
            "status": status, "read_kind": kind, "read_value": read_value, "guess": guess, "confidence": 0.5,
            "classifier_type": kind, "classifier_own": 0.9, "type_reader": "d4", "type_reader_p": 0.6,
            "type_reader_own": 0.1, "face": _one_hot(n, face, 0.7), "grey": _one_hot(n, guess, 0.7),
            "number": _one_hot(n, number, 0.4)}


def test_the_diagnosis_counts_each_network_and_the_readings_per_type() -> None:
    diag = _bench("dice_poly_diagnosis")
    rows = [
        _row("d10", 3, "read", 3, 3, 3, 3),      # read right
        _row("d10", 4, "read", 5, 5, 4, 4),      # read wrong; the face and number readers right
        _row("d10", 6, "unsure", None, 6, 2, 6),  # the guess right
        {"photo": "d10-7", "kind": "d10", "value": 7, "found": False},
        _row("d12", 2, "unsure", None, 12, 12, 2),
    ]
    s = diag.summary(rows)
    d10 = s["d10"]
    assert (d10["dice"], d10["found"], d10["read_right"], d10["read_wrong"]) == (4, 3, 1, 1)
    assert (d10["face_top_right"], d10["number_top_right"], d10["grey_top_right"], d10["guess_right"]) == (2, 3, 2, 2)
    assert d10["type_reader_right"] == 0 and d10["classifier_type_right"] == 3
    assert s["d12"]["number_top_right"] == 1 and s["d12"]["guess_right"] == 0
    assert s["all"]["dice"] == 5 and s["all"]["found"] == 4 and s["d8"]["dice"] == 0


def _judged(set_name: str, kind: str, value: int, grey_top: int, grey_p: float, number_top: int,
            number_p: float, true_kind: str | None = None) -> dict[str, Any]:
    n = int(kind[1:])
    return {"set": set_name, "kind": kind, "true_kind": true_kind or kind, "true_value": value,
            "raw": _one_hot(n, grey_top, grey_p), "number": _one_hot(n, number_top, number_p)}


def test_the_rule_is_chosen_without_a_wrong_read_and_strictest_on_ties() -> None:
    rule = _bench("dice_number_rule")
    cfg = WITHOUT
    dice = [
        _judged("real d10", "d10", 4, 4, 0.9, 4, 0.3),    # right at A <= 0.3, B <= 0.9
        _judged("real d10", "d10", 5, 5, 0.55, 5, 0.2),   # right at A <= 0.2, B <= 0.5
        _judged("tray d20", "d20", 7, 9, 0.95, 9, 0.25),  # wrong at A <= 0.25
    ]
    assert rule.new_reads(dice, 0.2, 0.5, cfg) == (2, 1)
    assert rule.new_reads(dice, 0.3, 0.9, cfg) == (1, 0)
    # no wrong read: A above 0.25; the most right (one), then the strictest B and A
    assert rule.choose(dice, cfg) == (0.3, 0.9, 1)
    # nothing to gain: the strictest of all (a right read of nothing)
    assert rule.choose([dice[2]], cfg) == (max(rule.A_GRID), max(rule.B_GRID), 0)
    # a die read as another type than it is counts as wrong
    mistyped = [_judged("tray d12", "d20", 7, 7, 0.95, 7, 0.5, true_kind="d12")]
    assert rule.new_reads(mistyped, 0.3, 0.9, cfg) == (0, 1)


def test_a_real_photos_smaller_dice_are_false_detections() -> None:
    rule = _bench("dice_number_rule")
    die = {**_judged("real d10", "d10", 4, 4, 0.9, 4, 0.3), "name": "D10 (A) (5).jpg", "box": [1188, 864, 210, 206]}
    lip = {**_judged("real d10", "d10", 4, 4, 0.9, 4, 0.3), "name": "D10 (A) (5).jpg", "box": [490, 1792, 116, 108]}
    render = {**_judged("tray d10", "d10", 4, 4, 0.9, 4, 0.3), "name": "tray-d10-1", "box": [0, 0, 10, 10]}
    out = rule.one_die_a_photo([die, lip, render])
    assert [d["true_kind"] for d in out] == ["d10", "none", "d10"]
    assert rule.new_reads(out, 0.25, 0.5, WITHOUT) == (2, 1)


def test_the_last_layer_tune_judges_only_the_glyphs_a_type_can_show() -> None:
    tune = _bench("number_reader_real_tune")
    assert tune.glyph_of("d10", 10) == 0 and tune.glyph_of("d12", 10) == 10
    assert list(np.flatnonzero(tune.allowed("d10"))) == list(range(10))
    assert list(np.flatnonzero(tune.allowed("d4"))) == [1, 2, 3, 4]
    # a layer that gives glyph 20 much everywhere: a d4 is judged on 1..4 (not renormalised)
    w = np.zeros((21, 2), np.float32)
    w[20] = [5.0, 5.0]
    w[3] = [8.0, 0.0]
    w[2] = [0.0, 1.0]
    f = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    got = tune.judge(w, np.zeros(21, np.float32), f, np.array([3, 4]), "d4")
    assert got["dice"] == 2 and got["top_right"] == 1
    assert got["right_0.8"] == 1 and got["wrong_0.8"] == 0 and got["wrong_0.5"] == 0



def _turned(die: dict[str, Any], first: tuple[int, float], rest: tuple[int, float]) -> dict[str, Any]:
    """``die`` with the number reader's answer at 16 turns: ``first`` (top, p) for the crop as
    cut, ``rest`` for the other 15."""
    n = int(die["kind"][1:])
    answers = [_one_hot(n, *first)] + [_one_hot(n, *rest)] * 15
    return {**die, "number": answers[0], "turned": answers}


def test_the_turned_rule_averages_evenly_spaced_turns_and_counts_every_read() -> None:
    rule = _bench("dice_number_rule")
    # the crop as cut says 3 at 0.9, every other turn 7 at 0.9 (the truth, the grey looks' top)
    die = _turned(_judged("real d12", "d12", 7, 7, 0.9, 3, 0.9), (3, 0.9), (7, 0.9))
    one, four, sixteen = (rule.rule_arrays([die], t) for t in (1, 4, 16))
    assert not one["agree"][0] and one["conf"][0] > 0.85 and not one["ok_number"][0]
    # four turns: the crop as cut and three others, 7 at (3 x 0.9 + 0.1 / 11) / 4
    assert four["agree"][0] and four["ok_number"][0] and abs(four["conf"][0] - (2.7 + 0.1 / 11) / 4) < 1e-6
    assert sixteen["conf"][0] > 0.84
    # at 4 turns read by the agreement at 0.6, not at 0.7; alone at 0.85 the crop as cut is read wrong
    assert rule.rule_reads(four, 0.6, 2.0, 2.0, 2.0) == (1, 0)
    assert rule.rule_reads(four, 0.7, 2.0, 2.0, 2.0) == (0, 0)
    assert rule.rule_reads(one, 0.5, 0.85, 2.0, 2.0) == (0, 1)


def test_the_turned_rule_is_chosen_without_a_wrong_read_and_fewest_turns_on_ties() -> None:
    rule = _bench("dice_number_rule")
    right = _turned(_judged("tray d20", "d20", 5, 5, 0.9, 5, 0.95), (5, 0.95), (5, 0.95))
    # right at every turn count: ties go to one turn and the strictest thresholds
    (turns, agree, alone, a, b), n = rule.choose_rule([right])
    assert (turns, agree, alone, n) == (1, max(rule.AGREE_GRID), 2.0, 1)
    # a die whose crop as cut names another value: only more turns read it
    flip = _turned(_judged("tray d12", "d12", 7, 7, 0.9, 3, 0.6), (3, 0.6), (7, 0.9))
    (turns, agree, alone, a, b), n = rule.choose_rule([right, flip])
    assert turns > 1 and n == 2
