"""Every game, every table: the bot game written as a transcript replays to the identical final
state and JSON; written to a journal and resumed it is the identical state; undo of N actions
gives the state N actions back, in the journal too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.harness import (
    BotGame,
    Case,
    Journaled,
    json_text,
    replay,
    state_json,
    table_options,
)


def test_replay_round_trip(kit_game: Any, played: BotGame) -> None:
    text = played.transcript()
    result = replay(text)
    assert result.state == played.final
    expected = json_text(state_json(kit_game, played.final, played.events))
    assert json_text(result.json()) == expected
    assert result.lines == played.lines()[len(played.header):]
    # the replay written out again is the same transcript
    assert "".join(f"{line}\n" for line in (*played.header, *result.lines)) == text


def test_journal_round_trip_and_undo(kit_game: Any, case: Case, played: BotGame,
                                     tmp_path: Path) -> None:
    table = case.table
    n = min(case.conformance.journal_steps, len(played.steps))
    assert n >= 6, "too short a game to undo in"
    states = played.states
    path = tmp_path / "game.sqlite"
    options = table_options(kit_game, dict(table.options)) if table.options else None
    journal = Journaled.start(path, case.variant, table.players, table.seed, options)
    assert journal.header == played.header
    for k, step in enumerate(played.steps[:n], start=1):
        journal.apply(step.action)
        assert journal.state == step.after, f"step {k}"
    expected_lines = played.lines()[len(played.header):][:n]
    assert journal.lines == expected_lines
    journal.close()

    resumed = Journaled.resume(path)
    assert resumed.state == states[n]
    assert json_text(state_json(resumed.game, resumed.state)) == \
        json_text(state_json(kit_game, states[n]))
    assert resumed.undo(1) == expected_lines[-1:]
    assert resumed.state == states[n - 1]
    assert resumed.undo(4) == expected_lines[-5:-1]
    assert resumed.state == states[n - 5]
    resumed.close()

    reopened = Journaled.resume(path)  # the undo is in the file
    assert reopened.state == states[n - 5] and reopened.lines == expected_lines[:-5]
    for step in played.steps[n - 5:n]:  # the same actions again lead to the same state
        reopened.apply(step.action)
    assert reopened.state == states[n]
    assert reopened.transcript() == "".join(
        f"{line}\n" for line in (*played.header, *expected_lines))
    reopened.close()
