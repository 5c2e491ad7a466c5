"""The synthetic table (``vision.synthetic.table``, the kiosk demo's camera) throws 16 mm d6 on
the board's middle; the dice reader must read them from that dice area at full resolution.

Floors sit a little under the measured figures (docs/vision-dice.md) so a regression fails.
"""

from __future__ import annotations

import pytest

from vision.dice import DiceConfig
from vision.dice.evaluate import REGISTRATION_JITTER, evaluate_table, table_items

pytest.importorskip("vision.synthetic.table", reason="the synthetic table needs vision.board")

N_FRAMES = 16


@pytest.fixture(scope="module")
def table_report() -> dict[str, object]:
    # read as the kiosk reads a move: it asks the reader for two d6; each frame's dice area at
    # the offsets the kiosk's registration tolerance allows
    return evaluate_table(N_FRAMES, seed=900, config=DiceConfig(kinds=("d6",)),
                          shifts=REGISTRATION_JITTER).to_dict()


def test_table_truth_boxes_are_die_sized() -> None:
    _name, img, region, truths = next(table_items(1, seed=5))
    assert img.shape == (720, 1280, 3)
    x, y, w, h = region
    assert 0 <= x and 0 <= y and x + w <= 1280 and y + h <= 720
    assert len(truths) == 2
    for t in truths:
        assert 10 <= t.box[2] <= 30 and 10 <= t.box[3] <= 30
        assert x <= t.box[0] and t.box[0] + t.box[2] <= x + w


def test_the_tables_dice_are_found_and_read(table_report: dict[str, object]) -> None:
    total = table_report["all"]
    assert isinstance(total, dict)
    assert table_report["errors"] == 0
    assert total["dice"] == 2 * N_FRAMES * len(REGISTRATION_JITTER)
    assert total["recall"] >= TABLE_FLOORS["recall"], total
    assert total["right"] >= TABLE_FLOORS["right"], total
    assert total["wrong_n"] <= TABLE_FLOORS["wrong_n"], total


TABLE_FLOORS = {"recall": 0.86, "right": 0.95, "wrong_n": 0}
"""Measured with the committed models on these 16 frames at the 5 offsets, read as a d6 roll
(commit 53a37f0): 144 of 160 dice found (0.90), 141 of the 144 read right (0.979), the rest unsure,
none wrong (docs/vision-dice.md has the 60-frame benchmark)."""
