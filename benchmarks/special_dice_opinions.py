#!/usr/bin/env python3
"""Second opinions on the block and scatter dice the upright reader reads: recorded on rendered
tuning frames, compared offline.

``record`` renders frames as the benchmark does (``render_scene(default_rng(seed), kinds=(kind,))``,
the board registered), reads each with the shipped reading path, and keeps for every reading
(a die matched to the truth as ``vision_special_dice._match`` matches it, or a reading where no
die lies: a phantom) the upright reader's class probabilities and, for a scatter die, its sector
masses on the board, as the reader judged them; the truth; and more opinions on the same box:
the plain block reader in its four views on the axis-aligned crop, the plain reader of both
kinds in four views (2 views are the first and third), its arrow carried onto the board (crop
turn 0), and the upright reader on six jittered crops (shifts of a tenth of a side, a tenth
smaller and larger) in its two views. Records go to ``--out`` (an npz); rendered frames are
cached under ``--cache`` so a second recording never renders again.

``choose`` compares combination rules on records: for each rule and threshold of the sweep,
the dice read right and wrong and the phantoms read, with the threshold chosen by the
project's rule (the lowest sweep step with at most 0.2% of the found dice wrong and no phantom
read, plus one step). Tuning seeds only (block 3,000,000 on, scatter 3,500,000 on).

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/special_dice_opinions.py record --kind block --frames 1000
    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/special_dice_opinions.py choose --kind block

``record --upright-reader PATH`` reads the frames with a trial upright reader (its own
candidates and boxes: the whole reading path as it would ship); ``--upright-reader2 PATH`` keeps a
second upright network's answers on the same crops (``up2``, ``jit2``), for rules that read with
both. Records are taken without the second opinion (``SpecialDiceConfig.second_opinion``): it is
the rule ``tta_x``. ``choose`` also tries two steps: a first rule at its own threshold, then a
second on the dice it left unsure (``TWO_STEPS``).

The last printed line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from vision_special_dice import BORDER_DEG, TUNE_SEED, _match  # noqa: E402

import vision.special_dice.reader as reader_module  # noqa: E402
from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice  # noqa: E402
from vision.special_dice.nets import (  # noqa: E402
    BLOCK_CLASS_VALUE,
    BLOCK_READER_PATH,
    NONE_CLASS,
    READER_PATH,
    SCATTER_CLASS,
    crop,
    load,
    reader_crop_size,
    to_grey,
)
from vision.special_dice.reader import Candidate  # noqa: E402
from vision.special_dice.types import SCATTER_FACES, STATUS_READ, SpecialDieReading  # noqa: E402
from vision.special_dice.upright import nadir, turn_deg  # noqa: E402
from vision.synthetic.special_dice import block_value, render_scene, scatter_value  # noqa: E402

JITTER: tuple[tuple[float, float, float], ...] = (
    (0.1, 0.0, 1.0), (-0.1, 0.0, 1.0), (0.0, 0.1, 1.0), (0.0, -0.1, 1.0), (0.0, 0.0, 0.9), (0.0, 0.0, 1.12),
)
"""Test-time crops of the upright reader: (shift right, shift down, in sides; side times this)."""

SWEEP = (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9998, 0.9999)
"""The benchmark's threshold sweep (``--tune``), carried on past 0.998 (a product of two
readers' answers is surer than either)."""

BLOCK_VALUES = tuple(BLOCK_CLASS_VALUE[i] for i in sorted(BLOCK_CLASS_VALUE))  # 1, 2, 3, 5, 6
BLOCK_IDX = sorted(BLOCK_CLASS_VALUE)


def _frame(kind: str, seed: int, cache: Path) -> tuple[np.ndarray, object]:
    path = cache / f"{kind}_{seed}.npy"
    tpath = cache / f"{kind}_{seed}.pkl"
    if path.exists() and tpath.exists():
        return np.load(path), pickle.loads(tpath.read_bytes())
    img, truth = render_scene(np.random.default_rng(seed), kinds=(kind,))
    np.save(path, img)
    tpath.write_bytes(pickle.dumps(truth))
    return img, truth


