"""A closer look: dice a video frame leaves unsure, read again in a still of the same view.

A referee who cannot make out a die leans in. The camera's video frames are a compromise (the
Camera Module 3 gives 2304x1296 at video rate, its sensor 4608x2592), so a die the frame left
unsure can be read again in a full-resolution still of the same view, where it covers twice
the pixels each way. The still comes from the camera adapter
(``hardware.camera.Still``: an image and how frame pixels map into it); this module only reads
it, with the same settings, and merges the two readings die by die. A roll is worth a still
when a die is unsure or tiny (:func:`wants_closer_look`):

- an unsure die the still reads is read (the still's type, value and confidence; the frame's
  box, so the kiosk's boxes do not jump);
- an unsure die the still is unsure of too keeps its status, with the still's guess;
- a die the frame read that the still reads differently, or doubts with another guess, becomes
  unsure (two looks that disagree are not a reading);
- a cocked die stays cocked, and a die only the still finds is ignored (the frame decides
  which dice there are).

Measured on the real Rune55 eval photos read at half size with the full photo as the still,
and on rendered numbered dice the same way (``benchmarks/vision_dice.py``, "closer look").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

import numpy as np

from .finder import iou
from .reader import Region, observation_of, read_dice
from .types import (
    STATUS_COCKED,
    STATUS_READ,
    STATUS_UNSURE,
    DiceConfig,
    DiceObservation,
    DieReading,
)

MATCH_IOU = 0.3
"""A frame die and a still die are one die when their boxes (in frame pixels) overlap this much."""


class StillLike(Protocol):
    """What a closer look needs from a still (``hardware.camera.Still`` is one)."""

    @property
    def image(self) -> np.ndarray: ...

    @property
    def scale(self) -> tuple[float, float]:
        """Still pixels per frame pixel, (x, y)."""

    @property
    def offset(self) -> tuple[float, float]:
        """Still = frame * scale + offset."""


def region_in_still(region: Region | None, still: StillLike) -> Region | None:
    """The dice area in still pixels (None, the whole view, stays None)."""
    if region is None:
        return None
    (sx, sy), (ox, oy) = still.scale, still.offset
    x, y, w, h = region
    return (int(round(x * sx + ox)), int(round(y * sy + oy)),
            max(1, int(round(w * sx))), max(1, int(round(h * sy))))


def _to_frame(box: tuple[int, int, int, int], still: StillLike) -> tuple[float, float, float, float]:
    (sx, sy), (ox, oy) = still.scale, still.offset
    x, y, w, h = box
    return ((x - ox) / sx, (y - oy) / sy, w / sx, h / sy)


CHECK_BELOW_PX = 32.0
"""A roll holding a die whose box is under this many pixels is looked at closer even when every
die was read: tiny dice are where confident readings go wrong (rendered numbered dice of 14-19
px read at 0.98 as another number)."""


def wants_closer_look(obs: DiceObservation, check_below_px: float = CHECK_BELOW_PX) -> bool:
    """A roll worth a still: it has an unsure die, or a die smaller than ``check_below_px``."""
    return any(d.status == STATUS_UNSURE or (d.status == STATUS_READ and max(d.box[2:]) < check_below_px)
               for d in obs.dice)


def look_closer(frame_obs: DiceObservation, still: StillLike, region: Region | None = None,
                config: DiceConfig | None = None) -> DiceObservation:
    """``frame_obs`` with its dice read again in ``still`` and merged (see the module's rules).

    Returns ``frame_obs`` itself when it has no die to read again, or when the still cannot be
    read (a wrong scale, an image the reader refuses)."""
    if not any(d.status in (STATUS_UNSURE, STATUS_READ) for d in frame_obs.dice):
        return frame_obs
    (sx, sy) = still.scale
    if not (np.isfinite(sx) and np.isfinite(sy) and sx > 0 and sy > 0):
        return frame_obs
    closer = read_dice(still.image, region_in_still(region, still), config)
    if closer.status == "error":
        return frame_obs
    seen = [(_to_frame(e.box, still), e) for e in closer.dice]
    merged: list[DieReading] = []
    for d in frame_obs.dice:
        box = tuple(float(v) for v in d.box)
        best, match = 0.0, None
        for b, e in seen:
            v = iou(box, b)  # type: ignore[arg-type]
            if v > best:
                best, match = v, e
        merged.append(_merge(d, match if best >= MATCH_IOU else None))
    return observation_of(merged)


def _merge(d: DieReading, e: DieReading | None) -> DieReading:
    if e is None or d.status == STATUS_COCKED:
        return d
    if d.status == STATUS_UNSURE:
        if e.status == STATUS_READ:
            return replace(d, kind=e.kind, value=e.value, confidence=e.confidence,
                           status=STATUS_READ, guess=e.value)
        if e.status == STATUS_UNSURE and e.guess is not None:
            return replace(d, kind=e.kind, guess=e.guess)
        return d
    # a die the frame read: the closer look can only take the reading away
    seen = e.value if e.status == STATUS_READ else e.guess if e.status == STATUS_UNSURE else None
    if seen is not None and (e.kind, seen) != (d.kind, d.value):
        return replace(d, value=None, status=STATUS_UNSURE,
                       confidence=min(d.confidence, e.confidence), guess=seen, kind=e.kind)
    return d
