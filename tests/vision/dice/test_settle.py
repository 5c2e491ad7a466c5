"""Settle detection over frame sequences."""

from __future__ import annotations

import numpy as np

from vision.dice import DiceSettler
from vision.synthetic.dice import RollingDiceSource


def _run(source: RollingDiceSource, settler: DiceSettler) -> list:  # type: ignore[type-arg]
    rolls = []
    while (frame := source.read()) is not None:
        roll = settler.update(frame)
        if roll is not None:
            rolls.append(roll)
    return rolls


def test_one_report_per_roll_with_the_right_values() -> None:
    source = RollingDiceSource(seed=3, n_rolls=4, n_dice=2, kinds=("d6",))
    rolls = _run(source, DiceSettler())
    assert len(rolls) == 4
    for roll, truth in zip(rolls, source.rolls, strict=True):
        want = sorted(t.value for t in truth)
        got = sorted(d.value for d in roll.dice if d.value is not None)
        # a die may be unsure (never wrong)
        assert set(got) <= set(want)
        # every die is found; a false detection may be added, but never read
        assert len(roll.dice) >= len(want)
        assert len([d for d in roll.dice if d.value is not None]) <= len(want)


def test_nothing_is_reported_while_moving() -> None:
    source = RollingDiceSource(seed=1, n_rolls=1, moving_frames=30, still_frames=0)
    assert _run(source, DiceSettler()) == []


def test_still_frames_that_are_too_few_do_not_count() -> None:
    source = RollingDiceSource(seed=2, n_rolls=3, moving_frames=5, still_frames=3)
    assert _run(source, DiceSettler()) == []


def test_a_still_scene_is_reported_once() -> None:
    source = RollingDiceSource(seed=4, n_rolls=1, moving_frames=2, still_frames=60)
    assert len(_run(source, DiceSettler())) == 1


def test_bad_frames_are_skipped_with_a_message() -> None:
    settler = DiceSettler()
    assert settler.update(np.zeros((3, 3), np.uint8)) is None
    assert "small" in settler.message
    assert settler.update("not a frame") is None


def test_cocked_dice_are_reported_cocked() -> None:
    source = RollingDiceSource(seed=8, n_rolls=3, n_dice=2, cocked_rate=1.0)
    rolls = _run(source, DiceSettler())
    assert rolls
    for roll in rolls:
        assert roll.status == "unsure"
        assert all(d.value is None for d in roll.dice)


def test_dice_left_lying_after_a_hand_passes_are_not_a_new_roll() -> None:
    from vision.dice.types import DiceObservation, DieReading

    rng = np.random.default_rng(5)
    scenes = {1: rng.integers(0, 255, (90, 160, 3), np.uint8),
              2: rng.integers(0, 255, (90, 160, 3), np.uint8)}
    for k, img in scenes.items():
        img[0, 0] = k  # which throw the fake reader sees

    def reader(bgr, region, config):  # type: ignore[no-untyped-def]
        k = int(bgr[0, 0, 0])
        box = (10, 10, 20, 20) if k == 1 else (60, 40, 20, 20)
        die = DieReading(box=box, kind="d6", colour="white", value=k + 2, confidence=1.0,
                         status="read")
        return DiceObservation((die,), "ok", "")

    def hand() -> np.ndarray:
        img = rng.integers(0, 255, (90, 160, 3), np.uint8)
        img[0, 0] = 0
        return img

    settler = DiceSettler(reader=reader)
    feed = [hand() for _ in range(3)] + [scenes[1]] * 12  # a throw, then still
    feed += [hand() for _ in range(3)] + [scenes[1]] * 12  # a hand moves a piece: same dice
    feed += [hand() for _ in range(3)] + [scenes[2]] * 12  # the next throw
    rolls = [r for r in (settler.update(f) for f in feed) if r is not None]
    assert [r.dice[0].value for r in rolls] == [3, 4]
    settler.reset()  # the kiosk took a roll from the buttons: the dice lying there still no roll
    assert all(settler.update(f) is None for f in [scenes[2]] * 12)
