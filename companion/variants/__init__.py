"""Rule sets registered by name. Each variant is a ``Rules`` subclass in its own module."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from companion.rules.engine import Rules

_REGISTRY: dict[str, Callable[[], Rules]] = {}


def register(name: str, factory: Callable[[], Rules]) -> None:
    _REGISTRY[name] = factory


def _load_builtin() -> None:
    from companion.variants import monopoly  # noqa: F401

    try:
        from companion.variants import dungeonopoly  # noqa: F401
    except ImportError:  # the layer is optional while it is being built
        pass


@cache
def find_variant(name: str) -> Rules:
    """The rules object for a variant name (e.g. ``monopoly``, ``dungeonopoly``)."""
    _load_builtin()
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise KeyError(
            f"unknown variant {name!r}; known variants: {', '.join(sorted(_REGISTRY))}") from None


def variant_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)
