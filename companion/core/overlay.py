"""A ring with extra places laid over it: each sits in the gap between two neighbouring
squares and is a square of its own there (Dungeonopoly's Genesis demiplanes).

The overlay is itself a ring: walking forward from square ``g`` reaches the place in gap ``g``
(``Gap(g)``) before square ``g + 1``, so it costs a step and adds one to every distance that
runs past it. The base ring's isolated places (the Jail cell) stay isolated. A gap with no
place in this overlay is not one of its places: no distance, no path, no sight.

- ``distance``/``path``/``signed``: as on the base ring, counting the extra places.
- ``in_sight``: a common side of the board; the place in a gap lies on the side its two
  neighbours share (the gap after a corner lies on the side that corner begins).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.core.topology import Ring


@dataclass(frozen=True, slots=True)
class Gap:
    """The place in the gap after ring square ``after`` (between it and the next square)."""

    after: int


RingPlace = int | Gap


class RingOverlay:
    """``base`` with a place in each gap listed in ``gaps`` (the squares they follow)."""

    def __init__(self, base: Ring, gaps: Iterable[int]) -> None:
        self.base = base
        self.gaps = frozenset(gaps)
        order: list[RingPlace] = []
        for square in range(base.size):
            order.append(square)
            if square in self.gaps:
                order.append(Gap(square))
        self.order: tuple[RingPlace, ...] = tuple(order)  # the ring walked forward from 0
        self._at = {place: k for k, place in enumerate(order)}

    # -- the protocol -------------------------------------------------------------------------
    @property
    def places(self) -> tuple[RingPlace, ...]:
        return self.order + self.base.off_ring

    def name(self, place: RingPlace) -> str:
        if isinstance(place, Gap):
            nxt = self.base.step(place.after, 1)
            return f"between {self.base.name(place.after)} and {self.base.name(nxt)}"
        return self.base.name(place)

    def neighbours(self, place: RingPlace) -> tuple[RingPlace, ...]:
        """The place ahead, then the place behind (none off the ring)."""
        if place not in self._at:
            return ()
        return self.step(place, 1), self.step(place, -1)

    def distance(self, a: RingPlace, b: RingPlace) -> int | None:
        if a not in self._at or b not in self._at:
            return None
        n = len(self.order)
        d = abs(self._at[a] - self._at[b])
        return min(d, n - d)

    def path(self, a: RingPlace, b: RingPlace) -> tuple[RingPlace, ...] | None:
        if a not in self._at or b not in self._at:
            return None
        steps = self.signed(a, b)
        way = 1 if steps >= 0 else -1
        return tuple(self.step(a, way * k) for k in range(abs(steps) + 1))

    def in_sight(self, a: RingPlace, b: RingPlace) -> bool:
        return bool(self.sides(a) & self.sides(b))

    # -- ring arithmetic ----------------------------------------------------------------------
    def contains(self, place: RingPlace) -> bool:
        """Is ``place`` on this overlay's ring (a square, or a gap holding a place)?"""
        return place in self._at

    def sides(self, place: RingPlace) -> frozenset[int]:
        if isinstance(place, Gap):
            if place not in self._at:
                return frozenset()
            return self.base.sides(place.after) & self.base.sides(self.base.step(place.after, 1))
        return self.base.sides(place)

    def step(self, place: RingPlace, steps: int) -> RingPlace:
        """The place ``steps`` places ahead of ``place`` on the ring (behind when negative)."""
        return self.order[(self._at[place] + steps) % len(self.order)]

    def signed(self, a: RingPlace, b: RingPlace) -> int:
        """Signed steps from ``a`` to ``b`` the shorter way round, forward on a tie."""
        n = len(self.order)
        fwd = (self._at[b] - self._at[a]) % n
        return fwd if fwd <= n - fwd else fwd - n
