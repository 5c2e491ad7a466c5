"""Treasuries, transfers and insolvency (Illumonopoly "Money", "Money Transfers"; IL.2-IL.12,
rulings I-1-I-4, I-21, I-30, I-33)."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly.actions import (
    Build,
    DeclareBankruptcy,
    EndTurn,
    Mortgage,
    Pass,
    Roll,
    Trade,
    TradeSide,
)
from companion.games.monopoly.illumonopoly import IllumPlayer, Transfer
from companion.games.monopoly.pending import Debt

BOARDWALK, PARK_PLACE = 39, 37
GREENS = (31, 32, 34)


def test_il03_starting_money_is_all_central(make: Any) -> None:
    t = make()
    assert t.central(0) == 1500 and t.player(0).treasuries == ()


def test_il02_il03_one_treasury_per_group_held(make: Any) -> None:
    """The text's example: one utility, two railroads, two greens = three group treasuries
    (plus central): rent from each lands in its own."""
    t = make()
    t.own(0, 12, 5, 15, 31, 32)
    t.turn(current=1)
    t.act(Roll(1, (1, 4)))  # Bob 0 -> 5 Reading Railroad: $50 (two railroads)
    assert t.treasury(0, "railroad") == 50 and t.central(0) == 1500
    assert t.central(1) == 1450


def test_il04_rent_lands_in_the_group_treasury(make: Any) -> None:
    t = make()
    t.own(0, BOARDWALK)
    t.set(1, position=35)
    t.turn(current=1)
    t.act(Roll(1, (1, 3)))
    assert t.treasury(0, "dark_blue") == 50
    assert t.central(0) == 1500
    assert t.central(1) == 1450


def test_il05_mortgage_money_lands_in_the_group_treasury(make: Any) -> None:
    t = make()
    t.own(0, BOARDWALK)
    t.act(Mortgage(0, BOARDWALK))
    assert t.treasury(0, "dark_blue") == 200 and t.central(0) == 1500


def test_il06_go_money_lands_in_central(make: Any) -> None:
    t = make()
    t.own(0, BOARDWALK)
    t.money(0, 100, dark_blue=40)
    t.set(0, position=38)
    t.act(Roll(0, (1, 2)))  # passes GO to Community Chest? 38+3 = 41 -> 1
    assert t.state.players[0].position == 1
    assert t.central(0) == 300 and t.treasury(0, "dark_blue") == 40


def test_il07_buying_may_use_the_groups_treasury(make: Any) -> None:
    """Ann holds Pacific Avenue with $300 in the green treasury and $20 central: she can buy
    North Carolina Avenue ($300) from the green treasury."""
    from companion.games.monopoly.actions import Buy, Pass

    t = make()
    t.own(0, 31)
    t.money(0, 20, green=300)
    t.set(0, position=29)
    t.act(Roll(0, (1, 2)))  # 29 -> 32 North Carolina Avenue
    t.act(Buy(0))
    for seat in (1, 2):
        t.act(Pass(seat))
    assert t.state.squares[32].owner == 0
    assert t.treasury(0, "green") == 0 and t.central(0) == 20


def test_il07_rent_comes_from_central_only(make: Any) -> None:
    """Bob has $10 central and $500 in his railroad treasury: rent of $50 becomes a debt."""
    t = make()
    t.own(0, BOARDWALK)
    t.own(1, 5)
    t.money(1, 10, railroad=500)
    t.set(1, position=35)
    t.turn(current=1)
    t.act(Roll(1, (1, 3)))
    head = t.state.pending[0]
    assert isinstance(head, Debt) and head.amount == 50
    assert t.treasury(1, "railroad") == 500


def test_il08_rent_is_raised_by_a_paid_transfer(make: Any) -> None:
    """A transfer made to pay a debt during the move is never free (I-4): $100 costs $10."""
    t = make()
    t.own(0, BOARDWALK)
    t.own(1, 5)
    t.money(1, 10, railroad=500)
    t.set(1, position=35)
    t.turn(current=1)
    t.act(Roll(1, (1, 3)))
    t.act(Transfer(1, "railroad", "central", 100))
    assert not t.state.pending
    assert t.treasury(1, "railroad") == 390  # 500 - 100 - fee 10
    assert t.central(1) == 60  # 10 + 100 - 50 rent
    assert t.treasury(0, "dark_blue") == 50


def test_il09_group_to_group_is_refused(table: Any) -> None:
    table.own(0, 5, 31)
    table.money(0, 100, railroad=100)
    msg = table.refused(Transfer(0, "railroad", "green", 50))
    assert "two transfers" in msg


def test_il10_transfer_fee_is_ten_percent(table: Any) -> None:
    """The text's example: $500 from the green treasury costs $50 more."""
    table.own(0, *GREENS)
    table.money(0, 0, green=600)
    table.act(Transfer(0, "green", "central", 500))
    assert table.central(0) == 500 and table.treasury(0, "green") == 50


def test_il10_transfer_fee_minimum_five(table: Any) -> None:
    table.own(0, 31)
    table.money(0, 100)
    table.act(Transfer(0, "central", "green", 30))
    assert table.central(0) == 65 and table.treasury(0, "green") == 30


