"""Where the camera reads the dice: the table's dice area, mapped into the frame by the board.

A table throws its dice either on the board's middle (inside the ring of squares) or into a tray
beside the board. The setting (``[camera] dice_area`` in companion.toml) names the area in board
millimetres, measured from the board's Free Parking corner (the top-left corner of the board
geometry, ``vision.board.geometry``): x along the Free Parking - Go To Jail edge, y along the Free
Parking - Jail edge. Once the board camera has registered the board, the area's corners go
through the same perspective as the board and their bounding box is the dice reader's region.
Reading only there keeps the board's print and the pieces out of the dice reader and costs less
per frame. ``whole_view`` reads the whole frame (a camera that sees only the tray).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

BOARD_CENTRE = "board_centre"
WHOLE_VIEW = "whole_view"
NAMED_AREAS = (BOARD_CENTRE, WHOLE_VIEW)

BOARD_SIDE_MM = 508.0
"""The standard board's side (``vision.board.geometry.BoardSpec``)."""
BOARD_CORNER_MM = 66.0
"""The depth of the ring of squares: the board's middle starts this far in from each edge."""
MARGIN_PX = 6
"""Pixels added around the mapped area. (The dice reader also reads each die whose centre is in
the area from the frame around it, ``DiceConfig.region_margin``, so a die lying across the
area's edge is seen whole whatever its size.)"""
MOVE_PX = 8
"""The region is changed only when a side moves by more than this (registration jitter is not
a new area, and each change restarts the settler)."""

Rect = tuple[float, float, float, float]
Region = tuple[int, int, int, int]


@dataclass(frozen=True)
class DiceArea:
    """The dice area in board millimetres (x, y, w, h), or None for the whole view."""

    mm: Rect | None

    @classmethod
    def named(cls, name: str, side_mm: float = BOARD_SIDE_MM,
              corner_mm: float = BOARD_CORNER_MM) -> DiceArea:
        if name == WHOLE_VIEW:
            return cls(None)
        if name == BOARD_CENTRE:
            inset = corner_mm + 4.0  # clear of the squares' inner edge
            return cls((inset, inset, side_mm - 2 * inset, side_mm - 2 * inset))
        raise ValueError(f"unknown dice area {name!r}: use one of {', '.join(NAMED_AREAS)} or "
                         "[x, y, w, h] in board millimetres")

    @classmethod
    def parse(cls, value: str | Sequence[float]) -> DiceArea:
        """``"board_centre"``, ``"whole_view"`` or ``[x, y, w, h]`` (mm from the Free Parking
        corner; a tray beside the board may have negative or beyond-the-board coordinates)."""
        if isinstance(value, str):
            return cls.named(value)
        try:
            if any(isinstance(v, bool) for v in value):
                raise ValueError("true or false is not a number of millimetres")
            x, y, w, h = (float(v) for v in value)
        except (TypeError, ValueError):
            raise ValueError(f"dice area {value!r}: give [x, y, w, h] in millimetres") from None
        if not all(math.isfinite(v) for v in (x, y, w, h)):
            raise ValueError(f"dice area {value!r}: every value must be a number of millimetres "
                             "(not nan or inf)")
        if not (w > 0 and h > 0) or max(abs(x), abs(y), w, h) > 5000:
            raise ValueError(f"dice area {value!r}: width and height must be above 0 and every "
                             "value within 5 m of the board")
        return cls((x, y, w, h))

    def region(self, board_to_frame: np.ndarray, frame_size: tuple[int, int]) -> Region | None:
        """The area's bounding box in frame pixels (clipped to the frame), given the board's
        homography (:func:`board_homography`); None for the whole view or when the area falls
        outside the frame."""
        if self.mm is None:
            return None
        h = board_to_frame
        x, y, w, hh = self.mm
        pts = np.array([[x, y], [x + w, y], [x + w, y + hh], [x, y + hh]], np.float32)
        p = cv2.perspectiveTransform(pts.reshape(1, -1, 2), h)[0]
        width, height = frame_size
        x0 = max(0, int(np.floor(p[:, 0].min())) - MARGIN_PX)
        y0 = max(0, int(np.floor(p[:, 1].min())) - MARGIN_PX)
        x1 = min(width, int(np.ceil(p[:, 0].max())) + MARGIN_PX)
        y1 = min(height, int(np.ceil(p[:, 1].max())) + MARGIN_PX)
        if x1 - x0 < 16 or y1 - y0 < 16:
            return None
        return (x0, y0, x1 - x0, y1 - y0)


def board_homography(board_corners_px: Sequence[Sequence[float]]) -> np.ndarray:
    """Board millimetres to frame pixels, from the board's four outer corners in the frame
    (TL, TR, BR, BL, as ``vision.board.geometry.BoardSpec.corners``; the standard board)."""
    s = BOARD_SIDE_MM
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    dst = np.asarray(board_corners_px, np.float32).reshape(4, 2)
    return np.asarray(cv2.getPerspectiveTransform(src, dst))


def moved(old: Region | None, new: Region | None) -> bool:
    """Whether ``new`` is a different region from ``old`` (beyond registration jitter)."""
    if old is None or new is None:
        return old != new
    (ax, ay, aw, ah), (bx, by, bw, bh) = old, new
    return max(abs(ax - bx), abs(ay - by), abs(ax + aw - bx - bw), abs(ay + ah - by - bh)) > MOVE_PX
