"""Rulings that had no test of their own (docs/illumonopoly/rulings.md), and IL.1: standard
Monopoly holds wherever Illumonopoly says nothing. Money is checked per treasury."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.games.monopoly.actions import Build, EndTurn, Pass, Roll, Sell
from companion.games.monopoly.illumonopoly import DeclareMissing, Interfere, PlayCard, Sue, Support
from companion.games.monopoly.illumonopoly.contests import InterferenceWindow, SupportRound

ORIENTAL, PARK_PLACE, BOARDWALK = 6, 37, 39
PINKS = (11, 13, 14)  # St. Charles Place, States Avenue, Virginia Avenue ($100 houses)
STREETS8 = (1, 3, 6, 8, 9, 11, 13, 14)


def test_il01_standard_monopoly_otherwise(make: Any) -> None:
    """Moving, passing GO ($200 into central), Income Tax (from central) and jail work as in
    the standard game."""
    t = make()
    t.set(0, position=35)
    t.act(Roll(0, (4, 6)))  # 35 -> Reading Railroad, passing GO
    assert t.state.players[0].position == 5 and t.central(0) == 1700
    u = make()
    u.act(Roll(0, (1, 3)))  # GO -> Income Tax ($200 in the standard rules)
    assert u.central(0) == 1300
    v = make()
    v.set(0, position=28)
    v.act(Roll(0, (1, 1)))  # doubles to Go To Jail
    assert v.state.players[0].in_jail and v.state.players[0].position == 10


def test_i14_legal_holiday_does_not_stop_interference(make: Any) -> None:
    """Legal Holiday stops court cases, not interference with purchases (a different
    procedure: complainant and purchaser)."""
    t = make()
    t.table(legal_holiday=(1,))
    assert "Legal Holiday" in t.refused(Sue(0, 1, "title", 1))
    t.act(Roll(0, (2, 4)))
    from companion.games.monopoly.actions import Buy

    t.act(Buy(0))
    assert isinstance(t.state.pending[0], InterferenceWindow)
    t.act(Interfere(1))
    assert isinstance(t.state.pending[0], SupportRound) and t.central(1) == 1450


def test_i16_legal_power_counts_mortgaged_lots_railroads_not_landmarks(make: Any) -> None:
    t = make()
    t.own(0, 1, 3, 5, 12)  # two streets, a railroad, a utility
    t.own(0, 6, mortgaged=True)
    assert t.rules.legal_power(t.state, 0) == 5
    t.table(landmarks=(1,))
    t.own(None, 1)
    assert t.rules.legal_power(t.state, 0) == 4
    t.table(missing=(3, 1, 2))
    assert t.rules.legal_power(t.state, 0) == 3


def test_i31_no_team_play(rules: Any) -> None:
    options = replace(rules.default_options(), teams=(("A", ("Ann", "Bob")),))
    with pytest.raises(ValueError, match="no team play"):
        rules.new_game(["Ann", "Bob", "Cat"], options)


def test_i32_no_house_shortage_auctions(make: Any) -> None:
    """With two houses left in the bank and two owners wanting them, building is first come
    (the standard shortage auction does not apply); with none left no one builds."""
    t = make(bank_houses=1)
    t.own(0, 37)
    t.own(1, 39)
    assert t.rules.house_shortage(t.state) is False
    t.act(Build(0, 37))
    assert t.state.bank_houses == 0 and t.central(0) == 1300
    assert "no houses left" in t.refused(Build(1, 39))


def test_i34_landmarking_a_mortgaged_lot_pays_the_price_less_the_mortgage(make: Any) -> None:
    t = make(roles=("cthulhu", "gnomes", "bavarian"))  # 9 - 7 + 2 = 4: roll 4 or less
    t.own(1, BOARDWALK, mortgaged=True)
    t.act(Sue(0, 1, "landmark", BOARDWALK))
    t.act(Support(0, "plaintiff", 50))  # 9
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    t.act(Roll(0, (3, 4)))
    assert BOARDWALK in t.tb.landmarks and t.state.squares[BOARDWALK].owner is None
    assert t.central(1) == 1500 + 400 - 200  # printed price less the $200 mortgage value
    assert t.central(0) == 1500 - 50 - 50


def test_i37_selling_is_even_among_the_sellers_own_lots(make: Any) -> None:
    """Ann's two pinks have 2 and 1 houses, Bob's pink has none: Ann may sell from the
    2-house lot only (her own lots stay even); Bob's bare lot does not stop her."""
    t = make()
    t.own(0, 11, houses=2)
    t.own(0, 13, houses=1)
    t.own(1, 14)
    assert "evenly" in t.refused(Sell(0, 13)) or "even" in t.refused(Sell(0, 13))
    t.act(Sell(0, 11))
    assert t.state.squares[11].houses == 1 and t.central(0) == 1500 + 50


