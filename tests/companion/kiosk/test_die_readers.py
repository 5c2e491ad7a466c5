"""A roll of registered die kinds (block, scatter, piecepack ...) is read by that kind's reader;
the dice pad takes the faces the die has (a piecepack die's null is 0)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from companion.core.actions import Action
from companion.core.dice import BLOCK, D6, SCATTER, DicePrompt, DieKind
from companion.kiosk import die_readers
from companion.kiosk.dice_flow import DiceEntry, DiceSeen
from companion.kiosk.table_feed import TableProcessor
from hardware.buttons import CONFIRM, NEXT, PREV


class FakeReader:
    def __init__(self, kinds: tuple[str, ...] = ()) -> None:
        self.kinds = kinds
        self.region: Any = (1, 2, 30, 40)
        self.board_to_frame: Any = None
        self.count: int | None = None
        self.frames = 0

    def update(self, frame: Any) -> None:
        self.frames += 1

    def reset(self) -> None:
        pass


def test_block_and_scatter_dice_have_a_reader_and_numbered_dice_do_not() -> None:
    assert {"block", "scatter"} <= set(die_readers.registered())
    assert die_readers.factory_for(("block", "block")) is not None
    assert die_readers.factory_for(("scatter",)) is not None
    assert die_readers.factory_for(("d6", "d6")) is None
    assert die_readers.factory_for(("block", "d6")) is None  # a mixed roll: no one reader for it
    assert die_readers.factory_for(()) is None
    with pytest.raises(ValueError, match="non-empty string"):
        die_readers.register("", FakeReader)


def test_the_kinds_reader_reads_their_roll_and_the_numbered_reader_comes_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[FakeReader] = []

    def factory(kinds: tuple[str, ...]) -> FakeReader:
        made.append(FakeReader(kinds))
        made[-1].region = None
        return made[-1]

    monkeypatch.setitem(die_readers._READERS, "block", factory)
    numbered = FakeReader()
    processor = TableProcessor(numbered, None)
    processor.expect_dice((6, 6), ("block", "block"))
    assert processor.dice is made[0] and made[0].kinds == ("block", "block")
    assert made[0].count == 2  # how many dice to find: a settled roll short of them is searched
    assert made[0].region == (1, 2, 30, 40)  # the dice area carries over
    processor(np.zeros((48, 64, 3), np.uint8))
    assert made[0].frames == 1 and numbered.frames == 0
    processor.expect_dice((6, 6), ("block", "block"))
    assert len(made) == 1  # the same roll again: the same reader
    processor.expect_dice((6,), ("d6",))
    assert processor.dice is numbered
    processor.expect_dice(None)
    assert processor.dice is numbered


def test_a_reader_that_cannot_start_leaves_the_numbered_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(kinds: tuple[str, ...]) -> FakeReader:
        raise RuntimeError("model missing")

    monkeypatch.setitem(die_readers._READERS, "scatter", broken)
    numbered = FakeReader()
    processor = TableProcessor(numbered, None)
    processor.expect_dice((8,), ("scatter",))
    assert processor.dice is numbered
    assert any("model missing" in e for e in processor.errors)


def test_the_dice_pad_knows_its_kinds_names() -> None:
    entry = DiceEntry(DicePrompt(0, (BLOCK, BLOCK, SCATTER, D6), "block"), "Ann", True, lambda v: None)  # type: ignore[arg-type,return-value]
    assert entry.kinds() == ("block", "block", "scatter", "d6")
    assert entry.sides == (6, 6, 8, 6)
    assert BLOCK.label(4) == "pushed" and SCATTER.label(2) == "up" and SCATTER.label(8) == "down-right"


@dataclass(frozen=True, slots=True)
class _Roll(Action):
    values: tuple[int, ...] = ()


PIECEPACK = DieKind("piecepack", (0, 1, 2, 3, 4, 5), ("null", "ace", "2", "3", "4", "5"))


def test_the_piecepack_die_has_its_own_reader() -> None:
    from vision.piecepack.settle import PiecepackDiceSettler

    factory = die_readers.factory_for(("piecepack", "piecepack"))
    assert factory is not None and isinstance(factory(("piecepack",)), PiecepackDiceSettler)
    assert die_readers.factory_for(("piecepack", "d6")) is None  # mixed: the numbered reader


def _entry(kind: DieKind, camera: bool = True) -> DiceEntry:
    prompt = DicePrompt(0, (kind,), "move")
    return DiceEntry(prompt, "Ann", camera, lambda v: _Roll(0, v))


def test_a_null_read_by_the_camera_is_offered_for_confirmation() -> None:
    e = _entry(PIECEPACK)
    assert e.offer(DiceSeen((0,)))
    assert e.mode == "confirm" and e.values == [0]


def test_a_d6_cannot_show_0_and_the_pad_says_so() -> None:
    e = _entry(D6)
    assert not e.offer(DiceSeen((0,)))
    assert "d6 cannot show 0" in e.problem


def test_the_buttons_step_through_a_piecepack_dies_faces_null_included() -> None:
    e = _entry(PIECEPACK, camera=False)
    assert e.values == [0]  # the first face: null
    e.handle(PREV)
    assert e.values == [5]
    e.handle(NEXT)
    assert e.values == [0]
    e.handle(NEXT)
    assert e.values == [1]
    out = e.handle(CONFIRM)
    assert out is not None and e.submitted is not None


def test_the_autopilot_plans_presses_over_the_dies_faces() -> None:
    e = _entry(PIECEPACK, camera=False)
    presses = e.plan_entry((0,))
    for p in presses:
        e.handle(p)
    assert e.submitted is not None and e.submitted == _Roll(0, (0,))


def test_a_registered_reader_keeps_its_own_settings_when_its_roll_is_expected() -> None:
    from vision.piecepack.settle import PiecepackDiceSettler

    processor = TableProcessor(FakeReader(), None)
    processor.expect_dice((5,), ("piecepack",))
    assert isinstance(processor.dice, PiecepackDiceSettler)
    assert processor.dice.config.kinds == ("die",)  # not the numbered reader's d4 ... d20


def test_coins_shown_to_the_camera_have_a_reader_of_their_own() -> None:
    from vision.piecepack.settle import PiecepackCoinSettler

    factory = die_readers.factory_for((die_readers.PIECEPACK_COIN,))
    assert factory is not None
    settler = factory((die_readers.PIECEPACK_COIN,))
    assert isinstance(settler, PiecepackCoinSettler) and settler.config.kinds == ("coin",)


@dataclass(frozen=True)
class _Die:
    value: int | None
    tag: str | None
    box: tuple[int, int, int, int] = (0, 0, 8, 8)
    status: str = "read"
    guess: int | None = None


@dataclass(frozen=True)
class _Thrown:
    dice: tuple[_Die, ...]
    status: str = "ok"
    message: str = ""


class TaggingReader:
    def update(self, frame: Any) -> _Thrown:
        return _Thrown((_Die(3, "moons"), _Die(None, None)))

    def reset(self) -> None:
        pass


def test_a_settled_reading_carries_each_dies_colour_tag() -> None:
    processor = TableProcessor(TaggingReader(), None)
    seen = processor(np.zeros((48, 64, 3), np.uint8)).settled
    assert seen is not None and seen.values == (3, None) and seen.colours == ("moons", "")


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_the_dice_pad_shows_block_and_scatter_face_names_whole(size: tuple[int, int]) -> None:
    # "defender stumbles" and "defender down" must not both shrink to "defen...": every word of
    # a face name is drawn whole inside its die, and the die's kind is named under it
    import pygame

    from companion.kiosk import theme
    from companion.kiosk.headless import init_headless
    from companion.kiosk.painter import Painter
    from companion.kiosk.views import DecisionModel, DiceModel
    from companion.kiosk.views.decision import draw

    init_headless()
    entry = DiceEntry(DicePrompt(0, (BLOCK, BLOCK, SCATTER), "block"), "Ann", True, lambda v: None)  # type: ignore[arg-type,return-value]
    entry.offer(DiceSeen((5, 6, 8)))
    assert entry.mode == "confirm"
    lay = theme.layout_for(size)
    dice = DiceModel(entry.captions(), tuple(entry.values), entry.labels(), entry.mode, 0)
    painter = Painter()
    painter.begin(pygame.Surface(size))
    draw(painter, lay.decision, lay, DecisionModel(entry.title, "Dice", (), entry.hint(), dice))
    texts = painter.texts("decision")
    assert not any("..." in t for t in texts)
    assert "down-right" in texts or ("down-" in texts and "right" in texts)
    words = " ".join(texts).split()
    for word in ("defender", "stumbles", "down", "right", "block", "scatter"):
        assert word in words
    assert "2 block dice + 1 scatter die" in entry.title
