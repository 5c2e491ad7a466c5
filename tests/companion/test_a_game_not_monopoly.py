"""A small test-only game (a race on a line of squares, one d4 a turn) registered in a fixture
and played through the game-blind consumers: transcripts, bots and simulation, narration and
the session with its journal and undo. None of them knows it; all of them work."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from companion.core.actions import Action
from companion.core.dice import D4, DicePrompt
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Bot, Outcome
from companion.core.registry import register, unregister
from companion.core.words import parse_int, quote, split_pairs
from companion.narrate import account
from companion.session import Session
from companion.simulate import play_game, simulate
from companion.transcript import TranscriptError, format_action, header_lines, replay, state_json


@dataclass(frozen=True, slots=True)
class RaceOptions:
    goal: int = 10


@dataclass(frozen=True, slots=True)
class Runner:
    name: str
    square: int = 0


@dataclass(frozen=True, slots=True)
class RaceState:
    variant: str
    seed: int
    options: RaceOptions
    players: tuple[Runner, ...]
    current: int = 0
    turn_number: int = 1
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Step(Action):
    dice: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Stop(Action):
    pass


class Race:
    """First to the goal square wins; ``start N`` header lines put everyone on square N."""

    name = "race"
    setup_words = frozenset({"start"})

    def default_options(self) -> RaceOptions:
        return RaceOptions()

    def parse_option(self, name: str, text: str) -> tuple[str, Any]:
        if name != "goal":
            raise ValueError(f"unknown option {name!r}; the race has goal")
        return name, parse_int(text, "goal")

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Any = None,
                 seed: int = 0, start: int = 0) -> RaceState:
        names = [p if isinstance(p, str) else p[0] for p in players]
        return RaceState(self.name, seed, options or RaceOptions(),
                         tuple(Runner(n, start) for n in names))

    def new_game_from_header(self, players: Sequence[str | tuple[str, str]], options: Any,
                             seed: int, setup: Mapping[str, Any]) -> RaceState:
        return self.new_game(players, options, seed, **setup)

    def read_setup_line(self, words: list[str], setup: dict[str, Any]) -> None:
        if len(words) != 2:
            raise ValueError("start N")
        setup["start"] = parse_int(words[1], "start")

    def setup_lines(self, state: RaceState) -> list[str]:
        start = state.players[0].square
        return [f"start {start}"] if start else []

    def legal_actions(self, state: RaceState, players: tuple[int, ...] | None = None
                      ) -> list[Action]:
        if state.outcome is not None:
            return []
        return [Step(state.current)] if players is None or state.current in players else []

    def is_legal(self, state: RaceState, action: Action) -> bool:
        try:
            self.apply(state, action)
        except IllegalActionError:
            return False
        return True

    def apply(self, state: RaceState, action: Action) -> tuple[RaceState, tuple[Event, ...]]:
        if isinstance(action, Stop):
            return self._stop(state), (Event("stopped"),)
        if not isinstance(action, Step) or action.player != state.current:
            raise IllegalActionError(f"it is {state.players[state.current].name}'s step")
        problem = DicePrompt(state.current, (D4,)).check(action.dice)
        if problem:
            raise IllegalActionError(problem)
        runner = state.players[action.player]
        moved = replace(runner, square=runner.square + action.dice[0])
        players = tuple(moved if i == action.player else p for i, p in enumerate(state.players))
        state = replace(state, players=players)
        events = [Event("stepped", action.player, action.dice[0])]
        if moved.square >= state.options.goal:
            state = replace(state, outcome=self._standings(state, moved.name, "goal"))
            events.append(Event("won", action.player))
        else:
            state = replace(state, current=(state.current + 1) % len(players),
                            turn_number=state.turn_number + 1)
            events.append(Event("turn", state.current))
        return state, tuple(events)

    def _standings(self, state: RaceState, winner: str | None, reason: str) -> Outcome:
        rows = sorted(((p.name, p.square) for p in state.players), key=lambda r: -r[1])
        return Outcome(winner, tuple(rows), reason)

    def _stop(self, state: RaceState) -> RaceState:
        return replace(state, outcome=self._standings(state, None, "agreement"))

    def deciders(self, state: RaceState) -> tuple[int, ...]:
        return () if state.outcome else (state.current,)

    def waiting_for(self, state: RaceState) -> str:
        return f"waiting for {state.players[state.current].name} to step"

    def end_game_action(self, state: RaceState) -> Action:
        return Stop(state.current)

    def dice_prompt(self, state: RaceState) -> DicePrompt | None:
        return None if state.outcome else DicePrompt(state.current, (D4,), "step")

    def needs_dice(self, action: Action) -> bool:
        return isinstance(action, Step) and not action.dice

    def roll_action(self, state: RaceState, prompt: DicePrompt, values: tuple[int, ...]
                    ) -> Action:
        return Step(prompt.player, values)

    def describe(self, state: RaceState, event: Event) -> str:
        who = state.players[event.player].name if event.player is not None else "the table"
        if event.kind == "stepped":
            return f"{who} stepped {event.amount}"
        return f"{who}: {event.kind}"

    def tells(self, event: Event) -> bool:
        return event.kind != "turn"

    def result_lines(self, state: RaceState) -> Iterator[str]:
        for p in state.players:
            yield f"{p.name} on {p.square}"

    def state_json(self, state: RaceState, events: Sequence[Event] = ()) -> dict[str, Any]:
        return {"squares": {p.name: p.square for p in state.players},
                "events": [self.describe(state, e) for e in events]}

    def apply_set(self, state: RaceState, words: list[str]) -> RaceState:
        if len(words) != 4 or words[1] != "runner":
            raise ValueError("set runner NAME square=N")
        names = [p.name for p in state.players]
        if words[2] not in names:
            raise ValueError(f"no runner named {words[2]!r}")
        (key, value), = split_pairs(words[3:])
        seat = names.index(words[2])
        moved = replace(state.players[seat], square=parse_int(value, key))
        return replace(state, players=tuple(moved if i == seat else p
                                            for i, p in enumerate(state.players)))

    def parse_action(self, state: RaceState, words: list[str]) -> Action:
        names = [p.name for p in state.players]
        if len(words) != 3 or words[1] != "step" or words[0] not in names:
            raise ValueError("NAME step N")
        return Step(names.index(words[0]), (parse_int(words[2], "a step"),))

    def format_action(self, state: RaceState, action: Action) -> str:
        assert isinstance(action, Step)
        return f"{quote(state.players[action.player].name)} step {action.dice[0]}"

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        return {}


@pytest.fixture
def race() -> Iterator[Race]:
    game = Race()
    register("race", lambda: game)
    yield game
    unregister("race")


TEXT = """# a race to 6
variant race
option goal=6
seed 3
start 1
player Ann
player "Bo Li"
set runner Ann square=2
Ann step 3
"Bo Li" step 4
Ann step 1
"""


def test_a_transcript_of_another_game_replays_and_writes_back(race: Race) -> None:
    result = replay(TEXT)
    assert result.rules is race
    assert [p.square for p in result.state.players] == [6, 5]
    assert result.state.outcome.winner == "Ann"
    assert result.lines == ["Ann step 3", '"Bo Li" step 4', "Ann step 1"]
    assert state_json(race, result.state) == {"squares": {"Ann": 6, "Bo Li": 5}, "events": []}
    fresh = race.new_game(["Ann", "Bo Li"], RaceOptions(goal=6), seed=3, start=1)
    header = header_lines(race, fresh)
    assert header == ["variant race", "option goal=6", "seed 3", "start 1", "player Ann",
                      'player "Bo Li"']
    assert format_action(race, fresh, Step(1, (2,))) == '"Bo Li" step 2'
    again = replay("\n".join([*header, "set runner Ann square=2", *result.lines]))
    assert again.state == result.state


@pytest.mark.parametrize("text, problem", [
    ("variant race\nstart\nplayer Ann\n", "line 2: 'start': start N"),
    ("variant race\nplayer Ann\nplayer Bo\nAnn step 9\n", "line 4: 'Ann step 9': die 1"),
    ("variant race\noption laps=2\n", "line 2: 'option laps=2': unknown option 'laps'"),
    ("variant race\nplayer Ann\nAnn step 2\nstart 3\n", "'start' lines belong in the header"),
    ("variant race\nplayer Ann\nset runner Zed square=1\n", "no runner named 'Zed'"),
])
def test_the_framing_names_the_line_the_game_refuses(race: Race, text: str,
                                                     problem: str) -> None:
    with pytest.raises(TranscriptError) as caught:
        replay(text)
    assert problem in str(caught.value)


def test_bots_play_it_to_the_end_and_the_turn_cap_stops_it(race: Race) -> None:
    result = play_game(race, ["Ann", "Bo"], seed=5, bot="random", record=True)
    assert result.state.outcome is not None and result.state.outcome.reason == "goal"
    assert not result.capped and result.steps == len(result.actions) > 2
    capped = play_game(race, ["Ann", "Bo"], seed=5, bot="random", max_turns=1)
    assert capped.capped and capped.state.outcome.reason == "agreement"
    summary = simulate("race", 3, games=6, seed=1, bot="random", max_turns=1)
    assert summary.finished == 0 and not summary.wins
    summary = simulate("race", 3, games=6, seed=1, bot="random")
    assert summary.finished == 6 and sum(summary.wins.values()) == 6
    with pytest.raises(ValueError, match="no bot called 'heuristic' plays race"):
        simulate("race", 2, games=1, seed=1)


def test_the_session_journals_narrates_and_undoes_it(race: Race, tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite"
    session = Session.new(path, "race", [("Ann", ""), ("Bo", "")], seed=2)
    applied = session.apply(Step(0, (3,)))
    assert applied.line == "Ann step 3" and applied.sentences == ("Ann stepped 3",)
    session.apply(Step(1, (2,)))
    assert session.undo() == ["Bo step 2"]
    session.close()
    resumed = Session.resume(path)
    assert [p.square for p in resumed.state.players] == [3, 0]
    assert resumed.export_transcript().splitlines() == [
        "variant race", "seed 2", "player Ann", "player Bo", "Ann step 3"]
    assert account(race, resumed.state, [Event("stepped", 0, 3), Event("turn", 1)]) == [
        "Ann stepped 3"]
    resumed.close()
