"""The state of a Dungeon Crawl game: immutable values only (``apply`` returns a new state).

Spaces are ``(x, y)`` pairs; the tile holding a space is ``(x // 2, y // 2)``; the first tile
is tile ``(0, 0)`` and y grows away from the first builder.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.core.game import Outcome
from companion.games.dungeon_crawl.pieces import SUITS

Space = tuple[int, int]
TileAt = tuple[int, int]

PHASES = ("start", "build", "last_coin", "place_pawns", "play", "over")


@dataclass(frozen=True, slots=True)
class Options:
    """Table settings: the die every player rolls (``piecepack`` null-5 or ``d6`` 1-6) and what
    counts as adjacent for attacks (8 = the eight surrounding spaces, 4 = edges only)."""

    die: str = "piecepack"
    adjacency: int = 8


@dataclass(frozen=True, slots=True)
class Tile:
    at: TileAt
    suit: str
    value: int


@dataclass(frozen=True, slots=True)
class Coin:
    """A coin on the board, value side up; ``suit`` is None until revealed (or known from a
    position line)."""

    at: Space
    value: int
    suit: str | None = None


@dataclass(frozen=True, slots=True)
class Stack:
    """What a dead character left on a space, value side up."""

    at: Space
    treasures: tuple[int, ...] = ()
    equipment: int = 0


@dataclass(frozen=True, slots=True)
class Player:
    """A seat: its name, its colour (the suit of its die and pawn) and its holdings."""

    name: str
    suit: str
    at: Space | None = None  # None: not on the board (before placement, or dead)
    dead: bool = False
    treasures: tuple[int, ...] = ()  # crown values, suit up (private to the owner)
    equipment: int = 0  # arms coins not yet used
    trap_xp: int = 0  # sun coins, suit up
    monster_xp: int = 0  # moon coins, suit up
    damage: tuple[int, ...] = ()  # values of the coins lying value up
    soaked: int = 0  # arms coins put with the damage

    @property
    def wounds(self) -> int:
        """Damage after equipment applied to it."""
        return sum(self.damage) - self.soaked


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision inside a turn.

    ``step``: ``coin`` (a builder places a coin), ``reveal`` (the landed coin's suit), ``spend``
    (experience against a trap or monster), ``roll`` (the die against it), ``soak`` (equipment
    against its damage), ``attack`` (attack an adjacent character or pass), ``attack_spend``,
    ``defend_spend``, ``attack_roll``, ``defend_roll``, ``spoils`` (which kind), ``took`` (the
    value of the drawn treasure).
    """

    step: str
    player: int
    value: int = 0  # the coin's value
    suit: str | None = None  # the coin's suit once revealed
    other: int | None = None  # the defender (attack steps)
    spent: int = 0  # experience or the attacker's equipment spent
    other_spent: int = 0  # the defender's equipment spent
    roll: int | None = None  # the attacker's die


@dataclass(frozen=True, slots=True)
class CrawlState:
    players: tuple[Player, ...]
    options: Options = field(default_factory=Options)
    seed: int = 0
    variant: str = "dungeon_crawl"
    phase: str = "start"
    first: int | None = None  # the first builder
    current: int = 0
    turn: int = 0  # play turns begun
    tiles: tuple[Tile, ...] = ()  # in the order laid: the last is the "last tile laid"
    directions: tuple[tuple[str, str], ...] = ()  # (suit, direction) of the pawns on tile one
    coins: tuple[Coin, ...] = ()
    stacks: tuple[Stack, ...] = ()
    revealed: frozenset[tuple[str, int]] = frozenset()  # (suit, value) of every coin seen
    pending: Pending | None = None
    outcome: Outcome | None = None

    @property
    def turn_number(self) -> int:
        """Play turns begun (0 while the dungeon is built), as the shared consumers read it."""
        return self.turn

    # -- look-ups ------------------------------------------------------------------------
    def tile_at(self, at: TileAt) -> Tile | None:
        return next((t for t in self.tiles if t.at == at), None)

    def coin_at(self, space: Space) -> Coin | None:
        return next((c for c in self.coins if c.at == space), None)

    def stack_at(self, space: Space) -> Stack | None:
        return next((s for s in self.stacks if s.at == space), None)

    def player_at(self, space: Space) -> int | None:
        return next((i for i, p in enumerate(self.players) if p.at == space), None)

    def direction_of(self, suit: str) -> str | None:
        return dict(self.directions).get(suit)

    def seat_named(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name.lower() == name.lower():
                return i
        raise ValueError(f"no player named {name!r}: the players are "
                         + ", ".join(p.name for p in self.players))

    @property
    def crowns_revealed(self) -> int:
        return sum(1 for suit, _ in self.revealed if suit == "crowns")

    def with_player(self, seat: int, **changes: object) -> CrawlState:
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)  # type: ignore[arg-type]
        return replace(self, players=tuple(players))

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)


def coins_left(state: CrawlState, value: int) -> int:
    """Coins of ``value`` still in the pile during building (four of each value in all)."""
    return len(SUITS) - sum(1 for c in state.coins if c.value == value)

