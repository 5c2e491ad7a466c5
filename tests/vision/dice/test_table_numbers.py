"""A table's memory of its own numbered dice inside the reader (``reader._numbered_pass`` with
``DiceConfig.d6_table``'s ``numbers``): it only ever reads a die the reader left unsure."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.dice import tune
from vision.dice.evaluate import tray_items
from vision.dice.numbers import glyphs_and_features
from vision.dice.reader import read_dice
from vision.dice.types import DiceConfig


def _frames(n: int = 8) -> list[tuple[np.ndarray, int]]:
    return [(img, truths[0].value) for _, img, truths in tray_items(n, "d12", seed=52_000)]


D12 = DiceConfig(kinds=("d12",), face_reader_names_type=(2.0, 2.0, 2.0))
"""A d12 roll without the d12 face reader's own look (step 15), which reads every die of these
frames: so some stay unsure, for the table's memory to judge."""


def test_the_network_gives_the_same_glyphs_with_its_features() -> None:
    from vision.dice.numbers import number_crops, read_glyphs

    img, _ = _frames(1)[0]
    boxes = [(500.0, 400.0, 200.0, 200.0)]
    g, f = glyphs_and_features(number_crops(img, boxes))
    assert np.allclose(g, read_glyphs(img, boxes), atol=1e-6) and f.shape[0] == 1 and f.shape[1] > 100


@pytest.mark.parametrize("plain", [DiceConfig(kinds=("d12",)), D12], ids=["shipped", "without-own-type-look"])
def test_a_tuned_table_never_loses_a_reading_it_had_even_with_a_memory_that_lies(plain: DiceConfig) -> None:
    frames = _frames()
    before = [read_dice(img, None, plain) for img, _ in frames]
    # a hostile memory: the very dice of these frames, each stored with a wrong value
    feats, values = [], []
    for (img, truth), obs in zip(frames, before, strict=True):
        boxes = [tuple(float(v) for v in d.box) for d in obs.dice]
        if boxes:
            _, f = glyphs_and_features(tune.number_input(tune.colour_crops(img, boxes)))  # type: ignore[arg-type]
            feats.append(f)
            values += [truth % 12 + 1] * len(boxes)
    f = np.concatenate(feats)
    filler = np.random.default_rng(1).normal(0, 1, (12, f.shape[1])).astype(np.float32)  # every face held
    memory = tune.NumberMemory("d12", tune.unit(np.concatenate([f, filler])),
                               np.array(values + list(range(1, 13)), np.int64), read_at=0.5)
    table = tune.Adaptation(np.zeros((96, 6)), np.zeros(6), numbers={"d12": memory})
    after = [read_dice(img, None, replace(plain, d6_table=table)) for img, _ in frames]
    read_before = 0
    for b, a in zip(before, after, strict=True):
        for d in b.dice:
            if d.status == "read":
                read_before += 1
                same = [x for x in a.dice if x.box == d.box]
                assert same and same[0].status == "read" and same[0].value == d.value
    assert read_before >= 2  # the rule was put to the test


def test_a_table_taught_this_die_reads_it_where_the_reader_was_unsure() -> None:
    frames = _frames()
    before = [read_dice(img, None, D12) for img, _ in frames]
    unsure = [(img, truth, d) for (img, truth), obs in zip(frames, before, strict=True)
              for d in obs.dice if d.status == "unsure"]
    assert unsure
    # the table was shown these very dice (a memory holding each die it reads: the rule, not a figure)
    boxes_of = [(img, [tuple(float(v) for v in d.box)], truth) for img, truth, d in unsure]
    f = np.concatenate([glyphs_and_features(tune.number_input(tune.colour_crops(img, b)))[1]  # type: ignore[arg-type]
                        for img, b, _ in boxes_of])
    filler = np.random.default_rng(2).normal(0, 1, (12, f.shape[1])).astype(np.float32)
    memory = tune.NumberMemory("d12", tune.unit(np.concatenate([f, filler])),
                               np.array([t for _, _, t in boxes_of] + list(range(1, 13)), np.int64))
    table = tune.Adaptation(np.zeros((96, 6)), np.zeros(6), numbers={"d12": memory})
    newly = 0
    for img, truth, d in unsure:
        obs = read_dice(img, None, replace(D12, d6_table=table))
        got = [x for x in obs.dice if x.box == d.box]
        assert got
        if got[0].status == "read":
            newly += 1
            assert got[0].value == truth
    assert newly >= 1
