#!/usr/bin/env python3
"""The special dice screen (``SpecialDiceConfig.screen_die``) swept on rendered frames.

Each frame (``render_scene(default_rng(seed), kinds=(kind,))``, the board registered, as
``benchmarks/vision_special_dice.py`` renders it) is read without the screen (``screen_die`` 0)
and with it at each threshold of the sweep; the readings are compared one by one (box, kind,
status, value, guess). Printed per kind and threshold: frames whose readings changed, dice
(matched to the truth as the benchmark matches them) that were read right or left unsure
without the screen and are lost or read otherwise with it, dice read wrong and phantoms
(readings where no die lies) that are new, the finder candidates that lie on a die and that the
screen drops, and the reader runs (crops times views) a frame, mean, median and 90th
percentile. Tuning seeds by default (block 3,000,000 on, scatter 3,500,000 on: choose the
threshold here); ``--first`` reads from another seed; ``--plain`` reads with the plain readers
(``upright`` off, as a roll without the board's homography is read).

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/vision_special_dice_screen.py --frames 600

Rendered frames are cached (``--cache``; read from ``--also-cache`` too when a frame is there).
The last printed line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import statistics
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from vision_special_dice import TUNE_SEED, _match  # noqa: E402

import vision.special_dice.reader as reader_module  # noqa: E402
from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice  # noqa: E402
from vision.special_dice.nets import READER_PATH, to_grey  # noqa: E402
from vision.special_dice.types import SpecialDieReading  # noqa: E402
from vision.synthetic.special_dice import block_value, render_scene, scatter_value  # noqa: E402

SWEEP = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1)


def _frame(kind: str, seed: int, caches: list[Path]) -> tuple[np.ndarray, object]:
    for cache in caches:
        path, tpath = cache / f"{kind}_{seed}.npy", cache / f"{kind}_{seed}.pkl"
        if path.exists() and tpath.exists():
            return np.load(path), pickle.loads(tpath.read_bytes())
    img, truth = render_scene(np.random.default_rng(seed), kinds=(kind,))
    caches[0].mkdir(parents=True, exist_ok=True)
    np.save(caches[0] / f"{kind}_{seed}.npy", img)
    (caches[0] / f"{kind}_{seed}.pkl").write_bytes(pickle.dumps(truth))
    return img, truth


def _key(r: SpecialDieReading) -> tuple[object, ...]:
    return (r.box, r.kind, r.status, r.value, r.guess)


def _fate(r: SpecialDieReading | None, want: int) -> str:
    if r is None:
        return "missed"
    if r.status != "read":
        return "unsure"
    return "right" if r.value == want else "wrong"


@dataclass
class Tally:
    """One threshold's counts over a kind's frames (``lost``: dice read right or left unsure without
    the screen that are missed or read otherwise with it; ``gained``: dice missed or left unsure
    without it that are found or read right with it; ``extra_unsure``: unsure boxes where no die
    lies, ``lost_extra_unsure`` of them gone with the screen)."""

    changed_frames: int = 0
    lost: int = 0
    lost_right: int = 0
    new_wrong: int = 0
    new_phantom: int = 0
    right: int = 0
    unsure: int = 0
    wrong: int = 0
    phantom: int = 0
    extra_unsure: int = 0
    gained: int = 0
    lost_extra_unsure: int = 0
    die_cands_dropped: int = 0
    runs: list[int] = field(default_factory=list)
    cands: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        out: dict[str, float] = {k: v for k, v in asdict(self).items() if k not in ("runs", "cands")}
        out.update(runs_mean=round(float(np.mean(self.runs)), 2), runs_median=float(statistics.median(self.runs)),
                   runs_p90=round(float(np.percentile(np.array(self.runs), 90)), 1),
                   cands_median=float(statistics.median(self.cands)),
                   cands_p90=round(float(np.percentile(np.array(self.cands), 90)), 1))
        return out


def sweep(kind: str, frames: int, first: int, caches: list[Path], thresholds: tuple[float, ...],
          upright: bool = True) -> dict[str, object]:
    runs = [0]
    plain = reader_module._view_sums

    def counting(crops: list[np.ndarray], plan: object, path: Path = READER_PATH) -> tuple[np.ndarray, np.ndarray]:
        runs[0] += len(crops) * len(plan)  # type: ignore[arg-type]
        return plain(crops, plan, path)  # type: ignore[arg-type]

    reader_module._view_sums = counting
    base = replace(SpecialDiceConfig(), screen_die=0.0, upright=upright)
    per = {0.0: Tally(), **{t: Tally() for t in thresholds}}
    die_cands = 0
    changes: list[str] = []
    try:
        for i in range(frames):
            seed = first + i
            img, truth = _frame(kind, seed, caches)
            orientation = Orientation(truth.board_to_frame)  # type: ignore[attr-defined]
            dice = truth.dice  # type: ignore[attr-defined]
            centres = [(d.centre[0], d.centre[1], float(max(d.box[2], d.box[3]))) for d in dice]
            wants = [block_value(d.value) if kind == "block" else scatter_value(d.value) for d in dice]
            grey = to_grey(img)
            cands = reader_module.finder_candidates(grey, base)
            scores = reader_module.screen_scores(grey, cands)
            on_die = [any(math.hypot(c[0] - x, c[1] - y) <= 0.5 * s for x, y, s in centres) for c in cands]
            die_cands += sum(on_die)
            runs[0] = 0
            obs0 = read_special_dice(img, (kind,), orientation, config=base)
            runs0 = runs[0]
            m0 = _match(centres, [r.box for r in obs0.dice])
            fates0 = [_fate(obs0.dice[m0[j]] if j in m0 else None, w) for j, w in enumerate(wants)]
            phantoms0 = {_key(r) for j, r in enumerate(obs0.dice) if j not in set(m0.values()) and r.status == "read"}
            extra0 = {_key(r) for j, r in enumerate(obs0.dice) if j not in set(m0.values()) and r.status != "read"}
            for t, rec in per.items():
                dropped = [bool(s < t) for s in scores]
                rec.die_cands_dropped += sum(1 for d, o in zip(dropped, on_die, strict=True) if d and o)
                rec.cands.append(len(cands) - sum(dropped))
                if not any(dropped):
                    obs, n_runs = obs0, runs0
                else:
                    runs[0] = 0
                    obs = read_special_dice(img, (kind,), orientation, config=replace(base, screen_die=t))
                    n_runs = runs[0]
                rec.runs.append(n_runs)
                m = _match(centres, [r.box for r in obs.dice])
                fates = [_fate(obs.dice[m[j]] if j in m else None, w) for j, w in enumerate(wants)]
                rec.right += fates.count("right")
                rec.wrong += fates.count("wrong")
                rec.unsure += fates.count("unsure") + fates.count("missed")
                phantoms = {_key(r) for j, r in enumerate(obs.dice) if j not in set(m.values()) and r.status == "read"}
                rec.phantom += len(phantoms)
                extra = {_key(r) for j, r in enumerate(obs.dice) if j not in set(m.values()) and r.status != "read"}
                rec.extra_unsure += len(extra)
                rec.lost_extra_unsure += len(extra0 - extra)
                if [_key(r) for r in obs.dice] != [_key(r) for r in obs0.dice]:
                    rec.changed_frames += 1
                    changes.append(f"{kind} seed {seed} at {t:g}: {[_key(r) for r in obs0.dice]} -> "
                                   f"{[_key(r) for r in obs.dice]}")
                for f0, f in zip(fates0, fates, strict=True):
                    if f0 in ("right", "unsure") and f != f0:
                        rec.lost += 1
                        rec.lost_right += int(f0 == "right")
                    rec.new_wrong += int(f == "wrong" and f0 != "wrong")
                    rec.gained += int((f0 == "missed" and f != "missed") or (f0 == "unsure" and f == "right"))
                rec.new_phantom += len(phantoms - phantoms0)
    finally:
        reader_module._view_sums = plain
    out: dict[str, object] = {"kind": kind, "frames": frames, "first_seed": first, "die_candidates": die_cands}
    for t, rec in per.items():
        r = rec.summary()
        name = "off" if t == 0.0 else f"{t:g}"
        print(f"{kind} screen {name}: readings changed in {r['changed_frames']:g} frames, dice lost {r['lost']:g} "
              f"({r['lost_right']:g} read right before), new wrong {r['new_wrong']:g}, new phantoms "
              f"{r['new_phantom']:g}; right {r['right']:g} unsure {r['unsure']:g} wrong {r['wrong']:g} phantoms "
              f"{r['phantom']:g}, unsure where no die lies {r['extra_unsure']:g} ({r['lost_extra_unsure']:g} of the old ones gone); dice gained {r['gained']:g}; candidates on a die dropped {r['die_cands_dropped']:g} of {die_cands}; candidates "
              f"median {r['cands_median']:g} (p90 {r['cands_p90']:g}); reader runs mean {r['runs_mean']:g} median "
              f"{r['runs_median']:g} (p90 {r['runs_p90']:g})", flush=True)
        out[name] = r
    for line in changes[:30]:
        print("   changed:", line)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=600, help="frames per kind")
    ap.add_argument("--kinds", default="block,scatter")
    ap.add_argument("--first", type=int, default=TUNE_SEED, help="first block seed (scatter: 500,000 on)")
    ap.add_argument("--thresholds", default=",".join(f"{t:g}" for t in SWEEP))
    ap.add_argument("--plain", action="store_true", help="read with the plain readers (upright off)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/screen/frames"))
    ap.add_argument("--also-cache", type=Path, nargs="*", default=[Path("/tmp/agree/frames")])
    a = ap.parse_args()
    cv2.setNumThreads(1)
    thresholds = tuple(float(t) for t in a.thresholds.split(",") if t)
    out = {}
    for kind in a.kinds.split(","):
        first = a.first + (0 if kind == "block" else 500_000)
        out[kind] = sweep(kind, a.frames, first, [a.cache, *a.also_cache], thresholds, not a.plain)
    print(json.dumps({"benchmark": "vision_special_dice_screen", "kinds": out}))


if __name__ == "__main__":
    main()
