"""Dungeon basics and features, one test per numbered rule (DB.1-DB.38, docs/dungeonbowl.md)."""

from __future__ import annotations

from dataclasses import replace

from companion.core.registry import find_game
from companion.games.dungeonbowl.dice import teleporter_die
from companion.transcript import header_lines, replay

from .table import GAME, act, model, pending, position, refused, said


# -- basics ----------------------------------------------------------------------------------
def test_db1_agreed_variables_are_saved_with_the_game() -> None:
    state = GAME.new_game(["Orcs", "Elves"], {"dungeon": "every_feature", "balls": 3,
                                              "multiball": "illusionary", "traps": False})
    lines = header_lines(find_game("dungeonbowl"), state)
    assert "option dungeon=every_feature" in lines and "option balls=3" in lines
    assert "option traps=false" in lines
    again = replay("\n".join(lines)).state
    assert again.options == state.options and again.traps == ()


def test_db2_each_team_sets_up_in_its_own_end_zone() -> None:
    state = position(play=False)
    state, _ = act(state, "Orcs add o1 1,1")
    refused(state, "Orcs add o2 9,1", "not in Orcs's end zone")
    refused(state, "Elves add e1 5,5", "not in Elves's end zone")


def test_db3_a_map_needs_end_zones() -> None:
    import pytest

    from companion.games.dungeonbowl.dungeon import MapError, parse_text

    with pytest.raises(MapError, match="end zones"):
        parse_text("grid\n#..C#\n")


def test_db4_teleporters_are_picked_by_a_die_and_chests_decide_the_ball() -> None:
    assert teleporter_die(6).name == "d6" and teleporter_die(8).name == "d8"
    assert teleporter_die(2).name == "d6"
    state = position("set model Orcs o1 3,3")
    state, _ = act(state, "Orcs chest o1 3,4")
    assert pending(state).answers == ("explosion",)  # the lab's one ball lies loose: the
    # chests hide none unless more balls are agreed
    state = position("set model Orcs o1 3,3", balls=2)
    state, _ = act(state, "Orcs chest o1 3,4")
    assert pending(state).answers == ("ball", "explosion")


def test_db5_up_to_the_dungeons_end_zones_play_in_the_agreed_order() -> None:
    state = GAME.new_game(["A", "B", "C", "D"], {"dungeon": "four_teams"})
    assert len(state.players) == 4
    import pytest

    with pytest.raises(ValueError, match="2 to 4 teams"):
        GAME.new_game(["A", "B", "C", "D", "E"], {"dungeon": "four_teams"})
    state = GAME.apply_set(state, ["set", "play"])
    order = []
    for _ in range(4):
        order.append(state.players[state.current].name)
        state, _ = GAME.apply(state, GAME.parse_action(state, [order[-1], "end"]))
    assert order == ["A", "B", "C", "D"] and state.current == 0


def test_db6_free_for_all_first_score_wins_and_sides_share_a_win() -> None:
    state = position("set model Orcs o1 8,3\nset ball b1 holder=o1 kind=normal")
    state, events = act(state, "Orcs step o1 9,3", "Orcs score o1")
    assert state.outcome is not None and state.outcome.winner == "Orcs"
    four = GAME.new_game(["A", "B", "C", "D"], {"dungeon": "four_teams", "sides": "1+3,2+4"})
    four = GAME.apply_set(four, ["set", "model", "A", "a1", "1,10"])  # C's end zone (team 3)
    four = GAME.apply_set(four, ["set", "ball", "b1", "holder=a1", "kind=normal"])
    four = GAME.apply_set(four, ["set", "play"])
    refused(four, "A score a1", "not in an opponent's end zone")
    four = GAME.apply_set(four, ["set", "model", "A", "a2", "14,2"])  # B's end zone
    four = GAME.apply_set(four, ["set", "ball", "b2", "holder=a2", "kind=normal"])
    four, _ = act(four, "A score a2")
    assert four.outcome is not None and four.outcome.winner == "A+C"


def test_db7_a_dungeon_without_optional_features_plays() -> None:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bare.txt"
        path.write_text("grid\n#####\n#1C2#\n#####\n", encoding="utf-8")
        state = GAME.new_game(["Orcs", "Elves"], {"dungeon": str(path)})
        assert state.chests == ((2, 1),) and state.doors == () and state.traps == ()


