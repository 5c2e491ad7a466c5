"""Dice a game asks for: which kinds, how many, for what, and who rolls them.

A die kind is a name and its faces, so a pipped d6, a d4, a piecepack die (null, ace, 2-5) or a
block die all fit. The game says what it asks for; the camera or a person on the buttons answers
with face values, which arrive in the game's own roll action.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DieKind:
    name: str  # "d6", "d4", "piecepack", "block" ...
    faces: tuple[int, ...]  # the values a face can give, as the game's roll action carries them
    labels: tuple[str, ...] = ()  # how each face is read out, when not its number

    def label(self, value: int) -> str:
        if self.labels and value in self.faces:
            return self.labels[self.faces.index(value)]
        return str(value)


D4 = DieKind("d4", (1, 2, 3, 4))
D6 = DieKind("d6", (1, 2, 3, 4, 5, 6))
D8 = DieKind("d8", tuple(range(1, 9)))
D10 = DieKind("d10", tuple(range(1, 11)))
D12 = DieKind("d12", tuple(range(1, 13)))
D20 = DieKind("d20", tuple(range(1, 21)))
STANDARD: dict[int, DieKind] = {k.faces[-1]: k for k in (D4, D6, D8, D10, D12, D20)}

BLOCK = DieKind("block", (1, 2, 3, 4, 5, 6), ("attacker down", "both down", "pushed", "pushed",
                                              "defender stumbles", "defender down"))
"""The fantasy-football block die: five symbols on six faces (pushed on faces 3 and 4; the camera
reads a pushed face as 3)."""
SCATTER = DieKind("scatter", tuple(range(1, 9)),
                  ("up-left", "up", "up-right", "left", "right", "down-left", "down",
                   "down-right"))
"""The scatter die: a d8 whose arrow gives a direction relative to the board as registered,
numbered as the base game's scatter template: 1 up-left, 2 up, 3 up-right, 4 left, 5 right,
6 down-left, 7 down, 8 down-right ("up" is the board's north, the top edge of its drawing)."""


def die_of_sides(sides: int) -> DieKind:
    """The numbered die with ``sides`` faces (1..sides)."""
    known = STANDARD.get(sides)
    return known if known is not None else DieKind(f"d{sides}", tuple(range(1, sides + 1)))


@dataclass(frozen=True, slots=True)
class DicePrompt:
    """The roll a game waits for: ``dice`` in order, rolled by seat ``player``, for ``purpose``
    (words for the screen: "move", "to leave jail", "Fireball damage" ...). ``colours``: when
    the table tells dice apart by colour (e.g. one colour per player in a pooled roll), the
    colour name of each die in order, as the dice reader names colours ("red", "white" ...);
    () when any die may be any colour."""

    player: int
    dice: tuple[DieKind, ...]
    purpose: str = ""
    colours: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.dice)

    def check(self, values: tuple[int, ...]) -> str | None:
        """What is wrong with ``values`` as the answer to this prompt, or None."""
        if len(values) != len(self.dice):
            return f"expected {len(self.dice)} dice, got {len(values)}"
        for i, (kind, value) in enumerate(zip(self.dice, values, strict=True), start=1):
            if value not in kind.faces:
                return f"die {i} ({kind.name}) cannot show {value}"
        return None
