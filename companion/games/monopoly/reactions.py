"""Reaction windows: who may respond to something before it resolves.

A ``Window`` at the head of ``GameState.pending`` waits for off-turn answers from its
``eligible`` players (its ``player`` is -1). The engine lists each waiting player's answers
(``answer_actions``) and a ``Pass``, takes the passes (``Rules.pass_window``) and, once nobody is
waiting, closes the window (``close``): what was held back goes ahead. A variant opens windows
where its rules allow answers (a counter to an ability being used, a reroll when dice are
rolled) and applies the answers it defines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from companion.games.monopoly.pending import Pending

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.engine import Rules
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn

R = TypeVar("R", bound="Rules")
W = TypeVar("W", bound="Window[Any]")


@dataclass(frozen=True, slots=True)
class Window(Pending, Generic[R]):
    """Waiting for off-turn answers from ``eligible`` players (``player`` is -1)."""

    eligible: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple(p for p in self.eligible if p not in self.passed)

    @property
    def automatic(self) -> bool:  # type: ignore[override]
        """A window nobody is waiting on closes by itself."""
        return not self.waiting

    def answer_actions(self, rules: R, state: GameState, seat: int) -> list[Action]:
        """The answers ``seat`` could give now (besides passing)."""
        return []

    def close(self, rules: R, t: Txn) -> None:
        """Nobody is waiting any more: what the window held back goes ahead."""


def cancel_window(t: Txn, kind: type[W]) -> W | None:
    """Remove the first window of ``kind`` from the queue (an answer cancelled what it held
    back) and return it."""
    for i, item in enumerate(t.pending):
        if isinstance(item, kind):
            del t.pending[i]
            return item
    return None
