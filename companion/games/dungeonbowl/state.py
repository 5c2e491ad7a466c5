"""The state of a Dungeonbowl game: immutable values (``apply`` returns a new state).

The dungeon's fixed layout is ``dungeon.Dungeon`` (loaded from ``options.dungeon``); what
changes is here: door states, traps found, balls, models declared on the pitch, the teams'
scores, the circles spent, and the queue of rolls and questions the referee waits on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from companion.core.game import Outcome
from companion.games.dungeonbowl.dungeon import Dungeon, Square, load
from companion.games.dungeonbowl.roster import SKILLS as SKILLS  # known skills
from companion.games.dungeonbowl.roster import RosterModel

BALL_KINDS = ("normal", "spiked", "enchanted", "living", "iron")
TRAP_KINDS = ("pit", "spiked_pit", "exploding", "gas", "teleporter", "trampoline")
STAYING_TRAPS = ("pit", "spiked_pit", "teleporter", "trampoline")
STATUSES = ("standing", "prone", "stunned", "in_pit", "passage", "reserves", "ko", "casualty",
            "lost", "dead")
ON_PITCH = ("standing", "prone", "stunned", "in_pit")


@dataclass(frozen=True, slots=True)
class Options:
    """What the coaches agreed before play (DB.1): the dungeon and which variables are in play.

    ``dungeon``: a bundled map's name or a map file. ``ball``: ``rolled`` (D6 when found,
    DB.39) or one ball kind. ``balls``: how many balls the chests hide (more than one is a
    multiball game, DB.45). ``multiball``: ``standard``, ``first_score`` or ``illusionary``
    (DB.46-47). ``traps``: trap tokens in play (DB.48); ``trap_count``: how many more the
    coaches place in turn before play; ``trap_tokens``: ``table`` (the coaches say what each
    flipped token shows) or ``virtual`` (the companion draws it, ruling B-16). ``sides``:
    allied teams, e.g. ``1+3,2+4`` (DB.6). ``lava_armour``: the lava armour modifier (B-2).
    ``door_gfi``: whether Going For It may pay for opening a door (B-4)."""

    dungeon: str = "two_teams"
    ball: str = "rolled"
    balls: int = 1
    multiball: str = "standard"
    traps: bool = True
    trap_count: int = 0
    trap_tokens: str = "table"
    sides: str = ""
    lava_armour: int = -1
    door_gfi: bool = False


@dataclass(frozen=True, slots=True)
class Model:
    """A declared model: its team (seat), characteristics and where it is."""

    id: str
    team: int
    at: Square | None
    status: str = "standing"
    ma: int = 6
    st: int = 3
    ag: int = 3
    college: str = ""
    skills: tuple[str, ...] = ()
    spent: int = 0  # movement points used this turn
    portal: str = ""  # the passage it stands in (status "passage")
    no_return: bool = False  # rescued from a chasm this turn: may not come back yet (DB.12)

    @property
    def on_pitch(self) -> bool:
        return self.status in ON_PITCH or self.status == "passage"

    def has(self, skill: str) -> bool:
        return skill in self.skills


@dataclass(frozen=True, slots=True)
class Ball:
    """A ball: loose on ``at``, held by ``holder``, or ``gone`` (scored or vanished). ``kind``
    is "" until the ball is found and its type known (DB.39)."""

    id: str
    at: Square | None = None
    holder: str = ""
    kind: str = ""
    gone: bool = False


@dataclass(frozen=True, slots=True)
class Trap:
    at: Square
    kind: str = ""  # "" while face down
    removed: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    """A roll or a question the referee waits on.

    ``kind`` "roll": ``dice`` (die kind names) for ``why``; ``target`` is the score needed on
    the die after ``modifiers`` (0 when the result is read from a table); ``results`` say what
    each result does. ``kind`` "ask": a question whose ``answers`` are the words a coach picks.
    ``step`` names what the referee does with the result; ``model``, ``data`` its arguments."""

    kind: str
    seat: int
    step: str
    why: str
    model: str = ""
    dice: tuple[str, ...] = ()
    target: int = 0
    modifiers: tuple[tuple[str, int], ...] = ()
    results: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    data: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str = "") -> str:
        return dict(self.data).get(key, default)

    @property
    def total_modifier(self) -> int:
        return sum(v for _, v in self.modifiers)


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its name, touchdowns, and the roster it plays (``roster`` as the header names
    it, "" for standard models; ``squad`` its models with the ids they take to the pitch)."""

    name: str
    score: int = 0
    roster: str = ""
    squad: tuple[RosterModel, ...] = ()

    def on_roster(self, model_id: str) -> RosterModel | None:
        return next((m for m in self.squad if m.id.lower() == model_id.lower()), None)


@dataclass(frozen=True, slots=True)
class BowlState:
    players: tuple[Team, ...]
    options: Options
    seed: int = 0
    variant: str = "dungeonbowl"
    phase: str = "setup"  # setup (placing traps, declaring models), play
    current: int = 0
    turn: int = 1
    doors: tuple[tuple[str, str], ...] = ()  # door id -> state (closed, open, locked, smashed)
    tried: tuple[str, ...] = ()  # doors whose lock roll was made (DB.10)
    traps: tuple[Trap, ...] = ()
    chests: tuple[Square, ...] = ()  # chests not yet opened
    balls: tuple[Ball, ...] = ()
    hidden_balls: int = 0  # balls still in chests
    models: tuple[Model, ...] = ()
    circles_spent: tuple[str, ...] = ()
    pending: tuple[Pending, ...] = ()
    draws: int = 0  # virtual trap tokens drawn so far
    blocked: tuple[str, ...] = ()  # the last block's blocker and target (for the follow-ups)
    outcome: Outcome | None = None

    @property
    def turn_number(self) -> int:
        return self.turn

    @property
    def dungeon(self) -> Dungeon:
        return dungeon_of(self.options.dungeon)

    def model(self, model_id: str) -> Model | None:
        return next((m for m in self.models if m.id.lower() == model_id.lower()), None)

    def model_at(self, square: Square) -> Model | None:
        return next((m for m in self.models if m.at == square and m.status in ON_PITCH), None)

    def door_state(self, door_id: str) -> str:
        return dict(self.doors)[door_id]

    def trap_at(self, square: Square) -> Trap | None:
        return next((t for t in self.traps if t.at == square and not t.removed), None)

    def balls_held(self, model_id: str) -> tuple[Ball, ...]:
        return tuple(b for b in self.balls if b.holder == model_id and not b.gone)

    def loose_ball_at(self, square: Square) -> Ball | None:
        return next((b for b in self.balls if b.at == square and not b.holder and not b.gone),
                    None)

    def seat_named(self, name: str) -> int:
        for i, t in enumerate(self.players):
            if t.name.lower() == name.lower():
                return i
        raise ValueError(f"no team called {name!r} (teams: "
                         f"{', '.join(t.name for t in self.players)})")

    def with_model(self, model: Model) -> BowlState:
        return replace(self, models=tuple(model if m.id == model.id else m
                                          for m in self.models))

    def with_ball(self, ball: Ball) -> BowlState:
        return replace(self, balls=tuple(ball if b.id == ball.id else b for b in self.balls))

    def with_door(self, door_id: str, door_state: str) -> BowlState:
        return replace(self, doors=tuple((d, door_state if d == door_id else s)
                                         for d, s in self.doors))


@lru_cache(maxsize=16)
def dungeon_of(name: str) -> Dungeon:
    return load(name)
