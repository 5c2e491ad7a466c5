"""Transcripts: the ``companion script`` command, and writing a game out and reading it back
(the transcript vectors are replayed by tests/conformance/test_conformance_vectors.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.transcript import TranscriptError, replay

VECTORS = Path(__file__).resolve().parents[1] / "conformance" / "vectors"


def test_script_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["script", str(VECTORS / "monopoly" / "trade-and-build.txt"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("variant", "current_player", "pot", "bank", "players", "squares",
                "legal_actions", "events"):
        assert key in out
    player = out["players"][0]
    for key in ("name", "cash", "position", "in_jail", "bankrupt", "properties",
                "get_out_of_jail_cards"):
        assert key in player
    assert set(out["bank"]) == {"houses", "hotels"}
    assert out["squares"]["Boardwalk"] == {"owner": None, "houses": 0, "hotel": False,
                                           "mortgaged": False}


def test_a_bad_line_exits_2_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("variant monopoly\nplayer Ann\nplayer Bob\nAnn roll 3 9\n")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "script", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "line 4" in proc.stderr and "Ann roll 3 9" in proc.stderr and "1 to 6" in proc.stderr


@pytest.mark.parametrize("text, problem", [
    ("variant chess\n", "unknown variant"),
    ("player Ann\nplayer Bob\nAnn fly\n", "unknown verb"),
    ("player Ann\nplayer Bob\nAnn build Atlantis\n", "no square named"),
    ("player Ann\nplayer Bob\nset player Zed cash=5\n", "no player named"),
    ("player Ann\nplayer Bob\noption house_rules=on\n", "unknown option"),
    ("player Ann\nplayer Bob\nAnn roll 1 2\noption auctions=false\n", "header"),
    ("option free_parking_pot=maybe\nplayer Ann\nplayer Bob\n", "true or false"),
    ('player Ann\nplayer Bob\nset square "Boardwalk" houses=2\n', "unowned"),
    ("player Ann\nplayer Ann\n", "same name"),
    ('player Ann\nplayer Bob\nAnn build "Park Place\n', "quotes"),
])
def test_bad_transcripts_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        replay(text)


def test_example_game_replays_to_its_winner() -> None:
    from companion.cli import EXAMPLE_TRANSCRIPT

    result = replay(EXAMPLE_TRANSCRIPT.read_text())
    assert result.state.outcome is not None and result.state.outcome.winner


def test_play_replay_prints_turns_and_standings(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import EXAMPLE_TRANSCRIPT

    assert main(["play", "--replay", str(EXAMPLE_TRANSCRIPT)]) == 0
    out = capsys.readouterr().out
    assert "Turn 1:" in out and "Final standings" in out and "Winner:" in out
