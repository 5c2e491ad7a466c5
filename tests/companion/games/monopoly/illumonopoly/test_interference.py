"""Interfering with purchases (Illumonopoly "Interfering with Purchases"; IL.13-IL.16,
rulings I-9-I-13)."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly.actions import Buy, Choose, Decline, EndTurn, Pass, Roll
from companion.games.monopoly.illumonopoly import (
    BavarianDeal,
    Interfere,
    PayInKind,
    PlayCard,
    Support,
)
from companion.games.monopoly.illumonopoly.contests import (
    ContestRoll,
    InKindOffer,
    InterferenceWindow,
    SupportRound,
)
from companion.games.monopoly.pending import Auction, BuyDecision

ORIENTAL = 6  # $100, light blue


def _announce(t: Any) -> None:
    t.act(Roll(0, (2, 4)))  # GO -> Oriental Avenue
    assert isinstance(t.state.pending[0], BuyDecision)
    t.act(Buy(0))


def test_il13_i9_buying_opens_an_interference_window(make: Any) -> None:
    t = make()
    _announce(t)
    head = t.state.pending[0]
    assert isinstance(head, InterferenceWindow) and head.eligible == (1, 2)
    t.act(Pass(1))
    t.act(Pass(2))
    assert t.state.squares[ORIENTAL].owner == 0 and t.central(0) == 1400


def test_il14_interfering_costs_fifty_to_the_bank(make: Any) -> None:
    t = make()
    _announce(t)
    net = t.state.bank_net
    t.act(Interfere(1))
    assert t.central(1) == 1450 and t.state.bank_net == net - 50
    head = t.state.pending[0]
    assert isinstance(head, SupportRound) and head.number == 10 and head.b == 1


def test_il15_fifty_dollar_units_move_the_number(make: Any) -> None:
    t = make()
    _announce(t)
    t.act(Interfere(1))
    t.act(Support(1, "complainant", 100))  # -2
    t.act(Support(2, "purchaser", 50))  # +1
    head = t.state.pending[0]
    assert isinstance(head, SupportRound) and head.number == 9
    assert t.central(1) == 1350 and t.central(2) == 1450
    assert "$50 units" in t.refused(Support(0, "purchaser", 30))


def test_il16_purchaser_rolling_the_number_buys(make: Any) -> None:
    t = make()
    _announce(t)
    t.act(Interfere(1))
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    assert isinstance(t.state.pending[0], ContestRoll)
    t.act(Roll(0, (5, 5)))
    assert t.state.squares[ORIENTAL].owner == 0 and t.central(0) == 1400


def test_il16_i12_complainant_win_freezes_the_lot_without_auction(make: Any) -> None:
    t = make()
    _announce(t)
    t.act(Interfere(1))
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    t.act(Roll(0, (5, 6)))
    assert t.state.squares[ORIENTAL].owner is None and t.central(0) == 1500
    assert not any(isinstance(p, Auction) for p in t.state.pending)
    assert (ORIENTAL, 0) in t.tb.blocked
    t.act(EndTurn(0))
    # Bob lands on it the same round: it cannot be bought
    t.act(Roll(1, (2, 4)))
    assert not t.state.pending and "lot_frozen" in t.kinds()


def test_i12_frozen_until_the_purchasers_next_turn(make: Any) -> None:
    t = make()
    t.table(blocked=((ORIENTAL, 0),))
    t.turn(current=2, rolled=True)
    t.act(EndTurn(2))
    assert t.tb.blocked == ()


def test_i11_no_automatic_failure_on_eleven_when_the_number_is_twelve(make: Any) -> None:
    t = make()
    _announce(t)
    t.act(Interfere(1))
    t.act(Support(0, "purchaser", 100))  # 12: no roll needed
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    assert t.state.squares[ORIENTAL].owner == 0


def test_i11_option_eleven_and_twelve_fail(make: Any) -> None:
    t = make(interference_11_12_fail=True)
    _announce(t)
    t.act(Interfere(1))
    t.act(Support(0, "purchaser", 100))
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    t.act(Roll(0, (6, 5)))
    assert t.state.squares[ORIENTAL].owner is None


def test_i10_purchaser_may_spend_from_the_acquired_groups_treasury(make: Any) -> None:
    t = make()
    t.own(0, 8)
    t.money(0, 1000, light_blue=200)
    _announce(t)
    t.act(Interfere(1))
    t.act(Support(0, "purchaser", 100, "light_blue"))
    head = t.state.pending[0]
    assert isinstance(head, SupportRound) and head.number == 12  # not doubled
    assert t.treasury(0, "light_blue") == 100
    assert "only the two parties" in t.refused(Support(2, "purchaser", 50, "light_blue"))


def test_il21_secret_deal_stops_plain_interference(make: Any) -> None:
    t = make()
    t.set(0, court_hand=1)
    t.act(Roll(0, (2, 4)))
    t.act(PlayCard(0, "secret_deal"))
    # the card window closed by itself: nobody else holds a card to cancel it
    assert t.tb.secret_deal
    t.act(Buy(0))
    assert "only an Interference card" in t.refused(Interfere(1))
    t.act(Pass(1))
    t.act(Pass(2))
    assert t.state.squares[ORIENTAL].owner == 0


def test_il22_interference_card_answers_a_secret_deal(make: Any) -> None:
    t = make()
    t.set(0, court_hand=1)
    t.set(1, court_hand=1)
    t.act(Roll(0, (2, 4)))
    t.act(PlayCard(0, "secret_deal"))
    t.act(Pass(1))  # Bob does not cancel the deal
    t.act(Buy(0))
    t.act(PlayCard(1, "interference"))
    t2 = t.state  # nobody holds a card to cancel it: the contest opens
    assert isinstance(t2.pending[0], SupportRound) and t2.pending[0].help_b is False
    assert t.central(1) == 1450 and t.player(1).court_hand == 0
    assert "without help" in t.refused(Support(2, "complainant", 50))


def test_il20_any_card_as_a_secret_deal(make: Any) -> None:
    t = make(court_deck="virtual")
    t.set(0, court_hand=1, court_cards=("rent_control",))
    t.act(Roll(0, (2, 4)))
    t.act(PlayCard(0, "rent_control", as_deal=True))
    assert t.tb.secret_deal and t.player(0).court_cards == ()


def test_il53_bavarian_pays_100_for_a_secret_deal(make: Any) -> None:
    t = make(roles=("bavarian", "gnomes", "cthulhu"))
    t.act(Roll(0, (2, 4)))
    t.act(BavarianDeal(0))
    assert t.tb.secret_deal and t.central(0) == 1400
    t.act(Buy(0))
    assert "only an Interference card" in t.refused(Interfere(1))


def test_il13_i13_declining_is_auctioned_and_cannot_be_opposed(make: Any) -> None:
    t = make()
    t.act(Roll(0, (2, 4)))
    t.act(Decline(0))
    assert isinstance(t.state.pending[0], Auction)
    assert "no purchase" in t.refused(Interfere(1))


def test_il13_i12_a_trade_for_a_lot_can_be_opposed_and_is_cancelled_whole(make: Any) -> None:
    from companion.games.monopoly.actions import Trade, TradeSide

    t = make()
    t.own(1, 39)
    t.act(Trade(0, 1, TradeSide(cash=300), TradeSide(squares=(39,))))
    head = t.state.pending[0]
    assert isinstance(head, InterferenceWindow) and head.eligible == (2,)
    t.act(Interfere(2))
    t.act(Support(2, "complainant", 450))  # 10 - 9 = 1: lost without a roll
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    assert t.state.squares[39].owner == 1 and t.central(0) == 1500
    assert "trade_blocked" in t.kinds()


def test_il13_an_unopposed_trade_goes_ahead(make: Any) -> None:
    from companion.games.monopoly.actions import Trade, TradeSide

    t = make()
    t.own(1, 39)
    t.act(Trade(0, 1, TradeSide(cash=300), TradeSide(squares=(39,))))
    t.act(Pass(2))
    assert t.state.squares[39].owner == 0 and t.central(0) == 1200 and t.central(1) == 1800


def test_the_contest_roll_is_asked_of_the_dice_like_any_roll(make: Any) -> None:
    """The kiosk's dice flow (camera or buttons) sees the contest roll as 2d6 for the
    purchaser."""
    t = make()
    _announce(t)
    t.act(Interfere(1))
    for seat in (1, 2, 0):
        t.act(Pass(seat))
    prompt = t.rules.presenter().dice_prompt(t.state)
    assert prompt is not None and prompt.player == 0 and len(prompt.dice) == 2
    action = t.rules.roll_action(t.state, prompt, (3, 3))
    t.act(action)
    assert t.state.squares[ORIENTAL].owner == 0


# --- rent paid in kind (IL.13's third case) --------------------------------------------------
BOARDWALK, PARK_PLACE, BALTIC = 39, 37, 3


def _owing_rent(make: Any) -> Any:
    """Ann lands on Bob's Boardwalk with a hotel ($2,000) holding $100 in central and Baltic
    Avenue: the rent is a debt."""
    t = make()
    t.own(1, BOARDWALK, houses=5)
    t.own(0, BALTIC)
    t.money(0, 100)
    t.set(0, position=35)
    t.act(Roll(0, (1, 3)))  # 35 -> 39
    assert type(t.state.pending[0]).__name__ == "Debt"
    return t


def test_il13_i41_rent_in_kind_settles_the_debt_when_accepted_and_unopposed(make: Any) -> None:
    t = _owing_rent(make)
    assert PayInKind(0, BALTIC) in t.rules.legal_actions(t.state)
    t.act(PayInKind(0, BALTIC))
    offer = t.state.pending[0]
    assert isinstance(offer, InKindOffer) and offer.player == 1
    t.act(Choose(1, "offer", "accept"))
    head = t.state.pending[0]
    assert isinstance(head, InterferenceWindow) and head.purchaser == 1 and head.eligible == (2,)
    t.act(Pass(2))
    assert t.state.squares[BALTIC].owner == 1
    assert not any(type(p).__name__ == "Debt" for p in t.state.pending)
    assert t.central(0) == 100 and t.central(1) == 1500  # no money moved
    assert "rent_in_kind" in t.kinds()


def test_il13_i12_rent_in_kind_opposed_and_lost_leaves_the_rent_owed(make: Any) -> None:
    t = _owing_rent(make)
    t.act(PayInKind(0, BALTIC))
    t.act(Choose(1, "offer", "accept"))
    t.act(Interfere(2))  # Cat pays $50 and files against Bob taking Baltic
    t.act(Support(2, "complainant", 450))  # 10 - 9 = 1: lost without a roll
    for seat in (0, 1, 2):
        t.act(Pass(seat))
    assert t.state.squares[BALTIC].owner == 0 and t.central(2) == 1000
    head = t.state.pending[0]
    assert type(head).__name__ == "Debt" and head.player == 0 and head.amount == 2000


def test_il13_i41_a_declined_offer_leaves_the_rent_owed(make: Any) -> None:
    t = _owing_rent(make)
    t.act(PayInKind(0, BALTIC))
    t.act(Pass(1))
    assert type(t.state.pending[0]).__name__ == "Debt" and t.state.squares[BALTIC].owner == 0
    assert "in_kind_declined" in t.kinds()
    assert "offered instead of rent this turn already" in t.refused(PayInKind(0, BALTIC))


def test_bad_input_rent_in_kind_without_a_rent_debt_or_with_anothers_lot(make: Any) -> None:
    t = make()
    t.own(1, PARK_PLACE)
    assert "while that rent is owed" in t.refused(PayInKind(0, BALTIC))
    u = _owing_rent(make)
    assert "does not own Park Place" in u.refused(PayInKind(0, PARK_PLACE))
    u.act(PayInKind(0, BALTIC))
    assert "choose offer accept, or pass" in u.refused(Choose(1, "offer", "maybe"))


# --- Secret Deals on trades (IL.21 "attempting to acquire") ----------------------------------
def test_il21_i39_a_secret_deal_covers_a_trade_announced_that_turn(make: Any) -> None:
    from companion.games.monopoly.actions import Trade, TradeSide

    t = make()
    t.own(1, BOARDWALK)
    t.set(0, court_hand=1)
    t.set(2, court_hand=0)
    t.act(PlayCard(0, "secret_deal"))  # before rolling, for the trade that follows
    assert t.tb.secret_deal
    t.act(Trade(0, 1, TradeSide(cash=500), TradeSide(squares=(BOARDWALK,))))
    head = t.state.pending[0]
    assert isinstance(head, InterferenceWindow) and head.secret
    # no Interference card: Cat can only pass
    assert [a for a in t.rules.legal_actions(t.state) if a.player == 2] == [Pass(2)]
    assert "Secret Deal" in t.refused(Interfere(2))
    t.act(Pass(2))
    assert t.state.squares[BOARDWALK].owner == 0 and not t.tb.secret_deal


def test_il53_i39_the_bavarians_buy_a_secret_deal_for_a_trade(make: Any) -> None:
    from companion.games.monopoly.actions import Trade, TradeSide

    t = make(roles=("bavarian", "gnomes", "cthulhu"))
    t.own(1, BOARDWALK)
    t.act(BavarianDeal(0))
    assert t.central(0) == 1400 and t.tb.secret_deal
    t.act(Trade(0, 1, TradeSide(cash=500), TradeSide(squares=(BOARDWALK,))))
    head = t.state.pending[0]
    assert isinstance(head, InterferenceWindow) and head.secret
