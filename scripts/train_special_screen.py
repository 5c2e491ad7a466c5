#!/usr/bin/env python3
"""Train the special dice screen (``vision/special_dice/models/special_screen.onnx``).

The screen sees each of the shipped finder's candidates in a rendered frame as a small
axis-aligned crop (``nets.screen_crop``) and learns whether a die of either kind lies there (a
candidate within half a die's side of a die's centre is a die; every other candidate, on pipped
d6, tokens, board print or bare table, is not).

    nice -n 10 env OMP_NUM_THREADS=1 python3 scripts/train_special_screen.py render --frames 2400 --seed 700000 --data /tmp/screen/s700000.npz
    nice -n 10 env OMP_NUM_THREADS=1 python3 scripts/train_special_screen.py train --minutes 10 --data /tmp/screen/*.npz

``render`` renders frames from ``--seed`` on (every other frame block dice, the others scatter
dice, as a roll of one kind; every third frame with 3-4 distractors instead of 0-2), runs the
shipped finder as ``read_special_dice`` does (``find``, ``min_side_px``, at most twice
``max_dice``) and keeps every candidate's crop, heat, side and label. Training seeds only:
never 3,000,000-3,999,999 (tuning) or 5,000,000-7,999,999 (evaluation and tests).
``train`` trains the network (torch, one thread; crops mirrored and turned by quarter turns)
and exports it (``--export``, default the shipped path). torch is needed only here.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.special_dice.nets import SCREEN_CROP, SCREEN_PATH, normalise, screen_crop, to_grey  # noqa: E402
from vision.special_dice.reader import finder_candidates  # noqa: E402
from vision.special_dice.types import SpecialDiceConfig  # noqa: E402
from vision.synthetic.special_dice import render_scene  # noqa: E402

SCREEN_CHANNELS = (8, 16, 24, 32)
"""The screen's four convolutions (3x3, each followed by a 2x2 max pool but the last)."""


def _check_seeds(first: int, frames: int) -> None:
    for lo, hi, what in ((3_000_000, 4_000_000, "tuning"), (5_000_000, 8_000_000, "evaluation and test")):
        if first < hi and first + frames > lo:
            raise SystemExit(f"seeds {first}-{first + frames - 1} overlap the {what} seeds {lo}-{hi - 1}")


def render(frames: int, seed: int, out: Path) -> None:
    """Every finder candidate of ``frames`` rendered frames from ``seed`` on: crops, heat, side, label."""
    import cv2

    cv2.setNumThreads(1)
    _check_seeds(seed, frames)
    config = SpecialDiceConfig()
    crops, heat, side, label, frame = [], [], [], [], []
    t0 = time.time()
    for i in range(frames):
        rng = np.random.default_rng(seed + i)
        kind = ("block", "scatter")[i % 2]
        img, truth = render_scene(rng, kinds=(kind,), distractors=int(rng.integers(3, 5)) if i % 3 == 2 else None)
        grey = to_grey(img)
        cands = finder_candidates(grey, config)
        dice = [(d.centre[0], d.centre[1], float(max(d.box[2], d.box[3]))) for d in truth.dice]
        for c in cands:
            crops.append(screen_crop(grey, (c[0], c[1]), c[2]))
            heat.append(c[3])
            side.append(c[2])
            label.append(any(math.hypot(c[0] - x, c[1] - y) <= 0.5 * s for x, y, s in dice))
            frame.append(i)
        if (i + 1) % 200 == 0:
            print(f"render: {i + 1} frames, {len(label)} candidates ({sum(label)} on a die), {time.time() - t0:.0f} s",
                  flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, crops=np.stack(crops), heat=np.array(heat, np.float32),
                        side=np.array(side, np.float32), label=np.array(label, np.uint8),
                        frame=np.array(frame, np.int32), seed=np.int64(seed))
    print(f"render: {len(label)} candidates, {sum(label)} on a die, written to {out}")


def screen_net() -> Any:
    import torch

    torch.set_num_threads(1)
    nn = torch.nn
    layers: list[Any] = []
    prev = 1
    for i, ch in enumerate(SCREEN_CHANNELS):
        layers += [nn.Conv2d(prev, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(inplace=True)]
        if i < len(SCREEN_CHANNELS) - 1:
            layers.append(nn.MaxPool2d(2))
        prev = ch
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(prev, 1)]
    return nn.Sequential(*layers)


def train(data: list[Path], minutes: float, lr: float, seed: int, export: Path) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    parts = [dict(np.load(p)) for p in data]
    crops = np.concatenate([p["crops"] for p in parts])
    label = np.concatenate([p["label"] for p in parts]).astype(np.float32)
    frame = np.concatenate([p["frame"] + 10_000_000 * k for k, p in enumerate(parts)])
    rng = np.random.default_rng(seed)
    frames = np.unique(frame)
    held = set(rng.choice(frames, size=max(1, len(frames) // 20), replace=False).tolist())
    va = np.array([f in held for f in frame])
    tr = np.nonzero(~va)[0]
    print(f"screen: {len(label)} candidates ({int(label.sum())} on a die), {len(tr)} to train on, "
          f"{int(va.sum())} held back")
    net = screen_net()
    print(f"screen: {sum(p.numel() for p in net.parameters())} weights")
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    pos = float(label[tr].mean())
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor((1 - pos) / max(pos, 1e-6)))
    t0, step = time.time(), 0
    while time.time() - t0 < minutes * 60:
        done = (time.time() - t0) / (minutes * 60)
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(1.0, done)))
        idx = rng.choice(tr, 128)
        x = crops[idx]
        k = int(rng.integers(4))
        x = np.rot90(x, k, axes=(1, 2))
        if rng.random() < 0.5:
            x = x[:, :, ::-1]
        xt = torch.from_numpy(normalise(np.ascontiguousarray(x)))  # as the reader normalises
        # a little contrast and noise
        xt = xt * torch.empty(len(idx), 1, 1, 1).uniform_(0.8, 1.2) + 0.05 * torch.randn_like(xt)
        net.train()
        loss = loss_fn(net(xt)[:, 0], torch.from_numpy(label[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 500 == 0:
            print(f"screen: step {step}, loss {float(loss):.4f}, {time.time() - t0:.0f} s", flush=True)
    net.eval()
    with torch.no_grad():
        out = torch.cat([net(torch.from_numpy(normalise(crops[va][i:i + 512])))[:, 0]
                         for i in range(0, int(va.sum()), 512)]).numpy()
    y = label[va] > 0.5
    for t in (-6.0, -4.0, -3.0, -2.0, 0.0):
        drop = out < t
        print(f"screen: held back, logit < {t}: drops {100 * drop[~y].mean():.1f}% of the others, "
              f"{int((drop & y).sum())} of {int(y.sum())} dice")
    export.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.zeros(1, 1, SCREEN_CROP, SCREEN_CROP),), str(export), input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "n"}, "y": {0: "n"}}, opset_version=17,
                      dynamo=False)
    torch.save(net.state_dict(), export.with_suffix(".pt"))
    print(f"screen: {step} steps, exported {export}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("render", "train"))
    ap.add_argument("--frames", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=700_000)
    ap.add_argument("--data", type=Path, nargs="+", required=True,
                    help="render: the set to write; train: the sets to train on")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--export", type=Path, default=SCREEN_PATH)
    a = ap.parse_args()
    if a.what == "render":
        render(a.frames, a.seed, a.data[0])
    else:
        train(a.data, a.minutes, a.lr, a.seed, a.export)


if __name__ == "__main__":
    main()
