"""A game in progress: the rules, the current state, the saved-game journal, undo and resume.

Every action goes through :meth:`Session.apply`, which checks it with the rules engine, commits
its transcript line to the journal (SQLite, synchronous) and only then makes the new state the
session's state. The kiosk draws from ``session.state``, so nothing reaches the screen before
it is on disk. After a power cut :meth:`Session.resume` replays the journal's header and action
lines and reopens the game at the same decision.

A journal that cannot be opened or replayed (damaged, another program's file, a line the rules
reject) raises :class:`SessionError` with a message for the screen; the file is never modified,
and a session that fails to load another journal keeps its own state.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.actions import Action
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Game
from companion.core.registry import find_game, game_names
from companion.journal import Journal, JournalError
from companion.narrate import account
from companion.transcript import (
    DEFAULT_VARIANT,
    TranscriptError,
    format_action,
    header_lines,
    replay,
)
from companion.words import count

LOG_LINES = 40


class TableLog(deque[str]):
    """The last lines of what happened, for the kiosk. A line that repeats the one before it is
    folded into it ("Dee trains Rob Bank (3 times)") so a run of the same step does not push
    everything else off the screen."""

    def __init__(self, maxlen: int = LOG_LINES) -> None:
        super().__init__(maxlen=maxlen)
        self._last = ""
        self._count = 0

    def append(self, line: str) -> None:
        if self and line == self._last:
            self._count += 1
            self[-1] = f"{line} ({self._count} times)"
            return
        self._last, self._count = line, 1
        super().append(line)

    def extend(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.append(line)


class SessionError(Exception):
    """A saved game cannot be started, resumed or written; the message says what to do."""


@dataclass(frozen=True)
class Applied:
    """The result of one committed action."""

    seq: int  # journal sequence number (1 for the first action); 0 without a journal
    line: str  # the transcript line written
    events: tuple[Event, ...]
    sentences: tuple[str, ...]


def choose_variant(preferred: str, fallback: str = DEFAULT_VARIANT) -> str:
    """``preferred`` when it is registered, else ``fallback``."""
    return preferred if preferred in game_names() else fallback


class Session:
    """State + journal. Use :meth:`new`, :meth:`resume`, :meth:`open_or_new` or :meth:`memory`.

    ``rules`` is the game (a ``companion.core.game.Game``) and ``state`` its current state."""

    def __init__(self, rules: Game, state: Any, header: Sequence[str],
                 journal: Journal | None, lines: Sequence[str] = ()) -> None:
        # typed Any: the kiosk still reaches past the Game protocol into the Monopoly rules
        self.rules: Any = rules
        self.state: Any = state
        self.header = list(header)
        self.journal = journal
        self.lines = list(lines)
        self.log = TableLog()
        self.last_events: tuple[Event, ...] = ()
        self.resumed = bool(lines)
        self.changed_at = time.monotonic()
        self.version = 0  # bumped on every change of state (views cache on it)

    # -- starting ------------------------------------------------------------------------------
    @staticmethod
    def _setup(variant: str, players: Sequence[tuple[str, str]], seed: int,
               options: Any) -> tuple[Game, Any, list[str]]:
        try:
            rules = find_game(variant)
        except KeyError as exc:
            raise SessionError(str(exc.args[0])) from None
        roles = [role for _name, role in players]
        try:
            state = rules.new_game([(n, r) for n, r in players], options, seed=seed)
        except (ValueError, KeyError) as exc:
            raise SessionError(f"cannot start the game: {exc.args[0] if exc.args else exc}") \
                from None
        header = header_lines(rules, state, roles if any(roles) else None)
        return rules, state, header

    @classmethod
    def memory(cls, variant: str, players: Sequence[tuple[str, str]], seed: int = 0,
               options: Any = None) -> Session:
        """A game kept only in memory (tests, benchmarks, the headless demo without a file)."""
        rules, state, header = cls._setup(variant, players, seed, options)
        return cls(rules, state, header, None)

    @classmethod
    def new(cls, path: str | Path, variant: str, players: Sequence[tuple[str, str]],
            seed: int = 0, options: Any = None) -> Session:
        """A new game saved at ``path`` (refuses to overwrite an existing file)."""
        rules, state, header = cls._setup(variant, players, seed, options)
        try:
            journal = Journal.create(path, header)
        except JournalError as exc:
            raise SessionError(str(exc)) from None
        session = cls(rules, state, header, journal)
        session.log.append(f"New game of {rules.name}: "
                           + ", ".join(p.name for p in state.players))
        return session

    @classmethod
    def resume(cls, path: str | Path) -> Session:
        """Reopen the saved game at ``path`` at the decision where it stopped."""
        try:
            journal = Journal.open(path)
        except JournalError as exc:
            raise SessionError(str(exc)) from None
        try:
            header, lines = journal.header(), journal.lines()
            result = replay("".join(f"{line}\n" for line in (*header, *lines)))
        except TranscriptError as exc:
            journal.close()
            raise SessionError(
                f"the saved game {path} does not replay with these rules ({exc}). It was left "
                "untouched; update the companion or start a new game") from None
        except JournalError as exc:
            journal.close()
            raise SessionError(str(exc)) from None
        session = cls(result.rules, result.state, header, journal, lines)
        tail = account(result.rules, result.state, result.events[-12:])
        session.log.extend(tail)
        session.log.append(f"Resumed the saved game after {count(len(lines), 'action')}")
        if journal.damage is not None:
            session.log.append(journal.damage.message[0].upper() + journal.damage.message[1:])
        return session

    @classmethod
    def open_or_new(cls, path: str | Path, variant: str, players: Sequence[tuple[str, str]],
                    seed: int = 0, options: Any = None) -> Session:
        """Resume ``path`` if it exists, else start a new game there."""
        if Path(path).exists():
            return cls.resume(path)
        return cls.new(path, variant, players, seed, options)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    # -- playing -------------------------------------------------------------------------------
    def apply(self, action: Action) -> Applied:
        """Check ``action``, commit it to the journal, then take the new state.

        Raises IllegalActionError (the rules refuse it) or SessionError (it could not be saved);
        either way the state is unchanged."""
        new_state, events = self.rules.apply(self.state, action)
        line = format_action(self.rules, self.state, action)
        seq = 0
        if self.journal is not None:
            try:
                seq = self.journal.append(line)
            except JournalError as exc:
                raise SessionError(str(exc)) from None
        # committed: from here on the action is part of the game
        old = self.state
        self.state = new_state
        self.lines.append(line)
        sentences = tuple(account(self.rules, new_state, events))
        self.log.extend(sentences)
        self.last_events = events
        self._touch()
        del old
        return Applied(seq, line, events, sentences)

    def legal(self, action: Action) -> bool:
        try:
            self.rules.apply(self.state, action)
        except IllegalActionError:
            return False
        return True

    def undo(self, n: int = 1) -> list[str]:
        """Take back the last ``n`` actions (a referee correction); the journal keeps them in
        its ``undone`` table."""
        if n <= 0:
            return []
        if n > len(self.lines):
            raise SessionError(f"cannot undo {n} actions: the game has only {len(self.lines)}")
        keep = self.lines[:-n]
        try:
            result = replay("".join(f"{line}\n" for line in (*self.header, *keep)))
        except TranscriptError as exc:  # cannot happen for lines the engine accepted
            raise SessionError(f"cannot undo: {exc}") from None
        taken: list[str]
        if self.journal is not None:
            try:
                taken = self.journal.undo(n)
            except JournalError as exc:
                raise SessionError(str(exc)) from None
        else:
            taken = self.lines[-n:]
        self.state = result.state
        self.lines = keep
        self.last_events = ()
        self.log.append("Undone: " + "; ".join(taken))
        self._touch()
        return taken

    def export_transcript(self) -> str:
        """The game as a transcript (header lines, then one line per action)."""
        return "".join(f"{line}\n" for line in (*self.header, *self.lines))

    def _touch(self) -> None:
        self.version += 1
        self.changed_at = time.monotonic()


def fresh_path(path: str | Path) -> Path:
    """A path beside ``path`` that does not exist yet, for a new game when ``path`` is a saved
    game that cannot be opened (the bad file is kept for inspection)."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.stem}-{stamp}{path.suffix}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{stamp}-{n}{path.suffix}")
    return candidate


def set_aside(path: str | Path) -> Path:
    """Rename a closed saved game to a fresh name beside it (kept, never deleted), so a new
    game can start at ``path``; returns where it went. Raises SessionError if it cannot."""
    path = Path(path)
    new = fresh_path(path)
    try:
        path.rename(new)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(new.with_name(new.name + suffix))
    except OSError as exc:
        raise SessionError(f"cannot move the saved game {path} aside to start a new one: "
                           f"{exc}") from None
    return new
