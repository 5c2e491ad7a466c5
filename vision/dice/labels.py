"""The classifier's label space: one class per (die type, top value), plus 'none' and 'cocked'."""

from __future__ import annotations

from .types import DIE_KINDS, FACES

NONE = "none"
COCKED = "cocked"


def _classes() -> tuple[str, ...]:
    names = [NONE, COCKED]
    for kind in DIE_KINDS:
        names.extend(f"{kind}:{v}" for v in range(1, FACES[kind] + 1))
    return tuple(names)


CLASSES: tuple[str, ...] = _classes()
CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}


def class_of(kind: str, value: int) -> int:
    """Class index of a die type and face value (a d10's '0' face is value 10)."""
    return CLASS_INDEX[f"{kind}:{value}"]


def parse_class(index: int) -> tuple[str, int | None]:
    """(kind, value) of a class index; kind is 'none' or 'cocked' with value None for those."""
    name = CLASSES[index]
    if ":" not in name:
        return name, None
    kind, value = name.split(":")
    return kind, int(value)
