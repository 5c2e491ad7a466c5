"""The square-by-square move (walk.py) in a test-only variant, without Dungeonopoly: watchers
that charge an extra step or stop the mover, a watcher a move brings along, a pinned player, a
player towed along after a move, and a move paused by a decision asked while passing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from companion.games.monopoly.actions import Pass, Roll
from companion.games.monopoly.engine import LandContext, Rules
from companion.games.monopoly.prompts import Decision
from companion.games.monopoly.state import GameState
from companion.games.monopoly.txn import Txn
from companion.games.monopoly.walk import ResumeMove, Watcher

TOLL, WALL, GATE = 3, 8, 5


class Roadworks:
    """Crossing square 3 costs an extra step; square 8 stops every mover."""

    def enter_square(self, rules: Any, t: Txn, mover: int, index: int, came_from: int,
                     remaining: int, land: bool) -> int:
        if index == TOLL and remaining > 0:
            t.emit("toll", mover, square=index)
            return remaining - 1
        return 0 if index == WALL else remaining


class Tally:
    """Brought along by one move: notes every square it sees."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def enter_square(self, rules: Any, t: Txn, mover: int, index: int, came_from: int,
                     remaining: int, land: bool) -> int:
        self.seen.append(index)
        return remaining


@dataclass(frozen=True, slots=True)
class GateQuestion(Decision["Roads"]):
    """Asked while passing the gate; passing on it lets the move go on."""

    def decline(self, rules: Roads, t: Txn) -> None:
        t.emit("gate_passed", self.player)


class Roads(Rules):
    name = "roads"

    def __init__(self, *, roadworks: bool = False, pinned: Sequence[int] = (), tow: bool = False,
                 gate: bool = False) -> None:
        super().__init__()
        self.roadworks, self.pins, self.tow, self.gate = roadworks, set(pinned), tow, gate

    def pinned(self, t: GameState | Txn, player: int) -> bool:
        return player in self.pins

    def step_watchers(self, t: Txn, player: int) -> Sequence[Watcher]:
        return [Roadworks()] if self.roadworks else []

    def passing(self, t: Txn, player: int, index: int, forward: bool, land: bool) -> bool:
        if self.gate and index == GATE:
            t.push(GateQuestion(player))
        return super().passing(t, player, index, forward, land)

    def after_move(self, t: Txn, player: int, steps: int, land: bool,
                   count_passing: bool) -> None:
        if self.tow and player == 0:  # seat 1 is towed to wherever seat 0 ends
            t.set_player(1, position=t.players[0].position)
            t.emit("towed", 1, amount=steps)


def new(rules: Roads) -> GameState:
    return rules.new_game(["Ann", "Bob", "Cy"], seed=1)


def test_a_watcher_charges_an_extra_step() -> None:
    rules = Roads(roadworks=True)
    state, events = rules.apply(new(rules), Roll(0, (3, 4)))
    assert state.players[0].position == 6
    assert ("toll", 3) in [(e.kind, e.square) for e in events]


def test_a_watcher_stops_the_mover() -> None:
    rules = Roads(roadworks=True)
    state, _ = rules.apply(new(rules), Roll(0, (4, 5)))
    assert state.players[0].position == WALL


def test_without_watchers_the_move_is_standard() -> None:
    rules = Roads()
    state, _ = rules.apply(new(rules), Roll(0, (4, 5)))
    assert state.players[0].position == 9


def test_a_pinned_player_does_not_move() -> None:
    rules = Roads(pinned=(0,))
    state, events = rules.apply(new(rules), Roll(0, (1, 2)))
    assert state.players[0].position == 0
    assert ("unmoved", "pinned") in [(e.kind, e.detail) for e in events]


def test_a_player_is_towed_along() -> None:
    rules = Roads(tow=True)
    state, events = rules.apply(new(rules), Roll(0, (1, 2)))
    assert state.players[0].position == state.players[1].position == 3
    assert ("towed", 1) in [(e.kind, e.player) for e in events]


def test_a_watcher_brought_along_sees_every_square_even_without_passing() -> None:
    rules = Roads()
    t = Txn(rules, new(rules))
    tally = Tally()
    rules.move(t, 0, 4, LandContext(), land=False, count_passing=False, watchers=[tally])
    assert tally.seen == [1, 2, 3, 4] and t.players[0].position == 4


def test_a_decision_while_passing_pauses_the_move_and_it_resumes() -> None:
    rules = Roads(gate=True)
    state, _ = rules.apply(new(rules), Roll(0, (2, 4)))
    assert state.players[0].position == GATE
    assert isinstance(state.pending[0], GateQuestion)
    assert isinstance(state.pending[1], ResumeMove) and state.pending[1].steps == 1
    state, events = rules.apply(state, Pass(0))
    assert state.players[0].position == 6
    assert [e.kind for e in events][:2] == ["gate_passed", "moved"]


@pytest.mark.parametrize("steps", [-3, 3])
def test_moves_back_and_forward_land(steps: int) -> None:
    rules = Roads()
    state = new(rules)
    state = replace(state, players=(replace(state.players[0], position=12),) + state.players[1:])
    t = Txn(rules, state)
    rules.move(t, 0, steps, LandContext())
    assert t.players[0].position == 12 + steps
