"""Damage and death [DC §Damage; §Dying]: DC.24-DC.28 and rulings C-10 to C-13."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import Move, Pass, Reenter, Soak
from companion.games.dungeon_crawl.geometry import entrances
from companion.games.dungeon_crawl.state import Stack

from .table import CORRIDOR, GAME, act, kinds, position


def hit(coin: str, ann: str):
    """Ann moves from 0,0 onto the coin at 3,0, turns over a monster and rolls null."""
    state = position(CORRIDOR + f"set coin 3,0 {coin}\nset player Ann at=0,0 {ann}\n"
                     "set player Bob at=5,1\nset player Cat at=none")
    state, _ = act(state, "Ann move 3,0", "Ann reveal moons", "Ann roll null")
    return state


def test_dc24_equipment_applied_cancels_damage():
    state = hit("4", "equipment=3")
    assert GAME.legal_actions(state) == [Soak(0, n) for n in range(4)]
    state, events = act(state, "Ann soak 3")
    ann = state.players[0]
    assert (ann.damage, ann.soaked, ann.equipment, ann.wounds) == ((4,), 3, 0, 1)


def test_c10_no_more_equipment_than_the_damage_of_the_event():
    state = hit("2", "equipment=5")
    with pytest.raises(IllegalActionError, match="apply 0 to 2 equipment"):
        act(state, "Ann soak 3")


def test_dc25_ten_damage_after_equipment_kills():
    alive, _ = act(hit("2", "damage=5,3 soaked=1 equipment=1"), "Ann soak 0")
    assert alive.players[0].wounds == 9 and alive.players[0].at == (3, 0)
    dead = hit("2", "damage=5,3")  # no equipment: no soak step
    assert dead.players[0].dead and dead.players[0].at is None


def test_dc26_death_discards_experience_and_leaves_a_stack():
    state = position(CORRIDOR + "set coin 3,0 3\nset player Ann at=0,0 damage=4,3 treasures=4,1 "
                     "equipment=1 trap_xp=2 monster_xp=1\nset player Bob at=5,1\n"
                     "set player Cat at=none")
    state, events = act(state, "Ann move 3,0", "Ann reveal moons", "Ann spend 1", "Ann roll 2",
                        "Ann soak 0")
    ann = state.players[0]
    assert "died" in kinds(events)
    assert state.stacks == (Stack((3, 0), (4, 1), 1),)
    assert (ann.at, ann.dead, ann.treasures, ann.equipment, ann.trap_xp, ann.monster_xp,
            ann.damage, ann.soaked) == (None, True, (), 0, 0, 0, (), 0)


def test_dc27_the_dead_re_enter_at_an_entrance_as_their_whole_turn():
    state = position(CORRIDOR + "set coin 0,0 1\nset player Ann at=none\n"
                     "set player Bob at=5,1\nset player Cat at=none")
    legal = GAME.legal_actions(state)
    assert legal == [*(Reenter(0, s) for s in entrances(state)), Pass(0)]
    assert not any(isinstance(a, Move) for a in legal)
    state, events = act(state, "Ann reenter 4,1")
    assert state.players[0].at == (4, 1) and state.current == 1 and state.pending is None
    waited, events = act(position(CORRIDOR + "set player Ann at=none\nset player Bob at=5,1\n"
                                  "set player Cat at=none"), "Ann pass")
    assert kinds(events) == ["waited"] and waited.players[0].at is None


def test_dc28_landing_on_a_stack_takes_all_of_it():
    state = position(CORRIDOR + "set stack 3,0 treasures=4,1 equipment=2\n"
                     "set player Ann at=none\nset player Bob at=0,0 treasures=2 equipment=1\n"
                     "set player Cat at=4,1\nset turn Bob")
    state, events = act(state, "Bob move 3,0")
    bob = state.players[1]
    assert (bob.treasures, bob.equipment, state.stacks) == ((2, 4, 1), 3, ())
    assert state.current == 2 and state.pending is None  # C-12: no attack on Cat at 4,1
    assert GAME.describe(state, events[-1]) == (
        "Bob picks up the stack at 3,0: 2 treasures and 2 equipment.")
