"""``companion play --demo --script FILE``: the demo players press a transcript's action lines
one by one (its rolls' dice too), then the game's bot plays on."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.bots import RandomBot
from companion.kiosk.cli import _session_for_demo, script_parts
from companion.kiosk.demo import ScriptedPlayers

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "assets" / "transcripts" / "dungeonbowl-proving-grounds.txt"


def args_for(script: Path, tmp_path: Path) -> argparse.Namespace:
    return argparse.Namespace(script=script, journal=tmp_path / "demo.sqlite", variant=None,
                              players=None, option=None, seed=1)


def test_script_parts_split_header_and_actions() -> None:
    header, actions = script_parts(SCRIPT.read_text(encoding="utf-8"))
    assert header[0] == "variant dungeonbowl" and header[-1] == "player Elves"
    assert actions[0].startswith("Orcs add") and all(not a.startswith("#") for a in actions)
    with pytest.raises(ValueError, match="no 'set' lines"):
        script_parts("variant dungeonbowl\nplayer A\nplayer B\nset play\n")


def test_the_scripted_players_follow_the_script_then_the_bot(tmp_path: Path) -> None:
    args = args_for(SCRIPT, tmp_path)
    session, _ = _session_for_demo(args)
    try:
        players = ScriptedPlayers(session, args.script_lines, RandomBot(1))
        rules = session.rules
        for line in args.script_lines:
            state = session.state
            acts = rules.legal_actions(state, rules.deciders(state))
            choice = players.choose(rules, state, acts)
            assert choice == players.choose(rules, state, acts)  # asked twice: the same line
            prompt = rules.dice_prompt(state)
            if prompt is not None:
                values = players.dice_for(rules, state, prompt)
                assert values is not None
                choice = rules.roll_action(state, prompt, values)
            assert rules.format_action(state, choice).split()[:2] == line.split()[:2]
            session.apply(choice)
        state = session.state
        acts = rules.legal_actions(state, rules.deciders(state))
        assert players.choose(rules, state, acts) in acts  # the script is over: the bot
    finally:
        session.close()


def test_a_bad_script_is_refused_before_the_demo(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("variant dungeonbowl\nplayer A\nplayer B\nA fly\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 4"):
        _session_for_demo(args_for(bad, tmp_path))
