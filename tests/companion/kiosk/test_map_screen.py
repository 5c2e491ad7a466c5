"""The table screen of a game with a map (Dungeon Crawl, played by bots to the middle): the map
panel, the square picker on top of the menu, the hold-to-peek, and every word inside its panel
at 1280x720 and 800x480."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.games.dungeon_crawl.actions import Move
from companion.games.dungeon_crawl.bots import play_bot_game
from companion.kiosk.inputs import MapPicker, Menu
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT, Input

SIZES = [(1280, 720), (800, 480)]
SEATS = [("Ann", "red"), ("Ben", "black"), ("Cai", "yellow"), ("Dee", "blue")]


def crawl_session(actions: int = 88, seed: int = 3) -> Session:
    """Four bots' game up to ``actions`` actions (88: Ben to move, three treasures found)."""
    game = play_bot_game(seed, [n for n, _ in SEATS], ("heuristic",) * 4)
    session = Session.memory("dungeon_crawl", SEATS, seed)
    for action in game.actions[:actions]:
        session.apply(action)
    return session


def frame(screen: GameScreen, size: tuple[int, int]) -> tuple[pygame.Surface, Painter]:
    screen.update(0.05)
    surface = pygame.Surface(size)
    painter = Painter()
    screen.draw(surface, painter)
    return surface, painter


@pytest.mark.parametrize("size", SIZES)
def test_map_game_screen_keeps_every_word_in_its_panel(size: tuple[int, int],
                                                       png_dir: Path) -> None:
    screen = GameScreen(crawl_session(), None, size)
    assert screen.layout.map is not None
    surface, painter = frame(screen, size)
    pygame.image.save(surface, str(png_dir / f"crawl-map-{size[0]}x{size[1]}.png"))
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    assert {"map", "players", "decision", "log", "camera", "header"} <= set(panels)
    for d in painter.drawn:
        box = pygame.Rect(d.rect)
        assert panels[d.panel].contains(box), d
        assert d.size >= (14 if size[1] <= 480 else 13), d
    for a, b in [("map", "players"), ("map", "decision"), ("map", "log"), ("log", "camera"),
                 ("players", "decision")]:
        assert not panels[a].colliderect(panels[b]), (a, b)
    texts = painter.texts()
    assert any(t.startswith("damage ") for t in texts)
    assert "The dungeon: 11 coins lie, 3 of 6 treasures found" in painter.texts("map")


def test_picker_is_on_top_for_a_move_and_sends_the_chosen_square() -> None:
    session = crawl_session()
    screen = GameScreen(session, None, (800, 480))
    picker = screen.top
    assert isinstance(picker, MapPicker)
    legal = [a for a in session.rules.legal_actions(session.state) if isinstance(a, Move)]
    assert {t.action for t in picker.targets} == set(legal)
    screen.handle(NEXT)
    chosen = picker.targets[1].action
    _, painter = frame(screen, (800, 480))
    assert f"> {picker.targets[1].label}" in painter.texts("map")
    before = len(session.lines)
    screen.handle(CONFIRM)
    assert len(session.lines) == before + 1
    assert session.lines[-1] == session.rules.format_action(session.state, chosen) or \
        session.lines[-1].endswith(f"move {chosen.to[0]},{chosen.to[1]}")


def test_back_from_the_picker_gives_the_menu_with_every_option() -> None:
    screen = GameScreen(crawl_session(), None, (1280, 720))
    screen.handle(BACK)
    assert isinstance(screen.top, Menu) and len(screen.stack) == 1
    _, painter = frame(screen, (1280, 720))
    assert any("move" in t for t in painter.texts("decision"))
    # the menu's row is a square too: the map still shows where it goes
    menu = screen.top
    assert isinstance(menu, Menu)
    row = menu.options[menu.index]
    assert any(t.startswith("> ") and t[2:] == row.label.split(": ", 1)[1]
               for t in painter.texts("map")), painter.texts("map")


@pytest.mark.parametrize("size", SIZES)
def test_peek_shows_a_players_treasure_values_only_while_held(size: tuple[int, int],
                                                              png_dir: Path) -> None:
    session = crawl_session()
    held = [i for i, p in enumerate(session.state.players) if p.treasures][0]
    values = session.state.players[held].treasures
    screen = GameScreen(session, None, size)

    def shown() -> list[str]:
        return [t for t in frame(screen, size)[1].texts() if t.startswith("Treasures:")]

    assert shown() == []
    screen.handle(Input.react(held))  # a tap is no peek
    assert shown() == []
    stack = list(screen.stack)
    screen.handle(Input.react(held, held=True))
    surface, painter = frame(screen, size)
    peek = painter.texts("peek")
    assert any(t.startswith("Treasures:") for t in peek), peek
    assert all(str(v) in " ".join(peek) for v in values if v > 1)
    pygame.image.save(surface, str(png_dir / f"crawl-peek-{size[0]}x{size[1]}.png"))
    screen.release(Input.react((held + 1) % 4).as_released())  # someone else's button
    assert shown() != []
    screen.handle(Input.react(held).as_released())
    assert shown() == []
    assert screen.stack == stack  # the peek left the decision as it was


def test_a_seats_button_leaves_the_picker_for_that_seats_menu_row() -> None:
    screen = GameScreen(crawl_session(), None, (800, 480))
    assert isinstance(screen.top, MapPicker)
    screen.handle(Input.react(2))  # Cai has nothing to decide: the menu, row unchanged
    assert len(screen.stack) == 1 and isinstance(screen.top, Menu)
    menu = screen.top
    assert menu.options[menu.index].seat in (None, 1)
