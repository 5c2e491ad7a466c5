"""Attacks [DC §Turn Sequence; §Attacking Another Character]: DC.14, DC.21-DC.23 and rulings
C-7, C-14."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import Attack, Pass, Spoils, TreasureTaken
from companion.games.dungeon_crawl.state import Options

from .table import CORRIDOR, GAME, act, kinds, position


def beside(ann: str = "", bob: str = "", options=None):
    """Ann at 0,0 moves to 1,0, diagonally next to Bob at 2,1; Cat is far off at 5,0."""
    state = position(CORRIDOR + f"set player Ann at=0,0 {ann}\nset player Bob at=2,1 {bob}\n"
                     "set player Cat at=5,0", options=options)
    state, _ = act(state, "Ann move 1,0")
    return state


def test_dc14_landing_next_to_a_character_offers_an_attack():
    state = beside()
    assert GAME.legal_actions(state) == [Attack(0, 1), Pass(0)]
    after, events = act(state, "Ann pass")
    assert kinds(events) == ["no_attack"] and after.current == 1


def test_c7_four_way_adjacency_leaves_out_diagonals():
    state = beside(options=Options(adjacency=4))
    assert state.pending is None and state.current == 1


def test_attacking_a_character_not_adjacent_is_refused():
    state = beside()
    with pytest.raises(IllegalActionError, match="Cat is not next to Ann: attack Bob or pass"):
        act(state, "Ann attack Cat")


def test_dc21_attacker_then_defender_spend_equipment():
    state, _ = act(beside("equipment=2", "equipment=1 treasures=3,5"), "Ann attack Bob")
    assert GAME.deciders(state) == (0,) and state.pending.step == "attack_spend"
    state, _ = act(state, "Ann spend 2")
    assert GAME.deciders(state) == (1,) and state.pending.step == "defend_spend"
    with pytest.raises(IllegalActionError, match="Bob has 1 equipment"):
        act(state, "Bob spend 2")
    state, _ = act(state, "Bob spend 1")
    assert (state.players[0].equipment, state.players[1].equipment) == (0, 0)
    assert GAME.dice_prompt(state).player == 0


def test_dc22_attack_fails_unless_higher():
    state, events = act(beside("equipment=2", "equipment=1 treasures=3,5"), "Ann attack Bob",
                        "Ann spend 2", "Bob spend 1", "Ann roll 2", "Bob roll 3")
    assert kinds(events)[-1] == "attack_failed"  # 2 + 2 is not above 3 + 1
    assert state.players[1].treasures == (3, 5) and state.current == 1


def test_dc23_a_won_attack_takes_a_random_treasure():
    state, _ = act(beside("equipment=2", "equipment=1 treasures=3,5"), "Ann attack Bob",
                   "Ann spend 2", "Bob spend 1", "Ann roll 3", "Bob roll 3")
    # 5 beats 4; Bob's equipment is spent, so the spoils are a treasure, drawn at the table
    assert GAME.legal_actions(state) == [TreasureTaken(0, 3), TreasureTaken(0, 5)]
    state, events = act(state, "Ann took 5")
    assert (state.players[0].treasures, state.players[1].treasures) == ((5,), (3,))
    assert GAME.describe(state, events[-1]) == "Ann draws a treasure from Bob's holdings."


def test_dc23_the_attacker_chooses_treasure_or_equipment():
    state, _ = act(beside("", "equipment=2 treasures=4"), "Ann attack Bob", "Bob spend 0",
                   "Ann roll 4", "Bob roll 1")
    assert GAME.legal_actions(state) == [Spoils(0, "treasure"), Spoils(0, "equipment")]
    took_eq, _ = act(state, "Ann spoils equipment")
    assert (took_eq.players[0].equipment, took_eq.players[1].equipment) == (1, 1)
    took_tr, _ = act(state, "Ann spoils treasure")  # one treasure: no draw to enter
    assert (took_tr.players[0].treasures, took_tr.players[1].treasures) == ((4,), ())


def test_c14_nothing_to_take_yields_nothing():
    state, events = act(beside(), "Ann attack Bob", "Ann roll 2", "Bob roll 0")
    assert kinds(events)[-2:] == ["attack_won", "no_spoils"] and state.current == 1
