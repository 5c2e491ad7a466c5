"""A contrast-preserving grey for one colour die: the grey networks' second look at a d6 whose
pips have about the body's luminance in another hue (a red die with green pips, marbled and
translucent dice), which turns nearly blank in ordinary grey.

Each pixel's colour (CIELAB) is projected on the direction along which the die's face varies
most (the first principal component of the face's pixels: the middle of the box), and the
projection is scaled so that the face's majority colour (its body) comes out light and the
colour farthest from it on the other side (its pips) dark, like the grey crops the networks
learned. For an ordinary die the direction is mostly lightness and the grey is close to
luminance; for a grey-matched die it runs between the two hues and the pips appear.
The reader's d6 pass uses it (``reader._d6_pass``, ``DiceConfig.d6_contrast``).
"""

from __future__ import annotations

import cv2
import numpy as np

REGION = 1.6
"""The grey is made for a square this many times the box's longer side, centred on the box."""
FACE = 0.7
"""The face's pixels: the middle square of this share of the box's side."""
BODY_GREY = 215.0
"""The body's grey level."""
PIP_GREY = 35.0
"""The grey level of the face's far tail on the pips' side (its 2nd percentile)."""


def contrast_grey(bgr: np.ndarray, box: tuple[float, float, float, float]
                  ) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """(a uint8 grey patch around ``box`` of a BGR image, the box in the patch's coordinates):
    the patch's colours projected on the face's first principal component (module docstring).
    A face of one flat colour gives a flat mid-grey patch."""
    if bgr.ndim != 3:
        raise ValueError(f"contrast_grey needs a BGR image (got shape {bgr.shape}): pass the colour frame")
    x, y, w, h = box
    H, W = bgr.shape[:2]
    side = max(w, h)
    cx, cy = x + w / 2, y + h / 2
    x0, y0 = int(max(0, np.floor(cx - REGION * side / 2))), int(max(0, np.floor(cy - REGION * side / 2)))
    x1, y1 = int(min(W, np.ceil(cx + REGION * side / 2))), int(min(H, np.ceil(cy + REGION * side / 2)))
    patch = bgr[y0:y1, x0:x1]
    inner = (x - x0, y - y0, w, h)
    if patch.size == 0:
        return np.zeros((max(y1 - y0, 1), max(x1 - x0, 1)), np.uint8), inner
    lab = cv2.cvtColor(patch.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    fx0, fx1 = int(x - x0 + w * (1 - FACE) / 2), int(x - x0 + w * (1 + FACE) / 2)
    fy0, fy1 = int(y - y0 + h * (1 - FACE) / 2), int(y - y0 + h * (1 + FACE) / 2)
    face = lab.reshape(patch.shape)[max(fy0, 0):max(fy1, fy0 + 1), max(fx0, 0):max(fx1, fx0 + 1)].reshape(-1, 3)
    if len(face) < 4:
        return np.full(patch.shape[:2], 128, np.uint8), inner
    mean = face.mean(axis=0)
    cov = np.cov((face - mean).T)
    vals, vecs = np.linalg.eigh(cov)
    v = vecs[:, int(np.argmax(vals))]
    t_face = (face - mean) @ v
    body = float(np.median(t_face))
    lo, hi = float(np.percentile(t_face, 2)), float(np.percentile(t_face, 98))
    if body - lo < hi - body:
        # the far tail lies above the body: the pips are on the other side; turn it over
        v, t_face = -v, -t_face
        body, lo = -body, -hi
    span = body - lo
    if span < 1e-3:
        return np.full(patch.shape[:2], 128, np.uint8), inner
    t = (lab - mean) @ v
    g = PIP_GREY + (t - lo) * (BODY_GREY - PIP_GREY) / span
    out: np.ndarray = np.clip(g, 0, 255).astype(np.uint8).reshape(patch.shape[:2])
    return out, inner
