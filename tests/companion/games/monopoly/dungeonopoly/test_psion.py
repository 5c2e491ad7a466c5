"""Psion (Dungeonopoly, "Psion abilities"): power points and every power, with exact figures."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Trade, TradeSide
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.classes.psion import (
    PP_TABLE,
    FortressChance,
    OweChoice,
    RecallRoll,
    pp_left,
)
from companion.games.monopoly.dungeonopoly.genesis import demiplane_of
from companion.games.monopoly.dungeonopoly.terms import dungeon


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def turn(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0)
    g.set(seat, turn=())


# --- power points -------------------------------------------------------------------------------
def test_power_points_equal_level_and_refill_at_go(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=5, position=36)
    g.set(1, position=37)
    use(g, 0, "mind_thrust", 1, pp=4)
    assert pp_left(g.p(0)) == 1 and g.cash(1) == 1500 - 100
    g.roll(0, 2, 3)  # 36 -> 1, passing GO
    assert pp_left(g.p(0)) == 5


def test_one_power_per_turn_and_powers_reusable(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=4, position=5)
    g.set(1, position=6)
    use(g, 0, "mind_thrust", 1, pp=1)
    with pytest.raises(IllegalActionError, match="one power per turn"):
        use(g, 0, "mind_thrust", 1, pp=1)
    turn(g, 0)
    use(g, 0, "mind_thrust", 1, pp=1)  # not single use: again next turn
    assert g.cash(1) == 1500 - 20 and pp_left(g.p(0)) == 2


def test_not_enough_pp_and_no_powers_in_jail(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=2, position=5)
    g.set(1, position=6)
    with pytest.raises(IllegalActionError, match="needs 3 PP"):
        use(g, 0, "mind_thrust", 1, pp=3)
    g.set(0, position=10, in_jail=True)
    with pytest.raises(IllegalActionError, match="jail"):
        use(g, 0, "mind_thrust", 1, pp=1)


def test_augmenting_range_costs_one_pp_per_square(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=3, position=5)  # limited range 2
    g.set(1, position=9)
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "mind_thrust", 1, pp=1)
    use(g, 0, "mind_thrust", 1, pp=1, augment=2)
    assert pp_left(g.p(0)) == 0 and g.cash(1) == 1490


# --- Mind Thrust's table (the text's vector) -----------------------------------------------------
@pytest.mark.parametrize("pp,amount", [(1, 10), (2, 30), (3, 60), (4, 100), (5, 150), (6, 210),
                                       (7, 280), (8, 360), (9, 450), (10, 550)])
def test_mind_thrust_table(game: Any, pp: int, amount: int) -> None:
    assert PP_TABLE[pp] == amount
    g = game("psion", "commoner")
    g.set(0, level=10, position=5)
    g.set(1, position=5)
    use(g, 0, "mind_thrust", 1, pp=pp)
    assert g.cash(1) == 1500 - amount and g.state.bank_net == 3000 - amount
    assert g.p(0).ep == 90 + 1


def test_mind_thrust_is_mental_and_absorbed_by_mage_armor(game: Any) -> None:
    g = game("psion", "cleric", "wizard")
    g.set(0, level=4, position=5)
    g.set(1, level=9, position=5)
    with pytest.raises(IllegalActionError, match="Ascended"):
        use(g, 0, "mind_thrust", 1, pp=1)
    g.set(2, position=6, enchantments="mage_armor")
    use(g, 0, "mind_thrust", 2, pp=4)
    assert g.cash(2) == 1500 and g.p(2).enchanted("mage_armor") is None


# --- Empty Mind ------------------------------------------------------------------------------------
def test_empty_mind_cuts_a_sum_owed_by_the_table(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=4, position=2)
    g.roll(0, 1, 1)  # Income Tax $200
    head = g.state.pending[0]
    assert isinstance(head, OweChoice) and head.amount == 200
    use(g, 0, "empty_mind", pp=4)
    assert g.cash(0) == 1500 - 100 and g.state.pot == 100 and pp_left(g.p(0)) == 0
    assert g.money_ok()


def test_empty_mind_is_defensive_pass_pays_in_full(game: Any) -> None:
    g = game("psion", "fighter")
    g.set(0, level=2, position=5)
    g.set(1, level=2, position=5)
    turn(g, 1)
    use(g, 1, "attack", 0)
    assert isinstance(g.state.pending[0], OweChoice)
    g.act(Pass(0))
    assert g.cash(0) == 1500 - 40
    g2 = game("psion", "fighter")
    g2.set(0, level=2, position=5)
    g2.set(1, level=2, position=5)
    turn(g2, 1)
    use(g2, 1, "attack", 0)
    use(g2, 0, "empty_mind", pp=2)  # $30 off $40; it is not her turn: no power limit
    assert g2.cash(0) == 1500 - 10


# --- Ego Whip and Id Insinuation -----------------------------------------------------------------
def test_ego_whip_forfeits_the_next_move_and_lands_again(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=3, position=5)
    g.set(1, position=6)
    g.own(6, 0)
    use(g, 0, "ego_whip", 1)
    assert pp_left(g.p(0)) == 1 and g.p(1).enchanted("ego_whip").mental
    turn(g, 1)
    g.roll(1, 3, 3)
    assert g.p(1).position == 6 and not g.state.roll_again
    assert g.cash(1) == 1500 - 6 and g.p(1).enchanted("ego_whip") is None


def test_id_insinuation_moves_backwards(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=6, position=5)
    g.set(1, position=3)
    use(g, 0, "id_insinuation", 1)
    assert pp_left(g.p(0)) == 3
    turn(g, 1)
    g.roll(1, 2, 3)  # 3 -> back 5 -> 38 (Luxury Tax), no GO money going backwards
    assert g.p(1).position == 38 and g.cash(1) == 1500 - 100
    turn(g, 1)
    g.roll(1, 1, 2)
    assert g.p(1).position == 1  # only the next roll


# --- Modify Memory ----------------------------------------------------------------------------------
def test_modify_memory_takes_the_cheapest_lot_and_recall(game: Any) -> None:
    g = game("psion", "commoner", "commoner")
    g.set(0, level=4, position=5)
    g.set(1, position=6, level=3)
    g.own(39, 1)
    g.own(6, 1)
    g.own(1, 1, houses=0)
    use(g, 0, "modify_memory", 1)
    assert g.state.squares[1].owner == 0 and g.p(1).enchanted("modify_memory")
    with pytest.raises(IllegalActionError, match="no stacking"):
        turn(g, 0)
        use(g, 0, "modify_memory", 1)
    # Cat lands on Mediterranean: Bob rolls a d20 to remember
    g.set(2, position=39)
    turn(g, 2)
    g.roll(2, 1, 1)  # 39 -> 1 (passing GO)
    assert isinstance(g.state.pending[0], RecallRoll)
    g.roll(1, 4)  # above his level 3: he forgets, the psion collects
    assert g.cash(0) == 1502 and g.state.squares[1].owner == 0
    g.set(2, position=39)
    turn(g, 2)
    g.roll(2, 1, 1)
    g.roll(1, 3)  # his level or less: he remembers, and this rent is his
    assert g.state.squares[1].owner == 1 and g.cash(1) == 1502
    assert g.p(1).enchanted("modify_memory") is None


def test_counterspell_on_modify_memory_returns_the_lot(game: Any) -> None:
    g = game("psion", "wizard")
    g.set(0, level=4, position=5)
    g.set(1, level=7, position=6)
    g.own(8, 1)
    use(g, 0, "modify_memory", 1)
    assert g.state.squares[8].owner == 0
    turn(g, 1)
    use(g, 1, "counterspell", 1, enchantment="modify_memory")
    assert g.state.squares[8].owner == 1


# --- Thought Leech ------------------------------------------------------------------------------------
def test_thought_leech_moves_enchantments_3pp_each(game: Any) -> None:
    g = game("psion", "wizard")
    g.set(0, level=6, position=5)
    g.set(1, position=6, enchantments="mage_armor:3:1,slow:4:1")
    with pytest.raises(IllegalActionError, match="needs 9 PP"):
        use(g, 0, "thought_leech", 1, take="mage_armor,slow", augment=3)
    use(g, 0, "thought_leech", 1, take="mage_armor,slow")
    assert pp_left(g.p(0)) == 0
    assert {e.name for e in g.p(0).enchantments} == {"mage_armor", "slow"}
    assert not g.p(1).enchantments


# --- Genesis ----------------------------------------------------------------------------------------
def test_genesis_chance_demiplane_exists_for_opponents_only(game: Any) -> None:
    g = game("psion", "commoner", decks={"chance": ["go_to_jail"]})
    g.set(0, level=7, position=5)
    use(g, 0, "genesis", after=6, deck="chance", card="go_to_jail")
    assert g.cash(0) == 1500 - 40 and pp_left(g.p(0)) == 3
    assert "go_to_jail" not in g.state.chance
    assert dungeon(g.state).demiplanes
    # an opponent rolling 2 from square 5 ends on the demiplane (6, gap, 7): jail card
    g.set(1, position=5)
    turn(g, 1)
    g.roll(1, 1, 1)
    assert g.p(1).in_jail
    # the psion herself does not see it: 2 from 5 is Vermont (8)
    turn(g, 0)
    g.roll(0, 2, 1)
    assert g.p(0).position == 8


def test_genesis_community_chest_only_for_the_psion(game: Any) -> None:
    g = game("psion", "commoner", decks={"community_chest": ["bank_error"]})
    g.set(0, level=7, position=5)
    use(g, 0, "genesis", after=6, deck="community_chest", card="bank_error")
    turn(g, 0)
    g.roll(0, 1, 1)  # 5 -> 6 -> demiplane: the card pays her
    assert demiplane_of(g.state, 0) == 6 and g.cash(0) == 1500 - 40 + 200
    # an opponent cannot target her there
    turn(g, 1)
    g.set(1, position=6, role="wizard", level=1)
    with pytest.raises(IllegalActionError):
        use(g, 1, "magic_missile", 0)


def test_genesis_replaces_the_demiplane_and_returns_the_card(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=9, position=5)
    card = g.state.chance[0]
    use(g, 0, "genesis", after=5, deck="chance", card=card)
    turn(g, 0)
    other = g.state.chance[0]
    use(g, 0, "genesis", after=5, deck="chance", card=other)
    assert card in g.state.chance and other not in g.state.chance
    assert len(dungeon(g.state).demiplanes) == 1


def test_genesis_limits(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=7, position=5)
    with pytest.raises(IllegalActionError, match="within 4"):
        use(g, 0, "genesis", after=9, deck="chance", card=g.state.chance[0])
    with pytest.raises(IllegalActionError, match="not a chance card"):
        use(g, 0, "genesis", after=5, deck="chance", card="nonsense")


# --- Psionic Blast ------------------------------------------------------------------------------------
def test_psionic_blast_throws_opponents_just_outside_range(game: Any) -> None:
    g = game("psion", "commoner", "commoner", "commoner")
    g.set(0, level=8, position=20)  # range 4
    g.set(1, position=22)
    g.set(2, position=17)
    g.set(3, position=20)
    g.own(25, 0, houses=0)
    use(g, 0, "psionic_blast")
    assert [g.p(i).position for i in (1, 2, 3)] == [25, 15, 25]
    assert g.cash(1) == 1500  # no landing: no rent on the Reading... B&O
    assert pp_left(g.p(0)) == 4


# --- Intellect Fortress -------------------------------------------------------------------------------
def test_intellect_fortress_makes_an_ability_miss(game: Any) -> None:
    g = game("psion", "wizard")
    g.set(0, level=9, position=5)
    g.set(1, level=1, position=6)
    turn(g, 1)
    use(g, 1, "magic_missile", 0)
    head = g.state.pending[0]
    assert isinstance(head, FortressChance)
    use(g, 0, "intellect_fortress", 0)
    assert g.cash(0) == 1500 and pp_left(g.p(0)) == 4 and g.p(1).ep == 0


def test_intellect_fortress_pass_lets_it_through(game: Any) -> None:
    g = game("psion", "wizard")
    g.set(0, level=9, position=5)
    g.set(1, level=1, position=6)
    turn(g, 1)
    use(g, 1, "magic_missile", 0)
    g.act(Pass(0))
    assert isinstance(g.state.pending[0], OweChoice)  # then Empty Mind is offered
    g.act(Pass(0))
    assert g.cash(0) == 1480


# --- Psychic Crush ------------------------------------------------------------------------------------
def test_psychic_crush_sends_to_go_without_pay(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=10, position=5)
    g.set(1, position=30)
    use(g, 0, "psychic_crush", 1)
    assert g.p(1).position == 0 and g.cash(1) == 1500 and pp_left(g.p(0)) == 5
    g.set(1, position=10, in_jail=True)
    turn(g, 0)
    with pytest.raises(IllegalActionError, match="jail"):
        use(g, 0, "psychic_crush", 1)


def test_trade_unaffected_by_pp(game: Any) -> None:
    g = game("psion", "commoner")
    g.own(1, 0)
    g.act(Trade(0, 1, TradeSide(squares=(1,)), TradeSide(cash=60)))
    assert g.state.squares[1].owner == 1
