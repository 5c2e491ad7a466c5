"""The dungeon: its squares and features, read from a plain-text map or JSON (docs/dungeonbowl.md).

A map is a grid of characters (one a square, row ``y`` from the top, column ``x`` from the left)
and a legend; an optional ``heights`` grid gives each square's height in steps; ``features``
lines add what lives on the edges between squares (walls, edge doors, ladders) and door
details. Every error names the line and column it found.

The dungeon is the fixed part of the table: the door states, traps revealed, balls and models
are the game's state (``state.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.grid import Grid, wall

Square = tuple[int, int]
Edge = frozenset[Square]

ASSETS = Path(__file__).resolve().parents[3] / "assets" / "dungeonbowl"

TERRAINS = ("floor", "wall", "chasm", "obstacle", "lava", "water", "door", "gate")

# The built-in legend: character -> (terrain, attributes)
BUILT_IN: dict[str, tuple[str, dict[str, str]]] = {
    ".": ("floor", {}), "#": ("wall", {}), "X": ("chasm", {}), "O": ("obstacle", {}),
    "%": ("lava", {}), "~": ("water", {}), "D": ("door", {}), "G": ("gate", {}),
    "T": ("floor", {"trap": ""}), "C": ("floor", {"chest": ""}), "B": ("floor", {"ball": ""}),
    "S": ("floor", {"step": ""}),
    "1": ("floor", {"endzone": "1"}), "2": ("floor", {"endzone": "2"}),
    "3": ("floor", {"endzone": "3"}), "4": ("floor", {"endzone": "4"}),
}
ATTRIBUTES = ("endzone", "height", "rune", "circle", "portal", "teleporter", "trap", "chest",
              "ball", "step")
DOOR_STATES = ("closed", "open", "locked", "smashed")
SECTIONS = ("grid", "heights", "legend", "features")


class MapError(ValueError):
    """A map that cannot be used: the message names the line and column (1-based)."""

    def __init__(self, line: int, column: int, problem: str) -> None:
        where = f"line {line}, column {column}" if column else f"line {line}"
        super().__init__(f"{where}: {problem}")
        self.line = line
        self.column = column
        self.problem = problem


@dataclass(frozen=True)
class Cell:
    """One square of the dungeon as drawn."""

    terrain: str = "floor"
    height: int = 0
    endzone: int = 0  # the team (1-4) whose home end zone this is; 0 none
    rune: str = ""  # the college of magic of the rune inscribed here
    circle: str = ""  # the magical circle the rune belongs to
    portal: str = ""  # the secret passage this portal square opens into
    teleporter: int = 0
    trap: bool = False  # a trap token lies here (face down)
    chest: bool = False
    ball: bool = False  # a ball lies loose here at the start
    step: bool = False  # drawn as a step (heights decide the movement)


@dataclass(frozen=True)
class Door:
    """A door: on a square (``at``) or between two squares (``edge``); ``large`` a gate big
    guys fit through, ``iron`` a reinforced iron gate (ST 5); ``state`` its state at the start."""

    id: str
    at: Square | None = None
    edge: Edge | None = None
    large: bool = False
    iron: bool = False
    state: str = "closed"

    @property
    def strength(self) -> int:
        return 5 if self.iron else 4

    def squares(self) -> tuple[Square, ...]:
        if self.at is not None:
            return (self.at,)
        assert self.edge is not None
        return tuple(sorted(self.edge))


@dataclass(frozen=True)
class Ladder:
    id: str
    edge: Edge
    rungs: int


@dataclass(frozen=True)
class Dungeon:
    name: str
    width: int
    height: int
    cells: dict[Square, Cell]
    walls: frozenset[Edge] = frozenset()
    doors: tuple[Door, ...] = ()
    ladders: tuple[Ladder, ...] = ()
    source: str = ""  # the bundled name or file it was read from
    holes: tuple[tuple[Square, Square], ...] = ()  # a platform's trap square -> the square below
    _grid: Grid | None = field(default=None, repr=False, compare=False)

    # -- what is where ------------------------------------------------------------------------
    @property
    def teams(self) -> int:
        """How many end zones (teams) the dungeon has."""
        return max((c.endzone for c in self.cells.values()), default=0)

    def endzone(self, team: int) -> tuple[Square, ...]:
        """The squares of team ``team``'s (1-based) home end zone."""
        return tuple(sorted((s for s, c in self.cells.items() if c.endzone == team),
                            key=lambda s: (s[1], s[0])))

    def squares_where(self, **match: Any) -> tuple[Square, ...]:
        return tuple(sorted((s for s, c in self.cells.items()
                             if all(getattr(c, k) == v for k, v in match.items())),
                            key=lambda s: (s[1], s[0])))

    @property
    def chests(self) -> tuple[Square, ...]:
        return self.squares_where(chest=True)

    @property
    def traps(self) -> tuple[Square, ...]:
        return self.squares_where(trap=True)

    def teleporters(self) -> dict[int, Square]:
        return {c.teleporter: s for s, c in self.cells.items() if c.teleporter}

    def portals(self) -> dict[str, tuple[Square, Square]]:
        found: dict[str, list[Square]] = {}
        for s, c in sorted(self.cells.items()):
            if c.portal:
                found.setdefault(c.portal, []).append(s)
        return {k: (v[0], v[1]) for k, v in found.items() if len(v) == 2}

    def circles(self) -> dict[str, tuple[Square, ...]]:
        found: dict[str, list[Square]] = {}
        for s, c in sorted(self.cells.items()):
            if c.rune:
                found.setdefault(c.circle or f"{c.rune}-circle", []).append(s)
        return {k: tuple(v) for k, v in found.items()}

    def circle_of(self, square: Square) -> str:
        c = self.cells[square]
        return c.circle or f"{c.rune}-circle"

    def door(self, door_id: str) -> Door | None:
        return next((d for d in self.doors if d.id.lower() == door_id.lower()), None)

    def door_at(self, square: Square) -> Door | None:
        return next((d for d in self.doors if d.at == square), None)

    def door_between(self, a: Square, b: Square) -> Door | None:
        return next((d for d in self.doors if d.edge == wall(a, b)), None)

    def ladder_between(self, a: Square, b: Square) -> Ladder | None:
        return next((ld for ld in self.ladders if ld.edge == wall(a, b)), None)

    def grid(self) -> Grid:
        """The squares as the core's grid: walls and wall squares block; obstacles are solid
        but see-through (DB.13); doors are handled by the state (open or closed)."""
        if self._grid is None:
            solid = frozenset(s for s, c in self.cells.items() if c.terrain in ("wall",
                                                                               "obstacle"))
            opaque = frozenset(s for s, c in self.cells.items() if c.terrain == "wall")
            object.__setattr__(self, "_grid", Grid(frozenset(self.cells), self.walls,
                                                   solid=solid, opaque=opaque))
        assert self._grid is not None
        return self._grid


