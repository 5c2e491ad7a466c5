"""The conformance kit's one door to the consumers: transcripts, the session and its journal,
the bots and their dice, the JSON view; and the shared loop of every seeded bot game in the
tests.

Every call the kit (and the bot-game tests elsewhere under ``tests/``) makes into
``companion.transcript``, ``companion.session``, ``companion.bots`` and ``companion.simulate`` is
in this module, so when those APIs move only this file changes. Everything else in the kit
uses these helpers and the ``Game`` protocol's own methods (``new_game``, ``legal_actions``,
``apply``, ``deciders``, ``waiting_for``, ``is_legal``).

It also holds what the kit knows of each game: a :class:`Conformance` (the tables it plays, the
invariants the game declares, the actions it must refuse), declared with :func:`declare` (see
``declarations.py``); a registered game with no declaration gets :data:`DEFAULT`.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any

from companion.core.actions import Action
from companion.core.registry import find_game, game_names, register, unregister
from companion.simulate import Step, bot_steps

# ------------------------------------------------------------------------------------------
# The consumers' APIs (re-point these when they move)
# ------------------------------------------------------------------------------------------


def find(name: str) -> Any:
    """The registered game (or variant) called ``name``."""
    return find_game(name)


def registered_names() -> list[str]:
    return game_names()


def table_options(game: Any, values: Mapping[str, Any]) -> Any:
    """The game's default options with ``values`` set by name (as ``option`` lines do)."""
    from companion.transcript import variant_options

    return variant_options(game, dict(values))


def header_lines(game: Any, state: Any, roles: Sequence[str] | None = None) -> list[str]:
    """Transcript header lines that recreate the new game ``state``."""
    from companion.transcript import header_lines as lines

    return lines(game, state, list(roles) if roles else None)


def format_action(game: Any, state: Any, action: Action) -> str:
    """The transcript line of ``action`` taken in ``state``."""
    from companion.transcript import format_action as line

    return line(game, state, action)


def state_json(game: Any, state: Any, events: Sequence[Any] = ()) -> dict[str, Any]:
    """The state as ``companion script --json`` prints it."""
    from companion.transcript import state_json as view

    return view(game, state, list(events))


def json_text(data: Any) -> str:
    """JSON as the vector files store it (2-space indent, a final newline)."""
    return json.dumps(data, indent=2) + "\n"


@dataclass
class Replayed:
    """A transcript replayed: the game, the final state, the events and the action lines."""

    game: Any
    state: Any
    events: list[Any]
    lines: list[str]

    def json(self) -> dict[str, Any]:
        return state_json(self.game, self.state, self.events)


def replay(text: str) -> Replayed:
    """Replay a whole transcript (raises the framing's error naming the first bad line)."""
    from companion.transcript import replay as run

    result = run(text)
    return Replayed(result.rules, result.state, list(result.events), list(result.lines))


def make_bot(kind: str, seed: int, game: Any = None) -> Any:
    """A seeded bot: ``random`` (uniform among what it is offered) or one of ``game``'s own
    (``heuristic`` for the Monopoly games, the default when no game is given)."""
    from companion.bots import RandomBot, bots_for

    if kind == "random":
        return RandomBot(seed)
    bots = bots_for(game if game is not None else find_game("monopoly"))
    return bots[kind](seed)


def make_roller(seed: int) -> Any:
    """Seeded dice outside the game, for the rolls bots and the kit leave open."""
    from companion.bots import DiceRoller

    return DiceRoller(seed)


def fill(roller: Any, game: Any, state: Any, action: Action) -> Action:
    """``action`` with its dice filled in when it is a roll left open (as listed), else itself."""
    return roller.fill(game, state, action)  # type: ignore[no-any-return]


def steps_of(game: Any, state: Any, bot: Any, roller: Any,
             everyone: bool = False) -> Iterator[Step]:
    """The steps of a bot game from ``state`` until it ends: the bot chooses among the actions
    of the seats the game waits on (of every seat with ``everyone``), ``roller`` fills dice."""
    return bot_steps(game, state, bot, roller, everyone)


