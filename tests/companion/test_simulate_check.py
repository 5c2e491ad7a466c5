"""`companion simulate --check`: the game's invariants after every step, every game replayed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.cli import main
from companion.core.registry import find_game, register, unregister
from companion.games.monopoly.standard import Monopoly
from companion.games.monopoly.txn import Txn
from companion.simulate import InvariantError, play_game, simulate


class LeakyMonopoly(Monopoly):
    """A rules change gone wrong: every payment to a player pays a dollar too much."""

    name = "test-leaky-monopoly"

    def credit(self, t: Txn, player: int, amount: int, reason: str) -> None:
        super().credit(t, player, amount + 1, reason)


@pytest.fixture
def leaky() -> Iterator[LeakyMonopoly]:
    game = LeakyMonopoly()
    register(game.name, lambda: game)
    yield game
    unregister(game.name)


def test_a_sound_game_passes_the_check() -> None:
    for name in ("monopoly", "dungeonopoly"):
        players = [("Ann", "fighter"), ("Ben", "wizard")] if name == "dungeonopoly" else \
            ["Ann", "Ben", "Cai"]
        result = play_game(find_game(name), players, seed=5, max_turns=40, check=True)
        assert result.steps > 50


def test_a_broken_rule_is_named_at_its_first_step(leaky: LeakyMonopoly) -> None:
    with pytest.raises(InvariantError, match=r"seed 3, step \d+ .*money not conserved"):
        simulate(leaky.name, 3, 2, seed=3, check=True)
    # without the check the same games run to their end unnoticed
    assert simulate(leaky.name, 3, 2, seed=3, max_turns=60).games == 2


def test_the_command_exits_1_naming_the_step(leaky: LeakyMonopoly,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", leaky.name, "--games", "1", "--check",
                 "--no-progress"]) == 1
    assert "money not conserved" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--check", "--no-progress",
                 "--max-turns", "30"]) == 0
