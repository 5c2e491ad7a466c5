"""Decisions and steps still to resolve. ``GameState.pending`` holds them, first one first.

A pending item either waits for a decision (a player's action) or is a step the engine runs by
itself once everything before it is settled (``automatic``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pending:
    player: int  # who must act (-1 when several players may)

    automatic = False


@dataclass(frozen=True, slots=True)
class BuyDecision(Pending):
    square: int


@dataclass(frozen=True, slots=True)
class Auction(Pending):
    """An open auction of a lot (``square``) or of one bank house (``square`` = -1)."""

    square: int
    bidders: tuple[int, ...]  # still in, in seat order
    high_bid: int = 0
    high_bidder: int | None = None


@dataclass(frozen=True, slots=True)
class Debt(Pending):
    """``player`` owes ``amount`` to ``creditor`` (a seat, BANK or POT) and lacks the cash."""

    creditor: int
    amount: int
    reason: str
    then: Pending | None = None  # a step to run once paid (e.g. leaving jail and moving)


@dataclass(frozen=True, slots=True)
class DrawCard(Pending):
    """Physical decks: waiting for the player to say which card they drew."""

    deck: str


@dataclass(frozen=True, slots=True)
class NeedRoll(Pending):
    """A roll the engine needs for something other than movement (the utility card)."""

    purpose: str
    square: int = -1
    multiplier: int = 0


@dataclass(frozen=True, slots=True)
class MortgagedTransfer(Pending):
    """The new owner of a mortgaged lot chooses: lift the mortgage now or pay 10% and keep it."""

    square: int


@dataclass(frozen=True, slots=True)
class PlaceHouse(Pending):
    """The winner of a house auction places the house they bought."""

    price: int


@dataclass(frozen=True, slots=True)
class MoveBy(Pending):
    """Move a player by a roll once earlier steps are done (leaving jail after the fee)."""

    dice: tuple[int, ...]

    automatic = True
