"""The druid's primal enchantments on squares (rule source: Dungeonopoly, "Druid abilities",
"Primal Enchantment"), and Antimagic Field's suppression.

Each primal spell enchants one square at a time per druid: casting it again moves it. The
enchantments are ordinary square enchantments (listed in state, dispellable by Counterspell)
whose effects are read here by the druid's table effect:

- Entangle: passing through costs two extra squares of movement (not for its druid);
- Obscuring Mist: characters standing there are hidden (not those under Glitterdust);
- Hallow: characters standing there take no damage;
- Insect Plague: characters standing there cannot use abilities;
- Wall of Thorns: passing over it, a character stops there or takes damage (not its druid);
- Antimagic Field: the square and the characters on it cannot be enchanted, their active
  enchantments are suppressed (set aside, not lost) and nobody there can cast spells.

A character in jail is in an isolated cell, never "on" the Just Visiting square.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.dungeonopoly.character import Enchantment, SquareEnchantment
from companion.games.monopoly.dungeonopoly.table import DungeonTable
from companion.games.monopoly.dungeonopoly.table import Suppressed as Suppressed
from companion.games.monopoly.dungeonopoly.terms import Table

PRIMAL_SPELLS = ("entangle", "obscuring_mist", "hallow", "insect_plague", "wall_of_thorns",
                 "antimagic_field")
ENTANGLE_COST = 2  # extra squares of movement to pass an Entangled square


def primal_squares(found: DungeonTable, name: str) -> list[SquareEnchantment]:
    return [e for e in found.enchantments if e.enchantment.name == name]


def has_primal(found: DungeonTable) -> bool:
    return any(e.enchantment.name in PRIMAL_SPELLS for e in found.enchantments)


def squares_with(found: DungeonTable, name: str) -> set[int]:
    return {e.square for e in found.enchantments if e.enchantment.name == name}


def on_square(table: Table, seat: int, squares: set[int]) -> bool:
    """Is ``seat`` standing on one of ``squares`` (jail cells are not squares)?"""
    if not squares:
        return False
    p = table.players[seat]
    return not p.bankrupt and not p.in_jail and p.position in squares


def moved_primal(found: DungeonTable, druid: int, name: str) -> DungeonTable:
    """``found`` without this druid's ``name`` enchantment anywhere (before placing it anew),
    set aside by an Antimagic Field or not."""
    def other(e: Enchantment) -> bool:
        return not (e.name == name and e.source == druid)

    return replace(found,
                   enchantments=tuple(e for e in found.enchantments if other(e.enchantment)),
                   suppressed=tuple(e for e in found.suppressed
                                    if e.seat >= 0 or other(e.enchantment)))
