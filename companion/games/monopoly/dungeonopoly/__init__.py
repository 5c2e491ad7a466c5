"""Dungeonopoly: Monopoly with D&D character classes (rule text: shared/rules/dungeonopoly.txt).

The layer (``layer.Dungeonopoly``) is the variant ``dungeonopoly`` (registered by
``companion.games.monopoly``); classes are modules
in ``classes/`` (one per character class) that register themselves.
"""

from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    Accept,
    CharacterClass,
    Pass,
    TrainSkill,
    UseAbility,
    find_class,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Character, Enchantment
from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly, DungeonOptions

__all__ = [
    "Ability", "Accept", "Character", "CharacterClass", "DungeonOptions", "Dungeonopoly",
    "Enchantment", "Pass", "TrainSkill", "UseAbility", "find_class", "register_class",
]
