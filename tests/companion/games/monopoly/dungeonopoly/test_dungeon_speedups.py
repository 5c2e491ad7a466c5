"""The speed-ups of the Dungeonopoly path answer exactly as the plain computations would:
remembered management lists, per-character ability views, ``state.evolve``, and the
``players`` filter passed down to ``extra_legal_actions``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conformance.harness import bot_game

from companion.bots import DiceRoller, RandomBot
from companion.games.monopoly.bots import HeuristicBot
from companion.games.monopoly.dungeonopoly import Character, Dungeonopoly
from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    known_abilities,
    knows,
    repertoire,
)
from companion.games.monopoly.dungeonopoly.terms import character
from companion.games.monopoly.state import PlayerState, evolve

NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_evolve_matches_replace() -> None:
    p = Character(name="Ann", cash=1500, role="fighter", turn=("moved",))
    assert evolve(p, {"cash": 7, "level": 3}) == replace(p, cash=7, level=3)
    assert repr(evolve(p, {})) == repr(p)
    plain = PlayerState("Bob", 10)
    assert evolve(plain, {"position": 5}) == replace(plain, position=5)
    with pytest.raises(TypeError):
        evolve(plain, {"no_such_field": 1})


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_remembered_management_lists_match_fresh_ones(rules: Dungeonopoly, bot: str) -> None:
    """Through a game (auctions included), the answer the layer remembers is the one it would
    work out afresh, and it is reused at least sometimes."""
    opts = replace(rules.default_options(), teams="Ann+Cy,Bob+Di") if bot == "random" else None
    roles = ["fighter", "psion", "cleric", "rogue"]
    state = rules.new_game(list(zip(NAMES, roles, strict=True)), opts, seed=11)
    chooser = HeuristicBot(11) if bot == "heuristic" else RandomBot(11)
    roller = DiceRoller(12)
    reused = 0
    for step in range(700):
        if state.outcome is not None:
            break
        seat = state.current if step % 3 else step % 4
        shortage = rules.house_shortage(state)
        before = rules._management_memo
        remembered = rules.management_actions(state, seat, shortage)
        reused += rules._management_memo is before and before[0] != ()
        rules._management_memo = ((), ())
        assert remembered == rules.management_actions(state, seat, shortage), step
        actions = rules.legal_actions(state, None if bot == "random" else rules.deciders(state))
        state, _ = rules.apply(state, roller.fill(rules, state,
                                                  chooser.choose(rules, state, actions)))
    assert reused > 0


def test_deciders_list_is_the_full_list_filtered(rules: Dungeonopoly) -> None:
    roles = ["bard", "druid", "paladin", "warlock"]
    state = rules.new_game(list(zip(NAMES, roles, strict=True)), seed=5)
    played = bot_game(rules, state, bot="heuristic", seed=5, dice_seed=6, steps=400)
    for step in played.steps:
        deciders = rules.deciders(step.before)
        full = rules.legal_actions(step.before)
        assert rules.legal_actions(step.before, deciders) == [
            a for a in full if a.player in deciders]


def test_repertoire_views(rules: Dungeonopoly) -> None:
    roles = ["bard", "wizard+rogue", "druid", "psion"]
    state = rules.new_game(list(zip(NAMES, roles, strict=True)),
                           replace(rules.default_options(), gestalt=True, blitz=True), seed=3)
    for seat in range(4):
        p = character(state, seat)
        known = known_abilities(p)
        view = repertoire(p)
        assert view.usable == tuple(a for a in known if a.kind != "automatic" and not a.reaction)
        for hook in ("on_pass", "on_land", "choices_due", "modify_damage", "waives_fee"):
            assert view.overriding(hook) == tuple(
                a for a in known if getattr(type(a), hook) is not getattr(Ability, hook))
        for a in known:
            assert knows(p, a.name) is next(b for b in known if b.name == a.name)
        assert knows(p, "no_such_ability") is None
