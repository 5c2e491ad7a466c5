"""``scripts/onnx_fp16.py``: a network stored with 16-bit weights gives OpenCV the same answers."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx is a dev dependency: pip install -e '.[dev]'")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from onnx_fp16 import float_weights, to_fp16  # noqa: E402


def _tiny_net(path: Path) -> None:
    rng = np.random.default_rng(3)
    w = rng.standard_normal((4, 1, 3, 3)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    fc = rng.standard_normal((4 * 8 * 8, 5)).astype(np.float32) * 0.1
    nodes = [
        helper.make_node("Conv", ["input", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"], axis=1),
        helper.make_node("MatMul", ["f", "fc"], ["output"]),
    ]
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 1, 8, 8])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 5])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
         numpy_helper.from_array(fc, "fc")],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x)
    return np.asarray(net.forward())


def test_half_the_weights_same_answers(tmp_path: Path) -> None:
    src, dst = tmp_path / "tiny.onnx", tmp_path / "tiny16.onnx"
    _tiny_net(src)
    before, after = to_fp16(src, dst)
    assert after < 0.7 * before
    stored = onnx.load(str(dst))
    kinds = {i.name: i.data_type for i in stored.graph.initializer}
    assert kinds["fc_fp16"] == TensorProto.FLOAT16 and kinds["w_fp16"] == TensorProto.FLOAT16
    assert kinds["b"] == TensorProto.FLOAT  # too small to be worth halving
    x = np.random.default_rng(4).standard_normal((1, 1, 8, 8)).astype(np.float32)
    a, b = _run(src, x), _run(dst, x)
    assert a.shape == b.shape == (1, 5)
    assert np.abs(a - b).max() < 1e-2 * max(1.0, float(np.abs(a).max()))


def test_a_converted_net_is_not_converted_twice(tmp_path: Path) -> None:
    src = tmp_path / "tiny.onnx"
    _tiny_net(src)
    to_fp16(src, src)
    with pytest.raises(SystemExit, match="already converted"):
        to_fp16(src, src)


def test_the_weights_come_back_under_the_names_the_nodes_read(tmp_path: Path) -> None:
    """``float_weights``: what a fine-tune starts from (``--init X.onnx``), 16-bit or not."""
    src, dst = tmp_path / "tiny.onnx", tmp_path / "tiny16.onnx"
    _tiny_net(src)
    to_fp16(src, dst)
    plain, halved = float_weights(src), float_weights(dst)
    assert set(plain) == set(halved) == {"w", "b", "fc"}
    for name in plain:
        assert halved[name].dtype == np.float32 and halved[name].shape == plain[name].shape
        # 16-bit storage loses at most about one part in two thousand
        assert np.abs(halved[name] - plain[name]).max() <= 1e-3 * np.abs(plain[name]).max()
    assert np.array_equal(halved["b"], plain["b"])  # kept 32-bit
    assert not np.array_equal(halved["fc"], plain["fc"])  # really read from the 16-bit copy
