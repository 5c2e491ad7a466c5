"""Find block and scatter dice in a frame and read them; scatter arrows relative to the board.

``read_special_dice(frame)`` returns a :class:`SpecialDiceObservation`; a frame it cannot use
gives status ``'error'`` with a message, never an exception. The finder's candidates that a
tiny screen network is near-certain are no die are dropped; each other one is cropped and read
by a reader network. With the board's homography the crop is turned so the camera's "down"
(the way to its nadir, ``upright``) points down and the upright reader reads it as it is and
mirrored; without one the plain reader reads it as it is and turned half a turn (the answers
averaged, angles turned back). A block
die is read when one symbol is sure enough. A scatter die's arrow angle in the picture comes as
a distribution; each direction in it is carried onto the board (through the board's
registration, or a plain angle) and the mass falling in each 45-degree compass sector is the
confidence of that direction: an arrow near the line between two directions stays unsure.
A block die the upright reader leaves unsure is cropped twice more, slightly moved, and read
when the mean of the three crops is sure enough (``SpecialDiceConfig.second_opinion``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .nets import (
    ANGLE_BINS,
    BLOCK_CLASS_VALUE,
    BLOCK_READER_PATH,
    CELL,
    CLASSES,
    FINDER_PATH,
    NONE_CLASS,
    READER_PATH,
    SCATTER_CLASS,
    SCREEN_PATH,
    SIZE_REF,
    UPRIGHT_BLOCK_READER_PATH,
    UPRIGHT_READER_PATH,
    crop,
    eight_bit_of,
    load,
    made_from,
    normalise,
    reader_crop_size,
    screen_crop,
    shrink,
    to_grey,
)
from .types import (
    BLOCK_LABELS,
    KINDS,
    SCATTER_FACES,
    SCATTER_LABELS,
    STATUS_READ,
    STATUS_UNSURE,
    SpecialDiceConfig,
    SpecialDiceError,
    SpecialDiceObservation,
    SpecialDieReading,
)
from .upright import nadir, turn_deg

Region = tuple[int, int, int, int]
N_CLS = len(CLASSES)
_SUB = 5  # directions per angle bin when carrying the distribution onto the board
_READ_CHUNK = 4  # crops per reader run


class Orientation:
    """How the board lies in the picture, for reading scatter arrows as compass directions.

    ``board_to_frame``: the board registration's homography (board millimetres, x to the
    right, y down the board, to frame pixels; ``companion.kiosk.dice_area.board_homography``
    or the board reader's own): north is the board's -y. Else ``up_deg``: the direction north
    points in the picture, in degrees clockwise from the picture's up (0: the board's top edge
    is at the top of the picture)."""

    def __init__(self, board_to_frame: np.ndarray | Sequence[Sequence[float]] | None = None,
                 up_deg: float = 0.0) -> None:
        if board_to_frame is not None:
            h = np.asarray(board_to_frame, np.float64)
            if h.shape != (3, 3) or not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-12:
                raise SpecialDiceError("board_to_frame must be an invertible 3x3 homography (board mm to "
                                       "frame pixels), as the board registration gives it")
            self.inverse: np.ndarray | None = np.linalg.inv(h)
            self.board_to_frame: np.ndarray | None = h
        else:
            self.inverse = None
            self.board_to_frame = None
        if not math.isfinite(up_deg):
            raise SpecialDiceError(f"up_deg must be a finite angle in degrees, not {up_deg!r}")
        self.up_deg = float(up_deg)

    def bearings(self, at: tuple[float, float], image_deg: np.ndarray) -> np.ndarray:
        """Compass bearings on the board (degrees, 0 = north, clockwise) of directions at
        ``image_deg`` (atan2(dy, dx) in the picture, y down) starting at pixel ``at``."""
        a = np.radians(image_deg)
        dx, dy = np.cos(a), np.sin(a)
        if self.inverse is None:
            image_bearing = np.degrees(np.arctan2(dx, -dy))
            return np.asarray((image_bearing - self.up_deg) % 360.0)
        h = self.inverse
        x, y = at
        w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
        u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
        v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
        # Jacobian of the frame -> board map at (x, y)
        j = np.array([[(h[0, 0] - u * h[2, 0]) / w, (h[0, 1] - u * h[2, 1]) / w],
                      [(h[1, 0] - v * h[2, 0]) / w, (h[1, 1] - v * h[2, 1]) / w]])
        bx = j[0, 0] * dx + j[0, 1] * dy
        by = j[1, 0] * dx + j[1, 1] * dy
        return np.asarray(np.degrees(np.arctan2(bx, -by)) % 360.0)


def _check_frame(frame: object) -> str:
    if not isinstance(frame, np.ndarray):
        return f"the frame must be a numpy image array (H x W or H x W x 3), not {type(frame).__name__}"
    if frame.dtype != np.uint8:
        return f"the frame must be 8-bit (uint8), not {frame.dtype}: convert it first"
    if frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] not in (1, 3, 4)):
        return f"the frame must be H x W grey or H x W x 3 colour, not shape {frame.shape}"
    if min(frame.shape[:2]) < 32:
        return f"the frame is {frame.shape[1]}x{frame.shape[0]} pixels: too small to hold a die (32 at least)"
    return ""


def _check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    out = tuple(kinds)
    bad = [k for k in out if k not in KINDS]
    if bad or not out:
        raise SpecialDiceError(f"die kinds {list(out)!r}: this reader reads {', '.join(KINDS)} (at least one)")
    return out


def find(grey: np.ndarray, config: SpecialDiceConfig) -> list[tuple[float, float, float, float]]:
    """Candidate dice in a grey frame: (centre x, centre y, side, heat), strongest first."""
    small = shrink(grey)
    out = load(FINDER_PATH).run(normalise(small[None]))[0][0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= config.find_threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    cands = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx = (x + float(out[2, y, x]) + 0.5) * CELL
        cy = (y + float(out[3, y, x]) + 0.5) * CELL
        side = SIZE_REF * math.exp(float(np.clip(out[1, y, x], -3, 3)))
        cands.append((cx, cy, side, float(heat[y, x])))
    cands.sort(key=lambda c: -c[3])
    kept: list[tuple[float, float, float, float]] = []
    for c in cands:  # two peaks of one die: keep the stronger
        if all(math.hypot(c[0] - k[0], c[1] - k[1]) > 0.6 * max(c[2], k[2]) for k in kept):
            kept.append(c)
    return kept


def screen_scores(grey: np.ndarray, cands: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """The screen's probability that each candidate is a die of either kind: every candidate cut
    small and axis-aligned (``nets.screen_crop``), all of them in one run of the screen network."""
    if not cands:
        return np.zeros(0, np.float64)
    crops = np.stack([screen_crop(grey, (c[0], c[1]), c[2]) for c in cands])
    logit = load(SCREEN_PATH).run(normalise(crops))[0].reshape(len(cands)).astype(np.float64)
    return np.asarray(1.0 / (1.0 + np.exp(-logit)))


def finder_candidates(grey: np.ndarray, config: SpecialDiceConfig) -> list[tuple[float, float, float, float]]:
    """The finder's candidates as the reader takes them, before the screen: at least
    ``min_side_px``, at most twice ``max_dice`` (the strongest)."""
    return [c for c in find(grey, config) if c[2] >= config.min_side_px][: config.max_dice * 2]


def _candidates(grey: np.ndarray, config: SpecialDiceConfig) -> list[tuple[float, float, float, float]]:
    """``finder_candidates``, and of those the ones the screen does not turn down (``screen_die``;
    0: no screen)."""
    cands = finder_candidates(grey, config)
    if config.screen_die > 0.0 and cands:
        cands = [c for c, p in zip(cands, screen_scores(grey, cands), strict=True) if p >= config.screen_die]
    return cands


def _view(c: np.ndarray, k: int, mirror: bool) -> np.ndarray:
    """A crop mirrored left-right (when ``mirror``), then turned ``k`` quarter turns (np.rot90)."""
    return np.ascontiguousarray(np.rot90(c[:, ::-1] if mirror else c, k))


def _view_back(ang: np.ndarray, k: int, mirror: bool) -> np.ndarray:
    """Angle distributions of a view carried back to the crop as it is: np.rot90 by ``k`` turns
    an angle by -90 k degrees (y down), a left-right mirror takes a to 180 - a."""
    bins = ang.shape[1]
    out = np.roll(ang, (k * bins) // 4, axis=1)
    if mirror:  # bin j holds angle 180 - j * step: bin (bins/2 - j) mod bins
        out = out[:, (bins // 2 - np.arange(bins)) % bins]
    return np.asarray(out)


VIEWS: dict[int, tuple[tuple[int, bool], ...]] = {
    1: ((0, False),),
    2: ((0, False), (2, False)),
    4: ((0, False), (1, False), (2, False), (3, False)),
    8: tuple((k, m) for m in (False, True) for k in range(4)),
}
"""The views of a crop the reader averages: (quarter turns, mirrored), per view count."""

UPRIGHT_VIEWS: dict[int, tuple[tuple[int, bool], ...]] = {
    1: ((0, False),),
    2: ((0, False), (0, True)),
}
"""The views of an upright crop (its way down kept): as it is, and mirrored left-right."""

View = tuple[int, bool]

upright_reader: Path = UPRIGHT_READER_PATH
"""The upright reader network ``reader_for`` hands out (a benchmark may point it at a trial network)."""


@dataclass(frozen=True)
class ReaderPlan:
    """How a roll is read: the reader network, the views of each crop it averages, and whether
    the crops are turned upright (the way to the camera's nadir pointing down)."""

    path: Path
    views: tuple[View, ...]
    upright: bool = False


def _view_sums(crops: list[np.ndarray], plan: Sequence[tuple[int, bool]], path: Path = READER_PATH
               ) -> tuple[np.ndarray, np.ndarray]:
    """Class and angle probabilities of ``crops`` summed over the views in ``plan`` (angles
    carried back to each crop as it is), by the reader network at ``path``."""
    batch = [_view(c, k, m) for k, m in plan for c in crops]
    net = load(path)
    x = normalise(np.stack(batch))
    # a few crops a run: onnxruntime on one thread slows down per crop on larger batches
    y = np.concatenate([net.run(x[i:i + _READ_CHUNK])[0] for i in range(0, len(x), _READ_CHUNK)])
    n = len(crops)

    def softmax(z: np.ndarray) -> np.ndarray:
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True))

    cls = softmax(y[:, :N_CLS])
    ang = softmax(y[:, N_CLS:])
    cls_sum = np.zeros((n, N_CLS), np.float64)
    ang_sum = np.zeros((n, ang.shape[1]), np.float64)
    for i, (k, m) in enumerate(plan):
        cls_sum += cls[i * n:(i + 1) * n]
        ang_sum += _view_back(ang[i * n:(i + 1) * n], k, m)
    return cls_sum, ang_sum


