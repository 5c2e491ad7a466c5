#!/usr/bin/env python3
"""How sure the reader's two type networks are of the real numbered dice (dice-polyhedral).

The number reader names a value, not a type; in a roll that does not name the die's type it may
read a die only when the classifier alone and the type reader alone agree on a type
(``reader.type_agreed``, ``DiceConfig.number_any_roll_kinds`` and ``number_type_agree``). This
prints, per true type of the real single-die photos (read in the tray region, every type allowed),
every die of at least ``number_min_px`` the reader typed as a numbered type: the type it was
given, its status, the classifier's share of the numbered types on that type (turned as the first
look turns a crop), the type reader's, and how many would pass the agreement at 0.8 and 0.9
(and of those, how many the number reader would then read, and how many right). ``--tray N``
also reads N rendered single dice of each numbered type of 150-250 px in the photos' empty tray
(``evaluate.tray_items``, the scale of a real d20 in a tray), the die at the truth's box.

    nice -n 15 env OMP_NUM_THREADS=1 python3 benchmarks/dice_type_evidence.py [--tray 40]

About 30 s on one loaded core (and about 2 minutes more for --tray 40). The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import reader  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR  # noqa: E402
from vision.dice.evaluate import POLY_NAME, polyhedral_value, tray_items, tray_region  # noqa: E402
from vision.dice.finder import iou  # noqa: E402
from vision.dice.models import TYPE_READER_KINDS  # noqa: E402
from vision.dice.numbers import read_glyphs, values_of  # noqa: E402
from vision.dice.types import DiceConfig, DieReading  # noqa: E402

Seen = list[dict[str, Any]]


def _watch(seen: Seen) -> None:
    """Wrap the reader's numbered pass to note the type evidence of every numbered die."""
    plain = reader._numbered_pass

    def numbered_pass(bgr: np.ndarray, grey: np.ndarray, read: list[DieReading | None],
                      final: list[tuple[tuple[float, float, float, float], np.ndarray]],
                      cfg: DiceConfig, *,
                glyphs: dict[int, np.ndarray] | None = None) -> list[DieReading | None]:
        for r, (box, p) in zip(read, final, strict=True):
            if r is None or r.kind not in TYPE_READER_KINDS or max(box[2], box[3]) < cfg.number_min_px:
                continue
            classifier, type_reader = reader.type_witnesses(grey, box, r.kind, cfg)
            mask = reader._OF_KIND[r.kind]
            first = p[mask] / max(float(p[mask].sum()), 1e-9)
            number = values_of(read_glyphs(bgr, [box])[0], r.kind)
            value, sure, _ = reader.number_verdict(first, number, True, cfg)
            seen.append({"kind": r.kind, "status": r.status, "final_share": float(p[mask].sum()),
                         "classifier": classifier, "type_reader": type_reader,
                         "number_value": int(value), "number_sure": bool(sure), "box": [float(v) for v in box]})
        return plain(bgr, grey, read, final, cfg, glyphs=glyphs)

    reader._numbered_pass = numbered_pass


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"))
    p.add_argument("--tray", type=int, default=0, help="rendered dice of each numbered type in the tray (0: none)")
    args = p.parse_args()
    root = Path(args.poly)
    bg = cv2.imread(str(root / "background (1).jpg"))
    region = tray_region(bg) if bg is not None else None
    cfg = DiceConfig()
    seen: Seen = []
    _watch(seen)
    rows: list[dict[str, Any]] = []
    for path in sorted(root.glob("D*.jpg")):
        m = re.match(POLY_NAME, path.name)
        img = cv2.imread(str(path))
        if not m or img is None:
            continue
        sides = int(m.group(1))
        value = polyhedral_value(sides, int(m.group(3)), cfg.d10_zero_is_ten)
        start = len(seen)
        reader.read_dice(img, region, cfg)
        for s in seen[start:]:
            rows.append({**s, "photo": path.name, "true_kind": f"d{sides}", "true_value": value})
    result: dict[str, Any] = {"photos": str(root), "by_true_kind": report(rows, "real dice-polyhedral")}
    if args.tray:
        tray: list[dict[str, Any]] = []
        for kind in ("d8", "d10", "d12", "d20", "d4"):
            for _name, img, truths in tray_items(args.tray, kind, background=bg):
                start = len(seen)
                reader.read_dice(img, None, cfg)
                t = truths[0]
                near = [s for s in seen[start:] if iou(t.box, tuple(s["box"])) >= 0.3]
                if near:
                    best = max(near, key=lambda s: iou(t.box, tuple(s["box"])))
                    tray.append({**best, "true_kind": kind, "true_value": t.value})
        result["tray"] = report(tray, f"rendered in the tray, {args.tray} of each type")
    result["dice"] = rows
    print(json.dumps(result))


def report(rows: list[dict[str, Any]], title: str) -> dict[str, Any]:
    """Print and return the agreement figures of ``rows`` per true type."""
    by: dict[str, Any] = {}
    print(title)
    print(f"{'true':6} {'dice':>4}  {'typed':18} {'cocked':>6}  {'agree 0.9 (0.8)':>15}  "
          f"number reader would read, right: 0.9 (0.8)")
    for true in ("d4", "d6", "d8", "d10", "d12", "d20", "d100"):
        mine = [r for r in rows if r["true_kind"] == true]
        if not mine:
            continue
        out: dict[str, Any] = {"dice": len(mine), "typed": sorted({r["kind"] for r in mine}),
                               "cocked": sum(r["status"] == "cocked" for r in mine)}
        for t in (0.8, 0.9):
            agreed = [r for r in mine if r["classifier"] >= t and r["type_reader"] >= t and r["final_share"] >= 0.5]
            read = [r for r in agreed if r["status"] == "unsure" and r["number_sure"]]
            out[f"agree_{t}"] = {"dice": len(agreed), "kinds": sorted({r["kind"] for r in agreed}),
                                 "would_read": len(read),
                                 "right": sum(r["kind"] == true and r["number_value"] == r["true_value"] for r in read)}
        by[true] = out
        a9, a8 = out["agree_0.9"], out["agree_0.8"]
        print(f"{true:6} {out['dice']:>4}  {','.join(out['typed']):18} {out['cocked']:>6}  "
              f"{a9['dice']:>7} ({a8['dice']}) {','.join(a9['kinds']) or '-':>5}  "
              f"{a9['would_read']}, {a9['right']} right ({a8['would_read']}, {a8['right']} right)")
    return by


if __name__ == "__main__":
    main()
