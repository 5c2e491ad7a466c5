"""The screen's training script (scripts/train_special_screen.py): it refuses the tuning and
evaluation seeds, and labels the finder's candidates by the truth (a die within half its side)."""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from script_module import load

from vision.special_dice.nets import SCREEN_CROP
from vision.synthetic.special_dice import render_scene


def _script() -> ModuleType:
    return load("train_special_screen")


@pytest.mark.parametrize("first", [2_999_990, 3_500_000, 6_400_000, 7_000_000])
def test_tuning_and_evaluation_seeds_are_refused(first: int) -> None:
    with pytest.raises(SystemExit):
        _script()._check_seeds(first, 20)


def test_training_seeds_are_accepted() -> None:
    _script()._check_seeds(700_000, 2400)


def test_candidates_are_labelled_a_die_within_half_its_side(tmp_path: Path) -> None:
    out = tmp_path / "s.npz"
    _script().render(2, 700_000, out)
    data = np.load(out)
    assert data["crops"].shape[1:] == (SCREEN_CROP, SCREEN_CROP)
    assert len(data["label"]) == len(data["heat"]) == len(data["side"]) == len(data["frame"])
    assert 0 < int(data["label"].sum()) < len(data["label"])  # dice and other candidates
    # the first frame (block dice, as rendered): every die-labelled candidate lies near a die
    rng = np.random.default_rng(700_000)
    _, truth = render_scene(rng, kinds=("block",), distractors=None)
    dice = [(d.centre[0], d.centre[1], float(max(d.box[2], d.box[3]))) for d in truth.dice]
    first = data["frame"] == 0
    assert int(data["label"][first].sum()) >= 1
    assert int(data["label"][first].sum()) <= len(dice)
    assert all(math.isfinite(float(h)) for h in data["heat"])
