"""The saved game: a SQLite journal of text lines, each committed before the screen changes.

A journal holds a header (variant, options, seed, players: whatever lines the session writes when
the game starts) and then one line per applied action, in order. Replaying the header and the
actions through the rules engine rebuilds the game at the same decision after a power cut.

Durability: the file is in WAL mode with ``synchronous=FULL``, so :meth:`Journal.append` returns
only after the line is on the storage device; the caller updates the screen after that. Every
write is then checkpointed into the main file, so the main file alone holds the whole game (a
lost or deleted ``-wal`` file loses nothing acknowledged, and a copy of the main file is a
backup). Copies are made with SQLite's backup API (:meth:`Journal.backup`, ``companion journal
backup``). A new journal is built in a temporary file and renamed into place, so a crash while
creating one never leaves a journal without its header; leftovers of a creation cut short are
removed the next time a journal is created or opened in that folder.

Integrity: each action line carries a running hash over the header and every line before it
(``digest``). Opening a journal checks the chain; a line whose hash does not match (a flipped
byte, an edited roll) is named, the game resumes at the last good line, and the damaged lines
are moved to a ``damaged`` table, never deleted.

Safety: :meth:`Journal.open` checks the file before writing anything (SQLite header, application
id, schema version, tables, ``PRAGMA quick_check``) through a read-only, immutable connection. A
damaged file, a non-SQLite file or another program's database raises :class:`JournalError` and is
never modified, renamed or deleted, so the caller keeps its previous good state.

Undo (referee corrections) removes the last actions and keeps them in an ``undone`` table, so the
audit trail of what was corrected stays in the file.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.words import count

SCHEMA_VERSION = 2  # 2: action lines carry a running hash; a ``damaged`` table
READABLE_VERSIONS = (1, 2)  # version 1 journals are upgraded when opened for play
APPLICATION_ID = 0x44706C79  # "Dply"
APP_NAME = "dungeonopoly-companion-journal"
SQLITE_MAGIC = b"SQLite format 3\x00"

_TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "header": ("pos", "line"),
    "actions": ("seq", "line", "applied_at", "digest"),
    "undone": ("id", "batch", "seq", "line", "applied_at", "undone_at"),
    "damaged": ("id", "seq", "line", "applied_at", "digest", "found_at"),
}
_TABLES_V1 = {k: v for k, v in _TABLES.items() if k != "damaged"}
_TABLES_V1["actions"] = ("seq", "line", "applied_at")
_DAMAGED = """
CREATE TABLE damaged(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    applied_at REAL NOT NULL,
    digest TEXT NOT NULL,
    found_at REAL NOT NULL
)"""
_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE header(pos INTEGER PRIMARY KEY, line TEXT NOT NULL);
CREATE TABLE actions(
    seq INTEGER PRIMARY KEY, line TEXT NOT NULL, applied_at REAL NOT NULL, digest TEXT NOT NULL
);
CREATE TABLE undone(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    batch INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    applied_at REAL NOT NULL,
    undone_at REAL NOT NULL
);
""" + _DAMAGED + ";\n"


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


@dataclass(frozen=True)
class Damage:
    """Action lines whose running hash does not match: the first bad one and how many follow."""

    seq: int  # the first damaged action (1 = the first action of the game)
    count: int  # damaged lines from there to the end
    good: int  # actions before it, all intact

    @property
    def message(self) -> str:
        return (f"the saved game is damaged at action {self.seq} (its check does not match): "
                f"the game goes on after action {self.good}; the {self.count} damaged "
                f"line{'s are' if self.count != 1 else ' is'} kept in the file's 'damaged' table")


def _check_line(line: str, what: str) -> str:
    if not isinstance(line, str):
        raise JournalError(f"a journal {what} line must be text, got {type(line).__name__}")
    if not line.strip() or any(c in line for c in "\r\n\x00"):
        raise JournalError(
            f"a journal {what} line must be one non-empty line of text without line breaks, "
            f"got {line!r}"
        )
    return line


