"""Wait for block and scatter dice to lie still, then report the roll once (for the kiosk).

:class:`SpecialDiceSettler` has the shape the kiosk's table feed expects of a dice reader
(``update(frame) -> settled roll or None``, ``reset()``, ``state``, ``last``, ``region``): it
reads every frame and reports a roll when ``settle_frames`` frames in a row saw the same dice
(same kinds and answers, each within a quarter of its size of where it was). The board's
registration, when the feed has one, sets ``board_to_frame`` so scatter arrows are read
relative to the board. ``count``, when the table feed knows how many dice the roll holds, lets
a settled roll with fewer dice found be searched for the others once (``reader.find_missing``):
they come back unsure, with their guesses. A roll with none found is searched too, but only
once the dice area has moved (a throw) and then lain still for ``settle_frames`` frames, once
per such stillness, and not when dice were found lying there before it moved (they were picked
up): an untouched tray is never searched. ``lying`` names other kinds whose dice of an earlier
roll may still lie there (the table feed sets it once the table has rolled them): every frame
is then read with those kinds too, and their dice are left out of the roll (``lying_seen``
keeps the last frame's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.dice.settle import MotionMeter, SettleConfig

from .reader import Orientation, Region, find_missing, read_special_dice
from .types import KINDS, STATUS_READ, SpecialDiceConfig, SpecialDiceObservation, SpecialDieReading


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
        self.lying: tuple[str, ...] = ()  # other kinds of earlier rolls that may still lie there
        self.lying_seen: tuple[SpecialDieReading, ...] = ()  # those found in the last frame read
        self.state = "waiting"
        self.last: SpecialDiceObservation | None = None
        self._previous: SpecialDiceObservation | None = None
        self._count = 0
        self._reported = False
        self._searched: SpecialDiceObservation | None = None  # the settled roll with the dice searched for
        self.meter = MotionMeter()  # a mixed roll's reader shares the numbered settler's
        self._moved = False  # the dice area moved since it was last searched with no die found
        self._still = 0  # frames the dice area has lain still
        self._hold = False  # a roll found with none found by the reader was reported: wait for motion
        self._dice_seen = False  # the reader found dice while the dice area lay still
        self._picked_up = False  # dice lay still there before it last moved: the motion took them away

    def reset(self) -> None:
        self.state = "waiting"
        self.last = None
        self._previous = None
        self._count = 0
        self._reported = False
        self._searched = None
        self.meter.reset()
        self._moved, self._still, self._hold = False, 0, False
        self._dice_seen = self._picked_up = False

    def read_once(self, frame: np.ndarray) -> SpecialDiceObservation:
        """The dice of these kinds lying in the dice area in ``frame`` now (one reading with the
        settler's region and board registration, outside the settling: what the table feed
        uses to tell old block or scatter dice from a numbered roll thrown beside them)."""
        orientation = Orientation(self.board_to_frame, self.up_deg)
        return read_special_dice(frame, self.kinds, orientation, self.region, self.config)

    def _read(self, frame: np.ndarray, orientation: Orientation) -> tuple[SpecialDiceObservation,
                                                                          SpecialDiceObservation]:
        """This frame's reading of the roll's dice, and the reading with the old dice of the
        ``lying`` kinds as well: they are read with the roll's kinds, so that an old scatter
        die is not taken for an unsure block die, and then left out of the roll."""
        extra = tuple(k for k in self.lying if k not in self.kinds)
        raw = read_special_dice(frame, self.kinds + extra, orientation, self.region, self.config)
        if not extra:
            self.lying_seen = ()
            return raw, raw
        self.lying_seen = tuple(d for d in raw.dice if d.kind not in self.kinds)
        return only_kinds(raw, self.kinds), raw

    def update(self, frame: np.ndarray) -> SpecialDiceObservation | None:
        orientation = Orientation(self.board_to_frame, self.up_deg)
        obs, raw = self._read(frame, orientation)
        self.last = obs
        if self.count is not None:
            self._watch(frame)
        if self._hold:  # a roll the search found, reported: nothing more until the dice move
            self.last = self._searched
            return None
        if self._still and obs.dice:
            self._dice_seen = True  # a still scene with dice: moving them next is a pick-up
        if (obs.status == "empty" and self.count and self._moved and not self._picked_up
                and self._still >= self.settle_frames):
            self._moved = False  # one search a stillness
            found = find_missing(frame, obs, self.count, self.kinds, orientation, self.region,
                                 self.config, thrown=True)
            if found.dice:
                self._previous, self._count, self._reported, self._searched = None, 0, True, found
                self._hold, self.state, self.last = True, "settled", found
                self._dice_seen = True  # moving them next is a pick-up
                return found
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
                    # searched around the old dice as well (``raw``), only for the roll's kinds
                    searched = find_missing(frame, raw, self.count - len(obs.dice), self.kinds,
                                            orientation, self.region, self.config)
                    self._searched = only_kinds(searched, self.kinds)
                    self.last = self._searched
                return self.last
            if self._searched is not None:
                self.last = self._searched  # the dice searched for stay on screen while all lies still
            return None
        self.state = "settling" if self._count > 1 else "moving"
        return None


    def _watch(self, frame: np.ndarray) -> None:
        """Whether the dice area moves (as ``vision.dice.DiceSettler`` measures it): a frame with
        motion sets ``_moved`` and starts the count of still frames again."""
        changed = self.meter.measure(frame, self.region, self)
        if changed is None:
            return
        if changed > SettleConfig().motion_threshold:
            if self._still:  # the first moving frame: was anything lying there?
                self._picked_up, self._dice_seen = self._dice_seen, False
            self._moved, self._still, self._hold = True, 0, False
        else:
            self._still += 1


def only_kinds(obs: SpecialDiceObservation, kinds: Sequence[str]) -> SpecialDiceObservation:
    """``obs`` with only its dice of ``kinds`` (an error stays as it is)."""
    if obs.status == "error":
        return obs
    dice = tuple(d for d in obs.dice if d.kind in kinds)
    if len(dice) == len(obs.dice):
        return obs
    if not dice:
        return SpecialDiceObservation((), "empty")
    return SpecialDiceObservation(dice, "ok" if all(d.status == STATUS_READ for d in dice) else "unsure",
                                  obs.message)


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
