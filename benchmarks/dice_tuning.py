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

``--digest N`` prints only a digest of every reading, with no adaptation, of the first N photos
of each source, each read as a d6 roll and as a roll of every type (run it with
``DICE_CODE_ROOT`` set to an older tree to show the readings are unchanged).

The reader's evidence for every photo is cached (``--cache``, default under out/, its name
holding a digest of the networks in the models folder, so a retrained network is never served
the old one's readings): delete it after the reader's code changes. The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(os.environ.get("DICE_CODE_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

from vision.dice import dataset  # noqa: E402
from vision.dice.finder import iou  # noqa: E402
from vision.dice.types import DiceConfig, DieReading  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"  # ../shared/data beside this checkout
SOURCES: dict[str, tuple[str, str]] = {
    "rune55-numbered": ("dice-rune55", r"^\d+_jpg$"),
    "rune55-IMG2019": ("dice-rune55", r"^IMG_\d+_\d+_jpg$"),
    "epanemu-colour": ("dice-colour-epanemu", r"^dice_\d+_(jpg|JPG)$"),
}
READER = replace(DiceConfig(), kinds=("d6",))  # as the kiosk reads a roll of d6
FIELDS = ("source", "photo", "side", "truth", "found", "status", "value", "guess", "confidence", "eligible",
          "share", "first", "head", "emb", "pips", "box", "first_value", "tunable", "colour", "colour80",
          "extra_confidence")


part_of = dataset.part_of
"""'eval', 'calib' or 'train' for a photo stem (the trainers' split)."""


def default_cache(parts: set[str]) -> Path:
    """The evidence cache of ``parts`` under out/, named after the networks that read it (a digest
    of the fingerprints of every network in ``vision.dice.models.MODEL_DIR``)."""
    from vision.dice.models import MODEL_DIR, fingerprint

    nets = sorted(p for p in MODEL_DIR.iterdir() if p.suffix in (".onnx", ".npz"))
    digest = hashlib.sha256("".join(f"{p.name}:{fingerprint(p)};" for p in nets).encode()).hexdigest()[:10]
    return ROOT / "out" / "bench-cache" / f"dice-evidence-{'-'.join(sorted(parts))}-{digest}.npz"


def read_sources(parts: set[str], cache: Path | None, limit: int = 0) -> dict[str, np.ndarray]:
    """Per labelled d6 of every photo of the sources in ``parts``: what the reader's d6 pass saw
    (``FIELDS``), plus per photo its dice that match no label (``extra_*``)."""
    if cache is not None and cache.is_file():
        kept = dict(np.load(cache, allow_pickle=False))
        if all(k in kept for k in FIELDS):
            return kept
        print(f"{cache} lacks some of {', '.join(FIELDS)}: reading again", flush=True)
    from vision.dice.d6colour import COLOUR_SIZE as D6C_SIZE
    from vision.dice.d6colour import colour_crops as d6_colour_crops
    from vision.dice.reader import read_dice_evidence
    from vision.dice.tune import COLOUR_SIZE, colour_crops

    rows: dict[str, list[Any]] = {k: [] for k in FIELDS if not k.startswith("extra_")}
    extra: dict[str, list[Any]] = {"extra_photo": [], "extra_status": [], "extra_value": [],
                                   "extra_guess": [], "extra_x": [], "extra_confidence": []}
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
            # each found die's colour crops: as the kiosk keeps it (``tune.colour_crops``) and as
            # the colour d6 reader cuts it from the frame (``d6colour.colour_crops``)
            cboxes = [tuple(float(v) for v in (e.box if e is not None else r.box)) for r, e in zip(obs.dice, ev, strict=True)]
            kept_c = colour_crops(bgr, cboxes)  # type: ignore[arg-type]
            seen_c = d6_colour_crops(bgr, cboxes).transpose(0, 2, 3, 1).astype(np.uint8)  # type: ignore[arg-type]
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
                rows["confidence"].append(float(r.confidence) if r is not None else 0.0)
                rows["eligible"].append(bool(e is not None and e.eligible))
                rows["share"].append(float(e.share) if e is not None else 0.0)
                rows["first"].append(e.first if e is not None else np.zeros(6, np.float32))
                rows["head"].append(e.head if e is not None else np.full(6, 1 / 6, np.float32))
                rows["emb"].append(e.embedding if e is not None else np.zeros(96, np.float32))
                rows["pips"].append(int(e.pips or 0) if e is not None else 0)
                rows["box"].append(np.array(e.box if e is not None else (0, 0, 0, 0), np.float32))
                rows["first_value"].append(int(e.first_value or 0) if e is not None else 0)
                rows["tunable"].append(bool(e is not None and e.tunable))
                rows["colour"].append(kept_c[bi] if found else np.zeros((COLOUR_SIZE, COLOUR_SIZE, 3), np.uint8))
                rows["colour80"].append(seen_c[bi] if found else np.zeros((D6C_SIZE, D6C_SIZE, 3), np.uint8))
            for j, other in enumerate(obs.dice):
                if j not in used:
                    extra["extra_photo"].append(pi)
                    extra["extra_status"].append(other.status)
                    extra["extra_value"].append(int(other.value or 0))
                    extra["extra_guess"].append(int(other.guess or 0))
                    extra["extra_x"].append(float(other.box[0]))
                    extra["extra_confidence"].append(float(other.confidence))
        print(f"read {name}: {sum(s == name for s in photo_source)} photos "
              f"({time.perf_counter() - t0:.0f} s so far)", flush=True)
    out = {k: np.array(v) for k, v in rows.items()}
    out.update({k: np.array(v, dtype="<U8" if k == "extra_status" else np.float64
                            if k in ("extra_x", "extra_confidence") else np.int64) for k, v in extra.items()})
    out["photos"] = np.array(photos)
    out["photo_source"] = np.array(photo_source)
    out["photo_stem"] = np.array(photo_stem)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cache, **out)  # type: ignore[arg-type]
    return out


def seen_colour(d: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(N x 6 colour d6 reader probabilities, N x F features) of every labelled die, from its
    crop as the reader cuts it from the photo (zeros for a die not found)."""
    from vision.dice.d6colour import colour_and_features

    x = np.ascontiguousarray(d["colour80"][..., ::-1].transpose(0, 3, 1, 2), np.float32)
    parts = [colour_and_features(x[i:i + 64]) for i in range(0, len(x), 64)]
    return np.concatenate([a for a, _ in parts]), np.concatenate([b for _, b in parts])


def verdicts(d: dict[str, np.ndarray], table: Any, near_edge: bool = True,
             seen: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(value, sure) per labelled die as the reader's d6 pass decides, with ``table`` (a
    ``tune.Adaptation``, or None: as read): a die the pass left unsure is read with the table
    as ``reader._d6_pass`` does (``tune.tuned_read``): a die the pass may judge, and one near the
    frame's edge whose box keeps clear of it (``D6Evidence.tunable``; ``near_edge`` False: the
    former alone, as before ``DiceConfig.tuned_edge_clear``). A die the grey memory leaves
    unsure is then judged with the table's colour memory (``tune.colour_read``, as
    ``reader._d6_pass`` does; ``seen``: the colour reader's answers of every die, ``seen_colour``)."""
    from vision.dice.tune import colour_read, tuned_probabilities, tuned_read

    sure = d["status"] == "read"
    vals = np.where(sure, d["value"], d["guess"]).astype(np.int64)
    col = getattr(table, "colour", None)
    in_colour = col is not None and col.usable() and seen is not None  # as the reader decides
    if table is None or (table.read_at is None and not in_colour):
        return vals, sure  # a table without a threshold changes nothing
    sure = sure.copy()
    may = d["tunable"] if near_edge and "tunable" in d else d["eligible"]
    if table.read_at is not None:
        which = np.flatnonzero(may & ~sure)
        q = tuned_probabilities(table, d["head"][which], d["emb"][which])
        for row, i in enumerate(which):
            vals[i], sure[i] = tuned_read(q[row], table, float(d["side"][i]), int(d["pips"][i]) or None)
    if in_colour and seen is not None:
        late = np.flatnonzero(may & ~sure)
        grey = tuned_probabilities(table, d["head"][late], d["emb"][late])
        v, ok, _ = colour_read(table, seen[0][late], seen[1][late], grey, d["side"][late].tolist(),
                               [int(x) or None for x in d["pips"][late]])
        vals[late] = np.where(ok, v, vals[late])
        sure[late] = ok
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
    fm = m & d["found"]
    okf = vals[fm] == d["truth"][fm]
    nf = max(int(fm.sum()), 1)
    return {"dice": int(m.sum()), "right": round(float((ok & sure[m]).sum() / n), 4),
            "found": int(fm.sum()), "right_found": round(float((okf & sure[fm]).sum() / nf), 4),
            "wrong_found": round(float((~okf & sure[fm]).sum() / nf), 4),
            "wrong": round(float((~ok & sure[m]).sum() / n), 4),
            "unsure": round(float((~sure[m]).sum() / n), 4),
            "top": round(float(ok.sum() / n), 4),
            "missed": int((m & ~d["found"]).sum()),
            "unsure_guess_right": int((m & d["found"] & ~sure & (vals == d["truth"]) & (d["status"] != "cocked")).sum()),
            "unsure_guess_wrong": int((m & d["found"] & ~sure & (vals != d["truth"]) & (d["status"] != "cocked")).sum()),
            "cocked": int((m & ~sure & (d["status"] == "cocked")).sum()),
            "read_right": int((ok & sure[m]).sum()), "read_wrong": int((~ok & sure[m]).sum()),
            "dice_32": int(big.sum()), "right_32": round(float((okb & sure[big]).sum() / nb), 4),
            "wrong_32": round(float((~okb & sure[big]).sum() / nb), 4)}


def sheet(d: dict[str, np.ndarray], m: np.ndarray, vals: np.ndarray, sure: np.ndarray, path: Path,
          most: int = 80) -> int:
    """A PNG sheet of the dice of ``m`` not read right (their kept colour crops, labelled: the
    truth, then 'u' and the guess for an unsure die or 'W' and the value for a wrong one, the box
    side, and 'T' for a die a table's adaptation may read), one per source photo, die and place."""
    bad = np.flatnonzero(m & d["found"] & ~(sure & (vals == d["truth"])))
    seen: set[tuple[str, int, int]] = set()
    tiles: list[np.ndarray] = []
    for i in bad:
        key = (str(d["photo_stem"][d["photo"][i]]), int(d["truth"][i]), int(d["box"][i][0] // 20))
        if key in seen or len(tiles) >= most:
            continue
        seen.add(key)
        t = cv2.resize(d["colour"][i], (128, 128))
        tag = f"W{vals[i]}" if sure[i] else f"u{vals[i]}"
        cv2.rectangle(t, (0, 0), (127, 18), (0, 0, 0), -1)
        cv2.putText(t, f"{d['truth'][i]} {tag} {int(d['side'][i])}{'T' if d['tunable'][i] else ''}", (2, 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 255) if sure[i] else (255, 255, 255), 1)
        tiles.append(t)
    if tiles:
        tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % 10)
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.vstack([np.hstack(tiles[r:r + 10]) for r in range(0, len(tiles), 10)]))
    return len(tiles)


def digest(count: int) -> dict[str, Any]:
    """A digest of every reading, with no adaptation, of the first ``count`` photos of each source."""
    from vision.dice.reader import read_dice

    h = hashlib.sha256()
    n = 0
    for folder, pattern in SOURCES.values():
        items = sorted((it for it in dataset.iter_folder(SHARED / folder, errata=True) if re.match(pattern, it.stem)),
                       key=lambda it: it.path.name)[:count]
        for item in items:
            bgr = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
            for cfg in (READER, DiceConfig()):
                obs = read_dice(bgr, None, cfg)
                h.update(item.path.name.encode() + json.dumps(obs.to_dict(), sort_keys=True).encode())
                n += len(obs.dice)
    print(f"real photos, the first {count} of each source x 2 rolls, no adaptation: {n} readings, digest "
          f"{h.hexdigest()[:16]} (code: {ROOT})")
    return {"photos": count, "readings": n, "sha256_16": h.hexdigest()[:16], "code": str(ROOT)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rolls", default="10,30,100", help="N: confirmed rolls to tune on")
    p.add_argument("--parts", default="eval,calib", help="parts of the split by source photo")
    p.add_argument("--cache", default=None, help="the evidence cache ({parts} for the parts; default under "
                   "out/bench-cache, named after the parts and the networks; '' for none)")
    p.add_argument("--target", type=float, default=0.0, help="tune.READ_TARGET")
    p.add_argument("--limit", type=int, default=0, help="photos per source (0: all)")
    p.add_argument("--near-edge", choices=("on", "off"), default="on",
                   help="the tuned read of whole dice near the frame's edge (DiceConfig.tuned_edge_clear); "
                        "off: only the dice the d6 pass may judge, as before that rule")
    p.add_argument("--colour", choices=("on", "off"), default="on",
                   help="the table's colour memory of its d6 (tune.ColourMemory); off: the grey memory alone")
    p.add_argument("--colour-min-right", type=int, default=None,
                   help="tune.COLOUR_MIN_RIGHT: right readings the folds must show before the colour memory reads "
                        "(a what-if below the shipped 30)")
    p.add_argument("--sheet", default="", help="write a PNG sheet of the rest's misses after tuning per source "
                   "and N here (a folder), e.g. out/dice-tuning-misses")
    p.add_argument("--cut-dice", type=int, default=0,
                   help="also count the rendered d6 cut by the frame's edge (this many frames, e.g. 400) that "
                        "the near-edge rule would hand to the table at each margin (0: none)")
    p.add_argument("--digest", type=int, default=0, help="only the no-adaptation digest of this many photos a source")
    args = p.parse_args()
    if args.digest:
        print(json.dumps({"machine": platform.machine(), "digest": digest(args.digest)}))
        return
    from vision.dice.tune import COLOUR_MIN_RIGHT, colour_memory, table_adaptation, unit

    parts = set(args.parts.split(","))
    cache = (default_cache(parts) if args.cache is None
             else Path(args.cache.format(parts="-".join(sorted(parts)))) if args.cache else None)
    if args.limit and cache is not None:
        cache = cache.with_name(cache.stem + f"-limit{args.limit}.npz")
    d = read_sources(parts, cache, args.limit)
    seen = seen_colour(d) if args.colour == "on" else None
    before_v, before_s = verdicts(d, None)
    result: dict[str, Any] = {"machine": platform.machine(), "parts": sorted(parts), "near_edge": args.near_edge,
                              "colour": args.colour, "sources": {}}
    print("right / wrong: of all labelled d6 of the rest of the source (a die not found counts as not read); "
          "found: of the dice the detector found")
    print(f"{'source':16} {'N':>4} {'stored d6':>9} {'rest':>5} {'found':>5}  {'before':>16}  "
          f"{'grey memory':>15}  {'after':>16}  {'found: before -> after':>31}  read_at (colour)")
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
            grey_v, grey_s = verdicts(d, ad, args.near_edge == "on")
            if seen is not None:  # the kiosk's colour crops of the stored dice, as tune_folder uses them
                ad = replace(ad, colour=colour_memory(d["colour"][stored], truth, rolls, logits, d["emb"][stored],
                                                      args.target, d["status"][stored] != "read",
                                                      args.colour_min_right or COLOUR_MIN_RIGHT))
            after_v, after_s = verdicts(d, ad, args.near_edge == "on", seen)
            b = figures(d, rest, before_v, before_s)
            g = figures(d, rest, grey_v, grey_s)
            a = figures(d, rest, after_v, after_s)
            col = ad.colour
            by_rolls[str(n)] = {"stored_d6": int(stored.sum()), "read_at": ad.read_at,
                                "colour_read_at": None if col is None else col.read_at,
                                "colour_rule": None if col is None else col.rule,
                                "before": b, "grey_memory": g, "after": a}
            cat = "-" if col is None or col.read_at is None else f"{col.read_at:.4f} {col.rule}"
            print(f"{name:16} {n:>4} {int(stored.sum()):>9} {b['dice']:>5} {b['found']:>5}  "
                  f"{b['right']:>7.1%} / {b['wrong']:<6.2%}  {g['right']:>6.1%} / {g['wrong']:<6.2%}  "
                  f"{a['right']:>7.1%} / {a['wrong']:<6.2%}  "
                  f"{b['right_found']:>6.1%} / {b['wrong_found']:.2%} -> {a['right_found']:.1%} / {a['wrong_found']:.2%}  "
                  f"{'-' if ad.read_at is None else f'{ad.read_at:.4f}'} ({cat})", flush=True)
            if args.sheet:
                sheet(d, rest, after_v, after_s, Path(args.sheet) / f"misses-{name}-{n}.png")
    print("the rest's labelled d6, before -> after: not found | read right | read wrong | unsure, guess right | "
          "unsure, guess wrong | cocked")
    for name, src in result["sources"].items():
        for n, r in src["by_rolls"].items():
            if r is not None:
                print(f"{name:16} {n:>4}  " + " | ".join(
                    f"{r['before'][k]} -> {r['after'][k]}" for k in
                    ("missed", "read_right", "read_wrong", "unsure_guess_right", "unsure_guess_wrong", "cocked")))
    if args.cut_dice:
        result["cut_dice"] = cut_dice(args.cut_dice)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