def read_crops(crops: list[np.ndarray], views: int | Sequence[View] = 2,
               screen: float | Sequence[float] = 1.0, path: Path = READER_PATH) -> tuple[np.ndarray, np.ndarray]:
    """Class probabilities (N x ``CLASSES``) and arrow angle probabilities (N x ``ANGLE_BINS``)
    of reader crops, each the average over ``views`` views of the crop (``VIEWS``: 2 = as it is
    and turned half a turn; 4 adds the quarter turns; 8 adds their mirror images; or the views
    themselves, as ``UPRIGHT_VIEWS`` gives them).

    With ``screen`` under 1 (one value, or one per crop), every crop is read first as it is,
    and a crop that this first view already calls "no die" with more than its ``screen`` keeps
    that one view's answer; only the others are read in the remaining views
    (``SpecialDiceConfig.screen_none``). ``path``: the reader network (``READER_PATH``, or
    ``BLOCK_READER_PATH`` for a roll of block dice only)."""
    if not crops:
        return np.zeros((0, N_CLS), np.float32), np.zeros((0, ANGLE_BINS), np.float32)
    if isinstance(views, int):
        if views not in VIEWS:
            raise SpecialDiceError(f"views must be one of {sorted(VIEWS)}, not {views!r}")
        plan = VIEWS[views]
    else:
        plan = tuple(views)
    # the angle bins are what the exported network gives (``ANGLE_BINS`` when it was trained)
    limit = np.broadcast_to(np.asarray(screen, np.float64), (len(crops),))
    if bool((limit >= 1.0).all()) or len(plan) == 1:
        cls_sum, ang_sum = _view_sums(crops, plan, path)
        return (cls_sum / len(plan)).astype(np.float32), (ang_sum / len(plan)).astype(np.float32)
    cls_sum, ang_sum = _view_sums(crops, plan[:1], path)
    rest = [i for i in range(len(crops)) if cls_sum[i, NONE_CLASS] <= limit[i]]
    if rest:
        more_cls, more_ang = _view_sums([crops[i] for i in rest], plan[1:], path)
        cls_sum[rest] = (cls_sum[rest] + more_cls) / len(plan)
        ang_sum[rest] = (ang_sum[rest] + more_ang) / len(plan)
    return cls_sum.astype(np.float32), ang_sum.astype(np.float32)


