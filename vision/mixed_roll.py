"""One throw of numbered dice and special dice together, read by both readers at once.

Some rolls mix a numbered die with a die of a kind the numbered reader does not read (a ball
that runs a D6 of squares in a scatter die's direction). Such a roll is read with a
:class:`MixedRollReader` (the kiosk's table feed, ``companion dice watch --kinds d6,scatter``):
every frame goes to the numbered dice settler (told to read only the roll's numbered types) and
to the other kinds' reader (``vision.special_dice``), and once both have a settled reading of
the throw the two are put together as one roll by :func:`merge` (reported once, and again only
if the special dice settle to another reading; ``companion dice read`` merges one photo's two
readings the same way):

- a numbered die whose box lies on a die the other reader found is that die seen by the wrong
  reader (a scatter die is an odd-looking d6 to the numbered reader) and is left out;
- when the other reader missed one of its dice and the numbered reader found a die too many
  that it could not read, that die stands for the missing one (unsure, for a person to enter),
  so the numbered dice it did read keep their places;
- the dice come in the order of the roll's kinds (``DicePrompt.dice``: a D6 then a scatter die
  gives the D6's reading first), left to right within a kind;
- the roll is ``ok`` only when every die is read and each kind has as many dice as the roll
  asks for; else it is ``unsure`` and the message says what the camera saw, so that a person
  confirms or enters the dice.

A roll of numbered dice alone may be thrown beside block or scatter dice left from an earlier
roll: :func:`leave_out` takes the numbered reader's unread dice that lie on a die the special
reader read out of its reading (the kiosk's table feed does this for the kinds the table has
rolled).

It has the shape of the table feed's ``DiceReader`` (``update``, ``reset``, ``state``, ``last``,
``region``; ``board_to_frame`` goes to the special reader, ``closer`` to the numbered one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

READ = "read"


@dataclass(frozen=True)
class MixedObservation:
    """A throw of mixed dice: ``dice`` (the two readers' readings, stand-ins for missed dice) in the
    roll's order of kinds; ``status`` ok, unsure or (a photo with none) empty."""

    dice: tuple[Any, ...]
    status: str
    message: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status, "message": self.message,
                "dice": [d.to_dict() for d in self.dice]}


def _centre(box: Sequence[float]) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def _on(die: Any, other: Any) -> bool:
    """``die``'s centre lies inside ``other``'s box widened by a quarter of its side."""
    cx, cy = _centre(die.box)
    x, y, w, h = other.box
    m = 0.25 * max(w, h)
    return bool(x - m <= cx <= x + w + m and y - m <= cy <= y + h + m)


def _kind_word(kind: str, n: int) -> str:
    return f"{n} {kind}" if kind.startswith("d") and kind[1:].isdigit() else \
        f"{n} {kind} {'die' if n == 1 else 'dice'}"


def merge(numbered: Any, special: Any, kinds: Sequence[str], special_kinds: Sequence[str],
          counted: bool = True, beside: Sequence[Any] = ()) -> MixedObservation:
    """The two readers' readings of one throw (either may be None: nothing seen yet) as one
    roll of ``kinds``, of which ``special_kinds`` are the special reader's (see the module).
    ``counted`` False: ``kinds`` are the types in play, not the roll's dice (a photo of any
    number of them): no count is checked and no die stood in for. ``beside``: old dice of
    other special kinds the special reader found lying there (not the roll's): an unread
    numbered die on one it read is left out too (as :func:`leave_out` leaves it out)."""
    others = list(special.dice) if special is not None else []
    old = [o for o in beside if getattr(o, "status", "") == READ]
    mine = [d for d in (numbered.dice if numbered is not None else ())
            if not any(_on(d, o) for o in others)
            and (getattr(d, "status", "") == READ or not any(_on(d, o) for o in old))]
    if counted:
        _stand_in(mine, others, kinds, special_kinds)
    dice: list[Any] = []
    numbered_placed = False
    for kind in dict.fromkeys(kinds):
        if kind in special_kinds:
            group = [o for o in others if getattr(o, "kind", None) == kind]
        elif numbered_placed:
            continue
        else:  # the numbered dice together: the numbered reader tells their types itself
            group, numbered_placed = list(mine), True
        dice.extend(sorted(group, key=lambda d: _centre(d.box)[0]))
    seen = Counter(str(getattr(d, "kind", "")) for d in dice)
    wanted = Counter(kinds)
    if not dice and not counted:
        return MixedObservation((), "empty", "no dice found")
    if counted and seen != wanted:
        got = ", ".join(_kind_word(k, n) for k, n in seen.items()) or "no dice"
        need = ", ".join(_kind_word(k, n) for k, n in wanted.items())
        return MixedObservation(tuple(dice), "unsure",
                                f"the camera sees {got}; this roll is {need}: check the dice, "
                                "or press CONFIRM to enter them")
    if any(getattr(d, "status", "") != READ or getattr(d, "value", None) is None for d in dice):
        return MixedObservation(tuple(dice), "unsure", "a die is unsure: please confirm")
    return MixedObservation(tuple(dice), "ok")


