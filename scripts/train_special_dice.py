#!/usr/bin/env python3
"""Train the block and scatter dice networks on rendered frames and export them to ONNX.

    nice -n 10 env OMP_NUM_THREADS=1 python3 scripts/train_special_dice.py render --frames 5000
    nice -n 10 env OMP_NUM_THREADS=1 python3 scripts/train_special_dice.py finder --minutes 8
    nice -n 10 env OMP_NUM_THREADS=1 python3 scripts/train_special_dice.py reader --minutes 10

``render`` draws 640x360 windows of 1280x720 camera frames (``vision.synthetic.special_dice``,
seeds from ``TRAIN_SEED``; the benchmark's and the tests' seeds lie elsewhere) and keeps, per
frame, the finder's view with the dice's centres and sizes, and for each die two crops at
jittered centres and sizes (plus crops of bare table, distractors and half-dice as "none").
``render --upright`` turns every crop as the upright reader's are turned at run time (the
camera's "down" pointing down; the reader then trains without quarter turns).
``finder`` and ``reader`` train the networks (torch, one thread) and export them to
``vision/special_dice/models/``. torch is needed only here, never at run time.
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

from vision.special_dice.nets import (  # noqa: E402
    ANGLE_BINS,
    CELL,
    CLASSES,
    CROP,
    DET_STRIDE,
    FINDER_PATH,
    READER_PATH,
    SIZE_REF,
    crop_sample,
    shrink,
    to_grey,
)
from vision.special_dice.upright import turn_deg  # noqa: E402
from vision.synthetic.special_dice import Camera, render_scene  # noqa: E402

TRAIN_SEED = 10_000
DATA = Path("/tmp/special_dice_train.npz")
SYMBOL_CLASS = {1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 5}  # block face -> reader class


def _finder_candidates(grey: np.ndarray) -> list[tuple[float, float, float, float]]:
    """The shipped finder's candidates in a rendered frame (none when no finder is exported yet)."""
    if not FINDER_PATH.exists():
        return []
    from vision.special_dice.reader import find
    from vision.special_dice.types import SpecialDiceConfig

    return find(grey, SpecialDiceConfig(find_threshold=0.05))


def true_nadir(camera: Camera) -> np.ndarray:
    """The nadir of a rendered frame's camera (homogeneous): the image of the vertical direction
    (the table's w axis points down into it)."""
    n = camera.K() @ camera.rotation()[:, 2]
    return np.asarray(n / np.linalg.norm(n))


