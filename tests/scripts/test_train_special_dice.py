"""The special dice training script (scripts/train_special_dice.py): the reader's batch drawing;
the finder's heat target gives every die a positive cell (``--peak-cell``), and its view
augmentation moves the dice's centres and sizes with the picture."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest
from script_module import load

from vision.special_dice.nets import CELL


def _script() -> ModuleType:
    return load("train_special_dice")


def test_none_crops_are_drawn_as_often_as_they_come_unless_weighted() -> None:
    draw_weights = _script().draw_weights
    labels = np.array([0, 0, 0, 1, 6, 6])
    assert draw_weights(labels, 1.0) is None  # every crop alike
    p = draw_weights(labels, 0.5)
    assert p is not None and abs(float(p.sum()) - 1.0) < 1e-9
    # three "none" crops at half weight against three dice: a quarter of a batch is "none"
    assert float(p[labels == 0].sum()) == pytest.approx(1.5 / 4.5)
    assert p[0] == pytest.approx(p[3] / 2)


def test_a_none_weight_of_zero_is_refused_with_what_to_pass() -> None:
    with pytest.raises(SystemExit, match="--none-weight must be above 0"):
        _script().draw_weights(np.array([0, 1]), 0.0)


GH, GW = 23, 40  # the grid of a 160x92 finder view (a 640x360 window)


def _dice() -> list[np.ndarray]:
    """Dice centred between cells (the usual case), of several sizes."""
    return [np.array([[100.0, 60.0, 32.0], [300.0, 200.0, 48.0], [523.0, 91.0, 90.0]], np.float32)]


def test_without_peak_cell_a_die_between_cells_has_no_positive() -> None:
    heat, _, _ = _script().finder_targets(_dice(), GH, GW)
    assert (heat[0] > 0.99).sum() == 0


def test_peak_cell_marks_one_positive_cell_at_each_dies_centre() -> None:
    heat, reg, regw = _script().finder_targets(_dice(), GH, GW, peak_cell=True)
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
    _, _, regw = _script().finder_targets([np.array([[320.0, 180.0, 40.0], [160.0, 180.0, 100.0]], np.float32)], GH, GW)
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
    augment_view = _script().augment_view
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


def _die_crops() -> np.ndarray:
    """64x64 grey crops of rendered test frames (seeds 7,000,000 on): on each die, beside it and
    on bare table."""
    from vision.special_dice.nets import crop, to_grey
    from vision.synthetic.special_dice import render_scene

    out = []
    for k in range(3):
        rng = np.random.default_rng(7_000_000 + k)
        img, truth = render_scene(rng)
        grey = to_grey(img)
        for d in truth.dice:
            side = float(max(d.box[2], d.box[3]))
            for dx in (0.0, 0.3, 1.0):
                out.append(crop(grey, (d.centre[0] + dx * side, d.centre[1]), side, 64, float(rng.uniform(0, 360))))
        for _ in range(4):
            out.append(crop(grey, (float(rng.uniform(50, 1230)), float(rng.uniform(50, 670))), 45.0, 64))
    return np.stack(out)


def test_a_reader_rebuilt_from_its_onnx_reads_as_the_exported_one() -> None:
    torch = pytest.importorskip("torch", reason="the trainer needs PyTorch (training only): pip install torch==2.13.0")
    pytest.importorskip("onnx", reason="rebuilding from an exported reader needs onnx")
    import onnxruntime as ort

    from vision.special_dice.nets import UPRIGHT_READER_PATH

    mod = _script()
    crops = _die_crops()
    assert len(crops) >= 20
    net = mod.reader_from_onnx(UPRIGHT_READER_PATH, crops)
    x = mod._norm(torch, torch.from_numpy(crops))[:, None]
    want = ort.InferenceSession(str(UPRIGHT_READER_PATH), providers=["CPUExecutionProvider"]).run(
        None, {"x": x.numpy()})[0]
    with torch.no_grad():
        got = net(x).numpy()
    assert np.abs(want).max() > 1.0  # real answers, not all zeros
    np.testing.assert_allclose(got, want, atol=1e-3)
    assert (got[:, :7].argmax(1) == want[:, :7].argmax(1)).all()
    # in train mode (dropout aside) the batch norms pass the crops they were measured on through
    net.train()
    for m in net.modules():
        if isinstance(m, torch.nn.Dropout):
            m.eval()
    with torch.no_grad():
        trained_mode = net(x).numpy()
    np.testing.assert_allclose(trained_mode, want, atol=1e-2)


def test_rebuilding_a_reader_of_another_shape_says_which_arch_to_pass() -> None:
    pytest.importorskip("torch", reason="the trainer needs PyTorch (training only): pip install torch==2.13.0")
    pytest.importorskip("onnx", reason="rebuilding from an exported reader needs onnx")
    from vision.special_dice.nets import UPRIGHT_READER_PATH

    with pytest.raises(SystemExit, match="--arch"):
        _script().reader_from_onnx(UPRIGHT_READER_PATH, np.zeros((4, 48, 48), np.uint8), arch="small")