class Journaled:
    """A game kept in a journal file (a session): apply, undo, close, resume."""

    def __init__(self, session: Any) -> None:
        self._session = session

    @classmethod
    def start(cls, path: Path, variant: str, players: Sequence[str | tuple[str, str]],
              seed: int, options: Any = None) -> Journaled:
        from companion.session import Session

        seats = [p if isinstance(p, tuple) else (p, "") for p in players]
        return cls(Session.new(path, variant, seats, seed=seed, options=options))

    @classmethod
    def resume(cls, path: Path) -> Journaled:
        from companion.session import Session

        return cls(Session.resume(path))

    @property
    def state(self) -> Any:
        return self._session.state

    @property
    def game(self) -> Any:
        return self._session.rules

    @property
    def header(self) -> list[str]:
        return list(self._session.header)

    @property
    def lines(self) -> list[str]:
        """The action lines kept, in order."""
        return list(self._session.lines)

    def apply(self, action: Action) -> str:
        """Apply and commit ``action``; its line as written."""
        return str(self._session.apply(action).line)

    def undo(self, n: int) -> list[str]:
        return list(self._session.undo(n))

    def transcript(self) -> str:
        return str(self._session.export_transcript())

    def close(self) -> None:
        self._session.close()


# ------------------------------------------------------------------------------------------
# The shared bot-game loop
# ------------------------------------------------------------------------------------------


@dataclass
class BotGame:
    """A seeded bot game played from ``start``: every step, and the transcript it makes."""

    game: Any
    start: Any
    header: list[str]
    steps: list[Step]

    @property
    def final(self) -> Any:
        return self.steps[-1].after if self.steps else self.start

    @property
    def actions(self) -> list[Action]:
        return [s.action for s in self.steps]

    @property
    def events(self) -> list[Any]:
        return [e for s in self.steps for e in s.events]

    @property
    def states(self) -> list[Any]:
        """The start, then the state after each step."""
        return [self.start, *(s.after for s in self.steps)]

    def lines(self) -> list[str]:
        """The header, then one line per action."""
        return [*self.header, *(format_action(self.game, s.before, s.action) for s in self.steps)]

    def transcript(self) -> str:
        return "".join(f"{line}\n" for line in self.lines())


def bot_game(game: Any, state: Any, *, bot: str, seed: int, dice_seed: int, steps: int,
             everyone: bool | None = None, roles: Sequence[str] | None = None,
             header: Sequence[str] | None = None) -> BotGame:
    """Play at most ``steps`` actions of a seeded bot game from ``state`` (fewer when it ends).

    ``bot`` is ``random`` or ``heuristic`` (seeded with ``seed``); dice come from a roller seeded
    with ``dice_seed``. The bot chooses among the actions of the seats the game waits on, or of
    every seat with ``everyone`` (the default for the random bot, as ``simulate`` plays).
    ``header`` is the transcript's header (default: the header lines of ``state`` with
    ``roles``); a game started by ``set`` lines passes them in it."""
    wide = bot == "random" if everyone is None else everyone
    played = list(islice(steps_of(game, state, make_bot(bot, seed, game), make_roller(dice_seed),
                                  wide), steps))
    head = list(header) if header is not None else header_lines(game, state, roles)
    return BotGame(game, state, head, played)


def assert_replays(played: BotGame) -> Replayed:
    """The game's own transcript replays to the same final state; the replay is returned."""
    result = replay(played.transcript())
    assert result.state == played.final, "the transcript replays to another state"
    return result


# ------------------------------------------------------------------------------------------
# What the kit knows of each game
# ------------------------------------------------------------------------------------------

Invariant = Callable[[Any, Any], None]  # (game, state): raises AssertionError naming the break
Refusals = Callable[[Any, Any], Iterable[Action]]  # (game, state): actions it must refuse


@dataclass(frozen=True)
class Table:
    """One seeded table the kit plays to its end (or ``max_steps`` actions)."""

    label: str
    players: tuple[str | tuple[str, str], ...]
    seed: int
    bot: str = "heuristic"
    options: tuple[tuple[str, Any], ...] = ()
    max_steps: int = 3000

    @property
    def roles(self) -> list[str] | None:
        roles = [p[1] if isinstance(p, tuple) else "" for p in self.players]
        return roles if any(roles) else None