def _opinion_vector(kind: str, cls: np.ndarray, masses: np.ndarray | None) -> np.ndarray:
    """A reader's answer on one die as the judge weighs it for a roll of ``kind`` only: ("not a
    die", then each value's probability), the other kind's share taken out (block: the five
    symbols; scatter: the eight directions, scatter probability times sector mass)."""
    none = float(cls[NONE_CLASS])
    if kind == "block":
        v = np.concatenate([[none], cls[BLOCK_IDX]])
    else:
        assert masses is not None
        v = np.concatenate([[none], float(cls[SCATTER_CLASS]) * masses])
    return np.asarray(v / max(1e-9, v.sum()), np.float64)


def record(kind: str, frames: int, first: int, cache: Path, out: Path, second: Path | None = None) -> None:
    """Record the readings of ``frames`` tuning frames (see the module's doc). ``second``: a
    second upright reader network, whose answers on the reading's own crop and on the jittered
    crops are kept beside the upright reader's (``up2``, ``up2_m``, ``jit2``, ``jit2_m``)."""
    # the second opinion is left out: it is one of the rules ``choose`` compares (``tta_x``)
    config = SpecialDiceConfig(second_opinion=())
    raw_view_sums = reader_module._view_sums
    runs = [0]

    def counting(crops: list[np.ndarray], plan: object, path: Path = READER_PATH) -> tuple[np.ndarray, np.ndarray]:
        runs[0] += len(crops) * len(plan)  # type: ignore[arg-type]
        return raw_view_sums(crops, plan, path)  # type: ignore[arg-type]

    judged: list[tuple[Candidate, np.ndarray, np.ndarray, float, SpecialDieReading]] = []
    raw_judge = reader_module._Judge.__call__

    def judge(self: reader_module._Judge, c: Candidate, p: np.ndarray, a: np.ndarray, turn: float
              ) -> SpecialDieReading:
        r = raw_judge(self, c, p, a, turn)
        judged.append((c, p.copy(), a.copy(), turn, r))
        return r

    rows: dict[str, list[object]] = {k: [] for k in (
        "seed", "truth", "status", "conf", "guess", "cut", "other", "clear", "up", "block4", "plain4",
        "plain2_m", "plain4_m", "jit", "up_m", "jit_m", "box") + (("up2", "up2_m", "jit2", "jit2_m") if second else ())}
    per_frame: dict[str, list[int]] = {"seed": [], "dice": [], "missed": [], "runs": []}
    size_up = reader_crop_size(load(reader_module.upright_reader))
    size_plain = reader_crop_size(load(READER_PATH))
    size_block = reader_crop_size(load(BLOCK_READER_PATH))
    t_start = time.time()
    for i in range(frames):
        seed = first + i
        img, truth = _frame(kind, seed, cache)
        orientation = Orientation(truth.board_to_frame)  # type: ignore[attr-defined]
        judged.clear()
        runs[0] = 0
        reader_module._view_sums = counting
        reader_module._Judge.__call__ = judge  # type: ignore[method-assign]  # noqa: B010
        try:
            obs = read_special_dice(img, (kind,), orientation, config=config)
        finally:
            reader_module._view_sums = raw_view_sums
            reader_module._Judge.__call__ = raw_judge  # type: ignore[method-assign]
        dice = truth.dice  # type: ignore[attr-defined]
        centres = [(d.centre[0], d.centre[1], float(max(d.box[2], d.box[3]))) for d in dice]
        m = _match(centres, [r.box for r in obs.dice])
        per_frame["seed"].append(seed)
        per_frame["dice"].append(len(dice))
        per_frame["missed"].append(len(dice) - len(m))
        per_frame["runs"].append(runs[0])
        want_of = {j: ti for ti, j in m.items()}
        by_id = {id(r): (c, p, a, t) for c, p, a, t, r in judged}
        grey = to_grey(img)
        H, W = grey.shape[:2]
        n = nadir(truth.board_to_frame, img.shape[1], img.shape[0])  # type: ignore[attr-defined]
        for j, r in enumerate(obs.dice):
            c, p, a, t = by_id[id(r)]
            cx, cy, side, _ = c
            if j in want_of:
                d = dice[want_of[j]]
                want = block_value(d.value) if kind == "block" else scatter_value(d.value)
                clear = kind == "scatter" and d.bearing_deg is not None and \
                    abs((d.bearing_deg + 22.5) % 45.0 - 22.5) < 22.5 - BORDER_DEG
            else:
                want, clear = -1, False
            half = side / 2
            cut = (cx - half < config.edge_px or cy - half < config.edge_px or cx + half > W - config.edge_px
                   or cy + half > H - config.edge_px)
            block_all = float(p[BLOCK_IDX].sum())
            other = (float(p[SCATTER_CLASS]) > block_all) != (kind == "scatter")
            c0 = crop(grey, (cx, cy), side, size_plain, 0.0)
            plain_cls, plain_ang = [], []
            for k in range(4):
                pc, pa = raw_view_sums([c0], ((k, False),), READER_PATH)
                plain_cls.append(pc[0])
                plain_ang.append(pa[0])
            cb = c0 if size_block == size_plain else crop(grey, (cx, cy), side, size_block, 0.0)
            block_cls = [raw_view_sums([cb], ((k, False),), BLOCK_READER_PATH)[0][0] for k in range(4)] \
                if kind == "block" else [np.zeros(7)] * 4
            jit_cls: list[np.ndarray] = []
            jit_m: list[np.ndarray] = []
            jit2_cls: list[np.ndarray] = []
            jit2_m: list[np.ndarray] = []
            for dx, dy, f in JITTER:
                at = (cx + dx * side, cy + dy * side)
                tj = turn_deg(n, at)
                cj = crop(grey, at, side * f, size_up, tj)
                nets = [(reader_module.upright_reader, jit_cls, jit_m)] + ([(second, jit2_cls, jit2_m)] if second else [])
                for net_path, to_cls, to_m in nets:
                    jc, ja = raw_view_sums([cj], reader_module.UPRIGHT_VIEWS[2], net_path)
                    to_cls.append(jc[0] / 2)
                    to_m.append(reader_module.sector_masses(ja[0] / 2, at, orientation, tj)[0] if kind == "scatter"
                                else np.zeros(8))
            if kind == "scatter":
                up_m = reader_module.sector_masses(a, (cx, cy), orientation, t)[0]
                p2 = reader_module.sector_masses((plain_ang[0] + plain_ang[2]) / 2, (cx, cy), orientation, 0.0)[0]
                p4 = reader_module.sector_masses(np.mean(plain_ang, axis=0), (cx, cy), orientation, 0.0)[0]
            else:
                up_m = p2 = p4 = np.zeros(8)
            row = {"seed": seed, "truth": want, "status": int(r.status == STATUS_READ), "conf": r.confidence,
                   "guess": r.guess if r.guess is not None else -1, "cut": int(cut), "other": int(other),
                   "clear": int(clear), "up": p, "block4": np.stack(block_cls), "plain4": np.stack(plain_cls),
                   "plain2_m": p2, "plain4_m": p4, "jit": np.stack(jit_cls), "up_m": up_m, "jit_m": np.stack(jit_m)}
            row["box"] = np.array([cx, cy, side, t])
            if second:
                c2 = crop(grey, (cx, cy), side, size_up, t)
                p2c, p2a = raw_view_sums([c2], reader_module.UPRIGHT_VIEWS[2], second)
                row["up2"] = p2c[0] / 2
                row["up2_m"] = reader_module.sector_masses(p2a[0] / 2, (cx, cy), orientation, t)[0] \
                    if kind == "scatter" else np.zeros(8)
                row["jit2"], row["jit2_m"] = np.stack(jit2_cls), np.stack(jit2_m)
            for name, v in row.items():
                rows[name].append(v)
        if (i + 1) % 100 == 0:
            print(f"{kind}: {i + 1} frames, {len(rows['seed'])} readings, {time.time() - t_start:.0f} s", flush=True)
    arrays: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in rows.items()}
    arrays.update({f"frame_{k}": np.asarray(v) for k, v in per_frame.items()})
    np.savez(out, **arrays)  # type: ignore[arg-type]
    print(json.dumps({"benchmark": "special_dice_opinions_record", "kind": kind, "frames": frames, "first_seed": first,
                      "readings": len(rows["seed"]), "dice": int(sum(per_frame["dice"])),
                      "missed": int(sum(per_frame["missed"])), "out": str(out)}))


