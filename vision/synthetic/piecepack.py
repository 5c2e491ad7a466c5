"""Rendered piecepack pieces on a table: the training and benchmark frames of ``vision.piecepack``.

The designs follow the piecepack's published anatomy: four suits (suns, moons, crowns, arms),
values null (blank), ace and 2-5. Drawn here as:

- a die: a cube in its suit's colour (suns red, moons black, crowns green or yellow, arms blue),
  its top face showing the value in light ink (null blank, ace an "A", 2-5 a numeral), seen
  from above with its sides showing on a slant;
- a coin: a light disc (one stock colour per set: ivory, tan or grey), the value side a dark
  numeral (no suit), the suit side the suit's symbol in the suit's colour;
- a tile: a 2x2 grid of spaces (the face-down back: a grid on a plain colour);
- a pawn: a disc base with a rounded top in the suit's colour, drawn leaning away from the
  camera as a standing piece does.

Two kinds of frame, each deterministic from its seed:

- :func:`render_dice_area`: dice and coins thrown in a dice area (1280x720 by default) on a
  table, tray or printed surface, with a perspective slant, uneven light, blur, sensor noise
  and JPEG; the truth gives every piece's box and face;
- :func:`render_table`: tiles, coins and pawns laid on the table plane of the printed marker
  sheet (``companion markers``), seen by a camera at a slant; the truth gives each tile's and
  pawn's place on the dungeon grid (``vision.piecepack.placement.DungeonGrid``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

SUITS: tuple[str, ...] = ("suns", "moons", "crowns", "arms")
VALUE_LABELS: tuple[str, ...] = ("null", "ace", "2", "3", "4", "5")

SUIT_BGR: dict[str, tuple[int, int, int]] = {
    "suns": (40, 40, 200), "moons": (35, 32, 30), "crowns": (50, 140, 40), "arms": (170, 80, 30)}
"""Each suit's colour (BGR): red, black, green, blue. Crowns are yellow on some sets
(:data:`CROWNS_YELLOW`)."""
CROWNS_YELLOW: tuple[int, int, int] = (30, 190, 225)
COIN_STOCKS: tuple[tuple[int, int, int], ...] = ((200, 225, 235), (140, 175, 205), (190, 190, 190),
                                                 (120, 150, 180))

DIE_MM = 16.0
COIN_MM = 19.0
TILE_MM = 50.8
PAWN_MM = 15.0
PAWN_HEIGHT_MM = 25.0


# --- symbols and faces -----------------------------------------------------------------------

def _rot(pts: np.ndarray, centre: tuple[float, float], scale: float, angle: float) -> np.ndarray:
    a = math.radians(angle)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    out: np.ndarray = np.asarray(pts, np.float64) @ r.T * scale + np.asarray(centre)
    return out


def _fill(img: np.ndarray, poly: np.ndarray, colour: tuple[int, ...]) -> None:
    cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _disc(img: np.ndarray, c: np.ndarray | tuple[float, float], r: float,
          colour: tuple[int, ...], thick: int = -1) -> None:
    cv2.circle(img, (int(round(c[0] * 16)), int(round(c[1] * 16))), max(1, int(round(r * 16))),
               colour, thick, cv2.LINE_AA, 4)


def draw_suit(img: np.ndarray, suit: str, centre: tuple[float, float], size: float,
              angle: float, colour: tuple[int, ...], ground: tuple[int, ...]) -> None:
    """The suit's symbol, ``size`` pixels across, turned by ``angle`` degrees."""
    s = size / 2
    if suit == "suns":
        rays = []
        for k in range(8):
            a = math.radians(angle + k * 45)
            b = math.radians(angle + k * 45 + 90)
            tip = (math.cos(a), math.sin(a))
            side = (math.cos(b) * 0.16, math.sin(b) * 0.16)
            rays.append(np.array([[tip[0], tip[1]], [0.5 * tip[0] + side[0], 0.5 * tip[1] + side[1]],
                                  [0.5 * tip[0] - side[0], 0.5 * tip[1] - side[1]]]))
        for ray in rays:
            _fill(img, ray * s + np.asarray(centre), colour)
        _disc(img, centre, 0.55 * s, colour)
    elif suit == "moons":
        _disc(img, centre, 0.9 * s, colour)
        off = _rot(np.array([[0.42, -0.18]]), centre, s, angle)[0]
        _disc(img, off, 0.78 * s, ground)
    elif suit == "crowns":
        pts = np.array([[-0.85, 0.55], [-0.9, -0.45], [-0.45, 0.0], [0.0, -0.7], [0.45, 0.0],
                        [0.9, -0.45], [0.85, 0.55]])
        _fill(img, _rot(pts, centre, s, angle), colour)
        for tip in ((-0.9, -0.55), (0.0, -0.82), (0.9, -0.55)):
            _disc(img, _rot(np.array([tip]), centre, s, angle)[0], 0.14 * s, colour)
        band = np.array([[-0.85, 0.62], [0.85, 0.62], [0.85, 0.8], [-0.85, 0.8]])
        _fill(img, _rot(band, centre, s, angle), colour)
    else:  # arms: a fleur-de-lis
        petal = np.array([[0.0, -0.95], [0.22, -0.45], [0.18, 0.1], [0.0, 0.3], [-0.18, 0.1],
                          [-0.22, -0.45]])
        _fill(img, _rot(petal, centre, s, angle), colour)
        for sign in (-1, 1):
            curl = np.array([[0.1, 0.05], [0.45, -0.45], [0.85, -0.35], [0.75, 0.0],
                             [0.55, 0.1], [0.35, 0.45], [0.1, 0.3]]) * [sign, 1]
            _fill(img, _rot(curl, centre, s, angle), colour)
        band = np.array([[-0.55, 0.28], [0.55, 0.28], [0.55, 0.45], [-0.55, 0.45]])
        _fill(img, _rot(band, centre, s, angle), colour)
        foot = np.array([[-0.12, 0.45], [0.12, 0.45], [0.3, 0.9], [-0.3, 0.9]])
        _fill(img, _rot(foot, centre, s, angle), colour)


FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX)


def draw_value(img: np.ndarray, value: int, centre: tuple[float, float], size: float,
               angle: float, colour: tuple[int, ...], font: int = 1) -> None:
    """The value's mark (nothing for null, "A" for ace, else the numeral), ``size`` px high."""
    if value == 0:
        return
    text = "A" if value == 1 else str(value)
    face = FONTS[font % len(FONTS)]
    (tw, th), _ = cv2.getTextSize(text, face, 1.0, 2)
    scale = size / max(th, 1)
    thick = max(1, int(round(scale * (2.2 if font % 2 == 0 else 1.6))))
    side = int(math.ceil(size * 2.2))
    patch = np.zeros((side, side), np.uint8)
    (tw, th), _ = cv2.getTextSize(text, face, scale, thick)
    cv2.putText(patch, text, (int((side - tw) / 2), int((side + th) / 2)), face, scale, 255,
                thick, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((side / 2, side / 2), -angle, 1.0)
    m[0, 2] += centre[0] - side / 2
    m[1, 2] += centre[1] - side / 2
    h, w = img.shape[:2]
    mask = cv2.warpAffine(patch, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    a = mask[..., None]
    img[:] = (img * (1 - a) + np.asarray(colour, np.float32) * a).astype(img.dtype)


def _local(img: np.ndarray, centre: tuple[float, float], radius: float
           ) -> tuple[np.ndarray, tuple[float, float], tuple[int, int]]:
    """A writable window of ``img`` around ``centre`` (drawing there is cheaper)."""
    h, w = img.shape[:2]
    r = int(math.ceil(radius)) + 2
    x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
    x1, y1 = min(w, int(centre[0]) + r + 1), min(h, int(centre[1]) + r + 1)
    return img[y0:y1, x0:x1], (centre[0] - x0, centre[1] - y0), (x0, y0)


# --- pieces ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """One piece: kind ``die`` | ``coin`` | ``tile`` | ``pawn``; for a coin ``side`` is
    ``value`` or ``suit`` (which side lies up)."""

    kind: str
    suit: str | None
    value: int | None
    side: str = ""
    box: tuple[int, int, int, int] = (0, 0, 0, 0)  # in the frame, pixels (x, y, w, h)
    centre: tuple[float, float] = (0.0, 0.0)  # in the frame, pixels


def suit_colour(suit: str, crowns_yellow: bool, rng: np.random.Generator) -> tuple[int, int, int]:
    base = CROWNS_YELLOW if (suit == "crowns" and crowns_yellow) else SUIT_BGR[suit]
    jitter = rng.normal(0, 8, 3)
    return tuple(int(np.clip(b + j, 0, 255)) for b, j in zip(base, jitter, strict=True))  # type: ignore[return-value]


def draw_die(img: np.ndarray, centre: tuple[float, float], side: float, angle: float,
             suit: str, value: int, body: tuple[int, int, int], lean: tuple[float, float],
             font: int, rng: np.random.Generator) -> None:
    """A die ``side`` px wide, its top face turned by ``angle``; ``lean`` is how far (px) its top
    face stands off its footprint (the camera's slant shows two sides)."""
    win, c, _ = _local(img, centre, side * 1.2 + abs(lean[0]) + abs(lean[1]))
    half = side / 2
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half * 0.96
    foot = _rot(sq / 1.0, c, 1.0, angle)
    top = foot + np.asarray(lean)
    dark = tuple(int(v * 0.55) for v in body)
    # shadow, then the sides (the hull of footprint and top), then the top face
    shadow = foot + np.asarray(lean) * -0.3 + np.array([side * 0.06, side * 0.08])
    sh = win.copy()
    _fill(sh, cv2.convexHull(shadow.astype(np.float32)).reshape(-1, 2).astype(np.float64),
          (0, 0, 0))
    cv2.addWeighted(win, 0.6, sh, 0.4, 0, dst=win)
    hull = cv2.convexHull(np.concatenate([foot, top]).astype(np.float32)).reshape(-1, 2)
    _fill(win, hull.astype(np.float64), dark)
    # rounded top face
    r = side * 0.12
    inner = _rot(sq * (1 - 0.24), c, 1.0, angle) + np.asarray(lean)
    _fill(win, inner, body)
    for p in inner:
        _disc(win, p, r, body)
    ink_base = (225, 235, 240) if sum(body) < 600 else (30, 30, 30)
    ink = tuple(int(np.clip(v + rng.normal(0, 6), 0, 255)) for v in ink_base)
    tc = (c[0] + lean[0], c[1] + lean[1])
    draw_value(win, value, tc, side * 0.5, angle, ink, font)
    # a soft highlight
    if rng.random() < 0.4:
        hl = win.copy()
        _disc(hl, (tc[0] - side * 0.2, tc[1] - side * 0.2), side * 0.25, (255, 255, 255))
        cv2.addWeighted(win, 0.85, hl, 0.15, 0, dst=win)


def draw_coin(img: np.ndarray, centre: tuple[float, float], diameter: float, angle: float,
              side: str, suit: str, value: int, stock: tuple[int, int, int],
              suit_bgr: tuple[int, int, int], ink: tuple[int, int, int], lean: tuple[float, float],
              font: int) -> None:
    win, c, _ = _local(img, centre, diameter + abs(lean[0]) + abs(lean[1]))
    r = diameter / 2
    edge = tuple(int(v * 0.6) for v in stock)
    sh = win.copy()
    _disc(sh, (c[0] + r * 0.1, c[1] + r * 0.12), r, (0, 0, 0))
    cv2.addWeighted(win, 0.65, sh, 0.35, 0, dst=win)
    _disc(win, c, r, edge)
    tc = (c[0] + lean[0], c[1] + lean[1])
    _disc(win, tc, r * 0.97, stock)
    _disc(win, tc, r * 0.86, tuple(int(v * 0.85) for v in stock), max(1, int(r * 0.05)))
    if side == "value":
        draw_value(win, value, tc, r * 0.95, angle, ink, font)
    else:
        draw_suit(win, suit, tc, r * 1.25, angle, suit_bgr, stock)


def draw_tile_back(img: np.ndarray, corners: np.ndarray, colour: tuple[int, int, int],
                   line: tuple[int, int, int], px: float) -> None:
    """A face-down tile: the four corners in texture pixels, a 2x2 grid on a plain colour."""
    _fill(img, corners, tuple(int(v * 0.6) for v in colour))
    inset = corners + (corners.mean(axis=0) - corners) * 0.03
    _fill(img, inset, colour)
    tl, tr, br, bl = inset
    thick = max(1, int(px * 0.8))
    for a, b in (((tl + tr) / 2, (bl + br) / 2), ((tl + bl) / 2, (tr + br) / 2)):
        cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), line, thick, cv2.LINE_AA)
    cv2.polylines(img, [inset.astype(np.int32)], True, line, thick, cv2.LINE_AA)


def draw_pawn(img: np.ndarray, base: tuple[float, float], radius: float,
              lean: tuple[float, float], colour: tuple[int, int, int]) -> None:
    """A pawn seen from a slant: its base disc, its body towards its top, the top disc."""
    dark = tuple(int(v * 0.6) for v in colour)
    sh = img.copy() if img.size < 4_000_000 else None
    if sh is not None:
        _disc(sh, (base[0] + radius * 0.3, base[1] + radius * 0.4), radius * 1.1, (0, 0, 0))
        cv2.addWeighted(img, 0.65, sh, 0.35, 0, dst=img)
    _disc(img, base, radius, dark)
    top = (base[0] + lean[0], base[1] + lean[1])
    n = 6
    for k in range(1, n + 1):
        t = k / n
        p = (base[0] + lean[0] * t, base[1] + lean[1] * t)
        shade = 0.6 + 0.4 * t
        _disc(img, p, radius * (1 - 0.35 * t), tuple(int(v * shade) for v in colour))
    _disc(img, top, radius * 0.55, tuple(min(255, int(v * 1.15 + 15)) for v in colour))


# --- backgrounds and camera effects ----------------------------------------------------------

def background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A plain, felt, wood, dark tray or printed surface, with uneven light."""
    style = int(rng.integers(5))
    base = rng.uniform(25, 230, 3)
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    if style == 1:  # felt
        small = rng.normal(0, 1, (height // 2, width // 2)).astype(np.float32)
        noise = cv2.resize(cv2.GaussianBlur(small, (0, 0), 1.2), (width, height))
        img += (noise * rng.uniform(6, 20))[..., None]
    elif style == 2:  # wood grain
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(y * f + 3 * np.sin(x * 0.01 + rng.uniform(0, 6))) * rng.uniform(8, 22)
        img += grain[..., None] * np.array([0.6, 0.8, 1.0], np.float32)
    elif style == 3:  # a dark tray with specks
        img[:] = rng.uniform(8, 50) + rng.uniform(-6, 6, 3)
        small = rng.normal(0, rng.uniform(2, 10), (height // 4, width // 4, 3)).astype(np.float32)
        img += cv2.resize(small, (width, height), interpolation=cv2.INTER_NEAREST)
        for _ in range(int(rng.integers(0, 200))):
            cv2.circle(img, (int(rng.integers(width)), int(rng.integers(height))),
                       int(rng.integers(0, 3)), tuple(float(v) for v in rng.uniform(60, 230, 3)),
                       -1)
    elif style == 4:  # printed: rectangles, lines, words
        for _ in range(int(rng.integers(4, 12))):
            x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
            w, h = int(rng.integers(20, width // 2)), int(rng.integers(20, height // 2))
            cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h),
                          tuple(float(v) for v in rng.uniform(20, 235, 3)), -1)
        for _ in range(int(rng.integers(3, 10))):
            cv2.line(img, (int(rng.integers(width)), int(rng.integers(height))),
                     (int(rng.integers(width)), int(rng.integers(height))), (20, 20, 20), 2)
        for _ in range(int(rng.integers(0, 6))):
            cv2.putText(img, str(rng.choice(["DUNGEON", "A 2 3", "TREASURE", "5 4"])),
                        (int(rng.integers(width)), int(rng.integers(height))),
                        cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.5, 1.5)), (20, 20, 20), 2,
                        cv2.LINE_AA)
    gx, gy = np.meshgrid(np.linspace(0, 1, 16), np.linspace(0, 1, 9))
    light = 1 + 0.25 * ((gx - rng.random()) * rng.normal() + (gy - rng.random()) * rng.normal())
    img *= cv2.resize(np.clip(light, 0.5, 1.5).astype(np.float32), (width, height))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Conditions:
    """How the camera sees the frame."""

    blur: float = 0.0  # Gaussian sigma, px
    motion: float = 0.0  # motion-blur length, px
    motion_angle: float = 0.0
    gain: float = 1.0
    gradient: float = 0.0  # fraction of light lost across the frame
    gradient_angle: float = 0.0
    warmth: float = 0.0
    noise: float = 0.0
    jpeg: int = 95

    @classmethod
    def random(cls, rng: np.random.Generator) -> Conditions:
        return cls(
            blur=float(rng.choice([0.0, rng.uniform(0.3, 1.6)])),
            motion=float(rng.choice([0.0, 0.0, rng.uniform(1.0, 4.0)])),
            motion_angle=float(rng.uniform(0, 180)),
            gain=float(rng.uniform(0.7, 1.2)),
            gradient=float(rng.uniform(0.0, 0.45)),
            gradient_angle=float(rng.uniform(0, 360)),
            warmth=float(rng.uniform(-0.1, 0.1)),
            noise=float(rng.uniform(1.0, 7.0)),
            jpeg=int(rng.integers(55, 96)),
        )


@functools.lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """Unit Gaussian sensor noise, a little larger than a 1280x720 frame; each frame takes a
    random window of it (drawing fresh noise per frame costs more than the rest)."""
    bank = np.random.default_rng(5).standard_normal((800, 1360, 3), dtype=np.float32)
    bank.setflags(write=False)
    return bank


def camera_effects(img: np.ndarray, cond: Conditions, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    out = img
    if cond.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), cond.blur)
    if cond.motion > 0.5:
        n = int(math.ceil(cond.motion)) | 1
        k = np.zeros((n, n), np.float32)
        a = math.radians(cond.motion_angle)
        cv2.line(k, (int(n / 2 - math.cos(a) * n / 2), int(n / 2 - math.sin(a) * n / 2)),
                 (int(n / 2 + math.cos(a) * n / 2), int(n / 2 + math.sin(a) * n / 2)), 1.0, 1)
        k /= max(k.sum(), 1e-6)
        out = cv2.filter2D(out, -1, k)
    gx, gy = np.meshgrid(np.linspace(-0.5, 0.5, 16), np.linspace(-0.5, 0.5, 9))
    a = math.radians(cond.gradient_angle)
    gain = cond.gain * (1 - cond.gradient * (gx * math.cos(a) + gy * math.sin(a) + 0.5))
    g3 = np.stack([gain * (1 + cond.warmth), gain, gain * (1 - cond.warmth)], axis=2)
    g_full = cv2.resize(g3.astype(np.float32), (w, h))
    f = np.asarray(cv2.multiply(out, g_full, dtype=cv2.CV_32F), np.float32)
    if cond.noise > 0:
        bank = _noise_bank()
        oy, ox = int(rng.integers(0, bank.shape[0] - h + 1)), int(rng.integers(0, bank.shape[1] - w + 1))
        f += bank[oy:oy + h, ox:ox + w] * np.float32(cond.noise)
    u8 = np.clip(f, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(cond.jpeg)])
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR)) if ok else u8


def slant(rng: np.random.Generator, width: int, height: int, amount: float) -> np.ndarray:
    """A homography that tilts the table plane by up to ``amount`` of the frame at a corner."""
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    dst = (src + rng.uniform(-amount, amount, (4, 2)) * [width, height]).astype(np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst))


# --- dice-area frames ------------------------------------------------------------------------

@dataclass(frozen=True)
class DiceAreaFrame:
    image: np.ndarray  # BGR uint8
    pieces: tuple[Piece, ...]
    conditions: Conditions
    crowns_yellow: bool


def render_dice_area(seed: int, width: int = 1280, height: int = 720, n_dice: int | None = None,
                     n_coins: int | None = None, die_px: tuple[float, float] = (38.0, 80.0),
                     slant_amount: float = 0.06) -> DiceAreaFrame:
    """Dice and coins thrown in a dice area; every piece's box and face in the truth."""
    rng = np.random.default_rng(seed)
    img = background(rng, width, height)
    crowns_yellow = bool(rng.random() < 0.5)
    stock = COIN_STOCKS[int(rng.integers(len(COIN_STOCKS)))]
    stock = tuple(int(np.clip(v + rng.normal(0, 10), 0, 255)) for v in stock)  # type: ignore[assignment]
    ink = (int(rng.uniform(15, 60)),) * 3
    font = int(rng.integers(len(FONTS)))
    nd = int(rng.integers(1, 5)) if n_dice is None else n_dice
    nc = int(rng.integers(0, 5)) if n_coins is None else n_coins
    die_side = float(rng.uniform(*die_px))
    coin_d = die_side * COIN_MM / DIE_MM * float(rng.uniform(0.9, 1.1))
    # the camera's nadir in the frame: sides lean away from it
    nadir = np.array([rng.uniform(-0.3, 1.3) * width, rng.uniform(-0.3, 1.3) * height])
    lean_k = float(rng.uniform(0.0, 0.18))
    kinds = ["die"] * nd + ["coin"] * nc
    placed: list[tuple[float, float, float]] = []
    specs: list[tuple[str, float, float, str, int, str]] = []
    for kind in kinds:
        size = die_side * 1.5 if kind == "die" else coin_d * 1.2
        for _ in range(60):
            x = float(rng.uniform(size, width - size))
            y = float(rng.uniform(size, height - size))
            if all(math.hypot(x - px, y - py) > (size + ps) * 0.62 for px, py, ps in placed):
                break
        else:
            continue
        placed.append((x, y, size))
        suit = SUITS[int(rng.integers(4))]
        value = int(rng.integers(6))
        side = "" if kind == "die" else ("value" if rng.random() < 0.5 else "suit")
        specs.append((kind, x, y, suit, value, side))
    h_slant = slant(rng, width, height, slant_amount)
    pieces: list[Piece] = []
    for kind, x, y, suit, value, side in specs:
        angle = float(rng.uniform(0, 360))
        d = np.array([x, y]) - nadir
        lean = (d / max(1.0, float(np.linalg.norm(d))) * lean_k * die_side
                * min(1.0, float(np.linalg.norm(d)) / width))
        lean_t = (float(lean[0]), float(lean[1]))
        if kind == "die":
            body = suit_colour(suit, crowns_yellow, rng)
            draw_die(img, (x, y), die_side, angle, suit, value, body, lean_t, font, rng)
            half = die_side * 0.5 * 1.1 + float(np.abs(lean).max())
            pieces.append(Piece("die", suit, value, "", (0, 0, 0, 0), (x + lean_t[0], y + lean_t[1])))
        else:
            colour = suit_colour(suit, crowns_yellow, rng)
            draw_coin(img, (x, y), coin_d, angle, side, suit, value, stock, colour, ink,
                      (lean_t[0] * 0.25, lean_t[1] * 0.25), font)
            half = coin_d / 2
            pieces.append(Piece("coin", suit if side == "suit" else None,
                                value if side == "value" else None, side, (0, 0, 0, 0), (x, y)))
        del half
    warped = cv2.warpPerspective(img, h_slant, (width, height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REFLECT)
    out_pieces = []
    for p, (kind, x, y, *_rest) in zip(pieces, specs, strict=True):
        half = (die_side * 0.62 if kind == "die" else coin_d * 0.52)
        pts = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                        [x - half, y + half], [p.centre[0], p.centre[1]]], np.float32)
        q = cv2.perspectiveTransform(pts.reshape(1, -1, 2), h_slant)[0]
        x0, y0 = q[:4].min(axis=0)
        x1, y1 = q[:4].max(axis=0)
        out_pieces.append(Piece(p.kind, p.suit, p.value, p.side,
                                (int(x0), int(y0), int(x1 - x0), int(y1 - y0)),
                                (float(q[4, 0]), float(q[4, 1]))))
    cond = Conditions.random(rng)
    image = camera_effects(warped, cond, rng)
    return DiceAreaFrame(image, tuple(out_pieces), cond, crowns_yellow)


