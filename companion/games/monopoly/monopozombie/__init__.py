"""MonopoZombie: Monopoly overrun by zombies (rule text: shared/rules/monopozombie.txt).

The layer (``layer.MonopoZombie``) is the variant ``monopozombie`` (registered by
``companion.games.monopoly``); rulings Z-n are in docs/monopozombie/rulings.md.
"""

from companion.games.monopoly.monopozombie.layer import MonopoZombie
from companion.games.monopoly.monopozombie.model import (
    ChooseMove,
    GoTo,
    HireBodyguards,
    HomelessRoll,
    Steer,
    ZombieOptions,
    ZombiePlayer,
    ZombieTable,
)

__all__ = ["ChooseMove", "GoTo", "HireBodyguards", "HomelessRoll", "MonopoZombie", "Steer",
           "ZombieOptions", "ZombiePlayer", "ZombieTable"]
