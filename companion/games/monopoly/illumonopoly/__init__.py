"""Illumonopoly: Monopoly with treasuries, interference with purchases, court cases, Court
Date cards and the Illuminati (rule text: shared/rules/illumonopoly.txt).

The layer (``layer.Illumonopoly``) is the variant ``illumonopoly`` (registered by
``companion.games.monopoly``); rulings are in docs/illumonopoly/rulings.md.
"""

from companion.games.monopoly.illumonopoly.actions import (
    BavarianDeal,
    DeclareMissing,
    Interfere,
    PayInKind,
    PlayCard,
    Sue,
    Support,
    Transfer,
)
from companion.games.monopoly.illumonopoly.layer import Illumonopoly
from companion.games.monopoly.illumonopoly.state import IllumOptions, IllumPlayer, IllumTable

__all__ = [
    "BavarianDeal", "DeclareMissing", "IllumOptions", "IllumPlayer", "IllumTable",
    "Illumonopoly", "Interfere", "PayInKind", "PlayCard", "Sue", "Support", "Transfer",
]
