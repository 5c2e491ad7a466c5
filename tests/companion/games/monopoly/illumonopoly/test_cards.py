"""Court Date cards (Illumonopoly "Court Date Cards", "Play Court Date Card"; IL.17-IL.33,
rulings I-6, I-7, I-22-I-26)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.monopoly.actions import Build, Buy, Choose, EndTurn, Pass, Roll
from companion.games.monopoly.illumonopoly import PlayCard, Transfer
from companion.games.monopoly.illumonopoly.contests import CardWindow, EveningChoice


def test_il17_free_parking_draws_a_card(make: Any) -> None:
    t = make()
    t.set(0, position=10)
    t.act(Roll(0, (4, 6)))
    assert t.player(0).court_hand == 1 and "court_card_drawn" in t.kinds()


def test_il17_i6_landing_on_go_draws_passing_does_not(make: Any) -> None:
    t = make()
    t.set(0, position=36)
    t.act(Roll(0, (1, 3)))  # lands on GO
    assert t.player(0).court_hand == 1 and t.central(0) == 1700
    t2 = make()
    t2.set(0, position=36)
    t2.act(Roll(0, (2, 3)))  # passes GO to Mediterranean
    assert t2.player(0).court_hand == 0


def test_il18_i7_virtual_deck_is_thirteen_kinds_of_four(make: Any) -> None:
    t = make(court_deck="virtual")
    counts = Counter(t.tb.deck)
    assert len(t.tb.deck) == 52 and len(counts) == 13 and set(counts.values()) == {4}
    t.set(0, position=10)
    t.act(Roll(0, (4, 6)))
    assert len(t.player(0).court_cards) == 1 and t.player(0).court_cards[0] in counts
    assert len(t.tb.deck) == 51


def test_i7_physical_deck_tracks_only_counts_and_plays(make: Any) -> None:
    t = make()
    t.set(0, court_hand=2)
    t.turn(rolled=True)
    t.act(PlayCard(0, "legal_holiday"))
    assert t.player(0).court_hand == 1 and t.player(0).court_cards == ()
    assert t.tb.played == ("legal_holiday",) and t.tb.legal_holiday == (0,)


def test_il19_one_card_at_the_end_of_the_turn(make: Any) -> None:
    t = make()
    t.set(0, court_hand=2)
    t.turn(rolled=True)
    t.act(PlayCard(0, "legal_holiday"))
    assert "one Court Date card per turn" in t.refused(PlayCard(0, "irs_audit", 1))


def test_bad_input_a_card_out_of_its_window(make: Any) -> None:
    t = make()
    t.set(0, court_hand=1)
    assert "end of your own turn" in t.refused(PlayCard(0, "irs_audit", 1))
    t.turn(rolled=True)
    assert "start of your own turn" in t.refused(PlayCard(0, "rent_control"))
    assert "during a court case" in t.refused(PlayCard(0, "holding_action"))


def test_bad_input_an_unknown_card_kind(make: Any) -> None:
    t = make()
    t.set(0, court_hand=1)
    msg = t.refused(PlayCard(0, "joker"))
    assert "unknown Court Date card kind 'joker'" in msg and "cancellation" in msg


def test_bad_input_no_cards_in_hand(make: Any) -> None:
    t = make()
    t.turn(rolled=True)
    assert "holds no Court Date cards" in t.refused(PlayCard(0, "legal_holiday"))


def test_il33_cancellation_cancels_a_card(make: Any) -> None:
    t = make()
    t.set(0, court_hand=1)
    t.set(1, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "legal_holiday"))
    assert isinstance(t.state.pending[0], CardWindow)
    t.act(PlayCard(1, "cancellation"))
    assert not t.state.pending  # nobody left with a card to answer
    assert t.tb.legal_holiday == () and "court_card_cancelled" in t.kinds()
    assert t.tb.played == ("legal_holiday", "cancellation")


def test_i22_cancellation_can_be_cancelled(make: Any) -> None:
    t = make()
    t.set(0, court_hand=2)
    t.set(1, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "legal_holiday"))
    t.act(PlayCard(1, "cancellation"))
    t.act(PlayCard(0, "cancellation"))
    assert t.tb.legal_holiday == (0,)


def test_il26_irs_audit_stops_spending_not_rent(make: Any) -> None:
    t = make()
    t.own(1, 31)
    t.money(1, 1000, green=100)
    t.set(1, audited=True)
    assert "IRS Audit" in t.refused(Transfer(1, "green", "central", 50))
    t.set(0, position=29)
    t.act(Roll(0, (1, 1)))  # Ann lands on Pacific (Bob's): rent collected
    assert t.treasury(1, "green") == 100 + 26


def test_il26_irs_audit_blocks_buying_and_doubles_end_it(make: Any) -> None:
    t = make()
    t.set(0, audited=True)
    t.act(Roll(0, (3, 3)))  # doubles: the audit ends before the move resolves
    assert not t.player(0).audited
    t.act(Buy(0))
    t2 = make()
    t2.set(0, audited=True)
    t2.act(Roll(0, (2, 4)))
    assert "IRS Audit" in t2.refused(Buy(0))


def test_il27_rent_control_caps_improved_rent(make: Any) -> None:
    t = make()
    t.own(1, 39, houses=3)
    t.set(0, court_hand=1, position=35)
    t.act(PlayCard(0, "rent_control"))
    t.act(Roll(0, (1, 3)))
    assert t.treasury(1, "boardwalk") == 0 and t.treasury(1, "dark_blue") == 200


def test_i24_rent_control_lasts_to_the_end_of_the_next_turn(make: Any) -> None:
    t = make()
    t.table(rent_control=((0, 2),))
    t.turn(rolled=True)
    t.act(EndTurn(0))
    assert t.tb.rent_control == ((0, 1),)
    for seat in (1, 2):
        t.turn(rolled=True)
        t.act(EndTurn(seat))
    t.turn(rolled=True)
    t.act(EndTurn(0))
    assert t.tb.rent_control == ()


def test_il28_i36_brain_drain_takes_a_card(make: Any) -> None:
    t = make(court_deck="virtual")
    t.set(0, court_hand=1, court_cards=("brain_drain",))
    t.set(1, court_hand=2, court_cards=("irs_audit", "legal_holiday"))
    t.turn(rolled=True)
    t.act(PlayCard(0, "brain_drain", 1))
    t.act(Pass(1))
    assert t.player(0).court_hand == 1 and t.player(1).court_hand == 1
    assert len(t.player(0).court_cards) == 1


def test_il29_i26_condemned_property_removes_a_house_unpaid(make: Any) -> None:
    t = make()
    t.own(1, 37, 39, houses=2)
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "condemned_property", square=39))
    assert t.state.squares[39].level == 1 and t.state.squares[37].level == 2
    assert t.central(1) == 1500


def test_il29_condemned_evenness_is_paid(make: Any) -> None:
    t = make()
    t.own(1, 37, houses=2)
    t.own(1, 39, houses=1)
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "condemned_property", square=39))  # 39 -> 0: 37 must come down to 1
    assert [t.state.squares[i].level for i in (37, 39)] == [1, 0]
    assert t.central(1) == 1500 + 100


def test_il30_corporate_spy_reveals_a_virtual_hand(make: Any) -> None:
    t = make(court_deck="virtual")
    t.set(0, court_hand=1, court_cards=("corporate_spy",))
    t.set(1, court_hand=1, court_cards=("irs_audit",))
    t.turn(rolled=True)
    t.act(PlayCard(0, "corporate_spy", 1))
    t.act(Pass(1))
    assert any(e.kind == "spied" and e.detail == "cards" for e in t.events)
    # what was seen shows only to the spy, on their private view (never in the log)
    assert t.tb.spied == ((0, 1, "cards", "irs audit"),)
    p = t.rules.presenter()
    assert "Spied: Bob's cards: irs audit" in p.private_lines(t.state, 0)
    assert not any("Spied" in line for line in p.private_lines(t.state, 1))
    said = [t.rules.describe_event(t.state, e) or "" for e in t.events]
    assert "Ann looks at Bob's Court Date cards (Corporate Spy)." in said
    assert not any("irs" in line.lower() for line in said)


def test_il30_i8_corporate_spy_looks_into_a_private_treasury(make: Any) -> None:
    """With private treasuries the spy may name a treasury: its amount shows only to them;
    a treasury the player does not have is refused, nothing changed."""
    t = make(public_treasuries=False)
    t.own(1, 39)
    t.money(1, 1400, dark_blue=350)  # the richest rival: the one the options name
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    assert "no green treasury" in t.refused(PlayCard(0, "corporate_spy", 1, treasury="green"))
    assert "only Corporate Spy names a treasury" in t.refused(
        PlayCard(0, "irs_audit", 1, treasury="central"))
    assert PlayCard(0, "corporate_spy", 1, treasury="dark_blue") in t.rules.legal_actions(
        t.state)
    t.act(PlayCard(0, "corporate_spy", 1, treasury="dark_blue"))
    assert t.tb.spied == ((0, 1, "dark_blue", "$350"),)
    assert "Spied: Bob's dark blue treasury: $350" in t.rules.presenter().private_lines(
        t.state, 0)


def test_il31_i25_bribed_assessor_halves_the_price(make: Any) -> None:
    t = make()
    t.set(0, court_hand=1)
    t.act(PlayCard(0, "bribed_assessor", square=6))
    t.act(Roll(0, (2, 4)))
    t.act(Buy(0))
    t.act(Pass(1))
    t.act(Pass(2))
    assert t.central(0) == 1450


def test_il23_historic_blunder_returns_a_landmark_and_evens_the_group(make: Any) -> None:
    """The text's example: two greens with three houses each and the third a landmark; it
    comes back bare and the greens' owner chooses to sell down to one house (I-35, half price
    each)."""
    t = make()
    t.own(1, 31, 32, houses=3)
    t.table(landmarks=(34,))
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "historic_blunder", square=34))
    assert t.tb.landmarks == ()
    head = t.state.pending[0]
    assert isinstance(head, EveningChoice) and head.player == 1
    assert (head.needed, head.cost) == (2, 400)
    assert {Choose(1, "even", "build"), Choose(1, "even", "sell")} <= set(
        t.rules.legal_actions(t.state))
    t.act(Choose(1, "even", "sell"))
    assert [t.state.squares[i].level for i in (31, 32, 34)] == [1, 1, 0]
    assert t.central(1) == 1500 + 4 * 100
    assert not t.state.pending


def test_il38_i35_the_owner_may_build_the_returned_lot_up_instead(make: Any) -> None:
    """The text's other way: build at least two houses on the returned (unowned) lot; the
    owner pays the bank $200 a house from central (or the green treasury)."""
    t = make()
    t.own(1, 31, 32, houses=3)
    t.money(1, 1000, green=100)
    t.table(landmarks=(34,))
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    houses = t.state.bank_houses
    t.act(PlayCard(0, "historic_blunder", square=34))
    t.act(Choose(1, "even", "build"))
    assert [t.state.squares[i].level for i in (31, 32, 34)] == [3, 3, 2]
    assert t.state.squares[34].owner is None
    assert t.treasury(1, "green") == 0 and t.central(1) == 1000 - 300
    assert t.state.bank_houses == houses - 2


def test_i35_no_choice_when_the_owner_cannot_pay_or_is_audited(make: Any) -> None:
    """Building up needs the money and no IRS Audit: otherwise the group is sold down at
    once; a bad answer is refused and changes nothing."""
    t = make()
    t.own(1, 31, 32, houses=3)
    t.money(1, 300)
    t.table(landmarks=(34,))
    t.set(0, court_hand=1)
    t.turn(rolled=True)
    t.act(PlayCard(0, "historic_blunder", square=34))
    assert not t.state.pending
    assert [t.state.squares[i].level for i in (31, 32, 34)] == [1, 1, 0]
    assert t.central(1) == 300 + 400
    u = make()
    u.own(1, 31, 32, houses=3)
    u.table(landmarks=(34,))
    u.set(0, court_hand=1)
    u.turn(rolled=True)
    u.act(PlayCard(0, "historic_blunder", square=34))
    assert "choose even build, or choose even sell" in u.refused(Choose(1, "even", "keep"))
    u.set(1, audited=True)
    assert "IRS Audit" in u.refused(Choose(1, "even", "build"))


def test_il34_il35_build_without_the_whole_group_evenly_across_owners(make: Any) -> None:
    t = make()
    t.own(0, 37)
    t.own(1, 39)
    t.act(Build(0, 37))
    assert t.state.squares[37].houses == 1 and t.central(0) == 1300
    assert "build evenly" in t.refused(Build(0, 37))


def test_il36_i38_build_on_an_unowned_street(make: Any) -> None:
    t = make()
    t.own(0, 37)
    t.act(Build(0, 39))
    assert t.state.squares[39].houses == 1 and t.state.squares[39].owner is None


def test_il37_improved_unowned_lot_sells_at_its_printed_price(make: Any) -> None:
    t = make()
    t.own(None, 6, houses=2)
    t.act(Roll(0, (2, 4)))
    t.act(Buy(0))
    t.act(Pass(1))
    t.act(Pass(2))
    assert t.state.squares[6].owner == 0 and t.state.squares[6].houses == 2
    assert t.central(0) == 1400


def test_il38_i18_a_landmark_does_not_limit_building(make: Any) -> None:
    t = make()
    t.own(0, 31, 32, houses=1)
    t.table(landmarks=(34,))
    t.act(Build(0, 31))
    assert t.state.squares[31].houses == 2


def test_il39_doing_nothing_earns_200(make: Any) -> None:
    t = make()
    t.act(Roll(0, (1, 3)))  # Income Tax: a forced payment still counts as nothing
    t.act(EndTurn(0))
    assert t.central(0) == 1500 - 200 + 200


def test_il40_buying_forfeits_the_bonus(make: Any) -> None:
    t = make()
    t.act(Roll(0, (2, 4)))
    t.act(Buy(0))
    t.act(Pass(1))
    t.act(Pass(2))
    t.act(EndTurn(0))
    assert t.central(0) == 1400


def test_il40_i5_a_transfer_forfeits_the_bonus(make: Any) -> None:
    t = make()
    t.own(0, 31)
    t.money(0, 1000, green=100)
    t.act(Roll(0, (4, 6)))  # Just Visiting
    t.act(Transfer(0, "green", "central", 50))
    t.act(EndTurn(0))
    assert "idle_bonus" not in t.kinds()


def test_il41_an_audited_player_earns_the_bonus(make: Any) -> None:
    t = make()
    t.set(0, audited=True)
    t.act(Roll(0, (4, 6)))
    t.act(EndTurn(0))
    assert t.central(0) == 1700


def test_il54_i29_gnomes_transfer_free_after_moving(make: Any) -> None:
    t = make(roles=("gnomes", "bavarian", "cthulhu"))
    t.own(0, 31)
    t.money(0, 0, green=900)
    t.turn(rolled=True)
    for _ in range(3):
        t.act(Transfer(0, "green", "central", 300))
    assert t.central(0) == 900


def test_il56_i28_bermuda_missing_lot_stops_movement(make: Any) -> None:
    from companion.games.monopoly.illumonopoly import DeclareMissing

    t = make(roles=("bermuda", "bavarian", "cthulhu"))
    t.own(2, 8, houses=0)
    t.turn(rolled=True)
    t.act(DeclareMissing(0, 8))
    assert t.tb.missing == (8, 0, 2)
    t.act(EndTurn(0))
    t.act(Roll(1, (5, 5)))  # GO + 10 would pass Vermont Avenue (8): stops there
    assert t.state.players[1].position == 8 and not t.state.roll_again
    assert "stopped_at_missing" in t.kinds()
    assert t.central(1) == 1500


def test_il56_missing_lot_returns_after_the_bermuda_players_next_turn(make: Any) -> None:
    t = make(roles=("bermuda", "bavarian", "cthulhu"))
    t.table(missing=(8, 0, 2))
    for seat in (0, 1, 2, 0):
        t.turn(current=seat, rolled=True)
        t.act(EndTurn(seat))
    assert t.tb.missing == (-1, -1, 0)


def test_every_card_kind_is_offered_in_its_window(make: Any) -> None:
    """Each of the 13 kinds appears among the legal actions (so on the kiosk's buttons) when
    its window is open."""
    from companion.games.monopoly.actions import Buy as BuyAction
    from companion.games.monopoly.illumonopoly import Sue

    seen: set[str] = set()

    def offered(t: Any) -> None:
        seen.update(a.kind for a in t.rules.legal_actions(t.state) if isinstance(a, PlayCard))

    t = make()
    for seat in range(3):
        t.set(seat, court_hand=3)
    offered(t)  # start of turn: idle hands, rent control
    t.own(1, 39, houses=1)
    t.own(1, 37, houses=1)
    t.table(landmarks=(34,))
    t.turn(rolled=True)
    offered(t)  # end of turn: holiday, audit, brain drain, spy, blunder, condemned
    t.act(PlayCard(0, "legal_holiday"))
    offered(t)  # the card window: cancellation
    t2 = make()
    for seat in range(3):
        t2.set(seat, court_hand=3)
    t2.act(Roll(0, (2, 4)))
    offered(t2)  # announcing a purchase: secret deal, bribed assessor
    t2.act(PlayCard(0, "secret_deal"))
    for seat in (1, 2):
        t2.act(Pass(seat))
    t2.act(BuyAction(0))
    offered(t2)  # a secret deal: interference
    t3 = make()
    t3.own(0, 1, 3, 5, 6, 8, 9, 11, 13)
    t3.own(1, 39)
    t3.set(1, court_hand=1)
    t3.act(Sue(0, 1, "title", 39))
    offered(t3)  # a court case: holding action
    from companion.games.monopoly.illumonopoly.state import CARD_KINDS

    assert seen == set(CARD_KINDS)


def test_i23_an_audited_player_is_offered_no_spending(make: Any) -> None:
    from companion.games.monopoly.actions import PayJail
    from companion.games.monopoly.illumonopoly import Interfere

    t = make()
    t.set(0, audited=True, in_jail=True, position=10)
    acts = t.rules.legal_actions(t.state)
    assert not any(isinstance(a, PayJail) for a in acts)
    assert "IRS Audit" in t.refused(PayJail(0))
    t2 = make()
    t2.set(1, audited=True)
    t2.act(Roll(0, (2, 4)))
    t2.act(Buy(0))
    acts = t2.rules.legal_actions(t2.state)
    assert not any(isinstance(a, Interfere) and a.player == 1 for a in acts)
    assert any(isinstance(a, Interfere) and a.player == 2 for a in acts)
