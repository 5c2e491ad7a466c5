"""Store the dice detector with 8-bit integer weights and activations.

The detector runs on every frame (one run, more for a second look): about a third of a frame's
time. Its 8-bit form takes about 0.7 times as long (docs/vision-dice.md, "The detector in 8
bits").

Calibration: the detector's own inputs while the shipped reader reads the *tune* part of the
real photos (``dataset.split_of``: no photo the benchmarks judge by), the first 250 of
dice-rune55 and of dice-colour-epanemu in name order; 120 of those runs, picked at random with
seed 0 (``onnx_int8.to_int8``, the network taken as it is: its input sizes are symbolic).

    PYTHONPATH=$PWD python3 scripts/quantize_dice_detector.py \\
        vision/dice/models/dice_detector.onnx vision/dice/models/dice_detector.int8.onnx

Training only (needs the ``onnx`` package and ``../shared/data``).
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

DATA = ROOT.parent / "shared" / "data"
SOURCES = ("dice-rune55", "dice-colour-epanemu")
PHOTOS = 250
RUNS = 120


def detector_inputs(source: Path, photos: int) -> list[np.ndarray]:
    """Every input the detector at ``source`` is given while the default reader reads the
    first ``photos`` tune photos of each of ``SOURCES``."""
    import vision.dice.models as models
    from vision.dice.evaluate import real_items
    from vision.dice.reader import read_dice

    seen: list[np.ndarray] = []
    run, run_all = models.Network.run, models.Network.run_all

    def keep(net: models.Network, x: np.ndarray) -> None:
        if Path(net.path).resolve() == source:
            seen.append(np.array(x, np.float32))

    def kept_run(net: models.Network, x: np.ndarray) -> np.ndarray:
        keep(net, x)
        return run(net, x)

    def kept_all(net: models.Network, x: np.ndarray, names: tuple[str, ...]) -> list[np.ndarray]:
        keep(net, x)
        return run_all(net, x, names)

    models.Network.run = kept_run  # type: ignore[method-assign]
    models.Network.run_all = kept_all  # type: ignore[method-assign]
    try:
        for folder in SOURCES:
            for _name, img, _truths in real_items(str(DATA / folder), "tune", photos):
                if img is not None:
                    read_dice(img)
    finally:
        models.Network.run, models.Network.run_all = run, run_all  # type: ignore[method-assign]
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path, help="the float detector (the shipped one)")
    ap.add_argument("target", type=Path, help="where the 8-bit detector goes")
    ap.add_argument("--photos", type=int, default=PHOTOS, help="tune photos a source")
    a = ap.parse_args()
    if a.source.resolve() != (ROOT / "vision/dice/models/dice_detector.onnx").resolve():
        ap.error("the reader gathers the inputs with the shipped detector: give "
                 "vision/dice/models/dice_detector.onnx")
    inputs = detector_inputs(a.source.resolve(), a.photos)
    pick = np.random.default_rng(0).permutation(len(inputs))[:RUNS]
    to_int8(a.source, a.target, [inputs[i] for i in pick], prepare=False)
    print(f"{a.target}: {len(pick)} of {len(inputs)} detector runs, {a.source.stat().st_size} "
          f"-> {a.target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
