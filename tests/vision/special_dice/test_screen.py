"""The screen: a tiny network that drops finder candidates it is near-certain are no die before
the reader sees them (``SpecialDiceConfig.screen_die``), on rendered frames of seeds 7,000,000 on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision.special_dice.reader as reader
from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice
from vision.special_dice.nets import READER_PATH, SCREEN_CROP, screen_crop, to_grey
from vision.synthetic.special_dice import render_scene

SEED = 7_000_000
OFF = replace(SpecialDiceConfig(), screen_die=0.0)


def _readings(obs: object) -> list[tuple[object, ...]]:
    return [(r.box, r.kind, r.status, r.value, r.guess) for r in obs.dice]  # type: ignore[attr-defined]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Reader runs (crops times views), counted by wrapping the reader."""
    runs: list[int] = []
    plain = reader._view_sums

    def counting(crops: list[np.ndarray], plan: object, path: Path = READER_PATH) -> tuple[np.ndarray, np.ndarray]:
        runs.append(len(crops) * len(plan))  # type: ignore[arg-type]
        return plain(crops, plan, path)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "_view_sums", counting)
    return runs


def test_the_screen_is_on_by_default() -> None:
    assert SpecialDiceConfig().screen_die > 0.0


@pytest.mark.parametrize(("kind", "first", "frames"), [("block", SEED, 20), ("scatter", SEED + 500, 12)])
def test_the_screen_keeps_every_die_of_the_test_frames_and_changes_no_reading(
        kind: str, first: int, frames: int) -> None:
    dropped = 0
    for s in range(first, first + frames):
        img, truth = render_scene(np.random.default_rng(s), kinds=(kind,))
        orientation = Orientation(truth.board_to_frame)
        screened = read_special_dice(img, (kind,), orientation)
        assert _readings(screened) == _readings(read_special_dice(img, (kind,), orientation, config=OFF)), s
        grey = to_grey(img)
        cands = reader.finder_candidates(grey, OFF)
        dropped += int((reader.screen_scores(grey, cands) < SpecialDiceConfig().screen_die).sum())
    assert dropped >= 10  # it does drop candidates on these frames (block 30, scatter 29 at 0.002)


def test_a_frame_of_many_distractors_gets_fewer_reader_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 7,000,035: three block dice among pipped dice and tokens, 26 candidates from the finder
    img, truth = render_scene(np.random.default_rng(SEED + 35), kinds=("block",))
    runs = _counting(monkeypatch)
    orientation = Orientation(truth.board_to_frame)
    without = read_special_dice(img, ("block",), orientation, config=OFF)
    runs_without = sum(runs)
    runs.clear()
    screened = read_special_dice(img, ("block",), orientation)
    assert runs_without >= 20
    assert sum(runs) <= runs_without - 5  # 32 -> 17 at screen_die 0.002
    assert _readings(screened) == _readings(without)
    assert len(screened.dice) >= len(truth.dice)


def test_turning_the_screen_off_restores_the_old_path(monkeypatch: pytest.MonkeyPatch) -> None:
    img, truth = render_scene(np.random.default_rng(SEED + 35), kinds=("block",))
    orientation = Orientation(truth.board_to_frame)
    runs = _counting(monkeypatch)
    # a screen that keeps every candidate reads exactly what no screen reads, in as many runs
    monkeypatch.setattr(reader, "screen_scores", lambda grey, cands: np.ones(len(cands)))
    keep_all = read_special_dice(img, ("block",), orientation)
    runs_keep_all = sum(runs)
    runs.clear()

    def never(grey: np.ndarray, cands: object) -> np.ndarray:
        raise AssertionError("the screen ran although screen_die is 0")

    monkeypatch.setattr(reader, "screen_scores", never)
    off = read_special_dice(img, ("block",), orientation, config=OFF)
    assert _readings(off) == _readings(keep_all)
    assert sum(runs) == runs_keep_all


def test_a_candidate_the_screen_turns_down_is_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    img, truth = render_scene(np.random.default_rng(SEED + 432), kinds=("block",), n_dice=1, distractors=0)
    d = truth.dice[0]
    die = (d.centre[0], d.centre[1], 0.8 * float(max(d.box[2], d.box[3])), 0.9)
    table = (100.0, 650.0, die[2], 0.1)
    orientation = Orientation(truth.board_to_frame)
    config = SpecialDiceConfig(relook_none=0.0)
    runs = _counting(monkeypatch)
    monkeypatch.setattr(reader, "find", lambda grey, config: [die])
    alone = read_special_dice(img, ("block",), orientation, config=config)
    runs_alone = sum(runs)
    runs.clear()
    monkeypatch.setattr(reader, "find", lambda grey, config: [die, table])
    monkeypatch.setattr(reader, "screen_scores", lambda grey, cands: np.array([1.0, 0.0]))
    screened = read_special_dice(img, ("block",), orientation, config=config)
    assert [r.value for r in screened.dice] == [3]
    assert screened == alone
    assert sum(runs) == runs_alone  # the table candidate's crop was never read


def test_the_screen_scores_dice_above_bare_table() -> None:
    img, truth = render_scene(np.random.default_rng(SEED + 432), kinds=("block",), n_dice=1, distractors=0)
    d = truth.dice[0]
    side = 0.8 * float(max(d.box[2], d.box[3]))
    grey = to_grey(img)
    scores = reader.screen_scores(grey, [(d.centre[0], d.centre[1], side, 0.9), (100.0, 650.0, side, 0.1)])
    assert scores[0] > 0.5 > scores[1]


def test_screen_crops_past_the_frame_edge_repeat_the_edge() -> None:
    grey = np.zeros((100, 200), np.uint8)
    grey[:, :10] = 200  # a bright left edge
    corner = screen_crop(grey, (0.0, 50.0), 40.0)
    assert corner.shape == (SCREEN_CROP, SCREEN_CROP) and corner.dtype == np.uint8
    assert corner[:, 0].min() == 200  # the left half repeats the bright column
    outside = screen_crop(grey, (-500.0, -500.0), 40.0)
    assert outside.shape == (SCREEN_CROP, SCREEN_CROP)
