# mypy: allow-untyped-calls
"""Train the piecepack camera's three small networks on renders and export them to ONNX.

    OMP_NUM_THREADS=1 nice -n 10 python3 scripts/train_piecepack.py data      # render, cache
    OMP_NUM_THREADS=1 nice -n 10 python3 scripts/train_piecepack.py data --start 1400 \
        --frames 3000 --mine   # more renders; reader crops cut with the finder's own boxes
    OMP_NUM_THREADS=1 nice -n 10 python3 scripts/train_piecepack.py finder --minutes 6
    OMP_NUM_THREADS=1 nice -n 10 python3 scripts/train_piecepack.py reader --minutes 5
    OMP_NUM_THREADS=1 nice -n 10 python3 scripts/train_piecepack.py spaces --minutes 3

Training renders use seeds below ``vision.piecepack.evaluate.HELD_OUT_SEED`` only; the benchmark
renders from that seed on, so no benchmark frame was ever trained on. The finder and the piece
reader train on every cached batch of dice-area renders (``area*.npz``). Needs PyTorch and onnx
(training only: the product runs the ONNX files with onnxruntime). Output goes to
``vision/piecepack/models/`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.piecepack import models as M  # noqa: E402
from vision.piecepack.evaluate import HELD_OUT_SEED, piece_class  # noqa: E402
from vision.piecepack.placement import DungeonGrid, space_crops, window_spaces  # noqa: E402
from vision.synthetic import piecepack as synth  # noqa: E402

CACHE = Path("/tmp/piecepack_train")
AREA_FRAMES = 1400
TABLE_FRAMES = 260


def render_area_data(n: int, start: int = 0, mine: bool = False) -> None:
    """Finder inputs and targets, and reader crops, from ``n`` dice-area renders from seed
    ``start`` on (cached as ``area.npz``, or ``area_<start>.npz`` for a later batch).

    With ``mine``, the reader's crops are also cut where the shipped finder puts each piece
    (its size estimate spreads over about 0.8-1.3 of the true size, so the reader must read
    such crops), and the finder's candidates on no piece become "not a piece" crops (hard
    negatives: what would otherwise be read as a phantom piece)."""
    rng = np.random.default_rng(1 + start)
    ins, heats, sizes, masks = [], [], [], []
    crops, labels = [], []
    mined_pos = mined_neg = 0
    if mine:
        from vision.piecepack.reader import PiecepackConfig, find
        mine_config = PiecepackConfig(find_threshold=0.1)
    t0 = time.time()
    for seed in range(start, start + n):
        assert seed < HELD_OUT_SEED
        f = synth.render_dice_area(seed)
        img = f.image
        h, w = img.shape[:2]
        small = cv2.resize(img, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        gh, gw = h // M.FINDER_STRIDE, w // M.FINDER_STRIDE
        heat = np.zeros((2, gh, gw), np.float32)
        size = np.zeros((gh, gw), np.float32)
        mask = np.zeros((gh, gw), np.float32)
        yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
        boxes: list[tuple[float, float, float]] = []
        for p in f.pieces:
            bx, by, bw, bh = p.box
            cx, cy = bx + bw / 2, by + bh / 2
            side = float(max(bw, bh))
            boxes.append((cx, cy, side))
            gx, gy = cx / M.FINDER_STRIDE - 0.5, cy / M.FINDER_STRIDE - 0.5
            ch = 0 if p.kind == "die" else 1
            g = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * 0.8 ** 2))
            heat[ch] = np.maximum(heat[ch], g)
            near = ((xx - gx) ** 2 + (yy - gy) ** 2) <= 1.5 ** 2
            size[near] = math.log(side / M.SIZE_UNIT)
            mask[near] = 1.0
            ix, iy = int(round(gx)), int(round(gy))
            if 0 <= ix < gw and 0 <= iy < gh:
                heat[ch, iy, ix] = 1.0
            # reader crops as the finder would cut them: centre and size a little off
            # (mined batches: wider, the finder's sizes spread about +-25%)
            for _ in range(2 if mine else 3):
                j = rng.normal(0, 0.06, 2) * side
                s = side * float(np.exp(rng.normal(0, 0.13 if mine else 0.08)))
                crops.append(M.crop_piece(img, (cx + j[0], cy + j[1]), s))
                labels.append(piece_class(p))
        if mine:  # where the finder itself puts the pieces, and its candidates on no piece
            for cx, cy, side, _heat in find(img, mine_config):
                dists = [(math.hypot(cx - bx, cy - by) / bs, i)
                         for i, (bx, by, bs) in enumerate(boxes)]
                dmin, i = min(dists) if dists else (9.0, -1)
                if dmin < 0.5:
                    lab = piece_class(f.pieces[i])
                    crops.append(M.crop_piece(img, (cx, cy), side))
                    labels.append(lab)
                    j = rng.normal(0, 0.04, 2) * side
                    crops.append(M.crop_piece(img, (cx + j[0], cy + j[1]),
                                              side * float(np.exp(rng.normal(0, 0.06)))))
                    labels.append(lab)
                    mined_pos += 2
                elif dmin >= 0.6:
                    crops.append(M.crop_piece(img, (cx, cy), side))
                    labels.append(M.NOT_A_PIECE)
                    mined_neg += 1
        # not a piece: background, and the space between or beside pieces
        for _ in range(4):
            side = float(rng.uniform(30, 110))
            for _ in range(20):
                cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
                if all(math.hypot(cx - bx, cy - by) > 0.75 * (bs + side) / 2
                       for bx, by, bs in boxes):
                    break
            else:
                continue
            crops.append(M.crop_piece(img, (cx, cy), side))
            labels.append(M.NOT_A_PIECE)
        for qx, qy, qs in boxes[:2]:  # half a piece in view: not a reading
            a = rng.uniform(0, 2 * math.pi)
            d = qs * float(rng.uniform(0.6, 0.9))
            crops.append(M.crop_piece(img, (qx + d * math.cos(a), qy + d * math.sin(a)), qs))
            labels.append(M.NOT_A_PIECE)
        ins.append(small)
        heats.append(heat)
        sizes.append(size)
        masks.append(mask)
        if (seed - start) % 200 == 0:
            print(f"  area {seed - start}/{n} {time.time() - t0:.0f}s", flush=True)
    if mine:
        print(f"  mined: {mined_pos} crops where the finder put a piece, {mined_neg} of its "
              "candidates on no piece", flush=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(CACHE / ("area.npz" if start == 0 else f"area_{start}.npz"), ins=np.array(ins),
             heats=np.array(heats), sizes=np.array(sizes), masks=np.array(masks),
             crops=np.array(crops), labels=np.array(labels, np.int64))


def _area_files() -> list[Path]:
    """Every cached batch of dice-area renders (``data``, then ``data --start N --mine``)."""
    return sorted(CACHE.glob("area*.npz"))


def render_table_data(n: int) -> None:
    rng = np.random.default_rng(2)
    grid = DungeonGrid()
    spaces = window_spaces()
    crops, labels = [], []
    t0 = time.time()
    for seed in range(n):
        assert seed < HELD_OUT_SEED
        f = synth.render_table(seed)
        jit = rng.normal(0, 1.2, (len(spaces), 2))
        c = space_crops(f.image, f.board_to_frame, grid, spaces, jitter_mm=jit)
        tile_spaces = {(2 * tx + dx, 2 * ty + dy) for tx, ty in f.tiles
                       for dx in (0, 1) for dy in (0, 1)}
        coins = set(f.coins)
        for i, sp in enumerate(spaces):
            if sp in f.pawns:
                lab = 3 + synth.SUITS.index(f.pawns[sp])
            elif sp in coins:
                lab = 2
            elif sp in tile_spaces:
                lab = 1
            else:
                lab = 0
                near = any(abs(sp[0] - a) <= 2 and abs(sp[1] - b) <= 2 for a, b in tile_spaces)
                if not near and rng.random() > 0.15:
                    continue
            crops.append(c[i])
            labels.append(lab)
        if seed % 50 == 0:
            print(f"  table {seed}/{n} {time.time() - t0:.0f}s", flush=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(CACHE / "table.npz", crops=np.array(crops), labels=np.array(labels, np.int64))


def nets():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def block(a: int, b: int, stride: int = 1, dil: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(a, b, 3, stride, padding=dil, dilation=dil, bias=False),
                             nn.BatchNorm2d(b), nn.ReLU(inplace=True))

    class Finder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(block(3, 16, 2), block(16, 16), block(16, 32, 2),
                                      block(32, 32, dil=2), block(32, 32, dil=4))
            self.head = nn.Conv2d(32, 3, 1)

        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.head(self.body(x))

    class Reader(nn.Module):
        def __init__(self, classes: int) -> None:
            super().__init__()
            self.body = nn.Sequential(block(3, 16, 2), block(16, 32), nn.MaxPool2d(2),
                                      block(32, 48), nn.MaxPool2d(2), block(48, 64),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1),
                                      nn.Linear(64, classes))

        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.body(x)

    return Finder, Reader


def _export(model, example, path: Path) -> None:  # type: ignore[no-untyped-def]
    import torch

    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, example, str(path), input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "n", 2: "h", 3: "w"}, "y": {0: "n"}},
                      opset_version=17, dynamo=False)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def _batch(images: np.ndarray, idx, torch):  # type: ignore[no-untyped-def]
    sel = images[np.asarray(idx)]
    return torch.from_numpy(np.ascontiguousarray(
        np.transpose(sel.astype(np.float32) / 255.0 - 0.5, (0, 3, 1, 2))))


def _augment_colour(x, torch):  # type: ignore[no-untyped-def]
    """Per-sample brightness/contrast jitter (inputs are centred at 0)."""
    n = x.shape[0]
    gain = torch.exp(torch.randn(n, 1, 1, 1) * 0.12)
    bias = torch.randn(n, 1, 1, 1) * 0.05
    return (x + 0.5) * gain - 0.5 + bias


def _resume(model, name: str, resume: bool, torch) -> float:  # type: ignore[no-untyped-def]
    """Go on from the last run's weights (``--resume``): the learning rate to start from."""
    path = CACHE / f"{name}.pt"
    if resume and path.exists():
        model.load_state_dict(torch.load(path))
        print(f"  {name}: going on from {path}", flush=True)
        return 1e-3
    return 3e-3


