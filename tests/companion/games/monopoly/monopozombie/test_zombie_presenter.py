"""The kiosk's view of MonopoZombie: badges, the stage line, target rows, dice prompts; the
screen drawn at 1280x720 and 800x480 (PNGs in out/kiosk-tests/monopozombie-*)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest
from zombie_table import Feed, session

from companion.games.monopoly.monopozombie.presenter import HOMELESS, HUMAN, ZOMBIE
from companion.kiosk.headless import render_one
from companion.kiosk.screens import GameScreen
from companion.session import Session

PNG_DIR = Path(__file__).resolve().parents[5] / "out" / "kiosk-tests"
SIZES = [(1280, 720), (800, 480)]

APOCALYPSE = """variant monopozombie
seed 1
player Ann
player Bob
player Cy
player Dee
player Eve
set stage apocalypse
set square "Park Place" owner=Ann houses=2
set square "Boardwalk" owner=Bob houses=1
set square "Baltic Avenue" owner=Bob
set player Ann lap=done position=37 cash=0
set player Bob zombie=yes lap=done position=20 cash=0
set player Cy lap=done position=37 cash=0
set player Dee zombie=yes position=5 cash=0
set player Eve homeless=yes homeless_at_apocalypse=yes lap=done position=12 cash=0
set turn player=Dee
"""





def test_cards_show_human_zombie_homeless_with_colour_and_icon() -> None:
    s = session(APOCALYPSE)
    cards = s.rules.presenter().player_cards(s.state, {})
    by_name = {c.name: c for c in cards}
    assert (by_name["Ann"].badge, by_name["Ann"].badge_icon, by_name["Ann"].badge_colour) == \
        ("Human", "H", HUMAN)
    assert (by_name["Bob"].badge, by_name["Bob"].badge_colour) == ("Zombie", ZOMBIE)
    assert (by_name["Eve"].badge, by_name["Eve"].badge_colour) == ("Homeless", HOMELESS)
    assert by_name["Ann"].cash is None  # no money in the apocalypse


def test_stage_line_counts_humans_on_the_best_home() -> None:
    s = session(APOCALYPSE)
    assert s.rules.presenter().header(s.state).bank == "Apocalypse: 2 of 3 humans on Park Place"


def test_zombie_roll_asks_2d4_and_lists_the_two_squares() -> None:
    s = session(APOCALYPSE)
    pres = s.rules.presenter()
    prompt = pres.dice_prompt(s.state)
    assert prompt is not None and [d.name for d in prompt.dice] == ["d4", "d4"]
    assert prompt.purpose == "Dee (zombie) moves: 2d4, then pick the square"
    state, _ = s.rules.apply(s.state, pres.roll_action(s.state, prompt, (3, 2)))
    labels = [pres.action_label(state, a) for a in s.rules.legal_actions(state)
              if type(a).__name__ == "Steer"]
    assert labels == ["Jail / Just Visiting (3+2 ahead)", "GO (3+2 back)"]


@pytest.mark.parametrize("turn, sides", [("Dee", (4, 4)), ("Ann", (6, 6, 6))])
def test_the_camera_is_told_which_dice_to_read(turn: str, sides: tuple[int, ...]) -> None:
    s = session(APOCALYPSE.replace("set turn player=Dee", f"set turn player={turn}"))
    feed = Feed()
    screen = GameScreen(s, feed, (800, 480))
    render_one(screen, (800, 480))
    assert feed.dice and feed.dice[-1] == sides


def test_apocalypse_human_roll_asks_3d6_keep_two() -> None:
    text = APOCALYPSE.replace("set turn player=Dee", "set turn player=Ann")
    s = session(text)
    prompt = s.rules.presenter().dice_prompt(s.state)
    assert prompt is not None and len(prompt.dice) == 3
    assert prompt.purpose == "Ann moves: 3d6, keep two"


@pytest.mark.parametrize("size", SIZES)
def test_screen_readable_at_both_sizes(size: tuple[int, int]) -> None:
    s = session(APOCALYPSE)
    pres = s.rules.presenter()
    prompt = pres.dice_prompt(s.state)
    assert prompt is not None
    state, _ = s.rules.apply(s.state, pres.roll_action(s.state, prompt, (3, 2)))
    s = Session(s.rules, state, s.header, None)
    s.log.extend(["Dee rolled 3 2 (5)", "Bob becomes a zombie on Free Parking."])
    screen = GameScreen(s, Feed(), size)
    PNG_DIR.mkdir(parents=True, exist_ok=True)
    painter = render_one(screen, size, PNG_DIR / f"monopozombie-{size[0]}x{size[1]}.png")
    texts = painter.texts()  # type: ignore[attr-defined]
    joined = " | ".join(texts)
    assert "Zombie" in texts and "Human" in texts and "Homeless" in texts, joined
    assert any("humans on Park Place" in t for t in texts), joined
    area = pygame.Rect(0, 0, *size)
    for d in painter.drawn:  # type: ignore[attr-defined]
        assert area.contains(pygame.Rect(d.rect)), d.text
        assert d.size >= 13, f"{d.text!r} too small ({d.size}px)"
    assert np.asarray(pygame.surfarray.array3d(pygame.image.load(
        str(PNG_DIR / f"monopozombie-{size[0]}x{size[1]}.png")))).std() > 5
