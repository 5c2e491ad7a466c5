"""Rulings and rule gaps with a test of their own (docs/dungeonopoly/rulings.md):
each test names the ruling it pins down."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.dungeonopoly import Pass, UseAbility


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def turn(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0)
    g.set(seat, turn=())


# --- quicker game: 5 EP per level everywhere a level comes from EP (D-71) ----------------------
def test_quicker_game_referee_correction_uses_5_ep_per_level() -> None:
    from companion.core.registry import find_game
    from companion.transcript import header_lines, replay

    rules = find_game("dungeonopoly")
    state = rules.new_game([("Ann", "warlock"), ("Bob", "psion")],
                           replace(rules.default_options(), quicker_game=True), seed=1)
    lines = header_lines(rules, state, ["warlock", "psion"])
    after = replay("\n".join(lines + ["set player Ann ep=12", "set player Bob level=4"])).state
    assert [(p.ep, p.level) for p in after.players] == [(12, 3), (15, 4)]
    plain = rules.new_game([("Ann", "warlock"), ("Bob", "psion")], seed=1)
    lines = header_lines(rules, plain, ["warlock", "psion"])
    after = replay("\n".join(lines + ["set player Ann ep=12", "set player Bob level=4"])).state
    assert [(p.ep, p.level) for p in after.players] == [(12, 2), (30, 4)]


def test_quicker_game_set_ep_caps_at_level_10(rules: Any) -> None:
    state = rules.new_game([("Ann", "fighter"), ("Bob", "wizard")],
                           replace(rules.default_options(), quicker_game=True), seed=1)
    p = rules.set_player_field(state.players[0], "ep", "47")
    assert (p.ep, p.level) == (47, 10)
    p = rules.set_player_field(state.players[0], "ep", "44")
    assert p.level == 9


# --- D-26: Insect Plague blocks abilities used by choice, Rob Bank's offer too ----------------
def test_rob_bank_is_not_offered_on_an_insect_plague(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.character import Enchantment
    from companion.games.monopoly.dungeonopoly.steps import RobBankChoice
    from companion.games.monopoly.dungeonopoly.terms import dungeon, with_square_enchantment

    g = game("rogue", "druid")
    g.set(0, skills="rob_bank:10", position=38)
    g.state = replace(g.state, table=with_square_enchantment(
        dungeon(g.state), 0, Enchantment("insect_plague", 1, 7)))
    turn(g, 0)
    g.roll(0, 1, 1)  # 38 -> GO: landing pays $400 unless she robs the bank
    assert isinstance(g.state.pending[0], RobBankChoice)
    legal = g.rules.legal_actions(g.state)
    assert not any(isinstance(a, UseAbility) for a in legal)
    with pytest.raises(IllegalActionError, match="Insect Plague"):
        use(g, 0, "rob_bank")
    g.act(Pass(0))
    assert g.cash(0) == 1500 + 400


# --- D-46: Glitterdust's fizzle takes Invisibility's unseen movement with it -------------------
def test_fizzled_invisibility_moves_seen_and_pays_rent(game: Any) -> None:
    g = game("wizard", "bard")
    g.own(8, 1)  # Vermont Avenue, $6 rent
    g.set(0, level=5, position=5, enchantments="glitterdust")
    turn(g, 0)
    use(g, 0, "invisibility")
    assert "hiding_fizzled" in g.kinds() and g.p(0).ep == 40  # no EP for a fizzled spell
    assert "invisibility" in g.p(0).spent or "invisible" not in g.p(0).turn
    g.roll(0, 1, 2)  # 5 -> 8: she lands (and pays) like anyone seen
    assert g.p(0).position == 8 and g.cash(0) == 1500 - 6 and g.cash(1) == 1500 + 6
    assert not g.p(0).is_hidden


def test_invisibility_without_glitterdust_still_skips_rent(game: Any) -> None:
    g = game("wizard", "bard")
    g.own(8, 1)
    g.set(0, level=5, position=5)
    turn(g, 0)
    use(g, 0, "invisibility")
    g.roll(0, 1, 2)
    assert g.p(0).position == 8 and g.cash(0) == 1500 and g.p(0).is_hidden


# --- D-57: Intellect Fortress against area uses -----------------------------------------------
def test_intellect_fortress_shelters_everyone_in_range_from_a_fireball(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.psion import FortressChance, pp_left

    g = game("wizard", "psion", "commoner", "commoner")
    g.set(0, level=8, position=12)  # Fireball on Electric Company... on square 12
    g.set(1, level=9, position=14)  # the psion, 2 away: range 5 holds square 12
    g.set(2, position=12)
    g.set(3, position=12)
    turn(g, 0)
    use(g, 0, "fireball")
    head = g.state.pending[0]
    assert isinstance(head, FortressChance) and head.area
    use(g, 1, "intellect_fortress")
    # both commoners on 12 were inside the fortress: nobody takes the $160
    assert g.cash(2) == 1500 and g.cash(3) == 1500 and pp_left(g.p(1)) == 9 - 5
    assert g.p(0).ep == 70  # level 8's 70 EP: the Fireball hit nothing, no EP


def test_intellect_fortress_spares_only_those_inside(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.psion import FortressChance

    g = game("cleric", "psion", "commoner", "commoner")
    g.set(0, level=10, position=30)
    g.set(1, level=9, position=2)  # range 5: squares 37 ... 7
    g.set(2, position=6)  # inside
    g.set(3, position=20)  # outside
    turn(g, 0)
    use(g, 0, "wrath_of_god")
    assert isinstance(g.state.pending[0], FortressChance)
    use(g, 1, "intellect_fortress")
    assert (g.cash(1), g.cash(2), g.cash(3)) == (1500, 1500, 1500 - 200)
    assert g.cash(0) == 1500 - 300 and g.p(0).ep == 91  # it still hit someone: 90 + 1


def test_intellect_fortress_pass_on_an_area_use(game: Any) -> None:
    g = game("wizard", "psion", "commoner")
    g.set(0, level=8, position=12)
    g.set(1, level=9, position=14)
    g.set(2, position=12)
    turn(g, 0)
    use(g, 0, "fireball")
    g.act(Pass(1))
    assert g.cash(2) == 1500 - 160


# --- Wish duplicating a primal spell (property-test regression, D-33) ------------------------
def test_wish_may_duplicate_a_primal_spell_on_go(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.terms import square_enchanted

    g = game("fighter", "wizard", "cleric", "rogue")
    g.set(1, level=10, position=0)
    turn(g, 1)
    use(g, 1, "wish", spell="obscuring_mist")
    mist = square_enchanted(g.state, 0, "obscuring_mist")
    assert mist is not None and mist.source == 1 and g.cash(1) == 1500 - 10
    # Bless still needs a property: GO is refused
    turn(g, 2)
    g.set(2, level=1, position=0)
    with pytest.raises(IllegalActionError, match="only on a property"):
        use(g, 2, "bless")


# --- D-6: a character who ran uses no other class ability; Bardic Music is not offered -------
def test_no_melody_offered_to_a_bard_who_ran(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.bard import MelodyChoice

    g = game("bard", "commoner")
    g.own(8, 1)  # Vermont Avenue: $6
    g.set(0, level=2, position=5)
    g.state = replace(g.state, players=(g.rules.set_player_field(
        g.p(0), "choices", "melody:dirge_of_doom"),) + g.state.players[1:])
    turn(g, 0)
    g.set(0, turn=("ran",))
    g.roll(0, 1, 2)
    assert not any(isinstance(x, MelodyChoice) for x in g.state.pending)
    assert g.cash(0) == 1500 - 6 and g.cash(1) == 1506
    g.set(0, position=5, turn=())
    turn(g, 0)
    g.roll(0, 1, 2)  # without running, the melody is offered
    assert isinstance(g.state.pending[0], MelodyChoice)


def setf(g: Any, seat: int, **fields: str) -> None:
    """Fields parsed like a transcript's ``set player`` line (choices, counters ...)."""
    p = g.state.players[seat]
    for key, value in fields.items():
        p = g.rules.set_player_field(p, key, value)
    players = list(g.state.players)
    players[seat] = p
    g.state = replace(g.state, players=tuple(players))


