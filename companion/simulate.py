"""Whole games between bots with seeded dice: for balance figures, benchmarks and fuzzing."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.bots import Bot, DiceRoller, bots_for
from companion.core.actions import Action
from companion.core.events import Event
from companion.core.game import Game
from companion.core.registry import find_game


@dataclass
class GameResult:
    state: Any
    actions: list[Action] = field(default_factory=list)
    steps: int = 0
    capped: bool = False  # stopped at the turn cap rather than ended by the rules

    @property
    def winner(self) -> str | None:
        return self.state.outcome.winner if self.state.outcome else None


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a bot game: the state it was chosen in, the action, what it led to."""

    before: Any
    action: Action
    after: Any
    events: tuple[Event, ...]


def bot_steps(rules: Game, state: Any, chooser: Bot, roller: DiceRoller,
              everyone: bool = False) -> Iterator[Step]:
    """The steps of a bot game from ``state`` until it ends: the bot chooses among the actions
    of the players the game waits on (of every player with ``everyone``, as the random bot
    plays), ``roller`` fills in dice. A game that waits with nothing legal is a rules bug:
    RuntimeError says what it waits for."""
    while state.outcome is None:
        actions = rules.legal_actions(state, None if everyone else rules.deciders(state))
        if not actions:
            raise RuntimeError(f"nothing is legal while the game waits: "
                               f"{rules.waiting_for(state)}")
        action = roller.fill(rules, state, chooser.choose(rules, state, actions))
        after, events = rules.apply(state, action)
        yield Step(state, action, after, tuple(events))
        state = after


def make_bot(rules: Game, bot: str, seed: int) -> Bot:
    """The bot called ``bot`` for this game, made from ``seed``; ValueError naming the bots
    there are."""
    makers = bots_for(rules)
    if bot not in makers:
        raise ValueError(f"no bot called {bot!r} plays {rules.name}; bots: {', '.join(makers)}")
    return makers[bot](seed)


class InvariantError(AssertionError):
    """A checked game (``check=True``) broke the game's own bookkeeping or did not replay."""


def play_game(rules: Game, players: Sequence[str | tuple[str, str]], seed: int,
              bot: str = "heuristic", max_turns: int = 1000, options: Any = None,
              record: bool = False, check: bool = False) -> GameResult:
    """Play one game to its end or to ``max_turns`` turns (then the table stops it and
    standings decide). ``check``: after every step ask the game for invariant problems, and
    at the end replay the game's transcript to the same state; InvariantError says where."""
    start = state = rules.new_game(players, options, seed=seed)
    steps = bot_steps(rules, state, make_bot(rules, bot, seed), DiceRoller(seed + 1_000_003),
                      everyone=bot == "random")
    result = GameResult(state)
    lines: list[str] = []
    while state.outcome is None:
        if state.turn_number > max_turns:
            action = rules.end_game_action(state)
            if check:
                lines.append(rules.format_action(state, action))
            state = rules.apply(state, action)[0]
            result.capped = True
            break
        step = next(steps)
        state = step.after
        result.steps += 1
        if record:
            result.actions.append(step.action)
        if check:
            lines.append(rules.format_action(step.before, step.action))
            problems = rules.invariant_problems(state)
            if problems:
                raise InvariantError(f"{rules.name} game of seed {seed}, step {result.steps} "
                                     f"({lines[-1]}): {'; '.join(problems)}")
    result.state = state
    if check:
        _check_replay(rules, start, players, lines, state, seed)
    return result


def _check_replay(rules: Game, start: Any, players: Sequence[str | tuple[str, str]],
                  lines: list[str], end: Any, seed: int) -> None:
    from companion.transcript import header_lines, replay

    roles = [p[1] if not isinstance(p, str) else "" for p in players]
    text = "".join(f"{line}\n" for line in
                   (*header_lines(rules, start, roles if any(roles) else None), *lines))
    if replay(text).state != end:
        raise InvariantError(f"{rules.name} game of seed {seed}: its transcript replays to "
                             "another state")


@dataclass
class Summary:
    games: int
    finished: int  # ended by the rules (a bankruptcy in Monopoly) rather than the turn cap
    wins: Counter[str]
    turns: list[int]
    seconds: float
    steps: int
    # how games ended (``Outcome.reason``), and per-game figures a game reports about itself
    # (``game_facts(state) -> {name: number}``, optional: e.g. when each stage began)
    endings: Counter[str] = field(default_factory=Counter)
    facts: list[dict[str, int]] = field(default_factory=list)

    def fact_means(self) -> dict[str, float]:
        """Each reported figure's mean over the games that reported it."""
        keys = sorted({k for f in self.facts for k in f})
        out: dict[str, float] = {}
        for k in keys:
            values = [f[k] for f in self.facts if k in f]
            out[k] = round(sum(values) / len(values), 2) if values else 0.0
        return out

    @property
    def games_per_minute(self) -> float:
        return 60 * self.games / self.seconds if self.seconds else 0.0


def simulate(variant: str, players: int, games: int, seed: int, bot: str = "heuristic",
             classes: Sequence[str] = (), max_turns: int = 1000, progress: bool = False,
             options: Mapping[str, Any] | None = None, check: bool = False) -> Summary:
    """Play ``games`` games; wins are counted by class when classes are given, else by seat.
    ``check``: every step checked and every game replayed (see ``play_game``).
    ``options``: table settings by name (already typed, e.g. from ``Game.parse_option``)."""
    from companion.transcript import variant_options

    rules = find_game(variant)
    table_options = variant_options(rules, dict(options or {}))
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    facts: list[dict[str, int]] = []
    turns: list[int] = []
    finished = 0
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        roles = [classes[(g + i) % len(classes)] for i in range(players)] if classes else []
        names: list[str | tuple[str, str]] = [
            (f"P{i + 1}", roles[i]) if roles else f"P{i + 1}" for i in range(players)]
        result = play_game(rules, names, seed + g, bot, max_turns, table_options,
                           check=check)
        steps += result.steps
        outcome = result.state.outcome
        if outcome is not None:
            endings[outcome.reason] += 1
        report_facts = getattr(rules, "game_facts", None)
        if report_facts is not None:
            facts.append(report_facts(result.state))
        turns.append(result.state.turn_number)
        if outcome and not result.capped:
            finished += 1
        if outcome and outcome.winner:  # "P2", or a team "P1+P3" (option teams)
            seats = [int(name[1:]) - 1 for name in outcome.winner.split("+")]
            wins["+".join(roles[s] for s in seats) if roles else outcome.winner] += 1
        if progress:
            _progress(g + 1, games, start)
    if progress:
        sys.stderr.write("\n")
    return Summary(games, finished, wins, turns, time.perf_counter() - start, steps, endings,
                   facts)


def _progress(done: int, total: int, start: float) -> None:
    width = 30
    filled = width * done // total
    elapsed = time.perf_counter() - start
    eta = elapsed / done * (total - done)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
                     f"{elapsed:.0f}s elapsed, ~{eta:.0f}s left")
    sys.stderr.flush()
