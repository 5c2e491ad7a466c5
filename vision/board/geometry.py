"""The canonical top-down board: 40 square polygons plus the Jail cell, as data.

Coordinates are millimetres on the board plane, x to the right and y downwards, with the board's
top-left corner at (0, 0) when the board is seen the usual way round: GO in the bottom-right
corner, Jail bottom-left, Free Parking top-left, Go To Jail top-right. Square indices follow the
standard board (0 = GO, 10 = Jail / Just Visiting, 20 = Free Parking, 30 = Go To Jail) and
index 40 (`IN_JAIL`) is the Jail cell itself, distinct from the Just Visiting strip (10).

The ring itself (how many squares, the corners that split it into four equal sides, the order
and names of the squares, the Jail cell off it) is the rules' own (`RING`, loaded from
`assets/board/standard.json`); this module only lays it out in millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.core.topology import load_ring

RING = load_ring("standard")  # the same ring the rules' Board holds
GO, JUST_VISITING, FREE_PARKING, GO_TO_JAIL = RING.corners  # the layout needs four corners
(IN_JAIL,) = RING.off_ring  # the Jail cell, the ring's one place off it
NUM_SQUARES = RING.size
NUM_CELLS = len(RING.places)  # 40 squares plus the Jail cell
SIDE_SQUARES = RING.side_length - 1  # the squares between two corners

# The names printed on the board (the synthetic renderer draws them): the rules' names, but
# the Jail corner shows both of its parts.
SQUARE_NAMES: tuple[str, ...] = tuple(
    "Jail / Just Visiting" if i == JUST_VISITING else RING.name(i) for i in RING.places)

# Colour groups of the standard board (used by the synthetic renderer to draw its own board).
COLOUR_GROUPS: dict[str, tuple[int, ...]] = {
    "brown": (1, 3),
    "light_blue": (6, 8, 9),
    "pink": (11, 13, 14),
    "orange": (16, 18, 19),
    "red": (21, 23, 24),
    "yellow": (26, 27, 29),
    "green": (31, 32, 34),
    "dark_blue": (37, 39),
}
RAILROADS = (5, 15, 25, 35)
UTILITIES = (12, 28)
CHANCE = (7, 22, 36)
COMMUNITY_CHEST = (2, 17, 33)
TAXES = (4, 38)


def cell_name(index: int) -> str:
    """The printed name of square `index` (0..39) or 'In Jail' for 40."""
    return SQUARE_NAMES[index]


@dataclass(frozen=True)
class BoardSpec:
    """Physical size of a board. The default is the standard 20-inch board.

    `corner_mm` is the side of each corner square and also the depth of the side squares; the
    nine side squares (`SIDE_SQUARES`) share the rest of the edge equally. `jail_fraction` is the side of the Jail
    cell as a fraction of the corner (the rest of the corner is the Just Visiting strip).
    """

    side_mm: float = 508.0
    corner_mm: float = 66.0
    jail_fraction: float = 0.68

    @property
    def square_mm(self) -> float:
        return (self.side_mm - 2 * self.corner_mm) / SIDE_SQUARES

    def corners(self) -> np.ndarray:
        """The board's four outer corners (TL, TR, BR, BL) in board millimetres."""
        s = self.side_mm
        return np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float64)


DEFAULT_SPEC = BoardSpec()


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


@lru_cache(maxsize=8)
def _polygons(spec: BoardSpec) -> tuple[np.ndarray, ...]:
    s, c, w = spec.side_mm, spec.corner_mm, spec.square_mm
    polys: list[np.ndarray] = []
    for i in range(NUM_SQUARES):
        side, k = RING.locate(i)
        if k == 0:
            x0, y0 = [(s - c, s - c), (0.0, s - c), (0.0, 0.0), (s - c, 0.0)][side]
            poly = _rect(x0, y0, x0 + c, y0 + c)
            if i == JUST_VISITING:
                j = c * spec.jail_fraction
                # L-shaped strip along the outer (left and bottom) edges of the Jail corner.
                poly = np.array(
                    [[0, s - c], [c - j, s - c], [c - j, s - c + j], [c, s - c + j], [c, s],
                     [0, s]], dtype=np.float64)
        elif side == 0:  # bottom row, right to left
            x1 = s - c - (k - 1) * w
            poly = _rect(x1 - w, s - c, x1, s)
        elif side == 1:  # left column, bottom to top
            y1 = s - c - (k - 1) * w
            poly = _rect(0.0, y1 - w, c, y1)
        elif side == 2:  # top row, left to right
            x0 = c + (k - 1) * w
            poly = _rect(x0, 0.0, x0 + w, c)
        else:  # right column, top to bottom
            y0 = c + (k - 1) * w
            poly = _rect(s - c, y0, s, y0 + w)
        polys.append(poly)
    j = c * spec.jail_fraction
    polys.append(_rect(c - j, s - c, c, s - c + j))  # the Jail cell (IN_JAIL)
    for p in polys:
        p.setflags(write=False)
    return tuple(polys)


