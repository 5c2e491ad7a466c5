"""Druid (Dungeonopoly, "Druid abilities"): primal enchantments on squares, Barkskin, Wild
Shape, Tree Stride, Call Lightning, Creeping Doom. Figures are exact; the text's Entangle
example is a vector."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Buy, Decline, EndTurn
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.abilities import Choose
from companion.games.monopoly.dungeonopoly.classes.druid import (
    ThornsChoice,
    TreeStrideChoice,
    barkskin_discount,
    doom_repairs,
    eagle_keep,
)
from companion.games.monopoly.dungeonopoly.terms import dungeon, square_enchantments
from companion.games.monopoly.pending import BuyDecision

PARK, LUX, BOARDWALK, GO, MEDIT = 37, 38, 39, 0, 1


def use(g: Any, seat: int, ability: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, ability, target, tuple((k, str(v)) for k, v in params.items())))


def setf(g: Any, seat: int, **fields: Any) -> None:
    """``g.set`` plus the choices/counters fields (parsed like a transcript's set line)."""
    from dataclasses import replace
    for key in ("choices", "counters"):
        if key in fields:
            p = g.rules.set_player_field(g.state.players[seat], key, str(fields.pop(key)))
            players = list(g.state.players)
            players[seat] = p
            g.state = replace(g.state, players=tuple(players))
    if fields:
        g.set(seat, **fields)


def druid(g: Any, seat: int = 0, level: int = 1, *spells: str, **fields: Any) -> None:
    choices = ",".join(f"primal:{s}" for s in spells)
    forms = fields.pop("forms", ())
    if forms:
        choices = ",".join(filter(None, [choices] + [f"form:{f}" for f in forms]))
    setf(g, seat, level=level, choices=choices, **fields)


def cast_here(g: Any, seat: int, spell: str, position: int) -> None:
    g.set(seat, position=position, spent="")
    use(g, seat, spell)


def squares_with(g: Any, name: str) -> list[int]:
    return [e.square for e in dungeon(g.state).enchantments if e.enchantment.name == name]


# --- choices ---------------------------------------------------------------------------------
def test_primal_spells_are_chosen_at_1_4_7_as_legal_actions(game: Any) -> None:
    g = game("druid", "commoner")
    offered = {a.option for a in g.rules.legal_actions(g.state)
               if isinstance(a, Choose) and a.what == "primal"}
    assert offered == {"entangle", "obscuring_mist", "hallow", "insect_plague",
                       "wall_of_thorns", "antimagic_field"}
    assert g.rules.player_json(g.state, 0)["choices_due"]["primal"]
    g.act(Choose(0, "primal", "entangle"))
    assert g.p(0).chosen("primal") == ("entangle",)
    assert not [a for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)]
    with pytest.raises(IllegalActionError, match="no 'primal' choice"):
        g.act(Choose(0, "primal", "hallow"))
    g.set(0, level=4)
    offered = {a.option for a in g.rules.legal_actions(g.state)
               if isinstance(a, Choose) and a.what == "primal"}
    assert "entangle" not in offered and len(offered) == 5
    g.act(Choose(0, "primal", "hallow"))
    g.set(0, level=7)
    g.act(Choose(0, "primal", "wall_of_thorns"))
    assert g.p(0).chosen("primal") == ("entangle", "hallow", "wall_of_thorns")
    assert g.rules.player_json(g.state, 0)["choices"] == [
        "primal:entangle", "primal:hallow", "primal:wall_of_thorns"]


def test_only_chosen_primal_spells_can_be_cast(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 1, "hallow")
    with pytest.raises(IllegalActionError, match="not one of your primal spells"):
        use(g, 0, "entangle")
    use(g, 0, "hallow")
    assert squares_with(g, "hallow") == [0]
    assert g.p(0).ep == 1


def test_one_square_per_primal_spell_recast_moves_it(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 4, "entangle", "hallow")
    cast_here(g, 0, "entangle", 5)
    g.set(0, turn=())
    cast_here(g, 0, "hallow", 5)
    g.set(0, turn=())
    cast_here(g, 0, "entangle", 12)
    assert squares_with(g, "entangle") == [12] and squares_with(g, "hallow") == [5]
    assert g.rules.square_json(g.state, 12)["enchantments"] == ["entangle:4"]


