"""The demo autopilot's count of rolls the camera read right."""

from __future__ import annotations

from companion.kiosk.demo import Autopilot


def test_two_alike_dice_count_in_any_order() -> None:
    assert Autopilot._same_roll((3, 2), (2, 3), (6, 6))
    assert Autopilot._same_roll((4, 4), (4, 4), (8, 8))
    assert not Autopilot._same_roll((3, 3), (2, 3), (6, 6))


def test_three_dice_keep_their_order() -> None:
    # a running fighter's third die is colour-coded: its place says which it is
    assert Autopilot._same_roll((1, 2, 6), (1, 2, 6), (6, 6, 6))
    assert not Autopilot._same_roll((6, 2, 1), (1, 2, 6), (6, 6, 6))


def test_unlike_dice_keep_their_order() -> None:
    assert not Autopilot._same_roll((6, 20), (20, 6), (6, 20))


def test_a_block_dies_two_pushed_faces_count_as_one_result() -> None:
    from companion.core.dice import BLOCK, D6, SCATTER, DicePrompt
    from companion.kiosk.demo import alike, kinds_of

    prompt = DicePrompt(0, (BLOCK, BLOCK, D6), "block")
    assert alike((4, 3, 4), prompt) == (3, 3, 4)  # the d6's 4 is a 4
    assert alike((6, 6, 1), prompt) == (6, 6, 1)
    assert kinds_of(prompt) == "block + d6"
    assert kinds_of(DicePrompt(0, (SCATTER,), "scatter")) == "scatter"


def test_the_demo_table_throws_block_and_scatter_dice_alone_or_with_a_d6() -> None:
    from companion.core.dice import BLOCK, D6, SCATTER, DicePrompt
    from companion.kiosk.demo import DemoTable

    table = DemoTable(["Ann", "Ben"], (640, 360), seed=1)
    assert table.can_throw(DicePrompt(0, (D6, D6), "move"))
    assert table.can_throw(DicePrompt(0, (BLOCK, BLOCK), "block"))
    assert table.can_throw(DicePrompt(0, (SCATTER,), "scatter"))
    assert table.can_throw(DicePrompt(0, (BLOCK, SCATTER), "both"))
    assert table.can_throw(DicePrompt(0, (D6, SCATTER), "mixed"))  # each die drawn as itself
    table.roll((5, 7), kinds=("d6", "scatter"))
    assert table._scene.drawn() == ((5,), (("scatter", 7),))
    # as at a table, a die of a kind the next roll does not throw stays where it lies
    table.roll((3, 4), kinds=("d6", "d6"))
    assert table._scene.drawn() == ((3, 4), (("scatter", 7),))
    table.roll((1, 6), kinds=("block", "block"))
    assert table._scene.drawn() == (None, (("block", 1), ("block", 6), ("scatter", 7)))
    table.roll((2,), kinds=("scatter",))  # the scatter die is picked up and thrown again
    assert table._scene.drawn() == (None, (("scatter", 2), ("block", 1), ("block", 6)))
    import pytest

    with pytest.raises(ValueError, match="2 dice values but 1 kinds"):
        table.roll((1, 2), kinds=("block",))


def _settle(processor: object, table: object, frames: int = 30) -> object:
    for _ in range(frames):
        seen = processor(table.read()).settled  # type: ignore[operator,attr-defined]
        if seen is not None:
            return seen
    return None


def test_the_kiosk_camera_reads_block_and_scatter_dice_thrown_on_the_demo_table() -> None:
    # the demo's whole camera path: the board registered from the frame, the dice area and
    # the board's orientation handed to the block and scatter reader, each roll settled; a die
    # is read right, left unsure (its guess for the buttons) or not found, never read wrong
    from companion.kiosk.cli import DEMO_CAMERA
    from companion.kiosk.demo import DemoTable, demo_processor

    table = DemoTable(["Ann", "Ben"], DEMO_CAMERA, seed=2)
    processor, note = demo_processor(table, DEMO_CAMERA)
    assert note == ""
    processor(table.read())  # the board is registered before the first throw
    throws = [("block", (6, 2)), ("block", (1,)), ("block", (5, 4)), ("scatter", (5,)),
              ("scatter", (2,)), ("scatter", (8,))]
    whole = 0
    for kind, values in throws:
        processor.expect_dice(tuple(8 if kind == "scatter" else 6 for _ in values),
                              (kind,) * len(values))
        table.roll(values, kinds=(kind,) * len(values))
        seen = _settle(processor, table)
        if seen is None:
            continue  # no die found: the players enter the roll on the buttons
        want = sorted(3 if (kind == "block" and v == 4) else v for v in values)
        read = sorted(v for v in seen.values if v is not None)
        assert all(read.count(v) <= want.count(v) for v in read), (kind, values, seen)
        whole += read == want
    assert whole >= 4, whole  # 4 of these 6 throws are read whole (the dice area enlarged)
    processor.expect_dice((6,), None)  # back to the numbered dice reader
    table.roll((4,))
    seen = _settle(processor, table)
    assert seen is not None and seen.values == (4,)


def test_the_kiosk_camera_reads_a_d6_and_a_scatter_die_thrown_together_on_the_demo_table(
        ) -> None:
    """A roll of a D6 and a scatter die (a living ball) goes to both readers at once and comes
    back in the roll's order; never a wrong value shown as sure."""
    from companion.kiosk.cli import DEMO_CAMERA
    from companion.kiosk.demo import DemoTable, demo_processor
    from vision.mixed_roll import MixedRollReader

    table = DemoTable(["Ann", "Ben"], DEMO_CAMERA, seed=3)
    processor, note = demo_processor(table, DEMO_CAMERA)
    assert note == ""
    processor(table.read())  # the board is registered before the first throw
    whole = 0
    for values in ((4, 7), (2, 3), (6, 1), (1, 5)):
        processor.expect_dice((6, 8), ("d6", "scatter"))
        assert isinstance(processor.dice, MixedRollReader)
        table.roll(values, kinds=("d6", "scatter"))
        seen = _settle(processor, table, 40)
        if seen is None:
            continue
        assert len(seen.values) == 2
        assert all(v in (None, want) for v, want in zip(seen.values, values, strict=True)), seen
        whole += seen.values == values
    assert whole >= 3, whole  # 3 of these 4 throws are read whole, the 4th's arrow unsure
    processor.expect_dice((6,), ("d6",))
    assert not isinstance(processor.dice, MixedRollReader)
