"""The kiosk plays a game it holds no code for: the test-only race (tests/companion/testgame.py)
is registered in a fixture, set up on the setup screen, and played to its end with the buttons
alone (the die entered on the dice pad, runs chosen in the menu), every frame drawn headless
with each text inside its panel and not cut short."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from companion.core.registry import find_game, game_names
from companion.kiosk.dice_flow import DiceEntry
from companion.kiosk.headless import render_one
from companion.kiosk.inputs import Menu
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.kiosk.setup import GameSetup, SetupScreen
from companion.session import Session
from companion.transcript import replay
from hardware.buttons import BACK, CONFIRM, NEXT, Input
from tests.companion.testgame import NAME, Race, RaceState

SIZES = [(1280, 720), (800, 480)]


def starter(folder: Path) -> Callable[[GameSetup], Session]:
    """Start the game the setup screen chose in a saved game under ``folder`` (the session,
    the journal and the transcript framing know no game: they ask it)."""
    def start(setup: GameSetup) -> Session:
        game = find_game(setup.variant)
        return Session.new(folder / "race.sqlite", setup.variant, setup.players(), seed=7,
                           options=setup.table_options(game))
    return start


def check_frame(painter: Painter, size: tuple[int, int]) -> None:
    """Every text on the screen inside its panel and readable; the game's words (cards, log,
    header) shown in full."""
    screen = pygame.Rect(0, 0, *size)
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    assert painter.drawn
    for d in painter.drawn:
        r = pygame.Rect(d.rect)
        assert screen.contains(r), f"text {d.text!r} at {r} leaves the screen"
        assert panels[d.panel].contains(r), f"text {d.text!r} at {r} leaves panel {d.panel}"
        assert d.size >= 13, f"text {d.text!r} is too small to read ({d.size}px)"
        if d.panel in ("players", "log", "header"):
            assert not d.text.endswith("..."), f"text {d.text!r} was cut to fit"


def press(screen: SetupScreen | GameScreen, *inputs: Input) -> None:
    for inp in inputs:
        screen.handle(inp)


def goto(menu: Menu, prefix: str) -> list[Input]:
    """The NEXT presses that move ``menu``'s highlight to the row starting with ``prefix``."""
    labels = [o.label for o in menu.options]
    target = next(i for i, label in enumerate(labels) if label.startswith(prefix))
    return [NEXT] * ((target - menu.index) % len(labels))


@pytest.mark.parametrize("size", SIZES)
def test_the_kiosk_plays_a_registered_game_it_has_no_code_for(
        race_game: Race, size: tuple[int, int], png_dir: Path, tmp_path: Path) -> None:
    tag = f"{size[0]}x{size[1]}"
    assert NAME in game_names()
    # setup: the race's roles and option come from its presenter
    setup = SetupScreen(size, starter(tmp_path), variants=[NAME], preferred=NAME, players=2)
    assert setup.setup.roles == ("hare", "tortoise")
    painter = render_one(setup, size, png_dir / f"race-setup-{tag}.png")
    assert isinstance(painter, Painter)
    texts = " | ".join(painter.texts())
    assert "Short track" in texts and "Hare" in texts and "Tortoise" in texts
    page = setup.top
    assert isinstance(page, Menu)
    press(setup, *goto(page, "1. Player 1"), CONFIRM)
    seat = setup.top
    assert isinstance(seat, Menu) and "Role: Hare >" in [r.text for r in seat.rows()]
    press(setup, BACK)
    page = setup.top
    assert isinstance(page, Menu)
    press(setup, *goto(page, "Short track"), CONFIRM)
    assert setup.setup.options == {"short_track": True}
    page = setup.top
    assert isinstance(page, Menu)
    press(setup, *goto(page, "Start the game"), CONFIRM)
    session = setup.session
    assert session is not None and isinstance(session.state, RaceState)
    assert session.state.options.track == 8
    assert [r.role for r in session.state.players] == ["hare", "tortoise"]

    # the game: roll the die on the dice pad, then choose the longest run in the menu
    screen = GameScreen(session, size=size)
    rolls = iter([3, 6, 5, 1, 6, 2, 4, 6])
    frames = 0
    while session.state.outcome is None:
        frames += 1
        assert frames < 40, "the race did not end"
        painter = render_one(screen, size, png_dir / f"race-{tag}-{frames:02d}.png"
                             if frames <= 3 else None)
        assert isinstance(painter, Painter)
        check_frame(painter, size)
        state = session.state
        who = state.players[state.current].name
        entry = screen.dice_entry()
        if not state.rolled:
            assert isinstance(entry, DiceEntry), "a roll is due: the dice pad is on top"
            assert entry.title == f"{who}: roll 1d6"
            press(screen, *entry.plan_entry([next(rolls)]))
            assert session.state.rolled, "the die was entered"
            continue
        assert entry is None
        menu = screen.stack[0]
        assert isinstance(menu, Menu)
        rows = [o.label for o in menu.options]
        longest = f"{who}: Run {state.rolled} square"
        assert any(r.startswith(longest) for r in rows), rows
        assert rows[-1].startswith("Referee")
        decision = painter.texts("decision")
        assert all(row.text in decision for row in menu.rows()), "a menu row was cut"
        assert f"{who} to run" in " ".join(painter.texts("decision"))
        press(screen, *goto(menu, longest), CONFIRM)
    # the end: drawn like any game's, the winner named
    painter = render_one(screen, size, png_dir / f"race-over-{tag}.png")
    assert isinstance(painter, Painter)
    check_frame(painter, size)
    winner = session.state.outcome.winner
    assert winner in ("Player 1", "Player 2")
    assert f"{winner} wins" in painter.texts("header")
    assert f"{winner} wins the race" in painter.texts("log")
    cards = " | ".join(painter.texts("players"))
    assert "square" in cards and "$" not in cards  # places from the presenter, no money
    assert session.lines[:2] == ['"Player 1" roll 3', '"Player 1" run 3']
    # the saved game resumes to the same end, and its transcript replays to it
    final, lines = session.state, list(session.lines)
    session.close()
    resumed = Session.resume(tmp_path / "race.sqlite")
    try:
        assert resumed.state == final and resumed.lines == lines
        assert replay(resumed.export_transcript()).state == final
    finally:
        resumed.close()
