#!/usr/bin/env python3
""""Show me each face" for numbered dice, measured (``vision.dice.tune.NumberMemory``).

A table teaches the reader one die's faces (its photos kept exactly as ``companion dice learn``
keeps them: ``cli.keep_face``, the grey and the colour crop at the reader's box), tunes
(``tune.tune_folder``, as ``companion dice tune`` does) and reads other photos of dice of that
kind with the table's adaptation (as ``companion dice read --tuned DIR`` does). Each photo is
read as a roll of its own type, as the kiosk reads it; the die with the highest confidence is
scored (dice-polyhedral's boxes are not labelled): read right, unsure (cocked counted apart),
read wrong; before (no adaptation) and after.

- the dice-polyhedral photos are read in the tray without its outer 8% (``poly_photos``);
- real barrel d4 (dice-polyhedral, five dice A-E, one photo a face): teach one die, read the
  four others' 16 photos; five folds, one per taught die;
- real d8, d10, d12 (one die each, one photo a face): no other photo of any face exists, so no
  cross-photo figure is possible; the taught photos are read again only as a labelled sanity
  check (a memory holding the very photo it reads);
- rendered numbered dice (``vision.synthetic.dice``, the realistic look, 150-250 px, in a
  rendered dark speckled tray, as ``evaluate.tray_items``): one rendered die (one colour, font and ink) shows each face once and is
  taught; then ``--others`` rendered dice of random looks (``evaluate.tray_items``) are read,
  and the same taught die rendered again at new places and turns;
- ``--digest``: only a digest of the readings of rendered numbered dice with no adaptation
  loaded (run it with ``DICE_CODE_ROOT`` set to an older tree to show they are unchanged).

    nice -n 15 env OMP_NUM_THREADS=1 python3 benchmarks/dice_faces.py
    nice -n 15 env OMP_NUM_THREADS=1 python3 benchmarks/dice_faces.py --digest 100

The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(os.environ.get("DICE_CODE_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

from vision.dice import dataset  # noqa: E402
from vision.dice.evaluate import POLY_NAME, polyhedral_value, tray_region  # noqa: E402
from vision.dice.reader import read_dice  # noqa: E402
from vision.dice.types import DiceConfig  # noqa: E402

POLY = dataset.DEFAULT_REAL_DIR.parent / "dice-polyhedral"


READ_AT: float | None = None
"""``--read-at``: the number memories' read threshold instead of ``tune.NUMBER_READ_AT`` (a what-if)."""
WRONG: list[str] = []
"""What each wrong reading was (printed with ``--verbose``)."""


def verdict(obs: Any, kind: str, value: int) -> str:
    """'right', 'wrong', 'cocked', 'unsure' or 'missed' for the best-confidence die of a photo."""
    best = max(obs.dice, key=lambda d: d.confidence, default=None)
    if best is None:
        return "missed"
    if best.status == "read":
        if best.kind == kind and best.value == value:
            return "right"
        WRONG.append(f"{kind} showing {value} read {best.kind} {best.value} ({best.confidence:.3f})")
        return "wrong"
    return "cocked" if best.status == "cocked" else "unsure"


def tally(verdicts: list[str]) -> dict[str, int]:
    out = {k: 0 for k in ("right", "unsure", "cocked", "missed", "wrong")}
    for v in verdicts:
        out[v] += 1
    return out


def line(label: str, before: dict[str, int], after: dict[str, int]) -> str:
    def f(t: dict[str, int]) -> str:
        return (f"right {t['right']}, unsure {t['unsure']} (+{t['cocked']} cocked, {t['missed']} not found), "
                f"wrong {t['wrong']}")
    return f"  {label}: before {f(before)}  ->  after {f(after)}"


