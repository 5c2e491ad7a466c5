"""Transcript vectors: ``vectors/<variant>/<name>.txt`` replays to exactly ``<name>.json``.

An expected file is written only on request: ``CONFORMANCE_REGENERATE=<variant>/<name>`` (or a
variant, or ``all``; several separated by commas) writes the JSON the replay gives and skips the
comparison; review the change with ``git diff`` before committing it (README.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conformance.harness import json_text, registered_names, replay, vector_dir

VECTORS = vector_dir()
CASES = sorted(VECTORS.glob("*/*.txt"))
REGENERATE = "CONFORMANCE_REGENERATE"


def vector_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def regenerate_requested(path: Path) -> bool:
    wanted = {w.strip() for w in os.environ.get(REGENERATE, "").split(",") if w.strip()}
    return bool(wanted & {"all", path.parent.name, vector_id(path)})


@pytest.mark.parametrize("path", CASES, ids=[vector_id(p) for p in CASES])
def test_vector_replays_to_its_json(path: Path) -> None:
    result = replay(path.read_text(encoding="utf-8"))
    assert result.state.variant == path.parent.name, \
        f"{vector_id(path)} is a {result.state.variant} transcript: move it to that folder"
    got = json_text(result.json())
    expected = path.with_suffix(".json")
    if regenerate_requested(path):
        expected.write_text(got, encoding="utf-8")
        pytest.skip(f"wrote {expected} ({REGENERATE} is set): review it with git diff")
    assert expected.exists(), (f"{expected.name} is missing: write it with "
                               f"{REGENERATE}={vector_id(path)} and check it by hand")
    text = expected.read_text(encoding="utf-8")
    assert json.loads(got) == json.loads(text)
    assert got == text, "same content, other layout: regenerate the file to store it as written"


@pytest.mark.parametrize("name", registered_names())
def test_every_registered_game_has_vectors(name: str) -> None:
    assert sorted((VECTORS / name).glob("*.txt")), f"add a transcript vector in vectors/{name}/"


def test_every_expected_file_has_its_transcript() -> None:
    orphans = [p for p in VECTORS.glob("*/*.json") if not p.with_suffix(".txt").exists()]
    assert not orphans, orphans
