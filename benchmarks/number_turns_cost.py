#!/usr/bin/env python3
"""What reading a die's number at several turns costs (``DiceConfig.number_turns``).

The numbered pass asks the number reader only about the numbered dice the grey looks left unsure,
so the cost is per such die. This times ``numbers.read_glyphs`` on one die's crop at 1, 4, 8 and 16
turns (one thread, the median of ``--reps`` runs after a warm-up), on the largest die the reader
finds in each of the first ``--photos`` real dice-polyhedral d12 photos (or, without them, a
rendered d12 in the tray).

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/number_turns_cost.py

The last line is one JSON object: milliseconds per die at each turn count.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import reader  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR  # noqa: E402
from vision.dice.evaluate import tray_items  # noqa: E402
from vision.dice.numbers import read_glyphs  # noqa: E402
from vision.dice.types import DiceConfig  # noqa: E402

TURNS = (1, 4, 8, 16)


def dice(poly: Path, photos: int) -> list[tuple[np.ndarray, tuple[float, float, float, float]]]:
    """(image, box) of the largest die found in each of the first real d12 photos (a render without them)."""
    images = [img for p in sorted(poly.glob("D12*.jpg"))[:photos] if (img := cv2.imread(str(p))) is not None]
    if not images:
        images = [img for _, img, _ in tray_items(photos, "d12", seed=95_000)]
    out: list[tuple[np.ndarray, tuple[float, float, float, float]]] = []
    cfg = replace(DiceConfig(), kinds=("d12",))
    for img in images:
        found = list(reader.read_dice(img, None, cfg).dice)
        if found:
            b = max(found, key=lambda r: r.box[2] * r.box[3]).box
            out.append((img, (float(b[0]), float(b[1]), float(b[2]), float(b[3]))))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"))
    p.add_argument("--photos", type=int, default=4)
    p.add_argument("--reps", type=int, default=15)
    args = p.parse_args()
    cv2.setNumThreads(1)
    found = dice(Path(args.poly), args.photos)
    result: dict[str, object] = {"dice": len(found), "ms_per_die": {}}
    ms: dict[int, float] = {}
    for turns in TURNS:
        times = []
        for img, box in found:
            read_glyphs(img, [box], turns)  # warm-up
            for _ in range(args.reps):
                t = time.perf_counter()
                read_glyphs(img, [box], turns)
                times.append(1000 * (time.perf_counter() - t))
        ms[turns] = round(statistics.median(times), 2)
        print(f"{turns} turns: {ms[turns]} ms per die (median of {len(times)})", flush=True)
    result["ms_per_die"] = ms
    print(json.dumps(result))


if __name__ == "__main__":
    main()
