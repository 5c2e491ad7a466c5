"""Occupancy and identity: which cells hold a figurine, and whose it is.

Every figurine stands on a coloured base ring (a cheap sticker, one colour per player). The
reader works on the canonical top-down board image (the frame warped through the board
registration) and looks for ring-coloured blobs:

1. Each pixel gets a player label from its hue (a 180-entry lookup table built from the
   configured sticker colours), if it is saturated and bright enough.
2. Against a *reference* image of the empty board, a pixel only counts if the board there does
   not already have that colour (a red ring on white counts, the red property band does not).
   Hue and saturation do not change under shadows or dimmer light, so shadows never count.
3. Per player, connected blobs of plausible ring size are figurines; fragments of one ring
   (cut by a leaning body) are merged; a blob the size of two rings counts two.
4. A figurine's cell is the majority cell under its ring pixels, so the ring, not the leaning
   body, decides the square; the Jail cell (40) is distinct from Just Visiting (10).

Turn context (`MoveContext`) scores candidates first: when the moving player's ring is not seen
with the normal thresholds, the candidate cells are searched again with relaxed thresholds, and
a piece seen on a cell the engine did not expect is reported in `unexpected`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.geometry import DEFAULT_SPEC, NUM_CELLS, BoardSpec, label_map

# Sticker colours (BGR) of the base rings a table can choose from.
STICKER_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (45, 40, 215),
    "blue": (205, 95, 25),
    "green": (60, 175, 45),
    "yellow": (35, 215, 240),
    "purple": (165, 45, 140),
    "orange": (25, 135, 250),
}

DEFAULT_PLAYERS: dict[str, str] = {
    "Ann": "red", "Ben": "blue", "Cai": "green", "Dee": "yellow", "Eve": "purple", "Fin": "orange",
}

RING_OUTER_MM = 8.5
RING_INNER_MM = 5.0


@dataclass(frozen=True)
class PawnReading:
    """One figurine seen on a cell: its owner (None when the colour is no player's)."""

    owner: str | None
    colour: str
    confidence: float


@dataclass(frozen=True)
class MoveContext:
    """What the rules engine expects: `player` moves from `from_square` to one of `candidates`;
    `positions` (optional) says where everyone else should stand."""

    player: str
    from_square: int
    candidates: tuple[int, ...]
    positions: Mapping[str, int] | None = None


@dataclass(frozen=True)
class UnexpectedPiece:
    owner: str | None
    square: int
    reason: str


@dataclass(frozen=True)
class Detection:
    owner: str | None
    colour: str
    cell: int
    confidence: float
    pos_mm: tuple[float, float]
    count: int = 1


@dataclass
class PawnRead:
    detections: list[Detection]
    occupants: dict[int, tuple[PawnReading, ...]]
    unexpected: tuple[UnexpectedPiece, ...]
    hands: bool
    hand_cells: frozenset[int] = frozenset()


@dataclass(frozen=True)
class PawnConfig:
    players: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_PLAYERS))
    colours: Mapping[str, tuple[int, int, int]] = field(
        default_factory=lambda: dict(STICKER_COLOURS))
    px_per_mm: float = 1.25
    hue_tol: int = 9
    min_sat: int = 140  # for red, orange, yellow (skin-like hues)
    min_sat_cool: int = 100  # for green, blue, purple
    min_val: int = 55
    ref_min_sat: int = 70
    min_area_frac: float = 0.16  # of a full ring's area
    relaxed_area_frac: float = 0.06
    max_area_frac: float = 2.6
    merge_mm: float = 15.0
    hand_area_mm2: float = 450.0
    skin_sat: tuple[int, int] = (40, 170)
    skin_max_hue: int = 32  # pale, yellowish skin reaches the yellow rings' hue
    desat_drop: int = 70
    desat_max_sat: int = 90
    desat_darker: int = 15
    desat_part_frac: float = 0.15  # of the base disc: smallest piece of a washed-out base
    desat_merge_mm: float = 14.0
    desat_min_frac: float = 0.45  # of the pewter base disc area
    explained_mm: float = 24.0  # a body leans at most this far from its ring
    explained_near_mm: float = 11.0
    fringe_mm: float = 10.0
    ref_range_sat: int = 120  # strong print: explains any pixel of its hue
    faint_print_max_sat: int = 256  # faint print explains only pixels below this saturation
    ref_hue_margin: int = 6  # a pixel this close in hue to the print under it is print
    ref_window: int = 5  # px: neighbourhood of the reference a pixel is compared with
    glare_floor: float = 0.3  # saturation floors drop to this fraction at most under glare
    one_per_player: bool = True  # each player has one figurine (Monopoly): keep the best
    max_union_rings: float = 8.0  # a cluster of ring-coloured pixels larger than this is print