# -- doors -----------------------------------------------------------------------------------
def test_db8_closed_door_square_is_a_wall_open_is_a_floor_edge_door_blocks() -> None:
    state = position("set model Orcs o1 2,1 ma=9\nset model Orcs o2 7,1")
    refused(state, "Orcs step o1 3,1", "door D1 is closed")
    refused(state, "Orcs step o2 8,1", "door D2 is closed")
    opened = GAME.apply_set(state, ["set", "door", "D1", "open"])
    opened, _ = act(opened, "Orcs step o1 3,1", "Orcs step o1 4,1")
    assert model(opened, "o1").at == (4, 1)


def test_db9_big_guys_fit_only_large_gates() -> None:
    state = position("set model Orcs o1 2,1 skills=big_guy\nset door D1 open")
    refused(state, "Orcs step o1 3,1", "big guy", "large gate")
    d = GAME.new_game(["Orcs", "Elves"], {"dungeon": "every_feature"})
    d = GAME.apply_set(d, ["set", "model", "Orcs", "o1", "3,4", "skills=big_guy"])
    d = GAME.apply_set(d, ["set", "door", "D3", "open"])  # a large gate
    d = GAME.apply_set(d, ["set", "play"])
    d, _ = act(d, "Orcs step o1 4,4")
    assert model(d, "o1").at == (4, 4)


def test_db10_first_try_rolls_for_the_lock_and_costs_three_points() -> None:
    state = position("set model Orcs o1 2,1")
    s1, _ = act(state, "Orcs open o1 D1")
    p = pending(s1)
    assert p.dice == ("d6",) and "locked" in p.results[0]
    locked, events = act(s1, "Orcs roll 1")
    assert locked.door_state("D1") == "locked" and model(locked, "o1").spent == 0
    refused(locked, "Orcs open o1 D1", "locked", "block it")
    opened, _ = act(s1, "Orcs roll 2")
    assert opened.door_state("D1") == "open" and model(opened, "o1").spent == 3
    closed, _ = act(opened, "Orcs close o1 D1")
    assert closed.door_state("D1") == "closed" and model(closed, "o1").spent == 6
    again = replace(closed, models=tuple(replace(m, spent=0) for m in closed.models))
    again, _ = act(again, "Orcs open o1 D1")  # no second lock roll
    assert not again.pending and again.door_state("D1") == "open"


def test_db11_blocking_a_door_smashes_it_or_knocks_the_blocker_down() -> None:
    state = position("set model Orcs o1 2,1 st=4")
    s1, _ = act(state, "Orcs smash o1 D1")
    assert pending(s1).dice == ("block",)  # ST 4 against the door's 4: one die
    pushed, events = act(s1, "Orcs roll pushed")
    assert pushed.door_state("D1") == "closed" and "never pushed" in said(events)
    smashed, _ = act(s1, "Orcs roll defender_down")
    assert smashed.door_state("D1") == "smashed"
    refused(smashed, "Orcs close o1 D1", "smashed")
    down, _ = act(s1, "Orcs roll attacker_down")
    assert model(down, "o1").status == "prone" and pending(down).step == "armour"
    weak = position("set model Orcs o1 2,1 st=2")
    weak, _ = act(weak, "Orcs smash o1 D1")
    assert pending(weak).dice == ("block",) * 2  # the door (4) is stronger: two, it picks
    weak, _ = act(weak, "Orcs roll 6 1")
    assert model(weak, "o1").status == "prone" and weak.door_state("D1") == "closed"


# -- chasms, obstacles, lava, water ------------------------------------------------------------
def test_db12_chasm_table() -> None:
    state = position("set model Orcs o1 4,1")
    s1, _ = act(state, "Orcs step o1 5,1")
    assert pending(s1).step == "chasm"
    r, _ = act(s1, "Orcs roll 1")
    assert model(r, "o1").status == "reserves" and model(r, "o1").no_return
    refused(r, "Orcs add o1 1,1", "rescued from a chasm this turn")
    lost, _ = act(s1, "Orcs roll 4")
    assert model(lost, "o1").status == "lost"
    dead, _ = act(s1, "Orcs roll 6")
    assert model(dead, "o1").status == "dead" and model(dead, "o1").at is None


