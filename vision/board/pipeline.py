"""The whole per-frame vision step: check the frame, gate, verify the registration, read pawns.

``BoardPipeline(config).process(frame_bgr, expected)`` returns a `BoardObservation` and never
raises on bad input: a frame of the wrong kind, no board, a moving scene or a hand over the
squares each give a status and a message the kiosk can show as they are.

Statuses: 'ok' (read; `stable` once the reading held for `smoothing_frames` still frames),
'moving' (scene not still yet), 'hands' (a hand or something large over the squares),
'no_reference' (board found, but no picture of the empty board to tell rings from print),
'board_not_found', 'bad_frame'.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.calibration import CameraModel
from vision.board.gate import GateConfig, StillGate
from vision.board.geometry import DEFAULT_SPEC, BoardSpec
from vision.board.markers import DEFAULT_LAYOUT, MarkerLayout, MarkerRegistrar, RegistrationError
from vision.board.outline import find_board_outline
from vision.board.pawns import (
    MoveContext,
    PawnConfig,
    PawnReader,
    PawnReading,
    UnexpectedPiece,
)

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]

MESSAGES = {
    "board_not_found": "Board not found: is the camera pointing at the board, with the marker "
                       "stickers uncovered?",
    "moving": "Waiting for the table to be still…",
    "hands": "Hands over the board: take them away so the pieces can be read.",
    "no_reference": "Board found, pieces not read: show the empty board once first (a picture "
                    "of the board with no pieces, same camera; `board read --reference "
                    "EMPTY.jpg`), otherwise printed coloured circles look like pieces.",
}
GUESS_CONFIDENCE = 0.3


@dataclass(frozen=True)
class BoardObservation:
    """What the camera saw on one frame. `occupants` maps a cell (0..39, 40 = in Jail, 10 =
    Just Visiting) to the figurines read there; empty cells are absent."""

    status: str
    message: str
    method: str = "none"  # 'markers' | 'outline' | 'none'
    corners: Corners | None = None
    quality: float = 0.0
    occupants: Mapping[int, tuple[PawnReading, ...]] = field(default_factory=dict)
    unexpected: tuple[UnexpectedPiece, ...] = ()
    stable: bool = False
    event: str = ""  # 'registered' | 're-registered' | 'verified' | 'outline' | ''
    hand_cells: frozenset[int] = frozenset()

    @property
    def in_jail(self) -> tuple[PawnReading, ...]:
        return tuple(self.occupants.get(40, ()))

    def owners_at(self, cell: int) -> tuple[str | None, ...]:
        return tuple(r.owner for r in self.occupants.get(cell, ()))

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status, "message": self.message, "method": self.method,
            "corners": None if self.corners is None else [list(c) for c in self.corners],
            "quality": round(self.quality, 4), "stable": self.stable, "event": self.event,
            "occupants": {str(c): [{"owner": r.owner, "colour": r.colour,
                                    "confidence": r.confidence} for r in rs]
                          for c, rs in sorted(self.occupants.items())},
            "unexpected": [{"owner": u.owner, "square": u.square, "reason": u.reason}
                           for u in self.unexpected],
        }


@dataclass(frozen=True)
class PipelineConfig:
    pawns: PawnConfig = field(default_factory=PawnConfig)
    camera: CameraModel | None = None
    spec: BoardSpec = DEFAULT_SPEC
    layout: MarkerLayout = DEFAULT_LAYOUT
    gate: GateConfig = field(default_factory=GateConfig)
    use_gate: bool = True
    use_outline: bool = True
    outline_rotation: int = 0
    auto_reference: bool = True  # learn the empty board from the first still reading
    smoothing_frames: int = 3
    min_width: int = 320
    # Without a picture of the empty board (and no auto_reference), printed coloured circles
    # look like ring stickers: by default pieces are then not read (status 'no_reference');
    # True reads them anyway from the pewter inside each ring (weak, confidences capped).
    guess_without_reference: bool = False


class BoardPipeline:
    def __init__(self, config: PipelineConfig | None = None) -> None:
        self.config = cfg = config or PipelineConfig()
        self.camera = cfg.camera
        self.registrar = MarkerRegistrar(cfg.layout, cfg.camera)
        self.reader = PawnReader(cfg.pawns, cfg.spec)
        self.gate = StillGate(cfg.gate)
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._maps_corners: np.ndarray | None = None
        self._history: deque[dict[int, tuple[PawnReading, ...]]] = deque(
            maxlen=max(1, cfg.smoothing_frames))
        self._frame_size: tuple[int, int] | None = None
        self._outline_h: np.ndarray | None = None

    # -- public ---------------------------------------------------------------------------------
    def process(self, frame_bgr: object, expected: MoveContext | None = None) -> BoardObservation:
        bad = self._check_frame(frame_bgr)
        if bad is not None:
            return bad
        frame = np.asarray(frame_bgr)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if self.config.use_gate:
            gs = self.gate.update(gray)
            if not gs.still:
                self._history.clear()
                return BoardObservation("moving", MESSAGES["moving"])
        return self._read(frame, gray, expected, smooth=True)

    def read_once(self, frame_bgr: object, expected: MoveContext | None = None
                  ) -> BoardObservation:
        """Register (or verify) and read one frame without the gate or smoothing."""
        bad = self._check_frame(frame_bgr)
        if bad is not None:
            return bad
        frame = np.asarray(frame_bgr)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return self._read(frame, gray, expected, smooth=False)

    def set_reference(self, frame_bgr: np.ndarray) -> bool:
        """Learn the empty board from this frame (call at setup with no pieces on the board)."""
        gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        try:
            h, _, _ = self._register(frame_bgr, gray)
        except RegistrationError:
            return False
        self.reader.set_reference(self.warp(frame_bgr, h))
        return True

    def reset(self) -> None:
        """Forget the registration, the reference and the history (new table or camera)."""
        self.registrar.current = None
        self.reader = PawnReader(self.config.pawns, self.config.spec)
        self.gate.reset()
        self._maps = None
        self._maps_corners = None
        self._history.clear()

    def warp(self, frame_bgr: np.ndarray, h: np.ndarray) -> np.ndarray:
        """The canonical top-down board image (board only) at the reader's resolution."""
        corners = self._project(h, self.config.spec.corners())
        if (self._maps is None or self._maps_corners is None
                or float(np.abs(corners - self._maps_corners).max()) > 1.0):
            self._maps = self._build_maps(h)
            self._maps_corners = corners
        return cv2.remap(frame_bgr, self._maps[0], self._maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    # -- steps ----------------------------------------------------------------------------------
    def _check_frame(self, frame: object) -> BoardObservation | None:
        if not isinstance(frame, np.ndarray):
            return BoardObservation("bad_frame", f"Bad frame: expected an image array, got "
                                    f"{type(frame).__name__}; check the camera source.")
        if frame.dtype != np.uint8:
            return BoardObservation("bad_frame", f"Bad frame: pixels are {frame.dtype}, expected "
                                    "8-bit (uint8) BGR; check the camera source.")
        if frame.ndim != 3 or frame.shape[2] != 3:
            return BoardObservation("bad_frame", f"Bad frame: shape {frame.shape} is not a colour "
                                    "image (height x width x 3, BGR); check the camera mode.")
        hgt, wid = frame.shape[:2]
        if wid < self.config.min_width:
            return BoardObservation("bad_frame", f"Bad frame: {wid}x{hgt} is too small to read "
                                    f"the board (need at least {self.config.min_width} px "
                                    "across); raise the camera resolution.")
        cam = self.config.camera
        if cam is not None and (wid, hgt) != (cam.width, cam.height):
            if abs(wid / hgt - cam.width / cam.height) > 0.01:
                return BoardObservation(
                    "bad_frame", f"Bad frame: {wid}x{hgt} does not match the calibrated camera "
                    f"({cam.width}x{cam.height}); set the camera to that size or recalibrate.")
            self.camera = cam.scaled_to(wid, hgt)
            self.registrar.camera = self.camera
        if self._frame_size is not None and self._frame_size != (wid, hgt):
            self.registrar.current = None  # a new frame size: register again
            self._maps = None
            self.gate.reset()
        self._frame_size = (wid, hgt)
        return None

    def _register(self, frame: np.ndarray, gray: np.ndarray) -> tuple[np.ndarray, str, float]:
        try:
            reg, event = self.registrar.update(gray)
            self._outline_h = None
            return reg.homography, event, reg.quality
        except RegistrationError:
            if not self.config.use_outline:
                raise
        found = find_board_outline(frame, self.config.outline_rotation)
        if found is None:
            raise RegistrationError(MESSAGES["board_not_found"])
        img = found.corners
        if self.camera is not None:
            img = self.camera.undistort_points(img)
        h = cv2.getPerspectiveTransform(self.config.spec.corners().astype(np.float32),
                                        img.astype(np.float32))
        self._outline_h = h
        return h, "outline", 0.5 * found.score

    def _read(self, frame: np.ndarray, gray: np.ndarray, expected: MoveContext | None,
              smooth: bool) -> BoardObservation:
        try:
            h, event, quality = self._register(frame, gray)
        except RegistrationError as exc:
            self._history.clear()
            return BoardObservation("board_not_found", str(exc))
        method = "outline" if event == "outline" else "markers"
        corners_px = self._project(h, self.config.spec.corners())
        corners: Corners = tuple((float(x), float(y)) for x, y in corners_px)  # type: ignore[assignment]
        hgt, wid = frame.shape[:2]
        margin = 0.25 * max(wid, hgt)
        if (np.any(corners_px < -margin) or np.any(corners_px[:, 0] > wid + margin)
                or np.any(corners_px[:, 1] > hgt + margin)):
            return BoardObservation("board_not_found", "Board only partly in view: move the "
                                    "camera so the whole board is in the picture.", method,
                                    corners, quality)
        canon = self.warp(frame, h)
        self.reader.view_mm = self._nadir_mm(h)
        if self.reader.reference is None and self.config.auto_reference:
            first = self.reader.read(canon)
            self.reader.set_reference(canon, exclude=first.detections)
        guessing = self.reader.reference is None
        if guessing and not self.config.guess_without_reference:
            return BoardObservation("no_reference", MESSAGES["no_reference"], method, corners,
                                    quality, event=event)
        result = self.reader.read(canon, expected)
        if guessing:
            result.occupants = {c: tuple(PawnReading(r.owner, r.colour,
                                                     min(r.confidence, GUESS_CONFIDENCE))
                                         for r in rs) for c, rs in result.occupants.items()}
        if result.hands:
            self._history.clear()
            return BoardObservation("hands", MESSAGES["hands"], method, corners, quality,
                                    event=event, hand_cells=result.hand_cells)
        occupants = result.occupants
        stable = False
        if smooth:
            self._history.append(occupants)
            occupants, stable = self._smoothed()
        message = self._message(occupants, result.unexpected, method)
        if guessing:
            message += (" Guessed without a picture of the empty board: printed coloured "
                        "circles may be counted as pieces.")
        return BoardObservation("ok", message, method, corners, quality, occupants,
                                result.unexpected, stable, event)

    def _smoothed(self) -> tuple[dict[int, tuple[PawnReading, ...]], bool]:
        """Majority over the last readings: a figurine counts when seen in most of them."""
        n = len(self._history)
        need = n // 2 + 1
        counts: Counter[tuple[int, str | None, str]] = Counter()
        conf: dict[tuple[int, str | None, str], float] = {}
        for occ in self._history:
            per: Counter[tuple[int, str | None, str]] = Counter()
            for cell, readings in occ.items():
                for r in readings:
                    key = (cell, r.owner, r.colour)
                    per[key] += 1
                    conf[key] = max(conf.get(key, 0.0), r.confidence)
            for key, c in per.items():
                counts[(key[0], key[1], key[2])] += 0  # ensure key exists
                counts[key] += 1 if c else 0
        out: dict[int, list[PawnReading]] = {}
        for key, seen in counts.items():
            if seen >= need:
                mult = max(sum(1 for r in occ.get(key[0], ()) if (r.owner, r.colour) ==
                               (key[1], key[2])) for occ in self._history)
                for _ in range(mult):
                    out.setdefault(key[0], []).append(PawnReading(key[1], key[2], conf[key]))
        stable = n >= self.config.smoothing_frames and all(
            occ == self._history[-1] for occ in self._history)
        return {c: tuple(v) for c, v in sorted(out.items())}, stable

    @staticmethod
    def _message(occupants: Mapping[int, tuple[PawnReading, ...]],
                 unexpected: tuple[UnexpectedPiece, ...], method: str) -> str:
        n = sum(len(v) for v in occupants.values())
        msg = f"Board read ({method}): {n} figurine{'s' if n != 1 else ''} seen."
        if unexpected:
            msg += " Check: " + "; ".join(f"{u.owner or 'a piece'} is on square {u.square} "
                                          f"({u.reason})" for u in unexpected)
        return msg

    # -- geometry helpers -----------------------------------------------------------------------
    def _project(self, h: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
        p = cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2), h)
        p = p.reshape(-1, 2)
        return self.camera.distort_points(p) if self.camera is not None else p

    def _nadir_mm(self, h: np.ndarray) -> tuple[float, float] | None:
        """The board point straight under the camera (figurines lean away from it), from the
        homography and the camera matrix; None without a camera model."""
        if self.camera is None:
            return None
        m = np.linalg.inv(self.camera.matrix) @ h
        scale = 1.0 / np.linalg.norm(m[:, 0])
        r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
        if t[2] < 0:
            r1, r2, t = -r1, -r2, -t
        rot = np.column_stack([r1, r2, np.cross(r1, r2)])
        c = -rot.T @ t
        if not np.all(np.isfinite(c)):
            return None
        return float(c[0]), float(c[1])

    def _build_maps(self, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ppm = self.config.pawns.px_per_mm
        n = self.reader.size
        g = (np.arange(n, dtype=np.float64) + 0.5) / ppm
        gx, gy = np.meshgrid(g, g)
        pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
        img = self._project(h, pts).astype(np.float32).reshape(n, n, 2)
        m1, m2 = cv2.convertMaps(img, None, cv2.CV_16SC2)  # type: ignore[call-overload]
        return np.asarray(m1), np.asarray(m2)
