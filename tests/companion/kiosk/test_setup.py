"""The new-game setup screen and the resume-or-new screen, driven by button presses only
(SDL dummy driver; PNGs in out/kiosk-tests)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.core.registry import find_game
from companion.kiosk.flow import TableFlow
from companion.kiosk.headless import render_one
from companion.kiosk.inputs import Menu
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.kiosk.setup import GameSetup, ResumeScreen, SetupScreen, Speller, variant_roles
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT, Input

SIZES = [(1280, 720), (800, 480)]


def memory_start(setup: GameSetup) -> Session:
    rules = find_game(setup.variant)
    return Session.memory(setup.variant, setup.players(), seed=3,
                          options=setup.table_options(rules))


def press(screen: SetupScreen | ResumeScreen, *inputs: Input) -> None:
    for inp in inputs:
        screen.handle(inp)


def goto(screen: SetupScreen, prefix: str) -> None:
    """Move the highlight to the row starting with ``prefix`` with NEXT presses."""
    page = screen.top
    assert isinstance(page, Menu)
    labels = [o.label for o in page.options]
    target = next(i for i, label in enumerate(labels) if label.startswith(prefix))
    press(screen, *[NEXT] * ((target - page.index) % len(labels)))
    assert screen.top.options[screen.top.index].label.startswith(prefix)  # type: ignore[union-attr]


def choose(screen: SetupScreen, *prefixes: str) -> None:
    """Open or take, one after the other, the rows starting with ``prefixes``."""
    for prefix in prefixes:
        goto(screen, prefix)
        press(screen, CONFIRM)


def check_readable(painter: Painter, size: tuple[int, int], minimum: int) -> None:
    screen = pygame.Rect(0, 0, *size)
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    for rect in panels.values():
        assert screen.contains(rect)
    for d in painter.drawn:
        r = pygame.Rect(d.rect)
        assert panels[d.panel].contains(r), f"text {d.text!r} at {r} leaves panel {d.panel}"
        assert d.size >= minimum, f"text {d.text!r} is {d.size}px, below {minimum}px"


@pytest.mark.parametrize("size", SIZES)
def test_a_family_starts_a_game_with_the_buttons(size: tuple[int, int], png_dir: Path) -> None:
    tag = f"{size[0]}x{size[1]}"
    screen = SetupScreen(size, memory_start)
    painter = render_one(screen, size, png_dir / f"setup-{tag}.png")
    assert isinstance(painter, Painter)
    check_readable(painter, size, 18)
    texts = painter.texts()
    assert "Rules: Dungeonopoly >" in texts and "Players: 4 >" in texts
    assert any(t.startswith("1. Player 1 - Fighter") for t in texts)
    # three players
    goto(screen, "Players")
    press(screen, CONFIRM)
    goto(screen, "3 players")
    press(screen, CONFIRM)
    assert len(screen.setup.seats) == 3
    # seat 1: a name from the list; its class next
    goto(screen, "1. ")
    press(screen, CONFIRM)
    goto(screen, "Name")
    press(screen, CONFIRM)
    goto(screen, "Ann")
    painter = render_one(screen, size, png_dir / f"setup-names-{tag}.png")
    assert isinstance(painter, Painter)
    assert "Ann" in painter.texts("page")
    press(screen, CONFIRM)
    assert screen.top.title.startswith("Player 1")  # back on the seat, on "Class"
    press(screen, CONFIRM)
    goto(screen, "Wizard")
    press(screen, CONFIRM)  # back to the seats, the next one highlighted
    assert screen.setup.seats[0].name == "Ann" and screen.setup.seats[0].role == "wizard"
    assert screen.top.options[screen.top.index].label.startswith("2. ")  # type: ignore[union-attr]
    # seat 2: spell a name letter by letter
    press(screen, CONFIRM)
    goto(screen, "Name")
    press(screen, CONFIRM)
    goto(screen, "Spell a name")
    press(screen, CONFIRM)
    speller = screen.top
    assert isinstance(speller, Speller)
    plan = speller.plan("Zoe Q")
    press(screen, *plan[:-1])  # everything but the final "done"
    painter = render_one(screen, size, png_dir / f"setup-spell-{tag}.png")
    assert isinstance(painter, Painter)
    check_readable(painter, size, 18)
    assert "Zoe Q_" in painter.texts("page")
    press(screen, plan[-1])
    assert screen.setup.seats[1].name == "Zoe Q"
    press(screen, BACK)  # leave seat 2 as it is
    # options: quicker game and gestalt on, every character gets a second class
    goto(screen, "Quicker game")
    press(screen, CONFIRM)
    goto(screen, "Gestalt")
    press(screen, CONFIRM)
    assert screen.setup.options["quicker_game"] and screen.setup.gestalt
    goto(screen, "Start the game")
    painter = render_one(screen, size, png_dir / f"setup-ready-{tag}.png")
    assert isinstance(painter, Painter)
    check_readable(painter, size, 18)
    assert any("Quicker game" in t for t in painter.texts("summary"))
    press(screen, CONFIRM)
    session = screen.session
    assert session is not None
    names = [p.name for p in session.state.players]
    assert names == ["Ann", "Zoe Q", "Player 3"]
    roles = [session.rules.player_json(session.state, i)["class"] for i in range(3)]
    assert roles[0].startswith("wizard+") and all("+" in r for r in roles)
    assert session.state.options.quicker_game
    assert any(line == "option quicker_game=true" for line in session.header)


def test_problems_are_shown_and_nothing_starts(png_dir: Path) -> None:
    screen = SetupScreen((800, 480), memory_start)
    screen.setup.seats[1].name = "Player 1"
    goto(screen, "Start the game")
    press(screen, CONFIRM)
    assert screen.session is None
    painter = render_one(screen, (800, 480), png_dir / "setup-problem-800x480.png")
    assert isinstance(painter, Painter)
    assert any("Two players are called Player 1" in t for t in painter.texts("page"))
    # a name already taken is greyed out in the list
    goto(screen, "2. ")
    press(screen, CONFIRM, CONFIRM)
    page = screen.top
    assert isinstance(page, Menu)
    assert [o.enabled for o in page.options if o.label == "Player 1"] == [False]


def test_monopoly_has_no_classes_and_its_own_options() -> None:
    screen = SetupScreen((1280, 720), memory_start)
    goto(screen, "Rules")
    press(screen, CONFIRM)
    goto(screen, "Monopoly")
    press(screen, CONFIRM)
    assert screen.setup.variant == "monopoly" and screen.setup.roles == ()
    labels = [o.label for o in screen.top.options]  # type: ignore[union-attr]
    assert "1. Player 1 >" in labels
    assert "Central pot: off >" not in labels and "Central pot: off" in labels
    assert not any(label.startswith("Gestalt") for label in labels)
    goto(screen, "Start the game")
    press(screen, CONFIRM)
    assert screen.session is not None and screen.session.rules.name == "monopoly"


def test_classes_come_from_the_dungeonopoly_layer() -> None:
    from companion.games.monopoly.dungeonopoly.abilities import class_names

    assert sorted(variant_roles("dungeonopoly")) == sorted(class_names())
    assert variant_roles("dungeonopoly")[:4] == ("fighter", "wizard", "cleric", "rogue")


def test_a_class_page_says_what_the_class_under_the_cursor_does(png_dir: Path) -> None:
    from companion.games.monopoly.dungeonopoly.abilities import find_class

    screen = SetupScreen((800, 480), memory_start)
    choose(screen, "Rules", "Dungeonopoly", "1. Player 1", "Class:")
    goto(screen, "Rogue")
    note = screen.top.options[screen.top.index].note  # type: ignore[union-attr]
    assert note == "Steals what she needs to survive" == \
        find_class("rogue").summary.capitalize()
    painter = render_one(screen, (800, 480), png_dir / "setup-class-note-800x480.png")
    check_readable(painter, (800, 480), 18)
    assert note in [d.text for d in painter.drawn]


@pytest.mark.parametrize("size", SIZES)
def test_resume_screen_resumes_by_itself_or_starts_anew(size: tuple[int, int], tmp_path: Path,
                                                        png_dir: Path) -> None:
    path = tmp_path / "game.sqlite"
    Session.new(path, "monopoly", [("Ann", ""), ("Ben", "")], seed=2).close()
    made: list[GameScreen] = []

    def make_game(session: Session, referee: object) -> GameScreen:
        screen = GameScreen(session, None, size, referee=referee)  # type: ignore[arg-type]
        made.append(screen)
        return screen

    flow = TableFlow(path, size, make_game, variant="monopoly", seed=lambda: 5,
                     resume_after=2.0)
    first = flow.first()
    assert isinstance(first, ResumeScreen)
    painter = render_one(first, size, png_dir / f"resume-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_readable(painter, size, 18)
    assert "Resume the saved game" in painter.texts()
    for _ in range(61):  # two seconds of frames, no press: it resumes by itself
        first.update(1 / 30)
    game = flow.next_screen(first)
    assert isinstance(game, GameScreen) and game.session.state.players[0].name == "Ann"
    # the referee menu offers a new game; the saved game is kept beside the new one
    game.command("new_game")
    setup = flow.next_screen(game)
    assert isinstance(setup, SetupScreen)
    goto(setup, "Start the game")
    press(setup, CONFIRM)
    assert setup.session is not None
    assert flow.kept and flow.kept[0].exists() and path.exists()
    assert Session.resume(flow.kept[0]).state.players[1].name == "Ben"
    new_game = flow.next_screen(setup)
    assert isinstance(new_game, GameScreen)
    assert new_game.session.rules.name == "monopoly"
    new_game.session.close()


def test_new_game_over_a_finished_one_is_preselected(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    s = Session.new(path, "monopoly", [("Ann", ""), ("Ben", "")])
    from companion.games.monopoly.actions import EndGame

    s.apply(EndGame(0))
    s.close()
    screen = ResumeScreen(Session.resume(path), (800, 480), "x.sqlite")
    assert screen.menu.index == 1 and screen.auto_after is None
    screen.update(60.0)
    assert screen.chosen is None
    press(screen, CONFIRM)
    assert screen.chosen == "new"
    screen.session.close()


@pytest.mark.parametrize("size", SIZES)
def test_agreed_variables_with_several_values_are_chosen_on_the_setup_screen(
        size: tuple[int, int], png_dir: Path) -> None:
    """A game's choice options (Dungeonbowl's map, ball and multiball) cycle on CONFIRM and
    go into the new game's options; the summary names those not at their default."""
    screen = SetupScreen(size, memory_start)
    goto(screen, "Rules")
    press(screen, CONFIRM)
    goto(screen, "Dungeonbowl")
    press(screen, CONFIRM)
    assert len(screen.setup.seats) == 2  # the default map has two end zones
    goto(screen, "Dungeon: two_teams")
    press(screen, CONFIRM, CONFIRM)  # two_teams -> every_feature -> four_teams
    assert len(screen.setup.seats) == 4  # a team for each end zone of the chosen map
    goto(screen, "Balls: 1")
    press(screen, CONFIRM, CONFIRM)  # 1 -> 2 -> 3
    goto(screen, "Multiball: standard")
    press(screen, CONFIRM, CONFIRM)  # standard -> first_score -> illusionary
    labels = [o.label for o in screen.top.options]  # type: ignore[union-attr]
    assert {"Dungeon: four_teams", "Balls: 3", "Multiball: illusionary"} <= set(labels)
    painter = render_one(screen, size, png_dir / f"setup-choices-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_readable(painter, size, 18)
    texts = [d.text for d in painter.drawn]
    at = next(i for i, t in enumerate(texts) if t.startswith("Options:"))
    summary = " ".join(texts[at:at + 3])
    assert "Dungeon four_teams" in summary and "Ball rolled" not in summary, summary
    assert not any(d.cut for d in painter.drawn)
    goto(screen, "Start the game")
    press(screen, CONFIRM)
    assert screen.session is not None, screen.banner
    options = screen.session.state.options
    assert (options.dungeon, options.balls, options.multiball) == ("four_teams", 3,
                                                                  "illusionary")
    assert len(screen.session.state.players) == 4


@pytest.mark.parametrize("size", SIZES)
def test_each_dungeonbowl_team_chooses_its_roster_on_the_setup_screen(
        size: tuple[int, int], png_dir: Path) -> None:
    """A team's row opens its name and roster (the bundled rosters and standard models); the
    game starts with the roster chosen (docs/dungeonbowl.md, "Rosters")."""
    from companion.games.dungeonbowl import roster

    screen = SetupScreen(size, memory_start)
    choose(screen, "Rules", "Dungeonbowl")
    first = roster.bundled()[0]
    assert [o.label for o in screen.top.options][1] == "Teams: 2 >"  # type: ignore[union-attr]
    choose(screen, f"1. Team 1 - {first.title()}", f"Roster: {first.title()}")
    choices = [o.label for o in screen.top.options]  # type: ignore[union-attr]
    assert [c.split("(")[0].strip() for c in choices] == [r.title() for r in roster.bundled()] + \
        ["Standard"]
    notes = [o.note for o in screen.top.options]  # type: ignore[union-attr]
    assert notes[roster.bundled().index("orcs")] == "Orc Raiders, 12 models"
    assert notes[-1] == "MA 6 ST 3 AG 3, as declared"
    painter = render_one(screen, size, png_dir / f"setup-roster-{size[0]}x{size[1]}.png")
    check_readable(painter, size, 18)
    chosen = roster.load(first)  # the row under the cursor says what its roster is
    assert f"{chosen.name}, {len(chosen.models)} models" in [d.text for d in painter.drawn]
    choose(screen, "Goblins")
    assert screen.setup.seats[0].role == "goblins"
    press(screen, BACK)
    choose(screen, "Start the game")
    assert screen.session is not None, screen.banner
    team = screen.session.state.players[0]
    assert team.roster == "goblins" and team.squad[0].id == "goblin1"
    assert 'player "Team 1" goblins' in screen.session.header


def test_a_game_of_teams_calls_its_seats_teams_and_keeps_the_names_people_chose() -> None:
    screen = SetupScreen((1280, 720), memory_start)
    screen.setup.seats[0].name = "Ann"  # chosen for the first game; the others as they start
    choose(screen, "Rules", "Dungeonbowl")
    assert [s.name for s in screen.setup.seats] == ["Ann", "Team 2"]
    labels = [o.label for o in screen.top.options]  # type: ignore[union-attr]
    assert "Teams: 2 >" in labels and labels[3].startswith("2. Team 2")
    choose(screen, "Teams: 2")
    assert screen.top.title == "How many teams?"  # type: ignore[union-attr]
    assert screen.top.options[0].label == "2 teams"  # type: ignore[union-attr]
    screen.setup.seats[1].name = ""
    assert screen.setup.problem() == "Team 2 has no name: choose one"
