"""The colour d6 reader's second look: a die is read when the grey looks and the colour reader
agree or one is near-certain; a sure colour answer of another value makes a read die unsure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import d6colour, reader
from vision.dice.d6colour import COLOUR_SIZE, colour_crops
from vision.dice.labels import CLASSES
from vision.dice.models import ModelMissingError, load_net
from vision.dice.reader import D6Evidence, colour_verdict
from vision.dice.types import DiceConfig

from .fixed_answers import classifier_says, one_die_frame, type_reader_undecided, with_chroma

CFG = DiceConfig(d6_colour=True, d6_colour_veto=0.9, d6_colour_agree=0.8, d6_colour_alone=0.999)


def _probs(value: int, p: float) -> np.ndarray:
    q = np.full(6, (1 - p) / 5, np.float32)
    q[value - 1] = p
    return q


def _evidence(head: np.ndarray, colour: np.ndarray, chroma: float = 0.0) -> D6Evidence:
    return D6Evidence((0, 0, 60, 60), 1.0, np.zeros(6, np.float32), head, np.zeros(96, np.float32), None,
                      60.0, True, colour=colour, chroma=chroma)


def test_a_die_the_grey_looks_read_is_doubted_when_the_colour_reader_is_sure_of_another_value() -> None:
    head = _probs(4, 0.99)
    assert colour_verdict(_evidence(head, _probs(4, 0.95)), 4, True, CFG) == (4, True)
    assert colour_verdict(_evidence(head, _probs(5, 0.95)), 4, True, CFG) == (4, False)
    # a colour reader that only leans the other way does not overrule a reading
    assert colour_verdict(_evidence(head, _probs(5, 0.6)), 4, True, CFG) == (4, True)


def test_an_unsure_die_is_read_when_both_name_its_value_or_the_colour_reader_is_near_certain() -> None:
    head = _probs(3, 0.7)
    assert colour_verdict(_evidence(head, _probs(3, 0.85)), 3, False, CFG) == (3, True)
    assert colour_verdict(_evidence(head, _probs(3, 0.5)), 3, False, CFG)[1] is False
    # another value: read only when the colour reader is near-certain of it
    assert colour_verdict(_evidence(head, _probs(6, 0.9995)), 3, False, CFG) == (6, True)
    assert colour_verdict(_evidence(head, _probs(6, 0.99)), 3, False, CFG)[1] is False


def test_an_unsure_die_guesses_the_value_both_find_likeliest_together() -> None:
    head = np.array([0.02, 0.02, 0.5, 0.02, 0.4, 0.04], np.float32)
    colour = np.array([0.02, 0.02, 0.1, 0.02, 0.8, 0.04], np.float32)
    assert colour_verdict(_evidence(head, colour), 3, False, CFG) == (5, False)


def test_colour_crops_are_rgb_and_grey_images_give_three_equal_channels() -> None:
    bgr = np.zeros((100, 100, 3), np.uint8)
    bgr[:, :, 2] = 200  # red in BGR
    x = colour_crops(bgr, [(30.0, 30.0, 40.0, 40.0)])
    assert x.shape == (1, 3, COLOUR_SIZE, COLOUR_SIZE)
    assert x[0, 0].mean() == pytest.approx(200) and x[0, 2].mean() == pytest.approx(0)
    g = colour_crops(np.full((100, 100), 90, np.uint8), [(30.0, 30.0, 40.0, 40.0)])
    assert np.allclose(g[0, 0], g[0, 1]) and np.allclose(g[0, 1], g[0, 2]) and g.mean() == pytest.approx(90)


def _head_says(value: int, p: float) -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    def read_d6(grey: np.ndarray, boxes: list[object], table: object = None,
                shipped: bool = True) -> tuple[np.ndarray, np.ndarray]:
        return np.tile(_probs(value, p), (len(boxes), 1)), np.zeros((len(boxes), 96), np.float32)
    return read_d6


def _colour_says(value: int, p: float) -> Callable[..., np.ndarray]:
    def read_colour(bgr: np.ndarray, boxes: list[object]) -> np.ndarray:
        assert bgr.ndim == 3  # the reader hands it the colour image, not the grey one
        return np.tile(_probs(value, p), (len(boxes), 1))
    return read_colour


def test_the_reader_asks_the_colour_reader_only_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    six = CLASSES.index("d6:6")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(six, 0.9999))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_d6", _head_says(6, 0.9999))
    frame = one_die_frame("d6")
    cfg = replace(CFG, kinds=("d6",))
    first = reader.read_dice(frame, config=replace(cfg, d6_colour=False)).dice[0]
    assert (first.status, first.value) == ("read", 6)
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(_colour_says(2, 0.99)))
    doubted = reader.read_dice(frame, config=cfg).dice[0]
    assert (doubted.status, doubted.value) == ("unsure", None)
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(_colour_says(6, 0.99)))
    assert reader.read_dice(frame, config=cfg).dice[0].value == 6


def test_the_shipped_colour_reader_gives_six_probabilities_a_crop() -> None:
    if not d6colour.colour_path().is_file():
        pytest.skip(f"{d6colour.colour_path()} is not shipped in this checkout")
    frame = one_die_frame("d6")
    p = d6colour.read_colour(frame, [(0.0, 0.0, 10.0, 10.0), (5.0, 5.0, 30.0, 30.0)])
    assert p.shape == (2, 6)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-4) and (p >= 0).all()


def test_a_die_looked_at_in_colour_has_its_crop_cut_once_for_the_reader_and_its_chroma(
        monkeypatch: pytest.MonkeyPatch) -> None:
    if not d6colour.colour_path().is_file():
        pytest.skip(f"{d6colour.colour_path()} is not shipped in this checkout")
    cut: list[int] = []
    real = d6colour.colour_crops

    def counted(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
        cut.append(len(boxes))
        return real(bgr, boxes)

    monkeypatch.setattr(d6colour, "colour_crops", counted)
    frame = one_die_frame("d6")
    boxes = [(40.0, 40.0, 60.0, 60.0), (5.0, 5.0, 30.0, 30.0)]
    p, chroma = d6colour.read_colour_and_chroma(frame, boxes)
    assert cut == [2]
    assert np.array_equal(p, d6colour.read_colour(frame, boxes))
    assert np.array_equal(chroma, d6colour.colour_chroma(frame, boxes))
    # the reader's d6 pass, asking the colour reader about an unsure die: one cut for both
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(CLASSES.index("d6:6"), 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "read_d6", _head_says(6, 0.5))
    cut.clear()
    _, evidence = reader.read_dice_evidence(frame, config=replace(CFG, kinds=("d6",), d6_contrast=False))
    e = next(e for e in evidence if e is not None)
    assert cut == [1] and e.colour is not None
    assert e.chroma == pytest.approx(float(d6colour.colour_chroma(frame, [e.box])[0]))


def test_a_missing_colour_model_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setattr(d6colour, "MODEL_DIR", tmp_path)
    with pytest.raises(ModelMissingError, match="d6_colour.onnx"):
        d6colour.read_colour(np.zeros((50, 50, 3), np.uint8), [(10.0, 10.0, 20.0, 20.0)])


def test_the_d6_colour_flag_turns_the_colour_look_on_or_off_for_read_and_watch() -> None:
    import argparse

    from vision.dice.cli import _config

    assert _config(argparse.Namespace(kinds=None, threshold=None, d6_colour="off")).d6_colour is False
    assert _config(argparse.Namespace(kinds="d6", threshold=0.5, d6_colour="off")).d6_colour is False
    assert _config(argparse.Namespace(kinds=None, threshold=None, d6_colour="on")).d6_colour is True
    assert _config(argparse.Namespace(kinds=None, threshold=None, d6_colour=None)).d6_colour is DiceConfig().d6_colour


def test_under_32_px_the_colour_reader_reads_an_unsure_die_only_with_the_pip_counter() -> None:
    # a small box may be a fragment of a die the frame's edge cuts (a pip, a corner)
    def small(pips: int | None) -> D6Evidence:
        return D6Evidence((0, 0, 24, 24), 1.0, np.zeros(6, np.float32), _probs(4, 0.7), np.zeros(96, np.float32),
                          pips, 24.0, True, colour=_probs(4, 0.99))
    assert colour_verdict(small(None), 4, False, CFG) == (4, False)
    assert colour_verdict(small(5), 4, False, CFG) == (4, False)
    assert colour_verdict(small(4), 4, False, CFG) == (4, True)


def test_the_shipped_colour_reader_reads_rendered_colour_dice() -> None:
    # rendered colour, marbled and translucent dice of 50-90 px (a seed never trained on):
    # its top value is right for most of them
    if not d6colour.colour_path().is_file():
        pytest.skip(f"{d6colour.colour_path()} is not shipped in this checkout")
    from vision.synthetic import d6_3d

    rng = np.random.default_rng(5)
    right = total = 0
    for _ in range(4):
        frame, truths = d6_3d.render_scene(rng, size=(320, 320), die_px=(50.0, 90.0))
        boxes = [(float(t.box[0]), float(t.box[1]), float(t.box[2]), float(t.box[3])) for t in truths]
        p = d6colour.read_colour(frame, boxes)
        right += sum(int(q.argmax()) + 1 == t.value for t, q in zip(truths, p, strict=True))
        total += len(truths)
    assert total >= 10 and right >= 0.8 * total


def test_the_agreement_threshold_is_the_size_bands_own_where_one_is_given() -> None:
    def die(side: float, colour: float) -> D6Evidence:
        return D6Evidence((0, 0, side, side), 1.0, np.zeros(6, np.float32), _probs(3, 0.7), np.zeros(96, np.float32),
                          None, side, True, colour=_probs(3, colour))
    bands = replace(CFG, d6_colour_agree=0.9, d6_colour_agree_bands=((">=48", 0.8), ("32-48", 0.99)))
    assert colour_verdict(die(60, 0.85), 3, False, bands) == (3, True)
    assert colour_verdict(die(60, 0.85), 3, False, replace(bands, d6_colour_agree_bands=())) == (3, False)
    # 32-48 px needs its own, stricter threshold; a band not listed keeps d6_colour_agree
    assert colour_verdict(die(40, 0.95), 3, False, bands) == (3, False)
    assert colour_verdict(die(40, 0.995), 3, False, bands) == (3, True)
    assert colour_verdict(die(40, 0.95), 3, False, replace(bands, d6_colour_agree_bands=((">=48", 0.8),))) == (3, True)


def _near_edge(head: np.ndarray, colour: np.ndarray) -> D6Evidence:
    return D6Evidence((2.0, 100.0, 60.0, 60.0), 1.0, np.zeros(6, np.float32), head, np.zeros(96, np.float32),
                      None, 60.0, False, colour=colour, near_edge=True)


def test_a_die_near_the_edge_is_read_only_when_head_and_colour_reader_are_both_sure_of_it() -> None:
    cfg = replace(CFG, d6_colour_near=0.9)
    assert colour_verdict(_near_edge(_probs(2, 0.95), _probs(2, 0.93)), 2, False, cfg) == (2, True)
    # one of them only fairly sure, or the two naming different values: unsure
    assert colour_verdict(_near_edge(_probs(2, 0.85), _probs(2, 0.99)), 2, False, cfg)[1] is False
    assert colour_verdict(_near_edge(_probs(2, 0.99), _probs(2, 0.85)), 2, False, cfg)[1] is False
    assert colour_verdict(_near_edge(_probs(2, 0.95), _probs(5, 0.99)), 2, False, cfg)[1] is False


def test_the_pass_judges_a_die_near_the_edge_the_first_look_left_unsure_with_both_readers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.synthetic.dice import render_dice_scene

    img, truths = render_dice_scene(np.random.default_rng(1), (640, 480), n_dice=1, kinds=("d6",),
                                    die_px=(60.0, 60.0))
    x = int(truths[0].box[0])
    frame = np.ascontiguousarray(img[:, x - 12:])  # the die 12 px from the left edge: near it, not cut
    five = CLASSES.index("d6:5")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(five, 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "with_face_readers", lambda grey, boxes, p, *a, **k: p)  # the classifier alone
    monkeypatch.setattr(reader, "read_d6", _head_says(5, 0.97))
    cfg = replace(CFG, kinds=("d6",), d6_colour_near=0.9)
    first = reader.read_dice(frame, config=replace(cfg, d6_colour=False)).dice[0]
    assert first.status == "unsure"
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(_colour_says(5, 0.95)))
    obs, ev = reader.read_dice_evidence(frame, None, cfg)
    assert ev[0] is not None and ev[0].near_edge and not ev[0].eligible
    assert (obs.dice[0].status, obs.dice[0].value) == ("read", 5)
    # the colour reader naming another value, or the rule off: the die stays unsure
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(_colour_says(3, 0.95)))
    assert reader.read_dice(frame, config=cfg).dice[0].status == "unsure"
    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(_colour_says(5, 0.95)))
    assert reader.read_dice(frame, config=replace(cfg, d6_colour_near=2.0)).dice[0].status == "unsure"


def test_two_witnesses_leaning_the_same_way_read_an_unsure_colour_die_by_their_product() -> None:
    from vision.dice.reader import colour_product

    head, colour = _probs(4, 0.85), _probs(4, 0.85)
    q = colour_product(head, colour)
    assert abs(float(q.sum()) - 1.0) < 1e-5 and int(np.argmax(q)) == 3 and q[3] > 0.99
    cfg = replace(CFG, d6_colour_agree=2.0, d6_colour_alone=2.0, d6_colour_product=0.99)
    # neither is sure alone; together they are
    assert colour_verdict(_evidence(head, colour, 80.0), 4, False, cfg) == (4, True)
    # the rule off, or the two leaning to different values: unsure
    assert colour_verdict(_evidence(head, colour, 80.0), 4, False, replace(cfg, d6_colour_product=2.0))[1] is False
    assert colour_verdict(_evidence(head, _probs(2, 0.85), 80.0), 4, False, cfg)[1] is False
    # a near-certain head carries the product whatever the colour reader says: both must name
    # the value first
    sure_head = _probs(6, 0.9999)
    leaning_other = np.array([0.02, 0.6, 0.02, 0.02, 0.02, 0.32], np.float32)
    assert int(np.argmax(colour_product(sure_head, leaning_other))) == 5
    assert colour_verdict(_evidence(sure_head, leaning_other, 80.0), 6, False, cfg)[1] is False
    # a grey crop (a grey photo, a white or black die): the grey looks see as much; no product
    assert colour_verdict(_evidence(head, colour, 5.0), 4, False, cfg)[1] is False


def test_a_grey_die_needs_the_grey_agreement_threshold() -> None:
    cfg = replace(CFG, d6_colour_agree=0.9, d6_colour_agree_grey=0.97, d6_colour_alone=2.0)
    head = _probs(3, 0.7)
    assert colour_verdict(_evidence(head, _probs(3, 0.95), 80.0), 3, False, cfg) == (3, True)
    assert colour_verdict(_evidence(head, _probs(3, 0.95), 0.0), 3, False, cfg)[1] is False
    assert colour_verdict(_evidence(head, _probs(3, 0.98), 0.0), 3, False, cfg) == (3, True)


def test_chroma_is_zero_for_grey_crops_and_high_for_a_colour_die() -> None:
    from vision.dice.d6colour import colour_chroma

    grey = np.full((100, 100, 3), 128, np.uint8)
    red = grey.copy()
    cv2.rectangle(red, (30, 30), (70, 70), (40, 40, 200), -1)
    white = grey.copy()
    cv2.rectangle(white, (30, 30), (70, 70), (235, 235, 232), -1)
    box = [(30.0, 30.0, 40.0, 40.0)]
    assert colour_chroma(grey, box)[0] == 0
    assert colour_chroma(white, box)[0] < DiceConfig().d6_colour_min_chroma
    assert colour_chroma(red, box)[0] > 100


def test_the_product_rule_reads_only_square_boxes_of_32_px_and_more() -> None:
    cfg = replace(CFG, d6_colour_agree=2.0, d6_colour_alone=2.0, d6_colour_veto=2.0, d6_colour_product=0.99)
    head, colour = _probs(4, 0.9), _probs(4, 0.9)
    slanted = replace(_evidence(head, colour, 80.0), box=(0, 0, 60, 40))
    assert colour_verdict(slanted, 4, False, cfg)[1] is False
    small = replace(_evidence(head, colour, 80.0), box=(0, 0, 28, 28), side=28.0, pips=4)
    assert colour_verdict(small, 4, False, cfg)[1] is False
    assert colour_verdict(_evidence(head, colour, 80.0), 4, False, cfg) == (4, True)
    # a die the grey looks read is never read another way by it
    assert colour_verdict(_evidence(head, _probs(2, 0.999), 80.0), 4, True, cfg) == (4, True)


def test_by_default_a_colour_die_both_lean_to_is_read_and_a_grey_one_is_not() -> None:
    cfg = DiceConfig()
    head, colour = _probs(5, 0.88), _probs(5, 0.88)  # neither reaches the agreement threshold (0.9)
    assert colour_verdict(_evidence(head, colour, 60.0), 5, False, cfg) == (5, True)
    assert colour_verdict(_evidence(head, colour, 3.0), 5, False, cfg) == (5, False)
    # leaning less, together they stay under 0.99: unsure
    assert colour_verdict(_evidence(_probs(5, 0.7), _probs(5, 0.7), 60.0), 5, False, cfg)[1] is False


def test_a_colour_reader_without_features_reads_as_before_and_says_how_to_add_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    onnx = pytest.importorskip("onnx", reason="onnx is a dev dependency: pip install -e '.[dev]'")

    # the shipped network as exported before its features output
    m = onnx.load(str(d6colour.colour_path()))
    keep = [o for o in m.graph.output if o.name != "features"]
    del m.graph.output[:]
    m.graph.output.extend(keep)
    old = tmp_path / "d6_colour.onnx"
    onnx.save(m, str(old))
    assert d6colour.has_features()
    x = np.random.default_rng(0).random((2, 3, 80, 80)).astype(np.float32) * 255
    p_new, _ = d6colour.colour_and_features(x)
    monkeypatch.setattr(d6colour, "colour_path", lambda: old)
    assert not d6colour.has_features()
    with pytest.raises(ModelMissingError, match="train_d6_colour.py outputs"):
        d6colour.colour_and_features(x)
    # its readings are those of the network with the output
    assert np.array_equal(load_net(old).run(x), p_new)
