#!/usr/bin/env python3
"""Train a face reader: a second network for one numbered die type that reads the top number of
a die the main classifier has already typed as that type (``vision/dice/models/face_reader_KIND.onnx``).

    python3 scripts/train_face_reader.py synth --kind d20 --out DIR --dice 24000   # crops, seeded
    python3 scripts/train_face_reader.py train --kind d20 --data DIR --minutes 50  # -> the model

Why a second network: a d20 has twenty numbers printed small, at any turn, on a triangle that
fills a fifth of the die's box. The 62-class classifier spends a twelfth of its training on them
and its top answer was right for only about three d20 in four (docs/vision-dice.md). A face
reader sees nothing but its type, and sees the die closer: its crop is ``FACE_MARGIN`` (0.9)
times the box side instead of 1.15, so a die larger than the crop keeps more of its number's
pixels.

Data: ``vision.synthetic.dice`` scenes of that type only, on the training backgrounds (plain
tables, dark speckled trays, the board's print), 20-90 px dice, with the renderer's camera
effects. Crops are stored with ``CTX_MARGIN`` context so training can turn them by any angle (a
number sits at any angle) and jitter scale and position as loosely as the detector's boxes do.
Training needs PyTorch (``pip install torch==2.13.0 onnx``); the reader runs the exported ONNX
through OpenCV's DNN module.

``--kind d6`` trains the pip-face reader (shipped since version 0.1.0), mirrored as well as turned,
from a crop of the whole box (``face_margin``). Its data (``synth --kind d6``) holds the flat
rendered pips, the Rune55 tune split's real d6 cut at their labelled boxes and at the detector's
boxes (the calibration part of the split validates, per size band), and the synthetic table's
small dice; a second folder (``synth --kind d6 --three-d --no-real``) adds dice drawn in 3D at a
slant (``vision.synthetic.d6_3d``), side faces and their pips showing. Each kind of crop is a
share of every batch (``--real-share``, ``--det-share``, ``--table-share``, the rest rendered),
and the network is ``build_residual`` (``--arch residual``):

    python3 scripts/train_face_reader.py synth --kind d6 --out D --dice 24000
    python3 scripts/train_face_reader.py synth --kind d6 --three-d --no-real --out D3 --dice 20000 --seed 60006
    python3 scripts/train_face_reader.py train --kind d6 --arch residual --data D D3 --minutes 75 \
        --real-share 0.35 --det-share 0.3 --table-share 0.05 --seed 21
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_dice_reader import (  # noqa: E402
    build_classifier,
    export,
    load_folded_onnx,
    normalise,
    photometric,
    real_images,
    train_step,
    wall_clock_steps,
)

from vision.dice import dataset  # noqa: E402
from vision.dice.labels import CLASSES  # noqa: E402
from vision.dice.models import (  # noqa: E402
    CLASSIFIER_SIZE,
    FACE_MARGIN,
    crop_square,
    face_margin,
    face_reader_path,
)
from vision.dice.types import FACES  # noqa: E402
from vision.synthetic import d6_3d  # noqa: E402
from vision.synthetic import dice as synth  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - training only
    torch = None  # type: ignore[assignment]

CTX = 96
CTX_MARGIN = 1.3
VAL = 1200


def cmd_synth(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    seed = args.seed if args.seed is not None else 20_000 + FACES[args.kind]
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    t0 = time.time()
    scene = 384
    if args.three_d and args.kind != "d6":
        raise SystemExit("--three-d draws pipped d6 only: use it with --kind d6")
    if args.plastic and args.kind in ("d4", "d6"):
        raise SystemExit("--plastic draws d8, d10, d12 and d20 only")
    if args.plastic:
        from vision.synthetic.plastic import render_plastic_scene
    while len(xs) < args.dice:
        bg = synth.training_background(rng, scene, scene)
        if args.three_d:
            # d6 seen at a slant, side faces and their pips showing (vision.synthetic.d6_3d)
            img, truths = d6_3d.render_scene(rng, (scene, scene), n_dice=int(rng.integers(2, 7)),
                                             die_px=(22.0, 100.0), max_tilt=45.0, background=bg)
        elif args.plastic and rng.random() < args.plastic:
            # opaque plastic dice (vision.synthetic.plastic), through the camera's blur and noise
            img, truths = render_plastic_scene(rng, bg, int(rng.integers(2, 6)), (args.kind,), (30.0, 120.0))
            img = synth.camera_effects(img, rng)
        else:
            img, truths = synth.render_dice_scene(
                rng, (scene, scene), n_dice=int(rng.integers(3, 9)), kinds=(args.kind,),
                die_px=(20.0, 90.0), background=bg, realistic=args.realistic,
            )
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        for t in truths:
            x, y, w, h = t.box
            if w < 4 or h < 4 or x <= 0 or y <= 0 or x + w >= scene or y + h >= scene:
                continue
            xs.append(crop_square(grey, (float(x), float(y), float(w), float(h)), CTX, CTX_MARGIN))
            ys.append(t.value - 1)
    extra: dict[str, np.ndarray] = {}
    if args.kind == "d6" and not args.no_real:
        # real pip faces: the Rune55 tune split's training part, and its calibration part to
        # validate on (the eval split is never read here)
        for part in ("train", "calib"):
            rx, ry = real_crops(Path(args.real), part)
            extra[f"real_{part}_x"], extra[f"real_{part}_y"] = rx, ry
            print(f"{len(rx)} real {part} d6 crops", flush=True)
            # the same dice cut at the detector's boxes, as the reader sees them
            dx, dy, dside = detected_crops(Path(args.real), part)
            extra[f"det_{part}_x"], extra[f"det_{part}_y"], extra[f"det_{part}_side"] = dx, dy, dside
            print(f"{len(dx)} real {part} d6 crops at the detector's boxes", flush=True)
        # the synthetic table's 16 mm dice, at both camera modes (15-19 and 26-34 px)
        extra["table_x"], extra["table_y"] = table_crops(args.table_frames)
        print(f"{len(extra['table_y'])} synthetic table d6 crops", flush=True)
    np.savez(out / f"{args.kind}.npz", x=np.stack(xs), y=np.array(ys, np.int16), kind=args.kind, **extra)
    print(f"{len(xs)} {args.kind} crops in {time.time() - t0:.0f}s", flush=True)


def real_crops(folder: Path, part: str) -> tuple[np.ndarray, np.ndarray]:
    """Context crops and values (0-based) of the labelled real d6 in the tune split's ``part``."""
    xs, ys = [], []
    for _name, grey, dice in real_images(folder, part):
        for x, y, w, h, cls in dice:
            if CLASSES[cls].startswith("d6:") and min(w, h) >= 8:
                xs.append(crop_square(grey, (x, y, w, h), CTX, CTX_MARGIN))
                ys.append(int(CLASSES[cls].split(":")[1]) - 1)
    return np.stack(xs), np.array(ys, np.int16)


