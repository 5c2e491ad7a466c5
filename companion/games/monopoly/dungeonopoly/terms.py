"""The technical terms of Dungeonopoly as reusable checks (rule source: Dungeonopoly,
"Introduction and basic rules", the list of technical terms, spellcasting and "In jail").

Abilities never measure distances or test jail themselves: they call these functions, so a
ruling changes in one place. Every function works on a ``GameState`` or on the working copy
(``Txn``) alike through the small ``Table`` protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from companion.core.topology import load_ring
from companion.games.monopoly.dungeonopoly.character import (
    Character,
    Enchantment,
    SquareEnchantment,
)
from companion.games.monopoly.dungeonopoly.table import DungeonTable
from companion.games.monopoly.state import (
    Options,
    PlayerState,
    SquareState,
    VariantTable,
    variant_table,
)

RING = load_ring()  # the board's shape: distances, sides ("edges") and walks go through it
BOARD_SIZE = RING.size


class Table(Protocol):
    """What the term checks read: a ``GameState`` or a ``Txn`` both fit."""

    @property
    def players(self) -> Sequence[PlayerState]: ...
    @property
    def squares(self) -> Sequence[SquareState]: ...
    @property
    def current(self) -> int: ...
    @property
    def rolled(self) -> bool: ...
    @property
    def roll_again(self) -> bool: ...
    @property
    def pending(self) -> Sequence[Any]: ...
    @property
    def options(self) -> Options: ...
    @property
    def table(self) -> VariantTable | None: ...
    def allied(self, a: int, b: int) -> bool: ...
    def side(self, player: int) -> int: ...
    @property
    def bank_houses(self) -> int: ...
    @property
    def bank_hotels(self) -> int: ...
    @property
    def pot(self) -> int: ...


def dungeon(table: Table) -> DungeonTable:
    """What lies on the table (enchanted squares, demiplanes ...); empty before anything is."""
    return variant_table(table.table, DungeonTable)


def character(table: Table, seat: int) -> Character:
    p = table.players[seat]
    assert isinstance(p, Character), "the dungeonopoly layer seats Character players"
    return p


# --- "Limited range" ---------------------------------------------------------------------
def range_for_level(level: int) -> int:
    """Limited range by level: 1-2 -> 1 square, 3-4 -> 2, 5-6 -> 3, 7-8 -> 4, 9-10 -> 5."""
    return (max(1, min(level, 10)) + 1) // 2


def distance(a: int, b: int) -> int:
    """Squares between two positions counting either way round the board."""
    return RING.short_way(a, b)


def isolated(p: PlayerState) -> bool:
    """"In jail": each prisoner sits in an isolated cell, on no shared square or edge."""
    return p.in_jail


def within_range(user: Character, target: PlayerState, extra: int = 0) -> bool:
    """Technical term "limited range": same square or up to the level's range either way."""
    if isolated(user) or isolated(target):
        return False
    return distance(user.position, target.position) <= range_for_level(user.level) + extra


def square_within_range(user: Character, square: int) -> bool:
    if isolated(user):
        return False
    return distance(user.position, square) <= range_for_level(user.level)


# --- "Line of sight" ---------------------------------------------------------------------
def edges(position: int) -> frozenset[int]:
    """Edges a square lies on: corners (0, 10, 20, 30) lie on both adjoining edges."""
    return RING.sides(position % BOARD_SIZE)


def in_line_of_sight(user: PlayerState, target: PlayerState) -> bool:
    """Technical term "line of sight": on a common edge of the board (jail cells see nothing)."""
    if isolated(user) or isolated(target):
        return False
    return bool(edges(user.position) & edges(target.position))


# --- the table's geometry, as one character sees it (Genesis demiplanes included) ----------
class Overlay(Protocol):
    """Squares between the real squares that exist for some characters only (Psion, level 7
    "Genesis": a demiplane in the gap after square ``gap``). The spell's module provides it
    (``use_overlay``), so this vocabulary depends on no class's module."""

    def demiplane_of(self, table: Table, seat: int) -> int | None: ...
    def exists_for(self, table: Table, viewer: int, seat: int) -> bool: ...
    def gaps_for(self, table: Table, seat: int) -> frozenset[int]: ...
    def distance_for(self, table: Table, viewer: int, a: int, b: int, a_gap: int | None = None,
                     b_gap: int | None = None) -> int: ...
    def walk_steps(self, table: Table, mover: int, dest: int, dest_gap: int | None) -> int: ...
    def target_problem(self, table: Table, user: int, target: int) -> str | None: ...


_OVERLAY: Overlay | None = None


