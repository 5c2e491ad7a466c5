"""Every game, every table: the declared invariants hold after every step of a seeded bot game;
the game always waits on someone who can act; every listed action applies; every refused action
raises IllegalActionError and leaves the state identical."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from typing import Any

from conformance.harness import (
    BotGame,
    Case,
    check_invariants,
    fill,
    foreign_actions,
    make_roller,
    refuse_kinds,
    sample_indices,
    snapshot,
    views,
)

from companion.core.actions import Action
from companion.core.errors import IllegalActionError


def test_invariants_hold_after_every_step(kit_game: Any, case: Case, played: BotGame) -> None:
    assert played.steps, "the bot game took no step"
    check_invariants(case.conformance, kit_game, played.start)
    for n, step in enumerate(played.steps, start=1):
        try:
            check_invariants(case.conformance, kit_game, step.after)
        except AssertionError as exc:
            raise AssertionError(f"after step {n} ({step.action}): {exc}") from None


def test_the_game_waits_on_someone_who_can_act(kit_game: Any, played: BotGame) -> None:
    for n, state in enumerate(played.states):
        deciders = kit_game.deciders(state)
        if state.outcome is None:
            assert deciders, f"state {n}: a live game waits on no one"
            assert kit_game.legal_actions(state, deciders), \
                f"state {n}: nothing is legal while {kit_game.waiting_for(state)}"
            assert kit_game.waiting_for(state).strip()
        else:
            assert deciders == () and kit_game.legal_actions(state) == [], f"state {n}"


def test_legal_actions_of_some_seats_are_theirs_of_the_full_list(kit_game: Any, case: Case,
                                                                 played: BotGame) -> None:
    states = played.states
    for i in sample_indices(len(states), case.conformance.samples):
        state = states[i]
        full = kit_game.legal_actions(state)
        groups = [kit_game.deciders(state), *((s,) for s in range(len(state.players)))]
        for seats in groups:
            assert kit_game.legal_actions(state, seats) == [a for a in full if a.player in seats]


def test_every_listed_action_applies(kit_game: Any, case: Case, played: BotGame) -> None:
    """At sampled states, each action the game lists (dice filled in) is legal and applies
    to a state that keeps the invariants; the state it was applied to does not change."""
    roller = make_roller(case.table.seed)
    states = played.states
    tried = 0
    for i in sample_indices(len(states), case.conformance.samples):
        state = states[i]
        frozen = snapshot(state)
        for listed in kit_game.legal_actions(state):
            action = fill(roller, kit_game, state, listed)
            assert kit_game.is_legal(state, action), f"state {i}: {action} listed, not legal"
            after, _events = kit_game.apply(state, action)
            try:
                check_invariants(case.conformance, kit_game, after)
            except AssertionError as exc:
                raise AssertionError(f"state {i}, {action}: {exc}") from None
            tried += 1
        assert snapshot(state) == frozen, f"state {i}: applying an action changed it"
    assert tried > len(sample_indices(len(states), case.conformance.samples))


def _candidates(kit_game: Any, case: Case, state: Any, roller: Any,
                elsewhere: list[Action]) -> list[tuple[str, Action, bool]]:
    """(why, action, must be refused): the listed actions of the seats the game waits on
    given to other seats and to seats that do not exist, kinds no game has, the game's own
    malformed actions, and actions taken or listed at other states of the game (these may
    happen to be legal here too)."""
    seats = len(state.players)
    full = kit_game.legal_actions(state)
    deciders = kit_game.deciders(state)
    out: list[tuple[str, Action, bool]] = []
    for listed in kit_game.legal_actions(state, deciders):
        action = fill(roller, kit_game, state, listed)
        for seat in range(seats):
            if seat in deciders:
                continue
            moved = replace(action, player=seat)
            strict = moved not in full and replace(listed, player=seat) not in full
            out.append((f"seat {seat} is not waited on", moved, strict))
        out.extend(("no such seat", bad, True) for bad in refuse_kinds(action, seats))
    out.extend(("no game has this kind", bad, True) for bad in foreign_actions(seats))
    if case.conformance.refusals is not None:
        out.extend(("malformed", bad, True) for bad in case.conformance.refusals(kit_game, state))
    out.extend(("taken at another state", a, False) for a in elsewhere)
    return out


def test_refused_actions_leave_the_state_identical(kit_game: Any, case: Case,
                                                   played: BotGame) -> None:
    roller = make_roller(case.table.seed + 7)
    rng = random.Random(case.table.seed)
    states = played.states
    actions = played.actions
    picked = sample_indices(len(states), case.conformance.samples)
    refused: dict[str, int] = {}
    for k, i in enumerate(picked):
        state = states[i]
        # actions from elsewhere: some taken in the game, those listed at the next sample
        other = picked[(k + 1) % len(picked)]
        elsewhere = rng.sample(actions, min(12, len(actions)))
        elsewhere += [fill(roller, kit_game, states[other], a)
                      for a in kit_game.legal_actions(states[other])]
        seen = views(kit_game, state)
        frozen = snapshot(state)
        copy = pickle.loads(frozen)
        for why, action, strict in _candidates(kit_game, case, state, roller, elsewhere):
            try:
                kit_game.apply(state, action)
            except IllegalActionError:
                refused[why] = refused.get(why, 0) + 1
                assert snapshot(state) == frozen and state == copy, \
                    f"state {i}: refusing {action} ({why}) changed the state"
                assert not kit_game.is_legal(state, action), f"state {i}: {action}"
            else:
                assert not strict, f"state {i}: {action} accepted ({why})"
                assert kit_game.is_legal(state, action), f"state {i}: {action}"
        assert views(kit_game, state) == seen, f"state {i}: refusals changed what is shown"
    assert refused.get("no such seat") and refused.get("no game has this kind"), refused
    if case.conformance.refusals is not None:
        assert refused.get("malformed"), refused
