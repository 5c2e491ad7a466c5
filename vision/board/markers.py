"""Board registration from printed ArUco markers around the board edge.

Twelve 4x4 markers (three per side) lie on the table just outside the board. Every visible
marker corner is matched to its known place in board millimetres and one RANSAC homography is
fitted (after lens correction), so covering any two markers still leaves forty corners.

`MarkerRegistrar` registers once with a full detection (on a half-size frame, corners refined at
full size), then on each later frame only *verifies*: it samples the expected marker bits at the
predicted places and refines the predicted corners. When enough markers confirm, the fit is
kept (and lightly refreshed); when they disagree (camera knocked, board moved) it re-registers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.board.calibration import CameraModel
from vision.board.geometry import DEFAULT_SPEC, BoardSpec

ARUCO_DICT = cv2.aruco.DICT_4X4_50
SIDES = ("top", "right", "bottom", "left")


class RegistrationError(RuntimeError):
    """The board could not be registered; the message is meant for a person."""


@dataclass(frozen=True)
class MarkerPlacement:
    marker_id: int
    side: str
    along_mm: float  # marker centre, measured along the edge from the corner named in `anchor`
    anchor: str
    centre: tuple[float, float]  # board millimetres


@dataclass(frozen=True)
class MarkerLayout:
    """Where each marker goes, in board millimetres (see `placements`)."""

    spec: BoardSpec = DEFAULT_SPEC
    marker_mm: float = 40.0
    gap_mm: float = 12.0  # from the board edge to the marker's near edge
    fractions: tuple[float, ...] = (0.17, 0.5, 0.83)

    @property
    def count(self) -> int:
        return 4 * len(self.fractions)

    def placements(self) -> tuple[MarkerPlacement, ...]:
        s = self.spec.side_mm
        off = self.gap_mm + self.marker_mm / 2
        out: list[MarkerPlacement] = []
        mid = 0
        for side in SIDES:
            for f in self.fractions:
                a = f * s
                if side == "top":
                    c, anchor = (a, -off), "top-left corner"
                elif side == "right":
                    c, anchor = (s + off, a), "top-right corner"
                elif side == "bottom":
                    c, anchor = (s - a, s + off), "bottom-right corner (GO)"
                else:
                    c, anchor = (-off, s - a), "bottom-left corner (Jail)"
                out.append(MarkerPlacement(mid, side, a, anchor, c))
                mid += 1
        return tuple(out)

    def corners_mm(self) -> np.ndarray:
        """(count, 4, 2) marker corners in ArUco order (TL, TR, BR, BL), upright on the board."""
        h = self.marker_mm / 2
        rel = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        return np.array([np.asarray(p.centre) + rel for p in self.placements()])

    def extent_mm(self) -> tuple[float, float]:
        """Board-frame range covered by board and markers (min, max) on both axes."""
        off = self.gap_mm + self.marker_mm
        return -off, self.spec.side_mm + off


DEFAULT_LAYOUT = MarkerLayout()


@lru_cache(maxsize=4)
def _dictionary(dict_id: int = ARUCO_DICT) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(dict_id)


def marker_image(marker_id: int, size_px: int) -> np.ndarray:
    return np.asarray(cv2.aruco.generateImageMarker(_dictionary(), marker_id, size_px))


@lru_cache(maxsize=64)
def marker_bits(marker_id: int) -> np.ndarray:
    """6x6 cells (border included), True where the printed cell is white."""
    img = marker_image(marker_id, 6)
    return img > 127


@dataclass(frozen=True)
class Registration:
    """A fitted board: H maps board millimetres to ideal (undistorted) image pixels."""

    homography: np.ndarray
    markers_seen: tuple[int, ...]
    rms_px: float
    inliers: int

    @property
    def quality(self) -> float:
        """0..1: more markers and a smaller reprojection error score higher."""
        cover = min(1.0, len(self.markers_seen) / 8.0)
        return float(cover * np.exp(-self.rms_px / 2.0))


def project(h: np.ndarray, pts_mm: np.ndarray, camera: CameraModel | None) -> np.ndarray:
    """Board millimetres -> image pixels (through the lens model when one is given)."""
    p = cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2), h)
    p = p.reshape(-1, 2)
    return camera.distort_points(p) if camera is not None else p


def unproject(h: np.ndarray, pts_px: np.ndarray, camera: CameraModel | None) -> np.ndarray:
    """Image pixels -> board millimetres."""
    p = np.asarray(pts_px, np.float64).reshape(-1, 2)
    if camera is not None:
        p = camera.undistort_points(p)
    return cv2.perspectiveTransform(p.reshape(-1, 1, 2), np.linalg.inv(h)).reshape(-1, 2)


@dataclass
class VerifyResult:
    ok: bool
    confirmed: int
    displaced: int
    shift_px: float


class MarkerRegistrar:
    """Finds and follows the markers in grey frames."""

    def __init__(self, layout: MarkerLayout = DEFAULT_LAYOUT, camera: CameraModel | None = None,
                 detect_scale: float = 0.5, min_markers: int = 3, ransac_px: float | None = None,
                 verify_min: int = 4, verify_tol_px: float = 1.5) -> None:
        self.layout = layout
        self.camera = camera
        self.detect_scale = detect_scale
        self.min_markers = min_markers
        self._ransac_px = ransac_px
        self.verify_min = verify_min
        self.verify_tol_px = verify_tol_px
        # a fast pass with one threshold window, and a thorough pass when it sees too few
        # the fast pass skips contours shorter than a board marker can be in a frame that
        # shows the whole board (markers are 40 mm on a ~600 mm wide view: perimeter >= ~10 %
        # of the width); the thorough pass keeps the permissive default for odd set-ups
        self.detector = cv2.aruco.ArucoDetector(_dictionary(),
                                                self._params(9, 9, 10, min_perimeter=0.06))
        self.thorough = cv2.aruco.ArucoDetector(_dictionary(), self._params(5, 25, 10))
        self.fast_enough = 6
        self._corners_mm = layout.corners_mm()
        self._valid_ids = set(range(layout.count))
        # cell centres of each marker (6x6 grid) in board mm, for verification sampling
        g = (np.arange(6) + 0.5) / 6.0
        gu, gv = np.meshgrid(g, g)
        cells = []
        for c in self._corners_mm:
            tl, tr, bl = c[0], c[1], c[3]
            pts = tl + gu[..., None] * (tr - tl) + gv[..., None] * (bl - tl)
            cells.append(pts.reshape(-1, 2))
        self._cells_mm = np.array(cells)  # (count, 36, 2)
        self._bits = np.array([marker_bits(i).ravel() for i in range(layout.count)])
        self.current: Registration | None = None

    @property
    def ransac_px(self) -> float:
        """Inlier tolerance: tight with a lens model; loose without one (the lens bends the
        marker pattern by several pixels near the frame edges)."""
        if self._ransac_px is not None:
            return self._ransac_px
        return 3.0 if self.camera is not None else 12.0

    @staticmethod
    def _params(wmin: int, wmax: int, step: int,
                min_perimeter: float = 0.02) -> cv2.aruco.DetectorParameters:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        params.adaptiveThreshWinSizeMin = wmin
        params.adaptiveThreshWinSizeMax = wmax
        params.adaptiveThreshWinSizeStep = step
        params.minMarkerPerimeterRate = min_perimeter
        return params

    # -- full detection ----------------------------------------------------------------------
    def detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> (4, 2) image corners, for the ids of this layout only."""
        s = self.detect_scale
        small = gray if s == 1.0 else cv2.resize(gray, None, fx=s, fy=s,
                                                  interpolation=cv2.INTER_AREA)
        corners, ids, _ = self.detector.detectMarkers(small)
        if ids is None or len(ids) < self.fast_enough:
            corners, ids, _ = self.thorough.detectMarkers(small)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        pts_list = []
        keep = []
        for c, i in zip(corners, ids.ravel(), strict=True):
            mid = int(i)
            if mid in self._valid_ids and mid not in found:
                found[mid] = np.asarray(c, np.float32).reshape(4, 2) / s
                keep.append(mid)
        if not found:
            return found
        pts_list = [found[m] for m in keep]
        allpts = np.concatenate(pts_list).reshape(-1, 1, 2).astype(np.float32)
        side = float(np.median([np.linalg.norm(p[0] - p[1]) for p in pts_list]))
        win = int(max(2, min(6, side / 10)))
        cv2.cornerSubPix(gray, allpts, (win, win), (-1, -1),
                         (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 15, 0.05))
        refined = allpts.reshape(-1, 4, 2)
        return {m: refined[k].astype(np.float64) for k, m in enumerate(keep)}

    def fit(self, found: dict[int, np.ndarray]) -> Registration:
        if len(found) < self.min_markers:
            raise RegistrationError(
                f"board not found: only {len(found)} of {self.layout.count} markers visible "
                f"(need {self.min_markers}); is the camera pointing at the board and are the "
                "marker stickers uncovered?")
        ids = sorted(found)
        img = np.concatenate([found[i] for i in ids])
        obj = np.concatenate([self._corners_mm[i] for i in ids])
        if self.camera is not None:
            img = self.camera.undistort_points(img)
        h, mask = cv2.findHomography(obj, img, cv2.RANSAC, self.ransac_px)
        if h is None:
            raise RegistrationError("board not found: the markers do not fit one board plane; "
                                    "check that the stickers lie flat in their printed places")
        inl = mask.ravel().astype(bool)
        # refit on inliers with least squares for accuracy
        h2, _ = cv2.findHomography(obj[inl], img[inl], 0)
        if h2 is not None:
            h = h2
        proj = cv2.perspectiveTransform(obj[inl].reshape(-1, 1, 2), h).reshape(-1, 2)
        rms = float(np.sqrt(np.mean(np.sum((proj - img[inl]) ** 2, axis=1))))
        seen = tuple(i for k, i in enumerate(ids) if inl[4 * k: 4 * k + 4].sum() >= 3)
        if len(seen) < self.min_markers:
            raise RegistrationError("board not found: too few markers agree with each other; "
                                    "check for misplaced or curled marker stickers")
        return Registration(h, seen, rms, int(inl.sum()))

    def register(self, gray: np.ndarray) -> Registration:
        reg = self.fit(self.detect(gray))
        self.current = reg
        return reg

    # -- per-frame verification --------------------------------------------------------------
    def verify(self, gray: np.ndarray) -> VerifyResult:
        """Check the current registration against this frame (cheap: ~500 pixel samples)."""
        reg = self.current
        if reg is None:
            return VerifyResult(False, 0, 0, float("inf"))
        n = self.layout.count
        h_img, w_img = gray.shape[:2]
        cells = project(reg.homography, self._cells_mm.reshape(-1, 2), self.camera)
        xi = np.clip(np.round(cells[:, 0]).astype(np.int64), 0, w_img - 1)
        yi = np.clip(np.round(cells[:, 1]).astype(np.int64), 0, h_img - 1)
        inside = ((cells[:, 0] >= 0) & (cells[:, 0] < w_img) & (cells[:, 1] >= 0)
                  & (cells[:, 1] < h_img)).reshape(n, 36).all(axis=1)
        vals = gray[yi, xi].reshape(n, 36).astype(np.float32)
        lo, hi = vals.min(axis=1), vals.max(axis=1)
        contrast = hi - lo
        bits = vals > ((lo + hi) / 2)[:, None]
        agree = (bits == self._bits).sum(axis=1)
        good = inside & (contrast > 40) & (agree >= 35)
        confirmed = int(good.sum())
        if confirmed < self.verify_min:
            return VerifyResult(False, confirmed, 0, float("inf"))
        # refine the predicted corners of confirmed markers and measure how far they moved
        pred_all = project(reg.homography, self._corners_mm.reshape(-1, 2), self.camera)
        border = 8
        corner_in = ((pred_all[:, 0] >= border) & (pred_all[:, 0] < w_img - border)
                     & (pred_all[:, 1] >= border) & (pred_all[:, 1] < h_img - border))
        good &= corner_in.reshape(n, 4).all(axis=1)
        ids = np.flatnonzero(good)
        if len(ids) < self.verify_min:
            return VerifyResult(False, int(len(ids)), 0, float("inf"))
        pred = pred_all.reshape(n, 4, 2)[ids].reshape(-1, 2)
        pts = pred.reshape(-1, 1, 2).astype(np.float32).copy()
        side = float(np.median(np.linalg.norm(pred[0::4] - pred[1::4], axis=1)))
        win = int(max(2, min(6, side / 10)))
        cv2.cornerSubPix(gray, pts, (win, win), (-1, -1),
                         (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 10, 0.05))
        shift = np.linalg.norm(pts.reshape(-1, 2) - pred, axis=1).reshape(-1, 4).mean(axis=1)
        displaced = int((shift > self.verify_tol_px).sum())
        med = float(np.median(shift))
        ok = displaced <= max(1, len(ids) // 4) and med <= self.verify_tol_px
        if ok:
            found = {int(i): pts.reshape(-1, 4, 2)[k].astype(np.float64)
                     for k, i in enumerate(ids) if shift[k] <= self.verify_tol_px}
            if len(found) >= self.verify_min:
                try:
                    self.current = self.fit(found)
                except RegistrationError:
                    return VerifyResult(False, confirmed, displaced, med)
        return VerifyResult(ok, confirmed, displaced, med)

    def update(self, gray: np.ndarray) -> tuple[Registration, str]:
        """Verify, or (re-)register when needed. Returns the registration and what happened:
        'verified', 'registered' or 're-registered'. Raises RegistrationError when lost."""
        if self.current is not None:
            if self.verify(gray).ok and self.current is not None:
                return self.current, "verified"
            previous = self.current
            self.current = None
            try:
                return self.register(gray), "re-registered"
            except RegistrationError:
                self.current = previous  # keep the old fit for the next frame
                raise
        return self.register(gray), "registered"

    def board_corners_px(self, reg: Registration | None = None) -> np.ndarray:
        """The board's four outer corners (TL, TR, BR, BL of the canonical board) in pixels."""
        r = reg or self.current
        if r is None:
            raise RegistrationError("board not registered yet")
        return project(r.homography, self.layout.spec.corners(), self.camera)
