"""Helpers for Dungeonopoly tests: seat characters, set fields, roll dice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.registry import find_game
from companion.games.monopoly.actions import Action, Roll
from companion.games.monopoly.dungeonopoly import CharacterClass, Dungeonopoly, register_class
from companion.games.monopoly.dungeonopoly.abilities import find_class
from companion.games.monopoly.state import GameState

try:
    find_class("commoner")
except ValueError:
    register_class(CharacterClass("commoner", (), "a test class with no abilities"))


@pytest.fixture
def rules() -> Dungeonopoly:
    r = find_game("dungeonopoly")
    assert isinstance(r, Dungeonopoly)
    return r


class Game:
    """A small driver: ``g.act(action)`` applies and collects events."""

    def __init__(self, rules: Dungeonopoly, classes: list[str], decks: dict[str, list[str]] | None = None,
                 **options: Any) -> None:
        self.rules = rules
        opts = rules.default_options()
        if options:
            opts = replace(opts, **options)
        names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][: len(classes)]
        self.state: GameState = rules.new_game(list(zip(names, classes, strict=True)), opts, seed=1,
                                               decks=decks)
        self.events: list[Any] = []

    def act(self, action: Action) -> GameState:
        self.state, events = self.rules.apply(self.state, action)
        self.events = list(events)
        return self.state

    def roll(self, player: int, *dice: int, answer: bool = False) -> GameState:
        """Roll; unless ``answer``, every Divine Intervention window that opens is passed."""
        from companion.games.monopoly.dungeonopoly import Pass
        from companion.games.monopoly.dungeonopoly.reactions import RollWindow

        self.act(Roll(player, tuple(dice)))
        events = list(self.events)
        while not answer and self.state.pending and isinstance(self.state.pending[0], RollWindow):
            self.act(Pass(self.state.pending[0].waiting[0]))
            events += self.events
        self.events = events
        return self.state

    def set(self, seat: int, **fields: Any) -> None:
        p = self.state.players[seat]
        for k, v in fields.items():
            if k in ("level", "ep", "skills", "enchantments", "spent", "hidden", "class"):
                p = self.rules.set_player_field(p, k, str(v))
            else:
                p = replace(p, **{k: v})
        players = list(self.state.players)
        players[seat] = p
        self.state = replace(self.state, players=tuple(players))

    def own(self, square: int, seat: int, **fields: Any) -> None:
        squares = list(self.state.squares)
        squares[square] = replace(squares[square], owner=seat, **fields)
        self.state = replace(self.state, squares=tuple(squares))

    def cash(self, seat: int) -> int:
        return self.state.players[seat].cash

    def p(self, seat: int) -> Any:
        return self.state.players[seat]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def money_ok(self) -> bool:
        return sum(p.cash for p in self.state.players) + self.state.pot == self.state.bank_net


@pytest.fixture
def game(rules: Dungeonopoly) -> Any:
    def make(*classes: str, **options: Any) -> Game:
        decks = options.pop("decks", None)
        return Game(rules, list(classes), decks, **options)
    return make
