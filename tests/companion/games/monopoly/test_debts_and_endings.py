"""Debts, bankruptcy and the end of the game (standard Monopoly: 'Bankruptcy')."""

import pytest

from companion.games.monopoly import DeclareBankruptcy, EndGame, EndTurn, IllegalActionError

HEAD = """
variant monopoly
seed 1
player Ann
player Bob
player Cy
"""
BOB_HOTEL = ('set square "Park Place" owner=Bob houses=4\n'
             'set square "Boardwalk" owner=Bob hotel=true\n')


def test_debt_must_be_raised_before_the_game_moves_on(replay_text):
    r = replay_text(HEAD + BOB_HOTEL + 'set player Ann position=35 cash=100\nset square "Short Line" owner=Ann\n'
             'set square "Reading Railroad" owner=Ann\nAnn roll 1 3\n')
    assert "raise $2000" in r.rules.waiting_for(r.state)
    with pytest.raises(IllegalActionError):
        r.rules.apply(r.state, EndTurn(0))


def test_bankruptcy_refused_while_money_can_still_be_raised(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Bob\nset player Ann position=35 cash=10\n'
             'set square "Reading Railroad" owner=Ann\nAnn roll 1 3\n')
    with pytest.raises(IllegalActionError, match="can still raise"):
        r.rules.apply(r.state, DeclareBankruptcy(0))
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Bob\nset player Ann position=35 cash=10\n'
             'set square "Reading Railroad" owner=Ann\nAnn roll 1 3\nAnn mortgage "Reading Railroad"\n')
    assert r.state.players[0].cash == 10 + 100 - 50 and r.state.players[1].cash == 1550


def test_bankruptcy_to_a_player_sells_buildings_at_half_and_hands_over_the_rest(replay_text):
    r = replay_text(HEAD + BOB_HOTEL + """
        set player Ann position=35 cash=100 jail_cards=chance
        set square "Mediterranean Avenue" owner=Ann houses=1
        set square "Baltic Avenue" owner=Ann houses=1
        set square "Reading Railroad" owner=Ann mortgaged=true
        Ann roll 1 3
        Ann bankrupt
    """)
    ann, bob = r.state.players[0], r.state.players[1]
    assert ann.bankrupt and ann.cash == 0
    assert bob.cash == 1500 + 100 + 2 * 25  # cash plus the houses sold at half
    assert r.state.squares[1].owner == 1 and r.state.squares[3].owner == 1
    assert r.state.squares[5].owner == 1 and r.state.squares[5].mortgaged
    assert bob.jail_cards == ("chance",)
    assert r.state.bank_houses == 32 - 4 and r.state.squares[1].houses == 0
    # the mortgaged railroad: Bob decides to lift it or pay 10%
    assert "Reading Railroad" in r.rules.waiting_for(r.state)


def test_bankruptcy_to_the_bank_returns_lots_unmortgaged_for_auction(replay_text):
    r = replay_text(HEAD + """
        set player Ann position=2 cash=50
        set square "Reading Railroad" owner=Ann mortgaged=true
        set square "Oriental Avenue" owner=Ann mortgaged=true
        Ann roll 1 1
        Ann bankrupt
    """)
    assert r.state.players[0].bankrupt
    assert r.state.squares[5].owner is None and not r.state.squares[5].mortgaged
    auctions = [p.square for p in r.state.pending]
    assert auctions == [5, 6]
    assert r.state.pending[0].bidders == (1, 2)


def test_last_player_standing_wins(replay_text):
    r = replay_text(HEAD.replace("player Cy\n", "") + BOB_HOTEL +
             "set player Ann position=35 cash=100\nAnn roll 1 3\nAnn bankrupt\n")
    assert r.state.outcome is not None
    assert r.state.outcome.winner == "Bob" and r.state.outcome.reason == "last_player_standing"
    assert r.rules.legal_actions(r.state) == []


def test_table_ends_early_by_agreement_with_standings(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Cy\n')
    state, _ = r.rules.apply(r.state, EndGame(0))
    assert state.outcome.reason == "agreement"
    assert state.outcome.winner == "Cy"
    assert state.outcome.standings[0] == ("Cy", 1900)


def test_an_illegal_action_leaves_the_state_unchanged(replay_text):
    r = replay_text(HEAD)
    before = r.state
    with pytest.raises(IllegalActionError):
        r.rules.apply(r.state, EndTurn(0))
    assert r.state is before and r.state == before
