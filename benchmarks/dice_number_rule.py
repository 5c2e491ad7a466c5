#!/usr/bin/env python3
"""Choosing ``DiceConfig.number_agree_grey`` (the number reader's low-confidence agreement with the
grey looks) by leaving one real type out.

The numbered pass (``reader._numbered_pass``) judges each die ``reader.number_asked`` picks; for
each of them this notes the grey looks' value probabilities (renormalised over the die's type,
and as they are), the number reader's, and the truth, on:

- the real dice-polyhedral photos, each read in the tray region as a roll of its own type (a
  photo's largest die judged is its die; any other is a false detection, wrong if read);
- tuning renders no benchmark reads (``--numbered`` frames of numbered dice at 1280x720 from
  seed 26,000, every type allowed; ``--tray`` single dice of each numbered type of 150-250 and of
  250-350 px in the dice-polyhedral tray from seed 95,000, each read as a roll of its own type).

Then, for each real type in turn held out, the rule (number reader at least A on the grey looks'
top value, the grey looks' own probability of it at least B) is chosen on the other real types and
the tuning renders: no die of those read wrong by it, the most read right, ties to the strictest
(highest B, then A); and measured on the held-out type once. Finally the rule chosen on all the
real types and the renders (what would ship; measure it with ``benchmarks/vision_dice.py``).

With ``--turns`` the evidence also keeps the number reader's answer at 16 evenly spaced turns
of each crop (``numbers.read_turned``), and the whole rule is chosen the same way: the turn
count (``DiceConfig.number_turns``, ``--turns-grid``), ``number_agree``, ``number_agree_grey``
(and ``number_alone`` with ``--alone``), scored by every read of the numbered pass, against the
shipped rule on the held-out type. A cache written without ``--turns`` has no turned answers.

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/dice_number_rule.py --cache /tmp/x/rule.json

About 6 minutes on one core (``--cache`` keeps the evidence and reads it back). The last line is
one JSON object with every figure.
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
    polyhedral_value,
    synthetic_items,
    tray_items,
    tray_photo,
    tray_region,
)
from vision.dice.finder import iou  # noqa: E402
from vision.dice.numbers import read_turned, values_of  # noqa: E402
from vision.dice.types import DiceConfig, DieReading  # noqa: E402

NUMBERED_TUNE_SEED = 26_000
"""The first seed of the tuning frames of numbered dice (the benchmark's are from 20,000)."""
TRAY_TUNE_SEED = 95_000
"""The first seed of the tuning single dice in the tray (the benchmark's are from 80,000)."""
A_GRID = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7)
B_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
PLASTIC_TUNE_SEED = 98_000
"""The first seed of the tuning single dice in the plastic look (``--plastic``; the number
reader's training renders include that look, from other seeds)."""
TRAY_PX = ((150.0, 250.0), (250.0, 350.0))
"""The size ranges of the tuning dice in the tray (the renderer's die size in a 1296x972 frame)."""
REAL_TYPES = ("d8", "d10", "d12")
MOST_TURNS = 16
"""The evidence keeps the number reader's answer at this many turns of each crop; fewer evenly
spaced turns (a divisor) are a subset of them."""
TURNS_GRID: tuple[int, ...] = (1, 2, 4, 8, 16)
AGREE_GRID = (0.5, 0.6, 0.7, 0.8, 0.9)
ALONE_GRID: tuple[float, ...] = (2.0,)
"""``number_alone`` as chosen with ``--turns``: never (``--alone``: also 0.6-0.95)."""
SHIPPED = (1, 0.5, 2.0, 0.1, 0.5)
"""(``number_turns``, ``number_agree``, ``number_alone``, ``number_agree_grey``) as shipped."""
"""The real types the numbered pass asks about (a roll of d4 or d6 asks it nothing)."""

Box = tuple[float, float, float, float]
Asked = list[dict[str, Any]]


def watch(asked: Asked) -> Any:
    """Wrap the numbered pass to note what it is given for every die it judges; returns the original."""
    plain = reader._numbered_pass

    def numbered_pass(bgr: np.ndarray, grey: np.ndarray, read: list[DieReading | None],
                      final: list[tuple[Box, np.ndarray]], cfg: DiceConfig, *,
                glyphs: dict[int, np.ndarray] | None = None) -> list[DieReading | None]:
        for i in reader.number_asked(grey, read, final, cfg):
            r = read[i]
            if r is None or r.kind not in cfg.number_reader_kinds:
                continue
            box, p = final[i]
            raw = p[reader._OF_KIND[r.kind]]
            turned = values_of(read_turned(bgr, [box], MOST_TURNS)[:, 0], r.kind)
            asked.append({"kind": r.kind, "box": [float(v) for v in r.box], "raw": raw.tolist(),
                          "number": turned[0].tolist(), "turned": turned.tolist()})
        return plain(bgr, grey, read, final, cfg, glyphs=glyphs)

    reader._numbered_pass = numbered_pass
    return plain


