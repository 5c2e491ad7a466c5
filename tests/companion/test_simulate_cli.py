"""``companion simulate`` (and ``companion kiosk frames``) as a user meets them: every numeric
option checked, a game with classes plays the demo's classes when none are given, every option
explained in --help, and the win rates drawn as a PNG plot with 95 % confidence intervals."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.win_plot import BAR, WHISKER, wilson


@pytest.mark.parametrize("argv, says", [
    (["--games", "-5"], "--games: -5 is too small"),
    (["--games", "0"], "--games: 0 is too small"),
    (["--players", "0"], "--players: 0 is too small"),
    (["--max-turns", "0"], "--max-turns: 0 is too small"),
    (["--seed", "-1"], "--seed: -1 is too small"),
    (["--games", "many"], "--games: 'many' is not a whole number"),
])
def test_every_numeric_option_is_checked(argv: list[str], says: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", *argv])
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--frames", "-3"], ["--seed", "-1"], ["--frames", "x"]])
def test_kiosk_frames_numbers_are_checked(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["kiosk", "frames", *argv])
    assert stopped.value.code == 2


def _subparser(parser: argparse.ArgumentParser, *path: str) -> argparse.ArgumentParser:
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return parser


@pytest.mark.parametrize("path", [("simulate",), ("kiosk", "frames")])
def test_every_option_has_a_help_text(path: tuple[str, ...]) -> None:
    parser = _subparser(build_parser(), *path)
    missing = [a.option_strings for a in parser._actions
               if a.option_strings and not a.help]
    assert not missing, f"{' '.join(path)}: no help for {missing}"


def test_dungeonopoly_without_classes_plays_the_demos_classes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "rates.png"
    assert main(["simulate", "--variant", "dungeonopoly", "--games", "1", "--max-turns", "3",
                 "--no-progress", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "classes: fighter, wizard, cleric, rogue" in out
    assert plot.exists()


def test_wilson_interval_figures() -> None:
    low, high = wilson(5, 40)
    assert (round(low, 3), round(high, 3)) == (0.055, 0.261)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson(250, 1000)
    assert low < 0.25 < high and high - low < 0.06


def test_the_win_rates_are_drawn_as_a_png_with_intervals(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    plot = tmp_path / "sim" / "rates.png"
    assert main(["simulate", "--games", "4", "--players", "3", "--max-turns", "400",
                 "--no-progress", "--json", "--plot", str(plot)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["plot"] == str(plot) and plot.exists()
    image = pygame.image.load(str(plot))
    w, h = image.get_size()
    rows = max(1, len(report["wins"]))
    assert w == 960 and h == 86 + 44 * rows + 70
    pixels = pygame.surfarray.array3d(image)
    bar = (pixels == BAR).all(axis=2).sum()
    whisker = (pixels == WHISKER).all(axis=2).sum()
    assert bar > 0 and whisker > 0  # bars and their confidence intervals


def test_no_plot_draws_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "1", "--players", "2", "--max-turns", "20",
                 "--no-progress", "--no-plot"]) == 0
    assert not (tmp_path / "out").exists()
    assert "confidence" not in capsys.readouterr().out


@pytest.mark.parametrize("option, teams", [([], 2), (["--option", "dungeon=four_teams"], 4)])
def test_simulate_seats_as_many_teams_as_the_chosen_map_has_end_zones(
        option: list[str], teams: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "dungeonbowl", "--games", "1", "--max-turns", "2",
                 "--no-progress", "--no-plot", *option]) == 0
    assert f"{teams} players" in capsys.readouterr().out
