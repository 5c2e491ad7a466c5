"""Cancellation (IL.33, ruling I-22) against every Court Date card it can answer: each card is
played in its own window, Bob cancels it, everyone else passes, and the card's effect is
checked to be absent (the card is still discarded). Cancellation of a Cancellation is
``test_cards.py::test_i22_cancellation_can_be_cancelled``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.games.monopoly.actions import Buy, Pass, Roll
from companion.games.monopoly.illumonopoly import PlayCard, Sue, Support
from companion.games.monopoly.illumonopoly.contests import (
    CardWindow,
    InterferenceWindow,
    SupportRound,
)
from companion.games.monopoly.illumonopoly.state import CARD_KINDS

ORIENTAL, PARK_PLACE, BOARDWALK = 6, 37, 39
STREETS8 = (1, 3, 6, 8, 9, 11, 13, 14)


def _cancel(t: Any) -> None:
    """Bob answers the card at the head with Cancellation; then everyone asked passes."""
    assert isinstance(t.state.pending[0], CardWindow)
    t.act(PlayCard(1, "cancellation"))
    while t.state.pending and isinstance(t.state.pending[0], CardWindow):
        t.act(Pass(t.state.pending[0].waiting[0]))


def _end_of_turn(t: Any, card: PlayCard) -> None:
    t.turn(rolled=True)
    t.act(card)
    _cancel(t)


def secret_deal(t: Any) -> None:
    t.act(Roll(0, (2, 4)))  # to Oriental Avenue: announcing the purchase
    t.act(PlayCard(0, "secret_deal"))
    _cancel(t)
    assert not t.tb.secret_deal
    t.act(Buy(0))
    head = t.state.pending[0]
    assert isinstance(head, InterferenceWindow) and not head.secret


def interference(t: Any) -> None:
    t.act(Roll(0, (2, 4)))
    t.act(PlayCard(0, "secret_deal"))
    for seat in t.state.pending[0].waiting:  # nobody cancels the Secret Deal
        t.act(Pass(seat))
    t.act(Buy(0))
    t.act(PlayCard(2, "interference"))  # Cat answers the Secret Deal; Bob cancels that
    _cancel(t)
    assert not any(isinstance(p, SupportRound) for p in t.state.pending)
    assert t.central(2) == 1500 and "interfered" not in t.kinds()


def historic_blunder(t: Any) -> None:
    t.table(landmarks=(BOARDWALK,))
    _end_of_turn(t, PlayCard(0, "historic_blunder", square=BOARDWALK))
    assert t.tb.landmarks == (BOARDWALK,)


def holding_action(t: Any) -> None:
    t.own(0, *STREETS8)
    t.own(2, BOARDWALK)
    t.act(Sue(0, 2, "title", BOARDWALK))
    t.act(Support(0, "plaintiff", 30))
    t.act(PlayCard(2, "holding_action"))
    _cancel(t)
    assert t.tb.held_cases == ()
    head = t.state.pending[0]
    assert isinstance(head, SupportRound) and head.number == 8 - 3 + 3  # the case goes on


def idle_hands(t: Any) -> None:
    t.act(PlayCard(0, "idle_hands"))
    _cancel(t)
    assert t.tb.extra_cases == 0


def irs_audit(t: Any) -> None:
    _end_of_turn(t, PlayCard(0, "irs_audit", 2))
    assert not t.player(2).audited


def rent_control(t: Any) -> None:
    t.act(PlayCard(0, "rent_control"))
    _cancel(t)
    assert t.tb.rent_control == ()


def brain_drain(t: Any) -> None:
    _end_of_turn(t, PlayCard(0, "brain_drain", 2))
    assert (t.player(0).court_hand, t.player(2).court_hand) == (2, 3)


def condemned_property(t: Any) -> None:
    t.own(2, PARK_PLACE, BOARDWALK, houses=2)
    _end_of_turn(t, PlayCard(0, "condemned_property", square=BOARDWALK))
    assert t.state.squares[BOARDWALK].houses == 2 and t.central(2) == 1500


def corporate_spy(t: Any) -> None:
    _end_of_turn(t, PlayCard(0, "corporate_spy", 2))
    assert t.tb.spied == ()


def bribed_assessor(t: Any) -> None:
    _end_of_turn(t, PlayCard(0, "bribed_assessor", square=BOARDWALK))
    assert t.tb.bribed == () and t.rules.price(t.state, 0, BOARDWALK) == 400


def legal_holiday(t: Any) -> None:
    _end_of_turn(t, PlayCard(0, "legal_holiday"))
    assert t.tb.legal_holiday == ()


CASES: dict[str, Callable[[Any], None]] = {
    "secret_deal": secret_deal, "interference": interference,
    "historic_blunder": historic_blunder, "holding_action": holding_action,
    "idle_hands": idle_hands, "irs_audit": irs_audit, "rent_control": rent_control,
    "brain_drain": brain_drain, "condemned_property": condemned_property,
    "corporate_spy": corporate_spy, "bribed_assessor": bribed_assessor,
    "legal_holiday": legal_holiday,
}


def test_every_card_but_cancellation_itself_is_covered() -> None:
    assert set(CASES) | {"cancellation"} == set(CARD_KINDS)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_il33_i22_cancellation_cancels_each_kind(make: Any, kind: str) -> None:
    t = make()
    for seat in range(3):
        t.set(seat, court_hand=3)
    CASES[kind](t)
    assert "court_card_cancelled" in t.kinds()
    assert kind in t.tb.played and "cancellation" in t.tb.played  # both discarded
    assert t.player(1).court_hand == 2
