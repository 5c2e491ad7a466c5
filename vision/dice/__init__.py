"""Dice reader: pipped d6 and numbered d4/d8/d10/d12/d20 from an overhead camera.

Arrays in, plain observations out (see ``docs/vision-dice.md``)::

    from vision.dice import read_dice, DiceSettler
    obs = read_dice(frame_bgr)                 # one frame -> DiceObservation
    settler = DiceSettler()
    for frame in frames:
        roll = settler.update(frame)           # a DiceObservation once per settled roll
"""

from .reader import read_dice
from .settle import DiceSettler
from .types import (
    DIE_KINDS,
    STATUS_COCKED,
    STATUS_READ,
    STATUS_UNSURE,
    DiceConfig,
    DiceError,
    DiceObservation,
    DieReading,
)

__all__ = [
    "DIE_KINDS",
    "STATUS_COCKED",
    "STATUS_READ",
    "STATUS_UNSURE",
    "DiceConfig",
    "DiceError",
    "DiceObservation",
    "DiceSettler",
    "DieReading",
    "read_dice",
]
