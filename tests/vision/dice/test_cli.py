from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.dice.cli import main


def test_read_json(rune55_fixture: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = sorted((rune55_fixture / "images").iterdir())[0]
    assert main(["dice", "read", str(image), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    assert out["image"] == str(image)
    assert out["status"] in ("ok", "unsure", "empty")
    for die in out["dice"]:
        assert set(die) == {"box", "kind", "colour", "value", "confidence", "status", "guess"}
        assert die["value"] is None or die["guess"] == die["value"]
        if die["status"] == "unsure":
            assert die["value"] is None


def test_read_corrupt_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 this is not really a jpeg")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    assert main(["dice", "read", str(bad), str(empty), str(tmp_path / "nope.jpg")]) == 1
    out = capsys.readouterr().out
    assert "not a readable image" in out and "no such file" in out


def test_watch_prints_settled_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "watch", "--source", "synthetic-dice:3", "--json", "--max-frames", "70"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) >= 2
    assert all(len(line["dice"]) >= 2 for line in lines)


def test_watch_bad_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "watch", "--source", "no-such-thing.xyz"]) == 1
    assert "unknown frame source" in capsys.readouterr().err


def test_threshold_flag_sets_one_threshold_for_every_type() -> None:
    import argparse

    from vision.dice import DiceConfig
    from vision.dice.cli import _config

    own = _config(argparse.Namespace(kinds=None, threshold=None))
    assert own.kind_read_thresholds == DiceConfig().kind_read_thresholds
    one = _config(argparse.Namespace(kinds="d6,d20", threshold=0.5))
    assert one.kinds == ("d6", "d20")
    assert one.kind_read_thresholds == ()
    assert one.threshold_for("d20") == one.threshold_for("d6") == 0.5


def test_read_text_gives_an_unsure_dies_guess_as_a_guess() -> None:
    from vision.dice.cli import format_observation
    from vision.dice.types import DiceObservation, DieReading
    obs = DiceObservation((
        DieReading((1, 2, 50, 50), "d6", "white", 3, 0.99, "read", guess=3),
        DieReading((80, 2, 50, 50), "d20", "red", None, 0.61, "unsure", guess=17),
        DieReading((160, 2, 50, 50), "d6", "white", None, 0.9, "cocked"),
    ), "unsure", "1 cocked, 1 unsure: please confirm")
    lines = format_observation(obs).splitlines()
    assert lines[1].strip() == "white d6 = 3 (0.99) at 1,2 50x50"
    assert lines[2].strip() == "red d20 = unsure (looks like 17) (0.61) at 80,2 50x50"
    assert lines[3].strip() == "white d6 = cocked (0.90) at 160,2 50x50"


def test_read_a_folder_reads_its_images(rune55_fixture: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    images = sorted((rune55_fixture / "images").iterdir())[:2]
    for image in images:
        (tmp_path / image.name).write_bytes(image.read_bytes())
    (tmp_path / "notes.txt").write_text("not an image")
    assert main(["dice", "read", str(tmp_path), "--json"]) == 0
    seen = [json.loads(line)["image"] for line in capsys.readouterr().out.splitlines()]
    assert seen == [str(tmp_path / i.name) for i in images]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["dice", "read", str(empty)]) == 1
    assert "a folder with no images in it" in capsys.readouterr().out


def test_watch_with_too_few_still_frames_says_no_roll_was_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2
    import numpy as np

    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((120, 160, 3), 90, np.uint8))
    assert main(["dice", "watch", "--source", str(tmp_path), "--still-frames", "5"]) == 1
    err = capsys.readouterr().err
    assert "no roll read: the source gave 2 frames" in err and "--still-frames" in err


def _one_d6_photos(tmp_path: Path, count: int) -> tuple[list[str], list[int]]:
    """Photos of one rendered white d6 on a plain table, showing 1, 2, ... in turn."""
    import cv2
    import numpy as np

    from vision.synthetic.d6_3d import D6Look, draw_d6_3d

    names, values = [], []
    for k in range(count):
        value = k % 6 + 1
        img = np.full((240, 320, 3), (90, 120, 60), np.uint8)
        draw_d6_3d(img, (160.0, 120.0), D6Look(value=value, size=60.0, yaw_deg=10.0 * k),
                   np.random.default_rng(k))
        path = tmp_path / f"face{k}.png"
        cv2.imwrite(str(path), img)
        names.append(str(path))
        values.append(value)
    return names, values


def test_show_me_each_face_then_tune_then_read_with_the_tables_adaptation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos, values = _one_d6_photos(tmp_path, 6)
    examples = tmp_path / "examples"
    assert main(["dice", "learn", *photos, "--values", ",".join(map(str, values)),
                 "--examples", str(examples)]) == 0
    out = capsys.readouterr().out
    assert out.count("kept as a") == 6
    assert len(list(examples.glob("*-d6-*[0-9ux].png"))) == 6  # the grey crops
    assert len(list(examples.glob("*-d6-*.colour.png"))) == 6  # and beside each its colour crop
    assert main(["dice", "tune", "--examples", str(examples)]) == 0
    assert "tuned on 6 confirmed dice" in capsys.readouterr().out
    assert (examples / "adaptation.npz").is_file()
    assert main(["dice", "read", photos[0], "--json", "--tuned", str(examples)]) == 0
    got = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    assert len(got["dice"]) == 1


