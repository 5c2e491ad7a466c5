"""Reading one throw of numbered and special dice together (``vision/mixed_roll.py``): the two
readings put together as one roll, and the reader that waits for both to settle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.mixed_roll import MixedRollReader, leave_out, merge


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


def test_a_throw_the_special_reader_finds_nothing_in_is_reported_once_the_numbered_one_settled(
        ) -> None:
    """No special die found (missed, or none thrown): the roll comes once the numbered reader
    has settled, saying what it lacks, with the numbered reader's unread die standing in."""
    numbered, special = Settler(), Settler()
    reader = MixedRollReader(numbered, special, ("d6", "scatter"), ("scatter",))
    special.state, special.last = "waiting", Obs((), "empty")
    numbered.state = "settling"
    assert reader.update(None) is None
    numbered.next, numbered.state = Obs((D6_AT_LEFT, SCATTER_SEEN_AS_D6)), "settled"
    out = reader.update(None)
    assert out is not None and [(d.kind, d.value) for d in out.dice] == [("d6", 4), ("scatter", None)]
    assert reader.update(None) is None  # once
    # a photo's types, not a roll: the d6 alone is the whole reading
    reader = MixedRollReader(Settler(), special, ("d6", "scatter"), ("scatter",), counted=False)
    reader.numbered.next, reader.numbered.state = Obs((D6_AT_LEFT,)), "settled"
    out = reader.update(None)
    assert out is not None and out.status == "ok" and [d.value for d in out.dice] == [4]


def test_the_two_settlers_of_a_mixed_roll_share_one_motion_meter() -> None:
    from dataclasses import replace

    from vision.dice import DiceConfig, DiceSettler
    from vision.special_dice import SpecialDiceSettler

    numbered, special = DiceSettler(), SpecialDiceSettler(("scatter",))
    assert special.meter is not numbered.meter
    MixedRollReader(numbered, special, ("d6", "scatter"), ("scatter",), parallel=False)
    assert special.meter is numbered.meter
    # a numbered settler told its frames are RGB measures a converted copy: each keeps its own
    rgb = DiceSettler(replace(DiceConfig(), channel_order="rgb"))
    special2 = SpecialDiceSettler(("scatter",))
    MixedRollReader(rgb, special2, ("d6", "scatter"), ("scatter",), parallel=False)
    assert special2.meter is not rgb.meter


def test_old_special_dice_lying_beside_a_numbered_roll_are_left_out_of_it() -> None:
    """A 1d6 roll thrown beside a scatter die of an earlier roll: the numbered reader's unsure
    "d6" on the scatter die goes, the roll is read; only old dice there: no roll yet."""
    from vision.dice.types import DieReading

    d6 = DieReading(box=(100, 100, 30, 30), kind="d6", colour="white", value=4, confidence=0.99, status="read")
    old = DieReading(box=(305, 104, 34, 33), kind="d6", colour="white", value=None, confidence=0.4, status="unsure", guess=3)
    from vision.dice.reader import observation_of

    roll = observation_of([d6, old])
    assert roll.status == "unsure"
    out = leave_out(roll, Obs((SCATTER_AT_RIGHT,)))
    assert out is not None and out.status == "ok" and out.dice == (d6,)
    assert leave_out(roll, Obs(())) is roll  # no special die found: the roll as it was
    nothing = leave_out(observation_of([old]), Obs((SCATTER_AT_RIGHT,)))
    assert nothing.status == "empty" and nothing.dice == ()


def test_only_unread_dice_on_a_special_die_read_for_sure_are_left_out() -> None:
    """A die the numbered reader read stays whatever lies under it, and an unread one stays
    when the special reader is unsure of the die it sees there (on real d6 photos that reader
    is unsure of a "special die" on about a quarter of the d6)."""
    from vision.dice.reader import observation_of
    from vision.dice.types import DieReading

    read = DieReading(box=(305, 104, 34, 33), kind="d6", colour="white", value=5, confidence=0.99,
                      status="read", guess=5)
    unread = DieReading(box=(305, 104, 34, 33), kind="d6", colour="white", value=None,
                        confidence=0.4, status="unsure", guess=3)
    assert leave_out(observation_of([read]), Obs((SCATTER_AT_RIGHT,))).dice == (read,)
    doubtful = Die((300, 100, 40, 40), "scatter", None, "unsure", guess=7)
    roll = observation_of([unread])
    assert leave_out(roll, Obs((doubtful,))) is roll
    assert leave_out(roll, Obs((SCATTER_AT_RIGHT,))).dice == ()

def test_a_numbered_die_on_an_old_die_of_another_special_kind_is_left_out_of_a_mixed_roll() -> None:
    """A D6 and a block die thrown beside a scatter die of an earlier roll: the block reader
    read the scatter die too and left it out of the roll (``beside``); the D6 reader's unsure
    "d6" on it goes as well, when the special reader read the old die for sure."""
    block = Die((500, 100, 40, 40), "block", 6, guess=6)
    without = merge(Obs((D6_AT_LEFT, SCATTER_SEEN_AS_D6)), Obs((block,)), ("d6", "block"), ("block",))
    assert without.status == "unsure" and len(without.dice) == 3
    out = merge(Obs((D6_AT_LEFT, SCATTER_SEEN_AS_D6)), Obs((block,)), ("d6", "block"), ("block",),
                beside=(SCATTER_AT_RIGHT,))
    assert out.status == "ok" and [(d.kind, d.value) for d in out.dice] == [("d6", 4), ("block", 6)]
    doubtful = Die((300, 100, 40, 40), "scatter", None, "unsure", guess=7)
    out = merge(Obs((D6_AT_LEFT, SCATTER_SEEN_AS_D6)), Obs((block,)), ("d6", "block"), ("block",),
                beside=(doubtful,))
    assert len(out.dice) == 3  # an old die the special reader is unsure of leaves the d6 reading
