"""Transcript words every game reads and writes the same way: quoted names, whole numbers,
true/false and ``key=value`` pairs. Each raises ValueError naming what was wrong."""

from __future__ import annotations


def quote(name: str) -> str:
    """``name`` as one transcript word: in double quotes when it holds a space."""
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


def parse_bool(text: str, key: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "yes", "1"):
        return True
    if lowered in ("false", "no", "0"):
        return False
    raise ValueError(f"{key} takes true or false, not {text!r}")


def parse_int(text: str, key: str) -> int:
    """A whole number (a leading ``$`` is allowed)."""
    try:
        return int(text.lstrip("$"))
    except ValueError:
        raise ValueError(f"{key} takes a whole number, not {text!r}") from None


def split_pairs(args: list[str]) -> list[tuple[str, str]]:
    """``key=value`` words as (key, value) pairs."""
    pairs = []
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq:
            raise ValueError(f"expected key=value, got {arg!r}")
        pairs.append((key, value))
    return pairs
