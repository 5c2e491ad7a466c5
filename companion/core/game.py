"""The contract every game meets: what the session, journal, transcripts, bots, simulation,
narration and the kiosk may ask of a game, and nothing more.

A game is a pure, deterministic rules object: states are immutable values, ``apply`` returns a
new state and the events that happened, dice values arrive inside actions. A game registers a
factory under its name (``companion.core.registry``); the Monopoly variants, Dungeon Crawl and
Dungeonbowl all meet this protocol. Consumers hold a ``Game`` and the states it makes; they
never import a game's package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.core.events import Event


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner's name (a player, a team, or None for no winner), the
    standings best first as (name, score), and a reason word the game documents."""

    winner: str | None
    standings: tuple[tuple[str, int], ...]
    reason: str


class Seat(Protocol):
    """What every game's player record shows: a name."""

    @property
    def name(self) -> str: ...


class State(Protocol):
    """What every game's state shows to a consumer; the rest is the game's own."""

    @property
    def variant(self) -> str: ...

    @property
    def seed(self) -> int: ...

    @property
    def players(self) -> Sequence[Seat]: ...

    @property
    def outcome(self) -> Outcome | None: ...


@runtime_checkable
class Game(Protocol):
    """One game or variant, as every consumer sees it."""

    name: str

    # -- a new game ------------------------------------------------------------------------
    def default_options(self) -> Any:
        """The table settings of a new game (a frozen dataclass; ``option k=v`` lines and the
        kiosk's setup change its fields)."""
        ...

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Any = None,
                 seed: int = 0, **setup: Any) -> Any:
        """A new game for ``players`` (a name, or a name and a role such as a class)."""
        ...

    # -- playing ---------------------------------------------------------------------------
    def legal_actions(self, state: Any, players: tuple[int, ...] | None = None) -> list[Action]:
        """Every action the rules allow now (of ``players`` only, when given)."""
        ...

    def is_legal(self, state: Any, action: Action) -> bool: ...

    def apply(self, state: Any, action: Action) -> tuple[Any, tuple[Event, ...]]:
        """The state after ``action`` and what happened; raises ``IllegalActionError`` (the
        state unchanged) when the rules do not allow it."""
        ...

    def deciders(self, state: Any) -> tuple[int, ...]:
        """The seats whose choice the game waits on now."""
        ...

    def waiting_for(self, state: Any) -> str:
        """What the game waits for, in words for the screen."""
        ...

    def dice_prompt(self, state: Any) -> DicePrompt | None:
        """The dice the game asks for now, if any: kinds, faces, who rolls and why."""
        ...

    def roll_action(self, state: Any, prompt: DicePrompt, values: tuple[int, ...]) -> Action:
        """The action that answers ``prompt`` with the dice ``values``."""
        ...

    # -- words and records -----------------------------------------------------------------
    def describe(self, state: Any, event: Event) -> str:
        """One event told as a sentence for the log (``state`` is the state after it)."""
        ...

    def state_json(self, state: Any, events: Sequence[Event] = ()) -> dict[str, Any]:
        """The state as the JSON ``companion script --json`` prints."""
        ...

    def header_lines(self, state: Any, roles: Sequence[str] | None = None) -> list[str]:
        """Transcript header lines that recreate this new game's setup exactly."""
        ...

    def new_game_from_header(self, header: Mapping[str, Any]) -> Any:
        """A new game from a transcript header read by the framing (``seed``, ``options``,
        ``players`` and the game's own header lines under ``lines``)."""
        ...

    def parse_action(self, state: Any, words: list[str]) -> Action:
        """The action of one transcript line, split into words (``NAME VERB ARGS``)."""
        ...

    def format_action(self, state: Any, action: Action) -> str:
        """The transcript line of ``action`` (the inverse of ``parse_action``)."""
        ...

    def apply_set(self, state: Any, words: list[str]) -> Any:
        """A position line (``set ...``) applied to a game not yet begun."""
        ...

    def presenter(self) -> Any:
        """What the kiosk shows of this game (``companion.kiosk.presenter.Presenter``)."""
        ...
