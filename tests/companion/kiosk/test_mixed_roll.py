"""A roll mixing a numbered die with block or scatter dice (a Dungeonbowl living ball: a D6 and
a scatter die) is read by both readers at once (``companion/kiosk/mixed_roll.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from companion.kiosk import die_readers
from companion.kiosk.mixed_roll import MixedRollReader, merge
from companion.kiosk.table_feed import TableProcessor


@dataclass(frozen=True)
class Die:
    box: tuple[int, int, int, int]
    kind: str
    value: int | None
    status: str = "read"
    guess: int | None = None


@dataclass(frozen=True)
class Obs:
    dice: tuple[Die, ...]
    status: str = "ok"


D6_AT_LEFT = Die((100, 100, 30, 30), "d6", 4, guess=4)
SCATTER_AT_RIGHT = Die((300, 100, 40, 40), "scatter", 7, guess=7)
SCATTER_SEEN_AS_D6 = Die((305, 104, 34, 33), "d6", None, "unsure", guess=3)


def test_the_dice_come_in_the_rolls_order_of_kinds_and_a_die_seen_by_both_counts_once() -> None:
    out = merge(Obs((SCATTER_SEEN_AS_D6, D6_AT_LEFT)), Obs((SCATTER_AT_RIGHT,)),
                ("d6", "scatter"), ("scatter",))
    assert out.status == "ok" and [d.value for d in out.dice] == [4, 7]
    # the other order of kinds, the other order of dice
    out = merge(Obs((D6_AT_LEFT, SCATTER_SEEN_AS_D6)), Obs((SCATTER_AT_RIGHT,)),
                ("scatter", "d6"), ("scatter",))
    assert [d.kind for d in out.dice] == ["scatter", "d6"]


def test_a_missing_or_extra_die_or_an_unsure_one_is_unsure_and_says_what_was_seen() -> None:
    out = merge(Obs((D6_AT_LEFT, D6_AT_LEFT)), Obs(()), ("d6", "scatter"), ("scatter",))
    assert out.status == "unsure"
    assert "the camera sees 2 d6; this roll is 1 d6, 1 scatter die" in out.message
    out = merge(Obs(()), Obs((SCATTER_AT_RIGHT,)), ("d6", "scatter"), ("scatter",))
    assert out.status == "unsure" and "sees 1 scatter die;" in out.message
    unsure = Die((100, 100, 30, 30), "d6", None, "unsure", guess=5)
    out = merge(Obs((unsure,)), Obs((SCATTER_AT_RIGHT,)), ("d6", "scatter"), ("scatter",))
    assert out.status == "unsure" and [d.guess for d in out.dice] == [5, 7]
    assert "unsure" in out.message


def test_a_die_the_special_reader_missed_is_the_unread_die_the_numbered_reader_found_too_many(
        ) -> None:
    """The scatter die not found by its reader but seen as an unreadable d6: it stands in the
    scatter die's place, unsure and without a d6 guess; the d6 read keeps its value."""
    out = merge(Obs((D6_AT_LEFT, SCATTER_SEEN_AS_D6)), Obs(()), ("d6", "scatter"), ("scatter",))
    assert out.status == "unsure" and "unsure" in out.message
    assert [(d.kind, d.value, d.guess) for d in out.dice] == [("d6", 4, 4), ("scatter", None, None)]
    assert out.dice[1].box == SCATTER_SEEN_AS_D6.box
    # a d6 read is never taken for the missing die; nor is a die when the count is right
    two_read = Obs((D6_AT_LEFT, Die((305, 104, 34, 33), "d6", 2, guess=2)))
    out = merge(two_read, Obs(()), ("d6", "scatter"), ("scatter",))
    assert [d.kind for d in out.dice] == ["d6", "d6"] and "sees 2 d6" in out.message
    lone = Obs((Die((100, 100, 30, 30), "d6", None, "unsure", guess=5),))
    out = merge(lone, Obs(()), ("d6", "scatter"), ("scatter",))
    assert [d.kind for d in out.dice] == ["d6"] and out.dice[0].guess == 5