def collect(poly: Path, numbered: int, tray: int, plastic: int = 0) -> Asked:
    """Every die the numbered pass judges, with its set and truth."""
    out: Asked = []
    asked: Asked = []
    plain = watch(asked)
    try:
        bg = tray_photo(poly)
        region = tray_region(bg) if bg is not None else None
        for path in sorted(poly.glob("D*.jpg")):
            m = re.match(POLY_NAME, path.name)
            img = cv2.imread(str(path))
            if not m or img is None or int(m.group(1)) == 100:
                continue
            kind = f"d{m.group(1)}"
            value = polyhedral_value(int(m.group(1)), int(m.group(3)))
            asked.clear()
            reader.read_dice(img, region, replace(DiceConfig(), kinds=(kind,)))
            out += [{**a, "set": f"real {kind}", "true_kind": kind, "true_value": value, "name": path.name} for a in asked]
        sets: list[tuple[str, Any, DiceConfig | None]] = [
            ("numbered renders", synthetic_items(numbered, seed=NUMBERED_TUNE_SEED, kinds=("d4", "d8", "d10", "d12", "d20"),
                                                 cocked_rate=0.0), None)]
        for low, high in TRAY_PX:
            for kind in ("d8", "d10", "d12", "d20"):
                sets.append((f"tray {kind} {low}-{high} px", tray_items(tray, kind, seed=TRAY_TUNE_SEED, background=bg,
                                                                        die_px=(low, high)),
                             replace(DiceConfig(), kinds=(kind,))))
                if plastic:
                    sets.append((f"plastic {kind} {low}-{high} px",
                                 tray_items(plastic, kind, seed=PLASTIC_TUNE_SEED, background=bg, die_px=(low, high),
                                            look="plastic"),
                                 replace(DiceConfig(), kinds=(kind,))))
        for label, items, cfg in sets:
            for name, img, truths in items:
                asked.clear()
                reader.read_dice(img, None, cfg or DiceConfig())
                for a in asked:
                    best = max(truths, key=lambda t: iou(t.box, tuple(a["box"])), default=None)
                    if best is None or iou(best.box, tuple(a["box"])) < 0.3:
                        continue
                    out.append({**a, "set": label, "true_kind": best.kind, "true_value": best.value, "name": name})
            print(label, sum(o["set"] == label for o in out), "dice judged", flush=True)
    finally:
        reader._numbered_pass = plain
    return out


def one_die_a_photo(dice: Asked) -> Asked:
    """``dice`` with every real photo's judged dice but its largest (the photo's one die; the
    others are false detections, e.g. the tray's lip) given the true type "none": read, they
    count as wrong."""
    largest: dict[str, float] = {}
    for d in dice:
        if d["set"].startswith("real"):
            largest[d["name"]] = max(largest.get(d["name"], 0.0), d["box"][2] * d["box"][3])
    return [d if not d["set"].startswith("real") or d["box"][2] * d["box"][3] >= largest[d["name"]]
            else {**d, "true_kind": "none"} for d in dice]


def new_reads(dice: Asked, a: float, b: float, cfg: DiceConfig) -> tuple[int, int]:
    """(right, wrong) reads the rule (A, B) adds to what ``cfg`` reads already."""
    right = wrong = 0
    for d in dice:
        raw, number = np.array(d["raw"]), np.array(d["number"])
        first = raw / max(float(raw.sum()), 1e-9)
        _, before, _ = reader.number_verdict(first, number, True, cfg, raw)
        value, after, _ = reader.number_verdict(first, number, True, replace(cfg, number_agree_grey=(a, b)), raw)
        if after and not before:
            ok = d["kind"] == d["true_kind"] and value == d["true_value"]
            right += ok
            wrong += not ok
    return right, wrong


def choose(dice: Asked, cfg: DiceConfig) -> tuple[float, float, int]:
    """The rule with no wrong read on ``dice`` and the most right, ties to the strictest."""
    best: tuple[int, float, float] = (-1, 2.0, 2.0)
    for b in B_GRID:
        for a in A_GRID:
            right, wrong = new_reads(dice, a, b, cfg)
            if wrong == 0 and (right, b, a) > best:
                best = (right, b, a)
    return best[2], best[1], best[0]


