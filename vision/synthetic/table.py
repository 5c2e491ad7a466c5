"""Synthetic table: our own drawn board, markers, figurines, dice and hands, seen by a camera.

Everything is drawn top-down on a board-plane texture (2 px per millimetre) and then projected
through a pinhole camera with lens distortion in one ``cv2.remap``; light, glare, blur and
sensor noise are applied in the image. Each frame comes with exact ground truth: the board's
corners in image pixels, each figurine's cell and owner, the dice and what the hands cover.

The board art is drawn here from plain shapes and text (no copyrighted art). Figurines are grey
"pewter" shapes standing on a coloured base ring (one sticker colour per player); their bodies
lean away from the camera with height, partly hiding the ring, as real figurines do.

``SyntheticTable.render(pawns, dice, hand, seed)`` draws one scripted frame (about 20-30 ms at
1280x720 on two x86 cores); ``SyntheticSource`` is an endless live source registered with
``hardware.camera`` under the scheme ``synthetic`` when this module is imported.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.board.calibration import CameraModel
from vision.board.geometry import (
    CHANCE,
    COLOUR_GROUPS,
    COMMUNITY_CHEST,
    DEFAULT_SPEC,
    IN_JAIL,
    JUST_VISITING,
    NUM_CELLS,
    RAILROADS,
    SQUARE_NAMES,
    TAXES,
    UTILITIES,
    BoardSpec,
    label_map,
    slot_positions,
    square_polygons,
)
from vision.board.markers import DEFAULT_LAYOUT, MarkerLayout, marker_image
from vision.synthetic.dice import DieSpec, draw_die

PX_PER_MM = 2.0
TEXTURE_MARGIN_MM = 150.0

# Sticker colours of the base rings (BGR), one per player.
STICKER_BGR: dict[str, tuple[int, int, int]] = {
    "red": (45, 40, 215),
    "blue": (205, 95, 25),
    "green": (60, 175, 45),
    "yellow": (35, 215, 240),
    "purple": (165, 45, 140),
    "orange": (25, 135, 250),
    "white": (240, 240, 240),
    "black": (35, 35, 35),
}

DEFAULT_PLAYERS: dict[str, str] = {
    "Ann": "red", "Ben": "blue", "Cai": "green", "Dee": "yellow", "Eve": "purple", "Fin": "orange",
}

BAND_BGR: dict[str, tuple[int, int, int]] = {
    "brown": (40, 70, 130),
    "light_blue": (235, 205, 150),
    "pink": (150, 60, 215),
    "orange": (30, 140, 240),
    "red": (40, 35, 205),
    "yellow": (45, 225, 245),
    "green": (70, 160, 35),
    "dark_blue": (140, 50, 25),
}
BOARD_BG = (200, 228, 205)
TABLE_BGR = (95, 130, 165)
RING_OUTER_MM = 8.5
RING_INNER_MM = 5.0
FIGURE_HEIGHT_MM = 28.0
SPECIAL_DIE_MM = 16.0
"""The side of a block die (a scatter die's octahedron is as wide) on the synthetic table."""


# --- the board art ---------------------------------------------------------------------------


def _mm(p: Sequence[float] | np.ndarray) -> tuple[int, int]:
    return (int(round((p[0] + TEXTURE_MARGIN_MM) * PX_PER_MM)),
            int(round((p[1] + TEXTURE_MARGIN_MM) * PX_PER_MM)))


def _poly_px(poly: np.ndarray) -> np.ndarray:
    return np.round((poly + TEXTURE_MARGIN_MM) * PX_PER_MM).astype(np.int32)


def _text_in(img: np.ndarray, text: str, centre: tuple[float, float], width_mm: float,
             angle: float, colour: tuple[int, int, int] = (30, 30, 30)) -> None:
    """Draw short text centred on a board point, rotated to face outwards from its edge."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    words = text.upper().split()[:3]
    lines = [" ".join(words[:2]), " ".join(words[2:])] if len(words) > 2 else [" ".join(words)]
    scale = 0.5
    size_px = max(cv2.getTextSize(ln, font, scale, 1)[0][0] for ln in lines)
    scale *= min(1.0, width_mm * PX_PER_MM * 0.9 / max(size_px, 1))
    th = int(cv2.getTextSize("A", font, scale, 1)[0][1] * 1.8)
    w = int(width_mm * PX_PER_MM)
    patch = np.full((th * len(lines) + 4, w, 3), 255, np.uint8)
    mask = np.zeros(patch.shape[:2], np.uint8)
    for k, ln in enumerate(lines):
        tw = cv2.getTextSize(ln, font, scale, 1)[0][0]
        org = ((w - tw) // 2, th * (k + 1) - 2)
        cv2.putText(mask, ln, org, font, scale, 255, 1, cv2.LINE_AA)
    rot = int(round(angle / 90.0)) % 4
    mask = np.rot90(mask, rot)
    cx, cy = _mm(centre)
    h, wd = mask.shape
    y0, x0 = cy - h // 2, cx - wd // 2
    roi = img[y0:y0 + h, x0:x0 + wd]
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    roi[:] = (roi * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)


@lru_cache(maxsize=4)
def board_texture(spec: BoardSpec = DEFAULT_SPEC, layout: MarkerLayout = DEFAULT_LAYOUT,
                  seed: int = 7) -> np.ndarray:
    """The empty table top-down: wood-ish table, our board, the marker stickers (read-only)."""
    rng = np.random.default_rng(seed)
    n = int(round((spec.side_mm + 2 * TEXTURE_MARGIN_MM) * PX_PER_MM))
    # table: wood grain from stretched noise
    grain_small = rng.normal(0, 1, (n // 8, 24)).astype(np.float32)
    grain = np.asarray(cv2.resize(grain_small, (n, n), interpolation=cv2.INTER_CUBIC))
    img = np.empty((n, n, 3), np.float32)
    for ch in range(3):
        img[..., ch] = TABLE_BGR[ch] * (1 + 0.08 * grain)
    img8 = np.clip(img, 0, 255).astype(np.uint8)
    # board
    bx0, by0 = _mm((0, 0))
    bx1, by1 = _mm((spec.side_mm, spec.side_mm))
    cv2.rectangle(img8, (bx0, by0), (bx1, by1), BOARD_BG, -1)
    polys = square_polygons(spec)
    band = 0.22 * spec.corner_mm
    for idx in range(40):
        poly = polys[idx]
        cv2.polylines(img8, [_poly_px(poly)], True, (25, 25, 25), 2, cv2.LINE_AA)
        x0, y0 = poly.min(axis=0)
        x1, y1 = poly.max(axis=0)
        side = idx // 10
        angle = [0, 90, 180, 270][side]
        group = next((g for g, m in COLOUR_GROUPS.items() if idx in m), None)
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        width = (x1 - x0) if side in (0, 2) else (y1 - y0)
        if idx % 10 == 0:
            continue
        if group is not None:
            if side == 0:
                r = (x0, y0, x1, y0 + band)
            elif side == 1:
                r = (x1 - band, y0, x1, y1)
            elif side == 2:
                r = (x0, y1 - band, x1, y1)
            else:
                r = (x0, y0, x0 + band, y1)
            cv2.rectangle(img8, _mm(r[:2]), _mm(r[2:]), BAND_BGR[group], -1)
            cv2.rectangle(img8, _mm(r[:2]), _mm(r[2:]), (25, 25, 25), 2)
        # a simple icon per kind of square, for texture
        icx, icy = _mm(centre)
        r_px = int(7 * PX_PER_MM)
        if idx in CHANCE:
            cv2.putText(img8, "?", (icx - r_px, icy + r_px), cv2.FONT_HERSHEY_DUPLEX, 1.6,
                        (150, 40, 200), 4, cv2.LINE_AA)
        elif idx in COMMUNITY_CHEST:
            cv2.rectangle(img8, (icx - r_px, icy - r_px // 2), (icx + r_px, icy + r_px),
                          (40, 90, 170), -1)
            cv2.rectangle(img8, (icx - r_px, icy - r_px), (icx + r_px, icy - r_px // 2),
                          (200, 120, 40), -1)
        elif idx in RAILROADS:
            cv2.rectangle(img8, (icx - r_px, icy - r_px // 2), (icx + r_px, icy + r_px // 2),
                          (30, 30, 30), -1)
            cv2.circle(img8, (icx - r_px // 2, icy + r_px // 2), r_px // 3, (80, 80, 80), -1)
            cv2.circle(img8, (icx + r_px // 2, icy + r_px // 2), r_px // 3, (80, 80, 80), -1)
        elif idx in UTILITIES:
            cv2.circle(img8, (icx, icy), r_px, (60, 200, 230), -1)
            cv2.circle(img8, (icx, icy), r_px, (30, 30, 30), 2)
        elif idx in TAXES:
            cv2.ellipse(img8, (icx, icy), (r_px, r_px // 2), 0, 0, 360, (120, 120, 120), -1)
        else:
            pts = rng.integers(-r_px, r_px, (5, 2)) + np.array([icx, icy])
            cv2.fillPoly(img8, [pts.astype(np.int32)], tuple(int(v) for v in
                                                              rng.integers(40, 200, 3)))
        name_pos = list(centre)
        off = spec.corner_mm * 0.34
        if side == 0:
            name_pos[1] += off
        elif side == 1:
            name_pos[0] -= off
        elif side == 2:
            name_pos[1] -= off
        else:
            name_pos[0] += off
        _text_in(img8, SQUARE_NAMES[idx], (name_pos[0], name_pos[1]), width, angle)
    # corners: GO arrow, Jail bars, Free Parking car, Go To Jail
    s, c = spec.side_mm, spec.corner_mm
    cv2.arrowedLine(img8, _mm((s - 10, s - 12)), _mm((s - c + 8, s - 12)), (40, 40, 200), 8,
                    tipLength=0.3)
    cv2.putText(img8, "GO", _mm((s - c + 12, s - 24)), cv2.FONT_HERSHEY_DUPLEX, 2.2,
                (40, 40, 200), 5, cv2.LINE_AA)
    jail = polys[IN_JAIL]
    cv2.rectangle(img8, _mm(jail[0]), _mm(jail[2]), (30, 120, 235), -1)
    for k in range(5):
        x = jail[0][0] + (k + 0.5) * (jail[2][0] - jail[0][0]) / 5
        cv2.line(img8, _mm((x, jail[0][1])), _mm((x, jail[2][1])), (30, 30, 30), 3)
    cv2.rectangle(img8, _mm(jail[0]), _mm(jail[2]), (25, 25, 25), 2)
    cv2.putText(img8, "VISITING", _mm((3, s - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (30, 30, 30),
                2, cv2.LINE_AA)
    cv2.circle(img8, _mm((c / 2, c / 2)), int(18 * PX_PER_MM), (40, 40, 200), -1)
    cv2.putText(img8, "FREE", _mm((c * 0.2, c * 0.9)), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                (30, 30, 30), 2, cv2.LINE_AA)
    cv2.line(img8, _mm((s - c + 10, 10)), _mm((s - 10, c - 10)), (30, 30, 30), 6)
    cv2.circle(img8, _mm((s - c / 2, c / 2)), int(14 * PX_PER_MM), (190, 120, 40), 4)
    # centre: our own title and decoration
    cc = _mm((s / 2, s / 2))
    cv2.circle(img8, cc, int(120 * PX_PER_MM), (170, 110, 90), -1)
    for k in range(12):
        a = k * math.pi / 6
        p = (s / 2 + 95 * math.cos(a), s / 2 + 95 * math.sin(a))
        cv2.circle(img8, _mm(p), int(16 * PX_PER_MM), tuple(int(v) for v in
                                                           rng.integers(60, 230, 3)), -1)
    rect = cv2.boxPoints(((cc[0], cc[1]), (int(300 * PX_PER_MM), int(60 * PX_PER_MM)), -40))
    cv2.fillPoly(img8, [np.round(rect).astype(np.int32)], (40, 35, 200))
    m = cv2.getRotationMatrix2D((float(cc[0]), float(cc[1])), 40, 1.0)
    title = np.zeros(img8.shape[:2], np.uint8)
    cv2.putText(title, "DUNGEONOPOLY", (cc[0] - int(135 * PX_PER_MM), cc[1] + int(10 * PX_PER_MM)),
                cv2.FONT_HERSHEY_TRIPLEX, 2.6, 255, 6, cv2.LINE_AA)
    title_w = np.asarray(cv2.warpAffine(title, m, (n, n)))
    img8[title_w > 128] = (240, 240, 240)
    cv2.rectangle(img8, (bx0, by0), (bx1, by1), (25, 25, 25), 3)
    # the marker stickers: white paper square with a wide margin, then the marker
    for mp, corners in zip(layout.placements(), layout.corners_mm(), strict=True):
        margin = layout.gap_mm * 0.6
        cv2.rectangle(img8, _mm(corners[0] - margin), _mm(corners[2] + margin),
                      (236, 238, 236), -1)
        size = int(round(layout.marker_mm * PX_PER_MM))
        mk = marker_image(mp.marker_id, size)
        x0, y0 = _mm(corners[0])
        mk_bgr = np.where(mk[..., None] > 127, np.array([236, 238, 236], np.uint8),
                          np.array([30, 30, 30], np.uint8))
        img8[y0:y0 + size, x0:x0 + size] = mk_bgr
    img8.setflags(write=False)
    return img8


# --- camera ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CameraPose:
    """Camera position above the board (millimetres, board frame; height above the table)."""

    x_mm: float = DEFAULT_SPEC.side_mm / 2
    y_mm: float = DEFAULT_SPEC.side_mm / 2
    height_mm: float = 470.0
    target: tuple[float, float] = (DEFAULT_SPEC.side_mm / 2, DEFAULT_SPEC.side_mm / 2)
    roll_deg: float = 0.0

    def rotation(self) -> np.ndarray:
        c = np.array([self.x_mm, self.y_mm, -self.height_mm])
        f = np.array([self.target[0], self.target[1], 0.0]) - c
        f /= np.linalg.norm(f)
        r = np.cross([0.0, 1.0, 0.0], f)
        r /= np.linalg.norm(r)
        d = np.cross(f, r)
        a = math.radians(self.roll_deg)
        r, d = r * math.cos(a) + d * math.sin(a), -r * math.sin(a) + d * math.cos(a)
        return np.stack([r, d, f])

    def centre(self) -> np.ndarray:
        return np.array([self.x_mm, self.y_mm, -self.height_mm])

    def homography(self, camera: CameraModel) -> np.ndarray:
        """Board millimetres (z = 0) -> ideal image pixels."""
        rot = self.rotation()
        t = -rot @ self.centre()
        h = camera.matrix @ np.column_stack([rot[:, 0], rot[:, 1], t])
        return np.asarray(h / h[2, 2], np.float64)


class LensCamera:
    """A table camera as the block and scatter dice renderer sees one
    (``vision.synthetic.special_dice.Projector``): board millimetres, w into the table, to the
    distorted image's pixels."""

    def __init__(self, camera: CameraModel, pose: CameraPose) -> None:
        self.camera = camera
        self.rotation = pose.rotation()
        self.centre = pose.centre()

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = (self.rotation @ (np.asarray(pts, float) - self.centre).T).T
        uv = (self.camera.matrix @ cam.T).T
        ideal = uv[:, :2] / uv[:, 2:3]
        if not self.camera.has_distortion:
            return np.asarray(ideal)
        return np.asarray(self.camera.distort_points(ideal), float).reshape(-1, 2)

    def view_dir(self, point: np.ndarray) -> np.ndarray:
        d = np.asarray(point, float) - self.centre
        return np.asarray(d / np.linalg.norm(d))


def default_camera(width: int = 1280, height: int = 720) -> CameraModel:
    """A wide lens like the Camera Module 3 Wide (102 degrees across), with barrel distortion."""
    return CameraModel.ideal(width, height, hfov_deg=102.0, dist=(-0.2, 0.045, 0.0, 0.0, 0.0),
                             camera_id="synthetic-wide")


@lru_cache(maxsize=4)
def _ideal_grid(camera: CameraModel) -> np.ndarray:
    """For every output pixel, where it lies in the ideal (undistorted) image: (H*W, 1, 2)."""
    xs, ys = np.meshgrid(np.arange(camera.width, dtype=np.float64),
                         np.arange(camera.height, dtype=np.float64))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    ideal = camera.undistort_points(pts) if camera.has_distortion else pts
    out = ideal.astype(np.float32).reshape(-1, 1, 2)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=2)