def level(height: int) -> int:
    """The elevation level of a square ``height`` steps up (DB.36, ruling B-12): under two steps
    is the ground (0); 2-4 steps is level 1; each further four steps (or part) one more."""
    return 0 if height < 2 else (height + 3) // 4


# -- reading a map ---------------------------------------------------------------------------
def load(name_or_path: str) -> Dungeon:
    """A bundled dungeon by name (``assets/dungeonbowl/NAME.txt``) or a map file (``.txt`` or
    ``.json``); ValueError (``MapError``) saying what is wrong."""
    path = Path(name_or_path)
    if not path.suffix:
        path = ASSETS / f"{name_or_path}.txt"
        if not path.exists():
            known = ", ".join(bundled())
            raise ValueError(f"no bundled dungeon called {name_or_path!r} (bundled: {known}); "
                             "or give a map file ending .txt or .json")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read the map {name_or_path!r}: {exc.strerror}") from None
    source = path.stem if path.parent == ASSETS else str(name_or_path)
    if path.suffix == ".json":
        return parse_json(text, source)
    return parse_text(text, source)


def bundled() -> list[str]:
    return sorted(p.stem for p in ASSETS.glob("*.txt"))


def parse_text(text: str, source: str = "") -> Dungeon:
    """A map in the plain-text format (docs/dungeonbowl.md)."""
    name = source or "dungeon"
    section = ""
    grid: list[tuple[int, str]] = []
    heights: list[tuple[int, str]] = []
    legend: dict[str, tuple[str, dict[str, str]]] = dict(BUILT_IN)
    features: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if stripped.startswith(";"):
            continue
        if stripped.lower() in SECTIONS:
            section = stripped.lower()
            continue
        if section == "" and stripped.lower().startswith("name "):
            name = stripped[5:].strip()
            continue
        if section == "grid":
            grid.append((number, line.rstrip()))
        elif section == "heights":
            heights.append((number, line.rstrip()))
        elif not stripped:
            continue
        elif section == "legend":
            char, entry = _legend_line(number, line)
            legend[char] = entry
        elif section == "features":
            features.append((number, line))
        else:
            raise MapError(number, 1, f"{stripped.split()[0]!r} outside a section: a map has a "
                           "'name' line, then sections headed grid, heights, legend, features")
    while grid and not grid[-1][1].strip():
        grid.pop()
    while heights and not heights[-1][1].strip():
        heights.pop()
    if not grid:
        raise MapError(len(text.splitlines()) or 1, 0, "the map has no grid: write a line "
                       "'grid' and the rows of squares under it")
    return _build(name, source, grid, heights, legend, features)


