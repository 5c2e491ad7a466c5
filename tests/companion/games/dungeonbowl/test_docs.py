"""The docs hold: the example transcript plays, and every test the docs name exists (each
numbered rule DB.1-DB.56 and each ruling B-1 ... B-32 has one)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.transcript import replay

ROOT = Path(__file__).resolve().parents[4]
HERE = Path(__file__).resolve().parent
DOCS = (ROOT / "docs" / "dungeonbowl.md", ROOT / "docs" / "dungeonbowl" / "rulings.md")


def test_the_example_transcript_plays() -> None:
    text = DOCS[0].read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```text\n(.*?)```", text, re.S)
                   if b.startswith("variant"))
    result = replay(example)
    state = result.state
    assert state.door_state("D3") == "open" and state.door_state("D1") == "smashed"
    assert state.door_state("D4") == "locked"
    assert state.model("o1") is not None and state.model("o1").at == (20, 7)


def test_every_test_the_docs_name_exists() -> None:
    defined = set()
    for path in HERE.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    for doc in DOCS:
        named = set(re.findall(r"`(test_\w+)`", doc.read_text(encoding="utf-8")))
        missing = sorted(named - defined)
        assert not missing, f"{doc.name} names tests that do not exist: {missing}"


def test_every_rule_and_ruling_has_a_named_test() -> None:
    rules = DOCS[0].read_text(encoding="utf-8")
    for n in range(1, 57):
        assert re.search(rf"^\| DB\.{n} \|.*`test_db{n}_\w+`", rules, re.M), f"DB.{n}"
    rulings = DOCS[1].read_text(encoding="utf-8")
    ids = re.findall(r"\*\*B-(\d+) ", rulings)
    assert ids == [str(n) for n in range(1, len(ids) + 1)] and len(ids) >= 30
    # each of the spec's proposed rulings DB-R1 ... DB-R20 is taken, changed or replaced
    for n in range(1, 21):
        assert re.search(rf"\(DB-R{n}, (taken|changed|replaced)", rulings), f"DB-R{n}"
    for block in re.split(r"\n- \*\*", rulings)[1:]:
        assert re.search(r"`test_\w+`", block), block[:40]


def test_the_transcript_docs_dungeonbowl_example_plays() -> None:
    text = (ROOT / "docs" / "transcript.md").read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```text\n(.*?)```", text, re.S)
                   if "variant dungeonbowl" in b)
    state = replay(example).state
    assert state.door_state("D1") == "open" and state.model("e1").status == "prone"


def test_the_roster_example_in_the_docs_parses() -> None:
    from companion.games.dungeonbowl.roster import parse

    text = DOCS[0].read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```text\n(.*?)```", text, re.S)
                   if b.startswith("; comments start"))
    roster = parse(example)
    assert roster.name == "Rat Pack"
    assert [m.id for m in roster.models] == ["captain", "rat1", "rat2", "rat3", "rat4", "seer"]
    assert roster.models[-1].college == "fire" and roster.models[-1].ag == 4
