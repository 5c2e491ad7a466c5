"""The table's own dice at the kiosk: every confirmed roll is kept as a labelled example (off
the frame loop, opt-out, capped, a failing store never costs the game), "Tune dice to this
table" and "Show me each face" are in the referee menu, and both read at 1280x720 and 800x480
(PNG frames in out/kiosk-tests)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from test_readable import assert_readable
from test_screens import FakeFeed, thumb

from companion.kiosk.dice_flow import DiceSeen
from companion.kiosk.dice_learning import DiceLearner, FaceSetup, RollCrops, TunePad, cut_roll
from companion.kiosk.headless import render_one
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.kiosk.table_feed import TableReading
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT, Input, InputKind
from vision.dice.tune import ExampleStore

SIZES = [(1280, 720), (800, 480)]


class Feed(FakeFeed):
    """The screens' fake camera, remembering which dice it was told to expect."""

    def __init__(self, readings: list[TableReading] | None = None) -> None:
        super().__init__(readings)
        self.expected_dice: list[tuple[int, ...] | None] = []

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        self.expected_dice.append(None if sides is None else tuple(sides))


def crops(n: int, seed: int = 0, colour: bool = False) -> RollCrops:
    rng = np.random.default_rng(seed)
    colours = tuple(rng.integers(0, 255, (112, 112, 3), dtype=np.uint8) for _ in range(n)) if colour else None
    return RollCrops(tuple(rng.integers(0, 255, (64, 64), dtype=np.uint8) for _ in range(n)),
                     ("d6",) * n, (4, None)[:n], colours)


def settled(values: tuple[int | None, ...], roll: RollCrops | None) -> TableReading:
    seen = DiceSeen(values, "ok" if None not in values else "unsure", "", 0.0,
                    tuple(v or 3 for v in values), roll)
    return TableReading(1, thumb(), settled=seen)


def wait_until(check: object, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.02)


def test_a_confirmed_roll_is_kept_with_the_values_confirmed_and_shown(midgame: Session, tmp_path: Path) -> None:
    learner = DiceLearner(tmp_path / "ex")
    screen = GameScreen(midgame, Feed([settled((4, None), crops(2))]), (1280, 720), learner=learner)
    screen.update(0)
    screen.handle(CONFIRM)  # check the values: the unsure die starts from the guess (3)
    screen.handle(CONFIRM)
    screen.handle(NEXT)  # the person corrects it to 4
    screen.handle(CONFIRM)
    assert midgame.lines == ["Ann roll 4 4"]
    assert learner.wait(5.0)
    ex = ExampleStore(tmp_path / "ex").examples()
    assert [(e.die, e.kind, e.value, e.shown) for e in ex] == [(0, "d6", 4, 4), (1, "d6", 4, None)]


def test_learning_off_keeps_nothing(midgame: Session, tmp_path: Path) -> None:
    learner = DiceLearner(tmp_path / "ex", enabled=False)
    screen = GameScreen(midgame, Feed([settled((4, 2), crops(2))]), (1280, 720), learner=learner)
    screen.update(0)
    screen.handle(CONFIRM)
    assert midgame.lines == ["Ann roll 4 2"]
    assert learner.wait(5.0) and not (tmp_path / "ex").exists()


def test_a_store_that_cannot_be_written_says_so_and_the_roll_still_counts(midgame: Session, tmp_path: Path) -> None:
    (tmp_path / "ex").write_text("a file where the folder should be")
    learner = DiceLearner(tmp_path / "ex")
    feed = Feed([settled((4, 2), crops(2))])
    screen = GameScreen(midgame, feed, (1280, 720), learner=learner)
    screen.update(0)
    screen.handle(CONFIRM)
    assert midgame.lines == ["Ann roll 4 2"]  # the game went on
    learner.wait(5.0)
    screen.update(0.1)
    assert any("no longer kept" in b.text and "examples folder" in b.text for b in screen.banners)
    assert not learner.enabled


