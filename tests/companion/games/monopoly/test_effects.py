"""Table effects (effects.py) in a test-only variant, without Dungeonopoly: an effect switched
on by a role at the table, one always on, and the registry's memory of what is in play."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.monopoly.actions import Roll
from companion.games.monopoly.effects import EffectRegistry, Seated, TableEffect
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.state import POT, PlayerState
from companion.games.monopoly.txn import Txn


class Hex(TableEffect["Cursed"]):
    """While a witch plays, money due to seat 1 goes to the pot."""

    roles = frozenset({"witch"})

    def redirect_income(self, rules: Cursed, t: Txn, recipient: int, amount: int,
                        reason: str) -> int:
        return POT if recipient == 1 else recipient


class Toll(TableEffect["Cursed"]):
    """Always: every charge costs $1 more."""

    def adjust_charge(self, rules: Cursed, t: Txn, debtor: int, creditor: int, amount: int,
                      reason: str) -> int:
        return amount + 1


class Witches(EffectRegistry[TableEffect["Cursed"]]):
    """A player named Wendy is the witch."""

    def roles_in_play(self, table: Seated) -> set[str]:
        return {"witch"} if any(p.name == "Wendy" for p in table.players) else set()

    def key(self, players: Sequence[PlayerState]) -> tuple[str, ...]:
        return tuple(p.name for p in players)


EFFECTS = Witches()
HEX = EFFECTS.register(Hex())
TOLL = EFFECTS.register(Toll())


class Cursed(Rules):
    name = "cursed"

    def redirect_income(self, t: Txn, recipient: int, amount: int, reason: str) -> int:
        for e in EFFECTS.active(t):
            recipient = e.redirect_income(self, t, recipient, amount, reason)
        return recipient

    def adjust_charge(self, t: Txn, debtor: int, creditor: int, amount: int, reason: str) -> int:
        for e in EFFECTS.active(t):
            amount = e.adjust_charge(self, t, debtor, creditor, amount, reason)
        return amount


def test_an_effect_is_on_only_while_its_role_plays() -> None:
    rules = Cursed()
    plain = rules.new_game(["Ann", "Bob"], seed=1)
    witchy = rules.new_game(["Wendy", "Bob"], seed=1)
    assert EFFECTS.active(plain) == [TOLL]
    assert EFFECTS.active(witchy) == [HEX, TOLL]
    assert EFFECTS.active(plain) == [TOLL]  # the memory follows the players asked about


def test_effects_change_money_through_the_variant_hooks() -> None:
    rules = Cursed()
    state = rules.new_game(["Wendy", "Bob"], seed=1)
    # Wendy lands on Income Tax (4): $200 plus the toll's $1
    state, _ = rules.apply(state, Roll(0, (1, 3)))
    assert state.players[0].cash == 1500 - 201
    t = Txn(rules, state)
    t.receive(1, 50, reason="gift")  # hexed: to the pot
    assert t.players[1].cash == 1500 and t.pot == 50


def test_a_new_effect_is_seen_at_once() -> None:
    registry = Witches()
    rules = Cursed()
    state = rules.new_game(["Ann", "Bob"], seed=1)
    assert registry.active(state) == []
    toll = registry.register(Toll())
    assert registry.active(state) == [toll]
