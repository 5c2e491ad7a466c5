"""The heuristic bot plays every role (human, zombie, homeless, group) and games end by the
rules: a human or a zombie win, checked step by step and replayed from the transcript."""

from __future__ import annotations

import pytest

from companion.core.registry import find_game
from companion.simulate import play_game


@pytest.mark.parametrize("players, seed", [(3, 11), (4, 12), (6, 13)])
def test_bot_games_end_by_a_win(players: int, seed: int) -> None:
    rules = find_game("monopozombie")
    names = [f"P{i + 1}" for i in range(players)]
    result = play_game(rules, names, seed, max_turns=600, check=True)
    outcome = result.state.outcome
    assert not result.capped and outcome is not None
    assert outcome.reason in ("humans_win", "zombies_win")
    facts = rules.game_facts(result.state)
    assert facts["humans_win"] + facts["zombies_win"] == 1
    assert facts["capitalism_turns"] > 0 and "apocalypse_turns" in facts