def header_digest(header: Iterable[str]) -> str:
    """The start of the running hash: a hash of the header lines."""
    return hashlib.sha256("\n".join(("header", *header)).encode()).hexdigest()[:32]


def line_digest(previous: str, line: str) -> str:
    """The running hash after ``line``, given the hash before it."""
    return hashlib.sha256(f"{previous}\n{line}".encode()).hexdigest()[:32]


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


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but is not ours
        return True
    return True


def remove_stale_creations(path: Path) -> list[Path]:
    """Delete what a journal creation cut short by a kill left beside ``path``
    (``.NAME.creating-PID`` and its ``-wal``/``-shm``) when process PID is gone."""
    removed: list[Path] = []
    try:
        candidates = list(path.parent.glob(f".{path.name}.creating-*"))
    except OSError:
        return removed
    for leftover in candidates:
        pid_text = leftover.name.rsplit(".creating-", 1)[1].split("-", 1)[0]
        if not pid_text.isdigit() or _pid_alive(int(pid_text)):
            continue
        try:
            leftover.unlink()
            removed.append(leftover)
        except OSError:
            pass
    return removed


def _lenient(conn: sqlite3.Connection) -> sqlite3.Connection:
    """Text that is not UTF-8 (a flipped bit in a saved line) is read with replacement
    characters, so the running hash names the damaged line instead of the read failing."""
    conn.text_factory = lambda data: data.decode("utf-8", "replace")
    return conn


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


def _checkpoint(conn: sqlite3.Connection) -> None:
    """Copy the WAL into the main file and empty it (the main file alone holds the game)."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def _file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a journal judged by its bytes (not SQLite, truncated), or None."""
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
        size = path.stat().st_size
    except OSError as exc:
        raise JournalError(f"cannot read saved game {path}: {exc}") from exc
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return (f"{path} is not a saved game: it is not a SQLite database (damaged, truncated or "
                "another kind of file). It was left untouched; start a new game or pick another "
                "file")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    valid = head[92:96] == head[96:100]  # the page count is kept up to date by this version
    if valid and pages and size < pages * page_size:
        return (f"{path} is truncated: {size} bytes of the {pages * page_size} its header "
                "promises. It was left untouched; restore a backup (companion journal backup) "
                "or start a new game")
    return None


