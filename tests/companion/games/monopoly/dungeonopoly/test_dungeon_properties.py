"""Property tests over random bot games with the four core classes: money conserved, levels
consistent with EP, only allowed enchantments, legal actions never refused."""

from __future__ import annotations

from dataclasses import replace

from conformance.harness import bot_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.registry import find_game
from companion.games.monopoly.dungeonopoly.character import SquareEnchantment
from companion.games.monopoly.dungeonopoly.layer import PLAYER_ENCHANTMENTS, SQUARE_ENCHANTMENTS
from companion.games.monopoly.dungeonopoly.terms import dungeon

CLASSES = ("fighter", "wizard", "cleric", "rogue")
PROPERTY_ENCHANTMENTS = frozenset({"bless", "curse", "glyph_of_warding"})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), start_level=st.sampled_from([1, 5, 10]))
def test_random_games_keep_the_invariants(seed: int, start_level: int) -> None:
    rules = find_game("dungeonopoly")
    state = rules.new_game([(c.title(), c) for c in CLASSES], seed=seed)
    state = replace(state, players=tuple(rules.set_player_field(p, "level", str(start_level))
                                         for p in state.players))
    # every seat's actions are offered; a live game with none raises, saying what it waits for
    played = bot_game(rules, state, bot="random", seed=seed, dice_seed=seed + 1, steps=1500,
                      everyone=True)
    for step in played.steps:
        state = step.after
        assert sum(p.cash for p in state.players) + state.pot == state.bank_net
        for p in state.players:
            assert p.level == min(10, 1 + p.ep // 10)
            assert all(e.name in PLAYER_ENCHANTMENTS for e in p.enchantments)
            assert p.cash >= 0
        found = dungeon(state)
        assert not (found.demiplanes or found.standing or found.loans or found.suppressed)
        for e in found.enchantments:
            assert isinstance(e, SquareEnchantment) and e.enchantment.name in SQUARE_ENCHANTMENTS
            # Bless, Curse and Glyph need a property; primal spells (Wish can duplicate them)
            # enchant whatever square the caster stands on, GO included (D-33)
            if e.enchantment.name in PROPERTY_ENCHANTMENTS:
                assert rules.board.squares[e.square].ownable, e


def test_replay_of_recorded_actions_reproduces_the_final_state() -> None:
    from companion.simulate import play_game

    rules = find_game("dungeonopoly")
    players = [(c.title(), c) for c in CLASSES]
    result = play_game(rules, players, seed=7, bot="heuristic", max_turns=120, record=True)
    state = rules.new_game(players, seed=7)
    for action in result.actions:
        state, _ = rules.apply(state, action)
    assert state == replace(result.state, outcome=None)  # play_game's cap ends it unrecorded
