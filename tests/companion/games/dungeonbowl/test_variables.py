"""Dungeon variables, one test per numbered rule (DB.39-DB.56, docs/dungeonbowl.md): ball
kinds, multiball and traps."""

from __future__ import annotations

from dataclasses import replace

from companion.games.dungeonbowl.state import Ball, BowlState

from .table import GAME, act, model, pending, position, refused, said


def ball_of(state: BowlState, ball_id: str = "b1") -> Ball:
    return next(b for b in state.balls if b.id == ball_id)


# -- ball kinds ------------------------------------------------------------------------------
def test_db39_ball_kind_rolled_when_found() -> None:
    state = position("set model Orcs o1 8,6")
    s1, _ = act(state, "Orcs take o1 pickup")
    assert pending(s1).step == "ball_kind"
    for roll, kind in ((1, "normal"), (2, "normal"), (3, "spiked"), (4, "enchanted"),
                       (5, "living"), (6, "iron")):
        after, _ = act(s1, f"Orcs roll {roll}")
        assert ball_of(after).kind == kind
    agreed = position("set model Orcs o1 8,6", ball="iron")
    agreed, _ = act(agreed, "Orcs take o1 pickup")
    assert not agreed.pending and ball_of(agreed).kind == "iron"


def test_db40_spiked_ball_catch_needs_an_ag_roll_first() -> None:
    state = position("set model Orcs o1 2,2\nset model Orcs o2 2,4\nset model Elves e1 4,4\n"
                     "set ball b1 holder=o1 kind=spiked")
    s1, events = act(state, "Orcs pass o1 2,4")
    assert "one range band longer" in said(events)
    own, _ = act(s1, "Orcs take o2 catch from=o1")
    assert pending(own).step == "spiked" and pending(own).modifiers == (("thrown by a team-mate",
                                                                          1),)
    failed, _ = act(own, "Orcs roll 1")
    assert [p.step for p in failed.pending] == ["armour", "catch"]
    caught, _ = act(failed, "Orcs answer held", "Orcs answer yes")
    assert ball_of(caught).holder == "o2"
    s2 = replace(s1, balls=(replace(ball_of(s1), at=(4, 4)),))
    foe, _ = act(s2, "Orcs take e1 intercept from=o1")
    assert pending(foe).modifiers == (("thrown by an opponent", -1),)


def test_db41_spiked_ball_carrier_adds_to_the_knock_down() -> None:
    state = position("set model Orcs o1 2,2\nset model Elves e1 3,2\n"
                     "set ball b1 holder=o1 kind=spiked")
    s1, _ = act(state, "Orcs down e1 by=o1")
    assert any("spiked ball: +1" in r for r in pending(s1).results)


def test_db42_enchanted_ball_helps_the_catch_and_may_teleport() -> None:
    state = position("set model Orcs o1 8,6\nset ball b1 8,6 kind=enchanted")
    s1, events = act(state, "Orcs take o1 pickup")
    assert "+1 to that pick-up" in said(events) and pending(s1).step == "enchanted"
    away, _ = act(s1, "Orcs roll 1")
    assert pending(away).step == "teleport" and pending(away).dice == ("d6",)
    landed, _ = act(away, "Orcs roll 2")
    assert model(landed, "o1").at == (2, 6) and ball_of(landed).holder == "o1"
    stays, _ = act(s1, "Orcs roll 2")
    assert model(stays, "o1").at == (8, 6)


def test_db43_living_ball_runs_at_the_end_of_a_turn() -> None:
    state = position("set ball b1 8,4 kind=living")
    s1, _ = act(state, "Orcs end")
    assert pending(s1).step == "living" and pending(s1).dice == ("d6", "scatter")
    ran, _ = act(s1, "Orcs roll 6 up")
    assert ball_of(ran).at == (8, 1)  # six squares asked; the wall stops it after three
    blocked = position("set ball b1 8,4 kind=living\nset model Elves e1 8,2")
    blocked, _ = act(blocked, "Orcs end", "Orcs roll 6 up")
    assert ball_of(blocked).at == (8, 3)  # it stops before a model (ruling B-14)
    held = position("set model Orcs o1 8,4\nset ball b1 holder=o1 kind=living")
    held, _ = act(held, "Orcs end")
    assert not held.pending  # a held ball does not run


