"""The detector's two-step shrink (``DiceConfig.detect_two_step``, ``finder.shrink``) against the
one INTER_AREA step: time and readings, the two alternating frame by frame in one run.

For each rendered frame it times the shrink of the whole frame to the detector's view alone
(one step, two steps) and the whole read (``read_dice``) with the setting off and on, the order
alternating from frame to frame, and scores both readings. Scenes:

- the rendered colour tray read whole as a d6 roll (``evaluate.colour_tray_items``, the scene and
  seeds of ``vision_dice.py --colour-tray``) at 1296x972, and the same scene at 2304x1296 (the
  camera's product mode; dice 2304/1296 times larger, so they cover the same share of the view);
- the synthetic table at 2304x1296 read in its dice area at the five offsets, as
  ``vision_dice.py --table`` reads it (the area is about 450 px: the detector sees it whole).

Prints per scene the medians (ms) and, per setting, right / unsure / confidently wrong of the
dice found, and the dice one setting reads wrong or right that the other does not. Last line:
one JSON object.

    OMP_NUM_THREADS=1 nice -n 15 python3 benchmarks/dice_shrink.py --colour-tray 150 --table 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.dice import finder  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR  # noqa: E402
from vision.dice.evaluate import (  # noqa: E402
    COLOUR_TRAY_SEED,
    REGISTRATION_JITTER,
    Truth,
    colour_tray_items,
    match_dice,
    table_items,
    tray_photo,
)
from vision.dice.finder import detector_scale, shrink  # noqa: E402
from vision.dice.reader import read_dice  # noqa: E402
from vision.dice.types import STATUS_READ, DiceConfig, DiceObservation  # noqa: E402

Region = tuple[int, int, int, int] | None


def outcomes(obs: DiceObservation, truths: list[Truth]) -> list[str]:
    """Each true die's outcome: right, wrong (read with confidence, another value), unsure, missed."""
    match = match_dice(obs, truths)
    out = []
    for ti, t in enumerate(truths):
        if ti not in match:
            out.append("missed")
            continue
        d = obs.dice[match[ti]]
        if d.status != STATUS_READ:
            out.append("unsure")
        else:
            out.append("right" if d.kind == t.kind and d.value == t.value else "wrong")
    return out


def scene(name: str, items: Iterator[tuple[str, np.ndarray, Region, list[Truth]]], config: DiceConfig) -> dict[str, Any]:
    """Both settings on every frame of ``items`` (name, BGR frame, region or None, truths)."""
    settings = {"one step": replace(config, detect_two_step=False), "two steps": replace(config, detect_two_step=True)}
    ms: dict[str, list[float]] = {k: [] for k in settings}
    shrink_ms: dict[str, list[float]] = {k: [] for k in settings}
    got: dict[str, list[str]] = {k: [] for k in settings}
    frames = 0
    for i, (_, img, region, truths) in enumerate(items):
        frames += 1
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape
        s = detector_scale(h, w, config)
        size = (max(1, round(w * s)), max(1, round(h * s)))
        order = list(settings) if i % 2 == 0 else list(settings)[::-1]
        for key in order:
            t0 = time.perf_counter()
            shrink(grey, size, settings[key].detect_two_step)
            shrink_ms[key].append((time.perf_counter() - t0) * 1000)
        regions = [region] if region is None else [
            (region[0] + dx, region[1] + dy, region[2], region[3]) for dx, dy in REGISTRATION_JITTER]
        for r in regions:
            for key in order:
                t0 = time.perf_counter()
                obs = read_dice(img, r, settings[key])
                ms[key].append((time.perf_counter() - t0) * 1000)
                got[key].extend(outcomes(obs, truths))
    result: dict[str, Any] = {"frames": frames, "dice": len(got["one step"])}
    print(f"{name}: {frames} frames, {len(got['one step'])} dice")
    for key in settings:
        o = got[key]
        found = sum(x != "missed" for x in o) or 1
        rates = {k: round(100 * sum(x == k for x in o) / found, 2) for k in ("right", "unsure", "wrong")}
        med_shrink = round(statistics.median(shrink_ms[key]), 2)
        med_read = round(statistics.median(ms[key]), 2)
        print(f"  {key:9}  whole-frame shrink {med_shrink:6.2f} ms  read {med_read:6.2f} ms  found "
              f"{found}  right {rates['right']:6.2f}%  unsure {rates['unsure']:6.2f}%  conf-wrong {rates['wrong']:5.2f}%")
        result[key] = {"shrink_ms": med_shrink, "read_ms": med_read, "found": found, **rates}
    a, b = got["one step"], got["two steps"]
    diff = {
        "new_wrong": sum(x != "wrong" and y == "wrong" for x, y in zip(a, b, strict=True)),
        "no_longer_wrong": sum(x == "wrong" and y != "wrong" for x, y in zip(a, b, strict=True)),
        "new_right": sum(x != "right" and y == "right" for x, y in zip(a, b, strict=True)),
        "no_longer_right": sum(x == "right" and y != "right" for x, y in zip(a, b, strict=True)),
        "same_outcome": sum(x == y for x, y in zip(a, b, strict=True)),
    }
    print("  two steps against one: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in diff.items()))
    result["two_steps_vs_one"] = diff
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--colour-tray", type=int, default=150, help="rendered colour tray frames a size (0: none)")
    p.add_argument("--tray-sizes", default="1296x972,2304x1296", help="the colour tray's frame sizes")
    p.add_argument("--seed", type=int, default=COLOUR_TRAY_SEED,
                   help=f"the colour tray's first seed (default {COLOUR_TRAY_SEED}, vision_dice.py's)")
    p.add_argument("--table", type=int, default=60, help="synthetic table frames at 2304x1296 (0: none)")
    p.add_argument("--last-step", choices=("linear", "area"), default="linear",
                   help="the two-step shrink's last step (finder.TWO_STEP_LAST; default linear, as shipped)")
    args = p.parse_args(argv)
    finder.TWO_STEP_LAST = cv2.INTER_AREA if args.last_step == "area" else cv2.INTER_LINEAR
    cv2.setNumThreads(1)
    config = replace(DiceConfig(), kinds=("d6",))  # both scenes are read as a d6 roll
    result: dict[str, Any] = {"machine": "one thread, OMP_NUM_THREADS=1", "last_step": args.last_step, "seed": args.seed}
    if args.colour_tray:
        bg = tray_photo(DEFAULT_REAL_DIR.parent / "dice-polyhedral")
        for size_text in args.tray_sizes.split(","):
            w, h = (int(v) for v in size_text.lower().split("x"))
            k = w / 1296  # the same scene: dice as large a share of the view as at 1296x972
            items = ((n, img, None, truths) for n, _, img, truths in colour_tray_items(
                args.colour_tray, args.seed, size=(w, h), die_px=(22.0 * k, 90.0 * k), background=bg))
            result[f"colour_tray_{w}x{h}"] = scene(f"colour tray {w}x{h} (whole frame)", items, config)
    if args.table:
        items_t = ((n, img, region, truths) for n, img, region, truths in table_items(
            args.table, seed=40_000, random_conditions=True, size=(2304, 1296)))
        result["table_2304x1296"] = scene("synthetic table 2304x1296 (dice area, five offsets)", items_t, config)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
