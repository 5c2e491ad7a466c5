"""What a character meets on the space it lands on: a coin (turned over: trap, monster,
treasure or equipment) or a dead character's stack; damage, equipment against it, and death
[DC §Springing a Trap; §Fighting a Monster; §Finding Treasure; §Finding Equipment; §Damage;
§Dying].
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.dungeon_crawl.actions import Reveal, Roll, Soak, Spend
from companion.games.dungeon_crawl.pieces import DEATH_DAMAGE, KIND_OF_SUIT, SUITS, TREASURES
from companion.games.dungeon_crawl.state import CrawlState, Pending, Space, Stack
from companion.games.dungeon_crawl.turns import end_turn, finish
from companion.games.dungeon_crawl.words import xy

Result = tuple[CrawlState, list[Event]]


def xp_field(suit: str) -> str:
    return "trap_xp" if suit == "suns" else "monster_xp"


# -- landing ---------------------------------------------------------------------------------
def take_coin(state: CrawlState, seat: int, space: Space, events: list[Event]) -> Result:
    """The character stopped on a coin: it leaves the board (ruling C-9) and is turned over."""
    coin = state.coin_at(space)
    assert coin is not None
    state = replace(state, coins=tuple(c for c in state.coins if c.at != space),
                    pending=Pending("reveal", seat, coin.value, coin.suit))
    return state, events


def take_stack(state: CrawlState, seat: int, space: Space, events: list[Event]) -> Result:
    """The character stopped on a dead character's stack and picks all of it up (C-12)."""
    stack = state.stack_at(space)
    assert stack is not None
    p = state.players[seat]
    state = state.with_player(seat, treasures=p.treasures + stack.treasures,
                              equipment=p.equipment + stack.equipment)
    state = replace(state, stacks=tuple(s for s in state.stacks if s.at != space))
    events.append(Event("stack_taken", seat, len(stack.treasures),
                        detail=f"{xy(space)} {stack.equipment}"))
    return end_turn(state, events)


# -- the coin turned over --------------------------------------------------------------------
def reveal_options(state: CrawlState) -> list[str]:
    """The suits the landed coin can show: each (suit, value) exists once (ruling C-18)."""
    pending = state.pending
    assert pending is not None
    if pending.suit is not None:
        return [pending.suit]
    return [s for s in SUITS if (s, pending.value) not in state.revealed]


def reveal(state: CrawlState, action: Reveal) -> Result:
    pending = state.pending
    assert pending is not None and pending.step == "reveal"
    options = reveal_options(state)
    if action.suit not in options:
        raise IllegalActionError(
            f"a {pending.value} coin of {action.suit} cannot be under this coin (each coin "
            f"exists once; the {action.suit} {pending.value} is seen already or the coin is "
            f"known): it shows " + " or ".join(options))
    seat, value, suit = pending.player, pending.value, action.suit
    state = replace(state, revealed=state.revealed | {(suit, value)})
    events = [Event("revealed", seat, value, detail=suit)]
    p = state.players[seat]
    if suit == "crowns":
        state = state.with_player(seat, treasures=(*p.treasures, value))
        events.append(Event("treasure", seat, value))
        if state.crowns_revealed >= TREASURES:
            return finish(state, events)
        return end_turn(state, events)
    if suit == "arms":
        state = state.with_player(seat, equipment=p.equipment + 1)
        events.append(Event("equipment", seat, 1))
        return end_turn(state, events)
    xp = getattr(p, xp_field(suit))
    step = "spend" if xp > 0 else "roll"
    return replace(state, pending=Pending(step, seat, value, suit)), events


# -- traps and monsters ----------------------------------------------------------------------
def spend_experience(state: CrawlState, action: Spend) -> Result:
    pending = state.pending
    assert pending is not None and pending.suit is not None
    field = xp_field(pending.suit)
    have = getattr(state.players[action.player], field)
    if not 0 <= action.amount <= have:
        raise IllegalActionError(
            f"{state.players[action.player].name} has {have} {KIND_OF_SUIT[pending.suit]} "
            f"experience: spend 0 to {have}")
    state = state.with_player(action.player, **{field: have - action.amount})
    events = [Event("spent", action.player, action.amount, detail=field)] if action.amount else []
    return replace(state, pending=replace(pending, step="roll", spent=action.amount)), events


def roll_against(state: CrawlState, action: Roll) -> Result:
    """Die plus experience spent above the coin's value beats it; otherwise it injures."""
    pending = state.pending
    assert pending is not None and pending.suit is not None
    seat, value, suit = pending.player, pending.value, pending.suit
    total = action.value + pending.spent
    p = state.players[seat]
    events = [Event("rolled", seat, action.value, detail=f"{total} against {value}")]
    if total > value:
        field = xp_field(suit)
        state = state.with_player(seat, **{field: getattr(p, field) + 1})
        events.append(Event("beaten", seat, value, detail=suit))
        return end_turn(state, events)
    state = state.with_player(seat, damage=(*p.damage, value))
    events.append(Event("injured", seat, value, detail=suit))
    if value > 0 and p.equipment > 0:
        return replace(state, pending=replace(pending, step="soak", roll=action.value)), events
    return after_damage(state, seat, events)


def soak(state: CrawlState, action: Soak) -> Result:
    pending = state.pending
    assert pending is not None
    p = state.players[action.player]
    most = min(p.equipment, pending.value)
    if not 0 <= action.amount <= most:
        raise IllegalActionError(
            f"apply 0 to {most} equipment: at most the {pending.value} damage just taken, and "
            f"{p.name} has {p.equipment} equipment")
    state = state.with_player(action.player, equipment=p.equipment - action.amount,
                              soaked=p.soaked + action.amount)
    events = [Event("soaked", action.player, action.amount)] if action.amount else []
    return after_damage(state, action.player, events)


def after_damage(state: CrawlState, seat: int, events: list[Event]) -> Result:
    if state.players[seat].wounds >= DEATH_DAMAGE:
        state, events = die(state, seat, events)
    return end_turn(state, events)


def die(state: CrawlState, seat: int, events: list[Event]) -> Result:
    """Experience, damage and the equipment applied to it are discarded; equipment and
    treasures stay in a stack where the character fell; the character leaves the board
    (ruling C-11)."""
    p = state.players[seat]
    assert p.at is not None
    stacks = state.stacks
    if p.treasures or p.equipment:
        stacks = (*stacks, Stack(p.at, p.treasures, p.equipment))
    events.append(Event("died", seat, p.wounds, detail=xy(p.at)))
    state = state.with_player(seat, at=None, dead=True, treasures=(), equipment=0, trap_xp=0,
                              monster_xp=0, damage=(), soaked=0)
    return replace(state, stacks=stacks), events