def sector_masses(angle_probs: np.ndarray, at: tuple[float, float], orientation: Orientation,
                  turn: float = 0.0) -> tuple[np.ndarray, float]:
    """The probability of each of the 8 directions (index 0 = north) and the most likely
    bearing on the board, from one die's angle distribution (angles in a crop turned ``turn``
    degrees from the picture: each is turned back before it is carried onto the board)."""
    bins = len(angle_probs)
    step = 360.0 / bins
    sub = (np.arange(bins)[:, None] * step + (np.arange(_SUB)[None, :] + 0.5) / _SUB * step
           - step / 2).ravel() - turn
    mass = np.repeat(angle_probs / _SUB, _SUB)
    bearings = orientation.bearings(at, sub)
    sector = np.round(bearings / 45.0).astype(int) % 8
    masses = np.bincount(sector, weights=mass, minlength=8)
    # the bearing: circular mean around the strongest bin
    k = int(np.argmax(angle_probs))
    reach = max(1, int(round(15.0 / step)))
    idx = (np.arange(k - reach, k + reach + 1) % bins)
    w = angle_probs[idx]
    b = orientation.bearings(at, idx * step - turn)
    rad = np.radians(b)
    bearing = math.degrees(math.atan2(float((w * np.sin(rad)).sum()), float((w * np.cos(rad)).sum()))) % 360.0
    return masses, bearing


def reader_for(in_play: Sequence[str], config: SpecialDiceConfig, registered: bool = True) -> ReaderPlan:
    """How a roll of the kinds ``in_play`` is read. With ``config.upright`` and the board
    registered (``registered``: the orientation has the board's homography, which gives the
    camera's nadir), an upright reader on upright crops in ``config.upright_views``: the block
    upright reader for a roll of block dice only, the upright reader for any other, each in its
    8-bit form for a roll of one kind of ``config.upright_8bit`` when that form was made from it.
    A trial network set in ``upright_reader`` reads every roll as it is. Else a roll of block
    dice only has the block reader and ``config.block_views``; any other the reader of both
    kinds and ``config.views``."""
    if config.upright and registered:
        path = upright_reader
        if path == UPRIGHT_READER_PATH:
            kinds = set(in_play)
            if kinds == {"block"} and UPRIGHT_BLOCK_READER_PATH.exists():
                path = UPRIGHT_BLOCK_READER_PATH
            eight = eight_bit_of(path)
            if len(kinds) == 1 and kinds <= set(config.upright_8bit) and made_from(eight, path):
                path = eight
        return ReaderPlan(path, UPRIGHT_VIEWS[config.upright_views], True)
    if tuple(in_play) == ("block",):
        return ReaderPlan(BLOCK_READER_PATH, VIEWS[config.block_views])
    return ReaderPlan(READER_PATH, VIEWS[config.views])


