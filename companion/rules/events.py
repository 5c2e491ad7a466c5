"""Events: what happened while an action was applied, in order, for the log and the kiosk."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    kind: str  # e.g. rolled, moved, passed_go, paid, bought, rent, card, jailed, built ...
    player: int | None = None
    amount: int = 0
    square: int | None = None
    other: int | None = None  # the other party (player seat, BANK or POT)
    detail: str = ""
