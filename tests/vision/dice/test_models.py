"""What runs the networks (``vision.dice.models``): onnxruntime (a dependency) unless
``$DICE_BACKEND`` says OpenCV's DNN module; both give the same answers."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice import models, read_dice
from vision.dice.models import (
    CLASSIFIER_PATH,
    DETECTOR_PATH,
    BackendError,
    default_backend,
    face_reader_path,
    load_net,
    type_reader_path,
)


@pytest.mark.parametrize(
    ("path", "shape"),
    [
        (DETECTOR_PATH, (1, 1, 96, 160)),
        (DETECTOR_PATH, (3, 1, 96, 96)),
        (CLASSIFIER_PATH, (4, 1, 64, 64)),
        (face_reader_path("d20"), (2, 1, 64, 64)),
        (face_reader_path("d6"), (3, 1, 64, 64)),
        (type_reader_path(), (2, 1, 64, 64)),
        # networks with a second output ("features"): run() gives the first on both backends
        (models.MODEL_DIR / "d6_colour.onnx", (2, 3, 80, 80)),
        (models.MODEL_DIR / "number_reader.onnx", (2, 3, 96, 96)),
    ],
)
def test_both_backends_give_the_same_answers(path, shape) -> None:  # type: ignore[no-untyped-def]
    x = np.random.default_rng(5).random(shape, dtype=np.float32)
    a = load_net(path, "onnxruntime").run(x)
    b = load_net(path, "opencv").run(x)
    assert a.shape == b.shape and a.shape[0] == shape[0]
    assert np.allclose(a, b, atol=1e-3), float(np.abs(a - b).max())


def test_the_backend_follows_dice_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DICE_BACKEND", "opencv")
    assert default_backend() == "opencv"
    assert load_net(CLASSIFIER_PATH).backend == "opencv"
    monkeypatch.setenv("DICE_BACKEND", "onnx")
    with pytest.raises(BackendError, match="DICE_BACKEND must be one of onnxruntime, opencv"):
        default_backend()
    # the reader says so instead of raising
    obs = read_dice(np.full((120, 160, 3), 128, np.uint8))
    assert obs.status == "error" and "DICE_BACKEND" in obs.message


def test_onnxruntime_is_preferred_when_it_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DICE_BACKEND", raising=False)
    monkeypatch.setattr(models, "onnxruntime_usable", lambda: False)  # missing, or fails to import
    assert default_backend() == "opencv"
    monkeypatch.undo()
    monkeypatch.delenv("DICE_BACKEND", raising=False)
    assert default_backend() == "onnxruntime"


def test_dice_model_dir_points_the_reader_at_other_networks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # a retrained set is measured by pointing DICE_MODEL_DIR at it; an empty folder gives the
    # reader's missing-model message naming that folder, not a crash or the shipped networks
    import os
    import subprocess
    import sys

    code = ("import numpy as np; from vision.dice import read_dice; "
            "o = read_dice(np.full((240, 320, 3), 90, np.uint8)); print(o.status, '|', o.message)")
    env = dict(os.environ, DICE_MODEL_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith("error |") and "dice_detector.onnx is missing" in out and str(tmp_path) in out
    env.pop("DICE_MODEL_DIR")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith("empty |")
