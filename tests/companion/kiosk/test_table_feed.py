"""The camera as the kiosk sees it: the board reader's ``no_reference`` state, learning the empty
board from the referee menu, a failing reader switched off, and the demo's pawn check (no
mismatch shown when the synthetic table has the piece where the game has it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.games.monopoly.actions import Roll
from companion.kiosk.demo import Autopilot, demo_players, make_demo_feed
from companion.kiosk.headless import render_one
from companion.kiosk.inputs import Menu
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.kiosk.setup import variant_roles
from companion.kiosk.table_feed import SyncFeed, TableProcessor, reads_dice
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT, InputQueue


@dataclass
class Obs:
    status: str
    message: str
    corners: Any = None
    occupants: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    stable: bool = False


@dataclass
class Reading:
    owner: str


class BoardWithoutReference:
    """Like vision.board's pipeline without a picture of the empty board."""

    def __init__(self) -> None:
        self.reference: np.ndarray | None = None
        self.learned_from: list[np.ndarray] = []

    def set_reference(self, frame: np.ndarray) -> bool:
        self.learned_from.append(frame)
        self.reference = frame
        return True

    def process(self, frame: np.ndarray, expected: Any = None) -> Obs:
        if self.reference is None:
            return Obs("no_reference", "Board found, pieces not read: show the empty board "
                       "once first (a long message from vision)")
        return Obs("ok", "", None, {1: (Reading("Ann"),)}, True)


class Frames:
    def __init__(self) -> None:
        self.n = 0

    def read(self) -> np.ndarray:
        self.n += 1
        return np.full((72, 128, 3), self.n % 255, np.uint8)

    def close(self) -> None:
        pass