# ---- offline: combination rules ----------------------------------------------------------

Rule = Callable[[dict[str, np.ndarray], str], tuple[np.ndarray, np.ndarray]]
"""records, kind -> (confidence, value index into the opinion vector's values) per reading."""


def _vectors(rec: dict[str, np.ndarray], kind: str, cls_key: str, m_key: str | None) -> np.ndarray:
    cls = rec[cls_key]
    ms = rec[m_key] if m_key else [None] * len(cls)
    return np.stack([_opinion_vector(kind, c, m) for c, m in zip(cls, ms, strict=True)])


def _values(kind: str) -> np.ndarray:
    return np.asarray(BLOCK_VALUES if kind == "block" else SCATTER_FACES)


def opinions(rec: dict[str, np.ndarray], kind: str) -> dict[str, np.ndarray]:
    """Per reading, each reader's opinion vector (not a die, then the values)."""
    out = {"up": _vectors(rec, kind, "up", "up_m" if kind == "scatter" else None)}
    plain4 = rec["plain4"]
    if kind == "block":
        out["block4"] = np.stack([_opinion_vector(kind, c, None) for c in rec["block4"].mean(axis=1)])
        out["plain4"] = np.stack([_opinion_vector(kind, c, None) for c in plain4.mean(axis=1)])
        out["plain2"] = np.stack([_opinion_vector(kind, c, None) for c in plain4[:, [0, 2]].mean(axis=1)])
    else:
        out["plain4"] = np.stack([_opinion_vector(kind, c, m) for c, m in
                                  zip(plain4.mean(axis=1), rec["plain4_m"], strict=True)])
        out["plain2"] = np.stack([_opinion_vector(kind, c, m) for c, m in
                                  zip(plain4[:, [0, 2]].mean(axis=1), rec["plain2_m"], strict=True)])
    jit = rec["jit"]
    jm = rec["jit_m"]
    vec = np.stack([np.stack([_opinion_vector(kind, jit[i, j], jm[i, j] if kind == "scatter" else None)
                              for j in range(jit.shape[1])]) for i in range(len(jit))])
    # the upright reader's mean over its own crop and the jittered ones (all, shifts, sizes)
    for name, which in (("tta", [0, 1, 2, 3, 4, 5]), ("tta_shift", [0, 1, 2, 3]), ("tta_size", [4, 5]),
                        ("tta_x", [0, 1])):
        out[name] = (vec[:, which].sum(axis=1) + out["up"]) / (len(which) + 1)
    if "up2" in rec:  # a second upright network (record --upright-reader2)
        out["up2"] = _vectors(rec, kind, "up2", "up2_m" if kind == "scatter" else None)
        jit2, jm2 = rec["jit2"], rec["jit2_m"]
        vec2 = np.stack([np.stack([_opinion_vector(kind, jit2[i, j], jm2[i, j] if kind == "scatter" else None)
                                   for j in range(jit2.shape[1])]) for i in range(len(jit2))])
        # its own second opinion (its crop and the two shifted left and right), both networks on
        # the die's crop, both networks on the three crops
        out["tta2_x"] = (vec2[:, [0, 1]].sum(axis=1) + out["up2"]) / 3
        out["both"] = (out["up"] + out["up2"]) / 2
        out["both_x"] = (out["tta_x"] + out["tta2_x"]) / 2
    return out


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q = a * b
    return np.asarray(q / np.maximum(1e-12, q.sum(axis=1, keepdims=True)))