Candidate = tuple[float, float, float, float]
"""A found die: (centre x, centre y, side, finder heat), in pixels of the frame or region read."""

RELOOK_VARIANTS: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.0, 0.75), (0.0, 0.0, 1.33), (0.25, 0.0, 1.0), (-0.25, 0.0, 1.0),
)
"""The second look's crops of a candidate: (shift right, shift down, in the finder's sides; side
times this), the finder's own crop left out: a box a quarter of a side off or a third too large
or small is the usual way a die the finder found is missed by the reader."""

SECOND_VARIANTS: tuple[tuple[float, float, float], ...] = ((0.1, 0.0, 1.0), (-0.1, 0.0, 1.0))
"""The second opinion's crops of a die the upright reader left unsure (``SpecialDiceConfig.
second_opinion``): (shift right, shift down, in the die's sides; side times this)."""


def _near(c: Candidate, kept: Sequence[Candidate]) -> bool:
    """Whether ``c`` lies within 0.9 of a side of a kept die (a second peak of that die)."""
    return any(math.hypot(c[0] - k[0], c[1] - k[1]) < 0.9 * max(c[2], k[2]) for k in kept)


def _in_kind(p: np.ndarray, in_play: Sequence[str]) -> np.ndarray:
    """Per crop (rows of class probabilities), the probability that it is a die of a kind in play."""
    block = p[:, list(BLOCK_CLASS_VALUE)].sum(axis=1)
    if tuple(in_play) == ("block",):
        return np.asarray(block)
    if tuple(in_play) == ("scatter",):
        return np.asarray(p[:, SCATTER_CLASS])
    return np.asarray(1.0 - p[:, NONE_CLASS])


Offset = tuple[float, float, float]
"""Where the pixels read lie in the frame: (x, y, scale) of a region cut at (x, y) and enlarged
``scale`` times (0, 0, 1 for the whole frame)."""


def to_frame(offset: Offset, x: float, y: float) -> tuple[float, float]:
    """A point of the (region's, enlarged) pixels read, in frame pixels."""
    ox, oy, scale = offset
    return x / scale + ox, y / scale + oy


def die_px(board_to_frame: np.ndarray, at: tuple[float, float], die_mm: float) -> float:
    """How many pixels across a die of ``die_mm`` looks lying at frame point ``at`` (the square
    root of the area its square covers there, through the board's homography)."""
    h = np.asarray(board_to_frame, np.float64)
    b = cv2.perspectiveTransform(np.array([[at]], np.float64), np.linalg.inv(h))[0, 0]
    r = die_mm / 2
    sq = np.array([[[b[0] - r, b[1] - r], [b[0] + r, b[1] - r], [b[0] + r, b[1] + r], [b[0] - r, b[1] + r]]])
    p = cv2.perspectiveTransform(sq, h)[0]
    x, y = p[:, 0], p[:, 1]
    return float(math.sqrt(abs(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))))


def enlargement(board_to_frame: np.ndarray | None, region: tuple[int, int, int, int],
                config: SpecialDiceConfig) -> float:
    """How many times a region is enlarged before it is read (``SpecialDiceConfig.enlarge_to_px``;
    1.0: as it is): only with the board's registration, which says how large a die looks there."""
    if board_to_frame is None or config.enlarge_to_px <= 0:
        return 1.0
    x, y, w, h = region
    try:
        side = die_px(board_to_frame, (x + w / 2, y + h / 2), config.die_mm)
    except (cv2.error, np.linalg.LinAlgError):
        return 1.0
    if not math.isfinite(side) or side <= 0:
        return 1.0
    scale = min(config.max_enlarge, config.enlarge_to_px / side)
    return scale if scale >= 1.15 else 1.0


def _moved_crops(grey: np.ndarray, cands: Sequence[Candidate], moves: Sequence[tuple[float, float, float]],
                 offset: Offset, n: np.ndarray | None, size: int
                 ) -> tuple[list[Candidate], list[float], list[np.ndarray]]:
    """Each candidate moved as ``moves`` says ((shift right, shift down, in its sides; side times
    this), as ``RELOOK_VARIANTS`` and ``SECOND_VARIANTS`` give them), candidate by candidate:
    the moved candidates, their crops' turns (the way to the nadir ``n`` down) and the crops."""
    variants = [(c[0] + dx * c[2], c[1] + dy * c[2], c[2] * k, c[3]) for c in cands for dx, dy, k in moves]
    turns = [turn_deg(n, to_frame(offset, v[0], v[1])) for v in variants]
    crops = [crop(grey, (v[0], v[1]), v[2], size, t) for v, t in zip(variants, turns, strict=True)]
    return variants, turns, crops


