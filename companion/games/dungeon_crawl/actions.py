"""Every action of Dungeon Crawl. Physical outcomes (a tile's suit, a coin's suit, a die, the
treasure drawn from a defender's hand) arrive inside actions; the engine draws nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.actions import Action
from companion.games.dungeon_crawl.state import Space, TileAt


@dataclass(frozen=True, slots=True)
class First(Action):
    """The table's roll made ``player`` the first builder [DC §Setup]."""


@dataclass(frozen=True, slots=True)
class LayTile(Action):
    """Lay the turned-over tile ``suit``:``value`` face down at tile ``at``."""

    suit: str
    value: int
    at: TileAt


@dataclass(frozen=True, slots=True)
class StandPawns(Action):
    """The first builder stands the pawns on tile one: ``order`` holds the suits of the pawns
    pointing north, east, south and west."""

    order: tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class PlaceCoin(Action):
    """Put a coin of ``value`` from the pile value side up on ``space``."""

    space: Space
    value: int


@dataclass(frozen=True, slots=True)
class PlacePawn(Action):
    """Put the pawn of the player to the left of ``player`` on the entrance ``space``."""

    space: Space


@dataclass(frozen=True, slots=True)
class Move(Action):
    to: Space


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """The landed coin, turned over, shows ``suit``."""

    suit: str


@dataclass(frozen=True, slots=True)
class Spend(Action):
    """Spend ``amount`` experience (against a trap or monster) or equipment (in a fight)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """``player``'s die shows ``value``."""

    value: int


@dataclass(frozen=True, slots=True)
class Soak(Action):
    """Apply ``amount`` equipment to the damage just taken."""

    amount: int


@dataclass(frozen=True, slots=True)
class Attack(Action):
    target: int


@dataclass(frozen=True, slots=True)
class Spoils(Action):
    """The successful attacker takes ``kind``: ``treasure`` or ``equipment``."""

    kind: str


@dataclass(frozen=True, slots=True)
class TreasureTaken(Action):
    """The treasure drawn at random from the defender's holdings has ``value``."""

    value: int


@dataclass(frozen=True, slots=True)
class Reenter(Action):
    """A dead character comes back at the entrance ``space``."""

    space: Space


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Do nothing now: no attack, no move possible, or a dead player waiting a turn."""


@dataclass(frozen=True, slots=True)
class StopGame(Action):
    """The table stops the game before the sixth treasure (a simulation's turn cap, or a table
    that has to leave): the treasures held decide as at the end."""