def test_the_store_is_capped_oldest_rolls_first(tmp_path: Path) -> None:
    learner = DiceLearner(tmp_path / "ex", max_mb=0.02)  # about four rolls of two dice
    for k in range(12):
        assert learner.keep(crops(2, seed=k), (k % 6 + 1, 2))
    assert learner.wait(10.0)
    rolls = sorted({e.roll for e in ExampleStore(tmp_path / "ex").examples()})
    assert 0 < len(rolls) < 12 and rolls[-1] == 12
    assert sum(p.stat().st_size for p in (tmp_path / "ex").iterdir()) <= 20_000


def test_crops_are_cut_from_the_frame_with_kind_and_shown_value() -> None:
    class Die:
        def __init__(self, box: tuple[int, int, int, int], value: int | None, kind: str) -> None:
            self.box, self.value, self.kind = box, value, kind
            self.status = "read" if value else "unsure"

    frame = np.zeros((200, 300, 3), np.uint8)
    frame[50:110, 40:100] = 255
    roll = cut_roll(frame, [Die((40, 50, 60, 60), 5, "d6"), Die((150, 50, 40, 40), None, "d20")])
    assert roll is not None and roll.kinds == ("d6", "d20") and roll.shown == (5, None)
    assert roll.crops[0].shape == (64, 64) and roll.crops[0].mean() > 200
    assert roll.colours is not None and roll.colours[0] is not None
    assert roll.colours[0].shape == (112, 112, 3) and roll.colours[0][56, 56].tolist() == [255, 255, 255]
    assert cut_roll(frame, []) is None
    grey = cut_roll(frame[:, :, 0], [Die((40, 50, 60, 60), 5, "d6")])  # a grey camera: no colour crop
    assert grey is not None and grey.colours is None and grey.crops[0].mean() > 200


def _referee_to(screen: GameScreen, label: str) -> None:
    screen.handle(Input(InputKind.BACK, held=True))  # the referee menu from anywhere
    menu = screen.top
    texts = [r.text for r in menu.rows()]
    target = next(i for i, t in enumerate(texts) if t.startswith(label))
    for _ in range(target - next(i for i, r in enumerate(menu.rows()) if r.selected)):
        screen.handle(NEXT)
    screen.handle(CONFIRM)


