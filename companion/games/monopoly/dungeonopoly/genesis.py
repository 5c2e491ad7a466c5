"""Genesis demiplanes (rule source: Dungeonopoly, "Psion abilities", level 7 "Genesis").

A demiplane sits between two adjacent real squares: the gap after square ``after`` (between
``after`` and ``after + 1``). It holds one card taken out of its deck. It is polarised: a
Community Chest demiplane exists only for the psion who made it, a Chance demiplane only for
everyone else. For a character it exists for, it is an ordinary square: moving over it costs a
step, ending a move on it applies the card as if drawn (a move that does not land ends there
without the card), and it adds a square to limited-range distances. For everyone else it is
not there: it costs no step, is never a target, and whoever stands on it is out of existence
for them (not targetable, not caught by area effects that ask ``exists_for``). Distances and
walks are counted on ``world(gaps)``: the board's ring with the demiplanes that exist for one
character laid over it (``companion.core.overlay.RingOverlay``).

State lives in the table's ``DungeonTable`` (table.py): ``Demiplane`` records, a ``genesis``
square enchantment on square ``after`` (so Counterspell can dispel it, which collapses the
demiplane), and an ``OnDemiplane`` marker for each character standing on one (her
``position`` is then ``after``).
Rulings: docs/dungeonopoly/rulings.md (D-55).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from companion.core.overlay import Gap, RingOverlay, RingPlace
from companion.games.monopoly.cards import card_by_id, load_deck
from companion.games.monopoly.dungeonopoly.abilities import Params, int_param, param
from companion.games.monopoly.dungeonopoly.character import Enchantment
from companion.games.monopoly.dungeonopoly.table import Demiplane, DungeonTable, OnDemiplane
from companion.games.monopoly.dungeonopoly.terms import (
    RING,
    Table,
    character,
    dungeon,
    square_enchanted,
    use_overlay,
    with_square_enchantment,
    without_square_enchantment,
)
from companion.games.monopoly.dungeonopoly.terms import distance as ring_distance

if TYPE_CHECKING:
    from collections.abc import Sequence

    from companion.games.monopoly.dungeonopoly.effects import TableEffect
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.engine import LandContext
    from companion.games.monopoly.txn import Txn

BOARD = RING.size
DECKS = ("community_chest", "chance")
GOOD_FOR_PSION = ("collect", "advance_to", "jail_free")
BAD_FOR_OPPONENTS = ("go_to_jail", "pay", "repairs", "move_back", "pay_each_player")


@lru_cache(maxsize=64)
def world(gaps: frozenset[int]) -> RingOverlay:
    """The board as a character counts it: the ring with the demiplanes that exist for her
    (``gaps_for``) as squares of their own in their gaps."""
    return RingOverlay(RING, gaps)


def _at(square: int, gap: int | None) -> RingPlace:
    return square if gap is None else Gap(gap)


def demiplanes(table: Table) -> list[Demiplane]:
    return list(dungeon(table).demiplanes)


def exists_for_seat(d: Demiplane, seat: int) -> bool:
    """Polarity: Community Chest demiplanes exist only for their psion, Chance ones only for
    everyone else (each psion's alignment counts for her own demiplanes only)."""
    return (seat == d.psion) == (d.deck == "community_chest")


def gaps_for(table: Table, seat: int) -> frozenset[int]:
    """The gaps (``after`` squares) holding a demiplane that exists for ``seat``."""
    found = dungeon(table).demiplanes
    if not found:
        return frozenset()
    return frozenset(d.after for d in found if exists_for_seat(d, seat))


def demiplane_of(table: Table, seat: int) -> int | None:
    """The gap ``seat`` stands in, when she is on a demiplane."""
    for e in dungeon(table).standing:
        if e.seat == seat:
            if table.players[seat].position == e.after:
                return e.after
    return None


def leave(found: DungeonTable, seat: int) -> DungeonTable:
    """``found`` without ``seat`` standing on a demiplane."""
    if not any(e.seat == seat for e in found.standing):
        return found
    return replace(found, standing=tuple(e for e in found.standing if e.seat != seat))


def stand(found: DungeonTable, seat: int, gap: int) -> DungeonTable:
    """``found`` with ``seat`` standing on the demiplane in ``gap``."""
    found = leave(found, seat)
    return replace(found, standing=found.standing + (OnDemiplane(seat, gap),))


def exists_for(table: Table, viewer: int, seat: int) -> bool:
    """Is ``seat`` in existence for ``viewer``? Not when she stands on a demiplane that does
    not exist for the viewer."""
    gap = demiplane_of(table, seat)
    if gap is None:
        return True
    for d in demiplanes(table):
        if d.after == gap:
            return exists_for_seat(d, viewer)
    return True


def target_problem(table: Table, user: int, target: int) -> str | None:
    if not dungeon(table) or exists_for(table, user, target):
        return None
    return f"{table.players[target].name} is on a demiplane that does not exist for you"


def distance_for(table: Table, viewer: int, a: int, b: int, a_gap: int | None = None,
                 b_gap: int | None = None) -> int:
    """Squares between two places as ``viewer`` counts them: demiplanes that exist for her add
    a square each; a place on a demiplane is that demiplane's square."""
    gaps = gaps_for(table, viewer)
    if not gaps and a_gap is None and b_gap is None:
        return ring_distance(a, b)
    d = world(gaps).distance(_at(a, a_gap), _at(b, b_gap))
    return BOARD if d is None else d  # None: out of existence for the viewer, never in range


def walk_steps(table: Table, mover: int, dest: int, dest_gap: int | None) -> int:
    """Signed steps for ``mover`` to walk, the short way round (forward on a tie), to square
    ``dest`` or to the demiplane in ``dest_gap`` (when it exists for her; otherwise to the
    square before it), counting the demiplanes of her own world as squares."""
    mine = world(gaps_for(table, mover))
    if dest_gap is not None and dest_gap not in mine.gaps:
        dest_gap = None
    return mine.signed(_place_in(mine, table, mover), _at(dest, dest_gap))


def _place_in(ring: RingOverlay, table: Table, seat: int) -> RingPlace:
    """Where ``seat`` stands on ``ring``: her demiplane when it is on it, else her square."""
    here = _at(table.players[seat].position, demiplane_of(table, seat))
    return here if ring.contains(here) else table.players[seat].position


def throw_steps(table: Table, thrower: int, seat: int, direction: int, reach: int) -> int:
    """Signed steps that throw ``seat`` (``direction`` +1 or -1) to the place "just outside"
    ``thrower``'s range of ``reach`` (Psionic Blast, D-60). She walks her own world (the
    polarity of the target applies: her demiplanes cost a step each), and stops at the first
    place on her path that lies beyond ``reach`` as the thrower counts it. A demiplane that
    does not exist for the thrower is outside her measure, so it is passed over, never the
    place where the throw ends."""
    mine, theirs = world(gaps_for(table, seat)), gaps_for(table, thrower)
    start = _place_in(mine, table, seat)
    origin = table.players[thrower].position, demiplane_of(table, thrower)
    for steps in range(1, len(mine.order)):
        place = mine.step(start, direction * steps)
        sq, gap = (place.after, place.after) if isinstance(place, Gap) else (place, None)
        if gap is not None and gap not in theirs:
            continue
        if distance_for(table, thrower, origin[0], sq, origin[1], gap) > reach:
            return direction * steps
    return direction * (reach + 1)  # (the whole board is in range: cannot happen by level)


# --- creating, collapsing ----------------------------------------------------------------
def available_cards(table: Table, deck: str) -> list[str]:
    """The cards of ``deck`` the psion may choose (D-55: the virtual deck keeps no separate
    discard pile, so any card still in the deck; not one held or under another demiplane)."""
    return list(table.chance if deck == "chance" else table.community_chest)  # type: ignore[attr-defined]


def bot_card(table: Table, deck: str) -> str | None:
    cards = available_cards(table, deck)
    wanted = GOOD_FOR_PSION if deck == "community_chest" else BAD_FOR_OPPONENTS
    best = None
    for cid in cards:
        card = card_by_id(deck, cid)
        if card.effect in wanted:
            rank = wanted.index(card.effect)
            if best is None or rank < best[0]:
                best = (rank, cid)
    return best[1] if best else None


def create_problem(layer: Dungeonopoly, table: Table, user: int, params: Params,
                   reach: int) -> str | None:
    after = int_param(params, "after")
    deck = param(params, "deck")
    card = param(params, "card")
    if after is None or not 0 <= after < BOARD:
        return "say where: after=N puts the demiplane between square N and the next one"
    if deck not in DECKS:
        return "deck=community_chest (a square for you alone) or deck=chance (for opponents)"
    if not card:
        return f"say which card: card=ID from the {deck.replace('_', ' ')} deck"
    if card not in {c.id for c in load_deck(deck)}:
        return f"{card!r} is not a {deck.replace('_', ' ')} card"
    if card not in available_cards(table, deck):
        return f"{card} is not in the {deck.replace('_', ' ')} deck now"
    me = table.players[user]
    if me.in_jail:
        return "no powers in jail"
    here = demiplane_of(table, user)
    for sq in (after, RING.step(after, 1)):
        if distance_for(table, user, me.position, sq, here, None) > reach:
            return (f"both squares beside the demiplane must be within {reach} squares "
                    "(augment=N reaches further)")
    return None


def create(layer: Dungeonopoly, t: Txn, user: int, params: Params) -> bool:
    after = int_param(params, "after")
    assert after is not None
    deck = param(params, "deck")
    card = param(params, "card")
    old = next((d for d in demiplanes(t) if d.after == after), None)
    if old is not None:
        collapse(layer, t, old)
        t.emit("demiplane_collapsed", old.psion, square=after, detail=f"{old.deck}:{old.card}")
    level = character(t, user).level
    ench = Enchantment("genesis", user, level)
    before = t.table
    layer.enchant_square(t, after, ench)
    if t.table == before:  # suppressed (an Antimagic Field on the square)
        return False
    _set_deck(t, deck, tuple(c for c in _deck(t, deck) if c != card))
    found = dungeon(t)
    t.table = replace(found, demiplanes=found.demiplanes + (
        Demiplane(after, deck, card, user, level),))
    t.emit("demiplane", user, square=after, detail=f"{deck}:{card}")
    return True


def collapse(layer: Dungeonopoly, t: Txn, d: Demiplane) -> None:
    """The demiplane is gone: its card returns to the bottom of its deck; anyone on it drops
    onto square ``after`` (no passing, no landing)."""
    found = dungeon(t)
    t.table = replace(found, demiplanes=tuple(e for e in found.demiplanes if e != d))
    if square_enchanted(t, d.after, "genesis") is not None:
        t.table = without_square_enchantment(dungeon(t), d.after, "genesis")
    order = _deck(t, d.deck)
    if d.card not in order:
        _set_deck(t, d.deck, order + (d.card,))
    for e in dungeon(t).standing:
        if e.after == d.after:
            t.table = leave(dungeon(t), e.seat)
            t.emit("fell_out", e.seat, square=d.after)


def sync(layer: Dungeonopoly, t: Txn) -> None:
    """A demiplane whose ``genesis`` enchantment was dispelled collapses; markers of characters
    who moved away are dropped."""
    for d in demiplanes(t):
        if square_enchanted(t, d.after, "genesis") is None:
            collapse(layer, t, d)
            t.emit("demiplane_collapsed", d.psion, square=d.after, detail=f"{d.deck}:{d.card}")
    for e in dungeon(t).standing:
        if t.players[e.seat].position != e.after:
            t.table = leave(dungeon(t), e.seat)


def restore_enchantment(found: DungeonTable, d: Demiplane) -> DungeonTable:
    return with_square_enchantment(found, d.after, Enchantment("genesis", d.psion, d.level))


# --- movement -------------------------------------------------------------------------------
def start_walk(t: Txn, mover: int) -> tuple[int | None, frozenset[int]]:
    """Called when a move begins: (the gap the mover starts in, the gaps that exist for her).
    The start marker is dropped (she is leaving)."""
    gaps = gaps_for(t, mover)
    gap = demiplane_of(t, mover)
    if gap is not None:
        t.table = leave(dungeon(t), mover)
    return gap, gaps


def stop_on(layer: Dungeonopoly, t: Txn, mover: int, gap: int, land: bool,
            ctx: LandContext) -> None:
    """The move ends on the demiplane in ``gap``: she stands there; landing applies its card."""
    t.set_player(mover, position=gap)
    t.table = stand(dungeon(t), mover, gap)
    d = next((x for x in demiplanes(t) if x.after == gap), None)
    t.emit("moved", mover, square=gap, detail="onto a demiplane")
    if land and d is not None:
        t.emit("demiplane_card", mover, square=gap, detail=f"{d.deck}:{d.card}")
        layer.apply_card(t, mover, card_by_id(d.deck, d.card))


def enter(watch: Sequence[TableEffect], layer: Dungeonopoly, t: Txn, mover: int, gap: int,
          came_from: int, remaining: int, land: bool) -> int:
    """The mover (a move that counts as passing) steps onto the demiplane in ``gap`` with
    ``remaining`` squares still to go: the table effects watching her steps see it as a square
    of her world (a defended demiplane costs Bulwark of Defense's extra step; no primal spell
    can lie on one, so Entangle and Wall of Thorns never do). Returns the new remaining count;
    0 stops her on the demiplane (D-60)."""
    from companion.games.monopoly.dungeonopoly import effects

    return effects.enter_demiplane(watch, layer, t, mover, gap, came_from, remaining, land)


def pass_over(layer: Dungeonopoly, t: Txn, mover: int, gap: int, forward: bool,
              remaining: int, ctx: LandContext, land: bool) -> bool:
    """The mover passes over the demiplane in ``gap`` (one that exists for her). Divine Power
    draws a card square's card when passing it: here the demiplane's own card (D-59). When the
    card asks her a question (Divine Favor), the move pauses on the demiplane and resumes with
    the ``remaining`` steps; True means the move stops here for now."""
    from companion.games.monopoly.dungeonopoly.abilities import knows
    from companion.games.monopoly.walk import ResumeMove

    d = next((x for x in demiplanes(t) if x.after == gap), None)
    if d is None or knows(character(t, mover), "divine_power") is None:
        return False
    t.set_player(mover, position=gap)
    t.table = stand(dungeon(t), mover, gap)
    t.emit("divine_power", mover, square=gap, detail=f"{d.deck}:{d.card}")
    before = len(t.front)
    layer.apply_card(t, mover, card_by_id(d.deck, d.card))
    p = t.players[mover]
    if p.bankrupt or p.in_jail or p.position != gap or demiplane_of(t, mover) != gap:
        return True  # the card moved her (or ended her game): the rest of the move is gone
    if any(not item.automatic for item in t.front[before:]):
        t.push(ResumeMove(mover, remaining if forward else -remaining, ctx, land, True))
        return True
    t.table = leave(dungeon(t), mover)  # no question asked: she walks on
    return False


def _deck(t: Txn, deck: str) -> tuple[str, ...]:
    return t.chance if deck == "chance" else t.community_chest


def _set_deck(t: Txn, deck: str, order: tuple[str, ...]) -> None:
    if deck == "chance":
        t.chance = order
    else:
        t.community_chest = order


class GenesisOverlay:
    """The demiplanes as the vocabulary's overlay (``terms.Overlay``)."""

    demiplane_of = staticmethod(demiplane_of)
    exists_for = staticmethod(exists_for)
    gaps_for = staticmethod(gaps_for)
    distance_for = staticmethod(distance_for)
    walk_steps = staticmethod(walk_steps)
    target_problem = staticmethod(target_problem)


use_overlay(GenesisOverlay())


class DemiplaneWalk:
    """The demiplanes on one mover's walk (``walk.Between``): those that exist for her, and
    the one she starts on. Starting the walk takes her off it."""

    __slots__ = ("start", "gaps")

    def __init__(self, t: Txn, mover: int) -> None:
        self.start, self.gaps = start_walk(t, mover)

    def enter(self, watchers: Sequence[Any], rules: Any, t: Txn, mover: int, gap: int,
              came_from: int, remaining: int, land: bool) -> int:
        return enter(watchers, rules, t, mover, gap, came_from, remaining, land)

    def stop(self, rules: Any, t: Txn, mover: int, gap: int, land: bool,
             ctx: LandContext) -> None:
        stop_on(rules, t, mover, gap, land, ctx)

    def pass_over(self, rules: Any, t: Txn, mover: int, gap: int, forward: bool,
                  remaining: int, ctx: LandContext, land: bool) -> bool:
        return pass_over(rules, t, mover, gap, forward, remaining, ctx, land)
