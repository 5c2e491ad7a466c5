"""The dungeon as the state makes it now: which squares can be entered and which steps are open
given the doors' states, heights and levels, lines of flight, the AG target."""

from __future__ import annotations

from functools import lru_cache

from companion.core.grid import Grid, wall
from companion.games.dungeonbowl.dungeon import Dungeon, Square, level
from companion.games.dungeonbowl.state import BowlState, Model, dungeon_of

SHUT = ("closed", "locked")


def grid(state: BowlState) -> Grid:
    """The grid with the doors as they stand: a shut door square is a wall square, a shut edge
    door a wall (DB.8)."""
    return _grid(state.options.dungeon, state.doors)


def cached_grid(name: str, doors: tuple[tuple[str, str], ...]) -> Grid:
    """The grid of dungeon ``name`` with the doors in the states given."""
    return _grid(name, doors)


@lru_cache(maxsize=64)
def _grid(name: str, doors: tuple[tuple[str, str], ...]) -> Grid:
    d = dungeon_of(name)
    base = d.grid()
    shut = {door_id for door_id, s in doors if s in SHUT}
    squares = {x.at for x in d.doors if x.id in shut and x.at is not None}
    edges = {x.edge for x in d.doors if x.id in shut and x.edge is not None}
    return Grid(base.cells, base.walls | frozenset(e for e in edges if e is not None),
                solid=base.solid | frozenset(s for s in squares if s is not None),
                opaque=base.opaque | frozenset(s for s in squares if s is not None))


def height(d: Dungeon, s: Square) -> int:
    return d.cells[s].height


def same_tier(d: Dungeon, a: Square, b: Square) -> bool:
    """Players on these squares may interact (block, hand off): no more than one step apart;
    the first step counts as the surface it leaves (DB.29, ruling B-12)."""
    return abs(height(d, a) - height(d, b)) <= 1


def levels_between(d: Dungeon, high: Square, low: Square) -> int:
    """Elevation levels from ``high`` down to ``low`` (at least one for a drop of two steps or
    more)."""
    return max(1, level(height(d, high)) - level(height(d, low)))


def adjacent(a: Square, b: Square) -> bool:
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def line(a: Square, b: Square) -> tuple[Square, ...]:
    """The squares a thrown ball or a leap passes over from ``a`` to ``b``, both ends
    included (the squares the straight line between their centres crosses, ruling B-7)."""
    (ax, ay), (bx, by) = a, b
    n = max(abs(bx - ax), abs(by - ay))
    out: list[Square] = []
    for i in range(n + 1):
        # round half away from zero, symmetric either way
        x = ax + _div(i * (bx - ax), n)
        y = ay + _div(i * (by - ay), n)
        if not out or out[-1] != (x, y):
            out.append((x, y))
    return tuple(out)


def _div(num: int, den: int) -> int:
    if den == 0:
        return 0
    q, r = divmod(abs(num), den)
    if 2 * r >= den:
        q += 1
    return q if num >= 0 else -q


def agility_target(ag: int) -> int:
    """The base game's AG roll: 7 - AG, never easier than 2+ nor harder than 6+ (ruling B-1:
    the one base-rule table the referee keeps, to state a target)."""
    return min(6, max(2, 7 - ag))


def strength(state: BowlState, m: Model) -> int:
    """ST with the rune's +1 on a square of the model's own college (DB.20)."""
    return m.st + (1 if on_own_rune(state, m) else 0)


def on_own_rune(state: BowlState, m: Model) -> bool:
    if m.at is None or not m.college:
        return False
    return state.dungeon.cells[m.at].rune == m.college


def stands_firm(state: BowlState, m: Model) -> bool:
    return m.has("stand_firm") or on_own_rune(state, m)


def neighbours8(d: Dungeon, s: Square) -> tuple[Square, ...]:
    return tuple((s[0] + dx, s[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                 if (dx or dy) and (s[0] + dx, s[1] + dy) in d.cells)


def open_step(state: BowlState, a: Square, b: Square) -> bool:
    return grid(state).step_open(a, b)


def edge_between(a: Square, b: Square) -> frozenset[Square]:
    return wall(a, b)
