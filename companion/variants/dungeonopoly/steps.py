"""Pending decisions and automatic steps of the Dungeonopoly layer (see companion/rules/pending).

Reaction windows (Counterspell, Divine Intervention) live in ``reactions.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.engine import LandContext
from companion.rules.pending import Pending
from companion.variants.dungeonopoly.abilities import Params


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
