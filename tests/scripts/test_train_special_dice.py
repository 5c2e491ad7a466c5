"""The special dice training script's batch drawing (scripts/train_special_dice.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_special_dice", ROOT / "scripts" / "train_special_dice.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_special_dice", mod)
    spec.loader.exec_module(mod)
    return mod


def test_none_crops_are_drawn_as_often_as_they_come_unless_weighted() -> None:
    draw_weights = _script().draw_weights
    labels = np.array([0, 0, 0, 1, 6, 6])
    assert draw_weights(labels, 1.0) is None  # every crop alike
    p = draw_weights(labels, 0.5)
    assert p is not None and abs(float(p.sum()) - 1.0) < 1e-9
    # three "none" crops at half weight against three dice: a quarter of a batch is "none"
    assert float(p[labels == 0].sum()) == pytest.approx(1.5 / 4.5)
    assert p[0] == pytest.approx(p[3] / 2)


def test_a_none_weight_of_zero_is_refused_with_what_to_pass() -> None:
    with pytest.raises(SystemExit, match="--none-weight must be above 0"):
        _script().draw_weights(np.array([0, 1]), 0.0)
