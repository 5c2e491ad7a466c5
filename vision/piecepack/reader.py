"""Piecepack dice and coins in a frame: found by one small network, each read by another.

``read_pieces(frame)`` finds every die and coin in a BGR frame (the dice area) and reads it:

- a die: its value (null, ace, 2-5 as 0-5) and its suit (from its colour and marks);
- a coin lying value side up: its value; suit side up: its suit.

Each field is given only when the reader is confident of it (``PiecepackConfig.read_threshold``);
otherwise it is None and the piece is ``unsure``, with the reader's best guess kept apart
(``guess_value``, ``guess_suit``) for a person to check. It never invents a value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.piecepack import models as M

STATUS_READ = "read"
STATUS_UNSURE = "unsure"


class PiecepackError(ValueError):
    """A frame the reader cannot use (wrong type, size or colour layout); the message says why."""


@dataclass(frozen=True)
class PiecepackConfig:
    find_threshold: float = 0.15
    """Minimum finder heat for a piece candidate."""
    read_threshold: float = 0.6
    """Minimum probability for a value or a suit to be reported (below it: unsure). Chosen with
    ``benchmarks/vision_piecepack.py --calibrate --frames 500`` on rendered tuning frames held
    out from training and from the benchmark: none of 2225 pieces is read wrong at 0.5 or
    above, and the closest wrong best guess has 0.47, so 0.6 keeps a margin (99.6% of the
    pieces read)."""
    turns: int = 4
    """Each piece is read at this many quarter turns, the probabilities averaged (1: once)."""
    kinds: tuple[str, ...] = ("die", "coin")
    """Which pieces to report (the dice prompt wants dice only)."""
    region: tuple[int, int, int, int] | None = None
    """Read only inside (x, y, w, h) of the frame (the dice area); None: the whole frame."""


DEFAULT_CONFIG = PiecepackConfig()


@dataclass(frozen=True)
class PieceReading:
    """One die or coin. ``side`` is "" for a die, "value" or "suit" for a coin (which side is up).
    ``box`` is (x, y, w, h) in pixels of the frame passed in."""

    kind: str
    side: str
    box: tuple[int, int, int, int]
    value: int | None
    suit: str | None
    status: str
    confidence: float
    guess_value: int | None = None
    guess_suit: str | None = None

    @property
    def guess(self) -> int | None:
        """The most likely value even when unsure (a starting point for a person, never a
        reading): the kiosk's dice pad pre-fills an unsure die with it."""
        return self.guess_value

    @property
    def tag(self) -> str | None:
        """The piece's colour tag as a game-blind caller (the kiosk) takes it: its suit, None
        when not read (a die's suit from its colour; a coin's only when it lies suit side up).
        The game decides what a tag means (whose die it is, which coin)."""
        return self.suit

    @property
    def label(self) -> str:
        v = "?" if self.value is None else M.VALUE_LABELS[self.value]
        s = "?" if self.suit is None else self.suit
        if self.kind == "die":
            return f"{s} die {v}"
        return f"coin {v}" if self.side == "value" else f"coin of {s}"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "side": self.side, "box": list(self.box), "value": self.value,
                "suit": self.suit, "status": self.status,
                "confidence": round(self.confidence, 4), "guess_value": self.guess_value,
                "guess_suit": self.guess_suit}


@dataclass(frozen=True)
class PieceObservation:
    """What the reader saw in one frame. ``status``: ``ok`` (every piece read), ``unsure`` (at
    least one piece unsure: ask a person), ``empty`` (no piece) or ``error`` (``message``)."""

    pieces: tuple[PieceReading, ...]
    status: str
    message: str = ""

    @property
    def dice(self) -> tuple[PieceReading, ...]:
        return tuple(p for p in self.pieces if p.kind == "die")

    @property
    def coins(self) -> tuple[PieceReading, ...]:
        return tuple(p for p in self.pieces if p.kind == "coin")

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status, "message": self.message,
                "pieces": [p.to_dict() for p in self.pieces]}


def check_frame(frame: object) -> np.ndarray:
    """The frame as a BGR uint8 array, or :class:`PiecepackError` saying what is wrong."""
    if not isinstance(frame, np.ndarray):
        raise PiecepackError(f"expected an image as a numpy array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise PiecepackError(f"expected 8-bit pixels (uint8), got {frame.dtype}: convert with "
                             "np.clip(frame, 0, 255).astype(np.uint8)")
    if frame.ndim == 2:
        raise PiecepackError("expected a colour (BGR) frame, got a grey one: the suits are read "
                             "from their colours")
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise PiecepackError(f"expected an H x W x 3 BGR frame, got shape {frame.shape}")
    if frame.shape[0] < 48 or frame.shape[1] < 48:
        raise PiecepackError(f"frame {frame.shape[1]}x{frame.shape[0]} is too small: the reader "
                             "needs at least 48x48 pixels")
    return frame[..., :3] if frame.shape[2] == 4 else frame


