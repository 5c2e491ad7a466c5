"""``companion play --demo`` without ``--players``: as many seats as the chosen game seats."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.kiosk.cli import _session_for_demo


def demo_args(tmp_path: Path, variant: str, option: list[str] | None = None) -> argparse.Namespace:
    return argparse.Namespace(script=None, journal=tmp_path / "demo.sqlite", variant=variant,
                              players=None, option=option, seed=1)


def seats(tmp_path: Path, variant: str, option: list[str] | None = None) -> int:
    session, _ = _session_for_demo(demo_args(tmp_path, variant, option))
    try:
        return len(session.state.players)
    finally:
        session.close()


def test_a_dungeonbowl_demo_seats_one_team_per_end_zone_of_its_map(tmp_path: Path) -> None:
    assert seats(tmp_path / "a", "dungeonbowl") == 2  # the default map has two end zones
    assert seats(tmp_path / "b", "dungeonbowl", ["dungeon=four_teams"]) == 4


def test_a_game_that_does_not_say_seats_four(tmp_path: Path) -> None:
    assert seats(tmp_path, "dungeonopoly") == 4
