"""MonopoZombie's transcript lines: the verbs (move, go, group, leave, allocate, impasse,
hire), the position keys (zombie, homeless, lap, immunity, bodyguards, set stage), round trips,
and bad lines (exit 2 from ``companion script``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.monopoly.monopozombie.layer import stage, table
from companion.transcript import TranscriptError, replay

HEAD = """variant monopozombie
seed 1
player Ann
player Bob
player Cy
player Dee
"""


def test_position_keys_and_set_stage() -> None:
    text = HEAD + """set stage outbreak
set player Ann zombie=yes lap=done position=20
set player Bob homeless=yes cash=0 immunity=no bodyguards=2
set player Cy lap=first
"""
    state = replay(text).state
    ann, bob, cy = state.players[:3]
    assert stage(state) == "outbreak"
    assert ann.zombie and ann.lap_done and ann.position == 20
    assert bob.homeless and bob.lap_done and bob.bodyguards == 2
    assert not cy.lap_done


def test_move_go_group_allocate_verbs_replay_and_round_trip() -> None:
    text = HEAD + """set stage apocalypse
set player Ann lap=done position=10 cash=0
set player Bob zombie=yes position=20 cash=0
set player Cy lap=done position=13 cash=0
set player Dee zombie=yes position=20 cash=0
Ann roll 1 2 6
Ann move 2 1 forward
Ann group Cy
Ann end
Bob roll 1 2
Bob go "Indiana Avenue"
Bob end
Dee roll 1 1
Dee move back
Dee end
Ann roll 1 2 1 2 5 6
Ann allocate Ann:2,1:forward Cy:2,1:forward
"""
    result = replay(text)
    state = result.state
    assert state.players[0].position == state.players[2].position == 16
    assert state.players[1].position == 23 and state.players[3].position == 18
    assert table(state).groups[0].turns == 1
    game = result.rules
    setup = text.split("Ann roll 1 2 6")[0]
    s = replay(setup).state
    written = []
    for action in result.actions:  # every action formats back to the line it came from
        written.append(game.format_action(s, action))
        s = game.apply(s, action)[0]
    assert written == result.lines
    assert s == state


def test_immunity_verb_and_the_word_options_replay() -> None:
    text = """variant monopozombie
seed 1
option immunity_card=ask
option zombie_dice=d6
player Ann
player Bob
player Cy
player Dee
set player Ann lap=done position=1
set player Ann jail_cards=chance
Ann roll 1 1
Ann immunity keep
"""
    state = replay(text).state
    assert state.options.immunity_card == "ask" and state.options.zombie_dice == "d6"
    assert state.players[0].zombie and state.players[0].jail_cards == ("chance",)
    assert replay(text.replace("immunity keep", "immunity use")).state.players[0].zombie is False


@pytest.mark.parametrize("line, problem", [
    ("Ann immunity maybe", "immunity use|keep"),
    ("Ann move 5 3 sideways", "forward|back"),
    ("Ann move 5 x back", "numbers"),
    ("Ann go", "one square"),
    ("Ann hire none", "hire N"),
    ("Ann group", "group NAME"),
    ("Ann allocate Ann:5,3", "NAME:A,B:forward|back"),
    ("Ann allocate Ann:5,3:up", "forward or back"),
    ("Ann group Zed", "no player named"),
])
def test_bad_verbs_say_what_is_wrong(line: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        replay(HEAD + "set stage apocalypse\n" + line + "\n")


@pytest.mark.parametrize("line, problem", [
    ("set player Ann zombie=maybe", "zombie takes yes or no"),
    ("set player Ann lap=second", "lap takes first or done"),
    ("set stage doom", "set stage takes one of capitalism, outbreak, apocalypse"),
    ("option zombie_dice=d5", "zombie_dice takes d4 or d6"),
    ("set player Ann mood=grim", "the fields are cash, .*zombie, homeless"),
])
def test_bad_position_lines(line: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        replay(HEAD + line + "\n")


def test_a_bad_line_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(HEAD + "set stage apocalypse\nset player Bob zombie=yes\nAnn roll 2 3 5\n"
                   "Ann move 6 5 back\n")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "script", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "line 10" in proc.stderr and "keep dice that were rolled (2 3 5)" in proc.stderr
