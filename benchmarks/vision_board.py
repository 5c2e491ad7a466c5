"""Board registration, occupancy/identity and per-frame step benchmarks (synthetic), plus the
marker-less fallback on the real photos in ../shared/data/realboard/.

    python3 benchmarks/vision_board.py [--frames 2000] [--reg-frames 200]

Prints each figure, then one JSON object with all of them on the last line.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.board.evaluate import (  # noqa: E402
    evaluate_occupancy,
    evaluate_realboard,
    evaluate_registration,
    evaluate_step_time,
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=2000, help="synthetic frames for occupancy")
    ap.add_argument("--reg-frames", type=int, default=200, help="frames for registration")
    ap.add_argument("--step-frames", type=int, default=200, help="frames for the step timing")
    args = ap.parse_args()
    out: dict[str, object] = {"machine": f"{platform.machine()} {platform.processor() or ''}"
                              .strip(), "frame": "1280x720"}
    t0 = time.time()
    reg = evaluate_registration(args.reg_frames)
    print(f"registration, 2 of 12 markers covered, {reg['frames']} frames "
          f"(failures {reg['failures']}):")
    print(f"  full registration median {reg['full_registration_median_ms']:.2f} ms, per-frame "
          f"verification median {reg['verify_median_ms']:.2f} ms")
    print(f"  board corner error mean {reg['corner_error_mean_px']:.3f} px "
          f"(p95 of worst corner {reg['corner_error_p95_px']:.3f} px)")
    out["registration"] = reg
    step = evaluate_step_time(args.step_frames)
    print(f"whole per-frame step (gate + verify + read), still scene: median "
          f"{step['step_median_ms']:.2f} ms, p95 {step['step_p95_ms']:.2f} ms")
    out["step"] = step
    occ = evaluate_occupancy(args.frames).as_dict()
    print(f"occupancy/identity on {occ['frames']} synthetic frames ({occ['frames_read']} read; "
          f"{occ['hand_frames']} with a hand over squares, {occ['hand_frames_refused']} refused, "
          f"{occ['hand_frames_read_wrong']} read wrongly):")
    print(f"  squares right {100 * float(occ['squares_accuracy']):.3f}%  figurines right "
          f"(square and owner) {100 * float(occ['figurines_accuracy']):.3f}% of "
          f"{occ['figurines']}; refused without a hand {occ['refused_without_hand']}, "
          f"board not found {occ['board_not_found']}")
    out["occupancy"] = occ
    real = evaluate_realboard()
    print("marker-less fallback on real photos:")
    for name, r in real.items():
        print(f"  {name}: {r}")
    out["realboard_outline"] = real
    out["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
