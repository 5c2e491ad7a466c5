#!/usr/bin/env python3
"""What onnxruntime's thread set-up costs the dice reader and the kiosk's camera thread.

Three set-ups, each in a process of its own (a network's session is made once per process):

- ``one``: OpenCV and onnxruntime on one thread (what the other dice benchmarks measure);
- ``cores-spin``: as many threads as OpenCV uses by default (the machine's cores), worker
  threads spinning between runs (onnxruntime's default; ``COMPANION_ONNX_SPIN=1``);
- ``cores``: the same threads, sleeping between runs (what ``vision.onnx_session`` sets).

Each process times two workloads, frame by frame:

1. whole 1280x720 frames of 1-8 rendered dice of every type (``read_dice``; seeds from 10,000);
2. the kiosk's camera thread on the demo's synthetic table at 2304x1296, the camera's
   product mode: ``TableProcessor`` (board reader and dice settler, dice read in the board's
   middle) on frames with a 2d6 throw every 15 frames, rendered before the timing starts.

The set-ups run in rounds (``--rounds``, the order turned each round) so the machine's load
falls on all alike; the figures are medians over every round's frames. The readings of each
set-up are compared with the first's: the thread count must not change what is read.

    python3 benchmarks/onnx_threads.py --frames 60 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETUPS = {"one": (1, False), "cores-spin": (0, True), "cores": (0, False)}
"""name -> (threads, 0 for OpenCV's default; worker threads spin)."""


def child(setup: str, frames: int) -> dict[str, Any]:
    import cv2

    threads, _ = SETUPS[setup]
    if threads:
        cv2.setNumThreads(threads)
    from companion.kiosk.demo import DemoTable, demo_processor
    from vision.dice import read_dice
    from vision.dice.evaluate import synthetic_items

    images = [img for _, img, _ in synthetic_items(frames, seed=10_000, cocked_rate=0.05)]
    table = DemoTable(["Ann", "Bob"], (2304, 1296), seed=5)
    table_frames = []
    for i in range(frames):
        if i % 15 == 0:
            table.roll([1 + i % 6, 1 + (i // 15) % 6])
        frame = table.read()
        assert frame is not None
        table_frames.append(frame)
    processor, note = demo_processor(table, (2304, 1296))
    if note:
        raise SystemExit(f"the demo's readers did not start: {note}")

    read_dice(images[0])  # sessions made and warm before the clock runs
    every_ms, readings = [], []
    for img in images:
        t0 = time.perf_counter()
        obs = read_dice(img)
        every_ms.append((time.perf_counter() - t0) * 1000.0)
        readings.append([(d.kind, d.value, d.status) for d in obs.dice])
    camera_ms, rolls = [], []
    for frame in table_frames:
        t0 = time.perf_counter()
        reading = processor(frame)
        camera_ms.append((time.perf_counter() - t0) * 1000.0)
        if reading.settled is not None:
            rolls.append(list(reading.settled.values))
    return {"threads": cv2.getNumThreads(), "every_type_ms": every_ms, "camera_ms": camera_ms,
            "readings": readings, "rolls": rolls}


def run_setup(setup: str, frames: int) -> dict[str, Any]:
    env = dict(os.environ)
    env["COMPANION_ONNX_SPIN"] = "1" if SETUPS[setup][1] else "0"
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, __file__, "--child", setup, "--frames", str(frames)],
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"set-up {setup} failed:\n{out.stderr[-2000:]}")
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--frames", type=int, default=60, help="frames of each workload")
    p.add_argument("--rounds", type=int, default=2, help="times each set-up runs")
    p.add_argument("--child", choices=sorted(SETUPS), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.frames)))
        return 0

    names = list(SETUPS)
    runs: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            runs[name].append(run_setup(name, args.frames))
            print(f"round {r + 1}: {name} done", flush=True)

    def times(name: str, key: str) -> list[float]:
        return sorted(float(ms) for run in runs[name] for ms in run[key])

    def median(name: str, key: str) -> float:
        return statistics.median(times(name, key))

    def p90(name: str, key: str) -> float:
        values = times(name, key)
        return values[int(0.9 * (len(values) - 1))]

    first = runs[names[0]][0]
    result: dict[str, Any] = {"machine": f"{platform.machine()}, {os.cpu_count()} cores",
                                 "frames": args.frames, "rounds": args.rounds}
    print(f"{platform.machine()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}; {args.frames} frames a workload, {args.rounds} rounds")
    print(f"{'set-up':<12} {'threads':>7} {'every type ms (p90)':>22} {'camera thread ms (p90)':>24}"
          f" {'same readings':>14}")
    for name in names:
        same = all(run["readings"] == first["readings"] and run["rolls"] == first["rolls"]
                   for run in runs[name])
        row = {"threads": runs[name][0]["threads"],
               "every_type_ms": round(median(name, "every_type_ms"), 2),
               "every_type_p90_ms": round(p90(name, "every_type_ms"), 2),
               "camera_ms": round(median(name, "camera_ms"), 2),
               "camera_p90_ms": round(p90(name, "camera_ms"), 2),
               "same_readings": same, "rolls": runs[name][0]["rolls"]}
        result[name] = row
        print(f"{name:<12} {row['threads']:>7} {row['every_type_ms']:>13.2f} ({row['every_type_p90_ms']:6.2f})"
              f" {row['camera_ms']:>15.2f} ({row['camera_p90_ms']:6.2f}) {str(same):>14}")
    for key in ("every_type_ms", "every_type_p90_ms", "camera_ms", "camera_p90_ms"):
        result[f"{key}_sleeping_over_spinning"] = round(result["cores"][key] / result["cores-spin"][key], 3)
        result[f"{key}_cores_over_one"] = round(result["cores"][key] / result["one"][key], 3)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
