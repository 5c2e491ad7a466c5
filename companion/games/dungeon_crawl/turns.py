"""Passing the turn to the left, and the end of the game with its tie-break
[DC §Turn Sequence; §Game Ending and Winning].
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.events import Event
from companion.core.game import Outcome
from companion.games.dungeon_crawl.state import CrawlState

Result = tuple[CrawlState, list[Event]]


def end_turn(state: CrawlState, events: list[Event]) -> Result:
    """The turn is over: play passes to the left."""
    nxt = state.next_seat(state.current)
    return replace(state, pending=None, current=nxt, turn=state.turn + 1), events


def rank_key(treasures: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Highest total first; among equal totals the best single treasure, then the next best;
    a null treasure adds nothing (ruling C-15)."""
    return sum(treasures), tuple(sorted((v for v in treasures if v > 0), reverse=True))


def outcome(state: CrawlState) -> Outcome:
    """Everyone shows their treasures; the highest total wins, ties broken by the single most
    valuable treasure, then the next (C-15); players still equal share the win (winner None,
    reason ``shared``)."""
    order = sorted(range(len(state.players)),
                   key=lambda i: rank_key(state.players[i].treasures), reverse=True)
    standings = tuple((state.players[i].name, sum(state.players[i].treasures)) for i in order)
    best = rank_key(state.players[order[0]].treasures)
    leaders = [i for i in order if rank_key(state.players[i].treasures) == best]
    if len(leaders) > 1:
        return Outcome(None, standings, "shared")
    return Outcome(state.players[order[0]].name, standings, "sixth_treasure")


def finish(state: CrawlState, events: list[Event]) -> Result:
    """The sixth treasure is revealed: the game ends at once (C-16)."""
    result = outcome(state)
    over = replace(state, phase="over", pending=None, outcome=result)
    winner = state.seat_named(result.winner) if result.winner else None
    return over, [*events, Event("game_over", winner, standings_total(result),
                                 detail=result.reason)]


def standings_total(result: Outcome) -> int:
    return result.standings[0][1] if result.standings else 0


def stop(state: CrawlState) -> Result:
    """The table stops the game early: the treasures held decide as at the end (reason
    ``stopped``, or ``shared`` when the leaders are equal)."""
    over, events = finish(state, [])
    assert over.outcome is not None
    if over.outcome.reason == "sixth_treasure":
        over = replace(over, outcome=replace(over.outcome, reason="stopped"))
        events = [replace(e, detail="stopped") if e.kind == "game_over" else e for e in events]
    return over, events
