"""The lists of dice no person can read name real dice of the benchmark's sets, and the
evaluation counts them into a ceiling."""

from __future__ import annotations

import pytest

from vision.dice import unreadable
from vision.dice.dataset import DEFAULT_REAL_DIR, read_labels, split_of, stem_of
from vision.dice.evaluate import NUMBERED_SEED, Report, Truth, score_image, synthetic_items
from vision.dice.types import DiceObservation, DieReading


@pytest.mark.skipif(
    not DEFAULT_REAL_DIR.is_dir(),
    reason=f"real dice photos not found at {DEFAULT_REAL_DIR} (../shared/data/dice-rune55)",
)
def test_every_listed_photo_die_is_a_labelled_eval_die_of_that_value() -> None:
    assert unreadable.RUNE55
    for stem, dice in unreadable.RUNE55.items():
        assert (DEFAULT_REAL_DIR / "images" / f"{stem}.jpg").is_file(), stem
        assert split_of(stem_of(stem)) == "eval", stem  # the benchmark's held-out split
        labels = read_labels(DEFAULT_REAL_DIR / "labels" / f"{stem}.txt", 640, 640)
        for index, (kind, value, why) in dice.items():
            assert (labels[index].kind, labels[index].value) == (kind, value), (stem, index)
            assert why


def test_every_listed_rendered_die_is_in_its_frame() -> None:
    names = set(unreadable.RENDERED_NUMBERED)
    first = min(int(n.split("-")[1]) for n in names)
    last = max(int(n.split("-")[1]) for n in names)
    assert first >= NUMBERED_SEED
    found = 0
    for name, _, truths in synthetic_items(last - first + 1, seed=first, cocked_rate=0.0,
                                           kinds=("d4", "d8", "d10", "d12", "d20")):
        for index, (kind, value, _why) in unreadable.RENDERED_NUMBERED.get(name, {}).items():
            assert (truths[index].kind, truths[index].value) == (kind, value), (name, index)
            assert truths[index].unreadable
            found += 1
        # and no die of the frame is marked that the list does not name
        listed = unreadable.RENDERED_NUMBERED.get(name, {})
        assert [i for i, t in enumerate(truths) if t.unreadable] == sorted(listed)
    assert found == sum(len(d) for d in unreadable.RENDERED_NUMBERED.values())


def test_a_die_is_unreadable_only_as_listed() -> None:
    name, dice = next(iter(unreadable.RENDERED_NUMBERED.items()))
    index, (kind, value, _) = next(iter(dice.items()))
    assert unreadable.is_unreadable(name, index, kind, value)
    assert not unreadable.is_unreadable(name, index, kind, value + 1)  # rendered otherwise
    assert not unreadable.is_unreadable(name, index + 100, kind, value)
    assert not unreadable.is_unreadable("synthetic-1", index, kind, value)


def _reading(box: tuple[int, int, int, int], status: str, value: int | None) -> DieReading:
    return DieReading(box=box, kind="d6", colour="white", value=value, confidence=0.5, status=status, guess=3)


def test_the_ceiling_leaves_out_the_detected_dice_no_one_can_read() -> None:
    truths = [
        Truth((0.0, 0.0, 60.0, 60.0), "d6", 3, unreadable=True),  # detected, unsure
        Truth((100.0, 0.0, 60.0, 60.0), "d6", 4),  # detected, read right
        Truth((200.0, 0.0, 60.0, 60.0), "d6", 5, unreadable=True),  # never detected
    ]
    obs = DiceObservation((_reading((0, 0, 60, 60), "unsure", None), _reading((100, 0, 60, 60), "read", 4)),
                          "unsure", "1 unsure: please confirm")
    report = Report()
    score_image(obs, truths, report)
    band = report.to_dict()["by_band"][">=48"]
    assert band["unreadable_n"] == 1  # the undetected one cannot be read wrong or right
    assert band["ceiling"] == 0.5  # of the two detected dice, at most one can be read right
    assert band["right"] == 0.5
    assert band["readable_right"] == 1.0  # the one die a person can read is read right


def test_a_listed_die_read_right_by_luck_does_not_count_for_the_readable_ones() -> None:
    truths = [Truth((0.0, 0.0, 60.0, 60.0), "d6", 3, unreadable=True),
              Truth((100.0, 0.0, 60.0, 60.0), "d6", 4)]
    obs = DiceObservation((_reading((0, 0, 60, 60), "read", 3), _reading((100, 0, 60, 60), "unsure", None)),
                          "unsure", "1 unsure: please confirm")
    report = Report()
    score_image(obs, truths, report)
    band = report.to_dict()["by_band"][">=48"]
    assert (band["right"], band["readable_right"], band["ceiling"]) == (0.5, 0.0, 0.5)
