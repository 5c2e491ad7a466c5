"""Opaque plastic numbered dice (``vision.synthetic.plastic``): the number reader's renders of
dice as a camera above a tray sees them."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synthetic.plastic import _glyph_tile, draw_plastic_die, render_plastic_scene


def _die(kind: str, value: int, seed: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    canvas = np.full((260, 260, 3), 20, np.uint8)
    truth = draw_plastic_die(canvas, kind, value, (130.0, 130.0), 150.0, np.random.default_rng(seed))
    return canvas, truth.box


@pytest.mark.parametrize("kind", ["d8", "d10", "d12", "d20"])
def test_a_seed_fixes_the_die_and_its_box_holds_it(kind: str) -> None:
    img, box = _die(kind, 5, 3)
    again, box2 = _die(kind, 5, 3)
    other, _ = _die(kind, 5, 4)
    assert np.array_equal(img, again) and box == box2
    assert not np.array_equal(img, other)
    x, y, w, h = box
    # the footprint is 150 px; the outline of each type spans most of it
    assert 100 <= w <= 160 and 100 <= h <= 160
    assert abs((x + w / 2) - 130) < 12 and abs((y + h / 2) - 130) < 12
    # nothing but the die's soft shadow (a few levels darker) lies outside its box
    changed = np.any(np.abs(img.astype(int) - 20) > 8, axis=2)
    outside = changed.copy()
    outside[y:y + h, x:x + w] = False
    assert outside.sum() < 0.1 * changed.sum()
    # the die is drawn: most of its box differs from the tray
    assert changed[y:y + h, x:x + w].mean() > 0.6


def test_the_top_number_stands_out_from_the_body() -> None:
    # a number is inked in the middle of the top face: the middle of the die varies far more
    # than a band of body just inside the outline, where only side numbers may show
    spreads = []
    for seed in range(6):
        img, (x, y, w, h) = _die("d12", 12, seed)
        grey = img.astype(np.float32).mean(axis=2)
        cx, cy = x + w // 2, y + h // 2
        spreads.append(float(grey[cy - 15:cy + 15, cx - 22:cx + 22].std()))
    assert np.median(spreads) > 20


def test_values_differ_only_by_their_number() -> None:
    # the same seed draws the same body, light and pose; another value changes the middle
    a, box = _die("d20", 7, 11)
    b, _ = _die("d20", 18, 11)
    x, y, w, h = box
    middle = np.zeros(a.shape[:2], bool)
    middle[y + h // 4:y + 3 * h // 4, x + w // 4:x + 3 * w // 4] = True
    differs = np.any(a != b, axis=2)
    assert differs[middle].mean() > 0.05


def test_glyph_tiles_mark_a_six_or_nine_and_fall_back_to_hershey() -> None:
    plain = _glyph_tile("6", -1, "")
    bar = _glyph_tile("6", -1, "bar")
    dot = _glyph_tile("6", -1, "dot")
    assert (plain > 40).sum() > 200
    assert bar.shape[0] > plain.shape[0]  # the bar sits under the glyph
    assert dot.shape[1] > plain.shape[1]  # the dot follows it
    assert (_glyph_tile("12", -1, "") > 40).sum() > (plain > 40).sum()


def test_a_scene_keeps_its_dice_apart() -> None:
    bg = np.full((480, 480, 3), 30, np.uint8)
    img, truths = render_plastic_scene(np.random.default_rng(5), bg, 3, ("d10", "d20"), (70.0, 150.0))
    assert bg.max() == 30  # the background is copied, not drawn on
    assert 1 <= len(truths) <= 3
    for i, a in enumerate(truths):
        assert a.kind in ("d10", "d20") and 1 <= a.value <= int(a.kind[1:])
        for b in truths[i + 1:]:
            ax, ay, aw, ah = a.box
            bx, by, bw, bh = b.box
            overlap_w = min(ax + aw, bx + bw) - max(ax, bx)
            overlap_h = min(ay + ah, by + bh) - max(ay, by)
            assert overlap_w <= 0.2 * min(aw, bw) or overlap_h <= 0.2 * min(ah, bh)