def components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """connectedComponentsWithStats on the bounding box of the mask only (much faster on a
    nearly empty mask). Returns n, labels, stats, centroids (in crop coordinates), x0, y0."""
    x0, y0, w, h = cv2.boundingRect(mask)
    if w == 0 or h == 0:
        return 1, np.zeros((1, 1), np.int32), np.zeros((1, 5), np.int32), np.zeros((1, 2)), 0, 0
    n, cc, stats, cents = cv2.connectedComponentsWithStats(mask[y0:y0 + h, x0:x0 + w],
                                                           connectivity=8)
    return n, cc, stats, cents, x0, y0


def _between(h: int, a: int, b: int) -> bool:
    """Is hue h on the shorter arc from hue a to hue b (OpenCV hues, 0..179)?"""
    def d(u: int, v: int) -> int:
        x = abs(u - v) % 180
        return min(x, 180 - x)
    return d(a, h) + d(h, b) <= d(a, b) + 1 and d(a, h) > 0 and d(h, b) > 0


_SHIFT90 = np.array([(i + 90) % 180 if i < 180 else i for i in range(256)], np.uint8)


def _hue_of(bgr: tuple[int, int, int]) -> int:
    px = np.array([[bgr]], dtype=np.uint8)
    return int(cv2.cvtColor(px, cv2.COLOR_BGR2HSV)[0, 0, 0])


