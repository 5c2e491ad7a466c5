"""The camera as the kiosk sees it: frames in, a small plain ``TableReading`` out.

The vision packages are written by other people and still moving, so the kiosk depends only on
two small protocols here, with adapters to what ``vision/`` provides today:

- :class:`DiceReader`: ``update(frame) -> settled roll | None`` (``vision.dice.DiceSettler``);
- :class:`BoardReader`: ``process(frame, expected) -> observation``
  (``vision.board.pipeline.BoardPipeline``).

:class:`TableProcessor` runs both on a frame, draws nothing, and returns a ``TableReading``
with a small RGB thumbnail, the dice boxes and values, and the pieces per cell. It runs inside
``hardware.capture.CaptureWorker`` (off the UI thread, newest result only) or, for
deterministic headless runs, synchronously via :class:`SyncFeed`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import cv2
import numpy as np

from companion.kiosk import dice_area, dice_learning, die_readers
from companion.kiosk.dice_area import DiceArea
from companion.kiosk.dice_flow import DiceSeen
from companion.kiosk.pawn_check import BoardSeen
from hardware.camera import FrameSource, still_taker
from hardware.capture import CaptureStatus, CaptureWorker
from vision.mixed_roll import MixedRollReader, leave_out


class DiceReader(Protocol):
    def update(self, frame: Any) -> Any | None:
        """A settled roll (with ``.dice`` of readings: ``.value``, ``.box``, ``.status``,
        optionally ``.guess`` and ``.tag``; ``.status``; ``.message``) once per roll, else
        None."""

    def reset(self) -> None: ...


class BoardReader(Protocol):
    def process(self, frame: Any, expected: Any = None) -> Any:
        """An observation with ``.status``, ``.message``, ``.occupants`` (cell -> readings
        with ``.owner``), ``.corners`` and ``.stable``."""


@dataclass(frozen=True)
class DieBox:
    box: tuple[int, int, int, int]  # in thumbnail pixels
    value: int | None
    status: str


@dataclass(frozen=True)
class PieceMark:
    name: str | None
    cell: int
    xy: tuple[int, int]  # thumbnail pixels


@dataclass(frozen=True)
class TableReading:
    index: int
    thumbnail: np.ndarray  # RGB uint8, small
    dice: tuple[DieBox, ...] = ()
    settled: DiceSeen | None = None  # a settled roll on this frame
    board: BoardSeen | None = None
    pieces: tuple[PieceMark, ...] = ()
    corners: tuple[tuple[int, int], ...] = ()
    dice_state: str = ""  # waiting | moving | settling | settled (from the settler)
    learned: bool | None = None  # the empty board was learned from this frame (False: failed)
    problem: str = ""  # a vision part failed on this frame and was switched off
    made_at: float = field(default_factory=time.perf_counter)
    places: tuple[tuple[int, int], ...] = ()  # each board place's centre, thumbnail pixels


def dice_kinds(sides: Sequence[int] | None) -> tuple[str, ...]:
    """The dice reader's die types for a roll of these sides: every type it knows when there is
    no roll or a die it has no type for."""
    from vision.dice.types import DIE_KINDS

    wanted = set(sides or ())
    kinds = tuple(k for k in DIE_KINDS if int(k[1:]) in wanted)
    return kinds if wanted and len(kinds) == len(wanted) else DIE_KINDS


def vision_dice_reader() -> tuple[DiceReader | None, str]:
    """(``vision.dice.DiceSettler``, "")."""
    from vision.dice import DiceSettler

    return DiceSettler(), ""


def vision_board_reader(players: Mapping[str, str] | None = None
                        ) -> tuple[BoardReader | None, str]:
    """``vision.board.pipeline.BoardPipeline`` for these players (name -> sticker colour)."""
    from vision.board.pawns import PawnConfig
    from vision.board.pipeline import BoardPipeline, PipelineConfig

    config = PipelineConfig(pawns=PawnConfig(players=dict(players))) if players else None
    return BoardPipeline(config), ""


def _cell_centres_mm() -> np.ndarray | None:
    from vision.board.geometry import DEFAULT_SPEC, square_centres

    centres = np.asarray(square_centres(DEFAULT_SPEC), np.float64)
    return centres


BOARD_WIDTH = 1280
"""The board reader's frame width: wider frames are shrunk for it (the dice keep every pixel)."""


