"""Reaction windows (reactions.py) in a test-only variant, without Dungeonopoly: when a player
rolls to move, the others may heckle her ($10 each) or pass before the roll goes ahead."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Action, Pass, Roll
from companion.games.monopoly.engine import RollSpec, Rules
from companion.games.monopoly.reactions import Window, cancel_window
from companion.games.monopoly.state import GameState
from companion.games.monopoly.txn import Txn


@dataclass(frozen=True, slots=True)
class Heckle(Action):
    pass


@dataclass(frozen=True, slots=True)
class Cancel(Action):
    """Call the roll off (it never happens)."""


@dataclass(frozen=True, slots=True)
class HeckleWindow(Window["Hecklers"]):
    roller: int = -1
    sides: tuple[int, ...] = ()
    purpose: str = ""
    dice: tuple[int, ...] = ()

    def answer_actions(self, rules: Hecklers, state: GameState, seat: int) -> list[Action]:
        return [Heckle(seat), Cancel(seat)]

    def close(self, rules: Hecklers, t: Txn) -> None:
        rules.handle_roll(t, RollSpec(self.roller, self.sides, self.purpose), self.dice)


class Hecklers(Rules):
    name = "hecklers"

    def react_to_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> bool:
        if spec.purpose != "move":
            return False
        eligible = tuple(s for s in t.active() if s != spec.player)
        t.push(HeckleWindow(-1, eligible, (), spec.player, spec.sides, spec.purpose, dice))
        return True

    def apply_extra(self, t: Txn, action: Action) -> None:
        head = t.pending[0] if t.pending else None
        if isinstance(action, (Heckle, Cancel)):
            if not isinstance(head, HeckleWindow) or action.player not in head.waiting:
                raise IllegalActionError("there is no roll to answer")
            if isinstance(action, Cancel):
                assert cancel_window(t, HeckleWindow) is head
                t.rolled = True  # the roll is spent
                return
            t.pending[0] = replace(head, passed=head.passed + (action.player,))
            t.charge(head.roller, action.player, 10, "heckled")
            return
        super().apply_extra(t, action)


@pytest.fixture
def rolled() -> tuple[Hecklers, GameState]:
    rules = Hecklers()
    state, _ = rules.apply(rules.new_game(["Ann", "Bob", "Cy"], seed=1), Roll(0, (1, 2)))
    return rules, state


def test_a_roll_waits_for_every_eligible_answer(rolled: tuple[Hecklers, GameState]) -> None:
    rules, state = rolled
    head = state.pending[0]
    assert isinstance(head, HeckleWindow) and head.waiting == (1, 2)
    assert state.players[0].position == 0
    assert rules.deciders(state) == (1, 2)
    actions = rules.legal_actions(state)
    for seat in (1, 2):
        assert Heckle(seat) in actions and Pass(seat) in actions
    assert not [a for a in actions if a.player == 0]


def test_answers_then_passes_close_the_window_and_the_roll_goes_ahead(
        rolled: tuple[Hecklers, GameState]) -> None:
    rules, state = rolled
    state, _ = rules.apply(state, Heckle(1))
    assert state.players[0].cash == 1490 and state.players[1].cash == 1510
    assert rules.deciders(state) == (2,)
    state, events = rules.apply(state, Pass(2))
    assert ("passed", 2) in [(e.kind, e.player) for e in events]
    assert state.players[0].position == 3 and not isinstance(state.pending[0], Window)


def test_only_a_waiting_player_may_pass(rolled: tuple[Hecklers, GameState]) -> None:
    rules, state = rolled
    with pytest.raises(IllegalActionError, match="not being asked"):
        rules.apply(state, Pass(0))
    state, _ = rules.apply(state, Pass(1))
    with pytest.raises(IllegalActionError, match="not being asked"):
        rules.apply(state, Pass(1))


def test_an_answer_may_cancel_what_the_window_held_back(
        rolled: tuple[Hecklers, GameState]) -> None:
    rules, state = rolled
    state, _ = rules.apply(state, Cancel(2))
    assert not state.pending and state.players[0].position == 0
