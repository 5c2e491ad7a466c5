"""The d6 pass: a d6 is read when the d6 head is near-certain for its size, or when the head and
an independent method name the same value; the head's doubt makes a die unsure."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.dice import reader
from vision.dice.labels import CLASSES
from vision.dice.reader import D6Evidence, d6_verdict
from vision.dice.types import DiceConfig

from .fixed_answers import (
    classifier_says,
    grey_looks_unsure,
    head_says,
    one_die_frame,
    type_reader_undecided,
    with_chroma,
)


def _evidence(head: list[float], first: list[float], side: float = 60.0, pips: int | None = None,
              share: float = 1.0) -> D6Evidence:
    return D6Evidence((0, 0, side, side), share, np.array(first, np.float32), np.array(head, np.float32),
                      np.zeros(96, np.float32), pips, side, True)


def test_a_near_certain_head_reads_alone_within_its_size_band() -> None:
    cfg = DiceConfig(d6_read_thresholds=((">=48", 0.99), ("32-48", 0.995)), d6_pip_trust=0.0)
    sure = [0.002, 0.002, 0.992, 0.002, 0.001, 0.001]
    no_opinion = [0.0] * 6
    assert d6_verdict(_evidence(sure, no_opinion, side=60), cfg) == (3, True)
    # the same answer on a smaller die is not enough there
    assert d6_verdict(_evidence(sure, no_opinion, side=40), cfg) == (3, False)
    # nor on a die seen at a slant, whose group has no threshold here
    slanted = D6Evidence((0, 0, 60, 40), 1.0, np.zeros(6, np.float32), np.array(sure, np.float32),
                         np.zeros(96, np.float32), None, 60.0, True)
    assert d6_verdict(slanted, cfg) == (3, False)


def test_two_methods_naming_one_value_read_it_and_disagreeing_ones_do_not() -> None:
    cfg = DiceConfig(d6_read_thresholds=((">=48", 0.99),), d6_pip_trust=0.9)
    head = [0.01, 0.01, 0.01, 0.01, 0.93, 0.03]
    assert d6_verdict(_evidence(head, [0, 0, 0, 0.05, 0.95, 0]), cfg) == (5, True)
    assert d6_verdict(_evidence(head, [0, 0, 0, 0.95, 0.05, 0]), cfg) == (5, False)
    # the first reading agrees but the classifier doubts it is a d6 at all
    assert d6_verdict(_evidence(head, [0, 0, 0, 0.05, 0.95, 0], share=0.6), cfg) == (5, False)
    # the pip counter is the other method
    assert d6_verdict(_evidence(head, [0.0] * 6, pips=5), cfg) == (5, True)
    assert d6_verdict(_evidence(head, [0.0] * 6, pips=4), cfg) == (5, False)


def test_a_die_the_first_look_read_stays_read_only_while_the_head_agrees() -> None:
    cfg = DiceConfig()
    read_four = D6Evidence((0, 0, 60, 60), 1.0, np.zeros(6, np.float32),
                           np.array([0, 0, 0, 0.6, 0.4, 0], np.float32), np.zeros(96, np.float32),
                           None, 60.0, True, first_value=4)
    assert d6_verdict(read_four, cfg) == (4, True)
    doubted = D6Evidence((0, 0, 60, 60), 1.0, np.zeros(6, np.float32),
                         np.array([0, 0, 0, 0.4, 0.6, 0], np.float32), np.zeros(96, np.float32),
                         None, 60.0, True, first_value=4)
    assert d6_verdict(doubted, cfg) == (5, False)


def test_the_heads_doubt_makes_a_die_the_first_look_read_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    six = CLASSES.index("d6:6")
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(six, 0.9999))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    frame = one_die_frame("d6")
    # the grey looks alone: the colour reader (a third witness) reads this rendered 2 itself
    cfg = DiceConfig(kinds=("d6",), d6_colour=False)
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.6))
    die = reader.read_dice(frame, config=cfg).dice[0]
    assert (die.status, die.value, die.guess) == ("unsure", None, 2)
    # with the pass off the first look stands
    off = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_head=False)).dice[0]
    assert (off.status, off.value) == ("read", 6)


def test_a_die_the_first_look_doubted_is_read_when_the_head_names_its_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the rendered die shows 2; the classifier is fixed at 0.6 on "6" for every crop, so the
    # d6 face reader's sure 2 gets only the classifier's d6 share (0.63): unsure at first
    grey_looks_unsure(monkeypatch)
    frame = one_die_frame("d6")
    cfg = DiceConfig(kinds=("d6",))
    off = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_head=False)).dice[0]
    assert (off.status, off.guess) == ("unsure", 2)
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.9999))
    die = reader.read_dice(frame, config=cfg).dice[0]
    assert (die.status, die.value) == ("read", 2)
    # a head that names another value, however sure, leaves it unsure: the methods disagree
    monkeypatch.setattr(reader, "read_d6", head_says(6, 0.9999))
    die = reader.read_dice(frame, config=cfg).dice[0]
    assert (die.status, die.value, die.guess) == ("unsure", None, 6)


def test_a_box_under_32_px_is_read_by_the_pass_only_with_the_pip_counter() -> None:
    # a small box may be a fragment of a die the frame's edge cuts (a pip, a corner)
    cfg = DiceConfig(d6_read_thresholds=(("<32", 0.99),), d6_pip_trust=0.0)
    sure = [0.0, 0.0, 0.0, 0.0, 0.0, 0.9999]
    assert d6_verdict(_evidence(sure, [0.0] * 6, side=20), cfg) == (6, False)
    assert d6_verdict(_evidence(sure, [0.0] * 6, side=28, pips=6), cfg) == (6, True)
    assert d6_verdict(_evidence(sure, [0.0] * 6, side=28, pips=5), cfg) == (6, False)


def test_a_tables_tuning_reads_only_a_die_the_pass_leaves_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from vision.dice.tune import Adaptation

    # the grey looks and the table only: the colour reader would read the rendered die itself
    grey_looks_unsure(monkeypatch, head=2)
    frame = one_die_frame("d6")
    plain = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_colour=False)).dice[0]
    assert (plain.status, plain.guess) == ("unsure", 2)
    # a table whose own dice say "this is a 2" (its correction lifts 2 far above the rest)
    bias = np.zeros(6)
    bias[1] = 8.0
    table = Adaptation(np.zeros((96, 6)), bias, 40, read_at=0.99)
    tuned = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_colour=False, d6_table=table)).dice[0]
    assert (tuned.status, tuned.value) == ("read", 2)
    # without a read threshold yet the table changes nothing
    none_yet = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_colour=False, d6_table=replace(table, read_at=None))).dice[0]
    assert (none_yet.status, none_yet.value, none_yet.guess) == ("unsure", None, 2)
    # a die the pass reads is never changed by the table: one the table calls a 3 stays a 2
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.9999))
    bias3 = np.zeros(6)
    bias3[2] = 20.0
    kept = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_colour=False, d6_table=replace(table, bias=bias3))).dice[0]
    assert (kept.status, kept.value) == ("read", 2)


def test_a_whole_die_near_the_edge_is_tunable_only_with_a_clear_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    grey = np.zeros((480, 640), np.uint8)
    cfg = DiceConfig()  # a tenth of the die's side clear of every edge
    assert reader.tunable_near_edge(grey, (7.0, 200.0, 60.0, 60.0), cfg)
    assert not reader.tunable_near_edge(grey, (5.0, 200.0, 60.0, 60.0), cfg)  # within 6 px of the left edge
    assert not reader.tunable_near_edge(grey, (300.0, 200.0, 60.0, 60.0 + 218.0), cfg)  # 2 px from the bottom
    assert reader.tunable_near_edge(grey, (300.0, 200.0, 60.0, 60.0), replace(cfg, tuned_edge_clear=0.5))
    assert not reader.tunable_near_edge(grey, (20.0, 200.0, 60.0, 60.0), replace(cfg, tuned_edge_clear=0.5))
    assert not reader.tunable_near_edge(grey, (300.0, 200.0, 60.0, 60.0), replace(cfg, tuned_edge_clear=-1.0))
    # the box clear of the edge but the silhouette cut by it (a box that stops short of a cut die)
    bgr = np.zeros((480, 640, 3), np.uint8)
    monkeypatch.setattr(reader, "visible_share", lambda image, box: 0.5)
    assert not reader.tunable_near_edge(bgr, (10.0, 200.0, 60.0, 60.0), cfg)
    monkeypatch.setattr(reader, "visible_share", lambda image, box: 0.95)
    assert reader.tunable_near_edge(bgr, (10.0, 200.0, 60.0, 60.0), cfg)


def test_a_tables_tuning_reads_a_whole_die_near_the_edge_the_pass_leaves_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from vision.dice.tune import Adaptation
    from vision.synthetic.dice import render_dice_scene

    img, truths = render_dice_scene(np.random.default_rng(1), (640, 480), n_dice=1, kinds=("d6",),
                                    die_px=(60.0, 60.0))
    x = int(truths[0].box[0])
    frame = np.ascontiguousarray(img[:, x - 12:])  # the die 12 px from the left edge: near it, not cut
    grey_looks_unsure(monkeypatch)
    monkeypatch.setattr(reader, "with_face_readers", lambda grey, boxes, p, *a, **k: p)  # the classifier alone
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.6))
    cfg = DiceConfig(kinds=("d6",), d6_colour=False)
    plain, ev = reader.read_dice_evidence(frame, None, cfg)
    assert plain.dice[0].status == "unsure" and plain.dice[0].guess == 6  # the first look's guess
    assert ev[0] is not None and not ev[0].eligible and ev[0].tunable
    bias = np.zeros(6)
    bias[1] = 8.0
    table = Adaptation(np.zeros((96, 6)), bias, 40, read_at=0.99)
    tuned = reader.read_dice(frame, config=replace(cfg, d6_table=table)).dice[0]
    assert (tuned.status, tuned.value) == ("read", 2)
    # the rule off, or the table short of its threshold: the first look stands, guess and all
    off = reader.read_dice(frame, config=replace(cfg, d6_table=table, tuned_edge_clear=-1.0)).dice[0]
    assert (off.status, off.guess) == ("unsure", 6)
    short = reader.read_dice(frame, config=replace(cfg, d6_table=replace(table, read_at=0.99999))).dice[0]
    assert (short.status, short.guess) == ("unsure", 6)
    # a margin wider than the die's distance from the edge: not the table's to read
    wide = reader.read_dice(frame, config=replace(cfg, d6_table=table, tuned_edge_clear=0.5)).dice[0]
    assert wide.status == "unsure"


def test_the_colour_reader_cannot_read_a_die_near_the_edge_that_only_the_table_may_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.dice.tune import Adaptation
    from vision.synthetic.dice import render_dice_scene

    img, truths = render_dice_scene(np.random.default_rng(1), (640, 480), n_dice=1, kinds=("d6",),
                                    die_px=(60.0, 60.0))
    frame = np.ascontiguousarray(img[:, int(truths[0].box[0]) - 12:])
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(CLASSES.index("d6:6"), 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "count_pips", lambda *a, **k: None)
    monkeypatch.setattr(reader, "with_face_readers", lambda grey, boxes, p, *a, **k: p)
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.6))
    asked: list[int] = []

    def colour_sure_of_2(image: np.ndarray, boxes: list[object]) -> np.ndarray:
        asked.append(len(boxes))
        q = np.full((len(boxes), 6), 0.002, np.float32)
        q[:, 1] = 0.99
        return q

    monkeypatch.setattr(reader, "read_colour_and_chroma", with_chroma(colour_sure_of_2))
    bias = np.zeros(6)
    bias[1] = 8.0
    short = Adaptation(np.zeros((96, 6)), bias, 40, read_at=0.99999)  # the table does not reach it
    d = reader.read_dice(frame, config=DiceConfig(kinds=("d6",), d6_table=short)).dice[0]
    assert (d.status, d.guess) == ("unsure", 6) and asked == []


def test_a_tables_colour_memory_reads_only_an_unsure_die_that_every_witness_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from vision.dice.d6colour import fingerprint
    from vision.dice.tune import Adaptation, ColourMemory, unit

    grey_looks_unsure(monkeypatch, head=2)
    look = unit(np.random.default_rng(3).normal(0, 1, (1, 128)))
    asked: list[int] = []

    def colour_says(value: int) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
        def fake(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            asked.append(len(x))
            p = np.full((len(x), 6), 0.06, np.float32)
            p[:, value - 1] = 0.7
            return p, np.repeat(look, len(x), axis=0)
        return fake

    monkeypatch.setattr(reader, "colour_and_features", colour_says(2))
    frame = one_die_frame("d6")
    cfg = DiceConfig(kinds=("d6",), d6_colour=False)
    plain = reader.read_dice(frame, config=cfg).dice[0]
    assert (plain.status, plain.guess) == ("unsure", 2) and not asked  # untuned: never asked
    # a table whose dice that look like this were 2s: the colour memory, the colour reader and the
    # grey reading all name 2, so it is read (the grey memory has no threshold yet)
    twos = ColourMemory(np.repeat(look, 8, axis=0), np.full(8, 2), read_at=0.9, network=fingerprint())
    table = Adaptation(np.zeros((96, 6)), np.zeros(6), 8, unit(np.ones((8, 96))), np.full(8, 2), None, colour=twos)
    tuned = reader.read_dice(frame, config=replace(cfg, d6_table=table)).dice[0]
    assert (tuned.status, tuned.value) == ("read", 2) and asked == [1]
    # a memory another colour d6 reader made (a retrained one) is not used: tune again
    asked.clear()
    stale = replace(table, colour=replace(twos, network="0123456789abcdef"))
    assert reader.read_dice(frame, config=replace(cfg, d6_table=stale)).dice[0].status == "unsure" and not asked
    # the memory says 5: the witnesses disagree and the die stays unsure, its guess as before
    fives = replace(table, colour=replace(twos, values=np.full(8, 5)))
    doubt = reader.read_dice(frame, config=replace(cfg, d6_table=fives)).dice[0]
    assert (doubt.status, doubt.guess) == ("unsure", 2)
    # the colour reader says 4: unsure too
    monkeypatch.setattr(reader, "colour_and_features", colour_says(4))
    assert reader.read_dice(frame, config=replace(cfg, d6_table=table)).dice[0].status == "unsure"
    # no threshold chosen for the colour memory: nothing changes, and the network is not asked
    asked.clear()
    monkeypatch.setattr(reader, "colour_and_features", colour_says(2))
    none_yet = replace(table, colour=replace(twos, read_at=None))
    assert reader.read_dice(frame, config=replace(cfg, d6_table=none_yet)).dice[0].status == "unsure"
    assert not asked
    # a die the pass reads is never changed: one every colour witness calls a 3 stays a 2
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.9999))
    monkeypatch.setattr(reader, "colour_and_features", colour_says(3))
    threes = replace(table, colour=replace(twos, values=np.full(8, 3)))
    kept = reader.read_dice(frame, config=replace(cfg, d6_table=threes)).dice[0]
    assert (kept.status, kept.value) == ("read", 2)
