"""The settler reports a roll once it has lain still for a few frames."""

from __future__ import annotations

import numpy as np

from vision.special_dice import SpecialDiceSettler
from vision.synthetic.special_dice import render_scene


def test_a_still_roll_is_reported_once_after_three_frames() -> None:
    img, _ = render_scene(np.random.default_rng(7_000_500), kinds=("block",), n_dice=2, effects=0.3)
    settler = SpecialDiceSettler(("block",))
    got = [settler.update(img) for _ in range(5)]
    assert got[0] is None and got[1] is None
    assert got[2] is not None and len(got[2].dice) == 2
    assert got[3] is None and got[4] is None  # once per roll
    assert settler.state == "settled"
    settler.reset()
    assert settler.state == "waiting" and settler.update(img) is None


def test_an_empty_table_never_settles() -> None:
    blank = np.full((360, 640, 3), 90, np.uint8)
    settler = SpecialDiceSettler()
    assert all(settler.update(blank) is None for _ in range(4))
    assert settler.state == "waiting"
