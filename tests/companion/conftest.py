"""Fixtures shared by the companion tests: the test-only race game, registered for a test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # ``tests.companion.testgame`` under a bare ``pytest`` too
    sys.path.insert(0, str(ROOT))

from tests.companion.testgame import Race, register_race, unregister_race  # noqa: E402


@pytest.fixture
def race_game() -> Iterator[Race]:
    """The race (``tests/companion/testgame.py``) registered as a game for one test."""
    game = register_race()
    try:
        yield game
    finally:
        unregister_race()