def test_db13_obstacles_cannot_be_entered_but_do_not_block_sight() -> None:
    state = position("set model Orcs o1 7,1")
    refused(state, "Orcs step o1 6,1", "obstacle")
    assert GAME.grid_of(state).in_sight((5, 1), (7, 1))


def test_db14_ball_over_an_obstacle_rolls_and_a_hit_scatters_and_turns_over() -> None:
    state = position("set model Orcs o1 4,1\nset model Orcs o2 8,1\n"
                     "set ball b1 holder=o1 kind=normal\nset door D2 open")
    s1, _ = act(state, "Orcs pass o1 8,1")
    p = pending(s1)
    assert p.step == "obstacle" and p.get("at") == "6,1"
    through, events = act(s1, "Orcs roll 2")
    assert through.balls[0].at == (8, 1) and "take catch" in said(events)
    hit, _ = act(s1, "Orcs roll 1", "Orcs roll 7")  # scatter down: 6,2 (water)
    assert hit.balls[0].at == (6, 2)
    assert pending(hit).step == "turnover"
    over, _ = act(hit, "Orcs answer end_turn")
    assert over.current == 1


def test_db15_lava_armour_on_leaving_or_ending_not_entering() -> None:
    state = position("set model Orcs o1 3,2")
    on, _ = act(state, "Orcs step o1 4,2")
    assert not on.pending  # moving onto lava: no roll
    off, _ = act(on, "Orcs step o1 4,3")
    p = pending(off)
    assert p.step == "armour" and p.modifiers == (("armour", -1),)
    stop, _ = act(on, "Orcs stop o1")
    assert pending(stop).step == "armour"


def test_db16_stunned_on_lava_is_kod() -> None:
    state = position("set model Orcs o1 4,2")
    s1, _ = act(state, "Orcs stop o1", "Orcs answer stunned")
    assert model(s1, "o1").status == "ko"


def test_db17_leaving_water_is_a_step_up() -> None:
    state = position("set model Orcs o1 7,2")
    s1, _ = act(state, "Orcs step o1 8,2")
    assert model(s1, "o1").spent == 2
    s2, _ = act(state, "Orcs step o1 8,2 rush")
    assert model(s2, "o1").spent == 1 and pending(s2).step == "gfi"


def test_db18_ag_rolls_on_water_are_minus_one() -> None:
    state = position("set model Orcs o1 7,2 skills=leap")
    s1, _ = act(state, "Orcs leap o1 7,4")
    assert ("on water", -1) in pending(s1).modifiers


def test_db19_stunned_in_water_kod_and_titchy_kod_entering() -> None:
    state = position("set model Orcs o1 7,3 skills=titchy\nset model Orcs o2 6,2")
    s1, _ = act(state, "Orcs step o1 7,2")
    assert model(s1, "o1").status == "ko"
    s2, _ = act(state, "Orcs down o2", "Orcs answer stunned")
    assert model(s2, "o2").status == "ko"


# -- runes -------------------------------------------------------------------------------------
def test_db20_own_rune_gives_strength_and_stand_firm() -> None:
    state = position("set model Orcs o1 6,3 college=fire\nset model Elves e1 7,3\n"
                     "set model Orcs o2 5,3 college=ice\nset model Elves e2 5,4")
    s1, _ = act(state, "Orcs block o1 e1")
    assert pending(s1).dice == ("block", "block") and "+1 ST" in pending(s1).why
    s2, _ = act(state, "Orcs block o2 e2")
    assert pending(s2).dice == ("block",)  # another college's rune does nothing


def test_db21_rune_to_rune_for_one_point() -> None:
    state = position("set model Orcs o1 6,3 college=fire")
    s1, _ = act(state, "Orcs rune o1 6,4")
    assert model(s1, "o1").at == (6, 4) and model(s1, "o1").spent == 1
    refused(state, "Orcs rune o1 5,4", "bears no other fire rune")