# --- table frames (tiles and pawns on the marker sheet's plane) ------------------------------

@dataclass(frozen=True)
class TableFrame:
    image: np.ndarray  # BGR uint8
    board_to_frame: np.ndarray  # the plane (board mm) -> frame pixels, as rendered
    tiles: tuple[tuple[int, int], ...]  # dungeon tile coordinates laid
    pawns: dict[tuple[int, int], str] = field(default_factory=dict)  # space -> suit
    coins: tuple[tuple[int, int], ...] = ()  # spaces holding a coin
    conditions: Conditions = Conditions()


def random_dungeon(rng: np.random.Generator, n_tiles: int, span: int = 4
                   ) -> list[tuple[int, int]]:
    """A connected set of tiles grown from (0, 0), within ``span`` tiles of it."""
    tiles = [(0, 0)]
    while len(tiles) < n_tiles:
        tx, ty = tiles[int(rng.integers(len(tiles)))]
        dx, dy = ((1, 0), (-1, 0), (0, 1), (0, -1))[int(rng.integers(4))]
        t = (tx + dx, ty + dy)
        if t not in tiles and abs(t[0]) <= span and abs(t[1]) <= span:
            tiles.append(t)
    return tiles


def render_table(seed: int, width: int = 1280, height: int = 720, n_tiles: int | None = None,
                 n_pawns: int | None = None, px_per_mm: float = 2.0) -> TableFrame:
    """A dungeon of face-down tiles with coins and pawns, laid inside the ring of markers of the
    printed sheet, seen by a camera above the table at up to 20 degrees off vertical."""
    from vision.board.calibration import CameraModel
    from vision.board.markers import DEFAULT_LAYOUT, marker_image
    from vision.piecepack.placement import DungeonGrid
    from vision.synthetic.table import CameraPose

    rng = np.random.default_rng(seed)
    layout = DEFAULT_LAYOUT
    lo, hi = layout.extent_mm()
    margin = 30.0
    size_mm = hi - lo + 2 * margin
    s = px_per_mm
    n_px = int(round(size_mm * s))

    def tex(p: np.ndarray) -> np.ndarray:  # board mm -> texture px
        return (np.asarray(p, np.float64) - lo + margin) * s

    img = background(rng, n_px, n_px)
    for p, corners in zip(layout.placements(), layout.corners_mm(), strict=True):
        c = tex(corners)
        x0, y0 = c.min(axis=0)
        x1, y1 = c.max(axis=0)
        pad = 5 * s
        cv2.rectangle(img, (int(x0 - pad), int(y0 - pad)), (int(x1 + pad), int(y1 + pad)),
                      (245, 245, 245), -1)
        side = int(round(x1 - x0))
        img[int(round(y0)):int(round(y0)) + side, int(round(x0)):int(round(x0)) + side] = \
            marker_image(p.marker_id, side)[..., None]
    grid = DungeonGrid()
    nt = int(rng.integers(1, 25)) if n_tiles is None else n_tiles
    tiles = random_dungeon(rng, nt)
    tile_colour = tuple(int(v) for v in rng.uniform(60, 220, 3))
    line = tuple(int(v) for v in rng.uniform(10, 90, 3))
    jitter = rng.normal(0, 0.8, (len(tiles), 2))
    for t, j in zip(tiles, jitter, strict=True):
        corners = grid.tile_corners_mm(t) + j
        c = tex(corners)
        ang = math.radians(float(rng.normal(0, 1.2)))
        m = c.mean(axis=0)
        r = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        draw_tile_back(img, (c - m) @ r.T + m, tile_colour, line, s)  # type: ignore[arg-type]
    spaces = [(2 * tx + dx, 2 * ty + dy) for tx, ty in tiles for dx in (0, 1) for dy in (0, 1)]
    order = rng.permutation(len(spaces))
    npw = int(rng.integers(0, 5)) if n_pawns is None else n_pawns
    pawn_spaces = [spaces[int(i)] for i in order[:npw]]
    coin_spaces = [spaces[int(i)] for i in order[npw:npw + int(rng.integers(0, len(tiles) + 1))]]
    # the camera
    h_cam = float(rng.uniform(480, 650))
    tilt = math.radians(float(rng.uniform(0, 20)))
    az = float(rng.uniform(0, 2 * math.pi))
    centre = (lo + hi) / 2
    off = h_cam * math.tan(tilt)
    cam_xy = np.array([centre + off * math.cos(az), centre + off * math.sin(az)])
    pose = CameraPose(float(cam_xy[0]), float(cam_xy[1]), h_cam,
                      (centre + float(rng.normal(0, 15)), centre + float(rng.normal(0, 15))),
                      float(rng.uniform(-8, 8)))
    camera = CameraModel.ideal(width, height, hfov_deg=float(rng.uniform(70, 85)))
    stock = COIN_STOCKS[int(rng.integers(len(COIN_STOCKS)))]
    crowns_yellow = bool(rng.random() < 0.5)
    for sp in coin_spaces:
        c = tex(grid.space_centre_mm(sp)) + rng.normal(0, 1.0, 2) * s
        draw_coin(img, (float(c[0]), float(c[1])), COIN_MM * s, float(rng.uniform(0, 360)),
                  "suit" if rng.random() < 0.3 else "value", SUITS[int(rng.integers(4))],
                  int(rng.integers(6)), stock, suit_colour(SUITS[int(rng.integers(4))],
                                                           crowns_yellow, rng),
                  (30, 30, 30), (0.0, 0.0), 0)
    pawns: dict[tuple[int, int], str] = {}
    suits = list(rng.permutation(SUITS))
    for sp, suit in zip(pawn_spaces, suits, strict=False):
        base_mm = grid.space_centre_mm(sp) + rng.normal(0, 1.5, 2)
        d = base_mm - cam_xy
        lean_mm = d * PAWN_HEIGHT_MM / (h_cam - PAWN_HEIGHT_MM)
        b = tex(base_mm)
        draw_pawn(img, (float(b[0]), float(b[1])), PAWN_MM / 2 * s,
                  (float(lean_mm[0] * s), float(lean_mm[1] * s)),
                  suit_colour(str(suit), crowns_yellow, rng))
        pawns[sp] = str(suit)
    h_plane = pose.homography(camera)
    to_tex = np.array([[s, 0, (margin - lo) * s], [0, s, (margin - lo) * s], [0, 0, 1]])
    frame_from_tex = h_plane @ np.linalg.inv(to_tex)
    warped = cv2.warpPerspective(img, frame_from_tex, (width, height), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=tuple(int(v) for v in rng.uniform(30, 200, 3)))
    cond = Conditions.random(rng)
    image = camera_effects(warped, cond, rng)
    return TableFrame(image, h_plane, tuple(tiles), pawns, tuple(coin_spaces), cond)


def crops_of(frame: DiceAreaFrame) -> Sequence[Piece]:
    """The pieces of a frame (a convenience for scripts)."""
    return frame.pieces
