"""What the kiosk draws, at 1280x720 and 800x480 (SDL dummy driver, PNGs in out/kiosk-tests)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pygame
import pytest

from companion.games.monopoly.actions import Roll
from companion.games.monopoly.presenter import short_name
from companion.kiosk.dice_flow import DiceSeen
from companion.kiosk.headless import render_one
from companion.kiosk.painter import Painter
from companion.kiosk.pawn_check import BoardSeen
from companion.kiosk.screens import GameScreen, MessageScreen
from companion.kiosk.table_feed import TableReading
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT

SIZES = [(1280, 720), (800, 480)]


class FakeFeed:
    """A camera that hands over prepared readings."""

    def __init__(self, readings: list[TableReading] | None = None, live: bool = True) -> None:
        self.readings = list(readings or [])
        self.live = live
        self.expected: object = None
        self.expected_dice: object = None

    def poll(self) -> TableReading | None:
        return self.readings.pop(0) if self.readings else None

    def status(self) -> tuple[bool, str]:
        return self.live, "camera running" if self.live else "camera unplugged"

    def set_expected(self, expected: object) -> None:
        self.expected = expected

    def reset_dice(self) -> None:
        pass

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        self.expected_dice = (sides, kinds)

    def close(self) -> None:
        pass


def thumb() -> np.ndarray:
    img = np.zeros((270, 480, 3), np.uint8)
    img[:, :, 1] = 120
    return img


def check_layout(painter: Painter, size: tuple[int, int]) -> None:
    screen = pygame.Rect(0, 0, *size)
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    assert {"header", "players", "log", "camera", "decision"} <= set(panels)
    for name, rect in panels.items():
        assert screen.contains(rect), f"panel {name} {rect} leaves the {size} screen"
    for a in ("header", "players", "log", "camera", "decision"):
        for b in ("header", "players", "log", "camera", "decision"):
            if a < b:
                assert not panels[a].colliderect(panels[b]), f"{a} overlaps {b}"
    for d in painter.drawn:
        r = pygame.Rect(d.rect)
        assert screen.contains(r), f"text {d.text!r} at {r} leaves the screen"
        assert panels[d.panel].contains(r), f"text {d.text!r} at {r} leaves panel {d.panel}"
        assert d.size >= 13, f"text {d.text!r} is too small to read ({d.size}px)"


@pytest.mark.parametrize("size", SIZES)
def test_table_screen_shows_every_panel(midgame: Session, size: tuple[int, int],
                                        png_dir: Path) -> None:
    screen = GameScreen(midgame, FakeFeed([TableReading(1, thumb())]), size)
    painter = render_one(screen, size, png_dir / f"table-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_layout(painter, size)
    texts = painter.texts()
    joined = " | ".join(texts)
    for name in ("Ann", "Ben", "Cai", "Dee"):
        assert name in texts
    assert "$2,310" in texts and "$120" in texts
    assert "Pot $350" in texts
    assert "Ann's turn" in texts
    assert any("IN JAIL" in t for t in painter.texts("players"))
    # properties grouped by colour, mortgaged marked
    assert "Boardwalk" in texts and "Park" in texts
    assert "Reading M" in texts and "Mediterran. M" in texts
    # the decision and its options
    decision = painter.texts("decision")
    assert any("Ann" in t and "roll" in t for t in decision)
    assert "Bob paid Ann $2,000 rent for Boardwalk" in painter.texts("log")
    if midgame.rules.name == "dungeonopoly":
        assert any(t.startswith("Fighter") and "level 2" in t for t in texts), joined
        assert any(t.startswith("EP 17") for t in texts), joined
        assert "Shield Of Faith 1" in texts or any("Shield" in t for t in texts), joined


@pytest.mark.parametrize("size", SIZES)
def test_menu_options_are_listed_and_navigable(midgame: Session, size: tuple[int, int],
                                               png_dir: Path) -> None:
    screen = GameScreen(midgame, FakeFeed(live=False), size)
    screen.update(0)
    assert screen.dice_entry() is not None  # a roll is due: the dice pad is on top
    screen.handle(BACK)  # leave the dice for the other options
    painter = render_one(screen, size, png_dir / f"menu-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_layout(painter, size)
    options = painter.texts("decision")
    assert any(t.startswith("Ann: enter the dice") for t in options)
    assert any(t.startswith("Properties") for t in options)
    assert any(t.startswith("Referee") for t in options)


@pytest.mark.parametrize("size", SIZES)
def test_camera_dice_are_shown_for_confirmation(midgame: Session, size: tuple[int, int],
                                                png_dir: Path) -> None:
    seen = DiceSeen((4, 2), "ok", "", 0.0)
    reading = TableReading(1, thumb(), settled=seen)
    screen = GameScreen(midgame, FakeFeed([reading]), size)
    painter = render_one(screen, size, png_dir / f"dice-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_layout(painter, size)
    decision = painter.texts("decision")
    assert "4" in decision and "2" in decision
    assert "The camera read these values" in decision
    screen.handle(CONFIRM)  # one press accepts them
    assert midgame.lines == ["Ann roll 4 2"]


@pytest.mark.parametrize("size", SIZES)
def test_an_unsure_die_is_entered_from_the_cameras_guess(midgame: Session, size: tuple[int, int],
                                                         png_dir: Path) -> None:
    seen = DiceSeen((4, None), "unsure", "1 unsure: please confirm", 0.0, guesses=(4, 3))
    screen = GameScreen(midgame, FakeFeed([TableReading(1, thumb(), settled=seen)]), size)
    painter = render_one(screen, size, png_dir / f"dice-unsure-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    decision = painter.texts("decision")
    assert any("check the camera's guess" in t for t in decision), decision
    screen.handle(CONFIRM)  # check the values
    painter = render_one(screen, size, png_dir / f"dice-guess-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_layout(painter, size)
    decision = painter.texts("decision")
    assert "4" in decision and "3" in decision and "?" in decision
    assert any("camera's guess" in t for t in decision)
    screen.handle(CONFIRM)  # the read die
    screen.handle(CONFIRM)  # the guessed die, checked: the roll is submitted
    assert midgame.lines == ["Ann roll 4 3"]


def test_with_a_die_too_many_the_entry_starts_from_the_dice_read(midgame: Session, png_dir: Path) -> None:
    # 2d6 rolled; the camera also reports an unsure box left of them (a shadow, a token)
    seen = DiceSeen((None, 4, 2), "unsure", "", 0.0, guesses=(6, 4, 2))
    screen = GameScreen(midgame, FakeFeed([TableReading(1, thumb(), settled=seen)]), (800, 480))
    painter = render_one(screen, (800, 480), png_dir / "dice-extra-800x480.png")
    assert isinstance(painter, Painter)
    assert "take the extra dice away" in " ".join(painter.texts("decision"))  # never accepted as it is
    screen.handle(CONFIRM)  # the person enters the roll
    painter = render_one(screen, (800, 480), png_dir / "dice-extra-entry-800x480.png")
    assert isinstance(painter, Painter)
    check_layout(painter, (800, 480))
    screen.handle(CONFIRM)
    screen.handle(CONFIRM)  # both values stepped through unchanged
    assert midgame.lines == ["Ann roll 4 2"]


def test_a_pawn_mismatch_is_shown_and_never_applied(midgame: Session, png_dir: Path) -> None:
    feed = FakeFeed([])
    screen = GameScreen(midgame, feed, (1280, 720))
    screen.update(0)
    assert screen.submit(Roll(0, (1, 1))) is not None
    state = midgame.state
    square = state.players[0].position
    wrong = (square + 1) % 40
    feed.readings.append(TableReading(2, thumb(), board=BoardSeen("ok", "", {wrong: ("Ann",)},
                                                                  True)))
    painter = render_one(screen, (1280, 720), png_dir / "pawn-mismatch-1280x720.png")
    assert isinstance(painter, Painter)
    banner = " ".join(painter.texts("decision"))
    assert "the camera sees Ann on" in banner and "move the piece" in banner
    assert midgame.state is state  # shown, not applied
    feed.readings.append(TableReading(3, thumb(), board=BoardSeen("ok", "", {square: ("Ann",)},
                                                                  True)))
    painter = render_one(screen, (1280, 720))
    assert isinstance(painter, Painter)
    assert "move the piece" not in " ".join(painter.texts("decision"))


def test_camera_loss_switches_the_dice_to_buttons(midgame: Session) -> None:
    feed = FakeFeed([])
    screen = GameScreen(midgame, feed, (800, 480))
    screen.update(0)
    entry = screen.dice_entry()
    assert entry is not None and entry.mode == "camera"
    feed.live = False
    painter = render_one(screen, (800, 480))
    assert entry.mode == "edit"
    assert isinstance(painter, Painter)
    assert any("unplugged" in t for t in painter.texts())
    for press in (NEXT, NEXT, CONFIRM, NEXT, CONFIRM):
        screen.handle(press)
    assert midgame.lines == ["Ann roll 3 2"]


def test_draw_changes_nothing(midgame: Session) -> None:
    screen = GameScreen(midgame, FakeFeed([TableReading(1, thumb())]), (1280, 720))
    screen.update(0)
    surface = pygame.Surface((1280, 720))
    painter = Painter()
    before = (midgame.state, midgame.version, list(midgame.lines), len(screen.stack),
              screen.model)
    for _ in range(3):
        screen.draw(surface, painter)
    assert before == (midgame.state, midgame.version, list(midgame.lines), len(screen.stack),
                      screen.model)


@pytest.mark.parametrize("size", SIZES)
def test_message_screen_for_a_damaged_saved_game(size: tuple[int, int], png_dir: Path) -> None:
    screen = MessageScreen("The saved game cannot be opened",
                           "/var/lib/companion/game.sqlite is damaged. It was left untouched.",
                           [("Start a new game (the old file is kept)", "new")], size)
    painter = render_one(screen, size, png_dir / f"message-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    assert "The saved game cannot be opened" in painter.texts()
    screen.handle(CONFIRM)
    assert screen.chosen == "new"


def test_short_names_fit_chips() -> None:
    assert short_name("St. Charles Place") == "St. Charles"
    assert short_name("B. & O. Railroad") == "B&O"
    assert short_name("Boardwalk") == "Boardwalk"
    assert len(short_name("Pennsylvania Avenue")) <= 11
    assert short_name("Community Chest") == "Community."  # no space before the cut's dot


@pytest.mark.parametrize("size", SIZES)
def test_a_rogues_lots_stay_on_her_card_with_six_players(size: tuple[int, int],
                                                         png_dir: Path) -> None:
    """Six players on the small screen: the rogue's skill line gives way to her lots (the
    lots are what money decisions need); on the large screen both show."""
    from dataclasses import replace

    s = Session.memory("dungeonopoly", [("Ann", "rogue"), ("Ben", "wizard"), ("Cai", "cleric"),
                                        ("Dee", "rogue"), ("Eve", "bard"), ("Fay", "druid")])
    ann = s.rules.set_player_field(s.state.players[0], "skills",
                                   "rob_bank:10,pick_pockets:8,open_locks:5")
    squares = list(s.state.squares)
    for i in (1, 3, 6, 8, 9):
        squares[i] = replace(squares[i], owner=0)
    s.state = replace(s.state, players=(ann, *s.state.players[1:]), squares=tuple(squares))
    screen = GameScreen(s, FakeFeed(live=False), size)
    painter = render_one(screen, size, png_dir / f"six-players-rogue-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_layout(painter, size)
    shown = painter.texts("players")
    assert any(t.startswith("Mediterran") for t in shown), shown
    assert any(t.startswith("Oriental") for t in shown), shown
    if size == (1280, 720):
        assert any("Rob Bank 10" in t for t in shown), shown
