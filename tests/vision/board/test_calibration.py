from pathlib import Path

import numpy as np
import pytest

from vision.board.calibration import (
    CalibrationError,
    CameraModel,
    CharucoSpec,
    calibrate_charuco,
    load_model,
    save_model,
)
from vision.synthetic.table import CameraPose, render_plane


def test_distort_undistort_round_trip() -> None:
    cam = CameraModel.ideal(1280, 720, 102.0, (-0.2, 0.045, 0.001, -0.001, 0.0))
    rng = np.random.default_rng(0)
    pts = rng.uniform([0, 0], [1280, 720], (200, 2))
    back = cam.distort_points(cam.undistort_points(pts))
    assert np.abs(back - pts).max() < 0.05


def test_save_and_load(tmp_path: Path) -> None:
    cam = CameraModel.ideal(640, 480, 70.0, (0.1, 0, 0, 0, 0), camera_id="top")
    path = save_model(cam, tmp_path / "top.json")
    assert load_model("top", path) == cam
    assert load_model("missing", tmp_path / "missing.json") is None
    path.write_text("{not json")
    with pytest.raises(CalibrationError, match="calibrate-camera"):
        load_model("top", path)


def test_charuco_calibration_recovers_the_lens() -> None:
    true = CameraModel.ideal(960, 540, 90.0, (-0.15, 0.03, 0.0, 0.0, 0.0), "synthetic")
    spec = CharucoSpec()
    ppm = 4.0
    tex = spec.image(px_per_mm=ppm, margin_mm=0.0)
    w_mm, h_mm = tex.shape[1] / ppm, tex.shape[0] / ppm
    rng = np.random.default_rng(3)
    views = []
    for _ in range(9):
        cx, cy = w_mm / 2 + rng.uniform(-60, 60), h_mm / 2 + rng.uniform(-40, 40)
        tilt_x, tilt_y = rng.uniform(-130, 130, 2)
        pose = CameraPose(cx + tilt_x, cy + tilt_y, float(rng.uniform(170, 240)),
                          (w_mm / 2, h_mm / 2), float(rng.uniform(-20, 20)))
        views.append(render_plane(tex, ppm, true, pose, background=120))
    res = calibrate_charuco(views, camera_id="synthetic", spec=spec)
    m = res.model
    assert res.frames_used >= 7
    assert m.rms_px is not None and m.rms_px < 1.0
    assert m.fx == pytest.approx(true.fx, rel=0.03)
    # the lens model must undo the distortion where it matters: compare corrections
    pts = np.array([[120.0, 90.0], [840.0, 450.0], [480.0, 60.0], [90.0, 270.0]])
    assert np.abs(m.undistort_points(pts) - true.undistort_points(pts)).max() < 4.0


def test_too_few_views_is_a_plain_error() -> None:
    with pytest.raises(CalibrationError, match="ChArUco"):
        calibrate_charuco([np.zeros((480, 640, 3), np.uint8)] * 3)
