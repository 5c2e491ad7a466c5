"""Dice [DC §Setup: "give each player a die"]: the piecepack die and the d6 option (C-1)."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import Roll
from companion.games.dungeon_crawl.pieces import PIECEPACK_DIE
from companion.games.dungeon_crawl.state import Options

from .table import CORRIDOR, GAME, act, position


def at_the_roll(options=None):
    state = position(CORRIDOR + "set coin 3,0 5\nset player Ann at=0,0\nset player Bob at=5,1\n"
                     "set player Cat at=none", options=options)
    state, _ = act(state, "Ann move 3,0", "Ann reveal moons")
    return state


def test_the_piecepack_die_reads_null_ace_then_numbers():
    prompt = GAME.dice_prompt(at_the_roll())
    assert (prompt.player, prompt.dice, prompt.purpose) == (0, (PIECEPACK_DIE,), "the monster (5)")
    assert [PIECEPACK_DIE.label(v) for v in PIECEPACK_DIE.faces] == [
        "null", "ace", "2", "3", "4", "5"]
    assert GAME.roll_action(at_the_roll(), prompt, (4,)) == Roll(0, 4)
    with pytest.raises(IllegalActionError, match="cannot show 6"):
        GAME.roll_action(at_the_roll(), prompt, (6,))


def test_the_d6_option_rolls_one_to_six():
    state = at_the_roll(Options(die="d6"))
    assert GAME.dice_prompt(state).dice[0].faces == (1, 2, 3, 4, 5, 6)
    with pytest.raises(IllegalActionError, match="d6 die cannot show 0"):
        act(state, "Ann roll 0")
    state, _ = act(state, "Ann roll 6")
    assert state.players[0].monster_xp == 1  # 6 beats a 5 monster


def test_the_defender_rolls_their_own_die():
    state = position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=2,1\n"
                     "set player Cat at=none")
    state, _ = act(state, "Ann move 1,0", "Ann attack Bob", "Ann roll 3")
    prompt = GAME.dice_prompt(state)
    assert (prompt.player, prompt.purpose) == (1, "the defence")
    with pytest.raises(IllegalActionError, match="waits for Bob"):
        act(state, "Ann roll 3")