class _WithoutOldDice:
    """The numbered dice settler's reader once the table has rolled block or scatter dice:
    each reading with a die it could not read has the old ones of those kinds left out
    (``TableProcessor._without_lying``), so the settler compares, looks closer at and reports
    the roll itself. Only old dice in view read as an empty tray."""

    def __init__(self, read: Callable[..., Any], processor: TableProcessor) -> None:
        self.read = read
        self.processor = processor

    def __call__(self, bgr: np.ndarray, region: Any, config: Any) -> Any:
        obs = self.read(bgr, region, config)
        if (not self.processor._lying_kinds or self.processor._numbered is not None
                or all(getattr(d, "status", "") == "read" for d in getattr(obs, "dice", ()))):
            return obs  # only a die it could not read can be an old one (``leave_out``)
        return self.processor._without_lying(bgr, obs, region)


class TableProcessor:
    """``processor(frame) -> TableReading``: dice, board and a thumbnail from one frame."""

    def __init__(self, dice: DiceReader | None, board: BoardReader | None,
                 thumb_width: int = 480, dice_area: DiceArea | None = None) -> None:
        self.dice = dice
        self.board = board
        self.thumb_width = thumb_width
        self.dice_area = dice_area  # where the dice are read, once the board is registered
        self.expected: Any = None  # a vision MoveContext, set by the UI thread
        self.learn = False  # learn the empty board from the next frame (set by the UI thread)
        self._index = 0
        self._lock = threading.Lock()
        self._centres = _cell_centres_mm()
        self.errors: list[str] = []
        self.keep_crops = False  # cut each settled roll's dice for learning (``dice_learning``)
        self._numbered: DiceReader | None = None  # the usual reader while a special one reads
        self._special_kinds: tuple[str, ...] = ()
        # kinds the game throws or the table has rolled whose reader tells them from numbered
        # dice (block, scatter): they may still lie in the tray when numbered dice are thrown,
        # and are left out of the numbered roll (``vision.mixed_roll.leave_out``) by a reader
        # of their own
        self._lying_kinds: tuple[str, ...] = ()
        self._rolled_kinds: tuple[str, ...] = ()  # those of them the table has rolled
        self._lying_reader: Any = None
        self._to_frame: np.ndarray | None = None  # the board's registration (board mm -> frame)

    def reset_dice(self) -> None:
        if self.dice is not None:
            with self._lock:
                self.dice.reset()

    def use_source(self, source: object) -> None:
        """Let the dice reader take a closer look through ``source`` when it can take stills
        (``hardware.camera.still_taker``): a roll with an unsure or tiny die is then read
        again in a full-resolution still before it is reported. Called on the thread that reads the
        source, once it is open."""
        take = still_taker(source)
        if take is not None and self.dice is not None and hasattr(self.dice, "closer"):
            self.dice.closer = take

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        """The roll the game waits for (dice sides, and the kinds' names when known), or None:
        the dice reader then reads only those die types, so a die mistaken for a type not in
        play is unsure, not misread. A roll whose kinds all have a reader in
        ``die_readers`` (block or scatter dice ...) is read by that reader instead. Dice of a
        kind that is not numbered (a scatter die whose reader could not start) are left out
        of the types: a d8 with arrows must not be read as a numbered d8."""
        self._use_reader_for(tuple(kinds or ()))
        if self._numbered is not None:
            return  # a registered reader reads this roll: its own settings stay as they are
        config: Any = getattr(self.dice, "config", None)
        if kinds and sides is not None and len(kinds) == len(sides):
            numbered = [s for s, k in zip(sides, kinds, strict=True) if die_readers.is_numbered(k)]
            sides = numbered or sides
        kinds = dice_kinds(sides)
        if not kinds or not hasattr(config, "kinds") or tuple(config.kinds) == kinds:
            return  # another reader (it reads every type), or nothing to change
        # one attribute swap, read by the camera thread at its next frame: no lock, so the UI
        # never waits for a frame being processed
        self.dice.config = replace(config, kinds=kinds)  # type: ignore[union-attr]

    def _use_reader_for(self, kinds: tuple[str, ...]) -> None:
        """Swap in the registered reader for ``kinds`` (or back to the numbered reader); a roll
        mixing numbered dice with registered kinds gets both (``vision.mixed_roll``), the
        numbered reader told to read only the roll's numbered types."""
        factory = die_readers.factory_for(kinds)
        special_kinds = kinds
        mixed = None if factory is not None else die_readers.mixed(kinds)
        if mixed is not None:
            factory, special_kinds = mixed
        if factory is not None and (self.dice is not None or self._numbered is not None):
            if self._special_kinds == kinds:
                return
            try:
                special = factory(special_kinds)
            except Exception as exc:  # a missing model must not stop the game
                self._report(f"dice reader for {', '.join(special_kinds)}: "
                             f"{type(exc).__name__}: {exc}")
                return
            if hasattr(special, "lying"):  # old dice of other kinds rolled here: read, left out
                # (only kinds rolled: reading both kinds costs a few rolls read whole when no
                # die of the other kind lies there, docs/vision-special-dice.md)
                special.lying = tuple(k for k in self._rolled_kinds if k not in special_kinds)
            current = self.dice if self._numbered is None else self._numbered
            self._may_lie(special_kinds, current)
            self._rolled_kinds = tuple(dict.fromkeys(
                self._rolled_kinds + tuple(k for k in special_kinds if k in self._lying_kinds)))
            if hasattr(special, "count"):  # how many dice it should find (it may search for the rest)
                special.count = sum(1 for k in kinds if k in special_kinds)
            reader = special
            if mixed is not None:
                config: Any = getattr(current, "config", None)
                if config is not None and hasattr(config, "kinds"):
                    numbered = [int(k[1:]) for k in kinds if k not in special_kinds]
                    current.config = replace(config, kinds=dice_kinds(numbered))  # type: ignore[union-attr]
                reader = MixedRollReader(current, special, kinds, special_kinds)
            for name in ("region", "board_to_frame"):
                if hasattr(reader, name) and hasattr(self.dice, name):
                    setattr(reader, name, getattr(self.dice, name))
            self._numbered, self._special_kinds = current, kinds
            self.dice = reader  # one attribute swap, read by the camera thread's next frame
        elif self._numbered is not None:
            numbered_reader, self._numbered, self._special_kinds = self._numbered, None, ()
            if hasattr(numbered_reader, "region") and hasattr(self.dice, "region"):
                numbered_reader.region = self.dice.region  # type: ignore[union-attr]
            self.dice = numbered_reader

    def use_table(self, adaptation: object | None) -> bool:
        """Read the d6 with this table's adaptation (``vision.dice.tune``; None: without);
        False when the dice reader takes none."""
        reader = self._numbered if self._numbered is not None else self.dice
        config: Any = getattr(reader, "config", None)
        if config is None or not hasattr(config, "d6_table"):
            return False
        reader.config = replace(config, d6_table=adaptation)  # type: ignore[union-attr]
        return True

    @property
    def can_learn(self) -> bool:
        """The board reader can learn the empty board (``set_reference``)."""
        return callable(getattr(self.board, "set_reference", None))

    def learn_empty_board(self) -> None:
        """Learn the empty board from the next frame (the players took the pieces off)."""
        self.learn = True

    def __call__(self, frame: np.ndarray) -> TableReading:
        with self._lock:
            return self._process(frame)

    def _process(self, frame: np.ndarray) -> TableReading:
        h, w = frame.shape[:2]
        scale = self.thumb_width / w
        tw, th = self.thumb_width, max(1, round(h * scale))
        thumb = cv2.cvtColor(cv2.resize(frame, (tw, th), interpolation=cv2.INTER_AREA),
                             cv2.COLOR_BGR2RGB)
        boxes: tuple[DieBox, ...] = ()
        settled: DiceSeen | None = None
        dice_state = ""
        problem = ""
        obs = None
        if self.dice is not None:
            try:
                obs = self.dice.update(frame)
            except Exception as exc:  # a failing reader must not stop the game
                problem = ("The dice reader stopped with an error and was switched off: "
                           "enter the dice with the buttons")
                self._report(f"dice reader: {type(exc).__name__}: {exc}")
                self.dice = None
        if self.dice is not None:
            dice_state = str(getattr(self.dice, "state", ""))
            last = obs if obs is not None else getattr(self.dice, "last", None)
            if last is not None:
                boxes = tuple(DieBox(_scale_box(d.box, scale), d.value, d.status)
                              for d in getattr(last, "dice", ()))
            if obs is not None:
                # once per settled roll: each die's small crop, kept if the roll is confirmed
                # (of a roll a registered reader reads, only its numbered dice: a D6 beside a
                # scatter die; a roll of block dice alone keeps nothing)
                crops = None
                if self.keep_crops:
                    crops = (dice_learning.cut_roll(frame, tuple(obs.dice)) if self._numbered is None
                             else dice_learning.numbered_of(frame, tuple(obs.dice), die_readers.is_numbered))
                settled = DiceSeen.of(obs, time.perf_counter(), crops,
                                      tuple(_colour(d) for d in obs.dice))
        board: BoardSeen | None = None
        pieces: tuple[PieceMark, ...] = ()
        corners: tuple[tuple[int, int], ...] = ()
        places: tuple[tuple[int, int], ...] = ()
        learned: bool | None = None
        # the board is read on a copy at most BOARD_WIDTH wide (its cost grows with the pixels;
        # a camera set to a larger size gives the dice reader, which reads the full frame, more
        # pixels per die): ``up`` maps board-reader pixels back to frame pixels
        board_frame, up = frame, 1.0
        if w > BOARD_WIDTH and (self.board is not None or self.learn):
            up = w / BOARD_WIDTH
            board_frame = cv2.resize(frame, (BOARD_WIDTH, max(1, round(h / up))),
                                     interpolation=cv2.INTER_AREA)
        if self.learn and self.can_learn:
            self.learn = False
            try:
                learned = bool(self.board.set_reference(board_frame))  # type: ignore[union-attr]
            except Exception as exc:  # pragma: no cover - depends on the board reader
                self._report(f"board reference: {type(exc).__name__}: {exc}")
                learned = False
        bo = None
        if self.board is not None:
            try:
                bo = self.board.process(board_frame, self.expected)
            except Exception as exc:  # a failing reader must not stop the game
                problem = problem or ("The board reader stopped with an error and was "
                                      "switched off: pieces are not checked")
                self._report(f"board reader: {type(exc).__name__}: {exc}")
                self.board = None
        if bo is not None:
            occ = {int(c): tuple(r.owner for r in rs) for c, rs in
                   getattr(bo, "occupants", {}).items()}
            covers = getattr(bo, "covers", None)
            board = BoardSeen(str(bo.status), str(bo.message), occ,
                              bool(getattr(bo, "stable", False)), getattr(bo, "detail", None),
                              None if covers is None else frozenset(int(c) for c in covers))
            if getattr(bo, "corners", None) is not None:
                full = tuple((float(x) * up, float(y) * up) for x, y in bo.corners)
                corners = tuple((round(x * scale), round(y * scale)) for x, y in full)
                to_frame = dice_area.board_homography(full)  # board mm -> frame pixels
                pieces = self._place(occ, to_frame, scale)
                places = self._places(to_frame, scale)
                self._aim_dice(to_frame, (w, h))
        self._index += 1
        return TableReading(self._index, thumb, boxes, settled, board, pieces, corners,
                            dice_state, learned, problem, places=places)

    def lying_dice(self, kinds: Sequence[str]) -> None:
        """The kinds of dice besides numbered ones the game throws (``Presenter.table_dice``):
        those whose reader tells them from numbered dice are left out of numbered rolls from
        now on, as after a roll of them (a new game's kinds replace the last game's)."""
        self._lying_kinds = self._rolled_kinds = ()
        self._may_lie(tuple(kinds), self.dice if self._numbered is None else self._numbered)

    def _may_lie(self, kinds: tuple[str, ...], current: Any) -> None:
        """Dice of ``kinds`` may lie in the tray from now on: the numbered dice settler
        (``current``) has them left out of its readings (``_WithoutOldDice``)."""
        told = tuple(k for k in kinds if die_readers.told_from_numbered(k))
        self._lying_kinds = tuple(dict.fromkeys(self._lying_kinds + told))
        if told and callable(getattr(current, "reader", None)) and \
                not isinstance(current.reader, _WithoutOldDice):
            current.reader = _WithoutOldDice(current.reader, self)

    def _without_lying(self, frame: np.ndarray, obs: Any, region: Any) -> Any:
        """A numbered reading without the block or scatter dice of earlier rolls lying beside
        it (read in this frame by their own reader: ``vision.mixed_roll.leave_out``)."""
        kinds = self._lying_kinds
        reader = self._lying_reader
        if reader is None or tuple(getattr(reader, "kinds", ())) != kinds:
            factory = die_readers.factory_for(kinds)
            if factory is None:
                return obs
            try:
                reader = self._lying_reader = factory(kinds)
            except Exception as exc:  # a missing model must not stop the game
                self._report(f"dice reader for {', '.join(kinds)}: {type(exc).__name__}: {exc}")
                self._lying_kinds = ()
                return obs
        if not callable(getattr(reader, "read_once", None)):
            return obs
        reader.region = region
        if hasattr(reader, "board_to_frame"):
            reader.board_to_frame = self._to_frame
        try:
            return leave_out(obs, reader.read_once(frame))
        except Exception as exc:  # the roll stands as the numbered reader read it
            self._report(f"dice reader for {', '.join(kinds)}: {type(exc).__name__}: {exc}")
            return obs

    def _aim_dice(self, to_frame: np.ndarray, frame_size: tuple[int, int]) -> None:
        """Point the dice reader at the dice area as the registered board places it (from the
        next frame on; a new region restarts the settler)."""
        self._to_frame = to_frame
        if self.dice is not None and hasattr(self.dice, "board_to_frame"):
            self.dice.board_to_frame = to_frame  # scatter arrows are read relative to the board
        if self.dice is None or self.dice_area is None or not hasattr(self.dice, "region"):
            return
        region = self.dice_area.region(to_frame, frame_size)
        if region is not None and dice_area.moved(self.dice.region, region):
            self.dice.region = region
            self.dice.reset()

    def _report(self, text: str) -> None:
        """Keep a vision failure for the screen's caller and the service log (stderr)."""
        import sys

        self.errors.append(text)
        print(f"companion kiosk: {text}", file=sys.stderr)

    def _places(self, hmat: np.ndarray, scale: float) -> tuple[tuple[int, int], ...]:
        """Every place's centre in thumbnail pixels (for the marks drawn on the squares)."""
        if self._centres is None:
            return ()
        pts = cv2.perspectiveTransform(
            np.asarray(self._centres, np.float32).reshape(-1, 1, 2), hmat).reshape(-1, 2)
        return tuple((round(float(x) * scale), round(float(y) * scale)) for x, y in pts)

    def _place(self, occ: Mapping[int, Sequence[str | None]], hmat: np.ndarray,
               scale: float) -> tuple[PieceMark, ...]:
        if self._centres is None:
            return ()
        out = []
        for cell, owners in occ.items():
            if not 0 <= cell < len(self._centres):
                continue
            pt = cv2.perspectiveTransform(self._centres[cell].reshape(1, 1, 2), hmat)[0, 0]
            for k, owner in enumerate(owners):
                out.append(PieceMark(owner, cell, (round(pt[0] * scale) + 9 * k,
                                                   round(pt[1] * scale))))
        return tuple(out)


