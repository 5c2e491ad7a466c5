"""The table's own dice at the kiosk: confirmed rolls kept as examples, tuning, and the
"show me each face" set-up (``vision.dice.tune``).

- :func:`cut_roll` cuts, on the camera thread and only once per settled roll, each die's small
  grey crop (the d6 reader's 64x64 view, about 4 kB), its colour crop (112x112, what the colour
  readers see; ``vision.dice.tune.colour_crops``), its kind and the value shown; the
  :class:`~companion.kiosk.dice_flow.DiceSeen` carries them to the screen.
- :class:`DiceLearner` keeps a confirmed roll (those crops and the values a person confirmed)
  in the examples folder on a worker thread of its own: the frame loop only puts the roll in a
  queue. A folder that cannot be written (full disk, read-only, a file in the way) stops the
  keeping for this session with a message on screen; the game goes on untouched.
- :class:`TunePad` ("Tune dice to this table") fits the table's adaptation on a worker thread,
  shows its progress and the before/after figure on the newest stored rolls (held back), and
  puts it to use on CONFIRM.
- :class:`FaceSetup` ("Show me each face") asks for each face of one die in turn; the player
  puts that face up in the tray and presses CONFIRM, and the die the camera sees is kept as
  that face (grey and colour crop); with every face kept, CONFIRM goes on to the tuning, which
  builds that kind's number memory (``vision.dice.tune.NumberMemory``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.kiosk.dice_flow import DiceSeen
from companion.kiosk.inputs import Command, Outcome, Pop, Row
from hardware.buttons import Input, InputKind

DIE_KINDS_TO_SHOW = ("d6", "d20", "d4", "d8", "d10", "d12")
"""The dice the set-up asks for, most used first."""


@dataclass(frozen=True)
class RollCrops:
    """One settled roll as kept for learning: each die's 64x64 grey crop, kind, the value the
    reader gave it (None: unsure) and its colour crop (None: a grey camera). ``positions``: the
    places in the roll of the dice cut, when only some were (the numbered dice of a roll that
    mixes them with block or scatter dice, ``numbered_of``); None: every die, in order."""

    crops: tuple[np.ndarray, ...]
    kinds: tuple[str, ...]
    shown: tuple[int | None, ...]
    colours: tuple[np.ndarray | None, ...] | None = None
    positions: tuple[int, ...] | None = None
    size: int = 0  # the whole roll's dice, with ``positions``

    def values_of(self, values: Sequence[int]) -> tuple[int, ...] | None:
        """The confirmed values of the dice cut, from the whole roll's ``values``; None when
        the roll confirmed has another number of dice than was seen."""
        if self.positions is None:
            return tuple(int(v) for v in values) if len(values) == len(self.crops) else None
        if len(values) != self.size:
            return None
        return tuple(int(values[i]) for i in self.positions)


def cut_roll(frame: np.ndarray, dice: Sequence[Any], colour: bool = True) -> RollCrops | None:
    """The crops of a settled roll's dice (readings with ``.box``, ``.kind``, ``.value``,
    ``.status``) in a BGR (or grey) frame; None when there are none or they cannot be cut."""
    import cv2

    from vision.dice.d6head import grey_crops
    from vision.dice.tune import colour_crops

    if not dice:
        return None
    try:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 and colour else frame
        boxes = [tuple(float(v) for v in d.box) for d in dice]
        crops = grey_crops(grey, boxes)  # type: ignore[arg-type]
        colours = (tuple(colour_crops(frame, boxes))  # type: ignore[arg-type]
                   if frame.ndim == 3 and colour else None)
    except Exception:  # a crop must never cost the roll
        return None
    return RollCrops(tuple(crops), tuple(str(getattr(d, "kind", "d6")) for d in dice),
                     tuple(d.value if getattr(d, "status", "read") == "read" else None for d in dice),
                     colours)


def numbered_of(frame: np.ndarray, dice: Sequence[Any], is_numbered: Callable[[str], bool]) -> RollCrops | None:
    """The crops of a settled roll's numbered dice only (a D6 thrown with a scatter die: the
    numbered reader's dice are what the table's tuning learns; block and scatter dice, and the
    stand-ins for missed ones, which carry their kinds, are not kept), with their places in the
    roll."""
    positions = tuple(i for i, d in enumerate(dice) if is_numbered(str(getattr(d, "kind", ""))))
    roll = cut_roll(frame, [dice[i] for i in positions]) if positions else None
    return None if roll is None else replace(roll, positions=positions, size=len(dice))


class DiceLearner:
    """Keeps confirmed rolls in ``folder`` (``vision.dice.tune.ExampleStore``) off the frame loop."""

    def __init__(self, folder: Path, max_mb: float = 100.0, enabled: bool = True) -> None:
        self.folder = Path(folder)
        self.max_bytes = int(max_mb * 1_000_000)
        self.enabled = enabled and self.max_bytes > 0
        self.kept = 0  # rolls kept this session
        self._problems: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._jobs: queue.SimpleQueue[tuple[RollCrops, tuple[int, ...]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None  # one worker for the session
        self._lock = threading.Lock()
        self._pending = 0
        self._idle = threading.Event()
        self._idle.set()

    def store(self) -> Any:
        from vision.dice.tune import ExampleStore

        return ExampleStore(self.folder, self.max_bytes)

    def keep(self, roll: RollCrops | None, values: Sequence[int]) -> bool:
        """Queue a confirmed roll to be kept (False: learning is off, or it does not fit)."""
        kept = None if roll is None else roll.values_of(values)
        if not self.enabled or roll is None or kept is None:
            return False
        with self._lock:
            self._pending += 1
            self._idle.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="dice-examples", daemon=True)
                self._thread.start()
        self._jobs.put((roll, kept))
        return True

    def wait(self, timeout: float = 5.0) -> bool:
        """Wait until every queued roll is written (tests, and before tuning)."""
        return self._idle.wait(timeout)

    def problem(self) -> str:
        """A message for the screen when keeping failed since the last call ("" if none)."""
        try:
            return self._problems.get_nowait()
        except queue.Empty:
            return ""

    def _work(self) -> None:
        from vision.dice.tune import TuneError

        store = self.store()
        while True:
            roll, values = self._jobs.get()
            if self.enabled:
                try:
                    store.add_crops(list(roll.crops), list(values), list(roll.kinds), list(roll.shown),
                                    list(roll.colours) if roll.colours is not None else None)
                    self.kept += 1
                except (TuneError, OSError) as exc:
                    self.enabled = False  # once: no message per roll
                    self._problems.put(f"Confirmed dice are no longer kept for tuning: {exc}")
            with self._lock:
                self._pending -= 1
                if not self._pending:
                    self._idle.set()


class TunePad:
    """"Tune dice to this table": tuning runs on a worker thread; the rows show its progress,
    then what it did on the newest stored rolls. CONFIRM uses the result, BACK leaves."""

    title = "Tune dice to this table"

    def __init__(self, learner: DiceLearner, use: Callable[[Any], None],
                 tune: Callable[..., Any] | None = None) -> None:
        self.learner = learner
        self.use = use  # gives the fitted adaptation to the dice reader
        self.share = 0.0
        self.step = "waiting for the last rolls to be written"
        self.report: Any = None
        self.adaptation: Any = None
        self.error = ""
        self.before = ""  # what kept the tuning saved before from being used ("": nothing)
        self.applied = False
        self._tune = tune
        self._thread = threading.Thread(target=self._run, name="dice-tune", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from vision.dice.tune import TuneError, saved_state, tune_folder

        tune = self._tune or tune_folder
        self.learner.wait(10.0)
        try:
            self.before = saved_state(self.learner.folder)
        except Exception:  # noqa: BLE001 - only a note: the tuning goes on without it
            self.before = ""
        try:
            self.adaptation, self.report = tune(self.learner.folder, progress=self._progress, save=False)
        except TuneError as exc:
            self.error = str(exc)
        except Exception as exc:  # a bug in tuning must not take the table down
            self.error = f"tuning failed ({type(exc).__name__}: {exc}); the dice are read as before"
        self.share = 1.0

    def _progress(self, share: float, step: str) -> None:
        self.share, self.step = share, step

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def rows(self) -> list[Row]:
        if self.error:
            return [Row("Not tuned: " + self.error)]
        if not self.done or self.report is None:
            bar = "#" * round(self.share * 20) + "-" * (20 - round(self.share * 20))
            return [Row(f"Tuning: {self.step}"), Row(f"[{bar}] {self.share:.0%}")]
        rows = [Row(line) for line in self.report.lines()]
        if self.before:  # first: why the table is tuning again
            rows.insert(0, Row(f"{self.before}: {'this tuning replaced it' if self.applied else 'CONFIRM replaces it'}."))
        if self.applied:
            rows.append(Row("In use: the camera reads this table's dice with it."))
        return rows

    def hint(self) -> str:
        if self.done and self.report is not None and not self.applied:
            return "CONFIRM: use it  -  BACK: keep reading as before"
        return "BACK: leave" + ("" if self.done else " (tuning stops being shown)")

    def handle(self, inp: Input) -> Outcome | None:
        if inp.kind is InputKind.BACK:
            return Pop()
        if inp.kind is InputKind.CONFIRM and self.done:
            if self.adaptation is not None and not self.applied:
                try:
                    self.adaptation.save(self.learner.folder)
                except OSError as exc:
                    self.error = f"could not save it ({exc}): the dice are read as before"
                    return None
                self.use(self.adaptation)
                self.applied = True
                return None
            return Pop()
        return None


class FaceSetup:
    """"Show me each face" of one die: each face in turn; CONFIRM keeps the die the camera has
    settled on as that face, NEXT skips a face, PREV goes back one, BACK leaves."""

    def __init__(self, kind: str, learner: DiceLearner) -> None:
        self.kind = kind
        self.faces = int(kind[1:])
        self.learner = learner
        self.face = 1
        self.kept: set[int] = set()
        self.seen: DiceSeen | None = None
        self.note = ""

    @property
    def title(self) -> str:
        return f"Show me each face: {self.kind}"

    def offer(self, seen: DiceSeen) -> None:
        """The camera's newest settled reading of the tray."""
        self.seen = seen
        self.note = ""

    def camera_line(self) -> str:
        s = self.seen
        if s is None:
            return "Camera: no die settled yet"
        if len(s.values) != 1:
            return f"Camera: sees {len(s.values)} dice: leave only this {self.kind} in the tray"
        v = s.values[0]
        return f"Camera: reads {v}" if v is not None else (
            f"Camera: not sure (guess {s.guesses[0]})" if s.guesses and s.guesses[0] else "Camera: not sure")

    @property
    def finished(self) -> bool:
        return len(self.kept) >= self.faces

    def rows(self) -> list[Row]:
        if self.finished:
            return [Row(f"All {self.faces} faces kept."),
                    Row("CONFIRM tunes the dice to this table now, to use them.")]
        rows = [Row(f"Put the {self.kind} in the tray with {self.face} up, then CONFIRM", True),
                Row(self.camera_line()),
                Row(f"Kept: {len(self.kept)} of {self.faces} faces")]
        if self.note:
            rows.append(Row(self.note))
        return rows

    def hint(self) -> str:
        if self.finished:
            return "CONFIRM: tune now  -  BACK: done (tune later from the Referee menu)"
        return "CONFIRM: keep this face  -  NEXT: skip it  -  PREV: back one  -  BACK: stop"

    def handle(self, inp: Input) -> Outcome | None:
        k = inp.kind
        if k is InputKind.BACK:
            return Command("dice_faces_done")
        if self.finished and k is InputKind.CONFIRM:
            return Command("dice_faces_tune")  # straight on to "Tune dice to this table"
        if k is InputKind.NEXT:
            self._advance()
        elif k is InputKind.PREV:
            self.face = self.faces if self.face == 1 else self.face - 1
        elif k is InputKind.CONFIRM:
            s = self.seen
            if s is None or len(s.values) != 1 or not isinstance(s.crops, RollCrops):
                self.note = "Wait until the camera has one die settled in the tray"
                return None
            roll = RollCrops(s.crops.crops, (self.kind,), s.crops.shown, s.crops.colours)
            if not self.learner.keep(roll, (self.face,)):
                self.note = "Keeping dice is switched off ([dice] learn in the settings)"
                return None
            self.kept.add(self.face)
            self.seen = None  # the next face needs a new settled reading
            self._advance()
        return None

    def _advance(self) -> None:
        if self.finished:
            return
        for step in range(1, self.faces + 1):
            face = (self.face - 1 + step) % self.faces + 1
            if face not in self.kept:
                self.face = face
                return
