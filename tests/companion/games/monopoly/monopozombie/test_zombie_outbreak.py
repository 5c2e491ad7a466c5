"""Stage two, Outbreak (MZ.16-MZ.29; rulings Z-10, Z-12-Z-16)."""

from __future__ import annotations

from zombie_table import Z

from companion.games.monopoly.actions import Buy, EndTurn, Roll
from companion.games.monopoly.monopozombie import ChooseMove, GoTo, HireBodyguards, Steer
from companion.games.monopoly.pending import Auction

MEDITERRANEAN, BALTIC, INCOME_TAX, READING, CHANCE_7 = 1, 3, 4, 5, 7
JAIL, ST_CHARLES, STATES, FREE_PARKING, GO_TO_JAIL = 10, 11, 13, 20, 30
PARK_PLACE, BOARDWALK = 37, 39


def outbreak(z: Z) -> Z:
    """Six players (the apocalypse comes with the third zombie): Bob is a zombie; everyone is
    past the first lap; Eve and Fay wait on Free Parking, out of the way."""
    assert len(z.state.players) == 6
    z.veterans().stage("outbreak").put("Bob", zombie=True)
    return z.put("Eve", position=FREE_PARKING).put("Fay", position=FREE_PARKING)


def test_mz16_humans_keep_the_capitalism_rules() -> None:
    z = Z(players=6)
    outbreak(z).put("Ann", position=0)
    z.roll("Ann", 2, 3)
    assert z.state.pending and z.state.pending[0].__class__.__name__ == "BuyDecision"
    z.act(Buy(0))
    assert z.state.squares[READING].owner == 0


def test_mz17_zombies_keep_their_seat() -> None:
    z = Z(players=6)
    outbreak(z).put("Ann", position=0).turn("Ann")
    z.roll("Ann", 1, 2)
    z.act(Buy(0))
    z.act(EndTurn(0))
    assert z.state.current == 1
    assert z.rules.roll_spec(z.state).sides == (4, 4)  # type: ignore[union-attr]


def test_mz18_zombie_rolls_2d4_and_picks_one_of_two_squares() -> None:
    z = Z(players=6)
    outbreak(z).put("Bob", position=JAIL).turn("Bob")
    z.roll("Bob", 3, 4)
    head = z.state.pending[0]
    assert isinstance(head, ChooseMove)
    assert set(z.rules.reachable(z.state, head)) == {17, 3}
    z.act(Steer(1, (), "back"))
    assert z.pos("Bob") == BALTIC


def test_mz18_go_to_a_reachable_square() -> None:
    z = Z(players=6)
    outbreak(z).put("Bob", position=JAIL).turn("Bob")
    z.roll("Bob", 3, 4)
    z.act(GoTo(1, 17))
    assert z.pos("Bob") == 17


def test_mz19_zombies_ignore_cards_taxes_jail_and_doubles() -> None:
    z = outbreak(Z(players=6, decks={"chance": ["advance_to_boardwalk", "bank_dividend"]}))
    z.put("Bob", position=3).turn("Bob")
    z.roll("Bob", 2, 2)
    z.act(Steer(1, (), "back"))  # 3 - 4 = 39? no: forward to Chance 7 instead
    assert z.pos("Bob") == 39
    z2 = outbreak(Z(players=6, decks={"chance": ["advance_to_boardwalk", "bank_dividend"]}))
    z2.put("Bob", position=3).turn("Bob")
    cash = z2.p("Bob").cash
    z2.roll("Bob", 2, 2)
    z2.act(Steer(1, (), "forward"))
    assert z2.pos("Bob") == CHANCE_7 and z2.p("Bob").cash == cash
    assert z2.state.chance[:2] == ("bank_dividend", "community_chest"[:0] or z2.state.chance[1])
    assert z2.state.chance[-1] == "advance_to_boardwalk"  # looked at, put under
    assert z2.rules.roll_spec(z2.state) is None  # no second roll for a zombie's doubles
    z3 = outbreak(Z(players=6))
    z3.put("Bob", position=26).turn("Bob")
    z3.roll("Bob", 2, 2)
    z3.act(Steer(1, (), "forward"))
    assert z3.pos("Bob") == GO_TO_JAIL and not z3.p("Bob").in_jail
    z4 = outbreak(Z(players=6))
    z4.put("Bob", position=8).turn("Bob")
    z4.roll("Bob", 2, 2)
    z4.act(Steer(1, (), "back"))
    assert z4.pos("Bob") == INCOME_TAX and z4.p("Bob").cash == 1500


def test_mz20_zombie_on_unowned_lot_sends_it_to_auction() -> None:
    z = Z(players=6)
    outbreak(z).put("Bob", position=JAIL).turn("Bob")
    z.roll("Bob", 1, 2)
    z.act(Steer(1, (), "back"))
    assert z.pos("Bob") == 7 and not z.state.pending  # Chance
    z2 = outbreak(Z(players=6)).put("Bob", position=JAIL).turn("Bob")
    z2.roll("Bob", 1, 2)
    z2.act(Steer(1, (), "forward"))
    head = z2.state.pending[0]
    assert isinstance(head, Auction) and head.square == STATES and 1 not in head.bidders


def test_mz21_bare_zombie_lot_is_an_infection_ground_mortgaged_too() -> None:
    z = Z(players=6)
    outbreak(z).lot(BALTIC, "Bob", mortgaged=True).put("Ann", position=0)
    z.roll("Ann", 1, 2)
    assert z.p("Ann").zombie and z.p("Ann").cash == 1500  # no rent to a zombie (Z-10)


