"""The printed marker sheet: each marker's labels inside its own cut box, instructions clear of
the boxes, so that cutting along the boxes keeps each text with its marker."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.markers import DEFAULT_LAYOUT
from vision.board.sheet import A4_MM, INSTRUCTIONS, cut_boxes, render_sheet

DPI = 300


def _px(mm: float) -> int:
    return int(round(mm / 25.4 * DPI))


def test_each_label_lies_inside_its_own_cut_box() -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    boxes = cut_boxes(DEFAULT_LAYOUT)
    assert len(boxes) == 12
    for cut in boxes:
        x0, y0, x1, y1 = cut.box
        mx, my = cut.marker
        assert x0 < mx and y0 < my and mx + DEFAULT_LAYOUT.marker_mm < x1
        for text, lx, ly, scale, weight in cut.labels:
            (w, h), base = cv2.getTextSize(text, font, scale, weight)
            assert _px(x0) < _px(lx) and _px(lx) + w < _px(x1), text
            assert _px(my + DEFAULT_LAYOUT.marker_mm) < _px(ly) - h, text
            assert _px(ly) + base < _px(y1), text
    for a in boxes:  # boxes never overlap, and all lie on the page
        assert 0 < a.box[0] and a.box[2] < A4_MM[0] and a.box[3] < A4_MM[1] - 5
        for b in boxes:
            if a is not b:
                assert (a.box[2] <= b.box[0] or b.box[2] <= a.box[0]
                        or a.box[3] <= b.box[1] or b.box[3] <= a.box[1])


def test_no_ink_outside_the_boxes_below_the_instructions() -> None:
    page = render_sheet(DEFAULT_LAYOUT, DPI)
    boxes = cut_boxes(DEFAULT_LAYOUT)
    top = min(c.box[1] for c in boxes)
    last_line = max(y for _text, y, _scale in INSTRUCTIONS)
    assert top - last_line >= 3.0  # the last instruction line stays clear of the first row
    ink = page < 128
    for cut in boxes:
        x0, y0, x1, y1 = cut.box
        ink[_px(y0) - 2:_px(y1) + 3, _px(x0) - 2:_px(x1) + 3] = False
    below = ink[_px(top) - _px(2.0):, :]
    assert not below.any(), f"{int(below.sum())} dark pixels outside the cut boxes"
    assert np.count_nonzero(page[: _px(top) - _px(2.0)] < 128) > 1000  # the instructions drew
