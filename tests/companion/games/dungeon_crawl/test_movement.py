"""Turn and movement [DC §Turn Sequence; §Movement]: DC.12, DC.15, DC.16 and rulings C-5, C-6."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import Move, Pass

from .table import CORRIDOR, GAME, act, kinds, position


def dests(state):
    return [a.to for a in GAME.legal_actions(state) if isinstance(a, Move)]


def test_dc12_a_player_must_move_and_passes_only_when_boxed_in():
    state = position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=5,1\n"
                     "set player Cat at=none")
    with pytest.raises(IllegalActionError, match="must move"):
        act(state, "Ann pass")
    boxed = position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=1,0\n"
                     "set player Cat at=0,1\nset player Dan at=1,1",
                     players=("Ann", "Bob", "Cat", "Dan"))
    assert GAME.legal_actions(boxed) == [Pass(0)]
    after, events = act(boxed, "Ann pass")
    assert kinds(events) == ["stuck"] and after.current == 1


def test_dc15_moves_are_queen_lines_of_any_length():
    state = position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=none\n"
                     "set player Cat at=none")
    assert dests(state) == [(0, 1), (1, 0), (1, 1), (2, 0), (3, 0), (4, 0), (5, 0)]
    state, events = act(state, "Ann move 5,0")
    assert state.players[0].at == (5, 0) and kinds(events) == ["moved"]


def test_dc16_a_coin_stops_the_mover_and_no_one_passes_a_character():
    state = position(CORRIDOR + "set coin 3,0 2\nset player Ann at=0,0\n"
                     "set player Bob at=1,1\nset player Cat at=none")
    assert dests(state) == [(0, 1), (1, 0), (2, 0), (3, 0)]
    with pytest.raises(IllegalActionError, match="cannot move to 4,0"):
        act(state, "Ann move 4,0")
    with pytest.raises(IllegalActionError, match="cannot move to 1,1"):
        act(state, "Ann move 1,1")
    with pytest.raises(IllegalActionError, match="cannot move to 2,2"):
        act(state, "Ann move 2,2")


def test_c5_lines_stop_at_gaps_but_cross_corners_where_spaces_exist():
    gap = position("set tile 0,0 suns:0\nset tile 2,0 suns:1\nset player Ann at=1,0\n"
                   "set player Bob at=none\nset player Cat at=none")
    assert dests(gap) == [(0, 0), (0, 1), (1, 1)]  # 2,0 is one tile off: no jumping
    corner = position("set tile 0,0 suns:0\nset tile 1,1 suns:1\nset player Ann at=0,0\n"
                      "set player Bob at=none\nset player Cat at=none")
    assert dests(corner) == [(0, 1), (1, 0), (1, 1), (2, 2), (3, 3)]


def test_c6_a_stack_stops_the_mover_like_a_coin():
    state = position(CORRIDOR + "set stack 2,0 equipment=1\nset player Ann at=0,0\n"
                     "set player Bob at=none\nset player Cat at=none")
    assert dests(state) == [(0, 1), (1, 0), (1, 1), (2, 0)]
