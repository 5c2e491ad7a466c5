import cv2
import numpy as np
import pytest

from vision.board.markers import DEFAULT_LAYOUT, MarkerRegistrar, RegistrationError
from vision.synthetic.table import CameraPose, HandSpec, SyntheticTable


def _gray(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)


def test_registers_with_sub_pixel_corner_error(table: SyntheticTable, tilted_pose: CameraPose,
                                                mild: object) -> None:
    f = table.render({"Ann": 3}, seed=1, pose=tilted_pose, conditions=mild)  # type: ignore[arg-type]
    reg = MarkerRegistrar(camera=table.camera)
    r = reg.register(_gray(f.image))
    err = np.linalg.norm(reg.board_corners_px(r) - f.truth.corners_px, axis=1)
    assert err.mean() < 1.0
    assert len(r.markers_seen) >= 10


def test_two_markers_covered_still_registers(table: SyntheticTable,
                                             tilted_pose: CameraPose) -> None:
    places = DEFAULT_LAYOUT.placements()
    hands = [HandSpec(places[1].centre, -90.0), HandSpec(places[7].centre, 90.0)]
    f = table.render({}, hand=hands, seed=2, pose=tilted_pose)
    assert {1, 7} <= set(f.truth.covered_markers)
    reg = MarkerRegistrar(camera=table.camera)
    r = reg.register(_gray(f.image))
    assert 1 not in r.markers_seen and 7 not in r.markers_seen
    err = np.linalg.norm(reg.board_corners_px(r) - f.truth.corners_px, axis=1)
    assert err.mean() < 1.0


def test_verify_then_reregister_when_the_board_moves(table: SyntheticTable,
                                                     tilted_pose: CameraPose) -> None:
    reg = MarkerRegistrar(camera=table.camera)
    a = _gray(table.render({}, seed=3, pose=tilted_pose).image)
    assert reg.update(a)[1] == "registered"
    assert reg.update(a)[1] == "verified"
    knocked = CameraPose(tilted_pose.x_mm + 25, tilted_pose.y_mm, tilted_pose.height_mm,
                         tilted_pose.target, tilted_pose.roll_deg + 4)
    f = table.render({}, seed=4, pose=knocked)
    r, event = reg.update(_gray(f.image))
    assert event == "re-registered"
    err = np.linalg.norm(reg.board_corners_px(r) - f.truth.corners_px, axis=1)
    assert err.mean() < 1.0


def test_no_markers_raises_a_plain_message() -> None:
    reg = MarkerRegistrar()
    with pytest.raises(RegistrationError, match="board not found"):
        reg.register(np.full((720, 1280), 120, np.uint8))
