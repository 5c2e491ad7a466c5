"""Small helpers for the words the companion prints."""

from __future__ import annotations


def count(n: int, noun: str, plural: str = "") -> str:
    """``1 action``, ``2 actions`` (``plural`` when adding an s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def plural(word: str) -> str:
    """``class`` -> ``classes``, ``roster`` -> ``rosters``."""
    return word + ("es" if word.endswith("s") else "s")


def possessive(name: str) -> str:
    """``Ann's``; a name ending in s takes the apostrophe alone (``Orcs'``)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
