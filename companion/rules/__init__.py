"""The rules engine: pure, deterministic, dice as inputs.

    rules = find_variant("monopoly")
    state = rules.new_game(["Ann", "Bob"], seed=1)
    state, events = rules.apply(state, Roll(0, (3, 4)))
"""

from companion.rules.actions import (
    Action,
    Bid,
    BreakDown,
    Build,
    Buy,
    CallHouseAuction,
    ClaimRent,
    DeclareBankruptcy,
    Decline,
    DrawnCard,
    EndGame,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJail,
    Roll,
    Sell,
    Trade,
    TradeSide,
    Unmortgage,
    UseJailCard,
)
from companion.rules.engine import LandContext, RollSpec, Rules
from companion.rules.errors import IllegalActionError
from companion.rules.events import Event
from companion.rules.state import BANK, POT, GameState, Options, Outcome, PlayerState, SquareState

__all__ = [
    "BANK", "POT", "Action", "Bid", "BreakDown", "Build", "Buy", "CallHouseAuction", "ClaimRent",
    "DeclareBankruptcy", "Decline", "DrawnCard", "EndGame", "EndTurn", "Event", "GameState",
    "IllegalActionError", "KeepMortgaged", "LandContext", "Mortgage", "Options", "Outcome",
    "PassBid", "PayJail", "PlayerState", "Roll", "RollSpec", "Rules", "Sell", "SquareState",
    "Trade", "TradeSide", "Unmortgage", "UseJailCard",
]
