"""``scripts/train_number_reader.py score``: an exported number reader scored on crops, per type,
top glyph right and the reads at each threshold, as the reader's ``values_of`` sees them."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("onnxruntime")

from script_module import load

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "vision" / "dice" / "models" / "number_reader.onnx"


def _script() -> ModuleType:
    return load("train_number_reader")


def test_score_counts_what_the_network_says_per_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.dice.evaluate import tray_items
    from vision.dice.models import crop_square
    from vision.dice.numbers import read_glyphs, values_of

    tnr = _script()
    xs, ys, kinds, direct = [], [], [], []
    for kind in ("d8", "d12"):
        for _name, img, truths in tray_items(3, kind, seed=61_000, size=(480, 360), die_px=(120.0, 150.0),
                                             look="plastic"):
            t = truths[0]
            xs.append(crop_square(img, t.box, tnr.CTX, tnr.CTX_MARGIN))
            ys.append(tnr.glyph_of(kind, t.value))
            kinds.append(int(kind[1:]))
            # the reader's own view of the same crop, for comparison
            ctx = xs[-1]
            p = values_of(read_glyphs(np.ascontiguousarray(ctx), [_ctx_box(tnr)])[0], kind)
            direct.append(int(np.argmax(p)) + 1 == t.value)
    crops = tmp_path / "crops.npz"
    np.savez(crops, x=np.stack(xs), y=np.array(ys), kind=np.array(kinds))
    tnr.cmd_score(argparse.Namespace(crops=str(crops), model=[str(SHIPPED)], thresholds=[0.0, 2.0]))
    out = capsys.readouterr().out
    one_turn = out.split("4 turns")[0]
    # every die is read at threshold 0 (right or wrong) and none at 2
    for kind, n in (("d8", 3), ("d12", 3)):
        line = next(li for li in one_turn.splitlines() if li.strip().startswith(f"{kind}:"))
        top = int(line.split("top right ")[1].split(" of ")[0])
        assert f"of {n}" in line
        assert f"at 0.0: {top} right, {n - top} wrong" in line and "at 2.0: 0 right, 0 wrong" in line
    total = int(one_turn.split("all: top right ")[1].split(" of ")[0])
    # the script's crop (its box around the context crop's middle) is the reader's: the same answers
    assert total == sum(direct)


def _ctx_box(tnr: ModuleType) -> tuple[float, float, float, float]:
    """The die's box within a context crop (``CTX`` px, the box ``CTX_MARGIN`` times smaller)."""
    side = tnr.CTX / tnr.CTX_MARGIN
    off = (tnr.CTX - side) / 2
    return (off, off, side, side)
