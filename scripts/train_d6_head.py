#!/usr/bin/env python3
"""The d6 head: data, fitting, calibration, and the table's learning measured (numpy; no torch).

    python3 scripts/train_d6_head.py embed-model                        # d6_embed.onnx
    python3 scripts/train_d6_head.py data --out /tmp/rd/crops.npz      # real crops of every die
    python3 scripts/train_d6_head.py collect --part calib --out /tmp/rd/calib.npz
    python3 scripts/train_d6_head.py collect --part eval --out /tmp/rd/eval.npz
    python3 scripts/train_d6_head.py fit-head --out vision/dice/models/d6_head.npz
    python3 scripts/train_d6_head.py calibrate --data /tmp/rd/calib.npz --head vision/dice/models/d6_head.npz
    python3 scripts/train_d6_head.py tune-eval --data /tmp/rd/eval.npz --head vision/dice/models/d6_head.npz

Real crops come from every labelled photo there is, split by source photo: Rune55 by the stem
before ``.rf.`` (``dataset.split_of``: 25% eval), dice-colour-epanemu by file (one copy per
photo, so its stem is its photo; the same hash). Of the rest, ``calib_of`` holds back about 20%
of the stems to choose the thresholds; only the remaining *train* part is fitted on. Every die
is cut at its labelled box and, where the detector finds it, at the detector's box.

``collect`` reads a part with the reader (its d6 pass off, its evidence kept) and keeps, for
each labelled die it finds, what the pass needs: run it before a head is shipped in the models
folder (or with ``DICE_MODEL_DIR`` pointing at one without), so that the evidence is the raw
d6 reader's and any head can be applied to it afterwards.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import dataset  # noqa: E402
from vision.dice.finder import find_dice, iou  # noqa: E402
from vision.dice.models import crop_square  # noqa: E402
from vision.dice.types import DiceConfig  # noqa: E402

CTX = 96
CTX_MARGIN = 1.7
SHARED = dataset.DEFAULT_REAL_DIR.parent
SOURCES = {"rune55": SHARED / "dice-rune55", "epanemu": SHARED / "dice-colour-epanemu"}


calib_of = dataset.calib_of
part_of = dataset.part_of
"""'eval', 'calib' or 'train' for a source-photo stem (the rule every trainer keeps)."""


def cmd_data(args: argparse.Namespace) -> None:
    cfg = DiceConfig()
    xs, ys, sides, srcs, parts, dets, imgs = [], [], [], [], [], [], []
    for si, (src, folder) in enumerate(SOURCES.items()):
        for n, item in enumerate(dataset.iter_folder(folder, errata=True)):
            bgr = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
            if bgr is None:
                continue
            part = part_of(item.stem)
            grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
            found = [c.box for c in find_dice(grey, cfg)]
            for d in item.dice:
                boxes = [d.box]
                best = max(found, key=lambda b: iou(b, d.box), default=None)
                if best is not None and iou(best, d.box) >= 0.4:
                    boxes.append(best)
                for k, b in enumerate(boxes):
                    xs.append(crop_square(bgr, b, CTX, CTX_MARGIN))
                    ys.append(d.value - 1)
                    sides.append(max(d.box[2], d.box[3]))
                    srcs.append(si)
                    parts.append(part)
                    dets.append(k)
                    imgs.append(hash(item.stem) & 0x7FFFFFFF)
            if n % 200 == 0:
                print(src, n, len(xs), flush=True)
    # renders: colour, marbled, translucent, slanted
    from vision.synthetic import d6_3d
    rng = np.random.default_rng(7)
    t0 = time.time()
    rendered = 0
    while rendered < args.renders and time.time() - t0 < args.render_minutes * 60:
        frame, truths = d6_3d.render_scene(rng, size=(320, 320), die_px=(24.0, 90.0))
        for t in truths:
            if t.box[2] <= 4 or t.box[3] <= 4:
                continue
            bx, by, bw, bh = (float(v) for v in t.box)
            box = (bx, by, bw, bh)
            xs.append(crop_square(frame, box, CTX, CTX_MARGIN))
            ys.append(t.value - 1)
            sides.append(max(box[2], box[3]))
            srcs.append(2)
            parts.append("train")
            dets.append(0)
            imgs.append(-1)
            rendered += 1
    print("renders", rendered, f"{time.time() - t0:.0f}s", flush=True)
    np.savez_compressed(args.out, x=np.stack(xs), y=np.array(ys, np.int64), side=np.array(sides, np.float32),
                        src=np.array(srcs, np.int64), part=np.array(parts), det=np.array(dets, np.int64),
                        img=np.array(imgs, np.int64))
    print("saved", args.out, len(xs))


def cmd_embed_model(args: argparse.Namespace) -> None:
    """``d6_embed.onnx``: the shipped d6 face reader with its global pool (the 96-number summary
    of the crop) as a second output, ``embedding``; the same weights (needs the onnx package,
    training only). Rerun after ``train_face_reader.py`` retrains the d6 reader."""
    import onnx

    from vision.dice.models import face_reader_path

    m = onnx.load(str(face_reader_path("d6")))
    pool = [n for n in m.graph.node if n.op_type == "Flatten"][-1].output[0]
    m.graph.node.append(onnx.helper.make_node("Identity", [pool], ["embedding"]))
    m.graph.output.append(onnx.helper.make_tensor_value_info("embedding", onnx.TensorProto.FLOAT, ["n", 96]))
    onnx.checker.check_model(m)
    onnx.save(m, args.out)
    print("saved", args.out)


def cmd_collect(args: argparse.Namespace) -> None:
    """Every labelled die of one part that the reader finds, with the colour pass's evidence
    (the reader run with the colour reader's judgement off): what ``calibrate`` chooses the
    thresholds on, and what ``tune-eval`` adapts on."""
    from dataclasses import replace

    from vision.dice.evaluate import band_of, match_dice
    from vision.dice.reader import read_dice_evidence

    cfg = replace(DiceConfig(), d6_head=False, d6_evidence=True)
    rows: dict[str, list[object]] = {k: [] for k in ("src", "img", "band", "side", "truth", "status", "value", "guess",
                                             "conf", "share", "first", "head", "emb", "pips", "eligible", "flat")}
    for si, (src, folder) in enumerate(SOURCES.items()):
        for item in dataset.iter_folder(folder, errata=True):
            if part_of(item.stem) != args.part:
                continue
            bgr = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
            if bgr is None:
                continue
            obs, ev = read_dice_evidence(bgr, None, cfg)
            match = match_dice(obs, item.dice)
            for ti, d in enumerate(item.dice):
                if ti not in match:
                    continue
                bi = match[ti]
                r, e = obs.dice[bi], ev[bi]
                rows["src"].append(si)
                rows["img"].append(item.path.name)
                rows["band"].append(band_of(d.box))
                rows["side"].append(max(d.box[2], d.box[3]))
                rows["truth"].append(d.value)
                rows["status"].append(r.status)
                rows["value"].append(r.value or 0)
                rows["guess"].append(r.guess or 0)
                rows["conf"].append(r.confidence)
                rows["share"].append(e.share if e else 0.0)
                rows["first"].append(e.first if e else np.zeros(6, np.float32))
                rows["head"].append(e.head if e else np.full(6, 1 / 6, np.float32))
                rows["emb"].append(e.embedding if e else np.zeros(96, np.float32))
                rows["pips"].append(e.pips or 0 if e else 0)
                rows["eligible"].append(bool(e and e.eligible))
                rows["flat"].append(bool(e.flat) if e else True)
        print(src, len(rows["src"]), flush=True)
    arrays: dict[str, np.ndarray] = {k: np.array(v) for k, v in rows.items()}
    np.savez_compressed(args.out, **arrays)  # type: ignore[arg-type]
    print("saved", args.out)


def _head_probs(d: dict[str, np.ndarray], head: object | None) -> np.ndarray:
    """The head's probabilities of collected dice (collected without a head: the raw reader)."""
    from vision.dice.d6head import softmax

    logits = np.log(np.maximum(d["head"], 1e-12)).astype(np.float64)
    if head is not None:
        logits = head.logits(logits, d["emb"])  # type: ignore[attr-defined]
    return softmax(logits).astype(np.float32)


def outcomes(d: dict[str, np.ndarray], cfg: DiceConfig, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, sure) per collected die under ``cfg``, as the reader's d6 pass decides."""
    from vision.dice.reader import D6Evidence, d6_verdict

    vals, sure = [], []
    for i in range(len(d["truth"])):
        if not d["eligible"][i]:
            vals.append(int(d["value"][i] or d["guess"][i]))
            sure.append(d["status"][i] == "read")
            continue
        e = D6Evidence(_box(d, i), float(d["share"][i]), d["first"][i], probs[i], d["emb"][i],
                       int(d["pips"][i]) or None, float(d["side"][i]), True,
                       int(d["value"][i]) if d["status"][i] == "read" else None)
        v, s = d6_verdict(e, cfg)
        vals.append(v)
        sure.append(s)
    return np.array(vals), np.array(sure)


def summary(d: dict[str, np.ndarray], vals: np.ndarray, sure: np.ndarray, mask: np.ndarray | None = None) -> str:
    out = []
    for si, name in ((0, "rune55"), (1, "epanemu")):
        for band in (">=48", "32-48", "<32"):
            m = (d["src"] == si) & (d["band"] == band)
            if mask is not None:
                m &= mask
            n = int(m.sum())
            if not n:
                continue
            ok = vals[m] == d["truth"][m]
            out.append(f"{name:8} {band:6} n{n:5}  right {np.mean(ok & sure[m]):7.2%}  unsure "
                       f"{np.mean(~sure[m]):7.2%}  wrong {np.mean(~ok & sure[m]):6.2%}  top {np.mean(ok):7.2%}")
    return "\n".join(out)


def _load_head(path: str) -> object | None:
    from vision.dice.tune import Adaptation

    return Adaptation.load_file(Path(path)) if path else None


def cmd_fit_head(args: argparse.Namespace) -> None:
    """The shipped head: fitted on the d6 reader's summaries of every real training crop (the
    detector's boxes and the labelled ones, each turned a random quarter turn)."""
    from vision.dice.d6head import EMBED_SIZE, embed
    from vision.dice.tune import fit

    d = dict(np.load(args.data))
    rng = np.random.default_rng(0)
    keep = np.nonzero((d["part"] == "train") & (d["src"] < 2))[0]
    s = EMBED_SIZE
    mid = CTX / 2
    m = cv2.getRotationMatrix2D((mid, mid), 0.0, s / (CTX / CTX_MARGIN))
    m[:, 2] += s / 2 - mid  # type: ignore[arg-type]
    crops = np.stack([np.rot90(cv2.warpAffine(cv2.cvtColor(d["x"][i], cv2.COLOR_BGR2GRAY), m, (s, s),
                                              borderMode=cv2.BORDER_REPLICATE), int(rng.integers(0, 4)))
                      for i in keep])
    cache = Path(args.data).with_suffix(".embedded.npz")
    if cache.is_file():
        with np.load(cache) as z:
            logits, emb = z["logits"], z["emb"]
    else:
        t0 = time.time()
        logits, emb = embed(np.ascontiguousarray(crops))
        np.savez(cache, logits=logits, emb=emb)
        print(f"{len(crops)} crops embedded in {time.time() - t0:.0f}s", flush=True)
    y = d["y"][keep] + 1
    src = d["src"][keep]
    # the colour photos are far fewer: repeat them so both sources weigh about the same
    reps = np.where(src == 1, max(1, int(round((src == 0).sum() / max(1, (src == 1).sum())))), 1)
    idx = np.repeat(np.arange(len(keep)), reps)
    head = fit(logits[idx], emb[idx], y[idx], l2=args.l2, steps=args.steps)
    for si in (0, 1):
        mm = src == si
        print(f"train src {si}: top before {np.mean(logits[mm].argmax(1) + 1 == y[mm]):.3f} after "
              f"{np.mean(head.logits(logits[mm], emb[mm]).argmax(1) + 1 == y[mm]):.3f}")
    out = Path(args.out)
    head.save_file(out)
    print("saved", out)
    if args.calib:
        cal = dict(np.load(args.calib))
        el = cal["eligible"]
        for name, h in (("no head", None), ("head", head)):
            q = _head_probs(cal, h)
            for si in (0, 1):
                mm = el & (cal["src"] == si)
                print(f"calib src {si} {name}: top {np.mean(q[mm].argmax(1) + 1 == cal['truth'][mm]):.3f}")


def _box(d: dict[str, np.ndarray], i: int) -> tuple[float, float, float, float]:
    """A box of the die's side and view (flat or not) for the verdict functions."""
    side = float(d["side"][i])
    return (0.0, 0.0, side, side if d["flat"][i] else 0.7 * side)


def with_flat(d: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Data collected before the view was stored: the view taken from the labelled box (the
    reader takes it from the detector's)."""
    if "flat" in d:
        return d
    from vision.dice.pips import FLAT_BOX

    boxes: dict[tuple[str, int], list[tuple[float, float, float, float]]] = {}
    for si, (_, folder) in enumerate(SOURCES.items()):
        names = {str(n) for n, s in zip(d["img"], d["src"], strict=True) if s == si}
        for item in dataset.iter_folder(folder, errata=True):
            if item.path.name in names:
                for lab in item.dice:
                    boxes.setdefault((item.path.name, lab.value), []).append(lab.box)
    flat = []
    for n, t, side in zip(d["img"], d["truth"], d["side"], strict=True):
        cands = boxes.get((str(n), int(t)), [])
        b = min(cands, key=lambda b: abs(max(b[2], b[3]) - side)) if cands else (0, 0, 1, 1)
        flat.append(min(b[2], b[3]) / max(b[2], b[3], 1e-9))
    aspect = np.array(flat)
    return {**d, "flat": aspect >= FLAT_BOX, "aspect": aspect}


def scores(d: dict[str, np.ndarray], cfg: DiceConfig, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, score) per collected die (``reader.d6_score``); a die the pass does not judge
    gets its first reading's value and a score of 2 if it was read, -1 if not."""
    from vision.dice.reader import D6Evidence, d6_score

    vals, sc = [], []
    for i in range(len(d["truth"])):
        if not d["eligible"][i]:
            vals.append(int(d["value"][i] or d["guess"][i]))
            sc.append(2.0 if d["status"][i] == "read" else -1.0)
            continue
        e = D6Evidence(_box(d, i), float(d["share"][i]), d["first"][i], probs[i], d["emb"][i],
                       int(d["pips"][i]) or None, float(d["side"][i]), True,
                       int(d["value"][i]) if d["status"][i] == "read" else None)
        v, s = d6_score(e, cfg)
        vals.append(v)
        sc.append(s)
    return np.array(vals), np.array(sc)


def pick_thresholds(d: dict[str, np.ndarray], vals: np.ndarray, sc: np.ndarray, target: float,
                    floor: float = 0.5, min_dice: int = 50) -> dict[str, float]:
    """Per size band and view, the lowest score threshold at which every source's judged dice
    of that group are read wrong no more than ``target`` of the time (at least ``floor``; at
    least 0.99 for a group of fewer than ``min_dice`` calibration dice)."""
    from vision.dice.reader import band_group

    groups = np.array([band_group(float(s), bool(f)) for s, f in zip(d["side"], d["flat"], strict=True)])
    chosen = {}
    for band in (">=48", "32-48", "<32", ">=48/slanted", "32-48/slanted", "<32/slanted"):
        need = floor
        for si in (0, 1):
            m = (d["src"] == si) & (groups == band) & d["eligible"]
            if not m.sum():
                continue
            allowed = int(target * m.sum())
            wrong_scores = np.sort(sc[m][vals[m] != d["truth"][m]])[::-1]
            if len(wrong_scores) > allowed:
                need = max(need, float(wrong_scores[allowed]) + 1e-6)
        if ((groups == band) & d["eligible"]).sum() < min_dice:
            need = max(need, 0.99)  # too few dice to lower it on: the reader's old threshold, or more
        chosen[band] = round(min(need, 1.0 + 1e-6), 6)
    return chosen


def cmd_calibrate(args: argparse.Namespace) -> None:
    """The thresholds: per band, the lowest score at which the collected calibration dice of
    each source are read wrong at most ``--target`` of the time."""
    from dataclasses import replace

    d = with_flat(dict(np.load(args.data, allow_pickle=False)))
    head = _load_head(args.head)
    q = _head_probs(d, head)
    base = replace(DiceConfig(), d6_pip_trust=args.pip_trust)
    old = np.where(d["status"] == "read", d["value"], d["guess"]), d["status"] == "read"
    print("the reader before (no d6 pass):\n" + summary(d, *old))
    vals, sc = scores(d, base, q)
    # the thresholds judge only the dice the first look left unsure (a die it read stays read
    # when the head agrees)
    chosen = pick_thresholds({**d, "eligible": d["eligible"] & (d["status"] != "read")}, vals, sc, args.target)
    chosen[">=48/slanted"] = 2.0

    cfg = replace(base, d6_read_thresholds=tuple(chosen.items()))
    vals, sure = outcomes(d, cfg, q)
    print(f"with the d6 pass (head {args.head or 'none'}), thresholds {chosen}:\n" + summary(d, vals, sure))


def cmd_judge(args: argparse.Namespace) -> None:
    """Collected dice judged with the reader's own settings (``DiceConfig``'s thresholds):
    the eval part's figures before and after the d6 pass."""
    d = with_flat(dict(np.load(args.data, allow_pickle=False)))
    q = _head_probs(d, _load_head(args.head))
    old = np.where(d["status"] == "read", d["value"], d["guess"]), d["status"] == "read"
    print("the reader before (no d6 pass):\n" + summary(d, *old))
    vals, sure = outcomes(d, DiceConfig(), q)
    print(f"with the d6 pass (head {args.head or 'none'}):\n" + summary(d, vals, sure))
    from dataclasses import replace

    vals, sure = outcomes(d, replace(DiceConfig(), d6_slanted_unsure=True), q)
    print("with the d6 pass and d6_slanted_unsure:\n" + summary(d, vals, sure))


def cmd_tune_eval(args: argparse.Namespace) -> None:
    """The table's learning, measured: per source of the eval part, the dice of the first N
    source photos (rolls) are the confirmed examples; the adaptation fitted on them
    (``vision.dice.tune.fit``) is judged on the dice of the other photos of that source."""
    from vision.dice.d6head import softmax
    from vision.dice.tune import fit

    d = with_flat(dict(np.load(args.data, allow_pickle=False)))
    head = _load_head(args.head)
    q0 = _head_probs(d, head)
    logits = np.log(np.maximum(q0, 1e-12)).astype(np.float64)
    cfg = DiceConfig()
    stems = np.array([dataset.stem_of(str(n)) for n in d["img"]])
    for si, name in ((0, "rune55"), (1, "epanemu")):
        m_src = d["src"] == si
        order = sorted(set(stems[m_src]))
        for n in args.rolls:
            first = np.isin(stems, order[:n])
            train = m_src & first & d["eligible"]
            rest = m_src & ~first
            if train.sum() == 0 or rest.sum() == 0:
                continue
            ad = fit(logits[train], d["emb"][train], d["truth"][train], l2=args.l2)
            q1 = softmax(ad.logits(logits, d["emb"])).astype(np.float32)
            for label, q in (("before", q0), ("after", q1), ("after, head alone", q1)):
                if label == "after, head alone":
                    # a tuned table: the adapted head alone, read at ``--alone`` (else as the reader)
                    vals = q.argmax(1) + 1
                    sure = np.where(d["eligible"], q.max(1) >= args.alone, d["status"] == "read")
                else:
                    vals, sure = outcomes(d, cfg, q)
                ok = vals[rest] == d["truth"][rest]
                big = rest & (d["side"] >= 32)
                okb = vals[big] == d["truth"][big]
                print(f"{name:8} N={n:4} rolls ({int(train.sum()):4} dice) {label:6} rest n{int(rest.sum()):5}: "
                      f"right {np.mean(ok & sure[rest]):7.2%} unsure {np.mean(~sure[rest]):7.2%} "
                      f"wrong {np.mean(~ok & sure[rest]):6.2%} top {np.mean(ok):7.2%} | >=32 px n{int(big.sum())}: "
                      f"right {np.mean(okb & sure[big]):7.2%} wrong {np.mean(~okb & sure[big]):6.2%}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    a = sub.add_parser("data")
    a.add_argument("--out", default="/tmp/rd/crops.npz")
    a.add_argument("--renders", type=int, default=6000)
    a.add_argument("--render-minutes", type=float, default=4.0)
    f = sub.add_parser("fit-head")
    f.add_argument("--data", default="/tmp/rd/crops.npz")
    f.add_argument("--out", default="/tmp/rd/d6_head.npz")
    f.add_argument("--calib", default="/tmp/rd/calib.npz", help="collected calibration dice to report on")
    f.add_argument("--l2", type=float, default=10.0)
    f.add_argument("--steps", type=int, default=500)
    em = sub.add_parser("embed-model")
    em.add_argument("--out", default=str(ROOT / "vision" / "dice" / "models" / "d6_embed.onnx"))
    c = sub.add_parser("collect")
    c.add_argument("--part", choices=["calib", "eval"], default="calib")
    c.add_argument("--out", default="/tmp/rd/calib.npz")
    k = sub.add_parser("calibrate")
    k.add_argument("--data", default="/tmp/rd/calib.npz")
    k.add_argument("--target", type=float, default=0.002)
    k.add_argument("--head", default="", help="a head (.npz) to apply (default: none)")
    k.add_argument("--pip-trust", type=float, default=0.9)
    j = sub.add_parser("judge")
    j.add_argument("--data", default="/tmp/rd/eval.npz")
    j.add_argument("--head", default="")
    j.set_defaults()
    e = sub.add_parser("tune-eval")
    e.add_argument("--data", default="/tmp/rd/eval.npz")
    e.add_argument("--rolls", type=lambda t: [int(v) for v in t.split(",")], default=[10, 30, 100])
    e.add_argument("--l2", type=float, default=1.0)
    e.add_argument("--alone", type=float, default=0.99)
    e.add_argument("--head", default="", help="the shipped head (.npz) under the table's")
    args = p.parse_args()
    {"embed-model": cmd_embed_model, "judge": cmd_judge, "tune-eval": cmd_tune_eval, "data": cmd_data, "fit-head": cmd_fit_head, "collect": cmd_collect, "calibrate": cmd_calibrate}[args.what](args)


if __name__ == "__main__":
    main()
