"""The dice pad's checks of a camera reading: clear words for a wrong count or an unsure die,
and an unsure die's entry started from the camera's guess."""

from __future__ import annotations

from companion.core.dice import DicePrompt, die_of_sides
from companion.games.monopoly.actions import Roll
from companion.kiosk.dice_flow import DiceEntry, DiceSeen
from companion.kiosk.inputs import Submit
from hardware.buttons import CONFIRM, NEXT


def roll_entry(player: int, sides: tuple[int, ...], purpose: str, name: str,
               camera_live: bool) -> DiceEntry:
    """A dice pad for a Monopoly roll of ``sides`` (its answer is a ``Roll``)."""
    return DiceEntry(DicePrompt(player, tuple(die_of_sides(s) for s in sides), purpose), name,
                     camera_live, lambda values: Roll(player, values))


def entry() -> DiceEntry:
    return roll_entry(0, (6, 6,), "move", "Ann", True)


def test_too_few_dice_asks_for_every_die_in_view() -> None:
    msg = entry().check([4])
    assert msg.startswith("the camera sees 1 die, this roll needs 2")
    assert "every die is in the tray" in msg and "CONFIRM" in msg


def test_too_many_dice_asks_to_take_the_extra_away() -> None:
    msg = entry().check([4, 2, 6])
    assert msg.startswith("the camera sees 3 dice, this roll needs 2")
    assert "take the extra dice away" in msg


def test_with_a_die_too_many_the_entry_starts_from_the_dice_the_camera_read() -> None:
    # one d10 rolled; the camera also reports an unsure box left of it (a shadow, a token)
    pad = roll_entry(0, (10,), "check", "Ann", True)
    assert not pad.offer(DiceSeen((None, 7), "unsure", guesses=(3, 7)))
    assert "take the extra dice away" in pad.problem  # never accepted as it is
    pad.handle(CONFIRM)
    assert pad.mode == "edit" and pad.values == [7] and pad.guessed == [False]
    # two dice rolled, three seen: the read ones, in the order seen
    pad = roll_entry(0, (6, 6), "move", "Ann", True)
    pad.offer(DiceSeen((5, None, 2), "unsure", guesses=(5, 4, 2)))
    pad.handle(CONFIRM)
    assert pad.values == [5, 2] and pad.guessed == [False, False]
    # none read: the first ones seen, from their guesses
    pad = roll_entry(0, (6,), "move", "Ann", True)
    pad.offer(DiceSeen((None, None), "unsure", guesses=(4, 6)))
    pad.handle(CONFIRM)
    assert pad.values == [4] and pad.guessed == [True]
    # with the reader's confidences: the surest of the unsure ones (a box on a token is
    # seldom as sure of a face as a die is), still the read ones first, kept in the order seen
    pad = roll_entry(0, (6, 6), "move", "Ann", True)
    pad.offer(DiceSeen((None, None, 3), "unsure", guesses=(1, 5, 3), confidences=(0.31, 0.88, 0.99)))
    pad.handle(CONFIRM)
    assert pad.values == [5, 3] and pad.guessed == [True, False]
    pad = roll_entry(0, (6,), "move", "Ann", True)
    pad.offer(DiceSeen((2, None), "unsure", guesses=(2, 6), confidences=(0.985, 0.995)))
    pad.handle(CONFIRM)
    assert pad.values == [2]  # a read die before a surer-looking unsure one


def test_an_unsure_die_or_a_good_reading() -> None:
    assert "unsure" in entry().check([4, None])
    assert entry().check([4, 2]) == ""
    assert "unsure" in entry().check([4, 2], status="unsure")


