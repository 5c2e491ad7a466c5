#!/usr/bin/env python3
"""What the reader does with each real numbered die of dice-polyhedral, network by network.

Each photo is read in the tray region as the kiosk reads a roll of that die's type (``kinds``
set to it; the D100 tens die is not a type the reader knows and is left out), and the most
confident reading is the die, as ``evaluate.evaluate_polyhedral`` scores it. For that die this
prints its box, its status and value (or guess), and at its final box: the classifier's type
(its most likely type over all types, and its share of the die's own type among the numbered
types), the type reader's type, the die type's face reader alone (its top value and
probability), the grey looks together (the final value probabilities the numbered pass is given,
over the die's type) and the number reader (``numbers.values_of``, its top value and
probability). Then a table per type: found, each network's top value right, read right, read
wrong. ``--sheet PNG`` saves the number reader's crops of the real dice with their captions,
``--tray-sheet PNG`` the same crops of rendered single dice in the same tray (``evaluate.tray_items``,
150-250 px in 1296x972, 8 of each type), to compare the two looks.

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/dice_poly_diagnosis.py \
        [--cache /tmp/x/poly_diag.npz] [--sheet real.png] [--tray-sheet tray.png]

About 2 minutes on one core (the 55 photos through the whole reader; ``--cache`` keeps what the
networks said and reads it back on the next run, if the file exists). The last line is one JSON
object with every figure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import reader  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR  # noqa: E402
from vision.dice.evaluate import (  # noqa: E402
    POLY_NAME,
    contact_sheet,
    polyhedral_value,
    tray_items,
    tray_photo,
    tray_region,
)
from vision.dice.models import CLASSIFIER_SIZE, TYPE_READER_KINDS, crop_square, face_margin  # noqa: E402
from vision.dice.numbers import NUMBER_MARGIN, NUMBER_SIZE, read_glyphs, values_of  # noqa: E402
from vision.dice.types import FACES, STATUS_READ, DiceConfig, DieReading  # noqa: E402

KINDS = ("d4", "d6", "d8", "d10", "d12")
"""The die types of dice-polyhedral the reader knows (the order of the table)."""

Box = tuple[float, float, float, float]


def top_of(p: np.ndarray) -> tuple[int, float]:
    """(value, probability) of the most likely value of value probabilities ``p`` (value 1 first)."""
    i = int(np.argmax(p))
    return i + 1, float(p[i])


def witnesses(bgr: np.ndarray, box: Box, kind: str) -> dict[str, Any]:
    """What each network says of the die at ``box`` (frame coordinates) of a ``kind`` die."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    crop = crop_square(grey, box, CLASSIFIER_SIZE)
    cls = reader.classify_crops([crop])[0]
    shares = {k: float(cls[reader._OF_KIND[k]].sum()) for k in FACES if k in reader._OF_KIND}
    numbered = {k: v for k, v in shares.items() if k in TYPE_READER_KINDS}
    own = numbered.get(kind, 0.0) / max(sum(numbered.values()), 1e-9) if kind in numbered else shares.get(kind, 0.0)
    types = reader.read_types([crop])[0]
    faces = reader.read_faces(kind, [crop_square(grey, box, CLASSIFIER_SIZE, face_margin(kind))])[0]
    number = values_of(read_glyphs(bgr, [box])[0], kind)
    return {"classifier_type": max(shares, key=lambda k: shares[k]), "classifier_own": own,
            "type_reader": TYPE_READER_KINDS[int(np.argmax(types))], "type_reader_p": float(types.max()),
            "type_reader_own": float(types[TYPE_READER_KINDS.index(kind)]) if kind in TYPE_READER_KINDS else 0.0,
            "face": faces.tolist(), "number": number.tolist()}


