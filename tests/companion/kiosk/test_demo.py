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
