"""Waiting for a roll: the camera reads the dice, the players confirm or correct them.

The game says which dice it waits for (a :class:`~companion.core.dice.DicePrompt`: whose
roll, which dice, and why); its presenter makes the action that answers it. :class:`DiceEntry`
is the pad the decision panel shows meanwhile:

- ``camera``: the camera is live and the dice are not read yet ("Roll the dice"). CONFIRM
  switches to entering the values with the buttons.
- ``confirm``: the camera read a settled roll; the values are shown big. CONFIRM accepts them
  (one press); any other button lets the player correct them.
- ``edit``: values entered with the buttons: PREV/NEXT change the highlighted die, CONFIRM
  moves to the next die and, after the last, submits; BACK goes to the previous die (or, on
  the first, leaves the dice to the other options).

Without a camera the entry starts in ``edit``. A camera reading that does not fit the roll
(wrong number of dice, a value a die cannot show, an unsure die) is shown with what is wrong
and never submitted as it is: a person confirms or corrects it. When the camera was unsure of
a die, CONFIRM starts the entry from the reader's best guess for it (``DiceSeen.guesses``)
instead of 1, marked as a guess until the person has stepped past it with CONFIRM or changed
it: on the real eval photos the guess is right for about three unsure dice in four at 48 px
and more (docs/vision-dice.md), and it is never submitted without a press on that die.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.core.actions import Action
from companion.core.dice import DicePrompt, DieKind
from companion.kiosk.inputs import Outcome, Pop, Row, Submit
from hardware.buttons import Input, InputKind


@dataclass(frozen=True)
class DiceSeen:
    """A settled roll as the camera read it (value None = a die it could not read)."""

    values: tuple[int | None, ...]
    status: str = "ok"  # ok | unsure | cocked
    message: str = ""
    settled_at: float = 0.0  # time.perf_counter() when the settler reported it
    guesses: tuple[int | None, ...] = ()  # the reader's most likely value per die, sure or not
    crops: Any = None  # the dice as kept for learning (``dice_learning.RollCrops``), or None
    colours: tuple[str, ...] = ()  # each die's colour as the reader tells it ("" unknown): a
    # colour name, or a colour tag of a reader that knows whose die it is (a piecepack die's
    # suit); what it means is the game's business (its presenter's ``roll_read``)
    confidences: tuple[float, ...] = ()  # how sure the reader is of each die's value or guess

    @classmethod
    def of(cls, obs: Any, settled_at: float = 0.0, crops: Any = None,
           colours: tuple[str, ...] = ()) -> DiceSeen:
        """The reading the kiosk takes from a settled dice observation (``vision.dice``'s
        ``DiceObservation`` or the special dice reader's): each die's value (None: not read) and
        guess, in the observation's order, and its status and message."""
        dice = tuple(obs.dice)
        return cls(tuple(d.value for d in dice), str(obs.status), str(getattr(obs, "message", "")),
                   settled_at, tuple(getattr(d, "guess", None) for d in dice), crops=crops, colours=colours,
                   confidences=tuple(float(getattr(d, "confidence", 0.0) or 0.0) for d in dice))

    def only(self, keep: Sequence[int]) -> DiceSeen:
        """The same reading with only the dice at positions ``keep`` (in that order)."""
        def pick(items: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(items[i] for i in keep) if items else ()
        return replace(self, values=pick(self.values), guesses=pick(self.guesses),
                       colours=pick(self.colours), confidences=pick(self.confidences), crops=None)


def in_colour_order(prompt: DicePrompt, seen: DiceSeen) -> tuple[DiceSeen, str]:
    """A reading put in the prompt's order of colours (``DicePrompt.colours``: die k is the
    one of that colour), with "" or what is wrong with the colours seen. Readings without
    colours, prompts without colours and readings of the wrong count are left as they are."""
    want = prompt.colours
    if not want or len(seen.colours) != len(seen.values) or len(seen.values) != len(want):
        return seen, ""
    need, got = Counter(want), Counter(seen.colours)
    if need != got:
        def say(c: Counter[str]) -> str:
            return ", ".join(f"{n} {colour or 'unknown'}" for colour, n in sorted(c.items()))
        return seen, (f"the camera sees {say(got)} dice, this roll needs {say(need)}: check "
                      "the dice colours, or press CONFIRM to enter the values")
    free = list(range(len(seen.values)))
    order = []
    for colour in want:
        k = next(i for i in free if seen.colours[i] == colour)
        free.remove(k)
        order.append(k)
    guesses = tuple(seen.guesses[k] for k in order) if len(seen.guesses) == len(order) else ()
    return replace(seen, values=tuple(seen.values[k] for k in order), guesses=guesses,
                   colours=tuple(seen.colours[k] for k in order)), ""


@dataclass(frozen=True)
class RollRead:
    """What the game's presenter makes of a camera reading for the roll it waits for
    (``Presenter.roll_read``): ``seen``, the dice of this roll to offer for confirming (None:
    refused, ``problem`` says why and what to do); ``keep``: the same throw also holds a later
    roll (both fighters throw at once), so the reading is offered again to the next prompt."""

    seen: DiceSeen | None
    problem: str = ""
    keep: bool = False


class DiceEntry:
    """The dice pad (see the module docstring)."""

    def __init__(self, prompt: DicePrompt, player_name: str, camera_live: bool,
                 make: Callable[[tuple[int, ...]], Action]) -> None:
        self.prompt = prompt
        self.sides = tuple(max(k.faces) for k in prompt.dice)
        self.faces = tuple(tuple(k.faces) for k in prompt.dice)  # e.g. 0-5 for a piecepack die
        self.player_name = player_name
        self.make = make  # the action that answers the prompt with these values
        self.submitted: Action | None = None
        self.mode = "camera" if camera_live else "edit"
        self.values: list[int] = [f[0] for f in self.faces]
        self.guessed: list[bool] = [False] * len(self.sides)  # a camera guess not yet checked
        self.cursor = 0
        self.seen: DiceSeen | None = None
        self.problem = ""
        self.source = ""  # camera | buttons: where the submitted values came from
        self.shown_at: float | None = None  # perf_counter when the values were first drawn

    @property
    def title(self) -> str:
        purpose = self.prompt.purpose
        what = "" if purpose in ("move", "") else f" ({purpose.replace('_', ' ')})"
        return f"{self.player_name}: roll {describe_dice(self.prompt.dice)}{what}"

    def labels(self) -> tuple[str, ...]:
        """Each die's value as its face is read out ("null", "ace" on a piecepack die)."""
        return tuple(k.label(v) for k, v in zip(self.prompt.dice, self.values, strict=True))

    def kinds(self) -> tuple[str, ...]:
        """Each die's kind name (what the camera's readers are registered by)."""
        return tuple(k.name for k in self.prompt.dice)

    def captions(self) -> tuple[str, ...]:
        """What the screen writes under each die: its colour when the roll tells dice apart
        by colour, else its name ("d6", "piecepack die")."""
        if len(self.prompt.colours) == len(self.prompt.dice):
            return self.prompt.colours
        return self.titles()

    def titles(self) -> tuple[str, ...]:
        """Each die as the screen names it ("d6", "piecepack die")."""
        return tuple(die_title(k) for k in self.prompt.dice)

    # -- camera ------------------------------------------------------------------------------
    def camera_lost(self) -> None:
        if self.mode == "camera":
            self.mode = "edit"

    def offer(self, seen: DiceSeen) -> bool:
        """A settled reading from the camera; True if it is now shown for confirmation."""
        if self.mode == "edit":
            return False  # the player is typing: never overwrite what they entered
        seen, colour_problem = in_colour_order(self.prompt, seen)
        self.seen = seen
        self.problem = colour_problem or self.check(seen.values, seen.status)
        if self.problem:
            self.mode = "camera"
            return False
        self.values = [int(v) for v in seen.values if v is not None]
        self.guessed = [False] * len(self.values)
        self.mode = "confirm"
        self.cursor = 0
        self.shown_at = None
        return True

    def refuse(self, problem: str) -> None:
        """A camera reading the game will not take for this roll (e.g. another player's die):
        shown with ``problem``; nothing of it is kept, the entry waits for the next throw (or
        CONFIRM: the buttons)."""
        if self.mode == "edit":
            return
        self.seen = None
        self.problem = problem
        self.mode = "camera"

    def check(self, values: Sequence[int | None], status: str = "ok") -> str:
        """Why a reading cannot be confirmed as it is ("" when it can)."""
        want = len(self.sides)
        if len(values) != want:
            seen = f"{len(values)} {'die' if len(values) == 1 else 'dice'}"
            fix = ("take the extra dice away" if len(values) > want else
                   "make sure every die is in the tray and in view")
            return (f"the camera sees {seen}, this roll needs {want}: {fix}, "
                    "or press CONFIRM to enter the values")
        if any(v is None for v in values) or status != "ok":
            if self.has_guess():
                return "a die is unsure: press CONFIRM to check it"
            return "a die is unsure: press CONFIRM to enter it"
        for v, kind in zip(values, self.prompt.dice, strict=True):
            assert v is not None
            if v not in kind.faces:
                return (f"a {die_title(kind)} cannot show {v}: press CONFIRM to enter the "
                        "values")
        return ""

    # -- buttons -----------------------------------------------------------------------------
    def handle(self, inp: Input) -> Outcome | None:
        k = inp.kind
        if self.mode == "camera":
            if k is InputKind.CONFIRM:
                self.mode = "edit"
                self.cursor = 0
                self.problem = ""  # what was wrong with the reading: the person enters it now
                if self.seen is not None:
                    self.values, self.guessed = self.start_values()
            elif k is InputKind.BACK:
                return Pop()
            return None
        if self.mode == "confirm":
            if k is InputKind.CONFIRM:
                self.source = "camera"
                return self._submit()
            self.mode = "edit"  # any other press: correct the values
            self.cursor = 0
            return None
        # edit
        faces = self.faces[self.cursor]
        if k in (InputKind.NEXT, InputKind.PREV, InputKind.CONFIRM):
            self.guessed[self.cursor] = False  # changed or stepped past: checked by a person
        if k is InputKind.NEXT:
            self.values[self.cursor] = faces[(_at(faces, self.values[self.cursor]) + 1)
                                             % len(faces)]
        elif k is InputKind.PREV:
            self.values[self.cursor] = faces[(_at(faces, self.values[self.cursor]) - 1)
                                             % len(faces)]
        elif k is InputKind.CONFIRM:
            if self.cursor + 1 < len(self.values):
                self.cursor += 1
            else:
                self.source = "buttons" if self.seen is None or \
                    tuple(self.values) != self.seen.values else "camera"
                return self._submit()
        elif k is InputKind.BACK:
            if self.cursor > 0:
                self.cursor -= 1
            else:
                return Pop()
        return None

    def _submit(self) -> Submit:
        self.submitted = self.make(tuple(self.values))
        return Submit(self.submitted)

    def has_guess(self) -> bool:
        """The entry would start from a camera guess for at least one die it could not read."""
        return self.seen is not None and any(self.start_values()[1])

    def start_values(self) -> tuple[list[int], list[bool]]:
        """The values an entry after a camera reading starts from: each die's reading, else
        the reader's guess for it (marked as a guess), else 1. When the camera saw more dice
        than the roll has (a die too many, or a box where no die lies), the entry starts from
        the dice it read, then the unsure ones, the surest first of each (a reading without
        confidences: in the order seen), the dice kept in the order seen."""
        assert self.seen is not None
        n = len(self.sides)
        seen = self.seen
        if len(seen.values) > n:
            conf = seen.confidences if len(seen.confidences) == len(seen.values) else (0.0,) * len(seen.values)
            surest = sorted(range(len(seen.values)), key=lambda k: (seen.values[k] is None, -conf[k]))[:n]
            seen = seen.only(sorted(surest))
        values: list[int] = []
        guessed: list[bool] = []
        for v, g, f in zip(_pad(seen.values, n), _pad(seen.guesses, n), self.faces,
                           strict=True):
            if v is None and g is not None and g in f:
                values.append(g)
                guessed.append(True)
            else:
                values.append(v if v is not None and v in f else
                              min(max(f[0], v or f[0]), f[-1]))
                guessed.append(False)
        return values, guessed

    def rows(self) -> list[Row]:
        """A text form of the pad (the decision view draws the dice big instead)."""
        out = [Row(f"{kind}: {label}" + (" (camera's guess: check it)" if self.guessed[i]
                                         else ""),
                   self.mode == "edit" and i == self.cursor)
               for i, (label, kind) in enumerate(zip(self.labels(), self.titles(), strict=True))]
        return out

    def hint(self) -> str:
        if self.mode == "camera":
            if self.problem and self.has_guess():
                return "CONFIRM: check the camera's guess"
            if len(self.faces) == 1:
                return "Roll the die on the table. CONFIRM: type it in instead"
            return "Roll the dice on the table. CONFIRM: type them in instead"
        if self.mode == "confirm":
            return "CONFIRM: accept  -  any other button: correct"
        last = self.cursor + 1 == len(self.values)
        check = "The camera's guess: check it.  " if self.guessed[self.cursor] else ""
        return (check + "PREV/NEXT: change die  -  CONFIRM: " + ("done" if last else "next die")
                + "  -  BACK: " + ("previous die" if self.cursor else "other choices"))

    def plan_entry(self, values: Sequence[int]) -> list[Input]:
        """Presses that enter ``values`` from the current state (the demo autopilot)."""
        from hardware.buttons import CONFIRM, NEXT

        out: list[Input] = []
        if self.mode == "camera":
            out.append(CONFIRM)
            start = [f[0] for f in self.faces] if self.seen is None else self.start_values()[0]
        elif self.mode == "confirm":
            if list(values) == self.values:
                return [CONFIRM]
            from hardware.buttons import BACK
            out.append(BACK)  # any other press starts the correction
            start = list(self.values)
        else:
            start = list(self.values)
            if self.cursor:
                return []  # mid-entry: leave it to the person
        for v, f, cur in zip(values, self.faces, start, strict=True):
            out += [NEXT] * ((_at(f, v) - _at(f, cur)) % len(f))
            out.append(CONFIRM)
        return out


def _pad(values: Sequence[int | None], n: int) -> list[int | None]:
    out = list(values)[:n]
    return out + [None] * (n - len(out))


def _at(faces: tuple[int, ...], value: int) -> int:
    """A value's place among a die's faces (a value off the die counts as the first face)."""
    return faces.index(value) if value in faces else 0


def numbered_name(name: str) -> bool:
    """A kind named as a numbered die ("d6", "d20")."""
    return name[:1] == "d" and name[1:].isdigit()


def die_title(kind: DieKind) -> str:
    """A die as the screen names it: its kind's own name ("d6"; "piecepack die", "block die"),
    never its number of faces."""
    return kind.name if numbered_name(kind.name) else f"{kind.name} die"


def describe_dice(dice: Sequence[DieKind]) -> str:
    """"2d6", "1d6 + 1d4", "1 piecepack die": the dice of a roll in words."""
    counts: dict[str, int] = {}
    for kind in dice:
        counts[kind.name] = counts.get(kind.name, 0) + 1
    return " + ".join(f"{n}{name}" if numbered_name(name) else
                      f"{n} {name} {'die' if n == 1 else 'dice'}" for name, n in counts.items())
