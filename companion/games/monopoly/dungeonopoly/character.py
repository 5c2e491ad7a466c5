"""A Dungeonopoly character: a Monopoly player with a class, a level, EP and enchantments.

Rule source: Dungeonopoly, "Introduction and basic rules" (classes, levels, EP) and the
technical terms (enchantments, hidden, single use). All fields are plain values so the state
stays immutable and comparable; ``Character`` is the ``player_type`` of the layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.monopoly.state import PlayerState

MAX_LEVEL = 10
EP_PER_LEVEL = 10
SKILL_POINTS_AT_FIRST_LEVEL = 30
SKILL_POINTS_PER_LEVEL = 5
MAX_SKILL_RANKS = 15


@dataclass(frozen=True, slots=True)
class Enchantment:
    """A lasting effect on a character or a square (a target for Counterspell).

    ``source`` is the seat of the character who created it (-1 when unknown, e.g. set up
    mid-game), ``level`` the creator's level when it was cast; ``mental`` marks mental
    enchantments (Ascended clerics are immune to them)."""

    name: str
    source: int = -1
    level: int = 1
    mental: bool = False

    def label(self) -> str:
        return f"{self.name}:{self.level}"


@dataclass(frozen=True, slots=True)
class SquareEnchantment:
    """An enchantment attached to a square (Bless, Curse, Glyph of Warding), kept in the
    table's ``DungeonTable`` (table.py) as a sorted tuple of these."""

    square: int
    enchantment: Enchantment


def level_for(ep: int, per_level: int = EP_PER_LEVEL) -> int:
    """A new level for every ``per_level`` EP, from level 1, at most level 10."""
    return min(MAX_LEVEL, 1 + ep // max(1, per_level))


def skill_points_total(level: int) -> int:
    """Rogue skill points: 30 at level 1 and 5 more with each level gained."""
    return SKILL_POINTS_AT_FIRST_LEVEL + SKILL_POINTS_PER_LEVEL * (level - 1)


@dataclass(frozen=True, slots=True)
class Character(PlayerState):
    role: str = ""  # the character class (fighter, wizard, ...); "" = plain Monopoly player
    level: int = 1
    ep: int = 0
    enchantments: tuple[Enchantment, ...] = ()
    spent: tuple[str, ...] = ()  # single-use abilities used since last passing GO
    turn: tuple[str, ...] = ()  # flags for the character's current turn (see layer)
    hidden: bool = False  # hidden by sneaking (Invisibility is an enchantment instead)
    skills: tuple[tuple[str, int], ...] = ()  # rogue skill ranks, sorted by skill name
    # choices made when levelling, as (kind, value) pairs in the order made: ("melody",
    # "dirge_of_doom"), ("form", "bear"), ("borrow", "fighter:attack") ...
    choices: tuple[tuple[str, str], ...] = ()
    # small named counters that outlive a turn (a wild shape form, a mount, a reservoir ...),
    # sorted by name; absent = 0
    counters: tuple[tuple[str, int], ...] = ()
    # EP per level at this table (the quicker game's 5), fixed when seated, so that referee
    # corrections (``set player X ep=N``) derive the level like the game does
    ep_per_level: int = EP_PER_LEVEL

    # --- reading ------------------------------------------------------------------------
    def enchanted(self, name: str) -> Enchantment | None:
        for e in self.enchantments:
            if e.name == name:
                return e
        return None

    def has_flag(self, flag: str) -> bool:
        return flag in self.turn

    def ranks(self, skill: str) -> int:
        for name, ranks in self.skills:
            if name == skill:
                return ranks
        return 0

    def chosen(self, kind: str) -> tuple[str, ...]:
        return tuple(v for k, v in self.choices if k == kind)

    def counter(self, name: str) -> int:
        for k, v in self.counters:
            if k == name:
                return v
        return 0

    @property
    def skill_points_spent(self) -> int:
        return sum(r for _n, r in self.skills)

    @property
    def is_hidden(self) -> bool:
        """Technical term "hidden": after sneaking or while invisible, until the next turn."""
        return self.hidden or self.enchanted("invisibility") is not None or \
            self.counter("obscured") > 0  # standing in an Obscuring Mist (druid)

    # --- pure updates (return new values) --------------------------------------------------
    def with_enchantment(self, e: Enchantment) -> tuple[Enchantment, ...]:
        return tuple(x for x in self.enchantments if x.name != e.name or x.source != e.source) + (e,)

    def without_enchantment(self, name: str, source: int | None = None) -> tuple[Enchantment, ...]:
        out = []
        removed = False
        for x in self.enchantments:
            if not removed and x.name == name and (source is None or x.source == source):
                removed = True
                continue
            out.append(x)
        return tuple(out)

    def with_choice(self, kind: str, value: str) -> tuple[tuple[str, str], ...]:
        return self.choices + ((kind, value),)

    def with_counter(self, name: str, value: int) -> tuple[tuple[str, int], ...]:
        table = dict(self.counters)
        table[name] = value
        return tuple(sorted((k, v) for k, v in table.items() if v))

    def with_skill(self, skill: str, ranks: int) -> tuple[tuple[str, int], ...]:
        table = dict(self.skills)
        table[skill] = ranks
        return tuple(sorted((k, v) for k, v in table.items() if v))
