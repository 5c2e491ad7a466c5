"""What a table's tuning costs the reader besides reading: the network check of every frame, and
loading a tuning file saved before fingerprints.

- A frame's check: ``Adaptation.in_force()`` with ``ColourMemory.usable()`` (every part's
  network file looked at: what the reader did on every frame) against
  ``Adaptation.for_reading()`` (worked out once, then one ``stat`` of the networks' folder),
  for a tuning of every part (grey and colour memory, d4 and d8 number memories): ``os.stat``
  calls and microseconds a frame, alternating.
- Loading an old file (no fingerprints) of a table of ``--dice`` stored d6: the first load
  dates it (its newest stored examples read again; what every load cost before it was kept)
  and the loads after it, alternating with loads of a file written afresh each time (dated
  again).

Prints medians; last line one JSON object.

    OMP_NUM_THREADS=1 nice -n 15 python3 benchmarks/dice_tuning_checks.py
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.dice import d6colour, d6head  # noqa: E402
from vision.dice.tune import (  # noqa: E402
    Adaptation,
    ColourMemory,
    ExampleStore,
    NumberMemory,
    grey_networks,
    number_network,
    unit,
)


def stats_of(fn: Callable[[], object]) -> int:
    """How many ``os.stat`` calls one call of ``fn`` makes."""
    real = os.stat
    count = [0]

    def counted(*a: Any, **k: Any) -> os.stat_result:
        count[0] += 1
        return real(*a, **k)

    os.stat = counted
    try:
        fn()
    finally:
        os.stat = real
    return count[0]


def frame_check(repeat: int) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    table = Adaptation(
        np.zeros((96, 6)), np.zeros(6), 8, unit(rng.normal(0, 1, (8, 96))), np.full(8, 2), 0.9,
        networks=grey_networks(),
        numbers={k: NumberMemory(k, unit(rng.normal(0, 1, (4, 8))), np.arange(1, 5), network=number_network())
                 for k in ("d4", "d8")},
        colour=ColourMemory(unit(rng.normal(0, 1, (8, 16))), np.full(8, 2), 0.9, network=d6colour.fingerprint()))

    def every_file() -> None:
        used = table.in_force()
        assert used is not None and used.colour is not None and used.colour.usable()

    def once() -> None:
        assert table.for_reading() is table

    once()
    out: dict[str, Any] = {}
    times: dict[str, list[float]] = {"every file": [], "for_reading": []}
    for _ in range(repeat):
        for name, fn in (("every file", every_file), ("for_reading", once)):
            t0 = time.perf_counter()
            for _ in range(200):
                fn()
            times[name].append((time.perf_counter() - t0) / 200 * 1e6)
    for name, fn in (("every file", every_file), ("for_reading", once)):
        out[name] = {"stat_calls": stats_of(fn), "us": round(statistics.median(times[name]), 1)}
        print(f"frame check, {name:11}: {out[name]['stat_calls']} os.stat calls, {out[name]['us']:.1f} us (median)")
    return out


def old_file_loads(dice: int, repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = ExampleStore(folder)
        rng = np.random.default_rng(1)
        crops = rng.integers(0, 255, (dice, 64, 64), dtype=np.uint8)
        for i in range(0, dice, 2):
            store.add_crops(list(crops[i:i + 2]), [1 + (i + j) % 6 for j in range(len(crops[i:i + 2]))],
                            ["d6"] * len(crops[i:i + 2]), [None] * len(crops[i:i + 2]))
        _, emb = d6head.embed(crops)
        memory = unit(emb).astype(np.float16)
        path = folder / "adaptation.npz"

        def write() -> None:  # a file saved before fingerprints were kept
            np.savez(path, weight=np.zeros((96, 6)), bias=np.zeros(6), examples=np.array(dice),
                     memory=memory, memory_values=np.arange(dice) % 6 + 1, knn=np.array([7, 20.0]),
                     read_at=np.array(0.9))
            now = time.time_ns()
            os.utime(path, ns=(now, now))  # another file each time (a coarse clock could give the last one's time)

        times: dict[str, list[float]] = {"dated": [], "again": []}
        write()
        Adaptation.load(folder)
        for _ in range(repeat):
            write()
            t0 = time.perf_counter()
            first = Adaptation.load(folder)
            times["dated"].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            again = Adaptation.load(folder)
            times["again"].append((time.perf_counter() - t0) * 1000)
            assert first is not None and again is not None and first.networks == again.networks == grey_networks()
    out = {k: round(statistics.median(v), 2) for k, v in times.items()}
    print(f"an old {dice}-die tuning file: first load (dated) {out['dated']:.2f} ms, "
          f"a load after it {out['again']:.2f} ms (medians of {repeat})")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--dice", type=int, default=400, help="stored d6 of the old table (default 400)")
    p.add_argument("--repeat", type=int, default=15, help="measurements of each (default 15)")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    result = {"frame_check": frame_check(args.repeat), "old_file_load_ms": old_file_loads(args.dice, args.repeat)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
