"""The dice area: named or measured in board millimetres, mapped into the frame by the board's
registration, and handed to the dice reader as its region."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from companion.config import ConfigError, parse_config_text
from companion.kiosk.dice_area import (
    BOARD_CENTRE,
    WHOLE_VIEW,
    DiceArea,
    board_homography,
    moved,
)
from companion.kiosk.table_feed import TableProcessor

# the board seen straight from above, 1 px per mm, its Free Parking corner at (100, 20)
SQUARE_CORNERS = ((100.0, 20.0), (608.0, 20.0), (608.0, 528.0), (100.0, 528.0))
SQUARE = board_homography(SQUARE_CORNERS)


def test_board_centre_is_the_middle_inside_the_squares() -> None:
    area = DiceArea.named(BOARD_CENTRE)
    assert area.mm == (70.0, 70.0, 368.0, 368.0)
    # mapped 1:1 (plus the 6 px margin), clipped to the frame
    assert area.region(SQUARE, (1280, 720)) == (100 + 64, 20 + 64, 380, 380)
    assert DiceArea.named(WHOLE_VIEW).region(SQUARE, (1280, 720)) is None


def test_a_tray_beside_the_board_and_perspective() -> None:
    tray = DiceArea.parse([-220, 100, 200, 300])
    assert tray.region(SQUARE, (1280, 720)) == (0, 114, 86, 312)  # clipped at x = 0
    # a board seen at an angle: the area's corners go through the same perspective
    tilted = ((300.0, 100.0), (900.0, 120.0), (980.0, 650.0), (240.0, 640.0))
    x, y, w, h = DiceArea.named(BOARD_CENTRE).region(board_homography(tilted), (1280, 720)) or (0, 0, 0, 0)
    assert 300 < x < 420 and 150 < y < 230 and 450 < w < 600 and 350 < h < 480
    assert DiceArea.parse([2000, 2000, 50, 50]).region(SQUARE, (1280, 720)) is None


@pytest.mark.parametrize("bad", ["middle", [1, 2, 3], [0, 0, -5, 10], ["a", 0, 1, 1]])
def test_bad_areas_are_refused_with_the_fix(bad: Any) -> None:
    with pytest.raises(ValueError, match="dice area"):
        DiceArea.parse(bad)


def test_the_config_file_names_the_key_and_the_fix() -> None:
    cfg = parse_config_text('[camera]\ndice_area = [-220, 100, 200, 300]\n')
    assert cfg.camera.dice_area == (-220.0, 100.0, 200.0, 300.0)
    assert parse_config_text("").camera.dice_area == BOARD_CENTRE
    with pytest.raises(ConfigError, match=r"\[camera\] dice_area.*board_centre"):
        parse_config_text('[camera]\ndice_area = "tray"\n')


def test_jitter_is_not_a_new_region() -> None:
    assert not moved((10, 10, 100, 100), (14, 12, 98, 103))
    assert moved((10, 10, 100, 100), (30, 10, 100, 100))
    assert moved(None, (10, 10, 100, 100))


@dataclass
class Obs:
    corners: Any
    status: str = "ok"
    message: str = ""
    stable: bool = True
    occupants: dict[int, tuple[Any, ...]] | None = None

    def __post_init__(self) -> None:
        self.occupants = self.occupants or {}


class Board:
    def __init__(self) -> None:
        self.corners: Any = SQUARE_CORNERS

    def process(self, frame: np.ndarray, expected: Any = None) -> Obs:
        return Obs(self.corners)


class Dice:
    state = "waiting"

    def __init__(self) -> None:
        self.region: tuple[int, int, int, int] | None = None
        self.resets = 0

    def update(self, frame: Any) -> None:
        return None

    def reset(self) -> None:
        self.resets += 1


def test_the_processor_aims_the_dice_reader_at_the_area() -> None:
    dice, board = Dice(), Board()
    proc = TableProcessor(dice, board, thumb_width=128, dice_area=DiceArea.named(BOARD_CENTRE))
    frame = np.zeros((720, 1280, 3), np.uint8)
    proc(frame)
    assert dice.region == (164, 84, 380, 380) and dice.resets == 1
    board.corners = tuple((x + 3, y - 2) for x, y in SQUARE_CORNERS)  # registration jitter
    proc(frame)
    assert dice.region == (164, 84, 380, 380) and dice.resets == 1
    board.corners = tuple((x + 200, y) for x, y in SQUARE_CORNERS)  # the board was moved
    proc(frame)
    assert dice.region == (364, 84, 380, 380) and dice.resets == 2
    # without an area the reader keeps the whole view
    plain = Dice()
    TableProcessor(plain, Board(), thumb_width=128)(frame)
    assert plain.region is None


def test_on_the_synthetic_table_the_area_holds_the_thrown_dice() -> None:
    table_mod = pytest.importorskip("vision.synthetic.table")
    pipeline_mod = pytest.importorskip("vision.board.pipeline")
    import cv2

    table = table_mod.SyntheticTable(camera=table_mod.default_camera(1280, 720))
    board = pipeline_mod.BoardPipeline()
    rng = np.random.default_rng(5)
    pose = table_mod.random_pose(rng)
    dice = Dice()
    proc = TableProcessor(dice, board, thumb_width=128, dice_area=DiceArea.named(BOARD_CENTRE))
    frame = table.render({"Ann": 0}, [3, 6], seed=40, pose=pose)
    for _ in range(5):  # the board reader's still-scene gate needs a few still frames
        proc(frame.image)
    assert dice.region is not None
    x, y, w, h = dice.region
    assert w * h < 0.4 * 1280 * 720  # much less than the frame
    for d in frame.truth.dice:
        c = cv2.perspectiveTransform(np.array([[d.centre_mm]], np.float64),
                                     frame.truth.homography)[0, 0]
        c = frame.truth.camera.distort_points(c.reshape(1, 2))[0]
        assert x + 8 <= c[0] <= x + w - 8 and y + 8 <= c[1] <= y + h - 8, (c, dice.region)
        assert math.isfinite(float(c[0]))


def test_a_larger_camera_frame_is_shrunk_for_the_board_but_not_for_the_dice() -> None:
    class SeenBoard(Board):
        def __init__(self) -> None:
            super().__init__()
            self.shapes: list[tuple[int, ...]] = []

        def process(self, frame: np.ndarray, expected: Any = None) -> Obs:
            self.shapes.append(frame.shape)
            return Obs(self.corners)  # corners in the pixels of the frame it was given

    class SeenDice(Dice):
        def __init__(self) -> None:
            super().__init__()
            self.shapes: list[tuple[int, ...]] = []

        def update(self, frame: Any) -> None:
            self.shapes.append(frame.shape)

    board, dice = SeenBoard(), SeenDice()
    proc = TableProcessor(dice, board, thumb_width=128, dice_area=DiceArea.named(BOARD_CENTRE))
    reading = proc(np.zeros((1440, 2560, 3), np.uint8))
    assert board.shapes == [(720, 1280, 3)] and dice.shapes == [(1440, 2560, 3)]
    # the board's corners came back at half size: the dice region is in full-frame pixels
    assert dice.region == (2 * (100 + 70) - 6, 2 * (20 + 70) - 6, 2 * 368 + 12, 2 * 368 + 12)
    # the thumbnail marks are where the board is in the (128 px wide) thumbnail
    assert reading.corners[0] == (round(100 * 2 * 128 / 2560), round(20 * 2 * 128 / 2560))
