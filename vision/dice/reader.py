"""Read the dice in one frame: find them, classify each top face, name its colour, abstain.

``read_dice(frame)`` never raises for a bad frame: it returns a :class:`DiceObservation` with
status ``'error'`` and a message instead, and it never reports a value it is unsure of.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from . import tune
from .contrast import contrast_grey
from .d6colour import colour_and_features, colour_crops, read_colour_and_chroma
from .d6head import read_d6
from .finder import (
    Candidate,
    as_bgr,
    centre_inside,
    find_dice_and_overview,
    iou,
    overview_dice,
    overview_wanted,
    refine_boxes,
    seen_shrunk,
)
from .labels import CLASSES, COCKED, NONE
from .models import (
    CLASSIFIER_PATH,
    CLASSIFIER_SIZE,
    TYPE_READER_KINDS,
    BackendError,
    ModelMissingError,
    crop_square,
    face_margin,
    face_reader_path,
    load_net,
    type_reader_path,
)
from .numbers import glyphs_and_features, read_glyphs, values_of
from .outline import lies_flat_as_d4, visible_share
from .pips import FLAT_BOX, count_pips, pip_outside
from .types import (
    FACES,
    STATUS_COCKED,
    STATUS_READ,
    STATUS_UNSURE,
    DiceConfig,
    DiceError,
    DiceObservation,
    DieReading,
)

Region = tuple[int, int, int, int]

_KIND_OF = [c.split(":")[0] for c in CLASSES]
_VALUE_OF = [int(c.split(":")[1]) if ":" in c else None for c in CLASSES]


_OF_KIND = {k: np.array([kk == k for kk in _KIND_OF], bool) for k in set(_KIND_OF)}


def _softmax_of(crops: list[np.ndarray], path: Path, n_out: int) -> np.ndarray:
    if not crops:
        return np.zeros((0, n_out), np.float32)
    x = np.stack(crops).astype(np.float32) * (1.0 / 255.0)
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = x.std(axis=(1, 2), keepdims=True)
    x = ((x - mean) / (std + 0.02))[:, None]
    logits = load_net(path).run(x).reshape(len(crops), -1)
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return np.asarray(p / p.sum(axis=1, keepdims=True), np.float32)


def classify_crops(crops: list[np.ndarray]) -> np.ndarray:
    """Class probabilities (N x len(CLASSES)) of grey crops of CLASSIFIER_SIZE squared."""
    return _softmax_of(crops, CLASSIFIER_PATH, len(CLASSES))


def read_faces(kind: str, crops: list[np.ndarray], below: float = 0.97) -> np.ndarray:
    """A face reader's probabilities (N x faces of ``kind``, value 1 first) of close crops
    (``face_margin(kind)``). A crop whose answer is under ``below`` is read again turned half a turn
    (a number can face any way) and the two answers averaged; a sure answer costs one pass.

    A reader trained with a last "not this type" output (``train_face_reader.py --negatives``)
    gives that output's probability to no value, so a row then sums to less than one: a die the
    classifier mistyped keeps less confidence instead of a value of the wrong type."""
    path, n = face_reader_path(kind), int(_OF_KIND[kind].sum())
    return _over_turns(lambda c: _softmax_of(c, path, n)[:, :n], crops, below, turns=(2,))


def with_face_readers(grey: np.ndarray, boxes: list[tuple[float, float, float, float]],
                      probs: np.ndarray, kinds: tuple[str, ...], sure: float = 1.0,
                      turn_below: float = 0.97, border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    """``probs`` with the values of every die the classifier types as one of ``kinds`` (at least
    half its probability on that type's classes) re-read by that type's face reader: the type's
    share is kept and spread over its values as the face reader says. A die whose value already
    has at least ``sure`` of the classifier's probability keeps the classifier's answer.
    ``border`` fills a crop past the edge of ``grey`` (an OpenCV border mode)."""
    out = probs
    for kind in kinds:
        mask = _OF_KIND[kind]
        share = probs[:, mask].sum(axis=1)
        # a value the classifier is already sure of needs no second opinion
        which = [i for i, s in enumerate(share) if s >= 0.5 and probs[i, mask].max() < sure]
        if not which:
            continue
        margin = face_margin(kind)
        faces = read_faces(kind, [crop_square(grey, boxes[i], CLASSIFIER_SIZE, margin, border) for i in which],
                           turn_below)
        if out is probs:
            out = probs.copy()
        for row, i in enumerate(which):
            out[i, mask] = share[i] * faces[row]
    return out


def read_types(crops: list[np.ndarray], below: float = 0.97) -> np.ndarray:
    """The type reader's probabilities (N x ``TYPE_READER_KINDS``) of classifier crops; a crop it
    is under ``below`` sure of is read again turned half a turn and the two answers averaged."""
    n = len(TYPE_READER_KINDS)
    return _over_turns(lambda c: _softmax_of(c, type_reader_path(), n), crops, below, turns=(2,))


def with_type_reader(crops: list[np.ndarray], probs: np.ndarray,
                     sure: float = DiceConfig.type_reader_skip_above,
                     turn_below: float = 0.97, always: Sequence[bool] | None = None) -> np.ndarray:
    """``probs`` with the type of every die the classifier types as a numbered type (at least
    half its probability on the numbered types) but doubts between them (its top numbered type
    under ``sure`` of the numbered share), or that ``always`` marks, weighed again with the type
    reader's answer.

    The numbered share stays what the classifier gave. It is split over the numbered types in
    proportion to the product of the two networks' answers (each normalised over the numbered
    types): where they agree the type grows surer, where they disagree doubt remains.
    Each type keeps the classifier's spread over its values; the face readers read them next."""
    masks = [_OF_KIND[k] for k in TYPE_READER_KINDS]
    types = np.stack([probs[:, m].sum(axis=1) for m in masks], axis=1)  # N x 5
    numbered = types.sum(axis=1)
    which = [i for i in range(len(probs)) if numbered[i] >= 0.5
             and (types[i].max() < sure * numbered[i] or (always is not None and always[i]))]
    if not which:
        return probs
    said = read_types([crops[i] for i in which], turn_below)
    out = probs.copy()
    for row, i in enumerate(which):
        both = types[i] / numbered[i] * said[row]
        new = numbered[i] * both / max(float(both.sum()), 1e-12)
        for m, before, after in zip(masks, types[i], new, strict=True):
            out[i, m] = probs[i, m] * (after / before) if before > 1e-9 else after / m.sum()
    return out


def classify_with_turns(
    crops: list[np.ndarray], below: float, above: float = 0.0, turns: tuple[int, ...] = (1, 2, 3)
) -> np.ndarray:
    """Class probabilities; a crop whose top probability is under ``below`` but not under
    ``above`` (and that is not plainly background) is classified again turned by each quarter
    turn in ``turns`` (1: 90 degrees, 2: 180, 3: 270) and the answers are averaged. A die's face
    reads the same at any turn, so this steadies the answer for hard crops; crops that are
    sure already, or hopeless (under ``above``), are not worth the time. (Turning only the
    crops unsure of their *type*, when a face reader reads the value afterwards, saves about a
    classifier pass a frame but let two real numbered dice through with a wrong type: the turn
    is also what doubts a wrong type.)"""
    return _over_turns(classify_crops, crops, below, above, turns, background=CLASSES.index(NONE))


def _over_turns(classify: Callable[[list[np.ndarray]], np.ndarray], crops: list[np.ndarray],
                below: float, above: float = 0.0, turns: tuple[int, ...] = (1, 2, 3),
                background: int | None = None) -> np.ndarray:
    """``classify(crops)``, with every crop whose top probability is in [``above``, ``below``)
    (and, given ``background``, under half on that class) classified again at each quarter turn
    in ``turns`` and the answers averaged."""
    probs = classify(crops)
    if not turns or not crops:
        return probs
    hard = [i for i, p in enumerate(probs) if above <= float(p.max()) < below
            and (background is None or float(p[background]) < 0.5)]
    if hard:
        turned = [np.ascontiguousarray(np.rot90(crops[i], k)) for i in hard for k in turns]
        more = classify(turned).reshape(len(hard), len(turns), -1)
        probs[hard] = (probs[hard] + more.sum(axis=1)) / (1.0 + len(turns))
    return probs


