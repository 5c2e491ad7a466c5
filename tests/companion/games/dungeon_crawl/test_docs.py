"""The docs hold: the example transcripts play, and every test the docs name exists."""

from __future__ import annotations

import re
from pathlib import Path

from companion.transcript import replay

from .table import GAME

ROOT = Path(__file__).resolve().parents[4]
HERE = Path(__file__).resolve().parent


def play_transcript(text: str):
    """Replay through the shared transcript framing (header lines read by it, the rest by the
    game)."""
    result = replay(text)
    return result.state, result.events


def examples() -> list[str]:
    text = (ROOT / "docs" / "dungeon-crawl.md").read_text()
    return [b for b in re.findall(r"```text\n(.*?)```", text, re.S) if "variant" in b]


def test_the_example_transcripts_play():
    start, play = examples()
    state, _ = play_transcript(start)
    assert GAME.waiting_for(state) == "Ann to turn over a tile and lay it"
    assert [t.at for t in state.tiles] == [(0, 0), (1, 0), (1, -1)]
    state, events = play_transcript(play)
    told = " ".join(GAME.describe(state, e) for e in events)
    doc = (ROOT / "docs" / "dungeon-crawl.md").read_text()
    assert " ".join(doc.split("Told by the companion: ")[1].split("\n\n")[0].split()) == told
    assert state.players[2].treasures == (2,) and state.players[0].damage == (4,)


def test_every_test_the_docs_name_exists():
    names = set()
    for path in HERE.glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    for doc in ("dungeon-crawl.md", "rulings-dungeon-crawl.md"):
        cited = set(re.findall(r"`(?:test_\w+::)?(test_\w+)`", (ROOT / "docs" / doc).read_text()))
        cited |= set(re.findall(r"(test_\w+)`", (ROOT / "docs" / doc).read_text()))
        assert cited and cited <= names, sorted(cited - names)


def test_every_ruling_from_c1_to_c25_is_written_once():
    text = (ROOT / "docs" / "rulings-dungeon-crawl.md").read_text()
    ids = re.findall(r"^- \*\*C-(\d+) ", text, re.M)
    assert sorted(map(int, ids)) == list(range(1, 26))