def test_db44_iron_ball() -> None:
    state = position("set model Orcs o1 2,2\nset model Orcs o2 2,4\n"
                     "set ball b1 holder=o1 kind=iron")
    refused(state, "Orcs pass o1 2,4", "cannot be thrown")
    tired = replace(state, models=tuple(replace(m, spent=6) for m in state.models))
    refused(tired, "Orcs step o1 3,2", "no Go For It")
    weak = position("set model Orcs o1 8,6 st=1\nset ball b1 8,6 kind=iron")
    refused(weak, "Orcs take o1 pickup", "ST 1")


def test_db45_a_player_holds_two_balls_three_with_extra_arms() -> None:
    state = position("set model Orcs o1 8,6\nset ball b1 holder=o1 kind=normal\n"
                     "set ball b2 holder=o1 kind=normal\nset ball b3 8,6 kind=normal",
                     balls=3)
    s1, events = act(state, "Orcs take o1 pickup")
    assert len(s1.balls_held("o1")) == 2 and "cannot hold 3 balls" in said(events)
    arms = position("set model Orcs o1 8,6 skills=extra_arms\nset ball b1 holder=o1 kind=normal"
                    "\nset ball b2 holder=o1 kind=normal\nset ball b3 8,6 kind=normal",
                    balls=3)
    arms, _ = act(arms, "Orcs take o1 pickup")
    assert len(arms.balls_held("o1")) == 3


def test_db46_standard_multiball_plays_on_until_every_ball_scores() -> None:
    state = position("set model Orcs o1 9,3\nset ball b1 holder=o1 kind=normal\n"
                     "set ball b2 5,5 kind=normal", balls=2)
    s1, events = act(state, "Orcs score o1")
    assert s1.outcome is None and s1.players[0].score == 1 and s1.current == 1
    assert ball_of(s1).gone
    s1 = replace(s1, current=0, models=tuple(replace(m, spent=0) for m in s1.models))
    s1 = replace(s1, balls=(ball_of(s1), replace(ball_of(s1, "b2"), at=None, holder="o1")))
    end, _ = act(s1, "Orcs score o1")
    assert end.outcome is not None and end.outcome.winner == "Orcs"
    short = position("set model Orcs o1 9,3\nset ball b1 holder=o1 kind=normal\n"
                     "set ball b2 5,5 kind=normal", balls=2, multiball="first_score")
    short, _ = act(short, "Orcs score o1")
    assert short.outcome is not None


def test_db47_illusionary_multiball() -> None:
    state = position("set model Orcs o1 9,3\nset ball b1 holder=o1 kind=normal\n"
                     "set ball b2 5,5 kind=normal", balls=2, multiball="illusionary")
    s1, _ = act(state, "Orcs score o1")
    assert pending(s1).step == "illusion"
    fake, events = act(s1, "Orcs roll 4")  # two left: real on 1-3
    assert fake.players[0].score == 0 and fake.outcome is None and "illusion" in said(events)
    real, _ = act(s1, "Orcs roll 3")
    assert real.outcome is not None and real.outcome.winner == "Orcs"


# -- traps -----------------------------------------------------------------------------------
def test_db48_coaches_take_turns_placing_face_down_traps() -> None:
    state = position(play=False, trap_count=2)
    assert GAME.deciders(state) == (0,)
    s1, _ = act(state, "Orcs trap 5,4")
    assert GAME.deciders(s1) == (1,)
    refused(s1, "Elves trap 5,4", "already holds a trap")
    refused(s1, "Elves trap 1,1", "not a floor square outside the end zones")
    s2, _ = act(s1, "Elves trap 5,5")
    assert all(t.kind == "" for t in s2.traps) and len(s2.traps) == 3
    refused(s2, "Orcs trap 5,6", "no trap tokens")


def test_db49_the_first_model_on_a_trap_reveals_it() -> None:
    state = position("set model Orcs o1 3,3")
    s1, _ = act(state, "Orcs step o1 4,3")
    assert pending(s1).step == "trap" and "teleporter" in pending(s1).answers


def test_db50_pit_fall_climb_and_balls_scatter_over() -> None:
    state = position("set model Orcs o1 3,3\nset model Orcs o2 5,4")
    s1, _ = act(state, "Orcs step o1 4,3", "Orcs answer pit")
    assert model(s1, "o1").status == "in_pit" and pending(s1).step == "armour"
    s1, _ = act(s1, "Orcs answer held")
    refused(s1, "Orcs climb o1", "whole movement")
    s1, _ = act(s1, "Orcs end", "Elves end")
    refused(s1, "Orcs climb o1 helpers=2", "team-mate")
    c, _ = act(s1, "Orcs climb o1 helpers=1")
    assert pending(c).modifiers == (("helpers", 1),)
    out, _ = act(c, "Orcs roll 3")
    assert model(out, "o1").status == "standing"
    stay, _ = act(c, "Orcs roll 2")
    assert model(stay, "o1").status == "in_pit"