def test_primal_spell_single_use_until_go(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 1, "hallow")
    use(g, 0, "hallow")
    g.set(0, turn=())
    with pytest.raises(IllegalActionError, match="used up"):
        use(g, 0, "hallow")


# --- Entangle: the text's example as a vector ------------------------------------------------
@pytest.mark.parametrize("dice,end", [((1, 1), BOARDWALK), ((1, 2), BOARDWALK), ((1, 3), BOARDWALK),
                                      ((1, 4), GO), ((2, 4), MEDIT), ((3, 4), 2)])
def test_entangle_worked_example(game: Any, dice: tuple[int, int], end: int) -> None:
    g = game("commoner", "druid")
    druid(g, 1, 1, "entangle", position=BOARDWALK)
    use_entangle = UseAbility(1, "entangle")
    g.state = g.rules.apply(_as_turn_of(g, 1), use_entangle)[0]
    g.state = _as_turn_of(g, 0)
    g.set(0, position=PARK)
    g.roll(0, *dice)
    assert g.p(0).position == end
    if end == MEDIT:  # "6 to Mediterranean Avenue", collecting $200 for passing GO
        assert g.cash(0) == 1700
    if end == GO:
        assert g.cash(0) == 1900  # landing on GO pays $400


def _as_turn_of(g: Any, seat: int) -> Any:
    from dataclasses import replace
    return replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0)


def test_entangle_spares_its_druid_and_unpassing_moves(game: Any) -> None:
    g = game("druid", "rogue")
    druid(g, 0, 1, "entangle", position=BOARDWALK)
    use(g, 0, "entangle")
    g.state = _as_turn_of(g, 0)
    g.set(0, position=PARK, turn=())
    g.roll(0, 1, 2)  # the druid herself: 38, 39, GO
    assert g.p(0).position == GO
    g.state = _as_turn_of(g, 1)
    g.set(1, position=PARK, skills="sneak:15")
    use(g, 1, "sneak")
    g.roll(1, 10)  # check passes
    g.roll(1, 3)  # 1d6 sneaking: no passing, so no extra cost
    assert g.p(1).position == GO


# --- Obscuring Mist, Hallow, Insect Plague ----------------------------------------------------
def test_obscuring_mist_hides_characters_on_the_square(game: Any) -> None:
    g = game("druid", "wizard")
    druid(g, 0, 1, "obscuring_mist", position=6)
    use(g, 0, "obscuring_mist")
    assert g.rules.player_json(g.state, 0)["hidden"]
    g.state = _as_turn_of(g, 1)
    g.set(1, position=5)
    with pytest.raises(IllegalActionError, match="hidden"):
        use(g, 1, "magic_missile", 0)
    g.set(1, level=4, position=6, enchantments="glitterdust")
    use(g, 1, "slow", 1)  # any action makes the table re-read who stands in the mist
    assert not g.rules.player_json(g.state, 1)["hidden"]  # Glitterdust: unaffected
    assert g.p(1).enchanted("glitterdust") is not None  # and it persists


def test_mist_ends_when_leaving_the_square(game: Any) -> None:
    g = game("commoner", "druid")
    druid(g, 1, 1, "obscuring_mist", position=10)
    g.state = g.rules.apply(_as_turn_of(g, 1), UseAbility(1, "obscuring_mist"))[0]
    g.state = _as_turn_of(g, 0)
    g.set(0, position=8)
    g.roll(0, 1, 1)  # doubles onto the mist square (Just Visiting)
    assert g.rules.player_json(g.state, 0)["hidden"]
    g.roll(0, 1, 2)
    assert g.p(0).position == 13 and not g.rules.player_json(g.state, 0)["hidden"]


def test_hallow_blocks_damage_no_ep(game: Any) -> None:
    g = game("fighter", "druid")
    druid(g, 1, 1, "hallow", position=6)
    g.state = g.rules.apply(_as_turn_of(g, 1), UseAbility(1, "hallow"))[0]
    g.state = _as_turn_of(g, 0)
    g.set(0, position=6, level=3)
    ep = g.p(0).ep
    use(g, 0, "attack", 1)
    assert g.cash(1) == 1500 and g.p(0).ep == ep and "protected" in g.kinds()


