"""Players for simulations, for any game: a uniform random bot and seeded dice.

Bots only choose among ``game.legal_actions(state)``; dice values come from a seeded roller
outside the rules (``DiceRoller``), which fills in the roll the game asks for
(``Game.dice_prompt``). A game offers its own bots (``Game.bots``); ``bots_for`` adds the
random one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from companion.core.actions import Action
from companion.core.game import Bot, Game

__all__ = ["Bot", "DiceRoller", "RandomBot", "bots_for"]


class DiceRoller:
    """Seeded dice outside the rules: fills a roll placeholder with values the game wants."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def fill(self, game: Game, state: Any, action: Action) -> Action:
        if not game.needs_dice(action):
            return action
        prompt = game.dice_prompt(state)
        if prompt is None:
            raise RuntimeError("a roll placeholder while no roll is due")
        values = tuple(self.rng.choice(kind.faces) for kind in prompt.dice)
        return game.roll_action(state, prompt, values)


class RandomBot:
    """Picks uniformly among every legal action (a fuzzer more than a player)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, state: Any, actions: Sequence[Action]) -> Action:
        return self.rng.choice(list(actions))


def bots_for(game: Game) -> dict[str, Callable[[int], Bot]]:
    """The bots that can play ``game``, by name, each made from a seed: ``random`` and the
    game's own."""
    return {"random": RandomBot, **game.bots()}
