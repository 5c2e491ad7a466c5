#!/usr/bin/env python3
"""Train the type reader: a small network that tells the numbered die types apart
(``vision/dice/models/type_reader.onnx``: d4, d8, d10, d12, d20).

    python3 scripts/train_face_reader.py synth --kind d8 --out DIR ...   # each type's crops
    python3 scripts/train_type_reader.py --data DIR [DIR2 ...] --minutes 45   # -> the model

Why: the 62-class classifier is sure of a rendered numbered die's value far more often than of
its type. On rendered numbered dice about one in thirty is left unsure only because the
classifier splits the type between two numbered types (a d8 or d12 it half takes for a d10, a
d8 for a d20), while the value it and the face reader give is right. This network learns only
that question, on the whole die (the classifier's crop margin, so the outline and the top
face's shape are in view), from the same rendered context crops the face readers train on
(``train_face_reader.py synth``; any turn, loose-box jitter, camera effects). The reader asks it
only about a die typed as a numbered type whose type is in doubt (``reader.with_type_reader``).
Training needs PyTorch (``pip install torch==2.13.0 onnx``).
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_dice_reader import (  # noqa: E402
    build_classifier,
    export,
    load_init,
    normalise,
    train_step,
    wall_clock_steps,
)
from train_face_reader import augment  # noqa: E402

from vision.dice.models import CROP_MARGIN, TYPE_READER_KINDS, type_reader_path  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - training only
    torch = None  # type: ignore[assignment]

VAL = 600
"""Crops of each type held back to validate on (the first of each file)."""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, nargs="+",
                   help="folders of train_face_reader.py synth files (d4.npz ...; every type in the first, "
                        "any in the others); the first's first "
                        f"{VAL} crops of each type are held back to validate on")
    p.add_argument("--minutes", type=float, default=40.0, help="wall-time budget (cosine schedule)")
    p.add_argument("--checkpoint-minutes", type=float, default=10.0)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--width", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--scale-jitter", type=float, default=0.13)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--init", default=None, help="start from these weights: .pt or an exported .onnx (a fine-tune)")
    p.add_argument("--out-pt", default="/tmp/type_reader.pt")
    p.add_argument("--out-onnx", default=str(type_reader_path()))
    args = p.parse_args()
    cv2.setNumThreads(1)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    pools, vx, vy = [], [], []
    for i, kind in enumerate(TYPE_READER_KINDS):
        parts = []
        for j, folder in enumerate(args.data):
            f = Path(folder) / f"{kind}.npz"
            if not f.exists():
                if j == 0:
                    raise SystemExit(f"{f} is missing: run `train_face_reader.py synth --kind {kind} --out {folder}`")
                continue  # a later folder may add some types only (the plastic look has no d4)
            parts.append(np.load(f)["x"])
        vx += [augment(c, rng, jitter=False, margin=CROP_MARGIN) for c in parts[0][:VAL]]
        vy += [i] * min(VAL, len(parts[0]))
        x = np.concatenate([parts[0][VAL:], *parts[1:]])
        pools.append(x)
        print(f"{kind}: {len(x)} training crops", flush=True)
    val_x, val_y = np.stack(vx), torch.tensor(vy)
    model = build_classifier(n_classes=len(TYPE_READER_KINDS), width=args.width)
    if args.init:
        load_init(model, args.init)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    jittered = functools.partial(augment, rng=rng, margin=CROP_MARGIN, scale_sd=args.scale_jitter)
    model.train()
    step = 0
    for step, lr, t0, due in wall_clock_steps(opt, args.lr, args.minutes, args.checkpoint_minutes):
        labels = rng.integers(len(pools), size=args.batch)  # every type equally often
        crops = [jittered(pools[k][rng.integers(len(pools[k]))]) for k in labels]
        train_step(model, opt, crops, list(labels), 0.0, step, lr, t0)
        if due:
            _checkpoint(model, val_x, val_y, args, step)
    _checkpoint(model, val_x, val_y, args, step)


def _checkpoint(model: torch.nn.Module, vx: np.ndarray, vy: torch.Tensor, args: argparse.Namespace,
                step: int) -> None:
    model.eval()
    with torch.no_grad():
        p = torch.cat([F.softmax(model(normalise(vx[i : i + 256])), 1) for i in range(0, len(vx), 256)])
    conf, pred = p.max(1)
    ok = pred == vy
    per = " ".join(f"{k} {ok[vy == i].float().mean():.3f}" for i, k in enumerate(TYPE_READER_KINDS))
    print(f"[ck step {step}] val top1 {ok.float().mean():.4f} ({per}) read@.98 "
          f"{(ok & (conf >= 0.98)).float().mean():.4f} wrong@.98 {(~ok & (conf >= 0.98)).float().mean():.4f}",
          flush=True)
    torch.save(model.state_dict(), args.out_pt)
    export(model, Path(args.out_onnx))


if __name__ == "__main__":
    main()
