"""Pending decisions and automatic steps of the Dungeonopoly layer (see companion/games/monopoly/pending).

Reaction windows (Counterspell, Divine Intervention) live in ``reactions.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.errors import IllegalActionError
from companion.games.monopoly.dungeonopoly.abilities import Params
from companion.games.monopoly.engine import LandContext
from companion.games.monopoly.pending import Pending

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn


@dataclass(frozen=True, slots=True)
class Check(Pending):
    """A d20 check the engine waits for: the ability succeeds on ``target`` or less."""

    ability: str
    target: int  # highest roll that succeeds
    on: int | None = None  # the ability's target seat
    params: Params = ()


@dataclass(frozen=True, slots=True)
class ResumeMove(Pending):
    """The rest of a movement interrupted by a decision made while passing a square."""

    steps: int  # signed: forward > 0
    ctx: LandContext = LandContext()
    land: bool = True
    count_passing: bool = True

    automatic = True


@dataclass(frozen=True, slots=True)
class RentChoice(Pending):
    """A fighter with Intimidate owes rent: try to intimidate the landlord, or pay."""

    owner: int
    square: int
    amount: int


@dataclass(frozen=True, slots=True)
class CardChoice(Pending):
    """Divine Favor: a cleric chooses whether to accept the card she drew."""

    deck: str
    card: str


@dataclass(frozen=True, slots=True)
class RobBankChoice(Pending):
    """A rogue collecting GO money may try to Rob Bank (or take the plain GO pay)."""

    landed: bool


@dataclass(frozen=True, slots=True)
class Decision(Pending):
    """A decision a class module asks of ``player`` (a Wall of Thorns, a Counter, a melody, a
    Challenge's ante ...). Subclasses list its answers and apply them; the layer only routes
    ``use``/``pass``/``choose`` to them. A ``use`` answer is the ability's own ``UseAbility``
    (its ``timing_problem`` accepts this head); ``pass`` calls ``decline``; ``choose`` calls
    ``choose``."""

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        return []

    def use_params(self) -> Params:
        """Parameters handed to the ability used in answer (the layer pops this head first)."""
        return ()

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        raise IllegalActionError("this decision cannot be passed on")

    def choose(self, layer: Dungeonopoly, t: Txn, what: str, option: str) -> None:
        raise IllegalActionError("this decision takes no 'choose' answer")


@dataclass(frozen=True, slots=True)
class RollFor(Pending):
    """Dice a class module asks ``player`` to roll (``sides``) for its own purpose; the layer
    hands the checked values to ``rolled``. Subclasses are frozen dataclasses with a
    ``sides`` field."""

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return tuple(getattr(self, "sides", (6,)))

    def rolled(self, layer: Dungeonopoly, t: Txn, dice: tuple[int, ...]) -> None:
        raise NotImplementedError(type(self).__name__)
