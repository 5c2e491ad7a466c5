"""Faults a saved game meets: lost -wal files, flipped bytes, truncation, kills while creating,
read-only files; and that checking, exporting and backing up write nothing at the game."""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.journal import (
    APPLICATION_ID,
    Journal,
    JournalError,
    _advice,
    header_digest,
    inspect,
    line_digest,
    register,
)
from companion.session import Session

HEADER = ["variant monopoly", "seed 7", "player Ann", "player Ben"]
LINES = ["Ann roll 3 4", "Ann buy", "Ann end", "Ben roll 2 2", "Ben decline"]


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["journal", *argv])
    return int(args.func(args))


def _game(path: Path, lines: list[str] = LINES) -> Journal:
    journal = Journal.create(path, HEADER)
    for line in lines:
        journal.append(line)
    return journal


def test_the_main_file_alone_holds_every_acknowledged_action(tmp_path: Path) -> None:
    """A power cut after the -wal file was deleted (or a backup of the main file only) loses
    nothing: each write is checkpointed into the main file."""
    path = tmp_path / "game.sqlite"
    journal = _game(path)
    copy = tmp_path / "copy" / "game.sqlite"
    copy.parent.mkdir()
    shutil.copyfile(path, copy)  # the main file only, while the game is open
    journal.close()
    with Journal.open(copy) as again:
        assert again.lines() == LINES


def test_check_tells_an_unclean_journal_without_its_wal_from_an_intact_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.sqlite"
    journal = _game(path)
    lost = tmp_path / "lost"
    lost.mkdir()
    shutil.copyfile(path, lost / "game.sqlite")
    journal.close()
    assert _cli("check", str(path)) == 0
    assert "intact saved game, 4 header lines, 5 actions" in capsys.readouterr().out
    report = inspect(lost / "game.sqlite")
    assert not report.closed and not report.wal and report.actions == 5
    assert _cli("check", str(lost / "game.sqlite")) == 0
    assert "not closed cleanly, and its -wal file is missing" in capsys.readouterr().out


def test_a_truncated_journal_is_named_truncated(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    _game(path, [f"Ann roll 3 4 {'x' * 300}" for _ in range(60)]).close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = _files(tmp_path)
    with pytest.raises(JournalError, match="truncated"):
        Journal.open(path)
    assert _cli("check", str(path)) == 1
    assert _files(tmp_path) == before


def _flip_in_line(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert data.count(old) == 1, "the line to damage must appear once in the file"
    path.write_bytes(data.replace(old, new))


def test_an_edited_roll_is_detected_and_the_game_resumes_at_the_last_good_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.sqlite"
    _game(path).close()
    _flip_in_line(path, b"Ben roll 2 2", b"Ben roll 2 3")  # one digit: another game
    before = _files(tmp_path)
    assert _cli("check", str(path)) == 1
    assert "damaged at action 4" in capsys.readouterr().out
    assert _files(tmp_path) == before  # check wrote nothing
    assert _cli("export", str(path)) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == HEADER + LINES[:3] and "damaged at action 4" in out.err
    session = Session.resume(path)
    try:
        assert session.lines == LINES[:3]
        assert any("damaged at action 4" in line for line in session.log)
        assert session.journal is not None
        assert session.journal.damaged() == ["Ben roll 2 3", "Ben decline"]  # kept, not lost
        session.journal.append("Ben roll 1 2")  # the chain goes on from the last good line
    finally:
        session.close()
    with Journal.open(path) as again:
        assert again.damage is None and again.lines() == [*LINES[:3], "Ben roll 1 2"]


def test_damage_to_a_header_line_marks_every_action(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    _game(path).close()
    _flip_in_line(path, b"seed 7", b"seed 8")
    with Journal.open(path) as journal:
        assert journal.damage is not None and journal.damage.seq == 1 and journal.lines() == []
        assert len(journal.damaged()) == len(LINES)


def test_check_export_and_backup_write_nothing_even_with_a_wal(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    path = tmp_path / "game.sqlite"
    journal = _game(path)
    conn = journal._conn
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("INSERT INTO meta(key, value) VALUES('note', 'in the wal only')")
    assert Path(f"{path}-wal").stat().st_size > 0
    before = _files(tmp_path)
    assert _cli("check", str(path)) == 0
    assert _cli("export", str(path)) == 0
    target = tmp_path.parent / f"{tmp_path.name}-backup.sqlite"
    assert _cli("backup", str(path), str(target)) == 0
    assert _files(tmp_path) == before
    journal.close()
    with Journal.open(target) as copy:
        assert copy.header() == HEADER and copy.lines() == LINES
    assert _cli("backup", str(path), str(target)) == 1
    assert "already exists" in capsys.readouterr().out


def test_backup_of_an_open_game(tmp_path: Path) -> None:
    with _game(tmp_path / "game.sqlite") as journal:
        journal.backup(tmp_path / "b.sqlite")
        with pytest.raises(JournalError, match="already exists"):
            journal.backup(tmp_path / "b.sqlite")
    with Journal.open(tmp_path / "b.sqlite") as copy:
        assert copy.lines() == LINES


def test_leftovers_of_a_creation_cut_short_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    dead = 2**22 + 12345  # above any pid this machine hands out
    stale = [tmp_path / f".game.sqlite.creating-{dead}",
             tmp_path / f".game.sqlite.creating-{dead}-wal"]
    for leftover in stale:
        leftover.write_bytes(b"half a journal")
    Journal.create(path, HEADER).close()
    assert not any(p.exists() for p in stale)
    stale[0].write_bytes(b"again")
    Journal.open(path).close()
    assert not stale[0].exists()


def test_a_read_only_file_gets_read_only_advice_not_free_space() -> None:
    exc = sqlite3.OperationalError("attempt to write a readonly database")
    text = _advice(exc, Path("/x/game.sqlite"))
    assert "read-only" in text and "free space" not in text
    full = _advice(sqlite3.OperationalError("database or disk is full"), Path("/x/g.sqlite"))
    assert "free space" in full


def test_a_version_1_journal_is_upgraded_with_its_lines_hashed(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("PRAGMA user_version=1")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript("""
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE header(pos INTEGER PRIMARY KEY, line TEXT NOT NULL);
        CREATE TABLE actions(seq INTEGER PRIMARY KEY, line TEXT NOT NULL, applied_at REAL NOT NULL);
        CREATE TABLE undone(id INTEGER PRIMARY KEY AUTOINCREMENT, batch INTEGER NOT NULL,
            seq INTEGER NOT NULL, line TEXT NOT NULL, applied_at REAL NOT NULL,
            undone_at REAL NOT NULL);
        INSERT INTO meta VALUES('app', 'dungeonopoly-companion-journal'), ('schema_version', '1');
    """)
    conn.executemany("INSERT INTO header VALUES(?, ?)", list(enumerate(HEADER)))
    conn.executemany("INSERT INTO actions VALUES(?, ?, 0)", [(i + 1, x) for i, x in
                                                               enumerate(LINES)])
    conn.commit()
    conn.close()
    assert inspect(path).version == 1
    with Journal.open(path) as journal:
        assert journal.lines() == LINES and journal.damage is None
        digest = header_digest(HEADER)
        for line in LINES:
            digest = line_digest(digest, line)
        stored = journal._conn.execute("SELECT digest FROM actions ORDER BY seq DESC").fetchone()
        assert stored[0] == digest
    assert inspect(path).version == 2
