#!/usr/bin/env python3
"""Train the dice reader's detector and export it to ONNX for ``cv2.dnn``.

    python3 scripts/train_dice_classifier.py detector    # -> vision/dice/models/dice_detector.onnx

The classifier (64x64 crops) is trained by ``scripts/train_dice_reader.py``.

Training needs PyTorch (``pip install torch==2.13.0 onnx``); running the reader does not: the
exported models run through OpenCV's DNN module. Data: the *tune* split (by source-photo stem,
see ``vision.dice.dataset``) of the real Rune55 photos plus synthetic renders from
``vision.synthetic.dice`` (every die type, pips and numbers, cocked dice, clutter, on plain
tables, dark speckled trays and board print) and frames of the synthetic table
(``vision.synthetic.table``) with its own small dice; optionally (``--colour-photos``) the
*train* part of the real colour photos (dice-colour-epanemu: the split by photo of
``scripts/train_d6_head.py``, never its calib or eval photos) and (``--colour-tray``) rendered
colour dice in a tray seen from above (``vision.dice.evaluate.colour_tray_items``, seeds from
9,000,000), both read grey as the detector sees them. The *eval* split is never seen here. Everything is seeded, so a rerun regenerates the committed models
(up to floating-point differences between machines).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_dice_reader import calib_of, load_init  # noqa: E402

from vision.dice import dataset  # noqa: E402
from vision.dice.labels import class_of  # noqa: E402
from vision.dice.models import (  # noqa: E402
    DETECTOR_STRIDE,
    MODEL_DIR,  # noqa: E402
)
from vision.synthetic import dice as synth  # noqa: E402

try:
    import torch
    import torch.nn as nn
except ImportError:  # pragma: no cover - training only
    sys.exit("training needs PyTorch: pip install torch==2.13.0 onnx")


# ----------------------------------------------------------------------------- networks


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Detector(nn.Module):
    """CenterNet-style: heat (1), log box w/h (2), centre offset (2) at stride 8."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = conv(1, 8, 2)
        self.s4 = nn.Sequential(conv(8, 16, 2), conv(16, 16))
        self.s8 = nn.Sequential(conv(16, 32, 2), conv(32, 32))
        self.s16 = nn.Sequential(conv(32, 48, 2), conv(48, 48))
        self.s32 = nn.Sequential(conv(48, 64, 2), conv(64, 64), conv(64, 64))
        self.l16 = nn.Conv2d(48, 32, 1)
        self.l32 = nn.Conv2d(64, 32, 1)
        self.l8 = nn.Conv2d(32, 32, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse16 = conv(32, 32)
        self.fuse8 = conv(32, 32)
        self.head = nn.Conv2d(32, 5, 1)
        with torch.no_grad():
            self.head.bias[0] = -2.2  # low prior for a die at any one cell
            self.head.bias[1:3] = 3.3  # log of a typical box side (27 px)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f8 = self.s8(self.s4(self.s2(x)))
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.fuse16(self.l16(f16) + self.up(self.l32(f32)))
        p8 = self.fuse8(self.l8(f8) + self.up(p16))
        return self.head(p8)


# ----------------------------------------------------------------------------- data


def load_real(folder: Path, split: str) -> list[tuple[np.ndarray, list[tuple[float, float, float, float, int]]]]:
    out = []
    for item in dataset.iter_folder(folder, split=split):
        img = cv2.imread(str(item.path), cv2.IMREAD_GRAYSCALE)
        if img is None:
            continue
        dice = [(*d.box, class_of(d.kind, d.value)) for d in item.dice]
        out.append((img, dice))
    return out


Sample = tuple[np.ndarray, list[tuple[float, float, float, float, int]]]
"""A detector training image (grey) and its dice: x, y, w, h in its pixels, and the class."""


def colour_photos(folder: Path) -> list[Sample]:
    """The *train* part of a folder of real colour photos (dice-colour-epanemu), grey as the
    detector sees them: neither the eval photos (``dataset.split_of``) nor the calib ones
    (``calib_of``: about a fifth of the rest, kept to choose the reader's thresholds). One copy
    per photo there, so a photo's file name is its stem. Boxes are of the image as it is (the
    labels are fractions of it)."""
    out = []
    for item in dataset.iter_folder(folder, split="tune", errata=True):
        if calib_of(item.stem):
            continue
        img = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        fx, fy = grey.shape[1] / 640, grey.shape[0] / 640  # iter_folder's boxes are of a 640x640 image
        out.append((grey, [(d.box[0] * fx, d.box[1] * fy, d.box[2] * fx, d.box[3] * fy, class_of(d.kind, d.value))
                           for d in item.dice]))
    return out


TRAY_TRAIN_SEED = 9_000_000
"""The first seed of the colour-tray renders trained on: the benchmark's frames start at
``evaluate.COLOUR_TRAY_SEED`` (8,000,000) and the tuning frames at ``COLOUR_TRAY_TUNE_SEED``
(8,500,000); neither range is ever trained on."""


def colour_tray_frames(n: int, seed: int = TRAY_TRAIN_SEED, side: int = 960,
                       background: np.ndarray | None = None,
                       size: tuple[int, int] = (1296, 972)) -> list[Sample]:
    """``n`` rendered colour-tray frames (``evaluate.colour_tray_items``: the five
    ``d6_3d.TRAY_LOOKS`` in turn, 2-6 dice a frame) grey, their longer side scaled to ``side``
    (960: 1.5 times the detector's view of a 1296x972 frame, so the training's scale jitter,
    0.3-1.15, spans the dice as the reader sees them, 0.45-1.7 times). Seeds in the
    benchmark's or the tuning frames' range are refused."""
    from vision.dice.evaluate import COLOUR_TRAY_SEED, COLOUR_TRAY_TUNE_SEED, colour_tray_items

    if n <= 0:
        return []
    if seed + n > COLOUR_TRAY_SEED and seed < COLOUR_TRAY_TUNE_SEED + 100_000:
        raise SystemExit(f"colour-tray seeds {seed}..{seed + n - 1} reach the benchmark's (8,000,000) "
                         f"or the tuning frames' (8,500,000) range: use 9000000 or more")
    out: list[Sample] = []
    for _name, _look, img, truths in colour_tray_items(n, seed, size=size, background=background):
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        f = side / max(grey.shape)
        small = cv2.resize(grey, (round(grey.shape[1] * f), round(grey.shape[0] * f)), interpolation=cv2.INTER_AREA)
        out.append((small, [(t.box[0] * f, t.box[1] * f, t.box[2] * f, t.box[3] * f, class_of("d6", t.value))
                            for t in truths]))
    return out


def cached(cache: str | None, name: str, make: Callable[[], list[Sample]]) -> list[Sample]:
    """``make()``, kept as ``cache/name`` between runs when ``cache`` is given."""
    import pickle

    path = Path(cache) / name if cache else None
    if path is not None and path.exists():
        kept: list[Sample] = pickle.loads(path.read_bytes())
        return kept
    out = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(out))
    return out


