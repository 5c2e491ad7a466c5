"""The square-grid topology on small grids: neighbours, paths around walls, straight lines and
line of sight (geometry only, no game's rules)."""

from __future__ import annotations

from companion.core.grid import Grid, wall
from companion.core.topology import Topology


def test_neighbours_orthogonal_and_diagonal() -> None:
    g = Grid.rectangle(3, 3)
    assert g.neighbours((1, 1)) == ((2, 1), (1, 2), (0, 1), (1, 0),
                                    (2, 2), (0, 2), (0, 0), (2, 0))
    assert g.neighbours((0, 0)) == ((1, 0), (0, 1), (1, 1))
    rook = Grid.rectangle(3, 3, diagonal=False)
    assert rook.neighbours((0, 0)) == ((1, 0), (0, 1))
    assert rook.distance((0, 0), (2, 2)) == 4
    assert g.distance((0, 0), (2, 2)) == 2
    assert g.name((2, 1)) == "2,1"
    assert g.places[:4] == ((0, 0), (1, 0), (2, 0), (0, 1))


def test_walls_block_steps_and_paths_go_round() -> None:
    # a wall between columns 0 and 1 on rows 0 and 1: the way round goes through row 2
    walls = [((0, 0), (1, 0)), ((0, 1), (1, 1))]
    g = Grid.rectangle(3, 3, walls=walls, diagonal=False)
    assert not g.step_open((0, 0), (1, 0))
    assert g.distance((0, 0), (1, 0)) == 5
    assert g.path((0, 0), (1, 0)) == ((0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0))
    boxed = Grid.rectangle(2, 1, walls=[((0, 0), (1, 0))])
    assert boxed.distance((0, 0), (1, 0)) is None
    assert boxed.path((0, 0), (1, 0)) is None


def test_a_straight_wall_blocks_the_diagonal_past_its_corner() -> None:
    # the wall runs down between columns 0 and 1 across rows 0-1
    g = Grid.rectangle(2, 2, walls=[((0, 0), (1, 0)), ((0, 1), (1, 1))])
    assert not g.step_open((0, 0), (1, 1))
    assert g.distance((0, 0), (1, 1)) is None
    # a wall ending at the corner leaves one way round it open
    half = Grid.rectangle(2, 2, walls=[((0, 0), (1, 0))])
    assert half.step_open((0, 0), (1, 1))
    # tiles touching only at a corner still connect diagonally
    corner = Grid.from_rows([". ", " ."])
    assert corner.neighbours((0, 0)) == ((1, 1),)


def test_solid_cells_cannot_be_entered_and_missing_ones_are_not_there() -> None:
    g = Grid.from_rows(["...", ".o.", "..."], diagonal=False)
    assert (1, 1) not in g.neighbours((0, 1))
    assert g.distance((0, 1), (2, 1)) == 4
    assert g.path((0, 0), (5, 5)) is None
    assert g.distance((1, 1), (1, 0)) == 1  # leaving an obstacle's square is a step like another


def test_rays_stop_at_coins_and_before_pieces() -> None:
    g = Grid.rectangle(6, 6)
    assert g.ray((0, 0), (1, 1)) == ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5))
    assert g.ray((0, 0), (1, 0), stop_on=[(3, 0)]) == ((1, 0), (2, 0), (3, 0))
    assert g.ray((0, 0), (1, 0), stop_before=[(3, 0)]) == ((1, 0), (2, 0))
    assert g.ray((0, 0), (-1, 0)) == ()
    walled = Grid.rectangle(6, 1, walls=[((2, 0), (3, 0))])
    assert walled.ray((0, 0), (1, 0)) == ((1, 0), (2, 0))


def test_straight_paths() -> None:
    g = Grid.rectangle(5, 5)
    assert g.straight_path((0, 4), (3, 1)) == ((0, 4), (1, 3), (2, 2), (3, 1))
    assert g.straight_path((0, 0), (0, 3)) == ((0, 0), (0, 1), (0, 2), (0, 3))
    assert g.straight_path((0, 0), (1, 2)) is None  # not in line
    assert g.straight_path((2, 2), (2, 2)) == ((2, 2),)
    gap = Grid.from_rows([". .."])
    assert gap.straight_path((0, 0), (3, 0)) is None  # no jumping a missing square
    rook = Grid.rectangle(3, 3, diagonal=False)
    assert rook.straight_path((0, 0), (2, 2)) is None


def test_line_of_sight() -> None:
    g = Grid.from_rows([".....",
                        "..#..",
                        ".o...",
                        "....."])
    assert g.in_sight((0, 0), (4, 0))
    assert g.in_sight((0, 0), (0, 0))
    assert not g.in_sight((1, 1), (3, 1))  # a wall square in between
    assert g.in_sight((1, 1), (2, 1))  # the wall square itself is seen
    assert g.in_sight((0, 2), (2, 2))  # over an obstacle
    assert not g.in_sight((0, 0), (4, 2))  # the line crosses the wall square (2, 1)
    assert g.in_sight((0, 1), (4, 3))  # passes below it
    walled = Grid.rectangle(4, 1, walls=[((1, 0), (2, 0))])
    assert not walled.in_sight((0, 0), (3, 0))
    gap = Grid.from_rows([". ."])
    assert not gap.in_sight((0, 0), (2, 0))  # across a missing square


def test_sight_through_a_grid_corner() -> None:
    open_grid = Grid.rectangle(3, 3)
    assert open_grid.in_sight((0, 0), (2, 2))
    crossed = Grid.rectangle(3, 3, walls=[((0, 0), (1, 0)), ((0, 1), (1, 1))])
    assert not crossed.in_sight((0, 0), (2, 2))  # the wall runs straight across the corner
    assert not crossed.in_sight((2, 2), (0, 0))
    one_way = Grid.rectangle(3, 3, walls=[((0, 0), (1, 0))])
    assert one_way.in_sight((0, 0), (2, 2))


def test_a_grid_meets_the_protocol() -> None:
    g: Topology[tuple[int, int]] = Grid.rectangle(2, 2)
    assert g.distance((0, 0), (1, 1)) == 1
    assert wall((1, 0), (0, 0)) == wall((0, 0), (1, 0))
