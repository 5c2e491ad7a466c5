"""Dungeon Crawl's transcript forms (docs/dungeon-crawl.md): action lines ``NAME VERB ARGS``,
position lines ``set ...``, the header, and the state as JSON.

Spaces and tiles are written ``X,Y``; suits by name (``suns``); values 0-5 (``null`` and
``ace`` are read too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from companion.core.actions import Action
from companion.core.events import Event
from companion.games.dungeon_crawl.actions import (
    Attack,
    First,
    LayTile,
    Move,
    Pass,
    PlaceCoin,
    PlacePawn,
    Reenter,
    Reveal,
    Roll,
    Soak,
    Spend,
    Spoils,
    StandPawns,
    TreasureTaken,
)
from companion.games.dungeon_crawl.geometry import tile_of
from companion.games.dungeon_crawl.pieces import (
    COLOURS,
    DEATH_DAMAGE,
    DIRECTION_NAMES,
    SUITS,
    parse_suit,
    parse_value,
)
from companion.games.dungeon_crawl.state import Coin, CrawlState, Player, Space, Stack, Tile

if TYPE_CHECKING:
    from companion.games.dungeon_crawl.rules import DungeonCrawl

ACTION_FORMS = (
    "NAME first | NAME lay SUIT:VALUE TX,TY | NAME pawns north=SUIT east=SUIT south=SUIT "
    "west=SUIT | NAME coin X,Y VALUE | NAME place X,Y | NAME move X,Y | NAME reveal SUIT | "
    "NAME spend N | NAME roll VALUE | NAME soak N | NAME attack NAME | "
    "NAME spoils treasure|equipment | NAME took VALUE | NAME reenter X,Y | NAME pass")
SET_FORMS = (
    "set tile TX,TY SUIT:VALUE | set coin X,Y VALUE [suit=SUIT] | "
    "set stack X,Y [treasures=V,V] [equipment=N] | set player NAME [at=X,Y|at=none] "
    "[treasures=V,V] [equipment=N] [trap_xp=N] [monster_xp=N] [damage=V,V] [soaked=N] | "
    "set revealed SUIT:VALUE ... | set turn NAME")


def quote(name: str) -> str:
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


def xy(space: tuple[int, int]) -> str:
    return f"{space[0]},{space[1]}"


def parse_xy(text: str, what: str = "space") -> tuple[int, int]:
    parts = text.split(",")
    try:
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise ValueError(f"{text!r} is not a {what}: write it X,Y (two whole numbers, e.g. 3,-1)")


def parse_count(text: str, what: str) -> int:
    if text.isdigit():
        return int(text)
    raise ValueError(f"{what} takes a whole number of 0 or more, not {text!r}")


def parse_values(text: str) -> tuple[int, ...]:
    return tuple(parse_value(v) for v in text.split(",")) if text else ()


def parse_tile(text: str) -> tuple[str, int]:
    suit, colon, value = text.partition(":")
    if not colon:
        raise ValueError(f"{text!r} is not a tile: write SUIT:VALUE, e.g. arms:3")
    return parse_suit(suit), parse_value(value)


# -- action lines ----------------------------------------------------------------------------
def parse_action(state: CrawlState, words: list[str]) -> Action:
    """The action of one line ``NAME VERB ARGS``; ValueError names what is wrong and the forms."""
    if len(words) < 2:
        raise ValueError(f"an action line is NAME VERB ARGS; the forms: {ACTION_FORMS}")
    seat = state.seat_named(words[0])
    verb, args = words[1].lower(), words[2:]
    parser = _PARSERS.get(verb)
    if parser is None:
        raise ValueError(f"unknown verb {verb!r}; the forms: {ACTION_FORMS}")
    arity = {"first": 0, "pass": 0, "lay": 2, "pawns": 4, "coin": 2}.get(verb, 1)
    if len(args) != arity:
        raise ValueError(f"'{verb}' takes {arity} argument(s), got {len(args)}; the forms: "
                         f"{ACTION_FORMS}")
    action: Action = parser(state, seat, args)
    return action


def _pawns(state: CrawlState, seat: int, args: list[str]) -> Action:
    given = {}
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq or key not in DIRECTION_NAMES:
            raise ValueError(f"{arg!r}: write north=SUIT east=SUIT south=SUIT west=SUIT")
        given[key] = parse_suit(value)
    if len(given) != 4:
        raise ValueError("name a suit for each of north, east, south and west")
    north, east, south, west = (given[d] for d in DIRECTION_NAMES)
    return StandPawns(seat, (north, east, south, west))


_PARSERS: dict[str, Any] = {
    "first": lambda st, s, a: First(s),
    "pass": lambda st, s, a: Pass(s),
    "lay": lambda st, s, a: LayTile(s, *parse_tile(a[0]), parse_xy(a[1], "tile")),
    "pawns": _pawns,
    "coin": lambda st, s, a: PlaceCoin(s, parse_xy(a[0]), parse_value(a[1])),
    "place": lambda st, s, a: PlacePawn(s, parse_xy(a[0])),
    "move": lambda st, s, a: Move(s, parse_xy(a[0])),
    "reveal": lambda st, s, a: Reveal(s, parse_suit(a[0])),
    "spend": lambda st, s, a: Spend(s, parse_count(a[0], "spend")),
    "roll": lambda st, s, a: Roll(s, parse_roll(st, a[0])),
    "soak": lambda st, s, a: Soak(s, parse_count(a[0], "soak")),
    "attack": lambda st, s, a: Attack(s, st.seat_named(a[0])),
    "spoils": lambda st, s, a: Spoils(s, parse_spoils(a[0])),
    "took": lambda st, s, a: TreasureTaken(s, parse_value(a[0])),
    "reenter": lambda st, s, a: Reenter(s, parse_xy(a[0])),
}


def parse_roll(state: CrawlState, text: str) -> int:
    if state.options.die == "piecepack":
        return parse_value(text)
    if text.isdigit():
        return int(text)
    raise ValueError(f"roll takes the die's number, not {text!r}")


def parse_spoils(text: str) -> str:
    if text.lower() in ("treasure", "equipment"):
        return text.lower()
    raise ValueError(f"spoils are 'treasure' or 'equipment', not {text!r}")


def format_action(state: CrawlState, action: Action) -> str:
    name = quote(state.players[action.player].name)
    return f"{name} {_body(state, action)}"


def _body(state: CrawlState, a: Action) -> str:  # noqa: C901  (one branch per verb)
    if isinstance(a, First):
        return "first"
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, LayTile):
        return f"lay {a.suit}:{a.value} {xy(a.at)}"
    if isinstance(a, StandPawns):
        return "pawns " + " ".join(f"{d}={s}" for d, s in zip(DIRECTION_NAMES, a.order,
                                                                 strict=True))
    if isinstance(a, PlaceCoin):
        return f"coin {xy(a.space)} {a.value}"
    if isinstance(a, PlacePawn):
        return f"place {xy(a.space)}"
    if isinstance(a, Move):
        return f"move {xy(a.to)}"
    if isinstance(a, Reenter):
        return f"reenter {xy(a.space)}"
    if isinstance(a, Reveal):
        return f"reveal {a.suit}"
    if isinstance(a, Spend):
        return f"spend {a.amount}"
    if isinstance(a, Roll):
        return f"roll {a.value}"
    if isinstance(a, Soak):
        return f"soak {a.amount}"
    if isinstance(a, Attack):
        return f"attack {quote(state.players[a.target].name)}"
    if isinstance(a, Spoils):
        return f"spoils {a.kind}"
    if isinstance(a, TreasureTaken):
        return f"took {a.value}"
    raise ValueError(f"{type(a).__name__} is not a Dungeon Crawl action")


# -- the header ------------------------------------------------------------------------------
def header_lines(game: DungeonCrawl, state: CrawlState,
                 roles: Sequence[str] | None = None) -> list[str]:
    lines = [f"variant {game.name}"]
    defaults = game.default_options()
    for f in fields(state.options):
        value = getattr(state.options, f.name)
        if value != getattr(defaults, f.name):
            lines.append(f"option {f.name}={value}")
    lines.append(f"seed {state.seed}")
    for i, p in enumerate(state.players):
        role = roles[i] if roles else COLOURS[p.suit]
        lines.append(f"player {quote(p.name)} {role}".rstrip())
    return lines


def new_game_from_header(game: DungeonCrawl, header: Mapping[str, Any]) -> CrawlState:
    players = [p if isinstance(p, str) else (p[0], p[1]) for p in header.get("players", ())]
    options = header.get("options")
    return game.new_game(players, options, seed=int(header.get("seed", 0)))


# -- position lines --------------------------------------------------------------------------
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


# -- JSON ------------------------------------------------------------------------------------
def state_json(game: DungeonCrawl, state: CrawlState,
               events: Sequence[Event] = ()) -> dict[str, Any]:
    players = []
    for p in state.players:
        players.append({
            "name": p.name, "suit": p.suit, "colour": COLOURS[p.suit],
            "at": list(p.at) if p.at else None, "dead": p.dead,
            "treasures": list(p.treasures), "treasure_count": len(p.treasures),
            "treasure_total": sum(p.treasures), "equipment": p.equipment,
            "trap_xp": p.trap_xp, "monster_xp": p.monster_xp, "damage": list(p.damage),
            "soaked": p.soaked, "wounds": p.wounds})
    out: dict[str, Any] = {
        "variant": state.variant,
        "phase": state.phase,
        "turn": state.turn,
        "current_player": state.players[state.current].name,
        "first_builder": None if state.first is None else state.players[state.first].name,
        "options": {f.name: getattr(state.options, f.name) for f in fields(state.options)},
        "tiles": [{"at": list(t.at), "suit": t.suit, "value": t.value} for t in state.tiles],
        "pawn_directions": {d: s for s, d in state.directions},
        "coins": [{"at": list(c.at), "value": c.value, "suit": c.suit} for c in state.coins],
        "stacks": [{"at": list(s.at), "treasures": list(s.treasures), "equipment": s.equipment}
                   for s in state.stacks],
        "revealed": sorted(f"{s}:{v}" for s, v in state.revealed),
        "treasures_found": state.crowns_revealed,
        "players": players,
        "waiting_for": None if state.outcome else game.waiting_for(state),
        "legal_actions": [format_action(state, a) for a in game.legal_actions(state)],
        "events": [event_json(game, state, e) for e in events],
    }
    if state.outcome is not None:
        out["outcome"] = {"winner": state.outcome.winner, "reason": state.outcome.reason,
                          "standings": [{"name": n, "treasure": t}
                                        for n, t in state.outcome.standings]}
    return out


def event_json(game: DungeonCrawl, state: CrawlState, event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": event.kind, "text": game.describe(state, event)}
    if event.player is not None:
        out["player"] = state.players[event.player].name
    if event.amount:
        out["amount"] = event.amount
    if event.other is not None:
        out["other"] = state.players[event.other].name
    if event.detail:
        out["detail"] = event.detail
    return out

