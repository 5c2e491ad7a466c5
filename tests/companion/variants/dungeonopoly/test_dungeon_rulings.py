"""Rulings and rule gaps with a test of their own (docs/dungeonopoly-*.md, rulings-dungeonopoly.md):
each test names the ruling it pins down."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.rules.errors import IllegalActionError
from companion.variants.dungeonopoly import Pass, UseAbility


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def turn(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0)
    g.set(seat, turn=())


# --- quicker game: 5 EP per level everywhere a level comes from EP (A-R2) ----------------------
def test_quicker_game_referee_correction_uses_5_ep_per_level() -> None:
    from companion.transcript import header_lines, replay
    from companion.variants import find_variant

    rules = find_variant("dungeonopoly")
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


# --- R-D5: Insect Plague blocks abilities used by choice, Rob Bank's offer too ----------------
def test_rob_bank_is_not_offered_on_an_insect_plague(game: Any) -> None:
    from companion.variants.dungeonopoly.character import Enchantment
    from companion.variants.dungeonopoly.steps import RobBankChoice
    from companion.variants.dungeonopoly.terms import with_square_enchantment

    g = game("rogue", "druid")
    g.set(0, skills="rob_bank:10", position=38)
    g.state = replace(g.state, extra=with_square_enchantment(
        g.state.extra, 0, Enchantment("insect_plague", 1, 7)))
    turn(g, 0)
    g.roll(0, 1, 1)  # 38 -> GO: landing pays $400 unless she robs the bank
    assert isinstance(g.state.pending[0], RobBankChoice)
    legal = g.rules.legal_actions(g.state)
    assert not any(isinstance(a, UseAbility) for a in legal)
    with pytest.raises(IllegalActionError, match="Insect Plague"):
        use(g, 0, "rob_bank")
    g.act(Pass(0))
    assert g.cash(0) == 1500 + 400


# --- R-B5: Glitterdust's fizzle takes Invisibility's unseen movement with it -------------------
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


# --- P-R9: Intellect Fortress against area uses -----------------------------------------------
def test_intellect_fortress_shelters_everyone_in_range_from_a_fireball(game: Any) -> None:
    from companion.variants.dungeonopoly.classes.psion import FortressChance, pp_left

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
    from companion.variants.dungeonopoly.classes.psion import FortressChance

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


# --- Wish duplicating a primal spell (property-test regression, R-D12) ------------------------
def test_wish_may_duplicate_a_primal_spell_on_go(game: Any) -> None:
    from companion.variants.dungeonopoly.terms import square_enchanted

    g = game("fighter", "wizard", "cleric", "rogue")
    g.set(1, level=10, position=0)
    turn(g, 1)
    use(g, 1, "wish", spell="obscuring_mist")
    mist = square_enchanted(g.state.extra, 0, "obscuring_mist")
    assert mist is not None and mist.source == 1 and g.cash(1) == 1500 - 10
    # Bless still needs a property: GO is refused
    turn(g, 2)
    g.set(2, level=1, position=0)
    with pytest.raises(IllegalActionError, match="only on a property"):
        use(g, 2, "bless")


# --- D-R6: a character who ran uses no other class ability; Bardic Music is not offered -------
def test_no_melody_offered_to_a_bard_who_ran(game: Any) -> None:
    from companion.variants.dungeonopoly.classes.bard import MelodyChoice

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
