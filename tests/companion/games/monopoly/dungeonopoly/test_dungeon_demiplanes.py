"""Genesis demiplanes seen by every class (rulings D-55, D-58, D-59): range, reach, line of
sight, "the same square" and area effects all go through ``terms``' geometry."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.dungeonopoly import Accept, UseAbility
from companion.games.monopoly.dungeonopoly.genesis import restore_enchantment, stand
from companion.games.monopoly.dungeonopoly.steps import CardChoice
from companion.games.monopoly.dungeonopoly.table import Demiplane
from companion.games.monopoly.dungeonopoly.terms import (
    dungeon,
    in_range,
    in_sight,
    seat_distance,
    together,
)


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def turn(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0)
    g.set(seat, turn=())


def demiplane(g: Any, after: int, deck: str, card: str, psion: int = 0) -> None:
    """A demiplane made by ``psion`` (its card taken out of the deck, as Genesis does)."""
    d = Demiplane(after, deck, card, psion, 7)
    order = tuple(c for c in getattr(g.state, deck) if c != card)
    found = dungeon(g.state)
    found = replace(found, demiplanes=found.demiplanes + (d,))
    g.state = replace(g.state, table=restore_enchantment(found, d), **{deck: order})


def stand_on(g: Any, seat: int, gap: int) -> None:
    g.set(seat, position=gap)
    g.state = replace(g.state, table=stand(dungeon(g.state), seat, gap))


def test_chance_demiplane_adds_a_square_to_other_classes_range(game: Any) -> None:
    g = game("psion", "wizard", "commoner")
    demiplane(g, 6, "chance", "bank_dividend")  # exists for the wizard, not for the psion
    g.set(1, level=1, position=6)  # Magic Missile: range 1
    g.set(2, position=7)
    assert seat_distance(g.state, 1, 1, 2) == 2 and seat_distance(g.state, 0, 1, 2) == 1
    turn(g, 1)
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 1, "magic_missile", 2)
    g.set(2, position=5)  # the other way round: no demiplane in between
    use(g, 1, "magic_missile", 2)
    assert g.cash(2) == 1500 - 20


def test_community_chest_demiplane_changes_nothing_for_opponents(game: Any) -> None:
    g = game("psion", "wizard", "commoner")
    demiplane(g, 6, "community_chest", "bank_error")  # only the psion's world has it
    g.set(1, level=1, position=6)
    g.set(2, position=7)
    turn(g, 1)
    use(g, 1, "magic_missile", 2)
    assert g.cash(2) == 1480
    assert seat_distance(g.state, 0, 1, 2) == 2  # but the psion counts two squares


def test_fireball_and_wrath_of_god_skip_a_character_out_of_existence(game: Any) -> None:
    g = game("psion", "wizard", "commoner", "cleric")
    demiplane(g, 5, "community_chest", "bank_error")
    stand_on(g, 0, 5)  # the psion stands on her own demiplane after Reading Railroad
    g.set(1, level=8, position=5)
    g.set(2, position=5)
    assert not together(g.state, 1, 0) and together(g.state, 1, 2)
    turn(g, 1)
    use(g, 1, "fireball")
    assert g.cash(0) == 1500 and g.cash(2) == 1500 - 160
    g.set(1, level=1)  # (no Counterspell window to pass)
    g.set(3, level=10, position=30 - 1)
    turn(g, 3)
    use(g, 3, "wrath_of_god")
    # Wrath reaches every opponent anywhere, but not one outside the cleric's existence
    assert g.cash(0) == 1500 and g.cash(1) == 1500 - 200 and g.cash(2) == 1340 - 200


def test_wrath_of_god_hits_someone_on_a_demiplane_that_exists_for_the_cleric(game: Any) -> None:
    g = game("psion", "commoner", "cleric")
    demiplane(g, 15, "chance", "bank_dividend")  # Chance: exists for opponents of the psion
    stand_on(g, 1, 15)
    g.set(2, level=10, position=2)
    turn(g, 2)
    use(g, 2, "wrath_of_god")
    assert g.cash(1) == 1500 - 200 and g.cash(0) == 1500 - 200


def test_call_lightning_strikes_squares_not_the_demiplane_beside_them(game: Any) -> None:
    g = game("psion", "druid")
    demiplane(g, 6, "community_chest", "bank_error")
    stand_on(g, 0, 6)
    g.set(1, level=8, position=6)
    turn(g, 1)
    use(g, 1, "call_lightning", bolts="6:damage:0")
    assert g.cash(0) == 1500 and "bolt_wasted" in g.kinds()


def test_psionic_blast_range_counts_her_own_demiplanes(game: Any) -> None:
    g = game("psion", "commoner", "commoner")
    demiplane(g, 21, "community_chest", "bank_error")  # a square in the psion's world only
    g.set(0, level=8, position=20)  # range 4: 21, demiplane, 22, 23
    g.set(1, position=24)
    g.set(2, position=23)
    turn(g, 0)
    use(g, 0, "psionic_blast")
    # seat 2 (4 away for her) goes one square on, to 24; seat 1 (5 away) is not caught
    assert g.p(1).position == 24 and g.p(2).position == 24


def test_fascinate_range_counts_a_chance_demiplane(game: Any) -> None:
    g = game("psion", "bard", "commoner")
    demiplane(g, 6, "chance", "bank_dividend")
    g.set(1, level=1, position=6)
    g.set(2, position=7)
    turn(g, 1)
    assert not in_range(g.state, 1, 2)
    with pytest.raises(IllegalActionError, match="nobody within range"):
        use(g, 1, "fascinate")


def test_far_shot_cannot_see_a_character_out_of_existence(game: Any) -> None:
    g = game("psion", "fighter")
    demiplane(g, 3, "community_chest", "bank_error")
    stand_on(g, 0, 3)
    g.set(1, level=3, position=7)
    assert not in_sight(g.state, 1, 0) and in_sight(g.state, 0, 1)
    turn(g, 1)
    with pytest.raises(IllegalActionError):
        use(g, 1, "far_shot", 0)


def test_divine_power_draws_the_card_of_a_passed_demiplane(game: Any) -> None:
    g = game("psion", "cleric")
    demiplane(g, 11, "chance", "bank_dividend")  # exists for the cleric
    g.set(1, level=7, position=10)
    turn(g, 1)
    g.roll(1, 1, 3)  # 10 -> 11 -> demiplane -> 12 -> 13: passes the demiplane
    head = g.state.pending[0]
    assert isinstance(head, CardChoice) and head.card == "bank_dividend"
    g.act(Accept(1))
    assert g.p(1).position == 13 and g.cash(1) == 1500 + 50
    assert "bank_dividend" not in g.state.chance  # the card stays under the demiplane


def test_divine_power_ignores_a_demiplane_that_is_not_there_for_her(game: Any) -> None:
    g = game("psion", "cleric")
    demiplane(g, 11, "community_chest", "bank_error")  # the psion's world only
    g.set(1, level=7, position=10)
    turn(g, 1)
    g.roll(1, 1, 2)  # 10 -> 13 with no extra square
    assert g.p(1).position == 13 and g.cash(1) == 1500
    assert not any(isinstance(x, CardChoice) for x in g.state.pending)


def test_scent_runs_onto_the_demiplane_of_its_prey(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.genesis import demiplane_of

    g = game("psion", "druid", "commoner")
    demiplane(g, 6, "chance", "bank_dividend")  # exists for the druid and the commoner
    stand_on(g, 2, 6)
    wolf = g.rules.set_player_field(g.p(1), "choices", "form:wolf")
    wolf = g.rules.set_player_field(wolf, "counters", "form:3")
    g.state = replace(g.state, players=(g.p(0), wolf, g.p(2)))
    g.set(1, level=3, position=5)  # range 2: 6, then the demiplane
    turn(g, 1)
    use(g, 1, "scent", 2)
    # two steps in her world: Oriental Avenue, then the demiplane (landing: its card pays $50)
    assert demiplane_of(g.state, 1) == 6 and g.cash(1) == 1500 + 50


def test_fascinate_pulls_onto_the_bards_demiplane(game: Any) -> None:
    from companion.games.monopoly.dungeonopoly.genesis import demiplane_of

    g = game("psion", "bard", "commoner")
    demiplane(g, 6, "chance", "bank_dividend")
    stand_on(g, 1, 6)
    g.set(1, level=1)
    g.set(2, position=7)  # 1 away across the gap: the demiplane is next to Vermont's left
    turn(g, 1)
    use(g, 1, "fascinate")
    assert demiplane_of(g.state, 2) == 6 and g.cash(2) == 1500 + 50  # landed: the card
