"""The Monopoly game: a pure, deterministic engine (dice as inputs) and its variants.

    rules = find_game("monopoly")
    state = rules.new_game(["Ann", "Bob"], seed=1)
    state, events = rules.apply(state, Roll(0, (3, 4)))
"""

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Outcome
from companion.core.registry import register
from companion.games.monopoly.actions import (
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
from companion.games.monopoly.engine import LandContext, RollSpec, Rules
from companion.games.monopoly.state import (
    BANK,
    POT,
    GameState,
    Options,
    PlayerState,
    SquareState,
)

__all__ = [
    "BANK", "POT", "Action", "Bid", "BreakDown", "Build", "Buy", "CallHouseAuction", "ClaimRent",
    "DeclareBankruptcy", "Decline", "DrawnCard", "EndGame", "EndTurn", "Event", "GameState",
    "IllegalActionError", "KeepMortgaged", "LandContext", "Mortgage", "Options", "Outcome",
    "PassBid", "PayJail", "PlayerState", "Roll", "RollSpec", "Rules", "Sell", "SquareState",
    "Trade", "TradeSide", "Unmortgage", "UseJailCard",
]


def _standard() -> Rules:
    from companion.games.monopoly.standard import Monopoly

    return Monopoly()


def _dungeonopoly() -> Rules:
    from companion.games.monopoly.dungeonopoly import Dungeonopoly

    return Dungeonopoly()


def _monopozombie() -> Rules:
    from companion.games.monopoly.monopozombie import MonopoZombie

    return MonopoZombie()


def _illumonopoly() -> Rules:
    from companion.games.monopoly.illumonopoly import Illumonopoly

    return Illumonopoly()


register("monopoly", _standard)
register("dungeonopoly", _dungeonopoly)
register("monopozombie", _monopozombie)
register("illumonopoly", _illumonopoly)
