"""``scripts/train_face_reader.py synth --plastic``: a numbered type's crops drawn in the plastic
look (``vision.synthetic.plastic``) are labelled with the face on top and cut like the others."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest
from script_module import load

train_face_reader = load("train_face_reader")


def _synth(out: Path, kind: str, plastic: float, seed: int = 5) -> np.lib.npyio.NpzFile:
    args = argparse.Namespace(kind=kind, out=str(out), real="", dice=12, seed=seed, three_d=False,
                              table_frames=0, no_real=True, realistic=False, plastic=plastic)
    train_face_reader.cmd_synth(args)
    return np.load(out / f"{kind}.npz")


def test_plastic_crops_are_cut_and_labelled_like_the_others(tmp_path: Path) -> None:
    plastic = _synth(tmp_path / "p", "d20", 1.0)
    plain = _synth(tmp_path / "f", "d20", 0.0)
    for d in (plastic, plain):
        assert d["x"].shape[1:] == (train_face_reader.CTX, train_face_reader.CTX) and len(d["x"]) >= 12
        assert d["x"].dtype == np.uint8 and str(d["kind"]) == "d20"
        assert 0 <= int(d["y"].min()) and int(d["y"].max()) < 20
    # the same seed draws other scenes in the other look
    n = min(len(plastic["x"]), len(plain["x"]))
    assert not np.array_equal(plastic["x"][:n], plain["x"][:n])


def test_plastic_is_refused_for_dice_it_does_not_draw(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="--plastic draws d8, d10, d12 and d20 only"):
        _synth(tmp_path, "d6", 1.0)
