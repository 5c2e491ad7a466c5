"""The contrast look: a colour die whose pips have its body's luminance in another hue shows its
pips in a grey made from its own colours (``vision.dice.contrast``), and the d6 pass reads an
unsure colour die by that grey only when an independent witness names the same value
(``DiceConfig.d6_contrast``; off, the readings are today's)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.dice import reader
from vision.dice.contrast import contrast_grey
from vision.dice.finder import Candidate
from vision.dice.labels import CLASSES
from vision.dice.pips import count_pips
from vision.dice.reader import D6Evidence, contrast_verdict
from vision.dice.types import DiceConfig

from .fixed_answers import classifier_says, type_reader_undecided, with_chroma

BOX = (260.0, 180.0, 80.0, 80.0)
FIVE = ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75))


def _die(body: tuple[int, int, int], pip: tuple[int, int, int]) -> np.ndarray:
    """A 640x480 frame with one 80 px die showing five, on a dark table."""
    img = np.full((480, 640, 3), 35, np.uint8)
    x, y, w, h = (int(v) for v in BOX)
    cv2.rectangle(img, (x, y), (x + w - 1, y + h - 1), body, -1)
    for fx, fy in FIVE:
        cv2.circle(img, (int(x + fx * w), int(y + fy * h)), 8, pip, -1, cv2.LINE_AA)
    return img


# a red body and green pips of the same luminance (0.299 R + 0.587 G + 0.114 B)
RED, GREEN = (40, 60, 200), (40, 150, 20)


def _levels(grey: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, float]:
    """(the mean grey of the pips' centres, the body's median between them)."""
    x, y, w, h = box
    pips = [float(grey[int(y + fy * h), int(x + fx * w)]) for fx, fy in FIVE]
    body = float(np.median(grey[int(y + 0.4 * h):int(y + 0.45 * h), int(x + 0.1 * w):int(x + 0.9 * w)]))
    return float(np.mean(pips)), body


def test_a_grey_matched_die_shows_its_pips_in_the_contrast_grey_and_not_in_luminance() -> None:
    frame = _die(RED, GREEN)
    lum = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    pips, body = _levels(lum, BOX)
    assert abs(pips - body) < 5
    assert count_pips(lum, BOX) is None
    grey, inner = contrast_grey(frame, BOX)
    pips, body = _levels(grey, inner)
    assert body > 170 and pips < 80  # body light, pips dark, like the grey crops the networks learned
    assert count_pips(grey, inner) == 5


def test_an_ordinary_die_keeps_its_luminance_in_the_contrast_grey() -> None:
    for body_colour, pip_colour in (((235, 235, 235), (20, 20, 20)), ((30, 30, 190), (240, 240, 240))):
        frame = _die(body_colour, pip_colour)
        grey, inner = contrast_grey(frame, BOX)
        pips, body = _levels(grey, inner)
        assert body > 170 and pips < 80
        # a white die comes out as its luminance does (body light, pips dark, the table dark)
        if body_colour[0] > 200:
            lum = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            x0, y0 = int(BOX[0] - inner[0]), int(BOX[1] - inner[1])
            patch = lum[y0:y0 + grey.shape[0], x0:x0 + grey.shape[1]].astype(float)
            assert np.corrcoef(patch.ravel(), grey.astype(float).ravel())[0, 1] > 0.95


def test_the_contrast_grey_needs_a_colour_image() -> None:
    with pytest.raises(ValueError, match="BGR"):
        contrast_grey(np.zeros((100, 100), np.uint8), (10.0, 10.0, 50.0, 50.0))


def _evidence(contrast: list[float], colour: list[float], pips: int | None) -> D6Evidence:
    return D6Evidence((0, 0, 60, 60), 1.0, np.zeros(6, np.float32), np.full(6, 1 / 6, np.float32),
                      np.zeros(96, np.float32), None, 60.0, True, colour=np.array(colour, np.float32),
                      chroma=80.0, contrast=np.array(contrast, np.float32), contrast_pips=pips)


def test_the_contrast_look_reads_only_with_a_witness_naming_its_value() -> None:
    cfg = DiceConfig(d6_contrast=True, d6_contrast_head=0.9, d6_contrast_witness=0.7)
    sure5 = [0.01, 0.01, 0.01, 0.01, 0.95, 0.01]
    colour5 = [0.05, 0.05, 0.05, 0.05, 0.75, 0.05]
    colour_doubts = [0.05, 0.05, 0.05, 0.35, 0.45, 0.05]
    assert contrast_verdict(_evidence(sure5, colour5, None), cfg) == (5, True)
    assert contrast_verdict(_evidence(sure5, colour_doubts, None), cfg) == (5, False)
    assert contrast_verdict(_evidence(sure5, colour_doubts, 5), cfg) == (5, True)  # the pips witness
    assert contrast_verdict(_evidence(sure5, colour_doubts, 4), cfg) == (5, False)
    unsure5 = [0.05, 0.05, 0.05, 0.05, 0.75, 0.05]
    assert contrast_verdict(_evidence(unsure5, colour5, 5), cfg) == (5, False)  # the look itself unsure


def test_the_pass_reads_an_unsure_colour_die_by_its_contrast_look_only_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _die(RED, GREEN)
    # the detector sees grey, where a grey-matched die is a plain square: the box is given here
    monkeypatch.setattr(reader, "find_dice_and_overview", lambda *a, **k: ([Candidate(BOX, 0.9)], None))
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(CLASSES.index("d6:6"), 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "count_pips", lambda *a, **k: None)

    def head_unsure(grey: np.ndarray, boxes: list[object], table: object = None,
                    shipped: bool = True) -> tuple[np.ndarray, np.ndarray]:
        return np.full((len(boxes), 6), 1 / 6, np.float32), np.zeros((len(boxes), 96), np.float32)

    def colour_leans(value: int) -> Callable[..., np.ndarray]:
        def read_colour(image: np.ndarray, boxes: list[object]) -> np.ndarray:
            q = np.full((len(boxes), 6), 0.04, np.float32)
            q[:, value - 1] = 0.8
            return q
        return read_colour

    looked: list[tuple[float, float, float, float]] = []

    def contrast_sure_of_5(bgr: np.ndarray, box: tuple[float, float, float, float],
                           cfg: DiceConfig) -> tuple[np.ndarray, int | None]:
        looked.append(box)
        q = np.full(6, 0.01, np.float32)
        q[4] = 0.97
        return q, None

    monkeypatch.setattr(reader, "read_d6", head_unsure)
    monkeypatch.setattr(reader, "contrast_look", contrast_sure_of_5)
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(colour_leans(5)))
    off = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_contrast=False))
    assert [(d.status, d.guess) for d in off.dice] == [("unsure", 5)] and looked == []
    on = reader.read_dice(frame, config=DiceConfig(kinds=("d6",))).dice  # on as shipped
    assert [(d.status, d.value) for d in on] == [("read", 5)] and len(looked) == 1
    # the colour reader names another value: no witness, the die stays unsure
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(colour_leans(3)))
    doubted = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_contrast=True)).dice
    assert [d.status for d in doubted] == ["unsure"]


def _first_look_undecided(monkeypatch: pytest.MonkeyPatch, box: tuple[float, float, float, float]) -> list[object]:
    """The detector gives ``box``, the classifier, type reader, pip counter and d6 head leave the
    die unsure, and the contrast look is recorded each time it is asked (the list returned)."""
    monkeypatch.setattr(reader, "find_dice_and_overview", lambda *a, **k: ([Candidate(box, 0.9)], None))
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(CLASSES.index("d6:6"), 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "count_pips", lambda *a, **k: None)
    monkeypatch.setattr(reader, "read_d6", lambda grey, boxes, *a, **k: (
        np.full((len(boxes), 6), 1 / 6, np.float32), np.zeros((len(boxes), 96), np.float32)))
    looked: list[object] = []

    def contrast_look(*args: object) -> tuple[np.ndarray, int | None]:
        looked.append(args)
        return np.full(6, 1 / 6, np.float32), None

    monkeypatch.setattr(reader, "contrast_look", contrast_look)
    return looked


def test_the_contrast_look_never_asks_about_a_grey_die(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _die((230, 230, 230), (25, 25, 25))
    looked = _first_look_undecided(monkeypatch, BOX)
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(lambda image, boxes: np.full((len(boxes), 6), 1 / 6, np.float32)))
    dice = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_contrast=True)).dice
    assert [d.status for d in dice] == ["unsure"] and looked == []


def test_the_contrast_look_never_asks_about_a_die_seen_at_a_slant(monkeypatch: pytest.MonkeyPatch) -> None:
    # on the colour photos seen from the side, the look and its witnesses agreed on wrong values
    frame = _die(RED, GREEN)
    slanted = (BOX[0], BOX[1], BOX[2], 0.7 * BOX[3])
    looked = _first_look_undecided(monkeypatch, slanted)
    dice = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_contrast=True)).dice
    assert [d.status for d in dice] == ["unsure"] and looked == []
    monkeypatch.setattr(reader, "find_dice_and_overview", lambda *a, **k: ([Candidate(BOX, 0.9)], None))
    reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_contrast=True))
    assert len(looked) == 1  # the same die seen from above is asked
