"""Shared test helpers: state a position as a transcript, then check exact figures."""

from __future__ import annotations

import os
import textwrap

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def play(text: str):  # type: ignore[no-untyped-def]
    """Replay a transcript given as an indented multi-line string."""
    from companion.transcript import replay

    return replay(textwrap.dedent(text))


@pytest.fixture
def replay_text():  # type: ignore[no-untyped-def]
    """``replay_text(text)``: the game a transcript given as an indented string leaves."""
    return play


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long",
        action="store_true",
        default=False,
        help="run the fault campaigns (tests/faults) at full size: more kills, mutants, games",
    )