def render(frames: int, out: Path, seed: int, upright: bool = False) -> None:
    """Render ``frames`` training frames from ``seed`` on into ``out``. Crops are kept at
    ``CROP_SAMPLE`` pixels (the reader's input is shrunk from them): per die two at jittered
    centres and sizes, one at the shipped finder's own box when it finds the die, and one half
    off the die ("none"); per frame the finder's candidates where no die lies (hard negatives),
    distractors and bare table ("none").

    ``upright``: every crop is turned as the upright reader's are at run time (the way from the
    crop's centre to the camera's nadir points down; ``vision.special_dice.upright``), with the
    renderer's true camera for the nadir; the arrow angles are the crop's, each crop's turn is
    kept (``turns``) and the set is marked ``upright``."""
    det_x: list[np.ndarray] = []
    det_boxes: list[np.ndarray] = []
    crops: list[np.ndarray] = []
    labels: list[int] = []
    angles: list[float] = []
    source: list[int] = []  # 0 jittered truth, 1 the finder's box, 2 made-up negative, 3 finder phantom
    turns: list[float] = []
    t0 = time.time()
    nad: np.ndarray | None = None

    def cut(grey: np.ndarray, centre: tuple[float, float], side: float) -> tuple[np.ndarray, float]:
        t = turn_deg(nad, centre) if upright else 0.0
        return crop_sample(grey, centre, side, t), t

    def add(c: tuple[np.ndarray, float], label: int, angle: float, src: int) -> None:
        crops.append(c[0])
        labels.append(label)
        angles.append((angle + c[1]) % 360.0 if math.isfinite(angle) else angle)
        source.append(src)
        turns.append(c[1])

    for i in range(frames):
        rng = np.random.default_rng(seed + i)
        img, truth = render_scene(rng, width=640, height=360, focal_ref=1280, n_dice=int(rng.integers(1, 5)))
        grey = to_grey(img)
        nad = true_nadir(truth.camera)
        det_x.append(shrink(grey))
        rows = []
        for d in truth.dice:
            side = float(max(d.box[2], d.box[3]))
            rows.append((d.centre[0], d.centre[1], side))
            cls = SYMBOL_CLASS[d.value] if d.kind == "block" else 6
            angle = d.image_deg if d.image_deg is not None else float("nan")
            for _ in range(2):
                j = rng.normal(0, 0.09, 2) * side
                s = side * float(np.exp(rng.normal(0, 0.12)))
                add(cut(grey, (d.centre[0] + j[0], d.centre[1] + j[1]), s), cls, angle, 0)
            # half a die off centre: not a die to read
            a = rng.uniform(0, 2 * math.pi)
            off = side * rng.uniform(0.75, 1.1)
            add(cut(grey, (d.centre[0] + off * math.cos(a), d.centre[1] + off * math.sin(a)), side),
                0, float("nan"), 2)
        det_boxes.append(np.array(rows, np.float32).reshape(-1, 3))
        phantoms = 0
        for cx, cy, side, _heat in _finder_candidates(grey):
            near = [k for k, r in enumerate(rows) if math.hypot(cx - r[0], cy - r[1]) <= 0.5 * r[2]]
            if near:
                d = truth.dice[near[0]]
                cls = SYMBOL_CLASS[d.value] if d.kind == "block" else 6
                add(cut(grey, (cx, cy), side), cls,
                    d.image_deg if d.image_deg is not None else float("nan"), 1)
            elif phantoms < 4 and all(math.hypot(cx - r[0], cy - r[1]) > 0.75 * r[2] for r in rows):
                phantoms += 1
                add(cut(grey, (cx, cy), side), 0, float("nan"), 3)
        for b in truth.distractors:
            add(cut(grey, (b[0] + b[2] / 2, b[1] + b[3] / 2), b[2] * rng.uniform(0.6, 1.0)), 0,
                float("nan"), 2)
        for _ in range(2):  # bare table
            side = float(rng.uniform(25, 70))
            c = (float(rng.uniform(0, 640)), float(rng.uniform(0, 360)))
            if all(math.hypot(c[0] - r[0], c[1] - r[1]) > 0.9 * (side + r[2]) for r in rows):
                add(cut(grey, c, side), 0, float("nan"), 2)
        if (i + 1) % 250 == 0:
            print(f"{i + 1} frames, {len(crops)} crops, {time.time() - t0:.0f} s", flush=True)
    rows_all = np.concatenate([np.column_stack([np.full(len(b), i, np.float32), b])
                               for i, b in enumerate(det_boxes)])
    np.savez_compressed(out, det_x=np.stack(det_x), det_rows=rows_all,
                        crops=np.stack(crops), labels=np.array(labels, np.int64),
                        angles=np.array(angles, np.float32), source=np.array(source, np.int8),
                        turns=np.array(turns, np.float32), upright=np.array(upright))
    print(f"saved {out}: {frames} frames, {len(crops)} crops")


def _torch() -> Any:
    import torch

    torch.set_num_threads(1)
    return torch


