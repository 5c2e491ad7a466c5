"""The contract every game meets: what the session, journal, transcripts, bots, simulation,
narration and the kiosk may ask of a game, and nothing more.

A game is a pure, deterministic rules object: states are immutable values, ``apply`` returns a
new state and the events that happened, dice values arrive inside actions. A game registers a
factory under its name (``companion.core.registry``); the Monopoly variants, Dungeon Crawl and
Dungeonbowl all meet this protocol. Consumers hold a ``Game`` and the states it makes; they
never import a game's package.

Transcripts (docs/transcript.md) are split the same way: the framing
(``companion.transcript``) reads comments, quoting, the ``variant``, ``option``, ``seed`` and
``player`` header lines and the order of the parts; the game reads and writes everything else
(its own header lines, ``set`` lines and action lines).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.core.events import Event


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner's name (a player, a team named by its members' names joined
    by "+", or None for no winner), the standings best first as (name, score), and a reason
    word the game documents (``agreement`` when the table stopped the game)."""

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
    def options(self) -> Any: ...  # the table settings (a frozen dataclass)

    @property
    def players(self) -> Sequence[Seat]: ...

    @property
    def turn_number(self) -> int: ...

    @property
    def outcome(self) -> Outcome | None: ...


class Bot(Protocol):
    """A player for simulations: picks one of the legal ``actions`` (dice are filled later)."""

    def choose(self, game: Any, state: Any, actions: Sequence[Action]) -> Action: ...


@runtime_checkable
class Game(Protocol):
    """One game or variant, as every consumer sees it."""

    @property
    def name(self) -> str:
        """The name a transcript's ``variant`` line and the registry use."""
        ...

    # -- a new game ------------------------------------------------------------------------
    def default_options(self) -> Any:
        """The table settings of a new game (a frozen dataclass; ``option k=v`` lines and the
        kiosk's setup change its fields)."""
        ...

    def parse_option(self, name: str, text: str) -> tuple[str, Any]:
        """An ``option NAME=VALUE`` as the setting's name and typed value; ValueError naming
        what is wrong (an unknown setting, a value of the wrong kind)."""
        ...

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Any = None,
                 seed: int = 0) -> Any:
        """A new game for ``players`` (a name, or a name and a role such as a class)."""
        ...

    def new_game_from_header(self, players: Sequence[str | tuple[str, str]], options: Any,
                             seed: int, setup: Mapping[str, Any]) -> Any:
        """A new game as a transcript's header describes it: ``setup`` holds what the game's
        own header lines said (``read_setup_line``)."""
        ...

    # -- playing ---------------------------------------------------------------------------
    def legal_actions(self, state: Any, players: tuple[int, ...] | None = None) -> list[Action]:
        """Every action the rules allow now (of ``players`` only, when given). A roll is
        listed without its dice (``needs_dice``)."""
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

    def end_game_action(self, state: Any) -> Action:
        """The action that stops the game now by the table's agreement (standings decide);
        simulations use it at their turn cap."""
        ...

    # -- dice ------------------------------------------------------------------------------
    def dice_prompt(self, state: Any) -> DicePrompt | None:
        """The dice the game asks for now, if any: kinds, faces, who rolls and why."""
        ...

    def needs_dice(self, action: Action) -> bool:
        """True for a roll as ``legal_actions`` lists it, without its dice: fill it in with
        ``roll_action`` before applying it."""
        ...

    def roll_action(self, state: Any, prompt: DicePrompt, values: tuple[int, ...]) -> Action:
        """The action that answers ``prompt`` with the dice ``values``."""
        ...

    # -- words and records -----------------------------------------------------------------
    def describe(self, state: Any, event: Event) -> str:
        """One event told as a sentence for the log (``state`` is the state after it)."""
        ...

    def tells(self, event: Event) -> bool:
        """Whether the turn-by-turn account tells ``event`` (False for a turn marker or a
        payment the event beside it already tells)."""
        ...

    def result_lines(self, state: Any) -> Iterable[str]:
        """The standings (final or so far) as lines of text, for the end of a replay."""
        ...

    def invariant_problems(self, state: Any) -> list[str]:
        """What is wrong with ``state`` by the game's own bookkeeping (money conserved, stocks
        within bounds ...), in words; [] for a sound state (``companion simulate --check``)."""
        ...

    def state_json(self, state: Any, events: Sequence[Event] = ()) -> dict[str, Any]:
        """The state as the JSON ``companion script --json`` prints."""
        ...

    # -- transcripts: the game's own lines --------------------------------------------------
    @property
    def setup_words(self) -> frozenset[str]:
        """The first words of the game's own header lines (Monopoly: ``deck``)."""
        ...

    def read_setup_line(self, words: list[str], setup: dict[str, Any]) -> None:
        """Read one of the game's own header lines (split into words) into ``setup``, which
        ``new_game_from_header`` gets; ValueError saying what is wrong."""
        ...

    def setup_lines(self, state: Any) -> list[str]:
        """The game's own header lines that recreate this new game's setup exactly (written
        after ``seed``, before the ``player`` lines)."""
        ...

    def apply_set(self, state: Any, words: list[str]) -> Any:
        """A position line (``set ...``, split into words) applied to a game not yet begun;
        ValueError saying what is wrong."""
        ...

    def parse_action(self, state: Any, words: list[str]) -> Action:
        """The action of one transcript line, split into words (``NAME VERB ARGS``);
        ValueError saying what is wrong."""
        ...

    def format_action(self, state: Any, action: Action) -> str:
        """The transcript line of ``action`` (the inverse of ``parse_action``)."""
        ...

    # -- players and screens ---------------------------------------------------------------
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The game's own bot players by name, each made from a seed (``companion.bots``
        adds the game-blind ``random``)."""
        ...

    def presenter(self) -> Any:
        """What the kiosk shows of this game (``companion.kiosk.presenter.Presenter``)."""
        ...