def test_i38_building_on_an_unowned_lot_needs_a_lot_of_its_group(make: Any) -> None:
    t = make()
    assert "(I-38)" in t.refused(Build(0, BOARDWALK))
    t.own(0, PARK_PLACE)
    t.money(0, 1000, dark_blue=150)
    t.act(Build(0, BOARDWALK))
    assert t.treasury(0, "dark_blue") == 0 and t.central(0) == 1000 - 50


def test_i36_brain_drain_takes_the_card_the_turn_number_points_at(make: Any) -> None:
    t = make(court_deck="virtual")
    t.set(0, court_hand=1, court_cards=("brain_drain",))
    t.set(1, court_hand=3, court_cards=("irs_audit", "legal_holiday", "idle_hands"))
    t.turn(rolled=True, turn_number=4)  # 4 % 3 = 1: the second card
    t.act(PlayCard(0, "brain_drain", 1))
    t.act(Pass(1))
    assert t.player(0).court_cards == ("legal_holiday",)
    assert t.player(1).court_cards == ("irs_audit", "idle_hands")


def test_i40_a_missing_lot_returns_when_the_bermuda_player_leaves_the_game(make: Any) -> None:
    t = make(roles=("bavarian", "bermuda", "cthulhu"))
    t.turn(current=1, rolled=True)
    t.act(DeclareMissing(1, 8))
    t.act(EndTurn(1))
    players = list(t.state.players)
    players[1] = replace(players[1], bankrupt=True)
    t.state = replace(t.state, players=tuple(players))
    t.act(Roll(2, (1, 3)))  # Income Tax
    t.act(EndTurn(2))  # Ann's turn begins: nobody is left to end the Bermuda ability
    assert t.tb.missing == (-1, -1, 0) and "missing_returned" in t.kinds()


def test_bad_input_a_card_with_no_cards_is_refused_whatever_its_kind(make: Any) -> None:
    """The four bad inputs of the issue, each refused with a message, nothing changed."""
    from companion.games.monopoly.illumonopoly import Transfer

    t = make()
    t.own(0, PARK_PLACE)
    assert "holds no Court Date cards" in t.refused(PlayCard(0, "legal_holiday"))
    assert "unknown Court Date card kind 'joker'" in t.refused(PlayCard(0, "joker"))
    assert "cannot sue yourself" in t.refused(Sue(0, 0, "title", PARK_PLACE))
    assert "holds no" in t.refused(Transfer(0, "dark_blue", "central", 10)) or \
        "empty" in t.refused(Transfer(0, "dark_blue", "central", 10))
    t.set(0, court_hand=1)
    assert "end of your own turn" in t.refused(PlayCard(0, "legal_holiday"))


def test_il29_i42_condemning_a_hotel_when_the_bank_has_two_houses(make: Any) -> None:
    """The hotel should become four houses but the bank holds two: the lot keeps two, the
    two levels beyond the card's one are paid at half price ($100 each on Boardwalk); then
    the group is evened against bare, unowned Park Place: one more house sold ($100)."""
    t = make(bank_houses=2)
    t.own(1, BOARDWALK, houses=5)
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "condemned_property", square=BOARDWALK))
    assert t.state.squares[BOARDWALK].houses == 1 and not t.state.squares[BOARDWALK].hotel
    assert t.state.bank_houses == 1 and t.state.bank_hotels == 12
    assert t.central(1) == 1500 + 3 * 100