def teach(folder: Path, photos: list[tuple[np.ndarray, int]], kind: str,
          region: tuple[int, int, int, int] | None) -> tuple[Any, list[str]]:
    """Keep each photo as ``companion dice learn`` does, tune as ``companion dice tune`` does."""
    from vision.dice.cli import keep_face
    from vision.dice.tune import ExampleStore, TuneError, tune_folder

    store = ExampleStore(folder)
    notes = []
    for img, value in photos:
        try:
            keep_face(store, img, value, kind, region)
        except TuneError as exc:
            notes.append(f"face {value} not kept: {exc}")
    try:
        ad, report = tune_folder(folder, save=False)
    except TuneError as exc:
        return None, notes + [f"not tuned: {exc}"]
    if READ_AT is not None:
        ad = replace(ad, numbers={k: replace(m, read_at=READ_AT) for k, m in ad.numbers.items()})
    return ad, notes + list(report.numbered)


def poly_photos() -> tuple[list[tuple[str, int, str, int, np.ndarray]], tuple[int, int, int, int] | None]:
    """(name, sides, die, value, image) of the dice-polyhedral photos, and the region read: the
    tray (``evaluate.tray_region``) without its outer 8%, where the detector takes the tray's
    corner lip for a die in some photos (the ``--region`` a person would give
    ``companion dice learn``: a face photo must show exactly one die)."""
    bg = next(iter(sorted(POLY.glob("background*.jpg"))), None)
    region = None
    empty = cv2.imread(str(bg)) if bg is not None else None
    if empty is not None:
        x, y, w, h = tray_region(empty)
        region = (round(x + 0.08 * w), round(y + 0.08 * h), round(0.84 * w), round(0.84 * h))
    out = []
    for p in sorted(POLY.glob("D*.jpg")):
        m = re.match(POLY_NAME, p.name)
        if not m or int(m.group(1)) in (6, 100):
            continue
        sides = int(m.group(1))
        img = cv2.imread(str(p))
        if img is not None:
            out.append((p.name, sides, m.group(2), polyhedral_value(sides, int(m.group(3)), True), img))
    return out, region


