"""A small test-only game that is not Monopoly: a race along a track of squares.

Two (or more) runners take turns: the runner rolls one d6, then chooses how far to go, from one
square up to the roll (a rest is allowed: zero squares, only on a roll of 1). The first past the
last square wins; the others are ranked by how far they got. Table option ``short_track``: 8
squares instead of 12. A runner may be a ``hare`` or a ``tortoise`` (a tortoise goes one square
further on every roll of 6).

It meets every method of :class:`companion.core.game.Game` (transcripts included) and has its
own presenter, so tests can drive the consumers (kiosk, session, transcripts, conformance)
with a game they hold no code for. Register it with :func:`register_race` (the ``race_game``
fixture does it and takes it out again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.core.actions import Action
from companion.core.dice import D6, DicePrompt
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Bot, Outcome
from companion.core.registry import register, unregister
from companion.core.words import quote
from companion.kiosk.presenter import BasicPresenter, HeaderFacts, TableOption

NAME = "track_race"
ROLES = ("hare", "tortoise")
LONG, SHORT = 12, 8


@dataclass(frozen=True, slots=True)
class RaceOptions:
    short_track: bool = False

    @property
    def track(self) -> int:
        return SHORT if self.short_track else LONG


@dataclass(frozen=True, slots=True)
class Runner:
    name: str
    role: str = ""
    position: int = 0  # squares run so far; past ``track``: finished


@dataclass(frozen=True, slots=True)
class RaceState:
    variant: str
    seed: int
    players: tuple[Runner, ...]
    options: RaceOptions = field(default_factory=RaceOptions)
    current: int = 0
    turn: int = 1
    rolled: int = 0  # the current runner's roll, 0 before it
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class RollDie(Action):
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Run(Action):
    squares: int


@dataclass(frozen=True, slots=True)
class StopRace(Action):
    """The table stops the race (a simulation's turn cap): standings by squares run."""


class Race:
    """The rules (see the module docstring); pure and deterministic like every game."""

    name = NAME

    def __init__(self) -> None:
        self._presenter: RacePresenter | None = None

    # -- a new game ------------------------------------------------------------------------
    def default_options(self) -> RaceOptions:
        return RaceOptions()

    def parse_option(self, name: str, text: str) -> tuple[str, Any]:
        if name != "short_track":
            raise ValueError(f"option {name} is not a setting of {self.name}; it has short_track")
        if text.lower() not in ("true", "false"):
            raise ValueError(f"short_track takes true or false, not {text!r}")
        return name, text.lower() == "true"

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Any = None,
                 seed: int = 0) -> RaceState:
        runners = []
        for p in players:
            name, role = (p, "") if isinstance(p, str) else p
            if role and role not in ROLES:
                raise ValueError(f"{name}: no role {role!r}; roles are {', '.join(ROLES)}")
            runners.append(Runner(name, role))
        names = [r.name.lower() for r in runners]
        if len(runners) < 2:
            raise ValueError("a race needs at least two runners")
        if len(set(names)) != len(names):
            raise ValueError("two runners have the same name")
        return RaceState(self.name, seed, tuple(runners), options or RaceOptions())

    # -- playing ---------------------------------------------------------------------------
    def legal_actions(self, state: RaceState,
                      players: tuple[int, ...] | None = None) -> list[Action]:
        if state.outcome is not None or (players is not None and state.current not in players):
            return []
        me = state.current
        if not state.rolled:
            return [RollDie(me, (v,)) for v in D6.faces]
        low = 0 if state.rolled == 1 else 1
        return [Run(me, n) for n in range(low, state.rolled + 1)]

    def is_legal(self, state: RaceState, action: Action) -> bool:
        if isinstance(action, StopRace):
            return state.outcome is None
        return action in self.legal_actions(state)

    def apply(self, state: RaceState, action: Action) -> tuple[RaceState, tuple[Event, ...]]:
        if not self.is_legal(state, action):
            raise IllegalActionError(f"{self.describe_action(state, action)} is not allowed: "
                                     f"the game waits for {self.waiting_for(state)}")
        me = state.current
        if isinstance(action, StopRace):
            ranked = sorted(state.players, key=lambda r: -r.position)
            return replace(state, outcome=Outcome(None, tuple((r.name, r.position)
                                                              for r in ranked), "stopped")), ()
        if isinstance(action, RollDie):
            return replace(state, rolled=action.dice[0]), (
                Event("rolled", me, amount=action.dice[0]),)
        assert isinstance(action, Run)
        runner = state.players[me]
        bonus = 1 if runner.role == "tortoise" and state.rolled == 6 else 0
        moved = replace(runner, position=runner.position + action.squares + bonus)
        players = state.players[:me] + (moved,) + state.players[me + 1:]
        events = [Event("moved", me, amount=action.squares + bonus, square=moved.position)]
        if moved.position > state.options.track:
            ranked = sorted(players, key=lambda r: -r.position)
            outcome = Outcome(moved.name, tuple((r.name, r.position) for r in ranked),
                              "finished")
            events.append(Event("won", me))
            return replace(state, players=players, rolled=0, outcome=outcome), tuple(events)
        after = (me + 1) % len(players)
        return replace(state, players=players, rolled=0, current=after,
                       turn=state.turn + (after == 0)), tuple(events)

    def deciders(self, state: RaceState) -> tuple[int, ...]:
        return () if state.outcome is not None else (state.current,)

    def waiting_for(self, state: RaceState) -> str:
        if state.outcome is not None:
            return "nothing: the race is over"
        who = state.players[state.current].name
        return f"{who} to roll the die" if not state.rolled else f"{who} to run"

    def dice_prompt(self, state: RaceState) -> DicePrompt | None:
        if state.outcome is not None or state.rolled:
            return None
        return DicePrompt(state.current, (D6,), "move")

    def roll_action(self, state: RaceState, prompt: DicePrompt,
                    values: tuple[int, ...]) -> Action:
        problem = prompt.check(values)
        if problem:
            raise ValueError(problem)
        return RollDie(prompt.player, tuple(values))

    # -- words and records -----------------------------------------------------------------
    def describe(self, state: RaceState, event: Event) -> str:
        who = state.players[event.player].name if event.player is not None else "nobody"
        if event.kind == "rolled":
            return f"{who} rolls {event.amount}"
        if event.kind == "moved":
            return f"{who} runs {event.amount} to square {event.square}"
        if event.kind == "won":
            return f"{who} wins the race"
        return f"{who}: {event.kind}"

    def describe_action(self, state: RaceState, action: Action) -> str:
        return self.format_action(state, action)

    def state_json(self, state: RaceState, events: Sequence[Event] = ()) -> dict[str, Any]:
        return {
            "variant": state.variant, "seed": state.seed, "turn": state.turn,
            "current": state.players[state.current].name, "rolled": state.rolled,
            "track": state.options.track,
            "players": [{"name": r.name, "role": r.role, "position": r.position}
                        for r in state.players],
            "outcome": None if state.outcome is None else {
                "winner": state.outcome.winner, "reason": state.outcome.reason,
                "standings": [list(s) for s in state.outcome.standings]},
            "events": [self.describe(state, e) for e in events],
        }

    def header_lines(self, state: RaceState, roles: Sequence[str] | None = None) -> list[str]:
        lines = [f"variant {self.name}"]
        if state.options.short_track:
            lines.append("option short_track=true")
        lines.append(f"seed {state.seed}")
        for i, r in enumerate(state.players):
            role = roles[i] if roles else r.role
            lines.append(f"player {r.name} {role}".rstrip())
        return lines

    def new_game_from_header(self, players: Sequence[str | tuple[str, str]], options: Any,
                             seed: int, setup: Mapping[str, Any]) -> RaceState:
        return self.new_game(players, options, seed)

    @property
    def setup_words(self) -> frozenset[str]:
        return frozenset()

    def read_setup_line(self, words: list[str], setup: dict[str, Any]) -> None:
        raise ValueError(f"the race has no {words[0]!r} lines")

    def setup_lines(self, state: RaceState) -> list[str]:
        return []

    def end_game_action(self, state: RaceState) -> Action:
        return StopRace(state.current)

    def needs_dice(self, action: Action) -> bool:
        return isinstance(action, RollDie) and not action.dice

    def tells(self, event: Event) -> bool:
        return True

    def invariant_problems(self, state: RaceState) -> list[str]:
        return [f"{r.name} is at square {r.position}" for r in state.players if r.position < 0]

    def result_lines(self, state: RaceState) -> Iterator[str]:
        for r in sorted(state.players, key=lambda r: -r.position):
            yield f"  {r.name}: square {r.position}"
        if state.outcome is not None and state.outcome.winner:
            yield f"Winner: {state.outcome.winner}"

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        return {}

    def parse_action(self, state: RaceState, words: list[str]) -> Action:
        if words[1:] == ["stop"]:
            return StopRace(self._seat(state, words[0]))
        if len(words) != 3 or not words[2].isdigit():
            raise ValueError(f"{' '.join(words)!r}: use NAME roll N, NAME run N or NAME stop")
        seat = self._seat(state, words[0])
        if words[1] == "roll":
            return RollDie(seat, (int(words[2]),))
        if words[1] == "run":
            return Run(seat, int(words[2]))
        if words[1] == "stop":
            return StopRace(seat)
        raise ValueError(f"{words[1]!r}: the race knows the verbs roll and run")

    def format_action(self, state: RaceState, action: Action) -> str:
        name = quote(state.players[action.player].name)
        if isinstance(action, RollDie):
            return f"{name} roll {' '.join(map(str, action.dice))}"
        if isinstance(action, Run):
            return f"{name} run {action.squares}"
        if isinstance(action, StopRace):
            return f"{name} stop"
        raise ValueError(f"no transcript form for {action!r}")

    def apply_set(self, state: RaceState, words: list[str]) -> RaceState:
        """``set NAME position=N``: a runner placed before the race starts."""
        if len(words) != 3 or words[0] != "set" or not words[2].startswith("position="):
            raise ValueError(f"{' '.join(words)!r}: use set NAME position=N")
        value = words[2].removeprefix("position=")
        if not value.isdigit() or int(value) > state.options.track:
            raise ValueError(f"position {value!r}: a square from 0 to {state.options.track}")
        seat = self._seat(state, words[1])
        runner = replace(state.players[seat], position=int(value))
        return replace(state, players=state.players[:seat] + (runner,) + state.players[seat + 1:])

    def presenter(self) -> RacePresenter:
        if self._presenter is None:
            self._presenter = RacePresenter(self)
        return self._presenter

    @staticmethod
    def _seat(state: RaceState, name: str) -> int:
        for i, r in enumerate(state.players):
            if r.name.lower() == name.lower():
                return i
        raise ValueError(f"no runner called {name!r}")