def _second_look(grey: np.ndarray, looks: Sequence[Candidate], offset: Offset,
                 n: np.ndarray | None, size: int, in_play: Sequence[str], plan: ReaderPlan,
                 config: SpecialDiceConfig) -> list[tuple[Candidate, np.ndarray, np.ndarray, float]]:
    """Candidates the reader turned down without being sure, looked at again: each is cropped
    as ``RELOOK_VARIANTS`` says and read in the first view; the crop the reader finds likeliest
    to be a die of a kind in play is read in the other views too, and is a die (at that crop's centre and
    side) when that probability is at least ``config.relook_die``. Returns (candidate, class
    probabilities, angle probabilities, crop turn) per die, strongest candidate first."""
    variants, turns, crops = _moved_crops(grey, looks, RELOOK_VARIANTS, offset, n, size)
    first_cls, first_ang = _view_sums(crops, plan.views[:1], plan.path)
    score = _in_kind(first_cls, in_play).reshape(len(looks), len(RELOOK_VARIANTS))
    best = [i * len(RELOOK_VARIANTS) + int(np.argmax(row)) for i, row in enumerate(score)]
    cls, ang = first_cls[best], first_ang[best]
    if len(plan.views) > 1:  # the other views of the chosen crops; their first is already read
        more_cls, more_ang = _view_sums([crops[i] for i in best], plan.views[1:], plan.path)
        cls, ang = cls + more_cls, ang + more_ang
    cls, ang = (cls / len(plan.views)).astype(np.float32), (ang / len(plan.views)).astype(np.float32)
    sure = _in_kind(cls, in_play) >= config.relook_die
    return [(variants[i], cls[j], ang[j], turns[i]) for j, i in enumerate(best) if sure[j]]


def _kind_of(p: np.ndarray) -> str:
    """The kind a reader's class probabilities say a die is (the larger share)."""
    return "scatter" if float(p[SCATTER_CLASS]) > sum(float(p[i]) for i in BLOCK_CLASS_VALUE) else "block"


class _Judge:
    """One found die's reading from the reader's answer: its kind, value, confidence and status."""

    def __init__(self, in_play: Sequence[str], plan: ReaderPlan, orientation: Orientation,
                 config: SpecialDiceConfig, offset: Offset, shape: tuple[int, int]) -> None:
        self.in_play, self.plan, self.orientation, self.config = tuple(in_play), plan, orientation, config
        self.offset, self.shape = offset, shape

    def cut(self, c: Candidate) -> bool:
        """Whether the die's box comes within ``edge_px`` of the frame's (or region's) edge."""
        (W, H), edge = self.shape, self.config.edge_px
        cx, cy, side, _ = c
        half = side / 2
        return cx - half < edge or cy - half < edge or cx + half > W - edge or cy + half > H - edge

    def __call__(self, c: Candidate, p: np.ndarray, a: np.ndarray, turn: float) -> SpecialDieReading:
        config, in_play, plan = self.config, self.in_play, self.plan
        cx, cy, side, _ = c
        half = side / 2
        x0, y0 = to_frame(self.offset, cx - half, cy - half)
        s = int(round(side / self.offset[2]))
        box = (int(round(x0)), int(round(y0)), s, s)
        cut = self.cut(c)
        block_p = {BLOCK_CLASS_VALUE[i]: float(p[i]) for i in BLOCK_CLASS_VALUE}
        scatter_p = float(p[SCATTER_CLASS])
        block_all = sum(block_p.values())
        kind = _kind_of(p)
        looks_other = kind not in in_play
        if looks_other:  # looks like the other kind: read it only as one in play, unsure
            kind = in_play[0]
        elif len(in_play) == 1:
            # only one kind is rolled: the other kind's share is no evidence against this reading
            other = scatter_p if kind == "block" else block_all
            share = 1.0 / max(1e-6, 1.0 - other)
            block_p = {v: q * share for v, q in block_p.items()}
            scatter_p *= share
        bearing: float | None
        if kind == "block":
            value = max(block_p, key=lambda v: block_p[v])
            conf = block_p[value]
            sure = conf >= (config.upright_block_threshold if plan.upright else config.block_threshold)
            label = BLOCK_LABELS[value - 1]
            bearing = None
        else:
            masses, bearing = sector_masses(a, to_frame(self.offset, cx, cy), self.orientation, turn)
            k = int(np.argmax(masses))
            value = SCATTER_FACES[k]
            conf = scatter_p * float(masses[k])
            sure = conf >= (config.upright_scatter_threshold if plan.upright else config.scatter_threshold)
            label = SCATTER_LABELS[k]
        status = STATUS_READ if sure and not cut and not looks_other else STATUS_UNSURE
        return SpecialDieReading(box, kind, value if status == STATUS_READ else None, conf, status, value, label,
                                 bearing)

    def opinion(self, c: Candidate, p: np.ndarray, a: np.ndarray, turn: float) -> np.ndarray:
        """The probability of each value of the one kind in play (in ``BLOCK_CLASS_VALUE``'s order,
        or ``SCATTER_FACES``', the directions clockwise from north), weighed as ``__call__`` weighs them: the other
        kind's share taken out, a scatter die's scatter probability times its sector masses."""
        none = float(p[NONE_CLASS])
        if self.in_play == ("block",):
            v = np.array([float(p[i]) for i in BLOCK_CLASS_VALUE])
        else:
            masses, _ = sector_masses(a, to_frame(self.offset, c[0], c[1]), self.orientation, turn)
            v = float(p[SCATTER_CLASS]) * masses
        return np.asarray(v / max(1e-6, none + float(v.sum())))


