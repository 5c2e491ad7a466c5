"""Houses and hotels (standard Monopoly: 'Houses', 'Hotels', 'Building shortages')."""

import pytest

from companion.games.monopoly import BreakDown, Build, CallHouseAuction, IllegalActionError, Sell

HEAD = """
variant monopoly
seed 1
player Ann
player Bob
player Cy
"""
BROWNS = 'set square "Mediterranean Avenue" owner=Ann\nset square "Baltic Avenue" owner=Ann\n'
MED, BALTIC = 1, 3


def test_build_needs_the_whole_group(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Ann\n')
    with pytest.raises(IllegalActionError, match="every lot of the brown group"):
        r.rules.apply(r.state, Build(0, BALTIC))


def test_build_needs_no_mortgage_in_the_group(replay_text):
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann mortgaged=true\n'
             'set square "Baltic Avenue" owner=Ann\n')
    with pytest.raises(IllegalActionError, match="mortgages"):
        r.rules.apply(r.state, Build(0, BALTIC))


def test_build_evenly(replay_text):
    r = replay_text(HEAD + BROWNS + 'Ann build "Baltic Avenue"\n')
    assert r.state.players[0].cash == 1450 and r.state.bank_houses == 31
    with pytest.raises(IllegalActionError, match="evenly"):
        r.rules.apply(r.state, Build(0, BALTIC))
    state, _ = r.rules.apply(r.state, Build(0, MED))
    assert state.squares[MED].houses == 1


def test_hotel_needs_four_houses_on_every_lot_and_returns_them(replay_text):
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann houses=4\n'
             'set square "Baltic Avenue" owner=Ann houses=4\nAnn build "Baltic Avenue"\n')
    assert r.state.squares[BALTIC].hotel and r.state.squares[BALTIC].houses == 0
    assert r.state.bank_houses == 32 - 4 and r.state.bank_hotels == 11
    assert r.state.players[0].cash == 1450


def test_the_bank_has_32_houses_and_12_hotels(replay_text):
    r = replay_text(HEAD + BROWNS + "set bank houses=0\n")
    with pytest.raises(IllegalActionError, match="no houses"):
        r.rules.apply(r.state, Build(0, BALTIC))
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann houses=4\n'
             'set square "Baltic Avenue" owner=Ann houses=4\nset bank hotels=0\n')
    with pytest.raises(IllegalActionError, match="no hotels"):
        r.rules.apply(r.state, Build(0, BALTIC))


def test_sell_back_at_half_price_evenly(replay_text):
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann houses=2\n'
             'set square "Baltic Avenue" owner=Ann houses=1\n')
    with pytest.raises(IllegalActionError, match="sell evenly"):
        r.rules.apply(r.state, Sell(0, BALTIC))
    state, _ = r.rules.apply(r.state, Sell(0, MED))
    assert state.players[0].cash == 1525 and state.squares[MED].houses == 1
    assert state.bank_houses == r.state.bank_houses + 1


def test_selling_a_hotel_gives_back_four_houses_from_the_bank(replay_text):
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann houses=4\n'
             'set square "Baltic Avenue" owner=Ann hotel=true\nAnn sell "Baltic Avenue"\n')
    assert r.state.squares[BALTIC].houses == 4 and not r.state.squares[BALTIC].hotel
    assert r.state.players[0].cash == 1525
    assert r.state.bank_hotels == 12


def test_breaking_a_hotel_during_a_shortage_only_to_what_the_bank_allows(replay_text):
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann hotel=true\n'
             'set square "Baltic Avenue" owner=Ann hotel=true\nset bank houses=2\n')
    with pytest.raises(IllegalActionError, match="only 2 houses"):
        r.rules.apply(r.state, Sell(0, BALTIC))
    with pytest.raises(IllegalActionError, match="needs 8 houses"):
        r.rules.apply(r.state, BreakDown(0, "brown", (4, 4)))
    with pytest.raises(IllegalActionError, match="even"):
        r.rules.apply(r.state, BreakDown(0, "brown", (5, 1)))
    state, _ = r.rules.apply(r.state, BreakDown(0, "brown", (1, 1)))
    assert [state.squares[i].houses for i in (MED, BALTIC)] == [1, 1]
    assert state.bank_houses == 0 and state.bank_hotels == r.state.bank_hotels + 2
    assert state.players[0].cash == 1500 + 8 * 25
    legal = r.rules.legal_actions(r.state, (0,))
    assert BreakDown(0, "brown", (1, 1)) in legal


def test_house_shortage_goes_to_auction_when_several_players_want_houses(replay_text):
    r = replay_text(HEAD + BROWNS + 'set square "Oriental Avenue" owner=Bob\nset square "Vermont Avenue" owner=Bob\n'
             'set square "Connecticut Avenue" owner=Bob\nset bank houses=3\n')
    assert r.rules.house_shortage(r.state)
    with pytest.raises(IllegalActionError, match="house auction"):
        r.rules.apply(r.state, Build(0, BALTIC))
    assert CallHouseAuction(0) in r.rules.legal_actions(r.state)
    r = replay_text(HEAD + BROWNS + 'set square "Oriental Avenue" owner=Bob\nset square "Vermont Avenue" owner=Bob\n'
             'set square "Connecticut Avenue" owner=Bob\nset bank houses=3\n'
             'Ann house_auction\nAnn bid 60\nBob bid 70\nAnn pass\nBob build "Oriental Avenue"\n')
    assert r.state.squares[6].houses == 1
    assert r.state.players[1].cash == 1430 and r.state.bank_houses == 2


def test_standard_players_may_build_off_turn_unless_the_option_says_otherwise(replay_text):
    r = replay_text(HEAD + 'set square "Oriental Avenue" owner=Bob\nset square "Vermont Avenue" owner=Bob\n'
             'set square "Connecticut Avenue" owner=Bob\nBob build "Oriental Avenue"\n')
    assert r.state.squares[6].houses == 1
    strict = HEAD.replace("seed 1", "seed 1\noption build_off_turn=false")
    r = replay_text(strict + 'set square "Oriental Avenue" owner=Bob\nset square "Vermont Avenue" owner=Bob\n'
             'set square "Connecticut Avenue" owner=Bob\n')
    with pytest.raises(IllegalActionError, match="own turn"):
        r.rules.apply(r.state, Build(1, 6))
