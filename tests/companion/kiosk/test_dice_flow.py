"""The dice pad's checks of a camera reading: clear words for a wrong count or an unsure die."""

from __future__ import annotations

from companion.kiosk.dice_flow import DiceEntry
from companion.rules.engine import RollSpec


def entry() -> DiceEntry:
    return DiceEntry(RollSpec(0, (6, 6), "move"), "Ann", camera_live=True)


def test_too_few_dice_asks_for_every_die_in_view() -> None:
    msg = entry().check([4])
    assert msg.startswith("the camera sees 1 die, this roll needs 2")
    assert "every die is in the tray" in msg and "CONFIRM" in msg


def test_too_many_dice_asks_to_take_the_extra_away() -> None:
    msg = entry().check([4, 2, 6])
    assert msg.startswith("the camera sees 3 dice, this roll needs 2")
    assert "take the extra dice away" in msg


def test_an_unsure_die_or_a_good_reading() -> None:
    assert "not sure" in entry().check([4, None])
    assert entry().check([4, 2]) == ""
    assert "not sure" in entry().check([4, 2], status="unsure")
