"""The demo: the synthetic table playing a game, bots pressing the buttons.

:class:`DemoTable` is a frame source: the synthetic table renderer (``vision.synthetic``) with
the pieces where the game has them and the dice the demo players rolled. When a roll is due the
demo "throws" the dice (a few frames of dice and a hand moving, then the dice lie still); the
camera pipeline reads them like a real table: numbered dice with the dice reader, block and
scatter dice (solid dice rendered through the same lens) with their own reader, the scatter
arrow relative to the board as the camera registered it. After a move the piece is placed on its new
square (once per demo, deliberately one square short for a few seconds, so the pawn check's
mismatch shows).

:class:`Autopilot` plays for the people at the table by pressing the same buttons they would:
it confirms the camera's dice, or enters them with the buttons when the camera cannot read
them, and walks the menus to the option the game's own ``heuristic`` bot picks
(``companion.bots.bots_for``; the random bot for a game without one). Any key pressed by a person pauses
it for a while, so the demo can be taken over at any time.
"""

from __future__ import annotations

import itertools
import random
import shlex
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.bots import RandomBot, bots_for
from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.core.errors import IllegalActionError
from companion.kiosk.inputs import MapPicker, Menu
from companion.kiosk.screens import GameScreen
from companion.session import Applied
from hardware.buttons import BACK, CONFIRM, Input, InputQueue

DEMO_NAMES = ("Ann", "Ben", "Cai", "Dee")
SPECIAL_KINDS = ("block", "scatter")
"""Die kinds (``companion.core.dice``) the synthetic table draws as solid dice of their own."""
STICKERS = ("red", "blue", "green", "yellow", "purple", "orange", "white", "black")


def demo_players(roles: Sequence[str], count: int = 4) -> list[tuple[str, str]]:
    """The demo's players, each with the next of the game's ``roles`` in its menu order (the
    setup screen's), '' when the game has none."""
    return [(name, roles[i % len(roles)] if roles else "")
            for i, name in enumerate(DEMO_NAMES[:count])]


@dataclass
class _Scene:
    pawns: Mapping[str, int]
    dice: tuple[int, ...] | None
    moving: int  # frames left with the dice/hand moving
    seed: int
    dice_seed: int = 0  # where the dice lie: a new throw, a new seed; moving pieces keep it
    kinds: tuple[str, ...] = ()  # the dice's kinds when they are block or scatter dice
    lying: tuple[tuple[str, int], ...] = ()  # block or scatter dice of earlier rolls left there

    def drawn(self) -> tuple[tuple[int, ...] | None, tuple[tuple[str, int], ...]]:
        """(numbered dice, block and scatter dice) as the synthetic table draws them: a roll
        mixing the two (a D6 and a scatter die) draws each die as what it is; block and scatter
        dice of earlier rolls still lying there are drawn beside the roll."""
        if self.dice is None or not any(k in SPECIAL_KINDS for k in self.kinds):
            return self.dice, self.lying
        pairs = tuple(zip(self.kinds, self.dice, strict=True))
        plain = tuple(v for k, v in pairs if k not in SPECIAL_KINDS)
        return plain or None, tuple((k, v) for k, v in pairs if k in SPECIAL_KINDS) + self.lying


