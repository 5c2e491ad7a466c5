"""Synthetic dice with exact ground truth: pipped d6 and numbered d4/d8/d10/d12/d20 top faces.

Each die is drawn as seen from straight above (a top face, the rims of the side faces around it,
a shadow), at any rotation, size, colour, pip style or font, with optional tilt, glare and
blur. ``vision.synthetic.table`` can draw dice onto its own frames with :func:`draw_die`;
the dice reader's tests, benchmark and training script use :func:`render_dice_scene`.

All randomness comes from the ``numpy.random.Generator`` passed in, so a seed fixes a scene.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from hardware.camera import Still

KINDS = ("d4", "d6", "d8", "d10", "d12", "d20")
FACES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}

# colour name -> body BGR; names match the reader's colour names
PALETTE: dict[str, tuple[int, int, int]] = {
    "white": (235, 235, 232),
    "ivory": (200, 228, 240),
    "black": (30, 30, 32),
    "red": (40, 40, 200),
    "blue": (190, 90, 30),
    "green": (60, 160, 40),
    "yellow": (40, 215, 235),
    "orange": (20, 120, 240),
    "purple": (140, 40, 120),
    "pink": (170, 110, 240),
    "grey": (128, 128, 128),
    "teal": (150, 150, 20),
}
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


@dataclass(frozen=True)
class DieSpec:
    """What to draw: a die of ``kind`` showing ``value`` on top, centred at ``centre`` (pixels).

    ``size`` is the side of the die's footprint in pixels; ``angle`` its rotation in degrees;
    ``tilt`` foreshortens it along one axis (0 = flat; >= 0.3 looks cocked, leaning on
    something); ``style`` picks pip size/shape or font (any int). ``ink`` None picks a contrasting
    ink. ``glare`` 0..1 adds a specular spot. ``realistic`` draws a numbered die as real ones
    look from above (``_soft``, ``_side_numbers``, the d8's outline): the type reader's training
    data (``scripts/train_type_reader.py``); the other networks were trained on the faceted look.
    """

    kind: str
    value: int
    centre: tuple[float, float]
    size: float
    angle: float = 0.0
    colour: str = "white"
    ink: tuple[int, int, int] | None = None
    style: int = 0
    tilt: float = 0.0
    glare: float = 0.0
    cocked: bool = False
    realistic: bool = False


@dataclass(frozen=True)
class DieTruth:
    """Ground truth of one drawn die: its axis-aligned box (x, y, w, h) in the canvas."""

    box: tuple[int, int, int, int]
    kind: str
    value: int
    colour: str
    cocked: bool


def luma(bgr: tuple[int, int, int]) -> float:
    """Perceived brightness (0-255) of a BGR colour: light bodies get dark pips and ink."""
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


def default_ink(colour: str, rng: np.random.Generator | None = None) -> tuple[int, int, int]:
    body = PALETTE.get(colour, (200, 200, 200))
    if luma(body) > 140:
        return (25, 25, 25) if rng is None or rng.random() < 0.8 else (30, 30, 150)
    if rng is not None and rng.random() < 0.25:
        return (60, 200, 230)  # gold
    return (245, 245, 245)


def _outline(kind: str, r: float, realistic: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(silhouette, top face) polygons around (0, 0) for a die of footprint radius r."""

    def regular(n: int, rad: float, phase: float) -> np.ndarray:
        a = phase + np.arange(n) * 2 * math.pi / n
        return np.stack([rad * np.cos(a), rad * np.sin(a)], 1)

    if kind == "d6":
        sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * r * 0.72
        return sq, sq
    if kind == "d4":
        tri = regular(3, r * 0.95, -math.pi / 2)
        return tri, tri
    if kind == "d8" and realistic:
        # an octahedron face up: the top triangle's corners are every other corner of the
        # hexagonal outline (the faceted look cuts them off at the outline)
        return regular(6, r * 0.9, -math.pi / 2), regular(3, r * 0.9, -math.pi / 2)
    if kind == "d8":
        return regular(6, r * 0.9, 0), regular(3, r * 0.86, -math.pi / 2)
    if kind == "d10":
        sil = np.array([[0, -1.0], [0.85, -0.2], [0.75, 0.45], [0, 0.75], [-0.75, 0.45], [-0.85, -0.2]]) * r
        top = np.array([[0, -0.95], [0.62, 0.05], [0, 0.62], [-0.62, 0.05]]) * r
        return sil, top
    if kind == "d12":
        return regular(10, r * 0.9, 0), regular(5, r * 0.58, -math.pi / 2)
    if kind == "d20":
        return regular(6, r * 0.92, 0), regular(3, r * 0.66, -math.pi / 2)
    raise ValueError(f"unknown die kind {kind!r}")


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height: float, angle: float,
          colour: tuple[float, ...], font: int, thick_scale: float, underline: bool) -> None:
    """Draw ``text`` centred at ``centre`` with glyph height ``height``, rotated by ``angle``."""
    base = 40
    scale = cv2.getFontScaleFromHeight(font, base, 2)
    thick = max(1, int(round(3 * thick_scale)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    pad = 12
    tile = np.zeros((th + 2 * pad + 10, tw + 2 * pad), np.uint8)
    cv2.putText(tile, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    if underline:
        y = pad + th + 6
        cv2.line(tile, (pad + tw // 6, y), (pad + tw - tw // 6, y), 255, thick + 1)
    k = height / th
    h, w = tile.shape
    m = cv2.getRotationMatrix2D((w / 2, (pad + th / 2)), angle, k)
    m[0, 2] += centre[0] - w / 2
    m[1, 2] += centre[1] - (pad + th / 2)
    # warp only into the text's bounding box (the patch can be ten times larger)
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64) @ m.T
    x0 = max(0, int(math.floor(corners[:, 0].min())) - 2)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - 2)
    x1 = min(img.shape[1], int(math.ceil(corners[:, 0].max())) + 2)
    y1 = min(img.shape[0], int(math.ceil(corners[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    m[0, 2] -= x0
    m[1, 2] -= y0
    mask = cv2.warpAffine(tile, m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(img.dtype)


def _soft(spec: DieSpec) -> float:
    """How diffuse the light on a realistic numbered die is: 0 the faceted look (lit top, dark
    sides), 1 a room's soft light (sides nearly as bright as the top, as on real dice seen from
    above). Taken from ``style``, so the scene's random stream is the same either way; pipped d6
    and the faceted look keep 0."""
    return 0.0 if spec.kind == "d6" or not spec.realistic else ((spec.style // 15) % 4) / 3.0


def _side_numbers(spec: DieSpec) -> bool:
    """Whether the faces around the top one show their own numbers (a realistic d8, d10 or d12,
    three in four: on real ones seen from above they do, foreshortened)."""
    return spec.realistic and spec.kind in ("d8", "d10", "d12") and (spec.style // 60) % 4 != 0


def _side_face_numbers(patch: np.ndarray, spec: DieSpec, sil: np.ndarray, top: np.ndarray,
                       c: float, rr: float, ink: tuple[float, ...], font: int, thick: float) -> None:
    """Small numbers on the side faces next to each edge of the top face: halfway between the
    edge and the silhouette, their tops pointing outward (give or take), their values any other
    face's. A local generator (from ``style`` and ``value``) keeps the scene's stream intact."""
    rng = np.random.default_rng(spec.style * 7919 + spec.value * 31 + FACES[spec.kind])
    others = [v for v in range(1, FACES[spec.kind] + 1) if v != spec.value]
    sil_c = (sil + c).astype(np.float32).reshape(-1, 1, 2)
    for i in range(len(top)):
        mid = (top[i] + top[(i + 1) % len(top)]) / 2
        dist = float(np.linalg.norm(mid))
        if dist < 1e-6:
            continue
        u = mid / dist
        out = dist
        while out < 2 * rr and cv2.pointPolygonTest(sil_c, (float(c + u[0] * out), float(c + u[1] * out)), False) >= 0:
            out += rr * 0.02
        room = out - dist
        if room < rr * 0.12:
            continue
        at = dist + room * 0.5
        height = min(rr * 0.24, room * 0.7)
        phi = math.degrees(math.atan2(u[1], u[0]))
        turn = -(phi + 90) + float(rng.normal(0, 25))
        text = _label(int(rng.choice(others)), spec.kind)
        _text(patch, text, (c + u[0] * at, c + u[1] * at), height, turn, ink, font, thick, text in ("6", "9"))


def _label(value: int, kind: str) -> str:
    if kind == "d10":
        return "0" if value == 10 else str(value)
    return str(value)


def draw_die(canvas: np.ndarray, spec: DieSpec, rng: np.random.Generator) -> DieTruth:
    """Draw one die onto ``canvas`` (BGR uint8, modified in place) and return its ground truth."""
    ss = 4  # supersampling
    r = spec.size / 2
    half = int(math.ceil(r * 1.6)) + 4
    n = 2 * half * ss
    body = np.array(PALETTE.get(spec.colour, (200, 200, 200)), np.float32)
    ink = spec.ink if spec.ink is not None else default_ink(spec.colour, rng)
    patch: np.ndarray = np.zeros((n, n, 3), np.float32)
    mask: np.ndarray = np.zeros((n, n), np.uint8)
    c = n / 2
    rr = r * ss
    sil, top = _outline(spec.kind, rr, spec.realistic)
    rounding = int(rr * (0.12 + 0.1 * (spec.style % 3)))
    sil_i = np.round(sil + c).astype(np.int32)
    cv2.fillPoly(mask, [sil_i], 255, cv2.LINE_AA)
    if spec.kind == "d6" and rounding > 0:
        mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (rounding, rounding)))
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (rounding, rounding)))
    # side faces darker, top face lit; a realistic numbered die under diffuse light shows its
    # sides almost as bright as its top (``_soft``)
    soft = _soft(spec)
    patch[:] = body * (0.62 + 0.3 * soft)
    top_mask = np.zeros_like(mask)
    cv2.fillPoly(top_mask, [np.round(top + c).astype(np.int32)], 255, cv2.LINE_AA)
    if spec.kind == "d6":
        top_mask = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, int(rr * 0.03)))
    tm = (top_mask.astype(np.float32) / 255.0)[..., None]
    shade = 0.9 + 0.1 * rng.random()
    patch = patch * (1 - tm) + body * shade * tm
    # edges between faces
    edge = tuple(float(v) for v in body * (0.45 + 0.3 * soft))
    if spec.kind != "d6":
        cv2.polylines(patch, [np.round(top + c).astype(np.int32)], True, edge, max(1, ss // 2), cv2.LINE_AA)
        for p in np.round(top + c).astype(np.int32):
            d = np.linalg.norm(sil + c - p, axis=1)
            q = np.round((sil + c)[int(np.argmin(d))]).astype(np.int32)
            cv2.line(patch, tuple(int(v) for v in p), tuple(int(v) for v in q), edge, max(1, ss // 2), cv2.LINE_AA)
    font = FONTS[spec.style % len(FONTS)]
    thick = 0.8 + 0.5 * ((spec.style // len(FONTS)) % 3) / 2
    inkf = tuple(float(v) for v in ink)
    if spec.kind == "d6":
        pip_r = rr * (0.11 + 0.03 * (spec.style % 3))
        step = rr * 0.40
        for px, py in PIP_LAYOUT[spec.value]:
            centre = (int(c + px * step), int(c + py * step))
            cv2.circle(patch, centre, int(pip_r), inkf, -1, cv2.LINE_AA)
    elif spec.kind == "d4":
        # each visible face shows the top value at the apex (the centre, seen from above)
        others = [v for v in range(1, 5) if v != spec.value]
        for i, vert in enumerate(top):
            mid = -vert * 0.0
            ang = math.degrees(math.atan2(vert[1], vert[0])) + 180 + 60
            face_dir = -(vert / np.linalg.norm(vert))
            pos = (c + face_dir[0] * rr * 0.28 + mid[0], c + face_dir[1] * rr * 0.28 + mid[1])
            _text(patch, str(spec.value), pos, rr * 0.3, -ang + 90 - 90, inkf, font, thick, False)
            # a smaller neighbour number near each outer corner
            pos2 = (c + vert[0] * 0.62, c + vert[1] * 0.62)
            _text(patch, str(others[i % 3]), pos2, rr * 0.16, -ang, inkf, font, thick, False)
        for vert in top:
            cv2.line(patch, (int(c), int(c)), (int(c + vert[0]), int(c + vert[1])), edge, max(1, ss // 2), cv2.LINE_AA)
    else:
        label = _label(spec.value, spec.kind)
        height = {"d8": 0.46, "d10": 0.5, "d12": 0.5, "d20": 0.4}[spec.kind] * rr
        if len(label) == 2:
            height *= 0.92
        cy = c + (0.1 * rr if spec.kind in ("d8", "d20") else 0.0)
        _text(patch, label, (c, cy), height, 0.0, inkf, font, thick, label in ("6", "9"))
        if _side_numbers(spec):
            _side_face_numbers(patch, spec, sil, top, c, rr, inkf, font, thick)
        if spec.kind == "d20":
            # fragments of the neighbouring faces' numbers
            for k in range(3):
                phi = math.pi / 2 + k * 2 * math.pi / 3
                pos = (c + math.cos(phi) * rr * 0.62, c + math.sin(phi) * rr * 0.62)
                _text(patch, str(int(rng.integers(1, 21))), pos, rr * 0.16, math.degrees(phi) + 90,
                      inkf, font, thick, False)
    # lighting gradient across the die
    g = np.linspace(-1, 1, n, dtype=np.float32)
    ga = rng.uniform(0, 2 * math.pi)
    grad = 1 + 0.12 * (np.cos(ga) * g[None, :] + np.sin(ga) * g[:, None])
    patch *= grad[..., None]
    if spec.glare > 0:
        gx, gy = c + rng.uniform(-0.4, 0.4) * rr, c + rng.uniform(-0.4, 0.4) * rr
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        sig = rr * rng.uniform(0.08, 0.25)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig)) * spec.glare
        patch = patch + (255 - patch) * spot[..., None]
    # pose: rotation and foreshortening (tilt)
    t = spec.tilt
    m = cv2.getRotationMatrix2D((c, c), spec.angle, 1.0)
    m3 = np.vstack([m, [0, 0, 1]])
    squash = np.array([[1, 0, 0], [0, 1 - t, c * t], [0, 0, 1]], np.float64)
    if spec.cocked:
        # a cocked die shows one side face as a wide band and its top face foreshortened
        band = np.array([[1, 0, 0], [0, 1 - t, c * t + rr * t * 0.5], [0, 0, 1]], np.float64)
        m_all = (np.vstack([cv2.getRotationMatrix2D((c, c), spec.angle, 1.0), [0, 0, 1]]) @ band)[:2]
        side = patch * 0.55
        mask_side = cv2.warpAffine(mask, (m3 @ squash)[:2], (n, n))
        side_w = cv2.warpAffine(side, (m3 @ squash)[:2], (n, n))
        patch = cv2.warpAffine(patch, m_all, (n, n))
        mask_top = cv2.warpAffine(mask, m_all, (n, n))
        a = (mask_top.astype(np.float32) / 255.0)[..., None]
        patch = patch * a + side_w * (1 - a)
        mask = np.maximum(mask_top, mask_side)
    else:
        mw = (m3 @ squash)[:2]
        patch = cv2.warpAffine(patch, mw, (n, n))
        mask = cv2.warpAffine(mask, mw, (n, n))
    size = 2 * half
    mask_s = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    box = composite_die(canvas, cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA), mask_s,
                        spec.centre, spec.size, (0.06, 0.06, 0.04, 0.45))
    return DieTruth(box, spec.kind, spec.value, spec.colour, spec.cocked)


def composite_die(canvas: np.ndarray, patch: np.ndarray, alpha: np.ndarray, centre: tuple[float, float],
                  size: float, shadow: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """Lay a drawn die onto ``canvas`` (BGR uint8, in place), a soft shadow first, and return its
    box (x, y, w, h; zeros when nothing of it lands on the canvas). ``patch`` (float BGR) and
    ``alpha`` (0-1) are square, centred on ``centre``; ``shadow`` is (blur, drop down, drop
    right, darkness): the first three as shares of the die's ``size`` in pixels."""
    blur, down, right, dark = shadow
    side = patch.shape[0]
    half = side // 2
    x0 = int(round(centre[0])) - half
    y0 = int(round(centre[1])) - half
    H, W = canvas.shape[:2]
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(W, x0 + side), min(H, y0 + side)
    if sx1 <= sx0 or sy1 <= sy0:
        return (0, 0, 0, 0)
    px0, py0 = sx0 - x0, sy0 - y0
    region = canvas[sy0:sy1, sx0:sx1].astype(np.float32)
    soft = cv2.GaussianBlur(alpha, (0, 0), max(0.8, size * blur))
    sh = np.roll(np.roll(soft, max(1, int(size * down)), 0), max(1, int(size * right)), 1)
    sh = sh[py0 : py0 + (sy1 - sy0), px0 : px0 + (sx1 - sx0)]
    region *= (1 - dark * sh)[..., None]
    a = alpha[py0 : py0 + (sy1 - sy0), px0 : px0 + (sx1 - sx0)][..., None]
    region = region * (1 - a) + patch[py0 : py0 + (sy1 - sy0), px0 : px0 + (sx1 - sx0)] * a
    canvas[sy0:sy1, sx0:sx1] = np.clip(region, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(alpha > 0.35)
    if len(xs) == 0:
        return (0, 0, 0, 0)
    bx0, by0 = max(0, x0 + int(xs.min())), max(0, y0 + int(ys.min()))
    bx1, by1 = min(W, x0 + int(xs.max()) + 1), min(H, y0 + int(ys.max()) + 1)
    return (bx0, by0, bx1 - bx0, by1 - by0)


def table_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A plain, felt, wood or printed-board-like surface with uneven light."""
    style = int(rng.integers(4))
    base = rng.uniform(20, 235, 3)
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    if style == 1:  # felt / noise texture
        noise = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 2)
        img += (noise * 18)[..., None]
    elif style == 2:  # wood grain
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(y * f + 3 * np.sin(x * 0.01 + rng.uniform(0, 6))) * 18
        img += grain[..., None] * np.array([0.6, 0.8, 1.0], np.float32)
    elif style == 3:  # board-like: coloured rectangles, lines, text
        for _ in range(int(rng.integers(4, 12))):
            x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
            w, h = int(rng.integers(20, width // 2 + 21)), int(rng.integers(20, height // 2 + 21))
            cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h), tuple(float(v) for v in rng.uniform(20, 235, 3)), -1)
        for _ in range(int(rng.integers(3, 10))):
            cv2.line(img, (int(rng.integers(width)), int(rng.integers(height))),
                     (int(rng.integers(width)), int(rng.integers(height))), (20, 20, 20), 2)
        for _ in range(int(rng.integers(0, 6))):
            cv2.putText(img, "RENT $" + str(int(rng.integers(2, 400))),
                        (int(rng.integers(width)), int(rng.integers(height))), cv2.FONT_HERSHEY_SIMPLEX,
                        float(rng.uniform(0.4, 1.2)), (20, 20, 20), 1, cv2.LINE_AA)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1 + 0.25 * ((xx / width - rng.random()) * rng.normal() + (yy / height - rng.random()) * rng.normal())
    img *= np.clip(light, 0.5, 1.5)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def random_spec(
    rng: np.random.Generator, centre: tuple[float, float], size: float, kinds: tuple[str, ...] = KINDS,
    cocked_rate: float = 0.0, realistic: bool = False,
) -> DieSpec:
    kind = str(rng.choice(kinds))
    colour = str(rng.choice(list(PALETTE)))
    cocked = bool(rng.random() < cocked_rate)
    return DieSpec(
        kind=kind,
        value=int(rng.integers(1, FACES[kind] + 1)),
        centre=centre,
        size=size,
        angle=float(rng.uniform(0, 360)),
        colour=colour,
        style=int(rng.integers(0, 1000)),
        tilt=float(rng.uniform(0.3, 0.5)) if cocked else float(rng.uniform(0, 0.12)),
        glare=float(rng.uniform(0.3, 0.9)) if rng.random() < 0.3 else 0.0,
        cocked=cocked,
        realistic=realistic,
    )


def camera_effects(img: np.ndarray, rng: np.random.Generator, blur: float | None = None,
                   noise: float | None = None) -> np.ndarray:
    """Soft focus, sensor noise and a little JPEG-like quantisation."""
    blur = float(rng.uniform(0, 1.2)) if blur is None else blur
    noise = float(rng.uniform(0, 6)) if noise is None else noise
    out: np.ndarray = img.astype(np.float32)
    if blur > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    result: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return result


def render_dice_scene(
    rng: np.random.Generator,
    size: tuple[int, int] = (1280, 720),
    n_dice: int | None = None,
    kinds: tuple[str, ...] = KINDS,
    die_px: tuple[float, float] = (28.0, 70.0),
    cocked_rate: float = 0.0,
    touching: bool = True,
    background: np.ndarray | None = None,
    effects: bool = True,
    realistic: bool = False,
) -> tuple[np.ndarray, list[DieTruth]]:
    """A BGR frame of ``size`` (width, height) with dice on a table, and their ground truth.
    ``realistic``: numbered dice in the look real ones have from above (``DieSpec.realistic``).

    Dice do not overlap; with ``touching`` some are placed edge to edge.
    """
    width, height = size
    img = table_background(rng, width, height) if background is None else background.copy()
    n = int(rng.integers(1, 7)) if n_dice is None else n_dice
    placed: list[tuple[float, float, float]] = []
    truths: list[DieTruth] = []
    for _ in range(n):
        s = float(rng.uniform(*die_px))
        for _attempt in range(40):
            if touching and placed and rng.random() < 0.3:
                px, py, ps = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * math.pi)
                d = (ps + s) * 0.5 * 1.05
                cx, cy = px + d * math.cos(a), py + d * math.sin(a)
            else:
                cx, cy = rng.uniform(s, width - s), rng.uniform(s, height - s)
            if not (s * 0.6 < cx < width - s * 0.6 and s * 0.6 < cy < height - s * 0.6):
                continue
            if all(math.hypot(cx - px, cy - py) > (s + ps) * 0.5 * 1.02 for px, py, ps in placed):
                break
        else:
            continue
        spec = random_spec(rng, (cx, cy), s, kinds, cocked_rate, realistic)
        truths.append(draw_die(img, spec, rng))
        placed.append((cx, cy, s))
    if effects:
        img = camera_effects(img, rng)
    return img, truths


# ----------------------------------------------------------------------------- training helpers


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)


def training_scene(rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[float, float, float, float, int]]]:
    """A grey 640x640 scene for the detector: boxes (x, y, w, h, class) of every die."""
    from vision.dice.labels import CLASS_INDEX, COCKED, class_of

    img, truths = render_dice_scene(
        rng, (640, 640), n_dice=int(rng.integers(0, 12)), die_px=(14.0, 120.0), cocked_rate=0.1,
        background=training_background(rng, 640, 640),
    )
    _clutter(img, rng)
    out = []
    for t in truths:
        if t.box[2] < 3:
            continue
        cls = CLASS_INDEX[COCKED] if t.cocked else class_of(t.kind, t.value)
        out.append((float(t.box[0]), float(t.box[1]), float(t.box[2]), float(t.box[3]), cls))
    return _grey(img), out


def _clutter(img: np.ndarray, rng: np.random.Generator) -> None:
    """Things that are not dice: pawns (discs), cards, a hand-like blob."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, 4))):
        kind = int(rng.integers(3))
        col = tuple(float(v) for v in rng.uniform(20, 235, 3))
        x, y = int(rng.integers(w)), int(rng.integers(h))
        if kind == 0:
            cv2.circle(img, (x, y), int(rng.integers(8, 40)), col, -1, cv2.LINE_AA)
        elif kind == 1:
            box = ((x, y), (float(rng.uniform(40, 160)), float(rng.uniform(60, 220))), float(rng.uniform(0, 180)))
            cv2.fillPoly(img, [cv2.boxPoints(box).astype(np.int32)], col, cv2.LINE_AA)
        else:
            skin = (float(rng.uniform(90, 160)), float(rng.uniform(120, 190)), float(rng.uniform(170, 240)))
            cv2.ellipse(img, (x, y), (int(rng.integers(40, 120)), int(rng.integers(60, 160))),
                        float(rng.uniform(0, 180)), 0, 360, skin, -1, cv2.LINE_AA)


CONTEXT_MARGIN = 1.15 * 1.5
"""Training crops keep this much context around a die (times its box side); the training script
rotates, scales and shifts them and cuts the reader's crop (margin 1.15) out of the middle."""
CONTEXT_SIZE = 96


def speckled_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A dark tray: near-black felt or plastic with sensor noise, colour speckle and a few bright
    specks (dust, glitter), as the black dice-tower trays look under a small camera."""
    base = rng.uniform(4, 45)
    img = np.full((height, width, 3), base, np.float32)
    img += rng.uniform(-6, 6, 3).astype(np.float32)
    grain = rng.normal(0, rng.uniform(2, 14), (height, width, 3)).astype(np.float32)
    if rng.random() < 0.5:
        grain = cv2.GaussianBlur(grain, (0, 0), float(rng.uniform(0.5, 1.5))) * 1.8
    img += grain
    n_specks = int(rng.integers(0, max(2, width * height // 600)))
    for _ in range(n_specks):
        x, y = int(rng.integers(width)), int(rng.integers(height))
        v = tuple(float(c) for c in rng.uniform(60, 255) * rng.uniform(0.6, 1.0, 3))
        cv2.circle(img, (x, y), int(rng.integers(0, 3)), v, -1, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def board_print_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A patch of the synthetic table's printed board (squares, icons, text, markers) at a
    random scale and rotation: what lies around dice thrown on the board."""
    try:
        from vision.synthetic.table import board_texture
    except Exception:  # pragma: no cover - the table needs the board package
        return table_background(rng, width, height)
    tex = board_texture()
    scale = float(math.exp(rng.uniform(math.log(0.3), math.log(1.1))))
    cx, cy = rng.uniform(0, tex.shape[1]), rng.uniform(0, tex.shape[0])
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(rng.uniform(0, 360)), scale)
    m[0, 2] += width / 2 - cx
    m[1, 2] += height / 2 - cy
    out = cv2.warpAffine(tex, m, (width, height), flags=cv2.INTER_AREA,
                         borderMode=cv2.BORDER_REFLECT)
    gain = float(rng.uniform(0.6, 1.2))
    result: np.ndarray = np.clip(np.asarray(out, np.float32) * gain, 0, 255).astype(np.uint8)
    return result


def training_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Backgrounds for training: plain tables, dark speckled trays and printed board."""
    roll = rng.random()
    if roll < 0.45:
        return table_background(rng, width, height)
    if roll < 0.7:
        return speckled_background(rng, width, height)
    return board_print_background(rng, width, height)


def training_crops(
    rng: np.random.Generator, size: int = CONTEXT_SIZE, margin: float = CONTEXT_MARGIN,
    scene: int = 384, realistic: bool = False,
) -> list[tuple[np.ndarray, int]]:
    """Classifier samples from one rendered scene: a grey context crop of every die (centred
    on its box, ``margin`` times its side) and of a few places that are not dice.
    ``realistic``: numbered dice in the look real ones have from above (``DieSpec.realistic``)."""
    from vision.dice.labels import CLASS_INDEX, COCKED, NONE, class_of
    from vision.dice.models import crop_square

    lo, hi = (12.0, 40.0) if rng.random() < 0.3 else (24.0, 100.0)
    bg = training_background(rng, scene, scene)
    if rng.random() < 0.5:
        _clutter(bg, rng)
    img, truths = render_dice_scene(
        rng, (scene, scene), n_dice=int(rng.integers(2, 9)), die_px=(lo, hi), cocked_rate=0.07,
        background=bg, effects=True, realistic=realistic,
    )
    grey = _grey(img)
    out: list[tuple[np.ndarray, int]] = []
    boxes = []
    for t in truths:
        x, y, w, h = t.box
        if w < 4 or h < 4 or x <= 0 or y <= 0 or x + w >= scene or y + h >= scene:
            continue
        cls = CLASS_INDEX[COCKED] if t.cocked else class_of(t.kind, t.value)
        box = (float(x), float(y), float(w), float(h))
        boxes.append(box)
        out.append((crop_square(grey, box, size, margin), cls))
    for _ in range(int(rng.integers(1, 4))):
        s = float(math.exp(rng.uniform(math.log(10), math.log(110))))
        bx, by = float(rng.uniform(0, scene - s)), float(rng.uniform(0, scene - s))
        if all(_overlap((bx, by, s, s), b) < 0.1 for b in boxes):
            out.append((crop_square(grey, (bx, by, s, s), size, margin), CLASS_INDEX[NONE]))
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over the smaller box's area."""
    iw = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return iw * ih / max(1e-6, min(a[2] * a[3], b[2] * b[3]))


# ----------------------------------------------------------------------------- rolling source


class RollingDiceSource:
    """A frame source of repeated rolls: tumbling frames, then still frames of the result.

    ``rolls`` holds each roll's ground truth in order (filled as frames are produced). Still
    frames differ only by sensor noise, as a real camera's do.
    """

    def __init__(
        self,
        seed: int = 0,
        n_rolls: int = 3,
        size: tuple[int, int] = (1280, 720),
        n_dice: int = 2,
        kinds: tuple[str, ...] = ("d6",),
        moving_frames: int = 8,
        still_frames: int = 15,
        cocked_rate: float = 0.0,
        die_px: tuple[float, float] = (40.0, 64.0),
        still_scale: int = 1,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.size = size
        self.still_scale = still_scale
        """Above 1: each roll's result is drawn at this many times the frame size, the frames
        show it shrunk, and :meth:`capture_still` gives the full drawing (a camera whose sensor
        has more pixels than its video frames); 1: no stills."""
        self._big: np.ndarray | None = None
        self._still_rng = np.random.default_rng([seed, 1])  # stills never change the frames
        self.n_rolls = n_rolls
        self.n_dice = n_dice
        self.kinds = kinds
        self.moving_frames = moving_frames
        self.still_frames = still_frames
        self.cocked_rate = cocked_rate
        self.die_px = die_px
        self.background = table_background(self.rng, *size)
        self.rolls: list[list[DieTruth]] = []
        self._frames = self._generate()

    def _generate(self) -> Iterator[np.ndarray]:
        for _ in range(self.n_rolls):
            for _ in range(self.moving_frames):
                img, _ = render_dice_scene(
                    self.rng, self.size, self.n_dice, self.kinds, self.die_px,
                    background=self.background, effects=False,
                )
                yield camera_effects(img, self.rng, blur=float(self.rng.uniform(2, 5)), noise=2.0)
            if self.still_scale > 1:
                still, truths = self._render_big()
            else:
                still, truths = render_dice_scene(
                    self.rng, self.size, self.n_dice, self.kinds, self.die_px,
                    cocked_rate=self.cocked_rate, background=self.background, effects=False,
                )
            self.rolls.append(truths)
            for _ in range(self.still_frames):
                yield camera_effects(still, self.rng, blur=0.0, noise=2.0)

    def _render_big(self) -> tuple[np.ndarray, list[DieTruth]]:
        """The roll's result drawn at ``still_scale`` times the frame size (kept for
        :meth:`capture_still`), the frame-sized picture of it, and its truth in frame pixels."""
        k = self.still_scale
        w, h = self.size
        bg = cv2.resize(self.background, (w * k, h * k), interpolation=cv2.INTER_LINEAR)
        big, truths = render_dice_scene(
            self.rng, (w * k, h * k), self.n_dice, self.kinds,
            (self.die_px[0] * k, self.die_px[1] * k), cocked_rate=self.cocked_rate,
            background=bg, effects=False,
        )
        self._big = big
        small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
        return small, [replace(t, box=tuple(int(round(v / k)) for v in t.box)) for t in truths]  # type: ignore[arg-type]

    def read(self) -> np.ndarray | None:
        return next(self._frames, None)

    def capture_still(self) -> Still | None:
        """The last roll's result at ``still_scale`` times the frame size, with sensor noise,
        as a ``hardware.camera.Still``; None without stills (``still_scale`` 1) or before the
        first result."""
        if self.still_scale <= 1 or self._big is None:
            return None
        from hardware.camera import Still

        k = float(self.still_scale)
        return Still(camera_effects(self._big, self._still_rng, blur=0.0, noise=2.0), (k, k))

    def close(self) -> None:
        self._frames = iter(())


def register_dice_source() -> None:
    """Add ``synthetic-dice[:SEED]`` to ``hardware.camera.open_source`` (for ``dice watch``)."""
    from hardware.camera import register_source

    def factory(rest: str) -> RollingDiceSource:
        seed = int(rest) if rest.strip().isdigit() else 0
        return RollingDiceSource(seed=seed, n_rolls=5, kinds=("d6",), n_dice=2)

    register_source("synthetic-dice", factory)


register_dice_source()  # ``synthetic-dice`` opens once this module is imported
