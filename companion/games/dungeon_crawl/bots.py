"""Bots for Dungeon Crawl and a table that plays the physical side of the game for them.

A bot makes the players' choices (where to lay a tile among the legal places, which coin to put
down, where to move, how much to spend, whom to attack). The ``Table`` stands for the pieces:
it shuffles the tiles and coins, turns over tiles and coins and rolls the dice, all from its
own seeded ``random.Random``, so the engine stays deterministic and a seed replays a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.core.actions import Action
from companion.core.events import Event
from companion.games.dungeon_crawl.actions import (
    Attack,
    First,
    LayTile,
    Move,
    PlaceCoin,
    Reveal,
    Soak,
    Spend,
    Spoils,
    TreasureTaken,
)
from companion.games.dungeon_crawl.pieces import SUITS, VALUES
from companion.games.dungeon_crawl.rules import DungeonCrawl
from companion.games.dungeon_crawl.state import CrawlState, Space


class Bot(Protocol):
    def choose(self, state: CrawlState, actions: list[Action]) -> Action: ...


@dataclass
class RandomBot:
    """Any legal choice, uniformly."""

    rng: random.Random

    def choose(self, state: CrawlState, actions: list[Action]) -> Action:
        return self.rng.choice(actions)


def _distance(a: Space, b: Space) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@dataclass
class HeuristicBot:
    """Plain habits: take stacks, then low coins (high ones when healthy), else close in on
    the nearest coin; spend experience to be sure; soak all damage; attack the rich when not
    poorer in equipment; take treasure as spoils."""

    rng: random.Random

    def choose(self, state: CrawlState, actions: list[Action]) -> Action:
        first = actions[0]
        if isinstance(first, Move):
            return self._move(state, [a for a in actions if isinstance(a, Move)])
        if isinstance(first, Spend):
            return self._spend(state, actions)
        if isinstance(first, Soak):
            return max(actions, key=lambda a: a.amount if isinstance(a, Soak) else -1)
        if any(isinstance(a, Attack) for a in actions):
            return self._attack(state, actions)
        if isinstance(first, Spoils):
            return next((a for a in actions if isinstance(a, Spoils) and a.kind == "treasure"),
                        first)
        return self.rng.choice(actions)

    def _move(self, state: CrawlState, moves: list[Move]) -> Action:
        me = state.players[moves[0].player]
        for m in moves:
            if state.stack_at(m.to) is not None:
                return m
        coins = [(c.value, m) for m in moves if (c := state.coin_at(m.to)) is not None]
        safe = 2 if me.wounds >= 5 else 5
        coins = [(v, m) for v, m in coins if v <= safe]
        if coins:
            return min(coins, key=lambda vm: (vm[0], vm[1].to))[1]
        targets = [c.at for c in state.coins] + [s.at for s in state.stacks]
        if not targets:
            return self.rng.choice(moves)
        return min(moves, key=lambda m: (min(_distance(m.to, t) for t in targets),
                                         self.rng.random()))

    def _spend(self, state: CrawlState, actions: list[Action]) -> Action:
        pending = state.pending
        assert pending is not None
        amounts = [a.amount for a in actions if isinstance(a, Spend)]
        if pending.step == "spend":
            want = max(0, pending.value - 2)
        else:
            want = 2
        return Spend(actions[0].player, min(want, max(amounts)))

    def _attack(self, state: CrawlState, actions: list[Action]) -> Action:
        attacks = [a for a in actions if isinstance(a, Attack)]
        me = state.players[attacks[0].player]
        best = max(attacks, key=lambda a: sum(state.players[a.target].treasures))
        them = state.players[best.target]
        if them.treasures and me.equipment >= them.equipment:
            return best
        return next(a for a in actions if not isinstance(a, Attack))


@dataclass
class Table:
    """The physical side, from a seeded generator: the tile stack, the coin pile with its hidden
    suits, the dice and the hands treasures are drawn from."""

    rng: random.Random
    tiles: list[tuple[str, int]] = field(default_factory=list)
    hidden: dict[Space, str] = field(default_factory=dict)
    pile: list[tuple[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tiles = [(s, v) for s in SUITS for v in VALUES]
        self.rng.shuffle(self.tiles)
        self.pile = [(s, v) for s in SUITS for v in VALUES]
        self.rng.shuffle(self.pile)

    def answer(self, game: DungeonCrawl, state: CrawlState, actions: list[Action],
               bot: Bot) -> Action:
        """The next action: the table's when the pieces decide, else the bot's choice."""
        prompt = game.dice_prompt(state)
        if prompt is not None:
            values = tuple(self.rng.choice(kind.faces) for kind in prompt.dice)
            return game.roll_action(state, prompt, values)
        first = actions[0]
        if isinstance(first, First):
            return self.rng.choice(actions)
        if isinstance(first, LayTile):
            tile = self.tiles.pop()
            return bot.choose(state, [a for a in actions if isinstance(a, LayTile)
                                      and (a.suit, a.value) == tile])
        if isinstance(first, PlaceCoin):
            chosen = bot.choose(state, actions)
            assert isinstance(chosen, PlaceCoin)
            coin = next(c for c in self.pile if c[1] == chosen.value)
            self.pile.remove(coin)
            self.hidden[chosen.space] = coin[0]
            return chosen
        if isinstance(first, Reveal):
            seat = first.player
            at = state.players[seat].at
            assert at is not None
            return Reveal(seat, self.hidden.pop(at))
        if isinstance(first, TreasureTaken):
            assert state.pending is not None and state.pending.other is not None
            drawn = self.rng.choice(state.players[state.pending.other].treasures)
            return TreasureTaken(first.player, drawn)
        return bot.choose(state, actions)


class GameBot:
    """Every seat of a game for the shared bot loop (``companion simulate``, the conformance
    kit): the pieces (tile stack, hidden suits, dice, drawn treasures) from one seeded
    :class:`Table`, the choices from a bot. One per game."""

    def __init__(self, seed: int, bot: Bot) -> None:
        self.table = Table(random.Random(seed))
        self.bot = bot

    @classmethod
    def heuristic(cls, seed: int) -> GameBot:
        return cls(seed, HeuristicBot(random.Random(seed * 31)))

    @classmethod
    def random(cls, seed: int) -> GameBot:
        return cls(seed, RandomBot(random.Random(seed * 31)))

    def choose(self, rules: Any, state: CrawlState, actions: Sequence[Action]) -> Action:
        return self.table.answer(rules, state, list(actions), self.bot)


@dataclass
class BotGame:
    state: CrawlState
    actions: list[Action]
    events: list[Event]


def play_bot_game(seed: int, players: Sequence[str] = ("Ann", "Bob", "Cat"),
                  bots: Sequence[str] = ("heuristic", "random", "heuristic"),
                  max_actions: int = 20000,
                  watch: Callable[[CrawlState, Action], None] | None = None) -> BotGame:
    """A whole game between bots, the pieces shuffled and the dice rolled from ``seed``;
    ``watch`` sees every state reached and the action that reached it."""
    game = DungeonCrawl()
    table = Table(random.Random(seed))
    players_bots: list[Bot] = [
        (HeuristicBot if kind == "heuristic" else RandomBot)(random.Random(seed * 31 + i))
        for i, kind in enumerate(bots)]
    state = game.new_game(list(players), seed=seed)
    actions: list[Action] = []
    events: list[Event] = []
    while state.outcome is None:
        if len(actions) >= max_actions:
            raise RuntimeError(f"seed {seed}: no end after {max_actions} actions")
        legal = game.legal_actions(state)
        seat = game.deciders(state)[0]
        action = table.answer(game, state, legal, players_bots[seat])
        state, happened = game.apply(state, action)
        if watch is not None:
            watch(state, action)
        actions.append(action)
        events.extend(happened)
    return BotGame(state, actions, events)




@dataclass
class Summary:
    """What many bot games show: wins by seat (a shared win counts for nobody), deaths and
    turns."""

    games: int
    wins: list[int]
    shared: int
    deaths: int
    turns: int

    def lines(self) -> list[str]:
        out = [f"{self.games} games, {self.turns / self.games:.1f} turns a game, "
               f"{self.deaths / self.games:.2f} deaths a game, {self.shared} shared wins"]
        out += [f"seat {i + 1}: {w} wins ({100 * w / self.games:.0f}%)"
                for i, w in enumerate(self.wins)]
        return out


def summarise(seeds: Sequence[int], players: Sequence[str] = ("Ann", "Bob", "Cat"),
              bots: Sequence[str] = ("heuristic", "random", "heuristic")) -> Summary:
    """Play a bot game per seed and count who won from which seat and how often characters
    died (the figures ``companion simulate`` reports for this game)."""
    wins = [0] * len(players)
    shared = deaths = turns = 0
    for seed in seeds:
        game = play_bot_game(seed, players, bots)
        outcome = game.state.outcome
        assert outcome is not None
        if outcome.winner is None:
            shared += 1
        else:
            wins[list(players).index(outcome.winner)] += 1
        deaths += sum(1 for e in game.events if e.kind == "died")
        turns += game.state.turn
    return Summary(len(seeds), wins, shared, deaths, turns)

__all__ = ["BotGame", "HeuristicBot", "RandomBot", "Summary", "Table", "play_bot_game",
           "summarise"]
