"""Session: journal before state, resume at the same decision, undo, export, bad files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.bots import DiceRoller
from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Buy, EndTurn, Roll
from companion.games.monopoly.bots import HeuristicBot
from companion.journal import Journal, JournalError
from companion.session import Session, SessionError, choose_variant, fresh_path
from companion.transcript import replay

PLAYERS = [("Ann", ""), ("Ben", "")]


def play(session: Session, steps: int, seed: int = 3) -> None:
    for k in range(steps):
        rules, state = session.rules, session.state
        if state.outcome is not None:
            return
        acts = rules.legal_actions(state, rules.deciders(state))
        action = HeuristicBot(seed + k).choose(rules, state, acts)
        action = DiceRoller(seed * 1000 + k).fill(rules, state, action)
        session.apply(action)


def test_apply_commits_to_the_journal_before_the_state_changes(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    session = Session.new(path, "monopoly", PLAYERS, seed=5)
    seen: list[tuple[int, int]] = []
    journal = session.journal
    assert journal is not None
    original = journal.append

    def spying_append(line: str) -> int:
        # at commit time the session still shows the old state
        seen.append((len(session.lines), session.state.players[0].position))
        return original(line)

    journal.append = spying_append  # type: ignore[method-assign]
    applied = session.apply(Roll(0, (1, 2)))
    assert seen == [(0, 0)]
    assert applied.seq == 1 and applied.line == "Ann roll 1 2"
    assert session.state.players[0].position == 3
    with Journal.open(path) as other:
        assert other.lines() == ["Ann roll 1 2"]
    session.close()


def test_a_refused_or_unsaved_action_changes_nothing(tmp_path: Path) -> None:
    session = Session.new(tmp_path / "g.sqlite", "monopoly", PLAYERS)
    before = session.state
    with pytest.raises(IllegalActionError):
        session.apply(EndTurn(0))  # must roll first
    assert session.state is before and session.lines == []
    journal = session.journal
    assert journal is not None

    def broken(line: str) -> int:
        raise JournalError("disk full")

    journal.append = broken  # type: ignore[method-assign]
    with pytest.raises(SessionError, match="disk full"):
        session.apply(Roll(0, (1, 2)))
    assert session.state is before and session.lines == []
    session.close()


def test_resume_reopens_the_same_decision(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    session = Session.new(path, choose_variant("dungeonopoly"),
                          [("Ann", "fighter"), ("Ben", "fighter")]
                          if choose_variant("dungeonopoly") == "dungeonopoly" else PLAYERS,
                          seed=2)
    play(session, 60)
    state, lines = session.state, list(session.lines)
    session.close()
    again = Session.resume(path)
    assert again.state == state
    assert again.lines == lines
    assert again.rules.waiting_for(again.state) == session.rules.waiting_for(state)
    assert again.rules.legal_actions(again.state) == session.rules.legal_actions(state)
    again.close()


def test_undo_takes_back_actions_and_the_journal_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    session = Session.new(path, "monopoly", PLAYERS, seed=1)
    session.apply(Roll(0, (1, 2)))  # Baltic Avenue
    after_roll = session.state
    session.apply(Buy(0))
    assert session.state.squares[3].owner == 0
    taken = session.undo(1)
    assert taken == ["Ann buy"]
    assert session.state == after_roll
    session.close()
    again = Session.resume(path)
    assert again.lines == ["Ann roll 1 2"]
    assert again.journal is not None and [u.line for u in again.journal.undone()] == ["Ann buy"]
    with pytest.raises(SessionError, match="only 1"):
        again.undo(2)
    again.close()


def test_export_is_a_transcript_that_replays_to_the_same_state(tmp_path: Path) -> None:
    session = Session.new(tmp_path / "g.sqlite", "monopoly", PLAYERS, seed=9)
    play(session, 80)
    text = session.export_transcript()
    assert replay(text).state == session.state
    session.close()


def test_a_corrupt_file_is_reported_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    session = Session.new(path, "monopoly", PLAYERS)
    session.apply(Roll(0, (2, 2)))
    session.close()
    data = bytearray(path.read_bytes())
    data[120:4000] = b"\x00" * (4000 - 120)
    path.write_bytes(bytes(data))
    with pytest.raises(SessionError) as err:
        Session.resume(path)
    assert str(path) in str(err.value)
    assert path.read_bytes() == bytes(data)


def test_a_foreign_database_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "photos.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos(id INTEGER)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SessionError, match="another program"):
        Session.open_or_new(path, "monopoly", PLAYERS)
    assert path.read_bytes() == before


def test_a_failed_load_keeps_the_running_game(tmp_path: Path) -> None:
    good = Session.new(tmp_path / "good.sqlite", "monopoly", PLAYERS)
    good.apply(Roll(0, (3, 3)))
    state = good.state
    (tmp_path / "bad.sqlite").write_text("not a database at all, just text" * 10)
    with pytest.raises(SessionError, match="not a saved game"):
        Session.resume(tmp_path / "bad.sqlite")
    assert good.state is state
    good.apply(Buy(0))  # still playable
    assert good.lines == ["Ann roll 3 3", "Ann buy"]
    good.close()


def test_fresh_path_never_names_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    path.write_text("x")
    new = fresh_path(path)
    assert new != path and not new.exists() and new.suffix == ".sqlite"


def test_new_refuses_an_unknown_variant_or_bad_players(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="unknown variant"):
        Session.new(tmp_path / "a.sqlite", "chess", PLAYERS)
    with pytest.raises(SessionError, match="2 to 8"):
        Session.memory("monopoly", [("Solo", "")])


def test_the_table_log_folds_a_repeated_line() -> None:
    from companion.session import TableLog

    log = TableLog(maxlen=4)
    log.extend(["Ann rolled 3-4 (7)", "Dee trains Rob Bank", "Dee trains Rob Bank",
                "Dee trains Rob Bank"])
    assert list(log) == ["Ann rolled 3-4 (7)", "Dee trains Rob Bank (3 times)"]
    log.append("Dee trains Open Locks")
    log.append("Dee trains Rob Bank")  # not next to the earlier run: a line of its own
    assert list(log)[-2:] == ["Dee trains Open Locks", "Dee trains Rob Bank"]
    for i in range(5):
        log.append(f"line {i}")
    assert len(log) == 4 and log[-1] == "line 4"