class RacePresenter(BasicPresenter):
    """What the kiosk shows of the race: runs as rows, the square on each card, no money."""

    description = "Two runners, one die: first past the last square wins"

    def roles(self) -> tuple[str, ...]:
        return ROLES

    def table_options(self) -> tuple[TableOption, ...]:
        return (TableOption("short_track", "Short track", "Eight squares instead of twelve"),)

    def action_label(self, state: RaceState, action: Action) -> str:
        if isinstance(action, Run):
            if action.squares == 0:
                return "Rest this turn"
            return f"Run {action.squares} square{'s' if action.squares > 1 else ''}"
        return super().action_label(state, action)

    def header(self, state: RaceState) -> HeaderFacts:
        return HeaderFacts(state.turn, state.current)

    def place_of(self, state: RaceState, seat: int) -> int | None:
        return state.players[seat].position

    def place_name(self, place: int) -> str:
        return "the start" if place == 0 else f"square {place}"


def register_race() -> Race:
    """Register the race under :data:`NAME` and return its rules."""
    game = Race()
    register(NAME, lambda: game)
    return game


def unregister_race() -> None:
    unregister(NAME)


def transcript(state: RaceState, game: Race, actions: Sequence[Action]) -> str:
    """A whole race as transcript text (header, then one line per action)."""
    from companion.transcript import header_lines

    lines = header_lines(game, state, [r.role for r in state.players])
    for a in actions:
        lines.append(game.format_action(state, a))
        state, _ = game.apply(state, a)
    return "".join(f"{line}\n" for line in lines)

