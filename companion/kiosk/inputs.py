"""From buttons to decisions: the game-level inputs and the menus every decision is made with.

Keys and GPIO buttons both arrive as :class:`hardware.buttons.Input` values (PREV, NEXT,
CONFIRM, BACK and one REACT per seat) through one :class:`~hardware.buttons.InputQueue`. The
screens only ever see those inputs.

Every decision the game offers becomes a menu option (the game's presenter builds the menu,
``companion.kiosk.presenter``); options that need a choice (an ability and its target, a square
to build on, a bid amount, a trade) open a sub-menu or a picker. Everything is reachable with
PREV/NEXT/CONFIRM/BACK alone; the REACT buttons are shortcuts that jump to a seat's own options
(off-turn reactions, bids).

A pad (menu, amount picker, a game's own pads, dice entry) answers an input with an ``Outcome``:
``Submit(action)``, ``Push(pad)``, ``Pop()`` or ``Command(name)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from companion.core.actions import Action
from companion.kiosk.map_view import MapTarget, Square
from hardware.buttons import CONFIRM, NEXT, PREV, Input, InputKind


# ----------------------------------------------------------------------------------------------
# Outcomes
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Submit:
    action: Action


@dataclass(frozen=True)
class Push:
    pad: Pad


@dataclass(frozen=True)
class Pop:
    pass


@dataclass(frozen=True)
class Command:
    name: str  # dice | undo | export


Outcome = Submit | Push | Pop | Command


@dataclass(frozen=True)
class Row:
    text: str
    selected: bool = False
    enabled: bool = True
    note: str = ""


class Pad(Protocol):
    @property
    def title(self) -> str: ...

    def rows(self) -> list[Row]: ...

    def handle(self, inp: Input) -> Outcome | None: ...


# ----------------------------------------------------------------------------------------------
# Menus
# ----------------------------------------------------------------------------------------------
@dataclass
class Option:
    label: str
    action: Action | None = None
    open: Callable[[], Pad] | None = None
    command: str | None = None
    seat: int | None = None  # whose option (REACT shortcut), None = the table's
    enabled: bool = True
    note: str = ""
    # the board places this row would put ``seat``'s piece on (a move chosen after the roll):
    # the screen moves the cursor to the row where the camera sees that piece
    places: tuple[int, ...] = ()

    def outcome(self) -> Outcome | None:
        if not self.enabled:
            return None
        if self.action is not None:
            return Submit(self.action)
        if self.open is not None:
            return Push(self.open())
        if self.command is not None:
            return Command(self.command)
        return None


@dataclass
class Menu:
    """A list of options: PREV/NEXT move, CONFIRM chooses, BACK goes up (not at the top)."""

    title: str
    options: list[Option]
    index: int = 0
    top: bool = False
    # lines that explain the decision (e.g. what each result of the pending roll does): drawn
    # under the title, whole, over as many pages as they need
    notes: tuple[str, ...] = ()

    def rows(self) -> list[Row]:
        return [Row(o.label + (" >" if o.open else ""), i == self.index, o.enabled, o.note)
                for i, o in enumerate(self.options)]

    def handle(self, inp: Input) -> Outcome | None:
        n = len(self.options)
        if inp.kind is InputKind.NEXT and n:
            self.index = (self.index + 1) % n
        elif inp.kind is InputKind.PREV and n:
            self.index = (self.index - 1) % n
        elif inp.kind is InputKind.CONFIRM and n:
            return self.options[self.index].outcome()
        elif inp.kind is InputKind.BACK and not self.top:
            return Pop()
        elif inp.kind is InputKind.REACT and inp.seat is not None:
            for i, o in enumerate(self.options):
                if o.seat == inp.seat and o.enabled:
                    self.index = i
                    break
        return None

    def find(self, action: Action) -> int | None:
        for i, o in enumerate(self.options):
            if o.action == action:
                return i
        return None

    def plan(self, action: Action, depth: int = 0) -> list[Input] | None:
        """The button presses that reach ``action`` from here (for the demo's autopilot)."""
        for i, o in enumerate(self.options):
            steps = _moves(self.index, i, len(self.options))
            if o.action == action and o.enabled:
                return [*steps, CONFIRM]
            if o.open is not None and o.enabled and depth < 4:
                sub = o.open()
                inner = sub_plan(sub, action, depth + 1)
                if inner is not None:
                    return [*steps, CONFIRM, *inner]
        return None


def _moves(start: int, goal: int, n: int) -> list[Input]:
    if n == 0:
        return []
    fwd = (goal - start) % n
    back = (start - goal) % n
    return [NEXT] * fwd if fwd <= back else [PREV] * back


def sub_plan(pad: Pad, action: Action, depth: int) -> list[Input] | None:
    if isinstance(pad, Menu):
        return pad.plan(action, depth)
    if isinstance(pad, AmountPicker):
        return pad.plan(action)
    if isinstance(pad, MapPicker):
        return pad.plan(action)
    return None


# ----------------------------------------------------------------------------------------------
# Squares on a map (a grid game's moves and placements)
# ----------------------------------------------------------------------------------------------
def reading_order(targets: list[MapTarget] | tuple[MapTarget, ...]) -> list[MapTarget]:
    """Targets row by row from the top, left to right in a row (as the map is drawn)."""
    return sorted(targets, key=lambda t: (t.square[1], t.square[0]))


@dataclass
class MapPicker:
    """A square chosen on the map: a cursor among ``targets`` (in reading order).

    PREV/NEXT move the cursor to the previous/next target (wrapping), CONFIRM sends the
    target's action, BACK returns to the menu (where every option is also a row); a seat's
    REACT button returns to the menu. :meth:`jump` moves to the nearest target in a direction
    ("up", "down", "left", "right"): NEXT held jumps down, PREV held up (on tables whose
    ``[buttons] hold_actions`` list "next" and "prev")."""

    title: str
    targets: list[MapTarget]
    index: int = 0
    top: bool = False  # BACK does nothing (the picker is the whole decision)

    def __post_init__(self) -> None:
        self.targets = reading_order(self.targets)
        self.index = max(0, min(self.index, len(self.targets) - 1))

    @property
    def cursor(self) -> MapTarget | None:
        return self.targets[self.index] if self.targets else None

    @property
    def squares(self) -> tuple[Square, ...]:
        return tuple(t.square for t in self.targets)

    def rows(self) -> list[Row]:
        return [Row(t.label, i == self.index) for i, t in enumerate(self.targets)]

    def handle(self, inp: Input) -> Outcome | None:
        n = len(self.targets)
        if inp.held and inp.kind in (InputKind.NEXT, InputKind.PREV):
            # NEXT/PREV held (when the table lists them in hold_actions): a row down / up
            self.jump("down" if inp.kind is InputKind.NEXT else "up")
        elif inp.kind is InputKind.NEXT and n:
            self.index = (self.index + 1) % n
        elif inp.kind is InputKind.PREV and n:
            self.index = (self.index - 1) % n
        elif inp.kind is InputKind.CONFIRM and n:
            return Submit(self.targets[self.index].action)
        elif inp.kind is InputKind.BACK and not self.top:
            return Pop()
        elif inp.kind is InputKind.REACT:
            return Pop()
        return None

    def jump(self, direction: str) -> None:
        """The cursor to the nearest target that lies in ``direction`` of it (none: stays)."""
        here = self.cursor
        if here is None:
            return
        dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[direction]
        x0, y0 = here.square
        best: tuple[int, int] | None = None
        for i, t in enumerate(self.targets):
            ddx, ddy = t.square[0] - x0, t.square[1] - y0
            along = ddx * dx + ddy * dy
            if along <= 0:
                continue
            across = abs(ddx * dy) + abs(ddy * dx)
            score = along + 3 * across
            if best is None or score < best[0]:
                best = (score, i)
        if best is not None:
            self.index = best[1]

    def plan(self, action: Action) -> list[Input] | None:
        """The presses that send ``action`` from here (None: it is no target)."""
        for i, t in enumerate(self.targets):
            if t.action == action:
                return [*_moves(self.index, i, len(self.targets)), CONFIRM]
        return None


# ----------------------------------------------------------------------------------------------
# Amounts (auction bids, trade cash)
# ----------------------------------------------------------------------------------------------
STEPS: tuple[int, int, int] = (100, 10, 1)


@dataclass
class AmountPicker:
    """An amount chosen with the buttons: a row of [-100] [-10] [-1] [OK $N] [+1] [+10] [+100].

    PREV/NEXT move between them, CONFIRM on a step applies it, CONFIRM on the middle one takes
    the amount; BACK leaves. ``steps`` are the three step sizes, largest first (default $100,
    $10, $1): a decision spent in units gives its own (e.g. $500/$100/$50), each a multiple of
    the next, so that every multiple of the smallest is a few presses away."""

    title: str
    low: int
    high: int
    value: int
    make: Callable[[int], Action | None]
    ok_label: str = "OK"
    cursor: int = 3  # 0..6, 3 = OK
    on_done: Callable[[int], Outcome | None] | None = None
    steps: tuple[int, int, int] = STEPS

    def __post_init__(self) -> None:
        big, mid, small = self.steps
        if not (small > 0 and mid % small == 0 and big % mid == 0 and big > mid > small):
            raise ValueError(f"amount steps go largest first, each a multiple of the next, "
                             f"not {self.steps}")
        self.value = max(self.low, min(self.high, self.value))

    @property
    def buttons(self) -> list[str]:
        return [f"-{s}" for s in self.steps] + [f"{self.ok_label} ${self.value}"] + \
            [f"+{s}" for s in reversed(self.steps)]

    def delta(self, i: int) -> int:
        return (-self.steps[i]) if i < 3 else (self.steps[6 - i] if i > 3 else 0)

    def rows(self) -> list[Row]:
        return [Row(b, i == self.cursor) for i, b in enumerate(self.buttons)]

    def handle(self, inp: Input) -> Outcome | None:
        if inp.kind is InputKind.NEXT:
            self.cursor = min(6, self.cursor + 1)
        elif inp.kind is InputKind.PREV:
            self.cursor = max(0, self.cursor - 1)
        elif inp.kind is InputKind.BACK:
            return Pop()
        elif inp.kind is InputKind.CONFIRM:
            if self.cursor == 3:
                if self.on_done is not None:
                    return self.on_done(self.value)
                action = self.make(self.value)
                return Submit(action) if action is not None else None
            self.value = max(self.low, min(self.high, self.value + self.delta(self.cursor)))
        return None

    def plan(self, action: Action) -> list[Input] | None:
        amount = getattr(action, "amount", None)
        if amount is None or not self.low <= amount <= self.high:
            return None
        if self.make(amount) != action:
            return None
        out: list[Input] = []
        cursor = self.cursor
        diff = amount - self.value
        sign = 1 if diff > 0 else -1
        rest = abs(diff)
        if rest % self.steps[2]:
            return None
        for k, step in enumerate(self.steps):
            count, rest = divmod(rest, step)
            if count:
                target = (6 - k) if sign > 0 else k
                out += _walk(cursor, target)
                cursor = target
                out += [CONFIRM] * count
        out += _walk(cursor, 3)
        out.append(CONFIRM)
        return out


def _walk(a: int, b: int) -> list[Input]:
    return [NEXT] * (b - a) if b >= a else [PREV] * (a - b)


def words(name: str) -> str:
    """An identifier as words on screen: ``free_parking`` -> ``free parking``."""
    return name.replace("_", " ")
