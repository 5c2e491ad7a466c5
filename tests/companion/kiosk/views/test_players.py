"""The player and team cards (``companion/kiosk/views/players.py``)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.kiosk.painter import Painter
from companion.kiosk.views.players import fact_lines


@pytest.fixture(scope="module")
def painter() -> Painter:
    pygame.init()
    return Painter()


def test_facts_run_on_whole_with_a_comma_between(painter: Painter) -> None:
    facts = ("score 0", "balls 1", "off: res 1 dead 1", "end zone 1")
    one = painter.width("score 0, balls 1", 18)
    lines = fact_lines(painter, facts, 18, one + 4)
    assert lines[0] == "score 0, balls 1,"
    assert "off: res 1 dead 1" in " ".join(lines)  # never "off:" on one line and "res 1" below
    assert all(not ln.endswith("off:") for ln in lines)
    assert all(painter.width(ln, 18) <= one + 4 for ln in lines)
    assert fact_lines(painter, facts, 18, 10_000) == ["score 0, balls 1, off: res 1 dead 1, end zone 1"]


def test_a_fact_wider_than_a_line_is_still_wrapped(painter: Painter) -> None:
    narrow = painter.width("off: res 1", 18)
    lines = fact_lines(painter, ("off: res 1 dead 1 ko 2",), 18, narrow)
    assert len(lines) >= 2 and all(painter.width(ln, 18) <= narrow for ln in lines)
    assert fact_lines(painter, (), 18, 100) == []
