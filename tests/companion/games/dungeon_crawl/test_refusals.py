"""Bad input is refused with a message saying what was wrong, and nothing changes."""

from __future__ import annotations

import copy

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import Attack, LayTile, Move, Roll, Spend

from .table import CORRIDOR, GAME, act, position


def board():
    return position(CORRIDOR + "set coin 3,0 4\nset player Ann at=0,0 trap_xp=1\n"
                    "set player Bob at=1,1\nset player Cat at=5,1")


@pytest.mark.parametrize(("action", "problem"), [
    (Move(0, (2, 2)), "cannot move to 2,2"),  # through Bob at 1,1
    (Move(0, (4, 0)), "cannot move to 4,0"),  # past the coin at 3,0
    (Move(1, (2, 1)), "the game waits for Ann: Ann to move"),  # not Bob's turn
    (Spend(0, 1), "not now: Ann to move"),
    (Attack(0, 2), "not now"),
    (Roll(0, 3), "not now"),
    (LayTile(0, "suns", 5, (3, 0)), "not now"),
    (Move(7, (1, 0)), "no seat 7"),
])
def test_refused_and_nothing_changed(action, problem):
    state = board()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match=problem):
        GAME.apply(state, action)
    assert state == before and not GAME.is_legal(state, action)


def test_spending_experience_one_does_not_have():
    state, _ = act(board(), "Ann move 3,0", "Ann reveal suns")
    with pytest.raises(IllegalActionError, match="Ann has 1 trap experience: spend 0 to 1"):
        act(state, "Ann spend 2")


def test_a_tile_where_it_cannot_go_during_building():
    state = GAME.new_game(["Ann", "Bob"])
    state, _ = act(state, "Ann first")
    with pytest.raises(IllegalActionError, match="cannot go at 1,0: it goes at 0,0"):
        act(state, "Ann lay suns:1 1,0")
    with pytest.raises(IllegalActionError, match="waits for Ann"):
        act(state, "Bob lay suns:1 0,0")
