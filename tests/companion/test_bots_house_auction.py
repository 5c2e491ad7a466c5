"""The heuristic bot in a house shortage: it calls a house auction before rolling and bids its
house value at once (companion/bots.py)."""

from __future__ import annotations

from dataclasses import replace

from companion.core.registry import find_game
from companion.games.monopoly.actions import Bid, CallHouseAuction, Roll
from companion.games.monopoly.bots import HOUSE_VALUE, HeuristicBot
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.pending import Auction
from companion.games.monopoly.state import GameState


def shortage_state(cash: int) -> tuple[Rules, GameState]:
    rules = find_game("monopoly")
    state = rules.new_game(["Ann", "Bob"], seed=3)
    squares = list(state.squares)
    for i in (1, 3):  # Ann owns the brown group, unbuilt
        squares[i] = replace(squares[i], owner=0)
    for i in (6, 8, 9):  # Bob the light blues, one house each
        squares[i] = replace(squares[i], owner=1, houses=1)
    players = (replace(state.players[0], cash=cash),) + state.players[1:]
    # two builders want 8 + 9 houses and the bank has 2 left: a shortage (ruling M-6)
    state = replace(state, squares=tuple(squares), players=players, bank_houses=2,
                    bank_net=state.bank_net - 1500 + cash)
    assert rules.house_shortage(state)
    return rules, state


def test_bot_calls_a_house_auction_in_a_shortage_and_bids_its_value() -> None:
    rules, state = shortage_state(1500)
    actions = rules.legal_actions(state, rules.deciders(state))
    assert CallHouseAuction(0) in actions
    bot = HeuristicBot(1)
    choice = bot.choose(rules, state, actions)
    assert choice == CallHouseAuction(0)
    state, _ = rules.apply(state, choice)
    head = state.pending[0]
    assert isinstance(head, Auction) and head.square < 0
    bid = bot.choose(rules, state, rules.legal_actions(state))
    assert isinstance(bid, Bid) and bid.amount == HOUSE_VALUE


def test_bot_does_not_call_when_it_cannot_pay_above_its_reserve() -> None:
    rules, state = shortage_state(200)  # $150 reserve + $100 house value = $250 needed
    actions = rules.legal_actions(state, rules.deciders(state))
    assert CallHouseAuction(0) in actions
    choice = HeuristicBot(1).choose(rules, state, actions)
    assert isinstance(choice, Roll)
