from __future__ import annotations

import argparse
import io
from pathlib import Path

import cv2
import numpy as np
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig, CameraConfig, Config
from hardware.cli import check_camera, register, watch_buttons


def test_watch_buttons_prints_presses() -> None:
    factory = MockFactory()
    out = io.StringIO()
    config = Config(buttons=ButtonsConfig(react_pins=(17, 27)))

    def press() -> None:
        for pin in (13, 27):
            factory.pin(pin).drive_low()
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