def _colour(die: object) -> str:
    """A die's colour as its reader tells it: its colour tag when the reader reads one
    (``tag``: e.g. a piecepack die's suit, whose die it is; what it means is the game's
    business), else its colour name (``colour``), else ""."""
    for name in ("tag", "colour"):
        value = getattr(die, name, None)
        if isinstance(value, str) and value:
            return value
    return ""


def _scale_box(box: Sequence[float], s: float) -> tuple[int, int, int, int]:
    x, y, w, h = box
    return (round(x * s), round(y * s), max(1, round(w * s)), max(1, round(h * s)))


class Feed(Protocol):
    """What the kiosk asks the camera each frame."""

    def poll(self) -> TableReading | None: ...

    def status(self) -> tuple[bool, str]:
        """(live, message)."""

    def set_expected(self, expected: Any) -> None: ...

    def reset_dice(self) -> None: ...

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None: ...

    def close(self) -> None: ...


def reads_dice(feed: object) -> bool:
    """The feed has a dice reader (a feed without a processor is taken at its word)."""
    processor = getattr(feed, "processor", None)
    return not isinstance(processor, TableProcessor) or processor.dice is not None


def can_learn(feed: object) -> bool:
    """The feed's board reader can learn the empty board (older feeds: no)."""
    processor = getattr(feed, "processor", None)
    return isinstance(processor, TableProcessor) and processor.can_learn