TABLE_SEEDS = {(1280, 720): 90_000, (2304, 1296): 92_000}
"""Seeds of the table frames the d6 reader trains on: none of them is used by a test, the
benchmark (40,000) or the calibration (60,000 and 62,000)."""


def table_crops(frames: int) -> tuple[np.ndarray, np.ndarray]:
    """Context crops and values (0-based) of the d6 on ``frames`` synthetic table frames at each
    camera mode (random pose and conditions), cut at their true boxes."""
    from vision.dice.evaluate import table_items

    xs, ys = [], []
    for size, seed in TABLE_SEEDS.items():
        for _name, img, _area, truths in table_items(frames, seed=seed, random_conditions=True, size=size):
            grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            for t in truths:
                xs.append(crop_square(grey, t.box, CTX, CTX_MARGIN))
                ys.append(t.value - 1)
    return np.stack(xs), np.array(ys, np.int16)


def detected_crops(folder: Path, part: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Context crops, values (0-based) and labelled box sides of the real d6 in the tune split's
    ``part`` that the detector finds (IoU >= 0.4 with the label), cut at the detector's box: the
    box the reader will crop at, a few pixels off the label's, sometimes a part of the die."""
    from vision.dice import DiceConfig
    from vision.dice.evaluate import MATCH_IOU
    from vision.dice.finder import find_dice, iou

    cfg = DiceConfig()
    xs, ys, sides = [], [], []
    for _name, grey, dice in real_images(folder, part):
        for cand in find_dice(grey, cfg):
            best = max(dice, key=lambda d: iou(cand.box, tuple(d[:4])), default=None)
            if best is None or iou(cand.box, tuple(best[:4])) < MATCH_IOU:
                continue
            name = CLASSES[best[4]]
            if name.startswith("d6:"):
                xs.append(crop_square(grey, cand.box, CTX, CTX_MARGIN))
                ys.append(int(name.split(":")[1]) - 1)
                sides.append(max(best[2], best[3]))
    return np.stack(xs), np.array(ys, np.int16), np.array(sides, np.float32)


def augment(ctx: np.ndarray, rng: np.random.Generator, jitter: bool = True, margin: float = FACE_MARGIN,
            mirror: bool = False, scale_sd: float = 0.08) -> np.ndarray:
    """The face reader's crop cut from a context crop: any turn (and, with ``mirror``, a mirror
    image: pip faces read the same mirrored, numbers do not), then loose-box jitter and camera
    effects (mild: a face degraded past reading teaches only doubt)."""
    s = CLASSIFIER_SIZE
    c = CTX / 2
    angle = float(rng.uniform(0, 360)) if jitter else 0.0
    scale = (s / margin) / (CTX / CTX_MARGIN)
    if jitter:
        scale *= math.exp(rng.normal(0, scale_sd))
    m = cv2.getRotationMatrix2D((c, c), angle, scale)
    m[:, 2] += s / 2 - c
    if jitter:
        m[:, 2] += rng.normal(0, 0.05 * s / margin, 2)
    crop = cv2.warpAffine(np.ascontiguousarray(ctx), m, (s, s), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    if mirror and jitter and rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
    return photometric(crop, rng, mild=True) if jitter else crop


def cmd_train(args: argparse.Namespace) -> None:
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    files = [Path(f) / f"{args.kind}.npz" for f in args.data]
    if not files[0].exists():
        raise SystemExit(f"{files[0]} is missing: run `synth --kind {args.kind} --out {args.data[0]}`")
    # the first folder's file comes first, so the held-back crops are its first VAL
    d = np.load(files[0])
    extra = [f for f in files[1:] if f.exists()]
    more = [np.load(f) for f in extra]
    xs = [d["x"], *(m["x"] for m in more)]  # an npz reads an array anew at each access: once here
    for f, mx in zip(extra, xs[1:], strict=True):
        if np.array_equal(mx[:1], xs[0][:1]):
            # the same seed twice would train on the held-back crops and count them twice
            raise SystemExit(f"{f} starts with the same crop as {files[0]} (the same --seed?): "
                             "give each folder its own seed")
    x = np.concatenate(xs)
    y = np.concatenate([d["y"], *(m["y"] for m in more)]).astype(np.int64)
    if any(str(f.get("kind", args.kind)) != args.kind for f in [d, *more]) or int(y.max()) >= FACES[args.kind]:
        raise SystemExit(f"{args.kind}.npz in {', '.join(args.data)} does not hold {args.kind} faces: "
                         f"rerun `synth --kind {args.kind}`")
    print(f"{len(y)} {args.kind} crops", flush=True)
    if args.kind == "d6":
        train_pip_reader(args, rng, x, y, d)
        return
    margin = face_margin(args.kind)
    vx = np.stack([augment(c, rng, jitter=False, margin=margin) for c in x[:VAL]])
    vy = torch.from_numpy(y[:VAL])
    x, y = x[VAL:], y[VAL:]
    n = FACES[args.kind]
    negatives = _negatives(args, rng, margin)
    if negatives is not None:
        # validate on held-back crops of the other types too, labelled "not this type" (n)
        nx = negatives[:VAL // 4]
        vx = np.concatenate([vx, np.stack([augment(c, rng, jitter=False, margin=margin) for c in nx])])
        vy = torch.cat([vy, torch.full((len(nx),), n, dtype=torch.int64)])
        negatives = negatives[VAL // 4:]
    model = _model(args, n + (negatives is not None))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    jittered = functools.partial(augment, rng=rng, margin=margin, scale_sd=args.scale_jitter)
    model.train()
    step = 0
    for step, lr, t0, due in wall_clock_steps(opt, args.lr, args.minutes, args.checkpoint_minutes):
        n_neg = int(rng.binomial(args.batch, args.neg_share)) if negatives is not None else 0
        idx = rng.integers(len(y), size=args.batch - n_neg)
        crops = [jittered(x[i]) for i in idx]
        labels = list(y[idx])
        if n_neg:
            crops += [jittered(negatives[i]) for i in rng.integers(len(negatives), size=n_neg)]
            labels += [n] * n_neg
        train_step(model, opt, crops, labels, args.smoothing, step, lr, t0)
        if due:
            _checkpoint(model, vx, vy, args, step)
    _checkpoint(model, vx, vy, args, step)


class _Block(torch.nn.Module if torch is not None else object):  # type: ignore[misc]
    """Two 3x3 convolutions with a shortcut (a 1x1 one where the shape changes)."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        nn = torch.nn
        self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
        self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
        self.short = None if cin == cout and stride == 1 else nn.Sequential(
            nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.b2(self.c2(F.relu(self.b1(self.c1(x)))))
        return F.relu(y + (x if self.short is None else self.short(x)))


def build_residual(n_classes: int, width: float = 1.0) -> torch.nn.Module:
    """The d6 reader's network: a full-resolution first layer, residual stages at 32x32, 16x16
    and 8x8, global average pooling (a pip counts wherever it sits) and one dense layer. Width
    1.0: about 219k parameters (440 kB at 16 bits) and 42M multiply-adds per 64x64 crop; most of
    its work is at high resolution, where pips are, and few of its weights are in the head,
    which the plain network's dense head spends them on."""
    nn = torch.nn

    def c(k: int) -> int:
        return int(round(k * width))

    return nn.Sequential(
        nn.Conv2d(1, c(16), 3, 1, 1, bias=False), nn.BatchNorm2d(c(16)), nn.ReLU(inplace=True),
        nn.Conv2d(c(16), c(24), 3, 2, 1, bias=False), nn.BatchNorm2d(c(24)), nn.ReLU(inplace=True),
        _Block(c(24), c(24), 1), _Block(c(24), c(48), 2), _Block(c(48), c(48), 1), _Block(c(48), c(96), 2),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(c(96), n_classes),
    )


def train_pip_reader(args: argparse.Namespace, rng: np.random.Generator, x: np.ndarray, y: np.ndarray,
                     d: np.lib.npyio.NpzFile) -> None:
    """The d6 reader: rendered pip faces (flat and, from a ``--three-d`` folder, seen at a slant),
    the tune split's real d6 cut at their labelled boxes and at the detector's, and the
    synthetic table's small dice, each a share of every batch; validated per size band on the
    calibration part's dice at the detector's boxes (what the reader will be shown)."""
    needed = ("real_train_x", "det_train_x", "det_calib_x", "table_x")
    if any(k not in d.files for k in needed):
        raise SystemExit(f"{args.data[0]}/d6.npz lacks {', '.join(k for k in needed if k not in d.files)}: "
                         "rerun `synth --kind d6` (without --no-real) into the first --data folder")
    margin = face_margin("d6")
    pools = {
        "rendered": (x, y),
        "real": (d["real_train_x"], d["real_train_y"].astype(np.int64)),
        "detected": (d["det_train_x"], d["det_train_y"].astype(np.int64)),
        "table": (d["table_x"], d["table_y"].astype(np.int64)),
    }
    shares = {"real": args.real_share, "detected": args.det_share, "table": args.table_share}
    shares["rendered"] = 1.0 - sum(shares.values())
    if shares["rendered"] < 0:
        raise SystemExit("--real-share, --det-share and --table-share add up to more than 1")
    print({k: len(v[1]) for k, v in pools.items()}, shares, flush=True)
    vx = np.stack([augment(c, rng, jitter=False, margin=margin) for c in d["det_calib_x"]])
    vy, vside = d["det_calib_y"].astype(np.int64), d["det_calib_side"]
    model = _model(args, 6)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    names = list(pools)
    p_pool = np.array([shares[n] for n in names])
    jittered = functools.partial(augment, rng=rng, margin=margin, scale_sd=args.scale_jitter, mirror=True)
    model.train()
    step = 0
    for step, lr, t0, due in wall_clock_steps(opt, args.lr, args.minutes, args.checkpoint_minutes):
        crops, labels = [], []
        for w in rng.choice(len(names), args.batch, p=p_pool):
            px, py = pools[names[w]]
            i = int(rng.integers(len(py)))
            crops.append(jittered(px[i]))
            labels.append(int(py[i]))
        train_step(model, opt, crops, labels, args.smoothing, step, lr, t0)
        if due:
            _checkpoint_d6(model, vx, vy, vside, args, step)
    _checkpoint_d6(model, vx, vy, vside, args, step)


def _probabilities(model: torch.nn.Module, vx: np.ndarray) -> torch.Tensor:
    """The model's softmax over validation crops, in eval mode (which it is left in: the
    checkpoint's ``export`` sets training mode again)."""
    model.eval()
    with torch.no_grad():
        return torch.cat([F.softmax(model(normalise(vx[i : i + 256])), 1) for i in range(0, len(vx), 256)])


def _checkpoint_d6(model: torch.nn.Module, vx: np.ndarray, vy: np.ndarray, vside: np.ndarray,
                   args: argparse.Namespace, step: int) -> None:
    p = _probabilities(model, vx).numpy()
    conf, pred = p.max(1), p.argmax(1)
    parts = []
    for band, m in ((">=48", vside >= 48), ("32-48", (vside >= 32) & (vside < 48)), ("<32", vside < 32)):
        ok, sure = pred[m] == vy[m], conf[m] >= 0.98
        parts.append(f"{band} ({int(m.sum())}): top1 {ok.mean():.4f} read@.98 {(ok & sure).mean():.4f} "
                     f"wrong@.98 {int((~ok & sure).sum())}")
    print(f"[ck step {step}] calibration dice at the detector's boxes: " + " | ".join(parts), flush=True)
    torch.save(model.state_dict(), args.out_pt)
    export(model, Path(args.out_onnx))  # which puts the network back in training mode


def _negatives(args: argparse.Namespace, rng: np.random.Generator, margin: float) -> np.ndarray | None:
    """Context crops of the ``--negatives`` types (their ``synth`` files in ``--data``), shuffled:
    the "not this type" examples of a reader with that extra output, or None."""
    if not args.negatives:
        return None
    parts = []
    for kind in args.negatives.split(","):
        found = [Path(d) / f"{kind}.npz" for d in args.data if (Path(d) / f"{kind}.npz").exists()]
        if kind == args.kind or not found:
            raise SystemExit(f"--negatives: no {kind}.npz in {', '.join(args.data)}, or it is this reader's "
                             f"own type: run `synth --kind {kind} --out {args.data[0]}` first")
        parts += [np.load(f)["x"] for f in found]
    out = np.concatenate(parts)
    return out[rng.permutation(len(out))]


def _model(args: argparse.Namespace, n_out: int) -> torch.nn.Module:
    """The reader's network (``--arch``, ``--width``) with ``n_out`` outputs, started from
    ``--init`` if given: a plain network's shipped ``.onnx`` (its folded weights) or PyTorch
    weights (.pt) of either kind."""
    if args.arch == "residual":
        model = build_residual(n_out, args.width)
    else:
        model = build_classifier(n_classes=n_out, width=args.width)
    if args.init and args.init.endswith(".onnx"):
        if args.arch == "residual":
            raise SystemExit("--init for a residual reader takes its PyTorch weights (.pt), not an .onnx")
        load_folded_onnx(model, Path(args.init))  # a shipped reader: its outputs must match
    elif args.init:
        _load_init(model, torch.load(args.init))
    return model


def _load_init(model: torch.nn.Module, state: dict[str, torch.Tensor]) -> None:
    """Start from ``state``; a reader given a "not this type" output starts from a reader
    without one (the new output's weights start at zero, its bias low)."""
    own = model.state_dict()
    for name, w in state.items():
        if own[name].shape == w.shape:
            own[name] = w
        elif own[name].shape[0] == w.shape[0] + 1 and own[name].shape[1:] == w.shape[1:]:
            grown = torch.zeros_like(own[name]) if w.dim() > 1 else torch.full_like(own[name], -4.0)
            grown[: w.shape[0]] = w
            own[name] = grown
        else:
            raise SystemExit(f"--init: {name} has shape {tuple(w.shape)}, the network needs {tuple(own[name].shape)}")
    model.load_state_dict(own)


def _checkpoint(model: torch.nn.Module, vx: np.ndarray, vy: torch.Tensor, args: argparse.Namespace,
                step: int) -> None:
    p = _probabilities(model, vx)
    conf, pred = p.max(1)
    ok = pred == vy
    n = FACES[args.kind]
    own = vy < n
    extra = ""
    if not bool(own.all()):
        # of the other types' crops: how many this reader would still give a value of its own
        taken = (p[~own, :n].max(1).values >= 0.5).float().mean()
        extra = f" | own faces top1 {ok[own].float().mean():.4f}; other types taken as own {taken:.4f}"
    print(f"[ck step {step}] val top1 {ok.float().mean():.4f} read@.95 "
          f"{(ok & (conf >= 0.95)).float().mean():.4f} wrong@.95 {(~ok & (conf >= 0.95)).float().mean():.4f}"
          f"{extra}", flush=True)
    torch.save(model.state_dict(), args.out_pt)
    export(model, Path(args.out_onnx))  # which puts the network back in training mode


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("synth")
    s.add_argument("--kind", default="d20", choices=["d4", "d6", "d8", "d10", "d12", "d20"])
    s.add_argument("--out", required=True)
    s.add_argument("--real", default=str(dataset.DEFAULT_REAL_DIR),
                   help="the Rune55 folder (d6 only: its tune split's real pip faces)")
    s.add_argument("--dice", type=int, default=24000)
    s.add_argument("--seed", type=int, default=None, help="default: one per type")
    s.add_argument("--three-d", action="store_true",
                   help="d6 only: dice drawn in 3D at a slant, side faces showing (vision.synthetic.d6_3d)")
    s.add_argument("--table-frames", type=int, default=600,
                   help="d6 only: synthetic table frames per camera mode whose dice are cut too")
    s.add_argument("--no-real", action="store_true",
                   help="d6 only: rendered crops alone (the real ones are in another folder's file)")
    s.add_argument("--realistic", action="store_true",
                   help="numbered dice as real ones look from above (side-face numbers, soft light; "
                        "the type reader's second data set)")
    s.add_argument("--plastic", type=float, default=0.0,
                   help="share of scenes of d8, d10, d12 or d20 drawn as opaque plastic dice look from above "
                        "(vision.synthetic.plastic)")
    t = sub.add_parser("train")
    t.add_argument("--kind", default="d20", choices=["d4", "d6", "d8", "d10", "d12", "d20"])
    t.add_argument("--data", required=True, nargs="+",
                   help="folders of synth files; this type's crops of all of them are used, the first's "
                        f"first {VAL} held back to validate on")
    t.add_argument("--minutes", type=float, default=50.0, help="wall-time budget (cosine schedule)")
    t.add_argument("--checkpoint-minutes", type=float, default=10.0)
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--width", type=float, default=1.0)
    t.add_argument("--seed", type=int, default=7)
    t.add_argument("--real-share", type=float, default=0.5, help="d6: share of real faces per batch")
    t.add_argument("--det-share", type=float, default=0.0,
                   help="d6: share of real faces cut at the detector's boxes per batch")
    t.add_argument("--table-share", type=float, default=0.0,
                   help="d6: share of the synthetic table's small dice per batch")
    t.add_argument("--arch", choices=["plain", "residual"], default="plain",
                   help="the network: plain (build_classifier, the shipped numbered readers) or "
                        "residual (build_residual, the d6 reader's; any reader may use either)")
    t.add_argument("--scale-jitter", type=float, default=0.08,
                   help="sd of the log box-scale jitter (the detector's boxes on rendered numbered dice: about 0.10)")
    t.add_argument("--smoothing", type=float, default=0.0, help="label smoothing")
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--negatives", default="",
                   help="other types (e.g. d8,d10,d12) whose crops train an extra 'not this type' output")
    t.add_argument("--neg-share", type=float, default=0.15, help="share of each batch from --negatives")
    t.add_argument("--init", default=None, help="start from these weights: PyTorch (.pt) or an exported reader (.onnx, e.g. the "
                        "shipped one): a fine-tune")
    t.add_argument("--out-pt", default=None, help="PyTorch weights (default /tmp/face_reader_KIND.pt)")
    t.add_argument("--out-onnx", default=None, help="ONNX (default: the shipped model's path)")
    args = p.parse_args()
    if args.what == "train":
        args.out_pt = args.out_pt or f"/tmp/face_reader_{args.kind}.pt"
        args.out_onnx = args.out_onnx or str(face_reader_path(args.kind))
    cv2.setNumThreads(1)
    {"synth": cmd_synth, "train": cmd_train}[args.what](args)


if __name__ == "__main__":
    main()
