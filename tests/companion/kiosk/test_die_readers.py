"""A roll of registered die kinds (block, scatter ...) is read by that kind's reader."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.core.dice import BLOCK, D6, SCATTER, DicePrompt
from companion.kiosk import die_readers
from companion.kiosk.dice_flow import DiceEntry
from companion.kiosk.table_feed import TableProcessor


class FakeReader:
    def __init__(self, kinds: tuple[str, ...] = ()) -> None:
        self.kinds = kinds
        self.region: Any = (1, 2, 30, 40)
        self.board_to_frame: Any = None
        self.frames = 0

    def update(self, frame: Any) -> None:
        self.frames += 1

    def reset(self) -> None:
        pass


def test_block_and_scatter_dice_have_a_reader_and_numbered_dice_do_not() -> None:
    assert {"block", "scatter"} <= set(die_readers.registered())
    assert die_readers.factory_for(("block", "block")) is not None
    assert die_readers.factory_for(("scatter",)) is not None
    assert die_readers.factory_for(("d6", "d6")) is None
    assert die_readers.factory_for(("block", "d6")) is None  # a mixed roll: no one reader for it
    assert die_readers.factory_for(()) is None
    with pytest.raises(ValueError, match="non-empty string"):
        die_readers.register("", FakeReader)


def test_the_kinds_reader_reads_their_roll_and_the_numbered_reader_comes_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[FakeReader] = []

    def factory(kinds: tuple[str, ...]) -> FakeReader:
        made.append(FakeReader(kinds))
        made[-1].region = None
        return made[-1]

    monkeypatch.setitem(die_readers._READERS, "block", factory)
    numbered = FakeReader()
    processor = TableProcessor(numbered, None)  # type: ignore[arg-type]
    processor.expect_dice((6, 6), ("block", "block"))
    assert processor.dice is made[0] and made[0].kinds == ("block", "block")
    assert made[0].region == (1, 2, 30, 40)  # the dice area carries over
    processor(np.zeros((48, 64, 3), np.uint8))
    assert made[0].frames == 1 and numbered.frames == 0
    processor.expect_dice((6, 6), ("block", "block"))
    assert len(made) == 1  # the same roll again: the same reader
    processor.expect_dice((6,), ("d6",))
    assert processor.dice is numbered
    processor.expect_dice(None)
    assert processor.dice is numbered


def test_a_reader_that_cannot_start_leaves_the_numbered_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(kinds: tuple[str, ...]) -> FakeReader:
        raise RuntimeError("model missing")

    monkeypatch.setitem(die_readers._READERS, "scatter", broken)
    numbered = FakeReader()
    processor = TableProcessor(numbered, None)  # type: ignore[arg-type]
    processor.expect_dice((8,), ("scatter",))
    assert processor.dice is numbered
    assert any("model missing" in e for e in processor.errors)


def test_the_dice_pad_knows_its_kinds_names() -> None:
    entry = DiceEntry(DicePrompt(0, (BLOCK, BLOCK, SCATTER, D6), "block"), "Ann", True, lambda v: None)  # type: ignore[arg-type,return-value]
    assert entry.kinds == ("block", "block", "scatter", "d6")
    assert entry.sides == (6, 6, 8, 6)
    assert BLOCK.label(4) == "pushed" and SCATTER.label(1) == "N" and SCATTER.label(8) == "NW"