def read_photos(root: Path) -> list[dict[str, Any]]:
    """One row per photo of a known type: the reading scored and every network's answer."""
    bg = tray_photo(root)
    region = tray_region(bg) if bg is not None else None
    finals: list[tuple[DieReading | None, Box, np.ndarray]] = []
    plain = reader._numbered_pass

    def watched(bgr: np.ndarray, grey: np.ndarray, read: list[DieReading | None], final: list[tuple[Box, np.ndarray]],
                cfg: DiceConfig, *,
                glyphs: dict[int, np.ndarray] | None = None) -> list[DieReading | None]:
        finals.clear()
        finals.extend((r, b, p) for r, (b, p) in zip(read, final, strict=True))
        return plain(bgr, grey, read, final, cfg, glyphs=glyphs)

    reader._numbered_pass = watched
    rows: list[dict[str, Any]] = []
    try:
        for path in sorted(root.glob("D*.jpg")):
            m = re.match(POLY_NAME, path.name)
            img = cv2.imread(str(path))
            if not m or img is None or int(m.group(1)) == 100:
                continue
            sides, kind = int(m.group(1)), f"d{m.group(1)}"
            value = polyhedral_value(sides, int(m.group(3)))
            cfg = replace(DiceConfig(), kinds=(kind,))
            obs = reader.read_dice(img, region, cfg)
            row: dict[str, Any] = {"photo": path.name, "kind": kind, "die": f"{kind}{m.group(2)}", "value": value,
                                   "found": bool(obs.dice)}
            best = max(obs.dice, key=lambda d: d.confidence, default=None)
            if best is not None:
                row.update(box=[int(v) for v in best.box], status=best.status, read_kind=best.kind,
                           read_value=best.value, guess=best.guess, confidence=float(best.confidence))
                # the grey looks' final probabilities of that die (the numbered pass's input)
                mask = reader._OF_KIND[kind]
                near = [(b, p) for r, b, p in finals if r is not None and
                        abs(r.box[0] - best.box[0]) <= 2 and abs(r.box[1] - best.box[1]) <= 2]
                if near:
                    b, p = near[0]
                    row["grey"] = (p[mask] / max(float(p[mask].sum()), 1e-9)).tolist()
                # the networks at the reading's box (frame coordinates; the pass's boxes are the
                # region's), as the numbered pass cuts its crops
                bx, by, bw, bh = best.box
                row.update(witnesses(img, (float(bx), float(by), float(bw), float(bh)), kind))
            rows.append(row)
            print(describe(row), flush=True)
    finally:
        reader._numbered_pass = plain
    return rows


def describe(r: dict[str, Any]) -> str:
    """One line of a row."""
    if not r["found"]:
        return f"{r['photo']:18} true {r['kind']}:{r['value']:<3} not found"
    got = f"{r['read_kind']}:{r['read_value']}" if r["status"] == STATUS_READ else f"{r['status']} ({r['guess']})"
    face, fp = top_of(np.array(r["face"]))
    num, npr = top_of(np.array(r["number"]))
    grey = f"{top_of(np.array(r['grey']))[0]} {top_of(np.array(r['grey']))[1]:.2f}" if "grey" in r else "-"
    return (f"{r['photo']:18} true {r['kind']}:{r['value']:<3} box {r['box'][2]}x{r['box'][3]} {got:14} "
            f"cls {r['classifier_type']} own {r['classifier_own']:.2f}  type {r['type_reader']} {r['type_reader_p']:.2f}  "
            f"face {face} {fp:.2f}  grey {grey}  number {num} {npr:.2f}")


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per type: found, each network's top value right, the guess right, read right and wrong."""
    out: dict[str, Any] = {}
    for kind in (*KINDS, "all"):
        mine = [r for r in rows if kind in ("all", r["kind"])]
        found = [r for r in mine if r["found"]]

        def right(key: str, rs: list[dict[str, Any]] = found) -> int:
            return sum(key in r and top_of(np.array(r[key]))[0] == r["value"] for r in rs)

        out[kind] = {
            "dice": len(mine), "found": len(found),
            "type_reader_right": sum(r["type_reader"] == r["kind"] for r in found),
            "classifier_type_right": sum(r["classifier_type"] == r["kind"] for r in found),
            "face_top_right": right("face"), "grey_top_right": right("grey"), "number_top_right": right("number"),
            "guess_right": sum(r["guess"] == r["value"] and r["read_kind"] == r["kind"] for r in found),
            "read_right": sum(r["status"] == STATUS_READ and r["read_value"] == r["value"] and r["read_kind"] == r["kind"]
                              for r in found),
            "read_wrong": sum(r["status"] == STATUS_READ and (r["read_value"] != r["value"] or r["read_kind"] != r["kind"])
                              for r in found),
        }
    return out


