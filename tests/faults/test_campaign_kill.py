"""Campaign 1: kill -9 at random moments.

A child process (kill_child.py) plays a seeded bot game into a saved game through the public
API and prints each action's sequence number right after ``Session.apply`` returns; the test
kills it with SIGKILL at a random moment and checks that every acknowledged line is in the
journal, that ``journal check`` calls it intact (writing nothing), that the game resumes, and
that no ``.creating-`` leftovers survive the next open. Another child creates journals one
after another, so kills land while a journal is being created."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from companion.journal import Journal, inspect
from companion.session import Session
from companion.transcript import replay

Campaign = Any  # the type of conftest.py's ``campaign`` fixture, which carries the helpers

CHILD_HEADER = ["variant monopoly", "seed 5", "player Ann", "player Ben"]


def kill_at_random(campaign: Campaign, argv: list[str], delay: float
                   ) -> tuple[list[str], str]:
    """Run the child, wait for its ``ready``, SIGKILL it ``delay`` seconds later; the lines it
    printed in full (a line cut by the kill was never acknowledged) and its stderr."""
    child = campaign.faults / "kill_child.py"
    proc = subprocess.Popen([sys.executable, str(child), *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=campaign.cli_env())
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if first != "ready\n":
        _, err = proc.communicate(timeout=60)
        raise AssertionError(f"the child did not start: {first!r} {err[-3000:]}")
    time.sleep(delay)
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    out, err = proc.communicate(timeout=60)
    assert proc.returncode in (-signal.SIGKILL, 0), (proc.returncode, err[-3000:])
    assert "Traceback" not in err, err[-3000:]
    printed = out.split("\n")[:-1]  # the last piece has no newline: cut by the kill
    return printed, err


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".creating-" in p.name)


def test_kill_9_while_playing_loses_no_acknowledged_action(tmp_path: Path,
                                                          campaign: Campaign) -> None:
    rng = campaign.rng("kill while playing")
    kills = campaign.size(11, 400)
    variants = ("monopoly", "monopoly", "dungeonopoly")
    games = [tmp_path / f"table{i}" / "game.sqlite" for i in range(len(variants))]
    for game in games:
        game.parent.mkdir()
    known: dict[Path, list[str]] = {game: [] for game in games}  # lines seen in the journal
    cli_checks = {0, kills - 1} if not campaign.long else set(range(0, kills, 25))
    finished = 0
    for k in range(kills):
        which = k % len(games)
        path, variant = games[which], variants[which]
        fresh = not path.exists()
        # a kill soon after the start often lands in Journal.create (new games) or in resume
        delay = rng.choice((rng.uniform(0.0, 0.03), rng.uniform(0.0, 0.5)))
        seed = str(rng.randrange(10**6))
        printed, _ = kill_at_random(campaign, ["play", str(path), variant, seed], delay)
        acked = [line.split(" ", 2) for line in printed if line.startswith("ack ")]
        if not path.exists():
            assert fresh and "created" not in printed, f"kill {k}: an acknowledged game vanished"
            continue
        # journal check: intact (or intact but not closed cleanly), and it writes nothing
        before = campaign.folder_hashes(path.parent)
        report = inspect(path)
        assert report.damage is None, f"kill {k}: {report.summary}"
        assert report.summary.startswith("intact"), report.summary
        if k in cli_checks:
            proc = campaign.run_cli("journal", "check", str(path))
            assert proc.returncode == 0 and "intact" in proc.stdout, proc.stdout + proc.stderr
        assert campaign.folder_hashes(path.parent) == before, f"kill {k}: journal check wrote"
        # every acknowledged line is there, and nothing seen before was lost
        with Journal.open(path) as journal:
            assert journal.damage is None
            lines = journal.lines()
            assert journal.header()[0].startswith("variant ")
        assert lines[:len(known[path])] == known[path], f"kill {k}: earlier actions lost"
        for _, seq, line in acked:
            assert int(seq) <= len(lines), f"kill {k}: acknowledged action {seq} lost"
            assert lines[int(seq) - 1] == line, f"kill {k}: action {seq} differs"
        last = max([len(known[path]), *(int(seq) for _, seq, _ in acked)])
        assert len(lines) <= last + 1, f"kill {k}: more than one unacknowledged action"
        known[path] = lines
        assert leftovers(path.parent) == [], f"kill {k}: creation leftovers after open"
        # the game resumes at the same decision, its state what the lines replay to
        session = Session.resume(path)
        try:
            assert session.lines == lines
            campaign.check_invariants(session.state)
            assert session.state == replay(session.export_transcript()).state
        finally:
            session.close()
        if "over" in printed:  # the game ended before the kill: start another at that table
            finished += 1
            os.replace(path, path.with_name(f"over-{k}.sqlite"))
            known[path] = []
    for game in games:  # the next open or creation removes what a killed creation left
        if game.exists():
            Journal.open(game).close()
        else:
            Journal.create(game, CHILD_HEADER).close()
        assert leftovers(game.parent) == []
    assert sum(len(lines) for lines in known.values()) > 0 or finished


def test_kill_9_while_creating_journals(tmp_path: Path, campaign: Campaign) -> None:
    rng = campaign.rng("kill while creating")
    for k in range(campaign.size(4, 100)):
        folder = tmp_path / f"round{k}"
        folder.mkdir()
        printed, _ = kill_at_random(campaign, ["create", str(folder)], rng.uniform(0.0, 0.3))
        created = [int(line.split()[1]) for line in printed if line.startswith("ack ")]
        done = max(created, default=0)
        assert created == list(range(1, done + 1))
        for n in range(1, done + 2):  # the acknowledged ones, and the one cut short
            path = folder / f"game-{n}.sqlite"
            if n == done + 1 and not path.exists():
                Journal.create(path, CHILD_HEADER).close()  # removes its creation leftovers
                continue
            with Journal.open(path) as journal:  # a whole journal, never a half-made one
                assert journal.header() == CHILD_HEADER and journal.lines() == []
                assert journal.damage is None
        assert leftovers(folder) == [], f"round {k}: {leftovers(folder)}"