def _legend_line(number: int, line: str) -> tuple[str, tuple[str, dict[str, str]]]:
    body = line.strip()
    column = line.index(body[0]) + 1
    char, eq, rest = body.partition("=")
    char = char.strip() if char.strip() else char
    if not eq or len(char) != 1 or char in " ;":
        raise MapError(number, column, "a legend line is 'C = TERRAIN [attribute=value ...]' "
                       "with one character C")
    words = rest.split()
    if not words:
        raise MapError(number, column, f"legend {char!r} names no terrain ({', '.join(TERRAINS)})")
    terrain = words[0].lower()
    if terrain not in TERRAINS:
        col = line.index(words[0]) + 1
        raise MapError(number, col, f"unknown terrain {words[0]!r}: use one of "
                       f"{', '.join(TERRAINS)}")
    attrs: dict[str, str] = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        if key not in ATTRIBUTES:
            raise MapError(number, line.index(word) + 1, f"unknown attribute {key!r}: use "
                           f"{', '.join(ATTRIBUTES)}")
        attrs[key] = value
    return char, (terrain, attrs)


def _build(name: str,  # noqa: C901  (one branch per feature line)
           source: str, grid: list[tuple[int, str]], heights: list[tuple[int, str]],
           legend: dict[str, tuple[str, dict[str, str]]],
           features: list[tuple[int, str]]) -> Dungeon:
    cells: dict[Square, Cell] = {}
    where: dict[Square, tuple[int, int]] = {}  # square -> (line, column) for messages
    for y, (number, row) in enumerate(grid):
        for x, ch in enumerate(row):
            if ch == " ":
                continue
            entry = legend.get(ch)
            if entry is None:
                raise MapError(number, x + 1, f"unknown map character {ch!r}: add it to the "
                               "legend ('C = TERRAIN ...') or use a built-in one")
            cells[(x, y)] = _cell(number, x + 1, entry)
            where[(x, y)] = (number, x + 1)
    for y, (number, row) in enumerate(heights):
        if y >= len(grid):
            raise MapError(number, 1, f"the heights grid has more rows than the grid "
                           f"({len(grid)})")
        for x, ch in enumerate(row):
            if ch == " " or ch == ".":
                continue
            if not ch.isdigit():
                raise MapError(number, x + 1, f"a height is a digit 0-9, not {ch!r}")
            if (x, y) not in cells:
                raise MapError(number, x + 1, "a height for a square the grid does not have")
            cells[(x, y)] = _replace(cells[(x, y)], height=int(ch))
    width = max((x for x, _ in cells), default=-1) + 1
    height = len(grid)
    walls: set[Edge] = set()
    doors: list[Door] = []
    ladders: list[Ladder] = []
    holes: list[tuple[Square, Square]] = []
    square_doors = [s for s in sorted(cells, key=lambda s: (s[1], s[0]))
                    if cells[s].terrain in ("door", "gate")]
    door_props: dict[Square, dict[str, Any]] = {s: {} for s in square_doors}
    edge_doors: list[tuple[Edge, dict[str, Any]]] = []
    for number, line in features:
        words = line.split()
        head = words[0].lower()
        col = line.index(words[0]) + 1
        if head == "wall":
            if len(words) != 2:
                raise MapError(number, col, "write 'wall X,Y-X,Y' (the two squares it divides)")
            walls.add(_edge(number, line, words[1], cells))
        elif head == "door":
            if len(words) < 2:
                raise MapError(number, col, "write 'door X,Y [large] [iron] [STATE]' or "
                               "'door X,Y-X,Y ...' for a door between two squares")
            props = _door_props(number, line, words[2:])
            if "-" in words[1]:
                edge_doors.append((_edge(number, line, words[1], cells), props))
            else:
                at = _square(number, line, words[1], cells)
                if at not in door_props:
                    raise MapError(number, line.index(words[1]) + 1,
                                   f"square {words[1]} is not a door square (D or G) in the grid")
                door_props[at] = props
        elif head == "ladder":
            if len(words) != 3 or not words[2].startswith("rungs="):
                raise MapError(number, col, "write 'ladder X,Y-X,Y rungs=N'")
            edge = _edge(number, line, words[1], cells)
            rungs = _number(number, line, words[2], words[2][6:])
            if rungs < 1:
                raise MapError(number, line.index(words[2]) + 1, "a ladder has 1 rung or more")
            a, b = sorted(edge)
            if cells[a].height == cells[b].height:
                raise MapError(number, col, "a ladder joins squares of different heights")
            ladders.append(Ladder(f"L{len(ladders) + 1}", edge, rungs))
        elif head == "hole":
            if len(words) != 3:
                raise MapError(number, col, "write 'hole X,Y X,Y' (a trap square on a platform "
                               "and the lower square it drops to)")
            top = _square(number, line, words[1], cells)
            low = _square(number, line, words[2], cells)
            if cells[top].height - cells[low].height < 2:
                raise MapError(number, line.index(words[2]) + 1, "a hole drops to a square at "
                               "least two steps lower")
            if cells[low].terrain in ("wall", "obstacle"):
                raise MapError(number, line.index(words[2]) + 1, f"a hole drops to a square a "
                               f"model can land on, not a {cells[low].terrain}")
            if any(t == top for t, _ in holes):
                raise MapError(number, col, f"{words[1]} already has a hole line")
            holes.append((top, low))
        elif head == "teleporter":
            if len(words) != 3:
                raise MapError(number, col, "write 'teleporter N X,Y'")
            n = _number(number, line, words[1], words[1])
            at = _square(number, line, words[2], cells)
            cells[at] = _replace(cells[at], teleporter=n)
        else:
            raise MapError(number, col, f"unknown feature {words[0]!r}: use wall, door, ladder, "
                           "hole or teleporter")
    for i, s in enumerate(square_doors, start=1):
        props = door_props[s]
        doors.append(Door(f"D{i}", at=s, large=cells[s].terrain == "gate" or
                          bool(props.get("large")), iron=bool(props.get("iron")),
                          state=props.get("state", "closed")))
    for edge, props in edge_doors:
        doors.append(Door(f"D{len(doors) + 1}", edge=edge, large=bool(props["large"]),
                          iron=bool(props["iron"]), state=props["state"]))
    dungeon = Dungeon(name, width, height, cells, frozenset(walls), tuple(doors),
                      tuple(ladders), source, tuple(holes))
    _check(dungeon, where, grid)
    return dungeon


