"""Actions: what a player does, as values. The engine checks them and applies them.

Every action names the seat of the player who takes it. Dice values arrive inside ``Roll``:
the engine never draws random numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.actions import Action as Action


@dataclass(frozen=True, slots=True)
class Roll(Action):
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Buy(Action):
    pass


@dataclass(frozen=True, slots=True)
class Decline(Action):
    pass


@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: int


@dataclass(frozen=True, slots=True)
class PassBid(Action):
    """Leave the auction in progress."""


@dataclass(frozen=True, slots=True)
class Build(Action):
    square: int


@dataclass(frozen=True, slots=True)
class Sell(Action):
    """Sell one building level on a lot back to the bank (a hotel goes back to four houses)."""

    square: int


@dataclass(frozen=True, slots=True)
class BreakDown(Action):
    """Sell a whole group's buildings down to the given levels at once (0-4 houses, 5 = hotel).

    Needed when the bank is short of houses and a hotel cannot go back to four houses."""

    group: str
    levels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mortgage(Action):
    square: int


@dataclass(frozen=True, slots=True)
class Unmortgage(Action):
    square: int


@dataclass(frozen=True, slots=True)
class KeepMortgaged(Action):
    """After receiving a mortgaged lot: pay only the 10% fee and leave it mortgaged."""

    square: int


@dataclass(frozen=True, slots=True)
class PayJail(Action):
    pass


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    deck: str = ""


@dataclass(frozen=True, slots=True)
class DrawnCard(Action):
    """Physical decks: the player says which card they drew."""

    card: str


@dataclass(frozen=True, slots=True)
class TradeSide:
    squares: tuple[int, ...] = ()
    cash: int = 0
    jail_cards: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.squares and not self.cash and not self.jail_cards


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """A trade both players agreed to: ``player`` gives ``give`` and receives ``get``."""

    partner: int
    give: TradeSide
    get: TradeSide


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    pass


@dataclass(frozen=True, slots=True)
class DeclareBankruptcy(Action):
    pass


@dataclass(frozen=True, slots=True)
class ClaimRent(Action):
    """Option rent_must_be_claimed: the owner asks for the rent before the next roll."""

    square: int


@dataclass(frozen=True, slots=True)
class CallHouseAuction(Action):
    """During a house shortage: put the bank's next house up for auction among the builders."""


@dataclass(frozen=True, slots=True)
class EndGame(Action):
    """The table agrees to stop; standings are by net worth."""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline what is offered: an answer in a reaction window, or a pending decision (a
    variant's own choices to take or refuse)."""


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Make a choice (``NAME choose WHAT OPTION``): the answer to a pending decision that
    asks for one, or a choice a variant lets a player make (levelling choices ...)."""

    what: str
    option: str

