"""Where things are on a board: its places and their names, which places are next to which,
how many steps apart two places are, the way between them, and who sees whom.

A topology knows a board's shape and nothing of a game's rules: the rules, the pawn check and
the camera's board layout ask it instead of counting squares themselves. Every board meets the
``Topology`` protocol; each shape documents what its line of sight means:

- ``Ring`` (here): a ring of squares with corners, such as the Monopoly board, built from the
  board data in ``assets/board`` (``load_ring``). Sight is "on a common side of the board".
- ``Grid`` (``companion.core.grid``): a square grid with walls, for dungeons of squares and
  piecepack tiles. Sight is a straight line between square centres that crosses no wall.
- ``RingOverlay`` (``companion.core.overlay``): a ring with extra places in the gaps between
  its squares (Dungeonopoly's Genesis demiplanes).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, TypeVar

from companion.paths import asset

P = TypeVar("P", bound=Hashable)


class Topology(Protocol[P]):
    """A board's shape, as every consumer sees it.

    ``distance`` counts steps along legal movement (None when one place cannot reach the
    other); ``path`` is a shortest way from ``a`` to ``b``, both included (None when there is
    none); ``in_sight`` is the board's line of sight (each shape says what it means)."""

    @property
    def places(self) -> tuple[P, ...]: ...

    def name(self, place: P) -> str: ...

    def neighbours(self, place: P) -> tuple[P, ...]: ...

    def distance(self, a: P, b: P) -> int | None: ...

    def path(self, a: P, b: P) -> tuple[P, ...] | None: ...

    def in_sight(self, a: P, b: P) -> bool: ...


def shortest_path(topology: Topology[P], a: P, b: P) -> tuple[P, ...] | None:
    """A shortest way from ``a`` to ``b`` through ``neighbours`` (breadth first, so the first
    neighbour listed wins a tie), both ends included; None when ``b`` cannot be reached."""
    if a == b:
        return (a,)
    came: dict[P, P] = {a: a}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        for nxt in topology.neighbours(here):
            if nxt in came:
                continue
            came[nxt] = here
            if nxt == b:
                way = [b]
                while way[-1] != a:
                    way.append(came[way[-1]])
                return tuple(reversed(way))
            queue.append(nxt)
    return None


