"""A scripted piecepack table for the demo's camera: a dungeon on the marker sheet, a dice tray.

:func:`vision.synthetic.piecepack.render_table` and :func:`render_dice_area` draw random scenes
for training and the benchmark; :class:`PiecepackTable` draws a given one (the game's dungeon,
coins, pawns, the dice just thrown, a coin shown to the camera), with the same pieces
(``draw_tile_back``, ``draw_coin``, ``draw_pawn``, ``draw_die``), so the piecepack readers see
what they were trained on:

- the printed marker sheet (``companion markers``) lies on the left with the dungeon laid in
  its marked square (tile 0,0 in the middle, north towards the sheet's top:
  ``vision.piecepack.placement.DungeonGrid``);
- a dice tray lies to the right of the sheet, on the same table plane (:data:`TRAY_MM`, in the
  sheet's millimetres: the kiosk's dice area);
- the camera looks down from above with a slight slant; frames are deterministic from a seed,
  with mild blur, noise and JPEG (``Conditions``).

Pieces are drawn at their real sizes (tiles 2 in, coins 19 mm) except the dice, drawn 20 mm
(:data:`DEMO_DIE_MM`) so that at the demo camera's 2 px/mm they are as big in the frame as the
dice the reader was trained on (38-80 px); a table's camera must likewise see its dice at
38 px or more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synthetic.piecepack import (
    COIN_MM,
    COIN_STOCKS,
    PAWN_HEIGHT_MM,
    PAWN_MM,
    SUIT_BGR,
    Conditions,
    camera_effects,
    draw_coin,
    draw_die,
    draw_pawn,
    draw_tile_back,
)

Space = tuple[int, int]

SHEET_MM = (-62.0, -62.0, 622.0, 622.0)
"""The part of the table the marker sheet takes (x, y, w, h in sheet mm, markers included)."""
TRAY_MM = (600.0, 40.0, 440.0, 470.0)
"""The dice tray beside the sheet (x, y, w, h in the sheet's millimetres): the dice area."""
DEMO_DIE_MM = 20.0
TILE_BGR = (150, 170, 190)
TILE_LINE = (60, 70, 80)
STACK_BGR = (74, 112, 160)


@dataclass(frozen=True)
class Scene:
    """What lies on the table: tiles (tile coordinates), coins value side up (space, value),
    pawns (space, suit), stacks the dead left (spaces), dice in the tray (suit, value) and
    coins shown in the tray (suit, value: a suit side up when the suit is given)."""

    tiles: tuple[tuple[int, int], ...] = ()
    coins: tuple[tuple[Space, int], ...] = ()
    pawns: tuple[tuple[Space, str], ...] = ()
    stacks: tuple[Space, ...] = ()
    dice: tuple[tuple[str, int], ...] = ()
    shown: tuple[tuple[str | None, int], ...] = ()


class PiecepackTable:
    """Renders :class:`Scene` s as a camera above the table sees them (BGR frames)."""

    def __init__(self, width: int = 2304, height: int = 1296, seed: int = 0) -> None:
        from vision.piecepack.placement import DungeonGrid

        self.width, self.height = width, height
        self.grid = DungeonGrid()
        rng = np.random.default_rng(seed)
        x, y, _, h = SHEET_MM
        self.px_per_mm = height / (h + 16.0)
        k = self.px_per_mm
        # sheet millimetres -> picture pixels (before the slant)
        self.affine = np.array([[k, 0, (8.0 - x) * k], [0, k, (8.0 - y) * k], [0, 0, 1]])
        src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        dst = (src + rng.uniform(-0.012, 0.012, (4, 2)) * [width, height]).astype(np.float32)
        self.slant = np.asarray(cv2.getPerspectiveTransform(src, dst))
        self.board_to_frame = self.slant @ self.affine
        self.stock = COIN_STOCKS[0]
        # the training renders' camera effects, without their noise bank (made for 1280x720
        # frames): this table's own noise, one bank of the frame's size
        self.conditions = Conditions(blur=0.6, gain=1.0, gradient=0.15, gradient_angle=30.0,
                                     noise=0.0, jpeg=90)
        self.noise = 2.5
        self._noise = rng.standard_normal((height + 16, width + 16)).astype(np.float32)
        self._static_key: tuple[tuple[int, int], ...] | None = None
        self._static: np.ndarray | None = None
        self._table = self._table_surface(rng)

    # -- geometry ----------------------------------------------------------------------------
    def px(self, mm: Sequence[float] | np.ndarray) -> np.ndarray:
        """Sheet millimetres -> picture pixels before the slant."""
        p = np.asarray(mm, np.float64)
        return np.asarray(p * self.px_per_mm + self.affine[:2, 2])

    def tray_region(self) -> tuple[int, int, int, int]:
        """The tray's bounding box in frame pixels (x, y, w, h)."""
        x, y, w, h = TRAY_MM
        pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
        q = cv2.perspectiveTransform(pts.reshape(1, -1, 2), self.board_to_frame)[0]
        x0, y0 = np.floor(q.min(axis=0)).astype(int)
        x1, y1 = np.ceil(q.max(axis=0)).astype(int)
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        return (x0, y0, min(self.width, int(x1)) - x0, min(self.height, int(y1)) - y0)

    # -- drawing -----------------------------------------------------------------------------
    def _table_surface(self, rng: np.random.Generator) -> np.ndarray:
        """The wooden table, the sheet with its markers, the tray: drawn once."""
        from vision.board.markers import DEFAULT_LAYOUT, marker_image

        w, h = self.width, self.height
        img = np.empty((h, w, 3), np.float32)
        img[:] = (70, 100, 135)
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin(yy * 0.035 + 3 * np.sin(xx * 0.004 + 1.3)) * 12
        img += grain[..., None] * np.array([0.6, 0.8, 1.0], np.float32)
        out = np.clip(img, 0, 255).astype(np.uint8)
        x, y, sw, sh = SHEET_MM
        a, b = self.px((x, y)), self.px((x + sw, y + sh))
        cv2.rectangle(out, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), (236, 238, 240), -1)
        for p, corners in zip(DEFAULT_LAYOUT.placements(), DEFAULT_LAYOUT.corners_mm(),
                              strict=True):
            c = self.px(corners)
            x0, y0 = c.min(axis=0)
            side = int(round(c.max(axis=0)[0] - x0))
            out[int(round(y0)):int(round(y0)) + side, int(round(x0)):int(round(x0)) + side] = \
                marker_image(p.marker_id, side)[..., None]
        tx, ty, tw, th = TRAY_MM
        a, b = self.px((tx, ty)), self.px((tx + tw, ty + th))
        cv2.rectangle(out, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), (48, 58, 40), -1)
        cv2.rectangle(out, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), (30, 36, 26),
                      max(2, int(self.px_per_mm * 3)))
        del rng
        return out

    def _with_tiles(self, tiles: tuple[tuple[int, int], ...]) -> np.ndarray:
        if self._static is None or self._static_key != tiles:
            img = self._table.copy()
            for t in tiles:
                draw_tile_back(img, self.px(self.grid.tile_corners_mm(t)), TILE_BGR, TILE_LINE,
                               self.px_per_mm)
            self._static, self._static_key = img, tiles
        return self._static.copy()

    def render(self, scene: Scene, seed: int = 0, moving: bool = False) -> np.ndarray:
        """The frame of ``scene`` (``moving``: the dice still tumbling, a blur over the tray)."""
        rng = np.random.default_rng(seed)
        img = self._with_tiles(tuple(scene.tiles))
        k = self.px_per_mm
        for space, value in scene.coins:
            c = self.px(self.grid.space_centre_mm(space))
            draw_coin(img, (float(c[0]), float(c[1])), COIN_MM * k, float(rng.uniform(0, 360)),
                      "value", "suns", value, self.stock, SUIT_BGR["suns"], (30, 30, 30),
                      (0.0, 0.0), 0)
        for space in scene.stacks:
            c = self.px(self.grid.space_centre_mm(space))
            draw_coin(img, (float(c[0]), float(c[1])), COIN_MM * k, 0.0, "value", "suns", 0,
                      STACK_BGR, SUIT_BGR["suns"], (30, 30, 30), (0.0, 0.0), 0)
        camera_mm = np.array([self.width / 2 / k, self.height / 2 / k]) - self.affine[:2, 2] / k
        for space, suit in scene.pawns:
            base_mm = self.grid.space_centre_mm(space)
            lean = (base_mm - camera_mm) * PAWN_HEIGHT_MM / (700.0 - PAWN_HEIGHT_MM) * k
            b = self.px(base_mm)
            draw_pawn(img, (float(b[0]), float(b[1])), PAWN_MM / 2 * k,
                      (float(lean[0]), float(lean[1])), SUIT_BGR[suit])
        self._draw_tray(img, scene, rng, moving)
        warped = cv2.warpPerspective(img, self.slant, (self.width, self.height),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        oy, ox = int(rng.integers(0, 16)), int(rng.integers(0, 16))
        grain = self._noise[oy:oy + self.height, ox:ox + self.width] * np.float32(self.noise)
        noisy = np.clip(warped.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
        return camera_effects(noisy, self.conditions, rng)

    def _draw_tray(self, img: np.ndarray, scene: Scene, rng: np.random.Generator,
                   moving: bool) -> None:
        k = self.px_per_mm
        tx, ty, tw, th = TRAY_MM
        items: list[tuple[str, str | None, int]] = [("die", s, v) for s, v in scene.dice]
        items += [("coin", s, v) for s, v in scene.shown]
        placed: list[np.ndarray] = []
        for kind, suit, value in items:
            for _ in range(80):
                mm = np.array([rng.uniform(tx + 40, tx + tw - 40), rng.uniform(ty + 40,
                                                                                ty + th - 40)])
                if all(np.linalg.norm(mm - q) > 60 for q in placed):
                    break
            placed.append(mm)
            c = self.px(mm)
            centre = (float(c[0]), float(c[1]))
            angle = float(rng.uniform(0, 360))
            if kind == "die":
                assert suit is not None
                side = DEMO_DIE_MM * k
                lean = (mm - np.array([tx + tw / 2, ty + th / 2])) * 0.02 * k
                draw_die(img, centre, side, angle, suit, value, SUIT_BGR[suit],
                         (float(lean[0]), float(lean[1])), 1, rng)
            else:
                draw_coin(img, centre, DEMO_DIE_MM * 1.2 * k, angle,
                          "suit" if suit is not None else "value", suit or "suns", value,
                          self.stock, SUIT_BGR[suit or "suns"], (30, 30, 30), (0.0, 0.0), 1)
        if moving:
            a, b = self.px((tx, ty)), self.px((tx + tw, ty + th))
            x0, y0, x1, y1 = int(a[0]), int(a[1]), int(b[0]), int(b[1])
            img[y0:y1, x0:x1] = cv2.blur(img[y0:y1, x0:x1], (25, 25))
            hand = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
            cv2.ellipse(img, hand, (int(60 * k), int(45 * k)), float(rng.uniform(0, 180)), 0,
                        360, (120, 150, 200), -1)