def test_an_unsure_die_starts_from_the_cameras_guess_and_is_checked_by_a_press() -> None:
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    assert not entry.offer(DiceSeen((5, None), "unsure", guesses=(5, 4)))
    assert "check it" in entry.problem and "guess" in entry.hint()
    assert entry.mode == "camera"  # never submitted or shown as read
    entry.handle(CONFIRM)
    assert entry.mode == "edit" and entry.values == [5, 4]
    assert entry.problem == ""  # the reading's problem is the person's entry now: not shown on
    assert entry.guessed == [False, True]  # the read die is not a guess; the unsure one is
    assert "guess" in entry.rows()[1].text and "guess" not in entry.rows()[0].text
    assert entry.handle(CONFIRM) is None  # first die: next
    assert "guess" in entry.hint()
    assert entry.handle(NEXT) is None  # the person corrects the guess: 4 -> 5
    assert entry.guessed == [False, False]
    assert entry.handle(CONFIRM) == Submit(Roll(0, (5, 5)))


def test_a_guess_a_die_cannot_show_or_no_guess_starts_at_one() -> None:
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    entry.offer(DiceSeen((None, None), "unsure", guesses=(9, None)))
    assert "enter it" in entry.problem  # a d6 cannot show 9: no guess to check, the pad starts at 1
    entry.handle(CONFIRM)
    assert entry.values == [1, 1] and entry.guessed == [False, False]
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    entry.offer(DiceSeen((3, None), "unsure"))  # an older reader: no guesses at all
    assert "enter it" in entry.problem
    entry.handle(CONFIRM)
    assert entry.values == [3, 1] and entry.guessed == [False, False]
    # the demo autopilot starts its presses from the guesses too
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    entry.offer(DiceSeen((2, None), "unsure", guesses=(2, 6)))
    presses = entry.plan_entry((2, 6))
    assert presses == [CONFIRM, CONFIRM, CONFIRM]
    out = None
    for press in presses:
        out = entry.handle(press)
    assert out == Submit(Roll(0, (2, 6)))


def coloured_entry() -> DiceEntry:
    """Six d6: three red (the first seat's) then three white (the second's)."""
    prompt = DicePrompt(0, tuple(die_of_sides(6) for _ in range(6)), "group move",
                        ("red",) * 3 + ("white",) * 3)
    return DiceEntry(prompt, "Ann", True, lambda values: Roll(0, values))


def test_dice_with_colours_are_put_in_the_prompts_colour_order() -> None:
    e = coloured_entry()
    seen = DiceSeen((1, 2, 3, 4, 5, 6), guesses=(1, 2, 3, 4, 5, 6),
                    colours=("white", "red", "white", "red", "red", "white"))
    assert e.offer(seen)
    assert e.values == [2, 4, 5, 1, 3, 6]
    assert e.handle(CONFIRM) == Submit(Roll(0, (2, 4, 5, 1, 3, 6)))


def test_dice_of_the_wrong_colours_are_not_offered_for_confirmation() -> None:
    e = coloured_entry()
    seen = DiceSeen((1, 2, 3, 4, 5, 6),
                    colours=("white", "red", "white", "red", "blue", "white"))
    assert not e.offer(seen)
    assert e.problem.startswith("the camera sees 1 blue, 2 red, 3 white dice, this roll needs "
                                "3 red, 3 white")


def test_dice_without_colours_keep_the_order_seen() -> None:
    e = coloured_entry()
    assert e.offer(DiceSeen((1, 2, 3, 4, 5, 6)))
    assert e.values == [1, 2, 3, 4, 5, 6]


def test_a_reading_is_taken_from_an_observation_as_the_reader_gave_it() -> None:
    from vision.dice.types import DiceObservation, DieReading

    obs = DiceObservation((DieReading((10, 10, 40, 40), "d6", "white", 4, 0.99, "read", 4),
                           DieReading((90, 10, 40, 40), "d6", "red", None, 0.6, "unsure", 2)),
                          "unsure", "a die is unsure")
    seen = DiceSeen.of(obs, 1.5, colours=("white", "red"))
    assert seen == DiceSeen((4, None), "unsure", "a die is unsure", 1.5, (4, 2), colours=("white", "red"),
                            confidences=(0.99, 0.6))
