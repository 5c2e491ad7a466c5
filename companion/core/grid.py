"""A board of squares on a grid: a dungeon of squares, piecepack tiles of 2x2 spaces.

Squares are ``(x, y)`` cells; only the cells listed exist (a dungeon need not be a rectangle).
What stands in the way is data, not rules:

- ``walls``: pairs of neighbouring cells with a wall (or a closed edge door) between them;
- ``solid``: cells that exist but cannot be entered (obstacles); they do not block sight;
- ``opaque``: cells that block sight (a closed square door; make it ``solid`` too to bar it).

A step goes to one of the four orthogonal neighbours, or with ``diagonal`` to one of the eight
around (a chess king's step). A diagonal step squeezes past a corner unless a wall closes both
ways round it (a wall running straight across the corner); cells missing beside it do not stop
it (two tiles touching only at a corner still connect).

- ``distance``: the fewest steps from one cell to another (None when it cannot be reached).
- ``path``: a shortest way (breadth first; orthogonal steps tried first).
- ``ray``/``straight_path``: the cells along one straight line (a queen's move).
- ``in_sight``: the straight segment between the two cells' centres crosses no wall, no
  missing cell and no opaque cell (the target itself may be opaque: a door is seen). A segment
  through a grid corner passes unless a wall closes both ways round it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.core.topology import shortest_path

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAGONAL: tuple[Cell, ...] = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def wall(a: Cell, b: Cell) -> frozenset[Cell]:
    """The wall between two neighbouring cells (either order), as ``Grid.walls`` holds it."""
    return frozenset((a, b))


@dataclass(frozen=True)
class Grid:
    cells: frozenset[Cell]
    walls: frozenset[frozenset[Cell]] = frozenset()
    solid: frozenset[Cell] = frozenset()
    opaque: frozenset[Cell] = frozenset()
    diagonal: bool = True
    _order: tuple[Cell, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_order", tuple(sorted(self.cells, key=lambda c: (c[1], c[0]))))

    @classmethod
    def rectangle(cls, width: int, height: int, *, walls: Iterable[tuple[Cell, Cell]] = (),
                  diagonal: bool = True) -> Grid:
        """A ``width`` x ``height`` grid of cells ``(0, 0) .. (width-1, height-1)``."""
        return cls(frozenset((x, y) for x in range(width) for y in range(height)),
                   frozenset(wall(a, b) for a, b in walls), diagonal=diagonal)

    @classmethod
    def from_rows(cls, rows: Sequence[str], *, walls: Iterable[tuple[Cell, Cell]] = (),
                  diagonal: bool = True) -> Grid:
        """A grid drawn as text, row ``y`` from the top: ``.`` a square, ``o`` an obstacle
        (solid), ``#`` a wall square (solid and opaque), a space no square."""
        cells = {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != " "}
        return cls(frozenset(cells), frozenset(wall(a, b) for a, b in walls),
                   solid=frozenset(c for c, ch in cells.items() if ch in "o#"),
                   opaque=frozenset(c for c, ch in cells.items() if ch == "#"),
                   diagonal=diagonal)

    # -- the protocol -------------------------------------------------------------------------
    @property
    def places(self) -> tuple[Cell, ...]:
        """Every cell, row by row."""
        return self._order

    def name(self, place: Cell) -> str:
        return f"{place[0]},{place[1]}"

    def neighbours(self, place: Cell) -> tuple[Cell, ...]:
        """The cells one step away (orthogonal ones first, then diagonal ones)."""
        return tuple(n for n in (_add(place, d) for d in self.directions)
                     if self.step_open(place, n))

    def distance(self, a: Cell, b: Cell) -> int | None:
        way = self.path(a, b)
        return None if way is None else len(way) - 1

    def path(self, a: Cell, b: Cell) -> tuple[Cell, ...] | None:
        if a not in self.cells or b not in self.cells:
            return None
        return shortest_path(self, a, b)

    def in_sight(self, a: Cell, b: Cell) -> bool:
        if a not in self.cells or b not in self.cells:
            return False
        (ax, ay), (bx, by) = a, b
        sx, sy = _sign(bx - ax), _sign(by - ay)
        nx, ny = abs(bx - ax), abs(by - ay)
        here, ix, iy = a, 0, 0
        while ix < nx or iy < ny:
            # which grid line the centre-to-centre segment crosses next: compare the fractions
            # (ix + 1/2) / nx and (iy + 1/2) / ny of the way along it
            across, down = (1 + 2 * ix) * ny, (1 + 2 * iy) * nx
            if across == down:  # through a grid corner
                nxt = (here[0] + sx, here[1] + sy)
                ix, iy = ix + 1, iy + 1
                if not self._corner_open(here, nxt):
                    return False
            else:
                nxt = (here[0] + sx, here[1]) if across < down else (here[0], here[1] + sy)
                ix, iy = (ix + 1, iy) if across < down else (ix, iy + 1)
                if wall(here, nxt) in self.walls:
                    return False
            if nxt not in self.cells or (nxt in self.opaque and nxt != b):
                return False
            here = nxt
        return True

    # -- movement -----------------------------------------------------------------------------
    @property
    def directions(self) -> tuple[Cell, ...]:
        return ORTHOGONAL + DIAGONAL if self.diagonal else ORTHOGONAL

    def step_open(self, a: Cell, b: Cell) -> bool:
        """Can a piece step from ``a`` to the neighbouring cell ``b``?"""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if b not in self.cells or b in self.solid or max(abs(dx), abs(dy)) != 1:
            return False
        if dx and dy:
            return self.diagonal and self._corner_open(a, b)
        return wall(a, b) not in self.walls

    def _corner_open(self, a: Cell, b: Cell) -> bool:
        """A diagonal move or sight line from ``a`` to ``b`` past their shared corner."""
        if wall(a, b) in self.walls:
            return False
        via = ((b[0], a[1]), (a[0], b[1]))
        return any(wall(a, c) not in self.walls and wall(c, b) not in self.walls for c in via)

    def ray(self, start: Cell, direction: Cell, *, stop_on: Iterable[Cell] = (),
            stop_before: Iterable[Cell] = ()) -> tuple[Cell, ...]:
        """The cells reached going straight from ``start`` in ``direction`` (a unit step such
        as ``(1, -1)``), nearest first, until a step is not open; a cell in ``stop_on`` ends the
        line on it (a coin), one in ``stop_before`` ends it before (another piece)."""
        on, before = frozenset(stop_on), frozenset(stop_before)
        out: list[Cell] = []
        here = start
        while True:
            nxt = _add(here, direction)
            if nxt in before or not self.step_open(here, nxt):
                return tuple(out)
            out.append(nxt)
            if nxt in on:
                return tuple(out)
            here = nxt

    def straight_path(self, a: Cell, b: Cell) -> tuple[Cell, ...] | None:
        """The cells from ``a`` to ``b`` along one row, column or (with ``diagonal``) diagonal,
        both ends included; None when they are not in line or a step between is not open."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if a == b:
            return (a,) if a in self.cells else None
        if dx and dy and (abs(dx) != abs(dy) or not self.diagonal):
            return None
        line = self.ray(a, (_sign(dx), _sign(dy)), stop_on=(b,))
        return (a, *line) if line and line[-1] == b else None


def _add(a: Cell, d: Cell) -> Cell:
    return a[0] + d[0], a[1] + d[1]


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)
