"""Still-scene gate: nothing is read while hands or pieces move.

Cheap downscaled frame differences: each frame is shrunk to about 160 pixels across (area
averaging also removes most sensor noise), compared with the previous one, and the scene counts
as still after `still_frames` consecutive quiet frames. A frame of another size resets the gate.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class GateConfig:
    width: int = 160
    pixel_threshold: int = 14  # grey levels (0..255) a small pixel must change to count
    moving_fraction: float = 0.004  # fraction of small pixels changed that means motion
    still_frames: int = 3


@dataclass(frozen=True)
class GateState:
    still: bool
    changed_fraction: float
    quiet_frames: int


class StillGate:
    def __init__(self, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self._prev: np.ndarray | None = None
        self._quiet = 0

    def reset(self) -> None:
        self._prev = None
        self._quiet = 0

    def update(self, gray: np.ndarray) -> GateState:
        cfg = self.config
        h, w = gray.shape[:2]
        small_h = max(1, int(round(h * cfg.width / w)))
        small = cv2.resize(gray, (cfg.width, small_h), interpolation=cv2.INTER_AREA)
        if self._prev is None or self._prev.shape != small.shape:
            self._prev = small
            self._quiet = 0
            return GateState(False, 1.0, 0)
        diff = cv2.absdiff(small, self._prev)
        self._prev = small
        frac = float(np.count_nonzero(diff > cfg.pixel_threshold)) / diff.size
        if frac > cfg.moving_fraction:
            self._quiet = 0
        else:
            self._quiet += 1
        return GateState(self._quiet >= cfg.still_frames, frac, self._quiet)
