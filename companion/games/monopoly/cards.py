"""Chance and Community Chest cards as data, loaded from ``assets/cards``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.paths import asset

DECKS = ("chance", "community_chest")


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    deck: str
    text: str
    effect: str
    square: int = -1
    amount: int = 0
    steps: int = 0
    kind: str = ""
    rent_multiplier: int = 1
    dice_multiplier: int = 0
    house: int = 0
    hotel: int = 0


@cache
def load_deck(deck: str) -> tuple[Card, ...]:
    """The cards of one deck in printed order (the order a fresh, unshuffled deck has)."""
    if deck not in DECKS:
        raise KeyError(f"unknown deck {deck!r}: use chance or community_chest")
    raw: dict[str, Any] = json.loads(asset("cards", f"{deck}.json").read_text())
    cards = []
    for c in raw["cards"]:
        fields = {k: v for k, v in c.items() if k not in ("id", "text", "effect")}
        cards.append(Card(id=c["id"], deck=deck, text=c["text"], effect=c["effect"], **fields))
    return tuple(cards)


@cache
def card_by_id(deck: str, card_id: str) -> Card:
    for card in load_deck(deck):
        if card.id == card_id:
            return card
    known = ", ".join(c.id for c in load_deck(deck))
    raise KeyError(f"no card {card_id!r} in the {deck} deck; known cards: {known}")
