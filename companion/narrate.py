"""Events in plain words, for the turn-by-turn account, the kiosk log and JSON output. Each game
tells its own events (``Game.describe``) and says which of them the account leaves out
(``Game.tells``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core.events import Event
from companion.core.game import Game


def account(game: Game, state: Any, events: Sequence[Event]) -> list[str]:
    """The events as sentences a person reads, without repeating what is already told."""
    return [game.describe(state, e) for e in events if game.tells(e)]


def describe(game: Game, state: Any, event: Event) -> str:
    """One sentence for an event (``state`` gives the names; any state of the game will do)."""
    return game.describe(state, event)