def test_learning_refuses_a_photo_of_two_dice_and_tuning_without_examples_says_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2
    import numpy as np

    from vision.synthetic.dice import render_dice_scene

    img, _ = render_dice_scene(np.random.default_rng(5), (480, 320), n_dice=2, kinds=("d6",), die_px=(60.0, 60.0))
    two = tmp_path / "two.png"
    cv2.imwrite(str(two), img)
    assert main(["dice", "learn", str(two), "--values", "3", "--examples", str(tmp_path / "ex")]) == 1
    assert "exactly one die" in capsys.readouterr().out
    assert main(["dice", "tune", "--examples", str(tmp_path / "ex")]) == 1
    assert "confirm some rolls" in capsys.readouterr().err
    assert main(["dice", "learn", str(two), "--values", "3,4", "--examples", str(tmp_path / "ex")]) == 2


def _one_d8_photos(tmp_path: Path) -> tuple[list[str], list[int]]:
    """Photos of one rendered d8 (one look) showing each face once, in a dark tray."""
    from dataclasses import replace

    import cv2
    import numpy as np

    from vision.synthetic import dice as synth

    w, h = 1296, 972
    look = synth.random_spec(np.random.default_rng(91), (w / 2, h / 2), 200.0, ("d8",), realistic=True)
    names, values = [], []
    for v in range(1, 9):
        rng = np.random.default_rng(91_000 + v - 1)
        img = synth.speckled_background(rng, w, h)
        centre = (float(rng.uniform(0.3, 0.7) * w), float(rng.uniform(0.3, 0.7) * h))
        spec = replace(look, value=v, centre=centre, size=float(rng.uniform(150, 250)),
                       angle=float(rng.uniform(0, 360)), glare=float(rng.uniform(0, 0.5)))
        synth.draw_die(img, spec, rng)
        img = synth.camera_effects(img, rng)
        path = tmp_path / f"d8-{v}.png"
        cv2.imwrite(str(path), img)
        names.append(str(path))
        values.append(v)
    return names, values


def test_show_me_each_face_of_a_d8_builds_its_number_memory_and_read_uses_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.dice.tune import Adaptation

    photos, values = _one_d8_photos(tmp_path)
    examples = tmp_path / "examples"
    assert main(["dice", "learn", *photos[:7], "--kind", "d8", "--values", ",".join(map(str, values[:7])),
                 "--examples", str(examples)]) == 0
    out = capsys.readouterr().out
    assert out.count("kept as a d8") == 7 and "faces still to show: 8" in out
    assert len(list(examples.glob("*-d8-*.colour.png"))) == 7
    assert main(["dice", "tune", "--examples", str(examples)]) == 1  # a face missing: nothing to learn
    assert "show 8" in capsys.readouterr().err
    assert main(["dice", "learn", photos[7], "--kind", "d8", "--values", "8", "--examples", str(examples)]) == 0
    capsys.readouterr()
    assert main(["dice", "tune", "--examples", str(examples)]) == 0
    out = capsys.readouterr().out
    assert "tuned on 8 confirmed dice" in out and "d8: learned all 8 faces" in out
    ad = Adaptation.load(examples)
    assert ad is not None and set(ad.numbers) == {"d8"} and ad.read_at is None
    assert main(["dice", "read", photos[2], "--kinds", "d8", "--json", "--tuned", str(examples)]) == 0
    got = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    assert len(got["dice"]) == 1 and got["dice"][0]["value"] in (3, None)  # never another value


def test_learning_refuses_a_kind_the_reader_does_not_know(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "learn", "x.png", "--kind", "d7", "--values", "1", "--examples", str(tmp_path)]) == 2
    assert "d7" in capsys.readouterr().err


