"""Numbered dice drawn as opaque plastic dice look to a camera above a tray.

The faceted look of :mod:`vision.synthetic.dice` draws a die as flat polygons with strong edges,
bold Hershey numbers and many body colours. Real numbered dice seen from above look otherwise
(docs/vision-dice.md, "Each real die, network by network"): one strong body colour, often
saturated past what the camera can hold; faces lit almost alike, so the top face barely stands
out; rounded edges that darken towards the outline; thin numbers of a sans-serif dice font,
white on dark and saturated bodies, dark on light ones, a 6 and a 9 marked by a bar or a dot;
and the numbers of the faces around the top one in view, turned and foreshortened.

:func:`draw_plastic_die` draws one such die; :func:`render_plastic_scene` places a few of them on
a background. Fonts are TrueType files (the system's DejaVu family and pygame-ce's own
``freesansbold.ttf``) rendered with ``pygame.font``; where none is found the Hershey fonts of
OpenCV stand in. All randomness comes from the generator passed in, so a seed fixes a scene (on
a machine with the same fonts).

Used for training data only (``scripts/train_number_reader.py renders --plastic``); nothing at
run time imports it.
"""

from __future__ import annotations

import colorsys
import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.synthetic.dice import FACES, DieTruth, _label, _outline, composite_die

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"),
             Path("/usr/share/fonts/truetype/freefont"))
FONT_NAMES = (
    "DejaVuSans.ttf", "DejaVuSans-ExtraLight.ttf", "DejaVuSansCondensed.ttf", "DejaVuSans-Bold.ttf",
    "DejaVuSerif.ttf", "LiberationSans-Regular.ttf", "LiberationSansNarrow-Regular.ttf", "FreeSans.ttf",
)
# number height as a share of the die's footprint radius, per type (real dice: the number is
# about a third of the die's box on a d8, d10 and d12, a little less on a d20)
NUMBER_HEIGHT = {"d8": 0.5, "d10": 0.58, "d12": 0.5, "d20": 0.4}


@lru_cache(maxsize=1)
def font_files() -> tuple[str, ...]:
    """The TrueType fonts found on this machine (may be empty)."""
    found = [str(d / n) for n in FONT_NAMES for d in FONT_DIRS if (d / n).is_file()]
    try:
        import pygame

        own = Path(pygame.__file__).parent / "freesansbold.ttf"
        if own.is_file():
            found.append(str(own))
    except ImportError:
        pass
    return tuple(found)


