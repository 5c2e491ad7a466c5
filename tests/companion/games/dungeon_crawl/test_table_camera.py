"""Tiles and pawns on the marker sheet, read for the kiosk's pawn check: each pawn is its suit's
player's, a pawn standing where its player may go pre-selects that choice, tiles that differ
from the game's dungeon are named; the demo's table is read by the piecepack readers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from companion.games.dungeon_crawl.actions import Move, PlacePawn, Reenter
from companion.games.dungeon_crawl.camera import (
    CrawlTableReader,
    place_number,
    place_space,
    seen_choice,
    table_notes,
)
from companion.games.dungeon_crawl.demo_table import CrawlDemoTable, scene_of
from companion.games.dungeon_crawl.presenter import CrawlPresenter
from companion.games.dungeon_crawl.state import CrawlState
from companion.kiosk.pawn_check import BoardSeen
from companion.kiosk.table_feed import TableProcessor
from tests.companion.games.dungeon_crawl.table import CORRIDOR, GAME, act, position

# Ann suns (red), Bob moons (black), Cat crowns (yellow)


def test_spaces_are_numbered_for_the_pawn_check_and_named_back() -> None:
    for space in [(0, 0), (-7, 3), (11, -9), (-127, 127)]:
        assert place_space(place_number(space)) == space
    presenter = CrawlPresenter(GAME)
    state = position(CORRIDOR + "set player Ann at=3,1\nset player Bob at=none")
    assert presenter.place_of(state, 0) == place_number((3, 1))
    assert presenter.place_of(state, 1) is None
    assert presenter.place_name(place_number((3, 1))) == "3,1"


def at_move() -> CrawlState:
    return position(CORRIDOR + "set coin 3,0 4\nset player Ann at=0,0\nset player Bob at=2,1\n"
                    "set player Cat at=5,0")


def seen(**pawns: tuple[int, int]) -> BoardSeen:
    return BoardSeen("ok", "", {place_number(sp): (name,) for name, sp in pawns.items()}, True)


def test_a_pawn_standing_on_a_legal_square_is_the_move_seen() -> None:
    state = at_move()
    assert seen_choice(state, GAME, seen(Ann=(1, 1), Bob=(2, 1))) == Move(0, (1, 1))
    assert seen_choice(state, GAME, seen(Ann=(0, 0), Bob=(2, 1))) is None  # not moved yet
    assert seen_choice(state, GAME, seen(Ann=(4, 0), Bob=(2, 1))) is None  # past the coin
    assert seen_choice(state, GAME, seen(Bob=(1, 1))) is None  # not Ann's pawn


def test_a_dead_players_pawn_at_an_entrance_is_the_re_entry_seen() -> None:
    state = position(CORRIDOR + "set player Ann at=dead\nset player Bob at=2,1\n"
                     "set player Cat at=5,0")
    assert seen_choice(state, GAME, seen(Ann=(1, 1), Bob=(2, 1))) == Reenter(0, (1, 1))


def test_a_pawn_placed_at_an_entrance_is_the_placement_seen() -> None:
    state = GAME.new_game(["Ann", "Bob"])
    while state.phase != "place_pawns":
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    a = next(a for a in GAME.legal_actions(state) if isinstance(a, PlacePawn))
    owner = state.players[state.next_seat(a.player)].name
    assert seen_choice(state, GAME, seen(**{owner: a.space})) == a


@dataclass(frozen=True)
class Detail:
    tiles: tuple[tuple[int, int], ...]
    unsure_tiles: tuple[tuple[int, int], ...] = ()


def test_tiles_that_differ_from_the_dungeon_are_named() -> None:
    state = at_move()
    board = BoardSeen("ok", "", {}, True, Detail(((0, 0), (1, 0), (3, 0))))
    assert table_notes(state, board) == (
        "The camera sees no tile at 2,0, the game has one there: is it covered?",
        "The camera sees a tile at 3,0 where the game has none: take it away or enter it")
    unsure = BoardSeen("ok", "", {}, True, Detail(((0, 0), (1, 0)), ((2, 0),)))
    assert table_notes(state, unsure) == ()


@pytest.fixture(scope="module")
def rendered() -> tuple[Any, np.ndarray]:
    state = at_move()
    state, _ = act(state, "Ann move 1,1")
    table = CrawlDemoTable(GAME, state, (2304, 1296), seed=3)
    return state, table.read()


def test_the_table_reader_finds_each_pawn_on_its_space_by_its_players_colour(
        rendered: tuple[Any, np.ndarray]) -> None:
    state, frame = rendered
    reader = CrawlTableReader(state)
    processor = TableProcessor(None, reader)  # the kiosk's path: the frame shrunk to 1280
    reading = processor(frame)
    board = reading.board
    assert board is not None and board.status == "ok", board
    assert board.occupants == {place_number((1, 1)): ("Ann",), place_number((2, 1)): ("Bob",),
                               place_number((5, 0)): ("Cat",)}
    assert sorted(board.detail.tiles) == [(0, 0), (1, 0), (2, 0)]
    assert table_notes(state, board) == ()
    assert len(reading.corners) == 4
    assert board.covers is not None and place_number((1, 1)) in board.covers
    again = processor(frame)  # the same picture: not read again, and now stable
    assert again.board is not None and again.board.stable
    assert again.board.occupants == board.occupants


def test_a_pawn_moved_one_square_is_read_again(rendered: tuple[Any, np.ndarray]) -> None:
    state, frame = rendered
    processor = TableProcessor(None, CrawlTableReader(state))
    processor(frame)
    table = CrawlDemoTable(GAME, state, (2304, 1296), seed=3)
    table.present(state, Move(0, (0, 1)))  # as if Ann had moved on: the picture differs a little
    board = processor(table.read()).board
    assert board is not None and board.occupants.get(place_number((0, 1))) is not None
    assert place_number((1, 1)) not in board.occupants


def test_spaces_outside_the_marked_square_are_not_claimed() -> None:
    from companion.games.dungeon_crawl.camera import in_view

    # the reader's window: tiles -4..5 east-west, -4..4 north-south (tile 0,0 in the middle)
    assert in_view((0, 0)) and in_view((-8, -8)) and in_view((11, 9))
    assert not in_view((-9, 0)) and not in_view((12, 0)) and not in_view((0, 10))
    assert not in_view((0, -9))


def test_the_demo_tables_die_is_read_by_the_piecepack_reader_with_its_colour() -> None:
    from vision.piecepack import PiecepackConfig, read_pieces

    state = at_move()
    state, _ = act(state, "Ann move 3,0", "Ann reveal moons")
    table = CrawlDemoTable(GAME, state, (2304, 1296), seed=5)
    table.wrong_thrown = True  # no wrong die first here
    table.roll((4,), frames=0)
    obs = read_pieces(table.read(), PiecepackConfig(region=table.dice_region))
    assert [(d.suit, d.value) for d in obs.dice] == [("suns", 4)]
    table.show(state)
    assert scene_of(state).dice == () and table.scene.dice == ()

