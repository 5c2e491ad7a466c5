"""``companion play`` at the table, end to end and headless: keyboard events are posted to SDL's
queue (dummy driver) frame by frame, as a person would press them. A new game is set up on the
setup screen, a few actions are played, F10 quits; the next run resumes from the journal."""

from __future__ import annotations

import argparse
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from companion.bots import DiceRoller
from companion.games.monopoly.actions import Roll
from companion.games.monopoly.bots import HeuristicBot
from companion.kiosk.app import KioskApp
from companion.kiosk.cli import add_play_arguments, run_play
from companion.kiosk.inputs import Menu
from companion.kiosk.screens import GameScreen
from companion.kiosk.setup import ResumeScreen, SetupScreen, Speller
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT, PREV, Input

KEYS = {PREV: pygame.K_LEFT, NEXT: pygame.K_RIGHT, CONFIRM: pygame.K_RETURN,
        BACK: pygame.K_ESCAPE}
Step = Callable[[object], list[Input]]


def goto(prefix: str) -> Step:
    def plan(screen: object) -> list[Input]:
        assert isinstance(screen, SetupScreen)
        page = screen.top
        assert isinstance(page, Menu)
        labels = [o.label for o in page.options]
        found = [i for i, label in enumerate(labels) if label.startswith(prefix)]
        assert found, f"no row {prefix!r} in {labels}"
        target = found[0]
        return [NEXT] * ((target - page.index) % len(labels))
    return plan


def keys(*inputs: Input) -> Step:
    return lambda screen: list(inputs)


def spell(text: str) -> Step:
    def plan(screen: object) -> list[Input]:
        assert isinstance(screen, SetupScreen) and isinstance(screen.top, Speller)
        return screen.top.plan(text)
    return plan


