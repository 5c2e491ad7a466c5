#!/usr/bin/env python3
"""The dice at the table, as a table feels them: per settled roll, what the kiosk did.

Each settled roll goes through the kiosk's own dice pad (``companion.kiosk.dice_flow.DiceEntry``,
a roll of as many d6 as the roll has) and ends one of four ways:

- **one press**: every die read and right; CONFIRM accepts it (needed no correction);
- **checked**: a die unsure (or a die too many or too few), but the values the pad starts the
  entry from (the readings and, for an unsure die, the reader's guess) are all right: the
  person steps through them without changing any;
- **corrected**: the person changed at least one value;
- **wrong as sure**: every die read, the count right, and a value wrong: the kiosk showed a wrong
  roll as sure (one careless press and the game moves on it).

Values are compared as a roll's multiset (the pad lists the dice left to right). Two tables:

- **synthetic**: the demo's synthetic table (``companion.kiosk.demo.DemoTable``: a board,
  pawns, 2d6 thrown on the board's middle, a hand over the table while they tumble) through
  the kiosk's settle path (``TableProcessor`` + ``vision.dice.DiceSettler``, told the roll is
  2d6) at ``--size``;
- **real photos**: every photo of the shared real sets that no network trained on
  (``benchmarks/dice_tuning.py`` reads and caches them; each photo is one roll of its labelled
  d6), per source, all photos and photos of 1-3 dice (a table's roll); and after the table's
  tuning on the first 30 rolls of the source (on the rest);
- **numbered dice** (``--poly``): each real dice-polyhedral photo of a d4, d8, d10 or d12 as a
  roll of one die of its type, as the kiosk asks for it, and ``--d20-renders`` plastic d20 in
  that tray as d20 rolls.

    nice -n 15 env OMP_NUM_THREADS=1 python3 benchmarks/dice_at_table.py --synthetic 60
    python3 benchmarks/dice_at_table.py --synthetic 0        # real photos only (cached)

The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from companion.core.dice import D6, STANDARD, DicePrompt, DieKind  # noqa: E402
from companion.kiosk.dice_flow import DiceEntry, DiceSeen  # noqa: E402
from hardware.buttons import CONFIRM  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR  # noqa: E402

OUTCOMES = ("one press", "checked", "corrected", "wrong as sure")


def kiosk_outcome(seen: DiceSeen, truth: Sequence[int], kind: DieKind | Sequence[DieKind] = D6) -> str:
    """What the kiosk's dice pad makes of a settled reading of a roll of ``truth``: dice of
    ``kind``, or of the kinds given die by die (a mixed roll, whose values count in order)."""
    kinds = (kind,) * len(truth) if isinstance(kind, DieKind) else tuple(kind)
    entry = DiceEntry(DicePrompt(0, kinds), "P", True, lambda v: v)  # type: ignore[arg-type, return-value]

    def right() -> bool:
        if len(set(kinds)) == 1:
            return sorted(entry.values) == sorted(truth)
        return list(entry.values) == list(truth)

    if entry.offer(seen):
        return "one press" if right() else "wrong as sure"
    entry.handle(CONFIRM)  # the person enters the roll: the pad starts from readings and guesses
    return "checked" if right() else "corrected"


def shares(outcomes: list[str]) -> dict[str, Any]:
    n = max(len(outcomes), 1)
    return {"rolls": len(outcomes), **{k: round(outcomes.count(k) / n, 4) for k in OUTCOMES}}


def line(name: str, s: dict[str, Any]) -> str:
    return (f"{name:34} {s['rolls']:>5}  " + "  ".join(f"{s[k]:>8.1%}" for k in OUTCOMES))


def synthetic(rolls: int, size: tuple[int, int], seed: int) -> tuple[dict[str, Any], float]:
    from companion.kiosk.demo import DemoTable, demo_processor

    names = ["Ann", "Ben"]
    table = DemoTable(names, size, seed)
    processor, _ = demo_processor(table, size)
    processor.expect_dice((6, 6))
    # the board is registered once (it places the dice area, as at the table); then only the
    # dice are read (the board reader's cost is not the dice's)
    for _ in range(10):
        frame = table.read()
        if frame is None:
            break
        processor(frame)
        if getattr(processor.dice, "region", None) is not None:
            break
    processor.board = None
    rng = random.Random(seed)
    outcomes: list[str] = []
    t0 = time.perf_counter()
    for _ in range(rolls):
        truth = (rng.randint(1, 6), rng.randint(1, 6))
        table.roll(truth)
        seen = None
        for _ in range(40):  # frames until the settler reports the roll
            frame = table.read()
            if frame is None:
                break
            reading = processor(frame)
            if reading.settled is not None:
                seen = reading.settled
                break
        outcomes.append("corrected" if seen is None else kiosk_outcome(seen, truth))
    return shares(outcomes), time.perf_counter() - t0


def real_rolls(d: dict[str, np.ndarray], vals: np.ndarray, sure: np.ndarray, photos: np.ndarray
               ) -> tuple[list[str], list[str]]:
    """Outcomes of the photos ``photos`` (all, and those of 1-3 labelled dice)."""
    every, small = [], []
    ex_photo = d["extra_photo"]
    for p in photos.tolist():
        m = np.flatnonzero(d["photo"] == p)
        if not len(m):
            continue
        truth = d["truth"][m].tolist()
        # (x, value shown or None, guess, the reader's confidence) of every die it reported (the
        # confidence is the reader's own, before a table's tuning: the pad uses it only to choose
        # which dice to start from when there are too many)
        dice = []
        for i in m:
            if d["found"][i]:
                dice.append((float(d["box"][i][0]), int(vals[i]) if sure[i] else None, int(vals[i]) or None,
                             float(d["confidence"][i])))
        for j in np.flatnonzero(ex_photo == p):
            v = int(d["extra_value"][j])
            dice.append((float(d["extra_x"][j]), v if d["extra_status"][j] == "read" else None,
                         int(d["extra_guess"][j]) or None, float(d["extra_confidence"][j])))
        dice.sort(key=lambda t: t[0])
        values = tuple(v for _, v, _, _ in dice)
        seen = DiceSeen(values, "ok" if values and None not in values else "unsure", "", 0.0,
                        tuple(g for _, _, g, _ in dice), confidences=tuple(c for _, _, _, c in dice))
        out = kiosk_outcome(seen, truth)
        every.append(out)
        if len(truth) <= 3:
            small.append(out)
    return every, small


NUMBERED_SEED = 830_000
"""The first seed of the plastic d20 rendered for ``numbered`` (a range no network or threshold was
chosen on)."""


def numbered(poly: str, renders: int, base: Any = None) -> dict[str, Any]:
    """Rolls of one numbered die as the kiosk asks for them (the roll names the die's type): each
    real dice-polyhedral photo of a d4, d8, d10 or d12 (tray region), and ``renders`` plastic d20
    alone in that tray (2592x1944 photos, ``evaluate.tray_items``), all read in the tray (the
    region the kiosk would read as its dice area), per type. ``base``: the
    reader's settings (a ``DiceConfig``; default the shipped ones), the roll's type set in it."""
    import re

    import cv2

    from vision.dice.evaluate import (
        POLY_NAME,
        polyhedral_value,
        tray_items,
        tray_photo,
        tray_region,
    )
    from vision.dice.reader import read_dice
    from vision.dice.types import DiceConfig

    cfg = base or DiceConfig()
    per: dict[str, list[str]] = {}
    bg = tray_photo(poly)
    if bg is not None:
        region = tray_region(bg)
        for path in sorted(Path(poly).glob("D*.jpg")):
            m = re.match(POLY_NAME, path.name)
            # the d6 there is a numbered (digit) d6, and the d100 is no type the reader knows
            if not m or int(m.group(1)) not in (4, 8, 10, 12):
                continue
            sides = int(m.group(1))
            kind = STANDARD[sides]
            obs = read_dice(cv2.imread(str(path)), region, replace(cfg, kinds=(kind.name,)))
            truth = [polyhedral_value(sides, int(m.group(3)))]
            per.setdefault(f"real {kind.name}", []).append(kiosk_outcome(DiceSeen.of(obs), truth, kind))
        for _, img, shown in tray_items(renders, "d20", seed=NUMBERED_SEED, size=(2592, 1944), die_px=(240, 340),
                                        background=bg, blur=(0.8, 2.2), look="plastic"):
            obs = read_dice(img, region, replace(cfg, kinds=("d20",)))
            per.setdefault("plastic d20 (rendered)", []).append(kiosk_outcome(DiceSeen.of(obs), [shown[0].value], STANDARD[20]))
    return {name: shares(outs) for name, outs in per.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--synthetic", type=int, default=60, help="rolls on the synthetic table (0: none)")
    p.add_argument("--size", default="1280x720", help="the synthetic camera's frame size")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--parts", default="eval,calib")
    p.add_argument("--tune-rolls", type=int, default=30)
    p.add_argument("--real", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"),
                   help="real single numbered dice read as rolls of their type ('': none)")
    p.add_argument("--d20-renders", type=int, default=40, help="plastic d20 rendered in that tray, as d20 rolls")
    p.add_argument("--face-reader-names-type", default=None, metavar="M,V,N",
                   help="the numbered rolls read with DiceConfig.face_reader_names_type set so (2,2,2: off)")
    args = p.parse_args()
    result: dict[str, Any] = {"machine": platform.machine()}
    print(f"{'table':34} {'rolls':>5}  " + "  ".join(f"{k:>8}" for k in ("1 press", "checked", "corrected", "wrong!")))
    if args.synthetic:
        w, h = (int(v) for v in args.size.split("x"))
        s, secs = synthetic(args.synthetic, (w, h), args.seed)
        result["synthetic"] = {**s, "size": args.size, "seconds": round(secs, 1)}
        print(line(f"synthetic table {args.size} (2d6)", s), flush=True)
    if args.real:
        import dice_tuning as dt  # benchmarks/dice_tuning.py

        from vision.dice.tune import table_adaptation

        parts = set(args.parts.split(","))
        d = dt.read_sources(parts, dt.default_cache(parts))
        before_v, before_s = dt.verdicts(d, None)
        result["real"] = {}
        for name in dt.SOURCES:
            ph = np.flatnonzero(d["photo_source"] == name)
            every, small = real_rolls(d, before_v, before_s, ph)
            r: dict[str, Any] = {"all": shares(every), "1-3 dice": shares(small)}
            print(line(f"{name} all photos", r["all"]))
            print(line(f"{name} photos of 1-3 dice", r["1-3 dice"]))
            stems = sorted(set(d["photo_stem"][ph].tolist()))
            n = args.tune_rolls
            if n < len(stems) - 5:
                first_ph = ph[np.isin(d["photo_stem"][ph], stems[:n])]
                rest_ph = ph[~np.isin(d["photo_stem"][ph], stems[:n])]
                stored = np.isin(d["photo"], first_ph) & d["found"] & (d["emb"] != 0).any(axis=1)
                roll_of = {s: i for i, s in enumerate(stems)}
                rolls = np.array([roll_of[d["photo_stem"][k]] for k in d["photo"][stored]], np.int64)
                ad = table_adaptation(np.log(np.maximum(d["head"][stored], 1e-12)), d["emb"][stored],
                                      d["truth"][stored], rolls, unsure=d["status"][stored] != "read")
                av, as_ = dt.verdicts(d, ad)
                b_every, b_small = real_rolls(d, before_v, before_s, rest_ph)
                a_every, a_small = real_rolls(d, av, as_, rest_ph)
                r["rest before tuning"] = {"all": shares(b_every), "1-3 dice": shares(b_small)}
                r[f"rest after tuning on {n} rolls"] = {"all": shares(a_every), "1-3 dice": shares(a_small)}
                print(line(f"  rest, before tuning on {n}", shares(b_every)))
                print(line(f"  rest, after tuning on {n}", shares(a_every)))
            result["real"][name] = r
    if args.poly and Path(args.poly).is_dir():
        from vision.dice.types import DiceConfig

        base = DiceConfig()
        if args.face_reader_names_type:
            m, v, n = (float(x) for x in args.face_reader_names_type.split(","))
            base = replace(base, face_reader_names_type=(m, v, n))
        result["numbered"] = numbered(args.poly, args.d20_renders, base)
        result["face_reader_names_type"] = list(base.face_reader_names_type)
        for name, sh in result["numbered"].items():
            print(line(f"{name} roll", sh))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
