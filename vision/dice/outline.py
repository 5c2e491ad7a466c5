"""The outline of a die seen from above: a second opinion on its *type*, never a reading.

A d4 lying on a face shows a triangle from above, and no other die does (a d6 shows a square,
a d8 or d20 a hexagon, a d10 a kite-like hexagon, a d12 a decagon). The classifier often types a
small or blurred d4 right with too little of its probability on the type to read it, while the
d4's face reader is sure of the number. This module separates the die from the table by colour
and measures how much of the smallest triangle around it the die fills (a triangle: nearly all;
a hexagon: two thirds; a square: about half) and how equal that triangle's sides are (a d4
leaning on something shows a foreshortened triangle).

Most such doubt on rendered d4 is between a value and "cocked", so the flatness matters as much
as the type. ``reader._decide`` reads a d4 whose outline is an equilateral triangle
(``DiceConfig.d4_outline``).
A die touching another, or on a table of nearly its own colour, gives no clean outline and no
second opinion.
"""

from __future__ import annotations

import cv2
import numpy as np

SIDE = 96
"""The outline is measured on a crop scaled to this side."""
REACH = 0.75
"""The crop reaches this many box sides from the box's centre (some table around the die)."""
TRIANGLE_FILL = 0.85
"""The die fills at least this share of its smallest enclosing triangle (measured on rendered
dice: d4 0.94-0.97 between the quartiles, every other type 0.55-0.67; 1% of d6 and d10, no d8,
d12 or d20 of 100-140 each over 0.85)."""
EQUAL_SIDES = 0.9
"""The triangle's shortest side is at least this share of its longest. A d4 lying flat, seen
from above, is an equilateral triangle; a d4 leaning on something is foreshortened (measured on
rendered d4 whose outline is a triangle: flat ones 0.89-0.99 between the 5th and 95th
percentile, leaning ones 0.67-0.78; at 0.85 one leaning d4 in 400 rendered scenes measured
0.87 and was read, at 0.9 none was)."""
SPANS_BOX = 0.8
"""The separated shape spans at least this share of the box's longer side (a d8 whose dark
sides merge with a dark table leaves only its top triangle, far smaller than its box)."""


def triangle_fit(bgr: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, float] | None:
    """How much of its smallest enclosing triangle the die in ``box`` (x, y, w, h) of a BGR
    image fills (0-1), and that triangle's shortest side over its longest; None when no shape
    spanning the box separates from the table."""
    x, y, w, h = box
    s = max(w, h)
    if s < 8:
        return None
    cx, cy, r = x + w / 2, y + h / 2, REACH * s
    H, W = bgr.shape[:2]
    x0, y0 = int(max(0, cx - r)), int(max(0, cy - r))
    x1, y1 = int(min(W, cx + r)), int(min(H, cy + r))
    crop = bgr[y0:y1, x0:x1]
    if min(crop.shape[:2]) < 8:
        return None
    k = SIDE / max(crop.shape[:2])
    crop = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    b = 4
    border = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                             lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    table = np.median(border, axis=0)
    dist = np.clip(np.linalg.norm(lab - table, axis=2) * 2.0, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    mh, mw = labels.shape
    i = labels[min(mh - 1, max(0, int((cy - y0) * k))), min(mw - 1, max(0, int((cx - x0) * k)))]
    if i == 0:
        i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = np.column_stack(np.nonzero(labels == i))[:, ::-1].astype(np.float32)
    hull = cv2.convexHull(pts)
    area = cv2.contourArea(hull)
    if area < 50:
        return None
    _, _, bw, bh = cv2.boundingRect(hull.astype(np.int32))
    if max(bw, bh) < SPANS_BOX * s * k:
        return None
    tri_area, tri = cv2.minEnclosingTriangle(hull)
    if tri_area <= 0:
        return None
    corners = tri.reshape(3, 2)
    sides = [float(np.linalg.norm(corners[j] - corners[(j + 1) % 3])) for j in range(3)]
    return float(area / tri_area), min(sides) / max(sides)


def lies_flat_as_d4(bgr: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether the die in ``box`` shows the outline of a d4 lying on a face: an equilateral
    triangle."""
    fit = triangle_fit(bgr, box)
    return fit is not None and fit[0] >= TRIANGLE_FILL and fit[1] >= EQUAL_SIDES
