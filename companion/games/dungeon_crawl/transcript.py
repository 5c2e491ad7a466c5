"""Dungeon Crawl's action lines (``NAME VERB ARGS``) and transcript header
(docs/dungeon-crawl.md). Position lines are in ``positions``, the JSON view in ``json_view``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from companion.core.actions import Action
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
    StopGame,
    TreasureTaken,
)
from companion.games.dungeon_crawl.pieces import (
    COLOURS,
    DIRECTION_NAMES,
    parse_suit,
    parse_value,
)
from companion.games.dungeon_crawl.state import CrawlState
from companion.games.dungeon_crawl.words import parse_count, parse_tile, parse_xy, quote, xy

if TYPE_CHECKING:
    from companion.games.dungeon_crawl.rules import DungeonCrawl

ACTION_FORMS = (
    "NAME first | NAME lay SUIT:VALUE TX,TY | NAME pawns north=SUIT east=SUIT south=SUIT "
    "west=SUIT | NAME coin X,Y VALUE | NAME place X,Y | NAME move X,Y | NAME reveal SUIT | "
    "NAME spend N | NAME roll VALUE | NAME soak N | NAME attack NAME | "
    "NAME spoils treasure|equipment | NAME took VALUE | NAME reenter X,Y | NAME pass")


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
    arity = {"first": 0, "pass": 0, "stop": 0, "lay": 2, "pawns": 4, "coin": 2}.get(verb, 1)
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
    "stop": lambda st, s, a: StopGame(s),
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
    if isinstance(a, StopGame):
        return "stop"
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

