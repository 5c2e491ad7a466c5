"""What a variant's rules ask for in the middle of an action, queued in ``GameState.pending``:
a ``Decision`` of one player, dice rolled for a purpose (``RollFor``), and an automatic ``Step``
that runs once everything before it is settled.

The engine routes them (``Rules``): a ``Decision`` lists its own answers and takes ``Pass``
(``decline``) and ``Choose`` (``choose``); a ``RollFor`` makes the engine wait for its dice and
hands it the checked values; a ``Step`` runs by itself. Each is generic in the rules class that
asks (a variant's subclasses name their own variant).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from companion.core.errors import IllegalActionError
from companion.games.monopoly.pending import Pending

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.engine import Rules
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn

R = TypeVar("R", bound="Rules")


@dataclass(frozen=True, slots=True)
class Decision(Pending, Generic[R]):
    """A decision the rules ask of ``player``. Subclasses list its answers (``actions``) and
    apply them: the engine routes ``Pass`` to ``decline`` and ``Choose`` to ``choose``; a
    variant routes answers of its own kinds."""

    def actions(self, rules: R, state: GameState) -> list[Action]:
        return []

    def decline(self, rules: R, t: Txn) -> None:
        raise IllegalActionError("this decision cannot be passed on")

    def choose(self, rules: R, t: Txn, what: str, option: str) -> None:
        raise IllegalActionError("this decision takes no 'choose' answer")


@dataclass(frozen=True, slots=True)
class RollFor(Pending, Generic[R]):
    """Dice the rules ask ``player`` to roll for a purpose of their own: the engine waits for
    a roll of ``dice_sides`` (purpose ``for:<class name>``) and hands the checked values to
    ``rolled``. Subclasses are frozen dataclasses with a ``sides`` field."""

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return tuple(getattr(self, "sides", (6,)))

    def rolled(self, rules: R, t: Txn, dice: tuple[int, ...]) -> None:
        raise NotImplementedError(type(self).__name__)


@dataclass(frozen=True, slots=True)
class Step(Pending, Generic[R]):
    """An automatic step the rules queue: the engine runs it once everything before it in the
    queue is settled."""

    automatic = True

    def run(self, rules: R, t: Txn) -> None:
        raise NotImplementedError(type(self).__name__)
