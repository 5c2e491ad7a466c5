"""Rendered dice of every type: reading, colour names, touching dice, cocked dice."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice import DiceConfig, read_dice
from vision.dice.evaluate import evaluate_synthetic
from vision.synthetic.dice import DieSpec, DieTruth, draw_die, render_dice_scene


def test_draw_die_returns_truth_inside_canvas() -> None:
    rng = np.random.default_rng(0)
    canvas = np.zeros((200, 300, 3), np.uint8)
    truth = draw_die(canvas, DieSpec("d20", 17, (150, 100), 60, angle=33, colour="blue"), rng)
    assert isinstance(truth, DieTruth)
    x, y, w, h = truth.box
    assert 110 <= x <= 130 and 60 <= y <= 80 and 50 <= w <= 70 and 50 <= h <= 70
    assert (truth.kind, truth.value, truth.colour) == ("d20", 17, "blue")
    assert canvas.any()


def test_scene_is_reproducible() -> None:
    a, ta = render_dice_scene(np.random.default_rng(4), (320, 240), n_dice=3)
    b, tb = render_dice_scene(np.random.default_rng(4), (320, 240), n_dice=3)
    assert np.array_equal(a, b) and ta == tb


@pytest.mark.parametrize("kind", ["d4", "d6", "d8", "d10", "d12", "d20"])
def test_each_kind_reads(kind: str) -> None:
    report = evaluate_synthetic(
        12, seed=500 + len(kind), kinds=(kind,), size=(640, 480), cocked_rate=0.0,
        die_px=(44.0, 72.0),
    ).to_dict()
    r = report["by_kind"][kind]
    assert r["recall"] >= 0.9
    # measured with the committed models (numbered values by the face readers): d4 1.0,
    # d6 0.97, d8 0.98, d10 0.99, d12 0.99, d20 0.93 (was 0.10 with the classifier alone)
    assert r["right"] >= RIGHT_FLOOR[kind]
    assert r["wrong_n"] <= 1


RIGHT_FLOOR = {"d4": 0.94, "d6": 0.92, "d8": 0.93, "d10": 0.94, "d12": 0.94, "d20": 0.87}


def test_touching_dice_are_separated() -> None:
    # three touching ivory d6: the previous detector found two (this was a known miss)
    rng = np.random.default_rng(11)
    img = np.full((240, 400, 3), (50, 100, 40), np.uint8)
    for i, v in enumerate((2, 5, 6)):
        draw_die(img, DieSpec("d6", v, (130 + i * 61, 120), 60, angle=0, colour="ivory"), rng)
    obs = read_dice(img)
    assert all(d.value in (None, 2, 5, 6) for d in obs.dice)
    assert len(obs.dice) == 3
    assert all(d.value in (None, v) for d, v in zip(obs.dice, (2, 5, 6), strict=True))


def test_colour_names() -> None:
    rng = np.random.default_rng(2)
    img = np.full((240, 480, 3), (200, 200, 200), np.uint8)
    colours = ["red", "blue", "green", "black"]
    for i, c in enumerate(colours):
        draw_die(img, DieSpec("d6", 4, (70 + i * 110, 120), 64, colour=c), rng)
    obs = read_dice(img)
    assert [d.colour for d in obs.dice] == colours


def test_kinds_setting_limits_the_types() -> None:
    rng = np.random.default_rng(5)
    img = np.full((240, 320, 3), (50, 100, 40), np.uint8)
    draw_die(img, DieSpec("d6", 3, (160, 120), 64, colour="white"), rng)
    obs = read_dice(img, config=DiceConfig(kinds=("d6",)))
    assert [d.kind for d in obs.dice] == ["d6"]
    assert obs.dice[0].value in (None, 3)


def test_cocked_die_is_not_read() -> None:
    rng = np.random.default_rng(9)
    bad = 0
    for i in range(8):
        img = np.full((240, 320, 3), (50, 100, 40), np.uint8)
        draw_die(img, DieSpec("d6", 1 + i % 6, (160, 120), 64, angle=i * 20.0, colour="white",
                              tilt=0.42, cocked=True), rng)
        obs = read_dice(img)
        bad += sum(d.value is not None for d in obs.dice)
    assert bad <= 1
