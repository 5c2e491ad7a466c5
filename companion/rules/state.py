"""The game state: immutable values. ``apply`` returns a new state and never edits one."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

BANK = -1  # a creditor or payee that is the bank
POT = -2  # the central pot (Free Parking), where a variant sends fees


@dataclass(frozen=True, slots=True)
class Options:
    """Table settings. Every field is documented in docs/options.md and settable in a transcript
    with ``option NAME=VALUE``."""

    starting_cash: int = 1500
    go_salary: int = 200
    go_landing_pay: int = 200
    free_parking_pot: bool = False
    auctions: bool = True
    rent_must_be_claimed: bool = False
    deck_mode: str = "virtual"  # virtual | physical
    bank_houses: int = 32
    bank_hotels: int = 12
    jail_fee: int = 50
    max_jail_turns: int = 3
    max_houses: int = 4
    minimum_bid: int = 1
    unmortgage_rounding: str = "up"  # up | nearest | down
    build_off_turn: bool = True  # standard Monopoly lets players build between turns
    even_building: bool = True
    house_shortage_auctions: bool = True
    income_tax: int = 200

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def with_values(self, **values: Any) -> Options:
        from dataclasses import replace

        return replace(self, **values)


def parse_option(name: str, text: str) -> tuple[str, Any]:
    """Turn ``NAME=VALUE`` text into a typed option value, or raise ValueError saying why."""
    known: dict[str, type[Options]] = {}
    for cls in (Options, *Options.__subclasses__()):  # variants extend Options by subclassing
        for f in fields(cls):
            known.setdefault(f.name, cls)
    if name not in known:
        raise ValueError(f"unknown option {name!r}; known options: {', '.join(sorted(known))}")
    default = getattr(known[name](), name)
    if isinstance(default, bool):
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return name, True
        if lowered in ("false", "no", "off", "0"):
            return name, False
        raise ValueError(f"option {name} takes true or false, not {text!r}")
    if isinstance(default, int):
        try:
            return name, int(text)
        except ValueError:
            raise ValueError(f"option {name} takes a whole number, not {text!r}") from None
    return name, text


@dataclass(frozen=True, slots=True)
class PlayerState:
    name: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0  # failed attempts to roll doubles in jail this stay
    jail_cards: tuple[str, ...] = ()  # decks whose Get Out of Jail Free card this player holds
    bankrupt: bool = False


@dataclass(frozen=True, slots=True)
class SquareState:
    owner: int | None = None
    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False

    @property
    def level(self) -> int:
        """Buildings as one number: 0-4 houses, 5 for a hotel."""
        return 5 if self.hotel else self.houses


EMPTY_SQUARE = SquareState()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: a winner, or standings when the table stopped by agreement."""

    winner: str | None
    standings: tuple[tuple[str, int], ...]  # (name, net worth), best first
    reason: str  # last_player_standing | agreement | turn_limit


@dataclass(frozen=True, slots=True)
class GameState:
    variant: str
    options: Options
    players: tuple[PlayerState, ...]
    squares: tuple[SquareState, ...]
    current: int = 0
    bank_houses: int = 32
    bank_hotels: int = 12
    pot: int = 0
    bank_net: int = 0  # money the bank has paid into the game minus what it took back
    rolled: bool = False  # the current player has made a movement roll this turn
    doubles: int = 0  # consecutive doubles this turn
    roll_again: bool = False  # doubles: the current player must roll again
    last_dice: tuple[int, ...] = ()
    pending: tuple[Any, ...] = ()  # decisions and steps still to resolve, first one first
    chance: tuple[str, ...] = ()  # deck order, top card first (virtual decks)
    community_chest: tuple[str, ...] = ()
    turn_number: int = 1
    claimable: tuple[tuple[int, int, int, int], ...] = ()  # (owner, payer, square, amount)
    outcome: Outcome | None = None
    seed: int = 0
    extra: tuple[Any, ...] = field(default=())  # variant-wide state (see variants)

    @property
    def current_player(self) -> PlayerState:
        return self.players[self.current]

    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name.lower() == name.lower():
                return i
        raise KeyError(f"no player named {name!r}; players are {', '.join(p.name for p in self.players)}")

    def deck(self, name: str) -> tuple[str, ...]:
        return self.chance if name == "chance" else self.community_chest

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.players) if not p.bankrupt)
