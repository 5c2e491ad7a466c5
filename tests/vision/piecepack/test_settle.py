"""The piecepack dice settler: a roll once the dice lie still and read the same, once per roll."""

from __future__ import annotations

import numpy as np

from vision.piecepack.evaluate import HELD_OUT_SEED
from vision.piecepack.settle import PiecepackDiceSettler
from vision.synthetic.piecepack import render_dice_area


def test_a_still_roll_is_reported_once_with_dice_only() -> None:
    f = render_dice_area(HELD_OUT_SEED + 900_200, n_dice=2, n_coins=2)
    settler = PiecepackDiceSettler()
    rolls = [r for r in (settler.update(f.image) for _ in range(8)) if r is not None]
    assert len(rolls) == 1
    assert len(rolls[0].dice) == 2 and all(d.kind == "die" for d in rolls[0].pieces)
    assert settler.state == "settled"


def test_moving_dice_start_a_new_roll() -> None:
    a = render_dice_area(HELD_OUT_SEED + 900_201, n_dice=1, n_coins=0)
    b = render_dice_area(HELD_OUT_SEED + 900_202, n_dice=1, n_coins=0)
    settler = PiecepackDiceSettler()
    first = [settler.update(a.image) for _ in range(6)]
    assert sum(r is not None for r in first) == 1
    assert settler.update(b.image) is None and settler.state == "moving"
    second = [settler.update(b.image) for _ in range(6)]
    assert sum(r is not None for r in second) == 1


def test_an_empty_dice_area_reports_no_roll() -> None:
    settler = PiecepackDiceSettler()
    frame = np.full((360, 640, 3), 90, np.uint8)
    assert all(settler.update(frame) is None for _ in range(8))
