"""The dungeon's shape: tiles of 2x2 spaces, where a drawn tile may go, entrances, queen lines
and adjacency. Pure functions of tile and space coordinates.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from companion.games.dungeon_crawl.pieces import DIRECTIONS
from companion.games.dungeon_crawl.state import CrawlState, Space, TileAt

QUEEN_STEPS: tuple[Space, ...] = (
    (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
ROOK_STEPS: tuple[Space, ...] = QUEEN_STEPS[:4]


def tile_of(space: Space) -> TileAt:
    return (space[0] // 2, space[1] // 2)


def spaces_of(tile: TileAt) -> tuple[Space, ...]:
    """The four spaces of a tile, south-west first then row by row."""
    tx, ty = tile
    return ((2 * tx, 2 * ty), (2 * tx + 1, 2 * ty), (2 * tx, 2 * ty + 1), (2 * tx + 1, 2 * ty + 1))


def all_spaces(tiles: Iterable[TileAt]) -> list[Space]:
    return [s for t in tiles for s in spaces_of(t)]


def placements(tiles: Collection[TileAt], last: TileAt, direction: str) -> list[TileAt]:
    """Where a tile whose pawn points ``direction`` may be laid [DC §Setup steps 2-3]: against
    that edge of the last tile laid; when that place is taken, beyond any tile of the dungeon's
    outermost row or column in that direction (ruling C-4)."""
    dx, dy = DIRECTIONS[direction]
    target = (last[0] + dx, last[1] + dy)
    if target not in tiles:
        return [target]
    if dx:
        edge = max(t[0] * dx for t in tiles) * dx
        return sorted((edge + dx, t[1]) for t in tiles if t[0] == edge)
    edge = max(t[1] * dy for t in tiles) * dy
    return sorted((t[0], edge + dy) for t in tiles if t[1] == edge)


def bounds(tiles: Iterable[TileAt]) -> tuple[int, int, int, int]:
    """The smallest rectangle of spaces holding every tile: (min x, min y, max x, max y)."""
    spaces = all_spaces(tiles)
    xs = [s[0] for s in spaces]
    ys = [s[1] for s in spaces]
    return min(xs), min(ys), max(xs), max(ys)


def is_empty(state: CrawlState, space: Space) -> bool:
    """No coin, no stack and no character on ``space``."""
    return (state.coin_at(space) is None and state.stack_at(space) is None
            and state.player_at(space) is None)


def entrances(state: CrawlState) -> list[Space]:
    """Empty spaces touching the rectangle that encloses the dungeon [DC §Setup] (ruling C-8:
    a death stack makes a space not empty)."""
    if not state.tiles:
        return []
    tiles = [t.at for t in state.tiles]
    x0, y0, x1, y1 = bounds(tiles)
    return sorted(s for s in all_spaces(tiles)
                  if (s[0] in (x0, x1) or s[1] in (y0, y1)) and is_empty(state, s))


def moves(state: CrawlState, start: Space) -> list[Space]:
    """Every space a character on ``start`` may move to [DC §Movement]: straight lines in the
    eight directions, over spaces that exist (ruling C-5), stopping on a coin or a stack, never
    onto or past another character (ruling C-6)."""
    tiles = {t.at for t in state.tiles}
    blocked = {p.at for p in state.players if p.at is not None}
    stops = {c.at for c in state.coins} | {s.at for s in state.stacks}
    found: list[Space] = []
    for dx, dy in QUEEN_STEPS:
        x, y = start
        while True:
            x, y = x + dx, y + dy
            if tile_of((x, y)) not in tiles or (x, y) in blocked:
                break
            found.append((x, y))
            if (x, y) in stops:
                break
    return sorted(found)


def neighbours(space: Space, adjacency: int) -> list[Space]:
    steps = QUEEN_STEPS if adjacency == 8 else ROOK_STEPS
    return [(space[0] + dx, space[1] + dy) for dx, dy in steps]


def adjacent_characters(state: CrawlState, seat: int) -> list[int]:
    """The seats whose characters stand next to ``seat``'s character (ruling C-7)."""
    here = state.players[seat].at
    if here is None:
        return []
    near = set(neighbours(here, state.options.adjacency))
    return [i for i, p in enumerate(state.players) if i != seat and p.at in near]
