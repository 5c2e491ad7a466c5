"""A small dice area is enlarged before it is read (``SpecialDiceConfig.enlarge_to_px``): how
large a die looks comes from the board's registration; boxes stay in frame pixels."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice
from vision.special_dice.reader import die_px, enlargement, to_frame
from vision.synthetic.special_dice import block_value
from vision.synthetic.table import SPECIAL_DIE_MM, SyntheticTable, default_camera

SIZE = (2304, 1296)  # the kiosk's camera size


@pytest.fixture(scope="module")
def table() -> SyntheticTable:
    return SyntheticTable(camera=default_camera(*SIZE))


def test_the_registration_says_how_large_a_die_looks(table: SyntheticTable) -> None:
    frame = table.render({}, seed=1, special=(("block", 1), ("block", 6)))
    h = frame.truth.homography
    for d in frame.truth.special_dice:  # its silhouette box: the top face, turned any way, and a rim
        side = die_px(h, d.centre, SPECIAL_DIE_MM)
        assert 0.65 * d.box[2] < side < d.box[2]
    region = DiceArea.named(BOARD_CENTRE).region(h, SIZE)
    assert region is not None
    config = SpecialDiceConfig()
    scale = enlargement(h, region, config)
    assert scale == pytest.approx(48.0 / die_px(h, (region[0] + region[2] / 2, region[1] + region[3] / 2), 16.0))
    assert 1.3 < scale < 1.8
    assert enlargement(None, region, config) == 1.0  # no registration: no size to go by
    assert enlargement(h, region, replace(config, enlarge_to_px=0.0)) == 1.0
    assert enlargement(h, region, replace(config, enlarge_to_px=500.0)) == config.max_enlarge
    assert enlargement(h, region, replace(config, die_mm=30.0)) == 1.0  # large enough as it is
    assert to_frame((100, 50, 2.0), 40.0, 10.0) == (120.0, 55.0)


def test_dice_read_in_an_enlarged_area_are_boxed_in_frame_pixels(table: SyntheticTable) -> None:
    found = read = 0
    for seed in range(3):
        faces = (("block", 2), ("block", 5), ("block", 6))
        frame = table.render({}, seed=100 + seed, special=faces)
        h = frame.truth.homography
        region = DiceArea.named(BOARD_CENTRE).region(h, SIZE)
        obs = read_special_dice(frame.image, ("block",), Orientation(h), region)
        for r in obs.dice:
            cx, cy = r.box[0] + r.box[2] / 2, r.box[1] + r.box[3] / 2
            near = [d for d in frame.truth.special_dice
                    if abs(d.centre[0] - cx) < d.box[2] / 2 and abs(d.centre[1] - cy) < d.box[3] / 2]
            assert len(near) == 1, (seed, r.box)  # every box is on a die, in frame pixels
            assert 0.6 * near[0].box[2] < r.box[2] < 2.0 * near[0].box[2]
            found += 1
            if r.status == "read":
                assert r.value == block_value(near[0].value)
                read += 1
    assert found >= 7 and read >= 6, (found, read)


def test_the_finder_shrinks_whole_blocks_of_pixels() -> None:
    import cv2
    import numpy as np

    from vision.special_dice.nets import shrink

    grey = np.random.default_rng(0).integers(0, 256, (1021, 1023), dtype=np.uint8)
    padded = cv2.copyMakeBorder(grey, 0, 3, 0, 1, cv2.BORDER_REPLICATE)
    small = shrink(grey)
    assert small.shape == (256, 256)  # each cell of the finder exactly 16 frame pixels
    assert np.array_equal(small, cv2.resize(padded, (256, 256), interpolation=cv2.INTER_AREA))
    assert np.array_equal(shrink(padded), small)


def test_a_colour_area_reads_as_the_same_area_of_the_grey_frame(table: SyntheticTable) -> None:
    from vision.special_dice.nets import to_grey

    frame = table.render({}, seed=7, special=(("scatter", 3), ("scatter", 8)))
    h = frame.truth.homography
    region = DiceArea.named(BOARD_CENTRE).region(h, SIZE)
    colour = read_special_dice(frame.image, ("scatter",), Orientation(h), region)
    grey = read_special_dice(to_grey(frame.image), ("scatter",), Orientation(h), region)
    assert colour == grey and colour.dice


def test_an_enlarged_area_is_searched_with_its_own_finder_threshold(
        table: SyntheticTable, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.special_dice.reader as reader_module

    seen: list[float] = []
    find = reader_module.find

    def spy(grey: object, config: SpecialDiceConfig) -> object:
        seen.append(config.find_threshold)
        return find(grey, config)  # type: ignore[arg-type]

    monkeypatch.setattr(reader_module, "find", spy)
    frame = table.render({}, seed=3, special=(("block", 5),))
    h = frame.truth.homography
    region = DiceArea.named(BOARD_CENTRE).region(h, SIZE)
    config = SpecialDiceConfig()
    read_special_dice(frame.image, ("block",), Orientation(h), region)  # enlarged 1.5 times
    read_special_dice(frame.image, ("block",), Orientation(h), region,
                      replace(config, enlarge_to_px=0.0))  # as it is
    read_special_dice(frame.image, ("block",), Orientation(h))  # the whole frame
    assert seen == [config.area_find_threshold, config.find_threshold, config.find_threshold]
    assert config.area_find_threshold < config.find_threshold
