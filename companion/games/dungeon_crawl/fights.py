"""Attacks between characters [DC §Attacking Another Character]: the attacker spends
equipment, then the defender; both roll; a higher attacker total wins spoils (a treasure drawn
at random, or an equipment point).
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.dungeon_crawl.actions import Attack, Roll, Spend, Spoils, TreasureTaken
from companion.games.dungeon_crawl.geometry import adjacent_characters
from companion.games.dungeon_crawl.state import CrawlState, Pending
from companion.games.dungeon_crawl.turns import end_turn

Result = tuple[CrawlState, list[Event]]


def offer_attack(state: CrawlState, seat: int, events: list[Event]) -> Result:
    """After a move onto an empty space next to a character: attack or pass (ruling C-7)."""
    if adjacent_characters(state, seat):
        return replace(state, pending=Pending("attack", seat)), events
    return end_turn(state, events)


def attack(state: CrawlState, action: Attack) -> Result:
    targets = adjacent_characters(state, action.player)
    if action.target not in targets:
        names = ", ".join(state.players[i].name for i in targets)
        them = (state.players[action.target].name
                if 0 <= action.target < len(state.players) else "that player")
        raise IllegalActionError(
            f"{them} is not next to {state.players[action.player].name}: attack {names} or pass")
    events = [Event("attack", action.player, other=action.target)]
    return _next_spend(state, Pending("attack_spend", action.player, other=action.target), events)


def _next_spend(state: CrawlState, pending: Pending, events: list[Event]) -> Result:
    """Skip a spending step whose player has no equipment."""
    assert pending.other is not None
    attacker, defender = pending.player, pending.other
    if pending.step == "attack_spend" and state.players[attacker].equipment == 0:
        pending = replace(pending, step="defend_spend")
    if pending.step == "defend_spend" and state.players[defender].equipment == 0:
        pending = replace(pending, step="attack_roll")
    return replace(state, pending=pending), events


def spend_equipment(state: CrawlState, action: Spend) -> Result:
    pending = state.pending
    assert pending is not None
    p = state.players[action.player]
    if not 0 <= action.amount <= p.equipment:
        raise IllegalActionError(f"{p.name} has {p.equipment} equipment: spend 0 to {p.equipment}")
    state = state.with_player(action.player, equipment=p.equipment - action.amount)
    events = [Event("spent", action.player, action.amount, detail="equipment")] if action.amount else []
    if pending.step == "attack_spend":
        return _next_spend(state, replace(pending, step="defend_spend", spent=action.amount), events)
    return replace(state, pending=replace(pending, step="attack_roll",
                                          other_spent=action.amount)), events


def spoils_kinds(state: CrawlState, defender: int) -> list[str]:
    d = state.players[defender]
    return (["treasure"] if d.treasures else []) + (["equipment"] if d.equipment else [])


def fight_roll(state: CrawlState, action: Roll) -> Result:
    pending = state.pending
    assert pending is not None and pending.other is not None
    if pending.step == "attack_roll":
        events = [Event("rolled", action.player, action.value,
                        detail=f"{action.value + pending.spent} attacking")]
        return replace(state, pending=replace(pending, step="defend_roll", roll=action.value)), events
    assert pending.roll is not None
    attacker, defender = pending.player, pending.other
    mine, theirs = pending.roll + pending.spent, action.value + pending.other_spent
    events = [Event("rolled", action.player, action.value, detail=f"{theirs} defending")]
    if mine <= theirs:
        events.append(Event("attack_failed", attacker, mine, other=defender))
        return end_turn(state, events)
    events.append(Event("attack_won", attacker, mine, other=defender))
    kinds = spoils_kinds(state, defender)
    if not kinds:
        events.append(Event("no_spoils", attacker, other=defender))
        return end_turn(state, events)
    if len(kinds) == 1:
        return take_spoils(state, attacker, defender, kinds[0], events)
    return replace(state, pending=Pending("spoils", attacker, other=defender)), events


def spoils(state: CrawlState, action: Spoils) -> Result:
    pending = state.pending
    assert pending is not None and pending.other is not None
    kinds = spoils_kinds(state, pending.other)
    if action.kind not in kinds:
        raise IllegalActionError(f"choose the spoils: {' or '.join(kinds)}")
    return take_spoils(state, action.player, pending.other, action.kind, [])


def take_spoils(state: CrawlState, attacker: int, defender: int, kind: str,
                events: list[Event]) -> Result:
    if kind == "equipment":
        a, d = state.players[attacker], state.players[defender]
        state = state.with_player(defender, equipment=d.equipment - 1)
        state = state.with_player(attacker, equipment=a.equipment + 1)
        events.append(Event("took_equipment", attacker, 1, other=defender))
        return end_turn(state, events)
    values = sorted(set(state.players[defender].treasures))
    if len(values) == 1:
        return _move_treasure(state, attacker, defender, values[0], events)
    return replace(state, pending=Pending("took", attacker, other=defender)), events


def treasure_taken(state: CrawlState, action: TreasureTaken) -> Result:
    pending = state.pending
    assert pending is not None and pending.other is not None
    held = state.players[pending.other].treasures
    if action.value not in held:
        raise IllegalActionError(
            f"{state.players[pending.other].name} holds no treasure of {action.value}: the one "
            "drawn is worth " + " or ".join(str(v) for v in sorted(set(held))))
    return _move_treasure(state, action.player, pending.other, action.value, [])


def _move_treasure(state: CrawlState, attacker: int, defender: int, value: int,
                   events: list[Event]) -> Result:
    held = list(state.players[defender].treasures)
    held.remove(value)
    state = state.with_player(defender, treasures=tuple(held))
    state = state.with_player(attacker, treasures=(*state.players[attacker].treasures, value))
    events.append(Event("took_treasure", attacker, value, other=defender))
    return end_turn(state, events)
