"""The dice pad and the big dice view speak of each die by its kind's own name and faces (a
piecepack die is "piecepack die" showing null, ace, 2-5; a block die its symbols), never by its
number of faces ("1d5")."""

from __future__ import annotations

import re

import pygame

from companion.core.dice import BLOCK, D6, DicePrompt
from companion.games.dungeon_crawl.bots import play_bot_game
from companion.games.dungeon_crawl.pieces import PIECEPACK_DIE
from companion.games.monopoly.actions import Roll
from companion.kiosk.dice_flow import DiceEntry, die_title
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.session import Session
from hardware.buttons import NEXT

SEATS = [("Ann", "red"), ("Ben", "black"), ("Cai", "yellow")]


def test_a_die_is_named_by_its_kind_not_its_faces() -> None:
    assert die_title(D6) == "d6"
    assert die_title(PIECEPACK_DIE) == "piecepack die"
    assert die_title(BLOCK) == "block die"


def test_the_pad_names_mixed_dice_and_reads_their_faces() -> None:
    entry = DiceEntry(DicePrompt(0, (BLOCK, PIECEPACK_DIE, D6), "test"), "Ann", False,
                      lambda values: Roll(0, values))
    assert entry.titles() == ("block die", "piecepack die", "d6")
    assert entry.labels() == ("attacker down", "null", "1")
    entry.handle(NEXT)
    assert [r.text for r in entry.rows()] == ["block die: both down", "piecepack die: null",
                                              "d6: 1"]
    assert "1d5" not in entry.title and "1 piecepack die" in entry.title


def crawl_at_a_roll() -> Session:
    """A three-player bot game up to the first roll it waits for."""
    game = play_bot_game(2, [n for n, _ in SEATS], ("heuristic",) * 3)
    session = Session.memory("dungeon_crawl", SEATS, 2)
    for action in game.actions:
        if session.rules.dice_prompt(session.state) is not None:
            break
        session.apply(action)
    assert session.rules.dice_prompt(session.state) is not None
    return session


def test_the_dice_view_draws_a_piecepack_die_by_its_faces() -> None:
    screen = GameScreen(crawl_at_a_roll(), None, (800, 480))
    screen.update(0.05)
    assert screen.model is not None and screen.model.decision.dice is not None
    dice = screen.model.decision.dice
    assert dice.kinds == ("piecepack die",) and dice.labels == ("null",)
    surface = pygame.Surface((800, 480))
    painter = Painter()
    screen.handle(NEXT)  # null -> ace
    screen.update(0.05)
    screen.draw(surface, painter)
    texts = painter.texts("decision")
    assert "piecepack die" in texts and "ace" in texts
    assert not any(re.search(r"\bd5\b|1d5", t) for t in painter.texts())
