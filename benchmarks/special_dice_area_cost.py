#!/usr/bin/env python3
"""What reading the kiosk's dice area costs, part by part, on the synthetic table.

Frames as ``benchmarks/special_dice_on_table.py`` throws them (2304x1296, block and scatter
dice in the board's middle). Timed frame by frame in one run, one thread, each pair of ways
alternately on the same pixels:

- the grey picture: the whole frame turned grey and the dice area cut from it, against the dice
  area cut first and turned grey (what the reader does);
- the finder's shrink of the enlarged dice area (``nets.shrink``: a side that is not a multiple
  of 4 padded first, so OpenCV averages whole 4x4 blocks) against one ``cv2.resize`` to the
  floor of a quarter (OpenCV's general area averaging);
- the whole read (``read_special_dice`` with the area and the registration).

Medians in milliseconds; the last line is one JSON object.

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/special_dice_area_cost.py --frames 80
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.synthetic.table as synthetic_table  # noqa: E402
from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea  # noqa: E402
from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice  # noqa: E402
from vision.special_dice.nets import DET_SCALE, shrink, to_grey  # noqa: E402
from vision.special_dice.reader import enlargement  # noqa: E402

SIZE = (2304, 1296)


def _ms(f: object, *args: object) -> float:
    t0 = time.perf_counter()
    f(*args)  # type: ignore[operator]
    return 1000 * (time.perf_counter() - t0)


def grey_whole(image: np.ndarray, region: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = region
    return to_grey(image)[y:y + h, x:x + w]


def grey_area(image: np.ndarray, region: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = region
    return to_grey(np.ascontiguousarray(image[y:y + h, x:x + w]))


def resize_floor(big: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.resize(big, (big.shape[1] // DET_SCALE, big.shape[0] // DET_SCALE),
                                 interpolation=cv2.INTER_AREA))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=80)
    ap.add_argument("--seed", type=int, default=8_400_000)
    args = ap.parse_args()
    table = synthetic_table.SyntheticTable(camera=synthetic_table.default_camera(*SIZE))
    area = DiceArea.named(BOARD_CENTRE)
    config = SpecialDiceConfig()
    times: dict[str, list[float]] = {k: [] for k in ("grey_whole", "grey_area", "resize_floor",
                                                     "shrink_padded", "read")}
    for i in range(args.frames):
        seed = args.seed + i
        rng = np.random.default_rng(seed)
        kind = "block" if i % 2 == 0 else "scatter"
        faces = [int(rng.integers(1, 7 if kind == "block" else 9)) for _ in range(int(rng.integers(1, 4)))]
        frame = table.render({}, seed=seed, special=[(kind, f) for f in faces])
        h = frame.truth.homography
        region = area.region(h, SIZE)
        assert region is not None
        image = frame.image
        times["grey_whole"].append(_ms(grey_whole, image, region))
        times["grey_area"].append(_ms(grey_area, image, region))
        scale = enlargement(h, region, config)
        part = grey_area(image, region)
        big = cv2.resize(part, (round(part.shape[1] * scale), round(part.shape[0] * scale)),
                         interpolation=cv2.INTER_LINEAR)
        times["resize_floor"].append(_ms(resize_floor, big))
        times["shrink_padded"].append(_ms(shrink, big))
        if i == 0:
            read_special_dice(image, (kind,), Orientation(h), region)  # the networks loaded
        times["read"].append(_ms(read_special_dice, image, (kind,), Orientation(h), region))
    figures: dict[str, object] = {"machine": platform.machine(), "frames": args.frames, "seed": args.seed}
    for key, values in times.items():
        figures[f"{key}_ms"] = round(statistics.median(values), 3)
    figures["read_p90_ms"] = round(float(np.percentile(times["read"], 90)), 2)
    print(f"grey: whole frame then cut {figures['grey_whole_ms']} ms, cut then grey {figures['grey_area_ms']} ms")
    print(f"finder's shrink of the enlarged area: cv2.resize to the floor {figures['resize_floor_ms']} ms, "
          f"padded to whole blocks {figures['shrink_padded_ms']} ms")
    print(f"the whole read: {figures['read_ms']} ms median, {figures['read_p90_ms']} ms at the 90th percentile")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
