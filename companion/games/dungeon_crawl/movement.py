"""The move that opens every play turn [DC §Turn Sequence; §Movement; §Dying]: a queen move and
what the landing leads to, re-entry for a dead character, or a pass."""

from __future__ import annotations

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.dungeon_crawl import encounters, fights
from companion.games.dungeon_crawl.actions import Move, Pass, Reenter
from companion.games.dungeon_crawl.geometry import entrances, moves
from companion.games.dungeon_crawl.state import CrawlState
from companion.games.dungeon_crawl.turns import end_turn
from companion.games.dungeon_crawl.words import xy

Result = tuple[CrawlState, list[Event]]


def move(state: CrawlState, action: Move) -> Result:
    me = state.players[action.player]
    if me.at is None:
        raise IllegalActionError(
            f"{me.name}'s character is not on the board: re-enter at an entrance or pass")
    targets = moves(state, me.at)
    if action.to not in targets:
        raise IllegalActionError(
            f"{me.name} cannot move to {xy(action.to)}: a character moves in a straight "
            "line over existing spaces, stops on a coin or stack and never passes another "
            f"character; from {xy(me.at)} it can reach "
            + (", ".join(map(xy, targets)) or "nothing (pass)"))
    state = state.with_player(action.player, at=action.to)
    events = [Event("moved", action.player, detail=xy(action.to))]
    if state.coin_at(action.to) is not None:
        return encounters.take_coin(state, action.player, action.to, events)
    if state.stack_at(action.to) is not None:
        return encounters.take_stack(state, action.player, action.to, events)
    return fights.offer_attack(state, action.player, events)

def reenter(state: CrawlState, action: Reenter) -> Result:
    me = state.players[action.player]
    if me.at is not None:
        raise IllegalActionError(f"{me.name}'s character is on the board: move it")
    if action.space not in entrances(state):
        raise IllegalActionError(
            f"{xy(action.space)} is not an entrance: re-enter on an empty space on the "
            "dungeon's outer edge: " + ", ".join(map(xy, entrances(state))))
    state = state.with_player(action.player, at=action.space, dead=False)
    return end_turn(state, [Event("reentered", action.player, detail=xy(action.space))])

def pass_turn(state: CrawlState, action: Pass) -> Result:
    pending = state.pending
    me = state.players[action.player]
    if pending is not None:  # declining the attack
        return end_turn(state, [Event("no_attack", action.player)])
    if me.at is None:
        return end_turn(state, [Event("waited", action.player)])
    if moves(state, me.at):
        raise IllegalActionError(f"{me.name} must move (a character moves every turn)")
    return end_turn(state, [Event("stuck", action.player)])
