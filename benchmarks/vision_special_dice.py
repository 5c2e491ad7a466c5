#!/usr/bin/env python3
"""Block and scatter dice reader figures on held-out rendered 1280x720 frames.

Per kind: frames with 1-4 dice of that kind (``vision.synthetic.special_dice.render_scene``:
random table, camera slant up to 35 degrees, board turned any way in the picture, light,
focus and motion blur, noise, JPEG; 0-2 pipped d6 or tokens beside them), read as the kiosk
reads a roll of that kind, with the board's registration (the scene's homography) for the
scatter arrows. Seeds start at ``EVAL_SEED`` (training used 10,000-11,599 and
110,000-111,599; the tests use 7,000,000 on; 5,000,000 on was the first evaluation range, whose
wrong readings at thresholds of 0.8 made the shipped thresholds 0.97, so it is no longer held out).
``--second-range`` reads the seeds from ``SECOND_EVAL_SEED`` instead (6,200,000 on, scatter
6,700,000 on): a range no network was trained, tuned or measured on before a candidate chosen
after a look at the first range's results had to be judged. ``--third-range`` reads from
``THIRD_EVAL_SEED`` (6,300,000 on, scatter 6,800,000 on), first read to judge the second opinion
(``SpecialDiceConfig.second_opinion``); ``--fourth-range`` from ``FOURTH_EVAL_SEED`` (6,400,000 on,
scatter 6,900,000 on), read to judge the screen (``SpecialDiceConfig.screen_die``) and an upright
reader for block-only rolls (not shipped; docs/vision-special-dice.md); ``--fifth-range`` from
``FIFTH_EVAL_SEED`` (6,100,000 on, scatter 6,600,000 on), read to judge the scatter dice's second
opinion; ``--sixth-range`` from ``SIXTH_EVAL_SEED`` (7,100,000 on, scatter 7,600,000 on), read to
judge an upright reader for block-only rolls (not shipped); ``--seventh-range`` from
``SEVENTH_EVAL_SEED`` (7,200,000 on, scatter 7,700,000 on), read to judge the upright reader in
8 bits (block rolls; ``SpecialDiceConfig.upright_8bit``); ``--eighth-range`` from
``EIGHTH_EVAL_SEED`` (7,400,000 on, scatter 7,900,000 on), its block frames read to judge the
block upright reader (``nets.UPRIGHT_BLOCK_READER_PATH``).

Printed per kind: dice, right (read and right), unsure (found but not read, or not found),
confidently wrong (read and wrong), phantoms (something reported where no die lies: read, or
unsure), and for the scatter
die the right share among arrows more than 5 degrees from the line between two directions;
the finder's candidates and the reader runs (crops times views) a frame, median and 90th
percentile (they do not depend on the machine's load); then the median milliseconds per frame
(one thread) and the reader network's median milliseconds per die (crops at the true boxes of
20 frames, each frame's dice read together). The last line is one JSON object.

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/vision_special_dice.py --frames 400
    ... --tune          # threshold sweep on the tuning seeds (TUNE_SEED) instead
    ... --upright off   # the plain readers (default: as SpecialDiceConfig says, the upright reader)
    ... --upright-reader /tmp/up.onnx   # a trial upright reader network
    ... --finder /tmp/finder.onnx   # a trial finder network
    ... --set find_threshold=0.2 --set weak_heat=0.5   # SpecialDiceConfig fields changed
    ... --time-both 60  # plain and upright readers timed frame by frame on the same frames
    ... --time-relook 60  # with and without the second look, frame by frame on the same frames
    ... --time-set 60 --set second_opinion=   # the shipped config and the --set one, frame by frame
    ... --time-set 60 --upright-reader /tmp/up.onnx   # the shipped reader and the trial one, frame by frame
    ... --first-seed 3000000 --kinds block   # the tuning frames read as the config stands (thresholds, second opinion)
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice  # noqa: E402
from vision.special_dice.nets import READER_PATH  # noqa: E402
from vision.synthetic.special_dice import block_value, render_scene, scatter_value  # noqa: E402

EVAL_SEED = 6_000_000
SECOND_EVAL_SEED = 6_200_000
THIRD_EVAL_SEED = 6_300_000
FOURTH_EVAL_SEED = 6_400_000
FIFTH_EVAL_SEED = 6_100_000
SIXTH_EVAL_SEED = 7_100_000
SEVENTH_EVAL_SEED = 7_200_000
EIGHTH_EVAL_SEED = 7_400_000
TUNE_SEED = 3_000_000
BORDER_DEG = 5.0


def _match(truth_centres: list[tuple[float, float, float]], boxes: list[tuple[int, int, int, int]]
           ) -> dict[int, int]:
    """truth index -> reading index, nearest centre within half a die."""
    out: dict[int, int] = {}
    used: set[int] = set()
    for i, (tx, ty, side) in enumerate(truth_centres):
        best, bd = -1, 0.5 * side
        for j, (x, y, w, h) in enumerate(boxes):
            d = math.hypot(x + w / 2 - tx, y + h / 2 - ty)
            if j not in used and d <= bd:
                best, bd = j, d
        if best >= 0:
            out[i] = best
            used.add(best)
    return out


class _Counts:
    """Finder candidates (peaks at ``find_threshold`` or more) and reader runs (crops times
    views) per ``read_special_dice`` call, counted by wrapping the reader module's ``find`` and
    ``_view_sums``; numbers that do not depend on the machine's load."""

    def __init__(self) -> None:
        import vision.special_dice.reader as reader_module

        self.module = reader_module
        self.find, self.view_sums = reader_module.find, reader_module._view_sums
        self.cands: list[int] = []
        self.runs: list[int] = []

    def __enter__(self) -> _Counts:
        def find(grey: np.ndarray, config: SpecialDiceConfig) -> list[tuple[float, float, float, float]]:
            out = self.find(grey, config)
            self.cands[-1] += len(out)
            return out

        def view_sums(crops: list[np.ndarray], plan: object, path: Path = READER_PATH
                      ) -> tuple[np.ndarray, np.ndarray]:
            self.runs[-1] += len(crops) * len(plan)  # type: ignore[arg-type]
            return self.view_sums(crops, plan, path)  # type: ignore[arg-type]

        self.module.find = find
        self.module._view_sums = view_sums
        return self

    def frame(self) -> None:
        self.cands.append(0)
        self.runs.append(0)

    def __exit__(self, *exc: object) -> None:
        self.module.find, self.module._view_sums = self.find, self.view_sums


