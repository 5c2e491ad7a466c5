"""Shared pieces of the fault campaigns (see README.md here): the campaign's size (small by
default, large with ``--long``), seeded random streams, bot games as transcripts, the engine's
invariants, the ``companion`` command line run as a fresh process, and hashes of a folder's
files. The tests reach them through the ``campaign`` fixture (``campaign.bot_game(...)``): test
folders here have no ``__init__.py``, so a conftest is not imported by name."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.bots import DiceRoller, bots_for
from companion.core.registry import find_game
from companion.games.monopoly.state import GameState
from companion.simulate import bot_steps
from companion.transcript import format_action, header_lines, variant_options

ROOT = Path(__file__).resolve().parents[2]
FAULTS = Path(__file__).resolve().parent
CLASSES = ("fighter", "wizard", "cleric", "rogue", "bard", "druid", "paladin", "psion", "warlock")
# the vectors live in tests/vectors today and may move to tests/conformance/vectors
VECTOR_GLOBS = ("tests/vectors/*/*.txt", "tests/conformance/vectors/*/*.txt",
                "assets/transcripts/*.txt")


def cli_env() -> dict[str, str]:
    """The environment for running this checkout's ``companion`` (not one on PATH)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    return env


def run_cli(*argv: str, timeout: float = 120, cwd: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    """``companion ARGV`` as a new process of this checkout; never a traceback is allowed."""
    proc = subprocess.run(
        [sys.executable, "-m", "companion.cli", *argv], capture_output=True, text=True,
        errors="replace", env=cli_env(), timeout=timeout, cwd=cwd or ROOT)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "Traceback" not in proc.stdout, proc.stdout[-3000:]
    return proc


def folder_hashes(folder: Path) -> dict[str, str]:
    """Every file's hash under ``folder`` (and which files exist): to show nothing was written."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            found[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            found[str(path.relative_to(folder))] = "<dir>"
    return found


def vector_files() -> list[Path]:
    files: list[Path] = []
    for pattern in VECTOR_GLOBS:
        files.extend(sorted(ROOT.glob(pattern)))
    return files


def check_invariants(state: GameState) -> None:
    """The engine's invariants (tests/companion/test_properties.py, with team play's shared
    pools counted once): money conserved, cash never negative, buildings within the bank's
    stock, no buildings on a mortgaged lot, no lot of a bankrupt player, each jail card once
    (held, in its deck, or drawn and waiting on a decision)."""
    assert state.money_in_hand + state.pot == state.bank_net, "money not conserved"
    assert all(p.cash >= 0 for p in state.players), "negative cash"
    houses = sum(s.houses for s in state.squares if not s.hotel)
    hotels = sum(1 for s in state.squares if s.hotel)
    assert 0 <= state.bank_houses <= state.options.bank_houses, "house stock out of bounds"
    assert 0 <= state.bank_hotels <= state.options.bank_hotels, "hotel stock out of bounds"
    assert houses + state.bank_houses == state.options.bank_houses, "houses appeared or vanished"
    assert hotels + state.bank_hotels == state.options.bank_hotels, "hotels appeared or vanished"
    for s in state.squares:
        assert not (s.mortgaged and s.level), "buildings on a mortgaged lot"
        assert s.owner is None or not state.players[s.owner].bankrupt, "a bankrupt owns a lot"
    held = [d for p in state.players for d in p.jail_cards]
    # a drawn card may wait on a decision (Dungeonopoly's Divine Favor: a CardChoice)
    held += [getattr(step, "deck", None) for step in state.pending
             if getattr(step, "card", None) == "get_out_of_jail_free"]
    for deck in ("chance", "community_chest"):
        in_deck = "get_out_of_jail_free" in state.deck(deck)
        assert held.count(deck) + in_deck == 1, "a jail card is lost or doubled"


@dataclass(frozen=True)
class Table:
    """A bot game's setup: variant, seats (name, class) and table options."""

    variant: str
    seats: tuple[tuple[str, str], ...]
    options: Mapping[str, Any]

    @property
    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.variant}/{len(self.seats)}p" + (f"/{opts}" if opts else "")


def table_for(seed: int, team: bool | None = None) -> Table:
    """A varied table chosen by ``seed``: Monopoly or Dungeonopoly, 2 to 6 seats, sometimes
    team play (``team`` forces it on or off)."""
    rng = random.Random(seed)
    variant = rng.choice(("monopoly", "dungeonopoly"))
    teams = rng.random() < 0.35 if team is None else team
    count = rng.randint(4, 6) if teams else rng.randint(2, 6)
    names = [f"P{i + 1}" for i in range(count)]
    roles = ([rng.choice(CLASSES) for _ in names] if variant == "dungeonopoly"
             else ["" for _ in names])
    options: dict[str, Any] = {}
    if teams:
        options["teams"] = "P1+P3,P2+P4"
    return Table(variant, tuple(zip(names, roles, strict=True)), options)


def bot_game(table: Table, seed: int, max_steps: int, bot: str = "heuristic",
             check: bool = False) -> tuple[list[str], GameState, list[GameState]]:
    """Play a seeded bot game through ``companion.simulate.bot_steps``; the transcript lines
    (header, then one per action), the final state and the state after each action. With
    ``check`` the invariants are checked after every step."""
    rules = find_game(table.variant)
    options = variant_options(rules, dict(table.options))
    seats: Sequence[str | tuple[str, str]] = (
        list(table.seats) if table.variant == "dungeonopoly" else [n for n, _ in table.seats])
    state = rules.new_game(seats, options, seed=seed)
    roles = [r for _, r in table.seats]
    lines = header_lines(rules, state, roles if any(roles) else None)
    if check:
        check_invariants(state)
    states: list[GameState] = []
    steps = bot_steps(rules, state, bots_for(rules)[bot](seed), DiceRoller(seed + 1_000_003),
                      everyone=bot == "random")
    for step in steps:
        lines.append(format_action(rules, step.before, step.action))
        state = step.after
        if check:
            check_invariants(state)
        states.append(state)
        if len(states) >= max_steps:
            break
    return lines, state, states


@dataclass(frozen=True)
class Campaign:
    """How big a campaign runs (``size(default, long)`` picks by the ``--long`` option), and
    the shared helpers of this file."""

    long: bool

    root = ROOT
    faults = FAULTS
    Table = Table
    bot_game = staticmethod(bot_game)
    table_for = staticmethod(table_for)
    check_invariants = staticmethod(check_invariants)
    vector_files = staticmethod(vector_files)
    folder_hashes = staticmethod(folder_hashes)
    run_cli = staticmethod(run_cli)
    cli_env = staticmethod(cli_env)

    def size(self, default: int, long: int) -> int:
        return long if self.long else default

    def rng(self, name: str) -> random.Random:
        """A random stream of its own for each campaign, the same on every run."""
        return random.Random(f"issue-34 fault campaign: {name}")


@pytest.fixture(scope="session")
def campaign(request: pytest.FixtureRequest) -> Campaign:
    return Campaign(long=bool(request.config.getoption("--long")))