Answer = tuple[Candidate, np.ndarray, np.ndarray, float]
"""A read die: its candidate, the reader's class and angle probabilities, the crop's turn."""


def _second_opinion(grey: np.ndarray, readings: list[SpecialDieReading], answers: Sequence[Answer],
                    n: np.ndarray | None, size: int, plan: ReaderPlan, judge: _Judge) -> list[SpecialDieReading]:
    """``readings`` (one per ``answers``) with the dice the reader left unsure only for want of
    confidence read again when their kind is in ``SpecialDiceConfig.second_opinion``: the mean of the value
    probabilities (``_Judge.opinion``) of the die's crop and of the ``SECOND_VARIANTS`` crops,
    each read in the reader's views; a die whose likeliest value has at least
    ``second_block_threshold`` / ``second_scatter_threshold`` of that mean is read as it.
    One kind in play only (the other kind's share is no evidence then)."""
    config = judge.config
    if len(judge.in_play) != 1 or judge.in_play[0] not in config.second_opinion:
        return readings
    todo = [i for i, (r, (c, p, _, _)) in enumerate(zip(readings, answers, strict=True))
            if r.status == STATUS_UNSURE and not judge.cut(c) and _kind_of(p) == r.kind]
    if not todo:
        return readings
    threshold = config.second_block_threshold if judge.in_play == ("block",) else config.second_scatter_threshold
    out = list(readings)
    for i, (value, conf) in zip(todo, _mean_opinions(grey, [answers[i] for i in todo], n, size, plan, judge),
                                strict=True):
        if conf >= threshold:
            label = BLOCK_LABELS[value - 1] if judge.in_play == ("block",) else \
                SCATTER_LABELS[SCATTER_FACES.index(value)]
            out[i] = replace(readings[i], value=value, confidence=conf, status=STATUS_READ, guess=value, label=label)
    return out


def _mean_opinions(grey: np.ndarray, unsure: Sequence[Answer], n: np.ndarray | None, size: int, plan: ReaderPlan,
                   judge: _Judge) -> list[tuple[int, float]]:
    """(the likeliest value, its probability) per die, from the mean of the value probabilities
    of the die's own crop and its ``SECOND_VARIANTS`` crops."""
    variants, turns, crops = _moved_crops(grey, [u[0] for u in unsure], SECOND_VARIANTS, judge.offset, n, size)
    cls, ang = read_crops(crops, plan.views, path=plan.path)
    values = tuple(BLOCK_CLASS_VALUE.values()) if judge.in_play == ("block",) else SCATTER_FACES
    out = []
    for i, (c, p, a, turn) in enumerate(unsure):
        mine = range(i * len(SECOND_VARIANTS), (i + 1) * len(SECOND_VARIANTS))
        mean = np.mean([judge.opinion(c, p, a, turn)] + [judge.opinion(variants[j], cls[j], ang[j], turns[j])
                                                         for j in mine], axis=0)
        k = int(np.argmax(mean))
        out.append((values[k], float(mean[k])))
    return out


def _grey(frame: np.ndarray, config: SpecialDiceConfig) -> np.ndarray:
    """The frame (or a part of it) in grey, as the networks read it."""
    if frame.ndim == 3 and frame.shape[2] != 1:
        return to_grey(frame, config.channel_order)
    return frame.reshape(frame.shape[0], frame.shape[1])


def _area(frame: np.ndarray, region: Region, orientation: Orientation, config: SpecialDiceConfig
          ) -> tuple[np.ndarray, Offset, SpecialDiceConfig] | str:
    """The grey pixels of ``region`` to read (enlarged as ``enlargement`` says), where they lie
    in the frame and the config to read them with (an enlarged area's finder threshold is
    ``area_find_threshold``), or what is wrong with the region."""
    x, y, w, h = (int(v) for v in region)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(frame.shape[1], x + w), min(frame.shape[0], y + h)
    if x1 - x0 < 32 or y1 - y0 < 32:
        return f"the region {tuple(region)} leaves less than 32x32 pixels of the frame: check the dice area"
    part = _grey(np.ascontiguousarray(frame[y0:y1, x0:x1]), config)
    scale = enlargement(orientation.board_to_frame, (x0, y0, x1 - x0, y1 - y0), config)
    if scale > 1.0:
        part = np.asarray(cv2.resize(part, (int(round(part.shape[1] * scale)), int(round(part.shape[0] * scale))),
                                     interpolation=cv2.INTER_LINEAR))
        config = replace(config, find_threshold=config.area_find_threshold)
    return part, (x0, y0, scale), config


def _pixels(frame: np.ndarray, region: Region | None, orientation: Orientation, config: SpecialDiceConfig
            ) -> tuple[np.ndarray, Offset, SpecialDiceConfig] | str:
    """The grey pixels to read, where they lie in the frame and the config to read them with:
    the region's (``_area``), or the whole frame's; or what is wrong with the region."""
    if region is not None:
        return _area(frame, region, orientation, config)
    return _grey(frame, config), (0, 0, 1.0), config


