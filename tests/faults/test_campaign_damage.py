"""Campaign 2: damaged save files.

Many kinds of damage to a saved game (truncation, flipped bytes anywhere and in the header and
action lines, zeroed pages, garbage appended, a deleted ``-wal``, foreign files). Each damaged
file is either opened with every intact line (the damage named by ``Journal.damage``) or refused
with a :class:`JournalError` that says what to do: never another exception, never a different
game without a word. ``journal check`` writes nothing at the file (the folder's hashes)."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal, JournalError, inspect
from companion.session import Session, SessionError

Campaign = Any  # the type of conftest.py's ``campaign`` fixture, which carries the helpers

ADVICE = ("start a new game", "restore a backup", "pick another file", "left untouched",
          "give the path", "make it writable", "check the sd card", "update the companion")
Damage = Callable[[Path, random.Random], None]


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory, campaign: Campaign
             ) -> tuple[Path, list[str], list[str]]:
    """A closed saved game of a 60-action bot game, with an undo in its history."""
    table = campaign.Table("monopoly", (("Ann", ""), ("Ben", ""), ("Cai", "")), {})
    lines, _, _ = campaign.bot_game(table, seed=11, max_steps=62)
    header = [line for line in lines if not line.startswith(("Ann ", "Ben ", "Cai "))]
    actions = lines[len(header):]
    path = tmp_path_factory.mktemp("original") / "game.sqlite"
    with Journal.create(path, header) as journal:
        for line in actions:
            journal.append(line)
        journal.undo(2)
    return path, header, actions[:-2]


def _rewrite(path: Path, change: Callable[[bytearray], None]) -> None:
    data = bytearray(path.read_bytes())
    change(data)
    path.write_bytes(bytes(data))


def truncate_to(size: int) -> Damage:
    return lambda path, rng: _rewrite(path, lambda d: d.__delitem__(slice(min(size, len(d)),
                                                                          None)))


def truncate_random(path: Path, rng: random.Random) -> None:
    _rewrite(path, lambda d: d.__delitem__(slice(rng.randrange(len(d)), None)))


def flip_random(path: Path, rng: random.Random) -> None:
    def change(d: bytearray) -> None:
        for _ in range(rng.choice((1, 1, 1, 2, 8))):
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
    _rewrite(path, change)


def flip_in_text(needle_of: Callable[[list[str], list[str]], str]) -> Callable[..., Damage]:
    """Flip a byte, or change a digit, inside a header or action line as stored."""
    def make(header: list[str], actions: list[str], digit: bool) -> Damage:
        needle = needle_of(header, actions).encode()

        def damage(path: Path, rng: random.Random) -> None:
            def change(d: bytearray) -> None:
                at = d.find(needle)
                assert at >= 0, needle
                offsets = [at + i for i in range(len(needle)) if chr(needle[i]).isdigit()]
                if digit and offsets:
                    o = rng.choice(offsets)
                    d[o] = ord(str((int(chr(d[o])) + rng.randint(1, 9)) % 10))
                else:
                    d[at + rng.randrange(len(needle))] ^= 1 << rng.randrange(7)
            _rewrite(path, change)
        return damage
    return make


in_header = flip_in_text(lambda h, a: next(x for x in h if x.startswith("seed")))
in_roll = flip_in_text(lambda h, a: next(x for x in a[20:] if " roll " in x))
in_first_action = flip_in_text(lambda h, a: a[0])


def zero_page(index: int) -> Damage:
    def damage(path: Path, rng: random.Random) -> None:
        def change(d: bytearray) -> None:
            size = int.from_bytes(d[16:18], "big") or 4096
            start = (index % max(1, len(d) // size)) * size
            d[start:start + size] = bytes(len(d[start:start + size]))
        _rewrite(path, change)
    return damage


def append_garbage(path: Path, rng: random.Random) -> None:
    with path.open("ab") as fh:
        fh.write(rng.randbytes(rng.choice((1, 100, 4096, 10_000))))


def garbage_wal(path: Path, rng: random.Random) -> None:
    Path(f"{path}-wal").write_bytes(rng.randbytes(rng.choice((32, 4000, 9000))))


def replace_with(make: Callable[[Path], None]) -> Damage:
    def damage(path: Path, rng: random.Random) -> None:
        path.unlink()
        make(path)
    return damage


def _sqlite(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


FOREIGN: dict[str, Damage] = {
    "empty file": replace_with(lambda p: p.write_bytes(b"")),
    "a folder": replace_with(lambda p: p.mkdir()),
    "a text file": replace_with(lambda p: p.write_text("variant monopoly\nplayer Ann\n")),
    "SQLite magic then noise": replace_with(
        lambda p: p.write_bytes(b"SQLite format 3\x00" + random.Random(1).randbytes(5000))),
    "another program's database": replace_with(
        lambda p: _sqlite(p, "CREATE TABLE t(x)", "INSERT INTO t VALUES(1)")),
    "our id, wrong tables": replace_with(
        lambda p: _sqlite(p, "PRAGMA application_id=1148218489", "PRAGMA user_version=2",
                          "CREATE TABLE meta(key, value)")),
    "a newer schema": replace_with(
        lambda p: _sqlite(p, "PRAGMA application_id=1148218489", "PRAGMA user_version=99",
                          "CREATE TABLE meta(key, value)")),
}


def damages(header: list[str], actions: list[str], campaign: Campaign
            ) -> list[tuple[str, Damage]]:
    rng = campaign.rng("damage kinds")
    found: list[tuple[str, Damage]] = list(FOREIGN.items())
    for size in (0, 16, 99, 100, 101, 512, 4095, 4096, 4097, 8192, 12_000):
        found.append((f"truncated to {size} bytes", truncate_to(size)))
    found += [(f"truncated at random #{i}", truncate_random)
              for i in range(campaign.size(4, 60))]
    found += [(f"flipped bits at random #{i}", flip_random) for i in range(campaign.size(16, 300))]
    for i in range(campaign.size(2, 20)):
        found += [
            (f"a header digit changed #{i}", in_header(header, actions, True)),
            (f"a header byte flipped #{i}", in_header(header, actions, False)),
            (f"a roll's digit changed #{i}", in_roll(header, actions, True)),
            (f"a roll's byte flipped #{i}", in_roll(header, actions, False)),
            (f"the first action's byte flipped #{i}", in_first_action(header, actions, False)),
        ]
    found += [(f"page {p} zeroed", zero_page(p)) for p in range(campaign.size(8, 40))]
    found += [(f"garbage appended #{i}", append_garbage) for i in range(campaign.size(2, 20))]
    found += [(f"a garbage -wal beside it #{i}", garbage_wal) for i in range(campaign.size(2, 20))]
    rng.shuffle(found)
    return found


def test_damaged_save_files_open_whole_or_are_refused_with_advice(
        tmp_path: Path, campaign: Campaign,
        original: tuple[Path, list[str], list[str]]) -> None:
    source, header, actions = original
    rng = campaign.rng("damage")
    outcomes: dict[str, int] = {}
    cases = damages(header, actions, campaign)
    cli_cases = {0, len(cases) // 2} if not campaign.long else set(range(0, len(cases), 40))
    for i, (name, damage) in enumerate(cases):
        folder = tmp_path / f"case{i}"
        folder.mkdir()
        path = folder / "game.sqlite"
        shutil.copyfile(source, path)
        damage(path, rng)
        # journal check (in the program and, for some, as the command): writes nothing
        before = campaign.folder_hashes(folder)
        try:
            inspect(path)
        except JournalError as exc:
            assert any(a in str(exc).lower() for a in ADVICE), f"{name}: {exc}"
        if i in cli_cases:
            proc = campaign.run_cli("journal", "check", str(path))
            assert proc.returncode in (0, 1), f"{name}: {proc.stdout}{proc.stderr}"
        assert campaign.folder_hashes(folder) == before, f"{name}: journal check wrote"
        # opening for play: every intact line, the damage named, or a refusal with advice
        try:
            journal = Journal.open(path)
        except JournalError as exc:
            assert any(a in str(exc).lower() for a in ADVICE), f"{name}: {exc}"
            assert campaign.folder_hashes(folder) == before, f"{name}: a refused file was changed"
            outcomes["refused"] = outcomes.get("refused", 0) + 1
            continue
        with journal:
            got_header, got = journal.header(), journal.lines()
            if journal.damage is None:
                assert (got_header, got) == (header, actions), f"{name}: a different game"
                outcomes["intact"] = outcomes.get("intact", 0) + 1
            else:
                good = journal.damage.good
                assert got == actions[:good], f"{name}: {journal.damage.message}"
                assert len(journal.damaged()) == journal.damage.count
                assert good < len(actions) or got_header != header
                outcomes["damage named"] = outcomes.get("damage named", 0) + 1
        try:
            Session.resume(path).close()
        except SessionError as exc:
            assert any(a in str(exc).lower() for a in ADVICE), f"{name}: {exc}"
    print(f"damage outcomes: {outcomes}")
    assert outcomes.get("refused") and outcomes.get("damage named"), outcomes


def test_a_deleted_wal_of_an_open_game_loses_nothing(tmp_path: Path, campaign: Campaign,
                                                     original: tuple[Path, list[str], list[str]]
                                                     ) -> None:
    """The -wal of a game in play is deleted, play goes on, the power goes: the main file
    alone (copied as it is on the card) holds every acknowledged action."""
    _, header, actions = original
    rng = campaign.rng("deleted wal")
    for trial in range(campaign.size(2, 30)):
        path = tmp_path / f"t{trial}" / "game.sqlite"
        cut = rng.randrange(len(actions))
        journal = Journal.create(path, header)
        for line in actions[:cut]:
            journal.append(line)
        Path(f"{path}-wal").unlink(missing_ok=True)
        end = rng.randrange(cut, len(actions) + 1)
        for line in actions[cut:end]:
            journal.append(line)
        card = tmp_path / f"t{trial}-card" / "game.sqlite"
        card.parent.mkdir()
        shutil.copyfile(path, card)  # the power cut: only what reached the main file
        journal.close()
        assert inspect(card).damage is None
        with Journal.open(card) as again:
            assert again.damage is None
            assert again.lines() == actions[:end], f"trial {trial}: cut {cut}, end {end}"


def _flip_after(path: Path, needle: bytes, offset: int, mask: int) -> None:
    data = bytearray(path.read_bytes())
    at = data.find(needle)
    assert at >= 0
    data[at + offset] ^= mask
    path.write_bytes(bytes(data))


def test_damaged_schema_text_is_refused_with_advice(
        tmp_path: Path, original: tuple[Path, list[str], list[str]],
        campaign: Campaign) -> None:
    path = tmp_path / "game.sqlite"
    shutil.copyfile(original[0], path)
    _flip_after(path, b"digest TEXT NOT NULL,\n    found_at", len(b"digest TEXT NOT NULL"),
                0x80)
    for step in (inspect, Journal.open):
        with pytest.raises(JournalError, match="left untouched"):
            step(path)
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "journal", "check", str(path)],
                          capture_output=True, text=True, env=campaign.cli_env())
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]


def test_an_action_line_that_is_not_utf8_is_named_damage(
        tmp_path: Path, original: tuple[Path, list[str], list[str]]) -> None:
    _, header, actions = original
    path = tmp_path / "game.sqlite"
    shutil.copyfile(original[0], path)
    data = path.read_bytes()  # a line whose text is stored once (so the flip hits that line)
    seq = next(i + 1 for i, line in enumerate(actions)
               if i >= 20 and data.count(line.encode()) == 1)
    _flip_after(path, actions[seq - 1].encode(), 1, 0x80)
    with Journal.open(path) as journal:
        assert journal.damage is not None and journal.damage.good == seq - 1
        assert journal.lines() == actions[:seq - 1]
