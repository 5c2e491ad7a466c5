"""Dungeonbowl's transcript lines (docs/transcript.md, docs/dungeonbowl.md): action lines
``TEAM VERB ARGS`` and position lines ``set ...``. The map is the header's
``option dungeon=NAME`` (a bundled dungeon) or ``option dungeon=FILE`` (a .txt or .json map)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.core.actions import Action
from companion.core.words import quote
from companion.games.dungeonbowl.actions import (
    AddModel,
    Answer,
    Block,
    BlockDoor,
    Climb,
    Door,
    Down,
    EndTurn,
    Kickoff,
    Leap,
    MoveBall,
    OpenChest,
    Passage,
    PlaceTrap,
    Roll,
    RuneJump,
    Score,
    Stand,
    Step,
    StopGame,
    StopMove,
    Take,
    Throw,
    Winds,
)
from companion.games.dungeonbowl.dice import BLOCK_WORDS, SCATTER_WORDS
from companion.games.dungeonbowl.dungeon import Square
from companion.games.dungeonbowl.roster import RosterModel
from companion.games.dungeonbowl.state import (
    BALL_KINDS,
    SKILLS,
    STATUSES,
    TRAP_KINDS,
    Ball,
    BowlState,
    Model,
    Team,
    Trap,
)

FORMS = ("TEAM trap X,Y | TEAM add ID X,Y [ma=N st=N ag=N college=C skills=a+b] | TEAM kickoff "
         "| TEAM step ID X,Y [rush|ladder|pushed] | TEAM stand ID | TEAM stop ID | TEAM open ID DOOR | "
         "TEAM close ID DOOR | TEAM smash ID DOOR [assists=N] | TEAM block ID TARGET "
         "[assists=N defence=N] | TEAM passage ID [X,Y] [pushed] | TEAM rune ID X,Y | "
         "TEAM winds ID prone|rise | TEAM leap ID X,Y | TEAM pass ID X,Y | TEAM take ID "
         "[pickup|catch|intercept|handoff] [from=ID] | TEAM ball BALL X,Y | TEAM chest ID X,Y | "
         "TEAM down ID [by=ID] | TEAM climb ID [helpers=N] | TEAM score ID | TEAM end | "
         "TEAM roll V [V ...] | TEAM answer WORD | TEAM endgame")


def xy(s: Square | None) -> str:
    return "-" if s is None else f"{s[0]},{s[1]}"


def parse_xy(text: str) -> Square:
    x, comma, y = text.partition(",")
    if not comma or not x.strip().isdigit() or not y.strip().isdigit():
        raise ValueError(f"a square is X,Y (column,row counted from 0 at the top left), not "
                         f"{text!r}")
    return int(x), int(y)


def _pairs(words: list[str], allowed: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for w in words:
        k, eq, v = w.partition("=")
        if not eq or k not in allowed:
            raise ValueError(f"unexpected {w!r}: this verb takes {', '.join(a + '=' for a in allowed)}")
        out[k] = v
    return out


def _num(text: str, key: str) -> int:
    if not text.lstrip("-").isdigit():
        raise ValueError(f"{key} takes a whole number, not {text!r}")
    return int(text)


def parse_action(state: BowlState, words: list[str]) -> Action:
    if len(words) < 2:
        raise ValueError(f"an action line is TEAM VERB ARGS; the forms: {FORMS}")
    seat = state.seat_named(words[0])
    verb, args = words[1].lower(), words[2:]
    parser = _PARSERS.get(verb)
    if parser is None:
        raise ValueError(f"unknown verb {verb!r}; the forms: {FORMS}")
    try:
        action: Action = parser(state, seat, args)
    except IndexError:
        raise ValueError(f"'{verb}' is missing an argument; the forms: {FORMS}") from None
    return action


def _no_more(args: list[str], n: int, verb: str) -> bool:
    if len(args) > n:
        raise ValueError(f"'{verb}' takes {n} argument(s); unexpected {args[n]!r}")
    return True


def _characteristics(st: BowlState, seat: int, model_id: str, p: dict[str, str]) -> RosterModel:
    """A model's characteristics as a line gives them (``ma=`` ... ``skills=``); those left out
    are its team roster's, or the standard model's. Its id as the roster spells it."""
    listed = st.players[seat].on_roster(model_id) or RosterModel(model_id)
    skills = tuple(x for x in p["skills"].split("+") if x) if "skills" in p else listed.skills
    for sk in skills:
        if sk not in SKILLS:
            raise ValueError(f"unknown skill {sk!r} (known: {', '.join(SKILLS)})")
    return RosterModel(listed.id, _num(p.get("ma", str(listed.ma)), "ma"),
                       _num(p.get("st", str(listed.st)), "st"),
                       _num(p.get("ag", str(listed.ag)), "ag"),
                       p.get("college", listed.college).lower(), skills)


def _add(st: BowlState, s: int, a: list[str]) -> Action:
    """``add ID X,Y [ma=N ...]``."""
    c = _characteristics(st, s, a[0], _pairs(a[2:], ("ma", "st", "ag", "college", "skills")))
    return AddModel(s, c.id, parse_xy(a[1]), c.ma, c.st, c.ag, c.college, c.skills)


def _step(st: BowlState, s: int, a: list[str]) -> Action:
    _no_more(a, 3, "step")
    how = a[2].lower() if len(a) > 2 else "walk"
    if how not in ("walk", "rush", "ladder", "pushed"):
        raise ValueError(f"a step is walk, rush, ladder or pushed, not {how!r}")
    return Step(s, a[0], parse_xy(a[1]), how)


def _passage(st: BowlState, s: int, a: list[str]) -> Action:
    _no_more(a, 3, "passage")
    rest = a[1:]
    how = "walk"
    if rest and rest[-1].lower() == "pushed":
        how = "pushed"
        rest = rest[:-1]
    return Passage(s, a[0], parse_xy(rest[0]) if rest else None, how)


def _roll(st: BowlState, s: int, a: list[str]) -> Action:
    kinds = st.pending[0].dice if st.pending and st.pending[0].kind == "roll" else ()
    values = []
    for i, w in enumerate(a):
        kind = kinds[i] if i < len(kinds) else "d6"
        low = w.lower()
        if low.isdigit():
            values.append(int(low))
        elif kind == "block" and low in BLOCK_WORDS:
            values.append(BLOCK_WORDS[low])
        elif kind == "scatter" and low in SCATTER_WORDS:
            values.append(SCATTER_WORDS[low])
        else:
            raise ValueError(f"{w!r} is not a face of a {kind} die")
    if not values:
        raise ValueError("roll takes the dice's faces, e.g. 'roll 4' or 'roll 3 ne'")
    return Roll(s, tuple(values))


def _take(st: BowlState, s: int, a: list[str]) -> Action:
    how = "pickup"
    thrower = ""
    for w in a[1:]:
        if w.startswith("from="):
            thrower = w[5:]
        elif w in ("pickup", "catch", "intercept", "handoff"):
            how = w
        else:
            raise ValueError(f"take ID [pickup|catch|intercept|handoff] [from=ID], not {w!r}")
    return Take(s, a[0], how, thrower)


_PARSERS: dict[str, Any] = {
    "trap": lambda st, s, a: (_no_more(a, 1, "trap"), PlaceTrap(s, parse_xy(a[0])))[1],
    "add": _add,
    "kickoff": lambda st, s, a: (_no_more(a, 0, "kickoff"), Kickoff(s))[1],
    "step": _step, "move": _step,
    "stop": lambda st, s, a: (_no_more(a, 1, "stop"), StopMove(s, a[0]))[1],
    "stand": lambda st, s, a: (_no_more(a, 1, "stand"), Stand(s, a[0]))[1],
    "open": lambda st, s, a: (_no_more(a, 2, "open"), Door(s, a[0], a[1].upper(), "open"))[1],
    "close": lambda st, s, a: (_no_more(a, 2, "close"), Door(s, a[0], a[1].upper(), "close"))[1],
    "smash": lambda st, s, a: BlockDoor(s, a[0], a[1].upper(), _num(_pairs(a[2:], (
        "assists",)).get("assists", "0"), "assists")),
    "block": lambda st, s, a: Block(s, a[0], a[1], **{k: _num(v, k) for k, v in _pairs(
        a[2:], ("assists", "defence")).items()}),
    "passage": _passage,
    "rune": lambda st, s, a: (_no_more(a, 2, "rune"), RuneJump(s, a[0], parse_xy(a[1])))[1],
    "winds": lambda st, s, a: (_no_more(a, 2, "winds"), Winds(s, a[0], a[1].lower()))[1],
    "leap": lambda st, s, a: (_no_more(a, 2, "leap"), Leap(s, a[0], parse_xy(a[1])))[1],
    "pass": lambda st, s, a: (_no_more(a, 2, "pass"), Throw(s, a[0], parse_xy(a[1])))[1],
    "take": _take,
    "ball": lambda st, s, a: (_no_more(a, 2, "ball"), MoveBall(s, a[0], parse_xy(a[1])))[1],
    "chest": lambda st, s, a: (_no_more(a, 2, "chest"), OpenChest(s, a[0], parse_xy(a[1])))[1],
    "down": lambda st, s, a: Down(s, a[0], _pairs(a[1:], ("by",)).get("by", "")),
    "climb": lambda st, s, a: Climb(s, a[0], _num(_pairs(a[1:], ("helpers",)).get(
        "helpers", "0"), "helpers")),
    "score": lambda st, s, a: (_no_more(a, 1, "score"), Score(s, a[0]))[1],
    "end": lambda st, s, a: (_no_more(a, 0, "end"), EndTurn(s))[1],
    "roll": _roll,
    "answer": lambda st, s, a: (_no_more(a, 1, "answer"), Answer(s, a[0].lower()))[1],
    "endgame": lambda st, s, a: (_no_more(a, 0, "endgame"), StopGame(s))[1],
}


def format_action(state: BowlState, action: Action) -> str:
    return f"{quote(state.players[action.player].name)} {_body(action)}"


def _body(a: Action) -> str:  # noqa: C901  (one branch per verb)
    if isinstance(a, PlaceTrap):
        return f"trap {xy(a.at)}"
    if isinstance(a, AddModel):
        extra = [f"{k}={v}" for k, v, d in (("ma", a.ma, 6), ("st", a.st, 3), ("ag", a.ag, 3))
                 if v != d]
        if a.college:
            extra.append(f"college={a.college}")
        if a.skills:
            extra.append("skills=" + "+".join(a.skills))
        return " ".join(["add", a.model, xy(a.at), *extra])
    if isinstance(a, Kickoff):
        return "kickoff"
    if isinstance(a, Step):
        return f"step {a.model} {xy(a.to)}" + ("" if a.how == "walk" else f" {a.how}")
    if isinstance(a, Stand):
        return f"stand {a.model}"
    if isinstance(a, StopMove):
        return f"stop {a.model}"
    if isinstance(a, Door):
        return f"{a.verb} {a.model} {a.door}"
    if isinstance(a, BlockDoor):
        return f"smash {a.model} {a.door}" + (f" assists={a.assists}" if a.assists else "")
    if isinstance(a, Block):
        return f"block {a.model} {a.target}" + (f" assists={a.assists}" if a.assists else "") \
            + (f" defence={a.defence}" if a.defence else "")
    if isinstance(a, Passage):
        return " ".join(["passage", a.model, *([xy(a.to)] if a.to else []),
                         *(["pushed"] if a.how == "pushed" else [])])
    if isinstance(a, RuneJump):
        return f"rune {a.model} {xy(a.to)}"
    if isinstance(a, Winds):
        return f"winds {a.model} {a.effect}"
    if isinstance(a, Leap):
        return f"leap {a.model} {xy(a.to)}"
    if isinstance(a, Throw):
        return f"pass {a.model} {xy(a.to)}"
    if isinstance(a, Take):
        return f"take {a.model} {a.how}" + (f" from={a.thrower}" if a.thrower else "")
    if isinstance(a, MoveBall):
        return f"ball {a.ball} {xy(a.to)}"
    if isinstance(a, OpenChest):
        return f"chest {a.model} {xy(a.at)}"
    if isinstance(a, Down):
        return f"down {a.model}" + (f" by={a.by}" if a.by else "")
    if isinstance(a, Climb):
        return f"climb {a.model}" + (f" helpers={a.helpers}" if a.helpers else "")
    if isinstance(a, Score):
        return f"score {a.model}"
    if isinstance(a, EndTurn):
        return "end"
    if isinstance(a, Roll):
        return " ".join(["roll", *(str(v) for v in a.values)])
    if isinstance(a, Answer):
        return f"answer {a.value}"
    if isinstance(a, StopGame):
        return "endgame"
    raise ValueError(f"{type(a).__name__} is not a Dungeonbowl action")


# -- position lines ------------------------------------------------------------------------
def apply_set(state: BowlState, words: list[str]) -> BowlState:  # noqa: C901  (one branch each)
    """``set door D1 open`` | ``set model TEAM ID X,Y|- [ma= st= ag= college= skills=
    status= passage=]`` | ``set ball ID X,Y|holder=ID [kind=K]`` | ``set trap X,Y [KIND]`` |
    ``set score TEAM N`` | ``set play`` (kick-off done; TEAM 1 to play)."""
    if len(words) < 2:
        raise ValueError("set door|model|ball|trap|score|play ...")
    what, args = words[1].lower(), words[2:]
    if what == "door":
        if len(args) != 2 or state.dungeon.door(args[0]) is None:
            raise ValueError(f"set door ID STATE with a door of the map ("
                             f"{', '.join(d.id for d in state.dungeon.doors) or 'none'})")
        if args[1] not in ("closed", "open", "locked", "smashed"):
            raise ValueError("a door is closed, open, locked or smashed")
        door_id = state.dungeon.door(args[0]).id  # type: ignore[union-attr]
        tried = state.tried if args[1] == "closed" or door_id in state.tried \
            else (*state.tried, door_id)
        return replace(state.with_door(door_id, args[1]), tried=tried)
    if what == "model":
        if len(args) < 3:
            raise ValueError("set model TEAM ID X,Y [ma=N st=N ag=N college=C skills=a+b "
                             "status=S] (a roster's model takes its roster's values)")
        seat = state.seat_named(args[0])
        p = _pairs(args[3:], ("ma", "st", "ag", "college", "skills", "status", "passage"))
        status = p.get("status", "standing")
        if status not in STATUSES:
            raise ValueError(f"status is one of {', '.join(STATUSES)}")
        portal = p.get("passage", "")
        if (status == "passage") != bool(portal) or (
                portal and portal not in state.dungeon.portals()):
            raise ValueError("a model in a secret passage is 'status=passage passage=ID' with a "
                             "passage of the map, at -")
        at = None if args[2] == "-" else parse_xy(args[2])
        if at is not None and at not in state.dungeon.cells:
            raise ValueError(f"{xy(at)} is not a square of this dungeon")
        if state.model(args[1]) is not None:
            raise ValueError(f"there is already a model called {args[1]}")
        c = _characteristics(state, seat, args[1], p)
        m = Model(c.id, seat, at, status, c.ma, c.st, c.ag, c.college, c.skills, portal=portal)
        if portal and at is not None:
            raise ValueError("a model in a secret passage stands on no square: write - for X,Y")
        return replace(state, models=(*state.models, m))
    if what == "ball":
        if len(args) < 2:
            raise ValueError("set ball ID X,Y|holder=ID [kind=K]")
        kind = ""
        for w in args[2:]:
            if not w.startswith("kind=") or w[5:] not in BALL_KINDS:
                raise ValueError(f"kind= one of {', '.join(BALL_KINDS)}")
            kind = w[5:]
        holder, at = "", None
        if args[1].startswith("holder="):
            holder = args[1][7:]
            if state.model(holder) is None:
                raise ValueError(f"no model {holder!r}")
        else:
            at = parse_xy(args[1])
        old = next((b for b in state.balls if b.id == args[0]), None)
        ball = Ball(args[0], at, holder, kind)
        balls = tuple(ball if b.id == args[0] else b for b in state.balls) if old else \
            (*state.balls, ball)
        hidden = state.hidden_balls - (0 if old else 1)
        return replace(state, balls=balls, hidden_balls=max(0, hidden))
    if what == "trap":
        if not args:
            raise ValueError("set trap X,Y [KIND]")
        at = parse_xy(args[0])
        kind = args[1] if len(args) > 1 else ""
        if kind and kind not in TRAP_KINDS:
            raise ValueError(f"a trap is one of {', '.join(TRAP_KINDS)}")
        traps = tuple(t for t in state.traps if t.at != at) + (Trap(at, kind),)
        return replace(state, traps=traps)
    if what == "score":
        if len(args) != 2:
            raise ValueError("set score TEAM N")
        seat = state.seat_named(args[0])
        players: tuple[Team, ...] = tuple(replace(t, score=_num(args[1], "score")) if i == seat
                                          else t for i, t in enumerate(state.players))
        return replace(state, players=players)
    if what == "play":
        return replace(state, phase="play", current=0)
    raise ValueError(f"set {what}? set door|model|ball|trap|score|play")
