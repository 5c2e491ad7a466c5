"""The dice Dungeonbowl asks for, as the core's die kinds.

``block`` and ``scatter`` are the core's kinds (``companion.core.dice``), the ones the camera's
special-dice readers read: a block die has six faces and five symbols (two "pushed" faces); a
scatter die is a d8 read as one of eight directions relative to the map as registered, numbered
as the base game's scatter template.
"""

from __future__ import annotations

from companion.core.dice import BLOCK, D6, D8, D12, D20, SCATTER, DieKind

SCATTER_STEP: dict[int, tuple[int, int]] = {
    1: (-1, -1), 2: (0, -1), 3: (1, -1), 4: (-1, 0), 5: (1, 0), 6: (-1, 1), 7: (0, 1), 8: (1, 1)}
SCATTER_WORDS: dict[str, int] = {
    "nw": 1, "n": 2, "ne": 3, "w": 4, "e": 5, "sw": 6, "s": 7, "se": 8,
    "up-left": 1, "up": 2, "up-right": 3, "left": 4, "right": 5, "down-left": 6, "down": 7,
    "down-right": 8}
BLOCK_WORDS: dict[str, int] = {
    "attacker_down": 1, "attacker-down": 1, "both_down": 2, "both-down": 2, "pushed": 3,
    "stumbles": 5, "defender_stumbles": 5, "defender-stumbles": 5, "defender_down": 6,
    "defender-down": 6}

__all__ = ["BLOCK", "SCATTER", "KINDS", "SCATTER_STEP", "SCATTER_WORDS", "BLOCK_WORDS"]

KINDS: dict[str, DieKind] = {"d6": D6, "block": BLOCK, "scatter": SCATTER, "d8": D8,
                             "d12": D12, "d20": D20}


def d3(value: int) -> int:
    """A D3 read from a D6: 1-2 is 1, 3-4 is 2, 5-6 is 3 (ruling B-19)."""
    return (value + 1) // 2


def teleporter_die(count: int) -> DieKind:
    """The smallest die that can name one of ``count`` teleporters (results above the count
    are rolled again, ruling B-21)."""
    for kind in (D6, D8, D12, D20):
        if count <= kind.faces[-1]:
            return kind
    raise ValueError(f"a dungeon may have at most 20 teleporters, not {count}")


def face_word(kind: DieKind, value: int) -> str:
    """How a transcript writes a face: block and scatter faces by their short names."""
    if kind.name == "block":
        return {1: "attacker_down", 2: "both_down", 3: "pushed", 4: "pushed", 5: "stumbles",
                6: "defender_down"}[value]
    if kind.name == "scatter":
        return {v: k for k, v in SCATTER_WORDS.items() if len(k) <= 2}[value]
    return str(value)
