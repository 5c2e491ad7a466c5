"""A die kind with a reader of its own (the piecepack die) is read by it; the dice pad takes the
faces the die has (a piecepack die's null is 0)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.actions import Action
from companion.core.dice import D6, DicePrompt, DieKind
from companion.kiosk.dice_flow import DiceEntry, DiceSeen
from companion.kiosk.table_feed import DIE_READERS, TableProcessor, die_reader_for
from hardware.buttons import CONFIRM, NEXT, PREV


@dataclass(frozen=True, slots=True)
class _Roll(Action):
    values: tuple[int, ...] = ()


PIECEPACK = DieKind("piecepack", (0, 1, 2, 3, 4, 5), ("null", "ace", "2", "3", "4", "5"))


class _Reader:
    def __init__(self) -> None:
        self.resets = 0
        self.region: Any = None

    def update(self, frame: Any) -> Any | None:
        return None

    def reset(self) -> None:
        self.resets += 1


def test_the_piecepack_die_has_its_own_reader_and_other_kinds_the_default() -> None:
    from vision.piecepack.settle import PiecepackDiceSettler

    assert die_reader_for(("piecepack",)) is PiecepackDiceSettler
    assert die_reader_for(("piecepack", "piecepack")) is PiecepackDiceSettler
    assert die_reader_for(("d6",)) is None
    assert die_reader_for(("piecepack", "d6")) is None  # mixed: the default reader
    assert die_reader_for(()) is None


def test_the_processor_switches_to_the_kinds_reader_and_back(monkeypatch: Any) -> None:
    made: list[_Reader] = []

    def factory() -> _Reader:
        made.append(_Reader())
        return made[-1]

    monkeypatch.setitem(DIE_READERS, "block", factory)
    default = _Reader()
    default.region = (1, 2, 300, 200)
    p = TableProcessor(default, None)
    p.expect_die_kinds(("block",))
    assert p.dice is made[0] and made[0].region == (1, 2, 300, 200) and made[0].resets == 1
    p.expect_die_kinds(("block",))
    assert len(made) == 1  # made once, kept
    p.expect_die_kinds(("d6",))
    assert p.dice is default


def test_a_reader_that_cannot_start_leaves_the_default_and_says_why(monkeypatch: Any) -> None:
    def broken() -> _Reader:
        raise RuntimeError("no model")

    monkeypatch.setitem(DIE_READERS, "block", broken)
    default = _Reader()
    p = TableProcessor(default, None)
    p.expect_die_kinds(("block",))
    assert p.dice is default and "no model" in p.errors[-1]


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
    assert "d6 die cannot show 0" in e.problem


def test_the_buttons_step_through_a_piecepack_dies_faces_null_included() -> None:
    e = _entry(PIECEPACK, camera=False)
    assert e.values == [1]
    e.handle(PREV)
    assert e.values == [0]
    e.handle(PREV)
    assert e.values == [5]
    e.handle(NEXT)
    assert e.values == [0]
    out = e.handle(CONFIRM)
    assert out is not None and e.submitted is not None


def test_the_autopilot_plans_presses_over_the_dies_faces() -> None:
    e = _entry(PIECEPACK, camera=False)
    presses = e.plan_entry((0,))
    for p in presses:
        e.handle(p)
    assert e.submitted is not None and e.submitted == _Roll(0, (0,))