def find_missing(frame: np.ndarray, found: SpecialDiceObservation, missing: int,
                 kinds: Sequence[str] | None = None, orientation: Orientation | None = None,
                 region: Region | None = None, config: SpecialDiceConfig | None = None,
                 thrown: bool = False) -> SpecialDiceObservation:
    """``found`` (``read_special_dice``'s reading of ``frame``, with the same arguments) with up
    to ``missing`` more dice, for a settled roll known to hold more dice than were found. The
    finder misses a die where its heat stays low (busy board print, blur), so the search does
    not ask it: the screen scores every place a die could lie, a grid over the dice area at the
    size of the dice found, the likeliest ``search_max`` places are cropped as the second look
    crops, and the crops the reader takes likeliest for a die of a kind in play, at least
    ``search_die``, become dice. They are unsure, with their guesses: a person checks them on
    the pad, which otherwise starts a missed die from its first face. The dice found are kept as
    they are. With none found the tray may be as it was before the throw, so there is no search
    unless the caller knows dice were ``thrown`` (the settler: the dice area moved, then lay
    still); the size is then the one the board's registration gives in the region
    (``SEARCH_SIDE`` times ``die_px``; without a registration there is no search), and the bar
    is ``search_die_alone``: a hand may have passed over an empty tray."""
    config = config or SpecialDiceConfig()
    if missing <= 0 or (not found.dice and not thrown) or config.search_grid <= 0:
        return found
    in_play = _check_kinds(kinds if kinds is not None else config.kinds)
    orientation = orientation or Orientation()
    plan = reader_for(in_play, config, orientation.board_to_frame is not None)
    if _check_frame(frame):
        return found
    pixels = _pixels(frame, region, orientation, config)
    if isinstance(pixels, str):
        return found
    grey, offset, read_config = pixels
    ox, oy, scale = offset
    kept: list[Candidate] = [((d.box[0] + d.box[2] / 2 - ox) * scale, (d.box[1] + d.box[3] / 2 - oy) * scale,
                              d.box[2] * scale, 1.0) for d in found.dice]
    side = float(np.median([k[2] for k in kept])) if kept else _registered_side(orientation, region, config, scale)
    pool = _screened_grid(grey, side, kept, config) if side else []
    if not pool:
        return found
    n = _nadir_for(plan, orientation, frame)
    size = reader_crop_size(load(plan.path))
    bar = config.search_die if found.dice else config.search_die_alone
    looks = _second_look(grey, pool, offset, n, size, in_play, plan, replace(read_config, relook_die=bar))
    looks.sort(key=lambda look: -float(_in_kind(look[1][None], in_play)[0]))
    H, W = grey.shape[:2]
    judge = _Judge(in_play, plan, orientation, read_config, offset, (W, H))
    added: list[SpecialDieReading] = []
    for c, p, a, turn in looks:
        if len(added) >= missing:
            break
        if _near(c, kept):
            continue  # a second peak of a die found, or of one just added
        kept.append(c)
        reading = judge(c, p, a, turn)
        added.append(replace(reading, value=None, status=STATUS_UNSURE))
    if not added:
        return found
    dice = sorted((*found.dice, *added), key=lambda r: (r.box[0], r.box[1]))
    return SpecialDiceObservation(tuple(dice), "unsure", found.message)


def _nadir_for(plan: ReaderPlan, orientation: Orientation, frame: np.ndarray) -> np.ndarray | None:
    """The camera's nadir in ``frame`` when ``plan`` reads upright crops and the board is
    registered (the crops are turned with the way to it pointing down), else None."""
    if not plan.upright or orientation.board_to_frame is None:
        return None
    return nadir(orientation.board_to_frame, frame.shape[1], frame.shape[0])


SEARCH_SIDE = 1.3
"""A found die's box is about this many times ``die_px`` (median 1.29, 10-90% 1.17-1.48, over
the dice found on 120 of the kiosk's table frames: the box holds the die's sides and shadow)."""


def _registered_side(orientation: Orientation, region: Region | None, config: SpecialDiceConfig,
                     scale: float) -> float:
    """A die's side in the pixels read, as the board's registration gives it at the region's
    middle (0.0 without a registration or a region)."""
    if orientation.board_to_frame is None or region is None:
        return 0.0
    x, y, w, h = region
    try:
        px = die_px(orientation.board_to_frame, (x + w / 2, y + h / 2), config.die_mm)
    except (cv2.error, np.linalg.LinAlgError):
        return 0.0
    return px * scale * SEARCH_SIDE if math.isfinite(px) and px > 0 else 0.0


