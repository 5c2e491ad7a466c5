#!/usr/bin/env python3
"""The number reader's last layer tuned on real dice of the other types, one real type held out.

The shipped ``number_reader.onnx``'s linear layer (on the pooled features, ``numbers.GLYPHS``
outputs) is started from its own weights, kept near them (an L2 pull) and fitted on the real
dice-polyhedral crops of every type but one (each cut at the reader's box from
``benchmarks/dice_poly_diagnosis.py``'s readings, at 16 turns, the turned ones at jittered boxes)
half and half with rendered single dice in the same tray (``evaluate.tray_items``, seed 97,000,
60 each of d8/d10/d12/d20, 4 turns); then judged on the held-out type's crops at the reader's
box, one turn: the top glyph right, and read right / wrong at 0.5 and 0.8, against the shipped
layer. Photos whose scored reading is smaller than 120 px (the tray's lip) are left out.
Measured, not shipped (docs/vision-dice.md, "The number reader's last layer tuned on the other
real types").

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/number_reader_real_tune.py \
        --diagnosis /tmp/x/poly_diag.json [--cache /tmp/x/tune_feats.npz]

``--diagnosis``: the ``--cache`` file of ``dice_poly_diagnosis.py`` (its readings' boxes). About
2 minutes on one core (training only: needs torch and onnx). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice.dataset import DEFAULT_REAL_DIR  # noqa: E402
from vision.dice.evaluate import tray_items, tray_photo  # noqa: E402
from vision.dice.models import crop_square  # noqa: E402
from vision.dice.numbers import GLYPHS, NUMBER_MARGIN, NUMBER_SIZE, glyphs_and_features, number_path  # noqa: E402

CTX, CTX_MARGIN = 128, 1.4
TURNS = 16
RENDER_SEED = 97_000
HELD = ("d8", "d10", "d12", "d4")
KINDS = ("d4", "d6", "d8", "d10", "d12")


def glyph_of(kind: str, value: int) -> int:
    """The glyph of a die's top face (a d10's 10 is printed 0)."""
    return 0 if kind == "d10" and value == 10 else value


def allowed(kind: str) -> np.ndarray:
    """The glyphs a die of ``kind`` can show."""
    mask = np.zeros(GLYPHS, bool)
    n = int(kind[1:])
    if kind == "d10":
        mask[0:10] = True
    else:
        mask[1:n + 1] = True
    return mask


def recut(ctx: np.ndarray, rng: np.random.Generator | None, angle: float) -> np.ndarray:
    """The network's input (3 x S x S, RGB) from a BGR context crop, turned; jittered with ``rng``."""
    c = CTX / 2
    scale = (NUMBER_SIZE / NUMBER_MARGIN) / (CTX / CTX_MARGIN)
    dx = dy = 0.0
    if rng is not None:
        scale *= math.exp(rng.normal(0, 0.07))
        dx, dy = rng.normal(0, 0.04 * NUMBER_SIZE, 2)
    m = np.array(cv2.getRotationMatrix2D((c, c), angle, scale), np.float64)
    m[:, 2] += NUMBER_SIZE / 2 - c + np.array([dx, dy])
    out = cv2.warpAffine(ctx, m, (NUMBER_SIZE, NUMBER_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(out[:, :, ::-1].transpose(2, 0, 1), np.float32)


def pooled(ctxs: list[np.ndarray], turns: int, rng: np.random.Generator) -> np.ndarray:
    """turns x N x F pooled features (turn 0 as cut, the others turned and jittered)."""
    xs = np.stack([recut(c, rng if k else None, 360.0 * k / turns) for k in range(turns) for c in ctxs])
    f = np.concatenate([glyphs_and_features(xs[s:s + 64])[1] for s in range(0, len(xs), 64)])
    return f.reshape(turns, len(ctxs), -1)


def softmax(w: np.ndarray, b: np.ndarray, f: np.ndarray) -> np.ndarray:
    z = f @ w.T + b
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def judge(w: np.ndarray, b: np.ndarray, f: np.ndarray, y: np.ndarray, kind: str) -> dict[str, int]:
    """Top right, and read right / wrong at 0.5 and 0.8, of one type's crops (features ``f``)."""
    p = softmax(w, b, f) * allowed(kind)
    top, conf = p.argmax(axis=1), p.max(axis=1)
    ok = top == y
    return {"dice": len(y), "top_right": int(ok.sum()),
            "right_0.5": int((ok & (conf >= 0.5)).sum()), "wrong_0.5": int((~ok & (conf >= 0.5)).sum()),
            "right_0.8": int((ok & (conf >= 0.8)).sum()), "wrong_0.8": int((~ok & (conf >= 0.8)).sum())}


def fit(w0: np.ndarray, b0: np.ndarray, real: tuple[np.ndarray, np.ndarray], renders: tuple[np.ndarray, np.ndarray],
        steps: int = 300, pull: float = 1e-2) -> tuple[np.ndarray, np.ndarray]:
    """The linear layer fitted from (``w0``, ``b0``) on real and rendered features, half and half."""
    import torch

    torch.set_num_threads(1)
    rf, ry = torch.tensor(real[0]), torch.tensor(real[1])
    tf, ty = torch.tensor(renders[0]), torch.tensor(renders[1])
    w = torch.tensor(w0.copy(), requires_grad=True)
    b = torch.tensor(b0.copy(), requires_grad=True)
    wi, bi = torch.tensor(w0), torch.tensor(b0)
    opt = torch.optim.Adam([w, b], lr=1e-3)
    ce = torch.nn.functional.cross_entropy
    for _ in range(steps):
        loss = (0.5 * ce(rf @ w.T + b, ry, label_smoothing=0.05) + 0.5 * ce(tf @ w.T + b, ty, label_smoothing=0.05)
                + pull * (((w - wi) ** 2).sum() + ((b - bi) ** 2).sum()))
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
    return w.detach().numpy(), b.detach().numpy()


def shipped_layer() -> tuple[np.ndarray, np.ndarray]:
    """The shipped network's last layer (weights, bias), as 32-bit floats."""
    import onnx
    from onnx import numpy_helper

    init = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(number_path())).graph.initializer}
    w = next(v for k, v in init.items() if k.startswith("head.fc.weight"))
    b = next(v for k, v in init.items() if k.startswith("head.fc.bias"))
    return w.astype(np.float32), b.astype(np.float32)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"))
    p.add_argument("--diagnosis", required=True, help="dice_poly_diagnosis.py's --cache JSON")
    p.add_argument("--cache", default=None, help="an .npz of the features: written once, then read back")
    args = p.parse_args()
    root = Path(args.poly)
    rows = [r for r in json.loads(Path(args.diagnosis).read_text()) if r["found"] and r["box"][2] > 120]
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        d = np.load(cache)
        rf, ry, tf, ty = d["rf"], d["ry"], d["tf"], d["ty"]
    else:
        rng = np.random.default_rng(5)
        ctx = []
        for r in rows:
            img = cv2.imread(str(root / r["photo"]))
            if img is None:
                raise SystemExit(f"cannot read {root / r['photo']}")
            bx, by, bw, bh = (float(v) for v in r["box"])
            ctx.append(crop_square(img, (bx, by, bw, bh), CTX, CTX_MARGIN))
        rf = pooled(ctx, TURNS, rng)
        ry = np.array([glyph_of(r["kind"], r["value"]) for r in rows])
        tctx, tys = [], []
        bg = tray_photo(root)
        for kind in ("d8", "d10", "d12", "d20"):
            for _name, img, truths in tray_items(60, kind, seed=RENDER_SEED, background=bg):
                tctx.append(crop_square(img, truths[0].box, CTX, CTX_MARGIN))
                tys.append(glyph_of(kind, truths[0].value))
        tf, ty = pooled(tctx, 4, rng), np.array(tys)
        if cache is not None:
            np.savez(cache, rf=rf, ry=ry, tf=tf, ty=ty)
    kinds = np.array([r["kind"] for r in rows])
    w0, b0 = shipped_layer()
    renders = (tf.reshape(-1, tf.shape[2]), np.tile(ty, tf.shape[0]))
    result: dict[str, Any] = {}
    for held in HELD:
        train = kinds != held
        real = (rf[:, train].reshape(-1, rf.shape[2]), np.tile(ry[train], rf.shape[0]))
        w, b = fit(w0, b0, real, renders)
        sel = kinds == held
        result[held] = {"shipped": judge(w0, b0, rf[0][sel], ry[sel], held),
                        "tuned": judge(w, b, rf[0][sel], ry[sel], held),
                        "shipped_16_turns_top_right": int(((softmax(w0, b0, rf[:, sel].reshape(-1, rf.shape[2]))
                                                            .reshape(rf.shape[0], int(sel.sum()), -1).mean(axis=0)
                                                            * allowed(held)).argmax(axis=1) == ry[sel]).sum())}
        s, t = result[held]["shipped"], result[held]["tuned"]
        print(f"{held} held out ({s['dice']} dice): top right {s['top_right']} -> {t['top_right']}; at 0.8 right "
              f"{s['right_0.8']} -> {t['right_0.8']}, wrong {s['wrong_0.8']} -> {t['wrong_0.8']}; at 0.5 right "
              f"{s['right_0.5']} -> {t['right_0.5']}, wrong {s['wrong_0.5']} -> {t['wrong_0.5']}; shipped over "
              f"{TURNS} turns: top right {result[held]['shipped_16_turns_top_right']}", flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
