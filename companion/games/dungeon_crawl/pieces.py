"""The piecepack as Dungeon Crawl uses it: suits, values, colours, directions and the dice.

The rule text assumes a piecepack without describing it (rulings C-1 to C-3): four suits, each
with six tiles, six coins and one die; values null, ace, 2, 3, 4, 5 read as 0-5.
"""

from __future__ import annotations

from companion.core.dice import D6, DieKind

SUITS: tuple[str, ...] = ("suns", "moons", "crowns", "arms")
VALUES: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
VALUE_LABELS: tuple[str, ...] = ("null", "ace", "2", "3", "4", "5")
COLOURS: dict[str, str] = {"suns": "red", "moons": "black", "crowns": "yellow", "arms": "blue"}
KIND_OF_SUIT: dict[str, str] = {
    "suns": "trap", "moons": "monster", "crowns": "treasure", "arms": "equipment"}

TILES_PER_GAME = len(SUITS) * len(VALUES)  # 24 tiles, and as many coins
TREASURES = len(VALUES)  # the game ends when the sixth crown is revealed
DEATH_DAMAGE = 10

PIECEPACK_DIE = DieKind("piecepack", VALUES, VALUE_LABELS)
DICE: dict[str, DieKind] = {"piecepack": PIECEPACK_DIE, "d6": D6}

# Directions on the table: y grows away from the first builder (north).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}
DIRECTION_NAMES: tuple[str, ...] = ("north", "east", "south", "west")

_SUIT_WORDS: dict[str, str] = {
    **{s: s for s in SUITS},
    **{s[:-1]: s for s in SUITS},  # sun, moon, crown, arm
    **{colour: suit for suit, colour in COLOURS.items()},
    "green": "crowns",  # some piecepacks print crowns green
    "trap": "suns", "traps": "suns", "monster": "moons", "monsters": "moons",
    "treasure": "crowns", "treasures": "crowns", "equipment": "arms",
}


def parse_suit(text: str) -> str:
    """A suit from its name, colour or kind (``moons``, ``black``, ``monster``)."""
    suit = _SUIT_WORDS.get(text.lower())
    if suit is None:
        raise ValueError(f"{text!r} is not a suit: use suns, moons, crowns or arms "
                         "(or their colours red, black, yellow, blue)")
    return suit


def parse_value(text: str) -> int:
    """A coin or tile value: 0-5, or null / ace."""
    lowered = text.lower()
    if lowered in VALUE_LABELS:
        return VALUE_LABELS.index(lowered)
    if lowered.isdigit() and int(lowered) in VALUES:
        return int(lowered)
    raise ValueError(f"{text!r} is not a piecepack value: use null, ace, 2, 3, 4, 5 (or 0-5)")


def value_label(value: int) -> str:
    return VALUE_LABELS[value] if value in VALUES else str(value)