def print_table(s: dict[str, Any]) -> None:
    print(f"{'type':5} {'dice':>4} {'found':>5} {'type rd':>7} {'cls type':>8} {'face top':>8} {'grey top':>8} "
          f"{'number top':>10} {'guess':>5} {'read':>4} {'wrong':>5}")
    for kind, d in s.items():
        print(f"{kind:5} {d['dice']:>4} {d['found']:>5} {d['type_reader_right']:>7} {d['classifier_type_right']:>8} "
              f"{d['face_top_right']:>8} {d['grey_top_right']:>8} {d['number_top_right']:>10} {d['guess_right']:>5} "
              f"{d['read_right']:>4} {d['read_wrong']:>5}")


def real_sheet(root: Path, rows: list[dict[str, Any]]) -> np.ndarray:
    """The number reader's crops of the real dice, captioned true value / number reader's top."""
    cells = []
    for r in rows:
        if not r["found"]:
            continue
        img = cv2.imread(str(root / r["photo"]))
        if img is None:
            continue
        bx, by, bw, bh = (float(v) for v in r["box"])
        box: Box = (bx, by, bw, bh)
        num, npr = top_of(np.array(r["number"]))
        cells.append((r["photo"], crop_square(img, box, NUMBER_SIZE, NUMBER_MARGIN),
                      f"{r['kind']}:{r['value']} n{num} {npr:.2f}"))
    return contact_sheet(cells)


def tray_sheet(root: Path, per_kind: int) -> np.ndarray:
    """The number reader's crops of rendered single dice in the same tray (``tray_items``)."""
    bg = tray_photo(root)
    cells = []
    for kind in ("d4", "d8", "d10", "d12", "d20"):
        for name, img, truths in tray_items(per_kind, kind, background=bg):
            t = truths[0]
            num, npr = top_of(values_of(read_glyphs(img, [t.box])[0], kind))
            cells.append((name, crop_square(img, t.box, NUMBER_SIZE, NUMBER_MARGIN), f"{kind}:{t.value} n{num} {npr:.2f}"))
    return contact_sheet(cells)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"))
    p.add_argument("--cache", default=None, help="a JSON file: the networks' answers, written once, then read back")
    p.add_argument("--sheet", default=None, metavar="PNG", help="save the real dice's number-reader crops")
    p.add_argument("--tray-sheet", default=None, metavar="PNG", help="save rendered tray dice's crops (8 a type)")
    args = p.parse_args()
    root = Path(args.poly)
    if not root.is_dir():
        print(json.dumps({"skipped": f"{root} not found (see ../shared/data/README.md)"}))
        return
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        rows = json.loads(cache.read_text())
        for r in rows:
            print(describe(r))
    else:
        rows = read_photos(root)
        if cache is not None:
            cache.write_text(json.dumps(rows))
    s = summary(rows)
    print_table(s)
    if args.sheet:
        cv2.imwrite(args.sheet, real_sheet(root, rows))
    if args.tray_sheet:
        cv2.imwrite(args.tray_sheet, tray_sheet(root, 8))
    print(json.dumps({"photos": str(root), "by_kind": s, "dice": rows}))


if __name__ == "__main__":
    main()
