"""Warlock (Dungeonopoly, "Warlock abilities"): every level, with exact figures."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Mortgage, PayJail
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.abilities import Choose
from companion.games.monopoly.dungeonopoly.classes.warlock import KeepDice, PactAnswer, WardRoll


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def warlock(g: Any, seat: int = 0, *, level: int = 1, pact: str = "infernal",
            enh: tuple[str, ...] = (), **fields: Any) -> None:
    choices = (("pact", pact),) + tuple(("eldritch_blast", e) for e in enh)
    g.set(seat, level=level, **fields)
    g.set(seat, choices=choices)


def hex_(g: Any, seat: int, target: int) -> None:
    use(g, seat, "hex", target)


# --- pact and levelling choices ---------------------------------------------------------------
def test_pact_choice_is_offered_and_recorded(game: Any) -> None:
    g = game("warlock", "commoner")
    legal = [a for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)]
    assert {(a.what, a.option) for a in legal} == {("pact", p) for p in ("infernal", "fey", "dark")}
    g.act(Choose(0, "pact", "fey"))
    assert g.p(0).chosen("pact") == ("fey",)
    assert not [a for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)]
    with pytest.raises(IllegalActionError):
        g.act(Choose(0, "pact", "dark"))


@pytest.mark.parametrize("level,slots", [(3, 0), (4, 1), (6, 2), (8, 3), (10, 3)])
def test_eldritch_enhancements_due_at_4_6_8(game: Any, level: int, slots: int) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=level)
    for _ in range(slots):
        due = [a for a in g.rules.legal_actions(g.state)
               if isinstance(a, Choose) and a.what == "eldritch_blast"]
        assert due
        g.act(due[0])
    assert len(g.p(0).chosen("eldritch_blast")) == slots
    assert not [a for a in g.rules.legal_actions(g.state)
                if isinstance(a, Choose) and a.what == "eldritch_blast"]


# --- Hex --------------------------------------------------------------------------------------
def test_hex_sends_the_next_income_to_the_pot_once(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, position=38)
    g.set(1, position=39)
    hex_(g, 0, 1)
    assert g.p(1).enchanted("hex") is not None and g.p(0).ep == 1
    g.state = replace(g.state, current=1, rolled=False)  # Bob's turn: he passes GO
    g.roll(1, 1, 5)  # 39 -> 5, passing GO
    assert g.cash(1) == 1500 and g.state.pot == 200
    assert g.p(1).enchanted("hex") is None
    assert g.money_ok()


def test_hexed_go_money_to_the_pot_earns_no_go_ep_d75(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, position=38)
    g.set(1, position=39, ep=5)
    hex_(g, 0, 1)
    g.state = replace(g.state, current=1, rolled=False)
    g.roll(1, 1, 5)  # 39 -> 5 over GO: the $200 goes to the pot
    assert g.state.pot == 200 and g.p(1).ep == 5
    # the next GO money is his again, and earns its EP
    g.state = replace(g.state, current=1, rolled=False, pending=())
    g.set(1, position=39)
    g.roll(1, 1, 5)
    assert g.cash(1) == 1700 and g.p(1).ep == 6


def test_hex_range_once_per_turn_and_no_stacking(game: Any) -> None:
    g = game("warlock", "commoner", "commoner")
    warlock(g, position=5)
    g.set(1, position=7)  # 2 squares: out of range at level 1 (1 square)
    g.set(2, position=4)
    with pytest.raises(IllegalActionError, match="out of range"):
        hex_(g, 0, 1)
    hex_(g, 0, 2)
    g.set(1, position=6)
    with pytest.raises(IllegalActionError, match="once per turn"):
        hex_(g, 0, 1)


def test_hex_income_includes_rent_and_not_own_sales(game: Any) -> None:
    g = game("commoner", "warlock")
    warlock(g, 1, position=5)
    g.set(0, position=0)
    g.state = replace(g.state, current=1)
    g.set(0, position=4)
    hex_(g, 1, 0)
    g.state = replace(g.state, current=0, rolled=False)
    g.own(6, 0)  # Ann owns Oriental; Bob lands there later
    g.own(8, 0)
    g.own(9, 0)
    g.act(Mortgage(0, 8))
    assert g.cash(0) == 1550  # mortgaging is not income
    g.set(1, position=4)
    g.state = replace(g.state, current=1, rolled=False)
    g.roll(1, 1, 1)  # Bob to Oriental (6): rent $12 with the group (one mortgaged) ...
    rent = 1500 - g.cash(1)
    assert rent > 0 and g.cash(0) == 1550 and g.state.pot == rent
    assert g.money_ok()


# --- Eldritch Blast ---------------------------------------------------------------------------
def test_eldritch_blast_needs_a_cursed_target_and_damages(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=2, position=5)
    g.set(1, position=6)
    with pytest.raises(IllegalActionError, match="not cursed"):
        use(g, 0, "eldritch_blast", 1)
    hex_(g, 0, 1)
    use(g, 0, "eldritch_blast", 1)
    assert g.cash(1) == 1500 - 40 and g.state.bank_net == 3000 - 40
    with pytest.raises(IllegalActionError, match="once per turn"):
        use(g, 0, "eldritch_blast", 1)


@pytest.mark.parametrize("enh,loss,warlock_gain", [
    ((), 80, 0), (("agonizing_blast",), 120, 0), (("vampiric_blast",), 80, 80),
    (("agonizing_blast", "vampiric_blast"), 120, 120)])
def test_agonizing_and_vampiric_blast(game: Any, enh: tuple[str, ...], loss: int,
                                      warlock_gain: int) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=4 if len(enh) < 2 else 6, enh=enh, position=5)
    if len(enh) == 2:
        g.set(0, level=4)  # $30 x 4 = 120 either way
    g.set(1, position=6, enchantments="hex:4:0")
    use(g, 0, "eldritch_blast", 1)
    assert g.cash(1) == 1500 - loss and g.cash(0) == 1500 + warlock_gain
    assert g.money_ok()


def test_eldritch_spear_reaches_line_of_sight(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=4, position=1)
    g.set(1, position=9, enchantments="hex:1:0")
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "eldritch_blast", 1)
    warlock(g, level=4, enh=("eldritch_spear",), position=1)
    use(g, 0, "eldritch_blast", 1)
    assert g.cash(1) == 1500 - 80


def test_repelling_blast_pushes_and_lands(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=4, enh=("repelling_blast",), position=4)
    g.own(6, 0)
    g.set(1, position=4, enchantments="hex:1:0")
    with pytest.raises(IllegalActionError):
        use(g, 0, "eldritch_blast", 1, push=3)
    use(g, 0, "eldritch_blast", 1, push=2)
    assert g.p(1).position == 6
    assert g.cash(1) == 1500 - 80 - 6 and g.cash(0) == 1506  # damage, then Oriental's rent


# --- pact spells ------------------------------------------------------------------------------
def attacked(game: Any, pact: str, level: int = 3) -> Any:
    g = game("fighter", "warlock")
    g.set(0, level=3, position=5)
    warlock(g, 1, level=level, pact=pact, position=5)
    use(g, 0, "attack", 1)
    assert g.cash(1) == 1500 - 60
    head = g.state.pending[0]
    assert isinstance(head, PactAnswer) and head.attacker == 0
    return g


def test_hellish_rebuke_damages_the_attacker(game: Any) -> None:
    g = attacked(game, "infernal")
    use(g, 1, "hellish_rebuke", 0)
    assert g.cash(0) == 1500 - 60 and "hellish_rebuke" in g.p(1).spent
    assert g.money_ok()


def test_misty_escape_teleports_hidden_without_passing(game: Any) -> None:
    g = attacked(game, "fey")
    use(g, 1, "misty_escape", steps=-5)
    assert g.p(1).position == 0 and g.p(1).is_hidden and g.cash(1) == 1440  # no GO money


def test_dark_delirium_ends_the_attackers_turn(game: Any) -> None:
    g = attacked(game, "dark")
    use(g, 1, "dark_delirium", 0)
    assert g.state.current == 1 and not g.state.pending


def test_pact_answer_can_be_passed_and_only_own_pact(game: Any) -> None:
    g = attacked(game, "infernal")
    with pytest.raises(IllegalActionError):
        use(g, 1, "dark_delirium", 0)
    g.act(Pass(1))
    assert not g.state.pending and g.cash(0) == 1500


# --- pact traits ------------------------------------------------------------------------------
def test_fiendish_resilience_halves_fees_rounded_up(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=5, position=36)
    g.roll(0, 1, 1)  # Luxury Tax $100 (then doubles, roll again)
    assert g.cash(0) == 1450 and g.state.pot == 50
    g2 = game("warlock", "commoner")
    warlock(g2, level=5, position=10, in_jail=True)
    g2.act(PayJail(0))
    assert g2.cash(0) == 1475 and g2.state.pot == 25
    assert g.money_ok() and g2.money_ok()


def test_beguiling_defenses_curses_the_aggressor(game: Any) -> None:
    g = game("wizard", "warlock")
    g.set(0, level=4, position=5)
    warlock(g, 1, level=5, pact="fey", position=6)
    use(g, 0, "slow", 1)
    assert g.p(1).enchanted("slow") is not None
    assert g.p(0).enchanted("hex") is not None


@pytest.mark.parametrize("die,hurt", [(1, False), (4, True)])
def test_entropic_ward_d6_against_damage(game: Any, die: int, hurt: bool) -> None:
    g = game("fighter", "warlock")
    g.set(0, level=3, position=5)
    warlock(g, 1, level=5, pact="dark", position=5)
    use(g, 0, "attack", 1)
    assert isinstance(g.state.pending[0], WardRoll)
    g.roll(1, die)
    assert g.cash(1) == (1440 if hurt else 1500)


def test_entropic_ward_d6_against_enchantment(game: Any) -> None:
    g = game("wizard", "warlock")
    g.set(0, level=4, position=5)
    warlock(g, 1, level=5, pact="dark", position=6)
    use(g, 0, "slow", 1)
    g.roll(1, 1)
    assert g.p(1).enchanted("slow") is None


# --- Dark One's Own Luck -----------------------------------------------------------------------
def test_dark_ones_own_luck_rolls_three_keeps_two(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=7)
    use(g, 0, "dark_ones_own_luck")
    assert g.rules.roll_spec(g.state).sides == (6, 6, 6)
    g.roll(0, 1, 6, 3)
    head = g.state.pending[0]
    assert isinstance(head, KeepDice)
    g.act(Choose(0, "keep", "2,3"))
    assert g.p(0).position == 9 and "dark_ones_own_luck" in g.p(0).spent
    with pytest.raises(IllegalActionError):
        use(g, 0, "dark_ones_own_luck")


# --- Book of Shadows and Crown of Madness ------------------------------------------------------
def test_book_of_shadows_three_spells_up_to_level_4(game: Any) -> None:
    g = game("warlock", "commoner")
    warlock(g, level=9, enh=("agonizing_blast", "eldritch_spear", "vampiric_blast"))
    due = {a.option for a in g.rules.legal_actions(g.state)
           if isinstance(a, Choose) and a.what == "book"}
    assert "wizard:magic_missile" in due and "wizard:slow" in due
    assert "wizard:invisibility" not in due and "cleric:holy_smite" not in due
    with pytest.raises(IllegalActionError):
        g.act(Choose(0, "book", "wizard:fireball"))
    for pick in ("wizard:magic_missile", "cleric:shield_of_faith", "wizard:mage_armor"):
        g.act(Choose(0, "book", pick))
    assert not [a for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)]
    g.set(1, position=2)
    use(g, 0, "magic_missile", 1)
    assert g.cash(1) == 1500 - 180  # at the warlock's level 9


def test_gestalt_warlock_bard_picks_book_and_jack_apart(game: Any) -> None:
    # D-67: the Book of Shadows ("book") and Jack-of-All-Trades ("borrow") are two sets of
    # three picks; a fighter ability offered for Jack was refused as a Book pick before
    g = game("warlock+bard", "commoner", gestalt=True)
    warlock(g, level=10, enh=("agonizing_blast", "eldritch_spear", "vampiric_blast"))

    def offered(kind: str) -> set[str]:
        return {a.option for a in g.rules.legal_actions(g.state, (0,))
                if isinstance(a, Choose) and a.what == kind}

    assert "fighter:attack" in offered("borrow") and "fighter:attack" not in offered("book")
    g.act(Choose(0, "borrow", "fighter:attack"))
    g.act(Choose(0, "book", "wizard:slow"))
    assert "wizard:slow" not in offered("borrow")  # already known from the Book
    g.act(Choose(0, "borrow", "rogue:sneak"))
    g.act(Choose(0, "borrow", "cleric:bless"))
    assert not offered("borrow") and "cleric:bless" not in offered("book")
    g.act(Choose(0, "book", "wizard:magic_missile"))
    g.act(Choose(0, "book", "wizard:mage_armor"))
    assert not offered("book")
    from companion.games.monopoly.dungeonopoly.abilities import known_abilities

    names = {a.name for a in known_abilities(g.p(0))}
    assert {"attack", "sneak", "bless", "slow", "magic_missile", "mage_armor"} <= names


def test_crown_of_madness_forces_an_ability(game: Any) -> None:
    g = game("warlock", "wizard", "commoner")
    warlock(g, level=10, enh=("agonizing_blast", "eldritch_spear", "vampiric_blast"),
            position=5)
    g.set(1, level=3, position=6)
    g.set(2, position=7)
    use(g, 0, "crown_of_madness", 1, ability="magic_missile", at="Cat")
    assert g.cash(0) == 1500 - 200
    assert g.cash(2) == 1500 - 60  # Bob's level-3 Magic Missile hit Cat
    g2 = game("warlock", "wizard")  # the text's example: a wizard forced to cast Fireball
    warlock(g2, level=10, position=6)
    g2.set(1, level=8, position=6)
    g2.own(6, 1, houses=2)
    use(g2, 0, "crown_of_madness", 1, ability="fireball")
    g2.act(Pass(1))  # Bob could Counterspell the Crown; he lets it through
    assert g2.state.squares[6].houses == 0 and g2.cash(0) == 1500 - 200 - 160


@pytest.mark.parametrize(("victim", "ability", "fields"), [
    ("rogue", "rob_bank", {"skills": "rob_bank:15"}),     # belongs to collecting GO
    ("druid", "tree_stride", {}),                          # belongs to rolling doubles
    ("paladin", "fighting_stance", {"choices": (("stance", "thicket_of_blades"),)}),  # ends her turn
])
def test_crown_of_madness_refuses_abilities_tied_to_a_moment(game: Any, victim: str, ability: str,
                                                             fields: dict[str, Any]) -> None:
    """D-69: Crown cannot make a rogue rob the bank away from GO, a druid tree-stride without
    doubles, or a paladin take a stance (and so end her turn) on the warlock's turn."""
    g = game("warlock", victim)
    warlock(g, level=10, position=5)
    g.set(1, level=10, position=6, **fields)
    with pytest.raises(IllegalActionError, match="cannot be forced"):
        use(g, 0, "crown_of_madness", 1, ability=ability)
    assert g.cash(0) == 1500 and g.cash(1) == 1500
    offered = {dict(a.params).get("ability") for a in g.rules.legal_actions(g.state)
               if isinstance(a, UseAbility) and a.ability == "crown_of_madness"}
    assert ability not in offered