def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = img.astype(np.float32)
    if rng.random() < 0.5:
        gamma = math.exp(rng.normal(0, 0.3))
        f = 255.0 * (f / 255.0) ** gamma
    f = f * rng.uniform(0.6, 1.3) + rng.uniform(-40, 40)
    if rng.random() < 0.3:
        k = int(rng.choice([3, 5]))
        f = cv2.GaussianBlur(f, (k, k), 0)
    if rng.random() < 0.5:
        f = f + rng.normal(0, rng.uniform(1, 10), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def dihedral(img: np.ndarray, boxes: np.ndarray, k: int, flip: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rotate by k*90 degrees and optionally mirror; boxes as x, y, w, h."""
    h, w = img.shape[:2]
    b = boxes.copy()
    if flip:
        img = img[:, ::-1]
        b[:, 0] = w - b[:, 0] - b[:, 2]
    for _ in range(k):
        h, w = img.shape[:2]
        img = np.rot90(img)  # counter-clockwise: (x, y) -> (y, w - x)
        nb = b.copy()
        nb[:, 0] = b[:, 1]
        nb[:, 1] = w - b[:, 0] - b[:, 2]
        nb[:, 2] = b[:, 3]
        nb[:, 3] = b[:, 2]
        b = nb
    return np.ascontiguousarray(img), b


def detector_sample(
    img: np.ndarray, dice: list, rng: np.random.Generator, size: int
) -> tuple[np.ndarray, np.ndarray]:
    boxes = np.array([d[:4] for d in dice], np.float32).reshape(-1, 4)
    scale = math.exp(rng.uniform(math.log(0.3), math.log(1.15)))
    img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    boxes = boxes * scale
    img, boxes = dihedral(img, boxes, int(rng.integers(4)), bool(rng.random() < 0.5))
    h, w = img.shape
    ph, pw = max(0, size - h), max(0, size - w)
    if ph or pw:
        fill = int(np.median(img))
        top, left = int(rng.integers(ph + 1)), int(rng.integers(pw + 1))
        img = cv2.copyMakeBorder(img, top, ph - top, left, pw - left, cv2.BORDER_CONSTANT, value=fill)
        boxes[:, 0] += left
        boxes[:, 1] += top
        h, w = img.shape
    y0, x0 = int(rng.integers(h - size + 1)), int(rng.integers(w - size + 1))
    img = img[y0 : y0 + size, x0 : x0 + size]
    boxes[:, 0] -= x0
    boxes[:, 1] -= y0
    # clip to the crop; keep boxes whose centre stays inside
    x1 = np.clip(boxes[:, 0], 0, size)
    y1 = np.clip(boxes[:, 1], 0, size)
    x2 = np.clip(boxes[:, 0] + boxes[:, 2], 0, size)
    y2 = np.clip(boxes[:, 1] + boxes[:, 3], 0, size)
    keep = (x2 - x1 > 3) & (y2 - y1 > 3) & ((x2 - x1) * (y2 - y1) > 0.4 * boxes[:, 2] * boxes[:, 3])
    out = np.stack([x1, y1, x2 - x1, y2 - y1], 1)[keep]
    img = photometric(img, rng)
    if rng.random() < 0.15:
        img = 255 - img
    return img, out


def detector_targets(boxes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = size // DETECTOR_STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for x, y, w, h in boxes:
        cx, cy = (x + w / 2) / DETECTOR_STRIDE, (y + h / 2) / DETECTOR_STRIDE
        ix, iy = min(g - 1, int(cx)), min(g - 1, int(cy))
        sigma = max(0.5, 0.12 * min(w, h) / DETECTOR_STRIDE)
        gauss = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma * sigma))
        heat = np.maximum(heat, gauss)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(max(w, 2.0)), math.log(max(h, 2.0)), cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return heat, reg, mask


def focal_loss(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


# ----------------------------------------------------------------------------- training


def export(model: nn.Module, shape: tuple[int, ...], path: Path, dynamic: bool) -> None:
    model.eval()
    dummy = torch.zeros(*shape)
    axes = {"input": {0: "n", 2: "h", 3: "w"}, "output": {0: "n", 2: "gh", 3: "gw"}} if dynamic else {
        "input": {0: "n"}, "output": {0: "n"}}
    torch.onnx.export(
        model, dummy, str(path), input_names=["input"], output_names=["output"],
        dynamic_axes=axes, opset_version=13, dynamo=False,
    )
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")


def train_detector(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    real = load_real(Path(args.real), "tune")
    print(f"real tune images: {len(real)}")
    synth_scenes = synthetic_scenes(args.synthetic, args.seed + 1000, args.threads, args.cache)
    print(f"synthetic scenes: {len(synth_scenes)}")
    table = cached(args.cache, f"table-{args.seed + 2000}-{args.table_frames}.pkl",
                   lambda: table_scenes(args.table_frames, args.seed + 2000))
    print(f"synthetic table frames: {len(table)}")
    colour = colour_photos(Path(args.colour_photos)) if args.colour_photos else []
    print(f"real colour photos (train part): {len(colour)}, {sum(len(d) for _, d in colour)} dice"
          f"{f', each {args.colour_repeat} times' if colour else ''}")
    tray = tray_pool(args)
    print(f"rendered colour-tray frames: {len(tray)}, {sum(len(d) for _, d in tray)} dice")
    pool = detector_pool(real, synth_scenes, table, colour, tray, args.real_repeat, args.table_repeat,
                         args.colour_repeat)
    print("pool: " + ", ".join(f"{k} {v:.0%}" for k, v in pool_shares(
        len(real) * args.real_repeat, len(synth_scenes), len(table) * args.table_repeat,
        len(colour) * args.colour_repeat, len(tray)).items()))
    model = Detector()
    if args.init:
        load_init(model, args.init)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.steps if args.minutes <= 0 else 10**9
    sched = None
    if args.minutes <= 0:
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    size = args.size
    t0 = last_ck = time.time()
    model.train()
    for step in range(steps):
        if args.minutes > 0:
            # a wall-time budget: cosine decay over the minutes given, checkpoints on the way
            frac = (time.time() - t0) / (args.minutes * 60)
            if frac >= 1:
                break
            for g in opt.param_groups:
                g["lr"] = args.lr * min(1.0, frac / 0.03) * 0.5 * (1 + math.cos(math.pi * frac))
            if time.time() - last_ck > 360:
                last_ck = time.time()
                export(model, (1, 1, 320, 320), Path(args.out), dynamic=True)
                model.train()
        imgs, heats, regs, masks = [], [], [], []
        for _ in range(args.batch):
            img, dice = pool[int(rng.integers(len(pool)))]
            im, boxes = detector_sample(img, dice, rng, size)
            heat, reg, mask = detector_targets(boxes, size)
            imgs.append(im)
            heats.append(heat)
            regs.append(reg)
            masks.append(mask)
        x = torch.from_numpy(np.stack(imgs)[:, None].astype(np.float32) / 255.0)
        heat_t = torch.from_numpy(np.stack(heats))
        reg_t = torch.from_numpy(np.stack(regs))
        mask_t = torch.from_numpy(np.stack(masks))
        out = model(x)
        l_heat = focal_loss(out[:, 0], heat_t)
        n = mask_t.sum().clamp(min=1)
        l_size = (torch.abs(out[:, 1:3] - reg_t[:, 0:2]) * mask_t[:, None]).sum() / n
        l_off = (torch.abs(torch.sigmoid(out[:, 3:5]) - reg_t[:, 2:4]) * mask_t[:, None]).sum() / n
        loss = l_heat + l_size + l_off
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"step {step} loss {loss.item():.3f} heat {l_heat.item():.3f} size {l_size.item():.3f} "
                  f"off {l_off.item():.3f} ({time.time() - t0:.0f}s)", flush=True)
    if args.save_pt:
        torch.save(model.state_dict(), args.save_pt)
    export(model, (1, 1, 320, 320), Path(args.out), dynamic=True)


def detector_pool(real: list[Sample], synth_scenes: list[Sample], table: list[Sample],
                  colour: list[Sample], tray: list[Sample], real_repeat: int = 1,
                  table_repeat: int = 1, colour_repeat: int = 1) -> list[Sample]:
    """The detector's training pool, each source repeated as asked (a sample is drawn uniformly
    from the pool, so repeating a source weights it up against the others)."""
    if min(real_repeat, table_repeat, colour_repeat) < 0:
        raise SystemExit("--real-repeat, --table-repeat and --colour-repeat must be 0 or more")
    return real * real_repeat + synth_scenes + table * table_repeat + colour * colour_repeat + tray


def pool_shares(real: int, synthetic: int, table: int, colour: int, tray: int) -> dict[str, float]:
    """Each source's share of the pool (counts after repeats)."""
    total = max(1, real + synthetic + table + colour + tray)
    return {"Rune55": real / total, "synthetic": synthetic / total, "table": table / total,
            "colour photos": colour / total, "colour tray": tray / total}


def tray_pool(args: argparse.Namespace) -> list[Sample]:
    """``--colour-tray`` frames from ``--colour-tray-seed`` on the empty tray's photo (as the
    benchmark renders them; a dark speckled tray when the photo is missing), cached."""
    if args.colour_tray <= 0:
        return []
    from vision.dice.evaluate import tray_photo

    if args.cache:
        # frame i is seeded seed + i alone, so a longer cached run's first N frames are these N
        for path in sorted(Path(args.cache).glob(f"tray-{args.colour_tray_seed}-*.pkl")):
            held = path.stem.rsplit("-", 1)[1]
            if held.isdigit() and int(held) > args.colour_tray:
                return cached(args.cache, path.name, list)[: args.colour_tray]
    bg = tray_photo(dataset.DEFAULT_REAL_DIR.parent / "dice-polyhedral")
    return cached(args.cache, f"tray-{args.colour_tray_seed}-{args.colour_tray}.pkl",
                  lambda: colour_tray_frames(args.colour_tray, args.colour_tray_seed, background=bg))


def _iou(a: tuple, b: tuple) -> float:
    ax2, ay2, bx2, by2 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    iw = max(0.0, min(ax2, bx2) - max(a[0], b[0]))
    ih = max(0.0, min(ay2, by2) - max(a[1], b[1]))
    inter = iw * ih
    return inter / max(1e-6, a[2] * a[3] + b[2] * b[3] - inter)


def _scene(seed: int) -> tuple[np.ndarray, list]:
    return synth.training_scene(np.random.default_rng(seed))


def synthetic_scenes(n: int, seed: int, workers: int, cache: str | None) -> list:
    """``n`` synthetic 640x640 detector scenes (seeded; optionally cached between runs)."""
    if n <= 0:
        return []
    import pickle

    path = Path(cache) / f"scenes-{seed}-{n}.pkl" if cache else None
    if path is not None and path.exists():
        return pickle.loads(path.read_bytes())
    import multiprocessing

    with multiprocessing.Pool(max(1, workers)) as pool:
        out = pool.map(_scene, range(seed, seed + n), chunksize=16)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(out))
    return out