def use_overlay(overlay: Overlay) -> None:
    """Install the squares-between-squares overlay (Genesis registers itself on import)."""
    global _OVERLAY
    _OVERLAY = overlay


def _overlay() -> Overlay:
    assert _OVERLAY is not None, "a demiplane is in play but no overlay is installed"
    return _OVERLAY


def plain_geometry(table: Table) -> bool:
    """True when no Genesis demiplane is in play (none made, no one standing on one): then
    positions alone decide range, sight and "the same square"."""
    found = table.table
    return not isinstance(found, DungeonTable) or not (found.demiplanes or found.standing)


# Every class module measures range, reach, line of sight and "on that square" through these
# functions, never through positions alone: a Genesis demiplane is a square of its own for the
# characters it exists for and is not there at all for the others (D-55, D-58).
def place(table: Table, seat: int) -> tuple[int, int | None]:
    """(square, gap): the gap is set when ``seat`` stands on the demiplane after ``square``."""
    pos = table.players[seat].position
    if plain_geometry(table):
        return pos, None
    overlay = _overlay()
    return pos, overlay.demiplane_of(table, seat)


def exists_for(table: Table, viewer: int, seat: int) -> bool:
    """Is ``seat`` in existence for ``viewer`` (not on a demiplane that is not there for her)?"""
    if viewer == seat or plain_geometry(table):
        return True
    return _overlay().exists_for(table, viewer, seat)


def seat_distance(table: Table, viewer: int, a: int, b: int) -> int | None:
    """Squares between seats ``a`` and ``b`` as ``viewer`` counts them (demiplanes that exist
    for her count as squares); None when either is in jail or out of her existence."""
    pa, pb = table.players[a], table.players[b]
    if isolated(pa) or isolated(pb) or not exists_for(table, viewer, a) or \
            not exists_for(table, viewer, b):
        return None
    (sa, ga), (sb, gb) = place(table, a), place(table, b)
    if plain_geometry(table):
        return distance(sa, sb)
    return _overlay().distance_for(table, viewer, sa, sb, ga, gb)


def square_distance(table: Table, viewer: int, seat: int, square: int,
                    gap: int | None = None) -> int | None:
    """Squares from ``seat`` to the real square ``square`` (or, with ``gap``, to the demiplane
    after square ``gap``), as ``viewer`` counts them; None when ``seat`` is in jail or out of
    the viewer's existence, or the demiplane does not exist for her."""
    p = table.players[seat]
    if isolated(p) or not exists_for(table, viewer, seat):
        return None
    s, g = place(table, seat)
    if plain_geometry(table):
        return None if gap is not None else distance(s, square)
    overlay = _overlay()
    if gap is not None and gap not in overlay.gaps_for(table, viewer):
        return None
    return overlay.distance_for(table, viewer, s, square if gap is None else gap, g, gap)


def in_range(table: Table, user: int, target: int, extra: int = 0) -> bool:
    """Limited range from ``user`` to ``target`` (her level's range plus ``extra``)."""
    d = seat_distance(table, user, user, target)
    return d is not None and d <= range_for_level(character(table, user).level) + extra


def square_in_range(table: Table, user: int, square: int, extra: int = 0) -> bool:
    """Limited range from ``user`` to a real square."""
    d = square_distance(table, user, user, square)
    return d is not None and d <= range_for_level(character(table, user).level) + extra


def gap_in_range(table: Table, user: int, gap: int, extra: int = 0) -> bool:
    """Limited range from ``user`` to the demiplane in ``gap`` (one that exists for her)."""
    if isolated(table.players[user]) or plain_geometry(table):
        return False
    overlay = _overlay()
    if gap not in overlay.gaps_for(table, user):
        return False
    s, g = place(table, user)
    d = overlay.distance_for(table, user, s, gap, g, gap)
    return d <= range_for_level(character(table, user).level) + extra


def in_sight(table: Table, user: int, target: int) -> bool:
    """Line of sight, with demiplanes: one lies on the edge its two neighbours share, and a
    character out of the user's existence is never seen."""
    pu, pt = table.players[user], table.players[target]
    if isolated(pu) or isolated(pt) or not exists_for(table, user, target):
        return False
    return bool(_edges_of(table, user) & _edges_of(table, target))


def _edges_of(table: Table, seat: int) -> frozenset[int]:
    s, g = place(table, seat)
    if g is None:
        return edges(s)
    return edges(g) & edges(g + 1)


def together(table: Table, a: int, b: int) -> bool:
    """"The same square": both on the same real square, or both on the same demiplane."""
    pa, pb = table.players[a], table.players[b]
    if isolated(pa) or isolated(pb) or pa.bankrupt or pb.bankrupt:
        return False
    return place(table, a) == place(table, b) and exists_for(table, a, b) and \
        exists_for(table, b, a)


