"""Crash tests: a process playing a scripted game in the kiosk (headless) is killed with SIGKILL
at random points, at least 50 times; every restart resumes from the journal with no
acknowledged action lost, and the game goes on exactly as it would have without the kills.

An action counts as acknowledged once ``GameScreen.submit`` returned (the journal committed it
and the screen shows its result); the child then reports ``seq<TAB>line`` on a pipe.
"""

from __future__ import annotations

import os
import random
import select
import signal
import time
from pathlib import Path

import pytest

from companion.bots import DiceRoller
from companion.games.monopoly.bots import HeuristicBot
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.session import Session

KILLS = 50
PLAYERS = [("Ann", ""), ("Ben", ""), ("Cai", "")]
SEED = 11


def scripted_choice(session: Session) -> object:
    """Deterministic given the state and the action count, so a resumed game goes on exactly
    as the uninterrupted one would."""
    rules, state = session.rules, session.state
    k = len(session.lines)
    acts = rules.legal_actions(state, rules.deciders(state))
    action = HeuristicBot(SEED + k).choose(rules, state, acts)
    return DiceRoller(SEED * 7919 + k).fill(rules, state, action)


def child(path: Path, fd: int, limit: int) -> None:
    import pygame

    session = Session.open_or_new(path, "monopoly", PLAYERS, seed=SEED)
    os.write(fd, f"R\t{len(session.lines)}\t{session.rules.waiting_for(session.state)}\n"
             .encode())
    screen = GameScreen(session, None, (800, 480))
    surface = pygame.Surface((800, 480))
    painter = Painter()
    while len(session.lines) < limit and session.state.outcome is None:
        action = scripted_choice(session)
        applied = screen.submit(action)  # type: ignore[arg-type]
        assert applied is not None
        os.write(fd, f"{applied.seq}\t{applied.line}\n".encode())
        screen.update(1 / 30)
        screen.draw(surface, painter)
    os.write(fd, b"DONE\n")


def run_child(path: Path, limit: int, kill_at: tuple[int, float] | None) -> list[str]:
    """Run one child; with ``kill_at = (acks, jitter)`` SIGKILL it ``jitter`` seconds after it
    has acknowledged ``acks`` actions since resuming (0: right after the resume line), so the
    kill lands mid-game whatever the machine's speed."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        try:
            os.close(r)
            child(path, w, limit)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(w)
    out = b""
    deadline: float | None = None
    while True:
        timeout = 30.0 if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([r], [], [], timeout)
        if ready:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            out += chunk
            if deadline is None and kill_at is not None and out.count(b"\n") >= 1 + kill_at[0]:
                deadline = time.monotonic() + kill_at[1]
        if deadline is not None and time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            # drain what was written before the kill
            while True:
                ready, _, _ = select.select([r], [], [], 0.5)
                if not ready:
                    break
                chunk = os.read(r, 65536)
                if not chunk:
                    break
                out += chunk
            break
        if not ready and deadline is None:
            break
    os.close(r)
    os.waitpid(pid, 0)
    return out.decode().splitlines()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_sigkill_at_random_points_loses_no_acknowledged_action(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    rng = random.Random(2024)
    acked: dict[int, str] = {}
    limit = 400
    resumed_counts = []
    for _kill in range(KILLS):
        lines = run_child(path, limit, kill_at=(rng.randint(0, 6), rng.uniform(0.0, 0.004)))
        assert lines and lines[0].startswith("R\t"), lines[:3]
        _, count, _waiting = lines[0].split("\t", 2)
        resumed = int(count)
        resumed_counts.append(resumed)
        # every action acknowledged by an earlier run is in the journal
        assert resumed >= max(acked, default=0)
        for row in lines[1:]:
            if row == "DONE" or "\t" not in row:
                continue
            seq, line = row.split("\t", 1)
            # a sequence number is never reused for a different action
            assert acked.setdefault(int(seq), line) == line
    assert len(set(resumed_counts)) > 25, ("the kills should land at many points", resumed_counts)
    # finish the game without kills, then compare with an uninterrupted reference game
    tail = run_child(path, limit, kill_at=None)
    assert tail[-1] == "DONE"
    final = Session.resume(path)
    for seq, line in acked.items():
        assert final.lines[seq - 1] == line
    reference = Session.memory("monopoly", PLAYERS, seed=SEED)
    while len(reference.lines) < len(final.lines):
        reference.apply(scripted_choice(reference))  # type: ignore[arg-type]
    assert reference.lines == final.lines
    assert reference.state == final.state
    final.close()