def _verify(conn: sqlite3.Connection, path: Path) -> int:
    """Check an open connection's database is one of our journals; its schema version."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if app_id != APPLICATION_ID:
        raise JournalError(
            f"{path} is a SQLite database of another program (application id {app_id:#x}), "
            "not a companion saved game. It was left untouched; pick another file"
        )
    if version not in READABLE_VERSIONS:
        newer = version > SCHEMA_VERSION
        raise JournalError(
            f"{path} is a saved game of schema version {version}, this program reads "
            f"version {SCHEMA_VERSION}: "
            + ("update the companion to open it" if newer else "it cannot be read any more")
        )
    for table, columns in (_TABLES if version == 2 else _TABLES_V1).items():
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
    return version


def _damage(conn: sqlite3.Connection, version: int) -> Damage | None:
    """The first action whose running hash does not match, if any (version 2 only)."""
    if version < 2:
        return None
    header = [row[0] for row in conn.execute("SELECT line FROM header ORDER BY pos")]
    digest = header_digest(header)
    rows = conn.execute("SELECT seq, line, digest FROM actions ORDER BY seq").fetchall()
    for i, (seq, line, stored) in enumerate(rows):
        digest = line_digest(digest, line)
        if stored != digest or seq != i + 1:
            return Damage(seq=i + 1, count=len(rows) - i, good=i)
    return None


def _connect_ro(path: Path) -> sqlite3.Connection:
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    try:
        return _lenient(sqlite3.connect(uri, uri=True))
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open saved game {path}: {exc}") from exc


def check_journal_file(path: str | Path) -> None:
    """Raise :class:`JournalError` unless ``path`` is an intact journal of ours; writes nothing.

    Reads the main file alone (a ``-wal`` beside it is not applied): see :func:`inspect` for a
    full report that includes it."""
    path = Path(path)
    if not path.exists():
        raise JournalError(f"no saved game at {path}: start a new game")
    if not path.is_file():
        raise JournalError(f"{path} is not a file: give the path of a saved game (.sqlite)")
    problem = _file_problem(path)
    if problem is not None:
        raise JournalError(problem)
    conn = _connect_ro(path)
    try:
        _verify(conn, path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise JournalError(
            f"{path} is damaged or not a saved game (SQLite: {exc}). It was left untouched; "
            "start a new game or pick another file"
        ) from exc
    finally:
        conn.close()


@dataclass(frozen=True)
class Report:
    """What :func:`inspect` found in a saved game."""

    version: int
    header: int
    actions: int
    undone: int
    damage: Damage | None
    closed: bool  # the game was closed cleanly
    wal: bool  # a -wal file lies beside it

    @property
    def summary(self) -> str:
        text = (f"{count(self.header, 'header line')}, {count(self.actions, 'action')}, "
                f"{self.undone} undone"
                + ("" if self.version >= 2 else "; schema version 1, lines not hash-checked"))
        if self.damage is not None:
            return f"damaged: {self.damage.message} ({text})"
        if not self.closed and not self.wal:
            return (f"intact but not closed cleanly, and its -wal file is missing (a power cut "
                    f"or a deleted file): every checkpointed action is in the main file "
                    f"({text})")
        return f"intact saved game, {text}"


@contextmanager
def _copy_of(path: Path) -> Iterator[Path]:
    """A copy of the saved game and its ``-wal`` in a temporary folder, to read without writing
    anything at or beside ``path`` (SQLite writes beside a file it opens in WAL mode)."""
    wal = Path(f"{path}-wal")
    with tempfile.TemporaryDirectory(prefix="companion-read-") as folder:
        copy = Path(folder) / "game.sqlite"
        try:
            shutil.copyfile(path, copy)
            if wal.exists():
                shutil.copyfile(wal, Path(f"{copy}-wal"))
        except OSError as exc:
            raise JournalError(f"cannot read saved game {path}: {exc}") from exc
        yield copy


def inspect(path: str | Path) -> Report:
    """Check the saved game at ``path`` without writing to it or beside it: the file (and its
    ``-wal``, if present) is copied to a temporary folder and read there.

    Raises :class:`JournalError` for a file that is not an intact journal (missing, foreign,
    truncated, damaged pages); reports damaged action lines and an unclean close."""
    path = Path(path)
    check_journal_file(path)
    wal = Path(f"{path}-wal")
    with _copy_of(path) as copy:
        conn = _lenient(sqlite3.connect(copy))
        try:
            version = _verify(conn, path)
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            return Report(
                version=version,
                header=int(conn.execute("SELECT COUNT(*) FROM header").fetchone()[0]),
                actions=int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]),
                undone=int(conn.execute("SELECT COUNT(*) FROM undone").fetchone()[0]),
                damage=_damage(conn, version),
                closed=meta.get("open", "0") != "1",
                wal=wal.exists(),
            )
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise JournalError(
                f"{path} is damaged (SQLite: {exc}). It was left untouched; restore a backup "
                "or start a new game") from exc
        finally:
            conn.close()


class Journal:
    """An open saved game. Use :meth:`create` or :meth:`open`; close it (or use ``with``).

    ``damage`` is set when opening found damaged lines (they were moved aside; ``lines()``
    gives the intact ones)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self.damage: Damage | None = None
        self._digest = header_digest(self.header())
        last = conn.execute("SELECT digest FROM actions ORDER BY seq DESC LIMIT 1").fetchone()
        if last is not None:
            self._digest = str(last[0])

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
        remove_stale_creations(path)
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
            raise JournalError(f"cannot create saved game {path}: {_advice(exc, path)}") from exc
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                leftover.unlink(missing_ok=True)
        return cls.open(path)

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        """Open an existing journal for play after checking it (see :func:`check_journal_file`):
        a version 1 journal is upgraded, damaged lines are moved aside (``damage`` says so)."""
        path = Path(path)
        check_journal_file(path)
        if not os.access(path, os.W_OK):
            raise JournalError(
                f"the saved game {path} is read-only: make it writable (chmod u+w) to go on "
                "with it, or move it away to start a new game")
        remove_stale_creations(path)
        try:
            conn = _lenient(sqlite3.connect(path, isolation_level=None))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open saved game {path}: {exc}") from exc
        try:
            _configure(conn)
            version = _verify(conn, path)
            if version < 2:
                _upgrade(conn)
            damage = _damage(conn, 2)
            if damage is not None:
                _set_aside(conn, damage)
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('open', '1')")
            _checkpoint(conn)
        except (sqlite3.Error, JournalError, UnicodeDecodeError) as exc:
            conn.close()
            if isinstance(exc, JournalError):
                raise
            if isinstance(exc, UnicodeDecodeError):
                raise JournalError(f"{path} is damaged (its tables cannot be read: {exc}). It "
                                   "was left untouched; restore a backup or start a new game"
                                   ) from exc
            raise JournalError(f"cannot open saved game {path}: {_advice(exc, path)}") from exc
        journal = cls(conn, path)
        journal.damage = damage
        return journal

    def close(self) -> None:
        try:
            self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('open', '0')")
            _checkpoint(self._conn)
        except sqlite3.Error:
            pass  # closing must not fail: the actions are already saved
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
            raise JournalError(f"cannot {what} in {self.path}: {_advice(exc, self.path)}") from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(
                    f"could not {what} in {self.path}; nothing was saved: {_advice(exc, self.path)}"
                ) from exc
            raise
        try:
            _checkpoint(conn)
        except sqlite3.Error:
            pass  # the line is committed in the WAL; the next write checkpoints it

    def append(self, line: str) -> int:
        """Commit one action line (durably) and return its sequence number, 1 for the first."""
        _check_line(line, "action")
        digest = line_digest(self._digest, line)
        with self._write("save the action") as conn:
            seq = int(conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions").fetchone()[0])
            conn.execute(
                "INSERT INTO actions(seq, line, applied_at, digest) VALUES(?, ?, ?, ?)",
                (seq, line, time.time(), digest),
            )
        self._digest = digest
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
            last = conn.execute("SELECT digest FROM actions ORDER BY seq DESC LIMIT 1").fetchone()
        self._digest = str(last[0]) if last is not None else header_digest(self.header())
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

    def damaged(self) -> list[str]:
        """Action lines set aside as damaged, in the order they were found."""
        return [row[0] for row in self._conn.execute("SELECT line FROM damaged ORDER BY id")]

    def export_transcript(self) -> str:
        """The header lines, then the action lines, one per line (undone actions left out)."""
        return "".join(f"{line}\n" for line in (*self.header(), *self.lines()))

    def backup(self, target: str | Path) -> None:
        """A consistent copy of the saved game at ``target`` (SQLite's backup API), safe while
        the game goes on; refuses to overwrite an existing file."""
        backup_to(self._conn, self.path, Path(target))


def _advice(exc: sqlite3.Error, path: Path) -> str:
    text = str(exc)
    if "readonly" in text.replace("-", "").replace(" ", "").lower():
        return (f"{text}: the saved game {path} (or its folder) is read-only; make it writable "
                "(chmod u+w) or move it away to start a new game")
    if "disk" in text.lower() and ("full" in text.lower() or "i/o" in text.lower()):
        return f"{text}: check free space on the SD card, then try again"
    return f"{text}: check the SD card (free space, not read-only), then try again"


def _upgrade(conn: sqlite3.Connection) -> None:
    """Bring a version 1 journal to version 2: hash its lines, add the ``damaged`` table."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("ALTER TABLE actions ADD COLUMN digest TEXT NOT NULL DEFAULT ''")
        conn.execute(_DAMAGED)
        header = [row[0] for row in conn.execute("SELECT line FROM header ORDER BY pos")]
        digest = header_digest(header)
        for seq, line in conn.execute("SELECT seq, line FROM actions ORDER BY seq").fetchall():
            digest = line_digest(digest, line)
            conn.execute("UPDATE actions SET digest = ? WHERE seq = ?", (digest, seq))
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                     (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _set_aside(conn: sqlite3.Connection, damage: Damage) -> None:
    """Move the damaged lines (from ``damage.seq`` on) into the ``damaged`` table."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        rows = conn.execute("SELECT seq, line, applied_at, digest FROM actions ORDER BY seq"
                            ).fetchall()[damage.good:]
        now = time.time()
        conn.executemany(
            "INSERT INTO damaged(seq, line, applied_at, digest, found_at) VALUES(?, ?, ?, ?, ?)",
            [(*row, now) for row in rows])
        conn.executemany("DELETE FROM actions WHERE seq = ?", [(row[0],) for row in rows])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def backup_to(conn: sqlite3.Connection, source: Path, target: Path) -> None:
    if target.exists():
        raise JournalError(f"{target} already exists: give a new file name for the backup")
    tmp = target.with_name(f".{target.name}.backup-{os.getpid()}")
    try:
        dest = sqlite3.connect(tmp)
        try:
            conn.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dest.close()
        with tmp.open("rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        _fsync_dir(target.parent)
    except (sqlite3.Error, OSError) as exc:
        raise JournalError(f"cannot back up {source} to {target}: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)


def _snapshot(path: Path) -> sqlite3.Connection:
    """An in-memory copy of the saved game (with its ``-wal``) made by SQLite's backup API from
    a copy in a temporary folder: reading it writes nothing at or beside ``path``."""
    check_journal_file(path)
    with _copy_of(path) as copy:
        src = _lenient(sqlite3.connect(copy))
        memory = sqlite3.connect(":memory:")
        try:
            _verify(src, path)
            src.backup(memory)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            memory.close()
            raise JournalError(f"{path} is damaged (SQLite: {exc}). It was left untouched") \
                from exc
        finally:
            src.close()
    return memory


# -- command line ----------------------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion journal check|export|backup PATH``."""
    parser = subparsers.add_parser("journal", help="check, export or back up a saved game")
    sub = parser.add_subparsers(dest="journal_command", required=True)
    check = sub.add_parser("check", help="check that a saved game is intact (writes nothing)")
    check.add_argument("path", type=Path)
    check.set_defaults(func=_cmd_check)
    export = sub.add_parser("export", help="print a saved game as a transcript (writes nothing "
                                           "at the saved game)")
    export.add_argument("path", type=Path)
    export.add_argument("-o", "--output", type=Path, help="write to this file instead of stdout")
    export.set_defaults(func=_cmd_export)
    backup = sub.add_parser("backup", help="copy a saved game to a new file, safely while a "
                                           "game goes on (SQLite's backup API)")
    backup.add_argument("path", type=Path)
    backup.add_argument("target", type=Path)
    backup.set_defaults(func=_cmd_backup)


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        report = inspect(args.path)
    except JournalError as exc:
        print(f"error: {exc}")
        return 1
    print(f"{args.path}: {report.summary}")
    return 1 if report.damage is not None else 0


def _cmd_export(args: argparse.Namespace) -> int:
    try:
        conn = _snapshot(args.path)
    except JournalError as exc:
        print(f"error: {exc}")
        return 1
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        damage = _damage(conn, version)
        lines = [row[0] for row in conn.execute("SELECT line FROM header ORDER BY pos")]
        actions = [row[0] for row in conn.execute("SELECT line FROM actions ORDER BY seq")]
    finally:
        conn.close()
    if damage is not None:
        print(f"warning: {damage.message}; exported the {damage.good} intact actions",
              file=sys.stderr)
        actions = actions[:damage.good]
    lines += actions
    text = "".join(f"{line}\n" for line in lines)
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


def _cmd_backup(args: argparse.Namespace) -> int:
    try:
        conn = _snapshot(args.path)
        try:
            backup_to(conn, args.path, args.target)
        finally:
            conn.close()
    except JournalError as exc:
        print(f"error: {exc}")
        return 1
    print(f"backed up {args.path} to {args.target}")
    return 0
