#!/usr/bin/env python3
"""The table's learning, measured on real photos split by source (``vision.dice.tune``).

A *source* is one family of real photos taken the same way (one camera, one set of dice, one
place), standing in for one table: Rune55's numbered grey photos (``00001_jpg``...), Rune55's
``IMG_2019...`` photos (another public set Roboflow re-used), and the dice-colour-epanemu colour
photos (``dice_N``: many colours and places, so the hardest stand-in for one table). Only the
parts of the split by source photo that no network was trained on are used: ``eval`` (never
used for anything) and ``calib`` (only chose the read thresholds).

Each source photo is one roll (Rune55's augmented copies of a photo count as that one roll, seen
again). Rolls are taken in name order; the first N are the table's confirmed
rolls: every labelled d6 the reader finds in them is stored as the kiosk stores it (its crop at
the reader's box, the value a person confirmed and the value shown), and the table's
adaptation is fitted on them exactly as "Tune dice to this table" does
(``tune.table_adaptation``: the memory of those d6 and the read threshold chosen on them).
The rest of that source's photos are read again through the reader's d6 pass with that
adaptation (a d6 the pass left unsure is read by ``tune.tuned_read`` on the same evidence, as
``reader._d6_pass`` does, a whole die near the frame's edge included: ``D6Evidence.tunable``,
``DiceConfig.tuned_edge_clear``; ``--near-edge off`` leaves those out, as before that rule), and
every labelled d6 of them counts: read right, unsure (or not found), read wrong; before and after.

    nice -n 15 env OMP_NUM_THREADS=1 python3 benchmarks/dice_tuning.py
    python3 benchmarks/dice_tuning.py --rolls 10,30,100 --parts eval,calib

The reader's evidence for every photo is cached (``--cache``, default under out/): delete it
after the reader changes. The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import dataset  # noqa: E402
from vision.dice.finder import iou  # noqa: E402
from vision.dice.types import DiceConfig, DieReading  # noqa: E402

SHARED = dataset.DEFAULT_REAL_DIR.parent
SOURCES: dict[str, tuple[str, str]] = {
    "rune55-numbered": ("dice-rune55", r"^\d+_jpg$"),
    "rune55-IMG2019": ("dice-rune55", r"^IMG_\d+_\d+_jpg$"),
    "epanemu-colour": ("dice-colour-epanemu", r"^dice_\d+_(jpg|JPG)$"),
}
READER = replace(DiceConfig(), kinds=("d6",))  # as the kiosk reads a roll of d6
FIELDS = ("source", "photo", "side", "truth", "found", "status", "value", "guess", "eligible", "share",
          "first", "head", "emb", "pips", "box", "first_value", "tunable")


def part_of(stem: str) -> str:
    """'eval', 'calib' or 'train' (``scripts/train_dice_reader.calib_of``'s rule)."""
    import hashlib

    if dataset.split_of(stem) == "eval":
        return "eval"
    return "calib" if int(hashlib.sha1(stem.encode()).hexdigest()[:8], 16) % 100 < 20 else "train"


def read_sources(parts: set[str], cache: Path | None, limit: int = 0) -> dict[str, np.ndarray]:
    """Per labelled d6 of every photo of the sources in ``parts``: what the reader's d6 pass saw
    (``FIELDS``), plus per photo its dice that match no label (``extra_*``)."""
    if cache is not None and cache.is_file():
        return dict(np.load(cache, allow_pickle=False))
    from vision.dice.reader import read_dice_evidence

    rows: dict[str, list[Any]] = {k: [] for k in FIELDS}
    extra: dict[str, list[Any]] = {"extra_photo": [], "extra_status": [], "extra_value": [],
                                   "extra_guess": [], "extra_x": []}
    photos: list[str] = []
    photo_source: list[str] = []
    photo_stem: list[str] = []
    t0 = time.perf_counter()
    for name, (folder, pattern) in SOURCES.items():
        items = [it for it in dataset.iter_folder(SHARED / folder, errata=True)
                 if re.match(pattern, it.stem) and part_of(it.stem) in parts]
        items.sort(key=lambda it: it.path.name)
        if limit:
            items = items[:limit]
        for item in items:
            bgr = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
            if bgr is None:
                continue
            obs, ev = read_dice_evidence(bgr, None, READER)
            pi = len(photos)
            photos.append(item.path.name)
            photo_source.append(name)
            photo_stem.append(item.stem)
            used: set[int] = set()
            for d in item.dice:
                best, bi = 0.0, -1
                for j, cand in enumerate(obs.dice):
                    v = iou(d.box, tuple(float(x) for x in cand.box))  # type: ignore[arg-type]
                    if v > best and j not in used:
                        best, bi = v, j
                found = best >= 0.4
                if found:
                    used.add(bi)
                r: DieReading | None = obs.dice[bi] if found else None
                e = ev[bi] if found else None
                rows["source"].append(name)
                rows["photo"].append(pi)
                rows["side"].append(float(max(d.box[2], d.box[3])))
                rows["truth"].append(int(d.value))
                rows["found"].append(found)
                rows["status"].append(r.status if r is not None else "missed")
                rows["value"].append(int(r.value or 0) if r is not None else 0)
                rows["guess"].append(int(r.guess or 0) if r is not None else 0)
                rows["eligible"].append(bool(e is not None and e.eligible))
                rows["share"].append(float(e.share) if e is not None else 0.0)
                rows["first"].append(e.first if e is not None else np.zeros(6, np.float32))
                rows["head"].append(e.head if e is not None else np.full(6, 1 / 6, np.float32))
                rows["emb"].append(e.embedding if e is not None else np.zeros(96, np.float32))
                rows["pips"].append(int(e.pips or 0) if e is not None else 0)
                rows["box"].append(np.array(e.box if e is not None else (0, 0, 0, 0), np.float32))
                rows["first_value"].append(int(e.first_value or 0) if e is not None else 0)
                rows["tunable"].append(bool(e is not None and e.tunable))
            for j, other in enumerate(obs.dice):
                if j not in used:
                    extra["extra_photo"].append(pi)
                    extra["extra_status"].append(other.status)
                    extra["extra_value"].append(int(other.value or 0))
                    extra["extra_guess"].append(int(other.guess or 0))
                    extra["extra_x"].append(float(other.box[0]))
        print(f"read {name}: {sum(s == name for s in photo_source)} photos "
              f"({time.perf_counter() - t0:.0f} s so far)", flush=True)
    out = {k: np.array(v) for k, v in rows.items()}
    out.update({k: np.array(v, dtype="<U8" if k == "extra_status" else np.float64 if k == "extra_x" else np.int64) for k, v in extra.items()})
    out["photos"] = np.array(photos)
    out["photo_source"] = np.array(photo_source)
    out["photo_stem"] = np.array(photo_stem)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cache, **out)  # type: ignore[arg-type]
    return out


