"""``vision.dice.evaluate.pick_threshold``: choosing one die type's read threshold."""

from __future__ import annotations

import numpy as np

from vision.dice.evaluate import pick_threshold, polyhedral_value

GRID = [0.5, 0.8, 0.9, 0.95, 0.99]


def test_the_lowest_threshold_before_the_first_failure_from_the_top() -> None:
    # 100 dice right at 0.96, one wrong at 0.85, one wrong at 0.6
    pairs = [(0.96, True)] * 100 + [(0.85, False), (0.6, False)]
    t, lines = pick_threshold({"a": pairs}, target=0.0, grid=GRID)
    assert t == 0.9
    assert any("(1)" in line for line in lines)  # the table shows the wrong readings counted
    # a target that tolerates one wrong reading in 102 goes one step lower
    assert pick_threshold({"a": pairs}, target=0.01, grid=GRID)[0] == 0.8


def test_every_set_must_stay_under_the_target() -> None:
    clean = [(0.7, True)] * 50
    dirty = [(0.92, False)] + [(0.97, True)] * 50
    assert pick_threshold({"clean": clean}, 0.0, GRID)[0] == 0.5
    assert pick_threshold({"clean": clean, "dirty": dirty}, 0.0, GRID)[0] == 0.95


def test_no_safe_threshold_gives_the_strictest_and_empty_sets_do_not_count() -> None:
    hopeless = [(0.999, False)] * 3 + [(0.999, True)]
    assert pick_threshold({"h": hopeless}, 0.0, GRID)[0] == 0.99
    assert pick_threshold({"empty": []}, 0.0, GRID)[0] == 0.5


def test_a_total_makes_the_share_one_of_all_the_dice_of_a_true_type() -> None:
    # four d8 of 2000 taken for a d10 at 0.99: 4/4 of the dice read as d10 in this set, but
    # 0.2% of its d8, which is what the benchmark reports as the d8's confident-wrong rate
    mistaken = [(0.99, False)] * 4
    assert pick_threshold({"d8 dice": mistaken}, 0.0025, GRID)[0] == 0.99  # strictest: no pass
    t, lines = pick_threshold({"d8 dice": mistaken}, 0.0025, GRID, totals={"d8 dice": 2000})
    assert t == 0.5
    assert "of 2000" in lines[0]
    assert pick_threshold({"d8 dice": mistaken}, 0.0015, GRID, totals={"d8 dice": 2000})[0] == 0.99


def test_the_polyhedral_d10_photos_show_one_less_than_their_index() -> None:
    # "D10 (A) (1).jpg" shows the 0 face, "(10)" the 9; other dice show their index
    assert [polyhedral_value(10, i) for i in (1, 2, 10)] == [10, 1, 9]
    assert polyhedral_value(10, 1, zero_is_ten=False) == 0
    assert [polyhedral_value(12, i) for i in (1, 12)] == [1, 12]
    assert polyhedral_value(8, 3) == 3


def test_polyhedral_photos_read_as_a_roll_of_their_own_type(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import cv2
    import numpy as np

    from vision.dice import evaluate
    from vision.dice.types import DiceObservation

    for name in ("D8 (A) (3).jpg", "D10 (A) (1).jpg"):
        cv2.imwrite(str(tmp_path / name), np.full((60, 80, 3), 40, np.uint8))
    seen: list[tuple[str, ...]] = []

    def fake_read(img, region, config):  # type: ignore[no-untyped-def]
        seen.append(config.kinds)
        return DiceObservation((), "empty", "no dice in view")

    monkeypatch.setattr(evaluate, "read_dice", fake_read)
    report, lines = evaluate.evaluate_polyhedral(str(tmp_path), roll_kind=True)
    assert seen == [("d10",), ("d8",)]
    assert report.images == 2 and "true d10:10" in lines[0]
    seen.clear()
    evaluate.evaluate_polyhedral(str(tmp_path))
    assert all(len(k) == 6 for k in seen)


def test_colour_tray_frames_cycle_the_looks_and_repeat_from_their_seed() -> None:
    from vision.dice.evaluate import colour_tray_items
    from vision.synthetic.d6_3d import TRAY_LOOKS

    first = list(colour_tray_items(5, seed=123, size=(480, 360), die_px=(30.0, 40.0)))
    again = list(colour_tray_items(5, seed=123, size=(480, 360), die_px=(30.0, 40.0)))
    assert [look for _, look, _, _ in first] == list(TRAY_LOOKS)
    for (_, _, a, ta), (_, _, b, tb) in zip(first, again, strict=True):
        assert a.shape == (360, 480, 3) and np.array_equal(a, b) and ta == tb
        assert 2 <= len(ta) <= 6 and all(t.kind == "d6" and 1 <= t.value <= 6 for t in ta)
        # a die of side 30-40 px (give or take 8%) has a box of its side up to 1.45x it
        assert all(26 <= max(t.box[2], t.box[3]) <= 64 for t in ta)


def test_the_tray_floor_is_cut_from_the_tray_photo_and_sometimes_dyed_a_felt() -> None:
    from vision.dice.evaluate import _tray_floor

    photo = np.full((1944, 2592, 3), 200, np.uint8)
    photo[320:1800, 520:1980] = 20  # a dark floor inside a light wall
    floors = [_tray_floor(photo, (320, 240), np.random.default_rng(s)) for s in range(12)]
    assert all(f.shape == (240, 320, 3) for f in floors)
    # the floor fills most of every frame: at most a little of the wall shows
    assert all(np.mean(f.max(axis=2) > 150) < 0.2 or f.mean() > 100 for f in floors)
    assert len({tuple(np.median(f.reshape(-1, 3), axis=0).astype(int)) for f in floors}) > 3


def test_tray_items_draw_plastic_dice_on_request() -> None:
    from vision.dice.evaluate import tray_items

    kw = {"size": (480, 360), "die_px": (120.0, 150.0), "seed": 5}
    plastic = list(tray_items(3, "d20", look="plastic", **kw))  # type: ignore[arg-type]
    faceted = list(tray_items(3, "d20", **kw))  # type: ignore[arg-type]
    assert [t[0].value for _, _, t in plastic] == [1, 2, 3]  # face i % 20 + 1, as in every look
    for (_, a, ta), (_, b, _) in zip(plastic, faceted, strict=True):
        assert ta[0].kind == "d20" and 100 <= max(ta[0].box[2], ta[0].box[3]) <= 160
        assert not np.array_equal(a, b)
