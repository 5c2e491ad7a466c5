"""The end [DC §Play; §Game Ending and Winning]: DC.10, DC.11 and rulings C-15, C-16."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError

from .table import CORRIDOR, GAME, act, kinds, position


def five_found(ann: str, bob: str, cat: str):
    return position(CORRIDOR + "set coin 3,0 0\nset coin 5,1 2\n"
                    f"set player Ann at=0,0 treasures={ann}\nset player Bob at=5,0 treasures={bob}"
                    f"\nset player Cat at=4,1 treasures={cat}")


def test_dc10_play_goes_on_until_the_sixth_treasure():
    state = five_found("5,1", "4,3", "2")
    assert state.crowns_revealed == 5
    state, _ = act(state, "Ann move 3,0", "Ann reveal suns", "Ann roll ace")
    assert state.outcome is None and state.current == 1


def test_dc11_the_sixth_treasure_ends_the_game_and_the_highest_total_wins():
    state, events = act(five_found("5,1", "4,3", "2"), "Ann move 3,0", "Ann reveal crowns")
    assert state.outcome.winner == "Bob" and state.outcome.reason == "sixth_treasure"
    assert state.outcome.standings == (("Bob", 7), ("Ann", 6), ("Cat", 2))
    assert kinds(events)[-1] == "game_over" and state.phase == "over"
    assert GAME.describe(state, events[-1]) == "The sixth treasure is found: Bob wins with 7."


def test_dc11_a_tie_goes_to_the_single_most_valuable_treasure():
    state, _ = act(five_found("4,1", "5", "2,3"), "Ann move 3,0", "Ann reveal crowns")
    assert state.outcome.standings == (("Bob", 5), ("Ann", 5), ("Cat", 5))
    assert state.outcome.winner == "Bob"  # 5 beats Cat's 3 and Ann's 4


def test_c15_tied_players_with_no_valued_treasure_share_the_win():
    state = position(CORRIDOR + "set coin 3,0 5\nset stack 5,1 treasures=0,1,2,3,4\n"
                     "set player Ann at=0,0\nset player Bob at=5,0\nset player Cat at=4,1")
    state, _ = act(state, "Ann move 3,0", "Ann reveal crowns")
    assert state.outcome.winner == "Ann"
    shared = position(CORRIDOR + "set coin 3,0 0\nset stack 5,1 treasures=1,2,3,4,5\n"
                      "set player Ann at=0,0\nset player Bob at=5,0\nset player Cat at=4,1")
    shared, events = act(shared, "Ann move 3,0", "Ann reveal crowns")
    assert (shared.outcome.winner, shared.outcome.reason) == (None, "shared")


def test_c16_nothing_more_happens_after_the_sixth_treasure():
    state, _ = act(five_found("5,1", "4,3", "2"), "Ann move 3,0", "Ann reveal crowns")
    assert GAME.legal_actions(state) == [] and GAME.deciders(state) == ()
    assert GAME.dice_prompt(state) is None
    with pytest.raises(IllegalActionError, match="game is over"):
        act(state, "Bob move 4,0")