def train_finder(minutes: float, out: Path, resume: bool = False) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(0)
    ds = [np.load(p) for p in _area_files()]
    # uint8, made network input per batch (all at once would not fit)
    ins = np.concatenate([d["ins"] for d in ds])
    heat = torch.from_numpy(np.concatenate([d["heats"] for d in ds]))
    size = torch.from_numpy(np.concatenate([d["sizes"] for d in ds]))
    mask = torch.from_numpy(np.concatenate([d["masks"] for d in ds]))
    print(f"  finder: {len(ins)} frames", flush=True)
    finder_cls, _ = nets()
    model = finder_cls()
    lr = _resume(model, "finder", resume, torch)
    opt = torch.optim.AdamW(model.parameters(), lr, weight_decay=1e-4)
    n = len(ins)
    t0, step = time.time(), 0
    deadline = t0 + minutes * 60
    while time.time() < deadline:
        model.train()
        idx = torch.randint(0, n, (8,))
        xb = _augment_colour(_batch(ins, idx, torch), torch)
        # a random 128x128 window of the quarter-size frame (32x32 map cells)
        oy = int(np.random.randint(0, 4)) * 4 * 4
        ox = int(np.random.randint(0, 13)) * 4 * 4
        xb = xb[:, :, oy:oy + 128, ox:ox + 128]
        hb = heat[idx][:, :, oy // 4:oy // 4 + 32, ox // 4:ox // 4 + 32]
        sb = size[idx][:, oy // 4:oy // 4 + 32, ox // 4:ox // 4 + 32]
        mb = mask[idx][:, oy // 4:oy // 4 + 32, ox // 4:ox // 4 + 32]
        y = model(xb)
        p = torch.sigmoid(y[:, :2]).clamp(1e-4, 1 - 1e-4)
        pos = (hb >= 0.999).float()
        neg_w = (1 - hb) ** 4
        focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * neg_w * p ** 2 * torch.log(1 - p))
        loss = focal.sum() / max(1.0, float(pos.sum()))
        loss = loss + (F.smooth_l1_loss(y[:, 2], sb, reduction="none") * mb).sum() / max(
            1.0, float(mb.sum()))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            print(f"  finder step {step} loss {loss.item():.4f} {time.time() - t0:.0f}s",
                  flush=True)
    torch.save(model.state_dict(), CACHE / "finder.pt")
    _export(model, torch.zeros(1, 3, 180, 320), out / M.FINDER_PATH.name)


def train_reader(minutes: float, out: Path, which: str, resume: bool = False) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(0)
    ds = [np.load(p) for p in (_area_files() if which == "reader" else [CACHE / "table.npz"])]
    crops = np.concatenate([d["crops"] for d in ds])
    labels = np.concatenate([d["labels"] for d in ds])
    if which == "reader":  # as the reader sees them: turned upright (models.upright)
        crops = np.stack([M.upright(c) for c in crops])
    classes = M.PIECE_CLASSES if which == "reader" else len(M.SPACE_LABELS)
    y = torch.from_numpy(labels)
    counts = np.bincount(labels, minlength=classes)
    print(f"  {which}: {len(labels)} crops, per class {counts.tolist()}", flush=True)
    # rare classes (a pawn on a space, a coin) drawn more often than they occur
    weights = np.maximum(counts, 1).astype(np.float64)[labels] ** (-0.7 if which == "spaces"
                                                                   else -0.2)
    weights /= weights.sum()
    _, reader_cls = nets()
    model = reader_cls(classes)
    lr = _resume(model, which, resume, torch)
    opt = torch.optim.AdamW(model.parameters(), lr, weight_decay=1e-4)
    n = len(crops)
    t0, step = time.time(), 0
    total = minutes * 60
    while time.time() - t0 < total:
        frac = (time.time() - t0) / total
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
        model.train()
        idx = torch.from_numpy(np.random.choice(n, 64, p=weights))
        xb = _augment_colour(_batch(crops, idx, torch), torch)
        # pieces lie at any turn; a space turned by 90 degrees is still a space (its tile's
        # grid is square, a standing pawn leans whichever way the camera makes it)
        xb = torch.rot90(xb, int(np.random.randint(4)), (2, 3))
        loss = F.cross_entropy(model(xb), y[idx], label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 100 == 0:
            print(f"  {which} step {step} loss {loss.item():.4f} {time.time() - t0:.0f}s",
                  flush=True)
    torch.save(model.state_dict(), CACHE / f"{which}.pt")
    model.eval()
    with torch.no_grad():
        some = np.random.default_rng(0).choice(n, min(n, 3000), replace=False)
        pred = torch.cat([model(_batch(crops, some[i:i + 500], torch)).argmax(1)
                          for i in range(0, len(some), 500)])
    print(f"  {which}: accuracy on {len(some)} training crops "
          f"{(pred == y[some]).float().mean().item():.4f}")
    path = out / (M.READER_PATH.name if which == "reader" else M.SPACE_PATH.name)
    _export(model, torch.zeros(1, 3, M.CROP, M.CROP), path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("what", choices=["data", "finder", "reader", "spaces"])
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--frames", type=int, default=0, help="renders for `data` (0: the default)")
    ap.add_argument("--start", type=int, default=0,
                    help="`data`: first seed (above 0: a further batch of dice-area renders only)")
    ap.add_argument("--mine", action="store_true",
                    help="`data`: also cut reader crops where the shipped finder puts pieces, "
                    "and take its candidates on no piece as hard negatives")
    ap.add_argument("--out", type=Path, default=M.MODEL_DIR)
    ap.add_argument("--resume", action="store_true", help="go on from the last run's weights")
    a = ap.parse_args(argv)
    if a.what == "data" and a.start > 0:
        render_area_data(a.frames or AREA_FRAMES, a.start, a.mine)
    elif a.what == "data":
        render_area_data(a.frames or AREA_FRAMES, 0, a.mine)
        render_table_data(max(1, (a.frames or AREA_FRAMES) * TABLE_FRAMES // AREA_FRAMES))
    elif a.what == "finder":
        train_finder(a.minutes, a.out, a.resume)
    else:
        train_reader(a.minutes, a.out, a.what, a.resume)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
