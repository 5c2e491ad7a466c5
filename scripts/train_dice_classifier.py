#!/usr/bin/env python3
"""Train the dice reader's two small networks and export them to ONNX for ``cv2.dnn``.

    python3 scripts/train_dice_classifier.py detector    # -> vision/dice/models/dice_detector.onnx
    python3 scripts/train_dice_classifier.py classifier  # -> vision/dice/models/dice_classifier.onnx

Training needs PyTorch (``pip install torch==2.13.0 onnx``); running the reader does not: the
exported models run through OpenCV's DNN module. Data: the *tune* split (by source-photo stem,
see ``vision.dice.dataset``) of the real Rune55 photos plus synthetic renders from
``vision.synthetic.dice`` (every die type, pips and numbers, cocked dice, clutter). The *eval*
split is never seen here. Everything is seeded, so a rerun regenerates the committed models
(up to floating-point differences between machines).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import dataset  # noqa: E402
from vision.dice.labels import CLASSES, COCKED, NONE, class_of  # noqa: E402
from vision.dice.models import (  # noqa: E402
    CLASSIFIER_SIZE,
    DETECTOR_STRIDE,
    MODEL_DIR,
    crop_square,  # noqa: E402
)
from vision.synthetic import dice as synth  # noqa: E402

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
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


class Classifier(nn.Module):
    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv(1, 16), nn.MaxPool2d(2),
            conv(16, 32), conv(32, 32), nn.MaxPool2d(2),
            conv(32, 48), conv(48, 48), nn.MaxPool2d(2),
        )
        side = CLASSIFIER_SIZE // 8
        self.fc = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * side * side, 128), nn.ReLU(inplace=True),
            nn.Linear(128, n_classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.body(x))


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


def load_folded_onnx(model: nn.Module, path: Path) -> None:
    """Start from an exported model (BatchNorm folded into the convolutions by the exporter).

    Each conv+BN block gets the folded weights; its BN becomes the identity plus the folded bias
    and stays frozen (see :func:`freeze_batchnorm`), so fine-tuning starts where export left.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    folded = [(init[n.input[1]], init[n.input[2]]) for n in graph.node
              if n.op_type == "Conv" and n.input[1].startswith("onnx::")]
    blocks = [m for m in model.modules() if isinstance(m, nn.Sequential) and len(m) == 3
              and isinstance(m[0], nn.Conv2d) and isinstance(m[1], nn.BatchNorm2d)]
    assert len(blocks) == len(folded), (len(blocks), len(folded))
    with torch.no_grad():
        for block, (w, b) in zip(blocks, folded, strict=True):
            assert tuple(block[0].weight.shape) == w.shape
            block[0].weight.copy_(torch.from_numpy(w))
            bn = block[1]
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
        for name, p in model.named_parameters():
            if name in init:
                p.copy_(torch.from_numpy(init[name]))


def freeze_batchnorm(model: nn.Module) -> None:
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def train_detector(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    real = load_real(Path(args.real), "tune")
    print(f"real tune images: {len(real)}")
    synth_scenes = synthetic_scenes(args.synthetic, args.seed + 1000, args.threads, args.cache)
    print(f"synthetic scenes: {len(synth_scenes)}")
    pool = real + synth_scenes
    model = Detector()
    if args.init and args.init.endswith(".onnx"):
        load_folded_onnx(model, Path(args.init))
    elif args.init:
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.steps
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    size = args.size
    t0 = time.time()
    model.train()
    if args.init and args.init.endswith(".onnx"):
        freeze_batchnorm(model)
    for step in range(steps):
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
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"step {step} loss {loss.item():.3f} heat {l_heat.item():.3f} size {l_size.item():.3f} "
                  f"off {l_off.item():.3f} ({time.time() - t0:.0f}s)", flush=True)
    if args.save_pt:
        torch.save(model.state_dict(), args.save_pt)
    export(model, (1, 1, 320, 320), MODEL_DIR / "dice_detector.onnx", dynamic=True)


def crop_samples_real(real: list, rng: np.random.Generator) -> tuple[list[np.ndarray], list[int]]:
    """Every labelled die of the tune split, cropped as the reader crops (with box jitter)."""
    xs, ys = [], []
    for img, dice in real:
        for x, y, w, h, cls in dice:
            for _ in range(4):
                j = 0.08 * max(w, h)
                box = (x + rng.normal(0, j), y + rng.normal(0, j), w * math.exp(rng.normal(0, 0.08)),
                       h * math.exp(rng.normal(0, 0.08)))
                xs.append(crop_square(img, box))
                ys.append(cls)
        # background crops: random boxes that barely overlap any die
        for _ in range(2):
            s = float(rng.uniform(12, 120))
            bx, by = float(rng.uniform(0, img.shape[1] - s)), float(rng.uniform(0, img.shape[0] - s))
            if all(_iou((bx, by, s, s), d[:4]) < 0.1 for d in dice):
                xs.append(crop_square(img, (bx, by, s, s)))
                ys.append(CLASSES.index(NONE))
    return xs, ys


