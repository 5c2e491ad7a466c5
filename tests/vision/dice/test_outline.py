"""The outline check (``vision.dice.outline``) and its one use: reading a d4 whose number is sure
but whose type or flatness the classifier doubts (``DiceConfig.d4_outline``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

import vision.dice.reader as reader
from vision.dice import DiceConfig, read_dice
from vision.dice.labels import CLASSES, COCKED, class_of
from vision.dice.outline import lies_flat_as_d4, triangle_fit, visible_share
from vision.synthetic.dice import PALETTE, DieSpec, draw_die

from .fixed_answers import classifier_gives

TABLE = (60, 110, 50)


def _die(kind: str, colour: str, size: float, angle: float, rng: np.random.Generator, tilt: float = 0.0,
         cocked: bool = False) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    canvas = np.full((240, 240, 3), TABLE, np.uint8)
    truth = draw_die(canvas, DieSpec(kind, 1, (120, 120), size, angle=angle, colour=colour, tilt=tilt,
                                     cocked=cocked), rng)
    return canvas, tuple(float(v) for v in truth.box)


COLOURS = [c for c in PALETTE if c != "green"]  # a green die on the green table has no outline


def test_a_flat_d4_is_an_equilateral_triangle_and_no_other_die_is() -> None:
    rng = np.random.default_rng(4)
    seen: dict[str, Counter[bool]] = {}
    for kind in ("d4", "d6", "d8", "d10", "d12", "d20"):
        for colour in COLOURS:
            for size in (30, 60, 100):
                img, box = _die(kind, colour, size, float(rng.uniform(0, 360)), rng, tilt=float(rng.uniform(0, 0.12)))
                seen.setdefault(kind, Counter())[lies_flat_as_d4(img, box)] += 1
    assert all(seen[k][True] == 0 for k in ("d6", "d8", "d10", "d12", "d20")), seen
    # measured: every flat d4 of these colours and sizes
    assert seen["d4"][True] >= 0.85 * sum(seen["d4"].values()), seen


def test_a_leaning_d4_is_not_taken_for_a_flat_one() -> None:
    rng = np.random.default_rng(5)
    flat = 0
    n = 0
    for colour in COLOURS:
        for size in (40, 80):
            for _ in range(3):
                img, box = _die("d4", colour, size, float(rng.uniform(0, 360)), rng,
                                tilt=float(rng.uniform(0.3, 0.5)), cocked=True)
                flat += lies_flat_as_d4(img, box)
                n += 1
    assert flat <= 0.02 * n, (flat, n)


def test_no_outline_on_a_bare_table_or_a_tiny_box() -> None:
    table = np.full((200, 200, 3), TABLE, np.uint8)
    noise = np.random.default_rng(0).normal(0, 4, table.shape)
    table = np.clip(table + noise, 0, 255).astype(np.uint8)
    assert not lies_flat_as_d4(table, (70.0, 70.0, 60.0, 60.0))
    assert triangle_fit(table, (10.0, 10.0, 5.0, 5.0)) is None


@pytest.mark.parametrize(("d6_at", "flat_d4"), [(155, False), (175, True)])
def test_a_die_touching_the_d4_hides_its_outline_and_one_apart_does_not(d6_at: int, flat_d4: bool) -> None:
    rng = np.random.default_rng(2)
    canvas = np.full((240, 300, 3), TABLE, np.uint8)
    a = draw_die(canvas, DieSpec("d4", 2, (110, 120), 70, angle=0.0, colour="red"), rng)
    draw_die(canvas, DieSpec("d6", 3, (d6_at, 120), 60, angle=10.0, colour="red"), rng)
    assert lies_flat_as_d4(canvas, tuple(float(v) for v in a.box)) == flat_d4


def _d4_frame(value: int) -> np.ndarray:
    canvas = np.full((480, 640, 3), TABLE, np.uint8)
    draw_die(canvas, DieSpec("d4", value, (320, 240), 90, angle=15.0, colour="ivory"), np.random.default_rng(0))
    return canvas


def test_a_d4_doubted_for_lying_flat_is_read_by_its_outline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d4:3": 0.85, COCKED: 0.1499}))
    cfg = DiceConfig(face_readers=())  # the classifier's answer stands for the value
    on = read_dice(_d4_frame(3), config=cfg)
    assert [(d.kind, d.value, d.status) for d in on.dice] == [("d4", 3, "read")]
    assert on.dice[0].confidence == pytest.approx(0.85)  # the classifier's confidence, unchanged
    off = read_dice(_d4_frame(3), config=replace(cfg, d4_outline=False))
    assert [(d.value, d.status, d.guess) for d in off.dice] == [(None, "unsure", 3)]


def test_a_doubted_number_is_not_read_by_the_outline(monkeypatch: pytest.MonkeyPatch) -> None:
    # the type is sure, the number is not: the outline says nothing about the number
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({"d4:3": 0.85, "d4:2": 0.1499}))
    obs = read_dice(_d4_frame(3), config=DiceConfig(face_readers=()))
    assert [(d.value, d.status) for d in obs.dice] == [(None, "unsure")]


def test_the_outline_confirms_only_a_d4(monkeypatch: pytest.MonkeyPatch) -> None:
    # a triangle the classifier takes for a d8 is not read by the outline
    monkeypatch.setattr(reader, "classify_with_turns", classifier_gives({CLASSES[class_of("d8", 3)]: 0.85, COCKED: 0.1499}))
    obs = read_dice(_d4_frame(3), config=DiceConfig(face_readers=()))
    assert [d.status for d in obs.dice] == ["unsure"]


# --- the silhouette of a die at the frame's edge (visible_share, DiceConfig.silhouette_cut) ---


def _at_edge(colour: str, angle: float, shown: float, rng: np.random.Generator, side: float = 60.0,
             table: tuple[int, int, int] = TABLE) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A 240x320 frame with a d6 at its left edge, ``shown`` of its outline's width inside the
    frame (1: whole, touching the edge), and the visible part's box."""
    canvas = np.full((240, 640, 3), table, np.uint8)
    truth = draw_die(canvas, DieSpec("d6", 5, (320.0, 120.0), side, angle=angle, colour=colour), rng)
    x, y, w, h = (float(v) for v in truth.box)
    x0 = int(round(x + (1.0 - shown) * w))
    return np.ascontiguousarray(canvas[:, x0:x0 + 320]), (max(0.0, x - x0), y, x + w - max(x0, x), h)


