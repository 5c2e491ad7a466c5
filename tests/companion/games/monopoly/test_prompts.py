"""The engine's prompts (prompts.py) in a test-only variant, without Dungeonopoly: a decision
answered with Choose or Pass, dice rolled for a purpose, and an automatic step."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Action, Choose, Pass, Roll
from companion.games.monopoly.engine import LandContext, Rules
from companion.games.monopoly.prompts import Decision, RollFor, Step
from companion.games.monopoly.state import BANK, GameState
from companion.games.monopoly.txn import Txn

INCOME_TAX, FREE_PARKING = 4, 20


@dataclass(frozen=True, slots=True)
class TaxChoice(Decision["Taxing"]):
    """Income Tax: pay the flat $200 (choose tax flat) or pass to pay 10% of cash."""

    prompt: ClassVar[str] = "pay $200 or 10%"

    def actions(self, rules: Taxing, state: GameState) -> list[Action]:
        return [Choose(self.player, "tax", "flat"), Pass(self.player)]

    def choose(self, rules: Taxing, t: Txn, what: str, option: str) -> None:
        if (what, option) != ("tax", "flat"):
            raise IllegalActionError("choose tax flat, or pass")
        t.charge(self.player, BANK, 200, "income tax")
        t.push(Refund(self.player, 5))

    def decline(self, rules: Taxing, t: Txn) -> None:
        t.charge(self.player, BANK, t.players[self.player].cash // 10, "income tax")


@dataclass(frozen=True, slots=True)
class Refund(Step["Taxing"]):
    amount: int = 0

    def run(self, rules: Taxing, t: Txn) -> None:
        t.receive(self.player, self.amount, BANK, "refund")


@dataclass(frozen=True, slots=True)
class LuckyRoll(RollFor["Taxing"]):
    """Free Parking: roll a d4 and collect $10 a pip."""

    sides: tuple[int, ...] = (4,)

    def rolled(self, rules: Taxing, t: Txn, dice: tuple[int, ...]) -> None:
        t.receive(self.player, 10 * dice[0], BANK, "lucky roll")


class Taxing(Rules):
    name = "taxing"

    def on_land(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        if index == INCOME_TAX:
            t.push(TaxChoice(player))
            return
        super().on_land(t, player, index, ctx)

    def free_parking(self, t: Txn, player: int) -> None:
        t.push(LuckyRoll(player))


@pytest.fixture
def rules() -> Taxing:
    return Taxing()


def start(rules: Taxing, position: int = 0) -> GameState:
    state = rules.new_game(["Ann", "Bob"], seed=1)
    return replace(state, players=(replace(state.players[0], position=position),
                                   state.players[1]))


def test_a_decision_lists_its_answers_and_waits_for_its_player(rules: Taxing) -> None:
    state, _ = rules.apply(start(rules), Roll(0, (1, 3)))
    assert isinstance(state.pending[0], TaxChoice)
    assert rules.deciders(state) == (0,)
    actions = rules.legal_actions(state)
    assert Choose(0, "tax", "flat") in actions and Pass(0) in actions
    assert rules.waiting_for(state) == "waiting for Ann: pay $200 or 10%"
    with pytest.raises(IllegalActionError):
        rules.apply(state, Pass(1))  # not Bob's decision
    with pytest.raises(IllegalActionError):
        rules.apply(state, Choose(0, "tax", "half"))


def test_choose_answers_the_decision_and_an_automatic_step_follows(rules: Taxing) -> None:
    state, _ = rules.apply(start(rules), Roll(0, (1, 3)))
    state, events = rules.apply(state, Choose(0, "tax", "flat"))
    assert state.players[0].cash == 1500 - 200 + 5
    assert not state.pending
    assert [e.detail for e in events if e.kind == "paid"] == ["income tax", "refund"]


def test_pass_declines_the_decision(rules: Taxing) -> None:
    state, _ = rules.apply(start(rules), Roll(0, (1, 3)))
    state, _ = rules.apply(state, Pass(0))
    assert state.players[0].cash == 1350 and not state.pending


def test_dice_rolled_for_a_purpose(rules: Taxing) -> None:
    state, _ = rules.apply(start(rules, position=15), Roll(0, (2, 3)))
    assert isinstance(state.pending[0], LuckyRoll)
    spec = rules.roll_spec(state)
    assert spec is not None and (spec.player, spec.sides, spec.purpose) == \
        (0, (4,), "for:LuckyRoll")
    assert Roll(0, ()) in rules.legal_actions(state)
    with pytest.raises(IllegalActionError):
        rules.apply(state, Roll(0, (5,)))  # a d4
    state, _ = rules.apply(state, Roll(0, (3,)))
    assert state.players[0].cash == 1530 and not state.pending


def test_pass_and_choose_are_refused_where_nothing_asks(rules: Taxing) -> None:
    state = start(rules)
    with pytest.raises(IllegalActionError):
        rules.apply(state, Pass(0))
    with pytest.raises(IllegalActionError):
        rules.apply(state, Choose(0, "tax", "flat"))