class PawnReader:
    """Reads figurines from canonical board images (board only, `px_per_mm`, BGR)."""

    def __init__(self, config: PawnConfig | None = None, spec: BoardSpec = DEFAULT_SPEC) -> None:
        self.config = cfg = config or PawnConfig()
        self.spec = spec
        unknown = sorted(set(cfg.players.values()) - set(cfg.colours))
        if unknown:
            raise ValueError(f"player colour(s) {unknown} have no sticker colour defined; "
                             f"choose from {sorted(cfg.colours)}")
        self.colour_names = sorted(set(cfg.players.values()))
        self.owner_of = {c: o for o, c in cfg.players.items()}
        # hue lookup: hue -> 1 + index of nearest colour (0 = none)
        hues = [_hue_of(cfg.colours[c]) for c in self.colour_names]
        lut = np.zeros(256, np.uint8)
        for h in range(180):
            best, best_d = 0, cfg.hue_tol + 1
            for k, hk in enumerate(hues):
                d = min(abs(h - hk), 180 - abs(h - hk))
                if d < best_d:
                    best, best_d = k + 1, d
            lut[h] = best
        self._lut = lut
        self._hues = hues
        self._min_sat_of = np.zeros(len(hues) + 1, np.uint8)
        for k, hk in enumerate(hues):
            warm = hk <= 35 or hk >= 165
            self._min_sat_of[k + 1] = cfg.min_sat if warm else cfg.min_sat_cool
        ppm = cfg.px_per_mm
        self.size = int(round(spec.side_mm * ppm))
        self.labels = label_map(spec, ppm)
        self.ring_area_px = math.pi * (RING_OUTER_MM ** 2 - RING_INNER_MM ** 2) * ppm * ppm
        self._squares_mask = (self.labels >= 0).astype(np.uint8)
        self.reference: np.ndarray | None = None
        self._ref_masks: list[np.ndarray] | None = None
        self._ref_hsv: np.ndarray | None = None
        self._ref_range: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] | None = None
        self._inv_glare: np.ndarray | None = None
        self.reference_smooth: np.ndarray | None = None
        self._outside = self.labels < 0
        self._close_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self.view_mm: tuple[float, float] | None = None  # board point under the camera

    # -- reference ----------------------------------------------------------------------------
    def set_reference(self, canon_bgr: np.ndarray, exclude: list[Detection] | None = None) -> None:
        """Learn the empty board. Rings listed in `exclude` (pieces standing there now) are kept
        out of the reference so they are not mistaken for board colour."""
        self._check(canon_bgr)
        hsv = cv2.cvtColor(canon_bgr, cv2.COLOR_BGR2HSV)
        cfg = self.config
        lab = self._label(hsv, cfg.ref_min_sat, cfg.min_val // 2)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        masks = []
        if exclude:
            exclude = [d for d in exclude if self._pewter_inside(hsv, d)]
        for k in range(len(self.colour_names)):
            m = cv2.dilate((lab == k + 1).astype(np.uint8), kernel)
            if exclude:
                for d in exclude:
                    if d.colour == self.colour_names[k]:
                        c = (int(d.pos_mm[0] * cfg.px_per_mm), int(d.pos_mm[1] * cfg.px_per_mm))
                        cv2.circle(m, c, int((RING_OUTER_MM + 3) * cfg.px_per_mm), 0, -1)
            masks.append(m.astype(bool))
        self._ref_masks = masks
        self._ref_hsv = hsv
        self._inv_glare = self._glare_map(hsv)
        self.reference_smooth = cv2.GaussianBlur(canon_bgr, (0, 0), 1.0)
        self._ref_range = self._hue_ranges(hsv, exclude or [])
        self.reference = canon_bgr.copy()

    def _hue_ranges(self, hsv: np.ndarray, exclude: list[Detection]
                    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
        """Per pixel, the hue range of the saturated print around it in the empty board (a
        `ref_window` neighbourhood, so blur and sub-pixel registration shifts stay covered).
        Two tiers: faint print (blurred edges, thin lines; hue noisy) only explains pixels that
        are not strongly saturated now; strong print explains any. Hue is circular: each pixel
        keeps the representation (h or h+90) whose range does not cross the wrap. Returns
        (lo, hi, flag, max current saturation) per tier; an empty range is lo 255, hi 0."""
        cfg = self.config
        h, s, v = cv2.split(hsv)
        if self._inv_glare is not None:
            s = np.asarray(cv2.multiply(s, self._inv_glare, dtype=cv2.CV_8U), np.uint8)
        if self.reference_smooth is not None:  # hue of the denoised board (faint print)
            h = cv2.split(cv2.cvtColor(self.reference_smooth, cv2.COLOR_BGR2HSV))[0]
        keep = np.ones(h.shape, bool)
        for d in exclude:
            c = (int(d.pos_mm[0] * cfg.px_per_mm), int(d.pos_mm[1] * cfg.px_per_mm))
            disc = np.zeros(h.shape, np.uint8)
            cv2.circle(disc, c, int((RING_OUTER_MM + 3) * cfg.px_per_mm), 1, -1)
            keep &= disc == 0
        k = np.ones((cfg.ref_window, cfg.ref_window), np.uint8)
        m = cfg.ref_hue_margin
        tiers = []
        tier_list = [(cfg.ref_min_sat, cfg.faint_print_max_sat)]
        if cfg.faint_print_max_sat < 256:  # else the faint tier's ranges hold the strong ones
            tier_list.append((cfg.ref_range_sat, 256))
        for ref_sat, cur_max in tier_list:
            sat = keep & (s >= ref_sat) & (v >= cfg.min_val // 2)
            out = []
            for shift in (0, 90):
                hr = ((h.astype(np.int16) + shift) % 180).astype(np.uint8)
                hi = cv2.dilate(np.where(sat, hr, 0).astype(np.uint8), k)
                lo = cv2.erode(np.where(sat, hr, 255).astype(np.uint8), k)
                out.append((lo, hi))
            w0 = out[0][1].astype(np.int16) - out[0][0]
            w1 = out[1][1].astype(np.int16) - out[1][0]
            # a range (with its margin) must not cross the wrap at 0/180 in the chosen form
            bad0 = (out[0][0] < m) | (out[0][1] > 179 - m)
            bad1 = (out[1][0] < m) | (out[1][1] > 179 - m)
            flag = ((bad0 & ~bad1) | ((bad0 == bad1) & (w1 < w0))).astype(np.uint8)
            lo16 = np.where(flag == 1, out[1][0], out[0][0]).astype(np.int16) - m
            hi16 = np.where(flag == 1, out[1][1], out[0][1]).astype(np.int16) + m
            empty = (w0 < 0) & (w1 < 0)
            lo8 = np.clip(lo16, 0, 255).astype(np.uint8)
            hi8 = np.clip(hi16, 0, 255).astype(np.uint8)
            hi8[empty] = 0
            lo8[empty] = 255
            tiers.append((lo8, hi8, flag, cur_max))
        return tiers

    def _glare_map(self, hsv: np.ndarray) -> np.ndarray | None:
        """Where a glare spot (added white light) compresses every saturation, by how much:
        measured on the plain light board background of the empty board, block by block,
        against its usual saturation. Returns 1/factor per pixel (None without glare)."""
        cfg = self.config
        s = hsv[..., 1].astype(np.float32)
        v = hsv[..., 2]
        vmax = cv2.dilate(v, np.ones((15, 15), np.uint8))
        bg = ((self.labels >= 0) & (hsv[..., 1] < 90)
              & (v.astype(np.float32) >= 0.8 * vmax)).astype(np.float32)
        nb = max(4, self.size // 16)
        num = cv2.resize(s * bg, (nb, nb), interpolation=cv2.INTER_AREA)
        den = cv2.resize(bg, (nb, nb), interpolation=cv2.INTER_AREA)
        num = cv2.GaussianBlur(num, (0, 0), 1.0)
        den = cv2.GaussianBlur(den, (0, 0), 1.0)
        ok = den > 0.05
        if ok.sum() < 16:
            return None
        sb = np.where(ok, num / np.maximum(den, 1e-6), 0)
        typ = float(np.median(sb[ok]))
        if typ < 5:
            return None
        f = np.where(ok, np.clip(sb / typ, cfg.glare_floor, 1.0), 1.0).astype(np.float32)
        if float(f.min()) > 0.85:
            return None
        full = cv2.resize(f, (self.size, self.size), interpolation=cv2.INTER_LINEAR)
        return np.asarray(1.0 / np.maximum(full, cfg.glare_floor), np.float32)

    def _pewter_inside(self, hsv: np.ndarray, d: Detection, min_frac: float = 0.25) -> bool:
        """A real figurine has grey pewter within its ring; a printed colour patch does not."""
        ppm = self.config.px_per_mm
        x, y = int(d.pos_mm[0] * ppm), int(d.pos_mm[1] * ppm)
        r = int(RING_INNER_MM * ppm)
        win = hsv[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
        if win.size == 0:
            return False
        grey = (win[..., 1] < 60) & (win[..., 2] > 40) & (win[..., 2] < 170)
        return d.confidence >= 0.6 and float(grey.mean()) > min_frac

    def _check(self, canon: np.ndarray) -> None:
        if canon.shape[:2] != (self.size, self.size) or canon.ndim != 3:
            raise ValueError(f"canonical board image must be {self.size}x{self.size}x3, "
                             f"got {canon.shape}")

    def _label(self, hsv: np.ndarray, min_sat: int, min_val: int,
               glare: bool = False) -> np.ndarray:
        """Player label per pixel; `min_sat` scales the per-colour saturation floors. With
        `glare`, saturations are first scaled up where the empty board showed a glare spot.
        (OpenCV lookups and compares only: numpy fancy indexing was the slow part.)"""
        h, s, v = cv2.split(hsv)
        if glare and self._inv_glare is not None:
            s = np.asarray(cv2.multiply(s, self._inv_glare, dtype=cv2.CV_8U), np.uint8)
        lab = cv2.LUT(h, self._lut)
        floor = self._min_sat_of.astype(np.float32) * (min_sat / self.config.min_sat)
        table = np.full(256, 255, np.uint8)
        table[:len(floor)] = np.clip(np.round(floor), 0, 255).astype(np.uint8)
        need = cv2.LUT(lab, table)
        ok = cv2.compare(s, need, cv2.CMP_GE)
        ok = cv2.bitwise_and(ok, cv2.compare(v, np.full_like(v, min_val), cv2.CMP_GE))
        return np.asarray(cv2.bitwise_and(lab, lab, mask=ok), np.uint8)

    def _not_print(self, hsv: np.ndarray, lab: np.ndarray) -> None:
        """Unlabel pixels whose hue the empty board already had around them (print); only
        the labelled pixels are looked at."""
        if self._ref_range is None:
            return
        idx = np.flatnonzero(lab)
        if len(idx) == 0:
            return
        h = hsv[..., 0].ravel()[idx]
        h90 = _SHIFT90[h]
        s = hsv[..., 1].ravel()[idx]
        hit = np.zeros(len(idx), bool)
        for lo, hi, flag, cur_max in self._ref_range:
            hr = np.where(flag.ravel()[idx] == 1, h90, h)
            t = (hr >= lo.ravel()[idx]) & (hr <= hi.ravel()[idx])
            if cur_max < 256:
                t &= s < cur_max
            hit |= t
        lab.ravel()[idx[hit]] = 0

    # -- reading -------------------------------------------------------------------------------
    def read(self, canon_bgr: np.ndarray, expected: MoveContext | None = None) -> PawnRead:
        self._check(canon_bgr)
        cfg = self.config
        hsv = cv2.cvtColor(canon_bgr, cv2.COLOR_BGR2HSV)
        lab = self._label(hsv, cfg.min_sat, cfg.min_val, glare=True)
        lab[self._outside] = 0
        hands, hand_cells = self._hands(hsv, lab)
        if self._ref_range is not None:
            self._not_print(hsv, lab)
        dets = self._find_rings(lab, cfg.min_area_frac)
        if self._ref_masks is None:
            # no picture of the empty board: printed colour patches are only told from rings by
            # the grey pewter a real figurine has inside its ring
            dets = [d for d in dets if self._pewter_inside(hsv, d, 0.15)]
        dets = self._drop_fringes(dets)
        if cfg.one_per_player:
            dets = self._best_per_colour(dets)
        if self._ref_hsv is not None:
            dets.extend(self._hidden_rings(hsv, dets))
        if expected is not None:
            dets = self._with_context(lab, hsv, dets, expected)
        occupants: dict[int, list[PawnReading]] = {}
        for d in dets:
            for _ in range(d.count):
                occupants.setdefault(d.cell, []).append(
                    PawnReading(d.owner, d.colour, round(d.confidence, 3)))
        unexpected = self._unexpected(dets, expected)
        return PawnRead(dets, {c: tuple(v) for c, v in sorted(occupants.items())}, unexpected,
                        hands, hand_cells)

    def _find_rings(self, lab: np.ndarray, min_frac: float,
                    only_cells: set[int] | None = None) -> list[Detection]:
        """Ring-sized blobs per colour in a label image. One connected-components pass over
        all labelled pixels finds the clusters; each colour is then split only inside the
        clusters' small boxes (much cheaper than a full-board pass per colour)."""
        cfg = self.config
        ring = self.ring_area_px
        union = (lab > 0).astype(np.uint8)
        n, cc, stats, _, ox, oy = components(union)
        if n <= 1:
            return []
        areas = stats[1:, cv2.CC_STAT_AREA]
        keep = np.flatnonzero((areas >= min_frac * ring * 0.5)
                              & (areas <= cfg.max_union_rings * ring)) + 1
        parts: dict[int, list[tuple[float, np.ndarray, np.ndarray]]] = {}
        for j in keep:
            x, y, w, h = (int(v) for v in stats[j, :4])
            sub = cc[y:y + h, x:x + w] == j
            lab_c = np.where(sub, lab[oy + y:oy + y + h, ox + x:ox + x + w], 0)
            cells_c = self.labels[oy + y:oy + y + h, ox + x:ox + x + w]
            present = np.unique(lab_c)
            for k in present[present > 0]:
                m = (lab_c == k).astype(np.uint8)
                if len(present) == 2:  # one colour only: the cluster is the part
                    nk, cck, sk, ck = 2, m.astype(np.int32), None, None
                    ys, xs = np.nonzero(m)
                    area = float(len(xs))
                    if area < min_frac * ring * 0.5:
                        continue
                    cent = np.array([xs.mean() + ox + x, ys.mean() + oy + y])
                    lbl = cells_c[ys, xs]
                    lbl = lbl[lbl >= 0]
                    votes = np.bincount(lbl, minlength=NUM_CELLS)[:NUM_CELLS]
                    parts.setdefault(int(k), []).append((area, cent, votes))
                    continue
                nk, cck, sk, ck = cv2.connectedComponentsWithStats(m, connectivity=8)
                for q in range(1, nk):
                    area = float(sk[q, cv2.CC_STAT_AREA])
                    if area < min_frac * ring * 0.5:
                        continue
                    qx, qy, qw, qh = (int(v) for v in sk[q, :4])
                    sel = cck[qy:qy + qh, qx:qx + qw] == q
                    lbl = cells_c[qy:qy + qh, qx:qx + qw][sel]
                    lbl = lbl[lbl >= 0]
                    votes = np.bincount(lbl, minlength=NUM_CELLS)[:NUM_CELLS]
                    cent = ck[q] + (ox + x, oy + y)
                    parts.setdefault(int(k), []).append((area, cent, votes))
        out: list[Detection] = []
        for k, plist in parts.items():
            out.extend(self._group(plist, self.colour_names[k - 1], min_frac, only_cells))
        return out

    def _group(self, parts: list[tuple[float, np.ndarray, np.ndarray]], colour: str,
               min_frac: float, only_cells: set[int] | None) -> list[Detection]:
        """Merge fragments of one ring (cut by a leaning body) and make detections."""
        cfg = self.config
        ring = self.ring_area_px
        ring_d = 2 * RING_OUTER_MM * cfg.px_per_mm
        merge_px = cfg.merge_mm * cfg.px_per_mm
        groups: list[list[int]] = []
        for i, p in enumerate(parts):
            for g in groups:
                if any(np.linalg.norm(p[1] - parts[q][1]) < merge_px for q in g):
                    g.append(i)
                    break
            else:
                groups.append([i])
        out: list[Detection] = []
        for g in groups:
            garea = float(sum(parts[i][0] for i in g))
            if garea < min_frac * ring or garea > cfg.max_area_frac * ring:
                continue
            votes = np.sum([parts[i][2] for i in g], axis=0)
            if votes.sum() == 0:
                continue
            pts = np.array([parts[i][1] for i in g])
            if float(np.ptp(pts, axis=0).max()) > 2.6 * ring_d:
                continue
            cell = int(np.argmax(votes))
            if only_cells is not None and cell not in only_cells:
                continue
            purity = float(votes[cell]) / float(votes.sum())
            count = 2 if garea > 1.9 * ring and not cfg.one_per_player else 1
            conf = min(1.0, garea / (0.6 * ring)) * purity
            c = np.sum([parts[i][1] * parts[i][0] for i in g], axis=0) / garea
            pos = (float(c[0]) / cfg.px_per_mm, float(c[1]) / cfg.px_per_mm)
            out.append(Detection(self.owner_of.get(colour), colour, cell, conf, pos, count))
        return out

    @staticmethod
    def _best_per_colour(dets: list[Detection]) -> list[Detection]:
        """Each player has one figurine: of several blobs of one colour keep the most
        confident (the others are fringes, reflections or print)."""
        best: dict[str, Detection] = {}
        for d in dets:
            if d.colour not in best or d.confidence > best[d.colour].confidence:
                best[d.colour] = d
        return [d for d in dets if best.get(d.colour) is d]

    def _drop_fringes(self, dets: list[Detection]) -> list[Detection]:
        """Two rings cannot overlap: of two detections closer than `fringe_mm`, keep the more
        confident (a yellow ring on a red print has an orange-looking fringe)."""
        keep = sorted(dets, key=lambda d: -d.confidence)
        keep = [d for d in keep if not self._is_mix(d, keep)]
        out: list[Detection] = []
        for d in keep:
            if all(math.dist(d.pos_mm, o.pos_mm) >= self.config.fringe_mm for o in out):
                out.append(d)
        return out

    def _is_mix(self, d: Detection, others: list[Detection]) -> bool:
        """A blob whose hue lies between a nearby ring's hue and the print under it is the
        blurred mix of the two (yellow ring on red print looks orange at its edge)."""
        if self._ref_masks is None:
            return False
        cfg = self.config
        k = self.colour_names.index(d.colour)
        hc = self._hues[k]
        x, y = int(d.pos_mm[0] * cfg.px_per_mm), int(d.pos_mm[1] * cfg.px_per_mm)
        r = int(12 * cfg.px_per_mm)
        y0, x0 = max(0, y - r), max(0, x - r)
        for o in others:
            if o is d or o.colour == d.colour or o.colour not in self.colour_names:
                continue
            if math.dist(d.pos_mm, o.pos_mm) > cfg.fringe_mm * 1.5:
                continue
            ha = self._hues[self.colour_names.index(o.colour)]
            for kb, mb in enumerate(self._ref_masks):
                if kb == k or not mb[y0:y + r, x0:x + r].any():
                    continue
                hb = self._hues[kb]
                if _between(hc, ha, hb):
                    return True
        return False

    def _hidden_rings(self, hsv: np.ndarray, dets: list[Detection]) -> list[Detection]:
        """Figurines whose ring is camouflaged (a red ring on the red GO arrow): the grey
        pewter still washes the colour out of the print. Such a blob, far from any ring seen,
        is a figurine; its owner is the one player not seen elsewhere whose colour the board
        has there, or unknown."""
        assert self._ref_hsv is not None and self._ref_masks is not None
        cfg = self.config
        ppm = cfg.px_per_mm
        s_cur = hsv[..., 1]
        s_ref = self._ref_hsv[..., 1]
        drop = cv2.subtract(s_ref, s_cur)
        # pewter is also darker than the bright print it covers (a glare spot is not)
        darker = cv2.subtract(self._ref_hsv[..., 2], hsv[..., 2])
        mask = ((drop > cfg.desat_drop) & (s_cur < cfg.desat_max_sat)
                & (darker > cfg.desat_darker) & (self.labels >= 0)).astype(np.uint8)
        mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                          np.uint8)
        # thin dark print (the Jail bars) cuts the washed-out pewter into pieces: join them
        mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, self._close_kernel), np.uint8)
        n, cc, stats, cents, ox, oy = components(mask)
        base_px = math.pi * RING_INNER_MM ** 2 * ppm * ppm
        seen = {d.colour for d in dets}
        out: list[Detection] = []
        yy, xx = np.mgrid[-14:15, -14:15].astype(np.float64) / ppm
        rr = np.hypot(xx, yy)
        annulus = (rr > 3.0) & (rr < 11.0)
        # pieces of one washed-out pewter base (half on print, half on plain board) are
        # grouped before their area is judged
        parts: list[tuple[float, np.ndarray, np.ndarray]] = []
        for j in range(1, n):
            area = int(stats[j, cv2.CC_STAT_AREA])
            if area < cfg.desat_part_frac * base_px:
                continue
            x, y, w, h = (int(v) for v in stats[j, :4])
            sub = cc[y:y + h, x:x + w] == j
            lbl = self.labels[oy + y:oy + y + h, ox + x:ox + x + w][sub]
            lbl = lbl[lbl >= 0]
            parts.append((float(area), cents[j] + (ox, oy),
                          np.bincount(lbl, minlength=NUM_CELLS)[:NUM_CELLS]))
        groups: list[list[int]] = []
        merge_px = cfg.desat_merge_mm * ppm
        for i, part in enumerate(parts):
            near = [g for g in groups
                    if any(np.linalg.norm(part[1] - parts[q][1]) < merge_px for q in g)]
            for g in near[1:]:
                near[0].extend(g)
                groups.remove(g)
            if near:
                near[0].append(i)
            else:
                groups.append([i])
        for g in groups:
            garea = float(sum(parts[i][0] for i in g))
            if garea < cfg.desat_min_frac * base_px:
                continue
            c = np.sum([parts[i][1] * parts[i][0] for i in g], axis=0) / garea
            pos = (float(c[0] / ppm), float(c[1] / ppm))
            if any(self._explains(d, pos) for d in dets + out):
                continue
            votes = np.sum([parts[i][2] for i in g], axis=0)
            if votes.sum() == 0:
                continue
            cell = int(np.argmax(votes))
            cx, cy = int(round(c[0])), int(round(c[1]))
            y0, y1 = max(0, cy - 14), min(self.size, cy + 15)
            x0, x1 = max(0, cx - 14), min(self.size, cx + 15)
            ann = annulus[y0 - cy + 14:y1 - cy + 14, x0 - cx + 14:x1 - cx + 14]
            cands = []
            for k, colour in enumerate(self.colour_names):
                if colour in seen:
                    continue
                frac = float(self._ref_masks[k][y0:y1, x0:x1][ann].mean()) if ann.any() else 0.0
                if frac > 0.15:
                    cands.append(colour)
            if len(cands) > 1:  # the ring's own hue around the pewter decides
                cands = self._hue_pick(hsv, (cx, cy), cands)
            if len(cands) == 1:
                colour = cands[0]
                seen.add(colour)
                out.append(Detection(self.owner_of.get(colour), colour, cell, 0.5, pos))
            else:
                out.append(Detection(None, "unknown", cell, 0.3, pos))
        return out

    def _explains(self, d: Detection, pos: tuple[float, float]) -> bool:
        """Is a washed-out blob at `pos` the body of the figurine seen at `d`? Bodies lean away
        from the point of the board under the camera (`view_mm`), by up to `explained_mm`."""
        dx, dy = pos[0] - d.pos_mm[0], pos[1] - d.pos_mm[1]
        dist = math.hypot(dx, dy)
        if dist < self.config.explained_near_mm:
            return True
        if dist >= self.config.explained_mm or self.view_mm is None:
            return dist < self.config.explained_mm and self.view_mm is None
        lx, ly = d.pos_mm[0] - self.view_mm[0], d.pos_mm[1] - self.view_mm[1]
        norm = math.hypot(lx, ly)
        if norm < 1e-6:
            return False
        return (dx * lx + dy * ly) / (dist * norm) > 0.6

    def _hue_pick(self, hsv: np.ndarray, c: tuple[int, int], cands: list[str]) -> list[str]:
        """Of several colours, the one most of the saturated pixels around `c` have."""
        r = int((RING_OUTER_MM + 1) * self.config.px_per_mm)
        x, y = c
        win = hsv[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
        lab = self._label(win, int(self.config.min_sat * 0.6), self.config.min_val)
        votes = {col: int((lab == self.colour_names.index(col) + 1).sum()) for col in cands}
        best = max(votes.values())
        return [col for col, v in votes.items() if v == best and v > 0]

    def _with_context(self, lab: np.ndarray, hsv: np.ndarray, dets: list[Detection],
                      ctx: MoveContext) -> list[Detection]:
        """Score the candidate cells first: look again there with relaxed thresholds when the
        moving player's ring was not found with the normal ones."""
        cfg = self.config
        colour = cfg.players.get(ctx.player)
        if colour is None or any(d.owner == ctx.player for d in dets):
            return dets
        k = self.colour_names.index(colour)
        relaxed = self._label(hsv, int(cfg.min_sat * 0.7), int(cfg.min_val * 0.7), glare=True)
        cand = set(ctx.candidates)
        region = np.isin(self.labels, list(cand)) if cand else np.zeros_like(self.labels, bool)
        relaxed[~region | (relaxed != k + 1)] = 0
        self._not_print(hsv, relaxed)
        extra = self._find_rings(relaxed, cfg.relaxed_area_frac, cand)
        extra = [Detection(d.owner, d.colour, d.cell, d.confidence * 0.7, d.pos_mm, d.count)
                 for d in extra]
        return dets + extra[:1]

    def _unexpected(self, dets: list[Detection], ctx: MoveContext | None
                    ) -> tuple[UnexpectedPiece, ...]:
        if ctx is None:
            return ()
        out: list[UnexpectedPiece] = []
        for d in dets:
            if d.owner == ctx.player:
                if ctx.candidates and d.cell not in ctx.candidates:
                    out.append(UnexpectedPiece(d.owner, d.cell,
                                               f"{d.owner} was expected on one of "
                                               f"{sorted(ctx.candidates)}"))
            elif ctx.positions is not None and d.owner is not None and d.owner in ctx.positions:
                want = ctx.positions[d.owner]
                if d.cell != want:
                    out.append(UnexpectedPiece(d.owner, d.cell,
                                               f"{d.owner} should still stand on {want}"))
        return tuple(out)

    def _hands(self, hsv: np.ndarray, lab: np.ndarray) -> tuple[bool, frozenset[int]]:
        """Large skin-coloured regions that the empty board did not have there, over the
        squares (needs the reference). Saturation is judged after the glare correction: warm
        rings side by side under a glare spot would otherwise add up to a hand."""
        if self._ref_hsv is None:
            return False, frozenset()
        cfg = self.config
        h, s, v = cv2.split(hsv)
        rh, rs, rv = cv2.split(self._ref_hsv)
        s_eff = s
        if self._inv_glare is not None:  # rings washed out by glare are not skin
            s_eff = np.asarray(cv2.multiply(s, self._inv_glare, dtype=cv2.CV_8U), np.uint8)
        skin = (((h <= cfg.skin_max_hue) | (h >= 172)) & (s >= cfg.skin_sat[0])
                & (s_eff <= cfg.skin_sat[1]) & (v >= 70))
        dh = cv2.absdiff(h, rh)
        dh = np.minimum(dh, 180 - dh)
        changed = (dh > 8) | (cv2.absdiff(s, rs) > 45)
        m = (skin & changed & (self.labels >= 0)).astype(np.uint8)
        m = np.asarray(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
        n, cc, stats, _, ox, oy = components(m)
        min_px = cfg.hand_area_mm2 * cfg.px_per_mm ** 2
        big = [j for j in range(1, n) if stats[j, cv2.CC_STAT_AREA] >= min_px]
        if not big:
            return False, frozenset()
        cells: set[int] = set()
        for j in big:
            x, y, w, hh, _ = (int(v) for v in stats[j])
            sub = cc[y:y + hh, x:x + w] == j
            lbl = self.labels[oy + y:oy + y + hh, ox + x:ox + x + w][sub]
            cells.update(int(c) for c in np.unique(lbl) if c >= 0)
        return True, frozenset(cells)
