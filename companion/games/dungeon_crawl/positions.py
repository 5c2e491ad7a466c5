"""Dungeon Crawl's position lines (``set ...``): a game started in the middle, in play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.dungeon_crawl.geometry import tile_of
from companion.games.dungeon_crawl.pieces import DEATH_DAMAGE, SUITS, parse_suit, parse_value
from companion.games.dungeon_crawl.state import Coin, CrawlState, Player, Space, Stack, Tile
from companion.games.dungeon_crawl.words import (
    parse_count,
    parse_tile,
    parse_values,
    parse_xy,
    xy,
)

SET_FORMS = (
    "set tile TX,TY SUIT:VALUE | set coin X,Y VALUE [suit=SUIT] | "
    "set stack X,Y [treasures=V,V] [equipment=N] | set player NAME [at=X,Y|at=none] "
    "[treasures=V,V] [equipment=N] [trap_xp=N] [monster_xp=N] [damage=V,V] [soaked=N] | "
    "set revealed SUIT:VALUE ... | set turn NAME")


def apply_set(state: CrawlState, words: list[str]) -> CrawlState:
    """One ``set`` line on a game not yet begun; the game then starts in play (seat one's turn
    unless ``set turn`` says otherwise)."""
    if len(words) < 3 or words[0] != "set":
        raise ValueError(f"a position line is one of: {SET_FORMS}")
    if state.phase not in ("start", "play") or state.pending is not None or state.turn > 1:
        raise ValueError("set lines come before the first action")
    if state.phase == "start":
        state = replace(state, phase="play", first=0, current=0, turn=1)
    kind, args = words[1], words[2:]
    setter = _SETTERS.get(kind)
    if setter is None:
        raise ValueError(f"unknown position line 'set {kind}'; the forms: {SET_FORMS}")
    result: CrawlState = setter(state, args)
    return result


def _set_tile(state: CrawlState, args: list[str]) -> CrawlState:
    if len(args) != 2:
        raise ValueError("set tile TX,TY SUIT:VALUE")
    at, (suit, value) = parse_xy(args[0], "tile"), parse_tile(args[1])
    if state.tile_at(at) is not None:
        raise ValueError(f"a tile already lies at {xy(at)}")
    if any((t.suit, t.value) == (suit, value) for t in state.tiles):
        raise ValueError(f"the {suit}:{value} tile is laid already (each tile exists once)")
    return replace(state, tiles=(*state.tiles, Tile(at, suit, value)))


def _free_space(state: CrawlState, space: Space) -> None:
    if state.tile_at(tile_of(space)) is None:
        raise ValueError(f"no tile holds space {xy(space)}: set the tile first")
    if state.coin_at(space) or state.stack_at(space) or state.player_at(space) is not None:
        raise ValueError(f"space {xy(space)} is taken already")


def _set_coin(state: CrawlState, args: list[str]) -> CrawlState:
    if len(args) not in (2, 3):
        raise ValueError("set coin X,Y VALUE [suit=SUIT]")
    space, value = parse_xy(args[0]), parse_value(args[1])
    _free_space(state, space)
    suit = None
    if len(args) == 3:
        key, _, text = args[2].partition("=")
        if key != "suit":
            raise ValueError(f"{args[2]!r}: the coin's hidden suit is written suit=SUIT")
        suit = parse_suit(text)
        if (suit, value) in state.revealed or any(
                (c.suit, c.value) == (suit, value) for c in state.coins):
            raise ValueError(f"the {suit} {value} coin is elsewhere already")
    if sum(1 for c in state.coins if c.value == value) >= len(SUITS):
        raise ValueError(f"there are only four coins of {value}")
    return replace(state, coins=(*state.coins, Coin(space, value, suit)))


def _pairs(args: list[str]) -> dict[str, str]:
    out = {}
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq:
            raise ValueError(f"expected key=value, got {arg!r}")
        out[key] = value
    return out


def _set_stack(state: CrawlState, args: list[str]) -> CrawlState:
    if not args:
        raise ValueError("set stack X,Y [treasures=V,V] [equipment=N]")
    space = parse_xy(args[0])
    _free_space(state, space)
    pairs = _pairs(args[1:])
    unknown = set(pairs) - {"treasures", "equipment"}
    if unknown:
        raise ValueError(f"a stack holds treasures= and equipment=, not {', '.join(unknown)}")
    stack = Stack(space, parse_values(pairs.get("treasures", "")),
                  parse_count(pairs.get("equipment", "0"), "equipment"))
    return replace(state, stacks=(*state.stacks, stack),
                   revealed=state.revealed | {("crowns", v) for v in stack.treasures})


_PLAYER_COUNTS = ("equipment", "trap_xp", "monster_xp", "soaked")


def _set_player(state: CrawlState, args: list[str]) -> CrawlState:
    if not args:
        raise ValueError("set player NAME [at=X,Y|at=none] [treasures=V,V] [equipment=N] ...")
    seat = state.seat_named(args[0])
    pairs = _pairs(args[1:])
    allowed = {"at", "treasures", "damage", *_PLAYER_COUNTS}
    unknown = set(pairs) - allowed
    if unknown:
        raise ValueError(f"set player takes {', '.join(sorted(allowed))}; not "
                         f"{', '.join(sorted(unknown))}")
    changes: dict[str, Any] = {k: parse_count(v, k) for k, v in pairs.items()
                               if k in _PLAYER_COUNTS}
    for key in ("treasures", "damage"):
        if key in pairs:
            changes[key] = parse_values(pairs[key])
    if "at" in pairs:
        if pairs["at"] in ("none", "dead"):
            changes.update(at=None, dead=pairs["at"] == "dead")
        else:
            space = parse_xy(pairs["at"])
            state = state.with_player(seat, at=None)
            _free_space(state, space)
            changes.update(at=space, dead=False)
    player: Player = replace(state.players[seat], **changes)
    if player.soaked > sum(player.damage):
        raise ValueError("soaked equipment cannot exceed the damage it was applied to")
    if player.at is not None and player.wounds >= DEATH_DAMAGE:
        raise ValueError(f"{player.wounds} damage after equipment kills: a character on the "
                         "board has less than 10 (write at=dead for a dead one)")
    state = state.with_player(seat, **changes)
    return replace(state, revealed=state.revealed | {("crowns", v) for v in player.treasures})


def _set_revealed(state: CrawlState, args: list[str]) -> CrawlState:
    pairs = {parse_tile(a) for a in args}
    return replace(state, revealed=state.revealed | pairs)


def _set_turn(state: CrawlState, args: list[str]) -> CrawlState:
    if len(args) != 1:
        raise ValueError("set turn NAME")
    return replace(state, current=state.seat_named(args[0]))


_SETTERS: dict[str, Any] = {
    "tile": _set_tile, "coin": _set_coin, "stack": _set_stack, "player": _set_player,
    "revealed": _set_revealed, "turn": _set_turn}
