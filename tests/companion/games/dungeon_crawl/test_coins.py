"""Coins [DC §Turn Sequence; §Springing a Trap; §Fighting a Monster; §Finding Treasure;
§Finding Equipment]: DC.13, DC.17-DC.20 and rulings C-1, C-2, C-8, C-9, C-18."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import Reveal, Roll, Spend

from .table import CORRIDOR, GAME, act, kinds, position


def landed(coin: str, ann: str = "", extra: str = "", options=None):
    """Ann at 0,0 moves onto the coin at 3,0; Bob stands next to that coin at 4,1."""
    state = position(CORRIDOR + f"set coin 3,0 {coin}\n{extra}\nset player Ann at=0,0 {ann}\n"
                     "set player Bob at=4,1\nset player Cat at=none", options=options)
    state, _ = act(state, "Ann move 3,0")
    return state


def test_dc13_landing_on_a_coin_turns_it_over_and_takes_it_off_the_board():
    state = landed("4")
    assert state.pending.step == "reveal" and state.coin_at((3, 0)) is None  # C-9
    assert GAME.legal_actions(state) == [Reveal(0, s) for s in ("suns", "moons", "crowns", "arms")]
    state, events = act(state, "Ann reveal arms")
    assert ("arms", 4) in state.revealed
    assert state.current == 1 and state.pending is None  # no attack after a coin (DC.14)


def test_dc17_trap_beaten_by_roll_plus_spent_experience_above_its_value():
    state, events = act(landed("4", "trap_xp=2"), "Ann reveal suns", "Ann spend 2", "Ann roll 3")
    ann = state.players[0]
    assert (ann.trap_xp, ann.damage) == (1, ())  # 2 spent, then the trap is 1 experience
    assert kinds(events) == ["revealed", "spent", "rolled", "beaten"]


def test_dc17_trap_not_beaten_injures_for_its_value():
    state, events = act(landed("4", "trap_xp=2"), "Ann reveal suns", "Ann spend 1", "Ann roll 3")
    ann = state.players[0]
    assert (ann.trap_xp, ann.damage, ann.wounds) == (1, (4,), 4)  # 3 + 1 is not above 4
    assert kinds(events)[-1] == "injured" and state.current == 1


def test_dc18_monster_uses_monster_experience_only():
    state, _ = act(landed("3", "trap_xp=3 monster_xp=1"), "Ann reveal moons")
    assert GAME.legal_actions(state) == [Spend(0, 0), Spend(0, 1)]
    with pytest.raises(IllegalActionError, match="1 monster experience"):
        act(state, "Ann spend 2")
    state, events = act(state, "Ann spend 1", "Ann roll 3")
    ann = state.players[0]
    assert (ann.trap_xp, ann.monster_xp, ann.damage) == (3, 1, ())  # 3 + 1 > 3: defeated
    lost, _ = act(landed("3", "trap_xp=3"), "Ann reveal moons")
    assert lost.pending.step == "roll"  # no monster experience: straight to the die
    lost, _ = act(lost, "Ann roll 3")
    assert (lost.players[0].monster_xp, lost.players[0].damage) == (0, (3,))


def test_c1_a_five_cannot_be_beaten_without_experience_on_a_piecepack_die():
    state, _ = act(landed("5"), "Ann reveal moons")
    assert [a.value for a in GAME.legal_actions(state) if isinstance(a, Roll)] == [0, 1, 2, 3, 4, 5]
    state, _ = act(state, "Ann roll 5")
    assert state.players[0].damage == (5,)


def test_c2_a_null_trap_is_beaten_by_an_ace_and_injures_for_nothing():
    beaten, _ = act(landed("null"), "Ann reveal suns", "Ann roll ace")
    assert beaten.players[0].trap_xp == 1
    hurt, events = act(landed("0"), "Ann reveal suns", "Ann roll null")
    assert hurt.players[0].damage == (0,) and hurt.players[0].wounds == 0


def test_dc19_treasure_is_shown_then_kept_suit_up():
    state, events = act(landed("4"), "Ann reveal crowns")
    assert state.players[0].treasures == (4,)
    assert GAME.describe(state, events[-1]) == "Ann finds a treasure worth 4."
    assert GAME.peek(state, 0) == (4,)


def test_dc20_equipment_is_one_point_whatever_its_value():
    state, events = act(landed("5", "equipment=1"), "Ann reveal arms")
    assert state.players[0].equipment == 2 and kinds(events) == ["revealed", "equipment"]


def test_c18_each_coin_exists_once():
    state = landed("4", extra="set revealed suns:4 crowns:4")
    assert GAME.legal_actions(state) == [Reveal(0, "moons"), Reveal(0, "arms")]
    with pytest.raises(IllegalActionError, match="cannot be under this coin"):
        act(state, "Ann reveal suns")
    known = landed("4 suit=moons")
    assert GAME.legal_actions(known) == [Reveal(0, "moons")]
