"""How Dungeon Crawl writes places and holdings in text: spaces and tiles as ``X,Y``, tiles as
``SUIT:VALUE``, lists of values as ``V,V``, names quoted when they hold a space."""

from __future__ import annotations

from companion.games.dungeon_crawl.pieces import parse_suit, parse_value


def quote(name: str) -> str:
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


def xy(space: tuple[int, int]) -> str:
    return f"{space[0]},{space[1]}"


def parse_xy(text: str, what: str = "space") -> tuple[int, int]:
    parts = text.split(",")
    try:
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise ValueError(f"{text!r} is not a {what}: write it X,Y (two whole numbers, e.g. 3,-1)")


def parse_count(text: str, what: str) -> int:
    if text.isdigit():
        return int(text)
    raise ValueError(f"{what} takes a whole number of 0 or more, not {text!r}")


def parse_values(text: str) -> tuple[int, ...]:
    return tuple(parse_value(v) for v in text.split(",")) if text else ()


def parse_tile(text: str) -> tuple[str, int]:
    suit, colon, value = text.partition(":")
    if not colon:
        raise ValueError(f"{text!r} is not a tile: write SUIT:VALUE, e.g. arms:3")
    return parse_suit(suit), parse_value(value)
