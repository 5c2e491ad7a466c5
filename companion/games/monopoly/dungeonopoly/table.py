"""Dungeonopoly's table-wide state (``GameState.table``): what lies on the board rather than on
a character (rule source: Dungeonopoly, Wizard/Cleric "Glyph of Warding", "Bless"/"Curse";
Druid primal spells and "Antimagic Field"; Psion "Genesis" and "Modify Memory").

Every record is a frozen value; each kind has its own field, in the order the records were
made (square enchantments sorted by square, then name).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.monopoly.dungeonopoly.character import Enchantment, SquareEnchantment
from companion.games.monopoly.state import VariantTable


@dataclass(frozen=True, slots=True)
class Demiplane:
    """Psion "Genesis": a demiplane between square ``after`` and ``after + 1`` holding a card."""

    after: int
    deck: str
    card: str
    psion: int
    level: int = 1


@dataclass(frozen=True, slots=True)
class OnDemiplane:
    """A character standing on the demiplane after square ``after`` (her position)."""

    seat: int
    after: int


@dataclass(frozen=True, slots=True)
class MemoryLoan:
    """Psion "Modify Memory": a lot held by the psion while its owner has forgotten it."""

    lot: int
    owner: int  # the character who forgot it
    psion: int


@dataclass(frozen=True, slots=True)
class Suppressed:
    """Druid "Antimagic Field": an enchantment set aside, on a character (``seat`` >= 0) or on
    a square (``seat`` = -1). It comes back when the field moves away, is dispelled, or the
    character leaves the field's square."""

    seat: int
    square: int
    enchantment: Enchantment


@dataclass(frozen=True, slots=True)
class DungeonTable(VariantTable):
    """What lies on Dungeonopoly's table."""

    enchantments: tuple[SquareEnchantment, ...] = ()  # sorted by square, then name
    demiplanes: tuple[Demiplane, ...] = ()
    standing: tuple[OnDemiplane, ...] = ()  # characters on a demiplane
    loans: tuple[MemoryLoan, ...] = ()
    suppressed: tuple[Suppressed, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.enchantments or self.demiplanes or self.standing or self.loans
                    or self.suppressed)
