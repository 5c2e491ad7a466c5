"""Helpers for the Dungeon Crawl tests: positions written as ``set`` lines, actions written as
transcript lines, so every test reads like the table it describes."""

from __future__ import annotations

import textwrap

from companion.core.events import Event
from companion.games.dungeon_crawl.rules import DungeonCrawl
from companion.games.dungeon_crawl.state import CrawlState, Options

GAME = DungeonCrawl()

# A corridor of three tiles: spaces x 0..5, y 0..1.
CORRIDOR = """
    set tile 0,0 suns:0
    set tile 1,0 moons:0
    set tile 2,0 crowns:0
"""


def position(text: str, players: tuple[str, ...] = ("Ann", "Bob", "Cat"),
             options: Options | None = None) -> CrawlState:
    """A game in play from ``set`` lines (one per line)."""
    state = GAME.new_game(list(players), options)
    for line in textwrap.dedent(text).splitlines():
        if line.strip():
            state = GAME.apply_set(state, line.split())
    return state


def act(state: CrawlState, *lines: str) -> tuple[CrawlState, list[Event]]:
    """Apply transcript lines in order; the state after them and all their events."""
    events: list[Event] = []
    for line in lines:
        state, happened = GAME.apply(state, GAME.parse_action(state, line.split()))
        events.extend(happened)
    return state, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def build(state: CrawlState, until_tiles: int = 24) -> CrawlState:
    """Drive the building phase with the first legal choice each time until ``until_tiles``
    tiles lie (and their coins); with 24 it stops when the last coin is due."""
    while state.phase in ("start", "build"):
        if state.phase == "build" and len(state.tiles) >= until_tiles and state.pending is None:
            break
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    return state
