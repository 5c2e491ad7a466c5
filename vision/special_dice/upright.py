"""Which way is "up" at each die: the camera's nadir from the board's homography.

A vertical edge of a die (a line perpendicular to the table) projects onto a line through the
image of the vertical direction's vanishing point, the nadir ``N`` (the image of the table
point straight below the camera: the frame's centre for a camera looking straight down, a
point below the frame for a camera leaning forward). A die's top face lies farther from ``N``
than its base, so the side faces the camera sees lie on ``N``'s side of the die. A crop turned
so that the direction from the die to ``N`` points down in it shows the side faces at its bottom
and the top face above them, whatever the camera's slant and the board's turn: the upright
reader learns that cue.

``N`` comes from the board registration's homography (board millimetres to frame pixels) by
Zhang's one-view calibration: square pixels, no skew and the principal point at the frame's
centre leave one unknown, the focal length, which the two constraints on the first two columns
of ``K^-1 H`` (orthogonal, of equal length) give by least squares. A homography that is nearly
affine (a camera looking almost straight down) leaves the focal length undetermined; the nadir
is then the frame's centre, where a straight-down camera has it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

AFFINE_LIMIT = 1e-3
"""A homography whose projective scale varies by less than this across the frame is taken as
affine (a camera within about 0.05 degrees of straight down at 1000 px focal length): the
nadir is then the frame's centre."""


def nadir(board_to_frame: np.ndarray | Sequence[Sequence[float]], width: int, height: int
          ) -> np.ndarray:
    """The nadir point ``N`` of the camera whose board plane homography is ``board_to_frame``
    (board to frame pixels, a ``width`` x ``height`` frame), as a homogeneous 3-vector of unit
    length (its third component 0 when ``N`` lies at infinity: then a direction). The frame's
    centre when the homography is nearly affine or does not fit a camera with square pixels
    and the principal point at the centre."""
    h = np.asarray(board_to_frame, np.float64)
    cx, cy = width / 2.0, height / 2.0
    centre = np.array([cx, cy, 1.0])
    centre /= np.linalg.norm(centre)
    if h.shape != (3, 3) or not np.all(np.isfinite(h)):
        return centre
    # how far from affine: the homogeneous scale of the frame's corners mapped to the board
    try:
        g = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return centre
    corners = np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]], np.float64)
    w = corners @ g[2]
    if np.any(w == 0) or np.any(np.sign(w) != np.sign(w[0])):
        return centre
    aw = np.abs(w)
    if aw.max() / aw.min() - 1.0 < AFFINE_LIMIT:
        return centre
    a = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]]) @ h
    h1, h2 = a[:, 0], a[:, 1]
    # r1 . r2 = 0 and |r1| = |r2| for r = (hx / f, hy / f, hz): linear in u = 1 / f^2
    a1, b1 = h1[0] * h2[0] + h1[1] * h2[1], h1[2] * h2[2]
    a2, b2 = h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2, h1[2] ** 2 - h2[2] ** 2
    den = a1 * a1 + a2 * a2
    if den <= 0:
        return centre
    u = -(a1 * b1 + a2 * b2) / den
    if not math.isfinite(u) or u <= 0:
        return centre
    f = 1.0 / math.sqrt(u)
    r1 = np.array([h1[0] / f, h1[1] / f, h1[2]])
    r2 = np.array([h2[0] / f, h2[1] / f, h2[2]])
    r3 = np.cross(r1 / np.linalg.norm(r1), r2 / np.linalg.norm(r2))
    k = np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])
    n = k @ r3
    if n[2] < 0:  # the same point; keep the third component positive
        n = -n
    return np.asarray(n / np.linalg.norm(n))


def centre_nadir(width: int, height: int) -> np.ndarray:
    """The nadir of a camera looking straight down at the frame's centre (homogeneous, unit)."""
    n = np.array([width / 2.0, height / 2.0, 1.0])
    return np.asarray(n / np.linalg.norm(n))


def down_deg(n: np.ndarray, at: tuple[float, float], min_px: float = 1.0) -> float | None:
    """The picture angle (degrees, atan2(dy, dx), y down) from pixel ``at`` toward the nadir
    ``n`` (homogeneous); None when ``at`` lies within ``min_px`` of it (no way is down)."""
    if abs(n[2]) > 1e-12:
        dx, dy = n[0] / n[2] - at[0], n[1] / n[2] - at[1]
        if math.hypot(dx, dy) < min_px:
            return None
    else:
        dx, dy = n[0], n[1]
    return math.degrees(math.atan2(dy, dx))


def turn_deg(n: np.ndarray | None, at: tuple[float, float]) -> float:
    """How far to turn the picture around ``at`` (degrees, an angle ``a`` becomes ``a + turn``)
    so that the way to the nadir ``n`` points down (90 degrees); 0 without a nadir or at it."""
    if n is None:
        return 0.0
    d = down_deg(n, at)
    return 0.0 if d is None else (90.0 - d) % 360.0