def test_db22_winds_of_magic_needs_an_ag_roll_and_knocks_or_raises() -> None:
    state = position("set model Orcs o1 6,3 college=fire\nset model Elves e1 8,3\n"
                     "set model Elves e2 8,4 skills=stand_firm\n"
                     "set model Elves e3 8,6 status=prone")
    s1, _ = act(state, "Orcs winds o1 prone")
    assert pending(s1).target == 4  # AG 3: 4+
    s2, _ = act(s1, "Orcs roll 4")
    assert model(s2, "e1").status == "prone" and model(s2, "e2").status == "standing"
    assert model(s2, "o1").status == "standing"  # Stand Firm on its own rune
    r, _ = act(state, "Orcs winds o1 rise", "Orcs roll 6")
    assert model(r, "e3").status == "standing"


def test_db23_each_circle_once_per_game() -> None:
    state = position("set model Orcs o1 6,3 college=fire")
    failed, _ = act(state, "Orcs winds o1 rise", "Orcs roll 2")
    assert failed.circles_spent == ()  # B-10: a failed release keeps the spell
    done, _ = act(state, "Orcs winds o1 rise", "Orcs roll 5")
    assert done.circles_spent == ("c1",)
    refused(done, "Orcs winds o1 prone", "this game already", "DB.23")


# -- secret passages ---------------------------------------------------------------------------
def test_db24_portal_squares_are_ordinary_to_walk_over() -> None:
    state = position("set model Orcs o1 2,2")
    s1, events = act(state, "Orcs step o1 2,3", "Orcs step o1 2,4")
    assert not s1.pending and model(s1, "o1").status == "standing"


def test_db25_one_point_in_two_points_out() -> None:
    state = position("set model Orcs o1 2,3")
    s1, _ = act(state, "Orcs passage o1")
    m = model(s1, "o1")
    assert m.status == "passage" and m.at is None and m.spent == 1
    s2, _ = act(s1, "Orcs passage o1 8,5")
    assert model(s2, "o1").at == (8, 5) and model(s2, "o1").spent == 3
    refused(s1, "Orcs passage o1 5,5", "comes out at")


def test_db26_blocks_through_the_passage_and_their_assists() -> None:
    state = position("set model Elves e1 - status=passage passage=A\nset model Orcs o1 2,3")
    s1, _ = act(state, "Orcs block o1 e1")
    assert pending(s1).step == "block"
    refused(state, "Orcs block o1 e1 assists=1", "no offensive assists")
    refused(state, "Orcs block o1 e1 defence=1", "no defensive assists")


def test_db27_pushes_into_and_out_of_the_passage() -> None:
    state = position("set model Elves e1 2,3\nset model Orcs o1 2,2")
    s1, _ = act(state, "Orcs passage e1 pushed")
    assert model(s1, "e1").status == "passage"
    s1 = replace(s1, models=tuple(replace(m, at=(2, 3)) if m.id == "o1" else m
                                  for m in s1.models))
    refused(s1, "Orcs passage e1 2,3 pushed", "taken")
    out, _ = act(s1, "Orcs passage e1 8,5 pushed")
    assert model(out, "e1").at == (8, 5)


# -- elevation ---------------------------------------------------------------------------------
def test_db28_platform_squares_are_normal_for_movement() -> None:
    state = position("set model Orcs o1 6,5")
    s1, _ = act(state, "Orcs step o1 6,6", "Orcs step o1 7,6")
    assert model(s1, "o1").spent == 2 and not s1.pending


def test_db29_no_block_or_hand_off_across_levels() -> None:
    state = position("set model Orcs o1 7,6\nset model Elves e1 8,6\nset model Orcs o2 8,5\n"
                     "set ball b1 holder=o1 kind=normal")
    refused(state, "Orcs block o1 e1", "different levels")
    refused(state, "Orcs take o2 handoff from=o1", "one level")


def test_db30_falling_off_a_platform_and_the_balls_three_bounces() -> None:
    state = position("set model Orcs o1 7,6")
    s1, events = act(state, "Orcs step o1 8,5")
    assert model(s1, "o1").status == "prone" and pending(s1).step == "armour"
    ball = position("set model Orcs o1 7,6\nset ball b9 7,6 kind=normal")
    ball = replace(ball, models=())
    from companion.games.dungeonbowl import referee

    t = referee.Txn(ball)
    referee.scatter(t, ball.balls[-1], 0, "test")
    ball, _ = t.done()
    ball, events = act(ball, "Orcs roll 5")  # right: 8,6 is on the ground
    assert "bounces three times" in said(events)
    assert pending(ball).step == "scatter" and pending(ball).get("times") == "3"


