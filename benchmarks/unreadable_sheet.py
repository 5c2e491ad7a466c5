"""Draw the dice listed in ``vision/dice/unreadable.py`` on one contact sheet, each enlarged with
its surroundings and captioned with its label, so anyone can check the judgement by eye.

    python3 benchmarks/unreadable_sheet.py --out /tmp/unreadable.png

The real photos are Rune55 (CC BY 4.0, Roboflow Universe; see tests/fixtures/README.md): a sheet
made from them must keep that attribution.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import unreadable  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR, read_labels  # noqa: E402
from vision.dice.evaluate import NUMBERED_SEED, synthetic_items  # noqa: E402

TILE = 160


def tile(image: np.ndarray, box: tuple[float, float, float, float], caption: str) -> np.ndarray:
    """The die in ``box`` with 40% of its side around it, enlarged to TILE px, captioned."""
    x, y, w, h = (int(round(v)) for v in box)
    pad = int(0.4 * max(w, h))
    crop = image[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad]
    out = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    out = cv2.copyMakeBorder(out, 0, 16, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    cv2.putText(out, caption, (2, TILE + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.36, (0, 0, 0), 1)
    return out


def tiles(real: Path) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for stem, dice in unreadable.RUNE55.items():
        image = cv2.imread(str(real / "images" / f"{stem}.jpg"), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{real}/images/{stem}.jpg is missing: is --real the Rune55 folder?")
        labels = read_labels(real / "labels" / f"{stem}.txt", image.shape[1], image.shape[0])
        for index, (kind, value, _) in sorted(dice.items()):
            box = labels[index].box
            print(f"#{len(out)} {stem} die {index}: {kind}:{value}")
            out.append(tile(image, box, f"#{len(out)} {kind}:{value} {max(box[2:]):.0f}px"))
    names = sorted(unreadable.RENDERED_NUMBERED)
    first = int(names[0].split("-")[1])
    count = int(names[-1].split("-")[1]) - first + 1
    assert first >= NUMBERED_SEED
    for name, image, truths in synthetic_items(count, seed=first, cocked_rate=0.0,
                                               kinds=("d4", "d8", "d10", "d12", "d20")):
        for index, (kind, value, _) in sorted(unreadable.RENDERED_NUMBERED.get(name, {}).items()):
            box = truths[index].box
            print(f"#{len(out)} {name} die {index}: {kind}:{value}")
            out.append(tile(image, box, f"#{len(out)} {kind}:{value} {max(box[2:]):.0f}px"))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--real", default=str(DEFAULT_REAL_DIR), help="the Rune55 folder")
    p.add_argument("--out", default="unreadable_dice.png")
    p.add_argument("--columns", type=int, default=8)
    args = p.parse_args()
    cells = tiles(Path(args.real))
    blank = np.full_like(cells[0], 255)
    cells += [blank] * (-len(cells) % args.columns)
    rows = [np.hstack(cells[i : i + args.columns]) for i in range(0, len(cells), args.columns)]
    cv2.imwrite(args.out, np.vstack(rows))
    print(f"{sum(len(d) for d in unreadable.RUNE55.values())} photographed and "
          f"{sum(len(d) for d in unreadable.RENDERED_NUMBERED.values())} rendered dice -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
