"""MonopoZombie's values: the player record, the table settings, the table-wide state, the
actions and the prompts (rule source: shared/rules/monopozombie.txt; rulings Z-n in
docs/monopozombie/rulings.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.monopoly import prompts
from companion.games.monopoly.actions import Action
from companion.games.monopoly.state import Options, PlayerState, VariantTable

if TYPE_CHECKING:
    from companion.games.monopoly.monopozombie.layer import MonopoZombie  # noqa: F401
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn

CAPITALISM, OUTBREAK, APOCALYPSE = "capitalism", "outbreak", "apocalypse"
STAGES = (CAPITALISM, OUTBREAK, APOCALYPSE)
DIRECTIONS = ("forward", "back")


@dataclass(frozen=True, slots=True)
class ZombiePlayer(PlayerState):
    """A MonopoZombie seat: human or zombie, homeless or not, first lap or not (Z-9)."""

    zombie: bool = False
    homeless: bool = False
    lap_done: bool = False  # first-lap immunity is over (MZ.14)
    bodyguards: int = 0  # active bodyguards (MZ.29, Z-16)
    renewed: bool = False  # bodyguards paid for the coming move (kept through the next roll)
    turning: bool = False  # rolled double-one: becomes a zombie on arrival (MZ.11)
    extra_roll: bool = False  # apocalypse: a chosen double allows one more roll (MZ.35)
    homeless_at_apocalypse: bool = False  # MZ.42, MZ.44
    circuit: int = 0  # squares walked forward since the outbreak began (2-3 players, Z-18)
    apart: int = 0  # turns still to take alone after a group's three turns (MZ.40)

    @property
    def human(self) -> bool:
        return not self.zombie


@dataclass(frozen=True, slots=True)
class ZombieOptions(Options):
    """MonopoZombie table settings (docs/monopozombie/rulings.md says why each exists)."""

    apocalypse_at: str = "printed"  # printed | one_away (Z-17)
    small_table: str = "circuit"  # circuit | half: 2-3 players (Z-18)
    jail_square_converts: bool = True  # Go To Jail square and third doubles convert (Z-7)
    zombies_draw_cards: bool = True  # zombies draw and discard (Z-10)
    bodyguard_price: int = 100  # MZ.29
    immunity_card: str = "auto"  # auto | ask: the holder is asked before a conversion (Z-8)
    apocalypse_cards: str = "zombie_only"  # zombie_only | none: cards in the apocalypse (Z-20)
    zombie_dice: str = "d4"  # d4 | d6: two d6 with every 5 or 6 rolled again (Z-29)
    # each seat's dice colour, in seat order ("red,white,blue,green"): a group's pooled roll is
    # then shared out by colour as the camera reads it; "" = entered in seat order (Z-23)
    die_colours: str = ""


CHOICES = {
    "apocalypse_at": ("printed", "one_away"),
    "small_table": ("circuit", "half"),
    "immunity_card": ("auto", "ask"),
    "apocalypse_cards": ("zombie_only", "none"),
    "zombie_dice": ("d4", "d6"),
}
"""The word options and the values each takes."""


GROUP_TURNS = 3  # a group moves together for at most three turns, then three apart (MZ.40)


@dataclass(frozen=True, slots=True)
class Group:
    """Humans travelling together in the apocalypse (MZ.37-MZ.41): they move on the turn of
    ``anchor`` (the most recent arrival); ``turns`` group moves made so far."""

    members: tuple[int, ...]  # seat order
    anchor: int
    turns: int = 0


@dataclass(frozen=True, slots=True)
class ZombieTable(VariantTable):
    """The stage, when each stage began (turn numbers, for the simulation report) and the
    groups."""

    stage: str = CAPITALISM
    outbreak_turn: int = 0
    apocalypse_turn: int = 0
    groups: tuple[Group, ...] = ()
    together: bool = False  # a group is arriving: the sharing check waits for all of them

    def group_of(self, seat: int) -> Group | None:
        for g in self.groups:
            if seat in g.members:
                return g
        return None


# --------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Steer(Action):
    """After a zombie's, an apocalypse human's or a homeless player's roll: the dice kept
    (values; empty = every die rolled) and the direction, ``forward`` (clockwise) or
    ``back``."""

    keep: tuple[int, ...]
    direction: str


@dataclass(frozen=True, slots=True)
class GoTo(Action):
    """After such a roll: go to this square (the engine finds the dice and direction)."""

    square: int


@dataclass(frozen=True, slots=True)
class HireBodyguards(Action):
    """Pay for ``count`` bodyguards through the coming move (MZ.29)."""

    count: int


@dataclass(frozen=True, slots=True)
class FormGroup(Action):
    """Travel together with the humans named (``others``), who share the player's square."""

    others: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeaveGroup(Action):
    """Leave one's group (the others stay together if two or more remain)."""


@dataclass(frozen=True, slots=True)
class Allocate(Action):
    """A group's pooled dice shared out: for each member (seat), the two dice kept (values)
    and the direction."""

    moves: tuple[tuple[int, tuple[int, ...], str], ...]


@dataclass(frozen=True, slots=True)
class Impasse(Action):
    """A member declares an impasse: each member moves with two of the dice they rolled."""


