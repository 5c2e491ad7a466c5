import numpy as np
import pytest

from vision.board.geometry import (
    DEFAULT_SPEC,
    IN_JAIL,
    JUST_VISITING,
    cell_at,
    label_map,
    slot_positions,
    square_centres,
    square_polygons,
)


def _area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def test_cells_tile_the_border_exactly() -> None:
    polys = square_polygons()
    assert len(polys) == 41
    s, c = DEFAULT_SPEC.side_mm, DEFAULT_SPEC.corner_mm
    border = s * s - (s - 2 * c) ** 2
    assert sum(_area(p) for p in polys) == pytest.approx(border, rel=1e-9)


def test_standard_numbering() -> None:
    s = DEFAULT_SPEC.side_mm
    assert cell_at(s - 5, s - 5) == 0  # GO bottom-right
    assert cell_at(5, 5) == 20  # Free Parking top-left
    assert cell_at(s - 5, 5) == 30  # Go To Jail top-right
    assert cell_at(s - 70, s - 5) == 1  # first square left of GO
    assert cell_at(s - 5, s - 70) == 39  # Boardwalk above GO
    assert cell_at(s / 2, s / 2) is None
    assert cell_at(-3, 10) is None


def test_jail_cell_is_distinct_from_just_visiting() -> None:
    s, c = DEFAULT_SPEC.side_mm, DEFAULT_SPEC.corner_mm
    assert cell_at(c - 5, s - c + 5) == IN_JAIL
    assert cell_at(5, s - 5) == JUST_VISITING
    assert cell_at(5, s - c + 5) == JUST_VISITING


def test_centres_and_slots_lie_in_their_cells() -> None:
    for i, (x, y) in enumerate(square_centres()):
        assert cell_at(x, y) == i
    for i in range(41):
        for p in slot_positions(i, 4):
            assert cell_at(*p) == i


def test_label_map_matches_polygons() -> None:
    labels = label_map(DEFAULT_SPEC, 1.0)
    assert labels.shape == (508, 508)
    assert set(np.unique(labels)) == set(range(-1, 41))
