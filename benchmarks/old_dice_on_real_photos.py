#!/usr/bin/env python3
"""Old block or scatter dice left out of a numbered roll, checked on real photos of d6 alone.

The kiosk leaves block and scatter dice of earlier rolls out of a numbered roll
(``vision.mixed_roll.leave_out``: the numbered reader's unread dice lying on a die the block and
scatter reader read). That reader learned from renders only. On a real table with no such dice
in the tray the rule must leave the roll as it is, so every photo of the shared real d6 sets
(its labelled d6 one roll) is read with the d6 reader, then with the block and scatter reader
(no board registration: its plain readers), and each reading goes through the kiosk's dice pad
as read and with the rule (``benchmarks/dice_at_table.kiosk_outcome``).

    python3 benchmarks/old_dice_on_real_photos.py            # the eval photos of both sets
    python3 benchmarks/old_dice_on_real_photos.py --part calib

Printed per set: the rolls' outcomes both ways, the dice the block and scatter reader reported
(read and unsure), and the d6 reader's dice the rule took out (and how many of them lay on a
labelled d6; the others are things the d6 reader took for dice). The last line is one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dice_at_table import OUTCOMES, kiosk_outcome, shares  # noqa: E402

from companion.core.dice import D6  # noqa: E402
from companion.kiosk.dice_flow import DiceSeen  # noqa: E402
from vision.dice import DiceConfig, read_dice  # noqa: E402
from vision.dice.dataset import part_of  # noqa: E402
from vision.mixed_roll import leave_out  # noqa: E402
from vision.special_dice import read_special_dice  # noqa: E402

SETS = {"dice-rune55": True, "dice-colour-epanemu": False}  # name -> copies named STEM.rf.HASH


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--part", choices=("eval", "calib"), default="eval",
                    help="which photos of the split by source photo (dataset.part_of)")
    args = ap.parse_args()
    config = replace(DiceConfig(), kinds=("d6",))
    figures: dict[str, object] = {"benchmark": "old_dice_on_real_photos", "part": args.part,
                                  "machine": platform.machine()}
    for name, copies in SETS.items():
        folder = args.data / name
        if not (folder / "images").is_dir():
            print(f"{folder}: not found (see ../shared/data/README.md); skipped")
            continue
        as_read: list[str] = []
        left_out: list[str] = []
        special = {"read": 0, "unsure": 0}
        taken = real = 0  # dice the rule took out, and of them those on a labelled d6
        for path in sorted((folder / "images").glob("*.jpg")):
            stem = path.stem
            if part_of(stem.split(".rf.")[0] if copies else stem) != args.part:
                continue
            labels = [line.split() for line in (folder / "labels" / f"{stem}.txt").read_text().split("\n")
                      if line.strip()]
            values = [int(line[0]) + 1 for line in labels]
            if not values:
                continue
            image = cv2.imread(str(path))
            if image is None:
                print(f"{path}: not an image; skipped")
                continue
            a = read_dice(image, None, config)
            b = read_special_dice(image, ("block", "scatter"))
            for sd in b.dice:
                special[sd.status] = special.get(sd.status, 0) + 1
            kept = leave_out(a, b)
            h, w = image.shape[:2]
            for d in a.dice:
                if d not in kept.dice:
                    taken += 1
                    cx, cy = (d.box[0] + d.box[2] / 2) / w, (d.box[1] + d.box[3] / 2) / h
                    real += any(abs(cx - float(x)) <= float(bw) / 2 and abs(cy - float(y)) <= float(bh) / 2
                                for _, x, y, bw, bh in labels)
            as_read.append(kiosk_outcome(DiceSeen.of(a), values, D6))
            left_out.append(kiosk_outcome(DiceSeen.of(kept), values, D6))
        rows = {"as read": shares(as_read), "left out": shares(left_out)}
        for way, s in rows.items():
            print(f"{name} [{args.part}], {way}: {s['rolls']} rolls: "
                  + ", ".join(f"{o} {100 * s[o]:.1f}%" for o in OUTCOMES))
        print(f"{name} [{args.part}]: the block and scatter reader reported {special['read']} dice read and "
              f"{special['unsure']} unsure; the rule took out {taken} of the d6 reader's unread dice, "
              f"{real} of them on a labelled d6")
        figures[name] = {**rows, "special_dice": special, "taken_out": taken, "taken_out_on_a_d6": real}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
