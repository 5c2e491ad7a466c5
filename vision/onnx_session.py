"""How every vision network's onnxruntime session is set up (dice, special dice, piecepack).

onnxruntime's worker threads spin (busy-wait) for a while after each run, waiting for the
next one. The readers run many small networks one after another with Python work in between,
and on a small machine the spinning threads take the cores that work needs: on this project's
2-core test machine a frame of dice of every type took a median 94.9 ms with two spinning
threads, 19.9 ms with two that sleep and 20.9 ms on one thread (``benchmarks/onnx_threads.py``,
benchmarks/results/onnx-threads.md). So spinning is off. ``COMPANION_ONNX_SPIN=1`` turns it back on, to measure the difference.
"""

from __future__ import annotations

import os
from typing import Any

SPIN_ENV = "COMPANION_ONNX_SPIN"


def spinning() -> bool:
    """Whether the worker threads may spin: only when ``$COMPANION_ONNX_SPIN`` is 1."""
    return os.environ.get(SPIN_ENV, "").strip() == "1"


def session_options(threads: int) -> Any:
    """onnxruntime ``SessionOptions`` for one network: ``threads`` worker threads (at least one)
    for its operators, one for the graph, and no spinning between runs (see above)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, int(threads))
    options.inter_op_num_threads = 1
    flag = "1" if spinning() else "0"
    options.add_session_config_entry("session.intra_op.allow_spinning", flag)
    options.add_session_config_entry("session.inter_op.allow_spinning", flag)
    return options
