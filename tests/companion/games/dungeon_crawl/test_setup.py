"""Setup [DC §Setup]: DC.1-DC.9 and rulings C-3, C-4, C-8, C-19, C-20."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalActionError
from companion.games.dungeon_crawl.actions import LayTile, PlaceCoin, PlacePawn
from companion.games.dungeon_crawl.geometry import entrances, placements, spaces_of

from .table import GAME, act, build, position

STAND = "Bob pawns north=suns east=moons south=crowns west=arms"


def started():  # Bob builds first and has laid and stood tile one
    state = GAME.new_game(["Ann", "Bob", "Cat"])
    state, _ = act(state, "Bob first", "Bob lay suns:3 0,0", STAND)
    return state


def test_dc1_two_to_four_players_each_with_a_colour():
    with pytest.raises(ValueError, match="2 to 4 players"):
        GAME.new_game(["Ann"])
    with pytest.raises(ValueError, match="2 to 4 players"):
        GAME.new_game(["A", "B", "C", "D", "E"])
    state = GAME.new_game([("Ann", "blue"), "Bob", ("Cat", "moons")])
    assert [p.suit for p in state.players] == ["arms", "suns", "moons"]
    with pytest.raises(ValueError, match="same colour"):
        GAME.new_game([("Ann", "red"), ("Bob", "suns")])


def test_dc2_first_builder_lays_tile_one_and_stands_the_four_pawns():
    state = GAME.new_game(["Ann", "Bob", "Cat"])
    assert GAME.deciders(state) == (0, 1, 2)  # C-19: the table's roll is entered
    state, _ = act(state, "Bob first")
    assert GAME.deciders(state) == (1,)
    assert [a.at for a in GAME.legal_actions(state) if isinstance(a, LayTile)] == [(0, 0)] * 24
    state, _ = act(state, "Bob lay suns:3 0,0")
    assert len(GAME.legal_actions(state)) == 24  # every way to stand four pawns
    state, _ = act(state, STAND)
    assert state.directions == (("suns", "north"), ("moons", "east"), ("crowns", "south"),
                                ("arms", "west"))
    assert state.current == 2  # building goes on with the second player (Bob's left)


def test_dc3_tile_goes_against_the_last_tile_in_its_pawns_direction():
    state = started()
    laid = [a.at for a in GAME.legal_actions(state) if isinstance(a, LayTile)
            and a.suit == "moons"]
    assert laid == [(1, 0)] * 6  # moons point east of tile one
    state, _ = act(state, "Cat lay moons:2 1,0", "Cat coin 2,0 4")
    # north of the last tile laid (1,0), not of tile one
    assert {a.at for a in GAME.legal_actions(state) if isinstance(a, LayTile)
            and a.suit == "suns"} == {(1, 1)}
    with pytest.raises(IllegalActionError, match="goes at 1,1"):
        act(state, "Ann lay suns:1 0,1")


def test_dc4_taken_place_falls_back_beyond_the_furthest_edge():
    # C-4: beyond any tile of the outermost row or column in that direction
    assert placements({(0, 0), (1, 0), (2, 0)}, (2, 0), "west") == [(-1, 0)]
    square = {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert placements(square, (1, 0), "north") == [(0, 2), (1, 2)]
    assert placements(square, (0, 1), "south") == [(0, -1), (1, -1)]
    state = started()
    state, _ = act(state, "Cat lay moons:2 1,0", "Cat coin 2,0 4")
    # arms point west: (0,0) is taken, so the tile goes beyond the westmost column
    state, _ = act(state, "Ann lay arms:1 -1,0", "Ann coin -2,0 1")
    assert state.tiles[-1].at == (-1, 0)


def test_dc5_a_coin_goes_on_the_new_tile_and_each_value_has_four_coins():
    state = started()
    state, _ = act(state, "Cat lay moons:2 1,0")
    coin_spaces = {a.space for a in GAME.legal_actions(state) if isinstance(a, PlaceCoin)}
    assert coin_spaces == set(spaces_of((1, 0))) == {(2, 0), (3, 0), (2, 1), (3, 1)}
    with pytest.raises(IllegalActionError, match="tile just laid"):
        act(state, "Cat coin 0,0 4")
    state, _ = act(state, "Cat coin 3,1 4", "Ann lay moons:3 2,0", "Ann coin 4,0 4",
                   "Bob lay moons:4 3,0", "Bob coin 6,0 4", "Cat lay moons:5 4,0", "Cat coin 8,0 4",
                   "Ann lay moons:1 5,0")
    assert 4 not in {a.value for a in GAME.legal_actions(state) if isinstance(a, PlaceCoin)}
    with pytest.raises(IllegalActionError, match="no 4 coin is left"):
        act(state, "Ann coin 10,0 4")


def test_dc6_first_builder_places_the_last_coin_on_tile_one():
    state = build(started())
    assert state.phase == "last_coin" and state.current == 1  # Bob, the first builder
    legal = GAME.legal_actions(state)
    assert {a.space for a in legal if isinstance(a, PlaceCoin)} == set(spaces_of((0, 0)))
    assert len({a.value for a in legal if isinstance(a, PlaceCoin)}) == 1  # the coin left
    state, _ = GAME.apply(state, legal[0])
    assert len(state.coins) == 24 and state.phase == "place_pawns"
    per_tile = sorted(sum(1 for c in state.coins if c.at in spaces_of(t.at)) for t in state.tiles)
    assert per_tile == [1] * 24
    assert state.directions == ()  # the pawns are taken off tile one


def test_dc7_each_player_places_the_pawn_of_the_player_to_their_left():
    state = build(started())
    state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    order = []
    for _ in range(3):
        action = GAME.legal_actions(state)[0]
        assert isinstance(action, PlacePawn)
        order.append(action.player)
        state, events = GAME.apply(state, action)
        assert events[0].other == (action.player + 1) % 3
    assert order == [1, 2, 0]  # Bob (first builder) places Cat's, Cat Ann's, Ann Bob's
    assert all(p.at is not None for p in state.players)


def test_dc7_two_players_use_two_pawns():
    state = GAME.new_game(["Ann", "Bob"])
    state, _ = act(state, "Ann first", "Ann lay suns:3 0,0",
                   "Ann pawns north=suns east=moons south=crowns west=arms")
    state = build(state)
    for _ in range(3):
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.phase == "play" and len([p for p in state.players if p.at]) == 2


def test_dc8_entrances_are_empty_spaces_on_the_enclosing_rectangle():
    state = position("""
        set tile 0,0 suns:0
        set tile 1,0 suns:1
        set tile 2,0 suns:2
        set tile 1,1 suns:3
        set tile 1,-1 suns:4
        set coin 0,0 3
        set stack 3,3 equipment=1
        set player Ann at=5,1
        set player Bob at=none
        set player Cat at=none
        set turn Bob
    """)
    assert entrances(state) == [(0, 1), (2, -2), (2, 3), (3, -2), (5, 0)]
    with pytest.raises(IllegalActionError, match="not an entrance"):
        act(state, "Bob reenter 1,0")


def test_dc9_play_begins_with_the_first_builder_and_passes_left():
    state = build(started())
    for _ in range(4):
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.phase == "play" and state.current == 1 and state.turn == 1
    state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    while state.pending is not None:
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.current == 2


def test_c20_each_tile_exists_once_and_the_last_tile_laid_is_tracked():
    state = started()
    with pytest.raises(IllegalActionError, match="already laid"):
        act(state, "Cat lay suns:3 1,1")
    state, _ = act(state, "Cat lay moons:2 1,0", "Cat coin 2,0 4")
    assert state.tiles[-1].at == (1, 0)