@pytest.mark.parametrize("size", SIZES)
def test_tune_to_this_table_from_the_referee_menu(midgame: Session, tmp_path: Path, size: tuple[int, int],
                                                   png_dir: Path) -> None:
    learner = DiceLearner(tmp_path / "ex")
    store = ExampleStore(tmp_path / "ex")
    rng = np.random.default_rng(5)
    for k in range(12):
        v = k % 6 + 1
        store.add_crops([rng.integers(0, 255, (64, 64), dtype=np.uint8)], [v], ["d6"], [v])
    feed = Feed([])
    screen = GameScreen(midgame, feed, size, learner=learner)
    screen.update(0)
    _referee_to(screen, "Dice: tune to this table")
    pad = screen.top
    assert isinstance(pad, TunePad)
    painter = render_one(screen, size, png_dir / f"dice-tune-running-{size[0]}x{size[1]}.png")
    wait_until(lambda: pad.done)
    painter = render_one(screen, size, png_dir / f"dice-tune-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    assert_readable(painter, size)
    text = " ".join(painter.texts("decision"))
    assert "Learned from 12 confirmed d6 in 12 rolls" in text, text
    assert "held back" in text and "CONFIRM: use it" in text
    screen.handle(CONFIRM)
    assert pad.applied and (tmp_path / "ex" / "adaptation.npz").is_file()


@pytest.mark.parametrize("size", SIZES)
def test_show_me_each_face_of_a_d20_keeps_each_face_in_turn(midgame: Session, tmp_path: Path,
                                                             size: tuple[int, int], png_dir: Path) -> None:
    learner = DiceLearner(tmp_path / "ex")
    feed = Feed([])
    expected = feed.expected_dice
    screen = GameScreen(midgame, feed, size, learner=learner)
    screen.update(0)
    _referee_to(screen, "Dice: show me each face")
    screen.handle(NEXT)  # d6 -> d20
    screen.handle(CONFIRM)
    setup = screen.top
    assert isinstance(setup, FaceSetup) and setup.faces == 20 and expected[-1] == (20,)
    screen.handle(CONFIRM)  # nothing settled yet: not kept
    assert not setup.kept and "Wait until" in setup.note
    for face in (1, 2, 3):
        feed.readings.append(settled((face,), crops(1, seed=face, colour=True)))
        screen.update(0.1)
        if face == 3:
            painter = render_one(screen, size, png_dir / f"dice-faces-{size[0]}x{size[1]}.png")
            assert isinstance(painter, Painter)
            assert_readable(painter, size)
            text = " ".join(painter.texts("decision"))
            assert "with 3 up" in text and "Camera: reads 3" in text and "Kept: 2 of 20" in text
        screen.handle(CONFIRM)
    assert setup.kept == {1, 2, 3} and setup.face == 4
    screen.handle(NEXT)  # skip 4
    assert setup.face == 5
    learner.wait(5.0)
    ex = ExampleStore(tmp_path / "ex").examples()
    assert [(e.kind, e.value) for e in ex] == [("d20", 1), ("d20", 2), ("d20", 3)]
    colour, kept = ExampleStore(tmp_path / "ex").load_colour("d20")  # each face with its colour crop
    assert [e.value for e in kept] == [1, 2, 3]
    shown = crops(1, seed=3, colour=True).colours
    assert shown is not None and np.array_equal(colour[2], np.asarray(shown[0]))
    screen.handle(BACK)  # done: back to the game's roll
    assert screen.dice_entry() is not None


def test_leaving_the_face_set_up_with_back_held_gives_the_camera_the_games_dice_again(
        midgame: Session, tmp_path: Path) -> None:
    feed = Feed([])
    expected = feed.expected_dice
    screen = GameScreen(midgame, feed, (1280, 720), learner=DiceLearner(tmp_path / "ex"))
    screen.update(0)
    screen.command("dice_faces:d20")
    assert expected == [(6, 6), (20,)]
    screen.handle(Input(InputKind.BACK, held=True))  # the referee menu, from anywhere
    screen.update(0.1)
    assert expected == [(6, 6), (20,), (6, 6)]


def test_the_table_processor_cuts_a_settled_rolls_dice_and_takes_the_tables_tuning() -> None:
    from dataclasses import dataclass

    from companion.kiosk.table_feed import TableProcessor
    from vision.dice.tune import Adaptation
    from vision.dice.types import DiceConfig

    @dataclass
    class Die:
        box: tuple[int, int, int, int]
        value: int | None
        status: str
        kind: str = "d6"
        guess: int | None = None

    @dataclass
    class Obs:
        dice: tuple[Die, ...]
        status: str = "ok"
        message: str = ""

    class Settler:
        config = DiceConfig()
        state = "settled"

        def update(self, frame: object) -> Obs:
            return Obs((Die((10, 10, 40, 40), 3, "read"), Die((80, 10, 40, 40), None, "unsure", guess=2)))

        def reset(self) -> None:
            pass

    frame = np.full((120, 160, 3), 90, np.uint8)
    processor = TableProcessor(Settler(), None, thumb_width=160)
    assert processor(frame).settled.crops is None  # type: ignore[union-attr]  # learning off: nothing cut
    processor.keep_crops = True
    seen = processor(frame).settled
    assert seen is not None and isinstance(seen.crops, RollCrops)
    assert seen.crops.shown == (3, None) and len(seen.crops.crops) == 2
    table = Adaptation(np.zeros((96, 6)), np.zeros(6), 5, read_at=0.9)
    assert processor.use_table(table)
    assert processor.dice.config.d6_table is table  # type: ignore[union-attr]


def test_a_damaged_saved_tuning_is_reported_and_not_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.kiosk.cli import _table_tuning

    (tmp_path / "adaptation.npz").write_bytes(b"not an npz")
    assert _table_tuning(tmp_path) == (None, "The saved dice tuning is damaged and not used: tune again (Referee menu)")
    err = capsys.readouterr().err
    assert "dice tuning not used" in err and "dice tune' again" in err
    assert _table_tuning(tmp_path / "nothing here") == (None, "")


def test_tuning_with_no_stored_dice_says_what_to_do(tmp_path: Path) -> None:
    used: list[object] = []
    pad = TunePad(DiceLearner(tmp_path / "empty"), used.append)
    wait_until(lambda: pad.done)
    text = " ".join(r.text for r in pad.rows())
    assert text.startswith("Not tuned:") and "confirm some rolls" in text
    assert pad.handle(CONFIRM) is not None and not used  # leaves; nothing put to use


@pytest.mark.parametrize("size", SIZES)
def test_show_me_each_face_of_a_d4_goes_on_to_tuning_and_its_number_memory_is_used(
        midgame: Session, tmp_path: Path, size: tuple[int, int], png_dir: Path) -> None:
    from vision.dice.tune import Adaptation

    learner = DiceLearner(tmp_path / "ex")
    feed = Feed([])
    used: list[object] = []
    screen = GameScreen(midgame, feed, size, learner=learner)
    screen._use_table = used.append  # type: ignore[method-assign,assignment]
    screen.update(0)
    _referee_to(screen, "Dice: show me each face")
    for _ in range(2):
        screen.handle(NEXT)  # d6 -> d20 -> d4
    screen.handle(CONFIRM)
    setup = screen.top
    assert isinstance(setup, FaceSetup) and setup.kind == "d4"
    for face in (1, 2, 3, 4):
        feed.readings.append(settled((None,), crops(1, seed=10 + face, colour=True)))
        screen.update(0.1)
        screen.handle(CONFIRM)
    assert setup.finished and "CONFIRM tunes" in " ".join(r.text for r in setup.rows())
    assert learner.wait(5.0)
    screen.handle(CONFIRM)  # straight on to the tuning
    pad = screen.top
    assert isinstance(pad, TunePad)
    wait_until(lambda: pad.done)
    painter = render_one(screen, size, png_dir / f"dice-faces-tuned-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    assert_readable(painter, size)
    text = " ".join(painter.texts("decision"))
    assert "d4: learned all 4 faces" in text and "CONFIRM: use it" in text, text
    screen.handle(CONFIRM)
    assert pad.applied and len(used) == 1
    saved = Adaptation.load(tmp_path / "ex")
    assert saved is not None and set(saved.numbers) == {"d4"}


@pytest.mark.parametrize("size", SIZES)
def test_a_tuning_made_with_another_dice_reader_is_shown_and_tuning_again_replaces_it(
        midgame: Session, tmp_path: Path, size: tuple[int, int], png_dir: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.kiosk import theme
    from companion.kiosk.cli import TUNING_NOTE_SECONDS, _table_tuning
    from vision.dice.tune import STALE_KIOSK, Adaptation, grey_networks

    folder = tmp_path / "ex"
    store = ExampleStore(folder)
    rng = np.random.default_rng(5)
    for k in range(12):
        v = k % 6 + 1
        store.add_crops([rng.integers(0, 255, (64, 64), dtype=np.uint8)], [v], ["d6"], [v])
    # a tuning saved under the d6 network shipped before this one
    older = dict.fromkeys(grey_networks(), "0123456789abcdef")
    Adaptation(np.zeros((96, 6)), np.zeros(6), 12, read_at=0.9, networks=older).save(folder)
    table, note = _table_tuning(folder)
    assert table is None and note == STALE_KIOSK and "another version" in capsys.readouterr().err
    # what the kiosk's table start does with the note: the game screen shows it
    screen = GameScreen(midgame, Feed([]), size, learner=DiceLearner(folder))
    screen.flash(note, theme.WARN, TUNING_NOTE_SECONDS)
    screen.update(0)
    painter = render_one(screen, size, png_dir / f"dice-tuning-stale-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    assert_readable(painter, size)
    assert any("The dice reader was updated: tune again" in t for t in painter.texts()), painter.texts()
    # the tuning pad says what happens to it, and CONFIRM replaces it with one of the networks in place
    _referee_to(screen, "Dice: tune to this table")
    pad = screen.top
    assert isinstance(pad, TunePad)
    wait_until(lambda: pad.done)
    painter = render_one(screen, size, png_dir / f"dice-tune-replaces-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    assert_readable(painter, size)
    text = " ".join(painter.texts("decision"))
    assert "made with another version of the dice reader" in text and "CONFIRM replaces it" in text, text
    screen.handle(CONFIRM)
    saved = Adaptation.load(folder)
    assert pad.applied and saved is not None and saved.networks == grey_networks() and saved.stale() == ()
    assert "this tuning replaced it" in " ".join(r.text for r in pad.rows())
    assert note not in [b.text for b in screen.banners]  # the start's note no longer holds