def run(kind: str, frames: int, seed: int, config: SpecialDiceConfig
        ) -> tuple[dict[str, object], list[tuple[float, bool]], list[float]]:
    with _Counts() as per_frame:
        return _run(kind, frames, seed, config, per_frame)


def _run(kind: str, frames: int, seed: int, config: SpecialDiceConfig, per_frame: _Counts
         ) -> tuple[dict[str, object], list[tuple[float, bool]], list[float]]:
    counts = {"dice": 0, "right": 0, "unsure": 0, "missed": 0, "wrong": 0, "phantom": 0,
              "clear": 0, "clear_right": 0, "guess_right": 0, "extra_unsure": 0}
    ms: list[float] = []
    records: list[tuple[float, bool]] = []  # (confidence, guess right) per found die
    phantoms: list[float] = []  # confidence of each reading where no die lies
    wrongs: list[str] = []
    for i in range(frames):
        rng = np.random.default_rng(seed + i)
        img, truth = render_scene(rng, kinds=(kind,))
        per_frame.frame()
        t0 = time.perf_counter()
        obs = read_special_dice(img, (kind,), Orientation(truth.board_to_frame), config=config)
        ms.append((time.perf_counter() - t0) * 1000)
        centres = [(d.centre[0], d.centre[1], float(max(d.box[2], d.box[3]))) for d in truth.dice]
        m = _match(centres, [r.box for r in obs.dice])
        for ti, d in enumerate(truth.dice):
            want = block_value(d.value) if kind == "block" else scatter_value(d.value)
            counts["dice"] += 1
            clear = kind == "scatter" and d.bearing_deg is not None and \
                abs((d.bearing_deg + 22.5) % 45.0 - 22.5) < 22.5 - BORDER_DEG
            counts["clear"] += int(clear)
            if ti not in m:
                counts["missed"] += 1
                counts["unsure"] += 1
                continue
            r = obs.dice[m[ti]]
            records.append((r.confidence, r.guess == want))
            counts["guess_right"] += int(r.status != "read" and r.guess == want)
            if r.status != "read":
                counts["unsure"] += 1
            elif r.value == want:
                counts["right"] += 1
                counts["clear_right"] += int(clear)
            else:
                counts["wrong"] += 1
                wrongs.append(f"seed {seed + i}: {kind} read {r.value} ({r.label}, {r.confidence:.3f}), "
                              f"truth {want}" + (f" bearing {d.bearing_deg:.1f}" if d.bearing_deg is not None else ""))
        matched = set(m.values())
        phantoms += [r.confidence for j, r in enumerate(obs.dice) if j not in matched]
        counts["phantom"] += sum(1 for j, r in enumerate(obs.dice) if j not in matched and r.status == "read")
        counts["extra_unsure"] += sum(1 for j, r in enumerate(obs.dice) if j not in matched and r.status != "read")
    n = max(1, counts["dice"])
    res: dict[str, object] = {
        "kind": kind, "frames": frames, **counts,
        "right_pct": round(100 * counts["right"] / n, 2),
        "unsure_pct": round(100 * counts["unsure"] / n, 2),
        "wrong_pct": round(100 * counts["wrong"] / n, 3),
        "ms_median": round(statistics.median(ms), 2),
        "ms_p90": round(float(np.percentile(ms, 90)), 2),
        "candidates_median": statistics.median(per_frame.cands),
        "candidates_p90": round(float(np.percentile(per_frame.cands, 90)), 1),
        "reader_runs_mean": round(float(np.mean(per_frame.runs)), 2),
        "reader_runs_median": statistics.median(per_frame.runs),
        "reader_runs_p90": round(float(np.percentile(per_frame.runs, 90)), 1),
        "wrongs": wrongs[:10],
    }
    if kind == "scatter":
        res["clear_right_pct"] = round(100 * counts["clear_right"] / max(1, counts["clear"]), 2)
    return res, records, phantoms


