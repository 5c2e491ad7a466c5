"""Marker-less fallback: find the board by its outline and corners.

For boards without marker stickers. The board is the largest convex four-sided shape in the
frame whose inside is busier than its surroundings; its sides are then refitted to the edge
pixels along them (least-squares lines), and the corners are the line intersections.

The outline alone cannot tell which corner is GO: corners come back in image order (top-left
first, clockwise) and `rotation` (0..3, a setting per table) turns them to the board's order.
Less exact than markers (typically a few pixels), so the quality reported is lower.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class OutlineResult:
    corners: np.ndarray  # (4, 2) TL, TR, BR, BL in image pixels (image order, then rotated)
    score: float  # 0..1


def _order(pts: np.ndarray) -> np.ndarray:
    """Clockwise from the corner nearest the image's top-left."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def _angles_ok(q: np.ndarray, max_dev: float) -> float:
    devs = []
    for i in range(4):
        a, b, c = q[i - 1], q[i], q[(i + 1) % 4]
        v1, v2 = a - b, c - b
        cosang = float(np.dot(v1, v2) / (np.linalg.norm(v1) * np.linalg.norm(v2) + 1e-9))
        devs.append(abs(np.degrees(np.arccos(np.clip(cosang, -1, 1))) - 90))
    worst = max(devs)
    return 0.0 if worst > max_dev else 1.0 - worst / max_dev


def _refine(edges: np.ndarray, quad: np.ndarray, band: float) -> np.ndarray:
    """Refit each side to the edge pixels within `band` pixels of it."""
    ys, xs = np.nonzero(edges)
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = np.linalg.norm(d)
        if length < 1:
            return quad
        u = d / length
        n = np.array([-u[1], u[0]])
        rel = pts - a
        t = rel @ u
        dist = rel @ n
        sel = (np.abs(dist) < band) & (t > 0.1 * length) & (t < 0.9 * length)
        if sel.sum() < 20:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts[sel].astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = []
    for i in range(4):
        p1, d1 = lines[i - 1]
        p2, d2 = lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        s, _ = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s * d1)
    return np.array(out)


def _side_support(near_edge: np.ndarray, quad: np.ndarray, samples: int = 60) -> float:
    """The smallest fraction, over the four sides, of points along a side that lie on (or
    within 2 px of) an edge pixel."""
    h, w = near_edge.shape
    t = (np.arange(samples) + 0.5) / samples
    worst = 1.0
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        pts = a[None, :] + t[:, None] * (b - a)[None, :]
        xi = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
        yi = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
        worst = min(worst, float(near_edge[yi, xi].mean()))
    return worst


def _inner_support(near_edge: np.ndarray, quad: np.ndarray, inset: float,
                   samples: int = 60) -> float:
    """A board has a second square inside its outline: the inner edge of the ring of squares
    (`inset` of the side in from each edge). The mean fraction of points along those four
    inner lines, mapped through the candidate's homography, that lie on edge pixels."""
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hmg = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    t = inset + (1 - 2 * inset) * (np.arange(samples) + 0.5) / samples
    a, b = np.full_like(t, inset), np.full_like(t, 1 - inset)
    lines = [np.stack([t, a], 1), np.stack([b, t], 1), np.stack([t, b], 1), np.stack([a, t], 1)]
    h, w = near_edge.shape
    fr = []
    for ln in lines:
        p = cv2.perspectiveTransform(ln.reshape(-1, 1, 2).astype(np.float32), hmg).reshape(-1, 2)
        xi = np.clip(np.round(p[:, 0]).astype(int), 0, w - 1)
        yi = np.clip(np.round(p[:, 1]).astype(int), 0, h - 1)
        fr.append(float(near_edge[yi, xi].mean()))
    return float(np.mean(fr))


def find_board_outline(frame_bgr: np.ndarray, rotation: int = 0, work_width: int = 800,
                       min_area_frac: float = 0.08, max_angle_dev: float = 40.0,
                       min_support: float = 0.3, inset: float = 66.0 / 508.0,
                       frame_inner_min: float = 0.6) -> OutlineResult | None:
    """The board's four corners, or None when no board-like quadrilateral is found."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, work_width / w)
    small = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    med = float(np.median(gray))
    edges = cv2.Canny(gray, max(10.0, 0.5 * med), min(255.0, 1.2 * med))
    contours: list[np.ndarray] = []
    for it in (1, 2, 4):
        closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8),
                                  iterations=it)
        found, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        contours.extend(found)
    img_area = float(small.shape[0] * small.shape[1])
    near_edge = cv2.dilate(edges, np.ones((5, 5), np.uint8)) > 0
    best: tuple[float, np.ndarray] | None = None

    def best_inner(b: tuple[float, np.ndarray]) -> float:
        return _inner_support(near_edge, b[1], inset)

    for c in contours:
        hull = cv2.convexHull(c)
        area = float(cv2.contourArea(hull))
        if area < min_area_frac * img_area or area > 0.98 * img_area:
            continue
        peri = cv2.arcLength(hull, True)
        for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
            approx = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2)
            if len(approx) == 4:
                break
        if len(approx) != 4:
            continue
        quad = _order(approx.astype(np.float64))
        shape = _angles_ok(quad, max_angle_dev)
        if shape <= 0:
            continue
        # sides of similar length (a square board seen at a moderate angle)
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        ratio = float(sides.min() / sides.max())
        if ratio < 0.45:
            continue
        # how well the hull is filled by the quad (a real quadrilateral, not a blob)
        fill = area / max(float(cv2.contourArea(quad.astype(np.float32))), 1.0)
        # each side must run along edge pixels (a board's straight border), not across
        # clutter merged into the hull
        support = _side_support(near_edge, quad)
        if support < min_support:
            continue
        inner = _inner_support(near_edge, quad, inset)
        score = (area / img_area) * shape * ratio * min(fill, 1.0) * support ** 2 * inner
        if best is None or score > best[0]:
            best = (score, quad)
    # a board filling the whole frame (a scan, a close crop) has no outline to find: the frame
    # itself is a candidate when the inner square of the ring of squares is there
    hh, ww = small.shape[:2]
    frame_quad = np.array([[0, 0], [ww - 1, 0], [ww - 1, hh - 1], [0, hh - 1]], np.float64)
    if min(hh, ww) >= 64 and min(hh, ww) / max(hh, ww) > 0.9:
        inner = _inner_support(near_edge, frame_quad, inset)
        if inner >= frame_inner_min and (best is None or inner > best_inner(best)):
            scale_back = np.array([(w - 1) / (ww - 1), (h - 1) / (hh - 1)])
            quad = np.roll(frame_quad * scale_back, -(rotation % 4), axis=0)
            return OutlineResult(quad, 0.5 * inner)
    if best is None:
        return None
    quad = _refine(edges, best[1], band=max(3.0, 0.01 * small.shape[1]))
    quad = _order(quad) / scale
    quad = np.roll(quad, -(rotation % 4), axis=0)
    return OutlineResult(quad, float(min(1.0, best[0] * 3)))
