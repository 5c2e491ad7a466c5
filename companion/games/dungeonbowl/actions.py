"""Every action of the Dungeonbowl referee. A coach declares what a model does (or what the base
rules made happen to it); dice and answers arrive inside actions, the referee draws nothing
(the virtual trap tokens excepted: a seeded draw, ruling B-16)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.actions import Action
from companion.games.dungeonbowl.dungeon import Square


@dataclass(frozen=True, slots=True)
class PlaceTrap(Action):
    """Before play: lay a face-down trap token on ``at`` (coaches take turns, DB.48)."""

    at: Square


@dataclass(frozen=True, slots=True)
class AddModel(Action):
    """Declare a model of the team on a square of its end zone (setup, or coming on from the
    reserves box as the base rules allow)."""

    model: str
    at: Square
    ma: int = 6
    st: int = 3
    ag: int = 3
    college: str = ""
    skills: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Kickoff(Action):
    """Setup is over: the first team in the agreed order starts."""


@dataclass(frozen=True, slots=True)
class Step(Action):
    """A model moves (``how`` = walk, rush: rushing a step with Go For It, ladder: the whole
    ladder, pushed: by a block) to a neighbouring square (for a ladder: the other end)."""

    model: str
    to: Square
    how: str = "walk"


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """A prone model stands up where it lies (the base rules' 3 movement points)."""

    model: str


@dataclass(frozen=True, slots=True)
class StopMove(Action):
    """The model ends its movement where it stands (lava asks for armour, DB.15)."""

    model: str


@dataclass(frozen=True, slots=True)
class Door(Action):
    """A model beside door ``door`` opens it, closes it (``verb`` open, close) (DB.10)."""

    model: str
    door: str
    verb: str = "open"


@dataclass(frozen=True, slots=True)
class BlockDoor(Action):
    """A model blocks door ``door`` as if it were a player (DB.11); ``assists`` offensive."""

    model: str
    door: str
    assists: int = 0


@dataclass(frozen=True, slots=True)
class Block(Action):
    """A model blocks another: the referee checks the dungeon allows it (levels DB.29, the
    passage DB.26), counts rune strength (DB.20) and rolls the block dice."""

    model: str
    target: str
    assists: int = 0
    defence: int = 0


@dataclass(frozen=True, slots=True)
class Passage(Action):
    """Into the secret passage from its portal (``to`` None, 1 point) or out of it onto one of
    its portals (2 points) (DB.25)."""

    model: str
    to: Square | None = None
    how: str = "walk"  # or "pushed" (DB.27)


@dataclass(frozen=True, slots=True)
class RuneJump(Action):
    """Teleport from a rune of the model's college to another one (1 point, DB.21)."""

    model: str
    to: Square


@dataclass(frozen=True, slots=True)
class Winds(Action):
    """Release Winds of Magic from a rune of the model's college: ``effect`` prone (all
    without Stand Firm go down) or rise (all stunned or prone stand up) (DB.22)."""

    model: str
    effect: str


@dataclass(frozen=True, slots=True)
class Leap(Action):
    """A leap to ``to`` (a Leap skill or the trampoline's own): the referee adds the steps and
    drops it crosses (DB.32-33, DB.37) to the AG roll."""

    model: str
    to: Square


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """A pass to ``to``: obstacle rolls along the way (DB.14), level modifiers (DB.31), the
    ball's kind (DB.40, DB.44)."""

    model: str
    to: Square


@dataclass(frozen=True, slots=True)
class Take(Action):
    """The model gets hold of the ball on its square, as the base rules decided: ``how`` =
    pickup, catch, intercept, handoff (spiked and enchanted balls, DB.40-42; iron DB.44)."""

    model: str
    how: str = "pickup"
    thrower: str = ""


@dataclass(frozen=True, slots=True)
class MoveBall(Action):
    """A ball comes to rest on ``to`` as the base rules decided (a scatter, a bounce, a
    failed catch): the referee only records where."""

    ball: str
    to: Square


@dataclass(frozen=True, slots=True)
class OpenChest(Action):
    """A model opens the chest on ``at`` (beside it or on it)."""

    model: str
    at: Square


@dataclass(frozen=True, slots=True)
class Down(Action):
    """The base rules knocked a model down (a block, a failed dodge): armour roll asked;
    ``by`` the blocker (a spiked ball carrier adds +1, DB.41)."""

    model: str
    by: str = ""


@dataclass(frozen=True, slots=True)
class Climb(Action):
    """A model in a pit tries to climb out (its whole movement, an AG roll, +1 per helper,
    DB.50)."""

    model: str
    helpers: int = 0


@dataclass(frozen=True, slots=True)
class Score(Action):
    """A model carrying a ball stands in another team's end zone: a touchdown (DB.46-47)."""

    model: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """The team's turn ends (a turnover or done): living balls run (DB.43), the next team."""


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The dice of the pending roll, in the order asked (a block die 1-6, a scatter die 1-8)."""

    values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """A coach's answer to the referee's question (one of its answers)."""

    value: str


@dataclass(frozen=True, slots=True)
class StopGame(Action):
    """The table stops the game: the scores decide."""
