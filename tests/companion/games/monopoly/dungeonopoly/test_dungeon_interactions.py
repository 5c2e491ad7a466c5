"""Core-class interactions implemented in issue 3 that had no test of their own: Wish in the
reaction windows, area damage on hidden characters, Counterspell's reach, the Glyph's caster,
Open Locks the turn she is jailed, Pick Pockets while sneaking, Divine Favor's card choice
(jail cards, physical decks) and Rob Bank when Telekinesis pushes a rogue past GO."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import DrawnCard
from companion.games.monopoly.dungeonopoly import Accept, Pass, UseAbility
from companion.games.monopoly.dungeonopoly.reactions import CounterWindow, RollWindow
from companion.games.monopoly.dungeonopoly.steps import CardChoice, Check, RobBankChoice
from companion.games.monopoly.pending import BuyDecision, Debt, DrawCard


def use(g: Any, seat: int, ability: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, ability, target, tuple((k, str(v)) for k, v in params.items())))


def listed(g: Any, seat: int, ability: str) -> list[UseAbility]:
    return [a for a in g.rules.legal_actions(g.state, (seat,))
            if isinstance(a, UseAbility) and a.ability == ability]


# --- Wish standing in for the reaction spells ----------------------------------------------
def test_wish_stands_in_for_counterspell_in_the_window(game: Any) -> None:
    g = game("cleric", "wizard")
    g.set(0, level=5)
    g.set(1, level=10, position=20, spent="counterspell")  # only the Wish is left
    use(g, 0, "holy_smite", 1)
    head = g.state.pending[0]
    assert isinstance(head, CounterWindow) and head.waiting == (1,)
    wishes = listed(g, 1, "wish")
    assert wishes == [UseAbility(1, "wish", 0, (("spell", "counterspell"), ("react", "1")))]
    assert listed(g, 1, "counterspell") == []
    g.act(wishes[0])
    assert not g.state.pending
    assert g.cash(1) == 1500 - 10  # Wish's $10 minimum; the smite ($100) never lands
    assert g.cash(0) == 1500 and "holy_smite" in g.p(0).spent  # spent, no EP
    assert g.p(0).ep == 40 and g.p(1).ep == 91 and "wish" in g.p(1).spent
    assert "countered" in g.kinds()


def test_wish_stands_in_for_divine_intervention_in_the_window(game: Any) -> None:
    g = game("commoner", "wizard")
    g.set(1, level=10)
    g.roll(0, 3, 4, answer=True)
    head = g.state.pending[0]
    assert isinstance(head, RollWindow) and head.waiting == (1,)
    wishes = listed(g, 1, "wish")
    assert wishes == [UseAbility(1, "wish", None,
                                 (("spell", "divine_intervention"), ("react", "1")))]
    g.act(wishes[0])
    assert not g.state.pending and not g.state.rolled and g.p(0).position == 0
    assert g.cash(1) == 1490 and g.p(1).ep == 91 and g.p(0).ep == 0  # no lucky-seven EP
    g.roll(0, 2, 3, answer=True)  # Wish spent: no window, this roll stands
    assert g.p(0).position == 5 and not any(isinstance(p, RollWindow) for p in g.state.pending)


def test_wish_needs_ten_dollars_to_answer_a_window(game: Any) -> None:
    g = game("commoner", "wizard")
    g.set(1, level=10, cash=9)
    g.roll(0, 2, 4, answer=True)
    assert not any(isinstance(p, RollWindow) for p in g.state.pending)
    assert g.p(0).position == 6


# --- Fireball and hidden characters --------------------------------------------------------
def test_fireball_damages_hidden_and_invisible_characters_on_her_square(game: Any) -> None:
    g = game("wizard", "commoner", "commoner", "commoner")
    g.set(0, level=8, position=6)
    g.set(1, position=6, hidden=True)  # snuck there
    g.set(2, position=6, enchantments="invisibility:5:3")
    g.set(3, position=7)  # next square: untouched
    with pytest.raises(IllegalActionError, match="hidden"):
        use(g, 0, "magic_missile", 1)  # hidden: no single target
    use(g, 0, "fireball")
    assert g.cash(1) == 1500 - 160 and g.cash(2) == 1500 - 160 and g.cash(3) == 1500
    assert g.cash(0) == 1500 and g.p(0).ep == 71
    assert g.money_ok()


# --- Counterspell: range, Sanctuary, Invisibility ------------------------------------------
def test_counterspell_range_limit_on_characters_and_squares(game: Any) -> None:
    g = game("wizard", "commoner", "commoner")
    g.set(0, level=7, position=20)  # levels 7-8: 4 squares either way
    g.set(1, position=25, enchantments="slow:4:0")
    g.set(2, position=16, enchantments="slow:4:0")
    g.state = g.rules.set_square_field(g.state, 25, "enchantments", "curse:3")
    g.state = g.rules.set_square_field(g.state, 24, "enchantments", "curse:3")
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "counterspell", 1, enchantment="slow")  # 5 squares away
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "counterspell", enchantment="curse", square=25)
    assert {(a.target, a.params) for a in listed(g, 0, "counterspell")} == {
        (2, (("enchantment", "slow"),)), (None, (("enchantment", "curse"), ("square", "24")))}
    use(g, 0, "counterspell", 2, enchantment="slow")  # 4 squares back: in range
    assert g.p(2).enchantments == () and g.p(1).enchantments != ()
    assert g.p(0).ep == 61


@pytest.mark.parametrize("spell", ["sanctuary", "invisibility"])
def test_counterspell_dispels_sanctuary_and_invisibility(game: Any, spell: str) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=7, position=20)
    g.set(1, position=22, enchantments=f"{spell}:5:1")
    with pytest.raises(IllegalActionError, match="cannot be targeted"):
        use(g, 0, "magic_missile", 1)
    use(g, 0, "counterspell", 1, enchantment=spell)
    assert g.p(1).enchantments == () and not g.p(1).is_hidden
    assert g.rules.use_problem(g.state, 0, g.rules.ability_of(g.state, 0, "magic_missile"), 1,
                               ()) == "one spell per turn"  # targetable again, next turn


def test_counterspell_does_not_reach_into_jail(game: Any) -> None:
    g = game("wizard", "commoner")
    g.set(0, level=7, position=10)
    g.set(1, position=10, in_jail=True, enchantments="slow:4:0")
    with pytest.raises(IllegalActionError, match="jail"):
        use(g, 0, "counterspell", 1, enchantment="slow")


# --- Glyph of Warding ------------------------------------------------------------------------
def test_glyph_ignores_its_own_caster(game: Any) -> None:
    g = game("cleric", "commoner")
    g.set(0, level=8, position=11)
    use(g, 0, "glyph_of_warding")
    assert g.cash(0) == 1350
    g.set(0, position=9)
    g.roll(0, 1, 3)  # passes her own glyph on St. Charles (11) and lands on States (13)
    assert g.p(0).position == 13 and g.cash(0) == 1350
    assert g.rules.square_json(g.state, 11)["enchantments"] == ["glyph_of_warding:8"]
    assert "glyph" not in g.kinds() and "damaged" not in g.kinds()


# --- Rogue: Open Locks the turn she is jailed, Pick Pockets while sneaking -----------------
def test_open_locks_on_the_turn_she_is_jailed(game: Any) -> None:
    g = game("rogue", "commoner")
    g.set(0, position=25, skills="open_locks:12")
    g.roll(0, 2, 3)  # lands on Go To Jail
    assert g.p(0).in_jail and g.p(0).position == 10
    use(g, 0, "open_locks")
    assert isinstance(g.state.pending[0], Check) and g.state.pending[0].target == 12
    g.roll(0, 12)
    assert not g.p(0).in_jail and g.p(0).position == 10 and g.cash(0) == 1500
    assert g.p(0).ep == 1 and g.state.rolled  # the turn's movement is over
    with pytest.raises(IllegalActionError, match="one attempt"):
        use(g, 0, "open_locks")


def test_open_locks_failed_on_the_jailing_turn_is_one_attempt(game: Any) -> None:
    g = game("rogue", "commoner")
    g.set(0, position=25, skills="open_locks:12")
    g.roll(0, 2, 3)
    use(g, 0, "open_locks")
    g.roll(0, 13)
    assert g.p(0).in_jail and g.p(0).ep == 0
    with pytest.raises(IllegalActionError, match="one attempt"):
        use(g, 0, "open_locks")


def test_pick_pockets_while_sneaking(game: Any) -> None:
    g = game("rogue", "commoner", "commoner")
    g.set(0, level=2, position=36, skills="sneak:15,pick_pockets:10")
    g.set(1, position=38)  # snuck past
    g.set(2, position=20)
    use(g, 0, "sneak")
    g.roll(0, 3)  # the check passes
    g.roll(0, 3)  # 36 -> 39 unseen
    assert g.p(0).position == 39 and g.p(0).is_hidden
    assert [a.target for a in listed(g, 0, "pick_pockets")] == [1]
    with pytest.raises(IllegalActionError, match="sneaking past"):
        use(g, 0, "pick_pockets", 2)
    use(g, 0, "pick_pockets", 1)
    g.roll(0, 10)
    assert g.cash(0) == 1540 and g.cash(1) == 1460 and not g.p(0).in_jail
    assert g.p(0).ep == 10 + 2  # level 2; sneak and pick pockets
    assert g.p(0).is_hidden  # picking a pocket does not end the sneak


# --- Divine Favor: refusing a jail card; physical decks --------------------------------------
def test_divine_favor_refused_jail_card_goes_back_to_the_deck(game: Any) -> None:
    g = game("cleric", "commoner", decks={"chance": ["get_out_of_jail_free"]})
    g.set(0, level=4, position=4)
    g.roll(0, 1, 2)  # Chance (7)
    head = g.state.pending[0]
    assert isinstance(head, CardChoice) and head.card == "get_out_of_jail_free"
    assert "get_out_of_jail_free" not in g.state.chance
    g.act(Pass(0))
    assert g.p(0).jail_cards == () and not g.state.pending
    assert g.state.chance[-1] == "get_out_of_jail_free" and len(g.state.chance) == 16
    assert "card_refused" in g.kinds()


def test_divine_favor_with_physical_decks(game: Any) -> None:
    g = game("cleric", "commoner", deck_mode="physical")
    g.set(0, level=4, position=4)
    g.roll(0, 1, 2)  # Chance (7): the table says which card was drawn
    assert isinstance(g.state.pending[0], DrawCard)
    g.act(DrawnCard(0, "speeding_fine"))
    assert isinstance(g.state.pending[0], CardChoice)
    g.act(Pass(0))  # refused: no $15 fine
    assert g.cash(0) == 1500 and g.state.pot == 0 and not g.state.pending
    g2 = game("cleric", "commoner", deck_mode="physical")
    g2.set(0, level=4, position=4)
    g2.roll(0, 1, 2)
    g2.act(DrawnCard(0, "get_out_of_jail_free"))
    g2.act(Pass(0))  # refused: nobody holds it, so it can be drawn again
    assert g2.p(0).jail_cards == ()
    g2.state = replace(g2.state, pending=(DrawCard(1, "chance"),))
    assert DrawnCard(1, "get_out_of_jail_free") in g2.rules.legal_actions(g2.state)
    g3 = game("cleric", "commoner", deck_mode="physical")
    g3.set(0, level=4, position=4)
    g3.roll(0, 1, 2)
    g3.act(DrawnCard(0, "get_out_of_jail_free"))
    g3.act(Accept(0))
    assert g3.p(0).jail_cards == ("chance",)
    g3.state = replace(g3.state, pending=(DrawCard(1, "chance"),))
    assert DrawnCard(1, "get_out_of_jail_free") not in g3.rules.legal_actions(g3.state)


# --- Rob Bank when Telekinesis pushes a rogue past GO --------------------------------------
def test_rob_bank_when_telekinesis_pushes_her_past_go(game: Any) -> None:
    g = game("wizard", "rogue")
    g.set(0, level=9, position=35)
    g.set(1, position=37, skills="rob_bank:15")
    use(g, 0, "telekinesis", 1, steps=5)  # 37 -> 2, passing GO
    head = g.state.pending[0]
    assert isinstance(head, RobBankChoice) and head.player == 1 and not head.landed
    assert g.p(1).position == 0 and g.rules.deciders(g.state) == (1,)
    use(g, 1, "rob_bank")
    g.roll(1, 5)
    assert g.p(1).position == 2 and not g.state.pending  # the push goes on, no landing
    assert g.cash(1) == 1500 + 200 + 50 and g.p(1).ep == 2  # GO money and the skill
    assert g.money_ok()


def test_rob_bank_failed_after_a_telekinesis_push_ends_in_jail(game: Any) -> None:
    g = game("wizard", "rogue")
    g.set(0, level=9, position=35)
    g.set(1, position=37, skills="rob_bank:5")
    use(g, 0, "telekinesis", 1, steps=5)
    use(g, 1, "rob_bank")
    g.roll(1, 6)
    assert g.p(1).in_jail and g.p(1).position == 10 and g.cash(1) == 1500
    assert not g.state.pending and g.p(1).ep == 0
    assert not any(isinstance(p, Debt) for p in g.state.pending)


def test_divine_power_draws_from_physical_decks_while_passing(game: Any) -> None:
    g = game("cleric", "commoner", deck_mode="physical")
    g.set(0, level=7, position=5)
    g.roll(0, 1, 3)  # passes Chance (7) on the way to Connecticut (9)
    head = g.state.pending[0]
    assert isinstance(head, DrawCard) and head.player == 0 and g.p(0).position == 7
    g.act(DrawnCard(0, "bank_dividend"))
    g.act(Accept(0))
    assert g.p(0).position == 9 and g.cash(0) == 1550
    assert g.state.pending == (BuyDecision(0, 9),)  # the move went on and landed
    g2 = game("cleric", "commoner", deck_mode="physical")
    g2.set(0, level=7, position=5)
    g2.roll(0, 1, 3)
    g2.act(DrawnCard(0, "go_back_three"))
    g2.act(Accept(0))  # moves back from the Chance square; the rest of the roll is dropped
    assert g2.p(0).position == 4 and g2.cash(0) == 1500  # Income Tax waived (Divine Favor)
    assert not g2.state.pending


@pytest.mark.parametrize("spell", ["counterspell", "divine_intervention"])
def test_regression_wish_as_a_reaction_is_refused_outside_its_window(game: Any,
                                                                     spell: str) -> None:
    # bug: "Di use wish spell=counterspell react=1" with no window open was accepted and
    # spent the Wish and $10 for nothing (a plain Counterspell in that form is refused)
    g = game("wizard", "commoner")
    g.set(0, level=10)
    with pytest.raises(IllegalActionError, match="only an answer"):
        use(g, 0, "wish", spell=spell, react=1)
    assert g.cash(0) == 1500 and g.p(0).spent == ()
