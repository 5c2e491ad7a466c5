"""The board as data: squares, colour groups, prices and rents, loaded from ``assets/board``;
its shape (``Board.topology``, a ``companion.core.topology.Ring``) comes from the same file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from companion.core.topology import Ring, load_ring
from companion.paths import asset

OWNABLE_KINDS = frozenset({"street", "railroad", "utility"})


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    name: str
    kind: str  # go, street, railroad, utility, chance, community_chest, tax, jail, ...
    group: str = ""
    price: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    mortgage: int = 0
    amount: int = 0  # for tax squares

    @property
    def ownable(self) -> bool:
        return self.kind in OWNABLE_KINDS

    @property
    def is_street(self) -> bool:
        return self.kind == "street"


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    squares: tuple[Square, ...]
    groups: dict[str, tuple[int, ...]]
    railroad_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    jail: int
    go_to_jail: int
    topology: Ring  # the ring's shape (corners, sides, the Jail cell), shared with the camera

    def __len__(self) -> int:
        return len(self.squares)

    def find(self, name: str) -> Square:
        """A square by its board name (case and punctuation are forgiven)."""
        key = _norm(name)
        for square in self.squares:
            if _norm(square.name) == key:
                return square
        raise KeyError(f"no square named {name!r} on the {self.name} board")

    def group_of(self, index: int) -> tuple[int, ...]:
        return self.groups[self.squares[index].group]

    @property
    def ownables(self) -> tuple[int, ...]:
        return tuple(s.index for s in self.squares if s.ownable)


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@cache
def load_board(name: str = "standard") -> Board:
    """Load a board definition from ``assets/board/NAME.json``."""
    raw = json.loads(asset("board", f"{name}.json").read_text())
    squares = tuple(
        Square(
            index=i,
            name=s["name"],
            kind=s["kind"],
            group=s.get("group", ""),
            price=s.get("price", 0),
            rents=tuple(s.get("rents", ())),
            house_cost=s.get("house_cost", 0),
            mortgage=s.get("mortgage", 0),
            amount=s.get("amount", 0),
        )
        for i, s in enumerate(raw["squares"])
    )
    groups: dict[str, list[int]] = {}
    for square in squares:
        if square.ownable:
            groups.setdefault(square.group, []).append(square.index)
    return Board(
        name=raw["name"],
        squares=squares,
        groups={g: tuple(v) for g, v in groups.items()},
        railroad_rents=tuple(raw["railroad_rents"]),
        utility_multipliers=tuple(raw["utility_multipliers"]),
        jail=raw["jail_square"],
        go_to_jail=raw["go_to_jail_square"],
        topology=load_ring(name),
    )