def _noise_bank(height: int, width: int) -> np.ndarray:
    """Unit Gaussian noise a little larger than the frame; frames take random crops of it."""
    bank = np.empty((height + 64, width + 64, 3), np.float32)
    bank[:] = np.random.default_rng(5).standard_normal(bank.shape, dtype=np.float32)
    bank.setflags(write=False)
    return bank


@lru_cache(maxsize=2)
def _table_background(width: int, height: int) -> np.ndarray:
    """Plain table beyond the drawn texture (far corners of a wide view)."""
    rng = np.random.default_rng(11)
    grain = cv2.resize(rng.normal(0, 1, (height // 6, 20)).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_CUBIC)
    img = np.stack([TABLE_BGR[c] * (1 + 0.08 * grain) for c in range(3)], axis=2)
    out = np.clip(img, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


# --- scene description ------------------------------------------------------------------------


@dataclass(frozen=True)
class Conditions:
    """Image conditions; `Conditions.random(rng)` samples the benchmark's mix."""

    light_gradient: float = 0.0  # 0..0.5: fraction of brightness lost across the frame
    light_angle_deg: float = 0.0
    warmth: float = 0.0  # -0.1..0.1: white balance shift (blue vs red)
    exposure: float = 1.0
    glare: float = 0.0  # 0..1 strength of one specular spot
    glare_pos: tuple[float, float] = (0.5, 0.5)  # fraction of the frame
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0

    @classmethod
    def random(cls, rng: np.random.Generator) -> Conditions:
        return cls(
            light_gradient=float(rng.uniform(0.0, 0.45)),
            light_angle_deg=float(rng.uniform(0, 360)),
            warmth=float(rng.uniform(-0.08, 0.08)),
            exposure=float(rng.uniform(0.75, 1.15)),
            glare=float(rng.choice([0.0, rng.uniform(0.2, 0.8)])),
            glare_pos=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
            blur_sigma=float(rng.choice([0.0, rng.uniform(0.4, 1.4)])),
            noise_sigma=float(rng.uniform(1.0, 7.0)),
        )


def random_pose(rng: np.random.Generator, spec: BoardSpec = DEFAULT_SPEC) -> CameraPose:
    """A camera above the board, up to 15 degrees off vertical, slightly rolled."""
    s = spec.side_mm
    h = float(rng.uniform(440, 500))
    tilt = math.radians(float(rng.uniform(0, 15)))
    az = float(rng.uniform(0, 2 * math.pi))
    off = h * math.tan(tilt)
    return CameraPose(s / 2 + off * math.cos(az), s / 2 + off * math.sin(az), h,
                      (s / 2 + float(rng.normal(0, 8)), s / 2 + float(rng.normal(0, 8))),
                      float(rng.uniform(-6, 6)))


@dataclass(frozen=True)
class HandSpec:
    """A hand lying over the board: palm centre (board mm), the direction the arm comes from."""

    palm: tuple[float, float]
    arm_angle_deg: float
    scale: float = 1.0
    skin: tuple[int, int, int] = (120, 150, 205)


@dataclass(frozen=True)
class DiceSpec:
    value: int
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    colour: str = "white"


@dataclass(frozen=True)
class FigurineTruth:
    owner: str | None
    colour: str
    cell: int
    pos_mm: tuple[float, float]
    pos_px: tuple[float, float]


@dataclass(frozen=True)
class FrameTruth:
    corners_px: np.ndarray  # (4, 2) board TL, TR, BR, BL in image pixels
    homography: np.ndarray  # board mm -> ideal pixels
    figurines: tuple[FigurineTruth, ...]
    dice: tuple[DiceSpec, ...]
    hand_cells: frozenset[int]
    covered_markers: tuple[int, ...]
    camera: CameraModel
    pose: CameraPose
    conditions: Conditions
    special_dice: tuple[Any, ...] = ()  # vision.synthetic.special_dice.SpecialDieTruth

    def occupancy(self) -> dict[int, list[str | None]]:
        out: dict[int, list[str | None]] = {}
        for f in self.figurines:
            out.setdefault(f.cell, []).append(f.owner)
        return out


@dataclass
class SyntheticFrame:
    image: np.ndarray
    truth: FrameTruth


PawnPlacement = Mapping[str, int] | Sequence[tuple[str | None, int]]


@dataclass
class SyntheticTable:
    """Renders frames of the table. Players map an owner name to a sticker colour name."""

    camera: CameraModel = field(default_factory=default_camera)
    pose: CameraPose = field(default_factory=CameraPose)
    conditions: Conditions = field(default_factory=Conditions)
    players: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_PLAYERS))
    spec: BoardSpec = DEFAULT_SPEC
    layout: MarkerLayout = DEFAULT_LAYOUT
    _map_cache: dict[tuple[bytes, int], tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict, repr=False)

    def render(self, pawns: PawnPlacement | None = None, dice: Sequence[int] | None = None,
               hand: bool | Sequence[HandSpec] = False, seed: int | None = None,
               pose: CameraPose | None = None,
               conditions: Conditions | None = None,
               dice_seed: int | None = None,
               special: Sequence[tuple[str, int]] = ()) -> SyntheticFrame:
        """One frame. `pawns` maps owner -> cell (0..40, 40 = in Jail), or is a list of
        (owner, cell) pairs when one owner has several figurines or a figurine has no owner.
        `dice` are the values to show in the board centre; `hand` True draws one random hand.
        `dice_seed` places the dice by a seed of their own, so they stay put while the pieces
        move (without it they are placed by `seed` with everything else). `special` are block
        and scatter dice ((kind, value) as a reader gives them: block faces 1-6, scatter
        directions 1-8 of the base game's template relative to the board), thrown in the board
        centre as solid dice seen through the lens (``vision.synthetic.special_dice``)."""
        rng = np.random.default_rng(seed)
        pose = pose or self.pose
        cond = conditions or self.conditions
        tex = board_texture(self.spec, self.layout).copy()
        items: list[tuple[str | None, int]] = (
            [(k, v) for k, v in pawns.items()] if isinstance(pawns, Mapping)
            else list(pawns or []))
        figs = self._draw_figurines(tex, items, pose, rng)
        dice_rng = rng if dice_seed is None else np.random.default_rng(dice_seed)
        dice_truth = self._draw_dice(tex, list(dice or []), dice_rng)
        hands: list[HandSpec]
        if hand is True:
            hands = [self.random_hand(rng)]
        elif hand is False:
            hands = []
        else:
            hands = list(hand)
        hand_mask = np.zeros(tex.shape[:2], np.uint8)
        for hs in hands:
            self._draw_hand(tex, hand_mask, hs, rng)
        h_plane = pose.homography(self.camera)
        image = self._project(tex, h_plane)
        special_truth = self._draw_special(image, list(special), pose, dice_truth, dice_rng)
        image = self._effects(image, cond, rng)
        corners = self.camera.distort_points(
            cv2.perspectiveTransform(self.spec.corners().reshape(-1, 1, 2), h_plane).reshape(-1, 2))
        fig_truth = []
        for owner, colour, cell, pos in figs:
            px = self.camera.distort_points(
                cv2.perspectiveTransform(np.array([[pos]], np.float64), h_plane).reshape(-1, 2))
            fig_truth.append(FigurineTruth(owner, colour, cell, (float(pos[0]), float(pos[1])),
                                           (float(px[0, 0]), float(px[0, 1]))))
        hand_cells, covered = self._covered(hand_mask)
        truth = FrameTruth(corners, h_plane, tuple(fig_truth), tuple(dice_truth), hand_cells,
                           covered, self.camera, pose, cond, special_truth)
        return SyntheticFrame(image, truth)

    # -- drawing pieces ---------------------------------------------------------------------
    def _draw_figurines(self, tex: np.ndarray, items: list[tuple[str | None, int]],
                        pose: CameraPose, rng: np.random.Generator
                        ) -> list[tuple[str | None, str, int, tuple[float, float]]]:
        by_cell: dict[int, list[str | None]] = {}
        for owner, cell in items:
            if not 0 <= int(cell) < NUM_CELLS:
                raise ValueError(f"cell {cell} is not a board cell (0..40)")
            by_cell.setdefault(int(cell), []).append(owner)
        placed: list[tuple[str | None, str, int, tuple[float, float]]] = []
        for cell, owners in by_cell.items():
            limit = 4 if cell in (IN_JAIL,) else 5 if cell == JUST_VISITING else 6
            if len(owners) > limit:
                raise ValueError(f"at most {limit} figurines fit on cell {cell}")
            slots = slot_positions(cell, len(owners), self.spec)
            order = rng.permutation(len(owners))
            for k, owner in enumerate(owners):
                jitter = rng.uniform(-1.5, 1.5, 2)
                pos = slots[order[k]] + jitter
                colour = self.players.get(owner, "white") if owner is not None else "white"
                placed.append((owner, colour, cell, (float(pos[0]), float(pos[1]))))
        # draw far-from-camera figurines first so nearer ones overlap them
        cam = np.array([pose.x_mm, pose.y_mm])
        placed.sort(key=lambda f: -np.linalg.norm(np.array(f[3]) - cam))
        for owner, colour, _cell, pos in placed:
            shape = 0 if owner is None else sum(map(ord, owner)) % 4
            self._draw_one(tex, np.array(pos), STICKER_BGR[colour], shape, pose, rng)
        return placed

    def _draw_one(self, tex: np.ndarray, pos: np.ndarray, ring: tuple[int, int, int], shape: int,
                  pose: CameraPose, rng: np.random.Generator) -> None:
        s = PX_PER_MM
        cam = np.array([pose.x_mm, pose.y_mm])
        lean = (pos - cam) * (FIGURE_HEIGHT_MM / max(pose.height_mm - FIGURE_HEIGHT_MM, 1.0))
        top = pos + lean
        # shadow (light from the top-left)
        sh = pos + np.array([3.0, 4.0]) + lean * 0.3
        x0, y0 = _mm(np.minimum(pos, sh) - 14)
        x1, y1 = _mm(np.maximum(pos, sh) + 14)
        roi = tex[y0:y1, x0:x1]
        m = np.zeros(roi.shape[:2], np.uint8)
        cv2.circle(m, (int((sh[0] + TEXTURE_MARGIN_MM) * s) - x0,
                       int((sh[1] + TEXTURE_MARGIN_MM) * s) - y0), int(10 * s), 255, -1)
        soft = np.asarray(cv2.GaussianBlur(m, (0, 0), 3), np.float32)
        roi[:] = (roi * (1 - 0.45 * soft[..., None] / 255.0)).astype(np.uint8)
        # base ring: the sticker, with a slight shading gradient
        ring_c = np.array(ring, np.float32) * float(rng.uniform(0.9, 1.05))
        cv2.circle(tex, _mm(pos), int(RING_OUTER_MM * s), tuple(float(v) for v in
                                                                np.clip(ring_c, 0, 255)), -1,
                   cv2.LINE_AA)
        pewter = float(rng.uniform(105, 150))
        dark = (pewter * 0.7, pewter * 0.72, pewter * 0.75)
        light = (pewter * 1.25, pewter * 1.25, pewter * 1.3)
        cv2.circle(tex, _mm(pos), int(RING_INNER_MM * s), dark, -1, cv2.LINE_AA)
        # body from base to top, thicker at the bottom; shape varies per owner
        widths = [(9, 5), (7, 7), (10, 3), (6, 4)][shape]
        steps = 6
        for k in range(steps + 1):
            t = k / steps
            p = pos + (top - pos) * t
            r = (widths[0] + (widths[1] - widths[0]) * t) / 2
            col = tuple(d + (lt - d) * t for d, lt in zip(dark, light, strict=True))
            cv2.circle(tex, _mm(p), max(1, int(r * s)), col, -1, cv2.LINE_AA)
        head = [3.5, 4.5, 2.5, 5.0][shape]
        cv2.circle(tex, _mm(top), int(head * s), light, -1, cv2.LINE_AA)
        cv2.circle(tex, _mm(top - np.array([1.0, 1.0])), max(1, int(head * 0.4 * s)),
                   (230, 230, 235), -1, cv2.LINE_AA)

    def _dice_spot(self, rng: np.random.Generator, taken: Sequence[tuple[float, float]],
                   apart_mm: float) -> tuple[float, float]:
        """Where a thrown die lies: within 90 mm of the board's middle, more than ``apart_mm``
        from the dice ``taken`` when 20 tries find such a spot (else the last one tried)."""
        s = self.spec.side_mm
        centre = (s / 2 + float(rng.uniform(-90, 90)), s / 2 + float(rng.uniform(-90, 90)))
        for _ in range(20):
            if all(math.dist(centre, c) > apart_mm for c in taken):
                break
            centre = (s / 2 + float(rng.uniform(-90, 90)), s / 2 + float(rng.uniform(-90, 90)))
        return centre

    def _draw_dice(self, tex: np.ndarray, values: list[int], rng: np.random.Generator
                   ) -> list[DiceSpec]:
        out: list[DiceSpec] = []
        for k, v in enumerate(values):
            centre = self._dice_spot(rng, [d.centre_mm for d in out], 30.0)
            angle = float(rng.uniform(0, 90))
            spec = DiceSpec(int(v), centre, angle, "white" if k % 2 == 0 else "red")
            size_px = 16.0 * PX_PER_MM
            draw_die(tex, DieSpec("d6", int(v), _mm(centre), size_px, angle, spec.colour), rng)
            out.append(spec)
        return out

    def _draw_special(self, image: np.ndarray, dice: list[tuple[str, int]], pose: CameraPose,
                      d6: list[DiceSpec], rng: np.random.Generator) -> tuple[Any, ...]:
        """Block and scatter dice drawn on the projected ``image`` in place, in the board's
        centre clear of the d6 and of each other (SPECIAL_DIE_MM across)."""
        if not dice:
            return ()
        from vision.synthetic.special_dice import draw_die_showing, random_light

        cam = LensCamera(self.camera, pose)
        light = random_light(rng)
        taken = [d.centre_mm for d in d6]
        out = []
        for kind, value in dice:
            centre = self._dice_spot(rng, taken, 2.2 * SPECIAL_DIE_MM)
            truth = draw_die_showing(image, cam, light, kind, centre, SPECIAL_DIE_MM, int(value), rng)
            taken.append(centre)
            if truth is not None:
                out.append(truth)
        return tuple(out)

    def random_hand(self, rng: np.random.Generator, over_board: bool | None = None) -> HandSpec:
        """A hand reaching in from one side; over the marker margin, or onto the squares."""
        s = self.spec.side_mm
        side = int(rng.integers(0, 4))
        along = float(rng.uniform(0.1, 0.9)) * s
        if over_board is None:
            over_board = bool(rng.random() < 0.5)
        depth = float(rng.uniform(10, 120)) if over_board else float(rng.uniform(-70, -40))
        if side == 0:
            palm, ang = (along, depth), -90.0
        elif side == 1:
            palm, ang = (s - depth, along), 0.0
        elif side == 2:
            palm, ang = (along, s - depth), 90.0
        else:
            palm, ang = (depth, along), 180.0
        skin = (int(rng.integers(80, 150)), int(rng.integers(120, 175)),
                int(rng.integers(170, 230)))
        return HandSpec(palm, ang + float(rng.uniform(-25, 25)), float(rng.uniform(0.9, 1.1)),
                        skin)

    def _draw_hand(self, tex: np.ndarray, mask: np.ndarray, hs: HandSpec,
                   rng: np.random.Generator) -> None:
        sc = hs.scale
        a = math.radians(hs.arm_angle_deg)
        out = np.array([math.cos(a), math.sin(a)])  # towards the arm
        perp = np.array([-out[1], out[0]])
        palm = np.array(hs.palm)
        m = np.zeros_like(mask)
        # forearm to the texture edge
        far = palm + out * 600
        cv2.line(m, _mm(palm), _mm(far), 255, int(70 * sc * PX_PER_MM))
        cv2.ellipse(m, _mm(palm), (int(48 * sc * PX_PER_MM), int(42 * sc * PX_PER_MM)),
                    math.degrees(a), 0, 360, 255, -1)
        for k, (off, length) in enumerate([(-27, 60), (-9, 72), (9, 70), (26, 58)]):
            base = palm - out * 30 * sc + perp * off * sc
            tip = base - out * length * sc + perp * float(rng.uniform(-6, 6))
            cv2.line(m, _mm(base), _mm(tip), 255, int((16 - k % 2) * sc * PX_PER_MM))
        thumb = palm + perp * 45 * sc
        cv2.line(m, _mm(palm + perp * 20 * sc), _mm(thumb - out * 25 * sc), 255,
                 int(18 * sc * PX_PER_MM))
        mask |= m
        ys, xs = np.nonzero(m[::4, ::4])
        if len(xs) == 0:
            return
        y0, y1 = max(0, ys.min() * 4 - 8), min(m.shape[0], ys.max() * 4 + 8)
        x0, x1 = max(0, xs.min() * 4 - 8), min(m.shape[1], xs.max() * 4 + 8)
        sub = m[y0:y1, x0:x1]
        small = cv2.resize(sub, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        shade = cv2.resize(cv2.GaussianBlur(small, (0, 0), 2), (sub.shape[1], sub.shape[0]))
        roi = tex[y0:y1, x0:x1]
        sel = sub > 0
        col = np.array(hs.skin, np.float32) * (0.75 + 0.3 * shade[sel].astype(np.float32)[:, None]
                                               / 255.0)
        roi[sel] = np.clip(col, 0, 255).astype(np.uint8)

    def _covered(self, hand_mask: np.ndarray) -> tuple[frozenset[int], tuple[int, ...]]:
        if not hand_mask.any():
            return frozenset(), ()
        small = cv2.resize(hand_mask, None, fx=1 / PX_PER_MM, fy=1 / PX_PER_MM,
                           interpolation=cv2.INTER_AREA)
        off = int(TEXTURE_MARGIN_MM)
        n = int(round(self.spec.side_mm))
        board = small[off:off + n, off:off + n] > 127
        labels = label_map(self.spec, 1.0)
        cells = set()
        hit = labels[board]
        for idx in np.unique(hit):
            if idx < 0:
                continue
            frac = float((hit == idx).sum()) / float((labels == idx).sum())
            if frac > 0.02:
                cells.add(int(idx))
        covered = []
        for p, c in zip(self.layout.placements(), self.layout.corners_mm(), strict=True):
            x0, y0 = (c[0] + off).astype(int)
            x1, y1 = (c[2] + off).astype(int)
            if (small[y0:y1, x0:x1] > 127).mean() > 0.05:
                covered.append(p.marker_id)
        return frozenset(cells), tuple(covered)

    # -- camera ------------------------------------------------------------------------------
    def _project(self, tex: np.ndarray, h_plane: np.ndarray) -> np.ndarray:
        key = (h_plane.tobytes(), id(self.camera))
        maps = self._map_cache.get(key)
        if maps is None:
            s = PX_PER_MM
            to_tex = np.array([[s, 0, TEXTURE_MARGIN_MM * s], [0, s, TEXTURE_MARGIN_MM * s],
                               [0, 0, 1]])
            ideal_to_tex = to_tex @ np.linalg.inv(h_plane)
            grid = _ideal_grid(self.camera)
            m = cv2.perspectiveTransform(grid, ideal_to_tex)
            m = m.reshape(self.camera.height, self.camera.width, 2)
            m1, m2 = cv2.convertMaps(m.astype(np.float32), None,  # type: ignore[call-overload]
                                     cv2.CV_16SC2)
            maps = (np.asarray(m1), np.asarray(m2))
            if len(self._map_cache) > 4:
                self._map_cache.clear()
            self._map_cache[key] = maps
        out = _table_background(self.camera.width, self.camera.height).copy()
        cv2.remap(tex, maps[0], maps[1], cv2.INTER_LINEAR, dst=out,
                  borderMode=cv2.BORDER_TRANSPARENT)
        return out

    def _effects(self, img: np.ndarray, cond: Conditions, rng: np.random.Generator
                 ) -> np.ndarray:
        h, w = img.shape[:2]
        if cond.blur_sigma > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), cond.blur_sigma)
        gx, gy = np.meshgrid(np.linspace(-0.5, 0.5, 32), np.linspace(-0.5, 0.5, 18))
        a = math.radians(cond.light_angle_deg)
        ramp = (gx * math.cos(a) + gy * math.sin(a))
        gain = cond.exposure * (1 - cond.light_gradient * (ramp + 0.5))
        gain3 = np.stack([gain * (1 + cond.warmth), gain, gain * (1 - cond.warmth)], axis=2)
        if cond.glare > 0:
            gxp, gyp = cond.glare_pos
            d2 = ((gx + 0.5 - gxp) * 16 / 9) ** 2 + (gy + 0.5 - gyp) ** 2
            glare = cond.glare * 1.4 * np.exp(-d2 / (2 * 0.05 ** 2))
        else:
            glare = np.zeros_like(gain)
        gain_full = cv2.resize(gain3.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        out = np.asarray(cv2.multiply(img, gain_full, dtype=cv2.CV_32F), np.float32)
        if cond.glare > 0:
            glare_full = cv2.resize((glare * 255).astype(np.float32), (w, h),
                                    interpolation=cv2.INTER_CUBIC)
            out += np.asarray(glare_full, np.float32)[..., None]
        if cond.noise_sigma > 0:
            bank = _noise_bank(h, w)
            oy, ox = int(rng.integers(0, 64)), int(rng.integers(0, 64))
            out += np.asarray(bank[oy:oy + h, ox:ox + w] * float(cond.noise_sigma), np.float32)
        return np.clip(out, 0, 255).astype(np.uint8)


# --- a live source ----------------------------------------------------------------------------


class SyntheticSource:
    """An endless frame source: a scripted or random game on the synthetic table.

    Call `place(pawns, dice)` to script the next frames; otherwise a random player moves every
    `hold` frames, with a hand over the board for a few frames while the piece moves.
    """

    def __init__(self, seed: int = 0, width: int = 1280, height: int = 720, hold: int = 30,
                 table: SyntheticTable | None = None) -> None:
        self.table = table or SyntheticTable(camera=default_camera(width, height))
        self.rng = np.random.default_rng(seed)
        self.hold = hold
        self.frame_no = 0
        self.pawns: dict[str, int] = {name: 0 for name in self.table.players}
        self.dice: list[int] | None = None
        self.scripted = False
        self.hand_frames = 0
        self.last_truth: FrameTruth | None = None
        self._hand: HandSpec | None = None
        self._closed = False

    def place(self, pawns: Mapping[str, int], dice: Sequence[int] | None = None,
              hand_frames: int = 0) -> None:
        self.scripted = True
        self.pawns = dict(pawns)
        self.dice = list(dice) if dice is not None else None
        self.hand_frames = hand_frames
        if hand_frames:
            self._hand = self.table.random_hand(self.rng, over_board=True)

    def read(self) -> np.ndarray | None:
        if self._closed:
            return None
        if not self.scripted and self.frame_no % self.hold == 0 and self.frame_no > 0:
            mover = str(self.rng.choice(list(self.pawns)))
            d = [int(self.rng.integers(1, 7)), int(self.rng.integers(1, 7))]
            self.pawns[mover] = (self.pawns[mover] + sum(d)) % 40
            self.dice = d
            self.hand_frames = 5
            self._hand = self.table.random_hand(self.rng, over_board=True)
        hand: bool | list[HandSpec] = False
        if self.hand_frames > 0 and self._hand is not None:
            hand = [replace(self._hand, palm=(self._hand.palm[0] + 4 * self.hand_frames,
                                              self._hand.palm[1]))]
            self.hand_frames -= 1
        frame = self.table.render(self.pawns, self.dice, hand,
                                  seed=int(self.rng.integers(0, 2**31)))
        self.last_truth = frame.truth
        self.frame_no += 1
        return frame.image

    def close(self) -> None:
        self._closed = True


def synthetic_source_factory(rest: str) -> SyntheticSource:
    """`synthetic` or `synthetic:seed=3,width=1280,height=720,hold=30`."""
    opts: dict[str, int] = {}
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        if key not in ("seed", "width", "height", "hold") or not value.isdigit():
            from hardware.camera import CameraError

            raise CameraError(f"bad synthetic source option {part!r}: use "
                              "synthetic:seed=N,width=W,height=H,hold=FRAMES")
        opts[key] = int(value)
    return SyntheticSource(seed=opts.get("seed", 0), width=opts.get("width", 1280),
                           height=opts.get("height", 720), hold=opts.get("hold", 30))


def register_synthetic_source() -> None:
    from hardware.camera import register_source

    register_source("synthetic", synthetic_source_factory)


register_synthetic_source()


def render_plane(texture: np.ndarray, px_per_mm: float, camera: CameraModel, pose: CameraPose,
                 background: int = 90) -> np.ndarray:
    """Any flat printed sheet (texture pixel (0, 0) = plane point (0, 0) mm) seen by a camera;
    used for ChArUco calibration views."""
    to_tex = np.array([[px_per_mm, 0, 0], [0, px_per_mm, 0], [0, 0, 1]], np.float64)
    ideal_to_tex = to_tex @ np.linalg.inv(pose.homography(camera))
    maps = cv2.perspectiveTransform(_ideal_grid(camera), ideal_to_tex)
    maps = maps.reshape(camera.height, camera.width, 2).astype(np.float32)
    out = cv2.remap(texture, maps, None, cv2.INTER_LINEAR,  # type: ignore[call-overload]
                    borderMode=cv2.BORDER_CONSTANT, borderValue=background)
    return np.asarray(out)
