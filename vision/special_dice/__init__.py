"""Block dice and scatter dice on camera: find them in a frame, read the face.

- the **block die** (kind ``block``): six faces, five symbols; reads 1 attacker down, 2 both
  down, 3 pushed (faces 3 and 4 both), 5 defender stumbles, 6 defender down;
- the **scatter die** (kind ``scatter``): a d8 with an arrow on each face; reads the compass
  direction the top face's arrow points in on the board: 1 north (up the board as it is
  registered), 2 north-east, ... clockwise to 8 north-west.

``read_special_dice(frame)`` reads one frame; :class:`SpecialDiceSettler` waits for a roll to
lie still (the kiosk's dice reader shape). Small networks trained on renders (a finder; the
upright reader for a registered board, whose crops are turned so the camera's "down" points
down, ``upright``; the plain readers otherwise; ``vision.synthetic.special_dice``,
``scripts/train_special_dice.py``) run with onnxruntime.
"""

from .reader import Orientation, read_special_dice
from .settle import SpecialDiceSettler
from .types import (
    BLOCK_LABELS,
    KINDS,
    SCATTER_LABELS,
    SpecialDiceConfig,
    SpecialDiceError,
    SpecialDiceObservation,
    SpecialDieReading,
)

__all__ = [
    "BLOCK_LABELS", "KINDS", "SCATTER_LABELS", "Orientation", "SpecialDiceConfig", "SpecialDiceError",
    "SpecialDiceObservation", "SpecialDiceSettler", "SpecialDieReading", "read_special_dice",
]
