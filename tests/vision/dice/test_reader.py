"""``read_dice``'s second look: a die it could not read, that the detector saw shrunk, is measured
again (``finder.refine_boxes``) and its two looks are averaged."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.dice.reader as reader
from vision.dice import DiceConfig, read_dice
from vision.dice.evaluate import Report, score_image, synthetic_items
from vision.dice.finder import Candidate
from vision.dice.labels import CLASSES, class_of
from vision.synthetic.dice import render_dice_scene


def _small_die_frame() -> np.ndarray:
    img, truths = render_dice_scene(np.random.default_rng(3), (1280, 720), n_dice=1,
                                    kinds=("d8",), die_px=(30.0, 30.0))
    assert len(truths) == 1
    return img


def _looks(answers: list[tuple[int, float]], turned: list[bool] | None = None):  # type: ignore[no-untyped-def]
    """A stand-in for the networks: the n-th look at the dice answers ``answers[n]``; whether
    each look turned its crops goes to ``turned``."""
    calls = iter(answers)

    def probabilities(grey, cands, cfg, turn=True):  # type: ignore[no-untyped-def]
        if turned is not None:
            turned.append(turn)
        cls, conf = next(calls)
        p = np.full((len(cands), len(CLASSES)), (1.0 - conf) / (len(CLASSES) - 1), np.float32)
        p[:, cls] = conf
        return p, [False] * len(cands)
    return probabilities


def _moved_box(grey, cands, cfg):  # type: ignore[no-untyped-def]
    return [Candidate((c.box[0] + 1.0, c.box[1], c.box[2] + 2.0, c.box[3] + 2.0), c.score) for c in cands]


def test_a_second_look_alone_cannot_make_a_die_sure(monkeypatch: pytest.MonkeyPatch) -> None:
    img = _small_die_frame()
    monkeypatch.setattr(reader, "refine_boxes", _moved_box)
    eight = class_of("d8", 8)
    # unsure at first (0.6), sure at the second look (0.999): averaged 0.8, still unsure
    turned: list[bool] = []
    monkeypatch.setattr(reader, "_probabilities", _looks([(eight, 0.6), (eight, 0.999)], turned))
    obs = read_dice(img)
    assert [(d.value, d.status) for d in obs.dice] == [(None, "unsure")]
    assert turned == [True, False]  # the second look reads each crop once
    # both looks fairly sure: averaged 0.985, read, with the second look's box
    monkeypatch.setattr(reader, "_probabilities", _looks([(eight, 0.97), (eight, 1.0)]))
    first = read_dice(img, config=DiceConfig(refine_window=0))
    monkeypatch.setattr(reader, "_probabilities", _looks([(eight, 0.97), (eight, 1.0)]))
    obs = read_dice(img)
    assert [(d.kind, d.value, d.status) for d in obs.dice] == [("d8", 8, "read")]
    assert obs.dice[0].box != first.dice[0].box


def test_no_second_look_for_a_sure_die_or_an_unmoved_box(monkeypatch: pytest.MonkeyPatch) -> None:
    img = _small_die_frame()
    eight = class_of("d8", 8)
    monkeypatch.setattr(reader, "refine_boxes", _moved_box)
    # one answer only: a second look would exhaust the stand-in and raise
    monkeypatch.setattr(reader, "_probabilities", _looks([(eight, 0.99)]))
    assert read_dice(img).dice[0].status == "read"
    monkeypatch.setattr(reader, "refine_boxes", lambda grey, cands, cfg: list(cands))
    monkeypatch.setattr(reader, "_probabilities", _looks([(eight, 0.6)]))
    assert read_dice(img).dice[0].status == "unsure"
    # switched off
    monkeypatch.setattr(reader, "refine_boxes", _moved_box)
    monkeypatch.setattr(reader, "_probabilities", _looks([(eight, 0.6)]))
    assert read_dice(img, config=DiceConfig(refine_window=0)).dice[0].status == "unsure"


def test_the_second_look_reads_more_small_dice_and_none_wrong() -> None:
    cv2.setNumThreads(1)
    frames = list(synthetic_items(12, seed=90_000, cocked_rate=0.0, die_px=(26.0, 40.0)))
    reports = {}
    for window in (0, 96):
        rep = Report()
        for name, img, truths in frames:
            score_image(read_dice(img, config=DiceConfig(refine_window=window)), truths, rep, name)
        reports[window] = rep
    right = {w: sum(t.right for t in r.by_kind.values()) for w, r in reports.items()}
    wrong = {w: sum(t.wrong for t in r.by_kind.values()) for w, r in reports.items()}
    # measured: 39 -> 42 of 54 dice read right, none wrong either way
    assert right[96] >= right[0] + 2
    assert wrong[96] == 0

