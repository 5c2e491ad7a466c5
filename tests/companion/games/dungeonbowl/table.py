"""Helpers for the Dungeonbowl tests: a small test dungeon (``lab.txt``: every feature in a few
squares), positions written as ``set`` lines and actions as transcript lines."""

from __future__ import annotations

import shlex
import textwrap
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.dungeonbowl.rules import Dungeonbowl
from companion.games.dungeonbowl.state import BowlState

GAME = Dungeonbowl()
LAB = str(Path(__file__).with_name("lab.txt"))


def position(text: str = "", teams: tuple[str, ...] = ("Orcs", "Elves"), play: bool = True,
             **options: Any) -> BowlState:
    """A game on the lab dungeon (or ``dungeon=``) from ``set`` lines, in play by default."""
    options.setdefault("dungeon", LAB)
    state = GAME.new_game(list(teams), options)
    for line in textwrap.dedent(text).splitlines():
        if line.strip():
            state = GAME.apply_set(state, shlex.split(line))
    if play:
        state = GAME.apply_set(state, ["set", "play"])
    return state


def act(state: BowlState, *lines: str) -> tuple[BowlState, list[Event]]:
    """Apply transcript lines in order; the state after them and every event."""
    events: list[Event] = []
    for line in lines:
        state, told = GAME.apply(state, GAME.parse_action(state, shlex.split(line)))
        events.extend(told)
    return state, events


def refused(state: BowlState, line: str, *words: str) -> str:
    """The line is refused with a message holding ``words``, the state unchanged."""
    before = state
    with pytest.raises(IllegalActionError) as info:
        GAME.apply(state, GAME.parse_action(state, shlex.split(line)))
    message = str(info.value)
    for w in words:
        assert w in message, message
    assert state == before
    return message


def said(events: list[Event]) -> str:
    return " | ".join(e.detail for e in events)


def pending(state: BowlState) -> Any:
    assert state.pending, "nothing pending"
    return state.pending[0]


def model(state: BowlState, model_id: str) -> Any:
    m = state.model(model_id)
    assert m is not None
    return m
