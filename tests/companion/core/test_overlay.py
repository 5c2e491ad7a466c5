"""A ring with places in its gaps (Dungeonopoly's demiplanes): distances, walks and sight."""

from __future__ import annotations

from companion.core.overlay import Gap, RingOverlay
from companion.core.topology import Topology, load_ring

RING = load_ring()


def test_without_gaps_it_is_the_ring() -> None:
    plain = RingOverlay(RING, ())
    for a, b in ((0, 0), (3, 17), (38, 2), (5, 25)):
        assert plain.distance(a, b) == RING.distance(a, b)
        assert plain.path(a, b) == RING.path(a, b)
        assert plain.signed(a, b) == RING.signed(a, b)
    assert plain.places == RING.places


def test_a_gap_place_costs_a_step_on_the_way_past_it() -> None:
    world = RingOverlay(RING, {4})
    assert world.distance(3, 6) == 4
    assert world.distance(6, 3) == 4
    assert world.distance(3, Gap(4)) == 2
    assert world.distance(Gap(4), 5) == 1
    assert world.distance(10, 20) == 10  # not past it
    assert world.path(3, 6) == (3, 4, Gap(4), 5, 6)
    assert world.path(6, 3) == (6, 5, Gap(4), 4, 3)
    assert world.neighbours(Gap(4)) == (5, 4)
    assert world.neighbours(4) == (Gap(4), 3)
    assert world.step(39, 5) == 4
    assert world.step(4, 1) == Gap(4)
    assert len(world.order) == 41
    assert world.name(Gap(4)) == "between Income Tax and Reading Railroad"


def test_the_ring_grows_the_short_way_round() -> None:
    world = RingOverlay(RING, {0, 1, 2})
    # 0 -> 20 is 23 places forward (three gaps) and 20 back: the way back is shorter now
    assert world.distance(0, 20) == 20
    assert world.signed(0, 20) == -20
    assert world.signed(20, 0) == 20
    wrap = RingOverlay(RING, {39})
    assert wrap.path(38, 1) == (38, 39, Gap(39), 0, 1)


def test_a_gap_outside_the_overlay_and_the_jail_cell_are_nowhere() -> None:
    world = RingOverlay(RING, {4})
    assert not world.contains(Gap(7))
    assert world.distance(3, Gap(7)) is None
    assert world.path(Gap(7), 3) is None
    assert not world.in_sight(Gap(7), 7)
    assert world.distance(40, 10) is None
    assert world.neighbours(40) == ()
    assert world.places[-1] == 40


def test_a_gap_place_lies_on_the_side_its_neighbours_share() -> None:
    world = RingOverlay(RING, {4, 10, 39})
    assert world.sides(Gap(4)) == {0}
    assert world.sides(Gap(10)) == {1}  # after the Jail corner: the side it begins
    assert world.sides(Gap(39)) == {3}  # just before GO
    assert world.in_sight(Gap(10), 15)
    assert not world.in_sight(Gap(10), 5)
    assert world.in_sight(Gap(39), 0)
    assert world.in_sight(Gap(39), Gap(39))


def test_an_overlay_meets_the_protocol() -> None:
    world: Topology[int | Gap] = RingOverlay(RING, {4})
    assert world.distance(4, 5) == 2
