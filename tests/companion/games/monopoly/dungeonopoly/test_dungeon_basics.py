"""Dungeonopoly basic rules (Introduction and basic rules) and the technical terms."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Build, EndTurn, Mortgage, PayJail
from companion.games.monopoly.dungeonopoly.character import Character, level_for
from companion.games.monopoly.dungeonopoly.terms import (
    edges,
    in_line_of_sight,
    range_for_level,
    target_problem,
    within_range,
)
from companion.games.monopoly.state import BANK
from companion.games.monopoly.txn import Txn


def test_landing_on_go_pays_400(game: Any) -> None:
    g = game("commoner", "commoner")
    g.set(0, position=34)
    g.roll(0, 2, 4)  # 34 + 6 = 40 -> GO
    assert g.p(0).position == 0
    assert g.cash(0) == 1900
    assert g.money_ok()


def test_passing_go_pays_200(game: Any) -> None:
    g = game("commoner", "commoner")
    g.set(0, position=36)
    g.roll(0, 1, 4)  # 36 -> 41 = 1, Mediterranean
    assert g.p(0).position == 1
    assert g.cash(0) == 1700


def test_advance_to_go_card_pays_400(game: Any) -> None:
    g = game("commoner", "commoner", decks={"chance": ["advance_to_go"]})
    g.set(0, position=3)
    g.roll(0, 1, 3)  # 3 -> 7 Chance
    assert g.p(0).position == 0
    assert g.cash(0) == 1900


@pytest.mark.parametrize("start,dice,square,fee", [(0, (1, 3), 4, 200), (33, (2, 3), 38, 100)])
def test_taxes_go_to_the_pot_and_free_parking_collects(game: Any, start: int, dice: tuple[int, int],
                                                        square: int, fee: int) -> None:
    g = game("commoner", "commoner")
    g.set(0, position=start)
    g.roll(0, *dice)
    assert g.p(0).position == square
    assert g.state.pot == fee and g.cash(0) == 1500 - fee
    g.act(EndTurn(0))
    g.set(1, position=15)
    g.roll(1, 2, 3)  # Free Parking
    assert g.cash(1) == 1500 + fee and g.state.pot == 0
    assert g.money_ok()


def test_card_penalty_and_jail_fee_go_to_the_pot(game: Any) -> None:
    g = game("commoner", "commoner", decks={"community_chest": ["doctor_fee"]})
    g.roll(0, 1, 1)  # doubles -> 2 Community Chest: pay $50
    assert g.state.pot == 50
    g.act(EndTurn(0)) if not g.state.roll_again else None
    g2 = game("commoner", "commoner")
    g2.set(0, in_jail=True, position=10)
    g2.act(PayJail(0))
    assert g2.state.pot == 50


def test_building_only_on_own_turn(game: Any) -> None:
    g = game("commoner", "commoner")
    g.own(1, 1)
    g.own(3, 1)
    with pytest.raises(IllegalActionError):
        g.act(Build(1, 1))
    with pytest.raises(IllegalActionError):
        g.act(Mortgage(1, 1))
    assert not [a for a in g.rules.legal_actions(g.state) if a.player == 1
                and isinstance(a, (Build, Mortgage))]
    g.roll(0, 4, 6)  # Just Visiting
    g.act(EndTurn(0))
    g.act(Build(1, 1))
    assert g.state.squares[1].houses == 1


def test_mortgage_allowed_off_turn_when_raising_money(game: Any) -> None:
    g = game("commoner", "commoner")
    g.own(1, 1)
    g.own(39, 0, houses=4)
    g.set(1, position=33, cash=100)
    g.roll(0, 4, 6)  # Just Visiting
    g.act(EndTurn(0))
    g.roll(1, 2, 4)  # Boardwalk with 4 houses: $1700, Bob has $100
    assert g.state.pending
    g.act(Mortgage(1, 1))  # allowed: raising money owed


def test_levels_every_10_ep_capped() -> None:
    assert [level_for(e) for e in (0, 9, 10, 19, 20, 89, 90, 500)] == [1, 1, 2, 2, 3, 9, 10, 10]


def test_ep_for_buying_doubles_seven_go_and_rent(game: Any) -> None:
    from companion.games.monopoly.actions import Buy
    g = game("commoner", "commoner")
    g.roll(0, 3, 3)  # doubles -> 6 Oriental: +1 doubles
    assert g.p(0).ep == 1
    g.act(Buy(0))
    assert g.p(0).ep == 2
    g.roll(0, 3, 4)  # lucky seven -> 13 States Avenue (unowned)
    assert g.p(0).ep == 3
    g2 = game("commoner", "commoner")
    g2.own(6, 1)
    g2.roll(0, 2, 4)  # rent to Bob on Oriental
    assert g2.p(0).ep == 1 and g2.cash(0) == 1494
    g3 = game("commoner", "commoner")
    g3.set(0, position=35)
    g3.roll(0, 1, 4)  # land on GO
    assert g3.p(0).ep == 1


def test_level_up_event(game: Any) -> None:
    g = game("commoner", "commoner")
    g.set(0, ep=9)
    g.roll(0, 3, 3)
    assert g.p(0).level == 2 and "level_up" in g.kinds()


def test_damage_is_20_per_attacker_level_to_the_bank(game: Any, rules: Any) -> None:
    g = game("commoner", "commoner")
    g.set(0, level=4)
    t = Txn(rules, g.state)
    assert rules.damage(t, 0, 1, "test")
    t.flush()
    st = t.freeze()
    assert st.players[1].cash == 1500 - 80
    assert sum(p.cash for p in st.players) + st.pot == st.bank_net


def test_damage_short_of_cash_becomes_a_debt(game: Any, rules: Any) -> None:
    g = game("commoner", "commoner")
    g.set(0, level=10)
    g.set(1, cash=100)
    t = Txn(rules, g.state)
    rules.damage(t, 0, 1, "test")
    t.flush()
    head = t.pending[0]
    assert head.player == 1 and head.amount == 200 and head.creditor == BANK


def test_limited_range_table_and_either_direction() -> None:
    assert [range_for_level(lv) for lv in range(1, 11)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    user = Character("A", 0, position=2, level=3)
    assert within_range(user, Character("B", 0, position=0))
    assert within_range(user, Character("B", 0, position=2))
    assert within_range(user, Character("B", 0, position=4))
    assert not within_range(user, Character("B", 0, position=5))
    assert within_range(Character("A", 0, position=39, level=1), Character("B", 0, position=0))


def test_line_of_sight_same_edge_corners_on_both() -> None:
    assert edges(10) == {0, 1}
    assert edges(0) == {0, 3}
    a = Character("A", 0, position=10)
    assert in_line_of_sight(a, Character("B", 0, position=3))
    assert in_line_of_sight(a, Character("B", 0, position=19))
    assert not in_line_of_sight(Character("A", 0, position=9), Character("B", 0, position=11))


def test_jail_cells_are_isolated() -> None:
    a = Character("A", 0, position=10, in_jail=True)
    b = Character("B", 0, position=10, in_jail=True)
    v = Character("C", 0, position=10)
    assert not within_range(a, b) and not in_line_of_sight(a, b)
    assert not within_range(v, a) and not in_line_of_sight(v, a)


def test_hidden_characters_cannot_be_targeted(game: Any) -> None:
    g = game("commoner", "commoner")
    g.set(1, hidden=True)
    assert "hidden" in (target_problem(g.state, 0, 1, spell=False) or "")
    g.set(1, hidden=False, in_jail=True, position=10)
    assert "jail" in (target_problem(g.state, 0, 1, spell=True) or "")


def test_no_rent_for_an_owner_in_jail(game: Any) -> None:
    g = game("commoner", "commoner")
    g.own(6, 1)
    g.set(1, in_jail=True, position=10)
    g.roll(0, 2, 4)
    assert g.cash(0) == 1500 and g.p(0).ep == 0


def test_seating_needs_a_class(rules: Any) -> None:
    with pytest.raises(ValueError, match="character class"):
        rules.new_game(["Ann", "Bob"])
    with pytest.raises(ValueError, match="unknown character class"):
        rules.new_game([("Ann", "jester"), ("Bob", "commoner")])
