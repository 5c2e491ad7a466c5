"""The settler's motion copy (``vision.dice.settle.motion_copy``) against one INTER_AREA step
from the whole frame: time, and whether the two copies call the same frames moving.

Rolls of rendered dice (``RollingDiceSource``: tumbling frames, then still frames with sensor
noise) at several camera sizes, no dice area set (the settler then watches the whole frame, as
before the board is registered). For each frame both copies are made, the order alternating
from frame to frame; each copy's moving / still decision uses the settler's own threshold.
Prints per size the median milliseconds of each, their ratio, the largest grey-level difference
between the two copies and the frames whose decision differs. Last line: one JSON object.

    OMP_NUM_THREADS=1 python3 benchmarks/settle_motion.py --rolls 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.dice.settle import MOTION_LEVEL, MOTION_SIZE, SettleConfig, motion_copy  # noqa: E402
from vision.synthetic.dice import RollingDiceSource  # noqa: E402

SIZES = ((1280, 720), (1296, 972), (1920, 1080), (2304, 1296), (4608, 2592))


def one_step(bgr: np.ndarray) -> np.ndarray:
    """The copy made in one area step straight from the whole frame (the reference)."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, MOTION_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rolls", type=int, default=3, help="rolls per camera size")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    threshold = SettleConfig().motion_threshold
    figures: dict[str, dict[str, float]] = {}
    for w, h in SIZES:
        source = RollingDiceSource(seed=args.seed, n_rolls=args.rolls, size=(w, h), die_px=(0.03 * w, 0.045 * w))
        ms: dict[str, list[float]] = {"one step": [], "motion_copy": []}
        prev: dict[str, np.ndarray | None] = {"one step": None, "motion_copy": None}
        differ = frames = 0
        max_diff = 0
        i = 0
        while (frame := source.read()) is not None:
            order = [("one step", one_step), ("motion_copy", motion_copy)]
            if i % 2:
                order.reverse()
            i += 1
            copies: dict[str, np.ndarray] = {}
            for name, fn in order:
                t = time.perf_counter()
                copies[name] = fn(frame)
                ms[name].append((time.perf_counter() - t) * 1e3)
            max_diff = max(max_diff, int(np.abs(copies["one step"] - copies["motion_copy"]).max()))
            moving = {}
            for name, c in copies.items():
                p = prev[name]
                moving[name] = p is not None and float(np.mean(np.abs(c - p) > MOTION_LEVEL)) > threshold
                prev[name] = c
            frames += 1
            differ += moving["one step"] != moving["motion_copy"]
        a, b = statistics.median(ms["one step"]), statistics.median(ms["motion_copy"])
        key = f"{w}x{h}"
        figures[key] = {"one_step_ms": round(a, 3), "motion_copy_ms": round(b, 3), "ratio": round(b / a, 3),
                        "max_grey_diff": max_diff, "frames": frames, "decisions_differ": differ}
        print(f"{key}: one step {a:.2f} ms, motion copy {b:.2f} ms (ratio {b / a:.2f}); largest grey "
              f"difference {max_diff}; moving/still differs on {differ} of {frames} frames")
    print(json.dumps({"benchmark": "settle_motion", "machine": "one thread", "sizes": figures}))


if __name__ == "__main__":
    main()
