"""A seat filler for simulations and the conformance kit: sets up a few models, then heads for
the chests, picks up the ball, carries it to an opponent's end zone and scores; answers the
referee's questions at random (seeded) and ends its turn when it has nothing better to do."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.core.actions import Action
from companion.games.dungeonbowl import board
from companion.games.dungeonbowl.actions import (
    AddModel,
    Answer,
    BlockDoor,
    Climb,
    Door,
    EndTurn,
    Kickoff,
    OpenChest,
    PlaceTrap,
    Score,
    Stand,
    Step,
    Take,
)
from companion.games.dungeonbowl.dungeon import Square
from companion.games.dungeonbowl.state import BowlState

SETUP_MODELS = 3


class BowlBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, state: BowlState, actions: Sequence[Action]) -> Action:
        acts = list(actions)
        if isinstance(acts[0], Answer):
            by_value = {a.value: a for a in acts if isinstance(a, Answer)}
            for hopeful in ("held", "yes", "ball"):
                if hopeful in by_value and self.rng.random() < 0.75:
                    return by_value[hopeful]
            return self.rng.choice(acts)
        if state.phase == "setup":
            return self._setup(state, acts)
        for kind in (Score, Take, OpenChest, Climb, Stand):
            found = [a for a in acts if isinstance(a, kind)]
            if found:
                return self.rng.choice(found)
        doors = [a for a in acts if isinstance(a, Door) and a.verb == "open"]
        if doors:
            return self.rng.choice(doors)
        steps = [a for a in acts if isinstance(a, Step) and a.how == "walk"]
        best = self._closer(state, steps)
        if best is not None:
            return best
        smash = [a for a in acts if isinstance(a, BlockDoor)]
        if smash and self.rng.random() < 0.5:
            return self.rng.choice(smash)
        ends = [a for a in acts if isinstance(a, EndTurn)]
        return ends[0] if ends else self.rng.choice(acts)

    def _setup(self, state: BowlState, acts: list[Action]) -> Action:
        traps = [a for a in acts if isinstance(a, PlaceTrap)]
        if traps:
            return self.rng.choice(traps)
        adds = [a for a in acts if isinstance(a, AddModel)
                and sum(1 for m in state.models if m.team == a.player) < SETUP_MODELS]
        if adds:
            return adds[0]
        return next((a for a in acts if isinstance(a, Kickoff)), acts[0])

    def _closer(self, state: BowlState, steps: list[Step]) -> Step | None:
        """The step that brings a model nearest its goal: the ball carrier an opponent's end
        zone, the others a loose ball or an unopened chest."""
        # doors count as open: a model walks up to a closed door, then opens it
        g = board.cached_grid(state.options.dungeon, tuple(
            (door, "open" if now == "closed" else now) for door, now in state.doors))
        d = state.dungeon
        carry: list[Square] = []
        loose = [b.at for b in state.balls if b.at is not None and not b.holder
                 and not b.gone]
        maps: dict[int, dict[Square, int]] = {}
        best: tuple[int, Step] | None = None
        for a in steps:
            m = state.model(a.model)
            if m is None or m.at is None:
                continue
            key = m.team if state.balls_held(m.id) else -1
            if key not in maps:
                carry = [s for t in range(1, len(state.players) + 1) if t != m.team + 1
                         for s in d.endzone(t)]
                maps[key] = (_flood(g, carry, ()) if key >= 0
                             else _flood(g, loose, list(state.chests)))
            far = maps[key]
            now, then = far.get(m.at), far.get(a.to)
            if then is not None and (now is None or then < now):
                gain = (now or 99) - then
                if best is None or gain > best[0] or (gain == best[0] and self.rng.random()
                                                      < 0.5):
                    best = (gain, a)
        return best[1] if best else None


def _flood(g: Any, goals: Sequence[Square], beside: Sequence[Square]) -> dict[Square, int]:
    """Steps from every square to the nearest goal, or to a square beside one of ``beside``
    (a chest is opened from next to it)."""
    far: dict[Square, int] = {}
    frontier = []
    for s in goals:
        far[s] = 0
        frontier.append(s)
    for s in beside:
        for n in (s, *g.neighbours(s)):
            if n not in far:
                far[n] = 0
                frontier.append(n)
    while frontier:
        nxt = []
        for s in frontier:
            for n in g.neighbours(s):
                if n not in far:
                    far[n] = far[s] + 1
                    nxt.append(n)
        frontier = nxt
    return far
