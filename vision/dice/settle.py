"""Settle detection: a roll counts once the dice have stopped and read the same for a while.

Motion is measured cheaply on a tiny downscaled grey copy of the dice area (the share of its
pixels that changed between consecutive frames), so the full reader runs only on still frames.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .closer import CHECK_BELOW_PX, StillLike, look_closer, wants_closer_look
from .finder import as_bgr
from .reader import Region, read_dice
from .types import STATUS_UNSURE, DiceConfig, DiceError, DiceObservation, DieReading

MOTION_SIZE = (160, 90)
"""(width, height) of the copy motion is measured on."""
MOTION_LEVEL = 14
"""A pixel of that copy has changed when its grey level moved by more than this."""


def motion_copy(bgr: np.ndarray) -> np.ndarray:
    """The ``MOTION_SIZE`` grey copy of ``bgr`` that motion is measured on (int16).

    When the frame is not a whole multiple of that size, pixel areas are averaged in two steps:
    first by the largest whole factor that leaves the copy at least ``MOTION_SIZE`` (OpenCV's
    fast path; the last rows and columns that do not fill a block are left out), then the small
    rest. One area step by a fractional factor from a 2304x1296 frame costs two to three times
    as much (``benchmarks/settle_motion.py``)."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    tw, th = MOTION_SIZE
    h, w = grey.shape
    step = min(w // tw, h // th)
    if (w % tw or h % th) and step >= 2:
        grey = grey[: h - h % step, : w - w % step]
        grey = cv2.resize(grey, (grey.shape[1] // step, grey.shape[0] // step), interpolation=cv2.INTER_AREA)
    return cv2.resize(grey, MOTION_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)


class MotionMeter:
    """The share of the dice area's pixels that changed since the previous frame, measured on
    its ``motion_copy``: the one motion measure of every dice settler.

    :meth:`measure` gives None for the first frame (nothing to compare with) and 0.0 when the
    area's size changed. One meter may serve two settlers fed the same frames (a roll mixing
    numbered and special dice, read on two threads): a settler asking about the frame and
    region another one just had measured gets that answer, so each frame is copied and
    compared once. A settler asking twice is measured twice (a still camera may hand over the
    same array again: it is then compared with itself)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._prev: np.ndarray | None = None
        self._seen: tuple[object, object] | None = None  # (frame, region) of the last answer
        self._answer: float | None = None
        self._told: set[int] = set()  # the askers (ids) given the last answer

    def reset(self) -> None:
        with self._lock:
            self._prev, self._seen, self._answer = None, None, None
            self._told = set()

    def measure(self, frame: np.ndarray, region: Region | None = None, asker: object = None,
                key: object = None) -> float | None:
        """The share of ``frame``'s ``region`` that changed; ``asker``: who asks (a settler);
        ``key``: the frame as the camera gave it, when ``frame`` is a converted copy of it."""
        key = frame if key is None else key
        with self._lock:
            me = id(asker)
            if (self._seen is not None and self._seen[0] is key and self._seen[1] == region
                    and me not in self._told):
                self._told.add(me)
                return self._answer
            part = frame
            if region is not None:
                x, y, w, h = (int(v) for v in region)
                crop = frame[max(0, y):y + h, max(0, x):x + w]
                part = crop if crop.size else frame
            small = motion_copy(part if part.ndim == 3 else np.dstack([part] * 3))
            prev, self._prev = self._prev, small
            if prev is None:
                answer: float | None = None
            elif prev.shape != small.shape:
                answer = 0.0
            else:
                answer = float(np.mean(np.abs(small - prev) > MOTION_LEVEL))
            self._seen, self._answer, self._told = (key, region), answer, {me}
            return answer


@dataclass(frozen=True)
class SettleConfig:
    motion_threshold: float = 0.0015
    """Fraction of (downscaled) pixels that changed, above which the scene is moving.

    0.0015 is about 22 pixels of the 160x90 copy: one die of 1/40 of the frame width moving."""
    still_frames: int = 4
    """Consecutive still frames before the first reading."""
    confirm_reads: int = 2
    """Consecutive still readings that must agree before the roll is reported."""
    read_every: int = 2
    """Read every n-th still frame while confirming."""
    max_reads: int = 5
    """After this many still readings without agreement, report the roll anyway with every die
    whose reading changed marked unsure (the player confirms with the buttons)."""
    closer_below_px: float = CHECK_BELOW_PX
    """With a way to take stills (``DiceSettler.closer``), a roll is looked at closer when a die
    is unsure or its box is under this many pixels (tiny dice are where confident readings go
    wrong); 0: only for unsure dice."""


def _signature(obs: DiceObservation) -> tuple[tuple[str, int, str], ...]:
    return tuple(sorted((d.kind, -1 if d.value is None else d.value, d.status) for d in obs.dice))


def _same_die(d: DieReading, e: DieReading, min_iou: float) -> bool:
    """``d`` and ``e`` are one die, read the same (boxes overlapping by more than ``min_iou``)."""
    from .finder import iou

    return (iou(tuple(map(float, d.box)), tuple(map(float, e.box))) > min_iou  # type: ignore[arg-type]
            and d.value == e.value and d.status == e.status)


def same_dice(a: DiceObservation, b: DiceObservation) -> bool:
    """The same dice lying in the same places, read the same: a hand passed over the dice
    area (moving a piece, taking a card) but nobody threw them."""
    if not a.dice or len(a.dice) != len(b.dice):
        return False
    return all(any(_same_die(d, e, 0.6) for e in b.dice) for d in a.dice)


def _mark_changed(before: DiceObservation, now: DiceObservation) -> DiceObservation:
    """``now`` with every die not read the same in ``before`` turned unsure."""
    from dataclasses import replace

    from .types import STATUS_READ

    dice = []
    for d in now.dice:
        if not any(_same_die(d, b, 0.5) for b in before.dice) and d.status == STATUS_READ:
            d = replace(d, value=None, status=STATUS_UNSURE)
        dice.append(d)
    ok = all(d.status == STATUS_READ for d in dice)
    message = "" if ok else "dice readings changed while still: please confirm"
    return DiceObservation(tuple(dice), "ok" if ok else "unsure", message)


class DiceSettler:
    """Feed frames with :meth:`update`; it returns a :class:`DiceObservation` once per roll.

    Nothing is returned while the dice move, nor for an empty tray, nor twice for the same
    still scene: the next roll is reported only after the scene has moved again. Cocked dice
    are reported with status 'cocked' (and the roll's status is 'unsure').
    """

    def __init__(
        self,
        config: DiceConfig | None = None,
        region: Region | None = None,
        settle: SettleConfig | None = None,
        reader: Callable[[np.ndarray, Region | None, DiceConfig | None], DiceObservation] = read_dice,
        closer: Callable[[], StillLike | None] | None = None,
    ) -> None:
        self.config = config or DiceConfig()
        self.region = region
        self.settle = settle or SettleConfig()
        self.reader = reader
        self.closer = closer
        """Takes a still of the same view at a higher resolution (``hardware.camera.Still``), or
        None when there is none: a roll with an unsure die, or one under
        ``settle.closer_below_px``, is then read again in it
        (:func:`vision.dice.closer.look_closer`) before it is reported."""
        self.meter = MotionMeter()  # shared with a special dice settler in a mixed roll
        self._still = 0
        self._reads: list[DiceObservation] = []
        self._tries = 0
        self._reported = False
        self.state = "waiting"
        self.last: DiceObservation | None = None
        self._last_roll: DiceObservation | None = None
        self.message = ""

    def reset(self) -> None:
        """Forget the scene (e.g. after the kiosk took a roll from the buttons). The last roll
        reported is kept: dice still lying where it left them are not a new roll."""
        self.meter.reset()
        self._still = 0
        self._reads = []
        self._tries = 0
        self._reported = False
        self.state = "waiting"

    def update(self, frame: object) -> DiceObservation | None:
        """One camera frame in; a settled roll out (at most once per roll), else None."""
        try:
            bgr = as_bgr(frame, self.config.channel_order)
        except DiceError as exc:
            self.message = str(exc)
            return None
        changed = self.meter.measure(bgr, self.region, self, key=frame)
        first = changed is None
        moving = (changed or 0.0) > self.settle.motion_threshold
        if moving:
            self._still = 0
            self._reads = []
            self._tries = 0
            self._reported = False
            self.state = "moving"
            return None
        if first:
            # a scene already still when we start counts as a roll not yet reported
            self._still = 0
        self._still += 1
        if self._reported:
            self.state = "settled"
            return None
        if self._still < self.settle.still_frames:
            self.state = "settling"
            return None
        if (self._still - self.settle.still_frames) % self.settle.read_every:
            return None
        obs = self.reader(bgr, self.region, self.config)
        self.last = obs
        if obs.status == "error":
            self.message = obs.message
            return None
        self._tries += 1
        if self._reads and _signature(self._reads[-1]) != _signature(obs):
            if self._tries >= self.settle.max_reads:
                obs = _mark_changed(self._reads[-1], obs)
                self._reads = [obs] * self.settle.confirm_reads
            else:
                self._reads = []
        self._reads.append(obs)
        if len(self._reads) < self.settle.confirm_reads:
            return None
        self._reported = True
        self.state = "settled"
        if obs.status == "empty":
            return None
        if self._last_roll is not None and same_dice(obs, self._last_roll):
            # the scene moved and came back to the dice already reported: not a new roll
            self.message = "the dice have not been thrown since the last roll"
            return None
        self._last_roll = obs  # the frame's own reading: what a disturbed scene is compared with
        self.message = ""
        if self.closer is not None and wants_closer_look(obs, self.settle.closer_below_px):
            obs = self._look_closer(self.closer, obs)
            self.last = obs
        return obs

    def _look_closer(self, take: Callable[[], StillLike | None], obs: DiceObservation) -> DiceObservation:
        """``obs`` read again in a still from ``take``; ``obs`` itself when the camera has no
        still to give or fails to take one (the roll is never lost for it)."""
        try:
            still = take()
        except Exception as exc:  # a camera failing a still must not lose the roll
            self.message = f"no closer look ({type(exc).__name__}: {exc})"
            return obs
        if still is None:
            return obs
        return look_closer(obs, still, self.region, self.config)