def test_db31_passing_up_is_minus_one_down_plus_one() -> None:
    state = position("set model Orcs o1 7,6\nset model Orcs o2 7,4\n"
                     "set ball b1 holder=o1 kind=normal")
    _, events = act(state, "Orcs pass o1 7,4")
    assert "passing down a level +1" in said(events)
    up = position("set model Orcs o1 7,4\nset model Orcs o2 7,6\n"
                  "set ball b1 holder=o1 kind=normal")
    _, events = act(up, "Orcs pass o1 7,6")
    assert "passing up a level -1" in said(events)


def test_db32_a_leap_ignores_one_step_and_pays_for_more_going_down() -> None:
    state = position("set model Orcs o1 4,6 skills=leap")  # on the one-step square
    s1, _ = act(state, "Orcs leap o1 2,4")
    assert not any("step" in w for w, _ in pending(s1).modifiers)


def test_db33_leaping_down_a_floor_counts_a_square_and_minus_one() -> None:
    state = position("set model Orcs o1 7,6 skills=leap")
    s1, _ = act(state, "Orcs leap o1 7,4")
    assert ("leaping down a floor", -1) in pending(s1).modifiers
    assert model(s1, "o1").spent == 3  # two squares and the drop


def test_db34_steps_cost_two_or_one_with_go_for_it() -> None:
    state = position("set model Orcs o1 3,6")
    walk, _ = act(state, "Orcs step o1 4,6")
    assert model(walk, "o1").spent == 2 and not walk.pending
    rush, _ = act(state, "Orcs step o1 4,6 rush")
    assert model(rush, "o1").spent == 1 and pending(rush).step == "gfi"
    fell, _ = act(rush, "Orcs roll 1")  # going up: down where it stood
    assert model(fell, "o1").at == (3, 6) and model(fell, "o1").status == "prone"
    ok, _ = act(rush, "Orcs roll 2")
    assert model(ok, "o1").at == (4, 6) and model(ok, "o1").status == "standing"


def test_db35_ladders_cost_rungs_plus_one_and_all_or_nothing() -> None:
    state = position("set model Orcs o1 6,4")
    s1, _ = act(state, "Orcs step o1 6,5 ladder")
    assert model(s1, "o1").at == (6, 5) and model(s1, "o1").spent == 3
    tired = replace(state, models=tuple(replace(m, spent=6) for m in state.models))
    refused(tired, "Orcs step o1 6,5 ladder", "movement point")
    refused(state, "Orcs step o1 6,5", "3 steps up")


def test_db36_levels_are_numbered_by_height() -> None:
    from companion.games.dungeonbowl.dungeon import level

    assert level(3) == 1 and level(6) == 2 and level(1) == 0


def test_db37_leaping_down_more_than_one_level_fails() -> None:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tower.txt"
        path.write_text("grid\n######\n#1..2#\n#C..2#\n######\nheights\n......\n.8....\n",
                        encoding="utf-8")
        state = GAME.new_game(["Orcs", "Elves"], {"dungeon": str(path)})
        state = GAME.apply_set(state, ["set", "model", "Orcs", "o1", "1,1", "skills=leap"])
        state = GAME.apply_set(state, ["set", "play"])
        s1, _ = act(state, "Orcs leap o1 3,1")
        assert pending(s1).get("auto_fail") == "1"
        s2, _ = act(s1, "Orcs roll 6")
        assert model(s2, "o1").status == "prone"


def test_db38_falls_of_more_than_one_level_add_to_armour_and_injury() -> None:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tower.txt"
        path.write_text("grid\n######\n#1..2#\n#C..2#\n######\nheights\n......\n..9...\n",
                        encoding="utf-8")
        state = GAME.new_game(["Orcs", "Elves"], {"dungeon": str(path)})
        state = GAME.apply_set(state, ["set", "model", "Orcs", "o1", "2,1"])
        state = GAME.apply_set(state, ["set", "play"])
        s1, _ = act(state, "Orcs step o1 3,1")
        assert pending(s1).modifiers == (("armour", 4), ("injury", 2))  # level 3 to ground