def reader_ms_per_die(kind: str, frames: int, seed: int, config: SpecialDiceConfig) -> float:
    """Median milliseconds the reader network takes per die (crops cut at the true boxes, each
    frame's dice read together, as ``read_special_dice`` reads them; the finder left out)."""
    from vision.special_dice.nets import crop, load, reader_crop_size, to_grey
    from vision.special_dice.reader import read_crops, reader_for
    from vision.special_dice.upright import nadir, turn_deg

    plan = reader_for((kind,), config)  # as read_special_dice reads a roll of it alone, registered
    size = reader_crop_size(load(plan.path))
    per_die: list[float] = []
    for i in range(frames):
        img, truth = render_scene(np.random.default_rng(seed + i), kinds=(kind,))
        grey = to_grey(img)
        n = nadir(truth.board_to_frame, img.shape[1], img.shape[0]) if plan.upright else None
        crops = [crop(grey, d.centre, float(max(d.box[2], d.box[3])), size, turn_deg(n, d.centre))
                 for d in truth.dice]
        read_crops(crops, plan.views, path=plan.path)
        for _ in range(5):
            t0 = time.perf_counter()
            read_crops(crops, plan.views, path=plan.path)
            per_die.append((time.perf_counter() - t0) * 1000 / len(crops))
    return round(statistics.median(per_die), 3)


def paired_times(kinds: list[str], frames: int, configs: dict[str, SpecialDiceConfig], first: int = EVAL_SEED,
                 upright_readers: dict[str, Path] | None = None) -> dict[str, dict[str, tuple[list[float], list[int]]]]:
    """Each held-out frame read with every config in ``configs``, one after the other (the order
    alternating from frame to frame, so all see the same load): per kind and config, the frame
    times (ms) and the reader runs a frame (crops times views, which do not depend on the load).
    ``upright_readers``: the upright reader network of a config, where it is not the one set."""
    import vision.special_dice.reader as reader_module

    set_reader = reader_module.upright_reader
    readers = {name: (upright_readers or {}).get(name, set_reader) for name in configs}
    runs = [0]
    plain = reader_module._view_sums

    def counting(crops: list[np.ndarray], plan: object, path: Path = READER_PATH
                 ) -> tuple[np.ndarray, np.ndarray]:
        runs[0] += len(crops) * len(plan)  # type: ignore[arg-type]
        return plain(crops, plan, path)  # type: ignore[arg-type]

    reader_module._view_sums = counting
    out: dict[str, dict[str, tuple[list[float], list[int]]]] = {}
    try:
        for kind in kinds:
            seed = first + (0 if kind == "block" else 500_000)
            got: dict[str, tuple[list[float], list[int]]] = {k: ([], []) for k in configs}
            for i in range(frames):
                img, truth = render_scene(np.random.default_rng(seed + i), kinds=(kind,))
                orientation = Orientation(truth.board_to_frame)
                order = list(configs.items())
                for name, cfg in order if i % 2 == 0 else order[::-1]:
                    reader_module.upright_reader = readers[name]
                    if i == 0:  # load the networks first
                        read_special_dice(img, (kind,), orientation, config=cfg)
                    runs[0] = 0
                    t0 = time.perf_counter()
                    read_special_dice(img, (kind,), orientation, config=cfg)
                    got[name][0].append((time.perf_counter() - t0) * 1000)
                    got[name][1].append(runs[0])
            out[kind] = got
    finally:
        reader_module._view_sums = plain
        reader_module.upright_reader = set_reader
    return out