@dataclass(frozen=True)
class Ring:
    """A ring of squares walked one way round (forward) or back, with corners that split it
    into sides, and places off the ring linked to nothing (``isolated``).

    Places are integers: ``0 .. size-1`` the ring's squares in the order of forward movement,
    then ``size, size+1, ...`` the isolated places. On the Monopoly board the squares run
    clockwise from GO (0), the corners are GO, Jail (Just Visiting), Free Parking and Go To
    Jail (0, 10, 20, 30), and the isolated place is the Jail cell (40), where a prisoner shares
    no square and no side with anyone.

    - ``distance``: squares between two ring squares, the shorter way round.
    - ``path``: the squares walked the shorter way round (forward on a tie), both ends included.
    - ``in_sight``: both lie on a common side (a corner lies on the two sides it joins).
    - An isolated place has no neighbours, no distance, no path and no sight, not even to itself.
    """

    squares: tuple[str, ...]  # names of the ring's squares, in the order of forward movement
    corners: tuple[int, ...]  # the squares that begin a side, in order
    isolated: tuple[str, ...] = ()  # names of the places off the ring
    _sides: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    _located: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.squares)
        if n < 2 or not self.corners or list(self.corners) != sorted(set(self.corners)) or \
                not 0 <= self.corners[0] or self.corners[-1] >= n:
            raise ValueError("a ring needs two squares or more and corners in order on it")
        located = []
        for square in range(n):
            side = max((k for k, c in enumerate(self.corners) if c <= square),
                       default=len(self.corners) - 1)
            located.append((side, (square - self.corners[side]) % n))
        sides = [frozenset({side, (side - 1) % len(self.corners)}) if offset == 0
                 else frozenset({side}) for side, offset in located]
        object.__setattr__(self, "_located", tuple(located))
        object.__setattr__(self, "_sides", tuple(sides) + (frozenset(),) * len(self.isolated))

    # -- the protocol -------------------------------------------------------------------------
    @property
    def places(self) -> tuple[int, ...]:
        return tuple(range(len(self.squares) + len(self.isolated)))

    def name(self, place: int) -> str:
        n = len(self.squares)
        return self.squares[place] if place < n else self.isolated[place - n]

    def neighbours(self, place: int) -> tuple[int, ...]:
        """The square ahead, then the square behind (none for an isolated place)."""
        if not self.on_ring(place):
            return ()
        return self.step(place, 1), self.step(place, -1)

    def distance(self, a: int, b: int) -> int | None:
        if not (self.on_ring(a) and self.on_ring(b)):
            return None
        return self.short_way(a, b)

    def path(self, a: int, b: int) -> tuple[int, ...] | None:
        if not (self.on_ring(a) and self.on_ring(b)):
            return None
        steps = self.signed(a, b)
        way = 1 if steps >= 0 else -1
        return tuple(self.step(a, way * k) for k in range(abs(steps) + 1))

    def in_sight(self, a: int, b: int) -> bool:
        return bool(self._sides[a] & self._sides[b])

    # -- ring arithmetic ----------------------------------------------------------------------
    @property
    def size(self) -> int:
        """How many squares the ring has (isolated places not counted)."""
        return len(self.squares)

    @property
    def side_length(self) -> int:
        """Squares from one corner to the next on a ring whose sides are all alike."""
        n, k = len(self.squares), len(self.corners)
        lengths = {(self.corners[(i + 1) % k] - self.corners[i]) % n or n for i in range(k)}
        if len(lengths) != 1:
            raise ValueError("the sides of this ring differ in length")
        return lengths.pop()

    @property
    def off_ring(self) -> tuple[int, ...]:
        """The isolated places (on the Monopoly board, the Jail cell)."""
        return self.places[len(self.squares):]

    def on_ring(self, place: int) -> bool:
        return 0 <= place < len(self.squares)

    def is_corner(self, square: int) -> bool:
        return self._located[square][1] == 0

    def locate(self, square: int) -> tuple[int, int]:
        """(side, offset): the side a square belongs to going forward (a corner begins its
        side) and how many squares past that side's corner it lies."""
        return self._located[square]

    def sides(self, place: int) -> frozenset[int]:
        """The sides a place lies on: corners lie on both sides they join; isolated on none."""
        return self._sides[place]

    def step(self, square: int, steps: int) -> int:
        """The square ``steps`` squares ahead (behind, when negative)."""
        return (square + steps) % len(self.squares)

    def forward(self, a: int, b: int) -> int:
        """Squares walked forward from ``a`` to ``b`` (0 when they are the same square)."""
        return (b - a) % len(self.squares)

    def short_way(self, a: int, b: int) -> int:
        """Squares between two ring squares counting the shorter way round."""
        n = len(self.squares)
        d = abs(a - b) % n
        return min(d, n - d)

    def signed(self, a: int, b: int) -> int:
        """Signed steps from ``a`` to ``b`` the shorter way round, forward on a tie."""
        n = len(self.squares)
        fwd = (b - a) % n
        return fwd if fwd <= n - fwd else fwd - n

    def ahead(self, square: int) -> tuple[int, ...]:
        """The squares met walking forward from ``square`` once round, ending on it."""
        return tuple(self.step(square, k) for k in range(1, len(self.squares) + 1))


def ring_from_board(data: Mapping[str, Any]) -> Ring:
    """The ring of a board file (``assets/board/NAME.json``): its ``squares`` in order,
    ``corners`` (the squares that begin a side) and ``isolated`` places (names)."""
    return Ring(squares=tuple(s["name"] for s in data["squares"]),
                corners=tuple(data["corners"]), isolated=tuple(data.get("isolated", ())))


def load_ring(name: str = "standard") -> Ring:
    """The ring of ``assets/board/NAME.json``: one object per board, the one the rules'
    ``Board`` holds."""
    return _load_ring(name)


@cache
def _load_ring(name: str) -> Ring:
    return ring_from_board(json.loads(asset("board", f"{name}.json").read_text()))