def sweep(kind: str, rec: dict[str, np.ndarray], conf: np.ndarray, idx: np.ndarray,
          base: bool | tuple[np.ndarray, np.ndarray]) -> list[dict[str, float]]:
    """Per sweep threshold: right, wrong and phantoms read. ``idx`` indexes the values (0 = not a
    die: never read). ``base``: dice the upright reader reads at its own threshold stay read as
    it read them, the rule decides the rest only; or (read, right) per reading: the dice some
    first step read, and whether right, which stay as they are."""
    values = _values(kind)
    truth = rec["truth"]
    found = truth >= 0
    blocked = _blocked(rec)
    if isinstance(base, tuple):
        shipped, shipped_right = base
    else:
        shipped = rec["status"] == 1
        shipped_right = shipped & (rec["guess"] == truth)
    out = []
    for t in SWEEP:
        new = (conf >= t) & (idx > 0) & ~blocked
        value = np.where(idx > 0, values[np.maximum(idx - 1, 0)], -1)
        if base is not False:
            read = shipped | new
            right = np.where(shipped, shipped_right, new & (value == truth))
        else:
            read = new
            right = new & (value == truth)
        out.append({"t": t, "right": int((read & right & found).sum()), "wrong": int((read & ~right & found).sum()),
                    "phantom": int((read & ~found).sum())})
    return out