@dataclass(frozen=True)
class Conformance:
    """What the kit plays of one game and what the game declares about itself.

    ``invariants`` hold after every step; ``refusals`` are actions the game must refuse in a
    given state (malformed ones of its own kinds); ``samples`` states of each table are checked
    action by action; the journal round trip writes the first ``journal_steps`` actions."""

    tables: tuple[Table, ...]
    invariants: tuple[Invariant, ...] = ()
    refusals: Refusals | None = None
    samples: int = 12
    journal_steps: int = 60


DEFAULT = Conformance(tables=(Table("plain", ("P1", "P2", "P3"), seed=1),))
_DECLARED: dict[str, Conformance] = {}
# test-only games the kit runs beside the registered ones: name -> (factory, conformance).
# The ``kit_game`` fixture registers one for the test that uses it and removes it after.
TEST_GAMES: dict[str, tuple[Callable[[], Any], Conformance]] = {}


def declare(name: str, conformance: Conformance) -> None:
    """Tell the kit how to play the game ``name`` and what holds for it."""
    _DECLARED[name] = conformance


def conformance_of(name: str) -> Conformance:
    if name in TEST_GAMES:
        return TEST_GAMES[name][1]
    return _DECLARED.get(name, DEFAULT)


def kit_names() -> list[str]:
    """Every game the kit runs: the registered ones and the test-only ones."""
    return sorted(set(registered_names()) | set(TEST_GAMES))


@dataclass(frozen=True)
class Case:
    """One game and one of its tables."""

    variant: str
    table: Table

    @property
    def id(self) -> str:
        return f"{self.variant}-{self.table.label}"

    @property
    def conformance(self) -> Conformance:
        return conformance_of(self.variant)


def kit_cases() -> list[Case]:
    return [Case(name, table) for name in kit_names() for table in conformance_of(name).tables]


@contextmanager
def using(name: str) -> Iterator[Any]:
    """The game ``name``; a test-only game is registered meanwhile and removed after."""
    test_game = TEST_GAMES.get(name)
    if test_game is None or name in registered_names():
        yield find(name)
        return
    register(name, test_game[0])
    try:
        yield find(name)
    finally:
        unregister(name)


_PLAYED: dict[tuple[str, Table], BotGame] = {}


def play_case(game: Any, case: Case) -> BotGame:
    """The bot game of ``case`` (played once per process and kept: states are immutable values
    and a game's rules objects are all alike, so one built after a registry change fits)."""
    key = (case.variant, case.table)
    cached = _PLAYED.get(key)
    if cached is not None:
        return cached
    table = case.table
    state = new_table(game, table)
    played = bot_game(game, state, bot=table.bot, seed=table.seed,
                      dice_seed=table.seed + 1_000_003, steps=table.max_steps, roles=table.roles)
    _PLAYED[key] = played
    return played


def new_table(game: Any, table: Table) -> Any:
    options = table_options(game, dict(table.options)) if table.options else None
    return game.new_game(list(table.players), options, seed=table.seed)


def check_invariants(conformance: Conformance, game: Any, state: Any) -> None:
    for invariant in conformance.invariants:
        invariant(game, state)


def snapshot(state: Any) -> bytes:
    """The state's every value as bytes: equal bytes, equal values."""
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def views(game: Any, state: Any) -> tuple[Any, ...]:
    """What a consumer sees of ``state``: deciders, listed actions, the waiting text, JSON."""
    return (game.deciders(state), game.legal_actions(state), game.waiting_for(state),
            json_text(state_json(game, state)))


def sample_indices(count: int, samples: int) -> list[int]:
    """``samples`` state indices spread evenly over ``count`` states, the first and last with
    them."""
    if count <= samples:
        return list(range(count))
    return sorted({round(i * (count - 1) / (samples - 1)) for i in range(samples)})


def refuse_kinds(action: Action, seats: int) -> list[Action]:
    """Malformed versions of a listed action every game refuses: seats that do not exist."""
    return [replace(action, player=seats), replace(action, player=-1)]


@dataclass(frozen=True)
class Unknown(Action):
    """An action kind no game knows."""

    what: str = "nothing"


def foreign_actions(seats: int) -> list[Action]:
    """Actions of kinds no game has: the bare base action and one the kit made up."""
    return [Action(0), Unknown(seats - 1), Unknown(0, "roll")]


def vector_dir() -> Path:
    return Path(__file__).resolve().parent / "vectors"

