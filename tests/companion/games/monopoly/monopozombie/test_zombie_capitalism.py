"""Stage one, Capitalism: genuine Monopoly with the MonopoZombie changes (MZ.1-MZ.10; rulings
Z-1-Z-5, Z-11)."""

from __future__ import annotations

import pytest
from zombie_table import Z

from companion.core.registry import find_game
from companion.games.monopoly.actions import (
    Bid,
    Build,
    Buy,
    DeclareBankruptcy,
    EndTurn,
    Mortgage,
    PassBid,
    Roll,
    Sell,
)
from companion.games.monopoly.monopozombie import ChooseMove, HomelessRoll, Steer, ZombieOptions
from companion.games.monopoly.pending import Auction, BuyDecision, Debt

MEDITERRANEAN, BALTIC, INCOME_TAX, READING = 1, 3, 4, 5
ORIENTAL, VERMONT, CONNECTICUT = 6, 8, 9
BOARDWALK, PARK_PLACE = 39, 37


def test_mz1_three_stages_two_to_eight_players() -> None:
    for n in (2, 8):
        z = Z(players=n)
        assert z.stage_now == "capitalism"
        assert all(p.human and not p.lap_done for p in z.state.players)  # type: ignore[attr-defined]
    z = Z()
    with pytest.raises(ValueError):
        z.rules.new_game([f"P{i}" for i in range(9)])


def test_mz2_capitalism_is_standard_monopoly(z: Z) -> None:
    z.roll("Ann", 2, 3)
    assert z.pos("Ann") == READING
    assert isinstance(z.state.pending[0], BuyDecision)
    z.act(Buy(0))
    assert z.p("Ann").cash == 1300 and z.state.squares[READING].owner == 0
    z.act(EndTurn(0))
    z.roll("Bob", 1, 4)  # Bob pays the railroad's $25
    assert z.p("Bob").cash == 1475 and z.p("Ann").cash == 1325


def test_mz3_first_house_without_the_group_then_even_across_owners(z: Z) -> None:
    z.lot(MEDITERRANEAN, "Ann")
    z.act(Build(0, MEDITERRANEAN))  # Baltic is still the bank's
    assert z.state.squares[MEDITERRANEAN].houses == 1
    z.refused(Build(0, MEDITERRANEAN), "build evenly")
    z.lot(BALTIC, "Bob")
    z.refused(Build(0, MEDITERRANEAN), "build evenly")  # Baltic owned, but bare
    z.act(Build(1, BALTIC))
    z.act(Build(0, MEDITERRANEAN))
    assert z.state.squares[MEDITERRANEAN].houses == 2
    assert Build(0, MEDITERRANEAN) not in z.rules.legal_actions(z.state)


def test_z1_mortgaged_lots_count_as_bare_and_take_no_houses(z: Z) -> None:
    z.lot(MEDITERRANEAN, "Ann", houses=1).lot(BALTIC, "Bob", mortgaged=True)
    z.refused(Build(0, MEDITERRANEAN), "build evenly")
    z.refused(Build(1, BALTIC), "lift the mortgage")


def test_z1_selling_and_mortgaging_look_at_your_own_lots_only(z: Z) -> None:
    z.lot(ORIENTAL, "Ann", houses=2).lot(VERMONT, "Bob", houses=2)
    z.lot(CONNECTICUT, "Bob", houses=2)
    z.act(Sell(0, ORIENTAL))  # Bob's lots stay higher: Ann sells her own highest
    assert z.state.squares[ORIENTAL].houses == 1
    z.lot(BALTIC, "Ann").lot(MEDITERRANEAN, "Bob", houses=1)
    z.act(Mortgage(0, BALTIC))  # Bob's house in the group does not stop Ann
    assert z.state.squares[BALTIC].mortgaged


def test_z2_house_rent_without_the_group_bare_rent_not_doubled(z: Z) -> None:
    z.lot(BALTIC, "Bob", houses=1).lot(MEDITERRANEAN, "Bob")
    z.put("Cy", position=0).turn("Cy")
    z.roll("Cy", 1, 2)  # Baltic with one house: $20 from the deed
    assert z.p("Cy").cash == 1480
    z2 = Z()
    z2.lot(BALTIC, "Bob", houses=1).lot(MEDITERRANEAN, "Ann")
    z2.roll("Ann", 2, 1)
    assert z2.p("Ann").cash == 1480
    z3 = Z()
    z3.lot(BALTIC, "Bob").lot(MEDITERRANEAN, "Cy")  # bare, group split: printed $4
    z3.roll("Ann", 2, 1)
    assert z3.p("Ann").cash == 1496


def _bankrupt_ann(z: Z) -> None:
    z.put("Ann", cash=0, position=0)
    z.roll("Ann", 1, 3)  # Income Tax $200 with nothing to raise it
    assert isinstance(z.state.pending[0], Debt)
    z.act(DeclareBankruptcy(0))


def test_mz4_bankrupt_player_stays_on_as_homeless(z: Z) -> None:
    _bankrupt_ann(z)
    ann = z.p("Ann")
    assert ann.homeless and not ann.bankrupt and ann.cash == 0 and ann.position == INCOME_TAX
    z.act(EndTurn(0))
    assert z.state.current == 1
    for name, dice in (("Bob", (1, 2)), ("Cy", (1, 2)), ("Dee", (1, 2))):
        z.roll(name, *dice)
        if z.state.pending:
            z.act(z.rules.legal_actions(z.state)[-1])
        while z.state.pending:
            z.act(PassBid(z.state.pending[0].bidders[0]))
        z.act(EndTurn(z.seat(name)))
    assert z.state.current == 1  # Ann's seat is skipped (Z-4)