@dataclass(frozen=True, slots=True)
class AnswerImmunity(Action):
    """Asked before a conversion (option ``immunity_card=ask``): spend the immunity card
    (``use``) or keep it and become a zombie."""

    use: bool


# --------------------------------------------------------------------------------------
# Prompts
# --------------------------------------------------------------------------------------
def keep_options(dice: tuple[int, ...], keep: int) -> list[tuple[int, ...]]:
    """Each distinct choice of ``keep`` dice out of ``dice`` (values, sorted high first)."""
    out: set[tuple[int, ...]] = set()
    n = len(dice)
    if keep >= n:
        return [tuple(sorted(dice, reverse=True))]
    if keep == 1:
        return sorted({(d,) for d in dice}, reverse=True)
    for i in range(n):
        for j in range(i + 1, n):
            out.add(tuple(sorted((dice[i], dice[j]), reverse=True)))
    return sorted(out, reverse=True)


def is_kept(dice: tuple[int, ...], keep: tuple[int, ...]) -> bool:
    """Every kept value was rolled (each die once)."""
    return not Counter(keep) - Counter(dice)


@dataclass(frozen=True, slots=True)
class ChooseMove(prompts.Decision["MonopoZombie"]):
    """The roll is in: the player keeps ``keep`` of ``dice`` and picks a direction."""

    dice: tuple[int, ...]
    keep: int
    owner: int = -1  # a homeless move made on this owner's turn (repeats on their lots)
    grouped: bool = False  # part of a group's move after an impasse (no extra roll)

    @property
    def prompt(self) -> str:
        return f"choose the dice to keep and a direction ({' '.join(map(str, self.dice))})"

    def choices(self) -> list[tuple[tuple[int, ...], str]]:
        return [(k, d) for k in keep_options(self.dice, self.keep) for d in DIRECTIONS]

    def actions(self, rules: MonopoZombie, state: GameState) -> list[Action]:
        return [Steer(self.player, k, d) for k, d in self.choices()]


@dataclass(frozen=True, slots=True)
class HomelessRoll(prompts.RollFor["MonopoZombie"]):
    """A homeless player's out-of-turn move (MZ.7, MZ.8): 1d6 clockwise, or in the apocalypse
    2d6 keep one, either way (MZ.42)."""

    sides: tuple[int, ...] = (6,)
    owner: int = -1  # the lot owner whose turn it is (-1: pushed on by a passer-by)

    @property
    def prompt(self) -> str:
        return "roll for the homeless move"

    def rolled(self, rules: MonopoZombie, t: Txn, dice: tuple[int, ...]) -> None:
        rules.homeless_rolled(t, self, dice)


@dataclass(frozen=True, slots=True)
class ImmunityChoice(prompts.Decision["MonopoZombie"]):
    """A conversion (``how``) is about to make ``player`` a zombie and they hold an immunity
    card (option ``immunity_card=ask``, Z-8): use it or not. ``land`` >= 0: a double-one
    arrival on that square still to resolve (as a human or as a zombie) once answered."""

    how: str
    share: bool = False  # run the sharing check on their square if they become a zombie
    land: int = -1
    dice_total: int = 0

    @property
    def prompt(self) -> str:
        return "use the immunity card or become a zombie"

    def actions(self, rules: MonopoZombie, state: GameState) -> list[Action]:
        return [AnswerImmunity(self.player, True), AnswerImmunity(self.player, False)]


@dataclass(frozen=True, slots=True)
class ZombieReroll(prompts.RollFor["MonopoZombie"]):
    """Option ``zombie_dice=d6`` (Z-29): the zombie rolled two d6 and a 5 or 6 is rolled
    again; ``kept`` are the dice that stand (1-4)."""

    sides: tuple[int, ...] = (6,)
    kept: tuple[int, ...] = ()

    @property
    def prompt(self) -> str:
        return "roll again every 5 or 6"

    def rolled(self, rules: MonopoZombie, t: Txn, dice: tuple[int, ...]) -> None:
        rules.zombie_rerolled(t, self, dice)


@dataclass(frozen=True, slots=True)
class GroupMove(prompts.Decision["MonopoZombie"]):
    """A group's pooled roll is in: three dice per member, ``dice[3k:3k+3]`` rolled by
    ``members[k]`` (MZ.39, MZ.41). The answer is an ``Allocate`` (or an ``Impasse``)."""

    members: tuple[int, ...]
    dice: tuple[int, ...]

    @property
    def prompt(self) -> str:
        return f"share out the group's dice ({' '.join(map(str, self.dice))})"

    def own_dice(self, seat: int) -> tuple[int, ...]:
        k = self.members.index(seat)
        return self.dice[3 * k:3 * k + 3]

    def actions(self, rules: MonopoZombie, state: GameState) -> list[Action]:
        out: list[Action] = [Allocate(self.player, m) for m in rules.together_moves(state, self)]
        return out + [Impasse(m) for m in self.members]


@dataclass(frozen=True, slots=True)
class GroupMoved(prompts.Step["MonopoZombie"]):
    """After a group's members have moved (one by one, after an impasse): split those now
    apart, count the group's turn (MZ.40)."""

    members: tuple[int, ...]

    def run(self, rules: MonopoZombie, t: Txn) -> None:
        rules.group_moved(t, self.player, self.members)
