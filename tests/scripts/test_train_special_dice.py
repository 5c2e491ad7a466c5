"""``scripts/train_special_dice.py finder``: the heat target gives every die a positive cell
(``--peak-cell``), and the view augmentation moves the dice's centres and sizes with the picture."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from train_special_dice import augment_view, finder_targets  # noqa: E402

from vision.special_dice.nets import CELL  # noqa: E402

GH, GW = 23, 40  # the grid of a 160x92 finder view (a 640x360 window)


def _dice() -> list[np.ndarray]:
    """Dice centred between cells (the usual case), of several sizes."""
    return [np.array([[100.0, 60.0, 32.0], [300.0, 200.0, 48.0], [523.0, 91.0, 90.0]], np.float32)]


def test_without_peak_cell_a_die_between_cells_has_no_positive() -> None:
    heat, _, _ = finder_targets(_dice(), GH, GW)
    assert (heat[0] > 0.99).sum() == 0


def test_peak_cell_marks_one_positive_cell_at_each_dies_centre() -> None:
    heat, reg, regw = finder_targets(_dice(), GH, GW, peak_cell=True)
    ys, xs = np.nonzero(heat[0] > 0.99)
    assert len(ys) == 3
    for cx, cy, _side in _dice()[0]:
        gx, gy = cx / CELL - 0.5, cy / CELL - 0.5
        assert (round(gy), round(gx)) in set(zip(ys.tolist(), xs.tolist(), strict=True))
        # the offset at the positive cell leads back to the die's centre
        y, x = round(gy), round(gx)
        assert regw[0, y, x] == 1.0
        assert abs((x + reg[0, 1, y, x] + 0.5) * CELL - cx) < 1e-3
        assert abs((y + reg[0, 2, y, x] + 0.5) * CELL - cy) < 1e-3


def test_a_large_die_learns_its_size_from_more_cells() -> None:
    _, _, regw = finder_targets([np.array([[320.0, 180.0, 40.0], [160.0, 180.0, 100.0]], np.float32)], GH, GW)
    small = regw[0][:, 14:26].sum()
    large = regw[0][:, 4:16].sum()
    assert large > small


def _view_with_die(cx: float, cy: float, side: float) -> np.ndarray:
    """A plain grey view with one white square die (window pixels -> view pixels over 4)."""
    x = np.full((92, 160), 60, np.uint8)
    s = side / 8
    x[int(cy / 4 - s):int(cy / 4 + s), int(cx / 4 - s):int(cx / 4 + s)] = 250
    return x


def test_zoom_and_mirror_move_the_die_with_the_picture() -> None:
    box = np.array([[300.0, 180.0, 40.0]], np.float32)
    x = _view_with_die(*box[0])
    rng = np.random.default_rng(5)
    zoomed = 0
    for _ in range(40):
        v, b = augment_view(x, box, rng, zoom=1.8, blur=0.0)
        assert v.shape == x.shape
        if len(b) == 0:
            continue
        zoomed += int(b[0, 2] > 40.5)
        cx, cy, side = b[0]
        # the white square is where the moved box says, and as large
        ys, xs = np.nonzero(v > 155)
        assert abs(xs.mean() * 4 + 2 - cx) < 6 and abs(ys.mean() * 4 + 2 - cy) < 6
        assert abs((xs.max() - xs.min() + 1) * 4 - side) < 0.25 * side
    assert zoomed > 5
