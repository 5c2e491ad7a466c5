"""The saved game: a SQLite journal of text lines, each committed before the screen changes.

A journal holds a header (variant, options, seed, players: whatever lines the session writes when
the game starts) and then one line per applied action, in order. Replaying the header and the
actions through the rules engine rebuilds the game at the same decision after a power cut.

Durability: the file is in WAL mode with ``synchronous=FULL``, so :meth:`Journal.append` returns
only after the line is on the storage device; the caller updates the screen after that. A new
journal is built in a temporary file and renamed into place, so a crash while creating one never
leaves a journal without its header.

Safety: :meth:`Journal.open` checks the file before writing anything (SQLite header, application
id, schema version, tables, ``PRAGMA quick_check``) through a read-only, immutable connection. A
damaged file, a non-SQLite file or another program's database raises :class:`JournalError` and is
never modified, renamed or deleted, so the caller keeps its previous good state.

Undo (referee corrections) removes the last actions and keeps them in an ``undone`` table, so the
audit trail of what was corrected stays in the file.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

SCHEMA_VERSION = 1
APPLICATION_ID = 0x44706C79  # "Dply"
APP_NAME = "dungeonopoly-companion-journal"
SQLITE_MAGIC = b"SQLite format 3\x00"

_TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "header": ("pos", "line"),
    "actions": ("seq", "line", "applied_at"),
    "undone": ("id", "batch", "seq", "line", "applied_at", "undone_at"),
}
_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE header(pos INTEGER PRIMARY KEY, line TEXT NOT NULL);
CREATE TABLE actions(seq INTEGER PRIMARY KEY, line TEXT NOT NULL, applied_at REAL NOT NULL);
CREATE TABLE undone(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    batch INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    applied_at REAL NOT NULL,
    undone_at REAL NOT NULL
);
"""


class JournalError(Exception):
    """The journal cannot be created, opened or written; the message says what to do."""


@dataclass(frozen=True)
class UndoneAction:
    """An action line taken back by :meth:`Journal.undo`, kept for the audit trail."""

    batch: int
    seq: int
    line: str
    applied_at: float
    undone_at: float


def _check_line(line: str, what: str) -> str:
    if not isinstance(line, str):
        raise JournalError(f"a journal {what} line must be text, got {type(line).__name__}")
    if not line.strip() or any(c in line for c in "\r\n\x00"):
        raise JournalError(
            f"a journal {what} line must be one non-empty line of text without line breaks, "
            f"got {line!r}"
        )
    return line


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _configure(conn: sqlite3.Connection) -> None:
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise JournalError(
            f"the journal could not be switched to WAL mode (got {mode!r}): keep the saved game "
            "on a local disk (not a network share)"
        )
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")


def check_journal_file(path: str | Path) -> None:
    """Raise :class:`JournalError` unless ``path`` is an intact journal of ours; writes nothing."""
    path = Path(path)
    if not path.exists():
        raise JournalError(f"no saved game at {path}: start a new game")
    if not path.is_file():
        raise JournalError(f"{path} is not a file: give the path of a saved game (.sqlite)")
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise JournalError(f"cannot read saved game {path}: {exc}") from exc
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        raise JournalError(
            f"{path} is not a saved game: it is not a SQLite database (damaged, truncated or "
            "another kind of file). It was left untouched; start a new game or pick another file"
        )
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open saved game {path}: {exc}") from exc
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise JournalError(
                f"{path} is a SQLite database of another program (application id {app_id:#x}), "
                "not a companion saved game. It was left untouched; pick another file"
            )
        if version != SCHEMA_VERSION:
            newer = version > SCHEMA_VERSION
            raise JournalError(
                f"{path} is a saved game of schema version {version}, this program reads "
                f"version {SCHEMA_VERSION}: "
                + ("update the companion to open it" if newer else "it cannot be read any more")
            )
        for table, columns in _TABLES.items():
            found = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
            if found != columns:
                raise JournalError(
                    f"{path} is not a valid companion saved game: table {table!r} is "
                    f"{'missing' if not found else 'different'}. It was left untouched"
                )
        result = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if result != ["ok"]:
            raise JournalError(
                f"{path} is damaged (SQLite check: {'; '.join(map(str, result[:3]))}). It was "
                "left untouched; export what can be read with the sqlite3 tool, or start a new game"
            )
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("app") != APP_NAME:
            raise JournalError(f"{path} is not a companion saved game (wrong 'app' marker)")
    except sqlite3.DatabaseError as exc:
        raise JournalError(
            f"{path} is damaged or not a saved game (SQLite: {exc}). It was left untouched; "
            "start a new game or pick another file"
        ) from exc
    finally:
        conn.close()


