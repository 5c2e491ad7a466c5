#!/usr/bin/env python3
"""Many d6 thrown at once on the synthetic table (MonopoZombie's group rolls: three d6 per
member, 6 to 18 dice): how often the dice reader reads a whole roll, per die and per roll, and
whether it names the die colours the synthetic table draws.

For each dice count, ``--frames`` seeded table frames (random camera pose, the dice in the
board's middle, a pawn) are read in the dice area the board registration gives, told to read
d6 only (as the kiosk does for such a roll). Per die: found, read right, unsure, read wrong.
Per roll: the count right (what the kiosk needs before it offers the values), the whole roll
read right and sure (one CONFIRM), a roll with a sure wrong die (a person must catch it).
Colours: the table draws white and red dice in turn; 'colour ok' is the share of found dice
whose colour name is the drawn one. Median milliseconds per frame, one thread.

    python3 benchmarks/vision_group_dice.py                    # 2, 3, 6, 9, 12, 18 dice
    python3 benchmarks/vision_group_dice.py --frames 5 --counts 6,12   # a quick run

The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from vision.dice import DiceConfig  # noqa: E402
from vision.dice.evaluate import match_dice, table_items  # noqa: E402
from vision.dice.reader import read_dice  # noqa: E402
from vision.dice.types import STATUS_READ  # noqa: E402

COLOURS = ("white", "red")  # the synthetic table's dice, in turn (vision/synthetic/table.py)


def measure(n: int, frames: int, seed: int, size: tuple[int, int]) -> dict[str, float | int]:
    config = DiceConfig(kinds=("d6",))
    dice = found = right = unsure = wrong = extra = colour_ok = 0
    count_ok = whole = sure_wrong = 0
    ms: list[float] = []
    for k, (_name, img, region, truths) in enumerate(
            table_items(frames, seed + 1000 * n, n_dice=n, size=size)):
        t0 = time.perf_counter()
        obs = read_dice(img, region, config)
        ms.append((time.perf_counter() - t0) * 1000.0)
        match = match_dice(obs, list(truths))
        extra += len(obs.dice) - len(match)
        roll_right = roll_wrong = 0
        for ti, t in enumerate(truths):
            dice += 1
            if ti not in match:
                continue
            d = obs.dice[match[ti]]
            found += 1
            colour_ok += int(d.colour == COLOURS[ti % 2])
            if d.status == STATUS_READ and d.value == t.value:
                right += 1
                roll_right += 1
            elif d.status == STATUS_READ:
                wrong += 1
                roll_wrong += 1
            else:
                unsure += 1
        count_ok += int(len(obs.dice) == n)
        whole += int(len(obs.dice) == n and roll_right == n)
        sure_wrong += int(roll_wrong > 0)
        del k
    return {"dice": n, "frames": frames, "die_found": round(found / dice, 4),
            "die_right": round(right / dice, 4), "die_unsure": round(unsure / dice, 4),
            "die_wrong": round(wrong / dice, 4), "false_detections": extra,
            "colour_ok": round(colour_ok / max(1, found), 4),
            "roll_count_right": round(count_ok / frames, 4),
            "roll_read_whole": round(whole / frames, 4),
            "roll_with_a_sure_wrong_die": round(sure_wrong / frames, 4),
            "median_ms": round(statistics.median(ms), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=20, help="frames per dice count (20)")
    ap.add_argument("--counts", default="2,3,6,9,12,18", help="dice counts (2,3,6,9,12,18)")
    ap.add_argument("--size", default="1280x720",
                    help="frame size WxH (1280x720; the kiosk camera's default is 2304x1296)")
    ap.add_argument("--seed", type=int, default=4100)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.size.split("x"))
    rows = []
    print(f"synthetic table, {w}x{h}, {args.frames} frames per count, d6 only; "
          f"{platform.machine()}, Python {platform.python_version()}")
    print(f"{'dice':>5}{'found':>8}{'right':>8}{'unsure':>8}{'wrong':>8}{'colour':>8}"
          f"{'count ok':>10}{'whole':>8}{'sure-wrong roll':>17}{'ms':>8}")
    for n in (int(c) for c in args.counts.split(",")):
        r = measure(n, args.frames, args.seed, (w, h))
        rows.append(r)
        print(f"{n:>5}{r['die_found']:>8.1%}{r['die_right']:>8.1%}{r['die_unsure']:>8.1%}"
              f"{r['die_wrong']:>8.1%}{r['colour_ok']:>8.1%}{r['roll_count_right']:>10.1%}"
              f"{r['roll_read_whole']:>8.1%}{r['roll_with_a_sure_wrong_die']:>17.1%}"
              f"{r['median_ms']:>8}", flush=True)
    print(json.dumps({"benchmark": "vision_group_dice", "size": f"{w}x{h}",
                      "machine": platform.machine(), "python": platform.python_version(),
                      "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
