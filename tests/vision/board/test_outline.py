"""Marker-less fallback: the board from its outline (synthetic scans and the real photos)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board.evaluate import REALBOARD_CORNERS, shared_data_dir
from vision.board.outline import find_board_outline
from vision.synthetic.table import PX_PER_MM, TEXTURE_MARGIN_MM, board_texture


def _scan() -> np.ndarray:
    """Our drawn board cropped to its edges, like a flat scan filling the frame."""
    tex = board_texture()
    m = int(TEXTURE_MARGIN_MM * PX_PER_MM)
    n = int(508 * PX_PER_MM)
    return np.ascontiguousarray(cv2.resize(tex[m:m + n, m:m + n], (600, 600)))


def test_board_filling_the_frame_is_found_by_its_inner_square() -> None:
    found = find_board_outline(_scan())
    assert found is not None
    assert np.abs(found.corners - [[0, 0], [599, 0], [599, 599], [0, 599]]).max() < 1e-6


def test_square_frame_without_a_board_is_not_taken_for_one() -> None:
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.integers(0, 255, (600, 600, 3), dtype=np.uint8), (0, 0), 3)
    found = find_board_outline(noise)
    assert found is None or np.abs(found.corners - [[0, 0], [599, 0], [599, 599],
                                                    [0, 599]]).max() > 5


def test_scan_on_a_table_is_found_by_its_outline() -> None:
    table = np.full((720, 1280, 3), (95, 130, 165), np.uint8)
    table[60:660, 340:940] = _scan()
    found = find_board_outline(table)
    assert found is not None
    want = np.array([[340, 60], [939, 60], [939, 659], [340, 659]], np.float64)
    assert np.linalg.norm(found.corners - want, axis=1).mean() < 10.0  # a few px, as on photos


@pytest.mark.parametrize("name", ["Easy_1_0.jpg", "Medium_1_0.jpg", "Hard_1_0.jpg",
                                  "board.jpg"])
def test_real_photos(name: str) -> None:
    path = Path(shared_data_dir()) / "realboard" / name
    if not path.is_file():
        pytest.skip(f"real photo {name} not found under {path.parent}")
    found = find_board_outline(cv2.imread(str(path)))
    assert found is not None
    err = np.linalg.norm(found.corners - np.array(REALBOARD_CORNERS[name]), axis=1)
    assert err.mean() < 15.0
