"""The consumers of the Game protocol stay game-blind: transcripts' framing, the session, the
journal, bots, simulation, narration and the non-kiosk command line import nothing from a
game's package (``companion.games``), only ``companion.core``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.bots import DiceRoller, RandomBot, bots_for
from companion.core.dice import D4, DicePrompt
from companion.core.registry import find_game
from companion.simulate import make_bot

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
GAME_BLIND = ("transcript.py", "session.py", "journal.py", "bots.py", "simulate.py",
              "narrate.py", "cli.py")


def imported_modules(path: Path) -> list[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("name", GAME_BLIND)
def test_a_consumer_imports_no_game_package(name: str) -> None:
    modules = imported_modules(PACKAGE / name)
    assert modules, f"{name} imports nothing: the check would prove nothing"
    assert not [m for m in modules if m == "companion.games" or m.startswith("companion.games.")]


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from companion.games.monopoly import engine\n")
    assert imported_modules(module) == ["companion.games.monopoly"]


def test_bots_for_a_game_are_random_and_its_own() -> None:
    makers = bots_for(find_game("monopoly"))
    assert list(makers) == ["random", "heuristic"]
    assert isinstance(makers["random"](1), RandomBot)


def test_an_unknown_bot_is_refused_naming_the_bots_there_are() -> None:
    with pytest.raises(ValueError, match="no bot called 'clever' plays monopoly; bots: random, heuristic"):
        make_bot(find_game("monopoly"), "clever", 1)


class _OneD4Game:
    """Just enough of a game for the roller: it always asks seat 1 for one d4."""

    def needs_dice(self, action: object) -> bool:
        return action == "roll?"

    def dice_prompt(self, state: object) -> DicePrompt:
        return DicePrompt(1, (D4,), "test")

    def roll_action(self, state: object, prompt: DicePrompt, values: tuple[int, ...]) -> object:
        return ("rolled", prompt.player, values)


def test_the_roller_fills_only_a_placeholder_with_faces_of_the_dice_asked_for() -> None:
    game = _OneD4Game()
    roller = DiceRoller(7)
    assert roller.fill(game, None, "buy") == "buy"  # type: ignore[arg-type]
    rolls = [roller.fill(game, None, "roll?") for _ in range(200)]  # type: ignore[arg-type]
    assert {r[1] for r in rolls} == {1}
    assert {r[2] for r in rolls} == {(1,), (2,), (3,), (4,)}
