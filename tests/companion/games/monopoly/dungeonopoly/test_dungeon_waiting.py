"""``waiting_for`` is a sentence a family can read on the kiosk: never a Python class name."""

from __future__ import annotations

import re

from companion.bots import DiceRoller, RandomBot
from companion.core.registry import find_game

CAMEL = re.compile(r"[a-z][A-Z]")


def test_blitz_draft_says_what_it_waits_for() -> None:
    rules = find_game("dungeonopoly")
    state = rules.new_game([("Ann", "fighter"), ("Bob", "wizard")],
                           rules.default_options().with_values(blitz=True))
    assert rules.waiting_for(state) == "waiting for Ann: pick a lot in the blitz draft"


def test_no_class_names_in_waiting_sentences_over_random_games() -> None:
    rules = find_game("dungeonopoly")
    classes = ["bard", "druid", "paladin", "psion", "warlock", "fighter", "wizard", "cleric"]
    seen = set()
    for seed in (1, 2):
        state = rules.new_game([(f"P{i}", c) for i, c in enumerate(classes[seed * 2:][:4])],
                               seed=seed)
        bot, roller = RandomBot(seed), DiceRoller(seed)
        for _ in range(400):
            if state.outcome is not None:
                break
            text = rules.waiting_for(state)
            seen.add(text.split(":")[0])
            assert not CAMEL.search(text), text
            action = roller.fill(rules, state, bot.choose(rules, state, rules.legal_actions(state)))
            state, _ = rules.apply(state, action)
    assert len(seen) > 3
