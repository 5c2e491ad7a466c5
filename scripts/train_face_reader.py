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

``--kind d6`` trains a pip-face reader the same way, with the Rune55 tune split's real d6 mixed
in (``--real-share`` of each batch; the calibration part of the split validates), mirrored as
well as turned, from a crop of the whole box (``face_margin``). It was trained and measured and
is not shipped: at the same number of confident-wrong real dice it read no more of them than
the classifier alone (docs/vision-dice.md).
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
    while len(xs) < args.dice:
        bg = synth.training_background(rng, scene, scene)
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
    if args.kind == "d6":
        # real pip faces: the Rune55 tune split's training part, and its calibration part to
        # validate on (the eval split is never read here)
        for part in ("train", "calib"):
            rx, ry = real_crops(Path(args.real), part)
            extra[f"real_{part}_x"], extra[f"real_{part}_y"] = rx, ry
            print(f"{len(rx)} real {part} d6 crops", flush=True)
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
    margin, mirror = face_margin(args.kind), args.kind == "d6"
    real = "real_train_x" in d.files
    if real:
        # validate on the real calibration crops; train on synthetic and real faces
        rx, ry = d["real_train_x"], d["real_train_y"].astype(np.int64)
        vx = np.stack([augment(c, rng, jitter=False, margin=margin) for c in d["real_calib_x"]])
        vy = torch.from_numpy(d["real_calib_y"].astype(np.int64))
    else:
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
    model = build_classifier(n_classes=n + (negatives is not None), width=args.width)
    if args.init and args.init.endswith(".onnx"):
        load_folded_onnx(model, Path(args.init))  # a shipped reader: its outputs must match
    elif args.init:
        _load_init(model, torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    jittered = functools.partial(augment, rng=rng, margin=margin, scale_sd=args.scale_jitter)
    model.train()
    step = 0
    for step, lr, t0, due in wall_clock_steps(opt, args.lr, args.minutes, args.checkpoint_minutes):
        n_real = int(rng.binomial(args.batch, args.real_share)) if real else 0
        n_neg = int(rng.binomial(args.batch - n_real, args.neg_share)) if negatives is not None else 0
        idx = rng.integers(len(y), size=args.batch - n_real - n_neg)
        crops = [jittered(x[i], mirror=mirror) for i in idx]
        labels = list(y[idx])
        if n_neg:
            crops += [jittered(negatives[i]) for i in rng.integers(len(negatives), size=n_neg)]
            labels += [n] * n_neg
        if n_real:
            ridx = rng.integers(len(ry), size=n_real)
            crops += [jittered(rx[i], mirror=mirror) for i in ridx]
            labels += list(ry[ridx])
        train_step(model, opt, crops, labels, args.smoothing, step, lr, t0)
        if due:
            _checkpoint(model, vx, vy, args, step)
    _checkpoint(model, vx, vy, args, step)


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
    model.eval()
    with torch.no_grad():
        p = torch.cat([F.softmax(model(normalise(vx[i : i + 256])), 1) for i in range(0, len(vx), 256)])
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
    export(model, Path(args.out_onnx))


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
    s.add_argument("--realistic", action="store_true",
                   help="numbered dice as real ones look from above (side-face numbers, soft light; "
                        "the type reader's second data set)")
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
