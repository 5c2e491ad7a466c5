"""A closer look (``vision.dice.closer``): dice a frame leaves unsure, read again in a still of
the same view at a higher resolution; and the settler taking one before it reports a roll."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.dice.closer as closer
from hardware.camera import Still, still_taker
from vision.dice import DiceConfig, DiceObservation, DiceSettler, DieReading
from vision.dice.closer import look_closer, region_in_still
from vision.dice.settle import SettleConfig
from vision.synthetic.dice import RollingDiceSource

BLANK = np.zeros((720, 1280, 3), np.uint8)


def _die(box: tuple[int, int, int, int], status: str, value: int | None, guess: int | None = None,
         kind: str = "d20", confidence: float = 0.5) -> DieReading:
    return DieReading(box, kind, "white", value, confidence, status,
                      guess if guess is not None else value)


def _obs(*dice: DieReading) -> DiceObservation:
    status = "ok" if all(d.status == "read" for d in dice) else "unsure"
    return DiceObservation(tuple(dice), status, "" if status == "ok" else "1 unsure: please confirm")


def _still_reads(monkeypatch: pytest.MonkeyPatch, obs: DiceObservation, seen: list | None = None) -> None:  # type: ignore[type-arg]
    def read(image, region=None, config=None):  # type: ignore[no-untyped-def]
        if seen is not None:
            seen.append((image.shape, region))
        return obs
    monkeypatch.setattr(closer, "read_dice", read)


def _looked(monkeypatch: pytest.MonkeyPatch, frame: DiceObservation, *still: DieReading) -> DiceObservation:
    """``frame`` looked at closer in a still twice its size whose reader sees ``still``."""
    _still_reads(monkeypatch, _obs(*still))
    return look_closer(frame, Still(BLANK, (2.0, 2.0)))


def test_an_unsure_die_the_still_reads_is_read_in_the_frame_box(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _obs(_die((100, 100, 30, 30), "unsure", None, guess=7),
                 _die((300, 100, 30, 30), "read", 12, confidence=0.99))
    # the still is twice the size: its boxes are twice the frame's
    out = _looked(monkeypatch, frame, _die((200, 200, 60, 60), "read", 17, confidence=0.995),
                  _die((600, 200, 60, 60), "read", 12, confidence=0.999))
    assert out.status == "ok" and out.message == ""
    first = out.dice[0]
    assert (first.value, first.status, first.guess, first.box) == (17, "read", 17, (100, 100, 30, 30))
    assert first.confidence == pytest.approx(0.995)
    assert out.dice[1] == frame.dice[1]


def test_a_die_both_looks_doubt_keeps_its_doubt_with_the_still_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _obs(_die((100, 100, 30, 30), "unsure", None, guess=7))
    out = _looked(monkeypatch, frame, _die((200, 200, 60, 60), "unsure", None, guess=1))
    assert out.status == "unsure" and "1 unsure" in out.message
    assert (out.dice[0].value, out.dice[0].status, out.dice[0].guess) == (None, "unsure", 1)


def test_two_looks_that_disagree_are_not_a_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _obs(_die((100, 100, 30, 30), "unsure", None, guess=7),
                 _die((300, 100, 30, 30), "read", 12, confidence=0.99))
    out = _looked(monkeypatch, frame, _die((200, 200, 60, 60), "read", 7, confidence=0.99),
                  _die((600, 200, 60, 60), "read", 15, confidence=0.995))
    assert out.dice[0].value == 7
    assert (out.dice[1].value, out.dice[1].status, out.dice[1].guess) == (None, "unsure", 15)
    assert out.status == "unsure"


def test_cocked_dice_dice_only_the_still_sees_and_a_bad_still_change_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _obs(_die((100, 100, 30, 30), "cocked", None), _die((300, 100, 30, 30), "unsure", None, guess=3))
    # the still reads a die where the cocked one lies, and one the frame never found
    _still_reads(monkeypatch, _obs(_die((200, 200, 60, 60), "read", 5), _die((900, 900, 60, 60), "read", 9)))
    out = look_closer(frame, Still(BLANK, (2.0, 2.0)))
    assert out.dice == frame.dice and len(out.dice) == 2
    _still_reads(monkeypatch, DiceObservation((), "error", "frame is not an image"))
    assert look_closer(frame, Still(BLANK, (2.0, 2.0))) is frame
    assert look_closer(frame, Still(BLANK, (0.0, 2.0))) is frame  # a still that cannot be placed
    cocked = _obs(_die((100, 100, 30, 30), "cocked", None))
    assert look_closer(cocked, Still(BLANK, (2.0, 2.0))) is cocked  # nothing to read again


def test_a_read_die_the_still_doubts_with_another_guess_is_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _obs(_die((100, 100, 20, 20), "read", 17, confidence=0.981),
                 _die((300, 100, 20, 20), "read", 5, confidence=0.99))
    out = _looked(monkeypatch, frame, _die((200, 200, 40, 40), "unsure", None, guess=12),
                  _die((600, 200, 40, 40), "unsure", None, guess=5))
    assert (out.dice[0].status, out.dice[0].value, out.dice[0].guess) == ("unsure", None, 12)
    assert out.dice[1] == frame.dice[1]  # the still doubts it but guesses what the frame read


def test_a_roll_is_worth_a_still_when_a_die_is_unsure_or_tiny() -> None:
    assert closer.wants_closer_look(_obs(_die((0, 0, 40, 40), "unsure", None)))
    assert closer.wants_closer_look(_obs(_die((0, 0, 20, 31), "read", 3)))
    assert not closer.wants_closer_look(_obs(_die((0, 0, 32, 32), "read", 3)))
    assert not closer.wants_closer_look(_obs(_die((0, 0, 20, 20), "read", 3)), check_below_px=0)
    assert not closer.wants_closer_look(_obs(_die((0, 0, 20, 20), "cocked", None)))


def test_the_dice_area_is_read_where_it_lies_in_the_still(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list = []  # type: ignore[type-arg]
    _still_reads(monkeypatch, DiceObservation((), "empty", "no dice in view"), seen)
    frame = _obs(_die((100, 100, 30, 30), "unsure", None))
    still = Still(BLANK, (2.0, 2.0), (-40.0, 10.0))  # a video mode that shows more of the sensor
    look_closer(frame, still, region=(50, 60, 200, 100))
    assert seen == [(BLANK.shape, (60, 130, 400, 200))]
    assert region_in_still(None, still) is None


def test_rendered_small_d20_rolls_read_in_the_still() -> None:
    # the frames show each roll's drawing shrunk to half: 18-30 px d20s a frame often leaves unsure
    def rolls(with_still: bool) -> tuple[list[DiceObservation], RollingDiceSource]:
        src = RollingDiceSource(seed=5, n_rolls=4, size=(640, 360), n_dice=2, kinds=("d20",),
                                die_px=(18, 30), still_scale=2, still_frames=8)
        settler = DiceSettler(DiceConfig(kinds=("d20",)), settle=SettleConfig(still_frames=2))
        if with_still:
            settler.closer = still_taker(src)
        got = []
        while (frame := src.read()) is not None:
            roll = settler.update(frame)
            if roll is not None:
                got.append(roll)
        return got, src

    plain, src = rolls(False)
    looked, src2 = rolls(True)
    assert len(plain) == len(looked) == 4
    assert src2.rolls == src.rolls  # taking stills does not change what the frames show

    def count(got: list[DiceObservation]) -> tuple[int, int]:
        right = wrong = 0
        for roll, truth in zip(got, src.rolls, strict=True):
            values = sorted(t.value for t in truth)
            for d in roll.dice:
                if d.status == "read":
                    right += d.value in values
                    wrong += d.value not in values
        return right, wrong
    (r0, w0), (r1, w1) = count(plain), count(looked)
    assert w0 == w1 == 0
    assert r1 > r0 and r1 >= 7, (r0, r1)


def test_the_settler_reports_the_roll_when_the_still_fails_or_is_missing() -> None:
    img = np.full((360, 640, 3), 90, np.uint8)
    unsure = _obs(_die((100, 100, 30, 30), "unsure", None, guess=4, kind="d6"))

    def reader(frame, region, config):  # type: ignore[no-untyped-def]
        return unsure

    def broken() -> Still:
        raise RuntimeError("camera unplugged")

    for take, message in ((broken, "no closer look (RuntimeError: camera unplugged)"), (lambda: None, "")):
        settler = DiceSettler(reader=reader, settle=SettleConfig(still_frames=1, read_every=1),
                              closer=take)
        rolls = [r for r in (settler.update(img) for _ in range(4)) if r is not None]
        assert rolls == [unsure] and settler.message == message


def test_a_roll_read_closer_is_not_reported_again_when_the_scene_is_disturbed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    img = np.full((360, 640, 3), 90, np.uint8)
    cv2.circle(img, (300, 180), 20, (250, 250, 250), -1)
    unsure = _obs(_die((280, 160, 40, 40), "unsure", None, guess=4, kind="d6"))
    _still_reads(monkeypatch, _obs(_die((560, 320, 80, 80), "read", 4, kind="d6")))
    stills: list[int] = []

    def take() -> Still:
        stills.append(1)
        return Still(cv2.resize(img, (1280, 720)), (2.0, 2.0))

    settler = DiceSettler(reader=lambda f, r, c: unsure, settle=SettleConfig(still_frames=1, read_every=1),
                          closer=take)
    rolls = [r for r in (settler.update(img) for _ in range(3)) if r is not None]
    assert [[d.value for d in r.dice] for r in rolls] == [[4]] and stills == [1]
    # a hand passes over the dice (the still's mode switch can flicker a frame too): the same
    # dice, read the same from the frames, are not a new roll
    settler.update(np.zeros_like(img))
    again = [r for r in (settler.update(img) for _ in range(4)) if r is not None]
    assert again == [] and settler.message == "the dice have not been thrown since the last roll"
