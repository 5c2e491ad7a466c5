"""The Dungeonopoly bot policy (companion/games/monopoly/dungeonopoly/bots.py): house shortages."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.monopoly.actions import Bid, CallHouseAuction, PassBid
from companion.games.monopoly.dungeonopoly.bots import bot_hint
from companion.games.monopoly.pending import Auction


def shortage_game(game: Any, cash: int) -> Any:
    """Ann owns the light blues and Bob the oranges; the bank has 3 houses (both want more)."""
    g = game("commoner", "commoner")
    for i in (6, 8, 9):
        g.own(i, 0)
    for i in (16, 18, 19):
        g.own(i, 1)
    g.set(0, cash=cash)
    g.state = replace(g.state, bank_houses=3)
    assert g.rules.house_shortage(g.state)
    return g


def test_bot_calls_a_house_auction_in_a_shortage_before_rolling(game: Any) -> None:
    g = shortage_game(game, 400)
    actions = g.rules.legal_actions(g.state, g.rules.deciders(g.state))
    assert CallHouseAuction(0) in actions
    assert bot_hint(g.state, actions) == CallHouseAuction(0)


def test_bot_does_not_call_a_house_auction_it_cannot_pay_for(game: Any) -> None:
    g = shortage_game(game, 249)  # below the $150 reserve plus the $100 bid
    actions = g.rules.legal_actions(g.state, g.rules.deciders(g.state))
    assert CallHouseAuction(0) in actions
    assert bot_hint(g.state, actions) != CallHouseAuction(0)


def test_bot_bids_its_house_value_at_once(game: Any) -> None:
    g = shortage_game(game, 400)
    g.state = replace(g.state, pending=(Auction(-1, -1, (0, 1)),))
    actions = g.rules.legal_actions(g.state, g.rules.deciders(g.state))
    assert bot_hint(g.state, actions) == Bid(0, 100)  # the $1, $10, $50, $100 ladder
    g.set(0, cash=200)  # $50 above the reserve
    actions = g.rules.legal_actions(g.state, g.rules.deciders(g.state))
    assert bot_hint(g.state, actions) == Bid(0, 50)
    g.state = replace(g.state, pending=(Auction(-1, -1, (0, 1), 100, 1),))
    actions = g.rules.legal_actions(g.state, g.rules.deciders(g.state))
    assert bot_hint(g.state, actions) == PassBid(0)  # $101 is above its value
