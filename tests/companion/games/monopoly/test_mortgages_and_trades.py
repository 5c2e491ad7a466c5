"""Mortgages (printed value, +10% to lift) and trades between players."""

import pytest

from companion.games.monopoly import IllegalActionError, Mortgage, Trade, TradeSide

HEAD = """
variant monopoly
seed 1
player Ann
player Bob
"""


def test_mortgage_pays_the_printed_value(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Ann\nAnn mortgage "Boardwalk"\n')
    assert r.state.players[0].cash == 1700 and r.state.squares[39].mortgaged


def test_no_mortgage_while_the_group_has_buildings(replay_text):
    r = replay_text(HEAD + 'set square "Park Place" owner=Ann houses=1\nset square "Boardwalk" owner=Ann\n')
    with pytest.raises(IllegalActionError, match="sell the buildings"):
        r.rules.apply(r.state, Mortgage(0, 39))


def test_unmortgage_costs_ten_percent_more_rounded_up(replay_text):
    r = replay_text(HEAD + 'set square "Electric Company" owner=Ann mortgaged=true\nAnn unmortgage "Electric Company"\n')
    assert r.state.players[0].cash == 1500 - 83  # $75 + 10% = $82.50, rounded up
    r = replay_text(HEAD.replace("seed 1", "seed 1\noption unmortgage_rounding=down")
             + 'set square "Electric Company" owner=Ann mortgaged=true\nAnn unmortgage "Electric Company"\n')
    assert r.state.players[0].cash == 1500 - 82


def test_mortgaged_lot_by_trade_costs_ten_percent_now_and_again_when_lifted(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Ann mortgaged=true\n'
             'Ann trade Bob give "Boardwalk" get $100\nBob keep_mortgaged "Boardwalk"\n'
             'Bob unmortgage "Boardwalk"\n')
    assert r.state.players[1].cash == 1500 - 100 - 20 - 220
    assert r.state.squares[39].owner == 1 and not r.state.squares[39].mortgaged


def test_mortgaged_lot_by_trade_can_be_lifted_at_once_for_110_percent(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Ann mortgaged=true\n'
             'Ann trade Bob give "Boardwalk"\nBob unmortgage "Boardwalk"\n')
    assert r.state.players[1].cash == 1500 - 220


def test_trade_of_lots_cash_and_jail_cards(replay_text):
    r = replay_text(HEAD + 'set player Ann jail_cards=community_chest\nset square "Boardwalk" owner=Ann\n'
             'set square "Short Line" owner=Bob\n'
             'Ann trade Bob give "Boardwalk" card:community_chest get "Short Line" $300\n')
    assert r.state.squares[39].owner == 1 and r.state.squares[35].owner == 0
    assert r.state.players[0].cash == 1800 and r.state.players[1].cash == 1200
    assert r.state.players[1].jail_cards == ("community_chest",)


def test_trade_refused_while_the_group_has_buildings(replay_text):
    r = replay_text(HEAD + 'set square "Park Place" owner=Ann houses=1\nset square "Boardwalk" owner=Ann houses=1\n')
    action = Trade(0, 1, TradeSide(squares=(39,)), TradeSide(cash=500))
    with pytest.raises(IllegalActionError, match="sell the buildings"):
        r.rules.apply(r.state, action)


def test_trade_needs_the_goods(replay_text):
    r = replay_text(HEAD)
    with pytest.raises(IllegalActionError, match="does not own"):
        r.rules.apply(r.state, Trade(0, 1, TradeSide(squares=(39,)), TradeSide()))
    with pytest.raises(IllegalActionError, match="only \\$1500"):
        r.rules.apply(r.state, Trade(0, 1, TradeSide(cash=2000), TradeSide()))


def test_a_queued_mortgaged_lot_cannot_dodge_its_ten_percent(replay_text):
    """Regression: with two mortgaged lots received at once, the second could be unmortgaged
    through normal management before its transfer decision, skipping the 10% fee."""
    from companion.games.monopoly import Unmortgage

    r = replay_text(HEAD + 'set square "Boardwalk" owner=Ann mortgaged=true\n'
             'set square "Park Place" owner=Ann mortgaged=true\n'
             'Ann trade Bob give "Park Place" "Boardwalk"\n')
    assert [p.square for p in r.state.pending] == [37, 39]
    assert Unmortgage(1, 39) not in r.rules.legal_actions(r.state)
    with pytest.raises(IllegalActionError, match="when the game asks"):
        r.rules.apply(r.state, Unmortgage(1, 39))
    for action in r.rules.legal_actions(r.state):
        r.rules.apply(r.state, action)  # every listed action is legal


def test_variant_options_round_trip_and_foreign_options_are_refused(replay_text):
    from companion.transcript import TranscriptError

    with pytest.raises(TranscriptError, match="not a setting of the monopoly variant"):
        replay_text("variant monopoly\noption ep_per_level=5\nplayer Ann\nplayer Bob\nAnn roll 1 2\n")
