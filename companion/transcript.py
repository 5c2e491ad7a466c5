"""Game transcripts: a plain-text, line-per-entry record of a table session (docs/transcript.md).

A transcript has header lines (``variant``, ``option``, ``seed``, ``player`` and the game's own,
such as Monopoly's ``deck``), then position lines (``set ...``) that start a game in the middle,
then action lines (``NAME VERB ARGS``). This module keeps the framing every game shares
(comments, quoting, the header lines above, the order of the parts, errors with line numbers);
the game reads and writes its own lines (``companion.core.game.Game``). ``replay`` turns a
transcript into a final state; ``header_lines`` and ``format_action`` write any game the
companion plays out again, so it replays exactly.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from companion.core.actions import Action
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Game
from companion.core.registry import find_game
from companion.core.words import parse_int, quote

DEFAULT_VARIANT = "monopoly"  # the game of a transcript without a variant line
FRAMING_WORDS = frozenset({"variant", "option", "seed", "player"})


MAX_LINE = 2000  # characters: far above any real line (a long trade is under 200)
SHOWN = 80  # characters of a bad line quoted in a message


def shown(line: str) -> str:
    """A line as an error message quotes it: its start only, when long."""
    text = line.strip()
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[:SHOWN]!r}... ({len(text)} characters)"


class TranscriptError(ValueError):
    """A transcript line that cannot be used; names the line number, the line and the problem."""

    def __init__(self, number: int, line: str, problem: str) -> None:
        super().__init__(f"line {number}: {shown(line)}: {problem}" if number > 0 else
                         f"the transcript has no header, set or action lines: {problem} "
                         "(docs/transcript.md shows one)")
        self.number = number
        self.line = line
        self.problem = problem


@dataclass
class Replay:
    """The result of replaying a transcript: the game (``rules``), its final state, what
    happened, and the lines read."""

    rules: Game
    state: Any
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the action lines, as written


@dataclass
class _Header:
    """What the header lines said so far."""

    variant: str = DEFAULT_VARIANT
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    players: list[tuple[str, str]] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)  # the game's own lines, read by it
    lines: list[str] = field(default_factory=list)
    read_lines: list[tuple[int, str, list[str]]] = field(default_factory=list)  # number, raw, words

    def read(self, words: list[str]) -> None:
        """One header line; the game named so far reads ``option`` values and its own lines."""
        head = words[0]
        if head == "variant":
            if len(words) != 2:
                raise ValueError("variant NAME")
            find_game(words[1])
            self.variant = words[1]
        elif head == "option":
            if len(words) != 2 or "=" not in words[1]:
                raise ValueError("option NAME=VALUE")
            key, value = find_game(self.variant).parse_option(*words[1].split("=", 1))
            self.options[key] = value
        elif head == "seed":
            if len(words) != 2:
                raise ValueError("seed N")
            self.seed = parse_int(words[1], "seed")
        elif head == "player":
            if len(words) not in (2, 3):
                raise ValueError("player NAME [CLASS]")
            self.players.append((words[1], words[2] if len(words) == 3 else ""))
        else:
            find_game(self.variant).read_setup_line(words, self.setup)

    def start(self) -> Replay:
        """The new game the header describes."""
        game = find_game(self.variant)
        options = variant_options(game, self.options)
        state = game.new_game_from_header(self.players, options, self.seed, self.setup)
        return Replay(game, state, header=self.lines)

    def start_or_blame(self) -> Replay:
        """``start``, or a TranscriptError at the header line to blame: the one without which
        the problem goes away (a ``deck`` line naming an unknown card, an unknown class on a
        ``player`` line ...); for a problem of the whole header (too few players), its last
        line; for no header at all, no line."""
        try:
            return self.start()
        except ValueError as exc:
            problem = str(exc.args[0] if exc.args else exc)
            number, raw = self.blame(problem)
            raise TranscriptError(number, raw, problem) from None

    def blame(self, problem: str) -> tuple[int, str]:
        """The header line a start-up problem comes from: the line whose own word the problem
        names first ('wizzard' in "unknown character class 'wizzard'; choose one of ...");
        else the line without which the game starts; else the last header line."""
        lowered = problem.lower()
        named: list[tuple[int, int, str]] = []
        for number, raw, words in self.read_lines:
            spots = [m.start() for w in words[1:] if len(w) >= 2
                     for m in [re.search(rf"(?<![\w]){re.escape(w.lower())}(?![\w])", lowered)]
                     if m is not None]
            if spots and words[0] != "variant":
                named.append((min(spots), number, raw))
        if named:
            _, number, raw = min(named)
            return number, raw
        for k, (number, raw, words) in enumerate(self.read_lines):
            if words[0] == "variant":
                continue  # every other line is read in its light
            other = _Header()
            try:
                for j, (_, _, kept) in enumerate(self.read_lines):
                    if j != k:
                        other.read(kept)
                other.start()
            except (ValueError, KeyError):
                continue
            return number, raw
        if self.read_lines:
            number, raw, _ = self.read_lines[-1]
            return number, raw
        return 0, ""


def replay(text: str) -> Replay:
    """Replay a whole transcript. Raises TranscriptError naming the first bad line."""
    header = _Header()
    result: Replay | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise TranscriptError(number, raw, f"the line is {len(line)} characters long, over "
                                  f"the {MAX_LINE} any transcript line needs: check the file "
                                  "(is it a transcript?)")
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise TranscriptError(number, raw, f"cannot split the line ({exc}): check the quotes") from None
        if not words:
            continue
        head = words[0]
        try:
            header_words = FRAMING_WORDS | find_game(header.variant).setup_words
            if head in header_words and result is None:
                header.read(words)
                header.lines.append(line)
                header.read_lines.append((number, raw, words))
                continue
            if head in header_words:
                raise ValueError(f"'{head}' lines belong in the header, before any set or action line")
            if result is None:
                result = header.start_or_blame()
            if head == "set":
                if result.actions:
                    raise ValueError("set lines must come before the first action")
                result.state = result.rules.apply_set(result.state, words)
                continue
            action = result.rules.parse_action(result.state, words)
            result.state, events = result.rules.apply(result.state, action)
            result.events.extend(events)
            result.actions.append(action)
            result.lines.append(line)
        except (ValueError, KeyError, IllegalActionError) as exc:
            if isinstance(exc, TranscriptError):
                raise
            message = exc.args[0] if exc.args else str(exc)
            raise TranscriptError(number, raw, str(message)) from None
    if result is None:
        result = header.start_or_blame()
    return result


def read_text(path: Any) -> str:
    """A transcript file's text; a file that is not text (a binary file, another encoding)
    raises ValueError with a one-line message saying so."""
    from pathlib import Path

    data = Path(path).read_bytes()
    if b"\0" in data[:8192]:
        raise ValueError("this is a binary file, not a transcript (a transcript is plain UTF-8 "
                         "text, docs/transcript.md)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ValueError(f"not a UTF-8 text transcript: byte 0x{data[exc.start]:02x} on line "
                         f"{line} is not text (save the file as UTF-8)") from None


def variant_options(game: Game, values: dict[str, Any]) -> Any:
    """The game's default options with the header's ``option`` lines applied."""
    options = game.default_options()
    allowed = {f.name for f in fields(options)}
    for key in values:
        if key not in allowed:
            raise ValueError(f"option {key} is not a setting of the {game.name} variant")
    return replace(options, **values) if values else options


def header_lines(game: Game, state: Any, roles: Sequence[str] | None = None) -> list[str]:
    """Header lines that recreate a new game's setup exactly: the variant, the options that
    differ from its defaults, the seed, the game's own lines, then the players (with
    ``roles``, one per seat, when given)."""
    lines = [f"variant {game.name}"]
    defaults = game.default_options()
    for key in (f.name for f in fields(state.options)):
        value = getattr(state.options, key)
        if value != getattr(defaults, key):
            text = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(f"option {key}={option_word(text)}")
    lines.append(f"seed {state.seed}")
    lines.extend(game.setup_lines(state))
    for i, p in enumerate(state.players):
        role = roles[i] if roles else ""
        lines.append(f"player {quote(p.name)} {role}".rstrip())
    return lines


def option_word(text: str) -> str:
    """An ``option`` line's value as it is written: as it is when it is one plain word, else
    quoted so that ``shlex`` reads it back whole (a map file path with spaces or a ``#``)."""
    return shlex.quote(text) if text else "''"


def format_action(game: Game, state: Any, action: Action) -> str:
    """The transcript line of ``action`` (the game's ``format_action``)."""
    return game.format_action(state, action)


def state_json(game: Game, state: Any, events: Sequence[Event] | None = None) -> dict[str, Any]:
    """The state as the JSON ``companion script --json`` prints (the game's ``state_json``)."""
    return game.state_json(state, tuple(events or ()))
