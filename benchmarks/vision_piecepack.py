"""Piecepack camera: per piece kind, right / unsure / confidently wrong on rendered frames never
used in training, and milliseconds per frame.

    OMP_NUM_THREADS=1 nice -n 10 python3 benchmarks/vision_piecepack.py            # 300 + 40
    python3 benchmarks/vision_piecepack.py --frames 60 --tables 10                 # quicker
    python3 benchmarks/vision_piecepack.py --calibrate                             # thresholds

Dice-area frames are 1280x720 renders (``vision.synthetic.piecepack.render_dice_area``) from
seed ``HELD_OUT_SEED`` on: 1-4 dice and 0-4 coins on plain, felt, wood, dark-tray or printed
surfaces, a perspective slant, uneven light, blur (focus and motion), sensor noise and JPEG.
A field is *right* when read and equal to the truth, *unsure* when the reader withheld it,
*wrong* when read and different (or the piece was confidently read as another kind), *missed*
when the piece was not found. Table frames (``render_table``) show a dungeon of 1-24 tiles with
coins and up to four pawns inside the printed markers; the markers are found in the frame as
at the table (``vision.board.markers``), then every space of the tile window is read.

Times are medians of ``read_pieces`` on the whole 1280x720 frame (the dice area) and of
``TableReader.read`` (registration included), one thread. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.piecepack.evaluate import (  # noqa: E402
    CALIBRATION_SEED,
    FIELDS,
    HELD_OUT_SEED,
    match,
    new_tallies,
    score_area,
)
from vision.piecepack.placement import TableReader  # noqa: E402
from vision.piecepack.reader import DEFAULT_CONFIG, classify, find, interpret, read_pieces  # noqa: E402
from vision.synthetic.piecepack import render_dice_area, render_table  # noqa: E402


def bench_area(frames: int, seed0: int, threshold: float) -> tuple[dict[str, object], float]:
    tallies = new_tallies()
    phantoms = 0
    times: list[float] = []
    cpu: list[float] = []
    config = replace(DEFAULT_CONFIG, read_threshold=threshold)
    read_pieces(render_dice_area(seed0).image, config)  # load the networks
    for i in range(frames):
        f = render_dice_area(seed0 + i)
        t0, c0 = time.perf_counter(), time.process_time()
        obs = read_pieces(f.image, config)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        phantoms += score_area(f.pieces, obs.pieces, tallies)
    out: dict[str, object] = {k: v.to_dict() for k, v in tallies.items()}
    out["phantoms"] = phantoms
    out["cpu_ms_median"] = round(statistics.median(cpu), 2)
    return out, statistics.median(times)


def bench_tables(frames: int, seed0: int) -> tuple[dict[str, object], float]:
    tile = {"right": 0, "unsure": 0, "wrong": 0}
    pawn = {"right": 0, "unsure": 0, "wrong": 0, "missed": 0, "phantom": 0}
    errors = 0
    times: list[float] = []
    near_ms: list[float] = []
    reg_ms: list[float] = []
    for i in range(frames):
        f = render_table(seed0 + i)
        reader = TableReader()
        t0 = time.perf_counter()
        obs = reader.read(f.image)
        times.append((time.perf_counter() - t0) * 1000)
        if obs.status != "error":  # again, as the kiosk does: registration kept, known tiles
            t0 = time.perf_counter()
            h = reader.homography(f.image)
            t1 = time.perf_counter()
            reader.read(f.image, h, near=f.tiles)
            reg_ms.append((t1 - t0) * 1000)
            near_ms.append((time.perf_counter() - t0) * 1000)
        if obs.status == "error":
            errors += 1
            continue
        x0, y0, x1, y1 = reader.window
        truth = set(f.tiles)
        for ty in range(y0, y1 + 1):
            for tx in range(x0, x1 + 1):
                t = (tx, ty)
                if t in obs.unsure_tiles:
                    tile["unsure"] += 1
                elif (t in obs.tiles) == (t in truth):
                    tile["right"] += 1
                else:
                    tile["wrong"] += 1
        for sp, suit in f.pawns.items():
            if obs.pawns.get(sp) == suit:
                pawn["right"] += 1
            elif sp in obs.pawns:
                pawn["wrong"] += 1
            elif sp in obs.unsure_spaces or (sp[0] // 2, sp[1] // 2) in obs.unsure_tiles:
                pawn["unsure"] += 1
            else:
                pawn["missed"] += 1
        pawn["phantom"] += sum(1 for sp in obs.pawns if sp not in f.pawns)
    nt = max(1, sum(tile.values()))
    npw = max(1, len([0 for k in ("right", "unsure", "wrong", "missed") for _ in range(pawn[k])]))
    out: dict[str, object] = {
        "frames": frames, "registration_failed": errors,
        "tiles": {"n": sum(tile.values()), **{k: round(100 * v / nt, 2) for k, v in tile.items()}},
        "pawns": {"n": npw, **{k: round(100 * v / npw, 2) for k, v in pawn.items()
                              if k != "phantom"}, "phantom": pawn["phantom"]},
    }
    out["ms_known_tiles_median"] = round(statistics.median(near_ms), 1) if near_ms else None
    out["ms_registration_kept_median"] = round(statistics.median(reg_ms), 1) if reg_ms else None
    return out, statistics.median(times) if times else float("nan")


def calibrate(frames: int) -> None:
    """Confidence of every found piece's fields on calibration frames, and how many would be
    read wrong at each threshold."""
    rows: list[tuple[float, bool]] = []
    for i in range(frames):
        f = render_dice_area(CALIBRATION_SEED + i)
        cands = find(f.image)
        probs = classify(f.image, cands)
        readings = []
        for c, p in zip(cands, probs, strict=True):
            h = c[2] / 2
            r = interpret(p, (int(c[0] - h), int(c[1] - h), int(c[2]), int(c[2])), 0.0)
            if r is not None:
                readings.append(r)
        for p, r in zip(f.pieces, match(f.pieces, readings), strict=True):
            if r is None:
                continue
            same_kind = r.kind == p.kind and r.side == p.side
            ok = same_kind and r.guess_value == p.value and (p.side == "value"
                                                             or r.guess_suit == p.suit)
            rows.append((r.confidence, ok))
    print(f"calibration: {len(rows)} pieces found on {frames} frames")
    for thr in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995):
        read = [ok for c, ok in rows if c >= thr]
        wrong = sum(1 for ok in read if not ok)
        print(f"  threshold {thr:.3f}: read {100 * len(read) / max(1, len(rows)):.2f}%  "
              f"wrong {100 * wrong / max(1, len(rows)):.3f}%")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--frames", type=int, default=300, help="dice-area frames")
    ap.add_argument("--tables", type=int, default=40, help="table frames")
    ap.add_argument("--threshold", type=float, default=DEFAULT_CONFIG.read_threshold)
    ap.add_argument("--calibrate", action="store_true")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if a.calibrate:
        calibrate(a.frames)
        return 0
    area, area_ms = bench_area(a.frames, HELD_OUT_SEED, a.threshold) if a.frames else ({}, 0.0)
    tables, table_ms = bench_tables(a.tables, HELD_OUT_SEED + 500_000) if a.tables else ({}, 0.0)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()}, one thread, load average {load:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"dice area: {a.frames} held-out 1280x720 frames, read threshold {a.threshold}")
    for name in FIELDS if a.frames else ():
        t = area[name]
        assert isinstance(t, dict)
        print(f"  {name:16s} n={t['n']:5d}  right {t['right']:6.2f}%  unsure {t['unsure']:5.2f}%"
              f"  missed {t['missed']:5.2f}%  wrong {t['wrong']:6.3f}%")
    if a.frames:
        print(f"  phantoms (confident readings of no piece): {area['phantoms']}")
        print(f"  median {area_ms:.1f} ms a frame (wall clock), {area['cpu_ms_median']} ms of "
              "CPU time (what the frame costs when the machine is not shared)")
    if a.tables:
        print(f"table: {a.tables} held-out frames, markers registered per frame")
        print(f"  tiles {tables['tiles']}")
        print(f"  pawns {tables['pawns']}")
        print(f"  median {table_ms:.1f} ms a frame (markers found afresh, all "
              f"{len(TableReader().spaces)} spaces of the window); "
              f"{tables['ms_known_tiles_median']} ms with the registration kept and only the "
              f"known tiles and their neighbours read (of which checking the markers: "
              f"{tables['ms_registration_kept_median']} ms)")
    result = {"benchmark": "vision_piecepack", "frames": a.frames, "threshold": a.threshold,
              "area": area, "area_ms_median": round(area_ms, 2), "table": tables,
              "table_ms_median": round(table_ms, 2), "machine": platform.machine(),
              "load_average": round(load, 1)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
