"""Store the special dice's upright reader with 8-bit integer weights and activations.

The upright reader is most of a slow frame's time (one run per candidate and view). Its
8-bit form runs each crop in about three quarters of the time on one core, and reads the dice
as the float network does within a few dice in a thousand (docs/vision-special-dice.md,
"The reader in 8 bits").

Calibration: the reader's own inputs, cut from rendered frames by the shipped reading path
(block dice from seed ``--first`` on, scatter dice 500,000 later; 150 frames a kind by
default, seeds no benchmark judges by; ``--kinds block`` for a network that reads block rolls
only), up to 2,000 crops in runs of 32 (``onnx_int8.to_int8``). The 8-bit file goes beside
its float one (``nets.eight_bit_of``), where the reader looks for it:

    PYTHONPATH=$PWD python3 scripts/quantize_special_reader.py --kinds block \\
        vision/special_dice/models/special_upright_block_reader.onnx \\
        vision/special_dice/models/special_upright_block_reader.int8.onnx

Training only (needs the ``onnx`` package, like the training scripts).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from onnx_int8 import to_int8  # noqa: E402

CALIBRATION_SEED = 7_250_000
RUN = 32
MOST = 2000


def calibration_crops(source: Path, frames: int, first: int, kinds: tuple[str, ...] = ("block", "scatter")
                      ) -> np.ndarray:
    """The inputs of every run of the reader at ``source`` while the shipped path reads
    ``frames`` rendered frames of each of ``kinds``."""
    import vision.special_dice.reader as reader_module
    from vision.special_dice import Orientation, nets, read_special_dice
    from vision.synthetic.special_dice import render_scene

    seen: list[np.ndarray] = []
    net = nets.load(source)
    run = net.run

    def keep(x: np.ndarray) -> list[np.ndarray]:
        seen.append(np.array(x))
        return run(x)

    net.run = keep  # type: ignore[method-assign]
    before = reader_module.upright_reader
    reader_module.upright_reader = source
    try:
        for kind, seed in (("block", first), ("scatter", first + 500_000)):
            if kind not in kinds:
                continue
            for i in range(frames):
                img, truth = render_scene(np.random.default_rng(seed + i), kinds=(kind,))
                read_special_dice(img, (kind,), Orientation(truth.board_to_frame))
    finally:
        reader_module.upright_reader = before
        net.run = run  # type: ignore[method-assign]
    return np.concatenate(seen).astype(np.float32)


def quantize(source: Path, target: Path, crops: np.ndarray) -> None:
    """``source`` in 8 bits, calibrated on up to ``MOST`` of ``crops`` in runs of ``RUN``."""
    crops = crops[np.random.default_rng(0).permutation(len(crops))[:MOST]]
    to_int8(source, target, [crops[i:i + RUN] for i in range(0, len(crops) - RUN + 1, RUN)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path, help="the float network")
    ap.add_argument("target", type=Path, help="where the 8-bit network goes")
    ap.add_argument("--frames", type=int, default=150, help="calibration frames a kind")
    ap.add_argument("--first", type=int, default=CALIBRATION_SEED, help="first block seed")
    ap.add_argument("--kinds", default="block,scatter",
                    help="the kinds whose frames calibrate it (block: a network read for block rolls only)")
    a = ap.parse_args()
    crops = calibration_crops(a.source, a.frames, a.first, tuple(a.kinds.split(",")))
    quantize(a.source, a.target, crops)
    print(f"{a.target}: {len(crops)} calibration crops, {a.source.stat().st_size} -> "
          f"{a.target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