def test_mz5_mz8_homeless_moves_1d6_clockwise_when_passed(z: Z) -> None:
    z.put("Ann", homeless=True, cash=0, position=0).put("Bob", position=35).turn("Bob")
    z.roll("Bob", 3, 4)  # Bob passes GO, where Ann waits
    head = z.state.pending[0]
    assert isinstance(head, HomelessRoll) and head.player == 0
    assert z.rules.roll_spec(z.state).sides == (6,)  # type: ignore[union-attr]
    z.roll("Ann", 4)
    assert z.pos("Ann") == INCOME_TAX and z.p("Ann").cash == 0  # no tax (Z-3)


def test_mz8_homeless_moves_when_someone_lands_on_their_square(z: Z) -> None:
    z.put("Ann", homeless=True, cash=0, position=7).put("Bob", position=0).turn("Bob")
    z.roll("Bob", 3, 4)
    assert any(isinstance(x, HomelessRoll) and x.player == 0 for x in z.state.pending)


def test_mz6_homeless_on_unowned_lot_sends_it_to_auction(z: Z) -> None:
    z.put("Ann", homeless=True, cash=0, position=0).put("Bob", position=38).turn("Bob")
    z.roll("Bob", 1, 2)  # Bob passes GO (where Ann is) and lands on Mediterranean
    z.act(Buy(1))
    z.roll("Ann", 3)  # Baltic, unowned
    head = z.state.pending[0]
    assert isinstance(head, Auction) and head.square == BALTIC
    assert 0 not in head.bidders and head.bidders == (1, 2, 3)  # Z-11
    z.act(Bid(2, 10))
    z.act(PassBid(1))
    z.act(PassBid(3))
    assert z.state.squares[BALTIC].owner == 2


def test_mz7_homeless_on_owned_lot_pays_no_rent_and_moves_before_the_owner(z: Z) -> None:
    z.lot(ORIENTAL, "Cy").lot(VERMONT, "Cy")
    z.put("Ann", homeless=True, cash=0, position=ORIENTAL).turn("Bob", rolled=True)
    z.act(EndTurn(1))  # Cy's turn: Ann moves first
    head = z.state.pending[0]
    assert isinstance(head, HomelessRoll) and head.owner == 2
    z.roll("Ann", 2)  # to Vermont, Cy's again: once more at once
    assert z.pos("Ann") == VERMONT and z.p("Ann").cash == 0
    assert isinstance(z.state.pending[0], HomelessRoll)
    z.roll("Ann", 2)  # Jail / Just Visiting: no owner, so the moves stop
    assert not z.state.pending and z.pos("Ann") == 10
    assert z.rules.roll_spec(z.state).player == 2  # type: ignore[union-attr]


def test_mz9_homeless_passing_go_is_housed_again(z: Z) -> None:
    z.put("Ann", homeless=True, cash=0, position=38).put("Bob", position=36).turn("Bob")
    z.roll("Bob", 1, 1)  # Bob lands on Luxury Tax... and Ann moves
    while z.state.pending and not isinstance(z.state.pending[0], HomelessRoll):
        z.act(z.rules.legal_actions(z.state)[0])
    z.roll("Ann", 3)
    assert not z.p("Ann").homeless and z.p("Ann").cash == 200


def test_mz10_homeless_converts_other_ways_but_one_die_never_doubles(z: Z) -> None:
    z.veterans().stage("outbreak")
    z.lot(BALTIC, "Dee").put("Dee", zombie=True, position=20)
    z.put("Ann", homeless=True, cash=0, position=0).put("Bob", position=38).turn("Bob")
    z.roll("Bob", 1, 2)
    while not isinstance(z.state.pending[0], HomelessRoll):
        z.act(z.rules.legal_actions(z.state)[0])
    z.roll("Ann", 3)  # the bare lot of a zombie
    assert z.p("Ann").zombie and not z.p("Ann").homeless


def test_z32_no_team_play() -> None:
    with pytest.raises(ValueError, match="no team play"):
        find_game("monopozombie").new_game(["Ann", "Bob", "Cy", "Dee"],
                                           ZombieOptions(teams="Ann+Bob,Cy+Dee"))


def test_mz46_z34_the_to_consider_ideas_are_not_played() -> None:
    # no option turns any of them on
    assert not {"direction_first", "rolled_conversions", "invisible_homeless", "safe_squares",
                "carry_houses", "fortified_houses"} & set(ZombieOptions.names())
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True, position=10)
    z.put("Eve", position=20).put("Fay", position=20).put("Ann", position=17)
    z.turn("Bob")
    # a zombie rolls first and picks the way after (not before the roll)
    assert z.rules.legal_actions(z.state)[0] == Roll(1, ())
    z.roll("Bob", 4, 3)
    assert isinstance(z.state.pending[0], ChooseMove)
    # a conversion is never rolled for: outnumbered on an unsheltered square, Ann turns at once
    z.act(Steer(1, (), "forward"))
    assert z.p("Ann").zombie and not z.state.pending
