"""A roll mixing a numbered die with block or scatter dice (a Dungeonbowl living ball: a D6 and
a scatter die) reaches the table feed's two readers at once (``vision/mixed_roll.py``), and its
reading the table screen."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_die_readers import FakeReader

from companion.kiosk import die_readers
from companion.kiosk.table_feed import TableProcessor
from vision.mixed_roll import MixedRollReader


def at_the_trampoline() -> tuple[Any, Any]:
    """The roster drive (assets/transcripts) played up to the trampoline's throw of a D6 and a
    scatter die: its session, and a camera feed that hands over prepared readings."""
    from pathlib import Path

    from test_camera_answers import ReadingFeed

    from companion.session import Session
    from companion.transcript import replay

    drive = Path(__file__).resolve().parents[3] / "assets" / "transcripts" / "dungeonbowl-roster-drive.txt"
    lines = drive.read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[:lines.index("Orcs answer trampoline") + 1]) + "\n"
    result = replay(text)
    return Session(result.rules, result.state, text.splitlines(), None), ReadingFeed()


def test_the_table_feed_reads_a_mixed_roll_with_both_and_goes_back_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.dice import DiceConfig

    made: list[Any] = []

    def factory(kinds: tuple[str, ...]) -> FakeReader:
        made.append(FakeReader(kinds))
        made[-1].region = None
        return made[-1]

    monkeypatch.setitem(die_readers._READERS, "scatter", factory)
    assert die_readers.mixed(("d6", "scatter")) == (factory, ("scatter",))
    assert die_readers.mixed(("piecepack", "d6")) is None  # not registered to mix
    assert die_readers.mixed(("d6", "d6")) is None and die_readers.mixed(("scatter",)) is None
    numbered = FakeReader()
    numbered.config = DiceConfig()  # type: ignore[attr-defined]
    processor = TableProcessor(numbered, None)
    processor.expect_dice((6, 8), ("d6", "scatter"))
    reader = processor.dice
    assert isinstance(reader, MixedRollReader) and reader.numbered is numbered
    assert made[0].kinds == ("scatter",) and made[0].region == (1, 2, 30, 40)  # the dice area
    assert made[0].count == 1  # one scatter die of the two dice
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
    from companion.kiosk.dice_flow import DiceSeen
    from companion.kiosk.screens import GameScreen
    from hardware.buttons import CONFIRM

    session, feed = at_the_trampoline()
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

    def broken(kinds: tuple[str, ...]) -> FakeReader:
        raise RuntimeError("model missing")

    monkeypatch.setitem(die_readers._READERS, "scatter", broken)
    numbered = FakeReader()
    numbered.config = DiceConfig()  # type: ignore[attr-defined]
    processor = TableProcessor(numbered, None)
    processor.expect_dice((6, 8), ("d6", "scatter"))
    assert processor.dice is numbered and numbered.config.kinds == ("d6",)  # type: ignore[attr-defined]
    assert any("model missing" in e for e in processor.errors)


def test_a_confirmed_mixed_roll_keeps_its_d6_for_the_tables_tuning_and_not_its_scatter_die(
        tmp_path: Any) -> None:
    """Learning on: the camera thread cuts the numbered die of a D6 + scatter throw (its place
    in the roll kept), and confirming the roll on the screen stores that die with the value
    confirmed for it; the scatter die is not kept (the table's tuning learns numbered dice)."""
    from pathlib import Path

    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from companion.kiosk.dice_flow import DiceSeen
    from companion.kiosk.dice_learning import DiceLearner, RollCrops
    from companion.kiosk.screens import GameScreen
    from hardware.buttons import CONFIRM, NEXT, PREV
    from vision.dice import DiceSettler
    from vision.dice.tune import ExampleStore

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    frame = table.render({}, [3], seed=8_950_005, special=[("scatter", 6)])
    processor = TableProcessor(DiceSettler(), None)
    processor.keep_crops = True
    processor.expect_dice((6, 8), ("d6", "scatter"))
    assert isinstance(processor.dice, MixedRollReader)
    processor.dice.region = DiceArea.named(BOARD_CENTRE).region(frame.truth.homography, (2304, 1296))
    processor.dice.board_to_frame = frame.truth.homography
    settled = None
    for _ in range(12):
        settled = processor(frame.image).settled or settled
    assert settled is not None and isinstance(settled.crops, RollCrops)
    crops = settled.crops
    assert crops.kinds == ("d6",) and crops.positions == (0,) and crops.size == 2
    assert len(crops.crops) == 1 and crops.crops[0].shape == (64, 64)
    assert crops.shown[0] in (3, None)  # read, or unsure: never another value
    assert crops.values_of((5, 6)) == (5,) and crops.values_of((5,)) is None

    session, feed = at_the_trampoline()
    learner = DiceLearner(Path(tmp_path) / "examples")
    screen = GameScreen(session, feed, (800, 480), learner=learner)
    feed.queue.append(DiceSeen((3, 8), crops=crops))  # the camera read the arrow wrong ...
    screen.update(0.05)
    entry = screen.dice_entry()
    assert entry is not None and entry.values == [3, 8]
    screen.handle(NEXT)  # ... and a person puts it right: correct the values, keep the D6,
    screen.handle(CONFIRM)
    screen.handle(PREV)  # turn the arrow back 8 -> 6
    screen.handle(PREV)
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Orcs roll 3 6", session.lines[-1]
    assert learner.wait(5.0)
    kept = ExampleStore(Path(tmp_path) / "examples").examples()
    assert [(e.die, e.kind, e.value) for e in kept] == [(0, "d6", 3)]


def test_a_thrown_scatter_die_its_reader_misses_is_searched_for_once_the_throw_lies_still() -> None:
    """The kiosk's table: a D6 and a scatter die thrown onto the empty board's middle; the
    scatter reader finds no die in this frame, so the roll first comes back short of it, and
    once the throw has lain still the scatter settler (told the roll holds one scatter die)
    searches the dice area: the roll comes back whole, the scatter die unsure with its guess."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from vision.dice import DiceSettler

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    seed = 8_960_026
    rng = np.random.default_rng(seed)
    d6, arrow = int(rng.integers(1, 7)), int(rng.integers(1, 9))
    thrown = table.render({}, [d6], seed=seed, special=[("scatter", arrow)])
    tray = table.render({}, seed=seed)
    processor = TableProcessor(DiceSettler(), None)
    processor.expect_dice((6, 8), ("d6", "scatter"))
    reader = processor.dice
    assert isinstance(reader, MixedRollReader) and reader.special.count == 1
    reader.region = DiceArea.named(BOARD_CENTRE).region(thrown.truth.homography, (2304, 1296))
    reader.board_to_frame = thrown.truth.homography
    settled = [processor(tray.image).settled for _ in range(3)]
    settled += [processor(thrown.image).settled for _ in range(14)]
    readings = [s for s in settled if s is not None]
    assert readings, "the throw was never reported"
    last = readings[-1]
    assert len(last.values) == 2 and last.values[0] in (d6, None)
    assert last.values[1] is None and last.guesses[1] == arrow  # found by the search: unsure
    assert all(v in (None, want) for s in readings for v, want in zip(s.values, (d6, arrow), strict=False))


def test_block_dice_left_from_a_block_roll_are_left_out_of_the_next_2d6_roll() -> None:
    """Block dice lying in the tray when 2d6 are thrown (the kiosk's table, the board
    registered): after a block roll, or told by the game that it throws block dice, the table
    feed leaves them out of the numbered roll, which the numbered reader alone reads with a die
    or two too many."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from vision.dice import DiceSettler

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    area = DiceArea.named(BOARD_CENTRE)
    too_many_before = 0
    right = {"after a block roll": 0, "told by the game": 0}
    for seed, d6, blocks in ((9_102_000, (1, 1), (1, 3)), (9_102_001, (2, 6), (3, 6)),
                             (9_102_002, (3, 5), (5, 3)), (9_102_003, (4, 4), (1, 6)),
                             (9_102_004, (5, 3), (3, 3))):
        frame = table.render({}, list(d6), seed=seed, special=[("block", b) for b in blocks])
        settled_by = {}
        for how in ("not told", "after a block roll", "told by the game"):
            processor = TableProcessor(DiceSettler(), None, dice_area=area)
            if how == "after a block roll":
                processor.expect_dice((6, 6), ("block", "block"))
            elif how == "told by the game":  # Presenter.table_dice, before the game's first roll
                processor.lying_dice(("block", "scatter"))
            processor.expect_dice((6, 6), ("d6", "d6"))
            processor._aim_dice(frame.truth.homography, (2304, 1296))
            settled = None
            for _ in range(12):
                settled = processor(frame.image).settled or settled
            assert settled is not None
            settled_by[how] = settled
        too_many_before += len(settled_by["not told"].values) > 2
        for how in ("after a block roll", "told by the game"):
            after = settled_by[how]
            assert len(after.values) <= len(settled_by["not told"].values)
            if after.status == "ok" and len(after.values) == 2:
                assert sorted(after.values) == sorted(d6)  # never a wrong roll shown as sure
                right[how] += 1
    assert too_many_before == 5 and min(right.values()) >= 4, (too_many_before, right)


def test_a_special_roll_after_a_roll_of_the_other_special_kind_reads_its_old_dice_to_leave_them_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table feed tells a block roll's reader that scatter dice of an earlier roll may lie
    there (``lying``), and a later scatter roll's reader the same of block dice; a first roll,
    or a roll of the kinds rolled before, has nothing to leave out (kinds the game only names
    are not read: reading both kinds reads a few rolls less well when no old die lies there)."""
    made: list[Any] = []

    def factory(kinds: tuple[str, ...]) -> FakeReader:
        made.append(FakeReader(kinds))
        made[-1].lying = ()  # type: ignore[attr-defined]
        return made[-1]

    monkeypatch.setitem(die_readers._READERS, "block", factory)
    monkeypatch.setitem(die_readers._READERS, "scatter", factory)
    processor = TableProcessor(FakeReader(), None)
    processor.lying_dice(("block", "scatter"))  # named by the game, not rolled yet: read alone
    processor.expect_dice((6, 6), ("block", "block"))
    assert made[-1].lying == ()  # type: ignore[attr-defined]
    processor.expect_dice((8,), ("scatter",))
    assert made[-1].kinds == ("scatter",) and made[-1].lying == ("block",)  # type: ignore[attr-defined]
    processor.expect_dice((6, 6), ("d6", "d6"))
    processor.expect_dice((6,), ("block",))
    assert made[-1].lying == ("scatter",)  # type: ignore[attr-defined]


def test_old_block_dice_alone_in_the_tray_are_no_roll_of_2d6() -> None:
    """The 2d6 prompt comes up while the last block's dice still lie there: before the throw
    the pad is offered nothing (the numbered reader alone would offer them as two unsure d6),
    and the live view shows no die."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from vision.dice import DiceSettler

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    area = DiceArea.named(BOARD_CENTRE)
    frame = table.render({}, None, seed=9_102_010, special=[("block", 2), ("block", 5)])
    offered = {}
    for after_a_block_roll in (False, True):
        processor = TableProcessor(DiceSettler(), None, dice_area=area)
        if after_a_block_roll:
            processor.expect_dice((6, 6), ("block", "block"))
        processor.expect_dice((6, 6), ("d6", "d6"))
        processor._aim_dice(frame.truth.homography, (2304, 1296))
        readings = [processor(frame.image) for _ in range(12)]
        offered[after_a_block_roll] = [r.settled for r in readings if r.settled is not None]
        if after_a_block_roll:
            assert readings[-1].dice == ()  # no box drawn on the old dice
    assert len(offered[False]) == 1 and len(offered[False][0].values) >= 1
    assert offered[True] == []


def test_the_game_screen_tells_the_camera_which_other_dice_the_game_throws(midgame: Any) -> None:
    """A Dungeonbowl game's screen tells the feed its block and scatter dice may lie in the
    tray (``Presenter.table_dice``); a Monopoly game's tells it none, so a kiosk that played
    Dungeonbowl before stops leaving them out."""
    from test_camera_answers import ReadingFeed

    from companion.kiosk.screens import GameScreen

    class Feed(ReadingFeed):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.lying: list[tuple[str, ...]] = []

        def lying_dice(self, kinds: tuple[str, ...]) -> None:
            self.lying.append(tuple(kinds))

    session, _ = at_the_trampoline()
    feed = Feed()
    GameScreen(session, feed, (800, 480))
    assert feed.lying == [("block", "scatter")]
    GameScreen(midgame, feed, (800, 480))  # a Dungeonopoly game
    assert feed.lying[-1] == ()


def test_a_new_games_dice_replace_the_last_games_at_the_table_feed() -> None:
    from vision.dice import DiceSettler

    numbered = DiceSettler()
    processor = TableProcessor(numbered, None)
    processor.lying_dice(("block", "scatter", "d6"))
    assert processor._lying_kinds == ("block", "scatter")  # numbered dice are the reader's own
    assert type(numbered.reader).__name__ == "_WithoutOldDice"
    processor.lying_dice(())
    assert processor._lying_kinds == ()  # the wrapper then passes every reading through


def test_a_reading_whose_dice_were_all_read_is_not_read_again_for_old_dice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a die the numbered reader could not read can be an old block die: a reading with
    every die read costs no block and scatter reading; one with an unsure die does."""
    from vision.dice import DiceSettler
    from vision.dice.reader import observation_of
    from vision.dice.types import DieReading

    looks: list[Any] = []

    class Old(FakeReader):
        def read_once(self, frame: Any) -> Any:
            looks.append(frame)
            return observation_of([])

    monkeypatch.setitem(die_readers._READERS, "block", Old)
    d6 = DieReading(box=(10, 10, 20, 20), kind="d6", colour="white", value=4, confidence=0.99, status="read")
    unsure = DieReading(box=(40, 10, 20, 20), kind="d6", colour="white", value=None, confidence=0.3,
                        status="unsure", guess=2)
    readings = [observation_of([d6]), observation_of([d6, unsure])]
    numbered = DiceSettler(reader=lambda bgr, region, config: readings.pop(0))
    processor = TableProcessor(numbered, None)
    processor.lying_dice(("block",))
    frame = np.zeros((48, 64, 3), np.uint8)
    numbered.reader(frame, None, None)
    assert looks == []
    numbered.reader(frame, None, None)
    assert len(looks) == 1
