"""Bad input refused with a clear message and nothing changed (a model walking through a wall,
a door that is not there, a roll with the wrong dice, an answer that is not one); transcripts
(`variant dungeonbowl`): lines round trip, bad lines exit 2 naming the line; the JSON view."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.errors import IllegalActionError
from companion.core.game import Game
from companion.core.registry import find_game
from companion.games.dungeonbowl.actions import Roll
from companion.transcript import TranscriptError, header_lines, replay

from .table import GAME, LAB, act, position, refused

ROOT = Path(__file__).resolve().parents[4]
DEMO = ROOT / "assets" / "transcripts" / "dungeonbowl-proving-grounds.txt"


def test_registered_and_meeting_the_game_protocol() -> None:
    game = find_game("dungeonbowl")
    assert isinstance(game, Game) and game.name == "dungeonbowl"


def test_a_model_walking_through_a_wall_is_refused() -> None:
    state = position("set model Orcs o1 2,7")
    refused(state, "Orcs step o1 3,7", "wall", "cannot walk through walls")
    refused(state, "Orcs step o1 2,8", "wall")
    refused(state, "Orcs step o1 5,5", "not next to")


def test_opening_a_door_that_is_not_there_is_refused() -> None:
    state = position("set model Orcs o1 2,1")
    refused(state, "Orcs open o1 D9", "no door 'D9'", "doors: D1, D2")
    far = position("set model Orcs o1 2,5")
    refused(far, "Orcs open o1 D1", "not beside door D1")


def test_a_roll_with_the_wrong_dice_is_refused() -> None:
    state = position("set model Orcs o1 2,1")
    state, _ = act(state, "Orcs open o1 D1")
    refused(state, "Orcs roll 7", "cannot show 7", "1 d6")
    refused(state, "Orcs roll 3 4", "expected 1 dice")
    with pytest.raises(ValueError, match="not a face of a d6"):
        GAME.parse_action(state, ["Orcs", "roll", "pushed"])
    refused(state, "Orcs answer held", "waits for a roll")
    refused(state, "Orcs step o1 3,1", "waits for a roll")
    block = position("set model Orcs o1 2,1")
    block, _ = act(block, "Orcs smash o1 D1")
    refused(block, "Orcs roll 0 3", "cannot show 0")
    with pytest.raises(IllegalActionError, match="block"):
        GAME.apply(block, Roll(0, (9,)))


def test_answers_and_turns_are_checked() -> None:
    state = position("set model Orcs o1 3,3")
    state, _ = act(state, "Orcs down o1")
    refused(state, "Orcs answer maybe", "not an answer", "held, stunned, ko, casualty")
    refused(state, "Elves answer held", "waits for Orcs")
    fresh = position("set model Orcs o1 3,3\nset model Elves e1 8,3")
    refused(fresh, "Elves step e1 8,4", "waits for Orcs")
    refused(fresh, "Orcs step e1 8,4", "Elves's model")


def test_every_listed_action_formats_and_parses_back() -> None:
    text = DEMO.read_text(encoding="utf-8")
    played = replay(text)
    state = played.state
    for a in GAME.legal_actions(state):
        line = GAME.format_action(state, a)
        assert GAME.parse_action(state, shlex.split(line)) == a, line


def test_the_demo_drive_replays_through_several_features() -> None:
    played = replay(DEMO.read_text(encoding="utf-8"))
    kinds = {e.kind for e in played.events}
    assert {"door", "passage", "rune", "trap", "stunned", "winds", "reserves"} <= kinds
    assert played.state.door_state("D1") == "smashed" and played.state.door_state("D4") == "locked"


@pytest.mark.parametrize("line, problem", [
    ("Orcs fly o1 3,3", "unknown verb 'fly'"),
    ("Orcs step o1 3", "a square is X,Y"),
    ("Orcs step o1 3,3 swim", "walk, rush, ladder or pushed"),
    ("Trolls end", "no team called 'Trolls'"),
    ("Orcs step o9 3,3", "no model called 'o9'"),
    ("Orcs add o2 1,1 skills=flying", "unknown skill"),
])
def test_bad_lines_name_the_line_and_the_problem(line: str, problem: str) -> None:
    text = f"variant dungeonbowl\noption dungeon={LAB}\nplayer Orcs\nplayer Elves\n" \
           f"set model Orcs o1 2,2\nset play\n{line}\n"
    with pytest.raises(TranscriptError) as info:
        replay(text)
    assert info.value.number == 7 and problem in str(info.value)


def test_bad_map_option_names_the_map_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("grid\n#1Q2#\n", encoding="utf-8")
    with pytest.raises(TranscriptError) as info:
        replay(f"variant dungeonbowl\noption dungeon={bad}\nplayer A\nplayer B\n")
    assert info.value.number == 2 and "line 2, column 3" in str(info.value)


def test_companion_script_exits_2_on_a_bad_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("variant dungeonbowl\nplayer Orcs\nplayer Elves\nOrcs kickoff\n"
                    "Orcs walk o1 2,2\n", encoding="utf-8")
    assert main(["script", str(path)]) == 2
    assert "line 4" in capsys.readouterr().err  # no models yet: the kick-off is refused
    assert main(["script", str(DEMO)]) == 0


def test_set_lines_say_what_is_wrong() -> None:
    state = position(play=False)
    for words, problem in ((["set", "door", "D9", "open"], "set door ID STATE"),
                           (["set", "model", "Orcs", "o1", "99,99"], "not a square"),
                           (["set", "ball", "b1", "holder=zz"], "no model"),
                           (["set", "model", "Orcs", "o1", "-", "status=passage"], "passage=ID"),
                           (["set", "trap", "3,3", "bear"], "a trap is one of"),
                           (["set", "weather", "rain"], "set door|model")):
        with pytest.raises(ValueError, match=problem):
            GAME.apply_set(state, words)


def test_options_are_checked() -> None:
    for key, value, problem in (("ball", "golden", "rolled or normal"),
                                ("multiball", "chaos", "standard, first_score"),
                                ("balls", "9", "1 to 6"), ("sides", "1-2", "by number"),
                                ("trap_tokens", "cards", "table or virtual"),
                                ("weather", "rain", "not a setting"),
                                ("dungeon", "atlantis", "no bundled dungeon")):
        with pytest.raises(ValueError, match=problem):
            GAME.parse_option(key, value)


def test_state_json_shows_the_dungeon_teams_and_the_pending_roll() -> None:
    state = position("set model Orcs o1 2,1")
    state, _ = act(state, "Orcs open o1 D1")
    data = GAME.state_json(state)
    assert data["dungeon"] == "Lab" and data["doors"] == {"D1": "closed", "D2": "closed"}
    assert data["teams"][0]["name"] == "Orcs" and data["teams"][0]["score"] == 0
    assert data["pending"][1] == "dice: 1 d6; target 2+"
    assert data["legal_actions"] == ["Orcs roll"]  # a roll listed without its dice


def test_a_map_path_with_spaces_is_quoted_in_the_header_and_read_back(tmp_path: Path) -> None:
    folder = tmp_path / "my maps #2"
    folder.mkdir()
    path = folder / "lab map.txt"
    path.write_text(Path(LAB).read_text(encoding="utf-8"), encoding="utf-8")
    state = GAME.new_game(["Orcs", "Elves"], {"dungeon": str(path)})
    header = header_lines(GAME, state)
    option = next(line for line in header if line.startswith("option dungeon="))
    assert shlex.split(option, comments=True) == ["option", f"dungeon={path}"]
    again = replay("\n".join([*header, "Orcs add o1 1,1", "Elves add e1 9,1", "Orcs kickoff"]) + "\n")
    assert again.state.options.dungeon == str(path)
    assert again.state.dungeon == state.dungeon
    plain = header_lines(GAME, GAME.new_game(["Orcs", "Elves"], {"dungeon": LAB}))
    assert f"option dungeon={LAB}" in plain  # a plain path stays as it is
