"""Building the dungeon and entering it [DC §Setup]: the first builder, tile one and its pawns,
the building turns (a tile, then a coin on it), the last coin, and the pawns at entrances.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from typing import cast

from companion.core.actions import Action
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.dungeon_crawl.actions import (
    First,
    LayTile,
    PlaceCoin,
    PlacePawn,
    StandPawns,
)
from companion.games.dungeon_crawl.geometry import entrances, placements, spaces_of
from companion.games.dungeon_crawl.pieces import (
    DIRECTION_NAMES,
    SUITS,
    TILES_PER_GAME,
    VALUES,
    value_label,
)
from companion.games.dungeon_crawl.state import Coin, CrawlState, Pending, Tile, TileAt, coins_left
from companion.games.dungeon_crawl.words import xy

Result = tuple[CrawlState, list[Event]]


# -- what may be done now -------------------------------------------------------------------
def tiles_left(state: CrawlState) -> list[tuple[str, int]]:
    laid = {(t.suit, t.value) for t in state.tiles}
    return [(s, v) for s in SUITS for v in VALUES if (s, v) not in laid]


def tile_places(state: CrawlState, suit: str) -> list[TileAt]:
    """Where a tile of ``suit`` may be laid now."""
    if not state.tiles:
        return [(0, 0)]
    direction = state.direction_of(suit)
    if direction is None:
        return []
    return placements({t.at for t in state.tiles}, state.tiles[-1].at, direction)


def coin_spaces(state: CrawlState) -> list[tuple[int, int]]:
    """The spaces of the tile that takes the next coin (the last tile laid, or tile one for the
    last coin) that hold no coin yet."""
    tile = (0, 0) if state.phase == "last_coin" else state.tiles[-1].at
    return [s for s in spaces_of(tile) if state.coin_at(s) is None]


def coin_values(state: CrawlState) -> list[int]:
    return [v for v in VALUES if coins_left(state, v) > 0]


def building_actions(state: CrawlState) -> list[Action]:
    seat = state.current
    if state.phase == "start":
        return [First(i) for i in range(len(state.players))]
    if state.phase in ("last_coin",) or (state.pending and state.pending.step == "coin"):
        return [PlaceCoin(seat, s, v) for s in coin_spaces(state) for v in coin_values(state)]
    if state.phase == "place_pawns":
        return [PlacePawn(seat, s) for s in entrances(state)]
    if len(state.tiles) == 1 and not state.directions:
        return [StandPawns(seat, cast(tuple[str, str, str, str], order))
                for order in permutations(SUITS)]
    return [LayTile(seat, suit, value, at) for suit, value in tiles_left(state)
            for at in tile_places(state, suit)]


# -- doing it ---------------------------------------------------------------------------------
def first(state: CrawlState, action: First) -> Result:
    if state.phase != "start":
        raise IllegalActionError("the first builder is already chosen")
    return (replace(state, phase="build", first=action.player, current=action.player),
            [Event("first_builder", action.player)])


def _check_turn(state: CrawlState, seat: int, doing: str) -> None:
    if seat != state.current:
        raise IllegalActionError(
            f"it is {state.players[state.current].name}'s turn to {doing}, not "
            f"{state.players[seat].name}'s")


def lay_tile(state: CrawlState, action: LayTile) -> Result:
    if state.phase != "build" or state.pending is not None or (
            len(state.tiles) == 1 and not state.directions):
        raise IllegalActionError("no tile is to be laid now")
    _check_turn(state, action.player, "lay a tile")
    if (action.suit, action.value) not in tiles_left(state):
        raise IllegalActionError(
            f"the {action.suit}:{value_label(action.value)} tile is already laid (each tile "
            "exists once): name the suit and value of the tile turned over")
    places = tile_places(state, action.suit)
    if action.at not in places:
        raise IllegalActionError(
            f"a {action.suit} tile cannot go at {xy(action.at)}: it goes at "
            + " or ".join(xy(p) for p in places))
    tiles = (*state.tiles, Tile(action.at, action.suit, action.value))
    pending = Pending("coin", action.player) if len(tiles) > 1 else None
    event = Event("tile_laid", action.player, action.value, detail=f"{action.suit} {xy(action.at)}")
    return replace(state, tiles=tiles, pending=pending), [event]


def stand_pawns(state: CrawlState, action: StandPawns) -> Result:
    if state.phase != "build" or len(state.tiles) != 1 or state.directions:
        raise IllegalActionError("the pawns are stood on tile one right after it is laid")
    _check_turn(state, action.player, "stand the pawns")
    if sorted(action.order) != sorted(SUITS):
        raise IllegalActionError("stand one pawn of each suit: name four different suits "
                                 "for north, east, south and west")
    directions = tuple(zip(action.order, DIRECTION_NAMES, strict=True))
    return (replace(state, directions=directions, current=state.next_seat(action.player)),
            [Event("pawns_stood", action.player,
                   detail=" ".join(f"{d}={s}" for s, d in directions))])


def place_coin(state: CrawlState, action: PlaceCoin) -> Result:
    building = state.pending is not None and state.pending.step == "coin"
    if not building and state.phase != "last_coin":
        raise IllegalActionError("no coin is to be placed now")
    _check_turn(state, action.player, "place a coin")
    spaces = coin_spaces(state)
    if action.space not in spaces:
        raise IllegalActionError(
            f"the coin goes on a free space of the tile just laid: {', '.join(map(xy, spaces))}")
    if action.value not in coin_values(state):
        raise IllegalActionError(
            f"no {value_label(action.value)} coin is left in the pile: choose "
            + ", ".join(value_label(v) for v in coin_values(state)))
    coins = (*state.coins, Coin(action.space, action.value))
    event = Event("coin_placed", action.player, action.value, detail=xy(action.space))
    if state.phase == "last_coin":
        return replace(state, coins=coins, phase="place_pawns", directions=()), [event]
    nxt = state.next_seat(action.player)
    if len(state.tiles) == TILES_PER_GAME:
        assert state.first is not None
        return replace(state, coins=coins, pending=None, phase="last_coin",
                       current=state.first), [event]
    return replace(state, coins=coins, pending=None, current=nxt), [event]


def place_pawn(state: CrawlState, action: PlacePawn) -> Result:
    if state.phase != "place_pawns":
        raise IllegalActionError("pawns are placed once the dungeon is built")
    _check_turn(state, action.player, "place a pawn")
    if action.space not in entrances(state):
        raise IllegalActionError(
            f"{xy(action.space)} is not an entrance: an entrance is an empty space on the "
            "dungeon's outer edge")
    owner = state.next_seat(action.player)
    state = state.with_player(owner, at=action.space)
    event = Event("pawn_placed", action.player, other=owner, detail=xy(action.space))
    if all(p.at is not None for p in state.players):
        assert state.first is not None
        return replace(state, phase="play", current=state.first, turn=1), [event]
    return replace(state, current=owner), [event]