def verdicts(d: dict[str, np.ndarray], table: Any, near_edge: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(value, sure) per labelled die as the reader's d6 pass decides, with ``table`` (a
    ``tune.Adaptation``, or None: as read): a die the pass left unsure is read with the table
    as ``reader._d6_pass`` does (``tune.tuned_read``): a die the pass may judge, and one near the
    frame's edge whose box keeps clear of it (``D6Evidence.tunable``; ``near_edge`` False: the
    former alone, as before ``DiceConfig.tuned_edge_clear``)."""
    from vision.dice.tune import tuned_probabilities, tuned_read

    sure = d["status"] == "read"
    vals = np.where(sure, d["value"], d["guess"]).astype(np.int64)
    if table is None or table.read_at is None:  # a table without a threshold changes nothing
        return vals, sure
    sure = sure.copy()
    may = d["tunable"] if near_edge and "tunable" in d else d["eligible"]
    which = np.flatnonzero(may & ~sure)
    q = tuned_probabilities(table, d["head"][which], d["emb"][which])
    for row, i in enumerate(which):
        vals[i], sure[i] = tuned_read(q[row], table, float(d["side"][i]), int(d["pips"][i]) or None)
    return vals, sure


CUT_MARGINS = (0.0, 0.03, 0.05, 0.075, 0.1, 0.15)
"""The shares of a die's side tried as ``DiceConfig.tuned_edge_clear`` on rendered cut dice."""


def cut_dice(count: int) -> dict[str, Any]:
    """How many rendered d6 cut by the frame's edge (``evaluate.edge_items``, ``count`` frames)
    that the reader leaves unsure and its d6 pass may not judge would be handed to a table's
    adaptation (``reader.tunable_near_edge``) at each margin of ``CUT_MARGINS``, with the
    silhouette test and without it: any of them is a die the table could read by luck."""
    from vision.dice.evaluate import edge_items
    from vision.dice.reader import read_dice_evidence, tunable_near_edge

    unsure = 0
    given = {m: 0 for m in CUT_MARGINS}
    box_only = {m: 0 for m in CUT_MARGINS}
    for _name, img, truths in edge_items(count):
        if not truths:
            continue
        obs, ev = read_dice_evidence(img, None, READER)
        for r, e in zip(obs.dice, ev, strict=True):
            if e is None or r.status != "unsure" or e.share < 0.5 or e.eligible:
                continue
            unsure += 1
            for m in CUT_MARGINS:
                cfg = replace(READER, tuned_edge_clear=m)
                given[m] += tunable_near_edge(img, e.box, cfg)
                box_only[m] += tunable_near_edge(img, e.box, replace(cfg, silhouette_cut=False))
    print(f"rendered cut d6 ({count} frames): {unsure} unsure near the edge; handed to the table at margin "
          + ", ".join(f"{m}: {given[m]} ({box_only[m]} without the silhouette test)" for m in CUT_MARGINS))
    return {"frames": count, "unsure": unsure, "given": {str(m): given[m] for m in CUT_MARGINS},
            "given_box_only": {str(m): box_only[m] for m in CUT_MARGINS}}


