"""Dungeon Crawl for the piecepack (v0.2b, James Kyle and Paul Shope, 2001) as a game on the
shared core: ``DungeonCrawl`` meets ``companion.core.game.Game``.

    game = find_game("dungeon_crawl")
    state = game.new_game(["Ann", "Bob"])
    state, events = game.apply(state, First(0))

Rulings on the rule text: docs/rulings-dungeon-crawl.md (C-1 ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from companion.core.actions import Action
from companion.core.dice import DicePrompt, DieKind
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Bot
from companion.games.dungeon_crawl import (
    building,
    encounters,
    fights,
    json_view,
    movement,
    narration,
    positions,
    transcript,
    turns,
)
from companion.games.dungeon_crawl.actions import (
    Attack,
    First,
    LayTile,
    Move,
    Pass,
    PlaceCoin,
    PlacePawn,
    Reenter,
    Reveal,
    Roll,
    Soak,
    Spend,
    Spoils,
    StandPawns,
    StopGame,
    TreasureTaken,
)
from companion.games.dungeon_crawl.geometry import adjacent_characters, entrances, moves
from companion.games.dungeon_crawl.pieces import (
    DICE,
    KIND_OF_SUIT,
    SUITS,
    parse_suit,
    value_label,
)
from companion.games.dungeon_crawl.state import CrawlState, Options, Player

Result = tuple[CrawlState, list[Event]]

# The action kinds each pending step accepts.
STEP_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "coin": (PlaceCoin,),
    "reveal": (Reveal,),
    "spend": (Spend,),
    "roll": (Roll,),
    "soak": (Soak,),
    "attack": (Attack, Pass),
    "attack_spend": (Spend,),
    "defend_spend": (Spend,),
    "attack_roll": (Roll,),
    "defend_roll": (Roll,),
    "spoils": (Spoils,),
    "took": (TreasureTaken,),
}


class DungeonCrawl:
    """The rules of Dungeon Crawl: pure and deterministic; dice, tiles turned over, coins turned
    over and treasures drawn arrive inside actions."""

    name = "dungeon_crawl"

    def __init__(self) -> None:
        self._presenter: Any = None

    # -- a new game ------------------------------------------------------------------------
    def default_options(self) -> Options:
        return Options()

    def parse_option(self, key: str, text: str) -> tuple[str, Any]:
        """One ``option KEY=VALUE`` setting, checked."""
        if key == "die":
            if text not in DICE:
                raise ValueError(f"option die takes {' or '.join(DICE)}, not {text!r}")
            return key, text
        if key == "adjacency":
            if text not in ("8", "4"):
                raise ValueError(f"option adjacency takes 8 (diagonals too) or 4, not {text!r}")
            return key, int(text)
        known = ", ".join(f.name for f in fields(Options))
        raise ValueError(f"option {key} is not a setting of dungeon_crawl (settings: {known})")

    def options_from(self, values: Mapping[str, Any]) -> Options:
        options = Options()
        for key, value in values.items():
            name, parsed = self.parse_option(key, str(value))
            options = replace(options, **{name: parsed})
        return options

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Any = None,
                 seed: int = 0, **setup: Any) -> CrawlState:
        """A new game for 2-4 ``players`` in seating order (play passes to the left, which is
        the next seat); a role names the player's colour (a suit or its colour)."""
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Dungeon Crawl is for 2 to 4 players, not {len(players)}")
        if isinstance(options, Mapping):
            options = self.options_from(options)
        options = options or Options()
        named = [(p, "") if isinstance(p, str) else (p[0], p[1]) for p in players]
        names = [n for n, _ in named]
        if len({n.lower() for n in names}) != len(names):
            raise ValueError("two players have the same name: give each player a different name")
        chosen = [parse_suit(role) if role else None for _, role in named]
        if len([c for c in chosen if c]) != len({c for c in chosen if c}):
            raise ValueError("two players chose the same colour: each player has a die and pawn "
                             "of their own colour")
        free = [s for s in SUITS if s not in chosen]
        suits = [c if c else free.pop(0) for c in chosen]
        seats = tuple(Player(n, s) for n, s in zip(names, suits, strict=True))
        return CrawlState(players=seats, options=options, seed=seed)

    # -- playing ---------------------------------------------------------------------------
    def deciders(self, state: CrawlState) -> tuple[int, ...]:
        if state.outcome is not None:
            return ()
        if state.phase == "start":
            return tuple(range(len(state.players)))
        pending = state.pending
        if pending is not None and pending.step in ("defend_spend", "defend_roll"):
            assert pending.other is not None
            return (pending.other,)
        if pending is not None:
            return (pending.player,)
        return (state.current,)

    def legal_actions(self, state: CrawlState,
                      players: tuple[int, ...] | None = None) -> list[Action]:
        if state.outcome is not None:
            return []
        if state.phase != "play":
            found = building.building_actions(state)
        else:
            found = self._play_actions(state)
        if players is not None:
            found = [a for a in found if a.player in players]
        return found

    def _play_actions(self, state: CrawlState) -> list[Action]:
        seat = self.deciders(state)[0]
        pending = state.pending
        die = DICE[state.options.die]
        if pending is None:
            me = state.players[seat]
            if me.at is None:
                return [*(Reenter(seat, s) for s in entrances(state)), Pass(seat)]
            targets = moves(state, me.at)
            return [Move(seat, s) for s in targets] if targets else [Pass(seat)]
        step = pending.step
        p = state.players[seat]
        if step == "reveal":
            return [Reveal(seat, s) for s in encounters.reveal_options(state)]
        if step == "spend":
            assert pending.suit is not None
            have = getattr(p, encounters.xp_field(pending.suit))
            return [Spend(seat, n) for n in range(have + 1)]
        if step in ("roll", "attack_roll", "defend_roll"):
            return [Roll(seat, v) for v in die.faces]
        if step == "soak":
            return [Soak(seat, n) for n in range(min(p.equipment, pending.value) + 1)]
        if step == "attack":
            return [*(Attack(seat, t) for t in adjacent_characters(state, seat)), Pass(seat)]
        if step in ("attack_spend", "defend_spend"):
            return [Spend(seat, n) for n in range(p.equipment + 1)]
        assert pending.other is not None
        if step == "spoils":
            return [Spoils(seat, k) for k in fights.spoils_kinds(state, pending.other)]
        return [TreasureTaken(seat, v) for v in sorted(set(state.players[pending.other].treasures))]

    def is_legal(self, state: CrawlState, action: Action) -> bool:
        try:
            self.apply(state, action)
        except IllegalActionError:
            return False
        return True

    def apply(self, state: CrawlState, action: Action) -> tuple[CrawlState, tuple[Event, ...]]:
        """The state after ``action`` and what happened; ``IllegalActionError`` (state unchanged)
        when the rules do not allow it."""
        if state.outcome is not None:
            raise IllegalActionError("the game is over: start a new game")
        if not 0 <= action.player < len(state.players):
            raise IllegalActionError(f"there is no seat {action.player} at this table")
        if isinstance(action, StopGame):
            stopped, told = turns.stop(state)
            return stopped, tuple(told)
        deciders = self.deciders(state)
        if action.player not in deciders:
            who = " or ".join(state.players[i].name for i in deciders)
            raise IllegalActionError(f"the game waits for {who}: {self.waiting_for(state)}")
        new, events = self._handler(state, action)(state, action)
        return new, tuple(events)

    def _handler(self, state: CrawlState,
                 action: Action) -> Callable[[CrawlState, Any], Result]:
        if state.phase != "play":
            table: dict[type[Action], Callable[[CrawlState, Any], Result]] = {
                First: building.first, LayTile: building.lay_tile,
                StandPawns: building.stand_pawns, PlaceCoin: building.place_coin,
                PlacePawn: building.place_pawn}
            handler = table.get(type(action))
            if handler is None:
                raise IllegalActionError(f"not while building: {self.waiting_for(state)}")
            return handler
        pending = state.pending
        if pending is None:
            turn: dict[type[Action], Callable[[CrawlState, Any], Result]] = {
                Move: movement.move, Reenter: movement.reenter, Pass: movement.pass_turn}
            handler = turn.get(type(action))
            if handler is None:
                raise IllegalActionError(f"not now: {self.waiting_for(state)}")
            return handler
        if not isinstance(action, STEP_ACTIONS[pending.step]):
            raise IllegalActionError(f"not now: {self.waiting_for(state)}")
        step = pending.step
        if isinstance(action, Spend):
            return encounters.spend_experience if step == "spend" else fights.spend_equipment
        if isinstance(action, Roll):
            return self._roll
        if isinstance(action, Pass):
            return movement.pass_turn
        steps: dict[str, Callable[[CrawlState, Any], Result]] = {
            "reveal": encounters.reveal, "soak": encounters.soak, "attack": fights.attack,
            "spoils": fights.spoils, "took": fights.treasure_taken}
        return steps[step]

    # -- the turn ---------------------------------------------------------------------------
    def _roll(self, state: CrawlState, action: Roll) -> Result:
        die = DICE[state.options.die]
        if action.value not in die.faces:
            raise IllegalActionError(
                f"a {die.name} die cannot show {action.value}: its faces are "
                + ", ".join(die.label(v) for v in die.faces))
        assert state.pending is not None
        if state.pending.step == "roll":
            return encounters.roll_against(state, action)
        return fights.fight_roll(state, action)

    # -- what the game waits for ------------------------------------------------------------
    def waiting_for(self, state: CrawlState) -> str:
        if state.outcome is not None:
            return "nothing: the game is over"
        names = [p.name for p in state.players]
        if state.phase == "start":
            return "the table to say who builds first"
        who = names[self.deciders(state)[0]]
        pending = state.pending
        if state.phase == "build" and pending is None:
            if not state.tiles:
                return f"{who} to lay the first tile"
            if not state.directions:
                return f"{who} to stand the four pawns on the first tile"
            return f"{who} to turn over a tile and lay it"
        if state.phase == "last_coin" or (pending and pending.step == "coin"):
            return f"{who} to place a coin on the tile"
        if state.phase == "place_pawns":
            return f"{who} to place {names[state.next_seat(state.current)]}'s pawn at an entrance"
        if pending is None:
            if state.players[state.current].at is None:
                return f"{who} to re-enter at an entrance (or wait)"
            return f"{who} to move"
        return f"{who} to {_STEP_WORDS[pending.step](pending)}"

    def dice_prompt(self, state: CrawlState) -> DicePrompt | None:
        pending = state.pending
        if state.outcome is not None or pending is None:
            return None
        die: DieKind = DICE[state.options.die]
        if pending.step == "roll":
            assert pending.suit is not None
            kind = KIND_OF_SUIT[pending.suit]
            return DicePrompt(pending.player, (die,),
                              f"the {kind} ({value_label(pending.value)})")
        if pending.step == "attack_roll":
            return DicePrompt(pending.player, (die,), "the attack")
        if pending.step == "defend_roll":
            assert pending.other is not None
            return DicePrompt(pending.other, (die,), "the defence")
        return None

    def roll_action(self, state: CrawlState, prompt: DicePrompt,
                    values: tuple[int, ...]) -> Action:
        problem = prompt.check(values)
        if problem:
            raise IllegalActionError(problem)
        return Roll(prompt.player, values[0])

    def peek(self, state: CrawlState, seat: int) -> tuple[int, ...]:
        """The values of ``seat``'s treasures, for that player's eyes only (the shared screen
        shows the count)."""
        return state.players[seat].treasures

    # -- words and records ------------------------------------------------------------------
    def describe(self, state: CrawlState, event: Event) -> str:
        return narration.describe(state, event)

    def state_json(self, state: CrawlState, events: Sequence[Event] = ()) -> dict[str, Any]:
        return json_view.state_json(self, state, events)

    def header_lines(self, state: CrawlState, roles: Sequence[str] | None = None) -> list[str]:
        return transcript.header_lines(self, state, roles)

    def new_game_from_header(self, players: Sequence[str | tuple[str, str]], options: Any,
                             seed: int, setup: Mapping[str, Any]) -> CrawlState:
        return self.new_game(players, options, seed)

    @property
    def setup_words(self) -> frozenset[str]:
        """No header lines of its own: the dungeon is built by actions."""
        return frozenset()

    def read_setup_line(self, words: list[str], setup: dict[str, Any]) -> None:
        raise ValueError(f"dungeon_crawl has no {words[0]!r} header lines")

    def setup_lines(self, state: CrawlState) -> list[str]:
        return []

    def invariant_problems(self, state: CrawlState) -> list[str]:
        """Each coin in one place only, no negative holdings, no living character at 10 damage
        or more."""
        problems = []
        spaces = [c.at for c in state.coins]
        if len(spaces) != len(set(spaces)):
            problems.append("two coins on one space")
        for p in state.players:
            if min(p.equipment, p.trap_xp, p.monster_xp, p.soaked) < 0:
                problems.append(f"{p.name} holds a negative count")
            if p.at is not None and p.wounds >= 10:
                problems.append(f"{p.name} is on the board with {p.wounds} damage")
        return problems

    def end_game_action(self, state: CrawlState) -> Action:
        return StopGame(state.current)

    def needs_dice(self, action: Action) -> bool:
        """Rolls are listed with every face the die can show, so none is left open; the
        pieces (dice, hidden suits, the tile stack) are the table's (``bots.GameBot``)."""
        return False

    def tells(self, event: Event) -> bool:
        return True

    def result_lines(self, state: CrawlState) -> Iterator[str]:
        result = state.outcome or turns.outcome(state)
        title = "Final standings" if state.outcome else "Standings so far"
        yield f"{title} (treasure values):"
        for rank, (name, total) in enumerate(result.standings, start=1):
            yield f"  {rank}. {name:<10} {total:>3}"
        if state.outcome is not None:
            yield f"Winner: {state.outcome.winner}" if state.outcome.winner else \
                "Shared win"

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        from companion.games.dungeon_crawl.bots import GameBot

        return {"heuristic": GameBot.heuristic, "table": GameBot.random}

    def parse_action(self, state: CrawlState, words: list[str]) -> Action:
        return transcript.parse_action(state, words)

    def format_action(self, state: CrawlState, action: Action) -> str:
        return transcript.format_action(state, action)

    def apply_set(self, state: CrawlState, words: list[str]) -> CrawlState:
        return positions.apply_set(state, words)

    def presenter(self) -> Any:
        """The kiosk's presenter (``presenter.CrawlPresenter``: the dungeon map, the cards, the
        menus and the private peek)."""
        if self._presenter is None:
            from companion.games.dungeon_crawl.presenter import CrawlPresenter

            self._presenter = CrawlPresenter(self)
        return self._presenter


_STEP_WORDS: dict[str, Callable[[Any], str]] = {
    "reveal": lambda p: f"turn over the {value_label(p.value)} coin and say its suit",
    "spend": lambda p: f"choose how much {KIND_OF_SUIT[p.suit]} experience to spend",
    "roll": lambda p: f"roll against the {KIND_OF_SUIT[p.suit]} ({value_label(p.value)})",
    "soak": lambda p: f"choose how much equipment to apply to {p.value} damage",
    "attack": lambda p: "attack an adjacent character or pass",
    "attack_spend": lambda p: "choose how much equipment to spend on the attack",
    "defend_spend": lambda p: "choose how much equipment to spend on the defence",
    "attack_roll": lambda p: "roll for the attack",
    "defend_roll": lambda p: "roll for the defence",
    "spoils": lambda p: "choose the spoils: a treasure or an equipment point",
    "took": lambda p: "say the value of the treasure drawn",
}
