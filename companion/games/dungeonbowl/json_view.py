"""The state of a Dungeonbowl game as the JSON ``companion script --json`` prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from companion.core.events import Event
from companion.games.dungeonbowl.state import BowlState
from companion.games.dungeonbowl.transcript import format_action, xy

if TYPE_CHECKING:
    from companion.games.dungeonbowl.rules import Dungeonbowl


def state_json(game: Dungeonbowl, state: BowlState,
               events: Sequence[Event] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {
        "variant": state.variant,
        "dungeon": state.dungeon.name,
        "phase": state.phase,
        "turn": state.turn,
        "current_team": state.players[state.current].name,
        "options": {f.name: getattr(state.options, f.name) for f in fields(state.options)},
        "teams": [{"name": t.name, "score": t.score, "roster": t.roster or None,
                   "balls_held": sum(len(state.balls_held(m.id)) for m in state.models
                                     if m.team == i),
                   "off_pitch": {s: sum(1 for m in state.models if m.team == i and m.status == s)
                                 for s in ("reserves", "ko", "casualty", "lost", "dead")}}
                  for i, t in enumerate(state.players)],
        "doors": {d: s for d, s in state.doors},
        "traps": [{"at": xy(t.at), "kind": t.kind or None, "removed": t.removed}
                  for t in state.traps],
        "chests": [xy(c) for c in state.chests],
        "hidden_balls": state.hidden_balls,
        "balls": [{"id": b.id, "at": xy(b.at) if b.at else None, "holder": b.holder or None,
                   "kind": b.kind or None, "gone": b.gone} for b in state.balls],
        "models": [{"id": m.id, "team": state.players[m.team].name,
                    "at": xy(m.at) if m.at else None, "status": m.status, "ma": m.ma,
                    "st": m.st, "ag": m.ag, "college": m.college or None,
                    "skills": list(m.skills), "spent": m.spent,
                    "passage": m.portal or None} for m in state.models],
        "circles_spent": list(state.circles_spent),
        "pending": game.pending_text(state),
        "waiting_for": None if state.outcome else game.waiting_for(state),
        "legal_actions": [format_action(state, a) for a in game.legal_actions(state)],
        "events": [{"kind": e.kind, "text": game.describe(state, e),
                    **({"team": state.players[e.player].name} if e.player is not None else {})}
                   for e in events],
    }
    if state.outcome is not None:
        out["outcome"] = {"winner": state.outcome.winner, "reason": state.outcome.reason,
                          "standings": [{"name": n, "touchdowns": s}
                                        for n, s in state.outcome.standings]}
    return out
