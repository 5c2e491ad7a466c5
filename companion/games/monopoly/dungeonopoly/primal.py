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

from dataclasses import dataclass
from typing import Any

from companion.games.monopoly.dungeonopoly.character import Enchantment, SquareEnchantment
from companion.games.monopoly.dungeonopoly.terms import Table

PRIMAL_SPELLS = ("entangle", "obscuring_mist", "hallow", "insect_plague", "wall_of_thorns",
                 "antimagic_field")
ENTANGLE_COST = 2  # extra squares of movement to pass an Entangled square


@dataclass(frozen=True, slots=True)
class Suppressed:
    """An enchantment set aside by an Antimagic Field (kept in ``GameState.extra``): on a
    character (``seat`` >= 0) or on a square (``seat`` = -1). It comes back when the field
    moves away, is dispelled, or the character leaves the field's square."""

    seat: int
    square: int
    enchantment: Enchantment


def primal_squares(extra: tuple[Any, ...], name: str) -> list[SquareEnchantment]:
    return [e for e in extra if isinstance(e, SquareEnchantment) and e.enchantment.name == name]


def has_primal(extra: tuple[Any, ...]) -> bool:
    return any(isinstance(e, SquareEnchantment) and e.enchantment.name in PRIMAL_SPELLS
               for e in extra)


def squares_with(extra: tuple[Any, ...], name: str) -> set[int]:
    return {e.square for e in extra
            if isinstance(e, SquareEnchantment) and e.enchantment.name == name}


def on_square(table: Table, seat: int, squares: set[int]) -> bool:
    """Is ``seat`` standing on one of ``squares`` (jail cells are not squares)?"""
    if not squares:
        return False
    p = table.players[seat]
    return not p.bankrupt and not p.in_jail and p.position in squares


def moved_primal(extra: tuple[Any, ...], druid: int, name: str) -> tuple[Any, ...]:
    """``extra`` without this druid's ``name`` enchantment anywhere (before placing it anew)."""
    return tuple(e for e in extra
                 if not (isinstance(e, SquareEnchantment) and e.enchantment.name == name
                         and e.enchantment.source == druid)
                 and not (isinstance(e, Suppressed) and e.seat < 0
                          and e.enchantment.name == name and e.enchantment.source == druid))
