#!/usr/bin/env python3
"""What the second overview look (``DiceConfig.overview_recheck``) costs a frame: each frame read
with it and without it, alternately in one run (the machine's load falls on both alike), one
thread. Frames: the synthetic table's 2d6 (the kiosk's dice area of a 1280x720 and a 2304x1296
frame, read as a d6 roll), whole 1280x720 frames of 1-8 dice of every type, and single rendered
d20 of 250-350 px in a 1296x972 tray frame (where the look runs). Prints the median ms of each,
the ratio with / without, and the detector passes each way (``finder._detect`` calls: the look's
only cost beyond a few list checks is an overview pass the finder did not run); the last line
is one JSON object.

    nice -n 15 env OMP_NUM_THREADS=1 python3 benchmarks/dice_overview_cost.py --frames 40
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import DiceConfig, finder, read_dice  # noqa: E402
from vision.dice.evaluate import synthetic_items, table_items, tray_items  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--frames", type=int, default=40, help="frames of each kind")
    p.add_argument("--repeats", type=int, default=3, help="each frame read this many times each way")
    args = p.parse_args()
    cv2.setNumThreads(1)
    on = DiceConfig()
    d6 = replace(on, kinds=("d6",))
    sets: dict[str, list[tuple[np.ndarray, tuple[int, int, int, int] | None, DiceConfig]]] = {
        "table 1280x720 2d6": [(img, region, d6) for _, img, region, _ in
                               table_items(args.frames, 40_000, random_conditions=True, size=(1280, 720))],
        "table 2304x1296 2d6": [(img, region, d6) for _, img, region, _ in
                                table_items(args.frames, 40_000, random_conditions=True, size=(2304, 1296))],
        "1280x720 every type": [(img, None, on) for _, img, _ in synthetic_items(args.frames, seed=10_000)],
        "d20 250-350 px 1296x972": [(img, None, on) for _, img, _ in
                                    tray_items(args.frames, "d20", die_px=(250.0, 350.0))],
    }
    result: dict[str, object] = {"machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
                                 "frames": args.frames, "repeats": args.repeats}
    passes: dict[bool | None, int] = {True: 0, False: 0, None: 0}
    detect = finder._detect
    mode: list[bool | None] = [None]

    def counted(grey: np.ndarray, scale: float, config: DiceConfig) -> list[finder.Candidate]:
        passes[mode[0]] += 1
        return detect(grey, scale, config)

    finder._detect = counted
    for name, frames in sets.items():
        times: dict[bool, list[float]] = {True: [], False: []}
        passes[True] = passes[False] = 0
        for img, region, cfg in frames:
            mode[0] = None  # not counted
            read_dice(img, region, cfg)  # warm the networks and caches
            for _ in range(args.repeats):
                for recheck in (False, True):
                    c = cfg if recheck else replace(cfg, overview_recheck=False)
                    mode[0] = recheck
                    t0 = time.perf_counter()
                    read_dice(img, region, c)
                    times[recheck].append((time.perf_counter() - t0) * 1000.0)
        with_it, without = statistics.median(times[True]), statistics.median(times[False])
        print(f"{name}: median {without:.2f} ms without the second look, {with_it:.2f} ms with it "
              f"(ratio {with_it / without:.3f}); detector passes {passes[False]} without, {passes[True]} with")
        result[name] = {"without_ms": round(without, 2), "with_ms": round(with_it, 2),
                        "ratio": round(with_it / without, 3), "passes_without": passes[False],
                        "passes_with": passes[True]}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
