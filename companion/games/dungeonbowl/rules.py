"""The Dungeonbowl dungeon referee as a game on the shared core: ``Dungeonbowl`` meets
``companion.core.game.Game``.

Seats are the teams' coaches, in the agreed activation order (DB.5); team N (seat N-1) sets
up in the map's end zone N. The referee waits either on a declaration by the team whose turn
it is, or on the first roll or question in its queue (``state.pending``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Bot
from companion.core.words import parse_bool, parse_int
from companion.games.dungeonbowl import board, declare, json_view, referee, roster, transcript
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
from companion.games.dungeonbowl.dice import KINDS
from companion.games.dungeonbowl.dungeon import load
from companion.games.dungeonbowl.state import BALL_KINDS, BowlState, Options, Team, Trap

HANDLERS: dict[type[Action], Callable[[BowlState, Any], tuple[BowlState, list[Event]]]] = {
    Step: declare.step, Stand: declare.stand, StopMove: declare.stop_move, Door: declare.door,
    BlockDoor: declare.block_door, Block: declare.block, Passage: declare.passage,
    RuneJump: declare.rune_jump, Winds: declare.winds, Leap: declare.leap,
    Throw: declare.throw, Take: declare.take, MoveBall: declare.move_ball,
    OpenChest: declare.open_chest, Down: declare.down, Climb: declare.climb,
    Score: declare.score, EndTurn: declare.end_turn, AddModel: declare.add_model,
}
SETUP = (PlaceTrap, AddModel, Kickoff)
MAX_MODELS = 11  # a bot's setup stops here; coaches may declare fewer


class Dungeonbowl:
    """The referee: pure and deterministic; dice and answers arrive inside actions."""

    name = "dungeonbowl"

    def __init__(self) -> None:
        self._presenter: Any = None

    # -- a new game ------------------------------------------------------------------------
    def default_options(self) -> Options:
        return Options()

    def parse_option(self, key: str, text: str) -> tuple[str, Any]:
        """One ``option KEY=VALUE`` agreed variable, checked (docs/dungeonbowl.md)."""
        if key == "dungeon":
            load(text)  # the map must load; its error names the line and column
            return key, text
        if key == "ball":
            if text not in ("rolled", *BALL_KINDS):
                raise ValueError(f"option ball takes rolled or {', '.join(BALL_KINDS)}, not "
                                 f"{text!r}")
            return key, text
        if key == "multiball":
            if text not in ("standard", "first_score", "illusionary"):
                raise ValueError("option multiball takes standard, first_score or illusionary")
            return key, text
        if key == "trap_tokens":
            if text not in ("table", "virtual"):
                raise ValueError("option trap_tokens takes table or virtual")
            return key, text
        if key in ("balls", "trap_count", "lava_armour"):
            value = int(text) if text.lstrip("-").isdigit() else parse_int(text, key)
            if key == "balls" and not 1 <= value <= 6:
                raise ValueError("option balls takes 1 to 6")
            if key == "trap_count" and not 0 <= value <= 40:
                raise ValueError("option trap_count takes 0 to 40")
            return key, value
        if key in ("traps", "door_gfi"):
            return key, parse_bool(text, key)
        if key == "sides":
            for side in text.split(","):
                if not all(x.isdigit() for x in side.split("+")):
                    raise ValueError("option sides takes teams by number, e.g. 1+3,2+4")
            return key, text
        known = ", ".join(f.name for f in fields(Options))
        raise ValueError(f"option {key} is not a setting of dungeonbowl (settings: {known})")

    def default_players(self, options: Mapping[str, Any] | None = None) -> int:
        """The teams a table seats when nobody says: one per end zone of the chosen map
        (``companion simulate`` asks this when ``--players`` is not given)."""
        chosen = dict(options or {}).get("dungeon", Options().dungeon)
        return load(str(chosen)).teams

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Any = None,
                 seed: int = 0) -> BowlState:
        """A new game for the teams ``players`` in activation order, on ``options.dungeon``."""
        if isinstance(options, Mapping):
            opts = self.default_options()
            for k, v in options.items():
                name, value = self.parse_option(k, str(v).lower() if isinstance(v, bool)
                                                else str(v))
                opts = replace(opts, **{name: value})
            options = opts
        options = options or Options()
        dungeon = load(options.dungeon)
        names = [p if isinstance(p, str) else p[0] for p in players]
        rosters = [_roster(n, "" if isinstance(p, str) else p[1])
                   for n, p in zip(names, players, strict=True)]
        if not 2 <= len(names) <= dungeon.teams:
            raise ValueError(f"{dungeon.name} has end zones for {dungeon.teams} teams: play "
                             f"with 2 to {dungeon.teams} teams, not {len(names)}")
        if len({n.lower() for n in names}) != len(names):
            raise ValueError("two teams have the same name")
        if options.sides:
            teams = sorted(int(x) for side in options.sides.split(",") for x in side.split("+"))
            if teams != list(range(1, len(names) + 1)) or len(names) % 2:
                raise ValueError("sides must name every team once, with an even number of "
                                 "teams (DB.6)")
        if options.balls > len(dungeon.chests) + len(dungeon.squares_where(ball=True)):
            raise ValueError(f"{options.balls} balls but only {len(dungeon.chests)} chests")
        loose = dungeon.squares_where(ball=True)
        from companion.games.dungeonbowl.state import Ball
        balls = tuple(Ball(f"b{i}", s, "", "" if options.ball == "rolled" else options.ball)
                      for i, s in enumerate(loose, start=1))
        return BowlState(
            players=tuple(Team(n, 0, r.source if r else "", squad) for n, r, squad in zip(
                names, rosters, roster.squads(rosters, [roster.team_stem(names, i)
                                                        for i in range(len(names))]),
                strict=True)),
            options=options, seed=seed,
            doors=tuple((d.id, d.state) for d in dungeon.doors),
            tried=tuple(d.id for d in dungeon.doors if d.state != "closed"),
            traps=tuple(Trap(s) for s in dungeon.traps) if options.traps else (),
            chests=dungeon.chests, balls=balls,
            hidden_balls=max(0, options.balls - len(balls)))

    def new_game_from_header(self, players: Sequence[str | tuple[str, str]], options: Any,
                             seed: int, setup: Mapping[str, Any]) -> BowlState:
        return self.new_game(players, options, seed)

    # -- playing ---------------------------------------------------------------------------
    def deciders(self, state: BowlState) -> tuple[int, ...]:
        if state.outcome is not None:
            return ()
        if state.pending:
            return (state.pending[0].seat,)
        if state.phase == "setup":
            left = declare.traps_to_place(state)
            if left:
                placed = state.options.trap_count - left
                return (placed % len(state.players),)
            return tuple(range(len(state.players)))
        return (state.current,)

    def legal_actions(self, state: BowlState,
                      players: tuple[int, ...] | None = None) -> list[Action]:
        from companion.games.dungeonbowl.choices import choices

        if state.outcome is not None:
            return []
        found = choices(self, state)
        if players is not None:
            found = [a for a in found if a.player in players]
        return found

    def is_legal(self, state: BowlState, action: Action) -> bool:
        try:
            self.apply(state, action)
        except IllegalActionError:
            return False
        return True

    def apply(self, state: BowlState, action: Action) -> tuple[BowlState, tuple[Event, ...]]:
        if state.outcome is not None:
            raise IllegalActionError("the game is over: start a new game")
        if not 0 <= action.player < len(state.players):
            raise IllegalActionError(f"there is no seat {action.player} at this table")
        if isinstance(action, StopGame):
            t = referee.Txn(state)
            referee.finish(t, "agreement")
            new, events = t.done()
            return new, tuple(events)
        deciders = self.deciders(state)
        if action.player not in deciders:
            who = " or ".join(state.players[i].name for i in deciders)
            raise IllegalActionError(f"the referee waits for {who}: {self.waiting_for(state)}")
        if state.pending:
            new, events = self._answer(state, action)
        elif state.phase == "setup":
            if not isinstance(action, SETUP):
                raise IllegalActionError(f"not before kick-off: {self.waiting_for(state)}")
            setup: dict[type[Action], Callable[[BowlState, Any],
                                              tuple[BowlState, list[Event]]]] = {
                PlaceTrap: declare.place_trap, AddModel: declare.add_model,
                Kickoff: declare.kickoff}
            handler = setup[type(action)]
            new, events = handler(state, action)
        else:
            play = HANDLERS.get(type(action))
            if play is None:
                raise IllegalActionError(f"not now: {self.waiting_for(state)}")
            new, events = play(state, action)
        return new, tuple(events)

    def _answer(self, state: BowlState, action: Action) -> tuple[BowlState, list[Event]]:
        p = state.pending[0]
        if p.kind == "roll":
            if not isinstance(action, Roll):
                raise IllegalActionError(f"the referee waits for a roll: {p.why}")
            prompt = self.dice_prompt(state)
            assert prompt is not None
            problem = prompt.check(action.values)
            if problem:
                raise IllegalActionError(f"{problem}: this roll is {_dice_words(p.dice)} "
                                         f"({p.why})")
            t = referee.Txn(state)
            t.say("rolled", f"{p.why}: rolled " + ", ".join(
                KINDS[k].label(v) for k, v in zip(p.dice, action.values, strict=True)),
                p.seat, sum(action.values))
            new, events = referee.resolve(state, p, action.values, "")
            return new, [*t.events, *events]
        if not isinstance(action, Answer):
            raise IllegalActionError(f"the referee asks: {p.why} (answer "
                                     f"{', '.join(p.answers)})")
        if action.value not in p.answers:
            raise IllegalActionError(f"{action.value!r} is not an answer to '{p.why}': answer "
                                     f"{', '.join(p.answers)}")
        t = referee.Txn(state)
        t.say("answered", f"{p.why}: {action.value}", p.seat)
        new, events = referee.resolve(state, p, (), action.value)
        return new, [*t.events, *events]

    def waiting_for(self, state: BowlState) -> str:
        if state.outcome is not None:
            return "nothing: the game is over"
        names = [p.name for p in state.players]
        if state.pending:
            p = state.pending[0]
            verb = "roll" if p.kind == "roll" else "answer"
            return f"{names[p.seat]} to {verb}: {p.why}"
        if state.phase == "setup":
            left = declare.traps_to_place(state)
            if left:
                return f"{names[self.deciders(state)[0]]} to place a trap token ({left} left)"
            return "the coaches to set up their models, then kick off"
        return f"{names[state.current]} to declare what a model does (or end the turn)"

    def end_game_action(self, state: BowlState) -> Action:
        return StopGame(state.current)

    # -- dice ------------------------------------------------------------------------------
    def dice_prompt(self, state: BowlState) -> DicePrompt | None:
        if state.outcome is not None or not state.pending or state.pending[0].kind != "roll":
            return None
        p = state.pending[0]
        return DicePrompt(p.seat, tuple(KINDS[k] for k in p.dice), p.why)

    def needs_dice(self, action: Action) -> bool:
        return isinstance(action, Roll) and not action.values

    def roll_action(self, state: BowlState, prompt: DicePrompt,
                    values: tuple[int, ...]) -> Action:
        problem = prompt.check(values)
        if problem:
            raise IllegalActionError(problem)
        return Roll(prompt.player, tuple(values))

    def pending_text(self, state: BowlState) -> list[str]:
        """The roll or question at hand, in lines for the screen: dice, target, modifiers and
        what each result does."""
        if not state.pending:
            return []
        p = state.pending[0]
        lines = [p.why]
        if p.kind == "roll":
            lines.append(f"dice: {_dice_words(p.dice)}" + (f"; target {p.target}+" if p.target
                                                           else ""))
        if p.modifiers:
            lines.append("modifiers: " + ", ".join(f"{w} {v:+d}" for w, v in p.modifiers))
        lines += list(p.results)
        return lines

    # -- words and records ------------------------------------------------------------------
    def describe(self, state: BowlState, event: Event) -> str:
        return event.detail or event.kind

    def tells(self, event: Event) -> bool:
        return True

    def result_lines(self, state: BowlState) -> Iterator[str]:
        result = state.outcome or referee.outcome_of(state, "so far")
        yield ("Final score:" if state.outcome else "Score so far:")
        for name, score in result.standings:
            yield f"  {name:<12} {score}"
        if state.outcome is not None:
            yield f"Winner: {state.outcome.winner}" if state.outcome.winner else "No winner"

    def invariant_problems(self, state: BowlState) -> list[str]:
        problems = []
        spots = [m.at for m in state.models if m.at is not None and m.status != "passage"]
        if len(spots) != len(set(spots)):
            problems.append("two models on one square")
        for b in state.balls:
            if b.holder and (state.model(b.holder) is None or b.at is not None):
                problems.append(f"ball {b.id} held by {b.holder!r} and on a square")
            if not b.gone and not b.holder and b.at is None:
                problems.append(f"ball {b.id} is nowhere")
        for m in state.models:
            if m.status in ("standing", "prone", "stunned", "in_pit") and m.at is None:
                problems.append(f"{m.id} is {m.status} but on no square")
            if m.at is not None and state.dungeon.cells[m.at].terrain in ("wall", "obstacle"):
                problems.append(f"{m.id} stands in a wall or an obstacle")
        if state.hidden_balls < 0:
            problems.append("more balls found than hidden")
        return problems

    def state_json(self, state: BowlState, events: Sequence[Event] = ()) -> dict[str, Any]:
        return json_view.state_json(self, state, events)

    # -- transcripts -----------------------------------------------------------------------
    @property
    def setup_words(self) -> frozenset[str]:
        return frozenset()

    def read_setup_line(self, words: list[str], setup: dict[str, Any]) -> None:
        raise ValueError(f"dungeonbowl has no {words[0]!r} header lines (the map is "
                         "'option dungeon=NAME' or a file)")

    def setup_lines(self, state: BowlState) -> list[str]:
        return []

    def apply_set(self, state: BowlState, words: list[str]) -> BowlState:
        return transcript.apply_set(state, words)

    def parse_action(self, state: BowlState, words: list[str]) -> Action:
        return transcript.parse_action(state, words)

    def format_action(self, state: BowlState, action: Action) -> str:
        return transcript.format_action(state, action)

    # -- players and screens ---------------------------------------------------------------
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        from companion.games.dungeonbowl.bots import BowlBot

        return {"heuristic": BowlBot}

    def presenter(self) -> Any:
        if self._presenter is None:
            from companion.games.dungeonbowl.presenter import BowlPresenter

            self._presenter = BowlPresenter(self)
        return self._presenter

    def grid_of(self, state: BowlState) -> Any:
        return board.grid(state)


def _roster(team: str, name: str) -> roster.Roster | None:
    """A team's roster as its ``player`` line names it (None: standard models)."""
    if roster.is_standard(name):
        return None
    try:
        return roster.load(name)
    except ValueError as exc:
        raise ValueError(f"the roster of {team}: {exc}") from None


def _dice_words(dice: tuple[str, ...]) -> str:
    counts: dict[str, int] = {}
    for d in dice:
        counts[d] = counts.get(d, 0) + 1
    return " + ".join(f"{n} {k}" if n > 1 else f"1 {k}" for k, n in counts.items())
