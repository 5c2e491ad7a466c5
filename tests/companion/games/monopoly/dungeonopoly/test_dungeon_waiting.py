"""``waiting_for`` is a sentence a family can read on the kiosk: never a Python class name."""

from __future__ import annotations

import re

from conformance.harness import bot_game

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
        played = bot_game(rules, state, bot="random", seed=seed, dice_seed=seed, steps=400,
                          everyone=True)
        for step in played.steps:
            text = rules.waiting_for(step.before)
            seen.add(text.split(":")[0])
            assert not CAMEL.search(text), text
    assert len(seen) > 3
