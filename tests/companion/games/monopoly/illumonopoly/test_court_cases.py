"""Legal actions (Illumonopoly "Legal Action"; IL.43-IL.51; rulings I-14-I-20, I-27)."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly.actions import Choose, EndTurn, Pass, Roll
from companion.games.monopoly.illumonopoly import PlayCard, Sue, Support
from companion.games.monopoly.illumonopoly.contests import (
    AntitrustChoice,
    ContestRoll,
    HeldCaseChoice,
    SupportRound,
)

BOARDWALK, PARK_PLACE = 39, 37
STREETS8 = (1, 3, 6, 8, 9, 11, 13, 14)
STREETS5 = (16, 18, 19, 21, 23)


def _pass_all(t: Any, order: tuple[int, ...] = (1, 2, 0)) -> None:
    for seat in order:
        t.act(Pass(seat))


def test_il44_legal_power_is_three_or_the_lots_owned(make: Any) -> None:
    t = make()
    assert t.rules.legal_power(t.state, 0) == 3
    t.own(0, *STREETS8)
    assert t.rules.legal_power(t.state, 0) == 8


def test_il43_suing_costs_fifty(make: Any) -> None:
    t = make()
    t.own(1, BOARDWALK)
    t.act(Sue(0, 1, "title", BOARDWALK))
    assert t.central(0) == 1450
    assert isinstance(t.state.pending[0], SupportRound)


def test_il45_il46_i15_worked_example_eight_against_five(make: Any) -> None:
    """The text's example: 8 lots against 5, ELP 3; $80 against $20 makes 9; the $20 from
    the group treasury named in the suit counts double: 7."""
    t = make()
    t.own(0, *STREETS8)
    t.own(1, *STREETS5)
    assert t.rules.legal_power(t.state, 1) == 5
    t.act(Sue(0, 1, "title", 16))
    assert t.state.pending[0].number == 3
    t.act(Support(0, "plaintiff", 80))
    t.act(Support(1, "defendant", 20))
    assert t.state.pending[0].number == 9
    t2 = make()
    t2.own(0, *STREETS8)
    t2.own(1, *STREETS5)
    t2.money(1, 1500, orange=20)
    t2.act(Sue(0, 1, "title", 16))
    t2.act(Support(0, "plaintiff", 80))
    t2.act(Support(1, "defendant", 20, "orange"))
    assert t2.state.pending[0].number == 7
    assert t2.treasury(1, "orange") == 0 and t2.central(0) == 1500 - 50 - 80


def test_il47_elp_below_two_loses_without_a_roll(make: Any) -> None:
    t = make()
    t.own(1, *STREETS8)
    t.act(Sue(0, 1, "title", 1))
    _pass_all(t)
    assert not t.state.pending and "case_lost" in t.kinds()
    assert t.state.squares[1].owner == 1


def test_il47_eleven_always_fails(make: Any) -> None:
    t = make()
    t.own(0, *STREETS8)
    t.own(1, 16)
    t.act(Sue(0, 1, "title", 16))
    t.act(Support(0, "plaintiff", 100))  # ELP 5 + 10 = 15
    _pass_all(t)
    assert isinstance(t.state.pending[0], ContestRoll)
    t.act(Roll(0, (5, 6)))
    assert t.state.squares[16].owner == 1


def test_il49_i19_title_defect_seizes_the_lot_and_pays_buildings_at_half(make: Any) -> None:
    t = make()
    t.own(0, *STREETS8)
    t.own(1, 16, houses=2)
    t.own(1, 18, 19, houses=2)
    t.money(1, 1000, orange=70)
    t.act(Sue(0, 1, "title", 16))  # ELP 8 - 3 = 5
    _pass_all(t)
    t.act(Roll(0, (2, 3)))
    assert t.state.squares[16].owner == 0 and t.state.squares[16].level == 0
    # two houses at $50 each, into central; then the group is evened (IL.35, I-26): the
    # other two orange lots sell down to one house each, paid $50 each
    assert t.central(1) == 1000 + 100 + 100
    assert [t.state.squares[i].level for i in (16, 18, 19)] == [0, 1, 1]
    assert t.treasury(1, "orange") == 70  # still holds orange lots


def test_il48_landmark_pays_the_printed_price_and_removes_buildings(make: Any) -> None:
    t = make()
    t.own(0, *STREETS8)
    t.own(1, BOARDWALK, houses=1)
    t.own(1, PARK_PLACE, houses=1)
    t.money(1, 1000, dark_blue=30)
    t.act(Sue(0, 1, "landmark", BOARDWALK))
    _pass_all(t)
    t.act(Roll(0, (1, 2)))
    assert BOARDWALK in t.tb.landmarks and t.state.squares[BOARDWALK].owner is None
    assert t.state.squares[BOARDWALK].level == 0
    assert t.central(1) == 1000 + 400
    assert t.treasury(1, "dark_blue") == 30  # Park Place still held


def test_il48_landmark_targets_streets_only(make: Any) -> None:
    t = make()
    t.own(1, 5)
    assert "only a street" in t.refused(Sue(0, 1, "landmark", 5))


def test_il48_a_landmark_charges_no_rent_and_cannot_be_bought(make: Any) -> None:
    t = make()
    t.table(landmarks=(6,))
    t.act(Roll(0, (2, 4)))
    assert not t.state.pending and "landmark_visited" in t.kinds()


def test_il50_antitrust_needs_a_monopoly_and_adds_six(make: Any) -> None:
    t = make()
    t.own(1, 37)
    assert "no monopoly" in t.refused(Sue(0, 1, "antitrust", 37))
    t.own(1, 5, 15, 25)
    t.act(Sue(0, 1, "antitrust", 5))
    assert t.state.pending[0].number == 3 - 4 + 6


def test_il50_antitrust_defendant_gives_up_a_lot_paid_in_full(make: Any) -> None:
    t = make()
    t.own(0, *STREETS8)
    t.own(1, 37, 39, houses=1)
    t.money(1, 1000, dark_blue=80)
    t.act(Sue(0, 1, "antitrust", 39))  # 8 - 3 + 6 = 11
    _pass_all(t)
    t.act(Roll(0, (4, 4)))
    head = t.state.pending[0]
    assert isinstance(head, AntitrustChoice) and head.player == 1
    t.act(Choose(1, "lot", "37"))
    assert t.state.squares[37].owner is None and t.state.squares[37].level == 0
    assert t.central(1) == 1000 + 350 + 200
    assert t.state.squares[39].level == 1  # the rest keep theirs (I-20)


def test_il51_losing_the_last_lot_by_a_suit_empties_the_treasury(make: Any) -> None:
    t = make()
    t.own(0, *STREETS8)
    t.own(1, BOARDWALK)
    t.money(1, 100, dark_blue=300)
    t.act(Sue(0, 1, "title", BOARDWALK))
    _pass_all(t)
    t.act(Roll(0, (1, 1)))
    assert t.player(1).treasuries == () and t.central(1) == 400


def test_bad_input_a_case_against_oneself(make: Any) -> None:
    t = make()
    t.own(0, BOARDWALK)
    assert "cannot sue yourself" in t.refused(Sue(0, 0, "title", BOARDWALK))


def test_il42_legal_action_comes_before_rolling(make: Any) -> None:
    t = make()
    t.own(1, BOARDWALK)
    t.turn(rolled=True)
    assert "before rolling" in t.refused(Sue(0, 1, "title", BOARDWALK))


def test_one_case_per_turn_il25_idle_hands_adds_one(make: Any) -> None:
    t = make()
    t.own(1, 37, 39)
    t.set(0, court_hand=1)
    t.act(Sue(0, 1, "title", 37))
    _pass_all(t)
    assert not t.state.pending  # ELP 0: lost without a roll
    assert "no more legal actions" in t.refused(Sue(0, 1, "title", 39))
    t2 = make()
    t2.own(1, 37, 39)
    t2.set(0, court_hand=1)
    t2.act(PlayCard(0, "idle_hands"))
    t2.act(Sue(0, 1, "title", 37))
    _pass_all(t2)
    t2.act(Sue(0, 1, "title", 39))
    assert t2.tb.cases_used == 2


def test_il57_discordians_begin_two_cases(make: Any) -> None:
    t = make(roles=("discordian", "gnomes", "cthulhu"))
    t.own(1, 37, 39)
    t.act(Sue(0, 1, "title", 37))
    _pass_all(t)
    assert "case_lost" in t.kinds()  # ELP 8 - 7 = 1: lost without a roll
    t.act(Sue(0, 1, "title", 39))
    _pass_all(t)
    assert t.tb.cases_used == 2
    assert "no more legal actions" in t.refused(Sue(0, 1, "landmark", 39))


def test_il52_illuminati_legal_power_replaces_the_lot_count(make: Any) -> None:
    t = make(roles=("bavarian", "gnomes", "cthulhu"))
    t.own(1, *STREETS8)
    assert [t.rules.legal_power(t.state, s) for s in range(3)] == [10, 7, 9]
    t.act(Sue(0, 1, "title", 1))
    assert t.state.pending[0].number == 3


def test_il55_cthulhu_plus_two_on_landmarks(make: Any) -> None:
    t = make(roles=("cthulhu", "gnomes", "bavarian"))
    t.own(1, BOARDWALK)
    t.act(Sue(0, 1, "landmark", BOARDWALK))
    assert t.state.pending[0].number == 9 - 7 + 2


def test_il32_legal_holiday_stops_cases_until_the_card_players_turn(make: Any) -> None:
    t = make()
    t.own(1, BOARDWALK)
    t.table(legal_holiday=(2,))
    assert "Legal Holiday" in t.refused(Sue(0, 1, "title", BOARDWALK))
    t.turn(current=1, rolled=True)
    t.act(EndTurn(1))  # Cat's turn begins: the holiday ends
    assert t.tb.legal_holiday == ()


def test_il24_i27_holding_action_halts_until_the_plaintiffs_next_turn(make: Any) -> None:
    t = make()
    t.own(0, *STREETS8)
    t.own(1, BOARDWALK)
    t.set(1, court_hand=1)
    t.act(Sue(0, 1, "title", BOARDWALK))
    t.act(Support(0, "plaintiff", 30))
    t.act(PlayCard(1, "holding_action"))
    assert not t.state.pending and len(t.tb.held_cases) == 1
    assert t.tb.held_cases[0].support == 3
    t.act(Roll(0, (1, 2)))
    t.act(EndTurn(0))
    t.act(Roll(1, (1, 2)))
    t.act(EndTurn(1))
    t.act(Roll(2, (1, 2)))
    t.act(EndTurn(2))
    head = t.state.pending[0]
    assert isinstance(head, HeldCaseChoice) and head.player == 0
    t.act(Choose(0, "case", "continue"))
    assert t.state.pending[0].number == 8 - 3 + 3 and t.tb.cases_used == 1


def test_i17_option_landmark_unowned(make: Any) -> None:
    t = make(landmark_unowned=True)
    t.own(0, *STREETS8)
    t.act(Sue(0, 1, "landmark", 39))  # Boardwalk is the bank's: Bob stands as defendant
    _pass_all(t)
    t.act(Roll(0, (2, 2)))  # 8 - 3 = 5
    assert 39 in t.tb.landmarks and t.central(1) == 1500
    t2 = make()
    assert "not Bob's" in t2.refused(Sue(0, 1, "landmark", 39))


def test_i20_option_antitrust_strip_group(make: Any) -> None:
    t = make(antitrust_strip_group=True)
    t.own(0, *STREETS8)
    t.own(1, 37, 39, houses=1)
    t.money(1, 1000)
    t.act(Sue(0, 1, "antitrust", 39))
    _pass_all(t)
    t.act(Roll(0, (4, 4)))
    t.act(Choose(1, "lot", "37"))
    assert t.state.squares[39].level == 0 and t.state.squares[39].owner == 1
    assert t.central(1) == 1000 + 350 + 200 + 200  # Park Place, its house, Boardwalk's house
