"""Doubles, three doubles, and jail (standard Monopoly: 'Jail')."""

import pytest

from companion.games.monopoly import IllegalActionError, PayJail, Roll

HEAD = """
variant monopoly
seed 1
option deck_mode=physical
player Ann
player Bob
"""


def test_doubles_roll_again(replay_text):
    r = replay_text(HEAD + "Ann roll 2 2\n")
    assert r.state.roll_again and r.rules.roll_spec(r.state).player == 0
    with pytest.raises(IllegalActionError, match="roll again"):
        r.rules.apply(r.state, __import__("companion.games.monopoly", fromlist=["EndTurn"]).EndTurn(0))


def test_three_doubles_go_to_jail_without_moving(replay_text):
    r = replay_text(HEAD + "set player Ann position=21\nAnn roll 2 2\nAnn buy\nAnn roll 3 3\nAnn buy\n"
             "Ann roll 1 1\n")
    ann = r.state.players[0]
    assert ann.in_jail and ann.position == 10
    assert ann.cash == 1500 - 200 - 300
    assert not r.state.roll_again


def test_going_to_jail_never_collects_go(replay_text):
    r = replay_text(HEAD + "set player Ann position=25\nAnn roll 2 3\n")  # lands on Go To Jail (30)
    assert r.state.players[0].in_jail and r.state.players[0].cash == 1500


def test_pay_fifty_before_rolling_then_move(replay_text):
    r = replay_text(HEAD + "set player Ann in_jail=true\nAnn pay_jail\nAnn roll 2 3\n")
    assert not r.state.players[0].in_jail
    assert r.state.players[0].position == 15 and r.state.players[0].cash == 1450


def test_cannot_pay_after_rolling(replay_text):
    r = replay_text(HEAD + "set player Ann in_jail=true\nAnn roll 2 3\n")
    assert r.state.players[0].in_jail and r.state.players[0].jail_turns == 1
    with pytest.raises(IllegalActionError, match="before rolling"):
        r.rules.apply(r.state, PayJail(0))


def test_doubles_leave_jail_and_move_with_no_extra_roll(replay_text):
    r = replay_text(HEAD + "set player Ann in_jail=true\nAnn roll 3 3\n")
    ann = r.state.players[0]
    assert not ann.in_jail and ann.position == 16
    assert not r.state.roll_again


def test_third_failed_roll_pays_fifty_and_moves_by_that_roll(replay_text):
    r = replay_text(HEAD + "set player Ann in_jail=true\nAnn roll 1 2\nAnn end\nBob roll 1 2\nBob buy\nBob end\n"
             "Ann roll 1 2\nAnn end\nBob roll 2 4\nBob buy\nBob end\nAnn roll 1 3\n")
    ann = r.state.players[0]
    assert not ann.in_jail and ann.position == 14
    assert ann.cash == 1450


def test_third_failed_roll_without_cash_must_raise_it_first(replay_text):
    r = replay_text(HEAD + 'set player Ann in_jail=true jail_turns=2 cash=10\nset square "Boardwalk" owner=Ann\n'
             "Ann roll 1 2\n")
    assert r.state.players[0].in_jail
    assert "raise $50" in r.rules.waiting_for(r.state)
    r = replay_text(HEAD + 'set player Ann in_jail=true jail_turns=2 cash=10\nset square "Boardwalk" owner=Ann\n'
             'Ann roll 1 2\nAnn mortgage "Boardwalk"\n')
    ann = r.state.players[0]
    assert not ann.in_jail and ann.position == 13 and ann.cash == 10 + 200 - 50


def test_jailed_players_collect_rent_trade_build_and_bid(replay_text):
    r = replay_text(HEAD + """
        set player Bob in_jail=true
        set square "Mediterranean Avenue" owner=Bob
        set square "Baltic Avenue" owner=Bob
        Bob build "Baltic Avenue"
        Bob trade Ann give $10 get $0
        Ann roll 1 2
    """.replace("Bob trade Ann give $10 get $0\n", "Bob trade Ann give $10\n"))
    assert r.state.squares[3].houses == 1
    assert r.state.players[1].cash == 1500 - 50 - 10 + 20


def test_dice_values_are_checked(replay_text):
    r = replay_text(HEAD)
    with pytest.raises(IllegalActionError, match="takes 2 dice"):
        r.rules.apply(r.state, Roll(0, (3,)))
    with pytest.raises(IllegalActionError, match="1 to 6"):
        r.rules.apply(r.state, Roll(0, (3, 7)))
    with pytest.raises(IllegalActionError, match="Ann's roll"):
        r.rules.apply(r.state, Roll(1, (3, 4)))
