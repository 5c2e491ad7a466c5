"""The state of a Dungeon Crawl game as the JSON ``companion script --json`` prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from companion.core.events import Event
from companion.games.dungeon_crawl.pieces import COLOURS
from companion.games.dungeon_crawl.state import CrawlState
from companion.games.dungeon_crawl.transcript import format_action

if TYPE_CHECKING:
    from companion.games.dungeon_crawl.rules import DungeonCrawl


def state_json(game: DungeonCrawl, state: CrawlState,
               events: Sequence[Event] = ()) -> dict[str, Any]:
    players = []
    for p in state.players:
        players.append({
            "name": p.name, "suit": p.suit, "colour": COLOURS[p.suit],
            "at": list(p.at) if p.at else None, "dead": p.dead,
            "treasures": list(p.treasures), "treasure_count": len(p.treasures),
            "treasure_total": sum(p.treasures), "equipment": p.equipment,
            "trap_xp": p.trap_xp, "monster_xp": p.monster_xp, "damage": list(p.damage),
            "soaked": p.soaked, "wounds": p.wounds})
    out: dict[str, Any] = {
        "variant": state.variant,
        "phase": state.phase,
        "turn": state.turn,
        "current_player": state.players[state.current].name,
        "first_builder": None if state.first is None else state.players[state.first].name,
        "options": {f.name: getattr(state.options, f.name) for f in fields(state.options)},
        "tiles": [{"at": list(t.at), "suit": t.suit, "value": t.value} for t in state.tiles],
        "pawn_directions": {d: s for s, d in state.directions},
        "coins": [{"at": list(c.at), "value": c.value, "suit": c.suit} for c in state.coins],
        "stacks": [{"at": list(s.at), "treasures": list(s.treasures), "equipment": s.equipment}
                   for s in state.stacks],
        "revealed": sorted(f"{s}:{v}" for s, v in state.revealed),
        "treasures_found": state.crowns_revealed,
        "players": players,
        "waiting_for": None if state.outcome else game.waiting_for(state),
        "legal_actions": [format_action(state, a) for a in game.legal_actions(state)],
        "events": [event_json(game, state, e) for e in events],
    }
    if state.outcome is not None:
        out["outcome"] = {"winner": state.outcome.winner, "reason": state.outcome.reason,
                          "standings": [{"name": n, "treasure": t}
                                        for n, t in state.outcome.standings]}
    return out


def event_json(game: DungeonCrawl, state: CrawlState, event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": event.kind, "text": game.describe(state, event)}
    if event.player is not None:
        out["player"] = state.players[event.player].name
    if event.amount:
        out["amount"] = event.amount
    if event.other is not None:
        out["other"] = state.players[event.other].name
    if event.detail:
        out["detail"] = event.detail
    return out
