"""Dungeonopoly: Monopoly with D&D character classes (rule text: shared/rules/dungeonopoly.txt).

The layer (``layer.Dungeonopoly``) registers as variant ``dungeonopoly``; classes are modules
in ``classes/`` (one per character class) that register themselves.
"""

from companion.variants import register
from companion.variants.dungeonopoly.abilities import (
    Ability,
    Accept,
    CharacterClass,
    Pass,
    TrainSkill,
    UseAbility,
    find_class,
    register_class,
)
from companion.variants.dungeonopoly.character import Character, Enchantment
from companion.variants.dungeonopoly.layer import Dungeonopoly, DungeonOptions

register("dungeonopoly", Dungeonopoly)

__all__ = [
    "Ability", "Accept", "Character", "CharacterClass", "DungeonOptions", "Dungeonopoly",
    "Enchantment", "Pass", "TrainSkill", "UseAbility", "find_class", "register_class",
]
