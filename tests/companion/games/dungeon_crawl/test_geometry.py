"""Geometry properties over many random dungeons: placements touch the dungeon and never
overlap it, and every listed move is a straight line over free spaces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.dungeon_crawl.geometry import QUEEN_STEPS, moves, placements, tile_of
from companion.games.dungeon_crawl.pieces import DIRECTION_NAMES
from companion.games.dungeon_crawl.state import Coin, CrawlState, Player, Tile

directions = st.lists(st.sampled_from(DIRECTION_NAMES), min_size=1, max_size=23)


def grow(steps: list[str], picks: list[int]) -> list[tuple[int, int]]:
    tiles = [(0, 0)]
    for i, direction in enumerate(steps):
        places = placements(set(tiles), tiles[-1], direction)
        assert places and all(p not in tiles for p in places)
        assert all(any(abs(p[0] - t[0]) + abs(p[1] - t[1]) == 1 for t in tiles) for p in places)
        tiles.append(places[picks[i % len(picks)] % len(places)])
    return tiles


@settings(max_examples=200, deadline=None)
@given(directions, st.lists(st.integers(0, 10), min_size=1, max_size=5))
def test_placements_touch_the_dungeon_and_never_overlap(steps, picks):
    tiles = grow(steps, picks)
    assert len(set(tiles)) == len(tiles)


@settings(max_examples=200, deadline=None)
@given(directions, st.lists(st.integers(0, 10), min_size=1, max_size=5),
       st.integers(0, 1000), st.integers(0, 1000))
def test_every_move_is_a_clear_straight_line(steps, picks, where, blocker):
    tiles = grow(steps, picks)
    spaces = [(2 * tx + dx, 2 * ty + dy) for tx, ty in tiles for dx in (0, 1) for dy in (0, 1)]
    start = spaces[where % len(spaces)]
    other = spaces[blocker % len(spaces)]
    coins = tuple(Coin(s, 1) for s in spaces[::5] if s not in (start, other))
    state = CrawlState(players=(Player("Ann", "suns", at=start),
                                Player("Bob", "moons", at=other if other != start else None)),
                       phase="play", tiles=tuple(Tile(t, "suns", 0) for t in tiles), coins=coins)
    coin_spaces = {c.at for c in coins}
    for to in moves(state, start):
        dx, dy = to[0] - start[0], to[1] - start[1]
        n = max(abs(dx), abs(dy))
        step = (dx // n, dy // n)
        assert step in QUEEN_STEPS and (step[0] * n, step[1] * n) == (dx, dy)
        path = [(start[0] + step[0] * k, start[1] + step[1] * k) for k in range(1, n + 1)]
        assert all(tile_of(p) in set(tiles) for p in path)
        assert other not in path
        assert not coin_spaces & set(path[:-1])