def table_scenes(n: int, seed: int, zoom: float = 2.0) -> list:
    """The dice area (board's middle, plus a margin) of frames of the synthetic table
    (``vision.synthetic.table``: printed board, markers, pawns, hands) with its own small d6,
    enlarged ``zoom`` times as the reader enlarges a small dice area (``DiceConfig.detect_min_side``):
    board print and the colour spots are the detector's commonest false finds there."""
    if n <= 0:
        return []
    from vision.dice.evaluate import table_dice_area, table_truths
    from vision.synthetic.table import Conditions, SyntheticTable, default_camera, random_pose

    rng = np.random.default_rng(seed)
    table = SyntheticTable(camera=default_camera(1280, 720))
    out = []
    for i in range(n):
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(0, 4)))]
        pawns = {name: int(rng.integers(0, 40)) for name in list(table.players)[: int(rng.integers(0, 6))]}
        frame = table.render(pawns, values, hand=bool(rng.random() < 0.2), seed=seed + i,
                             pose=random_pose(rng), conditions=Conditions.random(rng))
        grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
        x, y, w, h = table_dice_area(frame.truth)
        m = int(0.15 * max(w, h))
        x0, y0 = max(0, x - m), max(0, y - m)
        x1, y1 = min(grey.shape[1], x + w + m), min(grey.shape[0], y + h + m)
        sub = cv2.resize(grey[y0:y1, x0:x1], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
        dice = [((t.box[0] - x0) * zoom, (t.box[1] - y0) * zoom, t.box[2] * zoom, t.box[3] * zoom,
                 class_of("d6", t.value)) for t in table_truths(frame.truth)]
        out.append((sub, dice))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["detector", "classifier"])
    p.add_argument("--real", default=str(dataset.DEFAULT_REAL_DIR))
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--minutes", type=float, default=0.0, help="train for this wall time instead")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--size", type=int, default=320)
    p.add_argument("--synthetic", type=int, default=0, help="synthetic scenes to mix in")
    p.add_argument("--table-frames", type=int, default=0, help="synthetic table frames to mix in")
    p.add_argument("--colour-photos", default="", metavar="DIR",
                   help="also the train part of these real colour photos (e.g. ../shared/data/dice-colour-epanemu)")
    p.add_argument("--colour-repeat", type=int, default=1, help="each colour photo this many times in the pool")
    p.add_argument("--real-repeat", type=int, default=1, help="each real (Rune55) tune photo this many times in the pool")
    p.add_argument("--table-repeat", type=int, default=1, help="each synthetic table frame this many times in the pool")
    p.add_argument("--colour-tray", type=int, default=0, metavar="N", help="rendered colour-tray frames to mix in")
    p.add_argument("--colour-tray-seed", type=int, default=TRAY_TRAIN_SEED,
                   help="their first seed (never the benchmark's 8,000,000+ or the tuning 8,500,000+)")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--cache", default=None, help="folder to cache synthetic scenes in")
    p.add_argument("--only-cache", action="store_true", help="make the synthetic cache and stop")
    p.add_argument("--init", default=None, help="start from these weights (.pt or exported .onnx)")
    p.add_argument("--save-pt", default=None, help="also save the PyTorch weights here")
    p.add_argument("--out", default=str(MODEL_DIR / "dice_detector.onnx"))
    args = p.parse_args()
    if args.what == "classifier":
        sys.exit("the classifier is trained by scripts/train_dice_reader.py (64x64 crops)")
    torch.set_num_threads(args.threads)
    MODEL_DIR.mkdir(parents=True, exist_ok=True)
    if args.only_cache:
        synthetic_scenes(args.synthetic, args.seed + 1000, args.threads, args.cache)
        cached(args.cache, f"table-{args.seed + 2000}-{args.table_frames}.pkl",
               lambda: table_scenes(args.table_frames, args.seed + 2000))
        tray_pool(args)
    else:
        train_detector(args)


if __name__ == "__main__":
    main()