# --- D-22: each druid has her own one-square-per-spell limit; Counterspell dispels a primal ---
def test_two_druids_each_keep_an_entangle_and_counterspell_dispels_one(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.terms import square_enchanted

    g = game("druid", "druid", "wizard")
    for seat, square in ((0, 5), (1, 15)):
        setf(g, seat, choices="primal:entangle", level="1")
        g.set(seat, position=square)
        turn(g, seat)
        use(g, seat, "entangle")
    assert square_enchanted(g.state, 5, "entangle") is not None
    assert square_enchanted(g.state, 15, "entangle") is not None
    g.set(2, level=7, position=14)
    turn(g, 2)
    use(g, 2, "counterspell", enchantment="entangle", square=15)
    assert square_enchanted(g.state, 15, "entangle") is None
    assert square_enchanted(g.state, 5, "entangle") is not None


# --- D-28: a slowed eagle rolls 2d6 and keeps the higher die -----------------------------------
def test_slowed_eagle_keeps_the_higher_of_two_dice(game: Any) -> None:
    g = game("druid", "commoner")
    setf(g, 0, choices="form:eagle", counters="form:2", level="3", enchantments="slow:4:1")
    turn(g, 0)
    assert g.rules.roll_spec(g.state).sides == (6, 6)
    g.roll(0, 2, 5)
    assert g.p(0).position == 5 and not g.state.roll_again


# --- D-38: Knight's Move onto GO pays the landing $400 whichever the direction ----------------
def test_knights_move_onto_go_pays_400_both_ways(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=5, position=37)
    turn(g, 0)
    use(g, 0, "knights_move", steps=3)
    assert g.p(0).position == 0 and g.cash(0) == 1500 + 400
    g.set(0, position=3)
    turn(g, 0)  # landing on GO refreshed the single-use move
    use(g, 0, "knights_move", steps=-3)
    assert g.p(0).position == 0 and g.cash(0) == 1500 + 800


# --- D-49: PP = level - spent, so a level gained mid-lap adds its point; landing on GO refills --
def test_pp_follow_the_level_and_landing_on_go_refills(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.psion import pp_left

    g = game("psion", "commoner")
    g.set(0, level=2, position=36)
    g.set(1, position=37)
    turn(g, 0)
    use(g, 0, "mind_thrust", 1, pp=2)
    assert pp_left(g.p(0)) == 0 and g.cash(1) == 1500 - 30
    g.set(0, level=3)
    assert pp_left(g.p(0)) == 1
    g.roll(0, 1, 3)  # 36 -> GO exactly
    assert g.p(0).position == 0 and pp_left(g.p(0)) == 3 and g.cash(0) == 1500 + 400


# --- D-50: powers do not reach into jail cells ---------------------------------------------------
def test_no_power_at_a_jailed_target(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=5, position=10)  # Just Visiting
    g.set(1, position=10, in_jail=True)
    turn(g, 0)
    with pytest.raises(IllegalActionError, match="jail"):
        use(g, 0, "mind_thrust", 1, pp=1)
    assert g.cash(1) == 1500


# --- D-54: Thought Leech never draws back the psion's own enchantment -------------------------
def test_thought_leech_refuses_her_own_enchantment(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=5, position=5)
    g.set(1, position=6, enchantments="ego_whip:5:0,mage_armor:3:1")
    turn(g, 0)
    with pytest.raises(IllegalActionError, match="your own ego whip"):
        use(g, 0, "thought_leech", 1, take="ego_whip")
    use(g, 0, "thought_leech", 1, take="mage_armor")
    assert g.p(0).enchanted("mage_armor") is not None and g.p(1).enchanted("mage_armor") is None


# --- D-56: Psionic Blast throws those on her square backwards with same=back, hidden ones too,
# and leaves a paladin in Bulwark of Defense where she is ---------------------------------------
def test_psionic_blast_same_square_back_hidden_and_pinned(game: Any) -> None:
    g = game("psion", "commoner", "paladin")
    g.set(0, level=8, position=20)  # range 4
    g.set(1, position=20, hidden=True)
    g.set(2, level=4, position=21, turn=("stance:bulwark_of_defense",))
    turn(g, 0)
    use(g, 0, "psionic_blast", same="back")
    assert g.p(1).position == 15 and g.p(2).position == 21


# --- D-66: a slowed warlock's luck rolls 2d6 and keeps one ------------------------------------
def test_slowed_warlock_luck_rolls_two_keeps_one(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.abilities import Choose

    g = game("warlock", "commoner")
    g.set(0, level=7, choices=(("pact", "infernal"),), enchantments="slow:4:1")
    turn(g, 0)
    use(g, 0, "dark_ones_own_luck")
    assert g.rules.roll_spec(g.state).sides == (6, 6)
    g.roll(0, 2, 6)
    g.act(Choose(0, "keep", "2"))
    assert g.p(0).position == 6


# --- D-55: Counterspell on a demiplane's enchantment collapses it; the card goes back ----------
def test_counterspell_collapses_a_demiplane_and_returns_its_card(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.terms import dungeon


    g = game("psion", "wizard")
    g.set(0, level=7, position=5)
    turn(g, 0)
    use(g, 0, "genesis", after=6, deck="chance", card="go_to_jail")
    assert "go_to_jail" not in g.state.chance
    g.set(1, level=7, position=6)
    turn(g, 1)
    use(g, 1, "counterspell", enchantment="genesis", square=6)
    assert not dungeon(g.state).demiplanes
    assert g.state.chance[-1] == "go_to_jail"


# --- D-55 / "the polarity of the target applies": Telekinesis on a psion ----------------------
def test_telekinesis_on_a_psion_follows_her_demiplanes(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.genesis import demiplane_of

    g = game("psion", "wizard", "commoner")
    g.set(0, level=7, position=5)
    turn(g, 0)
    use(g, 0, "genesis", after=6, deck="community_chest", card="bank_error")
    g.set(1, level=9, position=5)
    g.set(2, position=5)
    turn(g, 1)
    use(g, 1, "telekinesis", 0, steps=2)  # 6, then her demiplane: no card (no landing)
    assert demiplane_of(g.state, 0) == 6 and g.cash(0) == 1500 - 40
    turn(g, 1)
    g.set(1, spent="")
    use(g, 1, "telekinesis", 2, steps=2)  # the commoner's world has no demiplane: 7
    assert g.p(2).position == 7


# --- D-43: Cutting Words never hurts the bard herself ------------------------------------------
def test_cutting_words_spares_a_bard_who_owns_the_lot(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.bard import MelodyChoice

    g = game("bard", "commoner")
    g.own(8, 0)  # her own Vermont Avenue ($6)
    setf(g, 0, choices="melody:cutting_words", level="2")
    g.set(0, position=8)
    g.set(1, position=5)
    turn(g, 1)
    g.roll(1, 1, 2)
    assert isinstance(g.state.pending[0], MelodyChoice)
    use(g, 0, "bardic_music", melody="cutting_words")
    assert g.cash(0) == 1500 + 6 and g.cash(1) == 1500 - 6


# --- D-32: Creeping Doom: the druid pays for her own buildings; hidden opponents are hit,
# jailed ones are not -------------------------------------------------------------------------
def test_creeping_doom_druid_pays_her_own_repairs_hidden_hit_jailed_spared(game: Any) -> None:
    g = game("druid", "commoner", "commoner")
    setf(g, 0, level="10")
    g.set(0, position=6)  # Oriental Avenue: the light blue set is 6, 8, 9
    g.own(6, 0, houses=2)
    g.own(8, 0, houses=2)
    g.own(9, 0, houses=2)
    g.set(1, position=9, hidden=True)
    g.set(2, position=10, in_jail=True)
    turn(g, 0)
    use(g, 0, "creeping_doom")
    assert g.cash(0) == 1500 - 6 * 40  # her own six houses: $240
    assert g.cash(1) == 1500 - 200 and g.cash(2) == 1500  # $20 x level 10


# --- D-31: a house bolt takes a hotel down to four houses; a hidden opponent can be struck ---
def test_call_lightning_hotel_to_four_houses_and_a_hidden_target(game: Any) -> None:
    g = game("druid", "commoner")
    setf(g, 0, level="8")
    g.set(0, position=20)  # range 4
    g.own(21, 1, hotel=True)
    g.set(1, position=23, hidden=True)
    houses = g.state.bank_houses
    turn(g, 0)
    use(g, 0, "call_lightning", bolts="21:house,23:damage:1")
    assert not g.state.squares[21].hotel and g.state.squares[21].houses == 4
    assert g.state.bank_houses == houses - 4 and g.cash(1) == 1500 - 160


# --- D-51: Ego Whip's forfeited move lands on her square again: on GO she collects $400 ------
def test_ego_whip_on_go_collects_the_landing_pay(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=3, position=39)
    g.set(1, position=0)
    turn(g, 0)
    use(g, 0, "ego_whip", 1)
    turn(g, 1)
    g.roll(1, 2, 2)
    assert g.p(1).position == 0 and g.cash(1) == 1500 + 400 and not g.state.roll_again


# --- D-68: Crown of Madness never forces a power (PP are a cost) ------------------------------
def test_crown_of_madness_refuses_a_power(game: Any) -> None:
    g = game("warlock", "psion", "commoner")
    g.set(0, level=10, position=5, choices=(("pact", "infernal"),))
    g.set(1, level=5, position=6)
    g.set(2, position=7)
    turn(g, 0)
    with pytest.raises(IllegalActionError, match="cannot be forced"):
        use(g, 0, "crown_of_madness", 1, ability="mind_thrust", on=2, pp=1)
    assert g.cash(0) == 1500 and g.cash(2) == 1500


# --- D-70: listed value counts a Get Out of Jail Free card at $50 ----------------------------
def test_strict_politics_values_a_jail_card_at_50(game: Any) -> None:
    from companion.games.monopoly.actions import Trade, TradeSide

    g = game("fighter", "wizard", strict_politics=True)
    g.set(0, jail_cards=("chance",))
    with pytest.raises(IllegalActionError, match="listed value"):
        g.act(Trade(0, 1, TradeSide(jail_cards=("chance",)), TradeSide(cash=40)))
    g.act(Trade(0, 1, TradeSide(jail_cards=("chance",)), TradeSide(cash=50)))
    assert g.p(1).jail_cards == ("chance",) and g.cash(0) == 1550


# --- D-41: Heart of the Titan's reservoir refills on landing on GO too --------------------------
def test_heart_of_the_titan_refills_on_landing_on_go(game: Any) -> None:
    g = game("paladin", "commoner")
    setf(g, 0, level="9", counters="titan_spent:300")
    g.set(0, position=38)
    assert g.rules.player_json(g.state, 0)["reservoir"] == 200
    turn(g, 0)
    g.roll(0, 1, 1)
    assert g.p(0).position == 0 and g.rules.player_json(g.state, 0)["reservoir"] == 500


# --- D-30: once Tree Stride is chosen the doubles are gone, even when it is countered ---------
def test_countered_tree_stride_still_discards_the_doubles(game: Any) -> None:
    g = game("druid", "wizard")
    setf(g, 0, level="5")
    g.own(39, 0)
    g.set(1, level=7, position=20)
    turn(g, 0)
    g.roll(0, 3, 3)
    use(g, 0, "tree_stride", square=39)
    use(g, 1, "counterspell", 0, react=1)
    assert g.p(0).position == 0 and not g.state.roll_again
    assert "doubles" not in g.kinds()


# --- D-36: a mounted paladin's rolls from jail stay 2d6 and do not count ----------------------
def test_mounted_roll_from_jail_is_2d6_and_does_not_count(game: Any) -> None:
    g = game("paladin", "commoner")
    setf(g, 0, level="3", counters="mounted:1,mount_moves:1")
    g.set(0, position=10, in_jail=True)
    turn(g, 0)
    assert g.rules.roll_spec(g.state).sides == (6, 6)
    g.roll(0, 1, 2)
    assert g.p(0).in_jail and g.p(0).counter("mount_moves") == 1


# --- D-27: Barkskin does not cut the voluntary jail fee (a purchase of freedom) --------------
def test_barkskin_leaves_the_voluntary_jail_fee_alone(game: Any) -> None:
    from companion.games.monopoly.actions import PayJail

    g = game("druid", "commoner")
    setf(g, 0, level="2", enchantments="barkskin:2:0")
    g.set(0, position=10, in_jail=True)
    turn(g, 0)
    g.act(PayJail(0))
    assert g.cash(0) == 1500 - 50 and g.p(0).enchanted("barkskin") is not None


# --- D-47: Bardic Knowledge may follow doubles; it ends the rolling ----------------------------
def test_bardic_knowledge_after_doubles_ends_the_rolling(game: Any) -> None:
    g = game("bard", "commoner")
    setf(g, 0, level="7")
    turn(g, 0)
    g.roll(0, 1, 1)  # to 2 (Community Chest), doubles: she rolls again
    while g.state.pending:
        g.act(g.rules.legal_actions(g.state, g.rules.deciders(g.state))[0])
    assert g.state.roll_again
    use(g, 0, "bardic_knowledge")
    assert g.p(0).position == 9 and not g.state.roll_again


# --- D-39: Divine Grace waives what she owes, not what she chooses to buy ----------------------
def test_divine_grace_still_pays_for_a_purchase(game: Any) -> None:
    from companion.games.monopoly.actions import Buy

    g = game("paladin", "commoner")
    setf(g, 0, level="6")
    g.set(0, position=4)
    turn(g, 0)
    g.roll(0, 1, 1)  # 4 -> 6 Oriental Avenue ($100), under Divine Grace
    assert g.p(0).has_flag("divine_grace")
    cash = g.cash(0)
    g.act(Buy(0))
    assert g.state.squares[6].owner == 0 and g.cash(0) == cash - 100


# --- D-53: Modify Memory takes the cheapest lot by printed price, the lower square on a tie ---
def test_modify_memory_tie_takes_the_lower_square(game: Any) -> None:
    g = game("psion", "commoner")
    g.set(0, level=4, position=5)
    g.set(1, position=6)
    g.own(3, 1)  # Baltic $60
    g.own(1, 1)  # Mediterranean $60
    g.own(6, 1)  # Oriental $100
    turn(g, 0)
    use(g, 0, "modify_memory", 1)
    assert g.state.squares[1].owner == 0 and g.state.squares[3].owner == 1


# --- D-35: a Challenge nobody bids on changes nothing -----------------------------------------
def test_challenge_with_no_bids_changes_nothing(game: Any) -> None:
    from companion.games.monopoly.actions import PassBid
    from companion.games.monopoly.dungeonopoly.abilities import Choose

    g = game("paladin", "commoner")
    g.set(0, level=2, position=5)
    g.set(1, position=8)
    g.own(1, 0)
    g.own(3, 1)
    turn(g, 0)
    use(g, 0, "challenge", 1, ante=1)
    g.act(Choose(1, "ante", "3"))
    g.act(PassBid(0))
    g.act(PassBid(1))
    assert g.state.squares[1].owner == 0 and g.state.squares[3].owner == 1
    assert g.cash(0) == 1500 and g.cash(1) == 1500 and "challenge" in g.p(0).spent


# --- D-25: an enchantment set aside by an Antimagic Field cannot be dispelled ------------------
def test_suppressed_enchantment_cannot_be_dispelled(game: Any) -> None:
    g = game("druid", "wizard", "commoner")
    setf(g, 0, level="1", choices="primal:antimagic_field")
    g.set(0, position=6)
    g.set(2, position=6, enchantments="mage_armor:3:1")
    turn(g, 0)
    use(g, 0, "antimagic_field")
    assert g.p(2).enchanted("mage_armor") is None  # set aside
    g.set(1, level=7, position=7)
    turn(g, 1)
    with pytest.raises(IllegalActionError, match="no mage_armor"):
        use(g, 1, "counterspell", 2, enchantment="mage_armor")


# --- D-64: Dark Delirium only answers the player whose turn it is ---------------------------
def test_dark_delirium_not_offered_against_damage_off_the_attackers_turn(game: Any) -> None:
    from companion.games.monopoly.actions import EndTurn
    from companion.games.monopoly.dungeonopoly.classes.warlock import PactAnswer

    g = game("paladin", "warlock")
    g.set(0, level=7, position=5)  # Holy Aura: reach 1
    g.set(1, level=3, position=6, choices=(("pact", "dark"),))
    g.state = replace(g.state, current=0, rolled=True, roll_again=False, doubles=0)
    g.act(EndTurn(0))  # the warlock's turn starts within the paladin's reach
    assert g.cash(1) == 1500 - 140  # $20 x level 7
    head = g.state.pending[0]
    assert isinstance(head, PactAnswer) and head.attacker == 0
    answers = g.rules.legal_actions(g.state, g.rules.deciders(g.state))
    assert answers == [Pass(1)]


# --- D-63: Misty Escape cast mid-move: the rest of that move is lost ---------------------------
def test_misty_escape_mid_move_drops_the_rest_of_the_move(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.warlock import PactAnswer

    g = game("warlock", "paladin")
    setf(g, 1, level="4", choices="stance:thicket_of_blades")
    g.set(1, position=12)
    g.state = replace(g.state, current=1, rolled=True, roll_again=False, pending=())
    g.set(1, turn=("moved", "walked"))
    use(g, 1, "fighting_stance", stance="thicket_of_blades")  # her turn ends in the stance
    g.set(0, level=3, position=9, choices=(("pact", "fey"),))
    turn(g, 0)
    g.roll(0, 4, 5)  # 9 -> 18: entering 11 (in reach) provokes the attack of opportunity
    head = g.state.pending[0]
    assert isinstance(head, PactAnswer) and head.spell == "misty_escape"
    assert g.cash(0) == 1500 - 80 and g.p(0).position == 11
    use(g, 0, "misty_escape", steps=2)
    assert g.p(0).position == 13 and g.p(0).is_hidden
    assert not g.state.pending  # nothing left of the 9


# --- D-42 with D-57: Fascinate earns EP only when someone moves --------------------------------
def test_fascinate_earns_no_ep_when_the_fortress_shelters_everyone(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.psion import FortressChance

    g = game("bard", "commoner", "psion")
    g.set(0, level=1, position=6)
    g.set(1, position=7)
    g.set(2, level=9, position=9)  # 2 from the bard (out of her range 1), 2 from the commoner
    turn(g, 0)
    ep = g.p(0).ep
    use(g, 0, "fascinate")
    assert isinstance(g.state.pending[0], FortressChance)
    use(g, 2, "intellect_fortress")
    assert g.p(1).position == 7 and g.p(0).ep == ep


# --- D-52: Empty Mind is not offered after running (a gestalt fighter+psion) ------------------
def test_no_empty_mind_after_running(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.classes.psion import OweChoice

    g = game("fighter+psion", "commoner", gestalt=True)
    g.set(0, level=3, position=1)
    g.own(8, 1)  # Vermont Avenue: $6
    turn(g, 0)
    use(g, 0, "run")
    g.roll(0, 1, 2, 4)  # 1 -> 8 with the run die
    assert not any(isinstance(x, OweChoice) for x in g.state.pending)
    assert g.p(0).position == 8 and g.cash(0) == 1500 - 6
    g.set(0, position=1, turn=())
    turn(g, 0)
    g.roll(0, 1, 2)  # without running: Income Tax on 4 asks first
    assert isinstance(g.state.pending[0], OweChoice)