def _screened_grid(grey: np.ndarray, side: float, avoid: Sequence[Candidate], config: SpecialDiceConfig
                   ) -> list[Candidate]:
    """Places a die of ``side`` could lie, every ``search_grid`` of a side across the pixels read
    and on no die in ``avoid``, scored by the screen in one run; the ``search_max`` likeliest, no
    two within 0.6 of a side (their heat: the screen's score)."""
    step = max(2.0, side * config.search_grid)
    H, W = grey.shape[:2]
    xs = np.arange(side / 2, W - side / 2 + 1, step)
    ys = np.arange(side / 2, H - side / 2 + 1, step)
    cells = [(float(x), float(y), side, 0.0) for y in ys for x in xs]
    cells = [c for c in cells if not _near(c, avoid)]
    if not cells:
        return []
    scores = screen_scores(grey, cells)
    out: list[Candidate] = []
    for i in np.argsort(-scores):
        c = (cells[i][0], cells[i][1], side, float(scores[i]))
        if all(math.hypot(c[0] - k[0], c[1] - k[1]) > 0.6 * side for k in out):
            out.append(c)
        if len(out) >= config.search_max:
            break
    return out


def read_special_dice(frame: np.ndarray, kinds: Sequence[str] | None = None,
                      orientation: Orientation | None = None, region: Region | None = None,
                      config: SpecialDiceConfig | None = None) -> SpecialDiceObservation:
    """Read the block and scatter dice in ``frame`` (uint8 BGR, or as ``config.channel_order``
    says; grey works too). ``kinds`` limits the kinds in play (default: the config's);
    ``orientation`` says how the board lies (default: north is the picture's up); ``region``
    (x, y, w, h) reads only there (boxes stay in frame pixels; with the board's homography, a
    region where dice look small is enlarged first: ``SpecialDiceConfig.enlarge_to_px``)."""
    config = config or SpecialDiceConfig()
    in_play = _check_kinds(kinds if kinds is not None else config.kinds)
    for v in (config.views, config.block_views):
        if v not in VIEWS:
            raise SpecialDiceError(f"views must be one of {sorted(VIEWS)}, not {v!r}")
    if config.upright_views not in UPRIGHT_VIEWS:
        raise SpecialDiceError(f"upright_views must be one of {sorted(UPRIGHT_VIEWS)}, not {config.upright_views!r}")
    orientation = orientation or Orientation()
    plan = reader_for(in_play, config, orientation.board_to_frame is not None)
    problem = _check_frame(frame)
    if problem:
        return SpecialDiceObservation((), "error", problem)
    pixels = _pixels(frame, region, orientation, config)
    if isinstance(pixels, str):
        return SpecialDiceObservation((), "error", pixels)
    grey, offset, config = pixels
    cands = _candidates(grey, config)
    size = reader_crop_size(load(plan.path)) if cands else 0
    n = _nadir_for(plan, orientation, frame)
    H, W = grey.shape[:2]
    judge = _Judge(in_play, plan, orientation, config, offset, (W, H))
    readings: list[SpecialDieReading] = []
    answers: list[Answer] = []  # the reader's answer on each die read
    kept: list[Candidate] = []
    looks: list[Candidate] = []  # turned down unsure ("no die" below relook_none): second looks
    # candidates are read strongest first, a few at a time; one within 0.9 of a side of a die
    # already kept is a second look at that die and is not read at all (it would be dropped)
    todo = list(cands)
    while todo and len(readings) < config.max_dice:
        chunk, todo = todo[:_READ_CHUNK], todo[_READ_CHUNK:]
        chunk = [c for c in chunk if not _near(c, kept)]
        if not chunk:
            continue
        turns = [turn_deg(n, to_frame(offset, c[0], c[1])) for c in chunk]
        crops = [crop(grey, (c[0], c[1]), c[2], size, t) for c, t in zip(chunk, turns, strict=True)]
        # a weak candidate is kept only when the views' mean gives "no die" at most 1 - weak_die,
        # so a first view above that times the number of views already decides it (exactly); a
        # strong one is screened by ``screen_none``
        screen = [min(config.screen_none, len(plan.views) * (1.0 - config.weak_die))
                  if c[3] < config.weak_heat else config.screen_none for c in chunk]
        cls, ang = read_crops(crops, plan.views, screen if config.screen_none < 1.0 else 1.0, plan.path)
        for c, p, a, turn in zip(chunk, cls, ang, turns, strict=True):
            none_p = float(p[NONE_CLASS])
            if none_p >= config.none_threshold or (c[3] < config.weak_heat and 1.0 - none_p < config.weak_die):
                if c[3] >= config.relook_heat and none_p < config.relook_none:
                    looks.append(c)
                continue
            if _near(c, kept):
                continue  # a second look at a die already kept
            kept.append(c)
            readings.append(judge(c, p, a, turn))
            answers.append((c, p, a, turn))
            if len(readings) >= config.max_dice:
                break
    again = [c for c in looks if not _near(c, kept)][: config.relook_max]  # the strongest first
    if again and len(readings) < config.max_dice:
        for c, p, a, turn in _second_look(grey, again, offset, n, size, in_play, plan, config):
            if _near(c, kept) or len(readings) >= config.max_dice:
                continue
            kept.append(c)
            readings.append(judge(c, p, a, turn))
            answers.append((c, p, a, turn))
    if config.second_opinion and plan.upright:
        readings = _second_opinion(grey, readings, answers, n, size, plan, judge)
    readings.sort(key=lambda r: (r.box[0], r.box[1]))
    if not readings:
        return SpecialDiceObservation((), "empty")
    status = "ok" if all(r.status == STATUS_READ for r in readings) else "unsure"
    return SpecialDiceObservation(tuple(readings), status)