def test_insect_plague_stops_abilities_on_the_square(game: Any) -> None:
    g = game("fighter", "druid")
    druid(g, 1, 1, "insect_plague", position=6)
    g.state = g.rules.apply(_as_turn_of(g, 1), UseAbility(1, "insect_plague"))[0]
    g.state = _as_turn_of(g, 0)
    g.set(0, position=6)
    assert not [a for a in g.rules.legal_actions(g.state) if isinstance(a, UseAbility)]
    with pytest.raises(IllegalActionError, match="Insect Plague"):
        use(g, 0, "attack", 1)
    g.set(0, position=7)
    g.set(1, position=7)
    use(g, 0, "attack", 1)
    assert g.cash(1) == 1480


# --- Wall of Thorns ----------------------------------------------------------------------------
def thorns_game(game: Any) -> Any:
    g = game("commoner", "druid")
    druid(g, 1, 3, "wall_of_thorns", position=8)
    g.state = g.rules.apply(_as_turn_of(g, 1), UseAbility(1, "wall_of_thorns"))[0]
    g.state = _as_turn_of(g, 0)
    g.set(0, position=6)
    g.roll(0, 2, 3)  # 6 -> 11 passes Vermont (8)
    return g


def test_wall_of_thorns_choose_stop_lands_there(game: Any) -> None:
    g = thorns_game(game)
    head = g.state.pending[0]
    assert isinstance(head, ThornsChoice) and g.p(0).position == 8
    g.act(Choose(0, "thorns", "stop"))
    assert g.p(0).position == 8 and isinstance(g.state.pending[0], BuyDecision)
    assert g.cash(0) == 1500


def test_wall_of_thorns_choose_damage_goes_on(game: Any) -> None:
    g = thorns_game(game)
    g.act(Choose(0, "thorns", "damage"))
    assert g.cash(0) == 1500 - 60  # the druid's level 3: $60
    assert g.p(0).position == 11 and isinstance(g.state.pending[0], BuyDecision)
    assert g.money_ok()


def test_wall_of_thorns_spares_its_druid(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, "wall_of_thorns", position=8)
    use(g, 0, "wall_of_thorns")
    g.state = _as_turn_of(g, 0)
    g.set(0, position=6, turn=())
    g.roll(0, 2, 3)
    assert g.p(0).position == 11 and not isinstance(g.state.pending[0], ThornsChoice)


# --- Antimagic Field ---------------------------------------------------------------------------
def test_antimagic_suppresses_bless_and_restores_it_when_moved(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 1, "antimagic_field", position=6)
    g.own(6, 1)
    g.state = g.rules.set_square_field(g.state, 6, "enchantments", "bless:10")
    use(g, 0, "antimagic_field")
    assert [e.name for e in square_enchantments(g.state, 6)] == ["antimagic_field"]
    g.state = _as_turn_of(g, 0)
    g.set(0, position=4, turn=())
    g.roll(0, 1, 1)  # lands on Oriental: base rent $6, not the blessed $9
    assert g.cash(0) == 1494
    g.set(0, position=12, spent="", turn=())
    use(g, 0, "antimagic_field")  # the field moves to the Electric Company
    assert sorted(e.name for e in square_enchantments(g.state, 6)) == ["bless"]


def test_antimagic_suppresses_character_enchantments_and_spells(game: Any) -> None:
    g = game("fighter", "druid", "wizard")
    druid(g, 1, 1, "antimagic_field", position=6)
    g.state = g.rules.apply(_as_turn_of(g, 1), UseAbility(1, "antimagic_field"))[0]
    g.state = _as_turn_of(g, 2)
    g.own(6, 0)
    g.set(2, level=4, position=4, enchantments="mage_armor")
    g.roll(2, 1, 1)  # the wizard walks into the field: her Mage Armor is set aside
    assert g.p(2).enchantments == ()
    assert g.rules.player_json(g.state, 2)["suppressed"] == ["mage_armor:4"]
    with pytest.raises(IllegalActionError, match="Antimagic"):
        use(g, 2, "magic_missile", 1)
    g.state = _as_turn_of(g, 0)
    g.set(0, position=6, level=2)
    use(g, 0, "attack", 2)
    assert g.cash(2) == 1500 - 6 - 40  # rent $6, then no Mage Armor to absorb the attack
    g.state = _as_turn_of(g, 2)
    g.roll(2, 1, 2)  # leaving the field brings the Mage Armor back
    assert g.p(2).enchanted("mage_armor") is not None