def rule_arrays(dice: Asked, turns: int) -> dict[str, np.ndarray]:
    """Per die, what the numbered pass's verdict (``reader.number_verdict``) looks at, the number
    reader's answer averaged over ``turns`` evenly spaced turns of the crop."""
    step = MOST_TURNS // turns
    top_first, top_number, conf, grey, ok_number = [], [], [], [], []
    for d in dice:
        raw = np.array(d["raw"])
        number = np.array(d["turned"])[::step].mean(axis=0)
        tf, tn = int(np.argmax(raw)), int(np.argmax(number))
        top_first.append(tf)
        top_number.append(tn)
        conf.append(float(number[tn]))
        grey.append(float(raw[tf]))
        right_kind = d["kind"] == d["true_kind"]
        ok_number.append(right_kind and tn + 1 == d["true_value"])
    return {"agree": np.array(top_first) == np.array(top_number), "conf": np.array(conf), "grey": np.array(grey),
            "ok_number": np.array(ok_number, bool)}


def rule_reads(arr: dict[str, np.ndarray], agree: float, alone: float, a: float, b: float) -> tuple[int, int]:
    """(right, wrong) reads of the numbered pass with the rule (``number_agree``, ``number_alone``,
    ``number_agree_grey`` = (a, b)) on the dice of ``arr`` (``rule_arrays``)."""
    by_number = (arr["agree"] & (arr["conf"] >= agree)) | (arr["conf"] >= alone) | (
        arr["agree"] & (arr["conf"] >= a) & (arr["grey"] >= b))
    # read through number_agree_grey or number_agree, the value is the shared top; alone, the number's
    return int((by_number & arr["ok_number"]).sum()), int((by_number & ~arr["ok_number"]).sum())


def choose_rule(dice: Asked) -> tuple[tuple[int, float, float, float, float], int]:
    """The whole rule (turns, number_agree, number_alone, A, B) with no wrong read on ``dice`` and the
    most right; ties to the fewest turns, then the strictest."""
    best: tuple[Any, ...] = (-1,)
    for turns in TURNS_GRID:
        arr = rule_arrays(dice, turns)
        for agree in AGREE_GRID:
            for alone in ALONE_GRID:
                for b in B_GRID:
                    for a in A_GRID:
                        right, wrong = rule_reads(arr, agree, alone, a, b)
                        key = (right, -turns, alone, agree, b, a)
                        if wrong == 0 and key > best:
                            best = key
    right, turns, alone, agree, b, a = best
    return (-turns, agree, alone, a, b), right


