"""The ray-marched d6 (vision.synthetic.d6_3d): face table, pips read from above, side faces
showing at a slant, light on the sides, boxes and determinism."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.synthetic.d6_3d import (
    FACE_TABLE,
    D6Look,
    camera_axes,
    die_rotation,
    draw_d6_3d,
    random_look,
    render_d6,
    render_scene,
)

PLAIN = D6Look(value=1, size=120, body=(235, 235, 232), pip=(20, 20, 20), glare=0.0,
               light_az_deg=0.0, light_elev_deg=55.0, ambient=0.45)


def _blobs(patch: np.ndarray, alpha: np.ndarray, min_area: int = 12) -> int:
    """Dark connected components inside the die's silhouette."""
    grey = cv2.cvtColor(np.clip(patch, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    inside = cv2.erode((alpha > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
    dark = ((grey < 70) & (inside > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    return int((stats[1:, cv2.CC_STAT_AREA] >= min_area).sum())


def _box(alpha: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(alpha > 0.5)
    return int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


def test_face_table_is_a_right_handed_die() -> None:
    normals = {v: np.array(n) for v, (n, _, _) in FACE_TABLE.items()}
    assert sorted(FACE_TABLE) == [1, 2, 3, 4, 5, 6]
    for v, (n, u, w) in FACE_TABLE.items():
        assert np.array_equal(normals[7 - v], -normals[v])  # opposite faces sum to 7
        assert np.array_equal(np.cross(u, w), n)  # the pip frame is right-handed, seen from outside
        assert np.dot(u, n) == 0 and np.dot(w, n) == 0
    # 1, 2, 3 meet at a corner counter-clockwise seen from outside it
    assert np.linalg.det(np.stack([normals[1], normals[2], normals[3]])) > 0


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("yaw", [0.0, 33.0])
def test_die_rotation_puts_the_value_up(value: int, yaw: float) -> None:
    rot = die_rotation(value, yaw)
    assert np.allclose(rot @ rot.T, np.eye(3)) and np.isclose(np.linalg.det(rot), 1.0)
    assert np.allclose(rot @ np.array(FACE_TABLE[value][0], float), [0, 0, 1])


@pytest.mark.parametrize("value", range(1, 7))
def test_pips_counted_from_straight_above_equal_the_value(value: int) -> None:
    look = replace(PLAIN, value=value, yaw_deg=17.0 * value, roll_deg=5.0)
    patch, alpha = render_d6(look, np.random.default_rng(0))
    assert patch.dtype == np.float32 and alpha.shape == patch.shape[:2]
    assert patch.shape[0] == patch.shape[1]
    assert _blobs(patch, alpha) == value


def test_from_above_only_the_top_face_shows() -> None:
    patch, alpha = render_d6(replace(PLAIN, value=4), np.random.default_rng(0))
    _, _, w, h = _box(alpha)
    assert abs(w - 120) <= 12 and abs(h - 120) <= 12
    # a square: nearly all of the box is die
    assert (alpha > 0.5).sum() > 0.9 * w * h


@pytest.mark.parametrize("value", [1, 3, 6])
def test_a_slanted_camera_sees_side_faces_and_their_pips(value: int) -> None:
    flat = replace(PLAIN, value=value, yaw_deg=30.0)
    slant = replace(flat, tilt_deg=35.0)
    p0, a0 = render_d6(flat, np.random.default_rng(0))
    p1, a1 = render_d6(slant, np.random.default_rng(0))
    _, _, w0, h0 = _box(a0)
    _, _, w1, h1 = _box(a1)
    # azimuth 0, roll 0: the tilt runs along the image's y axis
    assert h1 > 1.2 * h0
    assert abs(w1 - w0) <= 0.1 * w0
    # the side faces facing the camera carry their own pips
    _, _, to_cam = camera_axes(slant)
    rot = die_rotation(value, 30.0)
    sides = [v for v, (n, _, _) in FACE_TABLE.items()
             if v != value and float((rot @ np.array(n, float)) @ to_cam) > 0.2]
    assert len(sides) == 2
    assert _blobs(p1, a1, min_area=6) == value + sum(sides)


def _face_medians(look: D6Look) -> tuple[float, float]:
    """Median grey of the top face and of the side face below it (azimuth 0, yaw 0, roll 0)."""
    patch, alpha = render_d6(look, np.random.default_rng(0))
    grey = cv2.cvtColor(np.clip(patch, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    c = patch.shape[0] / 2
    s = look.size / 2
    t = np.radians(look.tilt_deg)
    ct, st = float(np.cos(t)), float(np.sin(t))
    cols = slice(int(c - 0.7 * s), int(c + 0.7 * s))

    def middle(lo: float, hi: float) -> slice:
        return slice(int(c + lo + 0.2 * (hi - lo)), int(c + hi - 0.2 * (hi - lo)))

    # the top face spans rows c - (ct + st) s .. c + (ct - st) s, the side face on to c + (ct + st) s
    top = grey[middle(-(ct + st) * s, (ct - st) * s), cols]
    side = grey[middle((ct - st) * s, (ct + st) * s), cols]
    return float(np.median(top)), float(np.median(side))


def test_side_faces_are_darker_against_the_light_and_lighter_towards_it() -> None:
    base = replace(PLAIN, value=2, tilt_deg=40.0, ambient=0.3)
    top, side = _face_medians(replace(base, light_az_deg=180.0, light_elev_deg=45.0))
    assert side < 0.7 * top
    top, side = _face_medians(replace(base, body=(150, 150, 150), light_az_deg=0.0,
                                      light_elev_deg=25.0))
    assert side > top + 15


def test_the_same_seed_gives_the_same_pixels() -> None:
    look = replace(random_look(np.random.default_rng(3), 5, 64.0), marble=0.8)
    a = render_d6(look, np.random.default_rng(7))
    b = render_d6(look, np.random.default_rng(7))
    c = render_d6(look, np.random.default_rng(8))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])  # the marbling comes from the generator
    assert random_look(np.random.default_rng(4), 2, 50.0) == random_look(np.random.default_rng(4), 2, 50.0)
    s1 = render_scene(np.random.default_rng(11), (200, 160), n_dice=3)
    s2 = render_scene(np.random.default_rng(11), (200, 160), n_dice=3)
    assert np.array_equal(s1[0], s2[0]) and s1[1] == s2[1]


@pytest.mark.parametrize("seed", range(4))
def test_the_truth_box_is_the_silhouette_box(seed: int) -> None:
    rng = np.random.default_rng(seed)
    look = replace(random_look(rng, int(rng.integers(1, 7)), float(rng.uniform(30, 90))), shadow=0.0)
    centre = (float(rng.integers(60, 140)), float(rng.integers(60, 140)))
    _, alpha = render_d6(look, np.random.default_rng(0))
    canvas = np.full((200, 200, 3), 128, np.uint8)
    truth = draw_d6_3d(canvas, centre, look, np.random.default_rng(0))
    assert truth.kind == "d6" and truth.value == look.value and not truth.cocked
    half = alpha.shape[0] // 2
    ys, xs = np.nonzero(alpha > 0.35)
    xs, ys = xs + int(centre[0]) - half, ys + int(centre[1]) - half
    x, y, w, h = truth.box
    assert (x, y, x + w - 1, y + h - 1) == (xs.min(), ys.min(), xs.max(), ys.max())
    # nothing is drawn outside the box but antialiased edge pixels (no shadow here)
    changed = np.nonzero(np.abs(canvas.astype(int) - 128).max(axis=2) > 0)
    assert changed[0].min() >= y - 1 and changed[0].max() <= y + h
    assert changed[1].min() >= x - 1 and changed[1].max() <= x + w


def test_colour_names_follow_the_palette() -> None:
    canvas = np.zeros((100, 100, 3), np.uint8)
    white = draw_d6_3d(canvas, (50, 50), replace(PLAIN, size=40), np.random.default_rng(0))
    odd = draw_d6_3d(canvas, (50, 50), replace(PLAIN, size=40, body=(1, 2, 3)),
                     np.random.default_rng(0))
    assert white.colour == "white" and odd.colour == "custom"


def test_a_scene_holds_separate_dice() -> None:
    img, truths = render_scene(np.random.default_rng(5), (320, 240), n_dice=4, die_px=(40, 60))
    assert img.shape == (240, 320, 3) and img.dtype == np.uint8
    assert len(truths) >= 3
    for t in truths:
        x, y, w, h = t.box
        assert 1 <= t.value <= 6 and w > 20 and h > 20
        assert x >= 0 and y >= 0 and x + w <= 320 and y + h <= 240
    centres = [(t.box[0] + t.box[2] / 2, t.box[1] + t.box[3] / 2) for t in truths]
    for i in range(len(centres)):
        for j in range(i):
            assert np.hypot(centres[i][0] - centres[j][0], centres[i][1] - centres[j][1]) > 30


def test_tray_looks_grey_matched_pips_have_the_body_brightness_in_another_hue() -> None:
    from vision.synthetic.d6_3d import tray_look
    from vision.synthetic.dice import luma

    for seed in range(20):
        look = tray_look(np.random.default_rng(seed), 3, 60.0, kind="grey-matched")
        assert abs(luma(look.pip) - luma(look.body)) <= 14.0
        hues = cv2.cvtColor(np.array([[look.body, look.pip]], np.uint8), cv2.COLOR_BGR2HSV)[0, :, 0].astype(int)
        gap = abs(int(hues[0]) - int(hues[1]))
        assert min(gap, 180 - gap) >= 20  # a colour camera tells them apart; grey does not


def test_tray_looks_are_of_the_kind_asked_and_seen_from_nearly_above() -> None:
    from vision.synthetic.d6_3d import TRAY_LOOKS, tray_look

    rng = np.random.default_rng(5)
    for kind in TRAY_LOOKS:
        look = tray_look(rng, 2, 50.0, 4.0, kind)
        assert look.tilt_deg <= 4.0
        assert (look.marble > 0) == (kind == "marbled") or kind == "grey-matched"
        assert (look.translucent > 0) == (kind == "translucent") or kind == "grey-matched"
        if kind == "opaque":
            assert look.body in ((235, 235, 232), (200, 228, 240), (30, 30, 32))


def test_render_scene_draws_each_die_in_the_look_it_is_given() -> None:
    from vision.synthetic.d6_3d import tray_look

    def red(rng: np.random.Generator, value: int, size: float, tilt: float) -> D6Look:
        return replace(tray_look(rng, value, size, tilt, "colour"), body=(30, 30, 200), glare=0.0)

    img, truths = render_scene(np.random.default_rng(3), (320, 240), n_dice=2, die_px=(50, 60),
                               background=np.zeros((240, 320, 3), np.uint8), effects=False, look=red)
    assert truths
    for t in truths:
        x, y, w, h = t.box
        patch = img[y + h // 3:y + 2 * h // 3, x + w // 3:x + 2 * w // 3].reshape(-1, 3).astype(int)
        assert np.median(patch[:, 2]) > 2 * np.median(patch[:, 0])  # red dominates the die
