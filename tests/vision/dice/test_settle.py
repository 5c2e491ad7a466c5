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


def _one_step_copy(frame: np.ndarray) -> np.ndarray:
    import cv2

    from vision.dice.settle import MOTION_SIZE

    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, MOTION_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)


def test_the_motion_copy_of_a_whole_multiple_frame_is_one_area_step() -> None:
    from vision.dice.settle import motion_copy

    frame = RollingDiceSource(seed=5, n_rolls=1, size=(1280, 720)).read()
    assert frame is not None
    copy = motion_copy(frame)
    assert copy.shape == (90, 160) and copy.dtype == np.int16
    assert np.array_equal(copy, _one_step_copy(frame))


def test_the_two_step_motion_copy_sees_the_same_motion_as_one_step() -> None:
    """1296x972 is no whole multiple of the copy: it is shrunk by 8 first, then the rest. Still
    frames stay still, and a frame clearly moving in one step (twice the threshold) moves in two."""
    from vision.dice.settle import MOTION_LEVEL, SettleConfig, motion_copy

    threshold = SettleConfig().motion_threshold
    pairs: list[tuple[float, float]] = []
    for seed in (6, 7):
        source = RollingDiceSource(seed=seed, n_rolls=1, size=(1296, 972), moving_frames=6, still_frames=4,
                                   die_px=(40.0, 60.0))
        prev: dict[str, np.ndarray] = {}
        while (frame := source.read()) is not None:
            moved = []
            for name, copy in (("one", _one_step_copy(frame)), ("two", motion_copy(frame))):
                if name in prev:
                    moved.append(float(np.mean(np.abs(copy - prev[name]) > MOTION_LEVEL)))
                prev[name] = copy
            if moved:
                pairs.append((moved[0], moved[1]))
    assert any(one == 0.0 for one, _ in pairs) and any(one > 2 * threshold for one, _ in pairs)
    for one, two in pairs:
        if one == 0.0:
            assert two == 0.0
        elif one > 2 * threshold:
            assert two > threshold


def _two_frames() -> tuple[np.ndarray, np.ndarray]:
    still = np.full((120, 160, 3), 90, np.uint8)
    moved = still.copy()
    moved[30:70, 40:90] = 220  # a die's worth of the area changed
    return still, moved


def test_a_motion_meter_shared_by_two_settlers_copies_each_frame_once(monkeypatch) -> None:
    """A mixed roll's two settlers share one meter: both see the motion, measured once a frame."""
    import vision.dice.settle as settle

    calls = []
    real = settle.motion_copy
    monkeypatch.setattr(settle, "motion_copy", lambda bgr: calls.append(1) or real(bgr))
    meter = settle.MotionMeter()
    a, b = object(), object()
    still, moved = _two_frames()
    assert meter.measure(still, None, a) is None and meter.measure(still, None, b) is None
    first, second = meter.measure(moved, None, b), meter.measure(moved, None, a)
    assert first == second and first is not None and first > _threshold()
    assert len(calls) == 2


def test_a_motion_meter_measures_again_when_the_same_settler_asks_twice() -> None:
    """A still camera may hand over the same array twice: the second time it is compared with
    itself and is still (the last answer, motion, is not repeated)."""
    from vision.dice.settle import MotionMeter

    meter = MotionMeter()
    still, moved = _two_frames()
    me = object()
    meter.measure(still, None, me)
    assert meter.measure(moved, None, me) > _threshold()
    assert meter.measure(moved, None, me) == 0.0


def test_a_motion_meter_measures_the_region_only() -> None:
    from vision.dice.settle import MotionMeter

    meter = MotionMeter()
    still, moved = _two_frames()
    meter.measure(still, (100, 0, 60, 120))
    assert meter.measure(moved, (100, 0, 60, 120)) == 0.0  # the change lies left of the region
    meter.reset()
    assert meter.measure(moved, (0, 0, 100, 120)) is None  # after a reset: nothing to compare


def _threshold() -> float:
    from vision.dice.settle import SettleConfig

    return SettleConfig().motion_threshold
