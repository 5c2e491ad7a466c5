"""Pending decisions and automatic steps of the Dungeonopoly layer (see
companion/games/monopoly/pending.py; the general kinds, ``Decision``, ``RollFor`` and ``Step``,
are the engine's: companion/games/monopoly/prompts.py).

Reaction windows (Counterspell, Divine Intervention) live in ``reactions.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.monopoly import prompts
from companion.games.monopoly.dungeonopoly.abilities import Params
from companion.games.monopoly.pending import Pending

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly  # noqa: F401 (a base)


@dataclass(frozen=True, slots=True)
class Check(Pending):
    """A d20 check the engine waits for: the ability succeeds on ``target`` or less."""

    ability: str
    target: int  # highest roll that succeeds
    on: int | None = None  # the ability's target seat
    params: Params = ()


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
class Decision(prompts.Decision["Dungeonopoly"]):
    """A decision a class module asks of ``player`` (a Wall of Thorns, a Counter, a melody, a
    Challenge's ante ...). Besides ``pass`` and ``choose`` (routed by the engine), a ``use``
    answer is the ability's own ``UseAbility`` (its ``timing_problem`` accepts this head)."""

    def use_params(self) -> Params:
        """Parameters handed to the ability used in answer (the layer pops this head first)."""
        return ()