def test_il10_i2_fee_from_the_other_treasury(table: Any) -> None:
    table.own(0, 31)
    table.money(0, 100, green=200)
    table.act(Transfer(0, "green", "central", 200, fee_from="central"))
    assert table.treasury(0, "green") == 0 and table.central(0) == 280


def test_i1_fee_rounds_up_to_whole_dollars(table: Any) -> None:
    table.own(0, 31)
    table.money(0, 100)
    table.act(Transfer(0, "central", "green", 55))
    assert table.central(0) == 100 - 55 - 6


def test_il11_two_free_transfers_after_moving(table: Any) -> None:
    table.own(0, 31)
    table.money(0, 1000, green=300)
    table.turn(rolled=True)
    table.act(Transfer(0, "green", "central", 100))
    table.act(Transfer(0, "central", "green", 100))
    assert table.central(0) == 1000 and table.treasury(0, "green") == 300
    table.act(Transfer(0, "green", "central", 100))  # the third pays $10
    assert table.treasury(0, "green") == 190 and table.central(0) == 1100


def test_i4_no_free_transfer_before_moving(table: Any) -> None:
    table.own(0, 31)
    table.money(0, 1000, green=300)
    table.act(Transfer(0, "green", "central", 100))
    assert table.treasury(0, "green") == 190


def test_il12_cash_between_players_is_free_and_central(table: Any) -> None:
    table.own(0, 31)
    table.money(0, 100, green=500)
    table.act(Trade(0, 1, TradeSide(cash=100), TradeSide()))
    assert table.central(0) == 0 and table.central(1) == 1600
    assert table.treasury(0, "green") == 500
    msg = table.refused(Trade(0, 1, TradeSide(cash=50), TradeSide()))
    assert "central treasury holds $0" in msg


def test_bad_input_transfer_from_an_empty_treasury(table: Any) -> None:
    table.own(0, 31)
    msg = table.refused(Transfer(0, "green", "central", 10))
    assert "green treasury is empty" in msg


def test_bad_input_transfer_to_a_group_not_held(table: Any) -> None:
    msg = table.refused(Transfer(0, "central", "green", 10))
    assert "holds no green lots" in msg
    msg = table.refused(Transfer(0, "central", "purple", 10))
    assert "no treasury named 'purple'" in msg


def test_il51_i21_losing_the_last_lot_empties_the_treasury(table: Any) -> None:
    table.own(0, BOARDWALK)
    table.money(0, 100, dark_blue=300)
    table.act(Trade(0, 1, TradeSide(squares=(BOARDWALK,)), TradeSide(cash=10)))
    table.act(Pass(2))  # nobody opposes the trade (IL.13)
    assert table.player(0).treasuries == () and table.central(0) == 410
    assert "treasury_emptied" in table.kinds()


def test_i30_insolvency_counts_every_treasury_less_fees(make: Any) -> None:
    """Bob has $10 central and $400 in railroads (the most they can send is $363 plus its $37
    fee): $200 rent he can raise, so bankruptcy is refused; $600 he cannot."""
    t = make()
    t.own(0, BOARDWALK, houses=1)
    t.own(1, 5, mortgaged=True)
    t.money(1, 10, railroad=400)
    t.set(1, position=35)
    t.turn(current=1)
    t.act(Roll(1, (1, 3)))  # rent $200 with one house
    assert isinstance(t.state.pending[0], Debt)
    assert "raise" in t.refused(DeclareBankruptcy(1))
    t2 = make()
    t2.own(0, BOARDWALK, houses=2)  # $600
    t2.own(1, 5, mortgaged=True)
    t2.money(1, 10, railroad=400)
    t2.set(1, position=35)
    t2.turn(current=1)
    t2.act(Roll(1, (1, 3)))
    t2.act(DeclareBankruptcy(1))
    assert t2.player(1).bankrupt
    # I-30: a bankrupt player's treasuries all go to the creditor, fee-free
    assert t2.player(0).cash == 1500 + 410


def test_i4_free_transfers_do_not_carry_over(table: Any) -> None:
    table.turn(rolled=True)
    table.act(EndTurn(0))
    assert table.tb.free_transfers == 2


def test_i3_central_first_takes_central_then_the_group(make: Any) -> None:
    t = make(payment_source="central_first")
    t.own(0, 31, 34)
    t.money(0, 100, green=300)
    t.act(Build(0, 31))  # $200: $100 central, $100 green
    assert t.central(0) == 0 and t.treasury(0, "green") == 200


def test_i33_a_payment_short_of_its_treasuries_draws_on_the_others(make: Any) -> None:
    """The safety net (I-33) under central_first: central is counted once."""
    from companion.games.monopoly.txn import Txn

    t = make(payment_source="central_first")
    rules = t.rules
    t.own(0, 5)
    t.money(0, 100, railroad=500)
    txn = Txn(rules, t.state)
    rules.debit(txn, 0, 300, "Luxury Tax")
    p = txn.players[0]
    assert isinstance(p, IllumPlayer)
    assert p.cash == 300 and p.central == 0 and p.treasury("railroad") == 300