def test_crown_of_madness_never_forces_a_wish(game: Any) -> None:
    """Wish always costs at least $10, so it is never forced; two level-10 wizards used to
    send the legal-action listing round Wish -> Crown of Madness -> the other's Wish forever."""
    g = game("wizard", "wizard")
    g.set(0, level=10, position=5)
    g.set(1, level=10, position=6)
    crowns = [a for a in g.rules.legal_actions(g.state)  # RecursionError before the fix
              if isinstance(a, UseAbility) and a.ability == "wish"
              and dict(a.params).get("spell") == "crown_of_madness"]
    assert crowns and {dict(a.params).get("ability") for a in crowns} >= {"magic_missile"}
    assert all(dict(a.params).get("ability") != "wish" for a in crowns)
    w = game("warlock", "wizard")
    warlock(w, level=10, position=5)
    w.set(1, level=10, position=6)
    with pytest.raises(IllegalActionError, match="cannot be forced"):
        use(w, 0, "crown_of_madness", 1, ability="wish", with_mode="own")
    assert w.cash(0) == 1500


def test_crown_of_madness_refuses_spells_with_a_cost(game: Any) -> None:
    g = game("warlock", "cleric")
    warlock(g, level=10, position=5)
    g.set(1, level=1, position=6)
    with pytest.raises(IllegalActionError, match="cannot be forced"):
        use(g, 0, "crown_of_madness", 1, ability="bless")