@pytest.mark.parametrize("colour", ["white", "red", "black", "blue"])
@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
def test_a_whole_die_against_the_edge_shows_all_of_itself(colour: str, angle: float) -> None:
    img, box = _at_edge(colour, angle, 1.0, np.random.default_rng(1))
    share = visible_share(img, box)
    if angle == 0.0:  # lying along the edge: a square silhouette
        assert share is not None and share >= 0.9, share
    else:  # a turned die touches the edge with a corner only: no cut to measure
        assert share is None or share >= 0.9, share
    # a sliver past the edge (7% of its width) still measures as nearly whole
    share = visible_share(*_at_edge(colour, angle, 0.93, np.random.default_rng(1)))
    assert share is None or share >= 0.88, share


@pytest.mark.parametrize("colour", ["white", "red", "black", "blue"])
@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
@pytest.mark.parametrize("shown", [0.45, 0.6, 0.75])
def test_a_die_the_edge_cuts_shows_less_than_it_is_long(colour: str, angle: float, shown: float) -> None:
    img, box = _at_edge(colour, angle, shown, np.random.default_rng(2))
    share = visible_share(img, box)
    assert share is not None and share < DiceConfig().edge_min_aspect, share


def test_the_silhouette_is_looked_for_wider_than_a_box_of_part_of_the_die() -> None:
    # the detector can box only the visible pip of a cut die: the shape runs past the first
    # crop, and the second, twice as wide, holds the frame's edge
    img, (x, y, w, h) = _at_edge("white", 0.0, 0.6, np.random.default_rng(2))
    share = visible_share(img, (x + 0.4 * w, y + 0.3 * h, 0.45 * w, 0.4 * h))
    assert share is not None and share < 0.8, share


def test_no_silhouette_far_from_the_edge_or_on_a_table_of_the_die_s_colour() -> None:
    img, box = _at_edge("white", 0.0, 1.0, np.random.default_rng(3))
    assert visible_share(img, (150.0, 90.0, 60.0, 60.0)) is None  # nothing there, far from every edge
    moved = np.roll(img, 150, axis=1)
    assert visible_share(moved, (box[0] + 150, box[1], box[2], box[3])) is None  # whole die mid-frame
    dark, box = _at_edge("black", 0.0, 0.6, np.random.default_rng(3), table=(28, 28, 30))
    share = visible_share(dark, box)
    assert share is None or share < 0.8  # unseen, or seen cut: never taken for a whole die