class DemoTable:
    """A scripted synthetic table (thread-safe: the UI scripts it, the camera thread reads)."""

    def __init__(self, names: Sequence[str], size: tuple[int, int] = (640, 360),
                 seed: int = 0) -> None:
        from vision.synthetic.table import SyntheticTable, default_camera

        players = {n: STICKERS[i % len(STICKERS)] for i, n in enumerate(names)}
        self.players = players
        self.table = SyntheticTable(camera=default_camera(*size), players=players)
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        self._scene = _Scene({n: 0 for n in names}, None, 0, seed)
        self._fix: tuple[str, int, int] | None = None  # (name, cell, frames until fixed)
        self.slipped = False
        self.frames = 0
        self.closed = False
        self._still: tuple[_Scene, np.ndarray] | None = None  # the last still picture

    def empty_board(self) -> np.ndarray:
        """The table with no pieces and no dice: what the camera learns the board from before
        the pieces are put on it (``BoardPipeline.set_reference``)."""
        return self.table.render({}, None, hand=False, seed=self.rng.randrange(1 << 30)).image

    def can_throw(self, prompt: DicePrompt) -> bool:
        """The table draws numbered dice, and block and scatter dice (alone or with d6)."""
        return all(drawable(kind) or kind.name in SPECIAL_KINDS for kind in prompt.dice)

    def roll(self, values: Sequence[int], frames: int = 4, kinds: Sequence[str] = ()) -> None:
        """Throw dice showing ``values``; ``kinds`` names them (block or scatter dice are
        drawn as such, read by their own reader; anything else is drawn as numbered dice).
        Block and scatter dice of earlier rolls stay on the table unless this roll throws
        dice of their kind (they land elsewhere: the synthetic table places every die anew)."""
        kinds = tuple(kinds)
        if kinds and len(kinds) != len(values):
            raise ValueError(f"{len(values)} dice values but {len(kinds)} kinds")
        with self._lock:
            # as at a table, the thrower picks up the dice of this roll's kinds; block and
            # scatter dice of other kinds stay where they lie (the table feed leaves them out)
            lying = tuple(d for d in self._scene.drawn()[1] if d[0] not in kinds)
            self._scene = _Scene(self._scene.pawns, tuple(values), frames,
                                 self.rng.randrange(1 << 30), self.rng.randrange(1 << 30), kinds,
                                 lying)

    def place(self, positions: Mapping[str, int], moved: Sequence[str] = (),
              slip: bool = False, fix_after: int = 45) -> None:
        """Put the pieces where the game has them (``slip``: one moved piece a square short,
        put right after ``fix_after`` frames)."""
        pawns = dict(positions)
        with self._lock:
            if self._fix is not None and self._fix[0] in moved:
                self._fix = None  # the slipped piece moved again: it goes where the game has it
            if slip and moved and not self.slipped:
                name = moved[0]
                right = pawns[name]
                if right < 40 and right > 0:
                    pawns[name] = right - 1
                    self._fix = (name, right, fix_after)
                    self.slipped = True
            self._scene = replace(self._scene, pawns=pawns, moving=max(self._scene.moving, 2),
                                  seed=self.rng.randrange(1 << 30))

    def read(self) -> np.ndarray | None:
        if self.closed:
            return None
        with self._lock:
            scene = self._scene
            if self._fix is not None:
                name, cell, left = self._fix
                if left <= 0:
                    pawns = dict(scene.pawns)
                    pawns[name] = cell
                    scene = self._scene = replace(scene, pawns=pawns, moving=2,
                                                  seed=scene.seed + 1)
                    self._fix = None
                else:
                    self._fix = (name, cell, left - 1)
            moving = scene.moving > 0
            if moving:
                self._scene = replace(scene, moving=scene.moving - 1)
        self.frames += 1
        dice, special = scene.drawn()
        if moving:
            # dice tumbling and a hand over the table: a different picture every frame
            frame = self.table.render(scene.pawns, dice, hand=True,
                                      seed=self.rng.randrange(1 << 30), special=special)
        else:
            still = self._still
            if still is not None and still[0] == scene:
                return still[1]  # nothing moved: the same picture (a still scene renders the same)
            frame = self.table.render(scene.pawns, dice, hand=False, seed=scene.seed,
                                      dice_seed=scene.dice_seed, special=special)
            self._still = (scene, frame.image)
        return frame.image

    def close(self) -> None:
        self.closed = True


class ScriptedPlayers:
    """Players following a transcript's action lines (``companion play --demo --script FILE``):
    each decision is the script's next line and each roll its dice, pressed on the buttons like
    any other choice; after the last line ``then`` (the game's own bot) plays on. The next line
    is the one after the actions the session has applied since the start, so asking twice for
    the same decision gives the same answer."""

    def __init__(self, session: Any, lines: Sequence[str], then: Any) -> None:
        self.session = session
        self.lines = list(lines)
        self.start = len(session.lines)
        self.then = then

    def _next(self, state: Any) -> Action | None:
        i = len(self.session.lines) - self.start
        if i >= len(self.lines):
            return None
        action: Action = self.session.rules.parse_action(state, shlex.split(self.lines[i]))
        return action

    def choose(self, game: Any, state: Any, actions: Sequence[Action]) -> Action:
        scripted = self._next(state)
        if scripted is not None:
            return scripted
        chosen: Action = self.then.choose(game, state, actions)
        return chosen

    def dice_for(self, game: Any, state: Any, prompt: DicePrompt) -> tuple[int, ...] | None:
        """The dice of the script's roll line (None when the next line is not that roll)."""
        scripted = self._next(state)
        if scripted is None:
            return None
        for values in itertools.product(*(kind.faces for kind in prompt.dice)):
            try:
                if game.roll_action(state, prompt, tuple(values)) == scripted:
                    return tuple(values)
            except IllegalActionError:
                continue
        return None


