"""Team play on the setup screen, with the buttons alone (SDL dummy driver; PNGs in
out/kiosk-tests): presets for the player count, a team letter per seat, the ``teams`` option
built from the chosen names, and the problems that stop a start."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.registry import find_game
from companion.kiosk.headless import render_one
from companion.kiosk.inputs import Menu
from companion.kiosk.painter import Painter
from companion.kiosk.setup import GameSetup, SetupScreen
from companion.kiosk.teams import presets, team_problem, teams_spec
from companion.session import Session
from hardware.buttons import CONFIRM, NEXT, Input

SIZES = [(1280, 720), (800, 480)]


def memory_start(setup: GameSetup) -> Session:
    rules = find_game(setup.variant)
    return Session.memory(setup.variant, setup.players(), seed=3,
                          options=setup.table_options(rules))


def press(screen: SetupScreen, *inputs: Input) -> None:
    for inp in inputs:
        screen.handle(inp)


def goto(screen: SetupScreen, prefix: str) -> None:
    page = screen.top
    assert isinstance(page, Menu)
    labels = [o.label for o in page.options]
    target = next(i for i, label in enumerate(labels) if label.startswith(prefix))
    press(screen, *[NEXT] * ((target - page.index) % len(labels)))
    assert labels[screen.top.index].startswith(prefix)  # type: ignore[union-attr]


def check_inside(painter: Painter, size: tuple[int, int]) -> None:
    import pygame

    screen = pygame.Rect(0, 0, *size)
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    for rect in panels.values():
        assert screen.contains(rect)
    for d in painter.drawn:
        assert panels[d.panel].contains(pygame.Rect(d.rect)), f"{d.text!r} leaves {d.panel}"
        assert d.size >= 18, f"text {d.text!r} is {d.size}px"


def name_seats(screen: SetupScreen, names: list[str]) -> None:
    for s, name in zip(screen.setup.seats, names, strict=True):
        s.name = name
    screen._refresh()


@pytest.mark.parametrize("size", SIZES)
def test_two_teams_from_a_preset_with_the_buttons(size: tuple[int, int], png_dir: Path) -> None:
    tag = f"{size[0]}x{size[1]}"
    screen = SetupScreen(size, memory_start)
    name_seats(screen, ["Ann", "Ben", "Cai", "Dee"])
    goto(screen, "Teams: none")
    press(screen, CONFIRM)
    page = screen.top
    assert isinstance(page, Menu) and page.title == "Teams"
    labels = [o.label for o in page.options]
    assert labels[:3] == ["No teams: everyone plays alone", "Two teams: Ann+Cai vs Ben+Dee",
                          "Two teams: Ann+Ben vs Cai+Dee"]
    goto(screen, "Two teams: Ann+Cai")
    painter = render_one(screen, size, png_dir / f"setup-teams-{tag}.png")
    assert isinstance(painter, Painter)
    check_inside(painter, size)
    assert "seats 1+3 vs 2+4" in " ".join(painter.texts("summary"))  # the note says the seats
    press(screen, CONFIRM)
    assert screen.setup.teams() == "Ann+Cai,Ben+Dee"
    labels = [o.label for o in screen.top.options]  # type: ignore[union-attr]
    assert "Teams: Ann+Cai vs Ben+Dee >" in labels
    goto(screen, "Start the game")
    painter = render_one(screen, size, png_dir / f"setup-teams-ready-{tag}.png")
    assert isinstance(painter, Painter)
    check_inside(painter, size)
    assert painter.texts("summary").count("A") == 2 and painter.texts("summary").count("B") == 2
    press(screen, CONFIRM)
    session = screen.session
    assert session is not None, screen.banner
    assert session.state.sides == (0, 1, 0, 1)
    assert "option teams=Ann+Cai,Ben+Dee" in session.header


def test_team_letters_seat_by_seat_and_six_players_in_three_teams() -> None:
    screen = SetupScreen((800, 480), memory_start, preferred="monopoly", players=6)
    name_seats(screen, ["Ann", "Ben", "Cai", "Dee", "Eve", "Fin"])
    goto(screen, "Teams")
    press(screen, CONFIRM)
    goto(screen, "1. Ann: no team")
    press(screen, CONFIRM)  # no team -> A
    assert screen.top.options[screen.top.index].label == "1. Ann: team A"  # type: ignore[union-attr]
    goto(screen, "2. Ben: no team")
    press(screen, CONFIRM)  # A
    goto(screen, "3. Cai")
    press(screen, CONFIRM, CONFIRM)  # A, B
    goto(screen, "4. Dee")
    press(screen, CONFIRM, CONFIRM)
    goto(screen, "5. Eve")
    press(screen, CONFIRM, CONFIRM, CONFIRM)  # C
    goto(screen, "6. Fin")
    press(screen, CONFIRM, CONFIRM, CONFIRM, CONFIRM, CONFIRM)  # A B C -> none -> A
    assert screen.setup.letters == ["A", "A", "B", "B", "C", "A"]
    # team C has only Eve: the start is refused with a reason, nothing starts
    goto(screen, "Done")
    press(screen, CONFIRM)
    goto(screen, "Start the game")
    press(screen, CONFIRM)
    assert screen.session is None
    assert "Team C has only Eve" in screen.banner[0]
    # the preset "three teams" puts it right
    goto(screen, "Teams")
    press(screen, CONFIRM)
    goto(screen, "Three teams: Ann+Dee")
    press(screen, CONFIRM)
    assert screen.setup.teams() == "Ann+Dee,Ben+Eve,Cai+Fin"
    goto(screen, "Start the game")
    press(screen, CONFIRM)
    assert screen.session is not None
    assert screen.session.state.sides == (0, 1, 2, 0, 1, 2)


def test_everyone_in_one_team_is_refused_by_the_rules() -> None:
    screen = SetupScreen((1280, 720), memory_start, players=2)
    name_seats(screen, ["Ann", "Ben"])
    goto(screen, "Teams")
    press(screen, CONFIRM)
    goto(screen, "1. Ann")
    press(screen, CONFIRM)
    goto(screen, "2. Ben")
    press(screen, CONFIRM)
    goto(screen, "Done")
    press(screen, CONFIRM)
    goto(screen, "Start the game")
    press(screen, CONFIRM)
    assert screen.session is None
    assert "no one to play against" in screen.banner[0]


def test_names_follow_the_seats_and_the_variant_keeps_the_teams() -> None:
    screen = SetupScreen((1280, 720), memory_start)
    name_seats(screen, ["Ann", "Ben", "Cai", "Dee"])
    for s, t in zip(screen.setup.seats, "ABAB", strict=True):
        s.team = t
    screen.setup.seats[2].name = "Gran"
    assert screen.setup.teams() == "Ann+Gran,Ben+Dee"
    goto(screen, "Rules")
    press(screen, CONFIRM)
    goto(screen, "Monopoly")
    press(screen, CONFIRM)
    assert screen.setup.variant == "monopoly" and screen.setup.teams() == "Ann+Gran,Ben+Dee"
    goto(screen, "Players")
    press(screen, CONFIRM)
    goto(screen, "3 players")
    press(screen, CONFIRM)
    assert screen.setup.teams() == "Ann+Gran"  # Ben alone in B: not a team any more
    assert screen.setup.problem() == ("Team B has only Ben: give Ben a teammate or set them to "
                                      "'no team'")


def test_presets_and_spec_helpers() -> None:
    assert [letters for _l, letters in presets(2)] == [("", "")]
    four = dict(presets(4))
    assert four["Two teams: seats 1+3 vs 2+4"] == ("A", "B", "A", "B")
    assert dict(presets(5))["Teams of two: seats 1+2 vs 3+4 (seat 5 alone)"][-1] == ""
    for n in range(2, 9):
        for _label, letters in presets(n):
            names = [f"P{i}" for i in range(n)]
            assert team_problem(names, letters) is None
            spec = teams_spec(names, letters)
            if spec:
                find_game("monopoly").new_game(names, find_game("monopoly")
                                                  .default_options().with_values(teams=spec))


def test_resume_screen_names_the_teams(tmp_path: Path) -> None:
    from companion.kiosk.setup import ResumeScreen

    path = tmp_path / "game.sqlite"
    rules = find_game("monopoly")
    Session.new(path, "monopoly", [("Ann", ""), ("Ben", ""), ("Cai", "")], seed=2,
                options=rules.default_options().with_values(teams="Ann+Cai")).close()
    screen = ResumeScreen(Session.resume(path), (800, 480), "x.sqlite")
    assert screen.summary.startswith("Monopoly: Team A: Ann+Cai vs Ben. Turn 1")
    screen.session.close()
