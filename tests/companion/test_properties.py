"""Properties over whole random games: money conserved, buildings within the bank's stock,
every listed action legal, and a game's own transcript replays to the same final state."""

from __future__ import annotations

from conformance.harness import assert_replays, bot_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.registry import find_game
from companion.games.monopoly.state import GameState


def check_invariants(state: GameState) -> None:
    assert sum(p.cash for p in state.players) + state.pot == state.bank_net, "money not conserved"
    assert all(p.cash >= 0 for p in state.players)
    houses = sum(s.houses for s in state.squares if not s.hotel)
    hotels = sum(1 for s in state.squares if s.hotel)
    assert houses + state.bank_houses == state.options.bank_houses
    assert hotels + state.bank_hotels == state.options.bank_hotels
    assert state.bank_houses >= 0 and state.bank_hotels >= 0
    for s in state.squares:
        assert not (s.mortgaged and s.level), "buildings on a mortgaged lot"
        assert s.owner is None or not state.players[s.owner].bankrupt
    held = [d for p in state.players for d in p.jail_cards]
    for deck in ("chance", "community_chest"):
        in_deck = "get_out_of_jail_free" in state.deck(deck)
        assert held.count(deck) + in_deck == 1, "a jail card is lost or doubled"


def run_game(seed: int, bot: str, players: int, max_steps: int) -> None:
    """Bots choose among every seat's actions; a listed action the rules refuse raises, as
    does a live game that offers no action."""
    rules = find_game("monopoly")
    names = [f"P{i}" for i in range(players)]
    state = rules.new_game(names, seed=seed)
    played = bot_game(rules, state, bot=bot, seed=seed, dice_seed=seed, steps=max_steps,
                      everyone=True)
    for step in played.steps:
        check_invariants(step.after)
    assert_replays(played)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_random_bot_games_keep_every_invariant(seed: int, players: int) -> None:
    run_game(seed, "random", players, 1500)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_heuristic_bot_games_keep_every_invariant(seed: int, players: int) -> None:
    run_game(seed, "heuristic", players, 2500)
