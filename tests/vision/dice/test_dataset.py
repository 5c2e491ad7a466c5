"""The Rune55 label errata: applied only on request, only where the label says what it should."""

from __future__ import annotations

from pathlib import Path

from vision.dice.dataset import RUNE55_ERRATA, LabelledDie, apply_errata, iter_folder

NAME = "00054_jpg.rf.a505c9ac74e5e7ab578f34a73f6af48c"


def _dice(*values: int) -> tuple[LabelledDie, ...]:
    return tuple(LabelledDie(box=(10.0 * i, 0.0, 9.0, 9.0), kind="d6", value=v) for i, v in enumerate(values))


def test_erratum_corrects_the_named_die_only() -> None:
    assert RUNE55_ERRATA[NAME] == {1: (2, 5)}
    fixed = apply_errata(Path(f"images/{NAME}.jpg"), _dice(2, 2, 3, 4))
    assert [d.value for d in fixed] == [2, 5, 3, 4]


def test_erratum_leaves_a_label_that_differs_alone() -> None:
    # another folder's file of the same name, or a relabelled copy: not ours to change
    assert [d.value for d in apply_errata(Path(f"{NAME}.jpg"), _dice(2, 6, 3))] == [2, 6, 3]
    assert [d.value for d in apply_errata(Path("other.jpg"), _dice(2, 2))] == [2, 2]


def test_iter_folder_applies_errata_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "images" / f"{NAME}.jpg").write_bytes(b"")
    (tmp_path / "labels" / f"{NAME}.txt").write_text("1 0.5 0.5 0.1 0.1\n1 0.2 0.2 0.1 0.1\n")
    plain = next(iter_folder(tmp_path))
    fixed = next(iter_folder(tmp_path, errata=True))
    assert [d.value for d in plain.dice] == [2, 2]
    assert [d.value for d in fixed.dice] == [2, 5]


def test_the_00059_errata_name_only_the_two_copies_of_the_mislabelled_photo() -> None:
    # six files share the name 00059; two are copies of one photo whose first die (labelled 5)
    # shows three pips, the other four are other photos with right labels
    named = sorted(n for n in RUNE55_ERRATA if n.startswith("00059_"))
    assert named == ["00059_jpg.rf.5079f8c464b760de598b8e22349cf033", "00059_jpg.rf.a2c53a1b9b7a5f6d0098ddf14151febd"]
    for n in named:
        assert [d.value for d in apply_errata(Path(f"{n}.jpg"), _dice(5, 6, 2))] == [3, 6, 2]
    assert [d.value for d in apply_errata(Path("00059_jpg.rf.b1d189644a71d3057fad44c59bc8e974.jpg"),
                                          _dice(1, 6, 5, 5))] == [1, 6, 5, 5]


def test_the_calibration_part_is_the_trainers_own() -> None:
    # every trainer keeps the same stems back to choose thresholds on: the benchmark's calib
    # split must be those, or a candidate would be chosen on photos a network trained on
    import sys

    from vision.dice.dataset import calib_of, part_of, split_of

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
    import train_d6_head

    stems = [f"IMG_{i:04d}" for i in range(400)]
    assert [part_of(s) for s in stems] == [train_d6_head.part_of(s) for s in stems]
    assert all(calib_of(s) == train_d6_head.calib_of(s) for s in stems)
    parts = [part_of(s) for s in stems]
    assert {"eval", "calib", "train"} <= set(parts)
    assert all((p == "eval") == (split_of(s) == "eval") for s, p in zip(stems, parts, strict=True))


def test_iter_folder_keeps_the_calib_and_train_parts_of_tune_apart(tmp_path: Path) -> None:
    from vision.dice.dataset import part_of

    (tmp_path / "images").mkdir()
    stems = [f"photo{i:03d}" for i in range(60)]
    for s in stems:
        (tmp_path / "images" / f"{s}.jpg").write_bytes(b"")
    got = {split: {item.stem for item in iter_folder(tmp_path, split=split)}
           for split in ("eval", "tune", "calib", "train")}
    assert got["calib"] and got["train"] and got["eval"]
    assert got["calib"] | got["train"] == got["tune"]
    assert not got["calib"] & got["train"]
    assert all(part_of(s) == "calib" for s in got["calib"])
