import argparse
import json
from pathlib import Path

import cv2
import pytest

from vision.board import cli
from vision.synthetic.table import CameraPose, SyntheticTable


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion")
    sub = p.add_subparsers(dest="command", required=True)
    cli.register(sub)
    return p


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return int(args.func(args))


def test_markers_writes_png_and_true_size_pdf(tmp_path: Path) -> None:
    assert _run(["markers", "--out", str(tmp_path / "sheet.png")]) == 0
    png = cv2.imread(str(tmp_path / "sheet.png"), cv2.IMREAD_GRAYSCALE)
    assert png is not None and png.shape == (3508, 2480)  # A4 at 300 dpi
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and b"/MediaBox [0 0 595.28 841.89]" in pdf
    found = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(png)[1]
    assert found is not None and sorted(found.ravel().tolist()) == list(range(12))


def test_board_read_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    table = SyntheticTable()
    pose = CameraPose(260, 280, 470, (254, 254), 0)
    path, empty = tmp_path / "frame.png", tmp_path / "empty.png"
    cv2.imwrite(str(path), table.render({"Ann": 11, "Eve": 40, "Fin": 0}, seed=5,
                                        pose=pose).image)
    cv2.imwrite(str(empty), table.render({}, seed=6, pose=pose).image)
    assert _run(["board", "read", str(path), str(tmp_path / "nope.png"), "--json",
                 "--reference", str(empty)]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["status"] == "ok" and lines[0]["method"] == "markers"
    assert len(lines[0]["corners"]) == 4
    owners = {c: [r["owner"] for r in v] for c, v in lines[0]["occupants"].items()}
    assert owners == {"11": ["Ann"], "40": ["Eve"], "0": ["Fin"]}
    assert lines[1]["status"] == "bad_frame" and "no such file" in lines[1]["message"]
    # one photo without the empty board: the board is found, pieces are not guessed ...
    assert _run(["board", "read", str(path), "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["status"] == "no_reference" and alone["occupants"] == {}
    assert "empty board" in alone["message"] and len(alone["corners"]) == 4
    # ... unless asked to, and then every reading says it is a guess
    assert _run(["board", "read", str(path), "--json", "--guess-pieces"]) == 0
    guess = json.loads(capsys.readouterr().out)
    assert guess["status"] == "ok" and "Guessed" in guess["message"]
    assert all(r["confidence"] <= 0.3 for v in guess["occupants"].values() for r in v)


def test_board_watch_on_synthetic_source(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    assert _run(["board", "watch", "--source", "synthetic:seed=1,hold=100", "--frames", "6",
                 "--json"]) == 0
    statuses = [json.loads(x)["status"] for x in capsys.readouterr().out.splitlines()]
    assert statuses[0] == "moving" and "ok" in statuses


def test_bad_players_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _run(["board", "read", str(tmp_path / "x.png"), "--players", "Ann=teal"]) == 2
    assert "bad --players" in capsys.readouterr().err


def test_calibrate_without_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["calibrate-camera"]) == 2
    assert "--source" in capsys.readouterr().err


def test_board_read_names_a_missing_file_and_a_folder_without_opencv_noise(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert _run(["board", "read", str(tmp_path / "nope.png"), str(tmp_path)]) == 1
    out, err = capfd.readouterr()
    assert f"{tmp_path / 'nope.png'}: no such file" in out
    assert f"{tmp_path}: a folder, not an image" in out
    assert "WARN" not in out + err and "imread" not in out + err
