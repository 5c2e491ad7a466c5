"""``scripts/train_dice_classifier.py detector``'s colour data: the real colour photos give only
their *train* part (never a calib or eval photo), grey as the detector sees them; the rendered
colour-tray frames never use the benchmark's or the tuning frames' seeds."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch", reason="the trainer needs PyTorch (training only): pip install torch==2.13.0")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from train_dice_classifier import TRAY_TRAIN_SEED, colour_photos, colour_tray_frames  # noqa: E402
from train_dice_reader import calib_of  # noqa: E402

from vision.dice import dataset  # noqa: E402


def _part(stem: str) -> str:
    if dataset.split_of(stem) == "eval":
        return "eval"
    return "calib" if calib_of(stem) else "train"


def _photos_of_each_part(folder: Path) -> dict[str, set[str]]:
    """A YOLO folder of small colour photos, at least two of each part; returns the stems per part."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    parts: dict[str, set[str]] = {"eval": set(), "calib": set(), "train": set()}
    i = 0
    while min(len(v) for v in parts.values()) < 2:
        stem = f"photo{i:04d}"
        i += 1
        part = _part(stem)
        if len(parts[part]) >= 2:
            continue
        parts[part].add(stem)
        img = np.zeros((64, 64, 3), np.uint8)
        img[:, :] = (0, 0, 255)  # pure red: grey as the detector sees it is 76, not a channel
        cv2.imwrite(str(folder / "images" / f"{stem}.png"), img)
        (folder / "labels" / f"{stem}.txt").write_text("2 0.5 0.5 0.25 0.25\n")
    return parts


def test_colour_photos_give_only_the_train_part_in_grey(tmp_path: Path) -> None:
    parts = _photos_of_each_part(tmp_path / "colour")
    got = colour_photos(tmp_path / "colour")
    assert len(got) == len(parts["train"]) == 2
    for grey, dice in got:
        assert grey.ndim == 2 and int(grey[0, 0]) == 76
        assert len(dice) == 1
        x, y, w, h, _cls = dice[0]
        assert (x, y, w, h) == pytest.approx((24.0, 24.0, 16.0, 16.0))


@pytest.mark.parametrize("seed", [8_000_000, 8_500_000, 8_599_999, 7_999_999])
def test_colour_tray_frames_refuse_the_benchmark_and_tuning_seeds(seed: int) -> None:
    with pytest.raises(SystemExit, match="9000000 or more"):
        colour_tray_frames(2, seed)


def test_colour_tray_frames_are_grey_at_the_side_asked_with_their_boxes_scaled() -> None:
    frames = colour_tray_frames(1, TRAY_TRAIN_SEED, side=324, size=(648, 486))
    assert len(frames) == 1
    grey, dice = frames[0]
    assert grey.shape == (243, 324)
    assert 2 <= len(dice) <= 6
    for x, y, w, h, _cls in dice:
        assert 0 <= x and 0 <= y and x + w <= 324 and y + h <= 243
        # the 22-90 px dice of a 648 px frame at half size: 11-45 px (a turned die's box up to 1.4x)
        assert 8 <= max(w, h) <= 70
        # a die is brighter or darker than the floor around it: its box is not empty floor
        inner = grey[int(y + h / 4):int(y + 3 * h / 4), int(x + w / 4):int(x + 3 * w / 4)].astype(float)
        ring = grey[max(0, int(y) - 4):int(y + h) + 4, max(0, int(x) - 4):int(x + w) + 4].astype(float)
        assert abs(inner.mean() - np.median(ring)) > 5 or inner.std() > 10


def test_the_pool_repeats_each_source_as_asked() -> None:
    from train_dice_classifier import detector_pool, pool_shares

    def samples(tag: int, n: int) -> list[tuple[np.ndarray, list[tuple[float, float, float, float, int]]]]:
        return [(np.full((2, 2), tag, np.uint8), []) for _ in range(n)]

    pool = detector_pool(samples(1, 3), samples(2, 4), samples(3, 5), samples(4, 2), samples(5, 6),
                         real_repeat=2, table_repeat=3, colour_repeat=0)
    tags = [int(img[0, 0]) for img, _ in pool]
    assert [tags.count(t) for t in (1, 2, 3, 4, 5)] == [6, 4, 15, 0, 6]
    shares = pool_shares(6, 4, 15, 0, 6)
    assert shares["Rune55"] == pytest.approx(6 / 31) and sum(shares.values()) == pytest.approx(1.0)
    with pytest.raises(SystemExit, match="0 or more"):
        detector_pool([], [], [], [], [], real_repeat=-1)


def test_fewer_tray_frames_are_the_first_of_a_longer_cached_run(tmp_path: Path) -> None:
    import argparse
    import pickle

    from train_dice_classifier import tray_pool

    frames = colour_tray_frames(3, TRAY_TRAIN_SEED, side=162, size=(324, 243))
    (tmp_path / f"tray-{TRAY_TRAIN_SEED}-3.pkl").write_bytes(pickle.dumps(frames))
    args = argparse.Namespace(colour_tray=2, colour_tray_seed=TRAY_TRAIN_SEED, cache=str(tmp_path))
    got = tray_pool(args)
    assert len(got) == 2
    assert all(np.array_equal(a[0], b[0]) and a[1] == b[1] for a, b in zip(got, frames[:2], strict=True))
    # the first two frames rendered alone are the same frames: each is seeded by its own seed
    alone = colour_tray_frames(2, TRAY_TRAIN_SEED, side=162, size=(324, 243))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(alone, frames[:2], strict=True))
