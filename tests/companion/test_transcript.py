"""Transcripts: the ``companion script`` command and the framing every game shares (header
lines, order, errors with line numbers). Monopoly's own lines are tested beside its package;
the transcript vectors are replayed by tests/conformance/test_conformance_vectors.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.transcript import TranscriptError, replay

VECTORS = Path(__file__).resolve().parents[1] / "conformance" / "vectors"


def test_a_bad_line_exits_2_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("variant monopoly\nplayer Ann\nplayer Bob\nAnn roll 3 9\n")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "script", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "line 4" in proc.stderr and "Ann roll 3 9" in proc.stderr and "1 to 6" in proc.stderr


@pytest.mark.parametrize("text, problem", [
    ("variant chess\n", "unknown variant"),
    ("player Ann\nplayer Bob\nAnn roll 1 2\noption auctions=false\n", "header"),
    ('player Ann\nplayer Bob\nAnn build "Park Place\n', "quotes"),
    ("variant\nplayer Ann\nplayer Bob\n", "variant NAME"),
    ("seed one\nplayer Ann\nplayer Bob\n", "whole number"),
    ("player\nplayer Bob\n", r"player NAME \[CLASS\]"),
    ("player Ann\nplayer Bob\nAnn roll 3 4\nset pot 5\n", "before the first action"),
])
def test_bad_framing_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        replay(text)


def test_a_bad_line_is_named_by_its_number() -> None:
    with pytest.raises(TranscriptError) as caught:
        replay("# a comment\n\nplayer Ann\nplayer Bob\nAnn fly\n")
    assert caught.value.number == 5 and caught.value.line == "Ann fly"


def test_example_game_replays_to_its_winner() -> None:
    from companion.cli import EXAMPLE_TRANSCRIPT

    result = replay(EXAMPLE_TRANSCRIPT.read_text())
    assert result.state.outcome is not None and result.state.outcome.winner


def test_play_replay_prints_turns_and_standings(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import EXAMPLE_TRANSCRIPT

    assert main(["play", "--replay", str(EXAMPLE_TRANSCRIPT)]) == 0
    out = capsys.readouterr().out
    assert "Turn 1:" in out and "Final standings" in out and "Winner:" in out


# --- header problems are reported at the header line (issue 33) -------------------------------
def test_a_bad_deck_line_is_reported_at_the_deck_line_not_the_first_action() -> None:
    with pytest.raises(TranscriptError) as caught:
        replay("variant monopoly\nseed 1\nplayer Ann\nplayer Bob\ndeck chance nonsense_card\n"
               "\n# play\nAnn roll 5 2\n")
    assert caught.value.number == 5 and caught.value.line == "deck chance nonsense_card"
    assert "nonsense_card" in caught.value.problem


def test_an_unknown_class_is_reported_at_its_player_line() -> None:
    with pytest.raises(TranscriptError) as caught:
        replay("variant dungeonopoly\nplayer Ann fighter\nplayer Bob wizzard\nAnn roll 1 2\n")
    assert caught.value.number == 3 and "wizzard" in caught.value.problem


def test_too_few_players_is_reported_at_the_last_header_line() -> None:
    with pytest.raises(TranscriptError) as caught:
        replay("variant monopoly\nplayer Ann\n")
    assert caught.value.number == 2 and "2 to 8 players" in caught.value.problem


def test_an_empty_transcript_says_so_without_a_line_0() -> None:
    with pytest.raises(TranscriptError) as caught:
        replay("# nothing here\n\n")
    text = str(caught.value)
    assert "line 0" not in text and "''" not in text
    assert "no header, set or action lines" in text and "players" in text


@pytest.mark.parametrize("data, says", [
    (bytes(range(256)) * 4, "binary file, not a transcript"),
    ("player Ann\nplayer Bøb\n".encode("latin-1"), "byte 0xf8 on line 2 is not text"),
])
def test_a_file_that_is_not_text_gets_one_clear_line(tmp_path: Path, data: bytes, says: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(data)
    assert main(["script", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1 and "codec" not in err
    assert main(["play", "--replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "codec" not in err