def square_polygons(spec: BoardSpec = DEFAULT_SPEC) -> tuple[np.ndarray, ...]:
    """41 polygons (index 0..39 the squares, 40 the Jail cell) in board millimetres."""
    return _polygons(spec)


def square_centres(spec: BoardSpec = DEFAULT_SPEC) -> np.ndarray:
    """(41, 2) centre of each cell (the Just Visiting centre lies in its L-shaped strip)."""
    out = np.array([p.mean(axis=0) for p in _polygons(spec)])
    c = spec.corner_mm
    j = c * spec.jail_fraction
    out[JUST_VISITING] = ((c - j) / 2, spec.side_mm - (c - j) / 2)
    return out


def inward_normal(index: int) -> tuple[float, float]:
    """Unit vector from a square's outer edge towards the board centre."""
    side, k = RING.locate(index % NUM_SQUARES)
    if k == 0:
        return [(-0.7071, -0.7071), (0.7071, -0.7071), (0.7071, 0.7071), (-0.7071, 0.7071)][side]
    return [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)][side]


@lru_cache(maxsize=8)
def label_map(spec: BoardSpec = DEFAULT_SPEC, px_per_mm: float = 1.0) -> np.ndarray:
    """Canonical image (board only) whose pixels hold the cell index, -1 for the board centre.

    The Jail cell is drawn after the Just Visiting strip so a point in the cell reads 40.
    """
    n = int(round(spec.side_mm * px_per_mm))
    labels = np.full((n, n), -1, dtype=np.int16)
    for idx, poly in enumerate(_polygons(spec)):
        pts = np.round(poly * px_per_mm).astype(np.int32)
        cv2.fillPoly(labels, [pts], int(idx))
    labels.setflags(write=False)
    return labels


def cell_at(x_mm: float, y_mm: float, spec: BoardSpec = DEFAULT_SPEC) -> int | None:
    """The cell holding a board point, or None when the point is in the centre or off the board."""
    labels = label_map(spec, 1.0)
    xi, yi = int(np.floor(x_mm)), int(np.floor(y_mm))
    if not (0 <= xi < labels.shape[1] and 0 <= yi < labels.shape[0]):
        return None
    v = int(labels[yi, xi])
    return None if v < 0 else v


def slot_positions(index: int, count: int, spec: BoardSpec = DEFAULT_SPEC) -> np.ndarray:
    """`count` non-overlapping places for figurines on a cell (centre first), in millimetres.

    Side squares and corners hold up to six (corners nine), Just Visiting five, the Jail cell four.
    """
    poly = _polygons(spec)[index]
    x0, y0 = poly.min(axis=0)
    x1, y1 = poly.max(axis=0)
    if index == JUST_VISITING:
        c, s = spec.corner_mm, spec.side_mm
        j = c * spec.jail_fraction
        strip = (c - j) / 2
        cand = [(strip, s - strip), (strip, s - c + 12), (strip + 40, s - strip),
                (strip, s - c + 32), (strip + 20, s - strip)]
        return np.array(cand[:count], dtype=np.float64)
    w, h = x1 - x0, y1 - y0
    if index == IN_JAIL:
        grid4 = [(0.5, 0.5)] if count == 1 else [(0.28, 0.28), (0.72, 0.72), (0.28, 0.72),
                                                  (0.72, 0.28)]
        return np.array([(x0 + u * w, y0 + v * h) for u, v in grid4[:count]])
    if RING.is_corner(index):
        grid = [(0.5, 0.5), (0.22, 0.22), (0.78, 0.78), (0.22, 0.78), (0.78, 0.22),
                (0.5, 0.2), (0.5, 0.8), (0.2, 0.5), (0.8, 0.5)]
        return np.array([(x0 + u * w, y0 + v * h) for u, v in grid[:count]])
    # side square: local frame (across, depth from the outer edge)
    nx, ny = inward_normal(index)
    across = [0.5]
    depth = [0.4]
    if count > 1:
        across = [0.27, 0.73, 0.27, 0.73, 0.27, 0.73]
        depth = [0.17, 0.17, 0.45, 0.45, 0.73, 0.73]
    out = []
    for a, d in zip(across[:count], depth[:count], strict=True):
        if nx == 0:  # top or bottom row
            x = x0 + a * w
            y = (y1 - d * h) if ny < 0 else (y0 + d * h)
        else:
            y = y0 + a * h
            x = (x0 + d * w) if nx > 0 else (x1 - d * w)
        out.append((x, y))
    return np.array(out, dtype=np.float64)