class Person:
    """Presses keys: one key (down and up) per frame, planned from what the screen shows."""

    def __init__(self, setup_steps: list[Step], actions: int, seed: int = 4) -> None:
        self.setup_steps = list(setup_steps)
        self.actions = actions  # game actions to play before pressing F10
        self.pending: list[Input] = []
        self.rng = random.Random(seed)
        self.done_actions = 0
        self.start_lines: int | None = None
        self.quit = False
        self.screens: list[str] = []

    def post(self, key: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))

    def before_frame(self, app: KioskApp) -> None:
        screen = app.screen
        name = type(screen).__name__
        if not self.screens or self.screens[-1] != name:
            self.screens.append(name)
        if self.pending:
            self.post(KEYS[self.pending.pop(0)])
            return
        if isinstance(screen, ResumeScreen):
            self.pending = [CONFIRM]  # "Resume the saved game" is highlighted
        elif isinstance(screen, SetupScreen):
            if self.setup_steps:
                self.pending = self.setup_steps.pop(0)(screen)
        elif isinstance(screen, GameScreen):
            s = screen.session
            if self.start_lines is None:
                self.start_lines = len(s.lines)
            if len(s.lines) - self.start_lines >= self.actions:
                if not self.quit:
                    self.quit = True
                    self.post(pygame.K_F10)
                return
            self.pending = self.plan_action(screen)

    def plan_action(self, screen: GameScreen) -> list[Input]:
        s = screen.session
        acts = s.rules.legal_actions(s.state, s.rules.deciders(s.state))
        action = HeuristicBot(self.rng.randrange(1000)).choose(s.rules, s.state, acts)
        action = DiceRoller(self.rng.randrange(1000)).fill(s.rules, s.state, action)
        if isinstance(action, Roll):
            entry = screen.dice_entry()
            assert entry is not None
            return entry.plan_entry(action.dice)
        if len(screen.stack) > 1:
            return [BACK]
        root = screen.stack[0]
        assert isinstance(root, Menu)
        plan = root.plan(action)
        assert plan is not None, f"no button path to {action}"
        return plan


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "companion.toml"
    config.write_text('[kiosk]\nresolution = [800, 480]\n[camera]\nbackend = "none"\n'
                      '[buttons]\nbackend = "keyboard"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    return tmp_path


def play(person: Person, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    original = KioskApp.step

    def step(self: KioskApp, dt: float) -> None:
        person.before_frame(self)
        original(self, dt)

    monkeypatch.setattr(KioskApp, "step", step)
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    try:
        return run_play(parser.parse_args(argv))
    finally:
        monkeypatch.setattr(KioskApp, "step", original)


def test_play_sets_up_a_game_plays_quits_and_resumes(
        table: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        png_dir: Path) -> None:
    journal = table / "game.sqlite"
    out = table / "frames"
    argv = ["--headless", "--journal", str(journal), "--out", str(out), "--frames", "3000",
            "--seed", "9"]
    setup = [goto("Players"), keys(CONFIRM), goto("2 players"), keys(CONFIRM),
             goto("1. "), keys(CONFIRM), goto("Name"), keys(CONFIRM), goto("Ann"),
             keys(CONFIRM),  # -> the seat again, "Class" highlighted
             keys(CONFIRM), goto("Rogue"), keys(CONFIRM),  # -> seat 2 highlighted
             keys(CONFIRM), goto("Name"), keys(CONFIRM), goto("Spell a name"), keys(CONFIRM),
             spell("Bo"), keys(BACK),
             goto("Blitz"), keys(CONFIRM), goto("Start the game"), keys(CONFIRM)]
    person = Person(setup, actions=5)
    assert play(person, argv, monkeypatch) == 0
    assert person.screens[:2] == ["SetupScreen", "GameScreen"], person.screens
    assert person.quit, "the game did not get to 5 actions"
    text = capsys.readouterr().out
    assert str(out) in text
    frames = sorted(out.glob("*.png"))
    assert frames and pygame.image.load(str(frames[0])).get_size() == (800, 480)
    shutil.copy(frames[0], png_dir / "play-setup-800x480.png")
    shutil.copy(frames[-1], png_dir / "play-game-800x480.png")

    saved = Session.resume(journal)
    assert [p.name for p in saved.state.players] == ["Ann", "Bo"]
    assert saved.rules.player_json(saved.state, 0)["class"] == "rogue"
    assert "option blitz=true" in saved.header
    played = list(saved.lines)
    assert len(played) >= 5
    saved.close()

    # the next start finds the saved game: resume it (one press), play one more action
    person = Person([], actions=1, seed=5)
    assert play(person, argv, monkeypatch) == 0
    assert person.screens[:2] == ["ResumeScreen", "GameScreen"], person.screens
    assert person.start_lines == len(played)  # no acknowledged action lost
    again = Session.resume(journal)
    assert again.lines[:len(played)] == played and len(again.lines) == len(played) + 1
    again.close()


def test_play_starts_a_team_game_from_the_command_line(
        table: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    journal = table / "teams.sqlite"
    argv = ["--headless", "--journal", str(journal), "--out", str(table / "frames"),
            "--frames", "400", "--seed", "3", "--players",
            "Ann:fighter,Ben:wizard,Cai:cleric,Dee:rogue", "--option", "teams=Ann+Cai,Ben+Dee",
            "--option", "quicker_game=false"]
    person = Person([], actions=1)
    assert play(person, argv, monkeypatch) == 0
    assert person.screens[0] == "GameScreen", person.screens
    saved = Session.resume(journal)
    assert "option teams=Ann+Cai,Ben+Dee" in saved.header
    assert saved.state.allied(0, 2) and not saved.state.allied(0, 1)
    saved.close()


@pytest.mark.parametrize(("extra", "said"), [
    (["--players", "Ann:fighter,Ben:wizard", "--option", "teams"], "NAME=VALUE"),
    (["--players", "Ann:fighter,Ben:wizard", "--option", "speed=9"], "unknown option 'speed'"),
    (["--option", "quicker_game=true"], "give its --players too"),
])
def test_play_refuses_a_bad_option_and_says_why(
        table: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str) -> None:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    argv = ["--headless", "--journal", str(table / "x.sqlite"), "--frames", "5", *extra]
    assert run_play(parser.parse_args(argv)) == 2
    assert said in capsys.readouterr().err
    assert not (table / "x.sqlite").exists()  # nothing started