def find(frame: np.ndarray, config: PiecepackConfig = DEFAULT_CONFIG
         ) -> list[tuple[float, float, float, float]]:
    """Piece candidates (centre x, centre y, side, heat) in frame pixels."""
    h, w = frame.shape[:2]
    sw, sh = max(16, round(w * M.FINDER_SCALE)), max(16, round(h * M.FINDER_SCALE))
    small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA)
    pw = -sw % M.FINDER_ALIGN
    ph = -sh % M.FINDER_ALIGN
    if pw or ph:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    out = M.load_net(M.FINDER_PATH).run(M.to_input(small)[None])[0]
    heat = 1 / (1 + np.exp(-out[:2].max(axis=0)))
    size = out[2]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & \
        (heat >= config.find_threshold)
    ys, xs = np.nonzero(peaks)
    stride = M.FINDER_STRIDE * (w / (sw / M.FINDER_SCALE))
    cands = []
    gh, gw = heat.shape
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        y0, y1, x0, x1 = max(0, y - 1), min(gh, y + 2), max(0, x - 1), min(gw, x + 2)
        win = heat[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        wsum = float(win.sum())
        cx = (float((xx * win).sum()) / wsum + 0.5) * stride
        cy = (float((yy * win).sum()) / wsum + 0.5) * stride
        side = float(np.exp(size[y, x])) * M.SIZE_UNIT * stride / M.FINDER_STRIDE
        if cx < w + stride and cy < h + stride:
            cands.append((cx, cy, side, float(heat[y, x])))
    # two peaks on one piece: keep the stronger
    cands.sort(key=lambda c: -c[3])
    kept: list[tuple[float, float, float, float]] = []
    for c in cands:
        if all(math.hypot(c[0] - k[0], c[1] - k[1]) > 0.5 * max(c[2], k[2]) for k in kept):
            kept.append(c)
    return kept


def classify(frame: np.ndarray, cands: Sequence[tuple[float, float, float, float]],
             turns: int = 4) -> np.ndarray:
    """(N, PIECE_CLASSES) probabilities for the candidates' crops, averaged over the crop read
    at ``turns`` quarter turns (a piece's marks read at four turns agree more often than at
    one: 95% -> 98% of rendered pieces' classes right)."""
    if not cands:
        return np.zeros((0, M.PIECE_CLASSES), np.float32)
    crops = np.stack([M.to_input(M.upright(M.crop_piece(frame, (c[0], c[1]), c[2])))
                      for c in cands])
    batch = np.concatenate([np.rot90(crops, k, (2, 3)) for k in range(max(1, turns))])
    probs = M.softmax(M.load_net(M.READER_PATH).run(batch))
    return np.asarray(probs.reshape(max(1, turns), len(cands), -1).mean(axis=0))


def interpret(p: np.ndarray, box: tuple[int, int, int, int], threshold: float
              ) -> PieceReading | None:
    """A reading from one crop's class probabilities (None: not a piece)."""
    die = p[:24].reshape(4, 6)
    masses = {"die": float(die.sum()),
              "value": float(p[M.COIN_VALUE0:M.COIN_VALUE0 + 6].sum()),
              "suit": float(p[M.COIN_SUIT0:M.COIN_SUIT0 + 4].sum()),
              "none": float(p[M.NOT_A_PIECE])}
    what = max(masses, key=lambda k: masses[k])
    if what == "none":
        return None
    if what == "die":
        values, suits = die.sum(axis=0), die.sum(axis=1)
        v, s = int(values.argmax()), int(suits.argmax())
        sure_v, sure_s = float(values[v]) >= threshold, float(suits[s]) >= threshold
        conf = min(float(values[v]), float(suits[s]))
        return PieceReading("die", "", box, v if sure_v else None,
                            M.SUITS[s] if sure_s else None,
                            STATUS_READ if sure_v and sure_s else STATUS_UNSURE, conf, v,
                            M.SUITS[s])
    if what == "value":
        probs = p[M.COIN_VALUE0:M.COIN_VALUE0 + 6]
        v = int(probs.argmax())
        sure = float(probs[v]) >= threshold
        return PieceReading("coin", "value", box, v if sure else None, None,
                            STATUS_READ if sure else STATUS_UNSURE, float(probs[v]), v, None)
    probs = p[M.COIN_SUIT0:M.COIN_SUIT0 + 4]
    s = int(probs.argmax())
    sure = float(probs[s]) >= threshold
    return PieceReading("coin", "suit", box, None, M.SUITS[s] if sure else None,
                        STATUS_READ if sure else STATUS_UNSURE, float(probs[s]), None,
                        M.SUITS[s])


def read_pieces(frame: object, config: PiecepackConfig = DEFAULT_CONFIG) -> PieceObservation:
    """Every die and coin in ``frame`` (BGR uint8), read or honestly unsure."""
    img = check_frame(frame)
    ox = oy = 0
    if config.region is not None:
        x, y, w, h = config.region
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(img.shape[1], int(x + w)), min(img.shape[0], int(y + h))
        if x1 - x0 < 48 or y1 - y0 < 48:
            return PieceObservation((), "error", f"the dice area {config.region} is not inside "
                                    f"the {img.shape[1]}x{img.shape[0]} frame")
        img, ox, oy = img[y0:y1, x0:x1], x0, y0
    cands = find(img, config)
    probs = classify(img, cands, config.turns)
    pieces = []
    for (cx, cy, side, _heat), p in zip(cands, probs, strict=True):
        half = side / 2
        box = (int(round(cx - half)) + ox, int(round(cy - half)) + oy, int(round(side)),
               int(round(side)))
        r = interpret(p, box, config.read_threshold)
        if r is not None and r.kind in config.kinds:
            pieces.append(r)
    pieces.sort(key=lambda r: (r.box[0], r.box[1]))
    if not pieces:
        return PieceObservation((), "empty", "no piecepack die or coin in view")
    unsure = [r for r in pieces if r.status != STATUS_READ]
    if unsure:
        return PieceObservation(tuple(pieces), "unsure",
                                f"{len(unsure)} of {len(pieces)} pieces unsure: check "
                                + ", ".join(r.label for r in unsure))
    return PieceObservation(tuple(pieces), "ok")