def test_db51_spiked_pit_adds_three_and_one() -> None:
    state = position("set model Orcs o1 3,3")
    s1, _ = act(state, "Orcs step o1 4,3", "Orcs answer spiked_pit")
    assert pending(s1).modifiers == (("armour", 3), ("injury", 1))


def test_db52_a_pit_on_a_platform_is_a_hole_to_the_square_below() -> None:
    """The map's ``hole X,Y X,Y`` line: a pit trap there drops the model to the lower square by
    the falling rules (B-28); a spiked one adds its +3 and +1."""
    state = position("set model Orcs o1 6,6\nset trap 7,6\nset ball b1 5,5 kind=normal")
    s1, events = act(state, "Orcs step o1 7,6", "Orcs answer spiked_pit")
    m = model(s1, "o1")
    assert m.at == (8, 6) and m.status == "prone" and "drops through the hole" in said(events)
    assert pending(s1).modifiers == (("armour", 3), ("injury", 1))
    taken = position("set model Orcs o1 6,6\nset model Elves e1 8,6\nset trap 7,6")
    taken, events = act(taken, "Orcs step o1 7,6", "Orcs answer pit")
    assert model(taken, "o1").status == "in_pit" and model(taken, "o1").at == (7, 6)
    assert "8,6, is taken by e1: it works as a pit (B-28)" in said(events)
    flat = position("set model Orcs o1 6,5\nset trap 6,6")
    flat, _ = act(flat, "Orcs step o1 6,6", "Orcs answer pit")
    assert model(flat, "o1").status == "in_pit"  # no hole there: a pit


def test_db53_exploding_trap_knocks_everyone_around_and_goes() -> None:
    state = position("set model Orcs o1 3,3\nset model Elves e1 5,4\nset model Elves e2 7,4")
    s1, _ = act(state, "Orcs step o1 4,3", "Orcs answer exploding")
    assert model(s1, "o1").status == "prone" and model(s1, "e1").status == "prone"
    assert model(s1, "e2").status == "standing"
    assert s1.trap_at((4, 3)) is None


def test_db54_gas_stuns_but_the_strong_may_shrug_it_off() -> None:
    state = position("set model Orcs o1 3,3 st=5\nset model Elves e1 5,4")
    s1, _ = act(state, "Orcs step o1 4,3", "Orcs answer gas")
    assert model(s1, "e1").status == "stunned" and pending(s1).step == "gas"
    ok, _ = act(s1, "Orcs roll 3")
    assert model(ok, "o1").status == "standing" and ok.trap_at((4, 3)) is None
    hit, _ = act(s1, "Orcs roll 4")
    assert model(hit, "o1").status == "stunned"


def test_db55_teleporter_trap_stays_and_sends_to_a_numbered_teleporter() -> None:
    state = position("set model Orcs o1 3,3")
    s1, _ = act(state, "Orcs step o1 4,3", "Orcs answer teleporter")
    assert pending(s1).step == "teleport"
    s2, _ = act(s1, "Orcs roll 5")  # only two teleporters: roll again
    assert pending(s2).step == "teleport"
    s3, _ = act(s2, "Orcs roll 1")
    assert model(s3, "o1").at == (2, 5) and s3.trap_at((4, 3)) is not None


def test_db56_trampoline_flings_and_always_fails() -> None:
    state = position("set model Orcs o1 3,3")
    s1, _ = act(state, "Orcs step o1 4,3", "Orcs answer trampoline")
    assert pending(s1).dice == ("d6", "scatter")
    s2, events = act(s1, "Orcs roll 3 right")  # D3 = 2 squares right: 6,3
    assert model(s2, "o1").at == (6, 3) and model(s2, "o1").status == "prone"
    acro = position("set model Orcs o1 3,3 skills=acrobatics")
    acro, _ = act(acro, "Orcs step o1 4,3", "Orcs answer trampoline", "Orcs roll 1 down")
    assert pending(acro).step == "acrobatics" and pending(acro).modifiers == ()
    up, _ = act(acro, "Orcs roll 5")
    assert model(up, "o1").status == "standing" and model(up, "o1").at == (4, 4)