class Journal:
    """An open saved game. Use :meth:`create` or :meth:`open`; close it (or use ``with``)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, header_lines: Iterable[str]) -> Journal:
        """Start a new journal with its header; refuses to overwrite an existing file."""
        path = Path(path)
        header = [_check_line(line, "header") for line in header_lines]
        if path.exists():
            raise JournalError(
                f"a saved game already exists at {path}: open it to continue that game, or move "
                "it away to start a new one"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot create folder {path.parent} for the saved game: {exc}"
            ) from exc
        tmp = path.with_name(f".{path.name}.creating-{os.getpid()}")
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                _configure(conn)
                conn.execute("BEGIN")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.executemany(
                    "INSERT INTO meta(key, value) VALUES(?, ?)",
                    [
                        ("app", APP_NAME),
                        ("schema_version", str(SCHEMA_VERSION)),
                        ("created_at", f"{time.time():.3f}"),
                    ],
                )
                conn.executemany(
                    "INSERT INTO header(pos, line) VALUES(?, ?)", list(enumerate(header))
                )
                conn.execute("COMMIT")
            finally:
                conn.close()  # checkpoints the WAL into the file
            with tmp.open("rb+") as fh:
                os.fsync(fh.fileno())
            try:
                os.link(tmp, path)  # fails instead of clobbering a file created meanwhile
                tmp.unlink()
            except FileExistsError:
                raise JournalError(f"a saved game appeared at {path} while creating it") from None
            except OSError:
                os.replace(tmp, path)  # file systems without hard links
            _fsync_dir(path.parent)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot create saved game {path}: {exc}") from exc
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                leftover.unlink(missing_ok=True)
        return cls.open(path)

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        """Open an existing journal after checking it (see :func:`check_journal_file`)."""
        path = Path(path)
        check_journal_file(path)
        try:
            conn = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open saved game {path}: {exc}") from exc
        try:
            _configure(conn)
            conn.execute("SELECT COUNT(*) FROM actions").fetchone()
        except (sqlite3.Error, JournalError) as exc:
            conn.close()
            if isinstance(exc, JournalError):
                raise
            raise JournalError(f"cannot open saved game {path}: {exc}") from exc
        return cls(conn, path)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"cannot {what} in {self.path}: {exc}") from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(
                    f"could not {what} in {self.path} ({exc}); nothing was saved: check free "
                    "space on the SD card, then try again"
                ) from exc
            raise

    def append(self, line: str) -> int:
        """Commit one action line (durably) and return its sequence number, 1 for the first."""
        _check_line(line, "action")
        with self._write("save the action") as conn:
            seq = int(conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions").fetchone()[0])
            conn.execute(
                "INSERT INTO actions(seq, line, applied_at) VALUES(?, ?, ?)",
                (seq, line, time.time()),
            )
        return seq

    def undo(self, n: int = 1) -> list[str]:
        """Take back the last ``n`` actions (oldest first in the result); kept in ``undone``."""
        if n < 0:
            raise JournalError(f"cannot undo {n} actions: give a count of 0 or more")
        if n == 0:
            return []
        with self._write("undo") as conn:
            rows = conn.execute(
                "SELECT seq, line, applied_at FROM actions ORDER BY seq DESC LIMIT ?", (n,)
            ).fetchall()
            if len(rows) < n:
                raise JournalError(f"cannot undo {n} actions: the game has only {len(rows)}")
            batch = int(
                conn.execute("SELECT COALESCE(MAX(batch), 0) + 1 FROM undone").fetchone()[0]
            )
            now = time.time()
            rows.reverse()
            conn.executemany(
                "INSERT INTO undone(batch, seq, line, applied_at, undone_at) VALUES(?, ?, ?, ?, ?)",
                [(batch, seq, line, at, now) for seq, line, at in rows],
            )
            conn.execute("DELETE FROM actions WHERE seq >= ?", (rows[0][0],))
        return [line for _, line, _ in rows]

    # -- reading ---------------------------------------------------------------------------

    def header(self) -> list[str]:
        return [row[0] for row in self._conn.execute("SELECT line FROM header ORDER BY pos")]

    def lines(self) -> list[str]:
        """The action lines in the order they were applied."""
        return [row[0] for row in self._conn.execute("SELECT line FROM actions ORDER BY seq")]

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])

    def undone(self) -> list[UndoneAction]:
        return [
            UndoneAction(*row)
            for row in self._conn.execute(
                "SELECT batch, seq, line, applied_at, undone_at FROM undone ORDER BY id"
            )
        ]

    def export_transcript(self) -> str:
        """The header lines, then the action lines, one per line (undone actions left out)."""
        return "".join(f"{line}\n" for line in (*self.header(), *self.lines()))


# -- command line (wired into `companion` by the lead) ---------------------------------------


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion journal check|export PATH``."""
    parser = subparsers.add_parser("journal", help="check or export a saved game")
    sub = parser.add_subparsers(dest="journal_command", required=True)
    check = sub.add_parser("check", help="check that a saved game is intact (writes nothing)")
    check.add_argument("path", type=Path)
    check.set_defaults(func=_cmd_check)
    export = sub.add_parser("export", help="print a saved game as a transcript")
    export.add_argument("path", type=Path)
    export.add_argument("-o", "--output", type=Path, help="write to this file instead of stdout")
    export.set_defaults(func=_cmd_export)


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        check_journal_file(args.path)
        with Journal.open(args.path) as journal:
            print(
                f"{args.path}: intact saved game, {len(journal.header())} header lines, "
                f"{len(journal)} actions, {len(journal.undone())} undone"
            )
    except JournalError as exc:
        print(f"error: {exc}")
        return 1
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    try:
        with Journal.open(args.path) as journal:
            text = journal.export_transcript()
    except JournalError as exc:
        print(f"error: {exc}")
        return 1
    if args.output is None:
        print(text, end="")
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc}")
        return 1
    print(f"wrote {len(text.splitlines())} lines to {args.output}")
    return 0