def _cell(number: int, column: int, entry: tuple[str, dict[str, str]]) -> Cell:
    terrain, attrs = entry
    values: dict[str, Any] = {"terrain": terrain}
    for key, value in attrs.items():
        if key in ("trap", "chest", "ball", "step"):
            values[key] = True
        elif key in ("endzone", "height", "teleporter"):
            if not value.isdigit():
                raise MapError(number, column, f"{key} takes a whole number, not {value!r}")
            values[key] = int(value)
        else:
            if not value:
                raise MapError(number, column, f"{key} needs a value ({key}=NAME)")
            values[key] = value.lower() if key == "rune" else value
    if values.get("endzone", 0) > 4:
        raise MapError(number, column, "end zones are numbered 1 to 4")
    return Cell(**values)


def _replace(cell: Cell, **changes: Any) -> Cell:
    values = {k: getattr(cell, k) for k in Cell.__dataclass_fields__}
    values.update(changes)
    return Cell(**values)


def _number(number: int, line: str, word: str, text: str) -> int:
    if not text.isdigit():
        raise MapError(number, line.index(word) + 1, f"expected a whole number, not {text!r}")
    return int(text)


def _square(number: int, line: str, word: str, cells: dict[Square, Cell]) -> Square:
    col = line.index(word) + 1
    x, comma, y = word.partition(",")
    if not comma or not x.isdigit() or not y.isdigit():
        raise MapError(number, col, f"a square is X,Y (column,row from 0), not {word!r}")
    at = (int(x), int(y))
    if at not in cells:
        raise MapError(number, col, f"square {word} is not on the map")
    return at


