"""A stand-in for the dice classifier that gives every crop one fixed answer, for tests that
check the reader's decision rules with the networks' answers fixed by monkeypatching
``vision.dice.reader.classify_with_turns``."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.dice.labels import CLASSES


def classifier_gives(answer: dict[str, float]) -> Callable[..., np.ndarray]:
    """Every crop gets these probabilities (class name -> probability) and the rest spread evenly
    over the other classes."""
    def classify(crops: list[np.ndarray], *args: object) -> np.ndarray:
        rest = (1.0 - sum(answer.values())) / (len(CLASSES) - len(answer))
        p = np.full((len(crops), len(CLASSES)), rest, np.float32)
        for name, v in answer.items():
            p[:, CLASSES.index(name)] = v
        return p
    return classify


def classifier_says(cls: int, conf: float) -> Callable[..., np.ndarray]:
    """Every crop gets ``conf`` on class ``cls`` and the rest spread evenly over the others."""
    return classifier_gives({CLASSES[cls]: conf})


def head_says(value: int, p: float) -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """A stand-in for the d6 head (``vision.dice.reader.read_d6``) that gives every die ``p`` on
    ``value`` (the rest spread evenly) and a zero embedding."""
    def read_d6(grey: np.ndarray, boxes: list[object], table: object = None,
                shipped: bool = True) -> tuple[np.ndarray, np.ndarray]:
        q = np.full((len(boxes), 6), (1 - p) / 5, np.float32)
        q[:, value - 1] = p
        return q, np.zeros((len(boxes), 96), np.float32)
    return read_d6


def type_reader_undecided(crops: list[np.ndarray], *args: object) -> np.ndarray:
    """A stand-in for the type reader with no opinion (every numbered type equally likely), which
    leaves the classifier's split between types as it is: for tests that fix the classifier's
    answer to check a rule downstream of it (``vision.dice.reader.read_types``)."""
    from vision.dice.models import TYPE_READER_KINDS

    return np.full((len(crops), len(TYPE_READER_KINDS)), 1.0 / len(TYPE_READER_KINDS), np.float32)


def one_die_frame(kind: str) -> np.ndarray:
    """A 640x480 frame holding one 60 px ``kind`` (the same die every time): a frame for the
    reader's rules to run on while the networks' answers are fixed."""
    from vision.synthetic.dice import render_dice_scene

    img, truths = render_dice_scene(np.random.default_rng(1), (640, 480), n_dice=1, kinds=(kind,),
                                    die_px=(60.0, 60.0))
    assert len(truths) == 1
    return img


def with_chroma(read_colour: Callable[..., np.ndarray]) -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """The reader's colour look (``reader.read_colour_and_chroma``) with the colour d6 reader's
    answers given by ``read_colour(image, boxes)`` and the crops' real chroma
    (``d6colour.colour_chroma``)."""
    from vision.dice.d6colour import colour_chroma

    def read_colour_and_chroma(image: np.ndarray, boxes: list[tuple[float, float, float, float]]
                               ) -> tuple[np.ndarray, np.ndarray]:
        return read_colour(image, boxes), colour_chroma(image, boxes)
    return read_colour_and_chroma


def grey_looks_unsure(monkeypatch: pytest.MonkeyPatch, head: int | None = None) -> None:
    """The reader's grey looks fixed so a lone d6 is left unsure: the classifier 0.6 on "d6:6" for
    every crop (the d6 share too small for a sure reading), the type reader undecided, the pip
    counter silent and, with ``head``, the d6 head 0.6 on that value."""
    from vision.dice import reader

    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(CLASSES.index("d6:6"), 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "count_pips", lambda *a, **k: None)
    if head is not None:
        monkeypatch.setattr(reader, "read_d6", head_says(head, 0.6))
