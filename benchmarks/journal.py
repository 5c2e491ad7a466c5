"""Saved-game write cost: milliseconds per committed action line, with and without the
checkpoint that keeps the main file whole after every write.

    python3 benchmarks/journal.py [--lines 300] [--folder DIR]

Both ways are measured in one run, alternating in blocks of 20 lines, on the folder given (use
the SD card's folder on a Pi; default: a temporary folder). Prints readable lines, then one
JSON object as the last line.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path

from companion import journal as journal_module
from companion.journal import Journal

HEADER = ["variant monopoly", "seed 1", "player Ann", "player Ben"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    real_checkpoint = journal_module._checkpoint
    times: dict[str, list[float]] = {"checkpoint": [], "wal_only": []}
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        journals = {way: Journal.create(Path(folder) / f"{way}.sqlite", HEADER) for way in times}
        try:
            for block in range(args.lines // 20):
                for way, journal in journals.items():
                    journal_module._checkpoint = (
                        real_checkpoint if way == "checkpoint" else (lambda conn: None))
                    for i in range(20):
                        start = time.perf_counter()
                        journal.append(f"Ann roll {block % 6 + 1} {i % 6 + 1}")
                        times[way].append((time.perf_counter() - start) * 1000)
        finally:
            journal_module._checkpoint = real_checkpoint
            for journal in journals.values():
                journal.close()
    medians = {way: statistics.median(values) for way, values in times.items()}
    print(f"machine: {platform.machine()} {platform.processor() or ''}".rstrip())
    for way, median in medians.items():
        print(f"{way}: median {median:.3f} ms per action ({len(times[way])} lines)")
    ratio = medians["checkpoint"] / medians["wal_only"]
    print(f"ratio checkpoint / wal_only: {ratio:.2f}")
    print(json.dumps({"lines": args.lines, "checkpoint_ms": round(medians["checkpoint"], 3),
                      "wal_only_ms": round(medians["wal_only"], 3), "ratio": round(ratio, 2)}))


if __name__ == "__main__":
    main()
