"""Rendered block and scatter dice: deterministic, with truth that matches the die's faces."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synthetic.special_dice import (
    BLOCK_FACES,
    bearing_to_value,
    block_face,
    block_value,
    render_scene,
)


def test_a_seed_fixes_the_frame_and_its_truth() -> None:
    a, ta = render_scene(np.random.default_rng(3), width=320, height=240)
    b, tb = render_scene(np.random.default_rng(3), width=320, height=240)
    assert np.array_equal(a, b)
    assert ta.dice == tb.dice
    c, _ = render_scene(np.random.default_rng(4), width=320, height=240)
    assert not np.array_equal(a, c)


def test_scatter_faces_are_compass_directions_clockwise_from_north() -> None:
    assert [bearing_to_value(b) for b in (0, 44, 46, 90, 180, 270, 315, 338, 359)] == [1, 2, 2, 3, 5, 7, 8, 1, 1]


def test_pushed_faces_read_alike() -> None:
    assert [block_value(f) for f in range(1, 7)] == [1, 2, 3, 3, 5, 6]
    assert BLOCK_FACES[2] == BLOCK_FACES[3] == "pushed"


def test_the_truth_of_a_scatter_die_is_its_arrows_bearing() -> None:
    _, truth = render_scene(np.random.default_rng(11), kinds=("scatter",), n_dice=3)
    assert truth.dice
    for d in truth.dice:
        assert d.bearing_deg is not None and d.value == bearing_to_value(d.bearing_deg)


def test_block_symbols_differ_and_unknown_ones_are_refused() -> None:
    rng = np.random.default_rng(0)
    faces = {s: block_face(s, (230, 230, 230), (20, 20, 20), rng).astype(int) for s in set(BLOCK_FACES)}
    names = sorted(faces)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert np.abs(faces[a] - faces[b]).mean() > 5, (a, b)
    with pytest.raises(ValueError, match="unknown block die symbol"):
        block_face("touchdown", (0, 0, 0), (255, 255, 255), rng)
    with pytest.raises(ValueError, match="unknown special die kind"):
        render_scene(rng, kinds=("d6",))