def colour_name(bgr: np.ndarray, box: tuple[float, float, float, float]) -> str:
    """A plain colour name for the die body in ``box`` (the larger of its two tone clusters)."""
    x, y, w, h = box
    H, W = bgr.shape[:2]
    x0, y0 = int(max(0, x + 0.2 * w)), int(max(0, y + 0.2 * h))
    x1, y1 = int(min(W, x + 0.8 * w)), int(min(H, y + 0.8 * h))
    if x1 <= x0 or y1 <= y0:
        return "unknown"
    patch = bgr[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    grey = patch @ np.array([0.114, 0.587, 0.299], np.float32)
    thr = float(np.mean(grey))
    hi = grey >= thr
    body = patch[hi] if hi.sum() >= (~hi).sum() else patch[~hi]
    if len(body) == 0:
        return "unknown"
    b, g, r = np.median(body, axis=0)
    hsv = cv2.cvtColor(np.array([[[b, g, r]]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
    hue, sat, val = int(hsv[0]), int(hsv[1]), int(hsv[2])
    if sat < 60 or val < 45:
        if val >= 170:
            return "white"
        if val < 75:
            return "black"
        return "grey"
    if hue < 8 or hue >= 170:
        return "pink" if sat < 130 and val > 150 else "red"
    if hue < 19:
        return "orange"
    if hue < 35:
        return "yellow"
    if hue < 80:
        return "green"
    if hue < 97:
        return "teal"
    if hue < 128:
        return "blue"
    if hue < 150:
        return "purple"
    return "pink"


def _widened(area: Region, shape: tuple[int, ...], cfg: DiceConfig) -> Region:
    """``area`` grown by ``cfg.region_margin`` of its longer side on every side (at least
    ``cfg.edge_margin_px`` + 8 px), clipped to the frame: what the reader sees of a region."""
    H, W = shape[:2]
    x, y, w, h = area
    m = max(int(round(cfg.region_margin * max(w, h))), cfg.edge_margin_px + 8) if cfg.region_margin > 0 else 0
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(W, x + w + m), min(H, y + h + m)
    return (x0, y0, x1 - x0, y1 - y0)


def _mirror_doubts(grey: np.ndarray, box: tuple[float, float, float, float], cls: int, need: float,
                   cfg: DiceConfig) -> bool:
    """Whether a die read as class ``cls`` lies within ``cfg.mirror_reach`` box sides of the edge
    of ``grey`` and the networks that read it, shown its crops with the part past that edge
    mirrored from inside, give ``cls`` less than ``need``: pips past the edge would then change
    the face. The mirrored crops are read as the first look read the die: the classifier, then
    the d6 face reader when it is one of ``cfg.face_readers`` (the classifier once
    judged alone, and doubted whole dice the d6 reader had read surely)."""
    H, W = grey.shape
    x, y, w, h = box
    reach = cfg.mirror_reach * max(w, h)
    if reach <= 0 or not (x <= reach or y <= reach or x + w >= W - reach or y + h >= H - reach):
        return False
    mirror = cv2.BORDER_REFLECT_101
    p = classify_crops([crop_square(grey, box, CLASSIFIER_SIZE, border=mirror)])
    if "d6" in cfg.face_readers:
        p = with_face_readers(grey, [box], p, ("d6",), cfg.face_reader_skip_above, border=mirror)
    return bool(p[0, cls] < need)


def _moved(cands: list[Candidate], dx: int, dy: int) -> list[Candidate]:
    if not (dx or dy):
        return cands
    return [Candidate((c.box[0] + dx, c.box[1] + dy, c.box[2], c.box[3]), c.score) for c in cands]


def _across_the_edge(grey: np.ndarray, cands: list[Candidate], area: Region, cfg: DiceConfig) -> list[Candidate]:
    """``cands`` (found in ``area`` of ``grey``), with the box of each one near an edge of the
    area that ``grey`` extends past (within a quarter of the box's side) measured again there
    (``finder.refine_boxes``): the detector saw only the part of such a die inside the area.
    The new box is kept when its centre is still in the area (the die belongs to the area)."""
    H, W = grey.shape
    x0, y0, w, h = area

    def at_open_edge(b: tuple[float, float, float, float]) -> bool:
        # the detector's box of a die's inner part can stop short of the edge
        m = max(cfg.edge_margin_px, 0.25 * max(b[2], b[3]))
        return ((x0 > 0 and b[0] <= x0 + m) or (y0 > 0 and b[1] <= y0 + m)
                or (x0 + w < W and b[0] + b[2] >= x0 + w - m) or (y0 + h < H and b[1] + b[3] >= y0 + h - m))

    which = [i for i, c in enumerate(cands) if at_open_edge(c.box)]
    if not which:
        return cands
    out = list(cands)
    box = (float(x0), float(y0), float(w), float(h))
    for i, c in zip(which, refine_boxes(grey, [cands[i] for i in which], cfg), strict=True):
        if centre_inside(c.box, box):
            out[i] = c
    return out


def _clip_region(region: Region | None, shape: tuple[int, ...]) -> Region:
    H, W = shape[:2]
    if region is None:
        return (0, 0, W, H)
    try:
        x, y, w, h = (int(round(float(v))) for v in region)
    except (TypeError, ValueError) as exc:
        raise DiceError(f"region must be (x, y, width, height) in pixels, got {region!r}") from exc
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 - x0 < 16 or y1 - y0 < 16:
        raise DiceError(
            f"the dice region {region!r} lies outside the {W}x{H} frame or is too small"
        )
    return (x0, y0, x1 - x0, y1 - y0)


def read_dice(
    frame_bgr: object, region: Region | None = None, config: DiceConfig | None = None
) -> DiceObservation:
    """Every die in ``region`` of one BGR frame (see :func:`read_dice_evidence`)."""
    return read_dice_evidence(frame_bgr, region, config)[0]


def read_dice_evidence(
    frame_bgr: object, region: Region | None = None, config: DiceConfig | None = None
) -> tuple[DiceObservation, list[D6Evidence | None]]:
    """Every die in ``region`` (x, y, w, h; None = the whole frame) of one BGR frame.

    Dice the classifier cannot read with at least ``config.threshold_for(kind)`` confidence are
    'unsure' with value None; dice leaning on something are 'cocked'; dice at the frame's edge
    need ``config.edge_read_threshold`` and dice cut by it (their box or, for a d6, their
    silhouette) are never read; an unsure die gets a second look (``finder.refine_boxes``),
    and a small d6 whose box may miss a column of pips must read the same on a box measured
    again (``config.pip_outside_below_px``). A die counts as in
    the region when its centre is; the reader sees ``config.region_margin`` around the region,
    so a die across the region's edge is seen whole.
    """
    cfg = config or DiceConfig()
    if isinstance(cfg.d6_table, tune.Adaptation):
        # a table's tuning made with other networks than the ones in place (a retrained one
        # shipped since) is not used: those dice read as without tuning (``Adaptation.in_force``;
        # checked once, and again when the networks' folder changes: ``Adaptation.for_reading``)
        table = cfg.d6_table.for_reading()
        if table is not cfg.d6_table:
            cfg = replace(cfg, d6_table=table)
    try:
        bgr = as_bgr(frame_bgr, cfg.channel_order)
        area = _clip_region(region, bgr.shape)
        rx, ry, rw, rh = _widened(area, bgr.shape, cfg) if region is not None else area
        sub = bgr[ry : ry + rh, rx : rx + rw]
        grey = cv2.cvtColor(sub, cv2.COLOR_BGR2GRAY)
        # the detector sees the region itself; the networks' crops come from the wider view
        inner = (area[0] - rx, area[1] - ry, area[2], area[3])
        view = grey[inner[1] : inner[1] + inner[3], inner[0] : inner[0] + inner[2]]
        found, seen = find_dice_and_overview(view, cfg)
        cands = _across_the_edge(grey, _moved(found, inner[0], inner[1]), inner, cfg)
        probs, flat = _probabilities(grey, cands, cfg)
        cands, probs, flat = _close_up_again(grey, view, inner, cands, probs, flat, seen, cfg)
        read = _decide(sub, grey, cands, probs, flat, cfg, (rx, ry))
        # a die it could not read (seen shrunk or not): measure its box again and
        # look again; the two looks are averaged (a second look alone would be a second chance
        # to pass the threshold by luck)
        again = [i for i, r in enumerate(read) if r is not None and r.status == STATUS_UNSURE
                 and cfg.refine_window > 0 and (cfg.second_look_whole or seen_shrunk(view.shape, cands[i], cfg))]
        # a die seen whole was boxed at a good scale the first time: its second look counts
        # only if the die is then read, the pip counter is not asked again, and a die at the
        # frame's edge is judged on its first box (a box measured again could leave the edge,
        # and with it the edge's stricter rules)
        whole_cfg = replace(cfg, pip_agree_above=0.0) if again else cfg
        final = [(c.box, p) for c, p in zip(cands, probs, strict=True)]
        for i, c, q in _looked_again(grey, cands, again, cfg):
            both = ((probs[i] + q) / 2)[None]
            if seen_shrunk(view.shape, cands[i], cfg):
                r = _decide(sub, grey, [c], both, [False], cfg, (rx, ry))[0]
                if r is not None:
                    read[i], final[i] = r, (c.box, both[0])
                continue
            judged = cands[i] if _at_edge(cands[i].box, grey.shape, cfg) else c
            r = _decide(sub, grey, [judged], both, [False], whole_cfg, (rx, ry))[0]
            if r is not None and r.status == STATUS_READ:
                read[i], final[i] = r, (judged.box, both[0])
        # a small d6 read with a pip-like spot just outside its box: the box may hold part of
        # the face (a 3 short of a corner column reads as 2); measured again, it stays read
        # only if the new box's crop names the same value
        short = [i for i, r in enumerate(read) if r is not None and r.status == STATUS_READ and r.kind == "d6"
                 and max(cands[i].box[2], cands[i].box[3]) < cfg.pip_outside_below_px and cfg.refine_window > 0
                 and pip_outside(grey, cands[i].box)]
        for i, _, q in _looked_again(grey, cands, short, cfg):
            first = read[i]
            if first is not None and _top_value(q, "d6") != first.value:
                read[i] = replace(first, status=STATUS_UNSURE, value=None)
        evidence: list[D6Evidence | None] = [None] * len(read)
        if "d6" in cfg.kinds and "d6" in cfg.face_readers and (cfg.d6_head or cfg.d6_evidence):
            read, evidence = _d6_pass(grey, read, final, cfg, sub)
        die_share = 1.0 - probs[:, CLASSES.index(NONE)] if len(probs) else np.zeros(0)
        if cfg.number_reader:
            # the number reader's answers by die, kept so no die is read by it twice
            glyphs: dict[int, np.ndarray] = {}
            speck = _speck_floor(read, die_share, cfg)
            read = _numbered_pass(sub, grey, read, final, cfg, glyphs=glyphs)
            read = _face_reader_names_type(sub, grey, read, final, cfg, glyphs)
            read = _table_numbers(sub, grey, read, final, cfg, speck)
            read = _number_names_type(frame_bgr, region, sub, grey, read, final, cfg, glyphs)
        kept = _without_specks(read, die_share, cfg)
    except (DiceError, ModelMissingError, BackendError) as exc:
        return DiceObservation((), "error", str(exc)), []
    ev_of = {id(r): e for r, e in zip(read, evidence, strict=True) if r is not None}
    kept.sort(key=lambda d: (d.box[0], d.box[1]))
    return observation_of(kept), [ev_of.get(id(r)) for r in kept]


@dataclass(frozen=True)
class D6Evidence:
    """What the d6 pass saw of one d6 (``read_dice_evidence``): the classifier's share on the d6
    type, the first reading's d6 value probabilities (value 1 first), the head's, the d6
    reader's summary of the crop and its uncorrected logits, the pip count (None: no clear
    count), the box side in pixels, and whether the die could be judged (away from the edge,
    typed d6)."""

    box: tuple[float, float, float, float]
    share: float
    first: np.ndarray
    head: np.ndarray
    embedding: np.ndarray
    pips: int | None
    side: float
    eligible: bool
    first_value: int | None = None  # the value the first look read (None: it was unsure)
    colour: np.ndarray | None = None  # the colour d6 reader's value probabilities (None: not asked)
    chroma: float = 0.0  # how colourful the colour reader's crop is (``d6colour.crop_chroma``; 0: grey)
    near_edge: bool = False  # judged only by the near-edge rule (``DiceConfig.d6_colour_near``)
    tunable: bool = False  # a table's adaptation may read it (``tunable_near_edge``)
    contrast: np.ndarray | None = None  # the contrast look's value probabilities (``DiceConfig.d6_contrast``)
    contrast_pips: int | None = None  # the pip count on the contrast grey

    @property
    def flat(self) -> bool:
        """Whether the box is square (``pips.FLAT_BOX``): a die seen from above. A die seen at a
        slant shows a side face beside its top, and the networks, which learned dice seen from
        above, can read the side face: such dice have thresholds of their own."""
        return min(self.box[2], self.box[3]) >= FLAT_BOX * max(self.box[2], self.box[3])


def band_group(side: float, flat: bool) -> str:
    """The threshold group of a d6: its size band, and '/slanted' for a box that is not square."""
    band = ">=48" if side >= 48 else "32-48" if side >= 32 else "<32"
    return band if flat else band + "/slanted"


def _d6_pass(grey: np.ndarray, read: list[DieReading | None],
             final: list[tuple[tuple[float, float, float, float], np.ndarray]],
             cfg: DiceConfig, bgr: np.ndarray | None = None) -> tuple[list[DieReading | None], list[D6Evidence | None]]:
    """The d6 readings judged again with the d6 head (``vision.dice.d6head``; see
    ``DiceConfig.d6_head``). Dice at the edge keep the first judgement, and a die near it that
    the first look left unsure stays unsure (the rules for cut dice stand), unless a table's own
    adaptation reads it and its box keeps clear of the edge (``tunable_near_edge``). Only a
    reader that uses the d6 face reader (``face_readers``) has the pass."""
    which = [i for i, r in enumerate(read) if r is not None and r.kind == "d6" and r.status != STATUS_COCKED]
    ev: list[D6Evidence | None] = [None] * len(read)
    if not which:
        return read, ev
    head, emb = read_d6(grey, [final[i][0] for i in which])
    # a table's own tuning (``vision.dice.tune``) only ever reads a die the pass leaves unsure
    # (a table without a read threshold yet changes nothing)
    table = cfg.d6_table if getattr(cfg.d6_table, "read_at", None) is not None else None
    tuned = tune.tuned_probabilities(table, head, emb) if table is not None else None
    # and the table's colour memory (``tune.ColourMemory``) only a die the grey memory leaves unsure
    # (with a threshold, and only with the colour d6 reader that made its features: read_dice_evidence
    # keeps it only then, ``Adaptation.for_reading``)
    colour_memory = getattr(cfg.d6_table, "colour", None)
    in_colour = colour_memory is not None
    to_table = tuned is not None or in_colour
    out = list(read)
    mask = _OF_KIND["d6"]
    judged: dict[int, D6Evidence] = {}  # row: the evidence of a die the pass judges
    verdicts: dict[int, tuple[int, bool, float]] = {}  # row: its value, whether sure, confidence
    for row, i in enumerate(which):
        r = read[i]
        assert r is not None
        box, p = final[i]
        share = float(p[mask].sum())
        first = p[mask] / max(share, 1e-9)
        side = float(max(box[2], box[3]))
        at_edge = _at_edge(box, grey.shape, cfg)
        square = min(box[2], box[3]) >= FLAT_BOX * side
        pips = count_pips(grey, box) if (not at_edge and square and side >= cfg.pip_agree_min_px) else None
        # within a side of the frame's edge (where the mirror check and the silhouette test
        # judge whether the edge cuts the die) the pass may doubt a die the first look read,
        # and reads one it left unsure only by the near-edge rule below (or, the die whole and
        # clear of the edge, by a table's own adaptation)
        H, W = grey.shape
        reach = max(cfg.mirror_reach, 1.0) * side  # the silhouette test's reach: a side
        near = box[0] < reach or box[1] < reach or box[0] + box[2] > W - reach or box[1] + box[3] > H - reach
        eligible = not at_edge and share >= 0.5 and (r.status == STATUS_READ or not near)
        tunable = eligible or (share >= 0.5 and r.status == STATUS_UNSURE
                               and tunable_near_edge(bgr if bgr is not None else grey, box, cfg))
        e = D6Evidence(box, share, first.astype(np.float32), head[row], emb[row], pips, side, eligible,
                       r.value if r.status == STATUS_READ else None, tunable=tunable)
        ev[i] = e
        if not cfg.d6_head:
            continue
        if not eligible and tunable and to_table and not (
                cfg.d6_colour and cfg.d6_colour_near <= 1.0 and side >= 32):
            # near the edge but whole: only the table's adaptation may read it (below); untuned,
            # the pass leaves it as the first look did
            judged[row] = e
            verdicts[row] = (int(np.argmax(head[row])) + 1, False, float(np.max(head[row])))
            continue
        if not eligible:
            # a whole die near the edge (its box clear of it, 32 px or more) that the first look
            # left unsure: read only when the head and the colour reader both name its value
            # with at least ``d6_colour_near`` (``colour_verdict``)
            if (cfg.d6_colour and cfg.d6_colour_near <= 1.0 and not at_edge and share >= 0.5 and near
                    and side >= 32 and r.status != STATUS_READ):
                e = ev[i] = judged[row] = replace(e, near_edge=True)
                value = int(np.argmax(head[row])) + 1
                verdicts[row] = (value, False, float(head[row][value - 1]))
            continue
        value, sure = d6_verdict(e, cfg)
        judged[row] = e
        verdicts[row] = (value, sure, float(head[row][value - 1]))
    # the colour reader looks only at the dice whose verdict it may change: those left unsure,
    # and the read ones too when it may doubt them (``d6_colour_veto`` at most 1)
    ask = [row for row, v in verdicts.items() if (not v[1] or cfg.d6_colour_veto <= 1.0)
           and (judged[row].eligible or judged[row].near_edge)]
    if cfg.d6_colour and ask:
        image = bgr if bgr is not None else grey
        boxes = [final[which[row]][0] for row in ask]
        colour, chroma = read_colour_and_chroma(image, boxes)
        for row, c, ch in zip(ask, colour, chroma, strict=True):
            e = judged[row] = ev[which[row]] = replace(judged[row], colour=c, chroma=float(ch))
            value, sure, conf = verdicts[row]
            value, sure = colour_verdict(e, value, sure, cfg)
            verdicts[row] = (value, sure, max(conf, float(c[value - 1])))
    if cfg.d6_contrast and bgr is not None and bgr.ndim == 3:
        _contrast_pass(bgr, judged, verdicts, cfg)
        for row, e in judged.items():
            ev[which[row]] = e
    for row, (value, sure, _conf) in list(verdicts.items()):
        if not sure and tuned is not None and judged[row].tunable:
            value, sure = tune.tuned_read(tuned[row], table, judged[row].side, judged[row].pips)
            verdicts[row] = (value, sure, float(tuned[row][value - 1]))
    late = [row for row, v in verdicts.items() if not v[1] and judged[row].tunable] if in_colour else []
    if late:
        # one colour pass for the dice still unsure; read only where the colour memory, its
        # reader and the grey reading (with the table's grey memory) agree
        cp, cf = colour_and_features(colour_crops(bgr if bgr is not None else grey, [judged[row].box for row in late]))
        grey_q = tune.tuned_probabilities(cfg.d6_table, head[late], emb[late])
        cv, ok, cq = tune.colour_read(cfg.d6_table, cp, cf, grey_q, [judged[row].side for row in late],
                                      [judged[row].pips for row in late])
        for j, row in enumerate(late):
            if ok[j]:
                verdicts[row] = (int(cv[j]), True, float(cq[j]))
    for row, (value, sure, conf) in verdicts.items():
        i = which[row]
        r = read[i]
        assert r is not None
        if not sure and not judged[row].eligible and not judged[row].near_edge:
            continue  # near the edge, the tuned read did not read it: the first look stands
        if sure:
            out[i] = replace(r, status=STATUS_READ, value=value, guess=value, confidence=conf)
        else:
            out[i] = replace(r, status=STATUS_UNSURE, value=None, guess=value, confidence=conf)
    return out, ev


def tunable_near_edge(image: np.ndarray, box: tuple[float, float, float, float], cfg: DiceConfig) -> bool:
    """Whether a d6 whose ``box`` lies near the edge of ``image`` may be read by a table's own
    adaptation (``DiceConfig.tuned_edge_clear``): the box keeps that share of its side, and at
    least ``edge_margin_px``, clear of every edge, and the die's silhouette is not cut by it."""
    if cfg.tuned_edge_clear < 0:
        return False
    x, y, w, h = box
    H, W = image.shape[:2]
    clear = max(float(cfg.edge_margin_px), cfg.tuned_edge_clear * max(w, h))
    if min(x, y, W - (x + w), H - (y + h)) < clear:
        return False
    if image.ndim == 3 and cfg.silhouette_cut:
        shown = visible_share(image, box)
        if shown is not None and shown < cfg.edge_min_aspect:
            return False
    return True


def d6_score(e: D6Evidence, cfg: DiceConfig) -> tuple[int, float]:
    """(value, score) of one d6 from its evidence: the head's top value, and how sure the
    methods together are of it. Where the first reading (the classifier and the grey face
    reader: ``first`` times the classifier's d6 share) names the same value, the two count as
    two witnesses (1 - (1 - head)(1 - first)); where the pip counter names it, as a witness
    right ``d6_pip_trust`` of the time; where the first reading names another value, its
    belief in that value counts against the head's (head x (1 - first))."""
    q = e.head
    top = int(np.argmax(q))
    h = float(q[top])
    f = float(e.first[top]) * e.share
    other = int(np.argmax(e.first))
    if other == top:
        score = 1.0 - (1.0 - h) * (1.0 - f)
    else:
        score = h * (1.0 - float(e.first[other]) * e.share)
    if e.pips == top + 1 and cfg.d6_pip_trust > 0:
        score = 1.0 - (1.0 - score) * (1.0 - cfg.d6_pip_trust)
    return top + 1, score


def d6_verdict(e: D6Evidence, cfg: DiceConfig) -> tuple[int, bool]:
    """(value, whether it is sure) of one d6. A die the first look read stays read when the
    head's top value is the same, and is unsure (the head's value its guess) when it is not: two
    methods disagree. A die the first look left unsure is read when its score
    (:func:`d6_score`) reaches the threshold of its size band and view (:func:`band_group`,
    ``DiceConfig.d6_read_thresholds``) and, under 32 px, the pip counter names its value too.
    ``DiceConfig.d6_slanted_unsure`` leaves every slanted die of 48 px and more unsure."""
    value, score = d6_score(e, cfg)
    group = band_group(e.side, e.flat)
    if cfg.d6_slanted_unsure and group == ">=48/slanted":
        return value, False
    if e.first_value is not None:
        return (e.first_value, True) if value == e.first_value else (value, False)
    if group.startswith("<32") and e.pips != value:
        # a box under 32 px may be a fragment (a pip or a corner of a die the frame's edge cuts,
        # found apart from it): the pass reads one only when the pip counter agrees
        return value, False
    return value, score >= dict(cfg.d6_read_thresholds).get(group, 2.0)


def colour_verdict(e: D6Evidence, value: int, sure: bool, cfg: DiceConfig) -> tuple[int, bool]:
    """(value, whether it is sure) of one d6 once the colour d6 reader (``vision.dice.d6colour``)
    has looked too: a die the grey looks read is left unsure when the colour reader names
    another value with at least ``d6_colour_veto``; a die they left unsure is read when the
    colour reader names their guess with at least ``d6_colour_agree`` (or its size band's
    threshold, ``d6_colour_agree_bands``: two methods agree), or
    any value with at least ``d6_colour_alone`` (one is near-certain); under 32 px only when the
    pip counter names that value too (as in :func:`d6_verdict`). A die near the frame's edge
    that the first look left unsure (``D6Evidence.near_edge``) is read only when the head and
    the colour reader both name one value with at least ``d6_colour_near``. A die whose crop is
    grey (``D6Evidence.chroma`` under ``d6_colour_min_chroma``: a grey photo, a white or black
    die) needs ``d6_colour_agree_grey`` at least to agree. A colour die of 32 px or more seen
    from above is also read when the value the head and the colour reader find likeliest
    together (:func:`colour_product`) has at least ``d6_colour_product``. The guess of a die left
    unsure is the value both find likeliest together (their probabilities multiplied)."""
    c = e.colour
    assert c is not None
    ctop = int(np.argmax(c)) + 1
    cconf = float(c[ctop - 1])
    if e.near_edge:  # near the frame's edge: both must be sure of one value
        htop = int(np.argmax(e.head)) + 1
        if htop == ctop and min(cconf, float(e.head[htop - 1])) >= cfg.d6_colour_near:
            return ctop, True
        return int(np.argmax(np.log(np.maximum(c, 1e-6)) + np.log(np.maximum(e.head, 1e-6)))) + 1, False
    if sure:
        return (value, False) if ctop != value and cconf >= cfg.d6_colour_veto else (value, True)
    both = np.log(np.maximum(c, 1e-6)) + np.log(np.maximum(e.head, 1e-6))
    if e.side < 32 and e.pips != (ctop if cconf >= cfg.d6_colour_alone else value):
        # as in d6_verdict: a box under 32 px may be a fragment of a cut die; read only with the pips
        return int(np.argmax(both)) + 1, False
    band = band_group(e.side, True)
    in_colour = e.chroma >= cfg.d6_colour_min_chroma
    agree = dict(cfg.d6_colour_agree_bands).get(band, cfg.d6_colour_agree)
    if ctop == value and cconf >= (agree if in_colour else max(agree, cfg.d6_colour_agree_grey)):
        return value, True
    if e.side >= 32 and e.flat and in_colour and ctop == int(np.argmax(e.head)) + 1:
        # both witnesses name the same value first (a near-certain one alone would carry the
        # product however the other leans) and together give it enough
        q = colour_product(e.head, c)
        if float(q[ctop - 1]) >= cfg.d6_colour_product:
            return ctop, True
    if cconf >= cfg.d6_colour_alone:
        return ctop, True
    return int(np.argmax(both)) + 1, False


def _contrast_pass(bgr: np.ndarray, judged: dict[int, D6Evidence],
                   verdicts: dict[int, tuple[int, bool, float]], cfg: DiceConfig) -> None:
    """The contrast look (``DiceConfig.d6_contrast``) at the colour d6 the pass leaves unsure,
    judged whole, away from the edge and seen from above (a square box): ``judged`` gets each one's evidence of it, ``verdicts``
    the dice it reads (:func:`contrast_verdict`)."""
    rows = [row for row, v in verdicts.items() if not v[1] and judged[row].eligible and judged[row].flat
            and judged[row].side >= cfg.d6_contrast_min_px]
    if rows and not cfg.d6_colour:
        boxes = [judged[row].box for row in rows]
        for row, c, ch in zip(rows, *read_colour_and_chroma(bgr, boxes), strict=True):
            judged[row] = replace(judged[row], colour=c, chroma=float(ch))
    for row in rows:
        e = judged[row]
        if e.chroma < cfg.d6_colour_min_chroma or e.colour is None:
            continue
        q, n = contrast_look(bgr, e.box, cfg)
        e = judged[row] = replace(e, contrast=q, contrast_pips=n)
        value, sure = contrast_verdict(e, cfg)
        if sure:
            verdicts[row] = (value, True, float(q[value - 1]))


def contrast_look(bgr: np.ndarray, box: tuple[float, float, float, float],
                  cfg: DiceConfig) -> tuple[np.ndarray, int | None]:
    """(the d6 networks' value probabilities, value 1 first; the pip count or None) of the d6 in
    ``box`` of a BGR image seen in its contrast grey (``vision.dice.contrast``)."""
    patch, inner = contrast_grey(bgr, box)
    head, _ = read_d6(patch, [inner])
    side = max(box[2], box[3])
    pips = count_pips(patch, inner) if side >= cfg.pip_agree_min_px else None
    return head[0], pips


def contrast_verdict(e: D6Evidence, cfg: DiceConfig) -> tuple[int, bool]:
    """(value, whether it is sure) of an unsure colour d6 by its contrast look
    (``DiceConfig.d6_contrast``): the look's top value, sure when the look gives it at least
    ``d6_contrast_head`` and the colour reader gives it at least ``d6_contrast_witness`` or the
    pip counter on the contrast grey counts it."""
    if e.contrast is None:
        return int(np.argmax(e.head)) + 1, False
    value = int(np.argmax(e.contrast)) + 1
    if float(e.contrast[value - 1]) < cfg.d6_contrast_head:
        return value, False
    colour_says = e.colour is not None and float(e.colour[value - 1]) >= cfg.d6_contrast_witness
    return value, colour_says or e.contrast_pips == value


def colour_product(head: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The d6 head's and the colour reader's value probabilities multiplied and normalised to
    sum to 1: what two independent witnesses say together (each floored at 1e-6)."""
    q = np.log(np.maximum(colour, 1e-6)) + np.log(np.maximum(head, 1e-6))
    q = np.exp(q - q.max())
    out: np.ndarray = (q / q.sum()).astype(np.float32)
    return out


def observation_of(readings: list[DieReading]) -> DiceObservation:
    """The observation of these dice: 'empty' without any, 'ok' when every one is read, else
    'unsure' with a message counting the cocked and unsure dice."""
    if not readings:
        return DiceObservation((), "empty", "no dice in view")
    if all(d.status == STATUS_READ for d in readings):
        return DiceObservation(tuple(readings), "ok", "")
    n_unsure = sum(d.status == STATUS_UNSURE for d in readings)
    n_cocked = sum(d.status == STATUS_COCKED for d in readings)
    parts = []
    if n_cocked:
        parts.append(f"{n_cocked} cocked")
    if n_unsure:
        parts.append(f"{n_unsure} unsure")
    return DiceObservation(tuple(readings), "unsure", ", ".join(parts) + ": please confirm")


def _speck_floor(read: list[DieReading | None], die_share: np.ndarray, cfg: DiceConfig) -> float:
    """The side under which a die not read is dropped as a speck: ``DiceConfig.speck_ratio`` of
    the largest candidate the classifier takes for a die (``die_share``: each candidate's
    probability of being a die of any type, cocked included)."""
    sure = [max(r.box[2], r.box[3]) for r, s in zip(read, die_share, strict=True)
            if r is not None and s >= cfg.speck_confidence]
    return cfg.speck_ratio * max(sure) if sure and cfg.speck_ratio > 0 else 0.0


def _without_specks(read: list[DieReading | None], die_share: np.ndarray, cfg: DiceConfig) -> list[DieReading]:
    """The readings, less the ones not read that are far smaller than the largest candidate the
    classifier takes for a die (``_speck_floor``). A die read is always kept."""
    least = _speck_floor(read, die_share, cfg)
    return [r for r in read if r is not None and
            (r.status == STATUS_READ or max(r.box[2], r.box[3]) >= least)]


def _probabilities(grey: np.ndarray, cands: list[Candidate], cfg: DiceConfig,
                   turn: bool = True) -> tuple[np.ndarray, list[bool]]:
    """Class probabilities per candidate (classifier, its turns, the face readers) and whether
    its crop is flat (noise on a black tray, a smooth shadow: no die face worth reading).
    ``turn=False`` reads every crop once, at the turn it has (the second look: the first look
    has already been turned)."""
    if not cands:
        return np.zeros((0, len(CLASSES)), np.float32), []
    crops = [crop_square(grey, c.box, CLASSIFIER_SIZE) for c in cands]
    e = CLASSIFIER_SIZE // 5
    flat = [float(c[e:-e, e:-e].std()) < cfg.min_contrast for c in crops]
    probs = classify_with_turns(crops, cfg.turns_below if turn else 0.0, cfg.turns_above, cfg.turns)
    if cfg.type_reader and any(k in cfg.kinds for k in TYPE_READER_KINDS):
        large = [max(c.box[2], c.box[3]) >= cfg.type_reader_always_px for c in cands]
        probs = with_type_reader(crops, probs, cfg.type_reader_skip_above, 0.97 if turn else 0.0, large)
    readers = tuple(k for k in cfg.face_readers if k in cfg.kinds)
    if readers:
        probs = with_face_readers(grey, [c.box for c in cands], probs, readers, cfg.face_reader_skip_above,
                                  0.97 if turn else 0.0)
    return probs, flat


def _close_up_again(grey: np.ndarray, view: np.ndarray, inner: Region, cands: list[Candidate],
                    probs: np.ndarray, flat: list[bool], seen: list[Candidate] | None, cfg: DiceConfig,
                    ) -> tuple[list[Candidate], np.ndarray, list[bool]]:
    """The candidates with a close-up die the finder's overview pass missed put in: when the
    classifier takes none of the candidates for a small die (``finder.overview_wanted``), the
    overview pass looks again, judging its boxes against the candidates the classifier takes
    for dice only; a box it keeps replaces the candidates whose centres lie in it (bits of the
    die's face) and is classified as the first look classifies. ``seen``: the overview's boxes
    if the finder ran it already (``finder.find_dice_and_overview``)."""
    none = CLASSES.index(NONE)
    dice = _moved([c for c, p in zip(cands, probs, strict=True) if p[none] < 0.5], -inner[0], -inner[1])
    if not overview_wanted(view.shape, _moved(cands, -inner[0], -inner[1]), dice, cfg):
        return cands, probs, flat
    big = _moved(overview_dice(view, dice, cfg, seen), inner[0], inner[1])
    if not big:
        return cands, probs, flat
    keep = [i for i, c in enumerate(cands) if not any(centre_inside(c.box, b.box) for b in big)]
    new_probs, new_flat = _probabilities(grey, big, cfg)
    return ([*big, *(cands[i] for i in keep)],
            np.concatenate([new_probs, probs[keep]]) if keep else new_probs,
            [*new_flat, *(flat[i] for i in keep)])


def _looked_again(grey: np.ndarray, cands: list[Candidate], which: list[int],
                  cfg: DiceConfig) -> list[tuple[int, Candidate, np.ndarray]]:
    """(index, new candidate, its class probabilities) for each of ``which`` whose box the
    detector measures differently on a window around it (``finder.refine_boxes``): the crop of
    the new box read once, unturned (the first look was turned already)."""
    if not which:
        return []
    moved = [(i, c) for i, c in zip(which, refine_boxes(grey, [cands[i] for i in which], cfg), strict=True)
             if c is not cands[i]]
    if not moved:
        return []
    second, _ = _probabilities(grey, [c for _, c in moved], cfg, turn=False)
    return [(i, c, q) for (i, c), q in zip(moved, second, strict=True)]


NUMBERED_KINDS = ("d4", "d8", "d10", "d12", "d20")
"""The die types with numbers on their faces (any of them can show another's number)."""


def _numbered_pass(bgr: np.ndarray, grey: np.ndarray, read: list[DieReading | None],
                   final: list[tuple[tuple[float, float, float, float], np.ndarray]],
                   cfg: DiceConfig, *, glyphs: dict[int, np.ndarray] | None = None) -> list[DieReading | None]:
    """The numbered dice the grey looks left unsure, judged again with the number reader
    (``vision.dice.numbers``; ``DiceConfig.number_reader``). Dice at the frame's edge keep the
    first judgement; a read die is never doubted. The number reader's answer for each die it
    asks about is put in ``glyphs`` (by the die's index), when given, for the steps after it
    (``_face_reader_names_type``, ``_number_names_type``); a die still unsure after them may be
    read by the table's memory (``_table_numbers``)."""
    # the number names a value, not the type (a barrel d4's 1 is a d12's 1 too: with every type
    # in play, real d4 were typed d10 and d12 with confidence): a die is read only when the roll
    # gives its type, i.e. it is the one numbered type in play, or when its type is one no other
    # real die was taken for and two networks that judge the type apart agree on it
    which = number_asked(grey, read, final, cfg)
    if not which:
        return read
    out = list(read)
    unsure = [(i, r) for i in which if (r := read[i]) is not None]

    asked = [(i, r) for i, r in unsure if r.kind in cfg.number_reader_kinds]
    for (i, r), g in zip(asked, read_glyphs(bgr, [final[i][0] for i, _ in asked], cfg.number_turns), strict=True):
        if glyphs is not None:
            glyphs[i] = g
        p = final[i][1]
        first = p[_OF_KIND[r.kind]] / max(float(p[_OF_KIND[r.kind]].sum()), 1e-9)
        value, sure, conf = number_verdict(first, values_of(g, r.kind), True, cfg, p[_OF_KIND[r.kind]])
        if sure:
            out[i] = _settled(r, value, conf, cfg)
    return out


def _shown(kind: str, value: int, cfg: DiceConfig) -> int:
    """How a die of ``kind`` showing ``value`` is reported: a d10's 10 as 0 unless
    ``d10_zero_is_ten``."""
    return 0 if kind == "d10" and value == 10 and not cfg.d10_zero_is_ten else value


def _settled(r: DieReading, value: int, conf: float, cfg: DiceConfig) -> DieReading:
    """``r`` read as ``value`` (``_shown``)."""
    shown = _shown(r.kind, value, cfg)
    return replace(r, status=STATUS_READ, value=shown, guess=shown, confidence=conf)


def _glyphs_for(bgr: np.ndarray, final: list[tuple[tuple[float, float, float, float], np.ndarray]],
                which: list[int], known: dict[int, np.ndarray], cfg: DiceConfig) -> dict[int, np.ndarray]:
    """``known`` (the number reader's answers by die index, as the steps before had them) with
    the answers for the dice of ``which`` it lacks added: each die is read by the number reader
    once per frame, whichever step asks first."""
    new = [i for i in which if i not in known]
    if new:
        known.update(zip(new, read_glyphs(bgr, [final[i][0] for i in new], cfg.number_turns), strict=True))
    return known


def _table_numbers(bgr: np.ndarray, grey: np.ndarray, read: list[DieReading | None],
                   final: list[tuple[tuple[float, float, float, float], np.ndarray]],
                   cfg: DiceConfig, speck: float = 0.0) -> list[DieReading | None]:
    """A die of a kind the table taught (``DiceConfig.d6_table``'s ``numbers``,
    ``vision.dice.tune.NumberMemory``) that every look before left unsure, judged with the
    table's memory of that kind: one the numbered pass would ask about (``number_asked``), and no
    speck (smaller than ``speck``, ``_speck_floor``: the reader drops such a candidate unread, and
    the table's memory must not rescue it). The memory sees the die as it was kept (the number
    reader's crop cut from the kept colour crop, ``tune.number_input``), so the two compare like
    with like."""
    taught: dict[str, Any] = getattr(cfg.d6_table, "numbers", None) or {}
    if not taught:
        return read
    memory = [(i, r) for i in number_asked(grey, read, final, cfg)
              if (r := read[i]) is not None and r.kind in taught and max(r.box[2], r.box[3]) >= speck]
    if not memory:
        return read
    out = list(read)
    x = tune.number_input(tune.colour_crops(bgr, [final[i][0] for i, _ in memory]))
    for (i, r), g, f in zip(memory, *glyphs_and_features(x), strict=True):
        value, sure, conf = taught[r.kind].verdict(values_of(g, r.kind), f)
        if sure:
            out[i] = _settled(r, value, conf, cfg)
    return out


def _number_names_type(frame: object, region: Region | None, bgr: np.ndarray, grey: np.ndarray,
                       read: list[DieReading | None],
                       final: list[tuple[tuple[float, float, float, float], np.ndarray]],
                       cfg: DiceConfig, glyphs: dict[int, np.ndarray] | None = None) -> list[DieReading | None]:
    """In a roll that does not name the dice's types, the number on a numbered die judges the
    type the grey looks gave it (``DiceConfig.number_type_veto`` and ``number_names_d20``): a
    number from 13 to 20 is a d20's, so such a die is read again as a roll of one d20 reads it
    (``frame`` and ``region`` read once more with the d20 alone in ``kinds``, the die matched by
    its box; left unsure there, its guess is that number); a die read as a type that has no such
    number as the one shown is left unsure. ``glyphs``: the number reader's answers already had
    (``_numbered_pass``), by die index; the other dice are read here."""
    numbered = [k for k in cfg.kinds if k in NUMBERED_KINDS]
    names_d20 = "d20" in cfg.kinds and cfg.number_names_d20 <= 1.0
    if len(numbered) < 2 or not (names_d20 or cfg.number_type_veto <= 1.0):
        return read
    which = [i for i, r in enumerate(read)
             if r is not None and r.kind in cfg.number_reader_kinds
             # a read d20 has every number the check looks for (but a d10's 0): not asked
             and ((r.status == STATUS_READ and r.kind != "d20") or (names_d20 and r.status == STATUS_UNSURE))
             and max(final[i][0][2], final[i][0][3]) >= cfg.number_min_px
             and not _at_edge(final[i][0], grey.shape, cfg)]
    if not which:
        return read
    seen = _glyphs_for(bgr, final, which, glyphs if glyphs is not None else {}, cfg)
    out = list(read)
    again: list[tuple[int, int]] = []
    for i in which:
        g = seen[i]
        r = read[i]
        assert r is not None
        if names_d20 and float(g[13:].sum()) >= cfg.number_names_d20:
            again.append((i, int(np.argmax(g))))
        elif r.status == STATUS_READ and 1.0 - float(values_of(g, r.kind).sum()) >= cfg.number_type_veto:
            out[i] = replace(r, status=STATUS_UNSURE, value=None)
    if not again:
        return out
    as_d20 = read_dice(frame, region, replace(cfg, kinds=("d20",))).dice
    for i, glyph in again:
        r = out[i]
        assert r is not None
        match = max(as_d20, key=lambda d: iou(d.box, r.box), default=None)
        if match is not None and iou(match.box, r.box) >= 0.5:
            # unsure, its guess is the number that made it a d20
            out[i] = match if match.status != STATUS_UNSURE else replace(match, guess=glyph)
        else:
            out[i] = replace(r, kind="d20", status=STATUS_UNSURE, value=None, guess=glyph)
    return out


D20_TAKEN_FOR = ("d8", "d20")
"""The types the grey looks give a d20 (``_face_reader_names_type``): its own, and the d8, whose
faces are triangles too (plastic d20 were typed d8 about a third of the time with every type
allowed; no d20 of those renders was typed anything else). A d10 is not asked: a rendered d10
showing 6 was taken for a d20's 6 by both the d20 face reader and the number reader."""


def _face_reader_names_type(bgr: np.ndarray, grey: np.ndarray, read: list[DieReading | None],
                            final: list[tuple[tuple[float, float, float, float], np.ndarray]],
                            cfg: DiceConfig, glyphs: dict[int, np.ndarray] | None = None) -> list[DieReading | None]:
    """A numbered type's own face reader judges whether a die is of that type
    (``DiceConfig.face_reader_names_type``), whatever share of it the classifier gave: in a roll
    of one numbered type (the kiosk's), an unsure die of that type; with the d20 in play, also a
    die typed d20 or d8 (``D20_TAKEN_FOR``) that is unsure, or read as a d8 (made a d20 only for a
    number from 9 up). Such a die is read as the value the face reader names when it puts enough
    on its values (not on "not this type"), enough on one of them, and the number reader names
    the same number (only a die of ``number_min_px`` and more: the number reader's least); a die
    it leaves unsure but takes for its type, of any size, keeps that value as its guess.
    ``glyphs``: the number reader's answers already had, by die index; the other dice are read
    here (and put in it)."""
    mass_need, value_need, number_need = cfg.face_reader_names_type
    numbered = [k for k in cfg.kinds if k in NUMBERED_KINDS]
    if max(mass_need, value_need, number_need) > 1.0 or not numbered:
        return read
    own = numbered[0] if len(numbered) == 1 else None

    def judge(r: DieReading) -> str | None:
        """The type whose face reader asks about ``r`` (None: none)."""
        if r.kind == own and r.status == STATUS_UNSURE:
            return own
        if "d20" in numbered and r.kind in D20_TAKEN_FOR and (
                r.status == STATUS_UNSURE or (r.status == STATUS_READ and r.kind != "d20")):
            return "d20"
        return None

    # a die under ``number_min_px`` (the number reader's least) can only have its guess put right
    readable = {i for i, r in enumerate(read) if max(final[i][0][2], final[i][0][3]) >= cfg.number_min_px}
    which = [(i, kind) for i, r in enumerate(read)
             if r is not None and (kind := judge(r)) is not None and kind in cfg.face_readers
             and (i in readable or r.status == STATUS_UNSURE)
             and not _at_edge(final[i][0], grey.shape, cfg)]
    if not which:
        return read
    known = _glyphs_for(bgr, final, [i for i, _ in which if i in readable],
                        glyphs if glyphs is not None else {}, cfg)
    out = list(read)
    for kind in sorted({k for _, k in which}):
        mine = [i for i, k in which if k == kind]
        faces = read_faces(kind, [crop_square(grey, final[i][0], CLASSIFIER_SIZE, face_margin(kind)) for i in mine])
        for i, f in zip(mine, faces, strict=True):
            r = read[i]
            assert r is not None
            value = int(np.argmax(f)) + 1
            # a die read as a d8 becomes a d20 only for a number no d8 has: a rendered d8 showing
            # 1 was a d20's 1 to both the d20 face reader and the number reader
            kept = r.status == STATUS_READ and value <= FACES[r.kind]
            if i in readable and not kept and float(f.sum()) >= mass_need and float(f[value - 1]) >= value_need \
                    and float(values_of(known[i], kind)[value - 1]) >= number_need:
                out[i] = _settled(replace(r, kind=kind), value, float(f[value - 1]), cfg)
            elif r.kind == kind and r.status == STATUS_UNSURE and float(f.sum()) >= mass_need:
                # left unsure as this type, which its face reader takes it for: the kiosk pre-fills
                # the value that network finds likeliest (the grey looks' guess comes from the
                # classifier alone when it gives the type under half its probability)
                out[i] = replace(r, guess=_shown(kind, value, cfg))
    return out


def number_asked(grey: np.ndarray, read: list[DieReading | None],
                 final: list[tuple[tuple[float, float, float, float], np.ndarray]], cfg: DiceConfig) -> list[int]:
    """The dice the numbered pass judges again (``_numbered_pass``): unsure, of a type the number
    reader or the table's memory reads, at least ``number_min_px`` wide, clear of the frame's
    edge, and of the roll's one numbered type or one whose type two networks agree on."""
    numbered = [k for k in cfg.kinds if k in NUMBERED_KINDS]
    taught: dict[str, Any] = getattr(cfg.d6_table, "numbers", None) or {}
    return [i for i, r in enumerate(read) if r is not None and r.status == STATUS_UNSURE
            and (r.kind in cfg.number_reader_kinds or r.kind in taught)
            and max(final[i][0][2], final[i][0][3]) >= cfg.number_min_px
            and not _at_edge(final[i][0], grey.shape, cfg)
            and (numbered == [r.kind] or (r.kind in cfg.number_any_roll_kinds
                                          and type_agreed(grey, final[i][0], final[i][1], r.kind, cfg)))]


def type_agreed(grey: np.ndarray, box: tuple[float, float, float, float], p: np.ndarray, kind: str,
                cfg: DiceConfig) -> bool:
    """Whether a numbered die's type ``kind`` is agreed on without the roll naming it: its final
    probabilities ``p`` give the type at least half, and the classifier alone (its share of the
    numbered types, turned as the first look turns it) and the type reader alone each give
    it at least ``number_type_agree`` (``DiceConfig.number_any_roll_kinds``), or the type reader
    alone gives it its ``number_type_reader_alone`` level. Without the type reader
    (``DiceConfig.type_reader`` off) there is no second witness: never."""
    if not cfg.type_reader or kind not in TYPE_READER_KINDS or float(p[_OF_KIND[kind]].sum()) < 0.5:
        return False
    alone = dict(cfg.number_type_reader_alone).get(kind)
    own, types = type_witnesses(grey, box, kind, cfg, cfg.number_type_agree if alone is None else 0.0)
    return (own >= cfg.number_type_agree and types >= cfg.number_type_agree) or (alone is not None and types >= alone)


def type_witnesses(grey: np.ndarray, box: tuple[float, float, float, float], kind: str, cfg: DiceConfig,
                   enough: float = 0.0) -> tuple[float, float]:
    """(the classifier's share of ``kind`` among the numbered types, the crop turned as the
    first look turns it; the type reader's probability of ``kind``): two judges of a numbered
    die's type that err apart (``type_agreed``). With the classifier's share under ``enough``
    the type reader is not asked (its answer is given as 0)."""
    crop = [crop_square(grey, box, CLASSIFIER_SIZE)]
    cls = classify_with_turns(crop, cfg.turns_below, cfg.turns_above, cfg.turns)[0]
    shares = np.array([float(cls[_OF_KIND[k]].sum()) for k in TYPE_READER_KINDS])
    own = float(shares[TYPE_READER_KINDS.index(kind)]) / max(float(shares.sum()), 1e-9)
    if own < enough:
        return own, 0.0
    return own, float(read_types(crop)[0][TYPE_READER_KINDS.index(kind)])


def number_verdict(first: np.ndarray, number: np.ndarray, type_given: bool,
                   cfg: DiceConfig, grey: np.ndarray | None = None) -> tuple[int, bool, float]:
    """(value, whether it is read, its confidence) of a numbered die the grey looks left unsure:
    ``first`` their value probabilities (value 1 first, over the die's type), ``number`` the
    number reader's (``numbers.values_of``), ``type_given`` whether the roll names the die's type
    (the one numbered type in play). Read when it does and the number reader names the grey
    looks' top value with ``number_agree`` (or any value with ``number_alone``), or, ``grey``
    given (the grey looks' own probabilities of the type's values, not renormalised), names it
    with the first of ``number_agree_grey`` while the grey looks give it the second (the
    reading's confidence then the larger of the two); else the
    grey looks' top value stays the guess (the value both find likeliest together guessed one
    more real d12 right and one d10 and one rendered die wrong: no gain to show)."""
    top_first = int(np.argmax(first))
    top_number = int(np.argmax(number))
    conf = float(number[top_number])
    low, grey_need = cfg.number_agree_grey
    if type_given and ((top_number == top_first and conf >= cfg.number_agree) or conf >= cfg.number_alone):
        return top_number + 1, True, conf
    if (type_given and grey is not None and top_number == top_first and conf >= low
            and float(grey[top_first]) >= grey_need):
        # its confidence: the larger of the two looks' (the number reader's alone can be far
        # under what the grey looks gave the die before)
        return top_number + 1, True, max(conf, float(grey[top_first]))
    return top_first + 1, False, float(number[top_first])


def _at_edge(box: tuple[float, float, float, float], shape: tuple[int, ...], cfg: DiceConfig) -> bool:
    """Whether ``box`` lies within the edge margin of an image of ``shape``: the die may be cut."""
    x, y, w, h = box
    m = max(cfg.edge_margin_px, 0.05 * max(w, h))
    return x <= m or y <= m or x + w >= shape[1] - m or y + h >= shape[0] - m


def _top_value(p: np.ndarray, kind: str) -> int | None:
    """The most likely value of ``kind`` in the probabilities ``p`` (None if it has none)."""
    of_kind = np.where(_OF_KIND[kind], p, -1.0)
    return _VALUE_OF[int(np.argmax(of_kind))] if of_kind.max() > 0 else None


def _decide(
    bgr: np.ndarray, grey: np.ndarray, cands: list[Candidate], probs: np.ndarray, flat: list[bool],
    cfg: DiceConfig, offset: tuple[int, int],
) -> list[DieReading | None]:
    """A reading per candidate from its probabilities, None for a candidate that is not a die."""
    allowed = np.array([k in cfg.kinds or k in (NONE, COCKED) for k in _KIND_OF], bool)
    H, W = grey.shape
    out: list[DieReading | None] = []
    for cand, p, is_flat in zip(cands, probs, flat, strict=True):
        if is_flat:
            out.append(None)
            continue
        # other die types' share is dropped but not spread over the rest: a die the net
        # takes for a d12 at a d6-only table is unsure, never a confident d6
        p = np.where(allowed, p, 0.0)
        top = int(np.argmax(p))
        kind = _KIND_OF[top]
        if kind == NONE and p[top] >= cfg.none_threshold:
            out.append(None)
            continue
        x, y, w, h = cand.box
        at_edge = _at_edge(cand.box, grey.shape, cfg)
        # a die cut by the edge shows a visible part much longer than wide: hidden pips, never read
        vw = min(W, x + w) - max(0.0, x)
        vh = min(H, y + h) - max(0.0, y)
        cut = at_edge and min(vw, vh) < cfg.edge_min_aspect * max(vw, vh)
        if not at_edge and min(w, h) < 0.55 * max(w, h) and kind != COCKED:
            out.append(None)  # a long thin box inside the area is not a die (text, card edge)
            continue
        if kind in (NONE, COCKED):
            die_p = {k: float(p[_OF_KIND[k]].sum()) for k in cfg.kinds if k in _OF_KIND}
            best_kind = max(die_p, key=lambda k: die_p[k]) if die_p else "d6"
        else:
            best_kind = kind
        conf = float(p[top])
        # the most likely value of the most likely type, whether or not it is sure enough
        guess = _top_value(p, best_kind)
        if guess is not None:
            guess = _shown(best_kind, guess, cfg)
        if kind == COCKED and conf >= 0.5:
            status, value, guess = STATUS_COCKED, None, None
        elif kind in (NONE, COCKED):
            status, value = STATUS_UNSURE, None
        else:
            need = cfg.threshold_for(kind)
            if at_edge:
                need = max(need, cfg.edge_read_threshold)
            status = STATUS_READ if conf >= need and not cut else STATUS_UNSURE
            # a die lying flat, seen from above, has a square box at any turn; two methods that
            # fail differently naming the same value read it
            square = min(w, h) >= FLAT_BOX * max(w, h)
            if (status == STATUS_UNSURE and kind == "d6" and not at_edge and square
                    and max(w, h) >= cfg.pip_agree_min_px
                    and 0 < cfg.pip_agree_above <= conf and count_pips(grey, cand.box) == guess):
                status = STATUS_READ
            # a d4 whose number is sure but whose type or flatness is doubted, showing the
            # equilateral triangle only a d4 lying flat shows
            if status == STATUS_UNSURE and kind == "d4" and cfg.d4_outline and not at_edge:
                share = float(p[_OF_KIND[kind]].sum())
                if share >= 0.5 and conf >= need * share and lies_flat_as_d4(bgr, cand.box):
                    status = STATUS_READ
            if status == STATUS_READ and kind == "d6" and _mirror_doubts(grey, cand.box, top, need, cfg):
                status = STATUS_UNSURE
            # a d6 whose silhouette the frame's edge cuts (the detector's box of a cut die may
            # be square or stop short of the edge, so the box test above can miss it)
            if status == STATUS_READ and kind == "d6" and cfg.silhouette_cut:
                shown = visible_share(bgr, cand.box)
                if shown is not None and shown < cfg.edge_min_aspect:
                    status = STATUS_UNSURE
            value = guess if status == STATUS_READ else None
        box = (
            int(round(x)) + offset[0],
            int(round(y)) + offset[1],
            int(round(w)),
            int(round(h)),
        )
        # clip the box to what the reader sees (the frame, or the region and its margin)
        bx0, by0 = max(offset[0], box[0]), max(offset[1], box[1])
        bx1 = min(offset[0] + W, box[0] + box[2])
        by1 = min(offset[1] + H, box[1] + box[3])
        out.append(
            DieReading(
                box=(bx0, by0, max(0, bx1 - bx0), max(0, by1 - by0)),
                kind=best_kind,
                colour=colour_name(bgr, cand.box),
                value=value,
                confidence=conf,
                status=status,
                guess=guess,
            )
        )
    return out