class Settler:
    """A reader that reports what it is told to, in the settlers' shape."""

    def __init__(self) -> None:
        self.state = "waiting"
        self.last: Any = None
        self.next: Any = None  # what update reports
        self.frames = 0
        self.region: Any = (0, 0, 10, 10)
        self.board_to_frame: Any = None
        self.resets = 0

    def update(self, frame: Any) -> Any:
        self.frames += 1
        out, self.next = self.next, None
        if out is not None:
            self.last = out
        return out

    def reset(self) -> None:
        self.resets += 1


def test_the_roll_is_reported_once_both_readers_settled_and_again_after_a_new_throw() -> None:
    numbered, special = Settler(), Settler()
    reader = MixedRollReader(numbered, special, ("d6", "scatter"), ("scatter",))
    numbered.next, numbered.state = Obs((D6_AT_LEFT,)), "settled"
    special.state = "settling"
    special.last = Obs((SCATTER_AT_RIGHT,))
    assert reader.update(None) is None  # the scatter die is not still yet
    special.state = "settled"
    out = reader.update(None)
    assert out is not None and [d.value for d in out.dice] == [4, 7]
    assert reader.update(None) is None  # once
    # the scatter die settles to another reading of the same throw: reported again
    special.last = Obs((Die((300, 100, 40, 40), "scatter", 2, guess=2),))
    again = reader.update(None)
    assert again is not None and [d.value for d in again.dice] == [4, 2]
    # a new throw: nothing until the numbered reader has read it
    numbered.state = "moving"
    assert reader.update(None) is None
    numbered.state = "settled"
    assert reader.update(None) is None
    numbered.next = Obs((Die((90, 90, 30, 30), "d6", 1, guess=1),))
    out = reader.update(None)
    assert out is not None and [d.value for d in out.dice] == [1, 2]


def test_a_still_frame_with_no_numbered_die_found_still_gives_the_roll() -> None:
    numbered, special = Settler(), Settler()
    reader = MixedRollReader(numbered, special, ("d6", "scatter"), ("scatter",))
    numbered.state, numbered.last = "settled", Obs((), "empty")
    special.state, special.last = "settled", Obs((SCATTER_AT_RIGHT,))
    out = reader.update(None)
    assert out is not None and out.status == "unsure" and "sees 1 scatter die" in out.message
    # but not a scene the numbered reader says was not thrown again (its last reading: ok)
    numbered2 = Settler()
    numbered2.state, numbered2.last = "settled", Obs((D6_AT_LEFT,))
    reader2 = MixedRollReader(numbered2, special, ("d6", "scatter"), ("scatter",))
    assert reader2.update(None) is None


def test_the_table_feed_reads_a_mixed_roll_with_both_and_goes_back_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.dice import DiceConfig

    made: list[Any] = []

    def factory(kinds: tuple[str, ...]) -> Settler:
        made.append(Settler())
        made[-1].kinds = kinds
        return made[-1]

    monkeypatch.setitem(die_readers._READERS, "scatter", factory)
    assert die_readers.mixed(("d6", "scatter")) == (factory, ("scatter",))
    assert die_readers.mixed(("piecepack", "d6")) is None  # not registered to mix
    assert die_readers.mixed(("d6", "d6")) is None and die_readers.mixed(("scatter",)) is None
    numbered = Settler()
    numbered.config = DiceConfig()  # type: ignore[attr-defined]
    processor = TableProcessor(numbered, None)
    processor.expect_dice((6, 8), ("d6", "scatter"))
    reader = processor.dice
    assert isinstance(reader, MixedRollReader) and reader.numbered is numbered
    assert made[0].kinds == ("scatter",) and made[0].region == (0, 0, 10, 10)
    assert numbered.config.kinds == ("d6",)  # type: ignore[attr-defined]
    processor(np.zeros((48, 64, 3), np.uint8))
    assert numbered.frames == 1 and made[0].frames == 1
    processor.expect_dice((6, 8), ("d6", "scatter"))
    assert processor.dice is reader  # the same roll again: the same reader
    processor.expect_dice((6, 6), ("d6", "d6"))
    assert processor.dice is numbered