def _edge(number: int, line: str, word: str, cells: dict[Square, Cell]) -> Edge:
    first, dash, second = word.partition("-")
    if not dash:
        raise MapError(number, line.index(word) + 1, f"an edge is X,Y-X,Y, not {word!r}")
    a = _square(number, line, first, cells)
    b = _square(number, line, second, cells)
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise MapError(number, line.index(word) + 1, f"{word}: an edge lies between two squares "
                       "side by side")
    return wall(a, b)


def _door_props(number: int, line: str, words: list[str]) -> dict[str, Any]:
    props: dict[str, Any] = {"large": False, "iron": False, "state": "closed"}
    for word in words:
        low = word.lower()
        if low in ("large", "iron"):
            props[low] = True
        elif low in DOOR_STATES:
            props["state"] = low
        else:
            raise MapError(number, line.index(word) + 1, f"unknown door word {word!r}: use "
                           f"large, iron or a state ({', '.join(DOOR_STATES)})")
    return props


def _check(dungeon: Dungeon, where: dict[Square, tuple[int, int]],
           grid: list[tuple[int, str]]) -> None:
    last = grid[-1][0]
    teams = sorted({c.endzone for c in dungeon.cells.values() if c.endzone})
    if len(teams) < 2 or teams != list(range(1, len(teams) + 1)):
        raise MapError(last, 0, f"the map needs end zones for teams 1, 2 (and 3, 4) in order; "
                       f"it has {teams or 'none'}")
    for s, c in dungeon.cells.items():
        if c.endzone and c.terrain != "floor":
            line, col = where[s]
            raise MapError(line, col, "an end zone square must be floor")
    for portal, squares in _group(dungeon, "portal").items():
        if len(squares) != 2:
            line, col = where[squares[0]]
            raise MapError(line, col, f"portal {portal} has {len(squares)} square(s): a secret "
                           "passage joins exactly two portal squares")
    numbers = sorted(dungeon.teleporters())
    all_tele = [c.teleporter for c in dungeon.cells.values() if c.teleporter]
    if len(all_tele) != len(set(all_tele)) or numbers != list(range(1, len(numbers) + 1)):
        raise MapError(last, 0, f"teleporters must be numbered 1, 2, 3 ... once each; the map "
                       f"has {sorted(all_tele)}")
    if len(numbers) > 20:
        raise MapError(last, 0, "at most 20 teleporters")
    if not dungeon.chests and not dungeon.squares_where(ball=True):
        raise MapError(last, 0, "the map has no chest (C) and no ball (B): the ball must be "
                       "somewhere")
    for s in dungeon.squares_where(ball=True) + dungeon.chests + dungeon.traps:
        if dungeon.cells[s].terrain != "floor":
            line, col = where[s]
            raise MapError(line, col, "a chest, trap or ball lies on a floor square")


