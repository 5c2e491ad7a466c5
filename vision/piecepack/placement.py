"""Where tiles lie and pawns stand: the dungeon's grid on the table plane of the marker sheet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DungeonGrid:
    """The dungeon's tiles on the table plane, in the marker sheet's millimetres.

    The printed markers (``companion markers``) are laid as for a 508 mm board; no board lies
    there, the markers only fix the plane. ``origin_mm`` is the south-west corner of the first
    tile laid (tile (0, 0)), by default the middle of the marked square so the first tile lies
    centred. Dungeon x grows east (the sheet's x); dungeon y grows north, away from the first
    builder, which is towards the sheet's top edge (decreasing sheet y).
    """

    origin_mm: tuple[float, float] = (228.6, 279.4)
    tile_mm: float = 50.8

    @property
    def space_mm(self) -> float:
        return self.tile_mm / 2

    def space_centre_mm(self, space: tuple[int, int]) -> np.ndarray:
        ox, oy = self.origin_mm
        return np.array([ox + (space[0] + 0.5) * self.space_mm,
                         oy - (space[1] + 0.5) * self.space_mm])

    def tile_corners_mm(self, tile: tuple[int, int]) -> np.ndarray:
        """(4, 2) corners TL, TR, BR, BL as seen on the sheet."""
        ox, oy = self.origin_mm
        x0 = ox + tile[0] * self.tile_mm
        yb = oy - tile[1] * self.tile_mm
        t = self.tile_mm
        return np.array([[x0, yb - t], [x0 + t, yb - t], [x0 + t, yb], [x0, yb]])


TILE_WINDOW: tuple[int, int, int, int] = (-4, -4, 5, 4)
"""The tiles the table reader looks at (min x, min y, max x, max y): every tile that lies inside
the square the markers mark with the default :class:`DungeonGrid`."""


def window_spaces(window: tuple[int, int, int, int] = TILE_WINDOW) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = window
    return [(2 * tx + dx, 2 * ty + dy) for ty in range(y0, y1 + 1) for tx in range(x0, x1 + 1)
            for dy in (0, 1) for dx in (0, 1)]


def space_crops(frame: np.ndarray, board_to_frame: np.ndarray, grid: DungeonGrid,
                spaces: list[tuple[int, int]], size: int = 40, margin_mm: float = 7.5,
                jitter_mm: np.ndarray | None = None) -> np.ndarray:
    """(N, size, size, 3) views of ``spaces`` from above, each the space and ``margin_mm`` of
    its neighbours, sheet-up (``board_to_frame``: sheet millimetres -> frame pixels)."""
    import cv2

    span = grid.space_mm + 2 * margin_mm
    k = span / size
    out = np.empty((len(spaces), size, size, 3), np.uint8)
    for i, sp in enumerate(spaces):
        c = grid.space_centre_mm(sp)
        if jitter_mm is not None:
            c = c + jitter_mm[i]
        crop_to_mm = np.array([[k, 0, c[0] - span / 2], [0, k, c[1] - span / 2], [0, 0, 1]])
        h = board_to_frame @ crop_to_mm
        out[i] = cv2.warpPerspective(frame, h, (size, size),
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_CONSTANT)
    return out


@dataclass(frozen=True)
class TableObservation:
    """Tiles, pawns and coins on the dungeon grid as one frame shows them.

    ``status``: ``ok`` (everything in the window read), ``unsure`` (some tiles or spaces could
    not be told: ``unsure_tiles``, ``unsure_spaces``), ``error`` (``message``: the markers were
    not found, the frame is unusable)."""

    tiles: tuple[tuple[int, int], ...]
    pawns: dict[tuple[int, int], str]
    coins: tuple[tuple[int, int], ...]
    unsure_tiles: tuple[tuple[int, int], ...]
    unsure_spaces: tuple[tuple[int, int], ...]
    status: str
    message: str = ""


class TableReader:
    """Registers the table plane with the printed markers, then reads every space of the tile
    window (``read(frame)``). The marker registration is kept and only verified on later
    frames (``vision.board.markers.MarkerRegistrar``)."""

    def __init__(self, grid: DungeonGrid | None = None,
                 window: tuple[int, int, int, int] = TILE_WINDOW, threshold: float = 0.9,
                 camera: object | None = None) -> None:
        from vision.board.markers import MarkerRegistrar

        self.grid = grid or DungeonGrid()
        self.window = window
        self.threshold = threshold
        self.registrar = MarkerRegistrar(camera=camera)  # type: ignore[arg-type]
        x0, y0, x1, y1 = window
        self.tiles = [(tx, ty) for ty in range(y0, y1 + 1) for tx in range(x0, x1 + 1)]
        self.spaces = window_spaces(window)

    def homography(self, frame: np.ndarray) -> np.ndarray:
        """Sheet millimetres -> frame pixels (:class:`RegistrationError` when the markers are
        not found)."""
        import cv2

        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        reg, _ = self.registrar.update(gray)
        return np.asarray(reg.homography)

    def read(self, frame: object, board_to_frame: np.ndarray | None = None,
             near: Sequence[tuple[int, int]] | None = None) -> TableObservation:
        """Read the tile window, or only the tiles ``near`` (the dungeon the game knows) and
        the places beside them where the next tile can go: a quarter of the cost or less."""
        from vision.board.markers import RegistrationError
        from vision.piecepack import models as M
        from vision.piecepack.reader import PiecepackError, check_frame

        try:
            img = check_frame(frame)
        except PiecepackError as exc:
            return TableObservation((), {}, (), (), (), "error", str(exc))
        if board_to_frame is None:
            try:
                board_to_frame = self.homography(img)
            except RegistrationError as exc:
                return TableObservation((), {}, (), (), (), "error", str(exc))
        tiles = self.tiles if near is None else _with_neighbours(near)
        spaces = [(2 * tx + dx, 2 * ty + dy) for tx, ty in tiles for dy in (0, 1)
                  for dx in (0, 1)]
        crops = space_crops(img, board_to_frame, self.grid, spaces, M.CROP, M.SPACE_MARGIN_MM)
        x = np.stack([M.to_input(c) for c in crops])
        probs = M.softmax(M.load_net(M.SPACE_PATH).run(x))
        return self.interpret(tiles, probs)

    def interpret(self, tiles_read: Sequence[tuple[int, int]], probs: np.ndarray
                  ) -> TableObservation:
        """The observation from the space reader's probabilities for the four spaces of each
        of ``tiles_read`` in turn."""
        from vision.piecepack import models as M

        thr = self.threshold
        on_tile = 1.0 - probs[:, 0]
        spaces = [(2 * tx + dx, 2 * ty + dy) for tx, ty in tiles_read for dy in (0, 1)
                  for dx in (0, 1)]
        tiles, unsure_tiles = [], []
        for k, tile in enumerate(tiles_read):
            mean = float(np.mean(on_tile[4 * k:4 * k + 4]))
            if mean >= thr:
                tiles.append(tile)
            elif mean > 1 - thr:
                unsure_tiles.append(tile)
        pawns: dict[tuple[int, int], str] = {}
        coins, unsure_spaces = [], []
        present = set(tiles)
        for sp, p in zip(spaces, probs, strict=True):
            if (sp[0] // 2, sp[1] // 2) not in present:
                continue
            k = int(p.argmax())
            if float(p[k]) < thr:
                unsure_spaces.append(sp)
            elif k == 2:
                coins.append(sp)
            elif k >= 3:
                pawns[sp] = M.SUITS[k - 3]
        status = "unsure" if unsure_tiles or unsure_spaces else "ok"
        message = "" if status == "ok" else (
            f"{len(unsure_tiles)} tiles and {len(unsure_spaces)} spaces unsure")
        return TableObservation(tuple(tiles), pawns, tuple(coins), tuple(unsure_tiles),
                                tuple(unsure_spaces), status, message)


def _with_neighbours(tiles: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``tiles`` and every tile beside one of them, each once, in a stable order."""
    out = dict.fromkeys(tiles)
    for tx, ty in tiles:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            out.setdefault((tx + dx, ty + dy))
    return list(out)
