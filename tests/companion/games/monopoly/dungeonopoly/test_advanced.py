"""Advanced and alternative rules as options (Dungeonopoly, "Advanced and alternative rules"),
and random bot games with the psion, the warlock and each option: money conserved, levels
consistent, some action always legal, and the written transcript replays to the same state."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conformance.harness import assert_replays, bot_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import IllegalActionError
from companion.core.registry import find_game
from companion.games.monopoly.actions import Trade, TradeSide
from companion.games.monopoly.dungeonopoly.abilities import Choose, find_class, known_abilities
from companion.games.monopoly.dungeonopoly.advanced import DraftPick
from companion.simulate import simulate


def new(rules: Any, classes: list[str], seed: int = 3, **options: Any) -> Any:
    opts = replace(rules.default_options(), **options)
    names = ["Ann", "Bob", "Cat", "Dan"][: len(classes)]
    return rules.new_game(list(zip(names, classes, strict=True)), opts, seed=seed)


# --- quicker game -----------------------------------------------------------------------------
def test_quicker_game_deals_three_lots_and_sets_the_figures(rules: Any) -> None:
    state = new(rules, ["fighter", "wizard", "psion"], quicker_game=True)
    owned = [sum(1 for s in state.squares if s.owner == seat) for seat in range(3)]
    assert owned == [3, 3, 3]
    o = state.options
    assert (o.max_houses, o.max_jail_turns, o.ep_per_level) == (3, 1, 5)
    assert sum(p.cash for p in state.players) == state.bank_net == 4500  # dealt free


def test_quicker_game_levels_every_5_ep_and_one_jail_turn(rules: Any) -> None:
    state = new(rules, ["warlock", "psion"], quicker_game=True)
    from companion.games.monopoly.actions import Roll

    state = replace(state, players=(replace(state.players[0], ep=4),) + state.players[1:])
    state, _ = rules.apply(state, Roll(0, (3, 3)))  # doubles: 1 EP -> 5 EP = level 2
    assert state.players[0].level == 2
    jailed = replace(state.players[1], position=10, in_jail=True)
    state = replace(state, players=(state.players[0], jailed), current=1, rolled=False,
                    roll_again=False, doubles=0, pending=())
    state, _ = rules.apply(state, Roll(1, (1, 2)))  # first failed try: pay and move
    assert not state.players[1].in_jail


def test_quicker_game_houses_stop_at_three(rules: Any) -> None:
    state = new(rules, ["fighter", "wizard"], quicker_game=True)
    squares = list(state.squares)
    for i in (37, 39):
        squares[i] = replace(squares[i], owner=0, houses=3)
    state = replace(state, squares=tuple(squares), bank_houses=26)
    from companion.games.monopoly.actions import Build

    state, _ = rules.apply(state, Build(0, 37))
    assert state.squares[37].hotel and state.squares[37].houses == 0


# --- strict politics ----------------------------------------------------------------------------
def test_strict_politics_trades_only_at_listed_value(game: Any) -> None:
    g = game("fighter", "wizard", strict_politics=True)
    g.own(1, 0)  # Mediterranean: $60
    g.own(3, 1, mortgaged=True)  # Baltic: $60 less its $30 mortgage
    with pytest.raises(IllegalActionError, match="listed value"):
        g.act(Trade(0, 1, TradeSide(squares=(1,)), TradeSide(cash=10)))
    with pytest.raises(IllegalActionError, match="listed value"):
        g.act(Trade(0, 1, TradeSide(cash=100), TradeSide()))  # a gift
    g.act(Trade(0, 1, TradeSide(squares=(1,)), TradeSide(squares=(3,), cash=30)))
    assert g.state.squares[1].owner == 1


def test_strict_politics_rent_is_never_left_to_claim(rules: Any) -> None:
    state = new(rules, ["fighter", "wizard"], strict_politics=True, rent_must_be_claimed=True)
    assert state.options.rent_must_be_claimed is False


def test_without_strict_politics_gifts_are_allowed(game: Any) -> None:
    g = game("fighter", "wizard")
    g.act(Trade(0, 1, TradeSide(cash=100), TradeSide()))
    assert g.cash(1) == 1600


# --- blitz -------------------------------------------------------------------------------------
def test_blitz_draft_in_turn_and_level_10(rules: Any) -> None:
    state = new(rules, ["fighter", "wizard", "psion"], blitz=True)
    assert all(p.level == 10 and p.ep == 90 for p in state.players)
    head = state.pending[0]
    assert isinstance(head, DraftPick) and head.player == 0
    picks = [a for a in rules.legal_actions(state) if isinstance(a, Choose)]
    assert len(picks) == 28 and all(a.what == "draft" for a in picks)
    with pytest.raises(IllegalActionError):
        rules.apply(state, Choose(0, "draft", "0"))  # GO is not a lot
    seat = 0
    while state.pending and isinstance(state.pending[0], DraftPick):
        assert state.pending[0].player == seat
        lot = next(a for a in rules.legal_actions(state) if isinstance(a, Choose))
        state, _ = rules.apply(state, lot)
        seat = (seat + 1) % 3
    owned = [sum(1 for s in state.squares if s.owner == i) for i in range(3)]
    assert owned == [10, 9, 9] and sum(p.cash for p in state.players) == 4500


# --- gestalt ----------------------------------------------------------------------------------------
def test_gestalt_two_classes_need_the_option(rules: Any) -> None:
    with pytest.raises(ValueError, match="gestalt"):
        new(rules, ["fighter+wizard", "psion"])
    with pytest.raises(ValueError, match="two different"):
        new(rules, ["wizard+wizard", "psion"], gestalt=True)
    state = new(rules, ["fighter+wizard", "rogue+warlock"], gestalt=True)
    p = state.players[0]
    names = {a.name for a in known_abilities(replace(p, level=10))}
    assert {"attack", "abundant_step", "magic_missile", "wish"} <= names
    assert find_class("fighter+wizard").ability("run") is not None
    assert rules.skill_points_left(state.players[1]) == 30  # the rogue part trains skills


def test_gestalt_levels_in_both_at_once(game: Any) -> None:
    g = game("fighter+wizard", "commoner", gestalt=True)
    g.set(0, level=3, position=5)
    g.set(1, position=5)
    from companion.games.monopoly.dungeonopoly import UseAbility

    g.act(UseAbility(0, "attack", 1))
    g.act(UseAbility(0, "magic_missile", 1))
    assert g.cash(1) == 1500 - 60 - 60


# --- random games with the psion, the warlock and each option ----------------------------------------
OPTION_SETS: list[dict[str, Any]] = [
    {}, {"quicker_game": True}, {"strict_politics": True}, {"blitz": True},
    {"gestalt": True}, {"quicker_game": True, "blitz": True, "strict_politics": True},
]


def run(seed: int, options: dict[str, Any], bot: str, steps: int) -> None:
    rules = find_game("dungeonopoly")
    if options.get("gestalt"):
        roles = ["psion+fighter", "warlock+cleric", "wizard+rogue", "warlock+psion"]
    else:
        roles = ["psion", "warlock", "fighter", "wizard"]
    roles = roles[seed % 4:] + roles[: seed % 4]
    state = new(rules, roles, seed=seed, **options)
    per = state.options.ep_per_level
    played = bot_game(rules, state, bot=bot, seed=seed, dice_seed=seed + 5, steps=steps,
                      roles=roles)
    for step in played.steps:
        state = step.after
        assert sum(p.cash for p in state.players) + state.pot == state.bank_net
        for p in state.players:
            assert p.cash >= 0 and p.level == min(10, 1 + p.ep // per) or \
                (options.get("blitz") and p.level == 10)
    assert_replays(played)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.integers(0, len(OPTION_SETS) - 1))
def test_random_games_with_options_keep_the_invariants(seed: int, which: int) -> None:
    run(seed, OPTION_SETS[which], "random", 500)


@pytest.mark.parametrize("which", range(len(OPTION_SETS)))
def test_heuristic_games_with_each_option(which: int) -> None:
    run(11 + which, OPTION_SETS[which], "heuristic", 700)


def test_simulate_reports_win_rates_with_options() -> None:
    summary = simulate("dungeonopoly", 4, 2, seed=5,
                       classes=["psion", "warlock", "fighter", "cleric"], max_turns=120,
                       options={"quicker_game": True})
    assert summary.games == 2 and sum(summary.wins.values()) <= 2
    with pytest.raises(ValueError, match="not a setting"):
        simulate("monopoly", 2, 1, seed=1, options={"blitz": True})
