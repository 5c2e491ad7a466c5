"""Events: what happened while an action was applied, in order, for the log and the kiosk.

One shape for every game: a kind (``rolled``, ``paid``, ``revealed`` ...), the player it is
about, an amount, a place on the game's board (an index the game's topology knows), the other
party and a free detail. Each game tells its events in words (``Game.describe``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    player: int | None = None
    amount: int = 0
    square: int | None = None
    other: int | None = None  # the other party (a seat, or a game's own code for bank or pot)
    detail: str = ""
