"""The game state: immutable values. ``apply`` returns a new state and never edits one."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from companion.core.game import Outcome

_T = TypeVar("_T")

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
    # team play (Dungeonopoly's advanced rules, usable in any variant): teams separated by
    # commas, members by "+", e.g. "Ann+Cai,Ben+Dee"; unlisted players play alone
    teams: str = ""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def with_values(self, **values: Any) -> Options:
        from dataclasses import replace

        return replace(self, **values)


def parse_option(name: str, text: str, options: type[Options] | None = None,
                 variant: str = "") -> tuple[str, Any]:
    """Turn ``NAME=VALUE`` text into a typed option value, or raise ValueError saying why.

    With ``options`` (a variant's options class) only that variant's settings are accepted,
    and a setting of another variant is named as such; without it, any imported variant's."""
    known: dict[str, type[Options]] = {}
    for cls in (Options, *Options.__subclasses__()):  # variants extend Options by subclassing
        for f in fields(cls):
            known.setdefault(f.name, cls)
    if options is not None:
        own = {f.name for f in fields(options)}
        if name in own:
            return _typed(name, text, getattr(options(), name))
        what = (f"option {name} is not a setting of the {variant or 'chosen'} variant"
                if name in known or _setting_of_a_game(name) else f"unknown option {name!r}")
        raise ValueError(f"{what}; its settings: {', '.join(sorted(own))}")
    if name not in known:
        raise ValueError(f"unknown option {name!r}; known options: {', '.join(sorted(known))}")
    return _typed(name, text, getattr(known[name](), name))


def _setting_of_a_game(name: str) -> bool:
    """Whether any registered game has a setting called ``name`` (loads them all: only for
    an error message)."""
    from companion.core.registry import find_game, game_names

    for game in game_names():
        options = find_game(game).default_options()
        if name in {f.name for f in fields(options)}:
            return True
    return False


def _typed(name: str, text: str, default: Any) -> tuple[str, Any]:
    """``text`` read as a value of the same kind as the setting's ``default``."""
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
class VariantTable:
    """A variant's table-wide state (``GameState.table``): what belongs to the table rather
    than to a player or a square (enchanted squares, squares between squares ...). A
    variant subclasses it with typed fields, frozen like the rest of the state; the empty
    table (every field at its default) is what a new game starts with."""


_V = TypeVar("_V", bound=VariantTable)
_EMPTY_TABLES: dict[type[VariantTable], VariantTable] = {}


def variant_table(table: VariantTable | None, kind: type[_V]) -> _V:
    """``table`` when it is a ``kind``, else the empty ``kind`` (one shared value)."""
    if isinstance(table, kind):
        return table
    empty = _EMPTY_TABLES.get(kind)
    if empty is None:
        empty = _EMPTY_TABLES[kind] = kind()
    assert isinstance(empty, kind)
    return empty


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
    outcome: Outcome | None = None  # reason: last_player_standing | agreement
    seed: int = 0
    table: VariantTable | None = None  # the variant's table-wide state (see VariantTable)
    # team play: the seat that holds each seat's side (its team's first seat); () = no teams.
    # A side shares one pool of cash (every member's ``cash`` shows the pool) and one set of
    # lots (owned in the side's name).
    sides: tuple[int, ...] = ()

    def table_of(self, kind: type[_V]) -> _V:
        """The variant's table-wide state as a ``kind`` (the empty one when none is set)."""
        return variant_table(self.table, kind)

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

    def side(self, player: int) -> int:
        """The seat that holds this player's cash and lots: the player, or their team's first
        seat in team play. BANK and POT map to themselves."""
        return self.sides[player] if self.sides and player >= 0 else player

    def allied(self, a: int, b: int) -> bool:
        """True for the same player or two members of one team."""
        return a >= 0 and b >= 0 and self.side(a) == self.side(b)

    def members(self, player: int) -> tuple[int, ...]:
        """The seats of this player's side (just the player without teams)."""
        if not self.sides:
            return (player,)
        side = self.sides[player]
        return tuple(i for i, s in enumerate(self.sides) if s == side)

    @property
    def money_in_hand(self) -> int:
        """All cash the players hold, a team's shared pool counted once."""
        if not self.sides:
            return sum(p.cash for p in self.players)
        return sum(p.cash for i, p in enumerate(self.players) if self.sides[i] == i)

    def side_name(self, player: int) -> str:
        """A player's name, or their team's names joined by "+" in team play."""
        return "+".join(self.players[i].name for i in self.members(player))


def team_sides(spec: str, names: list[str]) -> tuple[int, ...]:
    """Parse the ``teams`` option ("Ann+Cai,Ben+Dee") into each seat's side: the first seat of
    its team (players not listed play alone). ``()`` when there are no teams. Raises ValueError
    saying what is wrong."""
    spec = spec.strip()
    if not spec:
        return ()
    lowered = [n.lower() for n in names]
    sides = list(range(len(names)))
    placed: set[int] = set()
    for team_text in spec.split(","):
        members = [m.strip() for m in team_text.split("+") if m.strip()]
        if len(members) < 2:
            raise ValueError(f"team {team_text.strip()!r} needs at least two players joined by "
                             "'+', e.g. teams=Ann+Cai,Ben+Dee")
        seats = []
        for member in members:
            if member.lower() not in lowered:
                raise ValueError(f"team member {member!r} is not a player here; players are "
                                 f"{', '.join(names)}")
            seat = lowered.index(member.lower())
            if seat in placed:
                raise ValueError(f"{names[seat]} is in two teams; put each player in one team")
            placed.add(seat)
            seats.append(seat)
        first = min(seats)
        for seat in seats:
            sides[seat] = first
    if len(set(sides)) < 2:
        raise ValueError("with everyone in one team there is no one to play against; make at "
                         "least two teams")
    return tuple(sides)


_PLAIN_FIELDS: dict[type, tuple[frozenset[str], tuple[str, ...]] | None] = {}


def evolve(obj: _T, changes: dict[str, Any]) -> _T:
    """``dataclasses.replace(obj, **changes)`` made cheap for the state's frozen dataclasses
    (hot: every payment, flag and EP award goes through ``Txn.set_player``): the copy is filled
    in field by field, without ``replace``'s per-call introspection and keyword ``__init__``.
    Classes with a ``__post_init__`` or fields outside ``__init__`` (and unknown field names,
    which raise) go through ``replace`` itself."""
    cls = type(obj)
    try:
        plain = _PLAIN_FIELDS[cls]
    except KeyError:
        plain = _PLAIN_FIELDS[cls] = _plain_fields(cls)
    if plain is None or not changes.keys() <= plain[0]:
        return replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    setter = object.__setattr__
    for name in plain[1]:
        setter(new, name, getattr(obj, name))
    for name, value in changes.items():
        setter(new, name, value)
    return new


def _plain_fields(cls: type) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """The field names of a dataclass that ``evolve`` may fill in directly (every field set by
    ``__init__``, nothing checked after it), or None."""
    found = fields(cls)
    if hasattr(cls, "__post_init__") or any(not f.init for f in found):
        return None
    names = tuple(f.name for f in found)
    return frozenset(names), names
