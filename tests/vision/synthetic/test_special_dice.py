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


def test_a_die_can_be_drawn_showing_the_face_asked_for() -> None:
    from vision.synthetic.special_dice import (
        draw_die_showing,
        random_camera,
        random_light,
        scatter_value,
    )

    rng = np.random.default_rng(21)
    cam, size = random_camera(rng, 640, 480, die_px=(40.0, 50.0), max_tilt=20.0)
    light = random_light(rng)
    for value in range(1, 9):  # every direction of the template, relative to the board
        img = np.full((480, 640, 3), 120, np.uint8)
        truth = draw_die_showing(img, cam, light, "scatter", cam.target, size, value, rng)
        assert truth is not None and scatter_value(truth.value) == value
        x, y, w, h = truth.box  # drawn where its box says, in frame pixels
        assert np.abs(img[y:y + h, x:x + w].astype(int) - 120).max() > 40
        assert not np.any(img[:, : max(0, x - 60)] != 120)
    for face in range(1, 7):
        img = np.full((480, 640, 3), 120, np.uint8)
        truth = draw_die_showing(img, cam, light, "block", cam.target, size, face, rng)
        assert truth is not None and truth.value == face and block_value(face) == block_value(truth.value)
    img = np.zeros((48, 64, 3), np.uint8)
    with pytest.raises(ValueError, match="faces 1 to 6"):
        draw_die_showing(img, cam, light, "block", cam.target, size, 7, rng)
    with pytest.raises(ValueError, match="directions 1 to 8"):
        draw_die_showing(img, cam, light, "scatter", cam.target, size, 0, rng)
    with pytest.raises(ValueError, match="unknown special die kind"):
        draw_die_showing(img, cam, light, "d6", cam.target, size, 1, rng)
