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