def turns_main(dice: Asked) -> None:
    """``--turns``: the whole rule, the turn count with it, chosen with one real type held out."""
    sets = sorted({d["set"] for d in dice})
    result: dict[str, Any] = {"judged": {s: sum(d["set"] == s for d in dice) for s in sets}, "held_out": {}}
    for turns in TURNS_GRID:
        top = {s: int(sum(rule_arrays([d for d in dice if d["set"] == s], turns)["ok_number"]))
               for s in sets if s.startswith("real")}
        print(f"number reader's top value right at {turns} turns (largest die of each photo and the rest):", top)
        result.setdefault("top_right", {})[turns] = top
    totals = {"shipped": [0, 0], "chosen": [0, 0]}
    for held in REAL_TYPES:
        tune = [d for d in dice if d["set"] != f"real {held}"]
        rule, tuned_right = choose_rule(tune)
        arr_t = rule_arrays([d for d in dice if d["set"] == f"real {held}"], rule[0])
        arr_s = rule_arrays([d for d in dice if d["set"] == f"real {held}"], SHIPPED[0])
        right, wrong = rule_reads(arr_t, *rule[1:])
        s_right, s_wrong = rule_reads(arr_s, *SHIPPED[1:])
        totals["chosen"][0] += right
        totals["chosen"][1] += wrong
        totals["shipped"][0] += s_right
        totals["shipped"][1] += s_wrong
        print(f"real {held} held out: chosen turns {rule[0]} agree {rule[1]} alone {rule[2]} A {rule[3]} B {rule[4]} "
              f"({tuned_right} read right on the rest, none wrong); on the real {held}: {right} right, {wrong} wrong "
              f"(shipped rule: {s_right} right, {s_wrong} wrong)")
        result["held_out"][held] = {"rule": list(rule), "tuning_right": tuned_right, "right": right, "wrong": wrong,
                                    "shipped_right": s_right, "shipped_wrong": s_wrong}
    rule, tuned_right = choose_rule(dice)
    per_set = {}
    for s in sets:
        sub = [d for d in dice if d["set"] == s]
        per_set[s] = {"chosen": rule_reads(rule_arrays(sub, rule[0]), *rule[1:]),
                      "shipped": rule_reads(rule_arrays(sub, SHIPPED[0]), *SHIPPED[1:])}
    print(f"held out in turn: chosen {totals['chosen']} (right, wrong), shipped {totals['shipped']}")
    print(f"chosen on everything: turns {rule[0]} agree {rule[1]} alone {rule[2]} A {rule[3]} B {rule[4]}; "
          f"(right, wrong) per set chosen / shipped {per_set}")
    result.update(held_out_total=totals, chosen=list(rule), chosen_right=tuned_right,
                  per_set={s: {k: list(v) for k, v in r.items()} for s, r in per_set.items()})
    print(json.dumps(result))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"))
    p.add_argument("--numbered", type=int, default=200, help="tuning frames of numbered dice")
    p.add_argument("--tray", type=int, default=40, help="tuning single dice of each numbered type in the tray")
    p.add_argument("--plastic", type=int, default=0,
                   help="tuning single dice of each numbered type in the plastic look (vision.synthetic.plastic) too")
    p.add_argument("--cache", default=None, help="a JSON file of the evidence: written once, then read back")
    p.add_argument("--turns", action="store_true",
                   help="choose the whole rule with the turn count (DiceConfig.number_turns, number_agree, "
                   "number_agree_grey) instead of number_agree_grey alone")
    p.add_argument("--turns-grid", default=None, metavar="N,N",
                   help="with --turns: the turn counts tried (default 1,2,4,8,16; each a divisor of 16)")
    p.add_argument("--alone", action="store_true",
                   help="with --turns: number_alone chosen too (0.6-0.95 or never; default never)")
    args = p.parse_args()
    poly = Path(args.poly)
    if not poly.is_dir():
        print(json.dumps({"skipped": f"{poly} not found (see ../shared/data/README.md)"}))
        return
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        dice = json.loads(cache.read_text())
    else:
        dice = collect(poly, args.numbered, args.tray, args.plastic)
        if cache is not None:
            cache.write_text(json.dumps(dice))
    dice = one_die_a_photo(dice)
    if args.turns:
        global TURNS_GRID, ALONE_GRID
        if args.turns_grid:
            TURNS_GRID = tuple(int(v) for v in args.turns_grid.split(","))
        if args.alone:
            ALONE_GRID = (0.6, 0.7, 0.8, 0.9, 0.95, 2.0)
        turns_main(dice)
        return
    cfg = replace(DiceConfig(), number_agree_grey=(2.0, 2.0))  # the reader without the rule
    sets = sorted({d["set"] for d in dice})
    print("dice judged by the numbered pass per set:", {s: sum(d["set"] == s for d in dice) for s in sets})
    result: dict[str, Any] = {"judged": {s: sum(d["set"] == s for d in dice) for s in sets}, "held_out": {}}
    total_right = total_wrong = 0
    for held in REAL_TYPES:
        tune = [d for d in dice if d["set"] != f"real {held}"]
        a, b, tuned_right = choose(tune, cfg)
        right, wrong = new_reads([d for d in dice if d["set"] == f"real {held}"], a, b, cfg)
        total_right += right
        total_wrong += wrong
        print(f"real {held} held out: chosen A {a} B {b} ({tuned_right} more read right on the rest, none wrong); "
              f"on the real {held}: {right} more read right, {wrong} wrong")
        result["held_out"][held] = {"a": a, "b": b, "tuning_right": tuned_right, "right": right, "wrong": wrong}
    a, b, tuned_right = choose(dice, cfg)
    per_set = {s: new_reads([d for d in dice if d["set"] == s], a, b, cfg) for s in sets}
    print(f"held out in turn: {total_right} more real dice read right, {total_wrong} wrong")
    print(f"chosen on everything: A {a} B {b}: more read right / wrong per set {per_set}")
    result.update(held_out_right=total_right, held_out_wrong=total_wrong, chosen={"a": a, "b": b},
                  chosen_per_set={s: {"right": r, "wrong": w} for s, (r, w) in per_set.items()})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