def leave_out(numbered: Any, special: Any) -> Any:
    """A numbered roll's reading (``vision.dice``'s ``DiceObservation``) without the dice it
    could not read that lie on a die the special reader read in the same frame (``special``):
    block or scatter dice left in the tray from an earlier roll, which the numbered reader
    takes for unreadable d6. A die the numbered reader read stays, and so does one on a die the
    special reader is unsure of: on real photos of d6 alone, which it never learned from, it
    is unsure of a "block or scatter die" on about a quarter of them (docs/vision-special-
    dice.md). The same reading when none is left out; an empty one when nothing is left (only
    old dice lie there: no throw yet)."""
    others = [o for o in getattr(special, "dice", ()) or () if getattr(o, "status", "") == READ]
    kept = [d for d in numbered.dice
            if getattr(d, "status", "") == READ or not any(_on(d, o) for o in others)]
    if len(kept) == len(numbered.dice):
        return numbered
    from vision.dice.reader import observation_of

    return observation_of(kept)


@dataclass(frozen=True)
class StandIn:
    """A special die the special reader missed, where the numbered reader found a die it could
    not read: unsure, without a guess (the numbered reader's guess is a d6 face)."""

    box: tuple[int, int, int, int]
    kind: str
    value: None = None
    status: str = "unsure"
    guess: None = None
    label: str = ""
    confidence: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {"box": list(self.box), "kind": self.kind, "value": None, "status": self.status,
                "guess": None, "stand_in": True}


def _stand_in(mine: list[Any], others: list[Any], kinds: Sequence[str],
              special_kinds: Sequence[str]) -> None:
    """When the numbered reader found more dice than the roll's numbered dice and the special
    reader fewer than its own, the numbered reader's unread dice (largest first: a block or
    scatter die is bigger than a d6) are taken for the missing special dice, in place."""
    wanted = Counter(kinds)
    numbered_count = sum(n for k, n in wanted.items() if k not in special_kinds)
    for kind in special_kinds:
        missing = wanted[kind] - sum(1 for o in others if getattr(o, "kind", None) == kind)
        unread = sorted((d for d in mine if getattr(d, "status", "") != READ),
                        key=lambda d: -d.box[2] * d.box[3])
        while missing > 0 and len(mine) > numbered_count and unread:
            die = unread.pop(0)
            mine.remove(die)
            others.append(StandIn(tuple(die.box), kind))
            missing -= 1