def finder_net() -> Any:
    torch = _torch()
    nn = torch.nn

    def block(i: int, o: int, s: int = 1, d: int = 1) -> list[Any]:
        return [nn.Conv2d(i, o, 3, s, padding=d, dilation=d), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(*block(1, 8, 2), *block(8, 16, 2), *block(16, 24), *block(24, 24, 1, 2),
                         *block(24, 24), nn.Conv2d(24, 4, 1))


READER_ARCHS: dict[str, tuple[int, tuple[int, ...], int]] = {
    "small": (48, (12, 24, 32, 32, 48), 160),
    "wide64": (64, (16, 32, 48, 48, 64), 192),
}
"""Reader networks: crop side in pixels, channels of the five convolutions, hidden width. The
crop side is the exported network's input size, which the reader at run time follows."""


def reader_net(arch: str = "wide64") -> Any:
    torch = _torch()
    nn = torch.nn
    size, ch, hidden = READER_ARCHS[arch]

    class Reader(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()

            def block(i: int, o: int) -> list[Any]:
                return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

            self.body = nn.Sequential(
                *block(1, ch[0]), nn.MaxPool2d(2), *block(ch[0], ch[1]), nn.MaxPool2d(2), *block(ch[1], ch[2]),
                *block(ch[2], ch[3]), nn.MaxPool2d(2), *block(ch[3], ch[4]), nn.MaxPool2d(2), nn.Flatten(),
                nn.Linear(ch[4] * (size // 16) ** 2, hidden), nn.ReLU(inplace=True), nn.Dropout(0.1),
            )
            self.head = nn.Linear(hidden, len(CLASSES) + ANGLE_BINS)

        def forward(self, x: Any) -> Any:
            return self.head(self.body(x))

    return Reader()


def _norm(torch: Any, x: Any) -> Any:
    x = x.float() / 255.0
    m = x.mean(dim=(-1, -2), keepdim=True)
    s = x.std(dim=(-1, -2), keepdim=True, unbiased=False)
    return (x - m) / (s + 0.02)


def load(paths: list[Path], keep_sample: bool = False) -> dict[str, np.ndarray]:
    """The rendered sets in ``paths``, joined (frame numbers of later sets shifted); crops
    shrunk to ``CROP`` unless ``keep_sample``."""
    parts = [dict(np.load(p)) for p in paths]
    out: dict[str, np.ndarray] = {}
    shift = 0
    rows = []
    for part in parts:
        r = part["det_rows"].copy()
        r[:, 0] += shift
        rows.append(r)
        shift += len(part["det_x"])
    out["det_rows"] = np.concatenate(rows)
    for key in ("det_x", "crops", "labels", "angles"):
        out[key] = np.concatenate([p[key] for p in parts])
    out["source"] = np.concatenate([p["source"] if "source" in p else np.zeros(len(p["labels"]), np.int8)
                                    for p in parts])
    kinds = {bool(p["upright"]) if "upright" in p else False for p in parts}
    if len(kinds) > 1:
        raise SystemExit("these sets mix upright crops (render --upright) with plain ones: train on one sort")
    out["upright"] = np.array(kinds.pop())
    if out["crops"].shape[1] != CROP and not keep_sample:  # rendered for another crop size
        import cv2

        out["crops"] = np.stack([cv2.resize(c, (CROP, CROP), interpolation=cv2.INTER_AREA)
                                 for c in out["crops"]])
    return out


def load_views(paths: list[Path]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The finder's views in the rendered sets ``paths`` (plain or upright: the views are the
    same) and, per view, its dice as rows (centre x, centre y, side) in window pixels."""
    xs, boxes = [], []
    for path in paths:
        with np.load(path) as part:
            x, rows = part["det_x"], part["det_rows"]
        xs.append(x)
        order = np.argsort(rows[:, 0], kind="stable")
        rows = rows[order]
        cuts = np.searchsorted(rows[:, 0], np.arange(len(x) + 1))
        boxes += [rows[cuts[i]:cuts[i + 1], 1:] for i in range(len(x))]
    return np.concatenate(xs), boxes


def finder_targets(boxes: list[np.ndarray], gh: int, gw: int, peak_cell: bool = False
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per view: the heat target (a Gaussian at each die's centre, a third of its side in cells
    wide; with ``peak_cell`` the cell nearest the centre set to 1, the focal loss's positive:
    without it only cells within about a tenth of a cell of a centre reach the 0.99 that counts
    as positive, fewer than one die in ten), the regression targets (log side over ``SIZE_REF``, centre offset in cells) and
    their weights (cells within 1.5 cells of the centre, or 0.3 of the die's side in cells for
    dice over 80 px, so that a large die's size is learnt where its peak may fall)."""
    n = len(boxes)
    heat = np.zeros((n, gh, gw), np.float32)
    reg = np.zeros((n, 3, gh, gw), np.float32)
    regw = np.zeros((n, gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for i in range(n):
        for cx, cy, side in boxes[i]:
            gx, gy = cx / CELL - 0.5, cy / CELL - 0.5
            sig = max(0.5, side / CELL * 0.3)
            d2 = (xx - gx) ** 2 + (yy - gy) ** 2
            heat[i] = np.maximum(heat[i], np.exp(-d2 / (2 * sig ** 2)))
            ix, iy = round(gx), round(gy)
            if peak_cell and 0 <= ix < gw and 0 <= iy < gh:
                heat[i, iy, ix] = 1.0
            near = d2 <= max(1.5, 0.3 * side / CELL) ** 2
            reg[i, 0][near] = math.log(side / SIZE_REF)
            reg[i, 1][near] = (gx - xx)[near]
            reg[i, 2][near] = (gy - yy)[near]
            regw[i][near] = 1.0
    return heat, reg, regw


def augment_view(x: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, zoom: float, blur: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """One finder view and its dice mirrored left-right half the time, with chance 0.4 (when
    ``zoom`` > 1) a part of it blown up by 1 to ``zoom`` times (larger dice than the renders
    hold; dice whose centre falls outside are dropped), and with chance ``blur`` blurred
    (Gaussian, sigma 0.4-1.2 view pixels)."""
    import cv2

    h, w = x.shape
    scale = DET_SCALE_VIEW
    b = boxes.copy()
    if zoom > 1.0 and rng.random() < 0.4:
        s = float(rng.uniform(1.0, zoom))
        cw, ch = w / s, h / s
        x0, y0 = float(rng.uniform(0, w - cw)), float(rng.uniform(0, h - ch))
        m = np.array([[s, 0, -x0 * s], [0, s, -y0 * s]], np.float32)
        x = cv2.warpAffine(x, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        b[:, 0] = (b[:, 0] - x0 * scale) * s
        b[:, 1] = (b[:, 1] - y0 * scale) * s
        b[:, 2] *= s
        b = b[(b[:, 0] >= 0) & (b[:, 0] < w * scale) & (b[:, 1] >= 0) & (b[:, 1] < h * scale)]
    if blur > 0 and rng.random() < blur:
        x = cv2.GaussianBlur(x, (0, 0), float(rng.uniform(0.4, 1.2)))
    if rng.random() < 0.5:  # dice stay dice mirrored
        x = np.ascontiguousarray(x[:, ::-1])
        b[:, 0] = w * scale - b[:, 0]
    return x, b


DET_SCALE_VIEW = CELL // DET_STRIDE
"""Window pixels per finder-view pixel."""


def train_finder(data: list[Path], minutes: float, seed: int, resume: Path | None = None,
                 lr: float = 3e-3, checkpoint: Path = Path("/tmp/special_finder.pt"),
                 export: Path = FINDER_PATH, zoom: float = 1.0, blur: float = 0.0,
                 peak_cell: bool = False) -> None:
    """Train the finder (CenterNet focal loss on the heat, L1 on size and offset) for ``minutes``
    on the views of ``data`` (a twentieth held back, never trained on), augmented by
    ``augment_view`` (``zoom``, ``blur``), targets by ``finder_targets`` (``peak_cell``); a cosine
    learning rate from ``lr``."""
    torch = _torch()
    xs, boxes = load_views(data)
    n = len(xs)
    hold = min(max(50, n // 20), n // 2)
    tr = np.arange(n - hold)
    H, W = xs.shape[1], xs.shape[2]
    gh, gw = H // DET_STRIDE, W // DET_STRIDE
    print(f"finder: {n} views, {sum(len(b) for b in boxes)} dice, training on {len(tr)}", flush=True)
    torch.manual_seed(seed)
    net = finder_net()
    if resume is not None:
        net.load_state_dict(torch.load(resume))
        print(f"finder: resumed from {resume}")
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    t_end = time.time() + minutes * 60
    step = 0
    total = None
    while time.time() < t_end:
        frac = 1 - (t_end - time.time()) / (minutes * 60)
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
        views, bs = zip(*(augment_view(xs[i], boxes[i], rng, zoom, blur) for i in rng.choice(tr, 16)),
                        strict=True)
        heat, reg, regw = finder_targets(list(bs), gh, gw, peak_cell)
        x = _norm(torch, torch.from_numpy(np.stack(views)[:, None]))
        ht, rt, wt = torch.from_numpy(heat), torch.from_numpy(reg), torch.from_numpy(regw)
        out = net(x)
        p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
        pos = (ht > 0.99).float()
        # CenterNet focal loss
        lpos = -((1 - p) ** 2 * torch.log(p) * pos).sum()
        lneg = -(((1 - ht) ** 4) * p ** 2 * torch.log(1 - p) * (1 - pos)).sum()
        npos = pos.sum().clamp(min=1)
        lreg = (torch.abs(out[:, 1:] - rt).sum(1) * wt).sum() / wt.sum().clamp(min=1)
        loss = (lpos + lneg) / npos + lreg
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        total = loss.item() if total is None else 0.98 * total + 0.02 * loss.item()
        if step % 200 == 0:
            print(f"finder step {step} loss {total:.3f}", flush=True)
            torch.save(net.state_dict(), checkpoint)
    torch.save(net.state_dict(), checkpoint)
    net.eval()
    export.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 1, 180, 320), str(export), input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "n", 2: "h", 3: "w"}, "y": {0: "n", 2: "h", 3: "w"}},
                      opset_version=17, dynamo=False)
    print(f"finder: {step} steps, exported {export}")


def soft_angles(deg: np.ndarray, sigma: float = 2.0) -> np.ndarray:
    centres = np.arange(ANGLE_BINS) * (360.0 / ANGLE_BINS)
    d = (deg[:, None] - centres[None, :] + 180.0) % 360.0 - 180.0
    w = np.exp(-(d ** 2) / (2 * sigma ** 2))
    return np.asarray(w / w.sum(axis=1, keepdims=True), np.float32)


def _load_reader_state(torch: Any, net: Any, path: Path) -> None:
    """Load a reader state dict; a head trained with another number of angle bins is carried
    over (class rows kept, angle rows resampled to ``ANGLE_BINS``)."""
    state = torch.load(path)
    w, bias = state["head.weight"], state["head.bias"]
    n_cls = len(CLASSES)
    old_bins = w.shape[0] - n_cls
    if old_bins != ANGLE_BINS:
        src = (np.arange(ANGLE_BINS) * old_bins / ANGLE_BINS).astype(int)
        idx = torch.from_numpy(np.concatenate([np.arange(n_cls), n_cls + src]))
        state["head.weight"], state["head.bias"] = w[idx].clone(), bias[idx].clone()
        print(f"reader: angle head resampled from {old_bins} to {ANGLE_BINS} bins")
    net.load_state_dict(state)


def _shrunk(crops: np.ndarray, side: int) -> np.ndarray:
    """Crops shrunk to ``side`` pixels (as the reader is given them)."""
    import cv2

    if crops.shape[1] == side:
        return crops
    return np.stack([cv2.resize(c, (side, side), interpolation=cv2.INTER_AREA) for c in crops])


def _onnx_gap(net: Any, path: Path, crops: np.ndarray) -> float:
    """The largest difference between the outputs of the torch reader ``net`` (eval mode) and
    the exported one at ``path`` on ``crops``."""
    import onnxruntime as ort

    torch = _torch()
    x = _norm(torch, torch.from_numpy(crops))[:, None]
    net.eval()
    with torch.no_grad():
        mine = net(x).numpy()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    theirs = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]).run(
        None, {"x": x.numpy()})[0]
    return float(np.abs(mine - theirs).max())


def _starting_weights(net: Any, arch: str, resume: Path | None, resume_onnx: Path | None,
                      calib: Any) -> Any:
    """The reader to train: ``net`` as it is, with the state dict ``resume`` loaded, or rebuilt
    from the exported reader ``resume_onnx`` (``reader_from_onnx`` over the crops ``calib()``
    gives, checked against the exported network; in train mode)."""
    if resume is not None and resume_onnx is not None:
        raise SystemExit("--resume and --resume-onnx both given: start from one of them")
    if resume is not None:
        _load_reader_state(_torch(), net, resume)
        print(f"reader: resumed from {resume}")
    if resume_onnx is not None:
        crops = calib()
        net = reader_from_onnx(resume_onnx, crops, arch)
        diff = _onnx_gap(net, resume_onnx, crops)
        print(f"reader: rebuilt from {resume_onnx} (batch norms as the identity over {len(crops)} crops); "
              f"largest output difference from it {diff:.2e}")
        net.train()
    return net


def reader_from_onnx(path: Path, crops: np.ndarray, arch: str = "wide64") -> Any:
    """A torch reader rebuilt from an exported one (``path``), to train on from its weights.

    The export folded each batch norm into the convolution before it; the folded weights and
    biases go into the convolutions and every batch norm starts as the identity: its weight and
    bias are the per-channel spread and mean of its input over ``crops`` (uint8, N x side x
    side, as the reader is given them) and its running statistics the same, so that it passes
    its input through unchanged in eval mode exactly and in train mode nearly (on batches like
    ``crops``). Returned in eval mode; it reads as the exported network does."""
    import onnx
    from onnx import numpy_helper

    torch = _torch()
    model = onnx.load(str(path))
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    net = reader_net(arch)
    convs = [m for m in net.body if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in net.body if isinstance(m, torch.nn.BatchNorm2d)]
    conv_nodes = [n for n in model.graph.node if n.op_type == "Conv"]
    if len(conv_nodes) != len(convs):
        raise SystemExit(f"{path} has {len(conv_nodes)} convolutions, the {arch} reader {len(convs)}: "
                         "pass the --arch it was trained with")
    with torch.no_grad():
        for conv, node in zip(convs, conv_nodes, strict=True):
            w = torch.from_numpy(init[node.input[1]].copy())
            if w.shape != conv.weight.shape:
                raise SystemExit(f"{path}: a convolution of shape {tuple(w.shape)} where the {arch} reader "
                                 f"has {tuple(conv.weight.shape)}: pass the --arch it was trained with")
            conv.weight.copy_(w)
            conv.bias.copy_(torch.from_numpy(init[node.input[2]].copy()))
        state = net.state_dict()
        for key in ("body.20.weight", "body.20.bias", "head.weight", "head.bias"):
            if key not in init or init[key].shape != tuple(state[key].shape):
                raise SystemExit(f"{path}: no {key} of shape {tuple(state[key].shape)}: not a {arch} reader")
            state[key].copy_(torch.from_numpy(init[key].copy()))
        for bn in norms:  # identity first, so the inputs measured below are the exported network's
            bn.weight.fill_(1.0)
            bn.bias.zero_()
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        seen: dict[int, Any] = {}
        hooks = [bn.register_forward_pre_hook(lambda m, inp: seen.__setitem__(id(m), inp[0].detach()))
                 for bn in norms]
        net.eval()
        net(_norm(torch, torch.from_numpy(crops))[:, None])
        for h in hooks:
            h.remove()
        for bn in norms:
            x = seen[id(bn)]
            mean = x.mean(dim=(0, 2, 3))
            var = x.var(dim=(0, 2, 3), unbiased=False).clamp(min=1e-4)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean)
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
    return net


UPRIGHT_JITTER_DEG = 4.0
"""Upright crops are turned by up to about this much in training (a normal spread), no more: the
way down in the crop is the cue the upright reader learns."""


def _augment(crops: np.ndarray, angles: np.ndarray, rng: np.random.Generator, side: int = CROP,
             upright: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Reader training crops (``CROP_SAMPLE`` px) moved and scaled a little (as the finder's boxes
    are off), shrunk to ``side``, then mirrored and turned by quarter turns (angles follow).
    ``upright`` crops are only turned a few degrees (``UPRIGHT_JITTER_DEG``) and mirrored left-right,
    which keeps the way down."""
    import cv2

    n, size = crops.shape[0], crops.shape[1]
    out = np.empty((n, side, side), np.uint8)
    ang = angles.copy()
    for i in range(n):
        s = float(np.exp(rng.normal(0, 0.06)))
        t = rng.normal(0, 0.04, 2) * size
        c = size / 2
        r = float(rng.normal(0, UPRIGHT_JITTER_DEG / 2)) if upright else 0.0
        m = cv2.getRotationMatrix2D((c, c), -r, s)  # cv2 turns counter-clockwise as shown: -r is +r with y down
        m[:, 2] += t
        img = cv2.warpAffine(crops[i], m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out[i] = cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA) if size != side else img
        ang[i] = ang[i] + r
    if rng.random() < 0.5:  # mirror left-right: an angle a becomes 180 - a
        out = out[:, :, ::-1]
        ang = 180.0 - ang
    if upright:
        return np.ascontiguousarray(out), ang % 360.0
    k = int(rng.integers(4))
    out = np.rot90(out, k, axes=(1, 2))
    ang = (ang - 90.0 * k) % 360.0  # np.rot90 by k turns an angle by -90 k degrees (y down)
    return np.ascontiguousarray(out), ang


def _leg_lr(peak: float, done: float, total: float | None, frac: float, minutes: float) -> float:
    """Cosine learning rate. One run alone: from ``peak`` down to 0 over its ``minutes`` (``frac``
    of it gone). A leg of a longer schedule (``total`` minutes, ``done`` of them run by the legs
    before): the same cosine taken over the whole schedule, so legs under the time limit of one
    run add up to one long run."""
    if total is None:
        return peak * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
    return peak * 0.5 * (1 + math.cos(math.pi * min(1.0, (done + frac * minutes) / total)))


def draw_weights(labels: np.ndarray, none_weight: float = 1.0) -> np.ndarray | None:
    """Probabilities of drawing each training crop into a batch: a crop of class "none"
    (``CLASSES[0]``: table, distractors, half dice, the finder's phantoms) weighs ``none_weight``,
    a die's crop 1. None (every crop alike) for ``none_weight`` 1."""
    if none_weight == 1.0:
        return None
    if none_weight <= 0:
        raise SystemExit(f"--none-weight must be above 0 (not {none_weight}): the reader must still "
                         "learn what is not a die")
    w = np.where(labels == 0, none_weight, 1.0)
    return np.asarray(w / w.sum())


def _ema_path(checkpoint: Path) -> Path:
    return checkpoint.with_name(checkpoint.stem + ".ema" + checkpoint.suffix)


def _opt_path(checkpoint: Path) -> Path:
    return checkpoint.with_name(checkpoint.stem + ".opt" + checkpoint.suffix)


def train_reader(data: list[Path], minutes: float, seed: int, resume: Path | None = None,
                 lr: float = 2e-3, checkpoint: Path = Path("/tmp/special_reader.pt"),
                 export: Path = READER_PATH, arch: str = "wide64", done: float = 0.0,
                 total: float | None = None, ema_decay: float = 0.0, none_weight: float = 1.0,
                 angle_weight: float = 0.5, resume_onnx: Path | None = None) -> None:
    """Train the reader for ``minutes``. ``done``/``total``: this run is a leg of a ``total``
    minutes cosine schedule of which ``done`` minutes ran before (resume from the leg before: its
    optimiser state and weight average are picked up beside its state dict). ``ema_decay`` > 0
    keeps an exponential moving average of the weights (and batch-norm statistics) and exports
    that instead of the last weights. ``none_weight``: how often a "none" crop is drawn against a
    die's (``draw_weights``); ``angle_weight``: the arrow angle's share of the loss.
    ``resume_onnx``: start from an exported reader's weights (``reader_from_onnx``) when its
    state dict is gone."""
    import copy

    torch = _torch()
    F = torch.nn.functional
    f = load(data, keep_sample=True)
    crops, labels, angles, source = f["crops"], f["labels"], f["angles"], f["source"]
    upright = bool(f["upright"])
    if upright:
        print("reader: upright crops (turned so the camera's down points down): no quarter turns")
    n = len(crops)
    hold = min(max(500, n // 20), n // 2)
    tr, va = np.arange(n - hold), np.arange(n - hold, n)
    p_draw = draw_weights(labels[tr], none_weight)
    if p_draw is not None:
        print(f"reader: none crops drawn with weight {none_weight}: "
              f"{100 * p_draw[labels[tr] == 0].sum():.0f}% of a batch (of {100 * np.mean(labels[tr] == 0):.0f}% of the crops)")
    torch.manual_seed(seed)
    net = reader_net(arch)
    side = READER_ARCHS[arch][0]
    print(f"reader: {arch}, {side} px crops, {sum(p.numel() for p in net.parameters())} parameters")
    net = _starting_weights(net, arch, resume, resume_onnx,
                            lambda: _shrunk(crops[np.random.default_rng(seed).choice(
                                tr, min(512, len(tr)), replace=False)], side))
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    if resume is not None and total is not None and _opt_path(resume).exists():
        opt.load_state_dict(torch.load(_opt_path(resume)))
        print(f"reader: optimiser state from {_opt_path(resume)}")
    ema = None
    if ema_decay > 0:
        ema = copy.deepcopy(net)
        if resume is not None and _ema_path(resume).exists():
            ema.load_state_dict(torch.load(_ema_path(resume)))
            print(f"reader: weight average from {_ema_path(resume)}")
        ema.eval()
    A = np.nan_to_num(angles, nan=0.0)
    has_angle = ~np.isnan(angles)
    rng = np.random.default_rng(seed)
    t_end = time.time() + minutes * 60
    step, smooth = 0, None
    n_cls = len(CLASSES)
    def save() -> None:
        torch.save(net.state_dict(), checkpoint)
        torch.save(opt.state_dict(), _opt_path(checkpoint))
        if ema is not None:
            torch.save(ema.state_dict(), _ema_path(checkpoint))

    while time.time() < t_end:
        frac = 1 - (t_end - time.time()) / (minutes * 60)
        for g in opt.param_groups:
            g["lr"] = _leg_lr(lr, done, total, frac, minutes)
        idx_np = rng.choice(tr, 64, p=p_draw)
        x_np, ang = _augment(crops[idx_np], A[idx_np], rng, side, upright)
        x = _norm(torch, torch.from_numpy(x_np))[:, None]
        out = net(x)
        lcls = F.cross_entropy(out[:, :n_cls], torch.from_numpy(labels[idx_np]), label_smoothing=0.01)
        m = has_angle[idx_np]
        if m.any():
            target = torch.from_numpy(soft_angles(ang[m]))
            lang = -(F.log_softmax(out[torch.from_numpy(m)][:, n_cls:], dim=1) * target).sum(1).mean()
        else:
            lang = torch.zeros(())
        loss = lcls + angle_weight * lang
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ema is not None:
            with torch.no_grad():
                for e, v in zip(ema.state_dict().values(), net.state_dict().values(), strict=True):
                    if e.dtype.is_floating_point:
                        e.mul_(ema_decay).add_(v, alpha=1 - ema_decay)
                    else:
                        e.copy_(v)
        step += 1
        smooth = loss.item() if smooth is None else 0.98 * smooth + 0.02 * loss.item()
        if step % 200 == 0:
            print(f"reader step {step} loss {smooth:.3f} lr {opt.param_groups[0]['lr']:.2e}", flush=True)
            save()
    save()
    if ema is not None:
        net = ema
        print(f"reader: exporting the weight average (decay {ema_decay})")
    net.eval()
    small = _shrunk(crops[va], side)
    with torch.no_grad():
        out = torch.cat([net(_norm(torch, torch.from_numpy(small[i:i + 512]))[:, None])
                         for i in range(0, len(small), 512)]).numpy()
    pred = out[:, :n_cls].argmax(1)
    print(f"reader: held-back crops class accuracy {np.mean(pred == labels[va]):.4f} over {len(va)}")
    for src, name in ((0, "jittered"), (1, "finder's boxes"), (3, "finder phantoms")):
        sel = source[va] == src
        if sel.any():
            print(f"   {name}: {np.mean(pred[sel] == labels[va][sel]):.4f} over {int(sel.sum())}")
    sc = (labels[va] == 6)
    if sc.any():
        got = out[sc, n_cls:].argmax(1) * (360.0 / ANGLE_BINS)
        err = np.abs((got - angles[va][sc] + 180) % 360 - 180)
        print(f"reader: scatter angle error median {np.median(err):.1f} deg, 95% {np.percentile(err, 95):.1f}, "
              f"half-turns {np.mean(err > 150):.4f}")
    export.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 1, side, side), str(export), input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "n"}, "y": {0: "n"}}, opset_version=17,
                      dynamo=False)
    print(f"reader: {step} steps, exported {export}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("render", "finder", "reader"))
    ap.add_argument("--frames", type=int, default=5000)
    ap.add_argument("--minutes", type=float, default=8.0)
    ap.add_argument("--data", type=Path, nargs="+", default=[DATA],
                    help="rendered set(s): one to write (render), one or more to train on")
    ap.add_argument("--seed", type=int, default=TRAIN_SEED)
    ap.add_argument("--upright", action="store_true",
                    help="render: turn every crop as the upright reader does (the camera's down pointing down)")
    ap.add_argument("--resume", type=Path, help="start from this state dict (/tmp/special_finder.pt, /tmp/special_reader.pt)")
    ap.add_argument("--resume-onnx", type=Path,
                    help="reader: start from this exported reader's weights (its batch norms folded into the "
                         "convolutions: they start as the identity), when its state dict is gone")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate (finder: 3e-3 unless given)")
    ap.add_argument("--arch", choices=sorted(READER_ARCHS), default="wide64",
                    help="reader network (READER_ARCHS): wide64 = 64 px crops (shipped), small = 48 px and fewer channels")
    ap.add_argument("--schedule", type=float, nargs=2, metavar=("DONE", "TOTAL"),
                    help="reader: this run is a leg of a TOTAL-minute cosine schedule, DONE minutes of it "
                         "run before (resume from the leg before; its optimiser state and weight average "
                         "are picked up)")
    ap.add_argument("--ema", type=float, default=0.0,
                    help="reader: keep a moving average of the weights with this decay (e.g. 0.999) and export it")
    ap.add_argument("--zoom", type=float, default=1.0,
                    help="finder: blow up a part of 2 in 5 views by 1 to ZOOM times (larger dice; 1 = off)")
    ap.add_argument("--blur", type=float, default=0.0,
                    help="finder: blur this share of the views a little (Gaussian, sigma 0.4-1.2 view pixels)")
    ap.add_argument("--peak-cell", action="store_true",
                    help="finder: mark the cell nearest each die's centre as the heat target's peak (1)")
    ap.add_argument("--none-weight", type=float, default=1.0,
                    help="reader: draw weight of a \"none\" crop against a die's (1: as they come; 0.5: half as often)")
    ap.add_argument("--angle-weight", type=float, default=0.5,
                    help="reader: weight of the arrow angle's loss against the class loss")
    ap.add_argument("--checkpoint", type=Path,
                    help="where the state dict is saved as it trains (default /tmp/special_<what>.pt)")
    ap.add_argument("--export", type=Path,
                    help="where the ONNX model goes (default: the shipped one in vision/special_dice/models/)")
    a = ap.parse_args()
    if a.what != "render":
        out = {"checkpoint": a.checkpoint or Path(f"/tmp/special_{a.what}.pt"),
               "export": a.export or (FINDER_PATH if a.what == "finder" else READER_PATH)}
    if a.what == "render":
        render(a.frames, a.data[0], a.seed, a.upright)
    elif a.what == "finder":
        train_finder(a.data, a.minutes, a.seed, a.resume, a.lr if a.lr != 2e-3 else 3e-3, zoom=a.zoom,
                     blur=a.blur, peak_cell=a.peak_cell, **out)
    else:
        done, total = a.schedule if a.schedule else (0.0, None)
        train_reader(a.data, a.minutes, a.seed, a.resume, a.lr, arch=a.arch, done=done, total=total,
                     ema_decay=a.ema, none_weight=a.none_weight, angle_weight=a.angle_weight,
                     resume_onnx=a.resume_onnx, **out)


if __name__ == "__main__":
    main()
