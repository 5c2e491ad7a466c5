"""Wait for block and scatter dice to lie still, then report the roll once (for the kiosk).

:class:`SpecialDiceSettler` has the shape the kiosk's table feed expects of a dice reader
(``update(frame) -> settled roll or None``, ``reset()``, ``state``, ``last``, ``region``): it
reads every frame and reports a roll when ``settle_frames`` frames in a row saw the same dice
(same kinds and answers, each within a quarter of its size of where it was). The board's
registration, when the feed has one, sets ``board_to_frame`` so scatter arrows are read
relative to the board. ``count``, when the table feed knows how many dice the roll holds, lets
a settled roll with fewer dice found (but at least one) be searched for the others once
(``reader.find_missing``): they come back unsure, with their guesses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .reader import Orientation, Region, find_missing, read_special_dice
from .types import KINDS, SpecialDiceConfig, SpecialDiceObservation


class SpecialDiceSettler:
    def __init__(self, kinds: Sequence[str] = KINDS, config: SpecialDiceConfig | None = None,
                 settle_frames: int = 3, up_deg: float = 0.0) -> None:
        if settle_frames < 1:
            raise ValueError(f"settle_frames must be 1 or more, not {settle_frames}")
        self.kinds = tuple(kinds)
        self.config = config or SpecialDiceConfig()
        self.settle_frames = settle_frames
        self.up_deg = up_deg
        self.region: Region | None = None
        self.board_to_frame: np.ndarray | None = None
        self.count: int | None = None  # the dice of these kinds the roll holds, when known
        self.state = "waiting"
        self.last: SpecialDiceObservation | None = None
        self._previous: SpecialDiceObservation | None = None
        self._count = 0
        self._reported = False
        self._searched: SpecialDiceObservation | None = None  # the settled roll with the dice searched for

    def reset(self) -> None:
        self.state = "waiting"
        self.last = None
        self._previous = None
        self._count = 0
        self._reported = False
        self._searched = None

    def update(self, frame: np.ndarray) -> SpecialDiceObservation | None:
        orientation = Orientation(self.board_to_frame, self.up_deg)
        obs = read_special_dice(frame, self.kinds, orientation, self.region, self.config)
        self.last = obs
        if obs.status in ("empty", "error"):
            self._previous, self._count, self._reported, self._searched = None, 0, False, None
            self.state = "waiting"
            return None
        if self._previous is not None and _same(self._previous, obs):
            self._count += 1
        else:
            self._count, self._reported, self._searched = 1, False, None
        self._previous = obs
        if self._count >= self.settle_frames:
            self.state = "settled"
            if not self._reported:
                self._reported = True
                if self.count is not None and 0 < len(obs.dice) < self.count:
                    self._searched = find_missing(frame, obs, self.count - len(obs.dice), self.kinds,
                                                  orientation, self.region, self.config)
                    self.last = self._searched
                return self.last
            if self._searched is not None:
                self.last = self._searched  # the dice searched for stay on screen while all lies still
            return None
        self.state = "settling" if self._count > 1 else "moving"
        return None


def _same(a: SpecialDiceObservation, b: SpecialDiceObservation) -> bool:
    if len(a.dice) != len(b.dice):
        return False
    for p, q in zip(a.dice, b.dice, strict=True):
        if (p.kind, p.guess, p.status) != (q.kind, q.guess, q.status):
            return False
        (px, py, pw, ph), (qx, qy, qw, qh) = p.box, q.box
        if math.hypot(px + pw / 2 - qx - qw / 2, py + ph / 2 - qy - qh / 2) > max(4.0, 0.25 * max(pw, qw)):
            return False
    return True
