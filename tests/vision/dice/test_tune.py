"""The table's own dice: confirmed examples kept under a size cap, and the adaptation fitted on them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.dice.tune import Adaptation, ExampleStore, TuneError, fit


def _crop(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (64, 64), dtype=np.uint8)


def test_examples_are_kept_with_their_value_and_read_back_oldest_first(tmp_path: Path) -> None:
    store = ExampleStore(tmp_path)
    for v in (3, 1, 6):
        store.add_crop(_crop(v), v)
    crops, values = store.load()
    assert values.tolist() == [3, 1, 6]
    assert crops.shape == (3, 64, 64)
    assert np.array_equal(crops[0], _crop(3))


def test_the_size_cap_drops_the_oldest_examples_first(tmp_path: Path) -> None:
    one = ExampleStore(tmp_path / "probe")
    size = one.add_crop(_crop(0), 1).stat().st_size
    store = ExampleStore(tmp_path / "capped", max_bytes=int(size * 3.5))
    for k in range(6):
        store.add_crop(_crop(k), k + 1)
    _, values = store.load()
    assert values.tolist() == [4, 5, 6]


def test_a_value_a_d6_cannot_show_is_refused_and_nothing_is_kept(tmp_path: Path) -> None:
    store = ExampleStore(tmp_path)
    with pytest.raises(TuneError, match="1 to 6"):
        store.add_crop(_crop(0), 7)
    with pytest.raises(TuneError, match="64x64"):
        store.add_crop(np.zeros((64, 64, 3), np.uint8), 2)
    assert store.paths() == []


def test_tuning_teaches_a_die_the_reader_gets_wrong(tmp_path: Path) -> None:
    # a table's die whose 4 the reader takes for a 5: its embedding tells the two apart
    rng = np.random.default_rng(1)
    n = 60
    values = rng.integers(1, 7, n)
    emb = rng.normal(0, 1, (n, 96)).astype(np.float32)
    emb[:, 0] += 3.0 * (values == 4)
    logits = np.zeros((n, 6))
    logits[np.arange(n), values - 1] = 3.0
    fours = values == 4
    logits[fours, 3], logits[fours, 4] = 1.0, 3.0  # read as 5
    ad = fit(logits, emb, values)
    before = (logits.argmax(1) + 1 == values).mean()
    after = (ad.logits(logits, emb).argmax(1) + 1 == values).mean()
    assert before <= 0.9 and after >= 0.97
    ad.save(tmp_path)
    again = Adaptation.load(tmp_path)
    assert again is not None and again.examples == n
    assert np.allclose(again.logits(logits, emb), ad.logits(logits, emb))


def test_a_few_examples_move_the_reader_little(tmp_path: Path) -> None:
    # two examples that disagree with a sure reader do not overturn it on everything else
    rng = np.random.default_rng(2)
    emb = rng.normal(0, 1, (200, 96)).astype(np.float32)
    logits = np.zeros((200, 6))
    logits[:, 2] = 6.0
    ad = fit(logits[:2], emb[:2], np.array([5, 5]))
    assert (ad.logits(logits, emb).argmax(1) == 2).mean() > 0.9


def test_no_examples_and_a_damaged_adaptation_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(TuneError, match="confirm some rolls"):
        fit(np.zeros((0, 6)), np.zeros((0, 96), np.float32), np.zeros(0, np.int64))
    assert Adaptation.load(tmp_path) is None
    (tmp_path / "adaptation.npz").write_bytes(b"not an npz")
    with pytest.raises(TuneError, match="delete it"):
        Adaptation.load(tmp_path)
