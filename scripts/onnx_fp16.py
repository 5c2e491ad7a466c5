"""Store an ONNX network's weights as 16-bit floats: half the file, the same answers.

Each float32 weight tensor of 16 or more values is stored as float16 and turned back into
float32 by a ``Cast`` node in front of the graph, so the graph still takes and gives float32
and OpenCV's DNN module (which folds the casts when it loads the net) runs it as before. The
largest change to a logit is a few thousandths; the read thresholds are calibrated on the
stored (16-bit) networks.

    python3 scripts/onnx_fp16.py IN.onnx OUT.onnx    # OUT may be IN

Training only (needs the ``onnx`` package, like the training scripts).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def to_fp16(src: Path, dst: Path) -> tuple[int, int]:
    """Write ``src`` with 16-bit weights to ``dst``; return (bytes before, bytes after)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(src))
    graph = model.graph
    inits, casts = [], []
    for init in graph.initializer:
        a = numpy_helper.to_array(init)
        if a.dtype == np.float32 and a.size >= 16:
            half = numpy_helper.from_array(a.astype(np.float16), init.name + "_fp16")
            inits.append(half)
            casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT,
                                          name=init.name + "_to_fp32"))
        else:
            inits.append(init)
    if not casts:
        raise SystemExit(f"{src}: no float32 weights to store as float16 (already converted?)")
    del graph.initializer[:]
    graph.initializer.extend(inits)
    nodes = list(graph.node)
    del graph.node[:]
    graph.node.extend(casts + nodes)
    onnx.checker.check_model(model)
    before = src.stat().st_size
    onnx.save(model, str(dst))
    return before, dst.stat().st_size


def float_weights(path: Path) -> dict[str, np.ndarray]:
    """Every weight of a stored network as a 32-bit array, under the name its nodes read it by:
    a weight stored 16-bit by :func:`to_fp16` comes back under its ``Cast`` node's output name
    (the name it had before conversion), so a converted and an unconverted network give the
    same keys. Used to start a fine-tune from a shipped network (``--init X.onnx``)."""
    import onnx

    return graph_float_weights(onnx.load(str(path)).graph)


def graph_float_weights(graph: object) -> dict[str, np.ndarray]:
    """:func:`float_weights` of a loaded graph (``onnx.load(...).graph``)."""
    from onnx import numpy_helper

    out = {i.name: numpy_helper.to_array(i) for i in graph.initializer}  # type: ignore[attr-defined]
    for node in graph.node:  # type: ignore[attr-defined]
        if node.op_type == "Cast" and len(node.input) == 1 and node.input[0] in out:
            out[node.output[0]] = out.pop(node.input[0])
    return {name: np.asarray(a, np.float32) if a.dtype == np.float16 else a for name, a in out.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", type=Path)
    p.add_argument("dst", type=Path)
    args = p.parse_args()
    before, after = to_fp16(args.src, args.dst)
    print(f"{args.src} ({before} bytes) -> {args.dst} ({after} bytes)")


if __name__ == "__main__":
    main()