def test_mz22_improved_zombie_lot_shelters_then_loses_one_level_when_vacated() -> None:
    z = Z(players=6)
    outbreak(z).lot(BALTIC, "Bob", houses=2).put("Ann", position=0).put("Cy", position=BALTIC)
    z.roll("Ann", 1, 2)
    assert not z.p("Ann").zombie and z.state.squares[BALTIC].houses == 2
    z.act(EndTurn(0))
    z.turn("Cy")
    z.roll("Cy", 1, 2)  # Cy leaves; Ann still there: no demolition yet
    assert z.state.squares[BALTIC].houses == 2
    z.act(Buy(2)) if z.state.pending else None
    z.turn("Ann")
    z.roll("Ann", 2, 3)  # the last human leaves: one level falls (one per spell)
    assert z.state.squares[BALTIC].houses == 1
    assert z.state.bank_houses == 32 - 1


def test_mz23_free_parking_is_a_rest_square() -> None:
    z = Z(players=6)
    outbreak(z).put("Ann", position=FREE_PARKING).put("Bob", position=17).turn("Bob")
    z.roll("Bob", 1, 2)
    z.act(Steer(1, (), "forward"))
    assert z.pos("Bob") == FREE_PARKING and not z.p("Ann").zombie


def test_mz24_zombies_never_in_jail() -> None:
    z = Z(players=6)
    outbreak(z).put("Bob", position=JAIL, in_jail=False).turn("Bob")
    assert z.rules.roll_spec(z.state).purpose == "move"  # type: ignore[union-attr]


def test_mz25_zombie_on_unguarded_human_improved_lot_demolishes_first() -> None:
    z = Z(players=6)
    outbreak(z).lot(BOARDWALK, "Ann", hotel=True).put("Bob", position=PARK_PLACE).turn("Bob")
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    s = z.state.squares[BOARDWALK]
    assert not s.hotel and s.houses == 4 and z.state.bank_hotels == 12


def test_mz26_humans_on_the_lot_protect_it_until_they_leave() -> None:
    z = Z(players=6)
    outbreak(z).lot(BOARDWALK, "Ann", houses=3).put("Cy", position=BOARDWALK)
    z.put("Bob", position=PARK_PLACE).turn("Bob")
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    assert z.state.squares[BOARDWALK].houses == 3 and not z.p("Cy").zombie  # sheltered
    z.act(EndTurn(1))
    z.turn("Cy")
    z.roll("Cy", 1, 2)  # Cy leaves the zombie alone with the houses
    assert z.state.squares[BOARDWALK].houses == 2


def test_mz27_zombie_on_improved_zombie_lot_demolishes_nothing() -> None:
    z = Z(players=6)
    outbreak(z).lot(BOARDWALK, "Bob", houses=3).put("Bob", position=PARK_PLACE).turn("Bob")
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    assert z.state.squares[BOARDWALK].houses == 3


def test_mz28_humans_convert_when_zombies_are_as_many() -> None:
    z = Z(players=6)
    outbreak(z).put("Ann", position=JAIL).put("Bob", position=8).turn("Bob")
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    assert z.p("Ann").zombie
    z2 = outbreak(Z(players=6)).put("Ann", position=JAIL).put("Cy", position=JAIL)
    z2.put("Bob", position=8).turn("Bob")
    z2.roll("Bob", 1, 1)
    z2.act(Steer(1, (), "forward"))
    assert not z2.p("Ann").zombie and not z2.p("Cy").zombie  # two humans, one zombie


def test_z14_jailed_humans_are_not_on_the_jail_square() -> None:
    z = outbreak(Z(players=6)).put("Ann", position=JAIL, in_jail=True, lap_done=False)
    z.put("Bob", position=8).turn("Bob")
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    assert not z.p("Ann").zombie


def test_mz29_bodyguards_count_as_humans_until_the_next_roll() -> None:
    z = Z(players=6)
    outbreak(z).put("Ann", position=JAIL).turn("Ann")
    z.act(HireBodyguards(0, 1))
    assert z.p("Ann").cash == 1400 and z.p("Ann").bodyguards == 1
    z.roll("Ann", 3, 4)  # the roll the guards were paid for: they stay through it
    assert z.p("Ann").bodyguards == 1
    z.put("Ann", position=JAIL).put("Bob", position=8).turn("Bob")
    z.state = z.state.__class__(**{**{f: getattr(z.state, f) for f in z.state.__slots__},
                                   "pending": ()})
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    assert not z.p("Ann").zombie  # one zombie against Ann and her bodyguard
    z.act(EndTurn(1))
    z.turn("Ann")
    z.roll("Ann", 1, 2)  # not renewed: they leave at this roll
    assert z.p("Ann").bodyguards == 0


def test_z12_a_zombie_keeps_frozen_money_and_is_paid_nothing() -> None:
    z = Z(players=6, decks={"chance": ["chairman"]})
    outbreak(z).put("Ann", position=4).put("Bob", position=5)
    z.roll("Ann", 1, 2)  # pay every player $50: the zombie's share goes to the bank
    assert z.p("Bob").cash == 1500 and z.p("Cy").cash == 1550 and z.p("Ann").cash == 1250
    assert Roll(1, ()) not in z.rules.legal_actions(z.state)


def test_z11_a_human_converted_as_a_zombie_arrives_is_no_bidder_in_its_auction() -> None:
    z = outbreak(Z(players=6)).put("Ann", position=READING + 10).put("Bob", position=JAIL)
    z.turn("Bob")
    z.roll("Bob", 3, 2)
    z.act(Steer(1, (), "forward"))  # Pennsylvania Railroad: unowned, Ann there alone
    head = z.state.pending[0]
    assert z.p("Ann").zombie
    assert isinstance(head, Auction) and head.square == READING + 10
    assert 0 not in head.bidders and 1 not in head.bidders and head.bidders == (2, 3, 4, 5)
