"""``scripts/train_d6_colour.py outputs``: the colour d6 reader gains its ``features`` output and
keeps its first output exactly; the command can be run again, on any export of the architecture."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx is a dev dependency: pip install -e '.[dev]'")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from onnx_fp16 import to_fp16  # noqa: E402
from train_d6_colour import FEATURES, add_features_output  # noqa: E402

SHIPPED = ROOT / "vision" / "dice" / "models" / "d6_colour.onnx"


def _without_features(src: Path, dst: Path) -> None:
    """The network as exported before the ``features`` output (the output and its node removed)."""
    m = onnx.load(str(src))
    keep = [o for o in m.graph.output if o.name != FEATURES]
    del m.graph.output[:]
    m.graph.output.extend(keep)
    nodes = [n for n in m.graph.node if FEATURES not in n.output]
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    onnx.save(m, str(dst))


def _run(path: Path, x: np.ndarray) -> list[np.ndarray]:
    return [np.asarray(o) for o in ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"input": x})]


def test_the_shipped_colour_reader_gives_its_features() -> None:
    x = np.random.default_rng(0).random((3, 3, 80, 80)).astype(np.float32) * 255
    p, f = _run(SHIPPED, x)
    assert p.shape == (3, 6) and np.allclose(p.sum(1), 1.0, atol=1e-4) and f.shape == (3, 128)


def test_the_features_output_leaves_the_first_output_bit_identical_and_runs_again(tmp_path: Path) -> None:
    old, new = tmp_path / "old.onnx", tmp_path / "new.onnx"
    _without_features(SHIPPED, old)
    assert [o.name for o in onnx.load(str(old)).graph.output] == ["output"]
    assert add_features_output(old, new) == "added"
    x = np.random.default_rng(1).random((4, 3, 80, 80)).astype(np.float32) * 255
    (before,) = _run(old, x)
    after, feats = _run(new, x)
    assert np.array_equal(before, after) and feats.shape == (4, 128)
    # the head's last layer applied to the features gives the first output (they are its input)
    assert add_features_output(new) == "already"  # re-runnable: nothing added twice
    assert [o.name for o in onnx.load(str(new)).graph.output] == ["output", FEATURES]


def _tiny(path: Path, last: str = "MatMul") -> None:
    rng = np.random.default_rng(3)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    fc = rng.standard_normal((4 * 2, 6)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["input", "w"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("ReduceMean", ["c"], ["m"], axes=[2, 3], keepdims=0),
             helper.make_node("ReduceMax", ["c"], ["x"], axes=[2, 3], keepdims=0),
             helper.make_node("Concat", ["m", "x"], ["pooled"], axis=1)]
    if last == "MatMul":
        nodes += [helper.make_node("MatMul", ["pooled", "fc"], ["logits"]),
                  helper.make_node("Softmax", ["logits"], ["output"], axis=1)]
    else:  # a network whose output is not a final layer on a pooled vector
        nodes += [helper.make_node("Relu", ["c"], ["output"])]
    graph = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["n", 3, 8, 8])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                                             ["n", 6] if last == "MatMul" else ["n", 4, 8, 8])],
                              [numpy_helper.from_array(w, "w"), numpy_helper.from_array(fc, "fc")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))


def test_any_export_of_the_architecture_16_bit_too_gains_the_output_and_another_is_refused(tmp_path: Path) -> None:
    src, half, out = tmp_path / "tiny.onnx", tmp_path / "tiny16.onnx", tmp_path / "tiny16f.onnx"
    _tiny(src)
    to_fp16(src, half)  # the shipped networks are stored with 16-bit weights
    assert add_features_output(half, out) == "added"
    x = np.random.default_rng(2).random((2, 3, 8, 8)).astype(np.float32)
    (before,) = _run(half, x)
    after, feats = _run(out, x)
    assert np.array_equal(before, after) and feats.shape == (2, 8)
    other = tmp_path / "other.onnx"
    _tiny(other, last="Relu")
    with pytest.raises(SystemExit, match="not the colour d6 reader"):
        add_features_output(other, tmp_path / "x.onnx")