def _figures(got: dict[str, tuple[list[float], list[int]]]) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Median and 90th-percentile ms, and mean reader runs, per config."""
    med = {k: statistics.median(t) for k, (t, _) in got.items()}
    p90 = {k: float(np.percentile(t, 90)) for k, (t, _) in got.items()}
    reads = {k: float(np.mean(r)) for k, (_, r) in got.items()}
    return med, p90, reads


def time_both(kinds: list[str], frames: int, config: SpecialDiceConfig) -> None:
    """Frame times of the plain and the upright readers on the same held-out frames
    (``paired_times``): medians, 90th percentiles and their ratios."""
    timed = paired_times(kinds, frames, {"plain": replace(config, upright=False),
                                         "upright": replace(config, upright=True)})
    out: dict[str, object] = {}
    for kind, got in timed.items():
        med, p90, _ = _figures(got)
        print(f"{kind}: {frames} frames, plain median {med['plain']:.2f} ms (p90 {p90['plain']:.2f}), upright "
              f"median {med['upright']:.2f} ms (p90 {p90['upright']:.2f}): ratios {med['upright'] / med['plain']:.2f}, "
              f"{p90['upright'] / p90['plain']:.2f}")
        out[kind] = {"plain_median": round(med["plain"], 2), "plain_p90": round(p90["plain"], 2),
                     "upright_median": round(med["upright"], 2), "upright_p90": round(p90["upright"], 2)}
    print(json.dumps({"benchmark": "vision_special_dice_time_both", "frames": frames, "kinds": out}))


def time_relook(kinds: list[str], frames: int, config: SpecialDiceConfig) -> None:
    """Frame times and reader runs with and without the second look (``relook_none`` 0) on the
    same held-out frames (``paired_times``): medians, 90th percentiles and their ratios."""
    configs = {"without": replace(config, relook_none=0.0), "with": config}
    out: dict[str, object] = {}
    for kind, got in paired_times(kinds, frames, configs).items():
        med, p90, mean_reads = _figures(got)
        print(f"{kind}: {frames} frames, without the second look median {med['without']:.2f} ms (p90 "
              f"{p90['without']:.2f}, {mean_reads['without']:.1f} crop views), with it {med['with']:.2f} ms (p90 "
              f"{p90['with']:.2f}, {mean_reads['with']:.1f} crop views): ratios {med['with'] / med['without']:.2f}, "
              f"{p90['with'] / p90['without']:.2f}")
        out[kind] = {f"{k}_{m}": round(v, 2) for k in configs
                     for m, v in (("median", med[k]), ("p90", p90[k]), ("mean_reads", mean_reads[k]))}
    print(json.dumps({"benchmark": "vision_special_dice_time_relook", "frames": frames, "kinds": out}))


def time_set(kinds: list[str], frames: int, config: SpecialDiceConfig, first: int) -> None:
    """Frame times and reader runs of the shipped config and ``config`` (the ``--set`` fields
    changed, and the ``--upright-reader`` network when one is given) on the same held-out frames
    (``paired_times``; the shipped config with the shipped upright reader): medians, 90th
    percentiles, ratios."""
    from vision.special_dice.nets import UPRIGHT_READER_PATH

    configs = {"shipped": SpecialDiceConfig(), "set": config}
    out: dict[str, object] = {}
    for kind, got in paired_times(kinds, frames, configs, first, {"shipped": UPRIGHT_READER_PATH}).items():
        med, p90, mean_reads = _figures(got)
        runs = {k: got[k][1] for k in configs}
        print(f"{kind}: {frames} frames from seed {first + (0 if kind == 'block' else 500_000)}, shipped median "
              f"{med['shipped']:.2f} ms (p90 {p90['shipped']:.2f}; reader runs mean {mean_reads['shipped']:.1f}, "
              f"median {statistics.median(runs['shipped'])}, p90 {np.percentile(runs['shipped'], 90):.1f}), --set "
              f"median {med['set']:.2f} ms (p90 {p90['set']:.2f}; reader runs mean {mean_reads['set']:.1f}, median "
              f"{statistics.median(runs['set'])}, p90 {np.percentile(runs['set'], 90):.1f}): ratios "
              f"{med['set'] / med['shipped']:.2f}, {p90['set'] / p90['shipped']:.2f}")
        out[kind] = {f"{k}_{m}": round(float(v), 2) for k in configs
                     for m, v in (("median", med[k]), ("p90", p90[k]), ("mean_reads", mean_reads[k]))}
    print(json.dumps({"benchmark": "vision_special_dice_time_set", "frames": frames, "first_seed": first,
                      "kinds": out}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=400, help="frames per kind")
    ap.add_argument("--kinds", default="block,scatter")
    ap.add_argument("--second-range", action="store_true",
                    help="the second held-out range of seeds (SECOND_EVAL_SEED) instead of the first")
    ap.add_argument("--third-range", action="store_true",
                    help="the third held-out range of seeds (THIRD_EVAL_SEED) instead of the first")
    ap.add_argument("--fourth-range", action="store_true",
                    help="the fourth held-out range of seeds (FOURTH_EVAL_SEED) instead of the first")
    ap.add_argument("--fifth-range", action="store_true",
                    help="the fifth held-out range of seeds (FIFTH_EVAL_SEED) instead of the first")
    ap.add_argument("--sixth-range", action="store_true",
                    help="the sixth held-out range of seeds (SIXTH_EVAL_SEED) instead of the first")
    ap.add_argument("--seventh-range", action="store_true",
                    help="the seventh held-out range of seeds (SEVENTH_EVAL_SEED) instead of the first")
    ap.add_argument("--eighth-range", action="store_true",
                    help="the eighth held-out range of seeds (EIGHTH_EVAL_SEED) instead of the first")
    ap.add_argument("--first-seed", type=int, metavar="SEED",
                    help="read the frames from this seed on (scatter: 500,000 later) instead of a held-out "
                         "range, e.g. the tuning seeds (TUNE_SEED) read as the config stands")
    ap.add_argument("--tune", action="store_true", help="sweep the read thresholds on the tuning seeds")
    ap.add_argument("--views", type=int, default=SpecialDiceConfig().views,
                    help="views of each crop the reader averages (SpecialDiceConfig.views: 1, 2, 4 or 8)")
    ap.add_argument("--upright", choices=("config", "on", "off"), default="config",
                    help="read with the upright reader (on), the plain readers (off), or as SpecialDiceConfig says")
    ap.add_argument("--upright-reader", type=Path,
                    help="a trial upright reader network to read with instead of the shipped one")
    ap.add_argument("--finder", type=Path,
                    help="a trial finder network to find the dice with instead of the shipped one")
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="read with this SpecialDiceConfig field (a number, or kinds) changed, e.g. "
                         "find_threshold=0.2, second_opinion=block,scatter, second_opinion= (none)")
    ap.add_argument("--time-both", type=int, metavar="FRAMES",
                    help="time the plain and the upright readers on the same held-out frames, one after "
                         "the other frame by frame, and print the ratios")
    ap.add_argument("--time-set", type=int, metavar="FRAMES",
                    help="time the shipped config and the one with the --set fields on the same held-out frames "
                         "of the chosen range, one after the other frame by frame, and print the ratios")
    ap.add_argument("--time-relook", type=int, metavar="FRAMES",
                    help="time reading with and without the second look on the same held-out frames, one "
                         "after the other frame by frame, and print the ratios")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    config = replace(SpecialDiceConfig(), views=a.views)
    if a.upright != "config":
        config = replace(config, upright=a.upright == "on")
    for item in a.set:
        name, _, value = item.partition("=")
        if not hasattr(config, name) or not (value or isinstance(getattr(config, name), tuple)):
            ap.error(f"--set {item}: give FIELD=VALUE with FIELD a SpecialDiceConfig field, e.g. find_threshold=0.2")
        changed: object = tuple(v for v in value.split(",") if v) if isinstance(getattr(config, name), tuple) \
            else type(getattr(config, name))(float(value))  # kinds: block,scatter (or nothing); or a number
        config = replace(config, **{name: changed})  # type: ignore[arg-type]
    if a.upright_reader is not None:
        import vision.special_dice.reader as reader_module

        reader_module.upright_reader = a.upright_reader
    if a.finder is not None:
        import vision.special_dice.reader as reader_module

        setattr(reader_module, "FINDER_PATH", a.finder)  # noqa: B010 (read by find at run time)
    if a.time_both:
        time_both(a.kinds.split(","), a.time_both, config)
        return
    if a.time_relook:
        time_relook(a.kinds.split(","), a.time_relook, config)
        return
    ranges = {"second": SECOND_EVAL_SEED, "third": THIRD_EVAL_SEED, "fourth": FOURTH_EVAL_SEED,
              "fifth": FIFTH_EVAL_SEED, "sixth": SIXTH_EVAL_SEED, "seventh": SEVENTH_EVAL_SEED,
              "eighth": EIGHTH_EVAL_SEED}
    chosen = [seed for name, seed in ranges.items() if getattr(a, f"{name}_range")]
    if len(chosen) > 1:
        ap.error(", ".join(f"--{name}-range" for name in ranges) + ": give one")
    if a.first_seed is not None and chosen:
        ap.error("--first-seed: give it instead of a range, not with one")
    eval_seed = a.first_seed if a.first_seed is not None else chosen[0] if chosen else EVAL_SEED
    if a.time_set:
        time_set(a.kinds.split(","), a.time_set, config, eval_seed)
        return
    results = []
    for kind in a.kinds.split(","):
        if a.tune:
            res, records, phantoms = run(kind, a.frames, TUNE_SEED + (0 if kind == "block" else 500_000),
                             replace(config, block_threshold=0.0, scatter_threshold=0.0,
                                             upright_block_threshold=0.0, upright_scatter_threshold=0.0))
            conf = np.array([c for c, _ in records])
            ok = np.array([g for _, g in records])
            ph = np.array(phantoms)
            print(f"{kind}: {len(records)} found dice of {res['dice']}, {len(ph)} candidates where no die lies; "
                  f"finder candidates a frame median {res['candidates_median']} (p90 {res['candidates_p90']}), "
                  f"reader runs a frame mean {res['reader_runs_mean']} median {res['reader_runs_median']} "
                  f"(p90 {res['reader_runs_p90']})")
            for t in (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998):
                read = conf >= t
                print(f"  threshold {t:.3f}: read {100 * read.mean():.2f}%  right {100 * (read & ok).mean():.2f}% ({int((read & ok).sum())})  "
                      f"wrong {100 * (read & ~ok).mean():.3f}% ({int((read & ~ok).sum())})  "
                      f"read where no die lies {int((ph >= t).sum())}")
            continue
        first = eval_seed + (0 if kind == "block" else 500_000)
        res, _, _ = run(kind, a.frames, first, config)
        res["first_seed"] = first
        res["reader_ms_per_die"] = reader_ms_per_die(kind, 20, first, config)
        results.append(res)
        print(f"{kind}: {res['dice']} dice in {res['frames']} frames: right {res['right_pct']}%, unsure "
              f"{res['unsure_pct']}% ({res['missed']} not found), confidently wrong {res['wrong_pct']}% "
              f"({res['wrong']}), phantoms {res['phantom']} read, {res['extra_unsure']} unsure; finder candidates a frame "
              f"{res['candidates_median']} (p90 {res['candidates_p90']}), reader runs {res['reader_runs_median']} "
              f"(p90 {res['reader_runs_p90']}); {res['ms_median']} ms a frame (median, p90 {res['ms_p90']}; reader {res['reader_ms_per_die']} ms a die)" + (f"; arrows > {BORDER_DEG:g} deg from a sector line: right "
                                     f"{res['clear_right_pct']}%" if kind == "scatter" else ""))
        for w in res["wrongs"]:  # type: ignore[attr-defined]
            print("   wrong:", w)
    if a.tune:
        return
    machine = f"{platform.machine()} {platform.processor() or platform.system()}, 1 thread"
    print(json.dumps({"benchmark": "vision_special_dice", "frame": "1280x720", "machine": machine,
                      "kinds": {r["kind"]: {k: v for k, v in r.items() if k != "wrongs"} for r in results}}))


if __name__ == "__main__":
    main()
