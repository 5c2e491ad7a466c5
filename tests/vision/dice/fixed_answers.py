"""A stand-in for the dice classifier that gives every crop one fixed answer, for tests that
check the reader's decision rules with the networks' answers fixed by monkeypatching
``vision.dice.reader.classify_with_turns``."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.dice.labels import CLASSES


def classifier_says(cls: int, conf: float) -> Callable[..., np.ndarray]:
    """Every crop gets ``conf`` on class ``cls`` and the rest spread evenly over the others."""
    def classify(crops: list[np.ndarray], *args: object) -> np.ndarray:
        p = np.full((len(crops), len(CLASSES)), (1.0 - conf) / (len(CLASSES) - 1), np.float32)
        p[:, cls] = conf
        return p
    return classify