def test_antimagic_blocks_enchanting_characters_on_it(game: Any) -> None:
    g = game("wizard", "druid")
    druid(g, 1, 1, "antimagic_field", position=6)
    g.state = g.rules.apply(_as_turn_of(g, 1), UseAbility(1, "antimagic_field"))[0]
    g.state = _as_turn_of(g, 0)
    g.set(0, level=4, position=5)
    use(g, 0, "slow", 1)
    assert g.p(1).enchanted("slow") is None and "suppressed" in g.kinds()


# --- Barkskin -------------------------------------------------------------------------------
def test_barkskin_takes_25_per_level_off_the_next_sum_once(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 2, position=1)
    use(g, 0, "barkskin")
    with pytest.raises(IllegalActionError):
        use(g, 0, "barkskin")
    g.roll(0, 1, 2)  # Income Tax $200 -> $150 at level 2
    assert g.cash(0) == 1350 and g.state.pot == 150
    assert g.p(0).enchanted("barkskin") is None
    assert barkskin_discount(40, 2) == 1 and barkskin_discount(650, 3) == 575


def test_barkskin_ignores_purchases(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 2, position=1)
    use(g, 0, "barkskin")
    g.roll(0, 2, 3)  # Oriental Avenue, $100
    g.act(Buy(0))
    assert g.cash(0) == 1400 and g.p(0).enchanted("barkskin") is not None


# --- Wild Shape --------------------------------------------------------------------------------
def test_forms_chosen_at_3_6_9_and_one_shift_per_turn_no_ep(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, "hallow")
    assert {a.option for a in g.rules.legal_actions(g.state)
            if isinstance(a, Choose) and a.what == "form"} == {"bear", "eagle", "wolf"}
    g.act(Choose(0, "form", "bear"))
    g.set(0, level=6)
    g.act(Choose(0, "form", "wolf"))
    g.set(0, level=9)
    g.act(Choose(0, "form", "eagle"))
    assert g.p(0).chosen("form") == ("bear", "wolf", "eagle")
    ep = g.p(0).ep
    use(g, 0, "wild_shape", form="bear")
    assert g.p(0).ep == ep and g.rules.player_json(g.state, 0)["form"] == "bear"
    with pytest.raises(IllegalActionError, match="one shift per turn"):
        use(g, 0, "wild_shape", form="humanoid")
    with pytest.raises(IllegalActionError, match="animal form"):
        use(g, 0, "hallow")


def test_unmastered_form_refused(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, forms=("bear",))
    with pytest.raises(IllegalActionError, match="not mastered"):
        use(g, 0, "wild_shape", form="eagle")


def test_bear_maul_double_damage(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, forms=("bear",), position=6, counters="form:1")
    g.set(1, position=6)
    use(g, 0, "maul", 1)
    assert g.cash(1) == 1500 - 120  # $40 x level 3
    with pytest.raises(IllegalActionError, match="once per turn"):
        use(g, 0, "maul", 1)
    setf(g, 0, counters="")
    with pytest.raises(IllegalActionError, match="bear form"):
        use(g, 0, "maul", 1)


def test_eagle_rolls_3d6_and_drops_the_lowest(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, forms=("eagle",), counters="form:2")
    assert g.rules.roll_spec(g.state).sides == (6, 6, 6)
    g.roll(0, 6, 1, 5)  # keeps 6 + 5 = 11
    assert g.p(0).position == 11 and not g.state.roll_again
    assert eagle_keep((3, 1, 3)) == (3, 3)


def test_eagle_doubles_on_the_kept_dice(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, forms=("eagle",), counters="form:2")
    g.roll(0, 2, 1, 2)
    assert g.p(0).position == 4 and g.state.roll_again


def test_wolf_scent_moves_to_an_opponent_in_range_and_lands(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 3, forms=("wolf",), position=4, counters="form:3")
    g.own(6, 1)
    g.set(1, position=6)
    use(g, 0, "scent", 1)
    assert g.p(0).position == 6 and g.cash(0) == 1494  # landed: rent $6
    with pytest.raises(IllegalActionError, match="once per turn"):
        use(g, 0, "scent", 1)
    g2 = game("druid", "commoner")
    druid(g2, 0, 3, forms=("wolf",), position=4, counters="form:3")
    g2.set(1, position=7)  # level 3: range 2
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g2, 0, "scent", 1)


