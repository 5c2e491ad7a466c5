"""Buying from the bank and auctions (standard Monopoly: 'Buying property', 'Auctions')."""

import pytest

from companion.games.monopoly import Bid, Buy, IllegalActionError, PassBid
from companion.transcript import TranscriptError

HEAD = """
variant monopoly
seed 1
player Ann
player Bob
player Cy
"""


def test_buy_pays_the_printed_price_and_takes_the_title(replay_text):
    r = replay_text(HEAD + "Ann roll 1 2\nAnn buy\n")  # Baltic Avenue, $60
    ann = r.state.players[0]
    assert ann.cash == 1440
    assert r.state.squares[3].owner == 0


def test_declined_lot_goes_to_auction_open_to_everyone_including_decliner_and_jailed(replay_text):
    r = replay_text(HEAD + """
        set player Cy in_jail=true
        Ann roll 1 2
        Ann decline
    """)
    auction = r.state.pending[0]
    assert auction.square == 3
    assert auction.bidders == (0, 1, 2)
    r2 = replay_text(HEAD + """
        set player Cy in_jail=true
        Ann roll 1 2
        Ann decline
        Cy bid 10
        Ann bid 20
        Bob pass
        Cy pass
    """)
    assert r2.state.squares[3].owner == 0
    assert r2.state.players[0].cash == 1480
    assert not r2.state.pending


def test_jailed_player_can_win_an_auction(replay_text):
    r = replay_text(HEAD + """
        set player Cy in_jail=true
        Ann roll 1 2
        Ann decline
        Cy bid 45
        Ann pass
        Bob pass
    """)
    assert r.state.squares[3].owner == 2
    assert r.state.players[2].cash == 1455


def test_auction_with_no_bids_leaves_the_lot_with_the_bank(replay_text):
    r = replay_text(HEAD + "Ann roll 1 2\nAnn decline\nAnn pass\nBob pass\nCy pass\n")
    assert r.state.squares[3].owner is None
    assert not r.state.pending
    assert [p.cash for p in r.state.players] == [1500, 1500, 1500]


def test_auctions_off_option_keeps_a_declined_lot_with_the_bank(replay_text):
    r = replay_text(HEAD.replace("seed 1", "seed 1\noption auctions=false") + "Ann roll 1 2\nAnn decline\n")
    assert r.state.squares[3].owner is None
    assert not r.state.pending


def test_bid_must_beat_the_high_bid_and_be_covered_by_cash(replay_text):
    r = replay_text(HEAD + "set player Bob cash=30\nAnn roll 1 2\nAnn decline\nAnn bid 20\n")
    with pytest.raises(IllegalActionError, match="at least \\$21"):
        r.rules.apply(r.state, Bid(1, 20))
    with pytest.raises(IllegalActionError, match="cash"):
        r.rules.apply(r.state, Bid(1, 31))
    with pytest.raises(IllegalActionError, match="cannot withdraw"):
        r.rules.apply(r.state, PassBid(0))


def test_buy_without_the_cash_is_refused_and_changes_nothing(replay_text):
    r = replay_text(HEAD + "set player Ann cash=50\nAnn roll 1 2\n")
    before = r.state
    with pytest.raises(IllegalActionError, match="costs \\$60; you have \\$50"):
        r.rules.apply(r.state, Buy(0))
    assert r.state == before


def test_a_bad_transcript_line_names_the_line_and_the_problem(replay_text):
    with pytest.raises(TranscriptError) as info:
        replay_text(HEAD + "Ann roll 1 2\nBob buy\n")
    assert info.value.number == 8
    assert "Ann" in str(info.value)
