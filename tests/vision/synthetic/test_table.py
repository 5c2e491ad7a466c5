import cv2
import numpy as np
import pytest

from hardware.camera import open_source
from vision.board.geometry import cell_at
from vision.synthetic.table import (
    CameraPose,
    Conditions,
    SyntheticSource,
    SyntheticTable,
    board_texture,
)


@pytest.fixture(scope="module")
def table() -> SyntheticTable:
    return SyntheticTable()


def test_frame_and_truth(table: SyntheticTable) -> None:
    f = table.render({"Ann": 0, "Ben": 0, "Cai": 40}, dice=[3, 5], seed=1,
                     conditions=Conditions(noise_sigma=2.0, glare=0.4, blur_sigma=0.8))
    assert f.image.shape == (720, 1280, 3) and f.image.dtype == np.uint8
    t = f.truth
    assert sorted(t.occupancy()[0], key=str) == ["Ann", "Ben"]
    assert t.occupancy()[40] == ["Cai"]
    for fig in t.figurines:
        assert cell_at(*fig.pos_mm) == fig.cell
        x, y = fig.pos_px
        assert 0 <= x < 1280 and 0 <= y < 720
    assert [d.value for d in t.dice] == [3, 5]
    # the corners are where the board is: the board edge is darker than the table just outside
    assert t.corners_px.shape == (4, 2)
    assert np.all(t.corners_px[:, 0] > 0) and np.all(t.corners_px[:, 1] > 0)


def test_projection_is_deterministic_and_pose_dependent(table: SyntheticTable) -> None:
    a = table.render({}, seed=3).image
    b = table.render({}, seed=3).image
    c = table.render({}, seed=3, pose=CameraPose(320, 300, 470, (254, 254), 5)).image
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_hand_truth_lists_cells_and_markers(table: SyntheticTable) -> None:
    rng = np.random.default_rng(5)
    hand = table.random_hand(rng, over_board=True)
    f = table.render({}, hand=[hand], seed=4)
    assert f.truth.hand_cells
    grey = cv2.cvtColor(f.image, cv2.COLOR_BGR2HSV)
    assert grey is not None


def test_bad_cell_is_refused(table: SyntheticTable) -> None:
    with pytest.raises(ValueError, match="0..40"):
        table.render({"Ann": 41})


def test_texture_is_cached_and_read_only() -> None:
    tex = board_texture()
    assert tex is board_texture() and not tex.flags.writeable


def test_live_source_registered_with_hardware_camera() -> None:
    src = open_source("synthetic:seed=2,width=640,height=360,hold=2")
    assert isinstance(src, SyntheticSource)
    frames = [src.read() for _ in range(3)]
    assert all(f is not None and f.shape == (360, 640, 3) for f in frames)
    assert src.last_truth is not None
    src.place({"Ann": 7}, dice=[1, 6])
    src.read()
    assert src.last_truth.occupancy() == {7: ["Ann"]}
    src.close()
    assert src.read() is None


def test_dice_seed_keeps_the_dice_put_while_pieces_move(table: SyntheticTable) -> None:
    a = table.render({"Ann": 3}, [2, 5], seed=1, dice_seed=77).truth.dice
    b = table.render({"Ann": 9, "Ben": 14}, [2, 5], seed=2, dice_seed=77).truth.dice
    c = table.render({"Ann": 9, "Ben": 14}, [2, 5], seed=2).truth.dice
    assert [d.centre_mm for d in a] == [d.centre_mm for d in b]
    assert [d.centre_mm for d in b] != [d.centre_mm for d in c]


def test_block_and_scatter_dice_are_thrown_in_the_middle_showing_what_was_asked() -> None:
    from vision.synthetic.special_dice import block_value, scatter_value

    table = SyntheticTable(camera=SyntheticTable().camera.scaled_to(1280, 720))
    asked = (("block", 4), ("block", 6), ("scatter", 7))
    f = table.render({"Ann": 0}, seed=5, special=asked)
    again = table.render({"Ann": 0}, seed=5, special=asked)
    assert np.array_equal(f.image, again.image)  # a seed fixes the throw
    plain = table.render({"Ann": 0}, seed=5)
    assert plain.truth.special_dice == () and not np.array_equal(plain.image, f.image)
    got = [(d.kind, block_value(d.value) if d.kind == "block" else scatter_value(d.value))
           for d in f.truth.special_dice]
    assert got == [("block", 3), ("block", 6), ("scatter", 7)]  # pushed reads as its first face
    half = table.spec.side_mm / 2
    centre = cv2.perspectiveTransform(np.array([[[half, half]]]), f.truth.homography)[0, 0]
    for d in f.truth.special_dice:  # within 90 mm of the board's middle (about 1.1 px a mm)
        assert np.hypot(d.centre[0] - centre[0], d.centre[1] - centre[1]) < 160
    boxes = [d.box for d in f.truth.special_dice]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
