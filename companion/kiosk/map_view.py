"""A square-grid map as a game hands it to the kiosk: cells, walls, pieces and the squares a
decision can pick.

Games played on a grid rather than a ring of places (a dungeon of tiles, a sports
pitch) describe what is on the table with these plain values from their
presenter's ``map_view(state)``; the kiosk draws them (``views/grid_map.py``) and, when the
decision at hand is a choice of square, lets the buttons move a cursor between the
``targets`` instead of stepping through a long menu. Nothing here knows a game: colours are
theme names or ``#rrggbb``, words are the game's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.core.actions import Action

Square = tuple[int, int]
"""A cell by column and row, (0, 0) at the top left as the map is drawn."""


@dataclass(frozen=True)
class MapCell:
    """One square that exists on the map (squares not listed are off the table).

    ``fill`` is the floor's colour; ``text`` a short label drawn in the middle (a coin's value,
    a platform's height); ``marks`` are one- or two-letter badges in the corners (a revealed
    suit, a rune, a trap); ``edge`` an outline colour ("" for none: a tile's border, an end
    zone)."""

    square: Square
    fill: str
    text: str = ""
    marks: tuple[str, ...] = ()
    edge: str = ""


@dataclass(frozen=True)
class MapWall:
    """A wall, door or other edge feature on one side ("n", "e", "s" or "w") of a square;
    ``kind`` is drawn by ``colour`` and, for doors, ``label`` ("open", "locked"...)."""

    square: Square
    side: str
    colour: str
    label: str = ""


@dataclass(frozen=True)
class MapPiece:
    """A piece standing on a square: a pawn in its player's ``colour``, with a short ``label``
    (an initial, a stack count); ``shape`` is "pawn", "ball" or "token". ``short`` is a shorter
    label (a letter or two) drawn where ``label`` does not fit the square."""

    square: Square
    colour: str
    label: str = ""
    shape: str = "pawn"
    short: str = ""


@dataclass(frozen=True)
class MapTarget:
    """A square the player deciding can pick, the words for it and the action it sends;
    ``span`` (columns, rows) marks a larger place picked as one, ``square`` its top-left (a
    2x2 tile)."""

    square: Square
    label: str
    action: Action
    span: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class MapView:
    """Everything the kiosk draws of a grid game's table at one moment."""

    width: int
    height: int
    cells: tuple[MapCell, ...]
    walls: tuple[MapWall, ...] = ()
    pieces: tuple[MapPiece, ...] = ()
    targets: tuple[MapTarget, ...] = ()
    title: str = ""
    legend: tuple[tuple[str, str], ...] = ()  # (colour, words) pairs for a key under the map
    banners: tuple[str, ...] = field(default=())  # table-wide states worth a line of their own

    def cell_at(self, square: Square) -> MapCell | None:
        for cell in self.cells:
            if cell.square == square:
                return cell
        return None

    def problems(self) -> list[str]:
        """What is inconsistent in this view (for tests): squares off the grid, pieces or
        targets on squares that are not cells, duplicate cells."""
        found: list[str] = []
        seen: set[Square] = set()
        for cell in self.cells:
            x, y = cell.square
            if not (0 <= x < self.width and 0 <= y < self.height):
                found.append(f"cell {cell.square} lies outside {self.width}x{self.height}")
            if cell.square in seen:
                found.append(f"cell {cell.square} is listed twice")
            seen.add(cell.square)
        for piece in self.pieces:
            if piece.square not in seen:
                found.append(f"piece {piece.label!r} stands on {piece.square}, not a cell")
        for target in self.targets:
            if target.square not in seen:
                found.append(f"target {target.label!r} is {target.square}, not a cell")
        for wall in self.walls:
            if wall.side not in ("n", "e", "s", "w"):
                found.append(f"wall at {wall.square} has side {wall.side!r}")
        return found