def test_read_json_reads_a_d20_at_a_real_d20s_scale_in_a_whole_photo(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the scale of a real d20 whose numbers are about 60 px tall, photographed whole from above
    # (2592x1944, no --region, every type allowed): the renderer's d20 of 300 px has a box of
    # about 280 px and a number of 55-60 px; found, typed d20 and read, and nothing else is read
    import cv2

    from vision.dice.evaluate import tray_items

    faces = []
    for name, img, truths in tray_items(2, "d20", seed=300_010, size=(2592, 1944), die_px=(290.0, 310.0),
                                        blur=(1.5, 1.5)):
        path = tmp_path / f"{name}.jpg"
        cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
        faces.append((path, truths[0]))
    assert main(["dice", "read", "--json", *(str(p) for p, _ in faces)]) == 0
    for line, (_path, truth) in zip(capsys.readouterr().out.splitlines(), faces, strict=True):
        dice = json.loads(line)["dice"]
        read = [d for d in dice if d["status"] == "read"]
        assert [(d["kind"], d["value"]) for d in read] == [("d20", truth.value)]
        x, y, w, h = read[0]["box"]
        assert abs(x + w / 2 - (truth.box[0] + truth.box[2] / 2)) < 0.2 * truth.box[2]
        assert 0.8 * truth.box[2] < max(w, h) < 1.25 * max(truth.box[2], truth.box[3])


def _rendered(tmp_path: Path, seed: int, name: str, **scene: object) -> tuple[Path, object]:
    import cv2
    import numpy as np

    from vision.synthetic.special_dice import render_scene

    img, truth = render_scene(np.random.default_rng(seed), **scene)  # type: ignore[arg-type]
    path = tmp_path / name
    cv2.imwrite(str(path), img)
    return path, truth


def test_block_dice_are_read_by_their_own_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.synthetic.special_dice import block_value

    path, truth = _rendered(tmp_path, 7_000_006, "block.png", kinds=("block",), n_dice=3)
    assert main(["dice", "read", "--kinds", "block", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["dice"]) == len(truth.dice)  # type: ignore[attr-defined]
    want = sorted(block_value(d.value) for d in truth.dice)  # type: ignore[attr-defined]
    assert sorted(d["guess"] for d in out["dice"]) == want
    assert all(d["kind"] == "block" and d["value"] in (None, d["guess"]) for d in out["dice"])
    assert main(["dice", "read", "--kinds", "block", str(path)]) == 0
    text = capsys.readouterr().out
    assert "block = 6 defender down" in text and "block = 2 both down" in text


def test_scatter_arrows_follow_the_north_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.synthetic.special_dice import scatter_value

    # the board turned a quarter to the right in the picture: its north points to the right
    path, truth = _rendered(tmp_path, 7_000_005, "scatter.png", kinds=("scatter",), n_dice=2, roll_deg=90.0)
    assert main(["dice", "read", "--kinds", "scatter", "--north", "90", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    want = sorted(scatter_value(d.value) for d in truth.dice)  # type: ignore[attr-defined]
    assert sorted(d["guess"] for d in out["dice"]) == want
    for d in out["dice"]:
        assert d["bearing_deg"] is not None
    assert main(["dice", "read", "--kinds", "scatter", "--json", str(path)]) == 0  # north taken as up
    unturned = json.loads(capsys.readouterr().out)
    assert sorted(d["guess"] for d in unturned["dice"]) != want


def test_a_throw_of_a_d6_and_a_scatter_die_is_read_by_both_readers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--kinds d6,scatter``: one photo read by the d6 reader and the scatter reader, the dice
    in the order of ``--kinds`` (``vision.mixed_roll``); the d6 reader's options are taken."""
    import cv2

    import vision.synthetic.table as synthetic

    table = synthetic.SyntheticTable(camera=synthetic.default_camera(2304, 1296))
    frame = table.render({}, [4], seed=8_950_001, special=[("scatter", 8)])
    path = tmp_path / "living-ball.png"
    cv2.imwrite(str(path), frame.image)
    flags = ["--kinds", "d6,scatter", "--region", "780,276,743,743"]
    assert main(["dice", "read", *flags, "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(d["kind"], d["guess"]) for d in out["dice"]] == [("d6", 4), ("scatter", 8)]
    assert out["dice"][0]["value"] == 4 and out["dice"][1]["value"] in (None, 8)
    assert main(["dice", "read", *flags, str(path)]) == 0
    text = capsys.readouterr().out
    assert "white d6 = 4" in text and "scatter = " in text and "SE" in text
    # the d6 reader's options are taken (refused for block or scatter dice alone)
    assert main(["dice", "read", *flags, "--d6-colour", "off", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["dice"][0]["guess"] == 4


@pytest.mark.parametrize(("flags", "message"), [
    (["--kinds", "block,d7"], "unknown die type(s) ['d7']"),
    (["--kinds", "scatter", "--threshold", "0.5"], "--threshold is for numbered dice"),
    (["--kinds", "block", "--d6-colour", "off"], "--d6-colour is for numbered dice"),
    (["--north", "90"], "--north is for scatter dice"),
    (["--kinds", "scatter", "--north", "400"], "degrees from -360 to 360"),
    (["--kinds", "d7"], "d20, block or scatter"),
])
def test_options_that_do_not_fit_the_dice_are_refused(flags: list[str], message: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main as companion_main

    image = tmp_path / "any.png"
    image.write_bytes(b"")
    with pytest.raises(SystemExit) as exit_:
        companion_main(["dice", "read", *flags, str(image)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("companion dice: error: ") and message in err


def test_watch_reports_block_dice_once_they_lie_still(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from vision.synthetic.special_dice import block_value

    path, truth = _rendered(tmp_path, 7_000_006, "frame.png", kinds=("block",), n_dice=3)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(6):  # the dice lying still for six frames
        shutil.copy(path, folder / f"{i:03d}.png")
    assert main(["dice", "watch", "--source", str(folder), "--kinds", "block", "--json",
                 "--still-frames", "3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1 and lines[0]["frame"] == 3  # reported once, when the third still frame came
    want = sorted(block_value(d.value) for d in truth.dice)  # type: ignore[attr-defined]
    assert sorted(d["guess"] for d in lines[0]["dice"]) == want