def walk_to(table: Table, mover: int, seat: int) -> int:
    """Signed steps for ``mover`` to reach ``seat``'s place the short way round (forward on a
    tie), in the mover's own world (the target's polarity applies to a moved character)."""
    dest, gap = place(table, seat)
    if plain_geometry(table):
        return RING.signed(table.players[mover].position, dest)
    return _overlay().walk_steps(table, mover, dest, gap)


def standing_on(table: Table, seat: int) -> int | None:
    """The real square ``seat`` stands on: None in jail or on a demiplane (a card square, no
    property: abilities on "the current square" find nothing there)."""
    p = table.players[seat]
    if isolated(p):
        return None
    square, gap = place(table, seat)
    return square if gap is None else None


def on_square(table: Table, seat: int, square: int) -> bool:
    """Is ``seat`` standing on the real square ``square`` (not in jail, not on a demiplane)?
    Area effects aimed at a square ask this."""
    p = table.players[seat]
    if isolated(p) or p.bankrupt:
        return False
    return place(table, seat) == (square, None)


def sheltered(params: Sequence[tuple[str, str]], seat: int) -> bool:
    """Was ``seat`` inside an Intellect Fortress raised against this (area) use (D-57)?"""
    for key, value in params:
        if key == "sheltered":
            return str(seat) in value.split(",")
    return False


# --- "Hidden", mental effects and targeting ----------------------------------------------
def is_hidden(p: PlayerState) -> bool:
    return isinstance(p, Character) and p.is_hidden


def immune_to_mental(p: PlayerState) -> bool:
    """Ascended clerics (level 9+) ignore mental effects."""
    return isinstance(p, Character) and "cleric" in p.role.split("+") and p.level >= 9


def in_sanctuary(p: PlayerState) -> bool:
    return isinstance(p, Character) and p.enchanted("sanctuary") is not None


def target_problem(table: Table, user: int, target: int, *, spell: bool, mental: bool = False,
                   opponent: bool = True, allow_self: bool = False) -> str | None:
    """Why ``target`` cannot be targeted by ``user``'s ability (None when it can).

    Hidden characters and characters under Sanctuary cannot be targeted; spells cannot be
    cast at anyone in jail; mental effects do not touch Ascended clerics."""
    if not 0 <= target < len(table.players):
        return f"there is no player in seat {target}"
    t = table.players[target]
    name = t.name
    if t.bankrupt:
        return f"{name} is out of the game"
    if target == user and not allow_self:
        return "this ability cannot target yourself"
    if opponent and target == user:
        return "this ability targets an opponent"
    if opponent and table.allied(target, user):  # team play: a teammate is no opponent
        return f"{name} is on your team; this ability targets an opponent"
    if target != user:
        if is_hidden(t):
            return f"{name} is hidden and cannot be targeted"
        if in_sanctuary(t):
            return f"{name} is under Sanctuary and cannot be targeted"
    if spell and t.in_jail:
        return f"{name} is in jail: the cells block spells"
    if mental and immune_to_mental(t):
        return f"{name} is Ascended and immune to mental effects"
    if target != user and not plain_geometry(table):  # a demiplane out of the user's existence
        return _overlay().target_problem(table, user, target)
    return None


# --- "Single use only" --------------------------------------------------------------------
def used_up(p: Character, ability: str) -> bool:
    """A single-use ability stays spent until the character next passes GO."""
    return ability in p.spent


# --- square enchantments ------------------------------------------------------------------
def square_enchantments(table: Table, square: int) -> list[Enchantment]:
    return [e.enchantment for e in dungeon(table).enchantments if e.square == square]


def square_enchanted(table: Table, square: int, name: str) -> Enchantment | None:
    for e in dungeon(table).enchantments:
        if e.square == square and e.enchantment.name == name:
            return e.enchantment
    return None


def with_square_enchantment(found: DungeonTable, square: int,
                            ench: Enchantment) -> DungeonTable:
    """``found`` with ``ench`` on ``square`` (replacing one of the same name there)."""
    kept = [e for e in found.enchantments
            if not (e.square == square and e.enchantment.name == ench.name)]
    kept.append(SquareEnchantment(square, ench))
    return replace(found, enchantments=_sorted(kept))


def without_square_enchantment(found: DungeonTable, square: int, name: str) -> DungeonTable:
    return replace(found, enchantments=_sorted([
        e for e in found.enchantments if not (e.square == square and e.enchantment.name == name)]))


def _sorted(items: list[SquareEnchantment]) -> tuple[SquareEnchantment, ...]:
    return tuple(sorted(items, key=lambda e: (e.square, e.enchantment.name)))
