"""``companion play --demo --script FILE``: the demo players press a transcript's action lines
one by one (its rolls' dice too), then the game's bot plays on."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from companion.bots import RandomBot
from companion.kiosk.cli import _session_for_demo, script_parts
from companion.kiosk.demo import ScriptedPlayers
from hardware.buttons import InputKind

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


class _LiveBlind:
    """A live camera that reads nothing (dice then go to the buttons)."""

    def status(self) -> tuple[bool, str]:
        return True, "camera running"

    def poll(self) -> None:
        return None

    def close(self) -> None:
        pass


class _Table:
    def __init__(self) -> None:
        self.rolls: list[tuple[int, ...]] = []

    def roll(self, values: tuple[int, ...], kinds: tuple[str, ...] = ()) -> None:
        self.rolls.append(tuple(values))

    def place(self, *args: object, **kwargs: object) -> None:
        pass


def drive(script: Path, tmp_path: Path) -> tuple[Any, Any, _Table, dict[str, int], list[str]]:
    """The demo players press ``script`` on an 800x480 kiosk whose camera reads nothing: the
    session, the autopilot, the table's rolls, the ticks spent waiting on each kind of roll and
    the title of every square picker the players pressed in."""
    from companion.kiosk.demo import Autopilot
    from companion.kiosk.inputs import MapPicker
    from companion.kiosk.screens import GameScreen
    from hardware.buttons import InputQueue

    args = args_for(script, tmp_path)
    session, _ = _session_for_demo(args)
    screen = GameScreen(session, _LiveBlind(), (800, 480))  # type: ignore[arg-type]
    table = _Table()
    pilot = Autopilot(screen, InputQueue(), seed=1, table=table,  # type: ignore[arg-type]
                      think=0.0, press=0.0, camera_wait=10.0)
    pilot.bot = ScriptedPlayers(session, args.script_lines, pilot.bot)
    waited: dict[str, int] = {}
    pickers: list[str] = []
    for _ in range(20_000):
        if len(session.lines) >= len(args.script_lines):
            break
        prompt = session.rules.dice_prompt(session.state)
        if prompt is not None:
            kinds = "+".join(k.name for k in prompt.dice)
            waited[kinds] = waited.get(kinds, 0) + 1
        pilot.tick(0.2)
        for inp in pilot.queue.drain():
            top = screen.stack[-1]
            if isinstance(top, MapPicker) and inp.kind is InputKind.CONFIRM:
                pickers.append(top.title)
            screen.handle(inp)
        screen.update(0.2)
    from companion.transcript import replay

    # every line, in order: the kiosk's game is the script's (block faces written as numbers)
    assert len(session.lines) == len(args.script_lines)
    assert session.state == replay(script.read_text(encoding="utf-8")).state
    return session, pilot, table, waited, pickers


def test_the_whole_drive_plays_on_the_buttons_and_unthrown_dice_do_not_wait(
        tmp_path: Path) -> None:
    session, pilot, table, waited, _ = drive(SCRIPT, tmp_path)
    try:
        lines = script_parts(SCRIPT.read_text(encoding="utf-8"))[1]
        # every play line pressed on the buttons, a standard model on any end-zone square
        # included; models with their own characteristics are entered from the script (these
        # teams play no roster, so the kiosk offers standard models only)
        assert pilot.direct == sum(1 for line in lines if line.split()[1] == "add" and "=" in line)
        assert pilot.direct < sum(1 for line in lines if line.split()[1] == "add")
        assert table.rolls  # the numbered dice were thrown on the synthetic table
        # the camera is waited for (10 s: 50 ticks) only where the table threw dice: the one
        # roll of one block die and the one of two are entered at once, a few presses each
        assert waited["d6"] >= 50 * len([r for r in table.rolls if len(r) == 1]), waited
        assert waited["block"] < 30 and waited["block+block"] < 30, waited
    finally:
        session.close()


def test_the_roster_drive_is_pressed_line_by_line_each_model_set_up_on_the_map(
        tmp_path: Path) -> None:
    """Two roster teams (docs/dungeonbowl.md, "Rosters"): every line of the drive, the setup
    included, is pressed on the buttons; each model goes on the end-zone square its coach
    picks on the map; the drive passes doors, a two-dice smash, a chest, a trampoline (a D6
    and a scatter die in one throw), a secret passage, a ladder, a loose ball and a rune."""
    script = ROOT / "assets" / "transcripts" / "dungeonbowl-roster-drive.txt"
    lines = script_parts(script.read_text(encoding="utf-8"))[1]
    adds = [line for line in lines if line.split()[1] == "add"]
    assert len(adds) == 6 and not any("=" in line for line in adds)
    for verb in ("open", "smash", "chest", "passage", "take", "rune"):
        assert any(line.split()[1] == verb for line in lines), verb
    session, pilot, _, waited, pickers = drive(script, tmp_path)
    try:
        assert pilot.direct == 0
        # each model's square picked on the map
        assert [t.split(":")[0] for t in pickers if "set up" in t] == \
            ["Orcs", "Orcs", "Orcs", "Elves", "Elves", "Elves"]
        assert session.state.players[0].roster == "orcs"
        assert session.state.model("troll").st == 5  # the roster's troll
        assert waited["block+block"] < 30 and "d6+scatter" in waited, waited
    finally:
        session.close()