def figures(d: dict[str, np.ndarray], m: np.ndarray, vals: np.ndarray, sure: np.ndarray) -> dict[str, float]:
    ok = vals[m] == d["truth"][m]
    big = m & (d["side"] >= 32)
    okb = vals[big] == d["truth"][big]
    n = max(int(m.sum()), 1)
    nb = max(int(big.sum()), 1)
    return {"dice": int(m.sum()), "right": round(float((ok & sure[m]).sum() / n), 4),
            "wrong": round(float((~ok & sure[m]).sum() / n), 4),
            "unsure": round(float((~sure[m]).sum() / n), 4),
            "top": round(float(ok.sum() / n), 4),
            "dice_32": int(big.sum()), "right_32": round(float((okb & sure[big]).sum() / nb), 4),
            "wrong_32": round(float((~okb & sure[big]).sum() / nb), 4)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rolls", default="10,30,100", help="N: confirmed rolls to tune on")
    p.add_argument("--parts", default="eval,calib", help="parts of the split by source photo")
    p.add_argument("--cache", default=str(ROOT / "out" / "bench-cache" / "dice-evidence-{parts}.npz"))
    p.add_argument("--target", type=float, default=0.0, help="tune.READ_TARGET")
    p.add_argument("--limit", type=int, default=0, help="photos per source (0: all)")
    p.add_argument("--near-edge", choices=("on", "off"), default="on",
                   help="the tuned read of whole dice near the frame's edge (DiceConfig.tuned_edge_clear); "
                        "off: only the dice the d6 pass may judge, as before that rule")
    p.add_argument("--cut-dice", type=int, default=0,
                   help="also count the rendered d6 cut by the frame's edge (this many frames, e.g. 400) that "
                        "the near-edge rule would hand to the table at each margin (0: none)")
    args = p.parse_args()
    from vision.dice.tune import table_adaptation, unit

    parts = set(args.parts.split(","))
    cache = Path(args.cache.format(parts="-".join(sorted(parts)))) if args.cache else None
    if args.limit and cache is not None:
        cache = cache.with_name(cache.stem + f"-limit{args.limit}.npz")
    d = read_sources(parts, cache, args.limit)
    before_v, before_s = verdicts(d, None)
    result: dict[str, Any] = {"machine": platform.machine(), "parts": sorted(parts), "near_edge": args.near_edge,
                              "sources": {}}
    print(f"{'source':16} {'N':>4} {'stored d6':>9} {'rest':>5}  {'before right/wrong':>20}  "
          f"{'after right/wrong':>19}  {'>=32 px before -> after':>24}  read_at")
    for name in SOURCES:
        ph = np.flatnonzero(d["photo_source"] == name)
        # a roll is a source photo: Rune55's augmented copies of one photo are one roll
        stems = sorted(set(d["photo_stem"][ph].tolist()))
        by_rolls: dict[str, Any] = {}
        src = {"photos": int(len(ph)), "rolls": len(stems), "by_rolls": by_rolls}
        result["sources"][name] = src
        for n in (int(v) for v in args.rolls.split(",")):
            if n >= len(stems) - 5:
                print(f"{name:16} {n:>4}  too few rolls ({len(stems)} source photos)")
                by_rolls[str(n)] = None
                continue
            first = np.isin(d["photo"], ph[np.isin(d["photo_stem"][ph], stems[:n])])
            mine = d["source"] == name
            stored = mine & first & d["found"] & (d["emb"] != 0).any(axis=1)
            rest = mine & ~first
            truth = d["truth"][stored]
            logits = np.log(np.maximum(d["head"][stored], 1e-12)).astype(np.float64)
            roll_of = {s: i for i, s in enumerate(stems)}
            rolls = np.array([roll_of[d["photo_stem"][k]] for k in d["photo"][stored]], np.int64)
            ad = table_adaptation(logits, d["emb"][stored], truth, rolls, args.target,
                                  d["status"][stored] != "read")
            assert ad.memory is not None and np.allclose(ad.memory, unit(d["emb"][stored]))
            after_v, after_s = verdicts(d, ad, args.near_edge == "on")
            b = figures(d, rest, before_v, before_s)
            a = figures(d, rest, after_v, after_s)
            by_rolls[str(n)] = {"stored_d6": int(stored.sum()), "read_at": ad.read_at,
                                      "before": b, "after": a}
            print(f"{name:16} {n:>4} {int(stored.sum()):>9} {b['dice']:>5}  "
                  f"{b['right']:>9.1%} / {b['wrong']:<7.2%}  {a['right']:>8.1%} / {a['wrong']:<7.2%}  "
                  f"{b['right_32']:>7.1%} -> {a['right_32']:.1%} ({a['wrong_32']:.2%} wrong)  "
                  f"{'-' if ad.read_at is None else f'{ad.read_at:.4f}'}", flush=True)
    if args.cut_dice:
        result["cut_dice"] = cut_dice(args.cut_dice)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