# --- Tree Stride -------------------------------------------------------------------------------
def test_tree_stride_discards_doubles_and_lands_on_own_lot(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 5)
    g.own(39, 0)
    g.roll(0, 3, 3)
    assert isinstance(g.state.pending[0], TreeStrideChoice)
    ep = g.p(0).ep
    use(g, 0, "tree_stride", square=39)
    assert g.p(0).position == 39 and not g.state.roll_again
    assert g.p(0).ep == ep + 1  # the spell's EP, none for the discarded doubles
    assert "doubles" not in g.kinds()
    g.act(EndTurn(0))


def test_tree_stride_pass_moves_normally(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 5)
    g.own(39, 0)
    g.roll(0, 3, 3)
    ep = g.p(0).ep
    g.act(Pass(0))
    assert g.p(0).position == 6 and g.state.roll_again and g.p(0).ep == ep + 1  # doubles


def test_tree_stride_not_on_third_doubles_or_without_lots(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 5)
    g.roll(0, 3, 3)
    assert not g.state.pending or not isinstance(g.state.pending[0], TreeStrideChoice)
    g2 = game("druid", "commoner")
    druid(g2, 0, 5)
    g2.own(39, 0)
    from dataclasses import replace
    g2.state = replace(g2.state, doubles=2, rolled=True, roll_again=True)
    g2.roll(0, 2, 2)
    assert g2.p(0).in_jail


# --- Call Lightning ----------------------------------------------------------------------------
def test_call_lightning_three_kinds_of_bolt(game: Any) -> None:
    g = game("druid", "commoner", "commoner")
    druid(g, 0, 8, position=8)
    g.set(1, position=6)
    g.own(9, 2, houses=2)
    g.own(11, 2)
    use(g, 0, "call_lightning", bolts="6:damage:Bob,9:house,11:mortgage,10:house")
    assert g.cash(1) == 1500 - 160
    assert g.state.squares[9].houses == 1 and g.state.squares[11].mortgaged
    assert g.cash(2) == 1500  # no loan for the mortgage
    assert g.money_ok()


def test_call_lightning_limits(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 8, position=20)
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "call_lightning", bolts="25:house")
    with pytest.raises(IllegalActionError, match="different square"):
        use(g, 0, "call_lightning", bolts="21:house,21:mortgage")
    many = ",".join(f"{s}:house" for s in range(16, 24))
    with pytest.raises(IllegalActionError, match="at most 7"):
        use(g, 0, "call_lightning", bolts=many)


def test_call_lightning_blessed_lot_keeps_its_house(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 8, position=8)
    g.own(9, 1, houses=1)
    g.state = g.rules.set_square_field(g.state, 9, "enchantments", "bless:3")
    use(g, 0, "call_lightning", bolts="9:house")
    assert g.state.squares[9].houses == 1


# --- Creeping Doom -----------------------------------------------------------------------------
def test_creeping_doom_repairs_vector_and_damage(game: Any) -> None:
    g = game("druid", "commoner", "commoner")
    druid(g, 0, 10, position=PARK)
    g.own(PARK, 1, houses=3)
    g.own(BOARDWALK, 1, hotel=True)
    g.set(1, position=BOARDWALK)
    g.set(2, position=PARK)
    assert doom_repairs(g.rules, g.state, (PARK, BOARDWALK)) == {1: 3 * 40 + 115}
    use(g, 0, "creeping_doom")
    assert g.cash(1) == 1500 - 200 - 235 and g.cash(2) == 1500 - 200
    assert g.state.squares[PARK].houses == 3 and g.state.squares[BOARDWALK].hotel
    assert g.money_ok()


def test_creeping_doom_needs_a_property(game: Any) -> None:
    g = game("druid", "commoner")
    druid(g, 0, 10, position=GO)
    with pytest.raises(IllegalActionError, match="property"):
        use(g, 0, "creeping_doom")


def test_declined_buy_after_thorns_stop_is_auctioned(game: Any) -> None:
    g = thorns_game(game)
    g.act(Choose(0, "thorns", "stop"))
    g.act(Decline(0))
    assert g.state.pending and g.state.pending[0].__class__.__name__ == "Auction"
