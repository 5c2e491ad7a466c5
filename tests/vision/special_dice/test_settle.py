"""The settler reports a roll once it has lain still for a few frames."""

from __future__ import annotations

import numpy as np

from vision.special_dice import SpecialDiceSettler, SpecialDieReading
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


def test_a_settled_roll_short_of_its_count_is_searched_once_for_the_rest() -> None:
    """The kiosk tells the settler how many dice the roll holds (``count``): a roll that settles
    with fewer found (one of three here) is searched once, as it is reported; without a count
    it is reported as found."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    rng = np.random.default_rng(8_000_038)
    n = int(rng.integers(1, 4))
    frame = table.render({}, seed=8_000_038, special=[("block", int(rng.integers(1, 7))) for _ in range(n)])
    region = DiceArea.named(BOARD_CENTRE).region(frame.truth.homography, (2304, 1296))

    def settle(count: int | None) -> tuple[SpecialDieReading, ...]:
        settler = SpecialDiceSettler(("block",))
        settler.region, settler.board_to_frame, settler.count = region, frame.truth.homography, count
        got = [settler.update(frame.image) for _ in range(4)]
        assert got[0] is None and got[1] is None and got[3] is None
        assert got[2] is not None
        assert settler.last == got[2]  # what is on screen while the roll lies still
        return got[2].dice

    assert n == 3 and len(settle(None)) == 1
    dice = settle(3)
    assert len(dice) == 3 and sum(d.status == "unsure" and d.value is None for d in dice) >= 2


def test_a_throw_whose_dice_the_reader_never_finds_is_searched_once_it_lies_still() -> None:
    """None found: an untouched tray is never searched (still frames, no motion); a throw (the
    dice area moves) whose die the reader misses is searched once it has lain still for three
    frames, reported once with the die unsure and its guess, held until the dice move again;
    the tray left when they are picked up is not searched, the next throw is."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from vision.synthetic.special_dice import block_value

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    seed = 8_000_037  # one block die, which the reader does not find
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 4))
    faces = [int(rng.integers(1, 7)) for _ in range(n)]
    thrown = table.render({}, seed=seed, special=[("block", f) for f in faces])
    tray = table.render({}, seed=seed)
    settler = SpecialDiceSettler(("block",))
    settler.region = DiceArea.named(BOARD_CENTRE).region(thrown.truth.homography, (2304, 1296))
    settler.board_to_frame, settler.count = thrown.truth.homography, n
    assert n == 1
    assert all(settler.update(tray.image) is None for _ in range(6))  # the tray before the throw
    assert settler.state == "waiting"
    got = [settler.update(thrown.image) for _ in range(6)]  # the throw: moved, then still
    reported = [g for g in got if g is not None]
    assert len(reported) == 1 and got.index(reported[0]) == 3
    (die,) = reported[0].dice
    assert die.status == "unsure" and die.value is None and die.guess == block_value(faces[0])
    assert settler.state == "settled" and settler.last == reported[0]
    assert settler.update(tray.image) is None and settler.state == "waiting"  # taken away
    assert all(settler.update(tray.image) is None for _ in range(6))  # a pick-up: no search
    got = [settler.update(thrown.image) for _ in range(6)]  # the next throw is searched again
    assert [g is not None for g in got] == [False, False, False, True, False, False]
    settler.count = None  # without the roll's count: never searched
    assert all(settler.update(tray.image) is None for _ in range(3))
    assert all(settler.update(thrown.image) is None for _ in range(6))