def _iou(a: tuple, b: tuple) -> float:
    ax2, ay2, bx2, by2 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    iw = max(0.0, min(ax2, bx2) - max(a[0], b[0]))
    ih = max(0.0, min(ay2, by2) - max(a[1], b[1]))
    inter = iw * ih
    return inter / max(1e-6, a[2] * a[3] + b[2] * b[3] - inter)


def crop_augment(crop: np.ndarray, cls: int, rng: np.random.Generator) -> np.ndarray:
    name = CLASSES[cls]
    if name.startswith("d6:") or name in (NONE, COCKED):
        # pip faces are symmetric under the square's rotations and mirrors
        crop = np.rot90(crop, int(rng.integers(4)))
        if rng.random() < 0.5:
            crop = crop[:, ::-1]
    s = CLASSIFIER_SIZE
    angle = float(rng.uniform(-20, 20))
    m = cv2.getRotationMatrix2D((s / 2, s / 2), angle, math.exp(rng.normal(0, 0.06)))
    m[:, 2] += rng.normal(0, 1.0, 2)
    crop = cv2.warpAffine(np.ascontiguousarray(crop), m, (s, s), borderMode=cv2.BORDER_REPLICATE)
    return photometric(crop, rng)


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


def _crop(seed: int) -> tuple[np.ndarray, int]:
    return synth.training_crop(np.random.default_rng(seed))


def synthetic_crops(n: int, seed: int, workers: int, cache: str | None) -> tuple[list[np.ndarray], list[int]]:
    """``n`` synthetic classifier crops (seeded; optionally cached as .npz between runs)."""
    if n <= 0:
        return [], []
    path = Path(cache) / f"crops-{seed}-{n}-{CLASSIFIER_SIZE}.npz" if cache else None
    if path is not None and path.exists():
        data = np.load(path)
        return list(data["x"]), [int(v) for v in data["y"]]
    import multiprocessing

    with multiprocessing.Pool(max(1, workers)) as pool:
        out = pool.map(_crop, range(seed, seed + n), chunksize=64)
    xs = [c for c, _ in out]
    ys = [int(y) for _, y in out]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, x=np.stack(xs), y=np.array(ys))
    return xs, ys


def train_classifier(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    real = load_real(Path(args.real), "tune")
    xs, ys = crop_samples_real(real, rng)
    n_real = len(xs)
    sx, sy = synthetic_crops(args.synthetic, args.seed + 5000, args.threads, args.cache)
    xs.extend(sx)
    ys.extend(sy)
    print(f"crops: {n_real} real, {len(xs) - n_real} synthetic, {len(CLASSES)} classes")
    X = np.stack(xs)
    Y = np.array(ys, np.int64)
    model = Classifier(len(CLASSES))
    if args.init:
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.steps
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    # real d6 crops are the measured target: by default drawn as often as all synthetic crops
    share = args.real_share
    weights = np.where(np.arange(len(Y)) < n_real, share / n_real, (1 - share) / max(1, len(Y) - n_real))
    weights /= weights.sum()
    t0 = time.time()
    model.train()
    for step in range(steps):
        idx = rng.choice(len(Y), args.batch, p=weights)
        batch = np.stack([crop_augment(X[i], int(Y[i]), rng) for i in idx])
        x = torch.from_numpy(batch[:, None].astype(np.float32) / 255.0)
        x = (x - x.mean(dim=(2, 3), keepdim=True)) / (x.std(dim=(2, 3), keepdim=True) + 0.02)
        y = torch.from_numpy(Y[idx])
        out = model(x)
        loss = F.cross_entropy(out, y, label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0 or step == steps - 1:
            acc = (out.argmax(1) == y).float().mean().item()
            print(f"step {step} loss {loss.item():.3f} acc {acc:.3f} ({time.time() - t0:.0f}s)", flush=True)
    if args.save_pt:
        torch.save(model.state_dict(), args.save_pt)
    export(model, (1, 1, CLASSIFIER_SIZE, CLASSIFIER_SIZE), MODEL_DIR / "dice_classifier.onnx",
           dynamic=False)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["detector", "classifier"])
    p.add_argument("--real", default=str(dataset.DEFAULT_REAL_DIR))
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--size", type=int, default=320)
    p.add_argument("--synthetic", type=int, default=0, help="synthetic scenes or crops to mix in")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cache", default=None, help="folder to cache synthetic crops in")
    p.add_argument("--only-cache", action="store_true", help="make the synthetic cache and stop")
    p.add_argument("--real-share", type=float, default=0.5, help="share of real crops per batch")
    p.add_argument("--init", default=None, help="start from these PyTorch weights (.pt)")
    p.add_argument("--save-pt", default=None, help="also save the PyTorch weights here")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    MODEL_DIR.mkdir(parents=True, exist_ok=True)
    if args.what == "detector" and args.only_cache:
        synthetic_scenes(args.synthetic, args.seed + 1000, args.threads, args.cache)
    elif args.what == "detector":
        train_detector(args)
    elif args.only_cache:
        synthetic_crops(args.synthetic, args.seed + 5000, args.threads, args.cache)
    else:
        train_classifier(args)


if __name__ == "__main__":
    main()
