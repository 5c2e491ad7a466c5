"""The piecepack reader on rendered frames it was never trained on, on garbage and on bad input."""

from __future__ import annotations

import numpy as np
import pytest

from vision.piecepack.evaluate import HELD_OUT_SEED, match
from vision.piecepack.reader import STATUS_READ, PiecepackError, read_pieces
from vision.synthetic.piecepack import render_dice_area

FRAMES = range(HELD_OUT_SEED + 900_000, HELD_OUT_SEED + 900_006)


def test_held_out_dice_and_coins_are_read_right_or_left_unsure() -> None:
    pieces = read = 0
    for seed in FRAMES:
        f = render_dice_area(seed)
        obs = read_pieces(f.image)
        for p, r in zip(f.pieces, match(f.pieces, obs.pieces), strict=True):
            pieces += 1
            assert r is not None, f"seed {seed}: {p} not found"
            if r.status == STATUS_READ:
                read += 1
                assert (r.kind, r.side) == (p.kind, p.side), f"seed {seed}: {p} read as {r}"
                assert r.value == p.value and r.suit == p.suit, f"seed {seed}: {p} read as {r}"
    assert read >= 0.5 * pieces


def test_a_die_is_read_with_its_suit_so_its_owner_is_known() -> None:
    f = render_dice_area(HELD_OUT_SEED + 900_100, n_dice=4, n_coins=0)
    obs = read_pieces(f.image)
    assert len(obs.dice) == 4
    readings = match(f.pieces, obs.dice)
    suits = [(p.suit, r.suit) for p, r in zip(f.pieces, readings, strict=True)
             if r is not None and r.suit is not None]
    assert len(suits) >= 3 and all(truth == read for truth, read in suits)


@pytest.mark.parametrize("frame", [
    np.zeros((720, 1280, 3), np.uint8),
    np.full((720, 1280, 3), 128, np.uint8),
    np.random.default_rng(0).integers(0, 256, (720, 1280, 3), dtype=np.uint8),
])
def test_garbage_gives_no_confident_reading(frame: np.ndarray) -> None:
    obs = read_pieces(frame)
    assert obs.status in ("empty", "unsure")
    assert not [r for r in obs.pieces if r.status == STATUS_READ]


@pytest.mark.parametrize(("frame", "words"), [
    ("a picture", "numpy array"),
    (np.zeros((720, 1280), np.uint8), "grey"),
    (np.zeros((720, 1280, 3), np.float32), "uint8"),
    (np.zeros((20, 20, 3), np.uint8), "too small"),
    (np.zeros((720, 1280, 2), np.uint8), "BGR"),
])
def test_bad_input_is_refused_saying_what_is_wrong(frame: object, words: str) -> None:
    with pytest.raises(PiecepackError, match=words):
        read_pieces(frame)


def test_a_dice_area_outside_the_frame_is_an_error_not_a_reading() -> None:
    from vision.piecepack.reader import PiecepackConfig

    obs = read_pieces(np.zeros((720, 1280, 3), np.uint8),
                      PiecepackConfig(region=(2000, 0, 100, 100)))
    assert obs.status == "error" and "not inside" in obs.message
