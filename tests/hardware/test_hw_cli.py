from __future__ import annotations

import argparse
import io
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig, CameraConfig, Config
from hardware.cli import check_camera, register, watch_buttons


def test_watch_buttons_prints_presses() -> None:
    factory = MockFactory()
    out = io.StringIO()
    config = Config(buttons=ButtonsConfig(react_pins=(17, 27)))

    def press() -> None:  # a tap as long as a finger's (REACT answers when let go)
        for pin in (13, 27):
            factory.pin(pin).drive_low()
            time.sleep(config.buttons.bounce_time * 2)
            factory.pin(pin).drive_high()

    try:
        assert watch_buttons(config, 0.3, pin_factory=factory, out=out, ready=press) == 0
    finally:
        factory.close()
    lines = out.getvalue().splitlines()
    assert "seat 2=27" in lines[0]
    assert lines[1:] == ["CONFIRM", "REACT seat 2"]


def test_check_camera_on_a_replay_folder(tmp_path: Path) -> None:
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.zeros((12, 16, 3), np.uint8))
    out = io.StringIO()
    code = check_camera(Config(camera=CameraConfig(backend=f"folder:{tmp_path}")), 5.0, out)
    text = out.getvalue()
    assert code == 0, text
    assert "4 frames" in text and "12x16x3" in text and "ended" in text


def test_check_camera_reports_a_bad_backend() -> None:
    out = io.StringIO()
    assert check_camera(Config(camera=CameraConfig(backend="folder:/no/such")), 1.0, out) == 1
    assert "does not exist" in out.getvalue()


def test_register_and_bad_config(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    bad = tmp_path / "c.toml"
    bad.write_text("[camera]\nswap_rb = 3\n")
    args = parser.parse_args(["hw", "--config", str(bad), "camera", "--seconds", "0.1"])
    assert args.func(args) == 1
    assert "[camera] swap_rb" in capsys.readouterr().out


def test_check_camera_takes_a_still_when_the_camera_can(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware import cli
    from hardware.camera import CameraError, Still

    class StillCamera:
        def __init__(self, fail: bool = False) -> None:
            self.n, self.fail = 0, fail

        def read(self) -> np.ndarray | None:
            self.n += 1
            return np.zeros((12, 16, 3), np.uint8) if self.n <= 3 else None

        def capture_still(self) -> Still:
            if self.fail:
                raise CameraError("the Pi camera could not take a still (timed out)")
            return Still(np.full((24, 32, 3), 7, np.uint8), (2.0, 2.0))

        def close(self) -> None:
            pass

    monkeypatch.setattr(cli, "open_camera", lambda cfg: StillCamera())
    out = io.StringIO()
    path = tmp_path / "still.png"
    assert check_camera(Config(), 5.0, out, save_still=str(path)) == 0
    text = out.getvalue()
    assert "still 32x24 in" in text and "(2.000 x + 0.0, 2.000 y + 0.0)" in text and "3 frames" in text
    saved = cv2.imread(str(path))
    assert saved is not None and saved.shape == (24, 32, 3)
    monkeypatch.setattr(cli, "open_camera", lambda cfg: StillCamera(fail=True))
    out = io.StringIO()
    assert check_camera(Config(), 5.0, out) == 1
    assert "still: failed" in out.getvalue() and "closer_look = false" in out.getvalue()


def test_check_camera_says_when_the_camera_takes_no_stills(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "0.png"), np.zeros((12, 16, 3), np.uint8))
    out = io.StringIO()
    assert check_camera(Config(camera=CameraConfig(backend=f"folder:{tmp_path}")), 5.0, out) == 0
    assert "still: this camera takes none" in out.getvalue()
