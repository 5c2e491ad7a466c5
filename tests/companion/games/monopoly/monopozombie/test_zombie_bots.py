"""The heuristic bot plays every role (human, zombie, homeless, group) and games end by the
rules: a human or a zombie win, checked step by step and replayed from the transcript."""

from __future__ import annotations

import pytest
from zombie_table import Z

from companion.core.registry import find_game
from companion.games.monopoly.monopozombie import Steer, bots
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


def _zombie_choice(z: Z) -> object:
    return bots.bot_hint(z.rules, z.state, z.rules.legal_actions(z.state))


def test_bot_zombie_knocks_down_an_unguarded_human_house() -> None:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True, position=10)
    z.put("Eve", position=20).put("Fay", position=20).put("Ann", position=20)
    z.put("Cy", position=20).put("Dee", position=20)
    z.lot(14, "Ann", houses=2).turn("Bob")  # Virginia Avenue, 4 ahead; Oriental 4 back
    z.roll("Bob", 2, 2)
    assert _zombie_choice(z) == Steer(1, (2, 2), "forward")
    z.lot(14, None).lot(6, "Cy", houses=1)
    assert _zombie_choice(z) == Steer(1, (2, 2), "back")


def test_bot_zombie_converts_a_lone_human_rather_than_walk_to_an_empty_square() -> None:
    z = Z(players=6).veterans().stage("outbreak").put("Bob", zombie=True, position=10)
    z.put("Eve", position=20).put("Fay", position=20).put("Cy", position=20)
    z.put("Dee", position=20).put("Ann", position=6).turn("Bob")  # Oriental: bare, unowned
    z.roll("Bob", 2, 2)
    assert _zombie_choice(z) == Steer(1, (2, 2), "back")
