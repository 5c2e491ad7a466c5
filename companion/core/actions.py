"""The base of every game's actions: a value naming the seat of the player who takes it.

Games subclass it with frozen dataclasses (``Roll``, ``Buy``, a dungeon game's ``Step`` ...);
dice values arrive inside actions, never drawn by a game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    player: int