def _group(dungeon: Dungeon, attr: str) -> dict[str, list[Square]]:
    found: dict[str, list[Square]] = {}
    for s in sorted(dungeon.cells, key=lambda s: (s[1], s[0])):
        value = getattr(dungeon.cells[s], attr)
        if value:
            found.setdefault(str(value), []).append(s)
    return found


# -- JSON ------------------------------------------------------------------------------------
def parse_json(text: str, source: str = "") -> Dungeon:
    """A map as JSON: ``{"name", "grid": [rows], "heights": [rows], "legend": {"C": "TERRAIN
    attr=value ..."}, "features": ["door 3,4-3,5 iron", ...]}``; the same words as the text
    format, so errors name the line of the equivalent text map (grid rows from line 1)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(exc.lineno, exc.colno, f"not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("grid"), list):
        raise MapError(1, 1, "a JSON map is an object with a \"grid\" list of rows")
    lines = [f"name {data.get('name', source or 'dungeon')}"]
    if data.get("legend"):
        lines.append("legend")
        lines += [f"{k} = {v}" for k, v in dict(data["legend"]).items()]
    lines.append("grid")
    lines += [str(r) for r in data["grid"]]
    if data.get("heights"):
        lines.append("heights")
        lines += [str(r) for r in data["heights"]]
    if data.get("features"):
        lines.append("features")
        lines += [str(f) for f in data["features"]]
    return parse_text("\n".join(lines), source)


def to_json(dungeon: Dungeon) -> dict[str, Any]:
    """The dungeon as JSON a map file could hold (the same words as the text format)."""
    legend: dict[str, str] = {}
    chars: dict[Cell, str] = {}
    spare = iter("abcdefghijklmnopqrstuvwxyzEFHIJKLMNPQRUVWYZ")
    built = {_cell(0, 0, v): k for k, v in BUILT_IN.items()}
    rows = []
    for y in range(dungeon.height):
        row = ""
        for x in range(dungeon.width):
            c = dungeon.cells.get((x, y))
            if c is None:
                row += " "
                continue
            plain = _replace(c, height=0)
            if plain in built:
                row += built[plain]
                continue
            if plain not in chars:
                ch = next(spare)
                chars[plain] = ch
                attrs = [f"{k}={getattr(plain, k)}" if not isinstance(getattr(plain, k), bool)
                         else k for k in ATTRIBUTES if k != "height" and getattr(plain, k)]
                legend[ch] = " ".join([plain.terrain, *attrs])
            row += chars[plain]
        rows.append(row.rstrip())
    heights = ["".join(str(dungeon.cells[(x, y)].height) if (x, y) in dungeon.cells else " "
                       for x in range(dungeon.width)).rstrip() for y in range(dungeon.height)]
    features = [f"wall {_xy(a)}-{_xy(b)}" for a, b in (sorted(w) for w in sorted(
        dungeon.walls, key=sorted))]
    for d in dungeon.doors:
        where = _xy(d.at) if d.at else "-".join(_xy(s) for s in sorted(d.edge or ()))
        words = [w for w, on in (("large", d.large and (d.at is None or dungeon.cells[d.at].terrain != "gate")),
                                          ("iron", d.iron)) if on]
        features.append(" ".join(["door", where, *words, d.state]))
    features += [f"ladder {'-'.join(_xy(s) for s in sorted(ld.edge))} rungs={ld.rungs}"
                 for ld in dungeon.ladders]
    features += [f"hole {_xy(top)} {_xy(low)}" for top, low in dungeon.holes]
    out: dict[str, Any] = {"name": dungeon.name, "grid": rows}
    if any(c.height for c in dungeon.cells.values()):
        out["heights"] = heights
    if legend:
        out["legend"] = legend
    if features:
        out["features"] = features
    return out


def _xy(s: Square | None) -> str:
    assert s is not None
    return f"{s[0]},{s[1]}"
