"""The camera's nadir from the board's homography, and crops turned so the die's side faces are at the bottom."""

from __future__ import annotations

import math

import numpy as np

from vision.special_dice.nets import crop_sample
from vision.special_dice.reader import Orientation, sector_masses
from vision.special_dice.upright import centre_nadir, down_deg, nadir, turn_deg
from vision.synthetic.special_dice import Camera, Light, _draw_die, random_camera


def _true_nadir(cam: Camera) -> np.ndarray:
    """The image of the vertical direction (the table's w axis points down into it)."""
    return np.asarray(cam.K() @ cam.rotation()[:, 2])


def _apart(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def test_the_nadir_from_the_homography_is_the_true_cameras_over_many_cameras() -> None:
    rng = np.random.default_rng(31)
    for i in range(400):
        cam, _ = random_camera(rng, max_tilt=(35.0, 5.0, 0.5)[i % 3])
        # the registration's homography is known only up to scale (and sign)
        h = cam.board_to_frame() * float(rng.choice([-1.0, 1.0])) * float(rng.uniform(0.01, 100.0))
        got, want = nadir(h, cam.width, cam.height), _true_nadir(cam)
        for _ in range(10):
            p = (float(rng.uniform(0, cam.width)), float(rng.uniform(0, cam.height)))
            a, b = down_deg(got, p), down_deg(want, p)
            if b is None or math.dist(p, want[:2] / want[2]) < 30.0:
                continue
            # under about 0.05 degrees of slant the nadir is taken as the centre, a pixel or so off
            assert a is not None and _apart(a, b) < (0.2 if cam.tilt_deg > 0.1 else 3.0), (cam, p, a, b)


def test_a_camera_looking_straight_down_has_its_nadir_at_the_frames_centre() -> None:
    rng = np.random.default_rng(32)
    for tilt in (0.0, 0.01, 0.04):
        for _ in range(20):
            cam, _ = random_camera(rng, max_tilt=0.0)
            cam = Camera(cam.width, cam.height, cam.focal_px, cam.height_mm, tilt, float(rng.uniform(0, 360)),
                         cam.roll_deg, cam.target)
            n = nadir(cam.board_to_frame(), cam.width, cam.height)
            want = _true_nadir(cam)
            assert math.dist(n[:2] / n[2], want[:2] / want[2]) < 1.5  # a pixel or so from the true nadir
            assert np.allclose(n, centre_nadir(cam.width, cam.height)) or tilt > 0.0
    # an affine homography (no perspective at all) and a broken one: the centre
    affine = np.array([[2.0, 0.3, 100.0], [-0.3, 2.0, 50.0], [0.0, 0.0, 1.0]])
    assert np.allclose(nadir(affine, 1280, 720), centre_nadir(1280, 720))
    assert np.allclose(nadir(np.full((3, 3), np.nan), 1280, 720), centre_nadir(1280, 720))


def test_the_turn_points_the_way_to_the_nadir_down_and_not_at_the_nadir_itself() -> None:
    n = np.array([640.0, 2000.0, 1.0])  # far below the frame
    assert abs(turn_deg(n, (640.0, 300.0))) < 1e-9 or abs(turn_deg(n, (640.0, 300.0)) - 360.0) < 1e-9
    # the nadir down-left (135 degrees, y down): turned 45 degrees back, it points down
    assert abs(turn_deg(n, (640.0 + 1700.0, 300.0)) - 315.0) < 1e-9
    assert turn_deg(np.array([100.0, 100.0, 1.0]), (100.2, 100.0)) == 0.0
    assert turn_deg(None, (5.0, 5.0)) == 0.0
    assert down_deg(np.array([0.0, -1.0, 0.0]), (10.0, 10.0)) == -90.0  # a nadir at infinity: a direction


def test_a_dies_vertical_axis_points_straight_up_in_its_turned_crop() -> None:
    # the geometry the upright reader relies on: a vertical line through a die projects onto a
    # line through the nadir, top farther from it than the base
    rng = np.random.default_rng(33)
    for _ in range(300):
        cam, size = random_camera(rng, max_tilt=35.0)
        h = cam.board_to_frame()
        n = nadir(h, cam.width, cam.height)
        at = np.linalg.inv(h) @ np.array([rng.uniform(0, cam.width), rng.uniform(0, cam.height), 1.0])
        x, y = at[0] / at[2], at[1] / at[2]
        base, top = cam.project(np.array([[x, y, 0.0], [x, y, -size]]))
        mid = (base + top) / 2
        t = turn_deg(n, (float(mid[0]), float(mid[1])))
        d = top - base
        if np.linalg.norm(d) < 0.5:
            continue  # seen from straight above: no side face shows
        up_in_crop = math.degrees(math.atan2(d[1], d[0])) + t
        assert _apart(up_in_crop, -90.0) < 1.0


def test_the_turned_crop_shows_a_slanted_dies_side_faces_at_its_bottom() -> None:
    # a block die well off the camera's axis under a 35-degree slant, on a blank table without a
    # shadow: its silhouette reaches below its top face's centre in the upright crop
    for tilt_dir in (0.0, 70.0, 200.0):
        cam = Camera(1280, 720, 1000.0, 500.0, 35.0, tilt_dir, 30.0)
        img = np.full((720, 1280, 3), 128, np.uint8)
        light = Light(np.array([0.0, 0.0, -1.0]), 0.9, 0.1, 0.0, 0.0)
        h = cam.board_to_frame()
        at = np.linalg.inv(h) @ np.array([900.0, 250.0, 1.0])
        centre = (float(at[0] / at[2]), float(at[1] / at[2]))
        size = 30.0
        truth = _draw_die(img, cam, light, "block", centre, size, np.random.default_rng(5),
                          colours=((240, 240, 240), (20, 20, 20)))
        assert truth is not None
        top = cam.project(np.array([[centre[0], centre[1], -size]]))[0]
        side = float(max(truth.box[2], truth.box[3]))
        grey = img[:, :, 1]
        t = turn_deg(nadir(h, 1280, 720), truth.centre)
        c = crop_sample(grey, truth.centre, side, t)
        ys, xs = np.nonzero(np.abs(c.astype(int) - 128) > 4)
        # the top face's centre, in the crop
        s = 64 / (1.5 * side)
        r = math.radians(t)
        dx, dy = top[0] - truth.centre[0], top[1] - truth.centre[1]
        top_y = 32 + s * (math.sin(r) * dx + math.cos(r) * dy)
        top_x = 32 + s * (math.cos(r) * dx - math.sin(r) * dy)
        assert ys.max() - top_y > (top_y - ys.min()) + 3  # more die below the top face than above
        assert abs(xs.mean() - top_x) < 3  # and straight below it


def test_an_angle_read_in_a_turned_crop_is_turned_back_before_it_goes_onto_the_board() -> None:
    bins = 144
    probs = np.zeros(bins, np.float32)
    turn = 135.0
    # an arrow pointing right in the picture (0 deg) is at 135 deg in a crop turned 135 deg
    probs[int(round(135.0 / 2.5))] = 1.0
    masses, bearing = sector_masses(probs, (100.0, 100.0), Orientation(), turn)
    assert _apart(bearing, 90.0) < 1.0  # east, with north up in the picture
    assert int(np.argmax(masses)) == 2