def open_referee(screen: GameScreen) -> Menu:
    if screen.dice_entry() is not None:
        screen.handle(BACK)
    root = screen.stack[0]
    assert isinstance(root, Menu)
    while not root.options[root.index].label.startswith("Referee"):
        screen.handle(NEXT)
    screen.handle(CONFIRM)
    menu = screen.top
    assert isinstance(menu, Menu)
    return menu


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_no_reference_is_explained_and_the_empty_board_learned(size: tuple[int, int],
                                                               png_dir: Path) -> None:
    board = BoardWithoutReference()
    feed = SyncFeed(Frames(), TableProcessor(None, board, thumb_width=128))  # type: ignore[arg-type]
    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")])
    screen = GameScreen(session, feed, size)
    assert screen.submit(Roll(0, (1, 2))) is not None  # Ann moves: her piece is to be checked
    painter = render_one(screen, size, png_dir / f"no-reference-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    decision = " ".join(painter.texts("decision"))
    assert "Pieces not checked" in decision and "empty board" in decision
    assert any("no empty-board picture" in t for t in painter.texts("camera"))
    assert screen.pawns.problems() == []  # nothing claimed about the pieces
    # Referee > learn the empty board: the next frame is taken as the empty board
    menu = open_referee(screen)
    labels = [o.label for o in menu.options]
    row = next(i for i, label in enumerate(labels)
               if label.startswith("Camera: learn the empty board"))
    for _ in range(row):
        screen.handle(NEXT)
    screen.handle(CONFIRM)
    assert len(screen.stack) == 1
    render_one(screen, size)
    assert len(board.learned_from) == 1
    painter = render_one(screen, size)
    assert isinstance(painter, Painter)
    decision = " ".join(painter.texts("decision"))
    assert "Pieces not checked" not in decision
    assert "learned the empty board" in decision


def test_without_a_board_reader_there_is_nothing_to_learn() -> None:
    feed = SyncFeed(Frames(), TableProcessor(None, None, thumb_width=128))  # type: ignore[arg-type]
    screen = GameScreen(Session.memory("monopoly", [("Ann", ""), ("Ben", "")]), feed)
    labels = [o.label for o in open_referee(screen).options]
    assert not any("learn the empty board" in label for label in labels)


class BrokenDice:
    state = "waiting"

    def update(self, frame: Any) -> Any:
        raise ValueError("model file does not match")

    def reset(self) -> None:
        pass


def test_a_failing_dice_reader_is_switched_off_and_the_game_goes_on() -> None:
    processor = TableProcessor(BrokenDice(), None, thumb_width=128)
    feed = SyncFeed(Frames(), processor)  # type: ignore[arg-type]
    screen = GameScreen(Session.memory("monopoly", [("Ann", ""), ("Ben", "")]), feed,
                        (800, 480))
    entry = screen.dice_entry()
    assert entry is not None and entry.mode == "camera"
    painter = render_one(screen, (800, 480))
    assert isinstance(painter, Painter)
    assert any("dice reader stopped" in t for t in painter.texts("decision"))
    assert not reads_dice(feed) and processor.errors
    assert entry.mode == "edit"  # the buttons take the values now
    for press in (NEXT, CONFIRM, CONFIRM):
        screen.handle(press)
    assert screen.session.lines == ["Ann roll 2 1"]


def test_the_demo_shows_no_false_pawn_mismatch() -> None:
    """The synthetic table puts every piece where the game has it, except the one deliberate
    slip (one square short, then put right): no other mismatch may be shown."""
    seed = 1
    session = Session.memory("dungeonopoly", demo_players(variant_roles("dungeonopoly")), seed=seed)
    names = [p.name for p in session.state.players]
    feed, table, _ = make_demo_feed(names, (640, 360), seed, threaded=False)
    assert table is not None
    screen = GameScreen(session, feed, (800, 480))
    queue = InputQueue()
    pilot = Autopilot(screen, queue, seed=seed, table=table, think=0.3, press=0.07,
                      camera_wait=1.5)
    checked: set[str] = set()
    false: list[tuple[int, str]] = []
    for frame in range(420):
        pilot.tick(1 / 30)
        for inp in queue.drain():
            screen.handle(inp)
        screen.update(1 / 30)
        checked |= {r.name for r in screen.pawns.results.values() if r.status == "ok"}
        for problem in screen.pawns.problems():
            slip = table._fix  # (name, right cell, frames left) while the slip is on the table
            if slip is None or slip[0] != problem.name:
                false.append((frame, problem.sentence(session.rules.presenter())))
    feed.close()
    assert pilot.moves >= 2 and checked, "the demo did not get to check a moved piece"
    assert false == []


def test_the_dice_reader_reads_only_the_dice_the_roll_asks_for() -> None:
    from vision.dice import DiceSettler
    from vision.dice.types import DIE_KINDS

    settler = DiceSettler()
    processor = TableProcessor(settler, None)
    processor.expect_dice((6, 6))
    assert settler.config.kinds == ("d6",)
    processor.expect_dice((20,))
    assert settler.config.kinds == ("d20",)
    processor.expect_dice((6, 6, 20))
    assert settler.config.kinds == ("d6", "d20")
    processor.expect_dice((100,))  # no reader for it: any type
    assert settler.config.kinds == DIE_KINDS
    processor.expect_dice(None)
    assert settler.config.kinds == DIE_KINDS


def test_the_game_screen_tells_the_camera_which_dice_to_read() -> None:
    from vision.dice import DiceSettler

    settler = DiceSettler()
    feed = SyncFeed(_NoFrames(), TableProcessor(settler, None))  # type: ignore[arg-type]
    GameScreen(Session.memory("monopoly", [("Ann", ""), ("Ben", "")]), feed)
    assert settler.config.kinds == ("d6",)  # a Monopoly move: two d6


class _NoFrames:
    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


class _StillFrames(_NoFrames):
    def capture_still(self) -> None:
        return None


def test_a_camera_that_takes_stills_gives_the_dice_reader_a_closer_look() -> None:
    from vision.dice import DiceSettler

    settler = DiceSettler()
    source = _StillFrames()
    SyncFeed(source, TableProcessor(settler, None))  # type: ignore[arg-type]
    assert settler.closer == source.capture_still
    plain = DiceSettler()
    SyncFeed(_NoFrames(), TableProcessor(plain, None))  # type: ignore[arg-type]
    assert plain.closer is None
    TableProcessor(None, None).use_source(source)  # no dice reader: nothing to give it to


def test_the_kiosk_reads_small_d20_rolls_in_the_camera_still() -> None:
    # a camera whose stills have twice the frames' pixels, each roll two d20 of 18-30 px in the
    # frames: the settled rolls the kiosk gets carry what the stills show
    from vision.dice import DiceSettler
    from vision.dice.settle import SettleConfig
    from vision.synthetic.dice import RollingDiceSource

    def settled(stills: bool) -> tuple[list[tuple[int | None, ...]], list[list[int]]]:
        source = RollingDiceSource(seed=5, n_rolls=4, size=(640, 360), n_dice=2, kinds=("d20",),
                                   die_px=(18, 30), still_scale=2, still_frames=8)
        settler = DiceSettler(settle=SettleConfig(still_frames=2))
        camera = source if stills else _FramesOnly(source)  # the same frames, no stills
        feed = SyncFeed(camera, TableProcessor(settler, None, thumb_width=64))  # type: ignore[arg-type]
        feed.expect_dice((20,))
        rolls = []
        while (reading := feed.poll()) is not None or feed.status()[0]:
            if reading is not None and reading.settled is not None:
                rolls.append(reading.settled.values)
        return rolls, [sorted(t.value for t in truth) for truth in source.rolls]

    rolls, truth = settled(True)
    assert len(rolls) == 4
    assert [sorted(v for v in r if v is not None) for r in rolls] == truth  # every die read right
    plain, same = settled(False)
    assert same == truth and len(plain) == 4
    assert sum(v is None for r in plain for v in r) > 0  # the frames alone leave dice unsure


class _FramesOnly:
    def __init__(self, source: Any) -> None:
        self.source = source

    def read(self) -> Any:
        return self.source.read()

    def close(self) -> None:
        self.source.close()
