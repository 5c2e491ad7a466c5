"""The main loop: watchdog READY after the first frame and pings every frame; config; CLI."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import pytest

from companion.kiosk.app import KioskApp
from companion.kiosk.cli import add_play_arguments, run_play
from companion.kiosk.screens import GameScreen
from companion.session import Session
from hardware.buttons import NEXT, InputQueue
from hardware.watchdog import Notifier


def test_ready_after_the_first_frame_and_watchdog_pings(tmp_path: Path) -> None:
    addr = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(addr)
    sock.setblocking(False)
    notifier = Notifier({"NOTIFY_SOCKET": addr, "WATCHDOG_USEC": "30000"})  # ping every 10 ms
    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")])
    screen = GameScreen(session, None, (800, 480))
    app = KioskApp(screen, (800, 480), notifier=notifier)

    def received() -> list[str]:
        out = []
        while True:
            try:
                out.append(sock.recv(4096).decode())
            except BlockingIOError:
                return out

    assert received() == []  # nothing before the first frame
    app.step(1 / 30)
    first = received()
    assert any("READY=1" in m for m in first)
    app.feeder.interval = 0.0
    app.step(1 / 30)
    app.step(1 / 30)
    later = received()
    assert sum("WATCHDOG=1" in m for m in later) == 2
    assert not any("READY=1" in m for m in later)
    sock.close()


def test_queued_inputs_reach_the_screen() -> None:
    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")])
    screen = GameScreen(session, None, (800, 480))
    queue = InputQueue()
    app = KioskApp(screen, (800, 480), queue=queue)
    entry = screen.dice_entry()
    assert entry is not None and entry.mode == "edit"  # no camera: the buttons
    queue.put(NEXT)
    queue.put(NEXT)
    app.step(1 / 30)
    assert entry.values[0] == 3


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    return parser.parse_args(argv)


def test_demo_headless_finishes_by_itself_at_the_configured_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[kiosk]\nresolution = [800, 480]\n[camera]\nbackend = "none"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    out = tmp_path / "frames"
    args = parse(["--demo", "--headless", "--frames", "25", "--out", str(out),
                  "--journal", str(tmp_path / "demo.sqlite")])
    assert run_play(args) == 0
    text = capsys.readouterr().out
    assert "PNG" in text and str(out) in text
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == 2  # frames 0 and 20
    import pygame

    assert pygame.image.load(str(pngs[0])).get_size() == (800, 480)
    # the saved game is resumed by the next run
    again = Session.resume(tmp_path / "demo.sqlite")
    assert again.state.players[0].name == "Ann"
    again.close()


@pytest.mark.parametrize("table,variant", [("", "dungeonopoly"),
                                           ('[table]\ngame = "monopoly"\n', "monopoly")])
def test_a_new_game_is_of_the_configured_game(
        table: str, variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nbackend = "none"\n' + table)
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    args = parse(["--demo", "--headless", "--frames", "1", "--out", str(tmp_path / "frames"),
                  "--journal", str(tmp_path / "demo.sqlite")])
    assert args.variant is None
    assert run_play(args) == 0
    again = Session.resume(tmp_path / "demo.sqlite")
    assert again.rules.name == variant
    again.close()


def test_bad_options_get_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "missing.toml"))
    assert run_play(parse(["--demo", "--headless"])) == 2
    assert "does not exist" in capsys.readouterr().err
    monkeypatch.delenv("COMPANION_CONFIG")
    assert run_play(parse(["--demo", "--headless", "--size", "big"])) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_replay_prints_the_account(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    from companion.paths import asset

    assert main(["play", "--replay", str(asset("transcripts", "example-monopoly.txt"))]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Replaying example-monopoly.txt")
    assert "Turn 1:" in text and "standings" in text.lower()


def test_private_runtime_dir_only_when_none_is_set(tmp_path: Path) -> None:
    from companion.kiosk.app import private_runtime_dir

    env: dict[str, str] = {}
    made = private_runtime_dir(env)
    assert made is not None and made.is_dir() and env["XDG_RUNTIME_DIR"] == str(made)
    assert made.stat().st_mode & 0o777 == 0o700
    kept = {"XDG_RUNTIME_DIR": str(tmp_path)}
    assert private_runtime_dir(kept) is None and kept["XDG_RUNTIME_DIR"] == str(tmp_path)
    assert private_runtime_dir({"WAYLAND_DISPLAY": "wayland-0"}) is None
    bad = {"XDG_RUNTIME_DIR": "relative/dir"}
    assert private_runtime_dir(bad) is not None and bad["XDG_RUNTIME_DIR"].startswith("/")


def test_no_display_run_prints_no_sdl_runtime_dir_warning(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_RUNTIME_DIR", "SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    config = tmp_path / "companion.toml"
    config.write_text('[kiosk]\nresolution = [800, 480]\n[camera]\nbackend = "none"\n')
    env["COMPANION_CONFIG"] = str(config)
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--demo", "--frames", "2", "--out",
         str(tmp_path / "frames"), "--journal", str(tmp_path / "demo.sqlite")],
        cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "No display here" in done.stdout
    assert "XDG_RUNTIME_DIR" not in done.stderr, done.stderr


def test_the_demo_camera_reads_a_roll_that_the_game_then_uses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole loop of the main command: the synthetic table throws the dice, the dice reader
    reads them in the board's middle, the screen shows them and a press confirms them."""
    import re

    args = parse(["--demo", "--headless", "--frames", "600", "--seed", "1", "--out",
                  str(tmp_path / "frames"), "--journal", str(tmp_path / "demo.sqlite")])
    assert run_play(args) == 0
    text = capsys.readouterr().out
    found = re.search(r"Dice: (\d+) rolls? read by the camera \((\d+) with every die right", text)
    assert found, text
    assert int(found.group(2)) >= 1, text  # at least one roll read right and confirmed
    saved = Session.resume(tmp_path / "demo.sqlite")
    assert any(line.split()[1:2] == ["roll"] for line in saved.lines)
    saved.close()


class _PausedPilot:
    """A demo pilot a person just took over from (the bots wait)."""

    paused = 12.0

    def tick(self, dt: float) -> None:
        pass

    def human(self) -> None:
        pass


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_keyboard_mode_shows_the_keys_and_the_bots_pause(size: tuple[int, int]) -> None:
    from companion.kiosk.app import KEY_HELP

    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")])
    app = KioskApp(GameScreen(session, None, size), size, key_help=True, pilot=_PausedPilot())
    app.step(1 / 30)
    shown = " ".join(app.painter.texts("log"))
    assert KEY_HELP in shown and "Bots paused 12 s" in shown
    assert not any(d.cut for d in app.painter.drawn)
    plain = KioskApp(GameScreen(session, None, size), size)  # GPIO buttons: no key help
    plain.step(1 / 30)
    assert "Keys:" not in " ".join(plain.painter.texts("log"))
