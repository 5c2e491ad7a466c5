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


def test_an_old_die_of_another_kind_lying_there_is_read_and_left_out_of_the_roll() -> None:
    """Block dice thrown beside a scatter die of an earlier roll: told the scatter die may lie
    there (``lying``), the settler reads both kinds and reports the block dice alone, the
    scatter die in ``lying_seen``; not told, it reads the scatter die as one block die more."""
    import vision.synthetic.table as synthetic
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    both_kinds = told = seen_old = 0
    for seed in (9_900_000, 9_900_001, 9_900_002, 9_900_003):
        frame = table.render({}, seed=seed, special=[("block", 1), ("block", 6), ("scatter", 3)])
        region = DiceArea.named(BOARD_CENTRE).region(frame.truth.homography, (2304, 1296))
        rolls = {}
        for lying in ((), ("scatter",)):
            settler = SpecialDiceSettler(("block",))
            settler.region, settler.board_to_frame, settler.lying = region, frame.truth.homography, lying
            rolls[lying] = next(r for r in (settler.update(frame.image) for _ in range(4)) if r is not None)
            if lying:
                assert all(d.kind == "scatter" for d in settler.lying_seen)
                seen_old += len(settler.lying_seen) == 1
            else:
                assert settler.lying_seen == ()
        both_kinds += len(rolls[()].dice) == 3
        roll = rolls[("scatter",)]
        assert all(d.kind == "block" for d in roll.dice)
        told += len(roll.dice) == 2 and sorted(d.guess or 0 for d in roll.dice) == [1, 6]
    assert both_kinds >= 2 and told >= 2 and seen_old >= 2, (both_kinds, told, seen_old)


def test_only_kinds_keeps_the_dice_of_those_kinds_and_says_what_is_left() -> None:
    from vision.special_dice import SpecialDiceObservation
    from vision.special_dice.settle import only_kinds

    def die(kind: str, status: str) -> SpecialDieReading:
        value = 3 if status == "read" else None
        return SpecialDieReading((0, 0, 10, 10), kind, value, 0.9, status, 3)

    obs = SpecialDiceObservation((die("block", "read"), die("scatter", "unsure")), "unsure")
    assert only_kinds(obs, ("block",)).status == "ok"
    assert only_kinds(obs, ("block", "scatter")) is obs
    assert only_kinds(obs, ()).status == "empty" and only_kinds(obs, ()).dice == ()
    error = SpecialDiceObservation((), "error", "bad frame")
    assert only_kinds(error, ("block",)) is error