class Autopilot:
    """Bots pressing the buttons (see the module docstring). Times are screen seconds."""

    def __init__(self, screen: GameScreen, queue: InputQueue, seed: int = 1,
                 table: Any = None, think: float = 0.8, press: float = 0.12,
                 camera_wait: float = 2.5, pause_on_human: float = 30.0,
                 show_read: float = 0.6) -> None:
        self.screen = screen
        self.queue = queue
        self.seed = seed
        self.table = table
        self.think = think
        self.press = press
        self.camera_wait = camera_wait
        self.pause_on_human = pause_on_human
        self.show_read = show_read  # how long the camera's reading stays before CONFIRM
        self.thrown = False  # the synthetic table threw this roll's dice (the camera may read)
        self.bot = bots_for(screen.session.rules).get("heuristic", RandomBot)(seed)
        self.presses: list[Input] = []
        self.wait = think
        self.paused = 0.0
        self.decision_key: tuple[int, int] | None = None
        self.rolled: tuple[int, ...] | None = None
        self.roll_wait = 0.0
        self.roll_problem = ""  # the last problem the dice pad showed with a camera reading
        self.direct = 0  # actions the bot had to apply without a button path
        self.camera_rolls = 0  # rolls the camera read (the bot only confirmed or corrected)
        self.camera_right = 0  # ... of which the camera had every die right
        self.button_rolls = 0  # rolls the bot entered on the buttons (the camera had none)
        self.guess_rolls = 0  # ... of which the entry started from the camera's guesses
        self.guess_right = 0  # ... and the guesses were the roll (only CONFIRM presses needed)
        self.by_kind: dict[str, list[int]] = {}  # die kinds -> [camera, camera right, buttons]
        self.moves = 0
        self.chosen: tuple[tuple[int, int], Action | None] | None = None  # this decision's
        self.shown: Action | None = None  # the choice done on the table for the camera
        self.shown_wait = 0.0
        self.shown_from: Action | None = None  # where the cursor was when it was shown
        self.camera_choices = 0  # choices shown on the table (a coin turned over, a pawn moved)
        self.camera_picked = 0  # ... of which the camera pre-selected the choice
        screen.on_applied.append(self._applied)

    def human(self) -> None:
        """A person pressed a key: stop pressing for a while."""
        self.paused = self.pause_on_human
        self.presses = []

    def _applied(self, applied: Applied, before: Any, after: Any) -> None:
        if self.table is None:
            return
        show = getattr(self.table, "show", None)
        if callable(show):  # a game's own demo table: the table as the game has it
            show(after)
            return
        place = self.screen.presenter.place_of
        moved = [p.name for i, p in enumerate(after.players)
                 if place(before, i) != place(after, i) and place(after, i) is not None]
        if moved:
            self.moves += 1
            self.table.place(self.screen.pawns.expected_positions(after), moved,
                             slip=self.moves == 3)

    @staticmethod
    def _same_roll(read: tuple[int, ...], rolled: tuple[int, ...], sides: tuple[int, ...]) -> bool:
        """The camera read the roll right. Two alike dice (2d6 to move, 2d8 ...) count by sum
        and doubles, so their order does not matter; with three dice the colour-coded extra
        die is told apart by its place, so it does."""
        if len(rolled) <= 2 and len(set(sides)) == 1:
            return sorted(read) == sorted(rolled)
        return read == rolled

    def _dice_for(self, state: Any) -> tuple[int, ...]:
        prompt = self.screen.presenter.dice_prompt(state)
        assert prompt is not None
        scripted = getattr(self.bot, "dice_for", None)
        if scripted is not None:
            values = scripted(self.screen.session.rules, state, prompt)
            if values is not None:
                return tuple(values)
        rng = random.Random(self.seed * 1_000_003 + len(self.screen.session.lines))
        # the same draws as randint(1, sides) for numbered dice; any face of other dice
        return tuple(rng.choice(kind.faces) for kind in prompt.dice)

    def tick(self, dt: float) -> None:
        if self.paused > 0:
            self.paused -= dt
            return
        self.wait -= dt
        if self.wait > 0:
            return
        if self.presses:
            self.queue.put(self.presses.pop(0))
            self.wait = self.press
            return
        s = self.screen.session
        if s.state.outcome is not None:
            return
        key = (s.version, len(s.lines))
        if key != self.decision_key:
            self.decision_key = key
            self.rolled = None
            self.roll_wait = 0.0
            self.roll_problem = ""
            self.shown = None
            self.shown_wait = 0.0
            self.wait = self.think
            return
        self._plan()

    def _plan(self) -> None:
        s = self.screen.session
        state = s.state
        rules = s.rules
        entry = self.screen.dice_entry()
        acts = rules.legal_actions(state, rules.deciders(state))
        key = (s.version, len(s.lines))
        if self.chosen is not None and self.chosen[0] == key:
            choice = self.chosen[1]  # asked once per decision (a bot may draw hidden things)
        else:
            choice = self.bot.choose(rules, state, acts) if acts else None
            self.chosen = (key, choice)
        if choice is None:
            return
        roll = self.screen.presenter.is_roll(state, choice)
        if entry is not None and roll:
            if self.rolled is None:
                self.rolled = self._dice_for(state)
                self.thrown = False
                if self.table is not None and self.screen.camera_live and \
                        self._throws(entry.prompt):
                    self.table.roll(self.rolled, kinds=tuple(k.name for k in entry.prompt.dice))
                    self.thrown = True
                self.wait = 0.2
                return
            tally = self.by_kind.setdefault(kinds_of(entry.prompt), [0, 0, 0])
            if entry.mode == "confirm":
                self.camera_rolls += 1
                tally[0] += 1
                read = tuple(entry.values)
                if self._same_roll(alike(read, entry.prompt), alike(self.rolled, entry.prompt),
                                   entry.sides):
                    self.camera_right += 1
                    tally[1] += 1
                    self.rolled = read  # a player confirms what the camera read, in its order
                self.presses = entry.plan_entry(self.rolled)
                self.wait = self.show_read  # let people see what the camera read
                return
            if entry.problem and entry.problem != self.roll_problem:
                # the camera read a throw and said what is wrong with it (e.g. another
                # player's die): the players throw again, so the camera gets its time again
                self.roll_problem = entry.problem
                self.roll_wait = 0.0
            self.roll_wait += 0.2
            # wait for the camera only when it has dice to read (dice the table cannot draw,
            # such as a piecepack die on the Monopoly table, go straight to the buttons)
            if self.roll_wait < self.camera_wait and self.screen.camera_dice and self.thrown:
                self.wait = 0.2
                return
            self.button_rolls += 1
            tally[2] += 1
            if entry.mode == "camera" and entry.has_guess():
                self.guess_rolls += 1
                start = tuple(entry.start_values()[0])
                if self._same_roll(alike(start, entry.prompt), alike(self.rolled, entry.prompt),
                                   entry.sides):
                    self.guess_right += 1
                    self.rolled = start  # the player checks each guess and confirms it
            self.presses = entry.plan_entry(self.rolled)
            return
        if roll:
            self.queue.put(BACK)  # should not happen: the dice entry is not on top
            return
        if self._shown_first(state, choice):
            return
        top = self.screen.stack[-1]
        if isinstance(top, MapPicker):  # a square to pick: the cursor, as a player would
            picked = top.plan(choice)
            if picked is not None:
                self.presses = picked
                return
        presses: list[Input] = [BACK] * (len(self.screen.stack) - 1)
        root = self.screen.stack[0]
        plan = root.plan(choice) if isinstance(root, Menu) else None
        if plan is None:
            self.direct += 1
            self.screen.submit(choice, source="bot")
            self.wait = self.think
            return
        if presses:
            # leave the sub-pads first, then walk from the top of a fresh menu
            self.presses = presses
            return
        self.presses = plan

    def _throws(self, prompt: DicePrompt) -> bool:
        """The demo table draws these dice (the standard table: numbered dice only)."""
        can = getattr(self.table, "can_throw", None)
        if callable(can):
            return bool(can(prompt))
        return all(drawable(kind) for kind in prompt.dice)

    def _shown_first(self, state: Any, choice: Action) -> bool:
        """On a game's own demo table, a player first does what they chose on the table (a
        coin turned over, a pawn moved: ``present``) and the camera pre-selects it; True while
        the camera is given time to read it (then the usual presses, often just CONFIRM)."""
        present = getattr(self.table, "present", None)
        if not callable(present) or not self.screen.camera_live:
            return False
        if self.shown is None:
            if not present(state, choice):
                return False
            self.shown = choice
            self.shown_from = self.selected()
            self.camera_choices += 1
            self.wait = 0.2
            return True
        if self.shown_wait < self.camera_wait and self.selected() == choice:
            if self.shown_from != choice:  # the camera moved the cursor there
                self.camera_picked += 1
            self.shown_wait = self.camera_wait  # read: press on
            return False
        self.shown_wait += 0.2
        if self.shown_wait < self.camera_wait:
            self.wait = 0.2
            return True
        return False

    def selected(self) -> Action | None:
        """The action the cursor is on (the square picker's, or the top menu's row)."""
        top = self.screen.stack[-1]
        if isinstance(top, MapPicker):
            cursor = top.cursor
            return cursor.action if cursor is not None else None
        if isinstance(top, Menu) and top.options:
            return top.options[top.index].action
        return None

    def plan_for(self, action: Action) -> list[Input] | None:
        root = self.screen.stack[0]
        return root.plan(action) if isinstance(root, Menu) else None


