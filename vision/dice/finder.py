"""Dice finding: frame checks and the detector network (one box per die, touching dice apart).

The detector is a small CenterNet-style network: a heat map of die centres at stride 8, with a
box size and a sub-cell offset at each cell. Peaks of the heat map are dice; two touching dice
give two peaks, so no contour splitting is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .models import DETECTOR_ALIGN, DETECTOR_PATH, DETECTOR_STRIDE, crop_square, load_net
from .types import DiceConfig, DiceError

DIE_SCORE = 0.5
"""A detector heat at which a candidate is plainly a die (the overview pass's rules; candidates
are kept from ``DiceConfig.detect_threshold`` up)."""


@dataclass(frozen=True)
class Candidate:
    box: tuple[float, float, float, float]  # x, y, w, h in frame pixels
    score: float


def as_bgr(frame: object, channel_order: str = "bgr") -> np.ndarray:
    """The frame as a BGR uint8 array, or :class:`DiceError` saying what is wrong with it.

    Accepts BGR/RGB (``channel_order``), BGRA, single-channel grey, and uint16 or float frames
    (floats in 0..1 or 0..255). Anything else is refused with a message.
    """
    if not isinstance(frame, np.ndarray):
        raise DiceError(f"expected an image array (numpy), got {type(frame).__name__}")
    a = frame
    if a.size == 0:
        raise DiceError("the frame is empty (zero pixels)")
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (3, 4)):
        raise DiceError(
            f"expected an H x W x 3 colour or H x W grey frame, got an array of shape {a.shape}"
        )
    if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise DiceError(f"expected uint8 pixels, got dtype {a.dtype}")
    if a.dtype != np.uint8:
        if np.issubdtype(a.dtype, np.floating):
            if not np.all(np.isfinite(a)):
                raise DiceError("the frame holds NaN or infinite pixel values")
            peak = float(a.max()) if a.size else 0.0
            a = a * 255.0 if peak <= 1.0 else a
            a = np.clip(a, 0, 255).astype(np.uint8)
        elif a.dtype == np.uint16:
            a = (a >> 8).astype(np.uint8)
        else:
            a = np.clip(a, 0, 255).astype(np.uint8)
    if min(a.shape[0], a.shape[1]) < 16:
        raise DiceError(f"the frame is too small to hold dice ({a.shape[1]}x{a.shape[0]} pixels)")
    if a.ndim == 2:
        return cv2.cvtColor(a, cv2.COLOR_GRAY2BGR)
    if a.shape[2] == 4:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2BGR if channel_order == "bgr" else cv2.COLOR_RGBA2BGR)
    elif channel_order == "rgb":
        a = cv2.cvtColor(a, cv2.COLOR_RGB2BGR)
    elif channel_order != "bgr":
        raise DiceError(f"channel_order must be 'bgr' or 'rgb', not {channel_order!r}")
    return np.ascontiguousarray(a)


def find_dice(grey: np.ndarray, config: DiceConfig) -> list[Candidate]:
    """Candidate dice in a grey uint8 image (boxes in its pixels), strongest first.

    The detector sees the image at ``detector_scale``; when that view is large enough, it also
    sees it at half that scale (the *overview*), whose dice of at least
    ``config.overview_die_px`` (measured in the first view) replace what the first view made of
    them: the detector learned dice up to about 100 px, and a close-up die larger than that is
    found with a box too small, or not at all."""
    return find_dice_and_overview(grey, config)[0]


def find_dice_and_overview(grey: np.ndarray, config: DiceConfig) -> tuple[list[Candidate], list[Candidate] | None]:
    """:func:`find_dice`'s candidates, and the overview pass's large boxes whether it trusted
    them or not (None: the pass did not run), for :func:`overview_dice` to judge again."""
    h, w = grey.shape
    scale = detector_scale(h, w, config)
    cands = _detect(grey, scale, config)
    seen = None
    if _overview_worth_it(cands, h, w, scale, config):
        seen = _overview_boxes(grey, scale, config)
        big = [c for c in seen if _plausibly_big(c, cands)]
        if big:
            cands = big + [c for c in cands if not any(centre_inside(c.box, b.box) for b in big)]
            cands.sort(key=lambda c: -c.score)
    return _suppress(cands, config.max_dice), seen


def _overview_boxes(grey: np.ndarray, scale: float, config: DiceConfig) -> list[Candidate]:
    """The overview pass: the detector at half the first view's ``scale``, keeping the boxes of
    at least ``config.overview_die_px`` measured in the first view."""
    return [c for c in _detect(grey, scale / 2, config) if max(c.box[2], c.box[3]) * scale >= config.overview_die_px]


def _overview_worth_it(first: list[Candidate], h: int, w: int, scale: float, config: DiceConfig) -> bool:
    """Whether the overview pass could find a close-up die: it is on, the detector's view is at
    least four times ``overview_die_px``, and the first view found no die with a die's score
    or one at least half that size (dice thrown together are of a size, so a frame of clearly
    small dice holds no close-up one; it saves the pass on nearly every frame of a roll)."""
    if config.overview_die_px <= 0 or max(h, w) * scale < 4 * config.overview_die_px:
        return False
    strong = [max(c.box[2], c.box[3]) * scale for c in first if c.score >= DIE_SCORE]
    return not strong or max(strong) >= config.overview_die_px / 2


def _plausibly_big(big: Candidate, first: list[Candidate], min_score: float = DIE_SCORE) -> bool:
    """Whether a large die seen by the overview pass is one. Seen at a quarter of a 1280x720
    frame, a 30 px die or a cluster of touching dice can come out as one box several times
    its size; the first view, which sees them whole, then holds one small die or several
    there with a die's score (``DIE_SCORE``; ``min_score``). Over a large die the first view finds nothing,
    weak bits of its face (numbers, pips), or the die itself measured too small (at least a
    third of the overview's box)."""
    side = max(big.box[2], big.box[3])
    inside = [c for c in first if c.score >= min_score and centre_inside(c.box, big.box)]
    return not inside or (len(inside) == 1 and max(inside[0].box[2], inside[0].box[3]) >= side / 3)


def overview_wanted(shape: tuple[int, ...], cands: list[Candidate], dice: list[Candidate],
                    config: DiceConfig) -> bool:
    """Whether to look for a close-up die again (:func:`overview_dice`) once the classifier has
    judged the candidates: the detector's view is large enough for the overview pass, no
    candidate is already as large as a close-up die, and none of ``dice`` (the candidates the
    classifier takes for dice) is small with a die's score (``DIE_SCORE``; a weak one does not
    keep :func:`find_dice` from its overview either). The first view takes the printed numbers on a
    close-up d20's face for small dice with a die's score, which keeps :func:`find_dice` from
    its overview (a rendered d20 of 250-350 px in a 1296x972 frame: 24 of 40 found); the
    classifier calls those crops 'none'. A frame of small dice it reads as dice never pays for
    it."""
    h, w = shape[0], shape[1]
    scale = detector_scale(h, w, config)
    if (not config.overview_recheck or config.overview_die_px <= 0
            or max(h, w) * scale < 4 * config.overview_die_px):
        return False
    if any(max(c.box[2], c.box[3]) * scale >= config.overview_die_px for c in cands):
        return False
    return all(max(c.box[2], c.box[3]) * scale >= config.overview_die_px / 2 for c in dice if c.score >= DIE_SCORE)


def overview_dice(grey: np.ndarray, dice: list[Candidate], config: DiceConfig,
                  seen: list[Candidate] | None = None) -> list[Candidate]:
    """The close-up dice the overview pass (the detector at half its first scale) finds in
    ``grey``: boxes at least ``overview_die_px`` in the first view, each holding no die of
    ``dice`` (the candidates the classifier takes for dice, whatever their score) or exactly
    one at least a third of its size (:func:`_plausibly_big`), overlapping boxes suppressed as
    :func:`find_dice` suppresses them. ``seen``: the pass's large
    boxes if :func:`find_dice_and_overview` ran it already (it is not run twice)."""
    h, w = grey.shape
    scale = detector_scale(h, w, config)
    if seen is None:
        seen = _overview_boxes(grey, scale, config)
    return _suppress(sorted((c for c in seen if _plausibly_big(c, dice, 0.0)), key=lambda c: -c.score),
                     config.max_dice)


def centre_inside(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether box ``a``'s centre lies in box ``b``."""
    cx, cy = a[0] + a[2] / 2, a[1] + a[3] / 2
    return b[0] <= cx <= b[0] + b[2] and b[1] <= cy <= b[1] + b[3]


def _detect(grey: np.ndarray, scale: float, config: DiceConfig) -> list[Candidate]:
    """The detector's candidates on ``grey`` seen at ``scale`` (boxes in ``grey``'s pixels)."""
    h, w = grey.shape
    if scale < 1.0:
        small = shrink(grey, (max(1, round(w * scale)), max(1, round(h * scale))), config.detect_two_step)
    elif scale > 1.0:
        small = cv2.resize(grey, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_LINEAR)
    else:
        small = grey
    sh, sw = small.shape
    ph = (-sh) % DETECTOR_ALIGN
    pw = (-sw) % DETECTOR_ALIGN
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    blob = (small.astype(np.float32) * (1.0 / 255.0))[None, None]
    out = load_net(DETECTOR_PATH).run(blob)[0]
    logit = out[0]
    heat = 1.0 / (1.0 + np.exp(-logit))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= config.detect_threshold)
    ys, xs = np.nonzero(peaks)
    cands: list[Candidate] = []
    inv = 1.0 / scale
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx, cy, bw, bh = _box_at(out, y, x)
        if cx >= sw or cy >= sh:
            continue
        box = ((cx - bw / 2) * inv, (cy - bh / 2) * inv, bw * inv, bh * inv)
        if max(box[2], box[3]) < config.min_die_px:
            continue
        cands.append(Candidate(box=box, score=float(heat[y, x])))
    cands.sort(key=lambda c: -c.score)
    return cands


TWO_STEP_LAST = cv2.INTER_LINEAR
"""The interpolation of :func:`shrink`'s last step (a module setting, for measuring another)."""


def shrink(grey: np.ndarray, size: tuple[int, int], two_step: bool = False) -> np.ndarray:
    """``grey`` shrunk to ``size`` (width, height) for the detector: in one INTER_AREA step, or
    (``two_step``, ``DiceConfig.detect_two_step``) halved with INTER_AREA while it stays at least
    twice ``size``, then INTER_LINEAR (``TWO_STEP_LAST``) the rest of the way, on the same pixel grid (an odd last
    row or column is left out of a halving, and the last step maps each pixel where the one step
    would). A whole factor (one INTER_AREA step is then exact and fast) or a factor under 2 is
    one step either way."""
    tw, th = size
    h, w = grey.shape[:2]
    if not two_step or (w % tw == 0 and h % th == 0 and w // tw == h // th):
        return cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    small, f = grey, 1
    while small.shape[1] >= 2 * tw and small.shape[0] >= 2 * th:
        sh, sw = small.shape[0] // 2, small.shape[1] // 2
        small = cv2.resize(small[:2 * sh, :2 * sw], (sw, sh), interpolation=cv2.INTER_AREA)
        f *= 2
    if f == 1:
        return cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    if small.shape[1] * f == w and small.shape[0] * f == h:  # nothing left out: resize keeps the grid
        return small if small.shape[:2] == (th, tw) else cv2.resize(small, size, interpolation=TWO_STEP_LAST)
    # pixel i of ``small`` is centred at f (i + 1/2) of ``grey``, pixel t of the result at (t + 1/2) w / tw
    ax, ay = f * tw / w, f * th / h
    m = np.array([[ax, 0.0, ax / 2 - 0.5], [0.0, ay, ay / 2 - 0.5]], np.float32)
    return cv2.warpAffine(small, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _box_at(out: np.ndarray, row: int, col: int) -> tuple[float, float, float, float]:
    """The box the detector's output ``out`` (heat, log w, log h, x and y offsets) predicts at
    cell (``row``, ``col``): centre x, centre y, width, height in its input's pixels."""
    bw = float(np.exp(out[1, row, col]))
    bh = float(np.exp(out[2, row, col]))
    cx = (col + 1.0 / (1.0 + np.exp(-out[3, row, col]))) * DETECTOR_STRIDE
    cy = (row + 1.0 / (1.0 + np.exp(-out[4, row, col]))) * DETECTOR_STRIDE
    return cx, cy, bw, bh


def seen_shrunk(shape: tuple[int, ...], cand: Candidate, config: DiceConfig) -> bool:
    """Whether the detector saw this die (in an image of ``shape``) scaled down below the size
    it measures best, so that :func:`refine_boxes` can measure its box better. A frame the
    detector saw whole or enlarged has no finer detail to give (its unsure dice get a second
    look as well, ``DiceConfig.second_look_whole``, but it counts only where it reads them)."""
    scale = detector_scale(shape[0], shape[1], config)
    return bool(config.refine_window) and scale < 1.0 and max(cand.box[2], cand.box[3]) * scale < config.refine_die_px


def refine_boxes(grey: np.ndarray, cands: list[Candidate], config: DiceConfig) -> list[Candidate]:
    """Each candidate's box measured again by the detector on a window around it, scaled so the
    die is ``config.refine_die_px`` across (the size the detector measures best).

    The first pass sees a 1280x720 frame at half size, so a 30 px die is 15 px to it and its
    box is often a quarter too small or off centre: the face readers then see a cut face
    (the reader refines the dice it could not read that the detector saw shrunk,
    :func:`seen_shrunk`). All
    windows go through the network as one batch. A window whose peak near the centre is weak,
    or whose box hardly overlaps the first one, keeps the first box."""
    if not cands:
        return cands
    win = config.refine_window
    target = float(config.refine_die_px)
    windows, frames = [], []
    for c in cands:
        x, y, w, h = c.box
        # a window of ``win`` pixels, centred on the box, in which the die is ``target`` across
        windows.append(crop_square(grey, c.box, win, win / target))
        frames.append((target / max(w, h, 1.0), x + w / 2, y + h / 2))  # its scale and centre
    out = load_net(DETECTOR_PATH).run((np.stack(windows).astype(np.float32) * (1.0 / 255.0))[:, None])
    cells = win // DETECTOR_STRIDE
    centre = (np.arange(cells) + 0.5) * DETECTOR_STRIDE - win / 2
    # favour the peak at the window's centre (a neighbour's peak is at least a die away)
    near = np.exp(-(centre[None, :] ** 2 + centre[:, None] ** 2) / (2 * (0.5 * target) ** 2))
    refined: list[Candidate] = []
    for o, (sc, cx, cy), c in zip(out, frames, cands, strict=True):
        heat = 1.0 / (1.0 + np.exp(-o[0]))
        row, col = np.unravel_index(int(np.argmax(heat * near)), heat.shape)
        if heat[row, col] < config.detect_threshold:
            refined.append(c)
            continue
        px, py, bw, bh = _box_at(o, int(row), int(col))
        bw, bh = bw / sc, bh / sc
        fx, fy = cx + (px - win / 2) / sc, cy + (py - win / 2) / sc
        box = (fx - bw / 2, fy - bh / 2, bw, bh)
        refined.append(Candidate(box, c.score) if iou(box, c.box) >= 0.4 else c)
    return refined


def detector_scale(h: int, w: int, config: DiceConfig) -> float:
    """How much the detector's input is scaled: down so the longer side is at most
    ``detect_max_side``; up (at most ``detect_max_zoom`` times) when it is shorter than
    ``detect_min_side``, because a small dice area holds small dice (a tray seen whole by the
    camera) and the detector finds dice of 16 px far less often than of 30 px."""
    side = max(h, w)
    if side > config.detect_max_side:
        return config.detect_max_side / side
    if side < config.detect_min_side:
        return min(config.detect_max_zoom, config.detect_min_side / side)
    return 1.0


def iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ax2, ay2, bx2, by2 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    iw = max(0.0, min(ax2, bx2) - max(a[0], b[0]))
    ih = max(0.0, min(ay2, by2) - max(a[1], b[1]))
    inter = iw * ih
    return inter / max(1e-6, a[2] * a[3] + b[2] * b[3] - inter)


def _suppress(cands: list[Candidate], limit: int) -> list[Candidate]:
    kept: list[Candidate] = []
    for c in cands:
        if all(iou(c.box, k.box) < 0.45 for k in kept):
            kept.append(c)
        if len(kept) >= limit:
            break
    return kept
