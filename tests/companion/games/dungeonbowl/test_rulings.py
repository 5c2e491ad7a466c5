"""One test per ruling of docs/dungeonbowl/rulings.md (B-1 ... B-32) not already held by a
numbered-rule test (those are named in the rulings page)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.games.dungeonbowl.dice import d3
from vision.special_dice import Orientation, SpecialDiceConfig
from vision.special_dice.nets import ANGLE_BINS
from vision.special_dice.reader import sector_masses

from .table import GAME, act, model, pending, position, refused, said


def test_b1_base_rule_outcomes_are_asked_not_computed() -> None:
    state = position("set model Orcs o1 3,3")
    s1, _ = act(state, "Orcs down o1")
    p = pending(s1)
    assert p.kind == "ask" and p.answers == ("held", "stunned", "ko", "casualty")
    assert GAME.dice_prompt(s1) is None
    leap = position("set model Orcs o1 3,3 ag=4 skills=leap")
    leap, _ = act(leap, "Orcs leap o1 5,5")
    assert pending(leap).target == 3  # 7 - AG


def test_b2_lava_armour_modifier_is_an_option() -> None:
    state = position("set model Orcs o1 4,2", lava_armour=1)
    s1, _ = act(state, "Orcs step o1 4,3")
    assert pending(s1).modifiers == (("armour", 1),)


def test_b3_every_departure_from_lava_rolls() -> None:
    state = position("set model Orcs o1 4,2\nset model Elves e1 3,3")
    s1, _ = act(state, "Orcs step o1 5,2")
    assert pending(s1).step == "armour"  # lava to lava is leaving lava
    pushed_on, _ = act(state, "Orcs step e1 3,2 pushed", )
    assert not pushed_on.pending
    pushed_off, _ = act(state, "Orcs step o1 4,1 pushed")
    assert pending(pushed_off).step == "armour"


def test_b4_lock_roll_once_and_no_points_for_a_locked_door() -> None:
    state = position("set model Orcs o1 2,1\nset model Elves e1 4,1")
    s1, _ = act(state, "Orcs open o1 D1", "Orcs roll 1")
    assert model(s1, "o1").spent == 0 and "D1" in s1.tried
    tired = replace(state, models=tuple(replace(m, spent=4) for m in state.models))
    refused(tired, "Orcs open o1 D1", "movement point")
    gfi = position("set model Orcs o1 2,1", door_gfi=True)
    gfi = replace(gfi, models=tuple(replace(m, spent=4) for m in gfi.models))
    gfi, _ = act(gfi, "Orcs open o1 D1")
    assert pending(gfi).step == "gfi"


def test_b5_the_door_picks_the_worst_result() -> None:
    state = position("set model Orcs o1 2,1 st=3")
    s1, _ = act(state, "Orcs smash o1 D1", "Orcs roll 6 2")  # defender down, both down
    assert model(s1, "o1").status == "prone" and s1.door_state("D1") == "smashed"
    strong = position("set model Orcs o1 2,1 st=5")
    strong, _ = act(strong, "Orcs smash o1 D1", "Orcs roll 1 6")
    assert pending(strong).answers == ("attacker_down", "defender_down")
    strong, _ = act(strong, "Orcs answer defender_down")
    assert strong.door_state("D1") == "smashed" and model(strong, "o1").status == "standing"


def test_b6_a_ball_carried_into_a_chasm_stays_on_the_brink() -> None:
    state = position("set model Orcs o1 4,1\nset ball b1 holder=o1 kind=normal")
    s1, events = act(state, "Orcs step o1 5,1", "Orcs roll 3")
    assert model(s1, "o1").status == "lost"
    assert s1.balls[0].at == (4, 1) and pending(s1).step == "scatter"


def test_b7_obstacle_rolls_stop_at_the_first_hit() -> None:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pillars.txt"
        path.write_text("grid\n########\n#1.OO.2#\n#C.....#\n########\n", encoding="utf-8")
        state = GAME.new_game(["Orcs", "Elves"], {"dungeon": str(path)})
        for line in ("set model Orcs o1 2,1", "set model Orcs o2 5,1",
                     "set ball b1 holder=o1 kind=normal", "set play"):
            state = GAME.apply_set(state, line.split())
        s1, _ = act(state, "Orcs pass o1 5,1")
        assert pending(s1).get("at") == "3,1" and pending(s1).get("rest") == "4,1"
        hit, _ = act(s1, "Orcs roll 1")
        assert [p.step for p in hit.pending] == ["scatter", "turnover"]
        on, _ = act(s1, "Orcs roll 4")
        assert pending(on).get("at") == "4,1"


def test_b8_a_failed_rush_out_of_water_falls_in_the_water() -> None:
    state = position("set model Orcs o1 7,2")
    s1, _ = act(state, "Orcs step o1 8,2 rush", "Orcs roll 1")
    assert model(s1, "o1").at == (7, 2) and model(s1, "o1").status == "prone"


def test_b9_college_is_a_roster_fact() -> None:
    state = position(play=False)
    state, _ = act(state, "Orcs add o1 1,3 college=fire")
    assert model(state, "o1").college == "fire"
    plain = position("set model Orcs o1 6,3")
    refused(plain, "Orcs rune o1 6,4", "no college")


def test_b11_the_passage_holds_one_model() -> None:
    state = position("set model Orcs o1 2,3\nset model Orcs o2 2,2")
    s1, _ = act(state, "Orcs passage o1", "Orcs step o2 2,3")
    refused(s1, "Orcs passage o2", "holds a player already")


def test_b15_illusion_odds_on_a_d6() -> None:
    def odds(k: int) -> list[str]:
        state = position("set model Orcs o1 9,3\nset ball b1 holder=o1 kind=normal",
                         balls=2, multiball="illusionary")
        state = replace(state, hidden_balls=k - 1, options=replace(state.options, balls=k))
        s1, _ = act(state, "Orcs score o1")
        out = []
        for v in range(1, 7):
            after, _ = act(s1, f"Orcs roll {v}")
            out.append("real" if after.outcome else "again" if after.pending
                       and after.pending[0].step == "illusion" else "fake")
        return out

    assert odds(2) == ["real"] * 3 + ["fake"] * 3
    assert odds(3) == ["real"] * 2 + ["fake"] * 4
    assert odds(4) == ["real", "fake", "fake", "fake", "again", "again"]
    last = position("set model Orcs o1 9,3\nset ball b1 holder=o1 kind=normal",
                    balls=3, multiball="illusionary")
    last = replace(last, hidden_balls=0)
    last, _ = act(last, "Orcs score o1")
    assert last.outcome is not None  # the last ball in play is always real


def test_b16_virtual_trap_tokens_are_drawn_from_the_seed() -> None:
    def draw(seed: int) -> str:
        state = position("set model Orcs o1 3,3", trap_tokens="virtual")
        state = replace(state, seed=seed)
        s1, _ = act(state, "Orcs step o1 4,3")
        return s1.traps[0].kind

    kinds = {draw(seed) for seed in range(30)}
    assert len(kinds) >= 4 and draw(5) == draw(5)


def test_b19_d3_and_the_trampoline_stopping_square() -> None:
    assert [d3(v) for v in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    state = position("set model Orcs o1 3,3\nset model Elves e1 6,3")
    s1, events = act(state, "Orcs step o1 4,3", "Orcs answer trampoline", "Orcs roll 6 right")
    assert model(s1, "o1").at == (5, 3)  # three squares right, but e1 stands on 6,3
    assert "short of e1 at 6,3: a Player Collision" in said(events)  # said, not applied
    wall = position("set model Orcs o1 3,3")
    wall, _ = act(wall, "Orcs step o1 4,3", "Orcs answer trampoline", "Orcs roll 6 left")
    assert model(wall, "o1").at == (1, 3)  # the wall at 0,3 stops it


def test_b22_balls_scatter_over_pits_and_stop_at_walls() -> None:
    from companion.games.dungeonbowl import referee

    state = position("set trap 4,3 pit\nset ball b9 5,3 kind=normal")
    t = referee.Txn(state)
    referee.scatter(t, state.balls[-1], 0, "test")
    s1, _ = t.done()
    s2, events = act(s1, "Orcs roll left")
    assert s2.balls[-1].at == (4, 3) and pending(s2).step == "scatter"  # over the pit
    edge = position("set ball b9 1,1 kind=normal")
    t = referee.Txn(edge)
    referee.scatter(t, edge.balls[-1], 0, "test")
    e1, _ = t.done()
    e2, events = act(e1, "Orcs roll up")
    assert e2.balls[-1].at == (1, 1) and "stays" in said(events)


def test_b23_a_failed_leap_lands_down() -> None:
    state = position("set model Orcs o1 3,3 skills=leap")
    s1, _ = act(state, "Orcs leap o1 5,5", "Orcs roll 1")
    assert model(s1, "o1").at == (5, 5) and model(s1, "o1").status == "prone"


def test_b24_chest_answers_follow_the_hidden_balls() -> None:
    state = position("set model Orcs o1 3,5", balls=3)  # two chests, two hidden balls
    s1, _ = act(state, "Orcs chest o1 3,4")
    assert pending(s1).answers == ("ball",)
    s2, events = act(s1, "Orcs answer ball")
    assert s2.balls[-1].holder == "o1" and pending(s2).step == "ball_kind"
    boom = position("set model Orcs o1 3,5\nset model Elves e1 4,4")
    boom, _ = act(boom, "Orcs chest o1 3,4", "Orcs answer explosion")
    assert model(boom, "e1").status == "prone" and model(boom, "o1").status == "prone"
    boom, _ = act(boom, "Orcs answer held", "Elves answer held", "Orcs stand o1")
    refused(boom, "Orcs chest o1 3,4", "no unopened chest")


def test_b26_standing_costs_three_points() -> None:
    state = position("set model Orcs o1 3,3 status=prone")
    s1, _ = act(state, "Orcs stand o1")
    assert model(s1, "o1").status == "standing" and model(s1, "o1").spent == 3
    stunned = position("set model Orcs o1 3,3 status=stunned")
    stunned, _ = act(stunned, "Orcs end", "Elves end")
    assert model(stunned, "o1").status == "prone"
    ko = position("set model Orcs o1 - status=ko")
    ko, _ = act(ko, "Orcs add o1 1,2")
    assert model(ko, "o1").at == (1, 2) and model(ko, "o1").status == "standing"


def test_b27_ladder_costs_the_same_both_ways() -> None:
    state = position("set model Orcs o1 6,5")
    s1, _ = act(state, "Orcs step o1 6,4 ladder")
    assert model(s1, "o1").spent == 3 and model(s1, "o1").status == "standing"


def test_b29_two_go_for_it_squares_beyond_ma() -> None:
    state = position("set model Orcs o1 2,2 ma=1")
    s1, _ = act(state, "Orcs step o1 3,2", "Orcs step o1 3,3")
    assert pending(s1).step == "gfi"
    s2, _ = act(s1, "Orcs roll 2", "Orcs step o1 2,3", "Orcs roll 2")
    refused(s2, "Orcs step o1 2,4", "0 movement point(s) left")
    fell, _ = act(s1, "Orcs roll 1")
    assert model(fell, "o1").at == (3, 3) and model(fell, "o1").status == "prone"


def test_b29_a_failed_go_for_it_ends_the_move_and_its_other_rolls() -> None:
    state = position("set model Orcs o1 3,6 ma=1")
    s1, _ = act(state, "Orcs step o1 3,5", "Orcs step o1 4,6")  # a step: 2 points, both GFI
    assert [p.step for p in s1.pending] == ["gfi", "gfi"]
    fell, _ = act(s1, "Orcs roll 1")
    assert not fell.pending or fell.pending[0].step == "armour"
    assert model(fell, "o1").status == "prone"


def test_b1_after_a_block_its_pushes_and_knock_downs_are_offered() -> None:
    state = position("set model Orcs o1 3,3\nset model Elves e1 4,4")
    s1, events = act(state, "Orcs block o1 e1", "Orcs roll pushed")
    assert "declare the push" in said(events)
    lines = [GAME.format_action(s1, a) for a in GAME.legal_actions(s1)]
    assert "Orcs step e1 5,5 pushed" in lines and "Orcs down e1" in lines
    assert "Orcs down o1" in lines
    after, _ = act(s1, "Orcs step e1 5,5 pushed")
    assert model(after, "e1").at == (5, 5)
    ended, _ = act(after, "Orcs end")
    assert ended.blocked == ()


def test_b30_chain_pushes_and_collisions_are_asked_not_applied() -> None:
    state = position("set model Orcs o1 3,3\nset model Elves e1 4,4\nset model Elves e2 5,5")
    s1, _ = act(state, "Orcs block o1 e1", "Orcs roll pushed")
    # the crowd's pushes are offered, the occupied square is not pushed into
    lines = [GAME.format_action(s1, a) for a in GAME.legal_actions(s1)]
    assert "Orcs step e2 6,4 pushed" in lines and "Orcs step e1 5,5 pushed" not in lines
    refused(s1, "Orcs step e1 5,5 pushed", "taken by e2", "chain push",
            "step e2 X,Y pushed")
    chained, _ = act(s1, "Orcs step e2 6,4 pushed", "Orcs step e1 5,5 pushed")
    assert model(chained, "e2").at == (6, 4) and model(chained, "e1").at == (5, 5)
    # a fall off the platform onto a model: the base rules' Player Collision, asked
    fall = position("set model Orcs o1 6,5\nset model Elves e1 5,5")
    refused(fall, "Orcs step o1 5,5", "Player Collision", "down e1")
    refused(fall, "Orcs step o1 5,5 pushed", "Player Collision")


def _arrow_at(bearing: float, spread: float = 2.0) -> np.ndarray:
    """An angle distribution over the reader's bins: an arrow at ``bearing`` on the board (north
    up the picture), measured with a ``spread``-degree error."""
    image_deg = bearing - 90.0  # picture angle atan2(dy, dx), y down, of that bearing
    centres = np.arange(ANGLE_BINS) * (360.0 / ANGLE_BINS)
    d = (centres - image_deg + 180.0) % 360.0 - 180.0
    p = np.exp(-(d ** 2) / (2 * spread ** 2))
    return np.asarray(p / p.sum(), np.float32)


def test_b31_a_scatter_arrow_on_a_sector_line_is_left_to_the_coaches() -> None:
    config = SpecialDiceConfig()
    # the plain readers' threshold and the upright reader's (the one used with a registered board)
    for threshold in (config.scatter_threshold, config.upright_scatter_threshold):
        # on the line between N and NE: neither direction is sure, the die stays unsure
        masses, bearing = sector_masses(_arrow_at(22.5), (100.0, 100.0), Orientation())
        assert masses.max() < threshold and min(masses[0], masses[1]) > 0.4
        assert abs(bearing - 22.5) < 1.5  # the measured bearing is still reported
        # two degrees off the line is still the coaches' call
        masses, _ = sector_masses(_arrow_at(24.5), (100.0, 100.0), Orientation())
        assert masses.max() < threshold
        # well inside NE's sector the camera reads it
        masses, _ = sector_masses(_arrow_at(40.0), (100.0, 100.0), Orientation())
        assert int(np.argmax(masses)) == 1 and masses[1] >= threshold
