"""How the detector's input is scaled: large frames down, small dice areas up."""

from __future__ import annotations

import pytest

from vision.dice.finder import detector_scale
from vision.dice.types import DiceConfig


@pytest.mark.parametrize(
    ("h", "w", "expected"),
    [
        (720, 1280, 0.5),  # whole view: down to 640 on the longer side
        (640, 640, 1.0),  # a real 640x640 photo: as it is
        (448, 300, 1.0),  # at the lower bound: as it is
        (230, 225, 448 / 230),  # the synthetic table's dice area: enlarged
        (100, 80, 2.0),  # a tiny area: at most twice
    ],
)
def test_detector_scale(h: int, w: int, expected: float) -> None:
    assert detector_scale(h, w, DiceConfig()) == pytest.approx(expected)


def test_enlarging_can_be_switched_off() -> None:
    assert detector_scale(230, 225, DiceConfig(detect_max_zoom=1.0)) == 1.0
    assert detector_scale(230, 225, DiceConfig(detect_min_side=0)) == 1.0