def real(result: dict[str, Any]) -> None:
    photos, region = poly_photos()
    d4 = [p for p in photos if p[1] == 4]
    ms_plain: list[float] = []
    ms_tuned: list[float] = []
    ms_tune: list[float] = []

    def timed(img: np.ndarray, cfg: DiceConfig, into: list[float]) -> Any:
        t0 = time.perf_counter()
        obs = read_dice(img, region, cfg)
        into.append((time.perf_counter() - t0) * 1000)
        return obs

    plain = {p[0]: timed(p[4], DiceConfig(kinds=("d4",)), ms_plain) for p in d4}
    base = {name: verdict(obs, "d4", next(p[3] for p in d4 if p[0] == name)) for name, obs in plain.items()}
    what_if = {"right": 0, "unsure": 0, "wrong": 0}
    print("real dice-polyhedral barrel d4: teach one die's 4 faces, read the other four dice's 16 photos")
    folds: dict[str, Any] = {}
    all_b: list[str] = []
    all_a: list[str] = []
    for die in sorted({p[2] for p in d4}):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            ad, notes = teach(Path(tmp), [(p[4], p[3]) for p in d4 if p[2] == die], "d4", region)
            ms_tune.append((time.perf_counter() - t0) * 1000)
        others = [p for p in d4 if p[2] != die]
        for p in others if ad is not None and "d4" in ad.numbers else []:
            # what-if, not what the reader does: the memory's verdict on the dice read cocked
            best = max(plain[p[0]].dice, key=lambda d: d.confidence, default=None)
            if best is not None and best.status == "cocked":
                from vision.dice import tune
                from vision.dice.numbers import glyphs_and_features, values_of

                x, y, w, h = (float(v) for v in best.box)
                g, f = glyphs_and_features(tune.number_input(tune.colour_crops(p[4], [(x, y, w, h)])))
                v, sure, _ = ad.numbers["d4"].verdict(values_of(g[0], "d4"), f[0])
                what_if["unsure" if not sure else "right" if v == p[3] else "wrong"] += 1
        before = [base[p[0]] for p in others]
        cfg = DiceConfig(kinds=("d4",), d6_table=ad)
        after = [verdict(timed(p[4], cfg, ms_tuned), "d4", p[3]) for p in others] if ad else before
        all_b += before
        all_a += after
        print(line(f"taught d4 {die}", tally(before), tally(after)))
        for n in notes:
            print("    " + n)
        folds[die] = {"before": tally(before), "after": tally(after), "notes": notes}
    print(line("all five folds (80 readings)", tally(all_b), tally(all_a)))
    result["real_d4_folds"] = folds
    result["real_d4_total"] = {"before": tally(all_b), "after": tally(all_a)}
    print(f"  what-if (not what the reader does): the memory judging the {sum(what_if.values())} readings "
          f"left cocked: right {what_if['right']}, unsure {what_if['unsure']}, wrong {what_if['wrong']}")
    result["real_d4_cocked_what_if"] = what_if
    med = {k: float(np.median(v)) for k, v in (("read_ms", ms_plain), ("read_tuned_ms", ms_tuned),
                                                 ("teach_and_tune_ms", ms_tune)) if v}
    print(f"  medians: a 2592x1944 photo read {med.get('read_ms', 0):.0f} ms without, "
          f"{med.get('read_tuned_ms', 0):.0f} ms with the table's adaptation; keeping 4 face photos "
          f"and tuning {med.get('teach_and_tune_ms', 0):.0f} ms")
    result["real_d4_timing"] = med
    print("real d8, d10, d12: one die each, one photo a face: no cross-photo evaluation is possible.")
    print("sanity check only (NOT an evaluation: the memory holds the very photos it reads):")
    sanity: dict[str, Any] = {}
    for sides in (8, 10, 12):
        kind = f"d{sides}"
        own = [p for p in photos if p[1] == sides]
        with tempfile.TemporaryDirectory() as tmp:
            ad, notes = teach(Path(tmp), [(p[4], p[3]) for p in own], kind, region)
        before = [verdict(read_dice(p[4], region, DiceConfig(kinds=(kind,))), kind, p[3]) for p in own]
        cfg = DiceConfig(kinds=(kind,), d6_table=ad)
        after = [verdict(read_dice(p[4], region, cfg), kind, p[3]) for p in own] if ad else before
        print(line(f"{kind} read on its own taught photos", tally(before), tally(after)))
        for n in notes:
            print("    " + n)
        sanity[kind] = {"before": tally(before), "after": tally(after), "notes": notes}
    result["real_sanity_taught_photos"] = sanity


def rendered_die(kind: str, seed: int, faces: list[int], background: np.ndarray | None,
                 size: tuple[int, int] = (1296, 972)) -> list[tuple[np.ndarray, int]]:
    """One rendered die (its look fixed by ``seed``) showing each of ``faces`` once, each at a
    new place, turn and size in the tray, with the camera's effects."""
    from vision.synthetic import dice as synth

    w, h = size
    look = synth.random_spec(np.random.default_rng(seed), (w / 2, h / 2), 200.0, (kind,), realistic=True)
    out = []
    for i, v in enumerate(faces):
        rng = np.random.default_rng(seed * 1000 + i)
        bg = cv2.resize(background, size) if background is not None else synth.speckled_background(rng, w, h)
        centre = (float(rng.uniform(0.3, 0.7) * w), float(rng.uniform(0.3, 0.7) * h))
        spec = replace(look, value=v, centre=centre, size=float(rng.uniform(150, 250)),
                       angle=float(rng.uniform(0, 360)), glare=float(rng.uniform(0, 0.5)))
        img = bg.copy()
        synth.draw_die(img, spec, rng)
        out.append((synth.camera_effects(img, rng), v))
    return out


