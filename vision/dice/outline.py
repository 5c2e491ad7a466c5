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


CUT_CONTACT = 0.3
"""A die's silhouette touches the frame's edge along at least this share of its box's side
before it can count as cut (a whole die grazing the edge with a corner touches it for a few
pixels)."""
NEAR_EDGE = 1.0
"""A die is looked at when its box lies within this many box sides of the frame's edge (the
detector's box of a cut die can be a part of it: a turned die whose one visible pip it boxed
alone lay 0.7 of that box's side from the edge)."""
CONVEX = 0.93
"""The separated shape fills at least this share of its convex hull: a die, whole or cut by a
straight edge, is convex; a shape that merged with a tray wall, a shadow or a photo's rotated
border is not (measured: cut rendered dice 1.01-1.04 as pixels over hull area, such real
merges mostly under 0.9)."""


def _die_mask(bgr: np.ndarray, box: tuple[float, float, float, float], reach: float,
              ) -> tuple[np.ndarray, dict[str, bool], float] | None:
    """The die's silhouette (holes filled) in a crop reaching ``reach`` box sides from the box's
    centre, scaled to :data:`SIDE`; which of the crop's sides are the frame's edges; the scale.
    None when nothing separates from the table there."""
    x, y, w, h = box
    s = max(w, h)
    H, W = bgr.shape[:2]
    cx, cy, r = x + w / 2, y + h / 2, reach * s
    x0, y0 = int(max(0, cx - r)), int(max(0, cy - r))
    x1, y1 = int(min(W, cx + r)), int(min(H, cy + r))
    on_edge = {"top": y0 == 0, "bottom": y1 == H, "left": x0 == 0, "right": x1 == W}
    crop = bgr[y0:y1, x0:x1]
    if all(on_edge.values()) or min(crop.shape[:2]) < 8:
        return None
    k = SIDE / (2 * r)
    size = (max(1, round(crop.shape[1] * k)), max(1, round(crop.shape[0] * k)))
    if k < 0.5:  # a large die: sampled at twice the size, then averaged down (a fraction of the cost)
        crop = cv2.resize(crop, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    b = 4
    # the table's colour from the crop's sides that lie inside the frame
    sides = {"top": lab[:b], "bottom": lab[-b:], "left": lab[:, :b], "right": lab[:, -b:]}
    table = np.median(np.concatenate([v.reshape(-1, 3) for n, v in sides.items() if not on_edge[n]]), axis=0)
    bx0, by0 = max(0, int((x - x0) * k)), max(0, int((y - y0) * k))
    bx1, by1 = bx0 + int(w * k) + 1, by0 + int(h * k) + 1
    # the die's colour from its box (pips are a small share of it); a pixel nearer the die's
    # colour than the table's is the die's: a photo's black border, or a shadow on a light
    # table, is nearer a light table than a white die
    body = np.median(lab[by0:by1, bx0:bx1].reshape(-1, 3), axis=0)
    if np.linalg.norm(body - table) < 12:
        return None
    # nearer the body than the table: |p - body|^2 < |p - table|^2, a linear test in p
    mask = ((lab @ (2.0 * (table - body))) < float(table @ table - body @ body)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(mask)
    if n < 2:
        return None
    # the shape covering most of the box (not the one under its centre: a dark die's light pip)
    counts = np.bincount(labels[by0:by1, bx0:bx1].ravel(), minlength=n)[1:]
    if counts.max() == 0:
        return None
    die = (labels == 1 + int(np.argmax(counts))).astype(np.uint8)
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(die, contours, -1, 1, -1)
    if die[by0:by1, bx0:bx1].sum() < 0.4 * w * h * k * k:
        return None  # the die does not stand out from the table (a black die on a dark tray)
    return die.astype(bool), on_edge, k


def visible_share(bgr: np.ndarray, box: tuple[float, float, float, float]) -> float | None:
    """How far the silhouette of the die in ``box`` (x, y, w, h) reaches from the frame's edge it
    touches, over its length along that edge: about 1 for a whole die lying against the edge
    (its outline's bounding box is square at any turn), less for one the edge cuts (a die cut
    through its middle: about 0.5). None when the die does not touch a frame edge, or its
    silhouette cannot be told from the table or from what lies beside it."""
    x, y, w, h = box
    H, W = bgr.shape[:2]
    if max(w, h) < 8 or min(x, y, W - x - w, H - y - h) > NEAR_EDGE * max(w, h):
        return None  # too far from every edge to be cut by one
    # the detector's box of a cut die can be a part of it (a die whose corner is cut, boxed
    # around its one visible pip): where the shape runs past the crop, look once twice as wide
    for reach in (1.0, 2.0):
        found = _die_mask(bgr, box, reach)
        if found is None:
            return None
        die, on_edge, k = found
        lines = {"top": die[0], "bottom": die[-1], "left": die[:, 0], "right": die[:, -1]}
        if max((float(v.mean()) for n, v in lines.items() if not on_edge[n]), default=0.0) <= 0.15:
            break  # the shape stays inside the crop's inner sides
    else:
        return None
    outline, _ = cv2.findContours(die.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if die.sum() < CONVEX * max(1.0, cv2.contourArea(cv2.convexHull(np.concatenate(outline)))):
        return None
    ys, xs = np.nonzero(die)
    side = max(box[2], box[3]) * k
    touching = [n for n in lines if on_edge[n] and lines[n].sum() >= CUT_CONTACT * side]
    if not touching:
        return None
    edge = max(touching, key=lambda n: int(lines[n].sum()))
    tall, wide = float(ys.max() - ys.min() + 1), float(xs.max() - xs.min() + 1)
    return tall / wide if edge in ("top", "bottom") else wide / tall
