"""The piecepack dice as the kiosk's dice prompt reads them: a roll counts once the dice have
stopped and two readings agree.

:class:`PiecepackDiceSettler` has the kiosk's dice-reader shape (``update(frame)`` -> a settled
roll once per roll, else None; ``reset()``; ``state``; ``last``; ``region``): each roll's
``dice`` carry ``value`` (0-5, None when unsure), ``suit`` (from the die's colour: whose die it
is; also as ``tag``, the name a game-blind caller reads it by), ``box``, ``status`` and
``guess``. :class:`PiecepackCoinSettler` reads coins shown in the dice area the same way (a
revealed coin: its suit side).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.dice.settle import MotionMeter
from vision.piecepack.reader import (
    DEFAULT_CONFIG,
    STATUS_UNSURE,
    PieceObservation,
    PiecepackConfig,
    PieceReading,
    read_pieces,
)


@dataclass(frozen=True)
class SettleConfig:
    motion_threshold: float = 0.0015
    """Fraction of the 160x90 grey copy's pixels that changed, above which the dice move."""
    still_frames: int = 3
    """Still frames before the first reading."""
    confirm_reads: int = 2
    """Agreeing readings before the roll is reported."""
    max_reads: int = 5
    """After this many readings without agreement, the last is reported with status unsure."""


def _signature(obs: PieceObservation) -> tuple[tuple[str, int, str, str], ...]:
    return tuple(sorted((d.suit or "?", -1 if d.value is None else d.value, d.status, d.kind)
                        for d in obs.pieces))


@dataclass(frozen=True)
class SettledPieces:
    """A settled reading in the kiosk's roll shape: ``dice`` are the pieces read (coins, for
    :class:`PiecepackCoinSettler`), each with ``value``, ``tag`` (suit), ``box``, ``status``,
    ``guess``."""

    dice: tuple[PieceReading, ...]
    status: str
    message: str = ""


class PiecepackDiceSettler:
    """Piecepack dice only (coins in the dice area are left out of the roll)."""

    piece_kind = "die"

    def __init__(self, config: PiecepackConfig = DEFAULT_CONFIG,
                 settle: SettleConfig = SettleConfig()) -> None:
        self.config = replace(config, kinds=(self.piece_kind,))
        self.settle = settle
        self.region: tuple[int, int, int, int] | None = None
        self.state = "waiting"
        self.last: PieceObservation | None = None
        self.meter = MotionMeter()
        self._still = 0
        self._reads: list[PieceObservation] = []
        self._reported = False

    def reset(self) -> None:
        self.state = "waiting"
        self.last = None
        self.meter.reset()
        self._still = 0
        self._reads = []
        self._reported = False

    def _moving(self, frame: np.ndarray) -> bool:
        changed = self.meter.measure(frame, self.region, self)
        return changed is not None and changed > self.settle.motion_threshold

    def update(self, frame: np.ndarray) -> PieceObservation | None:
        """A settled roll (once per roll) or None."""
        if self._moving(frame):
            self.state, self._still, self._reads, self._reported = "moving", 0, [], False
            return None
        self._still += 1
        if self._reported or self._still < self.settle.still_frames:
            self.state = "settled" if self._reported else "settling"
            return None
        obs = read_pieces(frame, replace(self.config, region=self.region))
        self.last = obs
        if obs.status == "error":
            return None
        self._reads.append(obs)
        agree = self._reads[-self.settle.confirm_reads:]
        if len(agree) == self.settle.confirm_reads and \
                len({_signature(o) for o in agree}) == 1:
            if obs.status == "empty":
                self._reads = []
                return None
            self._reported, self.state = True, "settled"
            return obs
        if len(self._reads) >= self.settle.max_reads:
            self._reported, self.state = True, "settled"
            dice = tuple(replace(d, value=None, suit=None, status=STATUS_UNSURE)
                         for d in obs.pieces)
            return PieceObservation(dice, "unsure", "the dice read differently while still: "
                                    "please confirm")
        return None


class PiecepackCoinSettler(PiecepackDiceSettler):
    """Coins only, shown to the camera in the dice area (a coin just revealed, suit side up):
    the same settling as the dice; each settled reading's ``dice`` are the coins read
    (``value`` on the value side, ``suit`` and ``tag`` on the suit side)."""

    piece_kind = "coin"

    def update(self, frame: np.ndarray) -> SettledPieces | None:  # type: ignore[override]
        obs = super().update(frame)
        return None if obs is None else SettledPieces(obs.coins, obs.status, obs.message)