def _blocked(rec: dict[str, np.ndarray]) -> np.ndarray:
    """Readings never read: cut by the frame's edge, or looking like the other kind."""
    return np.asarray((rec["cut"] == 1) | (rec["other"] == 1))


def first_step(kind: str, rec: dict[str, np.ndarray], conf: np.ndarray, idx: np.ndarray, t: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """(read, right) per reading when a rule alone reads at threshold ``t``: the base of a
    second step (``sweep``)."""
    value = np.where(idx > 0, _values(kind)[np.maximum(idx - 1, 0)], -1)
    read = (conf >= t) & (idx > 0) & ~_blocked(rec)
    return read, read & (value == rec["truth"])


TWO_STEPS: tuple[tuple[str, str], ...] = (
    ("upright", "tta_x alone"), ("upright", "both_x alone"), ("up2 alone", "tta2_x alone"),
    ("up2 alone", "both_x alone"), ("both alone", "both_x alone"), ("upright", "both alone"))
"""A first rule reading on its own (threshold by the rule), then a second deciding the dice it
left unsure (its threshold by the rule again): the reader and its second opinion, each
threshold chosen anew (the rules with ``up2`` or ``both`` need a second upright network)."""


def choose_threshold(rows: list[dict[str, float]], found: int) -> dict[str, float]:
    """The project's rule: the lowest sweep threshold with at most 0.2% of the found dice wrong
    and no phantom read, plus one step (the last step when it is the last)."""
    for i, r in enumerate(rows):
        if r["wrong"] <= 0.002 * found and r["phantom"] == 0:
            return rows[min(i + 1, len(rows) - 1)]
    best = min(r["wrong"] + 1000 * r["phantom"] for r in rows)
    i = next(i for i, r in enumerate(rows) if r["wrong"] + 1000 * r["phantom"] == best)
    return {**rows[min(i + 1, len(rows) - 1)], "fallback": 1}


def rules(ops: dict[str, np.ndarray], kind: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """(confidence, value index) per reading for each rule."""
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def top(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k = 1 + np.argmax(v[:, 1:], axis=1)
        return v[np.arange(len(v)), k], k

    up = ops["up"]
    out["upright"] = top(up)
    seconds = ["plain2", "plain4", "tta", "tta_shift", "tta_size", "tta_x"] + (["block4"] if kind == "block" else [])
    for s in seconds:
        out[f"{s} alone"] = top(ops[s])
        out[f"product up*{s}"] = top(_product(up, ops[s]))
        out[f"mean up+{s}"] = top((up + ops[s]) / 2)
        # both agree; the confidence is the lesser of the two
        cu, ku = top(up)
        cs, ks = top(ops[s])
        out[f"agree min up,{s}"] = (np.where(ku == ks, np.minimum(cu, cs), 0.0), ku)
        out[f"agree, {s} sure"] = (np.where(ku == ks, cs, 0.0), ku)
    if kind == "block":
        out["product up*block4*plain4"] = top(_product(_product(up, ops["block4"]), ops["plain4"]))
        out["product up*block4*tta"] = top(_product(_product(up, ops["block4"]), ops["tta"]))
    else:
        out["product up*plain4*tta"] = top(_product(_product(up, ops["plain4"]), ops["tta"]))
    for t in ("tta_shift", "tta_size", "tta_x"):
        out[f"product {t}*block4" if kind == "block" else f"product {t}*plain4"] = top(
            _product(ops[t], ops["block4" if kind == "block" else "plain4"]))
        if kind == "block":
            out[f"product {t}*plain4"] = top(_product(ops[t], ops["plain4"]))
    out["product tta*" + ("block4" if kind == "block" else "plain4")] = top(
        _product(ops["tta"], ops["block4" if kind == "block" else "plain4"]))
    if "up2" in ops:
        for name in ("up2", "tta2_x", "both", "both_x"):
            out[f"{name} alone"] = top(ops[name])
        out["product up*up2"] = top(_product(up, ops["up2"]))
        cu, ku = top(up)
        c2, k2 = top(ops["up2"])
        out["agree min up,up2"] = (np.where(ku == k2, np.minimum(cu, c2), 0.0), ku)
    return out


def load_records(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def choose(kind: str, paths: list[Path], show: list[str] | None = None) -> None:
    parts = [load_records(p) for p in paths]
    rec = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    ops = opinions(rec, kind)
    found = int((rec["truth"] >= 0).sum())
    dice = int(rec["frame_dice"].sum())
    res: dict[str, object] = {}
    print(f"{kind}: {len(rec['frame_seed'])} frames, {dice} dice, {found} found, "
          f"{int((rec['truth'] < 0).sum())} readings where no die lies; shipped right "
          f"{int(((rec['status'] == 1) & (rec['guess'] == rec['truth'])).sum())} wrong "
          f"{int(((rec['status'] == 1) & (rec['guess'] != rec['truth']) & (rec['truth'] >= 0)).sum())}")
    for name, (conf, idx) in rules(ops, kind).items():
        for base in (True, False):
            rows = sweep(kind, rec, conf, idx, base)
            pick = choose_threshold(rows, found)
            label = f"{name} [{'unsure only' if base else 'everywhere'}]"
            res[label] = pick
            if show and name in show:
                for row in rows:
                    print(f"    {name} [{'unsure only' if base else 'everywhere'}] {row}")
            print(f"  {label:52s} t {pick['t']:.3f}: right {pick['right']} ({100 * pick['right'] / found:.2f}% of "
                  f"found), wrong {pick['wrong']}, phantoms {pick['phantom']}" + (" (fallback)" if "fallback" in pick else ""))
    all_rules = rules(ops, kind)
    for first, then in TWO_STEPS:
        if first not in all_rules or then not in all_rules:
            continue
        t1 = choose_threshold(sweep(kind, rec, *all_rules[first], False), found)["t"]
        rows = sweep(kind, rec, *all_rules[then], first_step(kind, rec, *all_rules[first], t1))
        pick = choose_threshold(rows, found)
        label = f"{first} at {t1}, then {then} [unsure only]"
        res[label] = {**pick, "t1": t1}
        if show and label in show:
            for row in rows:
                print(f"    {label} {row}")
        print(f"  {label:52s} t {pick['t']:.3f}: right {pick['right']} ({100 * pick['right'] / found:.2f}% of "
              f"found), wrong {pick['wrong']}, phantoms {pick['phantom']}" + (" (fallback)" if "fallback" in pick else ""))
    print(json.dumps({"benchmark": "special_dice_opinions_choose", "kind": kind, "found": found, "dice": dice,
                      "rules": res}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--kind", choices=("block", "scatter"), required=True)
    r.add_argument("--frames", type=int, default=1000)
    r.add_argument("--first", type=int, help="first seed (default: the tuning seeds, TUNE_SEED on)")
    r.add_argument("--cache", type=Path, default=Path("/tmp/agree/frames"))
    r.add_argument("--out", type=Path)
    r.add_argument("--upright-reader", type=Path,
                   help="read the frames with this upright reader network instead of the shipped one")
    r.add_argument("--upright-reader2", type=Path,
                   help="a second upright reader network: its answers on every reading's crop and jittered crops "
                        "are recorded too (up2, jit2), for the rules that use two networks")
    c = sub.add_parser("choose")
    c.add_argument("--kind", choices=("block", "scatter"), required=True)
    c.add_argument("records", type=Path, nargs="+")
    c.add_argument("--show", action="append", default=[], help="print this rule's whole sweep")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    if a.cmd == "record":
        first = a.first if a.first is not None else TUNE_SEED + (0 if a.kind == "block" else 500_000)
        a.cache.mkdir(parents=True, exist_ok=True)
        out = a.out or Path(f"/tmp/agree/{a.kind}_{first}_{a.frames}.npz")
        if a.upright_reader is not None:
            reader_module.upright_reader = a.upright_reader
        record(a.kind, a.frames, first, a.cache, out, a.upright_reader2)
    else:
        choose(a.kind, a.records, a.show)


if __name__ == "__main__":
    main()
