"""Bad input is refused with a clear message and nothing changes."""

from __future__ import annotations

from zombie_table import Z

from companion.games.monopoly.actions import Build, Buy, Mortgage, Trade, TradeSide
from companion.games.monopoly.monopozombie import GoTo, HireBodyguards, Steer

BALTIC, JAIL = 3, 10


def zombie_on_the_move() -> Z:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True, position=JAIL)
    z.turn("Bob")
    z.roll("Bob", 3, 4)
    return z


def test_a_zombie_cannot_buy() -> None:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True, position=0)
    z.turn("Bob")
    z.roll("Bob", 1, 2)
    z.act(Steer(1, (), "forward"))  # Baltic: an auction for the humans
    z.refused(Buy(1), "waiting for bids on Baltic Avenue")


def test_a_zombie_cannot_build_mortgage_or_trade() -> None:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True).lot(BALTIC, "Bob")
    z.turn("Bob")
    z.refused(Build(1, BALTIC), "Bob is a zombie: zombies take no part in commerce (no build)")
    z.refused(Mortgage(1, BALTIC), "zombies take no part in commerce (no mortgage)")
    z.refused(Trade(0, 1, TradeSide(cash=10), TradeSide(squares=(BALTIC,))),
              "Bob may not trade now")
    assert z.rules.trade_problem(z.state, Trade(0, 1, TradeSide(cash=10), TradeSide())) == \
        "Bob is a zombie: zombies take no part in commerce"  # what the bots ask first
    z.refused(Trade(1, 0, TradeSide(squares=(BALTIC,)), TradeSide(cash=10)),
              "zombies take no part in commerce (no trade)")


def test_a_direction_that_does_not_exist() -> None:
    z = zombie_on_the_move()
    z.refused(Steer(1, (), "sideways"), "there is no direction 'sideways'")


def test_keeping_dice_that_were_not_rolled() -> None:
    z = Z(players=4).veterans().stage("apocalypse").put("Bob", zombie=True).turn("Ann")
    z.roll("Ann", 2, 3, 5)
    z.refused(Steer(0, (6, 5), "forward"), "keep dice that were rolled (2 3 5)")
    z.refused(Steer(0, (5, 5), "forward"), "were not all rolled")
    z.refused(Steer(0, (5,), "forward"), "keep 2 of the dice rolled")


def test_a_square_the_roll_cannot_reach() -> None:
    z = zombie_on_the_move()
    msg = z.refused(GoTo(1, 20), "Free Parking cannot be reached with this roll")
    assert "Baltic Avenue" in msg and "Community Chest" in msg


def test_someone_else_steering() -> None:
    z = zombie_on_the_move()
    z.refused(Steer(0, (), "forward"), "it is Bob's move, not Ann's")


def test_bodyguards_refused_for_zombies_the_broke_and_in_the_apocalypse() -> None:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True).turn("Bob")
    z.refused(HireBodyguards(1, 1), "only humans with money hire bodyguards")
    z.turn("Ann").put("Ann", cash=150)
    z.refused(HireBodyguards(0, 2), "2 bodyguard(s) cost $200; you have $150")
    z.refused(HireBodyguards(0, 0), "hire at least one")
    z.stage("apocalypse")
    z.refused(HireBodyguards(0, 1), "no one hires bodyguards in the apocalypse")


def test_zombies_call_and_bid_in_no_house_auction() -> None:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True).put("Bob", cash=500)
    for lot in (16, 18, 19):
        z.lot(lot, "Bob", houses=1)
    for lot in (21, 23, 24):
        z.lot(lot, "Ann", houses=1)
    z.state = z.state.__class__(**{**{f: getattr(z.state, f) for f in z.state.__slots__},
                                   "bank_houses": 2})
    assert z.rules.house_demand(z.state) == {0: 9}
    assert not any(a.player == 1 and type(a).__name__ == "CallHouseAuction"
                   for a in z.rules.legal_actions(z.state))