@lru_cache(maxsize=4096)
def _glyph_tile(text: str, font_index: int, mark: str) -> np.ndarray:
    """A white-on-black uint8 tile of ``text`` about 96 px tall (digits' height), cropped to
    the ink, with a 6's or 9's bar (``mark`` "bar") or dot ("dot") added."""
    fonts = font_files()
    if fonts and font_index >= 0:
        import pygame

        if not pygame.font.get_init():
            pygame.font.init()
        font = pygame.font.Font(fonts[font_index % len(fonts)], 128)
        surf = font.render(text + ("." if mark == "dot" else ""), True, (255, 255, 255), (0, 0, 0))
        tile = np.ascontiguousarray(pygame.surfarray.array3d(surf)[:, :, 0].T)
    else:
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, 96, 3)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)
        tile = np.zeros((th + 60, tw + 40), np.uint8)
        cv2.putText(tile, text + ("." if mark == "dot" else ""), (20, th + 20), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, 255, 3, cv2.LINE_AA)
    ys, xs = np.nonzero(tile > 40)
    if len(xs) == 0:
        return tile
    tile = tile[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if mark == "bar":
        h, w = tile.shape
        bar = max(2, h // 14)
        out = np.zeros((h + 3 * bar, w), np.uint8)
        out[:h] = tile
        cv2.rectangle(out, (w // 6, h + bar), (w - 1 - w // 6, h + 2 * bar), 255, -1)
        tile = out
    pad = 8
    return np.pad(tile, pad)


def _paste(patch: np.ndarray, tile: np.ndarray, centre: tuple[float, float], height: float, angle: float,
           colour: np.ndarray, squash: float = 1.0, weight: int = 0, clip: np.ndarray | None = None) -> None:
    """Ink ``tile`` into ``patch`` centred at ``centre``, ``height`` px tall, turned by ``angle``
    degrees and squashed along its own vertical axis by ``squash``; ``weight`` > 0 thickens the
    strokes; ``clip`` (0-1 float) limits the ink to a region."""
    if weight > 0:
        tile = cv2.dilate(tile, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * weight + 1, 2 * weight + 1)))
    th, tw = tile.shape
    k = height / max(1, th - 16)
    a = math.radians(angle)
    # tile coords -> patch: scale, squash the tile's vertical axis, turn, move
    lin = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) @ np.diag([k, k * squash])
    off = np.array(centre) - lin @ np.array([tw / 2, th / 2])
    m = np.hstack([lin, off[:, None]])
    mask = cv2.warpAffine(tile, m, (patch.shape[1], patch.shape[0]), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    alpha = mask.astype(np.float32) / 255.0
    if clip is not None:
        alpha *= clip
    patch[:] = patch * (1 - alpha[..., None]) + colour[None, None, :] * alpha[..., None]


def plastic_colour(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(body, ink) BGR float colours: mostly one strong saturated colour, sometimes white,
    ivory, black or grey; white ink on dark and saturated bodies, dark ink on light ones, gold
    now and then."""
    roll = rng.random()
    if roll < 0.72:
        h = rng.random()
        s = rng.uniform(0.65, 1.0)
        v = rng.uniform(0.55, 1.0)
    elif roll < 0.84:
        h, s, v = rng.random(), rng.uniform(0, 0.15), rng.uniform(0.8, 1.0)
    elif roll < 0.94:
        h, s, v = rng.random(), rng.uniform(0, 0.3), rng.uniform(0.08, 0.25)
    else:
        h, s, v = rng.random(), rng.uniform(0, 0.1), rng.uniform(0.35, 0.6)
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    body = np.array([b, g, r], np.float32) * 255
    luma = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if luma > 125:
        # dark ink on a light body: black, now and then a dark blue or red
        ink = np.array(rng.uniform(10, 50, 3), np.float32)
        if rng.random() < 0.15:
            ink[0 if rng.random() < 0.5 else 2] = rng.uniform(90, 150)  # blue or red (BGR)
    elif rng.random() < 0.12:
        ink = np.array([60, 200, 235], np.float32)  # gold
    else:
        ink = np.array(rng.uniform(225, 255, 3), np.float32)
    return body, ink


def draw_plastic_die(canvas: np.ndarray, kind: str, value: int, centre: tuple[float, float], size: float,
                     rng: np.random.Generator) -> DieTruth:
    """Draw one numbered die (d8, d10, d12 or d20) showing ``value`` onto ``canvas`` (BGR uint8,
    in place), ``size`` px across its footprint, at a random turn, and return its truth."""
    ss = 3
    r = size / 2
    half = int(math.ceil(r * 1.4)) + 4
    n = 2 * half * ss
    c = n / 2
    rr = r * ss
    body, ink = plastic_colour(rng)
    sil, top = _outline(kind, rr, realistic=True)
    # the outline, rounded
    mask = np.zeros((n, n), np.uint8)
    cv2.fillPoly(mask, [np.round(sil + c).astype(np.int32)], 255, cv2.LINE_AA)
    rounding = rr * rng.uniform(0.04, 0.12)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), rounding)
    mask_f = np.clip((soft - 0.5) * 6 + 0.5, 0, 1)
    # faces: the top one, and around it one face per top edge (each pixel outside the top face
    # belongs to the side face of its nearest top edge); a d20 also shows a ring of six smaller
    # faces towards its outline, one at each corner of its hexagonal outline
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    px, py = xx - c, yy - c
    topmask = np.zeros((n, n), np.uint8)
    cv2.fillPoly(topmask, [np.round(top + c).astype(np.int32)], 255, cv2.LINE_AA)
    dists = []
    for i in range(len(top)):
        a, b = top[i], top[(i + 1) % len(top)]
        ab = b - a
        t = np.clip(((px - a[0]) * ab[0] + (py - a[1]) * ab[1]) / float(ab @ ab), 0, 1)
        dists.append(np.hypot(px - (a[0] + t * ab[0]), py - (a[1] + t * ab[1])))
    if kind == "d20":
        dists = [d + rr * 0.22 for d in dists]
        for k in range(6):
            corner = sil[k] * 0.88
            dists.append(np.hypot(px - corner[0], py - corner[1]))
    side_of = np.argmin(np.stack(dists), 0)
    light = rng.uniform(0.78, 1.0, len(dists)).astype(np.float32)  # soft, even light
    shade = light[side_of]
    topf = cv2.GaussianBlur(topmask.astype(np.float32) / 255.0, (0, 0), max(1.0, rr * 0.02))
    shade = shade * (1 - topf) + rng.uniform(0.95, 1.08) * topf
    # rounded edges darken (or catch light) towards the outline
    dist_in = cv2.distanceTransform((mask_f > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    rim = np.clip(dist_in / (rr * rng.uniform(0.08, 0.2)), 0, 1)
    edge_dark = rng.uniform(0.55, 0.85)
    shade = shade * (edge_dark + (1 - edge_dark) * rim)
    exposure = rng.uniform(1.0, 1.5)
    patch = body[None, None, :] * (shade * exposure)[..., None]
    # faint facet edges: a soft line, darker or lighter, along the top face's edges
    lines = np.zeros((n, n), np.float32)
    cv2.polylines(lines, [np.round(top + c).astype(np.int32)], True, 1.0, max(1, ss), cv2.LINE_AA)
    edges: np.ndarray = cv2.GaussianBlur(lines, (0, 0), rr * 0.015 + 1)
    edges /= max(1e-3, float(edges.max()))
    patch *= (1 + rng.uniform(-0.12, 0.1) * edges)[..., None]
    # the top number
    fonts = font_files()
    font_index = int(rng.integers(len(fonts))) if fonts and rng.random() < 0.9 else -1
    weight = int(rng.choice([0, 0, 0, 1, 2])) * ss
    label = _label(value, kind)
    mark = ""
    if label in ("6", "9") or (kind == "d20" and label in ("16", "19", "66")):
        mark = "bar" if rng.random() < 0.55 else "dot"
    height = NUMBER_HEIGHT[kind] * rr * rng.uniform(0.75, 1.1) * (0.9 if len(label) == 2 else 1.0)
    cy = c + (0.1 * rr if kind in ("d8", "d20") else 0.04 * rr if kind == "d10" else 0.0)
    inkc = ink * rng.uniform(0.9, 1.05)
    _paste(patch, _glyph_tile(label, font_index, mark), (c, cy), height, float(rng.normal(0, 3)), inkc, 1.0, weight)
    # the numbers of the faces around it, turned outwards and foreshortened, clipped by the outline
    others = [v for v in range(1, FACES[kind] + 1) if v != value]
    # a d20's neighbours are smaller faces seen steeply: their numbers are smaller than a d8's
    side_h = height * (rng.uniform(0.5, 0.75) if kind == "d20" else rng.uniform(0.7, 0.95))
    for i in range(len(top)):
        if rng.random() < 0.15:
            continue
        mid = (top[i] + top[(i + 1) % len(top)]) / 2
        dist = float(np.linalg.norm(mid))
        if dist < 1e-6:
            continue
        u = mid / dist
        reach = rr * (0.95 if kind != "d12" else 0.9)
        at = dist + (reach - dist) * rng.uniform(0.45, 0.75)
        phi = math.degrees(math.atan2(u[1], u[0]))
        turn = phi + 90 + (180 if rng.random() < 0.5 else 0) + float(rng.normal(0, 12))
        v = int(rng.choice(others))
        text = _label(v, kind)
        smark = "bar" if text in ("6", "9") and rng.random() < 0.6 else ""
        _paste(patch, _glyph_tile(text, font_index, smark), (c + u[0] * at, c + u[1] * at), side_h, turn,
               inkc * 0.92, rng.uniform(0.45, 0.8), weight, clip=mask_f)
    if kind == "d20":
        # the outer ring's numbers, small, cut by the outline
        for k in range(6):
            if rng.random() < 0.5:
                continue
            phi = k * math.pi / 3 + rng.normal(0, 0.1)
            at = rr * rng.uniform(0.78, 0.9)
            _paste(patch, _glyph_tile(str(int(rng.integers(1, 21))), font_index, ""),
                   (c + math.cos(phi) * at, c + math.sin(phi) * at), side_h * 0.7,
                   math.degrees(phi) + 90, inkc * 0.9, rng.uniform(0.3, 0.6), weight, clip=mask_f)
    # a soft light across the die, and now and then a dull glare
    g = np.linspace(-1, 1, n, dtype=np.float32)
    ga = rng.uniform(0, 2 * math.pi)
    patch *= (1 + rng.uniform(0, 0.15) * (np.cos(ga) * g[None, :] + np.sin(ga) * g[:, None]))[..., None]
    if rng.random() < 0.15:
        gx, gy = c + rng.uniform(-0.5, 0.5) * rr, c + rng.uniform(-0.5, 0.5) * rr
        sig = rr * rng.uniform(0.1, 0.3)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig)) * rng.uniform(0.2, 0.6)
        patch = patch + (255 - patch) * spot[..., None]
    # pose: a turn and a slight slant
    t = float(rng.uniform(0, 0.1))
    m = np.vstack([cv2.getRotationMatrix2D((c, c), float(rng.uniform(0, 360)), 1.0), [0, 0, 1]])
    squash = np.array([[1, 0, 0], [0, 1 - t, c * t], [0, 0, 1]], np.float64)
    mw = (m @ squash)[:2]
    patch = cv2.warpAffine(patch, mw, (n, n))
    mask_f = cv2.warpAffine(mask_f, mw, (n, n))
    # down to size and onto the canvas, a soft shadow first
    side = 2 * half
    box = composite_die(canvas, cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA),
                        cv2.resize(mask_f, (side, side), interpolation=cv2.INTER_AREA), centre, size,
                        (0.05, 0.04, 0.03, 0.5))
    return DieTruth(box, kind, value, "plastic", False)


def render_plastic_scene(rng: np.random.Generator, background: np.ndarray, n_dice: int, kinds: tuple[str, ...],
                         die_px: tuple[float, float]) -> tuple[np.ndarray, list[DieTruth]]:
    """``background`` (BGR, copied) with up to ``n_dice`` plastic dice of ``kinds`` that do not
    overlap, and their truths."""
    img = background.copy()
    height, width = img.shape[:2]
    placed: list[tuple[float, float, float]] = []
    truths: list[DieTruth] = []
    for _ in range(n_dice):
        s = float(rng.uniform(*die_px))
        for _attempt in range(40):
            cx, cy = rng.uniform(s * 0.6, width - s * 0.6), rng.uniform(s * 0.6, height - s * 0.6)
            if all(math.hypot(cx - px, cy - py) > (s + ps) * 0.5 * 1.1 for px, py, ps in placed):
                break
        else:
            continue
        kind = str(rng.choice(kinds))
        truths.append(draw_plastic_die(img, kind, int(rng.integers(1, FACES[kind] + 1)), (cx, cy), s, rng))
        placed.append((cx, cy, s))
    return img, truths
