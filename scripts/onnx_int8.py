"""Store an ONNX network with 8-bit integer weights and activations (onnxruntime's static
quantization: QDQ format, int8 weights per output channel, uint8 activations, min-max ranges
from calibration inputs). The graph still takes and gives float32; onnxruntime runs its
convolutions in 8 bits, faster on x86 and on the Pi's Cortex-A76.

Used by ``scripts/quantize_special_reader.py`` and ``scripts/quantize_dice_detector.py``, which
gather the calibration inputs (what the shipped reading path feeds the network).

Training only (needs the ``onnx`` package, like the training scripts).
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.dice.models import fingerprint
from vision.special_dice.nets import FLOAT_SOURCE


def input_name(path: Path) -> str:
    import onnx

    return str(onnx.load(str(path)).graph.input[0].name)


def to_int8(source: Path, target: Path, feeds: Sequence[np.ndarray], prepare: bool = True) -> None:
    """Write ``source`` in 8 bits to ``target``, calibrated on ``feeds`` (each one run of the
    network's first input). ``prepare``: run onnxruntime's shape inference and graph clean-up
    first (a network whose input sizes are all symbolic, like a detector of any frame size,
    is quantized as it is)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name = input_name(source)

    class Feeds(CalibrationDataReader):
        def __init__(self) -> None:
            self.runs = iter([{name: np.ascontiguousarray(x, np.float32)} for x in feeds])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.runs, None)

    with tempfile.TemporaryDirectory() as tmp:
        graph = source
        if prepare:
            graph = Path(tmp) / "prepared.onnx"
            quant_pre_process(str(source), str(graph))
        quantize_static(str(graph), str(target), Feeds(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        per_channel=True, calibrate_method=CalibrationMethod.MinMax)
    record_source(target, source)


def record_source(target: Path, source: Path) -> None:
    """Keep the float network's digest in the 8-bit file's metadata (``FLOAT_SOURCE``), so the
    reader uses the 8-bit file only with the float network it was made from."""
    import onnx

    model = onnx.load(str(target))
    for prop in list(model.metadata_props):
        if prop.key == FLOAT_SOURCE:
            model.metadata_props.remove(prop)
    entry = model.metadata_props.add()
    entry.key, entry.value = FLOAT_SOURCE, fingerprint(source)
    onnx.save(model, str(target))
