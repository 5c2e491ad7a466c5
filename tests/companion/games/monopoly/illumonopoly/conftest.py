"""Helpers for Illumonopoly tests: a small table driver with treasuries set by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.registry import find_game
from companion.games.monopoly.actions import Action
from companion.games.monopoly.illumonopoly import Illumonopoly, IllumPlayer, IllumTable
from companion.games.monopoly.state import GameState, SquareState


@pytest.fixture
def rules() -> Illumonopoly:
    r = find_game("illumonopoly")
    assert isinstance(r, Illumonopoly)
    return r


class Table:
    """``t.act(action)`` applies and keeps the events; ``t.refused(action)`` checks a refusal
    leaves the state as it was and returns the message."""

    def __init__(self, rules: Illumonopoly, n: int = 3, roles: tuple[str, ...] = (),
                 **options: Any) -> None:
        self.rules = rules
        opts = replace(rules.default_options(), **options)
        names = ["Ann", "Bob", "Cat", "Dan", "Eve"][:n]
        players: list[Any] = list(zip(names, roles, strict=True)) if roles else names
        self.state: GameState = rules.new_game(players, opts, seed=1)
        self.events: list[Event] = []

    # --- setting up ------------------------------------------------------------------------
    def player(self, seat: int) -> IllumPlayer:
        p = self.state.players[seat]
        assert isinstance(p, IllumPlayer)
        return p

    def money(self, seat: int, central: int, **groups: int) -> None:
        """Set a player's treasuries exactly (the bank's ledger follows)."""
        order = list(self.rules.board.groups)
        tre = tuple(sorted(((g, a) for g, a in groups.items() if a),
                           key=lambda e: order.index(e[0])))
        old = self.state.players[seat].cash
        new = central + sum(groups.values())
        players = list(self.state.players)
        players[seat] = replace(self.player(seat), cash=new, treasuries=tre)
        self.state = replace(self.state, players=tuple(players),
                             bank_net=self.state.bank_net + new - old)

    def own(self, seat: int | None, *squares: int, houses: int = 0, mortgaged: bool = False) -> None:
        sqs = list(self.state.squares)
        for i in squares:
            sqs[i] = SquareState(owner=seat, houses=houses if houses < 5 else 0,
                                 hotel=houses == 5, mortgaged=mortgaged)
        built = sum(s.houses for s in sqs if not s.hotel)
        self.state = replace(self.state, squares=tuple(sqs),
                             bank_houses=self.state.options.bank_houses - built,
                             bank_hotels=self.state.options.bank_hotels
                             - sum(1 for s in sqs if s.hotel))

    def set(self, seat: int, **fields: Any) -> None:
        players = list(self.state.players)
        players[seat] = replace(self.player(seat), **fields)
        self.state = replace(self.state, players=tuple(players))

    def table(self, **fields: Any) -> None:
        self.state = replace(self.state, table=replace(self.tb, **fields))

    def turn(self, **fields: Any) -> None:
        self.state = replace(self.state, **fields)

    @property
    def tb(self) -> IllumTable:
        return self.state.table_of(IllumTable)

    # --- playing ---------------------------------------------------------------------------
    def act(self, action: Action) -> list[Event]:
        self.state, events = self.rules.apply(self.state, action)
        self.events += events
        assert not self.rules.invariant_problems(self.state), \
            self.rules.invariant_problems(self.state)
        return list(events)

    def refused(self, action: Action) -> str:
        before = self.state
        with pytest.raises(IllegalActionError) as info:
            self.rules.apply(self.state, action)
        assert self.state is before
        return str(info.value)

    def central(self, seat: int) -> int:
        return self.player(seat).central

    def treasury(self, seat: int, group: str) -> int:
        return self.player(seat).treasury(group)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


@pytest.fixture
def table(rules: Illumonopoly) -> Table:
    return Table(rules)


@pytest.fixture
def make(rules: Illumonopoly) -> Any:
    """``make(n=3, roles=(), **options)``: a new table."""
    def new(n: int = 3, roles: tuple[str, ...] = (), **options: Any) -> Table:
        return Table(rules, n, roles, **options)
    return new