class ThreadedFeed:
    """The camera and vision in a worker thread (``hardware.capture.CaptureWorker``)."""

    def __init__(self, source: FrameSource | Callable[[], FrameSource],
                 processor: TableProcessor, stall_timeout: float = 1.5) -> None:
        self.processor = processor
        self.worker: CaptureWorker[TableReading] = CaptureWorker(
            source, processor, stall_timeout=stall_timeout, name="kiosk-camera",
            on_open=processor.use_source).start()

    def poll(self) -> TableReading | None:
        result = self.worker.take()
        return None if result is None else result.value

    def status(self) -> tuple[bool, str]:
        st: CaptureStatus = self.worker.status()
        return st.live, st.message

    def set_expected(self, expected: Any) -> None:
        self.processor.expected = expected

    def lying_dice(self, kinds: Sequence[str]) -> None:
        self.processor.lying_dice(kinds)

    def reset_dice(self) -> None:
        self.processor.reset_dice()

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        self.processor.expect_dice(sides, kinds)

    def close(self) -> None:
        self.worker.stop()


class SyncFeed:
    """Reads and processes a frame every ``every`` polls on the calling thread (deterministic,
    for headless runs and tests)."""

    def __init__(self, source: FrameSource, processor: TableProcessor, every: int = 1) -> None:
        self.source = source
        self.processor = processor
        processor.use_source(source)
        self.every = max(1, every)
        self._n = 0
        self._live = True
        self._message = "camera running"

    def poll(self) -> TableReading | None:
        if not self._live:
            return None
        self._n += 1
        if (self._n - 1) % self.every:
            return None
        try:
            frame = self.source.read()
        except Exception as exc:  # a failing camera must not stop the game
            self._live = False
            self._message = f"the camera failed ({exc}): enter the dice with the buttons"
            return None
        if frame is None:
            self._live = False
            self._message = "the camera stopped sending pictures: enter the dice with the buttons"
            return None
        return self.processor(frame)

    def status(self) -> tuple[bool, str]:
        return self._live, self._message

    def set_expected(self, expected: Any) -> None:
        self.processor.expected = expected

    def lying_dice(self, kinds: Sequence[str]) -> None:
        self.processor.lying_dice(kinds)

    def reset_dice(self) -> None:
        self.processor.reset_dice()

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        self.processor.expect_dice(sides, kinds)

    def close(self) -> None:
        self.source.close()


class NoFeed:
    """No camera: everything is entered with the buttons."""

    def __init__(self, message: str = "no camera: enter the dice with the buttons") -> None:
        self.message = message

    def poll(self) -> TableReading | None:
        return None

    def status(self) -> tuple[bool, str]:
        return False, self.message

    def set_expected(self, expected: Any) -> None:
        pass

    def reset_dice(self) -> None:
        pass

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        pass

    def close(self) -> None:
        pass


def move_context(player: str, from_cell: int, to_cell: int | Sequence[int],
                 positions: Mapping[str, int]) -> Any:
    """The vision ``MoveContext`` for an expected move: one place, or every place a move being
    chosen may take the piece to (the board reader then looks on all of them)."""
    from vision.board.pawns import MoveContext

    cells = (to_cell,) if isinstance(to_cell, int) else tuple(to_cell)
    return MoveContext(player, from_cell, cells, dict(positions))
