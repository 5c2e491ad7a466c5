"""Seeded bot games in the configurations where long random play found bugs (a gestalt
warlock+bard's two sets of borrowed abilities; a bard's melody refused after Dark Delirium cut
her turn short; Wrath of God in the quicker game). Each game runs past the step where it broke:
every listed action is accepted, money and buildings are conserved, levels follow EP, and the
game's own transcript replays to the same final state."""

from __future__ import annotations

from typing import Any

import pytest
from conformance.harness import assert_replays, bot_game, table_options

from companion.core.registry import find_game

# (seed, classes, options, bot, steps): the step where each broke was 716, 1148 and 955
CONFIGS: list[tuple[int, list[str], dict[str, Any], str, int]] = [
    (270, ["warlock+bard", "rogue+bard", "warlock+paladin"],
     {"quicker_game": True, "blitz": True, "gestalt": True, "strict_politics": True},
     "heuristic", 740),
    (277, ["paladin", "druid", "warlock", "bard", "wizard"],
     {"quicker_game": True, "blitz": True}, "random", 1160),
    (2302, ["druid", "cleric", "psion", "cleric", "wizard", "druid"],
     {"quicker_game": True}, "heuristic", 970),
]


@pytest.mark.parametrize("seed,classes,options,bot,steps", CONFIGS)
def test_fuzz_found_configurations_keep_the_invariants(seed: int, classes: list[str],
                                                       options: dict[str, Any], bot: str,
                                                       steps: int) -> None:
    rules = find_game("dungeonopoly")
    names = [f"P{i}" for i in range(len(classes))]
    state = rules.new_game(list(zip(names, classes, strict=True)),
                           table_options(rules, options), seed=seed)
    per = state.options.ep_per_level
    played = bot_game(rules, state, bot=bot, seed=seed, dice_seed=seed + 1_000_003, steps=steps,
                      roles=classes)
    for step in played.steps:
        state = step.after
        assert state.money_in_hand + state.pot == state.bank_net
        houses = sum(s.houses for s in state.squares if not s.hotel)
        hotels = sum(1 for s in state.squares if s.hotel)
        assert houses + state.bank_houses == state.options.bank_houses
        assert hotels + state.bank_hotels == state.options.bank_hotels
        assert all(s.houses <= state.options.max_houses for s in state.squares)
        for p in state.players:
            assert p.cash >= 0 and p.level == min(10, 1 + p.ep // per)
    assert_replays(played)
