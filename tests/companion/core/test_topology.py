"""The board topologies: the Monopoly ring from the board data, and one ring shared by the
rules, the pawn check and the camera's board layout."""

from __future__ import annotations

import pytest

from companion.core.topology import Ring, Topology, load_ring, ring_from_board, shortest_path
from companion.games.monopoly.board import load_board

RING = load_ring()


def test_the_standard_ring_comes_from_the_board_data() -> None:
    board = load_board()
    assert board.topology is RING
    assert RING.size == len(board.squares) == 40
    assert RING.corners == (0, 10, 20, 30)
    assert RING.side_length == 10
    assert [RING.name(i) for i in range(40)] == [s.name for s in board.squares]
    assert RING.off_ring == (40,)
    assert RING.name(40) == "In Jail"
    assert RING.places == tuple(range(41))


@pytest.mark.parametrize(("a", "b", "steps"), [
    (0, 0, 0), (0, 1, 1), (1, 0, 1), (5, 25, 20), (25, 5, 20), (39, 1, 2), (1, 39, 2),
    (35, 3, 8), (3, 35, 8), (10, 31, 19), (31, 10, 19),
])
def test_ring_distance_counts_the_shorter_way_round(a: int, b: int, steps: int) -> None:
    assert RING.distance(a, b) == steps
    assert RING.short_way(a, b) == steps


def test_forward_and_signed_steps_wrap_past_go() -> None:
    assert RING.forward(38, 2) == 4
    assert RING.forward(2, 38) == 36
    assert RING.forward(7, 7) == 0
    assert RING.signed(38, 2) == 4
    assert RING.signed(2, 38) == -4
    assert RING.signed(0, 20) == 20  # a tie goes forward
    assert RING.signed(20, 0) == 20
    assert RING.step(39, 3) == 2
    assert RING.step(1, -3) == 38


def test_paths_wrap_past_go_both_ways() -> None:
    assert RING.path(37, 2) == (37, 38, 39, 0, 1, 2)
    assert RING.path(2, 37) == (2, 1, 0, 39, 38, 37)
    assert RING.path(12, 12) == (12,)
    assert RING.path(5, 25) == tuple(range(5, 26))  # forward on a tie
    assert RING.ahead(38)[:4] == (39, 0, 1, 2)
    assert RING.ahead(38)[-1] == 38 and len(RING.ahead(38)) == 40


def test_neighbours_on_the_ring_and_none_in_the_jail_cell() -> None:
    assert RING.neighbours(0) == (1, 39)
    assert RING.neighbours(39) == (0, 38)
    assert RING.neighbours(40) == ()


def test_the_jail_cell_is_isolated() -> None:
    assert RING.distance(40, 10) is None
    assert RING.distance(40, 40) is None
    assert RING.path(10, 40) is None
    assert not RING.in_sight(40, 10)
    assert not RING.in_sight(40, 40)
    assert RING.sides(40) == frozenset()


def test_sides_and_corners() -> None:
    assert RING.sides(0) == {0, 3}  # GO joins the last side and the first
    assert RING.sides(5) == {0}
    assert RING.sides(10) == {0, 1}
    assert RING.sides(39) == {3}
    assert [RING.is_corner(i) for i in (0, 9, 10, 11, 30)] == [True, False, True, False, True]
    assert RING.locate(0) == (0, 0)
    assert RING.locate(10) == (1, 0)
    assert RING.locate(39) == (3, 9)


@pytest.mark.parametrize(("a", "b", "seen"), [
    (1, 9, True),  # one side
    (1, 10, True),  # the corner ending it
    (9, 11, False),  # either side of the Jail corner, on different sides
    (5, 15, False),
    (0, 35, True),  # GO lies on the last side too
    (0, 20, False),  # opposite corners share no side
    (10, 20, True),  # two corners of one side
    (25, 25, True),
])
def test_line_of_sight_is_a_common_side(a: int, b: int, seen: bool) -> None:
    assert RING.in_sight(a, b) is seen
    assert RING.in_sight(b, a) is seen


def test_a_ring_meets_the_protocol_and_breadth_first_agrees() -> None:
    ring: Topology[int] = RING
    for a, b in ((3, 17), (38, 4), (30, 10)):
        way = shortest_path(ring, a, b)
        assert way is not None and len(way) - 1 == ring.distance(a, b)
        assert ring.path(a, b) == way


def test_irregular_rings_and_bad_data() -> None:
    small = ring_from_board({"squares": [{"name": n} for n in "ABCDEF"], "corners": [0, 2]})
    assert small.sides(0) == {0, 1} and small.sides(2) == {0, 1} and small.sides(4) == {1}
    assert small.in_sight(1, 4) is False
    assert small.off_ring == ()
    with pytest.raises(ValueError):
        small.side_length  # noqa: B018
    assert Ring(("A", "B", "C", "D"), (1, 3)).locate(0) == (1, 1)  # after the last corner
    with pytest.raises(ValueError):
        Ring(("A", "B"), (1, 0))
    with pytest.raises(ValueError):
        Ring(("A",), (0,))
