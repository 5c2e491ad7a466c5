"""Bots: seeded games between bots all end by the sixth treasure, keeping the invariants."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.dungeon_crawl.bots import play_bot_game, summarise
from companion.games.dungeon_crawl.pieces import DEATH_DAMAGE, TILES_PER_GAME

from .table import GAME

LINEUPS = [("heuristic", "random"), ("random", "heuristic", "random"),
           ("heuristic", "heuristic", "heuristic", "heuristic"), ("random", "random")]
NAMES = ("Ann", "Bob", "Cat", "Dan")


def check(state, action):
    counts = []
    for p in state.players:
        counts += [p.equipment, p.trap_xp, p.monster_xp, p.soaked, len(p.treasures)]
        soaking = state.pending is not None and state.pending.step == "soak"
        if p.at is not None and not soaking:
            assert p.wounds < DEATH_DAMAGE
            assert 0 <= p.soaked <= sum(p.damage)
    assert min(counts) >= 0
    if state.phase in ("play", "over"):  # every coin is on the board, being turned, or seen once
        turning = 1 if state.pending is not None and state.pending.step == "reveal" else 0
        assert len(state.coins) + turning + len(state.revealed) == TILES_PER_GAME
        places = [c.at for c in state.coins] + [s.at for s in state.stacks]
        places += [p.at for p in state.players if p.at is not None]
        assert len(places) == len(set(places))


@pytest.mark.parametrize("seed", range(1, 51))
def test_fifty_seeded_bot_games_end_on_the_sixth_treasure(seed):
    bots = LINEUPS[seed % len(LINEUPS)]
    game = play_bot_game(seed, players=NAMES[:len(bots)], bots=bots, watch=check)
    state = game.state
    assert state.phase == "over" and state.crowns_revealed == 6
    assert state.outcome.reason in ("sixth_treasure", "shared")
    reveals = Counter((e.detail, e.amount) for e in game.events if e.kind == "revealed")
    assert max(reveals.values()) == 1 and len(reveals) == len(state.revealed)
    assert game.events[-1].kind == "game_over"
    assert sum(t for _, t in state.outcome.standings) + sum(
        sum(s.treasures) for s in state.stacks) == 15  # all six crowns: 0+1+2+3+4+5


def test_bot_games_are_deterministic_per_seed():
    assert play_bot_game(11).actions == play_bot_game(11).actions
    assert play_bot_game(11).actions != play_bot_game(12).actions


def test_every_bot_action_was_legal():
    game = play_bot_game(2)
    state = GAME.new_game(["Ann", "Bob", "Cat"], seed=2)
    for action in game.actions:
        assert action in GAME.legal_actions(state)
        state, _ = GAME.apply(state, action)


def test_every_listed_action_applies_in_every_state_of_a_game():
    applied = 0

    def watch(state, action):
        nonlocal applied
        for a in GAME.legal_actions(state):
            GAME.apply(state, a)  # raises if the list offers something apply refuses
            applied += 1

    play_bot_game(9, players=("Ann", "Bob", "Cat", "Dan"),
                  bots=("random", "heuristic", "random", "heuristic"), watch=watch)
    assert applied > 1000


def test_summary_counts_wins_by_seat_and_deaths():
    summary = summarise(range(1, 21), players=("Ann", "Bob"), bots=("heuristic", "random"))
    assert summary.games == 20 and sum(summary.wins) + summary.shared == 20
    assert summary.wins[0] > summary.wins[1]  # the heuristic bot beats the random one
    deaths = sum(1 for s in range(1, 21) for e in play_bot_game(
        s, ("Ann", "Bob"), ("heuristic", "random")).events if e.kind == "died")
    assert summary.deaths == deaths
    assert summary.lines()[1].startswith(f"seat 1: {summary.wins[0]} wins")
