"""The camera's board layout and the rules count one ring: the board data's."""

from __future__ import annotations

from companion.games.monopoly import presenter as monopoly_presenter
from companion.games.monopoly.board import load_board
from vision.board import geometry


def test_vision_lays_out_the_rules_ring() -> None:
    board = load_board()
    ring = board.topology
    assert geometry.RING is ring
    assert geometry.NUM_SQUARES == ring.size == len(board.squares)
    assert geometry.NUM_CELLS == len(ring.places)
    assert (geometry.GO, geometry.JUST_VISITING, geometry.FREE_PARKING,
            geometry.GO_TO_JAIL) == ring.corners
    assert geometry.JUST_VISITING == board.jail
    assert geometry.GO_TO_JAIL == board.go_to_jail
    assert (geometry.IN_JAIL,) == ring.off_ring == (monopoly_presenter.JAIL_CELL,)
    assert geometry.SIDE_SQUARES == ring.side_length - 1


def test_printed_names_are_the_rules_names_but_the_jail_corner() -> None:
    board = load_board()
    for i, square in enumerate(board.squares):
        if i != board.jail:
            assert geometry.cell_name(i) == square.name
    assert geometry.cell_name(board.jail) == "Jail / Just Visiting"
    assert geometry.cell_name(geometry.IN_JAIL) == board.topology.name(geometry.IN_JAIL)


def test_the_renderer_groups_agree_with_the_board_data() -> None:
    board = load_board()
    for group, members in geometry.COLOUR_GROUPS.items():
        assert board.groups[group] == members
    assert geometry.RAILROADS == board.groups["railroad"]
    assert geometry.UTILITIES == board.groups["utility"]
    kinds = {"chance": geometry.CHANCE, "community_chest": geometry.COMMUNITY_CHEST,
             "tax": geometry.TAXES}
    for kind, cells in kinds.items():
        assert cells == tuple(s.index for s in board.squares if s.kind == kind)


def test_corner_squares_follow_the_ring() -> None:
    ring = load_board().topology
    for i in range(ring.size):
        corner = geometry.inward_normal(i) in {(-0.7071, -0.7071), (0.7071, -0.7071),
                                               (0.7071, 0.7071), (-0.7071, 0.7071)}
        assert corner is ring.is_corner(i)
