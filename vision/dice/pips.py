"""A classical pip counter for a d6's top face: a second opinion, never a reading on its own.

The classifier reads pips well but its confidence ranks some plain dice low (a clean die
photographed at a slant, a dark die under soft light). This counter knows nothing the network
learned: it looks for round spots of one size, of the opposite tone to the die's body, laid out
point-symmetrically about the face's centre (every d6 pip layout is: turned half a turn, it
looks the same). When it finds such a layout it returns the number of spots; anything else
(rings, glitter, side faces in view, spots of mixed sizes, a layout off centre) returns None.

``reader._decide`` reads a d6 the classifier is fairly sure of (``DiceConfig.pip_agree_above``)
when this count names the same value. Two methods that fail differently rarely agree on the
same wrong value; the benchmark counts how often they do.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .models import CROP_MARGIN, crop_square

CROP = 128
"""The counter's crop side in pixels (the die fills 1/CROP_MARGIN of it)."""
BEYOND = 0.75
"""A pip-like spot whose centre lies outside the box but within this many box sides of its
centre (on either axis) means the box may hold only part of the face (``_pip_beyond``)."""
PEEK = 64
"""``pip_outside``'s crop side in pixels: it looks at dice under 48 px, so half the counter's
crop loses nothing and costs a quarter (the spot filter's disc is a third of the die)."""
BEYOND_MARGIN = 1.7
"""The crop for that look: this many box sides across."""
ROUND = 0.7
"""A pip's connected spot is at least this wide for its length (a pip on a face tilted 45
degrees still is); two pips run together are not."""
FLAT_BOX = 0.85
"""The counter is asked only about a die whose box is this square (short side / long side):
a die lying flat seen from above has a square box at any turn; a die seen at a slant shows
part of a side face, whose pips the count would mix in (measured: at 0.75 a real die leaning
towards the camera, labelled 4 and showing two pips of its top, was read as 2)."""


class _Face(NamedTuple):
    found: list[tuple[float, float, float]]
    """The round pip-sized spots inside the face: (x, y, area) in the crop."""
    level: float
    """The spot strength they stand out at."""
    dark_pips: bool
    side: float
    """The die's side in the crop."""
    spots: np.ndarray
    """The crop's spot strength (black-hat or top-hat)."""
    inside: np.ndarray
    """The face's square in the crop."""


