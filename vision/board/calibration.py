"""Lens correction: a camera model per camera, ChArUco calibration, and point (un)distortion.

The wide Camera Module 3 (102 degrees across) bends straight board edges visibly, so marker
corners are undistorted before the homography is fitted and board points are distorted again
before they are looked up in the frame. Only points are corrected (never whole frames): cheap.

Models are stored as JSON, one file per camera id, under ``$COMPANION_CONFIG_DIR/cameras/`` (by
default ``~/.config/companion/cameras/``).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np


class CalibrationError(RuntimeError):
    """Calibration could not be done or loaded; the message says what to do."""


@dataclass(frozen=True)
class CameraModel:
    """Pinhole intrinsics plus OpenCV's radial/tangential distortion (k1, k2, p1, p2, k3)."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
    camera_id: str = "default"
    rms_px: float | None = None

    @classmethod
    def ideal(cls, width: int, height: int, hfov_deg: float = 75.0,
              dist: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0),
              camera_id: str = "default") -> CameraModel:
        f = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
        return cls(width, height, f, f, (width - 1) / 2, (height - 1) / 2,
                   tuple(float(d) for d in dist), camera_id)

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], np.float64)

    @property
    def coeffs(self) -> np.ndarray:
        return np.array(self.dist, dtype=np.float64)

    @property
    def has_distortion(self) -> bool:
        return any(abs(d) > 1e-12 for d in self.dist)

    def scaled_to(self, width: int, height: int) -> CameraModel:
        """The same lens at another capture size (same aspect ratio assumed)."""
        sx, sy = width / self.width, height / self.height
        return CameraModel(width, height, self.fx * sx, self.fy * sy, self.cx * sx, self.cy * sy,
                           self.dist, self.camera_id, self.rms_px)

    def undistort_points(self, pts: np.ndarray) -> np.ndarray:
        """Image pixels -> ideal (distortion-free) pixels of the same camera matrix."""
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 1, 2)
        if not self.has_distortion or len(p) == 0:
            return p.reshape(-1, 2).copy()
        out = cv2.undistortPointsIter(  # type: ignore[call-overload]
            p, self.matrix, self.coeffs, None, self.matrix,
            (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6))
        return np.asarray(out).reshape(-1, 2)

    def distort_points(self, pts: np.ndarray) -> np.ndarray:
        """Ideal pixels -> image pixels (the forward lens model)."""
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if not self.has_distortion or len(p) == 0:
            return p.copy()
        k = list(self.dist) + [0.0] * (5 - len(self.dist))
        k1, k2, p1, p2, k3 = k[:5]
        x = (p[:, 0] - self.cx) / self.fx
        y = (p[:, 1] - self.cy) / self.fy
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([xd * self.fx + self.cx, yd * self.fy + self.cy], axis=1)

    def to_json(self) -> dict[str, object]:
        return {
            "camera_id": self.camera_id, "width": self.width, "height": self.height,
            "fx": self.fx, "fy": self.fy, "cx": self.cx, "cy": self.cy,
            "dist": list(self.dist), "rms_px": self.rms_px,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CameraModel:
        try:
            dist_raw = data["dist"]
            if not isinstance(dist_raw, list):
                raise TypeError("dist must be a list")
            rms = data.get("rms_px")
            return cls(
                int(str(data["width"])), int(str(data["height"])), float(str(data["fx"])),
                float(str(data["fy"])), float(str(data["cx"])), float(str(data["cy"])),
                tuple(float(d) for d in dist_raw), str(data.get("camera_id", "default")),
                None if rms is None else float(str(rms)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(
                f"camera calibration file is damaged ({exc}): run 'companion calibrate-camera' "
                "again") from exc


def config_dir() -> Path:
    env = os.environ.get("COMPANION_CONFIG_DIR")
    base = Path(env) if env else Path.home() / ".config" / "companion"
    return base / "cameras"


def model_path(camera_id: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in camera_id) or "default"
    return config_dir() / f"{safe}.json"


def save_model(model: CameraModel, path: Path | None = None) -> Path:
    target = path or model_path(model.camera_id)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(model.to_json(), indent=2) + "\n")
    return target


def load_model(camera_id: str = "default", path: Path | None = None) -> CameraModel | None:
    """The stored model for a camera, or None when it was never calibrated."""
    target = path or model_path(camera_id)
    if not target.is_file():
        return None
    try:
        data = json.loads(target.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CalibrationError(
            f"cannot read camera calibration {target} ({exc}): run 'companion calibrate-camera' "
            "again") from exc
    if not isinstance(data, dict):
        raise CalibrationError(f"camera calibration {target} is not a JSON object: recalibrate")
    return CameraModel.from_json(data)


# --- ChArUco calibration --------------------------------------------------------------------


@dataclass(frozen=True)
class CharucoSpec:
    """The printed ChArUco board (5x5 dictionary, so it never looks like a board marker)."""

    squares_x: int = 7
    squares_y: int = 5
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: int = cv2.aruco.DICT_5X5_100

    def board(self) -> cv2.aruco.CharucoBoard:
        d = cv2.aruco.getPredefinedDictionary(self.dictionary)
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm,
                                      self.marker_mm, d)

    def image(self, px_per_mm: float = 4.0, margin_mm: float = 10.0) -> np.ndarray:
        w = int(round((self.squares_x * self.square_mm + 2 * margin_mm) * px_per_mm))
        h = int(round((self.squares_y * self.square_mm + 2 * margin_mm) * px_per_mm))
        return np.asarray(self.board().generateImage((w, h), marginSize=int(margin_mm * px_per_mm)))


@dataclass
class CalibrationResult:
    model: CameraModel
    frames_used: int
    frames_rejected: list[str] = field(default_factory=list)


def calibrate_charuco(frames: Iterable[np.ndarray], camera_id: str = "default",
                      spec: CharucoSpec | None = None, min_corners: int = 8,
                      min_frames: int = 5) -> CalibrationResult:
    """Calibrate from BGR or grey frames showing the ChArUco board at several tilts."""
    spec = spec or CharucoSpec()
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    obj_all: list[np.ndarray] = []
    img_all: list[np.ndarray] = []
    rejected: list[str] = []
    size: tuple[int, int] | None = None
    for n, frame in enumerate(frames):
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        this_size = (gray.shape[1], gray.shape[0])
        if size is None:
            size = this_size
        elif size != this_size:
            rejected.append(f"frame {n}: size {this_size} differs from {size}")
            continue
        ch_corners, ch_ids, _, _ = detector.detectBoard(gray)
        if ch_ids is None or len(ch_ids) < min_corners:
            found = 0 if ch_ids is None else len(ch_ids)
            rejected.append(f"frame {n}: only {found} ChArUco corners seen")
            continue
        obj, img = board.matchImagePoints(ch_corners, ch_ids)  # type: ignore[call-overload]
        obj_all.append(obj.astype(np.float32))
        img_all.append(img.astype(np.float32))
    if size is None or len(obj_all) < min_frames:
        raise CalibrationError(
            f"only {len(obj_all)} usable views of the ChArUco board (need {min_frames}): show the "
            "whole printed board to the camera at several tilts and distances")
    flags = cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_FIX_K3  # k3 extrapolates badly at the edges
    rms, k, dist, _, _ = cv2.calibrateCamera(obj_all, img_all, size, None, None, flags=flags)
    dist_t = tuple(float(v) for v in np.asarray(dist).ravel()[:5])
    model = CameraModel(size[0], size[1], float(k[0, 0]), float(k[1, 1]), float(k[0, 2]),
                        float(k[1, 2]), dist_t, camera_id, float(rms))
    return CalibrationResult(model, len(obj_all), rejected)
