"""The conformance kit runs every test that takes ``case`` once per game and table
(``harness.kit_cases``: the registered games and the test-only ones in ``TEST_GAMES``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import conformance.declarations  # noqa: F401  (declares the built-in games' tables)
import pytest
from conformance.harness import BotGame, Case, kit_cases, play_case, using


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        cases = kit_cases()
        metafunc.parametrize("case", cases, ids=[c.id for c in cases])


@pytest.fixture
def kit_game(case: Case) -> Iterator[Any]:
    """The game of ``case`` (a test-only game is registered while the test runs)."""
    with using(case.variant) as game:
        yield game


@pytest.fixture
def played(kit_game: Any, case: Case) -> BotGame:
    """The seeded bot game of ``case``, played to its end or its table's step limit."""
    return play_case(kit_game, case)
