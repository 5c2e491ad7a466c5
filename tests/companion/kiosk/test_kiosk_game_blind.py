"""The kiosk holds no game: no module under companion/kiosk imports a game's package or names a
registered game in a string (code, messages or docstrings); it asks each game's presenter."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import companion.kiosk
from companion.core.registry import game_names
from tests.companion.testgame import NAME, Race

KIOSK = Path(companion.kiosk.__file__).resolve().parent
MODULES = sorted(KIOSK.rglob("*.py"))


def imported(tree: ast.AST) -> list[str]:
    """Every module an ``import`` or ``from ... import`` names (relative ones made absolute
    enough to see a climb out of the kiosk)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            out.append(base if node.level == 0 else "." * node.level + base)
            out += [f"{base}.{alias.name}" for alias in node.names if node.level == 0]
    return out


def strings(tree: ast.AST) -> list[tuple[int, str]]:
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def test_the_kiosk_has_modules_to_check() -> None:
    names = {p.name for p in MODULES}
    assert {"screens.py", "inputs.py", "setup.py", "presenter.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(KIOSK)))
def test_no_kiosk_module_imports_a_game(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [m for m in imported(tree) if m == "companion.games" or m.startswith(
        ("companion.games.", "..games", "...games"))]
    assert bad == [], f"{path.name} imports a game's package: {bad}"
    found = [(line, s) for line, s in strings(tree) if "companion.games" in s]
    assert found == [], f"{path.name} names a game's package in a string: {found}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(KIOSK)))
def test_no_kiosk_string_names_a_registered_game(race_game: Race, path: Path) -> None:
    names = game_names()
    assert NAME in names and len(names) >= 3  # the built-in games and the test-only one
    words = [re.compile(rf"(?<![a-z0-9]){re.escape(n)}(?![a-z0-9])", re.IGNORECASE)
             for n in names]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [(line, s) for line, s in strings(tree) if any(w.search(s) for w in words)]
    assert found == [], f"{path.name} names a game in a string: {found}"


def test_the_checks_catch_what_they_look_for() -> None:
    source = ('from companion.games.monopoly.state import GameState\n'
              'import companion.games\n'
              'CAPTION = "Dungeonopoly companion"\n')
    tree = ast.parse(source)
    assert [m for m in imported(tree) if m.startswith("companion.games")]
    assert any(re.search(r"(?<![a-z0-9])dungeonopoly(?![a-z0-9])", s, re.IGNORECASE)
               for _line, s in strings(tree))
