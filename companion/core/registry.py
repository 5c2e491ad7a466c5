"""Games found by name. Each game (or variant of one) registers a factory under the name its
transcripts' ``variant`` line uses; ``find_game`` builds it once and keeps it.

The built-in games register themselves when ``companion.games`` is imported; a test or a plug-in
may register more.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any

_REGISTRY: dict[str, Callable[[], Any]] = {}


def register(name: str, factory: Callable[[], Any]) -> None:
    """Make ``factory()`` the game called ``name``; a second registration replaces the first."""
    _REGISTRY[name] = factory
    find_game.cache_clear()


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)
    find_game.cache_clear()


def _load_builtin() -> None:
    import_module("companion.games")


@cache
def find_game(name: str) -> Any:
    """The rules object of the game or variant called ``name`` (e.g. ``monopoly``)."""
    _load_builtin()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise KeyError(
            f"unknown variant {name!r}; known variants: {', '.join(sorted(_REGISTRY))}") from None
    return factory()


def game_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)
