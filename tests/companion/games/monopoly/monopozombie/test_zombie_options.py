"""Table options beyond the defaults: the immunity card asked about (Z-8, ``immunity_card``),
no cards in the apocalypse (Z-20, ``apocalypse_cards``), two d6 standing in for 2d4 with every
5 or 6 rolled again (Z-29, ``zombie_dice``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from zombie_table import Z

from companion.core.registry import find_game
from companion.games.monopoly.actions import Roll
from companion.games.monopoly.monopozombie import ChooseMove, Steer, ZombieOptions
from companion.games.monopoly.monopozombie.model import (
    AnswerImmunity,
    ImmunityChoice,
    ZombieReroll,
)
from companion.games.monopoly.pending import Auction

BALTIC, CHANCE_7, JAIL, ST_CHARLES, FREE_PARKING, CHANCE_22 = 3, 7, 10, 11, 20, 22


# -- Z-8: immunity_card=ask --------------------------------------------------------------------
def test_z8_ask_use_the_card_on_a_double_one_arrive_human() -> None:
    z = Z(immunity_card="ask").veterans().put("Ann", position=1, jail_cards=("chance",))
    z.roll("Ann", 1, 1)
    head = z.state.pending[0]
    assert isinstance(head, ImmunityChoice) and head.how == "double_one" and head.land == BALTIC
    assert z.rules.legal_actions(z.state) == [AnswerImmunity(0, True), AnswerImmunity(0, False)]
    z.act(AnswerImmunity(0, True))
    ann = z.p("Ann")
    assert not ann.zombie and ann.jail_cards == () and z.stage_now == "capitalism"
    # she arrives as a human: Baltic Avenue is offered to her, not auctioned
    assert type(z.state.pending[0]).__name__ == "BuyDecision"


def test_z8_ask_keep_the_card_become_a_zombie_on_arrival() -> None:
    z = Z(immunity_card="ask").veterans().put("Ann", position=1, jail_cards=("chance",))
    z.roll("Ann", 1, 1)
    z.act(AnswerImmunity(0, False))
    ann = z.p("Ann")
    assert ann.zombie and ann.jail_cards == ("chance",) and z.stage_now == "outbreak"
    head = z.state.pending[0]  # arrived as a zombie: the lot goes to auction (Z-6)
    assert isinstance(head, Auction) and head.square == BALTIC
    assert not z.state.roll_again


def test_z8_ask_when_outnumbered_only_the_holder_is_asked() -> None:
    z = Z(players=6, immunity_card="ask").veterans().stage("outbreak")
    z.put("Eve", position=FREE_PARKING).put("Fay", position=FREE_PARKING)
    z.put("Bob", zombie=True, position=8).put("Dee", zombie=True, position=JAIL)
    z.put("Ann", position=JAIL, jail_cards=("chance",)).put("Cy", position=JAIL).turn("Bob")
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))  # two zombies on Jail / Just Visiting with Ann and Cy
    assert z.p("Cy").zombie and not z.p("Ann").zombie
    head = z.state.pending[0]
    assert isinstance(head, ImmunityChoice) and head.player == 0 and head.how == "outnumbered"
    z.act(AnswerImmunity(0, True))
    assert not z.p("Ann").zombie and not z.state.pending


def test_z8_ask_refuses_an_answer_from_someone_else_or_unasked() -> None:
    z = Z(immunity_card="ask").veterans().put("Ann", position=1, jail_cards=("chance",))
    z.refused(AnswerImmunity(0, True), "no one is asked")
    z.roll("Ann", 1, 1)
    z.refused(AnswerImmunity(1, True), "Ann's card")


def test_z8_auto_default_spends_the_card_without_asking() -> None:
    z = Z().veterans().put("Ann", position=1, jail_cards=("chance",))
    z.roll("Ann", 1, 1)
    assert not z.p("Ann").zombie and "immunity_used" in z.kinds()
    assert not any(isinstance(x, ImmunityChoice) for x in z.state.pending)


# -- Z-20: apocalypse_cards=none ---------------------------------------------------------------
def test_z20_none_no_card_drawn_in_the_apocalypse() -> None:
    z = Z(decks={"chance": ["go_to_jail"]}, apocalypse_cards="none")
    z.veterans().stage("apocalypse").put("Bob", zombie=True, position=30)
    z.put("Cy", zombie=True, position=30).put("Ann", position=JAIL).turn("Ann")
    before = z.state.chance
    z.roll("Ann", 1, 2, 6)
    z.act(Steer(0, (2, 1), "back"))
    assert z.pos("Ann") == CHANCE_7 and not z.p("Ann").zombie  # the Go to Jail card stays put
    assert z.state.chance == before and "no_card" in z.kinds()


def test_z20_zombie_only_default_the_go_to_jail_card_still_converts() -> None:
    z = Z(decks={"chance": ["go_to_jail"]})
    z.veterans().stage("apocalypse").put("Bob", zombie=True, position=30)
    z.put("Cy", zombie=True, position=30).put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 1, 2, 6)
    z.act(Steer(0, (2, 1), "back"))
    assert z.p("Ann").zombie


# -- Z-29: zombie_dice=d6 ----------------------------------------------------------------------
def outbreak_bob(z: Z) -> Z:
    z.veterans().stage("outbreak").put("Bob", zombie=True, position=JAIL).turn("Bob")
    return z.put("Eve", position=FREE_PARKING).put("Fay", position=FREE_PARKING)


def test_z29_d6_zombie_rolls_two_d6_and_rolls_each_5_or_6_again() -> None:
    z = outbreak_bob(Z(players=6, zombie_dice="d6"))
    assert z.rules.roll_spec(z.state).sides == (6, 6)  # type: ignore[union-attr]
    z.roll("Bob", 5, 3)
    head = z.state.pending[0]
    assert isinstance(head, ZombieReroll) and head.kept == (3,) and head.sides == (6,)
    assert z.rules.roll_spec(z.state).sides == (6,)  # type: ignore[union-attr]
    z.roll("Bob", 6)  # again
    head = z.state.pending[0]
    assert isinstance(head, ZombieReroll) and head.kept == (3,)
    z.roll("Bob", 1)
    head = z.state.pending[0]
    assert isinstance(head, ChooseMove) and sorted(head.dice) == [1, 3]
    assert set(z.rules.reachable(z.state, head)) == {14, 6}
    z.act(Steer(1, (), "back"))
    assert z.pos("Bob") == 6


def test_z29_d6_both_dice_high_both_rolled_again() -> None:
    z = outbreak_bob(Z(players=6, zombie_dice="d6"))
    z.roll("Bob", 6, 5)
    head = z.state.pending[0]
    assert isinstance(head, ZombieReroll) and head.kept == () and head.sides == (6, 6)
    z.refused(Roll(1, (2,)), "2 dice")
    z.roll("Bob", 4, 4)
    assert isinstance(z.state.pending[0], ChooseMove)


def test_z29_d4_default_refuses_a_5() -> None:
    z = outbreak_bob(Z(players=6))
    z.refused(Roll(1, (5, 2)), "a d4 shows 1 to 4")


@pytest.mark.parametrize("name, value", [("immunity_card", "sometimes"),
                                         ("apocalypse_cards", "all"),
                                         ("zombie_dice", "d8"),
                                         ("apocalypse_at", "never")])
def test_word_options_refuse_unknown_values(name: str, value: str) -> None:
    rules = find_game("monopozombie")
    with pytest.raises(ValueError, match=name):
        rules.parse_option(name, value)
    with pytest.raises(ValueError, match=name):
        values: dict[str, Any] = {name: value}
        rules.new_game(["Ann", "Bob"], replace(ZombieOptions(), **values))
