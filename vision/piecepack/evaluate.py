"""Measuring the piecepack readers on rendered frames no network was trained on."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from vision.piecepack import models as M
from vision.piecepack.reader import STATUS_READ, PieceReading
from vision.synthetic.piecepack import Piece

HELD_OUT_SEED = 1_000_000
"""Training renders use seeds below this; the benchmark renders from it on."""


def piece_class(p: Piece) -> int:
    """The piece reader's class for a rendered piece."""
    if p.kind == "die":
        assert p.suit is not None and p.value is not None
        return 6 * M.SUITS.index(p.suit) + p.value
    if p.kind == "coin" and p.side == "value":
        assert p.value is not None
        return M.COIN_VALUE0 + p.value
    if p.kind == "coin" and p.side == "suit":
        assert p.suit is not None
        return M.COIN_SUIT0 + M.SUITS.index(p.suit)
    raise ValueError(f"no reader class for a {p.kind} ({p.side or 'no side'})")


CALIBRATION_SEED = 2_000_000
"""Frames for choosing the read threshold: held out from training, apart from the benchmark's."""

FIELDS = ("die value", "die suit", "coin value side", "coin suit side")


@dataclass
class Tally:
    right: int = 0
    unsure: int = 0
    wrong: int = 0
    missed: int = 0  # not found at all (counted apart; neither right nor wrong)

    @property
    def total(self) -> int:
        return self.right + self.unsure + self.wrong + self.missed

    def add(self, truth: object, read: object, found: bool = True) -> None:
        if not found:
            self.missed += 1
        elif read is None:
            self.unsure += 1
        elif read == truth:
            self.right += 1
        else:
            self.wrong += 1

    def to_dict(self) -> dict[str, float | int]:
        n = max(1, self.total)
        return {"n": self.total, "right": round(100 * self.right / n, 2),
                "unsure": round(100 * self.unsure / n, 2),
                "missed": round(100 * self.missed / n, 2),
                "wrong": round(100 * self.wrong / n, 3)}


def match(truth: Sequence[Piece], readings: Sequence[PieceReading]
          ) -> list[PieceReading | None]:
    """For each true piece, the reading whose box centre lies nearest its centre, within half
    the piece's side (each reading used once)."""
    used: set[int] = set()
    out: list[PieceReading | None] = []
    for p in truth:
        bx, by, bw, bh = p.box
        cx, cy, side = bx + bw / 2, by + bh / 2, max(bw, bh)
        best, best_d = None, 0.5 * side
        for i, r in enumerate(readings):
            if i in used:
                continue
            rx, ry, rw, rh = r.box
            d = math.hypot(rx + rw / 2 - cx, ry + rh / 2 - cy)
            if d < best_d:
                best, best_d = i, d
        if best is not None:
            used.add(best)
        out.append(None if best is None else readings[best])
    return out


def score_area(truth: Sequence[Piece], readings: Sequence[PieceReading],
               tallies: dict[str, Tally]) -> int:
    """Add one frame to the per-field tallies; returns the phantoms (confident readings of a
    piece that is not there)."""
    matched = match(truth, readings)
    for p, r in zip(truth, matched, strict=True):
        if r is None:
            for name in _fields_of(p):
                tallies[name].add(None, None, found=False)
            continue
        same = (r.kind, r.side) == (p.kind, p.side)
        if p.kind == "die":
            tallies["die value"].add(p.value, r.value if same else _wrong_kind(r))
            tallies["die suit"].add(p.suit, r.suit if same else _wrong_kind(r))
        elif p.side == "value":
            tallies["coin value side"].add(p.value, r.value if same else _wrong_kind(r))
        else:
            tallies["coin suit side"].add(p.suit, r.suit if same else _wrong_kind(r))
    hit = {id(r) for r in matched if r is not None}
    return sum(1 for r in readings if id(r) not in hit and r.status == STATUS_READ)


def _fields_of(p: Piece) -> tuple[str, ...]:
    if p.kind == "die":
        return ("die value", "die suit")
    return ("coin value side",) if p.side == "value" else ("coin suit side",)


def _wrong_kind(r: PieceReading | None) -> object:
    """A piece read as another kind: wrong if the reading was confident, else unsure."""
    if r is None or r.status != STATUS_READ:
        return None
    return ("another kind", r.kind, r.side)


def new_tallies() -> dict[str, Tally]:
    return {f: Tally() for f in FIELDS}
