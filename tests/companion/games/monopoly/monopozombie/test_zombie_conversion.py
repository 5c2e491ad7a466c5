"""Becoming a zombie (MZ.11-MZ.15; rulings Z-6-Z-9, Z-13, Z-14)."""

from __future__ import annotations

from zombie_table import Z

from companion.games.monopoly.actions import EndTurn
from companion.games.monopoly.pending import Auction

CHANCE_7, BALTIC, CC_17, GO_TO_JAIL, JAIL, FREE_PARKING = 7, 3, 17, 30, 10, 20


def test_mz11_double_one_converts_on_arrival_two_squares_on(z: Z) -> None:
    z.veterans().put("Ann", position=5)
    z.roll("Ann", 1, 1)
    ann = z.p("Ann")
    assert ann.zombie and ann.position == CHANCE_7
    assert "card_ignored" in z.kinds()  # arrived as a zombie: the card means nothing
    assert z.stage_now == "outbreak"  # MZ.15
    assert not z.state.roll_again  # zombies roll no doubles again (Z-6)


def test_z6_double_one_onto_an_unowned_lot_sends_it_to_auction(z: Z) -> None:
    z.veterans().put("Ann", position=1)
    z.roll("Ann", 1, 1)
    head = z.state.pending[0]
    assert isinstance(head, Auction) and head.square == BALTIC and head.bidders == (1, 2, 3)


def test_z6_passing_go_on_a_double_one_ends_immunity_then_converts(z: Z) -> None:
    z.put("Ann", position=39)
    z.roll("Ann", 1, 1)  # passes GO as a human (immunity over, $200), arrives a zombie
    assert z.p("Ann").zombie and z.p("Ann").cash == 1700 and z.pos("Ann") == 1


def test_mz12_go_to_jail_card_converts_in_place() -> None:
    z = Z(decks={"chance": ["go_to_jail"]})
    z.veterans().put("Ann", position=4)
    z.roll("Ann", 1, 2)
    ann = z.p("Ann")
    assert ann.zombie and ann.position == CHANCE_7 and not ann.in_jail


def test_mz13_get_out_of_jail_free_is_one_use_immunity() -> None:
    z = Z(decks={"community_chest": ["go_to_jail"]})
    z.veterans().put("Ann", position=14, jail_cards=("chance",))
    z.state = z.state.__class__(**{**{f: getattr(z.state, f) for f in z.state.__slots__},
                                   "chance": tuple(c for c in z.state.chance
                                                   if c != "get_out_of_jail_free")})
    z.roll("Ann", 1, 2)
    ann = z.p("Ann")
    assert not ann.zombie and ann.jail_cards == () and ann.position == CC_17
    assert z.state.chance[-1] == "get_out_of_jail_free"  # back under its deck
    assert "immunity_used" in z.kinds()


def test_mz14_first_lap_immunity_and_standard_rules_in_it() -> None:
    z = Z()
    z.put("Ann", position=6)
    z.roll("Ann", 1, 1)  # double-one in the first lap: standard doubles, no zombie
    assert not z.p("Ann").zombie and z.state.roll_again and "immune" in z.kinds()
    z2 = Z(decks={"chance": ["go_to_jail"]})
    z2.put("Ann", position=4)
    z2.roll("Ann", 1, 2)  # Go to Jail card in the first lap: jail as standard
    assert z2.p("Ann").in_jail and not z2.p("Ann").zombie


def test_z9_immunity_ends_on_arrival_at_go_and_go_itself_can_convert(z: Z) -> None:
    z.stage("outbreak").put("Bob", zombie=True, position=0, lap_done=True)
    z.put("Ann", position=37).put("Cy", position=20).put("Dee", position=20)
    z.roll("Ann", 1, 2)  # lands on GO: immunity over, then one zombie meets one human
    ann = z.p("Ann")
    assert ann.lap_done and ann.zombie and "go" in z.kinds()
    assert z.stage_now == "apocalypse"  # the second zombie of four (MZ.30)


def test_z7_go_to_jail_square_after_first_lap_converts_in_place(z: Z) -> None:
    z.veterans().put("Ann", position=26)
    z.roll("Ann", 1, 3)
    assert z.p("Ann").zombie and z.pos("Ann") == GO_TO_JAIL and not z.p("Ann").in_jail


def test_z7_option_off_go_to_jail_square_does_nothing_after_first_lap() -> None:
    z = Z(jail_square_converts=False)
    z.veterans().put("Ann", position=26)
    z.roll("Ann", 1, 3)
    assert not z.p("Ann").zombie and not z.p("Ann").in_jail and z.pos("Ann") == GO_TO_JAIL


def test_z7_third_doubles_after_first_lap_converts_without_moving(z: Z) -> None:
    z.veterans().put("Ann", position=0)
    z.roll("Ann", 2, 2)
    z.roll("Ann", 3, 3)
    assert z.pos("Ann") == 10
    z.roll("Ann", 4, 4)
    assert z.p("Ann").zombie and z.pos("Ann") == 10 and not z.p("Ann").in_jail


def test_mz15_first_conversion_starts_the_outbreak(z: Z) -> None:
    assert z.stage_now == "capitalism"
    z.veterans().put("Ann", position=26)
    z.roll("Ann", 1, 3)
    assert z.stage_now == "outbreak" and z.state.table.outbreak_turn == 1  # type: ignore[union-attr]
    z.act(EndTurn(0))
    assert z.rules.roll_spec(z.state).sides == (6, 6)  # type: ignore[union-attr]  # Bob human


def test_z13_double_one_converts_even_on_free_parking(z: Z) -> None:
    z.veterans().put("Ann", position=18)
    z.roll("Ann", 1, 1)
    assert z.p("Ann").zombie and z.pos("Ann") == FREE_PARKING
