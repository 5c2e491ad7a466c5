"""Groups in the apocalypse (MZ.37-MZ.42; rulings Z-22-Z-24)."""

from __future__ import annotations

from zombie_table import Z

from companion.games.monopoly.actions import EndTurn, Roll
from companion.games.monopoly.monopozombie import ChooseMove, Steer
from companion.games.monopoly.monopozombie.layer import table
from companion.games.monopoly.monopozombie.model import (
    Allocate,
    FormGroup,
    GroupMove,
    Impasse,
    LeaveGroup,
)

JAIL, FREE_PARKING, BOARDWALK = 10, 20, 39


def apocalypse() -> Z:
    """Six seats: Bob and Eve zombies out of the way on Free Parking; Ann, Cy, Dee, Fay
    humans."""
    z = Z(players=6).veterans().stage("apocalypse")
    z.put("Bob", zombie=True, position=FREE_PARKING).put("Eve", zombie=True, position=FREE_PARKING)
    for p in z.state.players:
        z.put(p.name, cash=0)
    return z


def test_mz37_a_group_forms_only_on_a_shared_square() -> None:
    z = apocalypse().put("Cy", position=13).put("Dee", position=5).put("Fay", position=5)
    z.put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 1, 2, 6)
    z.act(Steer(0, (2, 1), "forward"))  # Ann reaches States Avenue (13), where Cy is
    assert FormGroup(0, (2,)) in z.rules.legal_actions(z.state)
    z.refused(FormGroup(0, (2, 3)), "Dee is on Reading Railroad, not on States Avenue: a "
                                    "group forms only on a shared square")
    z.act(FormGroup(0, (2,)))
    group = table(z.state).group_of(0)
    assert group is not None and group.members == (0, 2) and group.anchor == 0


def make_group() -> Z:
    z = apocalypse().put("Cy", position=13).put("Dee", position=5).put("Fay", position=5)
    z.put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 1, 2, 6)
    z.act(Steer(0, (2, 1), "forward"))
    z.act(FormGroup(0, (2,)))
    return z


def test_mz38_the_group_moves_on_the_last_arrivals_turn() -> None:
    z = make_group()
    z.act(EndTurn(0))
    # Bob (zombie) next; Cy's own seat is skipped while she travels with Ann
    z.put("Bob", position=FREE_PARKING)
    z.roll("Bob", 1, 2)
    z.act(Steer(1, (), "forward"))
    z.act(EndTurn(1))
    assert z.state.current == 3  # Dee: Cy (seat 2) skipped


def test_mz39_pooled_dice_three_per_member_shared_out() -> None:
    z = make_group().turn("Ann")
    spec = z.rules.roll_spec(z.state)
    assert spec is not None and spec.sides == (6,) * 6
    z.roll("Ann", 1, 2, 3, 4, 5, 6)
    head = z.state.pending[0]
    assert isinstance(head, GroupMove) and head.own_dice(2) == (4, 5, 6)
    z.act(Allocate(0, ((0, (6, 1), "forward"), (2, (5, 2), "forward"))))  # both to 20
    assert z.pos("Ann") == z.pos("Cy") == FREE_PARKING
    assert table(z.state).group_of(0).turns == 1  # type: ignore[union-attr]


def test_mz38_arriving_together_two_humans_meet_one_zombie_safely() -> None:
    z = make_group().turn("Ann").put("Bob", position=16)
    z.roll("Ann", 1, 2, 3, 4, 5, 6)
    z.act(Allocate(0, ((0, (1, 2), "forward"), (2, (6, 3), "back"))))
    assert z.pos("Ann") == 16 and z.pos("Cy") == 4
    assert z.p("Ann").zombie  # alone with the zombie: converted; Cy went elsewhere
    z2 = make_group().turn("Ann").put("Bob", position=16)
    z2.roll("Ann", 1, 2, 1, 2, 5, 6)
    z2.refused(Allocate(0, ((0, (1, 2), "forward"), (2, (1, 1), "forward"))),
               "share out only the dice rolled (1 2 1 2 5 6), each once")
    z2.act(Allocate(0, ((0, (1, 2), "forward"), (2, (2, 1), "forward"))))
    assert z2.pos("Ann") == z2.pos("Cy") == 16
    assert not z2.p("Ann").zombie and not z2.p("Cy").zombie  # two arrive as one: 2 > 1


def test_mz40_three_group_turns_then_three_turns_apart() -> None:
    z = make_group()
    for _ in range(3):
        z.turn("Ann")
        z.roll("Ann", 1, 2, 3, 4, 5, 6)
        z.act(Allocate(0, ((0, (4, 1), "forward"), (2, (3, 2), "forward"))))
    assert table(z.state).groups == ()
    assert z.p("Ann").apart == 3 and z.p("Cy").apart == 3
    z.turn("Ann", rolled=True)
    z.refused(FormGroup(0, (2,)), "Ann must take 3 more turn(s) alone first")


def test_mz41_impasse_each_member_uses_their_own_dice() -> None:
    z = make_group().turn("Ann")
    z.roll("Ann", 2, 2, 2, 2, 2, 1)
    z.act(Impasse(2))
    head = z.state.pending[0]
    assert isinstance(head, ChooseMove) and head.player == 0 and head.dice == (2, 2, 2)
    z.act(Steer(0, (2, 2), "forward"))
    z.refused(Steer(2, (1, 1), "forward"), "were not all rolled")  # Cy rolled 2 2 1
    z.act(Steer(2, (2, 1), "forward"))  # the 1 is Cy's to use (the rule text's example)
    assert z.pos("Ann") == 17 and z.pos("Cy") == 16
    assert table(z.state).groups == ()  # apart now: the group is gone
    assert Roll(0, ()) not in z.rules.legal_actions(z.state)  # no extra roll in a group


def test_z22_leaving_a_group_and_joining_on_another_square_refused() -> None:
    z = make_group()
    z.turn("Ann", rolled=True)
    z.act(LeaveGroup(2))
    assert table(z.state).groups == ()
    z.put("Cy", position=14)
    z.refused(FormGroup(0, (2,)), "Cy is on Virginia Avenue, not on States Avenue")


def test_mz42_homeless_joining_a_group_regain_3d6() -> None:
    z = apocalypse().put("Cy", position=13, homeless=True, homeless_at_apocalypse=True)
    z.put("Dee", position=5).put("Fay", position=5).put("Ann", position=13).turn("Ann", True)
    z.act(FormGroup(0, (2,)))
    cy = z.p("Cy")
    assert not cy.homeless and cy.homeless_at_apocalypse  # MZ.44 stays open to her


def test_z22_no_agreement_asked_a_member_who_does_not_agree_leaves_at_once() -> None:
    z = apocalypse().put("Cy", position=13).put("Dee", position=5).put("Fay", position=5)
    z.put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 1, 2, 6)
    z.act(Steer(0, (2, 1), "forward"))
    z.act(FormGroup(0, (2,)))  # formed at once: no question is put to Cy
    assert not z.state.pending and table(z.state).group_of(2) is not None
    assert LeaveGroup(2) in z.rules.legal_actions(z.state)  # Cy's own way out, right now
    z.act(LeaveGroup(2))
    assert table(z.state).groups == ()
    z.act(EndTurn(0))
    z.turn("Cy")  # her own seat's turn: an individual roll
    assert z.rules.roll_spec(z.state).sides == (6, 6, 6)  # type: ignore[union-attr]