def kinds_of(prompt: DicePrompt) -> str:
    """A roll's die kinds as the demo's summary names them ("d6", "block", "block + d6")."""
    return " + ".join(dict.fromkeys(kind.name for kind in prompt.dice))


def alike(values: Sequence[int], prompt: DicePrompt) -> tuple[int, ...]:
    """Each value as the first face of its die showing the same thing (a block die's two
    pushed faces are one result: a camera reads either as the first)."""
    return tuple(next(f for f in kind.faces if kind.label(f) == kind.label(value))
                 if value in kind.faces else value
                 for value, kind in zip(values, prompt.dice, strict=False))


def numbered(faces: Sequence[int]) -> bool:
    """The faces are 1..N (dice the synthetic table can draw; a piecepack die is not)."""
    return tuple(faces) == tuple(range(1, len(faces) + 1))


def drawable(kind: Any) -> bool:
    """The synthetic table can throw this die as a numbered one: numbered faces read as their
    numbers (a block or scatter die, whose faces are symbols, is drawn as itself instead:
    ``DemoTable.can_throw``)."""
    return numbered(kind.faces) and not getattr(kind, "labels", ())


def confirm_only() -> list[Input]:
    return [CONFIRM]


def make_demo_feed(names: Sequence[str], size: tuple[int, int], seed: int,
                   threaded: bool, presenter: Any = None, state: Any = None
                   ) -> tuple[Any, Any, str]:
    """(feed, table, note): the synthetic table through the vision adapters. A game whose
    presenter has a demo table of its own (``demo_table``: its pieces, its dice) is filmed on
    it, its pieces read by the game's board reader (``board_reader``) and its dice in the
    table's dice region; every other game on the standard synthetic board."""
    from companion.kiosk.table_feed import (
        SyncFeed,
        TableProcessor,
        ThreadedFeed,
        vision_dice_reader,
    )

    own = presenter.demo_table(state, size, seed) if presenter is not None else None
    if own is not None:
        dice, dnote = vision_dice_reader()
        region = getattr(own, "dice_region", None)
        if dice is not None and region is not None and hasattr(dice, "region"):
            dice.region = region  # read in the table's dice area only (kept for other readers)
        processor = TableProcessor(dice, presenter.board_reader(state),
                                   thumb_width=min(480, size[0]))
        if threaded:
            return ThreadedFeed(own, processor, stall_timeout=5.0), own, dnote
        return SyncFeed(own, processor, every=3), own, dnote
    table = DemoTable(names, size, seed)
    processor, note = demo_processor(table, size)
    if threaded:
        return ThreadedFeed(table, processor, stall_timeout=5.0), table, note
    return SyncFeed(table, processor, every=3), table, note


def demo_processor(table: DemoTable, size: tuple[int, int]) -> tuple[Any, str]:
    """(the camera's processor for the standard synthetic table, a note on a reader that could
    not be loaded): the vision adapters' dice and board readers, the board learned empty and
    the dice read in the board's middle, where the synthetic table throws them."""
    from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea
    from companion.kiosk.table_feed import TableProcessor, vision_board_reader, vision_dice_reader

    dice, dnote = vision_dice_reader()
    board, bnote = vision_board_reader(table.players)
    learn = getattr(board, "set_reference", None)
    if learn is not None:
        # as at a real table: the camera sees the empty board once before the pieces go on it
        # (learning it with the pieces on GO makes the board reader miss pieces leaving GO)
        learn(table.empty_board())
    processor = TableProcessor(dice, board, thumb_width=min(480, size[0]),
                               dice_area=DiceArea.named(BOARD_CENTRE))
    return processor, dnote or bnote