def _spot_strength(blurred: np.ndarray, dark_pips: bool, side: float) -> np.ndarray:
    """How much each pixel of a blurred crop stands out as part of a spot smaller than a third of
    a die of ``side`` px: darker than its surroundings (black-hat) or lighter (top-hat), as
    float32. An 8-bit crop is filtered as it is (the same values as its float copy gives, a few
    times faster)."""
    k = max(3, int(0.35 * side) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    src = blurred if blurred.dtype == np.uint8 else blurred.astype(np.float32)
    out = cv2.morphologyEx(src, cv2.MORPH_BLACKHAT if dark_pips else cv2.MORPH_TOPHAT, disc)
    return out.astype(np.float32)


def _face_spots(grey: np.ndarray, box: tuple[float, float, float, float], size: int = CROP) -> _Face | None:
    """The pip-like spots of the d6 in ``box`` (in a ``size`` px crop); None when no spot stands
    out or the face holds, clear of its border, a spot that is not a round pip."""
    crop = crop_square(grey, box, size)
    n = crop.shape[0]
    side = n / CROP_MARGIN  # the die's side in the crop
    blurred = cv2.GaussianBlur(crop, (3, 3), 0)
    g = blurred.astype(np.float32)
    # the body's tone: the middle of the face, where pips cover well under half the area
    a, b = int(n / 2 - 0.3 * side), int(n / 2 + 0.3 * side)
    middle = g[a:b, a:b]
    body = float(np.median(middle))
    lo, hi = np.percentile(middle, 3), np.percentile(middle, 97)
    dark_pips = bool((body - lo) > (hi - body))
    # spots smaller than a third of the die, darker (or lighter) than their surroundings
    spots = _spot_strength(blurred, dark_pips, side)
    inside = np.zeros(crop.shape, bool)
    r0, r1 = int(n / 2 - side / 2), int(n / 2 + side / 2)
    inside[r0:r1, r0:r1] = True
    vals = spots[inside]
    strong = float(np.percentile(vals, 99))
    if strong < 20.0:
        return None  # no spot stands out: a blank, blurred or glittering face
    otsu, _ = cv2.threshold(np.clip(vals, 0, 255).astype(np.uint8).reshape(-1, 1), 0, 255,
                            cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = max(float(otsu), 0.35 * strong)
    found = _round_spots(spots > level, inside, side)
    if found is None:
        return None
    return _Face(found, level, dark_pips, side, spots, inside)


def pip_outside(grey: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether the d6 in ``box`` shows round pips inside its box and a spot like them just
    outside it (``_pip_beyond``): the box then holds only part of the face, and a reading of it
    can be short of a column of pips (a 3 read as 2). False when no pip stands out."""
    face = _face_spots(grey, box, PEEK)
    if face is None or not face.found:
        return False
    area = float(np.mean([f[2] for f in face.found]))
    return _pip_beyond(grey, box, face.dark_pips, face.level, area / face.side ** 2, PEEK)


def count_pips(grey: np.ndarray, box: tuple[float, float, float, float]) -> int | None:
    """The number of pips on the top face of the d6 in ``box`` (x, y, w, h) of a grey image,
    or None when the face does not show a clear, symmetric pip layout."""
    face = _face_spots(grey, box)
    if face is None or not 1 <= len(face.found) <= 6:
        return None
    found, level, dark_pips, side, spots, inside = face
    n = spots.shape[0]
    # a faint pip the first level missed (a blurred 2 seen as a 1): the count must hold at a
    # lower level too
    fainter = _round_spots(spots > 0.6 * level, inside, side)
    if fainter is None or len(fainter) != len(found):
        return None
    areas = np.array([f[2] for f in found])
    if areas.max() > 2.2 * areas.min():
        return None  # spots of mixed sizes: a side face's pips, a glint, a mark
    pts = np.array([(f[0], f[1]) for f in found])
    centre = pts.mean(axis=0)
    if np.hypot(*(centre - n / 2)) > 0.18 * side:
        return None
    for p in pts:  # each pip has a partner mirrored through the centre (the centre pip: itself)
        if np.hypot(*(pts - (2 * centre - p)).T).min() > 0.1 * side:
            return None
    diameter = float(np.sqrt(areas.mean() * 4 / np.pi))
    if len(pts) == 1:  # a lone pip sits in the middle of the face
        if diameter < 0.1 * side or np.hypot(*(pts[0] - n / 2)) > 0.1 * side:
            return None
    else:
        gaps = np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1))
        gaps[np.eye(len(pts), dtype=bool)] = np.inf
        if gaps.min() < 1.3 * diameter or gaps.min() > 0.75 * side:
            return None  # pips touching each other, or too far apart to be on one face
    if _pip_beyond(grey, box, dark_pips, level, float(areas.mean()) / side ** 2):
        return None  # the box holds part of the face: a 3 boxed short of a corner shows a 2
    return len(pts)


def _pip_beyond(grey: np.ndarray, box: tuple[float, float, float, float], dark_pips: bool, level: float,
                pip_area: float, size: int = CROP) -> bool:
    """Whether a round spot of the pips' tone and size (``pip_area``: a pip's area over the
    side squared) lies just outside ``box``, within :data:`BEYOND` of its side from its centre:
    the detector's box of a small die can miss a column of its pips, and the pips left inside
    still make a symmetric layout."""
    crop = crop_square(grey, box, size, margin=BEYOND_MARGIN)
    n = crop.shape[0]
    side = n / BEYOND_MARGIN
    spots = _spot_strength(cv2.GaussianBlur(crop, (3, 3), 0), dark_pips, side)
    count, _, stats, centres = cv2.connectedComponentsWithStats((spots > level).astype(np.uint8), connectivity=8)
    area = pip_area * side ** 2
    for i in range(1, count):
        a = float(stats[i, cv2.CC_STAT_AREA])
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        off = np.abs(centres[i] - n / 2)
        if (0.5 * area <= a <= 2.0 * area and min(w, h) >= ROUND * max(w, h)
                and off.max() > side / 2 and off.max() <= BEYOND * side):
            return True
    return False


def _round_spots(above: np.ndarray, inside: np.ndarray, side: float) -> list[tuple[float, float, float]] | None:
    """(x, y, area) of the pip-sized, round connected spots of ``above`` inside the face; None
    when the face holds, clear of its border, a spot that is not a round pip (two pips run together, a
    stroke of a digit or a decoration): the count would then leave it out."""
    mask = (above & inside).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    least = np.pi / 4 * (0.07 * side) ** 2
    most = np.pi / 4 * (0.32 * side) ** 2
    mid = np.array(above.shape[::-1], float) / 2
    found = []
    for i in range(1, count):
        area = float(stats[i, cv2.CC_STAT_AREA])
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        round_enough = min(w, h) >= ROUND * max(w, h) and area >= 0.55 * w * h
        if least <= area <= most and round_enough:
            found.append((float(centres[i][0]), float(centres[i][1]), area))
        elif area >= least and _within(stats[i], mid, 0.4 * side):
            return None
    return found


def _within(stat: np.ndarray, mid: np.ndarray, half: float) -> bool:
    """Whether a connected spot's bounding box (OpenCV stats row) lies within ``half`` of ``mid``
    on both axes (clear of the face's border, where the die's own outline shows)."""
    x, y, w, h = (float(v) for v in stat[:4])
    return bool(x >= mid[0] - half and x + w <= mid[0] + half and y >= mid[1] - half and y + h <= mid[1] + half)
