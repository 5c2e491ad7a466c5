"""Fighter and Wizard abilities (Dungeonopoly, "Fighter abilities", "Wizard abilities")."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import (
    Buy,
    EndTurn,
    KeepMortgaged,
    Trade,
    TradeSide,
    Unmortgage,
)
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.steps import Check, RentChoice
from companion.games.monopoly.pending import Debt, MortgagedTransfer


def use(g: Any, seat: int, ability: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, ability, target, tuple((k, str(v)) for k, v in params.items())))


# --- Fighter ---------------------------------------------------------------------------
def test_attack_same_square_damage_and_ep(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=3, position=5)
    g.set(1, position=5)
    use(g, 0, "attack", 1)
    assert g.cash(1) == 1500 - 60 and g.p(0).ep == 21
    with pytest.raises(IllegalActionError, match="once per turn"):
        use(g, 0, "attack", 1)
    assert g.money_ok()


def test_attack_needs_same_square_and_not_jailed(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(1, position=6)
    with pytest.raises(IllegalActionError, match="your square"):
        use(g, 0, "attack", 1)
    g.set(0, position=10)
    g.set(1, position=10, in_jail=True)
    assert not [a for a in g.rules.legal_actions(g.state) if isinstance(a, UseAbility)]


def test_run_adds_a_die_no_doubles_from_extra_and_locks_out(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=2, ep=10)
    use(g, 0, "run")
    assert g.rules.roll_spec(g.state).sides == (6, 6, 6)
    g.roll(0, 1, 2, 2)  # 5 squares, no doubles (the extra die does not pair)
    assert g.p(0).position == 5 and not g.state.roll_again
    assert g.p(0).ep == 10 + 1 + 0  # run EP; the Reading Railroad is unbought


def test_far_shot_hits_on_2x_level_and_misses_earn_no_ep(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=3, ep=20, position=1)
    g.set(1, position=8)
    use(g, 0, "far_shot", 1)
    assert isinstance(g.state.pending[0], Check) and g.state.pending[0].target == 6
    g.roll(0, 7)  # miss
    assert g.cash(1) == 1500 and g.p(0).ep == 20
    with pytest.raises(IllegalActionError, match="once per turn"):
        use(g, 0, "far_shot", 1)
    g2 = game("fighter", "commoner")
    g2.set(0, level=3, ep=20, position=1)
    g2.set(1, position=8)
    use(g2, 0, "far_shot", 1)
    g2.roll(0, 6)
    assert g2.cash(1) == 1440 and g2.p(0).ep == 21


def test_far_shot_line_of_sight_and_jail(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=3, position=9)
    g.set(1, position=11)
    with pytest.raises(IllegalActionError, match="line of sight"):
        use(g, 0, "far_shot", 1)
    g.set(1, position=10, in_jail=True)
    with pytest.raises(IllegalActionError):
        use(g, 0, "far_shot", 1)
    g.set(1, position=9, in_jail=False)
    with pytest.raises(IllegalActionError, match="one square away"):
        use(g, 0, "far_shot", 1)


def test_intimidate_success_waives_rent_failure_pays(game: Any) -> None:
    for roll, cash, ep in ((4, 1500, 31), (5, 1494, 31)):
        g = game("fighter", "commoner")
        g.set(0, level=4, ep=30)
        g.own(6, 1)
        g.roll(0, 2, 4)
        assert isinstance(g.state.pending[0], RentChoice)
        use(g, 0, "intimidate")
        g.roll(0, roll)
        assert g.cash(0) == cash and g.p(0).ep == ep  # a paid rent earns its own EP


def test_intimidate_pass_pays_rent(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=4, ep=30)
    g.own(6, 1)
    g.roll(0, 2, 4)
    g.act(Pass(0))
    assert g.cash(0) == 1494 and g.cash(1) == 1506


def test_combat_reflexes_attacks_passed_opponent_not_jailed(game: Any) -> None:
    g = game("fighter", "commoner", "commoner")
    g.set(0, level=5, ep=40, position=5)
    g.set(1, position=8)
    g.set(2, position=10, in_jail=True)
    g.roll(0, 6, 5)  # 5 -> 16, passes 8 and the jail
    assert g.p(0).position == 16
    g.act(Buy(0))
    legal = [a for a in g.rules.legal_actions(g.state) if isinstance(a, UseAbility)]
    assert [a.target for a in legal if a.ability == "combat_reflexes"] == [1]
    use(g, 0, "combat_reflexes", 1)
    assert g.cash(1) == 1500 - 100


def test_raze_after_rent_hotels_and_blessed_immune(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=6, ep=50)
    g.own(6, 1, houses=2)
    g.roll(0, 2, 4)
    g.act(Pass(0))  # no intimidate at level 6? fighter has it from 4: pass it
    assert g.state.squares[6].houses == 1 and g.cash(0) == 1500 - 90
    g2 = game("fighter", "commoner")
    g2.set(0, level=6)
    g2.own(6, 1, hotel=True)
    g2.roll(0, 2, 4)
    g2.act(Pass(0))
    assert g2.state.squares[6].hotel
    g3 = game("fighter", "commoner")
    g3.set(0, level=6)
    g3.own(6, 1, houses=2)
    g3.state = g3.rules.set_square_field(g3.state, 6, "enchantments", "bless:1")
    g3.roll(0, 2, 4)
    g3.act(Pass(0))
    assert g3.state.squares[6].houses == 2


def test_fortify_own_landed_not_bought_this_turn(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=7, ep=60)
    g.own(6, 0, houses=3)
    g.roll(0, 2, 4)
    use(g, 0, "fortify")
    assert g.state.squares[6].houses == 4 and g.p(0).ep == 61 and g.cash(0) == 1500
    g2 = game("fighter", "commoner")
    g2.set(0, level=7)
    g2.roll(0, 2, 4)
    g2.act(Buy(0))
    with pytest.raises(IllegalActionError, match="bought this turn"):
        use(g2, 0, "fortify")
    g3 = game("fighter", "commoner")
    g3.set(0, level=7)
    g3.own(6, 0, houses=4)
    g3.roll(0, 2, 4)
    with pytest.raises(IllegalActionError, match="four houses"):
        use(g3, 0, "fortify")


def test_fortify_refuses_a_lot_conquered_after_landing_d73(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=8, ep=70)
    g.own(6, 1, mortgaged=True)
    g.roll(0, 2, 4)
    use(g, 0, "conquer")
    g.act(Unmortgage(0, 6))  # lifts it at 110%
    assert g.state.squares[6].owner == 0 and not g.state.squares[6].mortgaged
    with pytest.raises(IllegalActionError, match="yours when you landed"):
        use(g, 0, "fortify")
    assert g.state.squares[6].houses == 0


def test_fortify_refuses_a_lot_traded_for_after_landing_d73(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=7, ep=60)
    g.own(6, 1)
    g.roll(0, 2, 4)  # lands on Bob's Oriental Avenue
    g.act(Pass(0))  # no Intimidate: she pays the rent
    assert g.cash(0) == 1500 - 6
    g.act(Trade(0, 1, TradeSide(cash=200), TradeSide(squares=(6,))))
    assert g.state.squares[6].owner == 0
    with pytest.raises(IllegalActionError, match="yours when you landed"):
        use(g, 0, "fortify")


def test_fortify_allows_a_lot_traded_for_before_landing_d73(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=7, ep=60)
    g.own(6, 1)
    g.act(Trade(0, 1, TradeSide(cash=200), TradeSide(squares=(6,))))
    g.roll(0, 2, 4)  # hers when she lands
    use(g, 0, "fortify")
    assert g.state.squares[6].houses == 1


def test_conquer_takes_mortgaged_lot_with_transfer_choice(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=8, ep=70)
    g.own(6, 1, mortgaged=True)
    g.roll(0, 2, 4)
    use(g, 0, "conquer")
    assert g.state.squares[6].owner == 0
    assert isinstance(g.state.pending[0], MortgagedTransfer)
    g.act(KeepMortgaged(0, 6))
    assert g.cash(0) == 1500 - 5 and g.state.squares[6].mortgaged


def test_veteran_half_damage(game: Any) -> None:
    g = game("wizard", "fighter")
    g.set(0, level=4, position=3)
    g.set(1, level=9, position=3)
    use(g, 0, "magic_missile", 1)
    assert g.cash(1) == 1500 - 40


def test_abundant_step_lands_without_passing_single_use(game: Any) -> None:
    g = game("fighter", "commoner")
    g.set(0, level=10, ep=90, position=38)
    use(g, 0, "abundant_step", steps=3)  # 38 -> 1, over GO without collecting
    assert g.p(0).position == 1 and g.cash(0) == 1500
    assert g.state.rolled and "abundant_step" in g.p(0).spent
    g.act(Buy(0))
    g.act(EndTurn(0))
    g.roll(1, 4, 6)
    g.act(EndTurn(1))
    with pytest.raises(IllegalActionError, match="used up"):
        use(g, 0, "abundant_step", steps=1)


# --- Wizard ----------------------------------------------------------------------------
def test_magic_missile_range_cantrip_one_spell_per_turn(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, position=5)
    g.set(1, position=6)
    use(g, 0, "magic_missile", 1)
    assert g.cash(1) == 1480 and g.p(0).ep == 1
    with pytest.raises(IllegalActionError, match="one spell per turn"):
        use(g, 0, "magic_missile", 1)
    g.set(1, position=8)
    g2 = game("wizard", "commoner")
    g2.set(1, position=2)
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g2, 0, "magic_missile", 1)


def test_expeditious_retreat_doubles_next_roll(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=2)
    use(g, 0, "expeditious_retreat")
    g.roll(0, 1, 2)
    assert g.p(0).position == 6


def test_mage_armor_absorbs_once_and_does_not_stack(game: Any) -> None:
    g = game("wizard", "wizard")
    g.set(0, level=3)
    use(g, 0, "mage_armor")
    with pytest.raises(IllegalActionError):
        use(g, 0, "mage_armor")
    g.roll(0, 4, 6)
    g.act(EndTurn(0))
    g.set(1, position=10)
    use(g, 1, "magic_missile", 0)
    assert g.cash(0) == 1500 and g.p(0).enchantments == ()


def test_slow_one_die_and_slowed_fighter_running(game: Any) -> None:
    g = game("wizard", "fighter")
    g.set(0, level=4)
    g.set(1, level=2, position=2)
    use(g, 0, "slow", 1)
    g.roll(0, 4, 6)
    g.act(EndTurn(0))
    assert g.rules.roll_spec(g.state).sides == (6,)
    use(g, 1, "run")
    assert g.rules.roll_spec(g.state).sides == (6, 6)
    g.roll(1, 3, 3)  # one standard die + the extra: no doubles, no seven
    assert g.p(1).position == 8 and not g.state.roll_again


def test_invisibility_moves_without_passing_or_landing(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=5, position=36)
    g.own(39, 1, hotel=True)
    use(g, 0, "invisibility")
    g.roll(0, 1, 2)  # 36 -> 39 Boardwalk with a hotel: no rent
    assert g.cash(0) == 1500 and g.p(0).is_hidden
    g.roll(0, 1, 2) if g.state.roll_again else None


def test_charm_person_waives_next_rent_mental(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=6)
    g.set(1, position=2)
    g.own(6, 1)
    use(g, 0, "charm_person", 1)
    g.roll(0, 2, 4)
    assert g.cash(0) == 1500 and g.p(1).enchantments == ()
    g2 = game("wizard", "cleric")
    g2.set(0, level=6)
    g2.set(1, level=9, position=1)
    with pytest.raises(IllegalActionError, match="Ascended"):
        use(g2, 0, "charm_person", 1)


def test_counterspell_dispels_square_and_character_enchantments(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=7, position=6)
    g.state = g.rules.set_square_field(g.state, 6, "enchantments", "curse:3")
    use(g, 0, "counterspell", enchantment="curse", square=6)
    assert g.rules.square_json(g.state, 6)["enchantments"] == []


def test_fireball_destroys_buildings_after_rent_and_damages(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=8, position=1)
    g.set(1, position=6)
    g.own(6, 1, houses=3)
    g.roll(0, 2, 3)
    assert g.cash(0) == 1500 - 270
    use(g, 0, "fireball")
    assert g.state.squares[6].houses == 0 and g.cash(1) == 1500 + 270 - 160
    assert g.state.bank_houses == 32 + 3  # the burned houses go back to the bank


def test_telekinesis_onto_go_pays_only_200_and_no_landing_rent(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=9, position=36)
    g.set(1, position=37)
    use(g, 0, "telekinesis", 1, steps=3)
    assert g.p(1).position == 0 and g.cash(1) == 1700
    g2 = game("wizard", "commoner")
    g2.set(0, level=9, position=30)
    g2.set(1, position=32)
    g2.own(39, 0, hotel=True)
    use(g2, 0, "telekinesis", 1, steps=5)  # onto Boardwalk's hotel: no rent
    assert g2.p(1).position == 37 and g2.cash(1) == 1500


def test_telekinesis_cannot_target_jailed_or_hidden(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=9)
    g.set(1, position=10, in_jail=True)
    with pytest.raises(IllegalActionError, match="jail"):
        use(g, 0, "telekinesis", 1, steps=2)
    g.set(1, in_jail=False, hidden=True)
    with pytest.raises(IllegalActionError, match="hidden"):
        use(g, 0, "telekinesis", 1, steps=2)


def test_wish_modes_and_costs(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=10, position=6)
    use(g, 0, "wish", mode="own")
    assert g.state.squares[6].owner == 0 and g.cash(0) == 1450
    g2 = game("wizard", "commoner")
    g2.set(0, level=10, position=6)
    g2.own(6, 1)
    use(g2, 0, "wish", mode="hotel")
    assert g2.state.squares[6].hotel and g2.cash(0) == 1000
    g3 = game("wizard", "commoner")
    g3.set(0, level=10, position=6)
    g3.set(1, position=7)
    use(g3, 0, "wish", 1, spell="magic_missile")
    assert g3.cash(0) == 1490 and g3.cash(1) == 1300
    g4 = game("wizard", "commoner")
    g4.set(0, level=10, position=6)
    use(g4, 0, "wish", spell="bless")
    assert g4.cash(0) == 1450
    assert g4.rules.square_json(g4.state, 6)["enchantments"] == ["bless:10"]


def test_no_spells_in_jail(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, position=10, in_jail=True)
    g.set(1, position=10)
    with pytest.raises(IllegalActionError):
        use(g, 0, "magic_missile", 1)


def test_debt_from_damage_blocks_until_paid(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=5, position=3)
    g.set(1, position=3, cash=50)
    use(g, 0, "magic_missile", 1)
    assert isinstance(g.state.pending[0], Debt) and g.state.pending[0].amount == 100