def test_real_readers_read_a_d6_and_a_scatter_die_thrown_together_on_the_synthetic_table() -> None:
    """The kiosk's table (2304x1296, the board registered): a d6 and a scatter die in one
    throw, read by the d6 reader and the scatter reader, in the roll's order."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from vision.dice import DiceSettler

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    area = DiceArea.named(BOARD_CENTRE)
    read = 0
    for seed, d6, arrow in ((8_950_001, 4, 8), (8_950_005, 3, 6), (8_950_007, 2, 6)):
        frame = table.render({}, [d6], seed=seed, special=[("scatter", arrow)])
        processor = TableProcessor(DiceSettler(), None)
        processor.expect_dice((6, 8), ("d6", "scatter"))
        assert isinstance(processor.dice, MixedRollReader)
        processor.dice.region = area.region(frame.truth.homography, (2304, 1296))
        processor.dice.board_to_frame = frame.truth.homography
        settled = None
        for _ in range(12):
            settled = processor(frame.image).settled or settled
        assert settled is not None
        if settled.status == "ok":
            assert settled.values == (d6, arrow)
            read += 1
        else:  # never a wrong value shown as sure
            assert all(v in (None, want) for v, want in zip(settled.values, (d6, arrow), strict=False))
    assert read >= 2, read


def test_the_table_screen_asks_the_camera_for_both_kinds_and_confirms_the_mixed_roll() -> None:
    """A trampoline's throw (a D6 and a scatter die, docs/dungeonbowl.md) on the kiosk: the
    camera is told both kinds, its reading is offered in the roll's order and confirmed."""
    from pathlib import Path

    from test_camera_answers import ReadingFeed

    from companion.kiosk.dice_flow import DiceSeen
    from companion.kiosk.screens import GameScreen
    from companion.session import Session
    from companion.transcript import replay
    from hardware.buttons import CONFIRM

    drive = Path(__file__).resolve().parents[3] / "assets" / "transcripts" / \
        "dungeonbowl-roster-drive.txt"
    lines = drive.read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[:lines.index("Orcs answer trampoline") + 1]) + "\n"
    result = replay(text)
    session = Session(result.rules, result.state, text.splitlines(), None)
    feed = ReadingFeed()
    screen = GameScreen(session, feed, (800, 480))
    assert feed.expected[-1] == ((6, 8), ("d6", "scatter"))
    feed.queue.append(DiceSeen((3, 8)))
    screen.update(0.05)
    entry = screen.dice_entry()
    assert entry is not None and entry.mode == "confirm" and entry.values == [3, 8]
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Orcs roll 3 8"  # 8: the scatter die's down-right (SE)


def test_a_mixed_roll_whose_special_reader_cannot_start_reads_its_numbered_dice_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scatter reader missing: the numbered reader reads the roll, told d6 only (never the
    scatter die as a numbered d8), and the failure is reported."""
    from vision.dice import DiceConfig

    def broken(kinds: tuple[str, ...]) -> Settler:
        raise RuntimeError("model missing")

    monkeypatch.setitem(die_readers._READERS, "scatter", broken)
    numbered = Settler()
    numbered.config = DiceConfig()  # type: ignore[attr-defined]
    processor = TableProcessor(numbered, None)
    processor.expect_dice((6, 8), ("d6", "scatter"))
    assert processor.dice is numbered and numbered.config.kinds == ("d6",)  # type: ignore[attr-defined]
    assert any("model missing" in e for e in processor.errors)