def rendered(result: dict[str, Any], others: int, kinds: list[str], verbose: bool = False) -> None:
    from vision.dice.evaluate import tray_items
    from vision.synthetic import dice as synth

    # a rendered dark speckled tray (evaluate.tray_items' own): on the dice-polyhedral tray's
    # photo the detector takes the tray's lip for a die in some frames, and "show me each face"
    # then rightly refuses the face (a face photo must show one die)
    background = None
    region = None
    print(f"rendered dice in a rendered tray: one rendered die's faces taught, {others} other "
          "rendered dice read, and the taught die rendered again at new places")
    out: dict[str, Any] = {}
    for kind in kinds:
        faces = synth.FACES[kind]
        with tempfile.TemporaryDirectory() as tmp:
            ad, notes = teach(Path(tmp), rendered_die(kind, 91, list(range(1, faces + 1)), background), kind, region)
        plain, tuned = DiceConfig(kinds=(kind,)), DiceConfig(kinds=(kind,), d6_table=ad)
        b, a = [], []
        for _, img, truths in tray_items(others, kind, seed=52_000, background=background):
            b.append(verdict(read_dice(img, region, plain), kind, truths[0].value))
            a.append(verdict(read_dice(img, region, tuned), kind, truths[0].value) if ad else b[-1])
        rng = np.random.default_rng(5)
        again = rendered_die(kind, 91, [int(v) for v in rng.integers(1, faces + 1, others)], background)
        # the same look, other places: seeds differ from the taught photos' (seed * 1000 + i)
        again = [(synth.camera_effects(img, np.random.default_rng(7 + i)), v) for i, (img, v) in enumerate(again)]
        sb = [verdict(read_dice(img, region, plain), kind, v) for img, v in again]
        sa = [verdict(read_dice(img, region, tuned), kind, v) for img, v in again] if ad else sb
        print(line(f"{kind} other rendered dice ({others})", tally(b), tally(a)))
        print(line(f"{kind} the taught die again ({others})", tally(sb), tally(sa)))
        if verbose:
            for w in WRONG:
                print("    wrong: " + w)
        WRONG.clear()
        for n in notes:
            print("    " + n)
        out[kind] = {"others": {"before": tally(b), "after": tally(a)},
                     "same_die": {"before": tally(sb), "after": tally(sa)}, "notes": notes}
    result["rendered"] = out


def digest(result: dict[str, Any], count: int) -> None:
    """A digest of every reading of ``count`` rendered numbered frames with no adaptation."""
    from vision.dice.evaluate import synthetic_items

    h = hashlib.sha256()
    n = 0
    for _, img, _ in synthetic_items(count, 2024, kinds=("d4", "d8", "d10", "d12", "d20")):
        for kinds in (("d4", "d6", "d8", "d10", "d12", "d20"), ("d20",), ("d12",)):
            obs = read_dice(img, None, DiceConfig(kinds=kinds))
            h.update(json.dumps(obs.to_dict(), sort_keys=True).encode())
            n += len(obs.dice)
    print(f"rendered numbered dice, {count} frames x 3 rolls, no adaptation: {n} readings, digest "
          f"{h.hexdigest()[:16]} (code: {ROOT})")
    result["digest"] = {"frames": count, "readings": n, "sha256_16": h.hexdigest()[:16], "code": str(ROOT)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--others", type=int, default=60, help="rendered dice read per kind")
    p.add_argument("--kinds", default="d4,d8,d10,d12,d20", help="rendered kinds")
    p.add_argument("--digest", type=int, default=0, help="only the no-adaptation digest of this many frames")
    p.add_argument("--no-real", action="store_true")
    p.add_argument("--read-at", type=float, default=None,
                   help="what-if: the number memories read at this adapted probability instead")
    p.add_argument("--verbose", action="store_true", help="say what each wrong reading of the renders was")
    args = p.parse_args()
    global READ_AT
    READ_AT = args.read_at
    cv2.setNumThreads(1)
    result: dict[str, Any] = {"machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
                              "python": platform.python_version(), "read_at": READ_AT}
    if args.digest:
        digest(result, args.digest)
    else:
        if not args.no_real and POLY.is_dir():
            real(result)
        if args.others:
            rendered(result, args.others, [k for k in args.kinds.split(",") if k], args.verbose)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