class MixedRollReader:
    """Reads a roll mixing numbered dice (``numbered``: the numbered dice settler) with dice of
    other kinds (``special``: their reader, for ``special_kinds``); ``kinds`` are the roll's
    die kinds in its order (``counted`` False: the types in play, for a throw of any number)."""

    def __init__(self, numbered: Any, special: Any, kinds: Sequence[str],
                 special_kinds: Sequence[str], parallel: bool = True,
                 counted: bool = True) -> None:
        self.numbered = numbered
        self.special = special
        self.kinds = tuple(kinds)
        self.special_kinds = tuple(special_kinds)
        self.counted = counted  # False: ``kinds`` are the types in play, not the roll's dice
        # the special reader on a thread of its own while the numbered one reads the frame
        # (their networks let go of the interpreter; docs/vision-special-dice.md gives the
        # frame times both ways)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="special-dice") if parallel else None
        # both settlers watch the same dice area: one motion measure a frame serves them both
        # (a numbered settler told the frames are RGB converts them, and measures alone)
        config = getattr(numbered, "config", None)
        if (hasattr(numbered, "meter") and hasattr(special, "meter")
                and getattr(config, "channel_order", "bgr") == "bgr"):
            special.meter = numbered.meter
        self._numbered_seen: Any = None
        self._reported: tuple[Any, ...] | None = None  # the special dice as last reported
        self.last: MixedObservation | None = None

    # -- what the table feed sets --------------------------------------------------------------
    @property
    def region(self) -> Any:
        return getattr(self.numbered, "region", None)

    @region.setter
    def region(self, value: Any) -> None:
        for part in (self.numbered, self.special):
            if hasattr(part, "region"):
                part.region = value

    @property
    def board_to_frame(self) -> Any:
        return getattr(self.special, "board_to_frame", None)

    @board_to_frame.setter
    def board_to_frame(self, value: Any) -> None:
        if hasattr(self.special, "board_to_frame"):
            self.special.board_to_frame = value

    @property
    def closer(self) -> Any:
        return getattr(self.numbered, "closer", None)

    @closer.setter
    def closer(self, value: Any) -> None:
        if hasattr(self.numbered, "closer"):
            self.numbered.closer = value

    @property
    def state(self) -> str:
        states = {str(getattr(p, "state", "")) for p in (self.numbered, self.special)}
        for s in ("moving", "settling", "waiting"):
            if s in states:
                return s
        return "settled" if states == {"settled"} else ""

    # -- reading ---------------------------------------------------------------------------------
    def reset(self) -> None:
        self.numbered.reset()
        self.special.reset()
        self._numbered_seen = None
        self._reported = None
        self.last = None

    def update(self, frame: Any) -> MixedObservation | None:
        """One frame to both readers; the roll once both have a settled reading of it (again
        when the special dice settle to another reading of the same throw)."""
        if self._pool is not None:
            pending = self._pool.submit(self.special.update, frame)
            a = self.numbered.update(frame)
            pending.result()  # its reading is kept as ``special.last``; an error is raised here
        else:
            a = self.numbered.update(frame)
            self.special.update(frame)
        if getattr(self.numbered, "state", "") == "moving":  # a new throw
            self._numbered_seen, self._reported = None, None
        if a is not None:
            self._numbered_seen = a
        elif self._numbered_seen is None and getattr(self.numbered, "state", "") == "settled":
            # the numbered reader reports nothing for a still frame without numbered dice
            # (it may have missed them among the others): its reading of the frame stands
            last = getattr(self.numbered, "last", None)
            if last is not None and getattr(last, "status", "") == "empty":
                self._numbered_seen = last
        special = getattr(self.special, "last", None)
        beside = tuple(getattr(self.special, "lying_seen", ()) or ())
        self.last = merge(getattr(self.numbered, "last", None), special, self.kinds,
                          self.special_kinds, self.counted, beside)
        # the special reader is done with the throw when it settled, or when it finds no die
        # at all on the frames the numbered reader settled on (it missed them, or there are
        # none: the roll then says what it lacks)
        state = getattr(self.special, "state", "")
        done = state == "settled" or (state == "waiting" and special is not None
                                      and getattr(special, "status", "") == "empty")
        if self._numbered_seen is None or special is None or not done:
            return None
        signature = tuple((getattr(d, "kind", ""), getattr(d, "guess", None),
                           getattr(d, "status", "")) for d in special.dice)
        if signature == self._reported:
            return None
        self._reported = signature
        out = merge(self._numbered_seen, special, self.kinds, self.special_kinds, self.counted, beside)
        self.last = out
        return out
