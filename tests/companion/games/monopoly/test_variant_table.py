"""Typed table-wide state (state.py: ``VariantTable``) in a test-only variant, without
Dungeonopoly: a new game starts with the empty table, the rules read and replace it through
the working copy, and states stay immutable, comparable and hashable values."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, replace

import pytest

from companion.games.monopoly.actions import Roll
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.state import GameState, VariantTable
from companion.games.monopoly.txn import Txn


@dataclass(frozen=True, slots=True)
class Laps(VariantTable):
    """How many times each seat has passed GO."""

    passed: tuple[tuple[int, int], ...] = ()

    def of(self, seat: int) -> int:
        return dict(self.passed).get(seat, 0)


class Racing(Rules):
    name = "racing"

    def on_pass(self, t: Txn, player: int, index: int, forward: bool) -> bool:
        if index == 0 and forward:
            laps = t.table_of(Laps)
            counts = dict(laps.passed)
            counts[player] = counts.get(player, 0) + 1
            t.table = replace(laps, passed=tuple(sorted(counts.items())))
        return super().on_pass(t, player, index, forward)


def at(state: GameState, seat: int, position: int) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], position=position)
    return replace(state, players=tuple(players))


def test_a_new_game_reads_the_empty_table() -> None:
    rules = Racing()
    state = rules.new_game(["Ann", "Bob"], seed=1)
    assert state.table is None and state.table_of(Laps) == Laps()
    assert state.table_of(Laps) is state.table_of(Laps)  # one shared empty value


def test_the_rules_replace_the_table_and_states_stay_values() -> None:
    rules = Racing()
    start = at(rules.new_game(["Ann", "Bob"], seed=1), 0, 38)
    state, _ = rules.apply(start, Roll(0, (1, 3)))
    assert state.table_of(Laps).of(0) == 1 and start.table is None
    again, _ = rules.apply(start, Roll(0, (1, 3)))
    assert again == state and hash(again) == hash(state)
    with pytest.raises(FrozenInstanceError):
        state.table_of(Laps).passed = ()  # type: ignore[misc]


def test_a_table_of_another_kind_reads_as_empty() -> None:
    @dataclass(frozen=True, slots=True)
    class Other(VariantTable):
        n: int = 0

    rules = Racing()
    state = replace(rules.new_game(["Ann", "Bob"], seed=1), table=Other(3))
    assert state.table_of(Laps) == Laps() and state.table_of(Other).n == 3
